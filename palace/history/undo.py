"""Undo: the last few changes palace made, each recorded as the edit it was, not as copies of the file.

A record holds where the change sat (the length of the text before and after it that it left alone), the
bytes it replaced, and digests of the file before and after. Undoing puts the replaced bytes back, but only
when the file is still exactly what the change left (a hand edit since refuses the undo). The records are
an append-only log, `.index/undo.jsonl`, kept with or without git; it is derived data: deleting it only
forgets what can be undone (a git palace then falls back to its last palace commit).
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from palace.errors import UndoError
from palace.filelock import exclusive
from palace.history.changelog import ChangeLog, SessionTag
from palace.history.git import HAND_EDIT_MESSAGE, GitTrouble, is_own_repo, run_git
from palace.memory.change import Change
from palace.memory.files import atomic_write
from palace.paths import MEMORIES, PalacePaths
from palace.record import field, record
from palace.sha import fingerprint, fingerprint_matches

UNDO_PREFIX = "memory: undo "
UNDO_DEPTH = 10  # undo records kept (newest last)
_COMPACT_AT = 4 * UNDO_DEPTH  # log lines before the log is rewritten with only what is still undoable
_MAX_CHUNK = 1 << 24  # a change that replaced more than this (16 MB) is not kept for undo: git still has it


def digest(data: bytes) -> str:
    """A fingerprint of the file's bytes (palace/sha.py: its length and CRC-32)."""
    return fingerprint(data)


@record
class UndoRecord:
    """One change palace made: after[head : len(after) - tail] replaced before[head : len(before) - tail]."""

    id: str
    message: str
    head: int
    tail: int
    old: bytes  # the bytes the change replaced
    before: str  # digest of the file before the change
    after: str  # digest of the file after it
    time: float = field(default_factory=time.time)
    change: Change = field(default_factory=Change)  # what it wrote besides (side files, uses), what it did

    @classmethod
    def of(cls, before: bytes, after: bytes, message: str, change: Change | None = None) -> UndoRecord:
        from palace.memory.parse import common_prefix, common_suffix  # the parse engine: only once a change is made

        head = common_prefix(before, after)
        tail = common_suffix(before, after, min(len(before), len(after)) - head)
        old = before[head : len(before) - tail]
        return cls(
            os.urandom(16).hex(), message, head, tail, old, digest(before), digest(after), change=change or Change()
        )

    def revert(self, current: bytes) -> bytes:
        """The file as it was before the change, from the file as the change left it."""
        restored = current[: self.head] + self.old + current[len(current) - self.tail :]
        if not fingerprint_matches(restored, self.before):
            raise UndoError("the undo record does not fit memories.md (nothing undone); see `palace log`")
        return restored

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "message": self.message,
            "time": self.time,
            "head": self.head,
            "tail": self.tail,
            "old": base64.b64encode(self.old).decode("ascii"),
            "before": self.before,
            "after": self.after,
            "change": self.change.to_json(),
        }

    @classmethod
    def from_json(cls, data: Any) -> UndoRecord | None:
        try:
            return cls(
                id=str(data["id"]),
                message=str(data["message"]),
                head=int(data["head"]),
                tail=int(data["tail"]),
                old=base64.b64decode(data["old"], validate=True),
                before=str(data["before"]),
                after=str(data["after"]),
                time=float(data.get("time", 0.0)),
                change=Change.from_json(data.get("change")),
            )
        except (KeyError, TypeError, ValueError, AttributeError, binascii.Error):
            return None


class _LineCount(NamedTuple):  # not a frozen dataclass: no methods compiled at import (paths.py)
    """The undo log as this process last wrote it: its size, inode and number of lines."""

    size: int
    inode: int
    lines: int


_line_counts: dict[Path, _LineCount] = {}


class UndoStack:
    """`.index/undo.jsonl`: one line per change (or per undone change), newest last, under its own lock.

    Appends are not fsynced: a crash may forget the last undo record, never a memory.
    """

    def __init__(self, home: Path) -> None:
        self.dir = PalacePaths(home).index
        self.file = self.dir / "undo.jsonl"
        self.changes = ChangeLog(home)  # what each change did, kept longer (for the session archives)

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        if not self.dir.is_dir():
            self.dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        with exclusive(self.dir / "undo.lock"):
            yield

    def _lines(self) -> list[Any]:
        try:
            text = self.file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return []
        lines = []
        for line in text.splitlines():
            with contextlib.suppress(ValueError):
                lines.append(json.loads(line))
        return lines

    def load(self) -> list[UndoRecord]:
        """The records still undoable, oldest first (at most UNDO_DEPTH)."""
        records: list[UndoRecord] = []
        for item in self._lines():
            if isinstance(item, dict) and "undone" in item:
                records = [r for r in records if r.id != item["undone"]]
                continue
            record = UndoRecord.from_json(item)
            if record is not None:
                records = [*records[-(UNDO_DEPTH - 1) :], record]  # older ones fall off as new ones come
        return records

    def _append(self, item: dict[str, Any]) -> int:
        """Append one line; the log's lines, counted (read) only when another process wrote it meanwhile."""
        line = (json.dumps(item) + "\n").encode("utf-8")
        fd = os.open(self.file, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            os.write(fd, line)
            st = os.fstat(fd)
        finally:
            os.close(fd)
        known = _line_counts.get(self.file)
        if known is not None and known.size + len(line) == st.st_size and known.inode == st.st_ino:
            count = known.lines + 1
        else:
            try:
                count = self.file.read_bytes().count(b"\n")  # counted, not parsed
            except OSError:
                count = 0
        _line_counts[self.file] = _LineCount(st.st_size, st.st_ino, count)
        return count

    def _compact(self, count: int) -> None:
        if count > _COMPACT_AT:
            data = "".join(json.dumps(r.to_json()) + "\n" for r in self.load())
            atomic_write(self.file, data.encode("utf-8"), durable=False)  # derived: never worth an fsync
            _line_counts.pop(self.file, None)

    def push(
        self, before: bytes, after: bytes, message: str, change: Change | None = None, *, session: str | None = None
    ) -> None:
        """Record a change for undo (and what it did, in `session`, for the archives)."""
        record = UndoRecord.of(before, after, message, change)
        with self.locked():
            self.changes.add(record.id, record.change.events, record.time, session)
            if len(record.old) <= _MAX_CHUNK:  # a whole-file rewrite of a huge file is not kept: git still has it
                self._compact(self._append(record.to_json()))

    def discard(self, record_id: str) -> None:
        with self.locked():
            self._append({"undone": record_id})
            self.changes.undone(record_id)

    def consume_undone(self, before: bytes, after: bytes) -> None:
        """An undo write (before -> after) consumes the newest record it reverses."""
        with self.locked():
            records = self.load()
            top = records[-1] if records else None
            if top is not None and fingerprint_matches(before, top.after) and fingerprint_matches(after, top.before):
                self._append({"undone": top.id})
                self.changes.undone(top.id)

    def top(self) -> UndoRecord | None:
        with self.locked():
            records = self.load()
        return records[-1] if records else None


# --------------------------------------------------------------------------- undo


class _RestoringStore(Protocol):
    """What undo needs of palace.memory.store.MemoryStore."""

    def read_bytes(self) -> bytes: ...

    def restore(self, expected: bytes, new: bytes, *, message: str, change: Change | None = None) -> list[str]: ...


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


class UndoRecorder:
    """A write hook that keeps undo records for a store without git history (the project memory)."""

    def __init__(self, home: Path, tag: SessionTag | None = None) -> None:
        self.stack = UndoStack(home)
        self.tag = tag or SessionTag()  # the session the changes belong to

    def before_write(self, file: Path) -> None:
        """Nothing to do before a write: the record is made from its before and after."""

    def after_write(self, file: Path, before: bytes, after: bytes, message: str, change: Change | None = None) -> None:
        with contextlib.suppress(OSError):  # derived data: a palace change never fails for it
            if message.startswith(UNDO_PREFIX):
                self.stack.consume_undone(before, after)
            else:
                self.stack.push(before, after, message, change, session=self.tag.id)


class Undoable(NamedTuple):  # not a frozen dataclass: no methods compiled at import (palace/paths.py)
    """A memory file undo can act on: its store, its folder, and how its changes are named."""

    store: _RestoringStore
    home: Path
    label: str = ""  # e.g. " in the project memory .../.palace/memories.md"


def undo_latest(files: list[Undoable]) -> str:
    """Revert the newest change palace made to any of these files (the first is the user's palace)."""
    newest: tuple[float, Undoable] | None = None
    for item in files[1:]:
        with contextlib.suppress(OSError):
            record = UndoStack(item.home).top()
            if record is not None and (newest is None or record.time > newest[0]):
                newest = (record.time, item)
    if newest is not None:
        mine = None
        with contextlib.suppress(OSError):
            mine = UndoStack(files[0].home).top()
        if mine is None or mine.time < newest[0]:
            return undo_last(newest[1].store, newest[1].home) + newest[1].label
    return undo_last(files[0].store, files[0].home)


def undo_last(store: _RestoringStore, home: Path) -> str:
    """Revert the last change palace made; UndoError when there is none or the file changed since.

    The undo records form a short stack: each undo consumes one, so repeated undos walk back up to
    UNDO_DEPTH changes. Without a record (e.g. `.index/` was deleted) a git palace falls back to its last
    palace commit.
    """
    home = Path(home).expanduser()
    stack = UndoStack(home)
    try:
        record = stack.top()
    except OSError:
        record = None
    current = store.read_bytes()
    if record is not None:
        if not fingerprint_matches(current, record.after):
            raise UndoError(_CHANGED_SINCE)
        unplaced = store.restore(
            current, record.revert(current), message=UNDO_PREFIX + _short(record.message), change=record.change
        )
        with contextlib.suppress(OSError):
            stack.discard(record.id)  # already consumed when a GitHistory hook saw the write
        kept = f" ({' and '.join(unplaced)} changed since: its part of the change stays)" if unplaced else ""
        return f"Undone: {_short(record.message)}{kept}"
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
