"""memories.md as lines plus the structure mistune's block parser finds in them.

The document keeps every byte: lines are decoded with `surrogateescape` (so bytes that are not UTF-8
survive), each line keeps its own ending, a BOM and a missing final newline are remembered. Only
top-level headings and top-level list items are structure; everything else is opaque user text.
"""

from __future__ import annotations

import bisect
import operator

from palace.memory.halls import Hall, MemoryPath, wing_key
from palace.memory.keys import normalise, words_of
from palace.memory.parse import (
    BOM,
    BOM_BYTES,
    Block,
    Derived,
    Entry,
    Heading,
    Kind,
    LineOffsets,
    Recent,
    Section,
    SectionKey,
    SectionSig,
    Shifted,
    build_sections,
    common_prefix,
    common_suffix,
    date_mark,
    derive_document,
    endings,
    entry_line,
    move_section,
    note_splice,
    replaced_run,
    scan,
    section_key,
    section_line,
    shifted_blocks,
    shifted_entries,
    shifted_headings,
    shifted_sections,
    shifted_spans,
    speed_layers,
    split_lines,
    uniform,
    uniform_endings,
)
from palace.record import field, record

_HALL, _WING, _WING_HALL, _ROOM = Kind.HALL, Kind.WING, Kind.WING_HALL, Kind.ROOM  # enum lookups are slow in loops

__all__ = [
    "BOM",
    "BOM_BYTES",
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


_parsed: Recent[Document] = Recent(4)  # the last few parsed documents


def clear_parse_cache() -> None:
    """Forget the recently parsed documents (the next parse starts from nothing)."""
    _parsed.clear()


@record(eq=False)
class Document:
    """The file as (text, ending) lines, with its structure.

    Documents that `parse` returns are shared (the last few are remembered, so that parsing bytes seen a
    moment ago is free and parsing an edited version re-parses only around the edit): never mutate one.
    """

    lines: list[str]
    _eols: list[str] | None  # each line's ending ("" for a last line without one); None: uniform (see `eols`)
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
    # The entries, shared with the document this one was derived from: those after an edit are moved only
    # when someone needs their lines.
    _entries: Shifted[Entry] = field(default_factory=lambda: shifted_entries([]), repr=False)
    # Entries in rooms by their comparison key (as stored in the runs), built on first use and patched
    # from the parent's when a document is derived, so that finding an equal entry never walks them all.
    _keys: dict[str, list[Entry]] | None = field(default=None, repr=False)
    # Sections by section_key (the stored objects, to be placed), built on first use and patched when derived.
    _by_key: dict[SectionKey, list[Section]] | None = field(default=None, repr=False)
    _tally: tuple[int, int, int] | None = field(default=None, repr=False)  # of the endings (see lines.endings)
    _offsets: LineOffsets | None = field(default=None, repr=False)  # where lines start in _raw (LF-split lines)

    def __post_init__(self) -> None:
        tally = self._tally
        if tally is None:
            if self._eols is None:
                raise ValueError("a document's endings come as a list or as a tally")
            tally = endings(self._eols)
        self._crlf, self._cr, self._ended = tally
        if self._eols is not None and uniform(self._eols, tally, len(self.lines)):
            self._eols = None  # counted, not listed: a save copies no list of them (and the collector walks none)

    @property
    def eols(self) -> list[str]:
        """Each line's ending ("" for a last line without one). Do not change it."""
        eols = self._eols
        if eols is None:
            eols = self._eols = uniform_endings((self._crlf, self._cr, self._ended), len(self.lines))
        return eols

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
        return self._entries.flat()

    @entries.setter
    def entries(self, value: list[Entry]) -> None:
        self._entries = shifted_entries(value)
        self._keys = None

    def _key_index(self) -> dict[str, list[Entry]]:
        if self._keys is None:
            index: dict[str, list[Entry]] = {}
            for entry, _ in self._entries.raw():
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
        return self._entries.between(first, end)

    # ------------------------------------------------------------------ reading
    @classmethod
    def parse(cls, data: bytes) -> Document:
        """Parse raw file bytes; never fails, whatever the bytes."""
        if not speed_layers():
            return cls._parse_all(data, fast=False)
        same, recent = _parsed.find(data)
        if same is not None:
            _parsed.remember(same)
            return same
        doc = derive_document(recent, data) if recent is not None else None
        if doc is None:
            doc = cls._parse_all(data)
        _parsed.remember(doc)
        return doc

    def reparse(self, data: bytes) -> Document:
        """data (an edited version of this document's bytes) parsed, re-parsing only around the change."""
        if not speed_layers():
            return Document._parse_all(data, fast=False)
        if self._raw is not None and self._raw == data:
            return self
        doc = derive_document(self, data) or Document._parse_all(data)
        _parsed.remember(doc)
        return doc

    @classmethod
    def _parse_all(cls, data: bytes, *, fast: bool = True) -> Document:
        text = data.decode("utf-8", "surrogateescape")
        bom = text.startswith(BOM)
        if bom:
            text = text[1:]
        lines, eols, final_newline = split_lines(text)
        doc = cls(lines, eols, bom=bom, final_newline=final_newline or not lines, _raw=data)
        doc._majority_newline()
        if fast and not doc._cr:  # lines end with LF (or CRLF): where they start can be counted in the bytes
            doc._offsets = LineOffsets(len(BOM_BYTES) if bom else 0, data)
        found = scan(lines, 0, len(lines), fast=fast)
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
        """data parsed by re-parsing only around what changed since these bytes (see parse.derive_document)."""
        return derive_document(self, data)

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
            for e, delta in self._entries.raw()
            if e.path is not None and e.path.wing_key == key
        ]

    def placed(self, entry: Entry) -> Entry:
        """An entry of this document (from `scope_entries(placed=False)`) with its lines in this document."""
        found = self._entries.placed(entry)
        if found is None:
            raise ValueError("not an entry of this document")
        return found

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
            view = memoryview(raw)  # one copy of the file's bytes, not three
            data = b"".join((view[:head], inserted, view[tail:]))
            note_splice(raw, data, head, len(raw) - tail)  # its re-parse compares only around the edit
            return data
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
