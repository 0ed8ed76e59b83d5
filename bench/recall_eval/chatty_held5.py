"""The fifth held-out chatty set ("held5"): conversations made by chatty.py's generator from facts, small
talk and names written for it alone (chatty_held5_en.py, chatty_held5_zh.py), blind: by someone who had not
read the ranking's word tables or its tests. Measured blind in the sixth round; tuned on in the seventh (its
misses were read then), so it is a tuning part now.

    python bench/recall_eval/run.py   (its part "held5")
"""

from __future__ import annotations

from recall_eval import chatty, chatty_held5_en, chatty_held5_zh

PART = "held5"
# (language, conversations, facts per conversation, the pack)
LAYOUT = (("en", 6, 9, chatty_held5_en), ("zh", 3, 6, chatty_held5_zh))
FIRST_INDEX = 900  # conversation numbers (and so their seeds) apart from the other sets'


def conversations() -> list[chatty.Chat]:
    """Every conversation of the fifth held-out set."""
    plan = [(lang, facts, pack) for lang, count, facts, pack in LAYOUT for _ in range(count)]
    return [
        chatty.conversation(FIRST_INDEX + number, PART, lang, facts, pack)
        for number, (lang, facts, pack) in enumerate(plan)
    ]
