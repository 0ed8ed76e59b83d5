"""Searching the recall index: shortlist, read the candidates, BM25 scoring, aggregation per source, hits."""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Iterable
from datetime import date
from typing import NamedTuple

from palace.memory.reuse import key_of
from palace.paths import MEMORIES, SUPERSEDED
from palace.recall import passages
from palace.recall.dates import DateHint
from palace.recall.passages import Excerpt, Salience, Scored, where
from palace.recall.query import MAX_LIMIT, MAX_QUERY_CHARS, MIN_SHORTLIST, SHORTLIST, Query, parse_query
from palace.recall.salience import salience
from palace.recall.schema import DOC_BITS, chunks, unpack_terms
from palace.recall.score import Candidate, Group, score
from palace.recall.sources import entry_wing, is_entry, memory_room, superseded_room
from palace.recall.text import match_expression, snippet
from palace.recall.weights import IndexCache, Weights, weigh
from palace.record import field, record

__all__ = [
    "MAX_LIMIT",
    "MAX_QUERY_CHARS",
    "MIN_SHORTLIST",
    "SHORTLIST",
    "IndexCache",
    "Query",
    "RecallHit",
    "neg_date",
    "parse_query",
    "search",
    "where",
]

SHORTLIST_TERMS = 6  # the heaviest query terms that shortlist files (all count when they are scored)

_BELOW_CURRENT = 0.99  # a superseded entry never ranks above a current entry of its room that the query finds
_REUSE_BOOST = 0.1  # a memory entry scores this much more per doubling of its uses (recalled, confirmed) ...
_REUSE_DOUBLINGS = 3.0  # ... up to this many doublings (+30% at 7 uses)
_MAX_DOCS_PER_SOURCE = 6
_RECENCY = 0.02  # at most +2% for today's sessions, fading over months
_UNDATED_AGE = 3650  # days: a source without a readable date counts as ten years old


@record
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


# -- the search, phase by phase --------------------------------------------------------------------


def search(conn: sqlite3.Connection, query: Query, cache: IndexCache, *, shown: bool = True) -> list[RecallHit]:
    """The best query.limit sources for the query, from the index as it is; shown=False: only each hit's
    source, date, score, where and wings (no snippet, no excerpts: a count of what a search finds)."""
    weights = weigh(conn, query.terms, cache, query.tuning)
    if weights is None:
        return []
    entry_files = dict(conn.execute("SELECT path, id FROM file WHERE path IN (?, ?)", (MEMORIES, SUPERSEDED)))
    shortlisted = _shortlist(conn, query, weights, list(entry_files.values()))
    rows = _read_candidates(conn, query, shortlisted, cache)
    entries = _read_entries(conn, query, weights, entry_files)
    sources = _sources(conn, cache, {r.rowid >> DOC_BITS for r in [*rows, *entries.rows]})
    scoring = score([*rows, *entries.rows], sources, weights, query, entries.boosts)
    ranked = _rank(scoring.groups, weights, query)[: query.limit]
    if not shown:
        return _bare_hits(conn, ranked)
    return _hits(conn, ranked, weights, query, _Shown(scoring.documents, cache))


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
        boost = _boost(query)
        ranked = [(f, e * (boost if query.hint.matches(days.get(f, "")) else 1.0)) for f, e in ranked]
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


def _boost(query: Query) -> float:
    """The score factor of a session in the time a query names."""
    hint: DateHint | None = query.hint
    if hint is None:
        return 1.0
    if hint.low and hint.low == hint.high:
        return 1.0 + query.tuning.day_boost
    return 1.0 + (query.tuning.range_boost if hint.low and not hint.relative else query.tuning.date_boost)


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


class _Ranked(NamedTuple):
    score: float
    ordinal: int  # the source's date (0 if unreadable)
    group: Group


def _rank(groups: dict[str, Group], weights: Weights, query: Query) -> list[_Ranked]:
    """4. Rank the sources: a diminishing sum of each one's best documents times its coverage of the
    query, more for a session of the date the query names, with a mild preference for recent ones;
    newer first among equal scores."""
    today = date.today().toordinal()
    tuning = query.tuning
    boost = _boost(query)
    ranked: list[_Ranked] = []
    for group in groups.values():
        scores = sorted(group.ranking, reverse=True)[:_MAX_DOCS_PER_SOURCE]
        aggregate = sum(value * tuning.decay**i for i, value in enumerate(scores))
        floor = tuning.coverage_floor
        dated = query.hint is not None and query.hint.matches(group.date)
        coverage = weights.coverage(group.mask)
        if query.hint is not None:  # the time named is a part of the query that a session of that time covers
            coverage = coverage * (1 - tuning.date_share) + (tuning.date_share if dated else 0.0)
        value = aggregate * (floor + (1 - floor) * coverage) ** 2
        ordinal = -neg_date(group.date)
        age = max(0, today - ordinal) if ordinal else _UNDATED_AGE
        value *= 1.0 + _RECENCY / (1.0 + age / 90.0)
        if dated:
            value *= boost
        ranked.append(_Ranked(value, ordinal, group))
    if query.present and tuning.present_boost > 0:
        ranked = _latest_first(ranked, tuning.present_boost)
    ranked = _below_current(ranked)
    ranked.sort(key=lambda r: (-r.score, -r.ordinal))
    return ranked


def _latest_first(ranked: list[_Ranked], boost: float) -> list[_Ranked]:
    """Sessions scored up by their place in time among those found, up to boost for the latest."""
    # A fact told in May and changed in October: for "what does she drive now?", October's is the answer.
    days = [r.ordinal for r in ranked if r.ordinal and not is_entry(r.group.kind)]
    if len(days) < 2 or max(days) == min(days):
        return ranked
    first, span = min(days), max(days) - min(days)
    return [
        r._replace(score=r.score * (1 + boost * (r.ordinal - first) / span))
        if r.ordinal and not is_entry(r.group.kind)
        else r
        for r in ranked
    ]


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


class _Shown(NamedTuple):
    """What choosing a hit's excerpts reads besides its matched documents."""

    documents: dict[str, list[Candidate]]  # every document of each session read
    cache: IndexCache


_MIN_MIX = 0.05  # a hit whose salience would weigh less than this in its excerpts' values is shown by its matches


def _hits(
    conn: sqlite3.Connection, ranked: list[_Ranked], weights: Weights, query: Query, shown: _Shown
) -> list[RecallHit]:
    """5. The hits: each source's best document, shortened around the query terms it holds, and the
    excerpts to show (its best documents and the turns around them; in a session whose messages hold little
    of the query, also the messages that say the most of their own)."""
    salient = _salient(conn, ranked, weights, query, shown)
    hits: list[RecallHit] = []
    for value, _ordinal, group in ranked:
        row = conn.execute(
            "SELECT d.text, f.wings FROM doc AS d JOIN file AS f ON f.id = d.file_id WHERE d.id = ?", (group.rowid,)
        ).fetchone()
        text, file_wings = (str(row[0]), str(row[1])) if row else ("", "")
        wings = _wings_of(group, file_wings)
        terms = [n.term for n in weights.needles if group.best_mask & n.bit]
        docs, salience_of = group.docs, salient.get(group.source)
        if salience_of is not None:  # its unmatched documents may be shown for their salience
            matched = {d.rowid for d in docs}
            docs = docs + [
                Scored(0.0, d.rowid, d.kind) for d in shown.documents[group.source] if d.rowid not in matched
            ]
        hits.append(
            RecallHit(
                source=group.source,
                date=group.date,
                snippet=snippet(text, terms or weights.present),
                score=round(value, 4),
                where=where(group.kind),
                excerpts=passages.excerpts(conn, docs, weights.present, query.tuning, salience_of),
                wings=wings,
            )
        )
    return hits


def _bare_hits(conn: sqlite3.Connection, ranked: list[_Ranked]) -> list[RecallHit]:
    """5, without what is shown: each source's hit with its wings."""
    ids = sorted({r.group.rowid >> DOC_BITS for r in ranked if not is_entry(r.group.kind)})
    marks = ",".join("?" * len(ids))
    file_wings = dict(conn.execute(f"SELECT id, wings FROM file WHERE id IN ({marks})", ids)) if ids else {}
    hits: list[RecallHit] = []
    for value, _ordinal, group in ranked:
        wings = _wings_of(group, str(file_wings.get(group.rowid >> DOC_BITS, "")))
        hits.append(RecallHit(group.source, group.date, "", round(value, 4), where(group.kind), wings=wings))
    return hits


def _wings_of(group: Group, file_wings: str) -> tuple[str, ...]:
    """A hit's wings: a memory entry's from its path, a session's from its file (space-separated)."""
    if is_entry(group.kind):
        wing = entry_wing(group.kind)
        return (wing,) if wing else ()
    return tuple(file_wings.split())


def _salient(
    conn: sqlite3.Connection, ranked: list[_Ranked], weights: Weights, query: Query, shown: _Shown
) -> dict[str, Salience]:
    """source -> the salience of its documents, for the sessions whose matches cover little of the query."""
    strengths: dict[str, float] = {}
    for r in ranked:
        strength = max(weights.coverage(d.mask) for d in r.group.docs)
        if not is_entry(r.group.kind) and query.tuning.salience_weight * (1 - strength) >= _MIN_MIX:
            strengths[r.group.source] = strength
    terms = {d.rowid: d.terms for source in strengths for d in shown.documents.get(source, [])}
    if not terms:
        return {}
    of = salience(conn, terms, shown.cache)
    return {source: Salience(of, strength) for source, strength in strengths.items()}
