"""The ninth held-out chatty set ("held9"): conversations made by chatty.py's generator from facts, small
talk and names written for it alone (chatty_held9_en.py, chatty_held9_zh.py), blind, in the tenth round: by
someone who had not read the ranking's code, word tables, concepts or tests, after the eighth set. It is
measured, never tuned on.

    python bench/recall_eval/run.py   (its part "held9")
"""

from __future__ import annotations

from recall_eval import chatty, chatty_held9_en, chatty_held9_zh

PART = "held9"
# (language, conversations, facts per conversation, the pack)
LAYOUT = (("en", 6, 9, chatty_held9_en), ("zh", 4, 6, chatty_held9_zh))
FIRST_INDEX = 1500  # conversation numbers (and so their seeds) apart from the other sets'


def conversations() -> list[chatty.Chat]:
    """Every conversation of the ninth held-out set."""
    plan = [(lang, facts, pack) for lang, count, facts, pack in LAYOUT for _ in range(count)]
    return [
        chatty.conversation(FIRST_INDEX + number, PART, lang, facts, pack)
        for number, (lang, facts, pack) in enumerate(plan)
    ]
