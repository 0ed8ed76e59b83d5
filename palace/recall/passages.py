"""What a hit shows: its best documents with the turns around them, each cut to a readable size and valued.

A question and its answer are two turns, and the words of a recall query are mostly in the question ("do
you have any pets?"), so a matched turn is shown with the turn after it (and the one after that when the
next turn is itself a question: "No way! What kind?") and the turn before it. Each excerpt carries a value,
its share of what the hit's best document is worth, which format_hits uses to pack the output.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection
from dataclasses import dataclass

from palace.recall.schema import DOC_BITS, chunks
from palace.recall.sources import DocKind, memory_room, superseded_room
from palace.recall.text import QueryTerm, snippet

EXCERPT_CHARS = 700  # a matched document is cut to about this many characters around the query's words
NEIGHBOUR_CHARS = 500  # a turn shown for its neighbour: its start (after) or its end (before)
MAX_CENTRES = 4  # matched documents of one source offered for showing
CENTRE_FLOOR = 0.2  # ... each scoring at least this share of the source's best
AFTER = 0.7  # value of the turn after a matched one, as a share of that one's
AFTER_QUESTION = 0.9  # ... when the matched turn asks something: the answer follows
SECOND_AFTER = 0.6  # the turn after that, when the turn after asks a question itself
BEFORE = 0.5  # the turn before a matched one
_REACH = 3  # document numbers looked at on each side (a document without terms is not stored)
_TURNS = (DocKind.USER, DocKind.ASSISTANT)


def where(kind: str) -> str:
    """Where a hit's text comes from, for the model (RecallHit.where)."""
    if memory_room(kind) is not None or superseded_room(kind) is not None:
        return role(kind)
    if kind == DocKind.SUMMARY:
        return "summary"
    return f"message ({kind})"


def role(kind: str) -> str:
    """How an excerpt is labelled: "user", "assistant", "summary", "memory <room>" or "superseded <room>"."""
    room = memory_room(kind)
    if room is not None:
        return "memory " + room
    old = superseded_room(kind)
    return "superseded " + old if old is not None else str(kind)


@dataclass(frozen=True)
class Excerpt:
    """One document shown for a hit: a matched one (side 0), or the turn before (-1) or after (+1) one."""

    rowid: int  # the document (its file and its number there: the order excerpts are shown in)
    role: str  # "user", "assistant", "summary", "memory <room>"
    text: str  # redacted (as stored), cut to size
    value: float  # 0..1: its share of what the hit's best document is worth
    side: int
    entry: str | None = None  # a current memory entry's whole text (as stored): what its reuse is counted by


@dataclass(frozen=True)
class Scored:
    """A matched document of a source, as the search scored it."""

    score: float
    rowid: int
    kind: str


def _texts(conn: sqlite3.Connection, rowids: Collection[int]) -> dict[int, tuple[str, str]]:
    """rowid -> (kind, text) of the documents that exist among rowids."""
    found: dict[int, tuple[str, str]] = {}
    for chunk, marks in chunks(sorted(rowids)):
        for rowid, kind, text in conn.execute(f"SELECT id, kind, text FROM doc WHERE id IN ({marks})", chunk):
            found[int(rowid)] = (str(kind), str(text))
    return found


def _near(rowid: int, texts: dict[int, tuple[str, str]], step: int) -> int | None:
    """The nearest turn of the same file on one side of rowid (step -1 or +1), or None."""
    file_id = rowid >> DOC_BITS
    for distance in range(1, _REACH + 1):
        other = rowid + step * distance
        if other >> DOC_BITS != file_id:
            return None
        if other in texts:
            return other if texts[other][0] in _TURNS else None
    return None


def _asks(text: str) -> bool:
    return "?" in text or "？" in text


def excerpts(conn: sqlite3.Connection, docs: list[Scored], terms: Collection[QueryTerm]) -> list[Excerpt]:
    """The excerpts a source offers: its best documents and their neighbouring turns, valued."""
    if not docs:
        return []
    ranked = sorted(docs, key=lambda d: (-d.score, d.rowid))
    best = ranked[0].score or 1.0
    centres = [d for d in ranked[:MAX_CENTRES] if d.score >= CENTRE_FLOOR * best]
    wanted = {d.rowid for d in centres}
    for d in centres:
        if d.kind in _TURNS:
            wanted |= {d.rowid + i for i in range(-_REACH, 2 * _REACH + 1)}  # the turn after the next too
    texts = _texts(conn, wanted)
    values: dict[int, tuple[float, int]] = {}  # rowid -> (value, side)

    def offer(rowid: int | None, value: float, side: int) -> None:
        if rowid is None or rowid not in texts or value <= 0:
            return
        old = values.get(rowid)
        if old is None or value > old[0]:
            values[rowid] = (value, 0 if old is not None and old[1] == 0 else side)

    for d in centres:
        value = d.score / best
        values[d.rowid] = (max(value, values.get(d.rowid, (0.0, 0))[0]), 0)
        if d.kind not in _TURNS or d.rowid not in texts:
            continue
        after = _near(d.rowid, texts, 1)
        offer(after, value * (AFTER_QUESTION if _asks(texts[d.rowid][1]) else AFTER), 1)
        if after is not None and _asks(texts[after][1]):
            offer(_near(after, texts, 1), value * SECOND_AFTER, 1)
        offer(_near(d.rowid, texts, -1), value * BEFORE, -1)
    out = []
    for rowid, (value, side) in values.items():
        if rowid not in texts:
            continue
        kind, text = texts[rowid]
        entry = text if memory_room(kind) is not None else None
        out.append(Excerpt(rowid, role(kind), _cut(text, terms, side), round(value, 4), side, entry))
    return sorted(out, key=lambda e: e.rowid)


def _cut(text: str, terms: Collection[QueryTerm], side: int) -> str:
    """A matched document around the query's words; a neighbour's start (after) or end (before)."""
    flat = " ".join(text.split())
    if side == 0:
        return snippet(flat, terms, EXCERPT_CHARS)
    if len(flat) <= NEIGHBOUR_CHARS:
        return flat
    if side > 0:
        cut = flat.rfind(" ", 0, NEIGHBOUR_CHARS)
        return flat[: cut if cut > NEIGHBOUR_CHARS // 2 else NEIGHBOUR_CHARS] + "…"
    start = len(flat) - NEIGHBOUR_CHARS
    space = flat.find(" ", start)
    return "…" + flat[space + 1 if 0 <= space < start + NEIGHBOUR_CHARS // 2 else start :]
