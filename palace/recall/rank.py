"""Searching the recall index: shortlist, read the candidates, BM25 scoring, aggregation per source, hits."""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import NamedTuple

from palace.errors import RecallError
from palace.paths import MEMORIES
from palace.recall.schema import DOC_BITS, chunks
from palace.recall.sources import MEMORY_PREFIX, DocKind, memory_room
from palace.recall.text import QueryTerm, match_expression, query_terms, snippet

MAX_LIMIT = 20
MAX_QUERY_CHARS = 1000
TERM_ROW_LIMIT = 30_000  # a term in more documents than this only counts for the shortlisted ones
SHORTLIST = 2  # sessions scored exactly per requested result (at least MIN_SHORTLIST)
MIN_SHORTLIST = 10

# Relative weight of a document by kind before aggregation.
_KIND_WEIGHT: dict[str, float] = {DocKind.SUMMARY: 1.6, DocKind.USER: 1.0, DocKind.ASSISTANT: 0.9}
_MEMORY_WEIGHT = 1.0
_DECAY = 0.15  # weight of the n-th best document of a session: _DECAY ** n (0.5 and 0.3 ranked worse)
_MAX_DOCS_PER_SOURCE = 6
_K1, _B = 1.2, 0.75  # BM25 term-frequency saturation and length normalisation
_COVERAGE_FLOOR = 0.2  # score factor (squared) of a source covering almost none of the query
_RECENCY = 0.02  # at most +2% for today's sessions, fading over months
_UNDATED_AGE = 3650  # days: a source without a readable date counts as ten years old


@dataclass
class RecallHit:
    """One result: the best matching text of one session (or one memory room)."""

    source: str  # session id like "2026-11-30-a1b2c3d4", or "memories.md"
    date: str  # "YYYY-MM-DD"
    snippet: str  # best matching text, secrets redacted, shortened around the match
    score: float
    where: str  # "summary" | "message (user)" | "message (assistant)" | "memory Preferences/x"


def neg_date(day: str) -> int:
    """Sort key of a YYYY-MM-DD date, newest first (0 for a malformed date)."""
    try:
        return -date.fromisoformat(day).toordinal()
    except ValueError:
        return 0


def where(kind: str) -> str:
    """How a hit names the document it comes from (RecallHit.where)."""
    room = memory_room(kind)
    if room is not None:
        return "memory " + room
    if kind == DocKind.SUMMARY:
        return "summary"
    return f"message ({kind})"


@dataclass
class IndexCache:
    """What a RecallIndex remembers between uses; the catch-up keeps it in step with the tables."""

    sources: dict[int, str] = field(default_factory=dict)  # file id -> source (ids are never reused)
    doc_count: int | None = None  # None: count again


# -- the request -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Query:
    """A validated search request."""

    terms: list[QueryTerm]
    limit: int
    since: date | None
    until: date | None
    exclude: frozenset[str]  # sources left out (e.g. the live session)

    @property
    def low(self) -> str:
        """The earliest date wanted, as a comparable YYYY-MM-DD string."""
        return _day(self.since).isoformat() if self.since is not None else ""

    @property
    def high(self) -> str:
        """The latest date wanted, as a comparable YYYY-MM-DD string."""
        return _day(self.until).isoformat() if self.until is not None else "9999"

    @property
    def shortlist(self) -> int:
        """How many session files are scored exactly."""
        return max(MIN_SHORTLIST, SHORTLIST * self.limit)


def parse_query(query: object, limit: object, since: object, until: object, exclude: Collection[str]) -> Query:
    """The request checked, with a clear RecallError for anything a caller (or the model) got wrong."""
    if not isinstance(query, str) or not query.strip():
        raise RecallError("recall query is empty: give a few words to search for")
    if len(query) > MAX_QUERY_CHARS:
        raise RecallError(f"recall query is too long ({len(query)} characters; at most {MAX_QUERY_CHARS})")
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise RecallError(f"recall limit must be a whole number from 1 to {MAX_LIMIT}, not {limit!r}")
    low, high = _date_or_none("since", since), _date_or_none("until", until)
    if low is not None and high is not None and _day(low) > _day(high):
        raise RecallError(f"recall since ({_day(low)}) is after until ({_day(high)})")
    terms = query_terms(query)
    if not terms:
        shown = " ".join(query.split())[:80]
        raise RecallError(f"recall query has no words to search for, only punctuation or symbols: {shown}")
    excluded = frozenset((exclude,) if isinstance(exclude, str) else exclude)
    return Query(terms, limit, low, high, excluded)


def _date_or_none(name: str, value: object) -> date | None:
    if value is not None and not isinstance(value, date):
        raise RecallError(f"recall {name} must be a date (YYYY-MM-DD), not {value!r}")
    return value


def _day(value: date) -> date:
    return value.date() if isinstance(value, datetime) else value


# -- term weights ----------------------------------------------------------------------------------


@dataclass
class Weights:
    """The query's terms weighed against the index: idf weights, and a bit for each term it holds."""

    present: list[QueryTerm]  # the terms some document holds, in query order
    freqs: dict[QueryTerm, int]  # documents holding each term
    weight: dict[QueryTerm, float]  # idf; a CJK word of n bigrams weighs about as much as one English word
    bit: dict[QueryTerm, int]  # bit i for the i-th present term
    total: float  # the weight of the whole query (absent terms too)
    _coverage: dict[int, float] = field(default_factory=dict)

    def coverage(self, mask: int) -> float:
        """The idf-weighted share of the query that the terms in mask make up."""
        value = self._coverage.get(mask)
        if value is None:
            covered = sum(self.weight[t] for t in self.present if mask & self.bit[t])
            value = self._coverage[mask] = covered / self.total
        return value


def _weigh(conn: sqlite3.Connection, terms: list[QueryTerm], cache: IndexCache) -> Weights | None:
    """The terms' weights, or None when no document holds any of them."""
    freqs, total = _frequencies(conn, terms, cache)
    present = [t for t in terms if freqs[t] > 0]
    if not present:
        return None
    sizes: dict[int, int] = {}
    for term in terms:
        sizes[term.group] = sizes.get(term.group, 0) + 1
    weight = {t: math.log(1 + (total - freqs[t] + 0.5) / (freqs[t] + 0.5)) / math.sqrt(sizes[t.group]) for t in terms}
    bit = {t: 1 << i for i, t in enumerate(present)}
    return Weights(present, freqs, weight, bit, sum(weight.values()) or 1.0)


def _frequencies(
    conn: sqlite3.Connection, terms: list[QueryTerm], cache: IndexCache
) -> tuple[dict[QueryTerm, int], int]:
    """How many documents hold each term (from the FTS5 vocabulary), and how many there are."""
    if cache.doc_count is None:
        cache.doc_count = int(conn.execute("SELECT count(*) FROM doc").fetchone()[0])
    total = max(cache.doc_count, 1)
    freqs: dict[QueryTerm, int] = {}
    for term in terms:
        if term.prefix:
            row = conn.execute(
                "SELECT sum(doc) FROM fts_vocab WHERE term >= ? AND term < ?", (term.text, term.text + "\U0010ffff")
            ).fetchone()
        else:
            row = conn.execute("SELECT doc FROM fts_vocab WHERE term = ?", (term.text,)).fetchone()
        freqs[term] = min(int(row[0] or 0), total) if row else 0
    return freqs, total


# -- the search, phase by phase --------------------------------------------------------------------


def search(conn: sqlite3.Connection, query: Query, cache: IndexCache) -> list[RecallHit]:
    """The best query.limit sources for the query, from the index as it is."""
    weights = _weigh(conn, query.terms, cache)
    if weights is None:
        return []
    row = conn.execute("SELECT id FROM file WHERE path = ?", (MEMORIES,)).fetchone()
    memories_id = int(row[0]) if row else None
    shortlisted = _shortlist(conn, query, weights, memories_id)
    rows = _read_candidates(conn, query, weights, shortlisted, memories_id, cache)
    sources = _sources(conn, cache, {r.rowid >> DOC_BITS for r in rows})
    groups = _score(rows, sources, weights, query)
    return _hits(conn, _rank(groups, weights)[: query.limit], weights)


def _shortlist(conn: sqlite3.Connection, query: Query, weights: Weights, memories_id: int | None) -> list[int]:
    """1. Shortlist session files inside SQLite from the FTS5 posting lists alone (ranking each matching
    document with bm25 costs a lookup per document): the idf-weighted share of the query a file covers;
    among equals, the most recently indexed. A term in very many documents is not listed (unless it is
    the rarest); it still counts when the shortlist is scored."""
    listed: list[QueryTerm] = []
    for term in sorted(weights.present, key=lambda t: weights.freqs[t]):
        if listed and weights.freqs[term] > TERM_ROW_LIMIT:
            break
        listed.append(term)
    postings = " UNION ALL ".join(
        "SELECT DISTINCT rowid >> ? AS fid, ? AS w FROM fts WHERE fts MATCH ?" for _t in listed
    )
    params: list[object] = []
    for term in listed:
        params += [DOC_BITS, weights.weight[term], match_expression([term])]
    sql = f"SELECT g.fid, g.cov AS e FROM (SELECT fid, sum(w) AS cov FROM ({postings}) GROUP BY fid) AS g"
    conditions = ["g.fid IS NOT ?"]
    params.append(memories_id)
    filters, values = _file_filters(query)
    if filters:
        sql += " JOIN file AS f ON f.id = g.fid"
        conditions += filters
        params += values
    sql += " WHERE " + " AND ".join(conditions) + " ORDER BY e DESC, g.fid DESC LIMIT ?"
    params.append(query.shortlist)
    return [file_id for file_id, _estimate in conn.execute(sql, params)]


def _file_filters(query: Query) -> tuple[list[str], list[object]]:
    """SQL conditions on the file table (as f) for the date range and the excluded sources."""
    conditions: list[str] = []
    values: list[object] = []
    if query.since is not None:
        conditions.append("substr(f.source, 1, 10) >= ?")
        values.append(query.low)
    if query.until is not None:
        conditions.append("substr(f.source, 1, 10) <= ?")
        values.append(query.high)
    if query.exclude:
        conditions.append(f"f.source NOT IN ({','.join('?' * len(query.exclude))})")
        values.extend(sorted(query.exclude))
    return conditions, values


class Candidate(NamedTuple):
    """A document read for exact scoring."""

    rowid: int
    day: str
    kind: str
    terms: str  # its index terms, space-separated


def _read_candidates(
    conn: sqlite3.Connection,
    query: Query,
    weights: Weights,
    shortlisted: list[int],
    memories_id: int | None,
    cache: IndexCache,
) -> list[Candidate]:
    """2. Every document of the shortlisted sessions (journal and archive), and the memory entries that
    hold a query term."""
    sources = _sources(conn, cache, shortlisted)
    names = sorted({sources[i] for i in shortlisted if i in sources})
    rows: list[Candidate] = []
    for chunk, marks in chunks(names):
        rows += map(
            Candidate._make,
            conn.execute(
                "SELECT d.id, d.date, d.kind, d.terms FROM file AS f JOIN doc AS d ON d.file_id = f.id "
                f"WHERE f.source IN ({marks})",
                chunk,
            ),
        )
    if memories_id is not None and MEMORIES not in query.exclude:
        rows += map(
            Candidate._make,
            conn.execute(
                "SELECT id, date, kind, terms FROM doc WHERE id IN "
                "(SELECT rowid FROM fts WHERE fts MATCH ? AND rowid >= ? AND rowid < ?)",
                (match_expression(weights.present), memories_id << DOC_BITS, (memories_id + 1) << DOC_BITS),
            ),
        )
    return rows


def _sources(conn: sqlite3.Connection, cache: IndexCache, ids: Iterable[int]) -> dict[int, str]:
    """file id -> source, through the cache (ids are never reused: the table is AUTOINCREMENT)."""
    missing = [i for i in ids if i not in cache.sources]
    for chunk, marks in chunks(missing):
        for file_id, source in conn.execute(f"SELECT id, source FROM file WHERE id IN ({marks})", chunk):
            cache.sources[file_id] = source
    return cache.sources


@dataclass
class _Group:
    """The candidate documents of one source (a session, or one memory room) during a search."""

    source: str
    scores: list[float]
    mask: int  # bit i: the query's i-th term occurs in some document of the source
    best: float
    rowid: int  # the best document
    kind: str
    date: str
    best_mask: int

    def add(self, doc: Candidate, score: float, mask: int) -> None:
        self.scores.append(score)
        self.mask |= mask
        if score > self.best:
            self.best, self.rowid, self.kind, self.date, self.best_mask = score, doc.rowid, doc.kind, doc.day, mask


class _Needle(NamedTuple):
    bit: int
    text: str  # " term " (" term" for a prefix), counted in a document's terms with a space each side of each
    weight: float


def _score(rows: list[Candidate], sources: dict[int, str], weights: Weights, query: Query) -> dict[str, _Group]:
    """3. Score the candidates exactly: BM25 over every query term (term frequency, length), summaries
    weighted up, gathered per source (a session, or one memory room)."""
    needles = [
        _Needle(weights.bit[t], f" {t.text}" if t.prefix else f" {t.text} ", weights.weight[t]) for t in weights.present
    ]
    lengths = [doc.terms.count(" ") + 1 for doc in rows]
    average = sum(lengths) / len(lengths) if lengths else 1.0
    low, high = query.low, query.high
    groups: dict[str, _Group] = {}
    for doc, length in zip(rows, lengths, strict=True):
        source = sources.get(doc.rowid >> DOC_BITS)
        if source is None or not low <= doc.day <= high:
            continue
        score, mask = _bm25(doc.terms, length, average, needles)
        if not mask:
            continue
        score *= _KIND_WEIGHT.get(doc.kind, _MEMORY_WEIGHT)
        name = f"{source}\0{doc.kind}" if doc.kind.startswith(MEMORY_PREFIX) else source  # one result per room
        group = groups.get(name)
        if group is None:
            groups[name] = _Group(source, [score], mask, score, doc.rowid, doc.kind, doc.day, mask)
        else:
            group.add(doc, score, mask)
    return groups


def _bm25(terms: str, length: int, average: float, needles: list[_Needle]) -> tuple[float, int]:
    """The BM25 score of one document's terms, and the bits of the query terms it holds."""
    padded = f" {terms.replace(' ', '  ')} "  # non-overlapping counts miss " t " twice in " t t "
    norm = _K1 * (1 - _B + _B * length / average)
    mask = 0
    score = 0.0
    for needle in needles:
        tf = padded.count(needle.text)
        if tf:
            mask |= needle.bit
            score += needle.weight * tf * (_K1 + 1) / (tf + norm)
    return score, mask


class _Ranked(NamedTuple):
    score: float
    ordinal: int  # the source's date (0 if unreadable)
    group: _Group


def _rank(groups: dict[str, _Group], weights: Weights) -> list[_Ranked]:
    """4. Rank the sources: a diminishing sum of each one's best documents times its coverage of the
    query, with a mild preference for recent ones; newer first among equal scores."""
    today = date.today().toordinal()
    ranked: list[_Ranked] = []
    for group in groups.values():
        scores = sorted(group.scores, reverse=True)[:_MAX_DOCS_PER_SOURCE]
        aggregate = sum(value * _DECAY**i for i, value in enumerate(scores))
        score = aggregate * (_COVERAGE_FLOOR + (1 - _COVERAGE_FLOOR) * weights.coverage(group.mask)) ** 2
        ordinal = -neg_date(group.date)
        age = max(0, today - ordinal) if ordinal else _UNDATED_AGE
        score *= 1.0 + _RECENCY / (1.0 + age / 90.0)
        ranked.append(_Ranked(score, ordinal, group))
    ranked.sort(key=lambda r: (-r.score, -r.ordinal))
    return ranked


def _hits(conn: sqlite3.Connection, ranked: list[_Ranked], weights: Weights) -> list[RecallHit]:
    """5. The hits: each source's best document, shortened around the query terms it holds."""
    hits: list[RecallHit] = []
    for score, _ordinal, group in ranked:
        row = conn.execute("SELECT text FROM doc WHERE id = ?", (group.rowid,)).fetchone()
        text = row[0] if row else ""
        shown = [t for t in weights.present if group.best_mask & weights.bit[t]]
        hits.append(
            RecallHit(
                source=group.source,
                date=group.date,
                snippet=snippet(text, shown or weights.present),
                score=round(score, 4),
                where=where(group.kind),
            )
        )
    return hits
