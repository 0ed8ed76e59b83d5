"""The undo record stack (`.index/undo.json`, kept with or without git) and `undo_last`."""

from __future__ import annotations

import base64
import binascii
import contextlib
import json
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from palace.errors import UndoError
from palace.filelock import exclusive
from palace.history.git import HAND_EDIT_MESSAGE, GitTrouble, is_own_repo, run_git
from palace.memory.files import atomic_write
from palace.paths import MEMORIES, PalacePaths

UNDO_PREFIX = "memory: undo "
UNDO_DEPTH = 10  # undo records kept (newest last)
UNDO_MAX_BYTES = 4 * 1024 * 1024  # older records are dropped past this many bytes of file content


# --------------------------------------------------------------------------- undo records


@dataclass
class _UndoRecord:
    id: str
    message: str
    before: bytes
    after: bytes
    time: float = field(default_factory=time.time)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "message": self.message,
            "time": self.time,
            "before": base64.b64encode(self.before).decode("ascii"),
            "after": base64.b64encode(self.after).decode("ascii"),
        }

    @classmethod
    def from_json(cls, data: Any) -> _UndoRecord | None:
        try:
            return cls(
                id=str(data["id"]),
                message=str(data["message"]),
                time=float(data.get("time", 0.0)),
                before=base64.b64decode(data["before"], validate=True),
                after=base64.b64decode(data["after"], validate=True),
            )
        except (KeyError, TypeError, ValueError, AttributeError, binascii.Error):
            return None


class UndoStack:
    """`.index/undo.json`: the last few changes palace made, newest last, under `.index/undo.lock`."""

    def __init__(self, home: Path) -> None:
        self.dir = PalacePaths(home).index
        self.file = self.dir / "undo.json"

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        self.dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        with exclusive(self.dir / "undo.lock"):
            yield

    def load(self) -> list[_UndoRecord]:
        try:
            data = json.loads(self.file.read_bytes())
        except (OSError, ValueError):
            return []
        raw = data.get("records", []) if isinstance(data, dict) else []
        records = [_UndoRecord.from_json(item) for item in raw] if isinstance(raw, list) else []
        return [r for r in records if r is not None]

    def store(self, records: list[_UndoRecord]) -> None:
        records = records[-UNDO_DEPTH:]
        while len(records) > 1 and sum(len(r.before) + len(r.after) for r in records) > UNDO_MAX_BYTES:
            records = records[1:]
        payload = json.dumps({"version": 1, "records": [r.to_json() for r in records]}).encode()
        atomic_write(self.file, payload)

    def push(self, before: bytes, after: bytes, message: str) -> None:
        with self.locked():
            records = self.load()
            records.append(_UndoRecord(uuid.uuid4().hex, message, before, after))
            self.store(records)

    def discard(self, record_id: str) -> None:
        with self.locked():
            records = self.load()
            kept = [r for r in records if r.id != record_id]
            if len(kept) != len(records):
                self.store(kept)

    def consume_undone(self, before: bytes, after: bytes) -> None:
        """An undo write (before -> after) consumes the newest record it reverses."""
        with self.locked():
            records = self.load()
            if records and records[-1].after == before and records[-1].before == after:
                self.store(records[:-1])

    def top(self) -> _UndoRecord | None:
        with self.locked():
            records = self.load()
        return records[-1] if records else None


# --------------------------------------------------------------------------- undo


class _RestoringStore(Protocol):
    """What undo needs of palace.memory.store.MemoryStore."""

    def read_bytes(self) -> bytes: ...

    def restore(self, expected: bytes, new: bytes, *, message: str) -> None: ...


_NOTHING = "nothing to undo: palace has made no memory change that is not undone already"
_CHANGED_SINCE = "memories.md changed since that change (hand edit?) — nothing undone; see `palace log`"


def _short(message: str) -> str:
    return message.removeprefix("memory: ")


def _git_last_change(home: Path) -> tuple[str, bytes, bytes]:
    """(message, before, after) of the last palace commit of memories.md; UndoError when there is none."""
    proc = run_git(home, "log", "-1", "--format=%H%x1f%s", "--", MEMORIES, check=False)
    line = proc.stdout.decode("utf-8", "replace").strip()
    if proc.returncode != 0 or not line:
        raise UndoError(_NOTHING)
    sha, _, subject = line.partition("\x1f")
    if subject == HAND_EDIT_MESSAGE or not subject.startswith("memory: "):
        raise UndoError("nothing to undo: the last change to memories.md was not made by palace; see `palace log`")
    if subject.startswith(UNDO_PREFIX):
        raise UndoError("nothing to undo: the last change palace made was an undo; see `palace log`")
    after = run_git(home, "show", f"{sha}:{MEMORIES}").stdout
    parent = run_git(home, "show", f"{sha}^:{MEMORIES}", check=False)
    before = parent.stdout if parent.returncode == 0 else b""
    return subject, before, after


def undo_last(store: _RestoringStore, home: Path) -> str:
    """Revert the last change palace made; UndoError when there is none or the file changed since.

    The undo records (`.index/undo.json`, kept with or without git) form a short stack: each undo
    consumes one, so repeated undos walk back up to UNDO_DEPTH changes. Without a record (e.g. `.index/`
    was deleted) a git palace falls back to its last palace commit.
    """
    home = Path(home).expanduser()
    stack = UndoStack(home)
    try:
        record = stack.top()
    except OSError:
        record = None
    current = store.read_bytes()
    if record is not None:
        if current != record.after:
            raise UndoError(_CHANGED_SINCE)
        store.restore(record.after, record.before, message=UNDO_PREFIX + _short(record.message))
        with contextlib.suppress(OSError):
            stack.discard(record.id)  # already consumed when a GitHistory hook saw the write
        return f"Undone: {_short(record.message)}"
    try:
        if not is_own_repo(home):
            raise UndoError(_NOTHING)
        message, before, after = _git_last_change(home)
    except GitTrouble as exc:
        raise UndoError(f"nothing undone: {exc}") from exc
    if current != after:
        raise UndoError(_CHANGED_SINCE)
    store.restore(after, before, message=UNDO_PREFIX + _short(message))
    return f"Undone: {_short(message)}"
