"""A query's terms weighed against the index: idf weights, typo corrections and related words as needles."""

from __future__ import annotations

import math
import sqlite3
from dataclasses import dataclass, field
from typing import NamedTuple

from palace.recall import expand
from palace.recall.schema import chunks
from palace.recall.text import QueryTerm

# The related-words step (expand.RELATED), off: on the conversation evaluation it helped the tuning part
# (recall@1 70.1% -> 75.4%) but not the held-out one (79.1% -> 77.4%); run.py --ablate measures it both ways.
USE_RELATED = False


@dataclass
class IndexCache:
    """What a RecallIndex remembers between uses; the catch-up keeps it in step with the tables."""

    sources: dict[int, str] = field(default_factory=dict)  # file id -> source (ids are never reused)
    doc_count: int | None = None  # None: count again


class Needle(NamedTuple):
    """One index term searched for: a query term, or its correction or a related word (sharing its bit)."""

    term: QueryTerm
    bit: int  # the query term's bit: a document holding any needle of a term covers that term
    weight: float  # idf (a CJK word of n bigrams weighs about one English word), times the variant's factor
    freq: int  # documents holding it


@dataclass
class Weights:
    """The query's terms weighed against the index."""

    needles: list[Needle]  # the terms some document holds, in query order
    bit_weight: dict[int, float]  # the weight each covered query term adds to coverage
    total: float  # the weight of the whole query (terms no document holds too)
    _coverage: dict[int, float] = field(default_factory=dict)

    @property
    def present(self) -> list[QueryTerm]:
        return [n.term for n in self.needles]

    def coverage(self, mask: int) -> float:
        """The idf-weighted share of the query that the terms in mask make up."""
        value = self._coverage.get(mask)
        if value is None:
            covered = sum(w for bit, w in self.bit_weight.items() if mask & bit)
            value = self._coverage[mask] = covered / self.total
        return value


def _idf(total: int, freq: int) -> float:
    return math.log(1 + (total - freq + 0.5) / (freq + 0.5))


def weigh(conn: sqlite3.Connection, terms: list[QueryTerm], cache: IndexCache) -> Weights | None:
    """The terms' needles and weights, or None when no document holds any of them."""
    freqs, total = frequencies(conn, terms, cache)
    sizes: dict[int, int] = {}
    for term in terms:
        sizes[term.group] = sizes.get(term.group, 0) + 1
    variants = _variants(conn, terms, freqs, cache)
    needles: list[Needle] = []
    bit_weight: dict[int, float] = {}
    whole = 0.0
    for term in terms:
        share = math.sqrt(sizes[term.group])
        found = variants.get(term, [])
        if not found:
            whole += _idf(total, freqs[term]) / share  # a term nobody holds still counts in the whole
            continue
        bit = 1 << len(bit_weight)
        weighed = [Needle(v, bit, _idf(total, f) / share * factor, f) for v, factor, f in found]
        bit_weight[bit] = max(n.weight for n in weighed)
        whole += bit_weight[bit]
        needles += weighed
    if not needles:
        return None
    return Weights(needles, bit_weight, whole or 1.0)


def _variants(
    conn: sqlite3.Connection, terms: list[QueryTerm], freqs: dict[QueryTerm, int], cache: IndexCache
) -> dict[QueryTerm, list[tuple[QueryTerm, float, int]]]:
    """Per query term, the index terms that stand for it: (term, weight factor, documents holding it)."""
    out: dict[QueryTerm, list[tuple[QueryTerm, float, int]]] = {}
    related: dict[QueryTerm, list[QueryTerm]] = {}
    for term in terms:
        found = out.setdefault(term, [])
        if freqs[term] > 0:
            found.append((term, 1.0, freqs[term]))
        elif not term.prefix and expand.typo_candidate(term.text):
            fixed = expand.correct(conn, term.text)
            if fixed is not None:
                found.append((QueryTerm(fixed[0], False, term.group), expand.TYPO_WEIGHT, fixed[1]))
        if USE_RELATED and not term.prefix:
            base = found[-1][0].text if found else term.text
            related[term] = [QueryTerm(r, False, term.group) for r in expand.RELATED.get(base, ())]
    extra = [r for rs in related.values() for r in rs]
    if extra:
        extra_freqs, _total = frequencies(conn, extra, cache)
        for term, words in related.items():
            out[term] += [(r, expand.RELATED_WEIGHT, extra_freqs[r]) for r in words if extra_freqs[r] > 0]
    return out


def frequencies(
    conn: sqlite3.Connection, terms: list[QueryTerm], cache: IndexCache
) -> tuple[dict[QueryTerm, int], int]:
    """How many documents hold each term (from the index's vocabulary), and how many there are."""
    if cache.doc_count is None:
        cache.doc_count = int(conn.execute("SELECT count(*) FROM doc").fetchone()[0])
    total = max(cache.doc_count, 1)
    freqs: dict[QueryTerm, int] = {}
    exact = sorted({t.text for t in terms if not t.prefix})
    counts: dict[str, int] = {}
    for chunk, marks in chunks(exact):
        counts.update(conn.execute(f"SELECT term, docs FROM vocab WHERE term IN ({marks})", chunk).fetchall())
    for term in terms:
        if term.prefix:
            row = conn.execute(
                "SELECT sum(docs) FROM vocab WHERE term >= ? AND term < ?", (term.text, term.text + "\U0010ffff")
            ).fetchone()
            count = int(row[0] or 0)
        else:
            count = int(counts.get(term.text) or 0)
        freqs[term] = max(0, min(count, total))
    return freqs, total
