"""superseded.md: every entry palace removed or replaced, dated, with its path and the reason.

An old fact is never lost and never handed to an agent as current: recall searches this file and labels its
hits superseded.
"""

from __future__ import annotations

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
