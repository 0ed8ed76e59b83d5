"""palace's memory changes not committed yet, so that each is committed under its own name.

`.git/palace-uncommitted.jsonl` (inside .git: never tracked, gone with the repository) holds one line per
change palace wrote and git has not committed yet: a change the background committer has not reached, or
one git could not commit (a locked index...). Whoever commits memories.md next (this process, another palace,
`palace sync`) names them in the commit, so that they never pass for a hand edit. Its own small lock keeps
appends and removals whole; it is taken last and held for a moment only.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Collection, Iterator
from pathlib import Path

from palace.filelock import exclusive
from palace.history.git import HAND_EDIT_MESSAGE
from palace.record import record


@record(frozen=True)
class PendingChange:
    """One uncommitted change: its commit message and the sha256 of memories.md as it left it."""

    id: str | None  # None on a line written before changes had ids
    message: str
    digest: str

    @property
    def name(self) -> str:
        return self.message.removeprefix("memory: ")


class PendingChanges:
    """The uncommitted changes of one palace repository, oldest first."""

    def __init__(self, git_dir: Path) -> None:
        self.file = git_dir / "palace-uncommitted.jsonl"
        self._lock = git_dir / "palace-uncommitted.lock"

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        with exclusive(self._lock):
            yield

    def _read(self) -> list[PendingChange]:
        try:
            lines = self.file.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return []
        records = []
        for line in lines:
            with contextlib.suppress(ValueError):
                item = json.loads(line)
                if isinstance(item, dict) and isinstance(item.get("message"), str):
                    ident = item.get("id") if isinstance(item.get("id"), str) else None
                    records.append(PendingChange(ident, item["message"], str(item.get("digest"))))
        return records

    def records(self) -> list[PendingChange]:
        with contextlib.suppress(OSError), self._locked():
            return self._read()
        return self._read()

    def add(self, message: str, digest: str) -> PendingChange:
        """Append a change (best effort: without the record the change still gets committed, as a hand edit)."""
        change = PendingChange(os.urandom(8).hex(), message, digest)
        line = json.dumps({"id": change.id, "message": message, "digest": digest}) + "\n"
        with contextlib.suppress(OSError), self._locked():
            fd = os.open(self.file, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            try:
                os.write(fd, line.encode("utf-8"))
            finally:
                os.close(fd)
        return change

    def remove(self, ids: Collection[str]) -> None:
        """Drop the changes with these ids (committed); the others stay, in order."""
        with contextlib.suppress(OSError), self._locked():
            kept = [r for r in self._read() if r.id is None or r.id not in ids]
            if not kept:
                self.file.unlink(missing_ok=True)
                return
            temp = self.file.with_name(f"{self.file.name}.{os.getpid()}.tmp")
            text = "".join(json.dumps({"id": r.id, "message": r.message, "digest": r.digest}) + "\n" for r in kept)
            temp.write_text(text, encoding="utf-8")
            os.replace(temp, self.file)

    def clear(self) -> None:
        with contextlib.suppress(OSError), self._locked():
            self.file.unlink(missing_ok=True)


def commit_message(
    records: list[PendingChange], digest: str | None, current: str | None = None, fresh: Collection[str] = ()
) -> str:
    """The message of a commit of what is pending: the pending changes by name, then `current` (palace's
    change being committed now) or, when the file (sha256 `digest`) is not what the last one left, the hand
    edit on top. A lone change this process just made keeps its own message; one left over is "late"."""
    if not records:
        return current or HAND_EDIT_MESSAGE
    names = [r.name for r in records]
    if current is not None:
        names.append(current.removeprefix("memory: "))
    elif digest != records[-1].digest:
        names.append("hand edit")
    if len(names) == 1:
        on_time = records[0].id is not None and records[0].id in fresh
        return records[0].message if on_time else f"memory: {names[0]} (committed late)"
    return f"memory: {len(names)} changes committed together: " + "; ".join(names)
