"""memories.md as it is under the palace lock: a descriptor kept open on it, its bytes, and how a new text
is put in its place (swapped in by rename, or written in place when it has hard links)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from palace.errors import StoreError
from palace.memory.contained import open_inside
from palace.memory.files import Stamp, Swapped, open_regular, read_fd, stamp_of, swap_in, write_in_place
from palace.record import record


@record
class Current:
    """The file as it is under the lock: a descriptor kept open on it (None when missing), its bytes, stat."""

    fd: int | None
    data: bytes
    mode: int = 0o600
    links: int = 1
    stamp: Stamp | None = None  # what fstat said as the bytes were read

    def take(self, other: Current) -> None:
        """Become other (the file as read again)."""
        self.fd, self.data, self.stamp = other.fd, other.data, other.stamp
        self.mode, self.links = other.mode, other.links


def open_current(file: Path, inside: Path | None) -> Current:
    """A descriptor on the file as it is now (None when missing), its bytes and what stat says; `inside`: the
    folder a file others control must stay in (no link followed)."""
    fd = open_inside(inside, file.relative_to(inside).as_posix()) if inside is not None else open_regular(file)
    if fd is None:
        return Current(None, b"")
    try:
        st = os.fstat(fd)
        return Current(fd, read_fd(fd), stat.S_IMODE(st.st_mode), st.st_nlink, stamp_of(st))
    except OSError as exc:
        os.close(fd)
        raise StoreError(f"cannot read {file}: {exc.strerror}") from exc


def put(target: Path, data: bytes, current: Current) -> Swapped:
    """Put data in place of the file that `current` read (StoreError when it cannot be written)."""
    try:
        if current.links > 1 and current.fd is not None:  # hard links: every name must see the change
            return Swapped(found=write_in_place(target, current.fd, data, current.data))
        return swap_in(target, data, current.data, existed=current.fd is not None, read=current.stamp)
    except OSError as exc:
        raise StoreError(f"cannot write {target}: {exc.strerror} (nothing written)") from exc


def signature(file: Path) -> tuple[int, int, int, int] | None:
    """What stat says of the file (mtime, ctime, size, inode): what cached parses and renders are keyed by."""
    try:
        st = file.stat()
    except (FileNotFoundError, NotADirectoryError):
        return None
    return (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)
