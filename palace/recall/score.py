"""Scoring the candidate documents of a search exactly: BM25 over every query term, gathered per source."""

from __future__ import annotations

from typing import NamedTuple

from palace.recall.passages import Scored
from palace.recall.query import Query
from palace.recall.schema import DOC_BITS
from palace.recall.sources import SUPERSEDED_PREFIX, DocKind, is_entry
from palace.recall.text import filler_terms
from palace.recall.tuning import Tuning
from palace.recall.weights import Weights
from palace.record import record

_MEMORY_WEIGHT = 1.0
_SUPERSEDED_WEIGHT = 0.5  # an entry that was replaced or forgotten: found, but after what holds now
_K1 = 1.2  # BM25 term-frequency saturation (the length normalisation is Tuning.length_norm)
_ECHO_WORDS = 4  # a document adding fewer words than this to the query's is (partly) an echo ...
_ECHO_LENGTH = 24  # ... a longer document (in terms) always says enough of its own


class Candidate(NamedTuple):
    """A document read for exact scoring."""

    rowid: int
    day: str
    kind: str
    terms: str  # its index terms, space-separated


@record
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
    """Score the candidates exactly: BM25 over every query term (term frequency, length: for ranking, counted
    up to tuning.length_cap times the average), summaries weighted up, very short documents down, messages by
    the person the query names and documents saying two of its words close together up (_Evidence), echoes
    (short documents that say little beyond the query's words) down for showing, superseded entries down and
    reused ones up, gathered per source (a session, or one room of memories.md or superseded.md)."""
    tuning = query.tuning
    probes = [
        _Probe(n.bit, f" {n.term.text}" if n.term.prefix else f" {n.term.text} ", n.weight, n.term.text)
        for n in weights.needles
    ]
    evidence = _Evidence(weights, tuning, rows)
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
        value, shown, mask, matched = _bm25(doc.terms, length, average, probes, tuning.length_norm, tuning.length_cap)
        if not mask:
            continue
        factor = _kind_weight(doc.kind, tuning) * boosts.get(doc.rowid, 1.0) * short_factor(length, tuning)
        value *= factor
        shown *= factor * _echo_factor(doc.terms, matched, tuning) if length <= _ECHO_LENGTH else factor
        said_by, near = evidence.factors(doc.terms, mask, matched)
        value *= said_by * near
        shown *= near * weights.coverage(mask) ** tuning.shown_coverage
        name = f"{source}\0{doc.kind}" if entry else source  # one result per room
        group = groups.get(name)
        if group is None:
            group = groups[name] = Group(source, [], 0, -1.0, doc.rowid, doc.kind, doc.day, mask, [])
        group.add(doc, value, mask, shown)
    return Scoring(groups, documents)


SPEAKER_STARTS = 3  # a query word that starts this many of the documents read, and ...
SPEAKER_SHARE = 0.5  # ... this share of those holding it, is a speaker's name ("Maya: ..." in an import)


class _Evidence:
    """Who said a document and how close its matches stand: two score factors beyond BM25."""

    def __init__(self, weights: Weights, tuning: Tuning, rows: list[Candidate]) -> None:
        self.weights, self.tuning = weights, tuning
        self.speakers = _speakers(weights, rows) if tuning.speaker_boost > 0 else frozenset()
        self.speaker_bits = sum({n.bit for n in weights.needles if n.term.text in self.speakers})
        # term -> its query word (the bigrams of a CJK word share one); a speaker's name is no word here
        self.word = {n.term.text: n.term.group for n in weights.needles if n.term.text not in self.speakers}

    def factors(self, terms: str, mask: int, matched: list[str]) -> tuple[float, float]:
        """(for ranking only: 1 + speaker_boost for a message by the person the query names, when its other
        words cover tuning.speaker_cover of the query; for both: 1 + near_boost when two of the query's
        words stand within near_window terms, one sentence saying both)."""
        tuning = self.tuning
        said_by = 1.0
        if (
            self.speaker_bits
            and terms.split(" ", 1)[0] in self.speakers
            and self.weights.coverage(mask & ~self.speaker_bits) >= tuning.speaker_cover
        ):
            said_by += tuning.speaker_boost
        words = {t: self.word[t] for t in matched if t in self.word}
        close = tuning.near_boost > 0 and len(set(words.values())) > 1 and self._near(terms, words)
        near = 1.0 + tuning.near_boost if close else 1.0
        return said_by, near

    def _near(self, terms: str, words: dict[str, int]) -> bool:
        last: dict[int, int] = {}  # query word -> where it was last seen
        for position, term in enumerate(terms.split(" ")):
            word = words.get(term)
            if word is None:
                continue
            if any(position - seen <= self.tuning.near_window for w, seen in last.items() if w != word):
                return True
            last[word] = position
        return False


def _speakers(weights: Weights, rows: list[Candidate]) -> frozenset[str]:
    """The query's words that start most of the documents holding them: the names of speakers (a transcript
    imported with named speakers starts each of their messages with the name); a content word seldom starts
    a message."""
    words = {n.term.text for n in weights.needles if not n.term.prefix}
    starts: dict[str, int] = {}
    for doc in rows:
        first = doc.terms.split(" ", 1)[0]
        if first in words:
            starts[first] = starts.get(first, 0) + 1
    found = []
    for word, count in starts.items():
        if count >= SPEAKER_STARTS:
            needle = f" {word} "
            holding = sum(needle in f" {doc.terms} " for doc in rows)
            if count >= SPEAKER_SHARE * holding:
                found.append(word)
    return frozenset(found)


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


def _bm25(
    terms: str, length: float, average: float, probes: list[_Probe], b: float, cap: float
) -> tuple[float, float, int, list[str]]:
    """The BM25 scores of one document's terms (for ranking, its length counted up to cap times the average;
    for showing, its whole length), the bits of the query terms it holds, and the terms found."""
    padded = f" {terms.replace(' ', '  ')} "  # non-overlapping counts miss " t " twice in " t t "
    whole = _K1 * (1 - b + b * length / average)
    norm = _K1 * (1 - b + b * min(length / average, cap))
    mask = 0
    value = shown = 0.0
    matched: list[str] = []
    for probe in probes:
        tf = padded.count(probe.text)
        if tf:
            mask |= probe.bit
            value += probe.weight * tf * (_K1 + 1) / (tf + norm)
            shown += probe.weight * tf * (_K1 + 1) / (tf + whole)
            matched.append(probe.term)
    return value, shown, mask, matched


def _echo_factor(terms: str, matched: list[str], tuning: Tuning) -> float:
    """1 for a document that says something beyond the query's words; less for an echo of them."""
    novel = filler_terms().novelty(terms, matched)
    if novel >= _ECHO_WORDS:
        return 1.0
    return tuning.echo_floor + (1 - tuning.echo_floor) * novel / _ECHO_WORDS
