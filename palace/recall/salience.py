"""How much a message says of its own: the weight of its rare terms, for choosing what a found session shows
when the query's words say little about which of its messages answers ("what did Maya do in May?").

A term that few documents hold (less than RARE_SHARE of them) is what sets a message apart: a place, a name,
a thing bought. Chit-chat ("how was your weekend?") and greetings are made of common terms, and weigh little.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Mapping
from itertools import chain

from palace.recall.schema import chunks
from palace.recall.text import filler_terms
from palace.recall.weights import IndexCache

RARE_SHARE = 0.01  # a term held by fewer than this share of the documents counts ...
MIN_RARE_DOCS = 3  # ... (or by fewer than this many: a small palace)
MAX_CACHED_TERMS = 200_000  # terms whose rarity a RecallIndex keeps between searches


def _idf(total: int, freq: int) -> float:
    return math.log(1 + (total - freq + 0.5) / (freq + 0.5))


def salience(conn: sqlite3.Connection, terms: Mapping[int, str], cache: IndexCache) -> dict[int, float]:
    """rowid -> the summed rarity (idf above that of a term RARE_SHARE of the documents hold) of the distinct
    terms of each document (its index terms, space-separated), filler and stop words counting nothing. A
    term's rarity is worked out once and kept in the cache (until the index changes)."""
    split = {rowid: set(text.split(" ")) for rowid, text in terms.items()}
    rarity = cache.rarity
    missing = sorted(set(chain.from_iterable(split.values())).difference(rarity))
    if len(rarity) + len(missing) > MAX_CACHED_TERMS:
        rarity.clear()
        missing = sorted(set(chain.from_iterable(split.values())))
    total = max(cache.doc_count or 0, 1)
    most = max(MIN_RARE_DOCS, int(total * RARE_SHARE))  # a term held by this many documents or more is common
    floor = _idf(total, most)
    rarity.update(dict.fromkeys(missing, 0.0))
    for chunk, marks in chunks(missing):
        sql = f"SELECT term, docs FROM vocab WHERE term IN ({marks}) AND docs < ?"
        rarity.update((term, _idf(total, docs) - floor) for term, docs in conn.execute(sql, [*chunk, most]))
    rarity.update(dict.fromkeys(filler_terms().stems.intersection(missing), 0.0))  # rare or not, they say nothing
    return {rowid: sum(map(rarity.__getitem__, found)) for rowid, found in split.items()}
