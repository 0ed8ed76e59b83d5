"""memories.md as lines plus the structure mistune's block parser finds in them.

The document keeps every byte: lines are decoded with `surrogateescape` (so bytes that are not UTF-8
survive), each line keeps its own ending, a BOM and a missing final newline are remembered. Only
top-level headings and top-level list items are structure; everything else is opaque user text.
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from mistune.block_parser import BlockParser
from mistune.core import BlockState

from palace.memory.halls import Hall, MemoryPath, parse_hall, room_slug, wing_key

BOM = "\ufeff"
_ITEM_RE = re.compile(r"^(?P<indent> {0,3})(?P<bullet>[-*+])(?P<gap>[ \t]+|$)(?P<rest>.*)$")
_DATE_RE = re.compile(r"^\[(?P<date>[^\]\s]{1,24})\][ \t]*")
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class _TrackingState(BlockState):
    """Block state that notes where each top-level token starts in the source."""

    def add_paragraph(self, text: str) -> None:
        last = self.last_token()
        super().add_paragraph(text)
        if self.parent is None and self.tokens[-1] is not last:
            self.tokens[-1].setdefault("_start", self.cursor)

    def append_token(self, token: dict[str, Any]) -> None:
        if self.parent is None:
            token.setdefault("_start", self.cursor)
        super().append_token(token)


class _TrackingParser(BlockParser):
    """Block parser that stamps top-level tokens with the offset where their block began.

    Only the top level is structure, so the insides of lists and block quotes are not parsed: their
    extent is found by the top-level parse, their content never matters (and skipping it makes the
    parse several times faster).
    """

    state_cls = _TrackingState

    def parse(self, state: BlockState, rules: list[str] | None = None) -> None:
        if state.parent is not None:
            return  # the inside of a list item or a block quote: opaque to palace
        super().parse(state, rules)

    def parse_ref_link(self, m: re.Match[str], state: BlockState) -> int | None:
        # A link reference definition makes no token; give it one so that the lines it spans are not
        # counted into the block before it (an entry would otherwise swallow a `[x]: url` line).
        last = state.last_token()
        continues_paragraph = bool(last) and last["type"] == "paragraph"
        end: int | None = super().parse_ref_link(m, state)
        if end and not continues_paragraph and state.parent is None:
            state.append_token({"type": "ref_link"})
        return end

    def parse_method(self, m: re.Match[str], state: BlockState) -> int | None:
        if state.parent is not None:
            return super().parse_method(m, state)
        before = len(state.tokens)
        end: int | None = super().parse_method(m, state)
        # A list or quote appends its token only when it ends; the match start is where it began.
        for token in state.tokens[before:]:
            if not token.get("_stamped"):
                token["_start"] = m.start()
                token["_stamped"] = True
        return end


@functools.cache
def _parser() -> _TrackingParser:
    return _TrackingParser()  # built on first use: compiling mistune's rules costs ~20 ms at import


@dataclass
class Heading:
    line: int
    end: int  # exclusive; a setext heading spans its paragraph's lines and the underline
    level: int
    text: str


@dataclass
class Section:
    """A structural heading and the lines up to the next heading of the same or a higher level."""

    kind: str  # "hall" | "wing" | "wing-hall" | "room" | "other"
    heading: Heading
    end: int
    wing: str | None = None
    hall: Hall | None = None
    room: str | None = None


@dataclass
class Entry:
    """A top-level list item inside a room: `- [YYYY-MM-DD] content`."""

    start: int
    end: int  # exclusive, trailing blank lines excluded
    bullet: str
    date: str | None  # a valid ISO date, or None
    raw_date: str | None  # whatever stood in the leading brackets, valid or not
    content: str
    path: MemoryPath | None  # None when the item is not inside a room
    section: Section | None = None

    @property
    def sort_date(self) -> str:
        return self.date or ""


@dataclass
class Document:
    """The file as (text, ending) lines, with its structure."""

    lines: list[str]
    eols: list[str]
    bom: bool = False
    final_newline: bool = True
    newline: str = "\n"
    headings: list[Heading] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    lists: list[tuple[int, int]] = field(default_factory=list)  # top-level list spans
    unparsed_lists: list[tuple[int, int]] = field(default_factory=list)  # lists kept opaque
    blocks: list[tuple[int, int, str]] = field(default_factory=list)  # top-level blocks: first, end, type

    # ------------------------------------------------------------------ reading
    @classmethod
    def parse(cls, data: bytes) -> Document:
        """Parse raw file bytes; never fails, whatever the bytes."""
        text = data.decode("utf-8", "surrogateescape")
        bom = text.startswith(BOM)
        if bom:
            text = text[1:]
        raw_lines = text.split("\n")
        final_newline = raw_lines[-1] == ""
        if final_newline:
            raw_lines.pop()
        lines: list[str] = []
        eols: list[str] = []
        for index, raw in enumerate(raw_lines):
            last = index == len(raw_lines) - 1
            if raw.endswith("\r") and not (last and not final_newline):
                lines.append(raw[:-1])
                eols.append("\r\n")
            else:
                lines.append(raw)
                eols.append("" if last and not final_newline else "\n")
        crlf = sum(1 for eol in eols if eol == "\r\n")
        newline = "\r\n" if crlf and crlf * 2 >= len([e for e in eols if e]) else "\n"
        doc = cls(lines, eols, bom=bom, final_newline=final_newline or not lines, newline=newline)
        doc._analyse()
        return doc

    def _analyse(self) -> None:
        # Lone carriage returns would read as line breaks to mistune and shift every offset.
        source = "".join(line.replace("\r", " ") + "\n" for line in self.lines)
        starts: list[int] = []
        offset = 0
        for line in self.lines:
            starts.append(offset)
            offset += len(line) + 1
        state = _TrackingState()
        state.process(source)
        _parser().parse(state)
        tokens = [t for t in state.tokens if "_start" in t]
        spans: list[tuple[dict[str, Any], int, int]] = []
        for index, token in enumerate(tokens):
            first = bisect.bisect_right(starts, token["_start"]) - 1
            nxt = tokens[index + 1]["_start"] if index + 1 < len(tokens) else offset
            last = bisect.bisect_left(starts, nxt)
            spans.append((token, max(first, 0), max(last, first + 1)))
        self.blocks = [(first, last, str(token["type"])) for token, first, last in spans]
        for token, first, last in spans:
            if token["type"] == "heading":
                end = first + 1
                if token.get("style") == "setext":
                    # The paragraph's lines, then the underline.
                    end = min(first + token["text"].rstrip("\n").count("\n") + 2, last)
                text = " ".join(token["text"].split())
                self.headings.append(Heading(first, end, int(token["attrs"]["level"]), text))
            elif token["type"] == "list":
                while last > first + 1 and not self.lines[last - 1].strip():
                    last -= 1
                self.lists.append((first, last))
                self._list_items(first, last, len(token.get("children") or []))
        self._build_sections()
        self._assign_entries()

    def _list_items(self, first: int, last: int, expected: int) -> None:
        starts: list[int] = []
        content_col = 0
        bullet = ""
        for index in range(first, last):
            line = self.lines[index].expandtabs(4)
            match = _ITEM_RE.match(line)
            indent = len(line) - len(line.lstrip(" "))
            if match and (not starts or (indent < content_col and match["bullet"] == bullet)):
                bullet = match["bullet"]
                gap = len(match["gap"].expandtabs(4)) if match["gap"] else 1
                content_col = len(match["indent"]) + 1 + (gap if 1 <= gap <= 4 else 1)
                starts.append(index)
        if len(starts) != expected or not starts or starts[0] != first:
            self.unparsed_lists.append((first, last))  # unusual shape: keep it opaque, never edit it
            return
        for number, start in enumerate(starts):
            end = starts[number + 1] if number + 1 < len(starts) else last
            while end > start + 1 and not self.lines[end - 1].strip():
                end -= 1
            self.entries.append(self._entry(start, end))

    def _entry(self, start: int, end: int) -> Entry:
        match = _ITEM_RE.match(self.lines[start].expandtabs(4))
        assert match is not None
        rest = self.lines[start].lstrip(" ")[1:].lstrip(" \t")
        raw_date = found_date = None
        dated = _DATE_RE.match(rest)
        if dated and dated["date"].lower() not in {"x", " "}:
            raw_date = dated["date"]
            if _ISO_DATE.match(raw_date) and _valid_date(raw_date):
                found_date = raw_date
            rest = rest[dated.end():]
        pieces = [rest.strip()] + [self.lines[i].strip() for i in range(start + 1, end)]
        content = " ".join(piece for piece in pieces if piece)
        return Entry(start, end, match["bullet"], found_date, raw_date, content, None)

    def _build_sections(self) -> None:
        wing: str | None = None
        hall: Hall | None = None
        in_wing = False
        open_sections: list[Section] = []
        for heading in self.headings:
            level, text = heading.level, heading.text
            section: Section | None = None
            if level == 1:
                # A title: it carries no meaning, but it closes every section before it.
                wing, hall, in_wing = None, None, False
                while open_sections:
                    open_sections.pop().end = heading.line
                continue
            elif level == 2:
                parsed = parse_hall(text)
                if parsed is not None:
                    wing, hall, in_wing = None, parsed, False
                    section = Section("hall", heading, 0, hall=parsed)
                else:
                    wing, hall, in_wing = text, None, True
                    section = Section("wing", heading, 0, wing=text)
            elif level == 3 and in_wing:
                hall = parse_hall(text)
                section = Section("wing-hall" if hall else "other", heading, 0, wing=wing, hall=hall)
            elif (level == 3 and not in_wing and hall) or (level == 4 and in_wing and hall):
                section = Section("room", heading, 0, wing=wing, hall=hall, room=room_slug(text))
            elif level <= 4:
                section = Section("other", heading, 0, wing=wing, hall=None)
            if section is None:
                continue  # a deeper heading is the user's own sub-heading inside a room
            while open_sections and open_sections[-1].heading.level >= level:
                open_sections.pop().end = heading.line
            open_sections.append(section)
            self.sections.append(section)
        for section in open_sections:
            section.end = len(self.lines)

    def _assign_entries(self) -> None:
        rooms = [s for s in self.sections if s.kind == "room"]
        room_starts = [s.heading.line for s in rooms]
        for entry in self.entries:
            index = bisect.bisect_right(room_starts, entry.start) - 1
            if index >= 0 and entry.start < rooms[index].end:
                room = rooms[index]
                if room.hall is not None and room.room:
                    entry.path = MemoryPath(room.wing, room.hall, room.room)
                    entry.section = room

    # ------------------------------------------------------------------ finding
    def room_sections(self, path: MemoryPath) -> list[Section]:
        key = path.wing_key
        return [
            s
            for s in self.sections
            if s.kind == "room"
            and s.hall == path.hall
            and s.room == path.room
            and (wing_key(s.wing) if s.wing else None) == key
        ]

    def room_entries(self, path: MemoryPath) -> list[Entry]:
        key = path.wing_key
        return [
            e
            for e in self.entries
            if e.path is not None
            and e.path.hall == path.hall
            and e.path.room == path.room
            and e.path.wing_key == key
        ]

    def scope_entries(self, wing: str | None) -> list[Entry]:
        """Entries of one wing, or of the wing-less halls when wing is None."""
        key = wing_key(wing) if wing else None
        return [e for e in self.entries if e.path is not None and e.path.wing_key == key]

    def hall_sections(self, wing: str | None, hall: Hall) -> list[Section]:
        if wing is None:
            return [s for s in self.sections if s.kind == "hall" and s.hall == hall]
        key = wing_key(wing)
        return [
            s for s in self.sections if s.kind == "wing-hall" and s.hall == hall and wing_key(s.wing or "") == key
        ]

    def wing_sections(self, wing: str) -> list[Section]:
        key = wing_key(wing)
        return [s for s in self.sections if s.kind == "wing" and wing_key(s.wing or "") == key]

    def wings(self) -> list[str]:
        seen: dict[str, str] = {}
        for section in self.sections:
            if section.kind == "wing" and section.wing:
                seen.setdefault(wing_key(section.wing), section.wing)
        return list(seen.values())

    # ------------------------------------------------------------------ writing
    def to_bytes(self) -> bytes:
        parts = [BOM] if self.bom else []
        for line, eol in zip(self.lines, self.eols, strict=True):
            parts.append(line)
            parts.append(eol)
        return "".join(parts).encode("utf-8", "surrogateescape")

    def splice(self, start: int, end: int, new_lines: list[str]) -> bytes:
        """Bytes of the document with lines[start:end] replaced; every other line keeps its bytes."""
        lines = self.lines[:start] + new_lines + self.lines[end:]
        eols = self.eols[:start] + [self.newline] * len(new_lines) + self.eols[end:]
        for index in range(len(eols) - 1):
            if not eols[index]:
                eols[index] = self.newline  # the old last line gains an ending when text follows it
        if eols:
            if not self.final_newline:
                eols[-1] = ""
            elif not eols[-1]:
                eols[-1] = self.newline
        edited = Document(lines, eols, bom=self.bom)
        return edited.to_bytes()


def _valid_date(text: str) -> bool:
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def entry_line(content: str, day: str) -> str:
    """The line palace writes for an entry."""
    return f"- [{day}] {content}"
