"""Scoring the candidate documents of a search exactly: BM25 over every query term, gathered per source."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from palace.recall.passages import Scored
from palace.recall.query import Query
from palace.recall.schema import DOC_BITS
from palace.recall.sources import SUPERSEDED_PREFIX, DocKind, is_entry
from palace.recall.text import filler_terms
from palace.recall.tuning import Tuning
from palace.recall.weights import Weights

_MEMORY_WEIGHT = 1.0
_SUPERSEDED_WEIGHT = 0.5  # an entry that was replaced or forgotten: found, but after what holds now
_K1, _B = 1.2, 0.75  # BM25 term-frequency saturation and length normalisation
_ECHO_WORDS = 4  # a document adding fewer words than this to the query's is (partly) an echo ...
_ECHO_LENGTH = 24  # ... a longer document (in terms) always says enough of its own


class Candidate(NamedTuple):
    """A document read for exact scoring."""

    rowid: int
    day: str
    kind: str
    terms: str  # its index terms, space-separated


@dataclass
class Group:
    """The candidate documents of one source (a session, or one memory room) during a search."""

    source: str
    docs: list[Scored]  # scored for showing: echoes down
    mask: int  # bit i: the query's i-th term occurs in some document of the source
    best: float
    rowid: int  # the best document
    kind: str
    date: str
    best_mask: int
    ranking: list[float]  # scored for ranking the source

    def add(self, doc: Candidate, score: float, mask: int, shown: float) -> None:
        self.docs.append(Scored(shown, doc.rowid, doc.kind, mask))
        self.ranking.append(score)
        self.mask |= mask
        if score > self.best:
            self.best, self.rowid, self.kind, self.date, self.best_mask = score, doc.rowid, doc.kind, doc.day, mask


class _Probe(NamedTuple):
    bit: int
    text: str  # " term " (" term" for a prefix), counted in a document's terms with a space each side of each
    weight: float
    term: str


class Scoring(NamedTuple):
    """The sources that hold a query term, and every document of the sessions read (what a hit may show)."""

    groups: dict[str, Group]
    documents: dict[str, list[Candidate]]  # session source -> its documents in the date range, matched or not


def score(
    rows: list[Candidate], sources: dict[int, str], weights: Weights, query: Query, boosts: dict[int, float]
) -> Scoring:
    """Score the candidates exactly: BM25 over every query term (term frequency, length), summaries weighted
    up, very short documents down, echoes (short documents that say little beyond the query's words) down for
    showing, superseded entries down and reused ones up, gathered per source (a session, or one room of
    memories.md or superseded.md)."""
    tuning = query.tuning
    probes = [
        _Probe(n.bit, f" {n.term.text}" if n.term.prefix else f" {n.term.text} ", n.weight, n.term.text)
        for n in weights.needles
    ]
    lengths = [doc.terms.count(" ") + 1 for doc in rows]
    average = sum(lengths) / len(lengths) if lengths else 1.0
    low, high = query.low, query.high
    groups: dict[str, Group] = {}
    documents: dict[str, list[Candidate]] = {}
    for doc, length in zip(rows, lengths, strict=True):
        source = sources.get(doc.rowid >> DOC_BITS)
        if source is None or not low <= doc.day <= high:
            continue
        entry = is_entry(doc.kind)
        if not entry:
            documents.setdefault(source, []).append(doc)
        value, mask, matched = _bm25(doc.terms, length, average, probes)
        if not mask:
            continue
        value *= _kind_weight(doc.kind, tuning) * boosts.get(doc.rowid, 1.0) * short_factor(length, tuning)
        shown = value * _echo_factor(doc.terms, matched, tuning) if length <= _ECHO_LENGTH else value
        shown *= weights.coverage(mask) ** tuning.shown_coverage
        name = f"{source}\0{doc.kind}" if entry else source  # one result per room
        group = groups.get(name)
        if group is None:
            group = groups[name] = Group(source, [], 0, -1.0, doc.rowid, doc.kind, doc.day, mask, [])
        group.add(doc, value, mask, shown)
    return Scoring(groups, documents)


def short_factor(length: int, tuning: Tuning) -> float:
    """1 for a document of tuning.short_terms terms or more; less for a shorter one: "Bye Maya!" matches a
    name in the query, and BM25's length normalisation would put it first."""
    if length >= tuning.short_terms:
        return 1.0
    return float((max(length, 1) / tuning.short_terms) ** tuning.short_power)


def _kind_weight(kind: str, tuning: Tuning) -> float:
    if kind == DocKind.SUMMARY:
        return tuning.summary_weight
    if kind == DocKind.USER:
        return tuning.user_weight
    if kind == DocKind.ASSISTANT:
        return tuning.assistant_weight
    return _SUPERSEDED_WEIGHT if kind.startswith(SUPERSEDED_PREFIX) else _MEMORY_WEIGHT


def _bm25(terms: str, length: float, average: float, probes: list[_Probe]) -> tuple[float, int, list[str]]:
    """The BM25 score of one document's terms, the bits of the query terms it holds, and the terms found."""
    padded = f" {terms.replace(' ', '  ')} "  # non-overlapping counts miss " t " twice in " t t "
    norm = _K1 * (1 - _B + _B * length / average)
    mask = 0
    value = 0.0
    matched: list[str] = []
    for probe in probes:
        tf = padded.count(probe.text)
        if tf:
            mask |= probe.bit
            value += probe.weight * tf * (_K1 + 1) / (tf + norm)
            matched.append(probe.term)
    return value, mask, matched


def _echo_factor(terms: str, matched: list[str], tuning: Tuning) -> float:
    """1 for a document that says something beyond the query's words; less for an echo of them."""
    novel = filler_terms().novelty(terms, matched)
    if novel >= _ECHO_WORDS:
        return 1.0
    return tuning.echo_floor + (1 - tuning.echo_floor) * novel / _ECHO_WORDS
