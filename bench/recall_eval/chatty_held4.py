"""The fourth held-out chatty set ("held4"): conversations made by chatty.py's generator from facts, small
talk and names written for it alone (chatty_held4_en.py, chatty_held4_zh.py), before the round that tried a
table of everyday related words changed any ranking. It is measured, never tuned on.

    python bench/recall_eval/run.py   (its part "held4")
"""

from __future__ import annotations

from recall_eval import chatty, chatty_held4_en, chatty_held4_zh

PART = "held4"
# (language, conversations, facts per conversation, the pack)
LAYOUT = (("en", 5, 9, chatty_held4_en), ("zh", 3, 5, chatty_held4_zh))
FIRST_INDEX = 700  # conversation numbers (and so their seeds) apart from the other sets'


def conversations() -> list[chatty.Chat]:
    """Every conversation of the fourth held-out set."""
    plan = [(lang, facts, pack) for lang, count, facts, pack in LAYOUT for _ in range(count)]
    return [
        chatty.conversation(FIRST_INDEX + number, PART, lang, facts, pack)
        for number, (lang, facts, pack) in enumerate(plan)
    ]
