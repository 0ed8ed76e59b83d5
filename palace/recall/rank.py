"""Searching the recall index: shortlist, read the candidates, BM25 scoring, aggregation per source, hits."""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import NamedTuple

from palace.errors import RecallError
from palace.memory.reuse import key_of
from palace.paths import MEMORIES, SUPERSEDED
from palace.recall import passages
from palace.recall.dates import DateHint, query_date
from palace.recall.passages import Excerpt, Scored, where
from palace.recall.schema import DOC_BITS, chunks, unpack_terms
from palace.recall.scope import EVERY_WING, Scope
from palace.recall.sources import SUPERSEDED_PREFIX, DocKind, entry_wing, is_entry, memory_room, superseded_room
from palace.recall.text import QueryTerm, filler_terms, match_expression, query_terms, snippet
from palace.recall.weights import IndexCache, Weights, weigh

__all__ = ["IndexCache", "Query", "RecallHit", "neg_date", "parse_query", "search", "where"]

MAX_LIMIT = 20
MAX_QUERY_CHARS = 1000
SHORTLIST_TERMS = 6  # the heaviest query terms that shortlist files (all count when they are scored)
SHORTLIST = 2  # sessions scored exactly per requested result (at least MIN_SHORTLIST)
MIN_SHORTLIST = 10

# Relative weight of a document by kind before aggregation.
_KIND_WEIGHT: dict[str, float] = {DocKind.SUMMARY: 1.6, DocKind.USER: 1.0, DocKind.ASSISTANT: 0.9}
_MEMORY_WEIGHT = 1.0
_SUPERSEDED_WEIGHT = 0.5  # an entry that was replaced or forgotten: found, but after what holds now
_BELOW_CURRENT = 0.99  # ... and never above a current entry of its room that the query finds
_REUSE_BOOST = 0.1  # a memory entry scores this much more per doubling of its uses (recalled, confirmed) ...
_REUSE_DOUBLINGS = 3.0  # ... up to this many doublings (+30% at 7 uses)
_DECAY = 0.15  # weight of the n-th best document of a session: _DECAY ** n (0.5 and 0.3 ranked worse)
_MAX_DOCS_PER_SOURCE = 6
_K1, _B = 1.2, 0.75  # BM25 term-frequency saturation and length normalisation
_ECHO_WORDS = 4  # a document adding fewer words than this to the query's is (partly) an echo ...
_ECHO_LENGTH = 24  # ... a longer document (in terms) always says enough of its own
_ECHO_FLOOR = 0.25  # ... and scores down to this share: "So cute! I love your turtles!" is no answer
SHOWN_COVERAGE = 1.0  # for showing, a document's score times its coverage of the query to this power
ECHO_IN_RANK = (
    False  # echoes are scored down for showing only: for ranking, a session that keeps talking about it counts
)
_COVERAGE_FLOOR = 0.2  # score factor (squared) of a source covering almost none of the query
_RECENCY = 0.02  # at most +2% for today's sessions, fading over months
_DATE_BOOST = 1.0  # a session in the time the query names ("in June") scores this much more ...
_DAY_BOOST = 2.0  # ... or this much, on the very day it names ("on 3 June 2023")
DROP_DATE_WORDS = True
_UNDATED_AGE = 3650  # days: a source without a readable date counts as ten years old


@dataclass
class RecallHit:
    """One result: the best matching text of one session (or one memory room), and what to show of it."""

    source: str  # session id like "2026-11-30-a1b2c3d4", "memories.md" or "superseded.md"
    date: str  # "YYYY-MM-DD": the conversation's own start date
    snippet: str  # best matching text, secrets redacted, shortened around the match
    score: float
    where: str  # "summary" | "message (user)" | "message (assistant)" | "memory Preferences/x" | "superseded ..."
    excerpts: list[Excerpt] = field(default_factory=list)  # the best documents and their neighbouring turns
    wings: tuple[str, ...] = ()  # the session's wings, or the entry's; none: wing-less


def neg_date(day: str) -> int:
    """Sort key of a YYYY-MM-DD date, newest first (0 for a malformed date)."""
    try:
        return -date.fromisoformat(day).toordinal()
    except ValueError:
        return 0


# -- the request -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Query:
    """A validated search request."""

    terms: list[QueryTerm]
    limit: int
    since: date | None
    until: date | None
    exclude: frozenset[str]  # sources left out (e.g. the live session)
    hint: DateHint | None = None  # a time the query's words name: a boost, not a filter
    scope: Scope = EVERY_WING  # the wings searched (with everything wing-less)
    reuse: Mapping[str, int] = field(default_factory=dict)  # reuse.key_of(path, content) -> uses of an entry

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


def parse_query(
    query: object,
    limit: object,
    since: object,
    until: object,
    exclude: Collection[str],
    scope: Scope = EVERY_WING,
    reuse: Mapping[str, int] | None = None,
) -> Query:
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
    hint = query_date(query)
    if hint is not None and DROP_DATE_WORDS and not hint.relative:
        # "in June" says when, not what: it is not searched for (unless nothing else is left)
        terms = query_terms(query.replace(hint.phrase, " ", 1)) or terms
    excluded = frozenset((exclude,) if isinstance(exclude, str) else exclude)
    return Query(terms, limit, low, high, excluded, hint, scope, reuse or {})


def _date_or_none(name: str, value: object) -> date | None:
    if value is not None and not isinstance(value, date):
        raise RecallError(f"recall {name} must be a date (YYYY-MM-DD), not {value!r}")
    return value


def _day(value: date) -> date:
    return value.date() if isinstance(value, datetime) else value


# -- the search, phase by phase --------------------------------------------------------------------


def search(conn: sqlite3.Connection, query: Query, cache: IndexCache) -> list[RecallHit]:
    """The best query.limit sources for the query, from the index as it is."""
    weights = weigh(conn, query.terms, cache)
    if weights is None:
        return []
    entry_files = dict(conn.execute("SELECT path, id FROM file WHERE path IN (?, ?)", (MEMORIES, SUPERSEDED)))
    shortlisted = _shortlist(conn, query, weights, list(entry_files.values()))
    rows = _read_candidates(conn, query, shortlisted, cache)
    entries = _read_entries(conn, query, weights, entry_files)
    sources = _sources(conn, cache, {r.rowid >> DOC_BITS for r in [*rows, *entries.rows]})
    groups = _score([*rows, *entries.rows], sources, weights, query, entries.boosts)
    return _hits(conn, _rank(groups, weights, query)[: query.limit], weights)


def _shortlist(conn: sqlite3.Connection, query: Query, weights: Weights, entry_files: list[int]) -> list[int]:
    """1. Shortlist session files inside SQLite from the file-level index alone: by the idf-weighted share
    of the query a file covers (a query term counted once, whichever of its needles a file holds), more
    for a file of the date the query names; among equals, the most recently indexed.

    The sets of query terms are taken heaviest first ("a AND b AND c", then "a AND b", ...): each an FTS5
    intersection stopped after the files wanted, so no posting list is read to its end and nothing is
    grouped. The SHORTLIST_TERMS heaviest terms make the sets; the others count when the files are scored."""
    filters, values = _file_filters(query)
    sql = "SELECT ffts.rowid FROM ffts"
    if filters:
        sql += " JOIN file AS f ON f.id = ffts.rowid"
    if entry_files:  # memories.md and superseded.md rank as entries, not as files
        filters = [f"ffts.rowid NOT IN ({','.join('?' * len(entry_files))})", *filters]
        values = [*entry_files, *values]
    sql += " WHERE ffts MATCH ?" + "".join(f" AND {c}" for c in filters) + " ORDER BY ffts.rowid DESC LIMIT ?"
    wanted = query.shortlist * (2 if query.hint is not None else 1)
    found: dict[int, float] = {}
    for expression, estimate in _term_sets(weights):
        if len(found) >= wanted:
            break
        for (file_id,) in conn.execute(sql, [expression, *values, wanted]):
            found.setdefault(int(file_id), estimate)
    ranked = list(found.items())
    if query.hint is not None and ranked:
        days = _days(conn, [f for f, _e in ranked])
        ranked = [(f, e * (_boost(query.hint) if query.hint.matches(days.get(f, "")) else 1.0)) for f, e in ranked]
    ranked.sort(key=lambda fe: (-fe[1], -fe[0]))
    return [file_id for file_id, _estimate in ranked[: query.shortlist]]


def _term_sets(weights: Weights) -> list[tuple[str, float]]:
    """Every set of the SHORTLIST_TERMS heaviest query terms as an FTS5 AND expression (a term: its needles
    OR-ed), with its weight, heaviest first: a file holding exactly that set has that estimate."""
    concepts = sorted(weights.bit_weight.items(), key=lambda bw: (-bw[1], bw[0]))[:SHORTLIST_TERMS]
    needles = {bit: match_expression(n.term for n in weights.needles if n.bit == bit) for bit, _w in concepts}
    sets = []
    for mask in range(1, 1 << len(concepts)):
        chosen = [(bit, w) for i, (bit, w) in enumerate(concepts) if mask >> i & 1]
        sets.append((" AND ".join(f"({needles[bit]})" for bit, _w in chosen), sum(w for _b, w in chosen)))
    sets.sort(key=lambda s: -s[1])
    return sets


def _days(conn: sqlite3.Connection, ids: list[int]) -> dict[int, str]:
    days: dict[int, str] = {}
    for chunk, marks in chunks(ids):
        days.update(conn.execute(f"SELECT id, day FROM file WHERE id IN ({marks})", chunk).fetchall())
    return days


def _boost(hint: DateHint) -> float:
    """The score factor of a session in the time a query names."""
    return 1.0 + (_DAY_BOOST if hint.low and hint.low == hint.high else _DATE_BOOST)


def _file_filters(query: Query) -> tuple[list[str], list[object]]:
    """SQL conditions on the file table (as f) for the wings, the date range and the excluded sources."""
    wings, values = query.scope.condition("f.wings")
    conditions: list[str] = [wings] if wings is not None else []
    if query.since is not None:
        conditions.append("f.day >= ?")
        values.append(query.low)
    if query.until is not None:
        conditions.append("f.day <= ?")
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
    conn: sqlite3.Connection, query: Query, shortlisted: list[int], cache: IndexCache
) -> list[Candidate]:
    """2. Every document of the shortlisted sessions (journal and archive) in the query's wings."""
    sources = _sources(conn, cache, shortlisted)
    names = sorted({sources[i] for i in shortlisted if i in sources})
    wings, values = query.scope.condition("f.wings")
    rows: list[Candidate] = []
    for chunk, marks in chunks(names):
        found = conn.execute(
            "SELECT d.id, d.date, d.kind, d.terms FROM file AS f JOIN doc AS d ON d.file_id = f.id "
            f"WHERE f.source IN ({marks})" + (f" AND {wings}" if wings else ""),
            [*chunk, *values],
        )
        rows += [Candidate(rowid, day, kind, unpack_terms(terms)) for rowid, day, kind, terms in found]
    return rows


class _Entries(NamedTuple):
    """The entries (current and superseded) that hold a query term, and the reuse boost of current ones."""

    rows: list[Candidate]
    boosts: dict[int, float]  # rowid -> score factor


def _read_entries(conn: sqlite3.Connection, query: Query, weights: Weights, files: dict[str, int]) -> _Entries:
    """2b. The entries of memories.md and superseded.md that hold a query term, in the query's wings."""
    found = _Entries([], {})
    for name, file_id in sorted(files.items()):
        if name in query.exclude:
            continue
        text_column = "text" if query.reuse else "''"  # an entry's text is read only to look up its reuse
        for rowid, day, kind, terms, text in conn.execute(
            f"SELECT id, date, kind, terms, {text_column} FROM doc WHERE id IN "
            "(SELECT rowid FROM fts WHERE fts MATCH ? AND rowid >= ? AND rowid < ?)",
            (match_expression(weights.present), file_id << DOC_BITS, (file_id + 1) << DOC_BITS),
        ):
            wing = entry_wing(kind)
            if not query.scope.allows([wing] if wing else []):
                continue
            found.rows.append(Candidate(rowid, day, kind, unpack_terms(terms)))
            room = memory_room(kind)
            uses = query.reuse.get(key_of(room, text), 0) if room is not None and query.reuse else 0
            if uses > 0:
                found.boosts[rowid] = 1.0 + _REUSE_BOOST * min(math.log2(1 + uses), _REUSE_DOUBLINGS)
    return found


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
    docs: list[Scored]  # scored for showing: echoes down
    mask: int  # bit i: the query's i-th term occurs in some document of the source
    best: float
    rowid: int  # the best document
    kind: str
    date: str
    best_mask: int
    ranking: list[float]  # scored for ranking the source

    def add(self, doc: Candidate, score: float, mask: int, shown: float) -> None:
        self.docs.append(Scored(shown, doc.rowid, doc.kind))
        self.ranking.append(score)
        self.mask |= mask
        if score > self.best:
            self.best, self.rowid, self.kind, self.date, self.best_mask = score, doc.rowid, doc.kind, doc.day, mask


class _Probe(NamedTuple):
    bit: int
    text: str  # " term " (" term" for a prefix), counted in a document's terms with a space each side of each
    weight: float
    term: str


def _score(
    rows: list[Candidate], sources: dict[int, str], weights: Weights, query: Query, boosts: dict[int, float]
) -> dict[str, _Group]:
    """3. Score the candidates exactly: BM25 over every query term (term frequency, length), summaries
    weighted up, echoes (short documents that say little beyond the query's words) down, superseded entries
    down and reused ones up, gathered per source (a session, or one room of memories.md or superseded.md)."""
    probes = [
        _Probe(n.bit, f" {n.term.text}" if n.term.prefix else f" {n.term.text} ", n.weight, n.term.text)
        for n in weights.needles
    ]
    lengths = [doc.terms.count(" ") + 1 for doc in rows]
    average = sum(lengths) / len(lengths) if lengths else 1.0
    low, high = query.low, query.high
    groups: dict[str, _Group] = {}
    for doc, length in zip(rows, lengths, strict=True):
        source = sources.get(doc.rowid >> DOC_BITS)
        if source is None or not low <= doc.day <= high:
            continue
        score, mask, matched = _bm25(doc.terms, length, average, probes)
        if not mask:
            continue
        score *= _kind_weight(doc.kind) * boosts.get(doc.rowid, 1.0)
        shown = score * _echo_factor(doc.terms, matched) if length <= _ECHO_LENGTH else score
        shown *= weights.coverage(mask) ** SHOWN_COVERAGE
        if ECHO_IN_RANK:
            score = shown
        name = f"{source}\0{doc.kind}" if is_entry(doc.kind) else source  # one result per room
        group = groups.get(name)
        if group is None:
            group = groups[name] = _Group(source, [], 0, -1.0, doc.rowid, doc.kind, doc.day, mask, [])
        group.add(doc, score, mask, shown)
    return groups


def _kind_weight(kind: str) -> float:
    weight = _KIND_WEIGHT.get(kind)
    if weight is not None:
        return weight
    return _SUPERSEDED_WEIGHT if kind.startswith(SUPERSEDED_PREFIX) else _MEMORY_WEIGHT


def _bm25(terms: str, length: float, average: float, probes: list[_Probe]) -> tuple[float, int, list[str]]:
    """The BM25 score of one document's terms, the bits of the query terms it holds, and the terms found."""
    padded = f" {terms.replace(' ', '  ')} "  # non-overlapping counts miss " t " twice in " t t "
    norm = _K1 * (1 - _B + _B * length / average)
    mask = 0
    score = 0.0
    matched: list[str] = []
    for probe in probes:
        tf = padded.count(probe.text)
        if tf:
            mask |= probe.bit
            score += probe.weight * tf * (_K1 + 1) / (tf + norm)
            matched.append(probe.term)
    return score, mask, matched


def _echo_factor(terms: str, matched: list[str]) -> float:
    """1 for a document that says something beyond the query's words; less for an echo of them."""
    novel = filler_terms().novelty(terms, matched)
    if novel >= _ECHO_WORDS:
        return 1.0
    return _ECHO_FLOOR + (1 - _ECHO_FLOOR) * novel / _ECHO_WORDS


class _Ranked(NamedTuple):
    score: float
    ordinal: int  # the source's date (0 if unreadable)
    group: _Group


def _rank(groups: dict[str, _Group], weights: Weights, query: Query) -> list[_Ranked]:
    """4. Rank the sources: a diminishing sum of each one's best documents times its coverage of the
    query, more for a session of the date the query names, with a mild preference for recent ones;
    newer first among equal scores."""
    today = date.today().toordinal()
    ranked: list[_Ranked] = []
    for group in groups.values():
        scores = sorted(group.ranking, reverse=True)[:_MAX_DOCS_PER_SOURCE]
        aggregate = sum(value * _DECAY**i for i, value in enumerate(scores))
        score = aggregate * (_COVERAGE_FLOOR + (1 - _COVERAGE_FLOOR) * weights.coverage(group.mask)) ** 2
        ordinal = -neg_date(group.date)
        age = max(0, today - ordinal) if ordinal else _UNDATED_AGE
        score *= 1.0 + _RECENCY / (1.0 + age / 90.0)
        if query.hint is not None and query.hint.matches(group.date):
            score *= _boost(query.hint)
        ranked.append(_Ranked(score, ordinal, group))
    ranked = _below_current(ranked)
    ranked.sort(key=lambda r: (-r.score, -r.ordinal))
    return ranked


def _below_current(ranked: list[_Ranked]) -> list[_Ranked]:
    """Superseded entries ranked below the current entries of their room that the query found too: an old
    fact never comes before what holds now."""
    current: dict[str, float] = {}
    for r in ranked:
        room = memory_room(r.group.kind)
        if room is not None:
            current[room.casefold()] = r.score
    if not current:
        return ranked
    out = []
    for r in ranked:
        old = superseded_room(r.group.kind)
        cap = current.get(old.casefold()) if old is not None else None
        out.append(r._replace(score=min(r.score, cap * _BELOW_CURRENT)) if cap is not None else r)
    return out


def _hits(conn: sqlite3.Connection, ranked: list[_Ranked], weights: Weights) -> list[RecallHit]:
    """5. The hits: each source's best document, shortened around the query terms it holds, and the
    excerpts to show (its best documents and the turns around them)."""
    hits: list[RecallHit] = []
    for score, _ordinal, group in ranked:
        row = conn.execute(
            "SELECT d.text, f.wings FROM doc AS d JOIN file AS f ON f.id = d.file_id WHERE d.id = ?", (group.rowid,)
        ).fetchone()
        text, file_wings = (str(row[0]), str(row[1])) if row else ("", "")
        wing = entry_wing(group.kind)
        wings = ((wing,) if wing else ()) if is_entry(group.kind) else tuple(file_wings.split())
        shown = [n.term for n in weights.needles if group.best_mask & n.bit]
        hits.append(
            RecallHit(
                source=group.source,
                date=group.date,
                snippet=snippet(text, shown or weights.present),
                score=round(score, 4),
                where=where(group.kind),
                excerpts=passages.excerpts(conn, group.docs, weights.present),
                wings=wings,
            )
        )
    return hits
