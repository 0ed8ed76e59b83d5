"""More ways for a query word to match: a typo corrected against the index's vocabulary, and related words.

A query word of at least TYPO_MIN_LETTERS letters that no document holds is matched, at a lower weight,
to the vocabulary term one edit away (a letter dropped, added, changed, or two swapped) that most
documents hold: "fesetival" finds "festival". The lookup is an indexed query on the index's vocabulary table.

Related words (RELATED) are small groups of words that say the same thing in conversation ("colleague",
"coworker", "workmate"); a query word of a group also matches the others, at RELATED_WEIGHT.
"""

from __future__ import annotations

import sqlite3
import string

from palace.recall.schema import chunks
from palace.recall.text import stem

TYPO_MIN_LETTERS = 5
TYPO_WEIGHT = 0.8  # of the weight the corrected term has itself
RELATED_WEIGHT = 0.6
_LETTERS = string.ascii_lowercase


def _edits(word: str) -> set[str]:
    """Every string one edit away from word (Damerau-Levenshtein distance 1)."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    out = {a + b[1:] for a, b in splits if b}
    out |= {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    out |= {a + c + b[1:] for a, b in splits if b for c in _LETTERS}
    out |= {a + c + b for a, b in splits for c in _LETTERS}
    out.discard(word)
    return out


def typo_candidate(word: str) -> bool:
    """Whether a query term that no document holds is worth correcting."""
    return len(word) >= TYPO_MIN_LETTERS and word.isascii() and word.isalpha()


def correct(conn: sqlite3.Connection, word: str) -> tuple[str, int] | None:
    """The vocabulary term one edit from word held by the most documents (and that count), or None."""
    candidates = sorted(c for c in _edits(word) if len(c) >= TYPO_MIN_LETTERS - 1)
    best: tuple[str, int] | None = None
    for chunk, marks in chunks(candidates):
        for term, docs in conn.execute(f"SELECT term, docs FROM vocab WHERE term IN ({marks}) AND docs > 0", chunk):
            if best is None or (docs, best[0]) > (best[1], term):
                best = (str(term), int(docs))
    return best


# Words that stand in for each other in everyday talk (each group one meaning; kept small on purpose: a
# wrong pair costs more than a missing one). Stemmed when read.
_GROUPS = """
colleague coworker workmate
kid child children
mom mother mum
dad father
grandma grandmother granny
grandpa grandfather
car vehicle
bike bicycle
holiday vacation
film movie
flat apartment
job work
photo picture
exam test
course class
operation surgery
doctor physician
buy purchase
""".strip().splitlines()


def _related_table() -> dict[str, tuple[str, ...]]:
    table: dict[str, tuple[str, ...]] = {}
    for line in _GROUPS:
        stems = tuple(dict.fromkeys(stem(word) for word in line.split()))
        for one in stems:
            table[one] = tuple(s for s in stems if s != one)
    return table


RELATED: dict[str, tuple[str, ...]] = _related_table()
