"""memories.md as lines plus the structure mistune's block parser finds in them.

The document keeps every byte: lines are decoded with `surrogateescape` (so bytes that are not UTF-8
survive), each line keeps its own ending, a BOM and a missing final newline are remembered. Only
top-level headings and top-level list items are structure; everything else is opaque user text.
"""

from __future__ import annotations

import bisect
import operator
import re
from dataclasses import dataclass, field
from itertools import accumulate

from palace.memory.blocks import Block, Entry, Heading, Scan, date_mark, entry_line, scan
from palace.memory.halls import Hall, MemoryPath, wing_key
from palace.memory.keys import normalise, words_of
from palace.memory.lines import (
    MAX_RUNS,
    Derived,
    Run,
    at_line_start,
    common_prefix,
    common_suffix,
    compact_runs,
    cut_runs,
    endings,
    patched_index,
    replaced_run,
    split_lines,
)
from palace.memory.moves import patched_sections, shifted_blocks, shifted_headings, shifted_sections, shifted_spans
from palace.memory.offsets import LineOffsets
from palace.memory.recent import Recent
from palace.memory.sections import (
    Kind,
    Section,
    SectionKey,
    SectionSig,
    build_sections,
    move_section,
    rebuild_sections,
    section_key,
    section_line,
)
from palace.memory.shifted import Shifted

_HALL, _WING, _WING_HALL, _ROOM = Kind.HALL, Kind.WING, Kind.WING_HALL, Kind.ROOM  # enum lookups are slow in loops

__all__ = [
    "Block",
    "Document",
    "Entry",
    "Heading",
    "Kind",
    "Section",
    "SectionSig",
    "common_prefix",
    "common_suffix",
    "date_mark",
    "entry_line",
    "normalise",
    "words_of",
]

BOM = "\ufeff"
BOM_BYTES = BOM.encode()
_ATX_LINE = re.compile(r"^#{1,6}(?:[ \t]|$)")
# Blocks that end before an ATX heading at the start of a line (a quote, a code block or an HTML block may not).
_CLOSED_BEFORE_ATX = frozenset({"blank_line", "heading", "list", "paragraph", "thematic_break"})


_parsed: Recent[Document] = Recent(4)  # the last few parsed documents


def clear_parse_cache() -> None:
    """Forget the recently parsed documents (the next parse starts from nothing)."""
    _parsed.clear()


@dataclass(eq=False)
class Document:
    """The file as (text, ending) lines, with its structure.

    Documents that `parse` returns are shared (the last few are remembered, so that parsing bytes seen a
    moment ago is free and parsing an edited version re-parses only around the edit): never mutate one.
    """

    lines: list[str]
    eols: list[str]
    bom: bool = False
    final_newline: bool = True
    newline: str = "\n"
    _blocks: Shifted[Block] = field(default_factory=lambda: shifted_blocks([]), repr=False)  # top-level blocks
    _headings: Shifted[Heading] = field(default_factory=lambda: shifted_headings([]), repr=False)
    _sections: Shifted[Section] = field(default_factory=lambda: shifted_sections([]), repr=False)
    _lists: Shifted[tuple[int, int]] = field(default_factory=lambda: shifted_spans([]), repr=False)  # top-level lists
    _unparsed: Shifted[tuple[int, int]] = field(default_factory=lambda: shifted_spans([]), repr=False)  # kept opaque
    derived: Derived | None = field(default=None, repr=False)  # set when re-parsed only around a change
    _raw: bytes | None = field(default=None, repr=False)  # the bytes this was parsed from (not when built by hand)
    # The entries, as runs of Entry objects shared with the document this one was derived from, each run
    # to be moved down by some lines: entries after an edit are moved only when someone needs their lines.
    _runs: list[Run] = field(default_factory=list, repr=False)
    _flat: list[Entry] | None = field(default=None, repr=False)
    # Entries in rooms by their comparison key (as stored in the runs), built on first use and patched
    # from the parent's when a document is derived, so that finding an equal entry never walks them all.
    _keys: dict[str, list[Entry]] | None = field(default=None, repr=False)
    # Sections by section_key (the stored objects, to be placed), built on first use and patched when derived.
    _by_key: dict[SectionKey, list[Section]] | None = field(default=None, repr=False)
    _tally: tuple[int, int, int] | None = field(default=None, repr=False)  # of the endings (see lines.endings)
    _offsets: LineOffsets | None = field(default=None, repr=False)  # where lines start in _raw (LF-split lines)

    def __post_init__(self) -> None:
        self._crlf, self._cr, self._ended = self._tally or endings(self.eols)

    @property
    def blocks(self) -> list[Block]:
        """The top-level blocks, in order."""
        return self._blocks.flat()

    @property
    def headings(self) -> list[Heading]:
        return self._headings.flat()

    @property
    def sections(self) -> list[Section]:
        return self._sections.flat()

    @property
    def lists(self) -> list[tuple[int, int]]:
        """The top-level lists' line spans."""
        return self._lists.flat()

    @property
    def unparsed_lists(self) -> list[tuple[int, int]]:
        """The top-level lists of an unusual shape, kept opaque."""
        return self._unparsed.flat()

    @property
    def entries(self) -> list[Entry]:
        """Every top-level list item, in order; those outside rooms have no path."""
        flat = self._flat
        if flat is None:
            flat = []
            moved = False
            for entries, _, delta in self._runs:
                flat.extend([e._moved(delta) for e in entries] if delta else entries)
                moved = moved or bool(delta)
            self._flat = flat
            self._runs = [Run(flat, [e.start for e in flat], 0)]
            if moved:
                self._keys = None  # it held the objects just replaced by moved copies
        return flat

    @entries.setter
    def entries(self, value: list[Entry]) -> None:
        self._flat = value
        self._runs = [Run(value, [e.start for e in value], 0)]
        self._keys = None

    def _key_index(self) -> dict[str, list[Entry]]:
        if self._keys is None:
            index: dict[str, list[Entry]] = {}
            for entries, _, _ in self._runs:
                for entry in entries:
                    if entry.path is not None:
                        index.setdefault(entry.key, []).append(entry)
            self._keys = index
        return self._keys

    def equal_entry(self, wing: str | None, content: str) -> Entry | None:
        """The first entry of the wing's scope (or of the wing-less halls) equal to content once normalised."""
        key = wing_key(wing) if wing else None
        found = [
            self.placed(e) for e in self._key_index().get(normalise(content), ()) if e.path and e.path.wing_key == key
        ]
        return min(found, key=lambda e: e.start) if found else None

    def sections_between(self, first: int, end: int) -> list[Section]:
        """The sections whose heading starts in lines [first, end)."""
        return self._sections.between(first, end)

    def next_section(self, line: int) -> int:
        """The first section heading's line at or after line, or the end of the document."""
        index = self._sections.index(line)
        return self._sections[index].heading.line if index < len(self._sections) else len(self.lines)

    def next_heading(self, line: int) -> int:
        """The first heading line at or after line, or the end of the document."""
        index = self._headings.index(line)
        return self._headings[index].line if index < len(self._headings) else len(self.lines)

    def entries_between(self, first: int, end: int) -> list[Entry]:
        """The entries that start in lines [first, end)."""
        found: list[Entry] = []
        for entries, starts, delta in self._runs:
            low, high = bisect.bisect_left(starts, first - delta), bisect.bisect_left(starts, end - delta)
            found.extend(e._moved(delta) if delta else e for e in entries[low:high])
        return found

    # ------------------------------------------------------------------ reading
    @classmethod
    def parse(cls, data: bytes) -> Document:
        """Parse raw file bytes; never fails, whatever the bytes."""
        same, recent = _parsed.find(data)
        if same is not None:
            _parsed.remember(same)
            return same
        doc = recent._derive(data) if recent is not None else None
        if doc is None:
            doc = cls._parse_all(data)
        _parsed.remember(doc)
        return doc

    def reparse(self, data: bytes) -> Document:
        """data (an edited version of this document's bytes) parsed, re-parsing only around the change."""
        if self._raw is not None and self._raw == data:
            return self
        doc = self._derive(data) or Document._parse_all(data)
        _parsed.remember(doc)
        return doc

    @classmethod
    def _parse_all(cls, data: bytes) -> Document:
        text = data.decode("utf-8", "surrogateescape")
        bom = text.startswith(BOM)
        if bom:
            text = text[1:]
        lines, eols, final_newline = split_lines(text)
        doc = cls(lines, eols, bom=bom, final_newline=final_newline or not lines, _raw=data)
        doc._majority_newline()
        if not doc._cr:  # lines end with LF (or CRLF): where they start can be counted in the bytes
            doc._offsets = LineOffsets(len(BOM_BYTES) if bom else 0, data)
        found = scan(lines, 0, len(lines))
        doc._blocks, doc._headings = shifted_blocks(found.blocks), shifted_headings(found.headings)
        doc._lists, doc._unparsed = shifted_spans(found.lists), shifted_spans(found.unparsed_lists)
        doc.entries = found.entries
        doc._sections = shifted_sections(build_sections(found.headings, len(lines)))
        doc._assign_entries(found.entries)
        return doc

    def _majority_newline(self) -> None:
        if self._cr and self._cr * 2 >= self._ended:
            self.newline = "\r"
        else:
            self.newline = "\r\n" if self._crlf and self._crlf * 2 >= self._ended else "\n"

    def _derive(self, data: bytes) -> Document | None:
        """data parsed by re-parsing only the blocks around what changed since this document's bytes."""
        if self._raw is None or data.startswith(BOM_BYTES) != self.bom or self.newline == "\r":
            return None
        if b"\r" in data and b"\n" not in data:
            return None  # CR-only line endings: the window arithmetic below counts LFs
        skip = len(BOM_BYTES) if self.bom else 0
        old, new = self._raw[skip:], data[skip:]
        prefix = common_prefix(old, new)
        suffix = common_suffix(old, new, min(len(old), len(new)) - prefix)
        start = old.rfind(b"\n", 0, prefix) + 1  # the changed lines, in whole lines
        old_end, new_end = len(old) - suffix, len(new) - suffix
        if not (at_line_start(old, old_end) and at_line_start(new, new_end)):
            newline = new.find(b"\n", new_end)
            step = len(new) - new_end if newline < 0 else newline + 1 - new_end
            old_end, new_end = old_end + step, new_end + step
        first = old.count(b"\n", 0, start)
        old_count = old.count(b"\n", start, old_end) + (
            1 if old_end == len(old) and old[-1:] not in (b"", b"\n") else 0
        )
        region, region_eols, ended = split_lines(new[start:new_end].decode("utf-8", "surrogateescape"), whole=False)
        lines = replaced_run(self.lines, first, first + old_count, region)
        eols = replaced_run(self.eols, first, first + old_count, region_eols)
        final_newline = (ended or not lines) if new_end == len(new) else self.final_newline
        gone, came = endings(self.eols[first : first + old_count]), endings(region_eols)
        tally = (
            self._crlf - gone[0] + came[0],
            self._cr - gone[1] + came[1],
            self._ended - gone[2] + came[2],
        )
        doc = Document(lines, eols, bom=self.bom, final_newline=final_newline, _raw=data, _tally=tally)
        doc._majority_newline()
        if self._offsets is not None and not doc._cr:
            parts = new[start:new_end].split(b"\n")
            starts = accumulate((len(part) + 1 for part in parts[: len(region) - 1]), initial=skip + start)
            region_starts = list(starts) if region else []
            doc._offsets = self._offsets.derived(first, region_starts, len(region) - old_count, new_end - old_end)
        self._rescan(doc, first, first + old_count, len(region) - old_count)
        return doc

    def _rescan(self, doc: Document, first: int, end: int, delta: int) -> None:
        """Give doc (this document with lines [first, end) replaced, delta lines more) its structure.

        Only a window of whole blocks around the change is parsed again. It starts where the parser's state
        does not depend on what came before (after a blank line or a heading, or at an ATX heading) and
        ends where the new parse ends in a state that lets the unchanged blocks after it parse as before
        (after a blank line that the old parse also had there, or before an ATX heading that nothing open
        can swallow). From there on the parse is the old one, moved by delta lines.
        """
        index, window_start = self._window_start(first)
        after, old_end, found = self._window_end(doc, window_start, end, delta)
        new_end = old_end + delta
        doc._blocks = self._blocks.replaced(index, after, found.blocks, delta)
        doc._headings = self._headings.spliced(window_start, old_end, found.headings, delta)
        doc._lists = self._lists.spliced(window_start, old_end, found.lists, delta)
        doc._unparsed = self._unparsed.spliced(window_start, old_end, found.unparsed_lists, delta)
        rebuilt = rebuild_sections(self._sections, doc._headings, window_start, old_end, delta, len(doc.lines))
        doc._sections, same_after = rebuilt.sections, rebuilt.same_after
        if self._by_key is not None and not doc._sections.joined:
            doc._by_key = patched_sections(self._by_key, rebuilt.removed, rebuilt.added)
        # Entries after the window keep their rooms, but for those before the first heading after it (or
        # all of them when a heading in the window changed what the later headings mean).
        limit = doc.next_section(new_end) if same_after else len(doc.lines)
        self._move_entries(doc, found.entries, window_start, old_end, delta, limit)
        doc.derived = Derived(window_start, old_end, new_end, same_after)

    def _window_start(self, first: int) -> tuple[int, int]:
        """(index of the first block to parse again, its first line) for a change starting at line first."""
        index = max(self._blocks.index_right(max(first - 1, 0)) - 1, 0)
        while index > 0 and not self._fresh_start(index):
            index -= 1
        return index, (self._blocks[index].first if len(self._blocks) else 0)

    def _window_end(self, doc: Document, window_start: int, end: int, delta: int) -> tuple[int, int, Scan]:
        """(index of the first old block kept, the old line it starts at, the parse of the window in doc)."""
        blocks = self._blocks
        after = max(blocks.index(end), 1)
        while True:
            while after < len(blocks) and not (blocks[after - 1].kind == "blank_line" or self._atx(after)):
                after += 1
            old_end = blocks[after].first if after < len(blocks) else len(self.lines)
            found = scan(doc.lines, window_start, old_end + delta)
            if after >= len(blocks) or self._resumes_after(found, after):
                return after, old_end, found
            after += 1

    def _resumes_after(self, found: Scan, after: int) -> bool:
        """Whether the old parse from block `after` on holds after the window parsed as found."""
        if found.last == "blank_line" and self._blocks[after - 1].kind == "blank_line":
            return True
        return found.last in _CLOSED_BEFORE_ATX and self._atx(after)

    def _move_entries(
        self, doc: Document, window: list[Entry], window_start: int, old_end: int, delta: int, limit: int
    ) -> None:
        """doc's entries: those before the window shared, the window's new ones, those after moved lazily
        (but for the ones up to limit, whose room may have changed: they are placed and assigned now)."""
        before = cut_runs(self._runs, window_start)[0]
        later = [Run(entries, starts, moved + delta) for entries, starts, moved in cut_runs(self._runs, old_end)[1]]
        near, far = cut_runs(later, limit)
        placed = [e._moved(moved) for entries, _, moved in near for e in entries]
        changed = window + placed
        doc._assign_entries(changed)
        doc._runs = compact_runs([*before, Run(changed, [e.start for e in changed], 0), *far])
        keys = self._keys
        if keys is not None:
            self._keys = None  # given to doc: a later look-up here builds its own again (rare: a failed try)
            replaced = cut_runs(cut_runs(self._runs, window_start)[1], limit - delta)[0]
            doc._keys = patched_index(keys, [e for run in replaced for e in run.entries], changed)
        if len(doc._runs) > MAX_RUNS:
            doc._flat = None
            _ = doc.entries  # move them all now, once in a while, rather than walk many runs each time

    def _atx(self, index: int) -> bool:
        """Whether block index is an ATX heading at the start of its line (nothing open before it can
        swallow it but a code fence, an HTML block or a quote)."""
        block = self._blocks[index]
        return block[2] == "heading" and bool(_ATX_LINE.match(self.lines[block[0]]))

    def _fresh_start(self, index: int) -> bool:
        """Whether a parse can start afresh at block index and find what the whole parse found."""
        return self._blocks[index - 1][2] in {"blank_line", "heading"} or self._atx(index)

    def _assign_entries(self, entries: list[Entry]) -> None:
        """Set the path of each of entries from the room it sits in."""
        if len(entries) > 32:  # a whole parse: one walk over the rooms
            rooms = [s for s in self.sections if s.kind == _ROOM]
            room_starts = [s.heading.line for s in rooms]
            paths: dict[int, MemoryPath | None] = {}
            for entry in entries:
                index = bisect.bisect_right(room_starts, entry.start) - 1
                path = None
                if index >= 0 and entry.start < rooms[index].end:
                    if index not in paths:
                        paths[index] = _room_path(rooms[index])
                    path = paths[index]
                entry.path = path
            return
        found: dict[int, MemoryPath | None] = {}
        for entry in entries:
            room = self._room_at(entry.start)
            if room is None:
                entry.path = None
                continue
            if room.heading.line not in found:
                found[room.heading.line] = _room_path(room)
            entry.path = found[room.heading.line]

    def _room_at(self, line: int) -> Section | None:
        """The room whose lines hold line (rooms never nest: the last room heading at or before it, if open)."""
        sections = self._sections
        for section, delta in sections.backwards(sections.index_right(line)):
            if section.kind == _ROOM:
                return move_section(section, delta) if line < section.end + delta else None
            if section.heading.level == 2:  # it closed every room before it
                return None
        return None

    # ------------------------------------------------------------------ finding
    def room_of(self, entry: Entry) -> Section | None:
        """The room section an entry sits in."""
        return self._room_at(entry.start)

    def _matching(self, key: SectionKey) -> list[Section]:
        """The sections of this key, in order."""
        if self._by_key is None:
            index: dict[SectionKey, list[Section]] = {}
            for section, _ in self._sections.raw():
                index.setdefault(section_key(section), []).append(section)
            self._by_key = index
        found = [self._sections.placed(s) for s in self._by_key.get(key, ())]
        return sorted((s for s in found if s is not None), key=section_line)

    def room_sections(self, path: MemoryPath) -> list[Section]:
        return self._matching((_ROOM, path.wing_key, path.hall, path.room))

    def room_entries(self, path: MemoryPath) -> list[Entry]:
        """The entries of a room, in order (found through its sections: no walk over every entry)."""
        key = path.wing_key
        found: list[Entry] = []
        for section in self.room_sections(path):
            for entry in self.entries_between(section.heading.line, section.end):
                p = entry.path
                if p is not None and p.hall == path.hall and p.room == path.room and p.wing_key == key:
                    found.append(entry)
        return found

    def scope_entries(self, wing: str | None, *, placed: bool = True) -> list[Entry]:
        """Entries of one wing, or of the wing-less halls when wing is None.

        With placed=False the entries may carry the line numbers of an earlier version of the document
        (only their path, content and date are to be read): cheaper when that is all that is needed.
        """
        key = wing_key(wing) if wing else None
        return [
            e._moved(delta) if delta and placed else e
            for entries, _, delta in self._runs
            for e in entries
            if e.path is not None and e.path.wing_key == key
        ]

    def placed(self, entry: Entry) -> Entry:
        """An entry of this document (from `scope_entries(placed=False)`) with its lines in this document."""
        for entries, starts, delta in self._runs:
            index = bisect.bisect_left(starts, entry.start)
            while index < len(entries) and starts[index] == entry.start:
                if entries[index] is entry:
                    return entry._moved(delta) if delta else entry
                index += 1
        raise ValueError("not an entry of this document")

    def hall_sections(self, wing: str | None, hall: Hall) -> list[Section]:
        if wing is None:
            return self._matching((_HALL, None, hall, None))
        return self._matching((_WING_HALL, wing_key(wing) if wing else None, hall, None))

    def wing_sections(self, wing: str) -> list[Section]:
        return self._matching((_WING, wing_key(wing) if wing else None, None, None))

    def wings(self) -> list[str]:
        seen: dict[str, str] = {}
        for section in self.sections:
            if section.kind == _WING and section.wing:
                seen.setdefault(wing_key(section.wing), section.wing)
        return list(seen.values())

    # ------------------------------------------------------------------ writing
    def to_bytes(self) -> bytes:
        if self._raw is not None:
            return self._raw
        return self._serialise(self.lines, self.eols)

    def _serialise(self, lines: list[str], eols: list[str]) -> bytes:
        text = "".join(map(operator.add, lines, eols))
        return ((BOM if self.bom else "") + text).encode("utf-8", "surrogateescape")

    def splice(self, start: int, end: int, new_lines: list[str]) -> bytes:
        """Bytes of the document with lines[start:end] replaced; every other line keeps its bytes.

        New lines end with the file's own newline; a last line without an ending stays without one.
        """
        raw, offsets = self._raw, self._offsets
        if raw is not None and offsets is not None and self.final_newline and self._crlf in (0, self._ended):
            # Every line ends alike: the new lines go between the bytes before and after them, as they are.
            head, tail = offsets.at(start, raw), offsets.at(end, raw)
            inserted = "".join([line + self.newline for line in new_lines]).encode("utf-8", "surrogateescape")
            return b"".join((raw[:head], inserted, raw[tail:]))
        return self._splice_lines(start, end, new_lines)

    def _splice_lines(self, start: int, end: int, new_lines: list[str]) -> bytes:
        """splice, by joining the lines again (files with mixed endings, or without a final one)."""
        lines = replaced_run(self.lines, start, end, new_lines)
        if not lines:
            return BOM_BYTES if self.bom else b""
        newline = self.newline
        # A blank last line keeps its ending (without one it would not be there at all).
        final_newline = self.final_newline or not lines[-1]
        if self._crlf in (0, self._ended) and self._cr in (0, self._ended):
            # Every line ends alike (the last perhaps with nothing): join, don't walk the lines.
            text = newline.join(lines) + (newline if final_newline else "")
            return ((BOM if self.bom else "") + text).encode("utf-8", "surrogateescape")
        eols = replaced_run(self.eols, start, end, [newline] * len(new_lines))
        if start > 0 and not eols[start - 1] and len(eols) > start:
            eols[start - 1] = newline  # the old last line gains an ending when text follows it
        if not final_newline:
            eols[-1] = ""
        elif not eols[-1]:
            eols[-1] = newline
        return self._serialise(lines, eols)


def _room_path(room: Section) -> MemoryPath | None:
    return MemoryPath(room.wing, room.hall, room.room) if room.hall and room.room else None
