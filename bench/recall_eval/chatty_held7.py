"""The seventh held-out chatty set ("held7"): conversations made by chatty.py's generator from facts, small
talk and names written for it alone (chatty_held7_en.py, chatty_held7_zh.py), blind: by someone who had not
read the ranking's word tables, its concepts or its tests, in the eighth round, after that round's ranking
changes were made. It is measured, never tuned on.

    python bench/recall_eval/run.py   (its part "held7")
"""

from __future__ import annotations

from recall_eval import chatty, chatty_held7_en, chatty_held7_zh

PART = "held7"
# (language, conversations, facts per conversation, the pack)
LAYOUT = (("en", 6, 9, chatty_held7_en), ("zh", 3, 6, chatty_held7_zh))
FIRST_INDEX = 1300  # conversation numbers (and so their seeds) apart from the other sets'


def conversations() -> list[chatty.Chat]:
    """Every conversation of the seventh held-out set."""
    plan = [(lang, facts, pack) for lang, count, facts, pack in LAYOUT for _ in range(count)]
    return [
        chatty.conversation(FIRST_INDEX + number, PART, lang, facts, pack)
        for number, (lang, facts, pack) in enumerate(plan)
    ]
