"""Entries that hold until a day (`- [2026-12-01 → 2027-03-31] The team is on the trial plan`).

Past its end an entry leaves the prompt (render.py skips it from that day on), and at the next session start
it moves to superseded.md with the reason "expired", in one change that undo reverts like any other.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import TYPE_CHECKING

from palace.record import record

if TYPE_CHECKING:  # a session start with no entry ending costs no parser (store.expire)
    from palace.memory.document import Document, Entry

EXPIRING_DAYS = 30  # `palace memory show --expiring` lists what ends within this many days


def is_expired(entry: Entry, today: str) -> bool:
    """Whether the entry's last day is before today."""
    return entry.until is not None and entry.until < today


def expired(doc: Document, today: str) -> list[Entry]:
    """The placed entries whose end has passed."""
    return [e for e in doc.entries if e.path is not None and is_expired(e, today)]


def expiring(doc: Document, today: str, days: int = EXPIRING_DAYS) -> list[Entry]:
    """The placed entries that end within `days` days (today included), soonest first."""
    last = (date.fromisoformat(today) + timedelta(days=days)).isoformat()
    found = [e for e in doc.entries if e.path is not None and e.until is not None and today <= e.until <= last]
    return sorted(found, key=lambda e: (e.until or "", e.start))


@record
class Expired:
    """What an expiry removed from memories.md (each entry goes to superseded.md as "expired")."""

    entries: list[Entry]

    @property
    def counted(self) -> str:
        return f"{len(self.entries)} entr{'y' if len(self.entries) == 1 else 'ies'}"

    @property
    def message(self) -> str:
        return f"memory: expire {self.counted}"


def expire(doc: Document, today: str) -> tuple[bytes | None, Expired]:
    """Remove the entries whose end has passed (and the rooms they leave empty); None when there are none."""
    from palace.memory.ops import without_entries

    gone = expired(doc, today)
    if not gone:
        return None, Expired([])
    return without_entries(doc, gone), Expired(gone)
