"""What the headings of memories.md mean: halls, wings, a wing's halls, rooms, and where each section ends.

A `## X` heading is a hall when X names one, otherwise a wing; `###` under a wing is one of its halls; the
next level down is a room. The meaning of a heading depends only on the builder's state (the sections still
open) and the heading itself, so after an edit only the headings around it are read again: before them the
sections are kept, after them they are the old ones moved, when the state there is the same as it was.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from enum import StrEnum

from palace.memory.blocks import Heading
from palace.memory.halls import Hall, parse_hall, room_slug, wing_key


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


@dataclass(slots=True)
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


@dataclass
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


def _open_at(sections: list[Section], line: int) -> list[Section]:
    """The sections that start before line and are still open there (their closing heading, if any, is at
    or after it), in order."""
    starts = [s.heading.line for s in sections]
    return [s for s in sections[: bisect.bisect_left(starts, line)] if s.end >= line]


def rebuild_sections(
    old: list[Section],
    headings: list[Heading],
    window_start: int,
    old_end: int,
    delta: int,
    line_count: int,
) -> tuple[list[Section], bool]:
    """The sections of a document whose lines [window_start, old_end) of `old`'s document were replaced
    (delta lines more), and whether the sections after the change mean what they meant.

    headings are the new document's. Sections before the window are kept (those still open at it are
    copied, since their end may move); the window's headings are read again; after it, when the builder is
    in the state it was in at old_end, the old sections are moved down (else the rest is read again too).
    """
    starts = [s.heading.line for s in old]
    first = bisect.bisect_left(starts, window_start)
    builder = _Builder()
    kept = old[:first]
    still_open = {id(s) for s in _open_at(old, window_start)}
    for section in kept:  # those still open may get another end: copies, the old document keeps its own
        if id(section) in still_open:
            section = section.moved(section.heading, 0)
            builder.open.append(section)
        builder.sections.append(section)
    heading_lines = [h.line for h in headings]
    window_end = bisect.bisect_left(heading_lines, old_end + delta)
    for heading in headings[bisect.bisect_left(heading_lines, window_start) : window_end]:
        builder.add(heading)
    before_tail = _Builder(open=_open_at(old, old_end))
    later = old[bisect.bisect_left(starts, old_end) :]
    tail = headings[window_end:]
    if builder.state() == before_tail.state():
        moved_heading = {h.line - delta: h for h in tail}
        for new, old_open in zip(builder.open, before_tail.open, strict=True):
            new.end = old_open.end + delta
        builder.sections += [s.moved(moved_heading[s.heading.line], delta) for s in later]
        return builder.sections, True
    count = len(builder.sections)
    for heading in tail:
        builder.add(heading)
    sections = builder.finish(line_count)
    new_later = [s for s in sections[count:] if s.heading.line >= old_end + delta]
    return sections, [s.sig for s in later] == [s.sig for s in new_later]
