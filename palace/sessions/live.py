"""Which sessions are running: a session owns its journal through an exclusive `flock` held while it runs,
and registers in `sessions/.live/` (one empty file named by its id) from its start to its end, so that the
sessions that died are found from a directory listing, without opening every journal."""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

from palace.errors import StoreError
from palace.paths import PalacePaths


def live_dir(home: Path) -> Path:
    """The registry of sessions that may be running: one empty file per session, named by its id.

    A session registers when it starts or is resumed and leaves when it ends; an entry left behind by a
    session that died names an orphan, so finding orphans never has to open every journal.
    """
    return PalacePaths(home).sessions / ".live"


def register(journal_path: Path) -> None:
    folder = journal_path.parent / ".live"
    with contextlib.suppress(OSError):
        folder.mkdir(mode=0o700, exist_ok=True)
        os.close(os.open(folder / journal_path.stem, os.O_WRONLY | os.O_CREAT, 0o600))


def unregister(journal_path: Path) -> None:
    with contextlib.suppress(OSError):
        (journal_path.parent / ".live" / journal_path.stem).unlink()


def lock_nb(fd: int) -> bool:
    """Take the exclusive lock without waiting; False when someone else holds it."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError as exc:  # e.g. a file system without flock: treat as not lockable
        raise StoreError(f"cannot lock a session journal: {exc.strerror}") from exc
    return True


def is_live(path: Path) -> bool:
    """True when a running palace owns this journal (holds its lock)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return False
    try:
        return not lock_nb(fd)
    finally:
        os.close(fd)  # closing our descriptor drops the lock we may have taken
