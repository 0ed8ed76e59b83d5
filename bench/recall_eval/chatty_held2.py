"""The second held-out chatty set ("held2"): conversations made by chatty.py's generator from facts and small
talk written for it alone (chatty_held2_en.py, chatty_held2_zh.py), after the first chatty set had been tuned
on and before the next round of ranking changes. It is measured, never tuned on: its figures say how the
ranking does on text nobody looked at while changing it.

    python bench/recall_eval/run.py --held2
"""

from __future__ import annotations

from recall_eval import chatty, chatty_held2_en, chatty_held2_zh

PART = "held2"
# (language, conversations, facts per conversation, the pack)
LAYOUT = (("en", 6, 9, chatty_held2_en), ("zh", 4, 6, chatty_held2_zh))
FIRST_INDEX = 300  # conversation numbers (and so their seeds) apart from the first set's


def conversations() -> list[chatty.Chat]:
    """Every conversation of the second held-out set."""
    plan = [(lang, facts, pack) for lang, count, facts, pack in LAYOUT for _ in range(count)]
    return [
        chatty.conversation(FIRST_INDEX + number, PART, lang, facts, pack)
        for number, (lang, facts, pack) in enumerate(plan)
    ]
