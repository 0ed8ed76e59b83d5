"""A query's terms weighed against the index: idf weights, typo corrections and related words as needles."""

from __future__ import annotations

import math
import sqlite3
from typing import NamedTuple

from palace.recall import concepts, expand
from palace.recall.schema import ANY_TERM, chunks
from palace.recall.text import QueryTerm
from palace.recall.tuning import DEFAULT, Tuning
from palace.record import field, record

_SMOOTH_FILES = 4  # added to the files counted when a term's share of them is taken: a small palace has no common terms


@record
class IndexCache:
    """What a RecallIndex remembers between uses; the catch-up keeps it in step with the tables."""

    sources: dict[int, str] = field(default_factory=dict)  # file id -> source (ids are never reused)
    doc_count: int | None = None  # None: count again
    file_count: int = 0  # files holding a term (valid with doc_count)
    rarity: dict[str, float] = field(default_factory=dict)  # term -> its salience weight (valid with doc_count)


class Needle(NamedTuple):
    """One index term searched for: a query term, or its correction or a related word (sharing its bit)."""

    term: QueryTerm
    bit: int  # the query term's bit: a document holding any needle of a term covers that term
    weight: float  # idf (a CJK word of n bigrams weighs about one English word), times the variant's factor
    freq: int  # documents holding it


@record
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


class Held(NamedTuple):
    """How many documents and files hold a term."""

    docs: int
    files: int


def _idf(total: int, freq: int) -> float:
    return math.log(1 + (total - freq + 0.5) / (freq + 0.5))


def common_factor(files: int, all_files: int, tuning: Tuning) -> float:
    """The weight factor of a term held by this many of all_files: 1, down to tuning.common_floor for a term
    nearly every session holds (a name both speakers use in every greeting says nothing about which session)."""
    share = files / (all_files + _SMOOTH_FILES)
    if share <= tuning.common_share:
        return 1.0
    over = min(1.0, (share - tuning.common_share) / (1.0 - tuning.common_share))
    return 1.0 - (1.0 - tuning.common_floor) * over


def weigh(
    conn: sqlite3.Connection, terms: list[QueryTerm], cache: IndexCache, tuning: Tuning = DEFAULT
) -> Weights | None:
    """The terms' needles and weights, or None when no document holds any of them."""
    held, total = frequencies(conn, terms, cache)
    sizes: dict[int, int] = {}
    for term in terms:
        sizes[term.group] = sizes.get(term.group, 0) + 1
    variants = _variants(conn, terms, held, cache, tuning)
    needles: list[Needle] = []
    bit_weight: dict[int, float] = {}
    whole = 0.0
    for term in terms:
        share = math.sqrt(sizes[term.group])
        found = variants.get(term, [])
        if not found:
            whole += _idf(total, held[term].docs) / share  # a term nobody holds still counts in the whole
            continue
        bit = 1 << len(bit_weight)
        weighed = [
            Needle(
                v, bit, _idf(total, h.docs) / share * factor * common_factor(h.files, cache.file_count, tuning), h.docs
            )
            for v, factor, h in found
        ]
        bit_weight[bit] = max(n.weight for n in weighed)
        whole += bit_weight[bit]
        needles += weighed
    if not needles:
        return None
    return Weights(needles, bit_weight, whole or 1.0)


def _variants(
    conn: sqlite3.Connection, terms: list[QueryTerm], held: dict[QueryTerm, Held], cache: IndexCache, tuning: Tuning
) -> dict[QueryTerm, list[tuple[QueryTerm, float, Held]]]:
    """Per query term, the index terms that stand for it: (term, weight factor, how many hold it)."""
    out: dict[QueryTerm, list[tuple[QueryTerm, float, Held]]] = {}
    related: dict[QueryTerm, list[tuple[QueryTerm, float]]] = {}
    for term in terms:
        found = out.setdefault(term, [])
        if held[term].docs > 0:
            found.append((term, 1.0, held[term]))
        elif not term.prefix and expand.typo_candidate(term.text, tuning.typo_min_letters):
            fixed = expand.correct(conn, term.text, tuning.typo_min_letters)
            if fixed is None and tuning.stretch:
                fixed = expand.stretch(conn, term.text)
            if fixed is not None:
                found.append((QueryTerm(fixed[0], False, term.group), expand.TYPO_WEIGHT, Held(fixed[1], fixed[2])))
        if tuning.compound_weight > 0 and not term.prefix:
            found += [
                (QueryTerm(t, False, term.group), tuning.compound_weight, Held(d, f))
                for t, d, f in expand.compounds(conn, term.text, tuning.compound_letters)
            ]
        base = found[0][0] if found else _misspelt(term, tuning)
        related[term] = _related(base, term.group, tuning)
    asked = {t.text for t in terms}  # a word the query holds itself is its own term, not another's variant
    related = {t: [(r, f) for r, f in rs if r.text not in asked] for t, rs in related.items()}
    extra = [r for rs in related.values() for r, _f in rs]
    if extra:
        extra_held, _total = frequencies(conn, extra, cache)
        for term, words in related.items():
            known = {v.text for v, _f, _h in out[term]}
            for r, f in words:
                if extra_held[r].docs > 0 and r.text not in known:
                    known.add(r.text)
                    out[term].append((r, f, extra_held[r]))
    return out


def _related(base: QueryTerm, group: int, tuning: Tuning) -> list[tuple[QueryTerm, float]]:
    """The related words (synonyms) and concept words (kinds of a general word) a term also finds, with their
    weight factors: a word of n terms splits its share between them."""
    out: list[tuple[QueryTerm, float]] = []
    if tuning.related:
        out += [
            (QueryTerm(t.text, t.prefix, group), tuning.related_weight / len(w))
            for w in expand.related(base)
            for t in w
        ]
    if tuning.concept_weight > 0:
        words = concepts.concept_words(base)
        out += [(QueryTerm(t.text, t.prefix, group), tuning.concept_weight / len(w)) for w in words for t in w]
    return out


def _misspelt(term: QueryTerm, tuning: Tuning) -> QueryTerm:
    """A term no document holds, as the related-words table spells it when it is one edit from a word there."""
    if term.prefix or not expand.typo_candidate(term.text, tuning.typo_min_letters):
        return term
    fixed = expand.correct_related(term.text)
    return term if fixed is None else QueryTerm(fixed, False, term.group)


def frequencies(
    conn: sqlite3.Connection, terms: list[QueryTerm], cache: IndexCache
) -> tuple[dict[QueryTerm, Held], int]:
    """How many documents and files hold each term (from the index's vocabulary), and how many documents
    there are (cache.file_count: files holding a term)."""
    if cache.doc_count is None:
        cache.rarity.clear()
        row = conn.execute("SELECT docs, files FROM vocab WHERE term = ?", (ANY_TERM,)).fetchone()
        cache.doc_count, cache.file_count = (int(row[0]), int(row[1])) if row else (0, 0)
    total = max(cache.doc_count, 1)
    out: dict[QueryTerm, Held] = {}
    exact = sorted({t.text for t in terms if not t.prefix})
    counts: dict[str, tuple[int, int]] = {}
    for chunk, marks in chunks(exact):
        for term, docs, files in conn.execute(f"SELECT term, docs, files FROM vocab WHERE term IN ({marks})", chunk):
            counts[term] = (int(docs), int(files))
    for term in terms:
        if term.prefix:
            row = conn.execute(
                "SELECT sum(docs), max(files) FROM vocab WHERE term >= ? AND term < ?",
                (term.text, term.text + "\U0010ffff"),
            ).fetchone()
            docs, files = int(row[0] or 0), int(row[1] or 0)
        else:
            docs, files = counts.get(term.text, (0, 0))
        out[term] = Held(max(0, min(docs, total)), max(0, files))
    return out, total
