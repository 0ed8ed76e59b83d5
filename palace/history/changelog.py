"""`.index/changes.jsonl`: what each memory change palace made did (its entries, not its bytes), and which were
undone: read by the session archive, which lists every change made while a session ran, whoever made it.

Derived data, appended under the undo lock by history/undo.py: changes older than two weeks (and more than
the last 2,000) are dropped when the file grows past 1 MiB. Losing it only shortens the archives' lists.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path
from typing import Any

from palace.memory.files import atomic_write
from palace.paths import PalacePaths
from palace.record import record

KEPT_SECONDS = 14 * 86400
_KEPT_CHANGES = 2000
_MAX_BYTES = 1 << 20


@record
class SessionTag:
    """The session a process's changes belong to (a chat sets it; None: a command, an MCP client, a sync)."""

    id: str | None = None


@record
class ChangeNote:
    """What one change did (its entries' events), when, in which session, and whether it was undone since."""

    id: str
    time: float
    events: list[dict[str, str]]
    undone: bool = False
    session: str | None = None

    def to_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {"id": self.id, "time": self.time, "events": self.events}
        if self.session:
            found["session"] = self.session
        if self.undone:
            found["was_undone"] = True
        return found


class ChangeLog:
    """The change log of one palace (the caller holds the undo lock)."""

    def __init__(self, home: Path) -> None:
        self.file = PalacePaths(home).index / "changes.jsonl"

    def add(self, change_id: str, events: list[dict[str, str]], when: float, session: str | None = None) -> None:
        if events:
            self._append(ChangeNote(change_id, when, events, session=session).to_json())

    def undone(self, change_id: str) -> None:
        self._append({"undone": change_id})

    def notes(self) -> list[ChangeNote]:
        """Every change the log remembers, oldest first, each marked if undone."""
        try:
            text = self.file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return []
        notes: dict[str, ChangeNote] = {}
        for line in text.splitlines():
            with contextlib.suppress(ValueError, KeyError, TypeError, AttributeError):
                item = json.loads(line)
                if "undone" in item:
                    if (note := notes.get(str(item["undone"]))) is not None:
                        note.undone = True
                    continue
                events = [{str(k): str(v) for k, v in event.items()} for event in item["events"]]
                session = str(item["session"]) if item.get("session") else None
                notes[str(item["id"])] = ChangeNote(
                    str(item["id"]), float(item["time"]), events, bool(item.get("was_undone")), session
                )
        return list(notes.values())

    def _append(self, item: dict[str, Any]) -> None:
        with contextlib.suppress(OSError):  # derived data: a change never fails for it
            fd = os.open(self.file, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            try:
                os.write(fd, (json.dumps(item) + "\n").encode("utf-8"))
                size = os.fstat(fd).st_size
            finally:
                os.close(fd)
            if size > _MAX_BYTES:
                self._prune()

    def _prune(self) -> None:
        since = time.time() - KEPT_SECONDS
        kept = [note for note in self.notes() if note.time >= since][-_KEPT_CHANGES:]
        atomic_write(self.file, "".join(json.dumps(n.to_json()) + "\n" for n in kept).encode("utf-8"), durable=False)


def entry_events(before: bytes, after: bytes, by: str) -> list[dict[str, str]]:
    """What a change made outside the store (a merge by `palace sync`) did to memories.md's entries."""
    from palace.memory.document import Document  # the parser: only when memories.md changed

    def entries(data: bytes) -> dict[tuple[str, str], tuple[str | None, str | None]]:
        return {(str(e.path), e.content): (e.date, e.until) for e in Document.parse(data).entries if e.path}

    old, new = entries(before), entries(after)
    events = [
        {"path": path, "content": content, "action": "saved" if (path, content) not in old else "refreshed", "by": by}
        for (path, content), dates in new.items()
        if old.get((path, content)) != dates
    ]
    events += [
        {"path": path, "content": content, "action": "forgotten", "by": by}
        for path, content in old
        if (path, content) not in new
    ]
    return events
