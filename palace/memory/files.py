"""Files on disk, safely: regular-file checks, fsynced temp files, compare-and-swap renames, in-place writes.

memories.md may be a symlink (a dotfiles repository, a synced folder): palace writes through it, into the
target's folder, so the link stays a link. It may be hard-linked: then it is rewritten in place, so every
name keeps seeing the new text, with a pending copy beside it until the write is complete.
"""

from __future__ import annotations

import collections
import contextlib
import errno
import functools
import os
import stat
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from palace.errors import StoreError
from palace.record import record
from palace.threads import start_thread

PENDING_SUFFIX = ".palace-pending"  # a hard-linked file's new text, kept until the in-place write is done

_KINDS = {
    stat.S_IFIFO: "a FIFO (named pipe)",
    stat.S_IFSOCK: "a socket",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFDIR: "a folder",
}


def ensure_home(home: Path) -> None:
    """Create the palace folder with mode 0700 (and tighten it if it is looser)."""
    try:
        home.mkdir(parents=True, exist_ok=True, mode=0o700)
        if home.stat().st_mode & 0o077:
            home.chmod(0o700)
    except OSError as exc:
        raise StoreError(f"cannot create the palace folder {home}: {exc.strerror}") from exc


def not_regular(mode: int) -> str | None:
    """What a file of this st_mode is when it is not a regular file ("a FIFO (named pipe)"), else None."""
    if stat.S_ISREG(mode):
        return None
    return _KINDS.get(stat.S_IFMT(mode), "not a regular file")


def _refuse_kind(file: Path, mode: int) -> None:
    kind = not_regular(mode)
    if kind is not None:
        raise StoreError(f"{file} is {kind}, not a regular file; palace reads and writes only a plain file")


def open_regular(file: Path) -> int | None:
    """A read descriptor on file (None when it does not exist); StoreError for a FIFO, device, folder...

    Opened non-blocking, so a FIFO in place of the file can never hang palace.
    """
    try:
        fd = os.open(file, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StoreError(f"cannot read {file}: {exc.strerror}") from exc
    try:
        _refuse_kind(file, os.fstat(fd).st_mode)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_fd(fd: int) -> bytes:
    """The whole file from its start: one read when it holds what fstat says, else until a read finds none."""
    os.lseek(fd, 0, os.SEEK_SET)
    size = os.fstat(fd).st_size
    first = os.read(fd, size + 1)
    if size and len(first) == size:
        return first
    chunks = [first]  # it grew or shrank since the fstat, or a file system returned less: read on
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def read_regular(file: Path) -> bytes | None:
    """The bytes of a regular file, None when it does not exist; StoreError for anything else."""
    fd = open_regular(file)
    if fd is None:
        return None
    try:
        return read_fd(fd)
    except OSError as exc:
        raise StoreError(f"cannot read {file}: {exc.strerror}") from exc
    finally:
        os.close(fd)


def target_of(file: Path) -> Path:
    """The file palace really writes: file itself, or where its symlink (chain) points."""
    if not file.is_symlink():
        return file
    return Path(os.path.realpath(file))


def check_writable(file: Path, mode: int) -> None:
    """Refuse a file its owner may not write (chmod 444), as editors do; root is no exception here."""
    if not mode & stat.S_IWUSR:
        raise StoreError(
            f"{file} is read-only (mode {stat.S_IMODE(mode):o}); palace will not replace it — make it writable "
            f"(chmod u+w {file}) to let palace save (nothing written)"
        )


class _Closer:
    """Closes descriptors in a background thread, started on first use. The last descriptor of a replaced
    file frees its blocks in close() (~0.5 ms for 80 KB, ~2 ms for 1.6 MB on ext4): no save waits for it."""

    def __init__(self) -> None:
        self._fds: collections.deque[int] = collections.deque()
        self._ready = threading.Condition()
        self._running = False

    def close(self, fd: int) -> None:
        with self._ready:
            self._fds.append(fd)
            if not self._running:
                self._running = True
                start_thread(self._run, name="palace-closer")
            self._ready.notify()

    def _run(self) -> None:
        while True:
            with self._ready:
                while not self._fds:
                    self._ready.wait()
                fds = list(self._fds)
                self._fds.clear()
            for fd in fds:
                with contextlib.suppress(OSError):
                    os.close(fd)

    def forked(self) -> None:
        """In a forked child: its copy of the thread does not run (the queued descriptors are its own)."""
        self._ready = threading.Condition()
        self._running = False


_closer = _Closer()
os.register_at_fork(after_in_child=_closer.forked)


def close_later(fd: int) -> None:
    """Close a read descriptor without waiting for it (the process's exit closes what is left)."""
    _closer.close(fd)


def close_fd(fd: int | None) -> None:
    if fd is not None:
        os.close(fd)


def inode_of(file: Path) -> int | None:
    """The inode file names now (None when it names none)."""
    try:
        return file.stat().st_ino
    except OSError:
        return None


def fsync_dir(folder: Path) -> None:
    dir_fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def _new_temp(file: Path) -> tuple[int, str]:
    """A new 0600 file named `.<name>.<random>.tmp` beside file, opened for writing (tempfile.mkstemp's
    rules, without importing tempfile and shutil on the path of every `palace memory save`)."""
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        tmp = os.path.join(file.parent, f".{file.name}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(tmp, flags, 0o600), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no unused temporary name", str(file.parent))


def temp_copy(file: Path, data: bytes, mode: int = 0o600, *, durable: bool = True) -> str:
    """A temp file holding data (fsynced when durable), in file's folder (so a rename over file is atomic)."""
    fd, tmp = _new_temp(file)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.chmod(tmp, mode)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return tmp


def atomic_write(file: Path, data: bytes, *, durable: bool = True) -> None:
    """Write via a 0600 temp file in the same folder, fsync, rename, fsync the folder; derived data (not
    `durable`: a crash may lose the new version, never leave half of one) skips the fsyncs."""
    tmp = temp_copy(file, data, durable=durable)
    try:
        os.replace(tmp, file)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if durable:
        fsync_dir(file.parent)


def remove_stale_temps(file: Path) -> list[Path]:
    """Remove temp copies of file left by a palace that was killed mid-write (call under the palace lock,
    when no live palace can be writing one); a pending in-place write is kept under a name that says so."""
    removed: list[Path] = []
    prefix = f".{file.name}."
    try:
        names = os.listdir(file.parent)
    except OSError:
        return removed
    for name in names:
        path = file.parent / name
        if name.startswith(prefix) and name.endswith(".tmp"):
            with contextlib.suppress(OSError):
                path.unlink()
                removed.append(path)
        elif name == file.name + PENDING_SUFFIX:
            keep = file.parent / f"{file.name}.interrupted-{time.strftime('%Y%m%d-%H%M%S')}"
            with contextlib.suppress(OSError):
                os.replace(path, keep)
                removed.append(keep)
    return removed


# ---------------------------------------------------------------------- swapping a file in, compare-and-swap style
_RENAME_NOREPLACE, _RENAME_EXCHANGE = 1, 2
_AT_FDCWD = -100


@functools.cache
def _renameat2() -> Callable[[str, str, int], bool] | None:
    """Linux renameat2(2) through libc, or None where it is missing."""
    if sys.platform != "linux":
        return None
    import ctypes  # only when a file is first written: it costs a few ms to import

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        call = libc.renameat2
    except (OSError, AttributeError):
        return None
    call.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    call.restype = ctypes.c_int

    def rename(src: str, dst: str, flags: int) -> bool:
        """True when done; False when the file system or kernel cannot; OSError for anything else."""
        if call(_AT_FDCWD, os.fsencode(src), _AT_FDCWD, os.fsencode(dst), flags) == 0:
            return True
        err = ctypes.get_errno()
        if err in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
            return False
        raise OSError(err, os.strerror(err), dst)

    return rename


@record
class Swapped:
    """The outcome of swap_in: data is in place as inode `inode`, or `found` was there instead."""

    found: bytes | None = None
    inode: int | None = None
    # When data was in place for an instant before `found` was put back: the changes an editor may have
    # lost by reading data then, as (before, after) pairs: its change to `expect` that made `found`, and a
    # save of its over data in that instant (its file is gone). To be redone on whatever is found next.
    late: tuple[tuple[bytes, bytes], ...] = ()


Stamp = tuple[int, int, int, int, int]  # a file's device, inode, size, mtime and ctime (ns)


def stamp_of(st: os.stat_result) -> Stamp:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def swap_in(
    file: Path, data: bytes, expect: bytes, existed: bool, mode: int = 0o600, *, read: Stamp | None = None
) -> Swapped:
    """Replace file by data if the file still holds `expect` (or is still missing when not `existed`).

    `read`: the file's stamp when `expect` was read from it. While the file still has it, the first look
    reads nothing (the check after the exchange compares the bytes all the same).

    The temp file is written and fsynced first, so a crash leaves the old or the new file, never a mix. Where
    Linux can exchange two names atomically (renameat2), what is replaced is exactly what is checked, and
    put back if it is not what was expected; elsewhere the file is read again just before the rename.
    """
    tmp = temp_copy(file, data, mode)
    inode = os.stat(tmp).st_ino
    try:
        outcome = _exchange_in(file, tmp, data, expect, existed, read)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(FileNotFoundError):
        os.unlink(tmp)
    if outcome.found is not None:
        return outcome
    fsync_dir(file.parent)
    return Swapped(inode=inode)


def _stamp_or_none(file: Path) -> Stamp | None:
    try:
        return stamp_of(os.stat(file))
    except OSError:
        return None


def _read_or_none(file: Path) -> bytes | None:
    try:
        return read_regular(file)
    except StoreError:
        return b""  # something that is not a file took its place: not what was expected


def _exchange_in(file: Path, tmp: str, data: bytes, expect: bytes, existed: bool, read: Stamp | None) -> Swapped:
    """Swapped(found=None) when data is in place; else what was found instead (see swap_in)."""
    # A cheap look first, so that a file changed meanwhile is not even briefly replaced: by its stamp where
    # the exchange below compares the bytes it replaced (a change within one clock tick is caught there).
    rename = _renameat2()
    if read is None or not existed or rename is None or _stamp_or_none(file) != read:
        current = _read_or_none(file)
        if (current is None) == existed or (current is not None and current != expect):
            return Swapped(found=current if current is not None else b"")
    if rename is not None:
        if not existed:
            try:
                if rename(tmp, str(file), _RENAME_NOREPLACE):
                    return Swapped()
            except FileExistsError:
                return Swapped(found=_read_or_none(file) or b"")  # someone created it a moment ago
        else:
            try:
                swapped = rename(tmp, str(file), _RENAME_EXCHANGE)
            except FileNotFoundError:
                return Swapped(found=b"")  # deleted a moment ago
            if swapped:
                replaced = Path(tmp).read_bytes()  # what was in place an instant ago
                if replaced == expect:
                    return Swapped()
                # Changed within the last microseconds: put it back (the exchange is its own inverse).
                rename(tmp, str(file), _RENAME_EXCHANGE)
                # What that put back in tmp was in place until then: data, unless an editor saved over it
                # meanwhile (having read data, which it saw as palace's save). Its change is not to be lost.
                back = Path(tmp).read_bytes()
                late = ((expect, replaced),) if back == data else ((expect, replaced), (data, back))
                return Swapped(found=replaced, late=late)
    # No atomic exchange here: the look above is the check (an editor saving within microseconds of it
    # could be lost).
    os.replace(tmp, file)
    return Swapped()


def write_in_place(file: Path, fd: int, data: bytes, expect: bytes) -> bytes | None:
    """Rewrite a hard-linked file through its own inode, so that all its names see data.

    fd is a read descriptor on the file. Returns None when done, else the bytes found instead of expect.
    The new text is first written, fsynced, to a pending copy beside the file, so that a crash in the middle
    leaves the intended text on disk (kept and named at the next start) rather than only a torn file.
    """
    current = read_fd(fd)
    if current != expect:
        return current
    pending = file.with_name(file.name + PENDING_SUFFIX)
    tmp = temp_copy(pending, data)
    os.replace(tmp, pending)
    try:
        with open(file, "r+b") as handle:
            if os.fstat(handle.fileno()).st_ino != os.fstat(fd).st_ino:
                return read_fd(handle.fileno())  # replaced by another file meanwhile: start again on it
            handle.write(data)
            handle.truncate()
            handle.flush()
            os.fsync(handle.fileno())
    finally:
        with contextlib.suppress(OSError):
            pending.unlink()
    fsync_dir(file.parent)
    return None
