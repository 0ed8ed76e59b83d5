"""The third held-out chatty set ("held3"): conversations made by chatty.py's generator from facts and small
talk written for it alone (chatty_held3_en.py, chatty_held3_zh.py), before the round that tried
pseudo-relevance feedback and message-level evidence changed any ranking. It is measured, never tuned on.

    python bench/recall_eval/run.py   (its part "held3")
"""

from __future__ import annotations

from recall_eval import chatty, chatty_held3_en, chatty_held3_zh

PART = "held3"
# (language, conversations, facts per conversation, the pack)
LAYOUT = (("en", 5, 8, chatty_held3_en), ("zh", 3, 5, chatty_held3_zh))
FIRST_INDEX = 500  # conversation numbers (and so their seeds) apart from the other sets'


def conversations() -> list[chatty.Chat]:
    """Every conversation of the third held-out set."""
    plan = [(lang, facts, pack) for lang, count, facts, pack in LAYOUT for _ in range(count)]
    return [
        chatty.conversation(FIRST_INDEX + number, PART, lang, facts, pack)
        for number, (lang, facts, pack) in enumerate(plan)
    ]
