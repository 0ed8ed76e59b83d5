"""What the headings of memories.md mean: halls, wings, a wing's halls, rooms, and where each section ends.

A `## X` heading is a hall when X names one, otherwise a wing; `###` under a wing is one of its halls; the
next level down is a room. The meaning of a heading depends only on the builder's state (the sections still
open) and the heading itself, so after an edit only the headings around it are read again: before them the
sections are kept, after them they are the old ones moved, when the state there is the same as it was.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from palace.memory.halls import Hall, parse_hall, room_slug, wing_key
from palace.memory.parse.blocks import Heading
from palace.memory.parse.shifted import Piece, Shifted
from palace.record import field, record


class Kind(StrEnum):
    """What a structural heading is."""

    HALL = "hall"  # ## Hall
    WING = "wing"  # ## wing (any level-2 heading that is not a hall)
    WING_HALL = "wing-hall"  # ### Hall inside a wing
    ROOM = "room"  # ### room in a hall, #### room in a wing's hall
    OTHER = "other"  # a heading at a structural level that means nothing (a misspelt hall in a wing...)


# Enum member lookups are slow in a hot loop; the builder uses these.
_HALL, _WING, _WING_HALL, _ROOM, _OTHER = Kind.HALL, Kind.WING, Kind.WING_HALL, Kind.ROOM, Kind.OTHER

SectionSig = tuple[Kind, int, str | None, Hall | None, str | None]  # kind, level, wing key, hall, room


@record(slots=True)
class Section:
    """A structural heading and the lines up to the next heading of the same or a higher level."""

    kind: Kind
    heading: Heading
    end: int
    wing: str | None = None
    hall: Hall | None = None
    room: str | None = None

    @property
    def sig(self) -> SectionSig:
        """What the section means, without where it is."""
        return (self.kind, self.heading.level, wing_key(self.wing) if self.wing else None, self.hall, self.room)

    def moved(self, heading: Heading, delta: int) -> Section:
        return Section(self.kind, heading, self.end + delta, self.wing, self.hall, self.room)


@record
class _Builder:
    """Reads headings in order into sections; its state is the sections still open (a stack by level)."""

    sections: list[Section] = field(default_factory=list)
    open: list[Section] = field(default_factory=list)

    def context(self) -> tuple[str | None, Hall | None, bool]:
        """(wing, hall, in a wing) for the next heading, from what is open."""
        wing: str | None = None
        hall: Hall | None = None
        in_wing = False
        for section in self.open:
            if section.heading.level == 2:
                wing, hall, in_wing = section.wing, section.hall, section.kind == _WING
            elif section.heading.level == 3 and in_wing:
                hall = section.hall
        return wing, hall, in_wing

    def state(self) -> list[tuple[int, SectionSig]]:
        return [(s.heading.level, s.sig) for s in self.open]

    def add(self, heading: Heading) -> None:
        level, line = heading.level, heading.line
        if level == 1:  # a title: it carries no meaning, but it closes every section before it
            for closed in self.open:
                closed.end = line
            self.open.clear()
            return
        section = self._section(heading)
        if section is None:
            return  # a deeper heading is the user's own sub-heading inside a room
        while self.open and self.open[-1].heading.level >= level:
            self.open.pop().end = line
        self.open.append(section)
        self.sections.append(section)

    def _section(self, heading: Heading) -> Section | None:
        level, text = heading.level, heading.text
        if level == 2:
            parsed = parse_hall(text)
            if parsed is not None:
                return Section(_HALL, heading, 0, None, parsed)
            return Section(_WING, heading, 0, text)
        wing, hall, in_wing = self.context()
        if level == 3 and in_wing:
            parsed = parse_hall(text)
            return Section(_WING_HALL if parsed else _OTHER, heading, 0, wing, parsed)
        if hall is not None and ((level == 3 and not in_wing) or (level == 4 and in_wing)):
            return Section(_ROOM, heading, 0, wing, hall, room_slug(text))
        if level <= 4:
            return Section(_OTHER, heading, 0, wing, None)
        return None

    def finish(self, end: int) -> list[Section]:
        for section in self.open:
            section.end = end
        self.open.clear()
        return self.sections


def build_sections(headings: list[Heading], line_count: int) -> list[Section]:
    """The sections of a whole document."""
    builder = _Builder()
    for heading in headings:
        builder.add(heading)
    return builder.finish(line_count)


class Rebuilt(NamedTuple):
    """A rebuild's sections, whether those after the change mean the same, and the stored sections it dropped
    and made (to patch an index of them)."""

    sections: Shifted[Section]
    same_after: bool
    removed: list[Section]
    added: list[Section]


SectionKey = tuple[Kind, str | None, Hall | None, str | None]  # kind, wing key, hall, room


def section_key(section: Section) -> SectionKey:
    """What finding a room, a hall or a wing looks a section up by."""
    return (section.kind, wing_key(section.wing) if section.wing else None, section.hall, section.room)


def move_section(section: Section, delta: int) -> Section:
    """The section delta lines further down."""
    heading = section.heading
    return section.moved(Heading(heading.line + delta, heading.end + delta, heading.level, heading.text), delta)


def section_line(section: Section) -> int:
    return section.heading.line


def _open_at(sections: Shifted[Section], line: int) -> list[int]:
    """The indices of the sections that start before line and are still open there (their closing heading,
    if any, is at or after it), in order."""
    index = sections.index(line)
    found: list[int] = []
    for items, delta, n in sections.runs_backwards(index):
        edge = line - delta  # open there: ends at or after it (as stored)
        for offset in range(n - 1, -1, -1):
            section = items[offset]
            index -= 1
            if section.end >= edge:
                found.append(index)
            if section.heading.level == 2:  # every section before it was closed by it
                return found[::-1]
    return found[::-1]


def _open_later(sections: Shifted[Section], opened: list[int], first: int, line: int) -> list[int]:
    """_open_at(sections, line) from what is open at first (<= line): a section open at line is open at first
    too or starts in [first, line), so only those few are looked at (a second walk back over every room of a
    hall is not made)."""
    later = range(sections.index(first), sections.index(line))
    return [index for index in [*opened, *later] if _end(sections, index) >= line]


def _end(sections: Shifted[Section], index: int) -> int:
    return sections[index].end


def rebuild_sections(
    old: Shifted[Section],
    headings: Shifted[Heading],
    window_start: int,
    old_end: int,
    delta: int,
    line_count: int,
) -> Rebuilt:
    """The sections of a document whose lines [window_start, old_end) of `old`'s document were replaced
    (delta lines more), and whether the sections after the change mean what they meant.

    headings are the new document's. Sections before the window are kept (those still open at it are
    copied, since their end may move); the window's headings are read again; after it, when the builder is
    in the state it was in at old_end, the old sections are moved down (else the rest is read again too).
    """
    first = old.index(window_start)
    builder = _Builder()
    opened = _open_at(old, window_start)
    head = opened[0] if opened else first  # the sections before it are shared as they are
    kept: list[Piece[Section]] = []
    low = head
    removed = [old.stored(index, index + 1)[0] for index in opened]
    copies: list[Section] = []
    for index in opened:  # those still open may get another end: copies, the old
        kept += old.pieces(low, index)  # document keeps its own
        section = old[index]
        section = section.moved(section.heading, 0)
        builder.open.append(section)
        copies.append(section)
        kept.append(Piece([section], [section.heading.line], 0))
        low = index + 1
    kept += old.pieces(low, first)
    window_end = headings.index(old_end + delta)
    for heading in headings.slice(headings.index(window_start), window_end):
        builder.add(heading)
    tail_open = [old[index] for index in _open_later(old, opened, window_start, old_end)]
    later = old.index(old_end)
    removed += old.stored(first, later)
    if builder.state() == _Builder(open=tail_open).state():
        for new, old_open in zip(builder.open, tail_open, strict=True):
            new.end = old_open.end + delta
        window = Piece(builder.sections, [s.heading.line for s in builder.sections], 0)
        return Rebuilt(old.rebuilt(head, [*kept, window], later, delta), True, removed, copies + builder.sections)
    count = len(builder.sections)
    for heading in headings.slice(window_end, len(headings)):
        builder.add(heading)
    sections = builder.finish(line_count)
    new_later = [s for s in sections[count:] if s.heading.line >= old_end + delta]
    rebuilt = old.rebuilt(head, [*kept, Piece(sections, [s.heading.line for s in sections], 0)], len(old), 0)
    same = [s.sig for s in old.slice(later, len(old))] == [s.sig for s in new_later]
    return Rebuilt(rebuilt, same, removed + old.stored(later, len(old)), copies + sections)
