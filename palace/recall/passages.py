"""What a hit shows: its best documents with the turns around them, each cut to a readable size and valued.

A question and its answer are two turns, and the words of a recall query are mostly in the question ("do
you have any pets?"), so a matched turn is shown with the turn after it (and the one after that when the
next turn is itself a question: "No way! What kind?") and the turn before it. Which documents are shown is
a turn-level choice among all of the session's (`_valued`): by their match, and when the matches cover little
of the query, by their salience too. Each excerpt carries a value (0..1), which format_hits uses to pack the
output.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Mapping
from typing import NamedTuple

from palace.recall.schema import DOC_BITS, chunks
from palace.recall.sources import DocKind, memory_room, superseded_room
from palace.recall.text import QueryTerm, snippet
from palace.recall.tuning import DEFAULT, Tuning
from palace.record import record

EXCERPT_CHARS = 700  # a matched document is cut to about this many characters around the query's words
NEIGHBOUR_CHARS = 500  # a turn shown for its neighbour: its start (after) or its end (before)
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


@record(frozen=True)
class Excerpt:
    """One document shown for a hit: a matched one (side 0), or the turn before (-1) or after (+1) one."""

    rowid: int  # the document (its file and its number there: the order excerpts are shown in)
    role: str  # "user", "assistant", "summary", "memory <room>"
    text: str  # redacted (as stored), cut to size
    value: float  # 0..1: its share of what the hit's best document is worth
    side: int
    entry: str | None = None  # a current memory entry's whole text (as stored): what its reuse is counted by


class Scored(NamedTuple):
    """A matched document of a source, as the search scored it."""

    score: float
    rowid: int
    kind: str
    mask: int = 0  # the query terms it holds (Weights bits)


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


class Salience(NamedTuple):
    """How a source's documents say things of their own (salience.py), and how little its matches say: the
    most of the query any one of them covers."""

    of: Mapping[int, float]  # rowid -> salience
    strength: float


def _valued(docs: list[Scored], tuning: Tuning, salient: Salience | None) -> list[Scored]:
    """The documents valued 0..1 for showing: a score's share of the best one's; when no document covers much of
    the query, partly its salience's share of the most salient one's instead (a turn-level choice), so that a
    session found by a date or a name shows what was said in it, not its greetings."""
    best = max(d.score for d in docs) or 1.0
    mix = tuning.salience_weight * (1.0 - salient.strength) if salient is not None else 0.0
    top = max((salient.of.get(d.rowid, 0.0) for d in docs), default=0.0) if salient is not None else 0.0
    if salient is None or mix <= 0 or top <= 0:
        return [d._replace(score=d.score / best) for d in docs]
    return [d._replace(score=(1 - mix) * d.score / best + mix * salient.of.get(d.rowid, 0.0) / top) for d in docs]


class _Values:
    """The excerpts chosen so far: rowid -> (value, side), a document's best value kept, a matched one side 0."""

    def __init__(self, texts: dict[int, tuple[str, str]]) -> None:
        self.texts = texts
        self.values: dict[int, tuple[float, int]] = {}

    def offer(self, rowid: int | None, value: float, side: int) -> None:
        if rowid is None or rowid not in self.texts or value <= 0:
            return
        old = self.values.get(rowid)
        if old is None or value > old[0]:
            self.values[rowid] = (value, 0 if old is not None and old[1] == 0 else side)

    def centre(self, doc: Scored, tuning: Tuning) -> None:
        """A matched (or salient) document, and the turns around it at their shares of its value."""
        self.values[doc.rowid] = (max(doc.score, self.values.get(doc.rowid, (0.0, 0))[0]), 0)
        if doc.kind not in _TURNS or doc.rowid not in self.texts:
            return
        after = _near(doc.rowid, self.texts, 1)
        self.offer(after, doc.score * (tuning.after_question if _asks(self.texts[doc.rowid][1]) else tuning.after), 1)
        if after is not None and _asks(self.texts[after][1]):
            self.offer(_near(after, self.texts, 1), doc.score * tuning.second_after, 1)
        self.offer(_near(doc.rowid, self.texts, -1), doc.score * tuning.before, -1)


def excerpts(
    conn: sqlite3.Connection,
    docs: list[Scored],
    terms: Collection[QueryTerm],
    tuning: Tuning = DEFAULT,
    salient: Salience | None = None,
) -> list[Excerpt]:
    """The excerpts a source offers: its most valuable documents (_valued) and their neighbouring turns."""
    if not docs:
        return []
    ranked = sorted(_valued(docs, tuning, salient), key=lambda d: (-d.score, d.rowid))
    best = ranked[0].score
    centres = [d for d in ranked[: tuning.max_centres] if d.score >= tuning.centre_floor * best and d.score > 0]
    wanted = {d.rowid for d in centres}
    for d in centres:
        if d.kind in _TURNS:
            wanted |= {d.rowid + i for i in range(-_REACH, 2 * _REACH + 1)}  # the turn after the next too
    chosen = _Values(_texts(conn, wanted))
    for d in centres:
        chosen.centre(d, tuning)
    out = []
    for rowid, (value, side) in chosen.values.items():
        if rowid not in chosen.texts:
            continue
        kind, text = chosen.texts[rowid]
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
