"""superseded.md: every entry palace removed or replaced, dated, with its path and the reason.

An old fact is never lost and never handed to an agent as current: recall searches this file and labels its
hits superseded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from palace.memory.halls import MemoryPath
from palace.memory.sidefile import SideFile
from palace.paths import PalacePaths

HEADER = """\
# Superseded memories

Entries palace removed from memories.md or replaced there, with the date they had and why they went.
Recall still finds them, marked superseded. This file is palace's record: edit it if you like.
"""

_BY = {"model": "by the model", "user": "by the user", "extracted": "by extraction", "review": "in review"}
_NOTE = re.compile(r"^(\w+) (\d{4}-\d{2}-\d{2})\b\s*(.*)$", re.S)


def label(note: str) -> str:
    """How recall marks an entry of this file: `superseded 2026-11-02: replaced by the user, now: "..."`."""
    note = " ".join(note.split())
    match = _NOTE.match(note)
    if match is None:
        return f"superseded: {note}" if note else "superseded"
    reason, day, rest = match.groups()
    return f"superseded {day}: {reason}" + (f" {rest}" if rest else "")


@dataclass(frozen=True)
class Removed:
    """An entry that left memories.md: where it was, what it said, its date, and what happened to it."""

    path: MemoryPath
    content: str
    day: str | None
    reason: str  # "forgotten", "replaced", "cleared"
    by: str = "user"
    replaced_by: str | None = None


class Superseded:
    def __init__(self, home: Path) -> None:
        self.side = SideFile(PalacePaths(home).superseded, HEADER)

    @property
    def file(self) -> Path:
        return self.side.file

    def record(self, removed: list[Removed], today: str) -> None:
        """Add the removed entries (the caller holds the palace lock)."""
        items = []
        for item in removed:
            note = f"{item.reason} {today} {_BY.get(item.by, 'by ' + item.by)}"
            if item.replaced_by:
                note += f', now: "{item.replaced_by}"'
            items.append((item.path, item.content, item.day or today, note))
        if items:
            self.side.add(items)
