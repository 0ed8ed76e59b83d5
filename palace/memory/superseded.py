"""superseded.md: every entry palace removed or replaced, dated, with its path and the reason.

An old fact is never lost and never handed to an agent as current: recall searches this file and labels its
hits superseded.
"""

from __future__ import annotations

import re
from pathlib import Path

from palace.memory.halls import MemoryPath
from palace.memory.secrets import find_secret
from palace.memory.sidefile import SideFile
from palace.paths import PalacePaths
from palace.record import record

HEADER = """\
# Superseded memories

Entries palace removed from memories.md or replaced there, with the date they had and why they went.
Recall still finds them, marked superseded. This file is palace's record: edit it if you like.
"""

SECRET_REMOVED = "[secret removed]"  # what superseded.md keeps of an entry that was a secret
_BY = {
    "model": "by the model",
    "user": "by the user",
    "extracted": "by extraction",
    "review": "in review",
    "expiry": "past its end date",
}
_NOTE = re.compile(r"^(\w+) (\d{4}-\d{2}-\d{2})\b\s*(.*)$", re.S)


def label(note: str) -> str:
    """How recall marks an entry of this file: `superseded 2026-11-02: replaced by the user, now: "..."`."""
    note = " ".join(note.split())
    match = _NOTE.match(note)
    if match is None:
        return f"superseded: {note}" if note else "superseded"
    reason, day, rest = match.groups()
    return f"superseded {day}: {reason}" + (f" {rest}" if rest else "")


@record(frozen=True)
class Removed:
    """An entry that left memories.md: where it was, what it said, its date, and what happened to it."""

    path: MemoryPath
    content: str
    day: str | None
    reason: str  # "forgotten", "replaced", "cleared"
    by: str = "user"
    replaced_by: str | None = None
    secret: bool = False  # the user said it was one (`forget --secret`): kept as SECRET_REMOVED only


def is_secret(removed: Removed) -> bool:
    """Whether a removed entry may not be kept as it was: the user said so, or it looks like a secret."""
    return removed.secret or find_secret(removed.content) is not None


class Superseded:
    def __init__(self, home: Path, *, inside: Path | None = None) -> None:
        self.side = SideFile(PalacePaths(home).superseded, HEADER, inside=inside)

    @property
    def file(self) -> Path:
        return self.side.file

    def record(self, removed: list[Removed], today: str) -> None:
        """Add the removed entries (the caller holds the palace lock)."""
        items = []
        for item in removed:
            note = f"{item.reason} {today} {_BY.get(item.by, 'by ' + item.by)}"
            if item.replaced_by and find_secret(item.replaced_by) is None:
                note += f', now: "{item.replaced_by}"'
            content = SECRET_REMOVED if is_secret(item) else item.content  # a secret never goes to a side file
            items.append((item.path, content, item.day or today, note))
        if items:
            self.side.add(items)
