"""The change notes: what palace itself added, replaced or removed in sessions/, so that the next look at the
folder (recall's catch-up, the orphan check at start) reads one note instead of listing thousands of files.

Each note is one line appended to .index/sessions.notes (machine-local derived data, like the index): the
folder's mtime just before the change, just after it, and the file name changed. A reader that last saw the
folder at mtime M trusts the notes only as a chain: the first unread note starts at M, each next one where the
one before ended, and the last ends at the folder's mtime now. A change nobody noted (a file edited, removed or
renamed by hand, one brought by sync, an older palace) breaks the chain, and the reader lists the folder as
before. What a chain cannot show is a change by someone else in the same tick of the folder's clock as a
noted one (or during a noted write); the periodic full scan (recall's FULL_SCAN_SECONDS) still sees it.

The file starts with a line naming it (a random token), so that a reader's offset is never taken into another
file; past NOTES_LIMIT bytes the next writer starts a new one (readers then list once).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Concatenate, NamedTuple, ParamSpec, Protocol, TypeVar

from palace.paths import INDEX, SESSIONS

NOTES = "sessions.notes"
NOTES_LIMIT = 64 * 1024  # ~1,000 notes; a new file then costs each reader one listing
_MAGIC = "palace-sessions-notes 1"
SETTLED_NS = 2_000_000_000  # a folder's mtime older than this will not change again within its granularity

_P = ParamSpec("_P")
_C = TypeVar("_C")


class _HasPath(Protocol):
    @property
    def path(self) -> Path: ...


_R = TypeVar("_R", bound=_HasPath)


class Position(NamedTuple):
    """Where a reader is in the notes: the file (its token), the offset read up to, the folder's mtime there."""

    token: str  # "" : no notes file yet (any file found later is read from its start)
    offset: int
    dir_mtime: int

    def text(self) -> str:
        return f"{self.token}:{self.offset}:{self.dir_mtime}"

    @classmethod
    def parse(cls, text: str | None) -> Position | None:
        try:
            token, offset, mtime = str(text).split(":")
            return cls(token, int(offset), int(mtime))
        except ValueError:
            return None


class Followed(NamedTuple):
    """The names the notes say changed since a position (in order, each once), and the position after them."""

    names: list[str]
    position: Position


def notes_file(home: Path) -> Path:
    return home / INDEX / NOTES


def dir_mtime(folder: Path) -> int | None:
    try:
        return os.stat(folder).st_mtime_ns
    except OSError:
        return None


def settled(mtime: int, read_at_ns: int) -> bool:
    """Has a folder whose mtime was read at read_at_ns stopped changing within its mtime's granularity? A
    listing taken right after a change could miss a file added within the same tick (it leaves the same mtime)."""
    return read_at_ns - mtime > SETTLED_NS


# -- writing ---------------------------------------------------------------------------------------


@contextlib.contextmanager
def noting(folder: Path, name: str) -> Iterator[None]:
    """Note the change the block makes to `name` in folder (a palace's sessions/), with the folder's mtime
    before and after it. Never worth a failed write: a note that cannot be written is left out (a reader then
    sees an unexplained change, and lists the folder)."""
    before = dir_mtime(folder)
    yield
    after = dir_mtime(folder)
    if before is not None and after is not None and "\n" not in name and " " not in name:
        _append(folder.parent, f"{before} {after} {name}\n")


def noted_start(fn: Callable[Concatenate[_C, Path, _P], _R]) -> Callable[Concatenate[_C, Path, _P], _R]:
    """Journal.start noted: the new journal it creates in home/sessions/."""

    def start(cls: _C, home: Path, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        folder = home / SESSIONS
        before = dir_mtime(folder)
        made = fn(cls, home, *args, **kwargs)
        after = dir_mtime(folder)
        if before is not None and after is not None and made.path.parent == folder:
            _append(home, f"{before} {after} {made.path.name}\n")
        return made

    return start


def noted_archive(fn: Callable[Concatenate[_C, _P], Path]) -> Callable[Concatenate[_C, _P], Path]:
    """write_archive noted: the archive it writes next to the journal (`journal.path`)."""

    def write(journal: _C, /, *args: _P.args, **kwargs: _P.kwargs) -> Path:
        folder = getattr(journal, "path", Path()).parent
        before = dir_mtime(folder)
        path = fn(journal, *args, **kwargs)
        after = dir_mtime(folder)
        if before is not None and after is not None and path.parent == folder and folder.name == SESSIONS:
            _append(folder.parent, f"{before} {after} {path.name}\n")
        return path

    return write


def _append(home: Path, line: str) -> None:
    """Append one note (one write: notes of two palaces never interleave), starting a new file when there is
    none or it is full."""
    path = notes_file(home)
    with contextlib.suppress(OSError):
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        except FileNotFoundError:
            fd = -1
        if fd >= 0:
            try:
                if os.fstat(fd).st_size + len(line) <= NOTES_LIMIT:
                    os.write(fd, line.encode("utf-8"))
                    return
            finally:
                os.close(fd)
        _start_file(path, line)


def _start_file(path: Path, line: str) -> None:
    """A new notes file (a new token) holding `line`, renamed into place."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.{os.urandom(4).hex()}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, f"{_MAGIC} {os.urandom(8).hex()}\n{line}".encode())
    finally:
        os.close(fd)
    os.replace(temp, path)


# -- reading ---------------------------------------------------------------------------------------


def _read(home: Path) -> tuple[str, bytes] | None:
    """(token, whole text) of the notes file; ("", b"") when there is none; None when it is unreadable."""
    try:
        with open(notes_file(home), "rb") as handle:
            data = handle.read(NOTES_LIMIT * 2)
    except FileNotFoundError:
        return "", b""
    except OSError:
        return None
    head, _, _ = data.partition(b"\n")
    magic, _, token = head.decode("utf-8", "replace").rpartition(" ")
    return (token, data) if magic == _MAGIC and token else None


def position(home: Path, mtime: int) -> Position | None:
    """The end of the notes as they are now, at the folder's mtime `mtime` (read before the folder is listed:
    a note written meanwhile is followed again, which costs a stat)."""
    found = _read(home)
    if found is None:
        return None
    token, data = found
    return Position(token, data.rfind(b"\n") + 1, mtime)


def follow(home: Path, since: Position | None, mtime: int) -> Followed | None:
    """The names noted since `since` when the notes explain every change of the folder from since.dir_mtime to
    `mtime` (its mtime now, read before this); None when they do not, or cannot be read."""
    found = _read(home) if since is not None else None
    if found is None or since is None:
        return None
    token, data = found
    if since.token and since.token != token:
        return None  # another file: what was noted between the two is not known
    offset = since.offset if since.token else data.find(b"\n") + 1
    if offset > len(data):
        return None
    current, names = since.dir_mtime, []
    best = Followed([], Position(since.token, offset, mtime)) if current == mtime else None
    for line in data[offset:].split(b"\n")[:-1]:  # a last piece without its newline is still being written
        offset += len(line) + 1
        parts = line.decode("utf-8", "replace").split(" ")
        if len(parts) != 3 or parts[0] != str(current) or not parts[1].isdigit():
            break
        current = int(parts[1])
        names.append(parts[2])
        if current == mtime:
            best = Followed(list(dict.fromkeys(names)), Position(token, offset, mtime))
    return best
