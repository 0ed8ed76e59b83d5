"""The sixth held-out chatty set ("held6"): conversations made by chatty.py's generator from facts, small
talk and names written for it alone (chatty_held6_en.py, chatty_held6_zh.py), blind: by someone who had not
read the ranking's word tables, its concepts or its tests, in the seventh round, after that round's ranking
changes were made. Measured blind in the seventh round; tuned on in the eighth (its misses were read then), so it
is a tuning part now.

    python bench/recall_eval/run.py   (its part "held6")
"""

from __future__ import annotations

from recall_eval import chatty, chatty_held6_en, chatty_held6_zh

PART = "held6"
# (language, conversations, facts per conversation, the pack)
LAYOUT = (("en", 6, 9, chatty_held6_en), ("zh", 3, 6, chatty_held6_zh))
FIRST_INDEX = 1100  # conversation numbers (and so their seeds) apart from the other sets'


def conversations() -> list[chatty.Chat]:
    """Every conversation of the sixth held-out set."""
    plan = [(lang, facts, pack) for lang, count, facts, pack in LAYOUT for _ in range(count)]
    return [
        chatty.conversation(FIRST_INDEX + number, PART, lang, facts, pack)
        for number, (lang, facts, pack) in enumerate(plan)
    ]
