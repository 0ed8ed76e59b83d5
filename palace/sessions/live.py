"""Which sessions are running: a session owns its journal through an exclusive `flock` held while it runs,
and registers in `sessions/.live/` (one empty file named by its id) from its start to its end, so that the
sessions that died are found from a directory listing, without opening every journal. A palace from before
the registry left none of that: the one-time look of check_unregistered registers what it may have left."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from palace.errors import StoreError
from palace.paths import JOURNAL_SUFFIX, PalacePaths

RESUME_GAP_NS = 2_000_000_000  # a journal written this long after its archive was resumed since
CHECK_SLICE = 4000  # archived sessions the one-time look reads per start (two stats each: ~10 ms)
SCANNED = ".scanned"  # in .live/: the one-time look is done
UNCHECKED = ".unchecked"  # in .live/: the archived sessions it has still to look at, in its order
_UNCHECKED_HEAD = "palace-unchecked 1"


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


def check_unregistered(home: Path, archived: Callable[[], Iterable[str]]) -> set[str]:
    """Sessions a palace from before the registry resumed after their archive and left unfinished (a journal
    written RESUME_GAP_NS after its archive, its last lifecycle mark not "end"), found by the one-time look
    and registered as a running palace would have; `archived` gives the ids with a journal and an archive.
    It looks at CHECK_SLICE sessions a start, the newest first (a resume is likelier of a recent one), so that
    the first start after an upgrade costs about what any start does: the rest wait in .live/.unchecked for
    the next starts, .live/.scanned marks the end; where that progress cannot be kept, it looks at all now."""
    folder = live_dir(home)
    if (folder / SCANNED).exists():
        return set()
    todo = _unchecked(folder)
    if todo is None:
        todo = sorted(archived(), reverse=True)
    now, rest = todo[:CHECK_SLICE], todo[CHECK_SLICE:]
    found = _resumed(folder.parent, now)  # registered before the progress is kept: found again if that fails
    if rest and not _keep_unchecked(folder, rest):
        found |= _resumed(folder.parent, rest)
        rest = []
    if not rest:
        with contextlib.suppress(OSError):
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            (folder / SCANNED).touch(mode=0o600)
            (folder / UNCHECKED).unlink(missing_ok=True)
    return found


def _unchecked(folder: Path) -> list[str] | None:
    """The sessions the one-time look has still to look at; None when it has not begun (or its list is lost)."""
    try:
        head, *ids = (folder / UNCHECKED).read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeError):
        return None
    return [sid for sid in ids if sid] if head == _UNCHECKED_HEAD else None


def _keep_unchecked(folder: Path, ids: list[str]) -> bool:
    """Keep what the one-time look has still to do (written whole, then renamed into place); False on failure."""
    temp = folder / f"{UNCHECKED}.{os.getpid()}.tmp"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write("\n".join([_UNCHECKED_HEAD, *ids, ""]))
        os.replace(temp, folder / UNCHECKED)
    except OSError:
        with contextlib.suppress(OSError):
            temp.unlink()
        return False
    return True


def _resumed(sessions: Path, ids: list[str]) -> set[str]:
    """Of these archived sessions, those whose journal was written RESUME_GAP_NS after the archive and whose
    last lifecycle mark is not "end" (only those journals are read: one that ended has its end mark written
    right after its archive)."""
    found: set[str] = set()
    if not ids:
        return found
    try:
        fd = os.open(sessions, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return found
    try:
        for sid in ids:
            try:
                journal = os.stat(sid + JOURNAL_SUFFIX, dir_fd=fd).st_mtime_ns
                archive = os.stat(sid + ".md", dir_fd=fd).st_mtime_ns
            except OSError:
                continue
            if journal - archive > RESUME_GAP_NS and not ends_finished(sessions / (sid + JOURNAL_SUFFIX)):
                found.add(sid)
                register(sessions / (sid + JOURNAL_SUFFIX))
    finally:
        os.close(fd)
    return found


def ends_finished(path: Path) -> bool:
    """Does the journal's last lifecycle mark say "end" (not resumed since)?"""
    try:
        with path.open("rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            handle.seek(max(0, size - 65536))
            tail = handle.read()
    except OSError:
        return True
    for line in reversed(tail.split(b"\n")):
        if b'"type"' not in line:
            continue
        try:
            kind = json.loads(line).get("type")
        except (ValueError, AttributeError):
            continue
        if kind == "end":
            return True
        if kind in ("resumed", "session"):
            return False
    return False
