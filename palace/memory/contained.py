"""Files others control, opened safely: a regular file inside its folder, never through a link, bounded.

A repository's `.palace/`, a file handed to `palace import`, a transcript handed to a hook: palace reads each
as what it is, not as what a link makes of it. The check is made where the file is opened: every folder on
the way is opened relative to the one before it with O_NOFOLLOW (openat), the file itself with O_NOFOLLOW and
O_NONBLOCK (a FIFO never hangs palace), and what was opened is checked by fstat: a regular file, with no other
name (a hard link to a file elsewhere), within the size limit. The user's own palace does not come through here:
its memories.md may be a symlink into their dotfiles (memory/files.py writes through it).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path, PurePosixPath

from palace.errors import UntrustedFileError
from palace.memory.files import fsync_dir, not_regular, read_fd, temp_copy

DEFAULT_MAX_BYTES = 4 * 1024 * 1024  # a memory file larger than this is not a memory file
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_FILE_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def _parts(relative: str | PurePosixPath) -> list[str]:
    parts = PurePosixPath(relative).parts
    if not parts or PurePosixPath(relative).is_absolute() or any(p in ("..", ".", "") for p in parts):
        raise UntrustedFileError(f"{relative}: not a plain path inside its folder")
    return list(parts)


def _link_text(dir_fd: int, name: str) -> str:
    with contextlib.suppress(OSError):
        return f" (to {os.readlink(name, dir_fd=dir_fd)})"
    return ""


def _refusal(shown: Path, reason: str) -> UntrustedFileError:
    return UntrustedFileError(f"{shown}: {reason}; palace did not open it")


def _open_folder(root: Path, parts: list[str], shown: Path) -> int | None:
    """A descriptor on root/parts..., each step without following a link; None when one is missing."""
    try:
        fd = os.open(root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _refusal(shown, f"its folder {root} cannot be opened ({exc.strerror})") from exc
    for index, part in enumerate(parts):
        try:
            step = os.open(part, _DIR_FLAGS, dir_fd=fd)
        except FileNotFoundError:
            os.close(fd)
            return None
        except OSError as exc:
            folder = root.joinpath(*parts[: index + 1])
            link = _link_text(fd, part)
            os.close(fd)
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                kind = f"a symbolic link{link}" if link else "not a folder"
                raise _refusal(shown, f"{folder} is {kind}, which leads outside") from exc
            raise _refusal(shown, f"{folder} cannot be opened ({exc.strerror})") from exc
        os.close(fd)
        fd = step
    return fd


def _check_opened(fd: int, shown: Path, max_bytes: int | None) -> None:
    st = os.fstat(fd)
    kind = not_regular(st.st_mode)
    if kind is not None:
        raise _refusal(shown, f"it is {kind}, not a regular file")
    if st.st_nlink > 1:
        raise _refusal(shown, f"it is a hard link ({st.st_nlink} names), so it may be a file from elsewhere")
    if max_bytes is not None and st.st_size > max_bytes:
        raise _refusal(shown, f"it is {st.st_size:,} bytes, over the limit of {max_bytes:,}")


def open_inside(root: Path, relative: str | PurePosixPath, *, max_bytes: int | None = DEFAULT_MAX_BYTES) -> int | None:
    """A read descriptor on root/relative (None when it does not exist); UntrustedFileError when it is a link,
    lies behind one, is not a regular file, has another name, or is over max_bytes."""
    parts = _parts(relative)
    shown = root.joinpath(*parts)
    folder = _open_folder(root, parts[:-1], shown)
    if folder is None:
        return None
    name = parts[-1]
    try:
        with contextlib.suppress(FileNotFoundError):
            st = os.stat(name, dir_fd=folder, follow_symlinks=False)
            if stat.S_ISLNK(st.st_mode):
                raise _refusal(shown, f"it is a symbolic link{_link_text(folder, name)}")
            kind = not_regular(st.st_mode)
            if kind is not None:  # never opened: opening a device can do things
                raise _refusal(shown, f"it is {kind}, not a regular file")
        try:
            fd = os.open(name, _FILE_FLAGS, dir_fd=folder)
        except FileNotFoundError:
            return None
        except OSError as exc:
            if exc.errno == errno.ELOOP:  # became a link since the look above
                raise _refusal(shown, f"it is a symbolic link{_link_text(folder, name)}") from exc
            raise _refusal(shown, f"it cannot be read ({exc.strerror})") from exc
    finally:
        os.close(folder)
    try:
        _check_opened(fd, shown, max_bytes)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_inside(
    root: Path, relative: str | PurePosixPath, *, max_bytes: int | None = DEFAULT_MAX_BYTES
) -> bytes | None:
    """The bytes of root/relative, opened as open_inside does; None when it does not exist."""
    fd = open_inside(root, relative, max_bytes=max_bytes)
    if fd is None:
        return None
    try:
        data = read_fd(fd)
    except OSError as exc:
        raise _refusal(root / str(relative), f"it cannot be read ({exc.strerror})") from exc
    finally:
        os.close(fd)
    if max_bytes is not None and len(data) > max_bytes:  # it grew after the fstat
        raise _refusal(root / str(relative), f"it is over the limit of {max_bytes:,} bytes")
    return data


def read_untrusted(file: Path, *, max_bytes: int | None = DEFAULT_MAX_BYTES, within: Path | None = None) -> bytes:
    """The bytes of a file someone handed palace (an import, a transcript): a regular file with one name and
    within max_bytes. It may be a link only with `within` (the folder it belongs to, such as its repository),
    and then only to a file inside that folder (CLAUDE.md -> AGENTS.md); its folders are the caller's choice."""
    file = Path(os.path.abspath(file))
    if within is not None and file.is_symlink():
        target, root = Path(os.path.realpath(file)), Path(os.path.realpath(within))
        if root not in target.parents:
            raise _refusal(file, f"it is a symbolic link to {target}, outside {root}")
        data = read_inside(root, target.relative_to(root).as_posix(), max_bytes=max_bytes)
    else:
        data = read_inside(file.parent, file.name, max_bytes=max_bytes)
    if data is None:
        raise UntrustedFileError(f"{file} does not exist")
    return data


def folder_of(file: Path) -> Path:
    """The folder a handed-in file belongs to: the git repository around it, else its own folder."""
    folder = Path(os.path.abspath(file)).parent
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists():
            return candidate
    return folder


def create_inside(root: Path, relative: str | PurePosixPath, data: bytes, mode: int = 0o644) -> bool:
    """Create root/relative holding data, only if nothing (not even a dangling link) has that name; True when
    written. The folders on the way must be real folders inside root."""
    parts = _parts(relative)
    shown = root.joinpath(*parts)
    folder = _open_folder(root, parts[:-1], shown)
    if folder is None:
        raise _refusal(shown, "its folder does not exist")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(parts[-1], flags, mode, dir_fd=folder)
    except FileExistsError:
        return False  # a file, or a link (dangling or not): never written through
    except OSError as exc:
        raise _refusal(shown, f"it cannot be created ({exc.strerror})") from exc
    finally:
        os.close(folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
    except OSError as exc:
        raise _refusal(shown, f"it cannot be written ({exc.strerror})") from exc
    return True


def replace_inside(root: Path, relative: str | PurePosixPath, data: bytes, mode: int = 0o644) -> None:
    """Put data at root/relative by renaming a new file over the name: a link there is replaced, never
    written through, and the folders on the way must be real folders inside root."""
    parts = _parts(relative)
    shown = root.joinpath(*parts)
    folder = _open_folder(root, parts[:-1], shown)
    if folder is None:
        raise _refusal(shown, "its folder does not exist")
    os.close(folder)
    try:
        tmp = temp_copy(shown, data, mode)
        try:
            os.replace(tmp, shown)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        fsync_dir(shown.parent)
    except OSError as exc:
        raise _refusal(shown, f"it cannot be written ({exc.strerror})") from exc
