"""The one code path that reads and writes memories.md: locked, re-read, atomic, never stale."""

from __future__ import annotations

import contextlib
import ctypes
import errno
import functools
import os
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from datetime import date
from pathlib import Path
from typing import Protocol, TypeVar

from palace.errors import PalaceError, StoreError, UndoError
from palace.filelock import exclusive
from palace.memory import ops
from palace.memory.document import Document
from palace.memory.halls import parse_path
from palace.memory.ops import ChangeResult
from palace.memory.render import Rendered, render_document
from palace.paths import PalacePaths

_RETRIES = 32
_T = TypeVar("_T")


class WriteHook(Protocol):
    """Observes writes (git autocommit, the undo record); called inside the palace lock."""

    def before_write(self, file: Path) -> None: ...

    def after_write(self, file: Path, before: bytes, after: bytes, message: str) -> None: ...


def ensure_home(home: Path) -> None:
    """Create the palace folder with mode 0700 (and tighten it if it is looser)."""
    try:
        home.mkdir(parents=True, exist_ok=True, mode=0o700)
        if home.stat().st_mode & 0o077:
            home.chmod(0o700)
    except OSError as exc:
        raise StoreError(f"cannot create the palace folder {home}: {exc.strerror}") from exc


def _temp_copy(file: Path, data: bytes) -> str:
    """A fsynced 0600 temp file holding data, in file's folder (so a rename over file is atomic)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{file.name}.", suffix=".tmp", dir=file.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o600)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return tmp


def atomic_write(file: Path, data: bytes) -> None:
    """Write via a 0600 temp file in the same folder, fsync, rename, fsync the folder."""
    tmp = _temp_copy(file, data)
    try:
        os.replace(tmp, file)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(file.parent)


def _signature(file: Path) -> tuple[int, int, int, int] | None:
    try:
        st = file.stat()
    except FileNotFoundError:
        return None
    return (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)


# ---------------------------------------------------------------------- swapping a file in, compare-and-swap style
_RENAME_NOREPLACE, _RENAME_EXCHANGE = 1, 2
_AT_FDCWD = -100


@functools.cache
def _renameat2() -> Callable[[str, str, int], bool] | None:
    """Linux renameat2(2) through libc, or None where it is missing."""
    if sys.platform != "linux":
        return None
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


def _read_fd(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _fsync_dir(folder: Path) -> None:
    dir_fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def _swap_in(file: Path, data: bytes, expect: bytes, existed: bool) -> bytes | None:
    """Replace file by data if the file still holds `expect` (or is still missing when not `existed`).

    Returns None when data is in place, else the bytes found instead (and nothing is replaced). The
    temp file is written and fsynced first, so a crash leaves the old or the new file, never a mix. Where
    Linux can exchange two names atomically (renameat2), what is replaced is exactly what is checked, and
    put back if it is not what was expected; elsewhere the file is read again just before the rename.
    """
    tmp = _temp_copy(file, data)
    try:
        found = _exchange_in(file, tmp, data, expect, existed)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(FileNotFoundError):
        os.unlink(tmp)
    if found is None:
        _fsync_dir(file.parent)
    return found


def _exchange_in(file: Path, tmp: str, data: bytes, expect: bytes, existed: bool) -> bytes | None:
    # A cheap look first, so that a file changed meanwhile is not even briefly replaced.
    current = _read_or_none(file)
    if (current is None) == existed or (current is not None and current != expect):
        return current if current is not None else b""
    rename = _renameat2()
    if rename is not None:
        if not existed:
            try:
                if rename(tmp, str(file), _RENAME_NOREPLACE):
                    return None
            except FileExistsError:
                return _read_or_empty(file)  # someone created it a moment ago
        else:
            try:
                swapped = rename(tmp, str(file), _RENAME_EXCHANGE)
            except FileNotFoundError:
                return b""  # deleted a moment ago
            if swapped:
                replaced = Path(tmp).read_bytes()  # what was in place an instant ago
                if replaced == expect:
                    return None
                # Changed within the last microseconds: put it back (the exchange is its own inverse).
                rename(tmp, str(file), _RENAME_EXCHANGE)
                return replaced
    # No atomic exchange here: the look above is the check (an editor saving within microseconds of it
    # could be lost).
    os.replace(tmp, file)
    return None


def _lines(data: bytes) -> list[bytes]:
    parts = data.split(b"\n")
    lines = [part + b"\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _rebase(before: bytes, after: bytes, onto: bytes) -> bytes:
    """onto with the change that turned before into after applied to it, as far as it can be placed.

    Used when an editor changed, in place, a file that palace had already replaced: its change must not
    be lost. Lines it added that onto lacks are put where they were (after the same line), else at the
    end; lines it removed go only where they are found exactly.
    """
    old, new, target = _lines(before), _lines(after), _lines(onto)
    prefix = 0
    while prefix < min(len(old), len(new)) and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(old), len(new)) - prefix and old[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    removed, added = old[prefix : len(old) - suffix], new[prefix : len(new) - suffix]
    if added and _find(target, added) is not None:
        added = []  # already there (a later save of the same editor carried it)
    at = _find(target, removed) if removed else None
    if removed and at is not None:
        target[at : at + len(removed)] = added
        return b"".join(target)
    if not added:
        return onto
    anchor = old[prefix - 1] if prefix else None
    at = len(target)
    if anchor is not None and suffix:
        at = next((i + 1 for i, line in enumerate(target) if line == anchor), len(target))
    elif anchor is None:
        at = 0
    if at and not target[at - 1].endswith(b"\n"):
        target[at - 1] += b"\n"
    if at < len(target) and not added[-1].endswith(b"\n"):
        added[-1] += b"\n"
    target[at:at] = added
    return b"".join(target)


def _find(lines: list[bytes], block: list[bytes]) -> int | None:
    for start in range(len(lines) - len(block) + 1):
        if lines[start : start + len(block)] == block:
            return start
    return None


def _read_or_none(file: Path) -> bytes | None:
    try:
        return file.read_bytes()
    except FileNotFoundError:
        return None


def _read_or_empty(file: Path) -> bytes:
    return _read_or_none(file) or b""


class MemoryStore:
    """memories.md in a palace folder: save, forget, render, all through one locked write path."""

    def __init__(
        self,
        home: Path,
        *,
        entry_limit: int = 200,
        hooks: Sequence[WriteHook] = (),
        today: Callable[[], date] = date.today,
    ) -> None:
        self.home = home
        self.file = PalacePaths(home).memories
        self.entry_limit = entry_limit
        self.hooks = list(hooks)
        self.today = today
        self._render_cache: dict[tuple[object, ...], Rendered] = {}
        self._doc_cache: tuple[tuple[int, int, int, int] | None, Document] | None = None

    # ------------------------------------------------------------------ reading
    def read_bytes(self) -> bytes:
        """The file's bytes; b"" when it does not exist."""
        try:
            return self.file.read_bytes()
        except FileNotFoundError:
            return b""
        except OSError as exc:
            raise StoreError(f"cannot read {self.file}: {exc.strerror}") from exc

    def document(self) -> Document:
        """The parsed file, cached on (mtime_ns, size, inode)."""
        sig = _signature(self.file)
        if self._doc_cache is not None and sig is not None and self._doc_cache[0] == sig:
            return self._doc_cache[1]
        doc = Document.parse(self.read_bytes())
        self._doc_cache = (sig, doc)
        return doc

    def render(self, wing: str | None = None, budget_bytes: int = 8192) -> Rendered:
        """Hot memory for the prompt; an unchanged file costs one stat."""
        sig = _signature(self.file)
        key = (sig, wing.casefold() if wing else None, budget_bytes)
        cached = self._render_cache.get(key)
        if cached is not None and sig is not None:
            return cached
        try:
            doc = self.document()
        except StoreError as exc:
            return Rendered("", warning=f"memories.md could not be read ({exc}); starting with no memory")
        if sig is None:
            return Rendered("", warning=f"no memories yet ({self.file} does not exist)")
        rendered = render_document(doc, wing, budget_bytes)
        if not doc.lines or not rendered.text.strip():
            rendered.warning = "memories.md is empty"
        self._render_cache = {key: rendered}
        return rendered

    # ------------------------------------------------------------------ writing
    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        """The cross-process palace lock (flock on home/.lock)."""
        ensure_home(self.home)
        with exclusive(PalacePaths(self.home).lock):
            yield

    def save(self, path: str, content: str, replaces: str | None = None, *, by: str = "user") -> ChangeResult:
        """Save an entry (or refresh an equal one, or rewrite `replaces` in place)."""
        parsed = parse_path(path)
        return self._edit(
            lambda doc, day: ops.save(doc, parsed, content, day, replaces=replaces, limit=self.entry_limit, by=by),
        )

    def forget(self, path: str, content: str, *, by: str = "user") -> ChangeResult:
        """Remove one entry; its room heading goes too when nothing else is left in the room."""
        parsed = parse_path(path)
        return self._edit(lambda doc, day: ops.forget(doc, parsed, content, by=by))

    def save_many(
        self, items: Sequence[tuple[str, str]], *, message: str, by: str = "extracted"
    ) -> list[ChangeResult | PalaceError]:
        """Save several entries in one write (one commit); invalid items come back as errors."""
        outcome: list[ChangeResult | PalaceError] = []

        def apply(doc: Document, day: str) -> tuple[bytes | None, list[ChangeResult | PalaceError]]:
            outcome.clear()
            data: bytes | None = None
            for path, content in items:
                try:
                    new, result = ops.save(doc, parse_path(path), content, day, limit=self.entry_limit, by=by)
                except PalaceError as exc:
                    outcome.append(exc)
                    continue
                if new is not None:
                    data, doc = new, Document.parse(new)
                outcome.append(result)
            return data, outcome

        self._write(apply, lambda _: message)
        return list(outcome)

    def restore(self, expected: bytes, new: bytes, *, message: str) -> None:
        """Replace the file's bytes with new, but only if they still equal expected (undo)."""

        def apply(doc: Document, day: str) -> tuple[bytes | None, None]:
            if doc.to_bytes() != expected:
                raise UndoError(
                    "memories.md changed since that change (a hand edit?), so nothing was undone; "
                    "see `palace log` or edit the file"
                )
            return new, None

        self._write(apply, lambda _: message)

    def _edit(self, op: Callable[[Document, str], tuple[bytes | None, ChangeResult]]) -> ChangeResult:
        return self._write(op, lambda result: result.commit_message)

    def _write(self, op: Callable[[Document, str], tuple[bytes | None, _T]], message: Callable[[_T], str]) -> _T:
        """Apply op to the file's current text and put the result in place, never from a stale copy.

        Inside the palace lock: read the file (keeping it open), apply op, swap the result in only if the
        file still holds what was read. An editor that does not take the lock can still save meanwhile:
        when it replaced the file, the edit is redone on its text; when it wrote into the old file in place
        (seen through the descriptor kept open), the edit is redone on that text too.
        """
        with self.lock():
            for hook in self.hooks:
                hook.before_write(self.file)
            watched, expect = self._open_current()
            base = expect  # the text the edit is applied to; `expect` is what the file holds
            late: tuple[bytes, bytes] | None = None  # an editor's in-place change to a file we replaced
            written: _T | None = None  # the outcome of the edit first put in place
            try:
                for _ in range(_RETRIES):
                    try:
                        new, result = op(Document.parse(base), self.today().isoformat())
                    except PalaceError:
                        if late is not None:  # the file holds our edit of a stale text: give the editor's back
                            self._give_back(late, base, expect)
                        raise
                    if written is not None:
                        result = written  # a redo: what the edit did is what it did the first time
                    if new is None:
                        new = base
                    if new == expect:
                        if new != base:
                            self._after_write(base, new, message(result))
                        return result
                    found = self._put(new, expect, existed=watched is not None)
                    if found is not None:  # replaced or changed by someone else meanwhile: start again
                        _close(watched)
                        watched, expect = self._open_current()
                        base = expect if late is None else _rebase(*late, onto=expect)
                        continue
                    written = result if written is None else written
                    # An editor writing in place may have written into the file just replaced: look.
                    replaced = expect
                    seen = replaced if watched is None else _read_fd(watched)
                    _close(watched)
                    watched = None
                    if seen == replaced:
                        if new != base:
                            self._after_write(base, new, message(result))
                        return result
                    watched, expect = self._open_current()  # only needed to redo the edit
                    # Redo the edit on the text with the editor's change (the file holds `new` meanwhile).
                    late = (replaced, seen)
                    base = seen if base == replaced else _rebase(replaced, seen, onto=base)
                if late is not None:  # giving up while the file holds our edit of a stale text
                    self._give_back(late, base, expect)
            finally:
                _close(watched)
        raise StoreError(f"{self.file} keeps changing under palace; nothing written — try again")

    def _give_back(self, late: tuple[bytes, bytes], base: bytes, expect: bytes) -> None:
        """Put the editor's text back in place of our edit of a stale text (best effort, keeps hand lines)."""
        for _ in range(_RETRIES):
            found = self._put(base, expect, existed=True)
            if found is None:
                return
            expect, base = found, _rebase(*late, onto=found)

    def _open_current(self) -> tuple[int | None, bytes]:
        """A descriptor on the file as it is now (None when missing) and its bytes."""
        try:
            fd = os.open(self.file, os.O_RDONLY)
        except FileNotFoundError:
            return None, b""
        except OSError as exc:
            raise StoreError(f"cannot read {self.file}: {exc.strerror}") from exc
        try:
            return fd, _read_fd(fd)
        except OSError as exc:
            os.close(fd)
            raise StoreError(f"cannot read {self.file}: {exc.strerror}") from exc

    def _put(self, data: bytes, expect: bytes, *, existed: bool) -> bytes | None:
        try:
            return _swap_in(self.file, data, expect, existed)
        except OSError as exc:
            raise StoreError(f"cannot write {self.file}: {exc.strerror}") from exc

    def _after_write(self, before: bytes, after: bytes, message: str) -> None:
        self._render_cache.clear()
        self._doc_cache = None
        for hook in self.hooks:
            hook.after_write(self.file, before, after, message)


def _close(fd: int | None) -> None:
    if fd is not None:
        os.close(fd)
