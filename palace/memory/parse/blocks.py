"""The blocks mistune's block parser finds in lines of memories.md, with the line each starts at.

Only top-level headings and top-level list items are structure; the insides of lists and block quotes are
never parsed (their extent is found by the top-level parse; their content never matters).
"""

from __future__ import annotations

import functools
import re
from datetime import date
from typing import Any, NamedTuple

from palace.memory.halls import MemoryPath, computed_once
from palace.memory.keys import normalise, words_of
from palace.memory.parse.fastscan import simple_tokens
from palace.record import record

ITEM_RE = re.compile(r"^(?P<indent> {0,3})(?P<bullet>[-*+])(?P<gap>[ \t]+|$)(?P<rest>.*)$")
_DATE_RE = re.compile(r"^\[(?P<date>[^\]\s]{1,24})\][ \t]*")
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# `[2026-12-01 → 2027-03-31]`: saved or confirmed on the first day, true until the second (`->` reads too).
_SPAN_RE = re.compile(r"^\[(\d{4}-\d{2}-\d{2}) (?:→|->) (\d{4}-\d{2}-\d{2})\][ \t]*")
UNTIL_MARK = " → "  # how palace writes the span between the two dates
_SURROGATE = re.compile("[\ud800-\udfff]")  # a byte that is not UTF-8, decoded with surrogateescape


@record(slots=True)
class Heading:
    line: int
    end: int  # exclusive; a setext heading spans its paragraph's lines and the underline
    level: int
    text: str


@record
class Entry:
    """A top-level list item inside a room: `- [YYYY-MM-DD] content`."""

    start: int
    end: int  # exclusive, trailing blank lines excluded
    bullet: str
    date: str | None  # a valid ISO date, or None
    raw_date: str | None  # whatever stood in the leading brackets, valid or not
    content: str
    path: MemoryPath | None  # None when the item is not inside a room
    until: str | None = None  # the last day it holds (`[2026-12-01 → 2027-03-31]`), or None: no end

    @property
    def sort_date(self) -> str:
        return self.date or ""

    @computed_once
    def key(self) -> str:
        """The content normalised for comparison (see `normalise`)."""
        return normalise(self.content)

    @computed_once
    def words(self) -> frozenset[str]:
        """The content's words, for near-duplicate detection (see `words_of`)."""
        return words_of(self.content)

    def _moved(self, delta: int) -> Entry:
        copy = object.__new__(Entry)
        copy.__dict__.update(self.__dict__)
        copy.start += delta
        copy.end += delta
        return copy


class Block(NamedTuple):
    """A top-level block: lines [first, end) and mistune's type for it."""

    first: int
    end: int
    kind: str  # "heading", "list", "paragraph", "blank_line", "block_code", "block_html", "block_quote", ...


class Scan(NamedTuple):
    """The structure found in a range of lines."""

    blocks: list[Block]
    headings: list[Heading]
    lists: list[tuple[int, int]]
    unparsed_lists: list[tuple[int, int]]
    entries: list[Entry]
    last: str | None  # the type of the last block


def _tokens(lines: list[str], first: int, last: int) -> tuple[str, list[dict[str, Any]]]:
    """mistune's top-level tokens for lines [first, last), in document order, and the source parsed."""
    # Lone carriage returns would read as line breaks to mistune and shift every offset; a byte that is not
    # UTF-8 (kept as a lone surrogate) makes mistune raise where it quotes a link's URL: one character for
    # another, so every offset holds.
    source = ("\n".join(lines[first:last]) + "\n").replace("\r", " ")
    if not source.isascii():
        source = _SURROGATE.sub("\ufffd", source)
    from palace.memory.parse.tracking import TrackingState, parser  # mistune is imported on the first parse only

    state = TrackingState()
    state.process(source)
    parser().parse(state)
    # In document order: a block quote that a list interrupts is put before the list's last token.
    return source, sorted((t for t in state.tokens if "_start" in t), key=lambda t: int(t["_start"]))


def scan(lines: list[str], first: int, last: int, *, fast: bool = True) -> Scan:
    """The structure of lines [first, last), parsed on their own (plain text without mistune, when fast)."""
    found = Scan([], [], [], [], [], None)
    if last <= first:
        return found
    simple = simple_tokens(lines, first, last) if fast else None
    if simple is not None:
        line_of = [line for line, _ in simple]
        tokens = [token for _, token in simple]
    else:
        source, tokens = _tokens(lines, first, last)
        line_of = []
        offset = line = 0
        for token in tokens:
            line += source.count("\n", offset, token["_start"])
            offset = token["_start"]
            line_of.append(first + line)
    line_of.append(last)
    for index, token in enumerate(tokens):
        start, end = line_of[index], max(line_of[index + 1], line_of[index] + 1)
        kind = str(token["type"])
        found.blocks.append(Block(start, end, kind))
        if kind == "heading":
            found.headings.append(_heading(token, start, end))
        elif kind == "list":
            while end > start + 1 and not lines[end - 1].strip():
                end -= 1
            found.lists.append((start, end))
            starts = token.get("items")  # from the fast path: plain `- ` items, each one line on from the last
            if starts is not None:
                _plain_items(lines, found, starts, end)
            else:
                _list_items(lines, found, start, end, len(token.get("children") or []))
    return found._replace(last=found.blocks[-1].kind if found.blocks else None)


def _heading(token: dict[str, Any], start: int, end: int) -> Heading:
    stop = start + 1
    if token.get("style") == "setext":  # the paragraph's lines, then the underline
        stop = min(start + token["text"].rstrip("\n").count("\n") + 2, end)
    return Heading(start, stop, int(token["attrs"]["level"]), " ".join(token["text"].split()))


def _list_items(lines: list[str], found: Scan, first: int, last: int, expected: int) -> None:
    """The entries of the list in lines [first, last), unless its shape is unusual (then it stays opaque)."""
    starts: list[int] = []
    content_col = 0
    bullet = ""
    for index in range(first, last):
        line = lines[index].expandtabs(4)
        match = ITEM_RE.match(line)
        indent = len(line) - len(line.lstrip(" "))
        if match and (not starts or (indent < content_col and match["bullet"] == bullet)):
            bullet = match["bullet"]
            gap = len(match["gap"].expandtabs(4)) if match["gap"] else 1
            content_col = len(match["indent"]) + 1 + (gap if 1 <= gap <= 4 else 1)
            starts.append(index)
    if len(starts) != expected or not starts or starts[0] != first:
        found.unparsed_lists.append((first, last))  # unusual shape: keep it opaque, never edit it
        return
    for number, start in enumerate(starts):
        end = starts[number + 1] if number + 1 < len(starts) else last
        while end > start + 1 and not lines[end - 1].strip():
            end -= 1
        found.entries.append(_entry(lines, start, end))


def _plain_items(lines: list[str], found: Scan, starts: list[int], last: int) -> None:
    """The entries of a list the fast path read: each item a `- ` line at the margin, what follows until the
    next item its lazy continuation (what _list_items finds, without a regex per line)."""
    for number, start in enumerate(starts):
        end = starts[number + 1] if number + 1 < len(starts) else last
        while end > start + 1 and not lines[end - 1].strip():
            end -= 1
        found.entries.append(_entry(lines, start, end, plain=True))


def _entry(lines: list[str], start: int, end: int, *, plain: bool = False) -> Entry:
    if plain:  # `- ` and then the text (the fast path's rule): no indentation, one space
        return _dated(lines, start, end, "-", lines[start][2:])
    match = ITEM_RE.match(lines[start].expandtabs(4))
    assert match is not None
    return _dated(lines, start, end, match["bullet"], lines[start].lstrip(" ")[1:].lstrip(" \t"))


def _dated(lines: list[str], start: int, end: int, bullet: str, rest: str) -> Entry:
    """The entry whose first line's text after the bullet is rest: its leading `[date]`, and its content."""
    raw_date = found_date = None
    if rest[:1] == "[" and rest[11:12] == "]" and _iso_day(rest[1:11]):  # `[YYYY-MM-DD] `, as palace writes
        raw_date = found_date = rest[1:11]
        rest = rest[12:]
    until = None
    span = _SPAN_RE.match(rest) if not found_date and rest[:1] == "[" else None
    if span is not None and _iso_day(span[1]) and _iso_day(span[2]):
        found_date, until = span[1], span[2]
        raw_date = rest[1 : rest.index("]")]
        rest = rest[span.end() :]
    dated = None if found_date else _DATE_RE.match(rest)
    if dated and dated["date"].lower() not in {"x", " "}:
        raw_date = dated["date"]
        if _iso_day(raw_date):
            found_date = raw_date
        rest = rest[dated.end() :]
    if end == start + 1:  # most entries are one line
        content = rest.strip()
    else:
        pieces = [rest.strip()] + [lines[i].strip() for i in range(start + 1, end)]
        content = " ".join(piece for piece in pieces if piece)
    return Entry(start, end, bullet, found_date, raw_date, content, None, until)


@functools.lru_cache(maxsize=4096)
def _iso_day(text: str) -> bool:
    """Whether text is a real day written YYYY-MM-DD."""
    if not _ISO_DATE.match(text):
        return False
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def date_mark(day: str, until: str | None = None) -> str:
    """`[2026-12-01]`, or with an end `[2026-12-01 → 2027-03-31]`."""
    return f"[{day}{UNTIL_MARK}{until}]" if until else f"[{day}]"


def entry_line(content: str, day: str, until: str | None = None) -> str:
    """The line palace writes for an entry."""
    return f"- {date_mark(day, until)} {content}"
