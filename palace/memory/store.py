"""The one code path that reads and writes memories.md: locked, re-read, atomic, never stale."""

from __future__ import annotations

import contextlib
import fcntl
import functools
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from datetime import date
from pathlib import Path
from typing import Protocol, TypeVar

from palace.errors import PalaceError, StoreError, UndoError
from palace.memory import ops
from palace.memory.document import Document
from palace.memory.halls import parse_path
from palace.memory.ops import ChangeResult
from palace.memory.render import Rendered, render_document

MEMORIES = "memories.md"
_RETRIES = 8
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


def atomic_write(file: Path, data: bytes, *, unless_changed: Callable[[], bool] | None = None) -> bool:
    """Write via a 0600 temp file in the same folder, fsync, rename, fsync the folder.

    `unless_changed` is asked just before the rename; when it says False nothing is replaced.
    """
    fd, tmp = tempfile.mkstemp(prefix=f".{file.name}.", suffix=".tmp", dir=file.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o600)
        if unless_changed is not None and not unless_changed():
            os.unlink(tmp)
            return False
        os.replace(tmp, file)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    dir_fd = os.open(file.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
    return True


def _signature(file: Path) -> tuple[int, int, int] | None:
    try:
        st = file.stat()
    except FileNotFoundError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


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
        self.file = home / MEMORIES
        self.entry_limit = entry_limit
        self.hooks = list(hooks)
        self.today = today
        self._render_cache: dict[tuple[object, ...], Rendered] = {}
        self._doc_cache: tuple[tuple[int, int, int] | None, Document] | None = None

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
        fd = os.open(self.home / ".lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

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

    def _write(
        self, op: Callable[[Document, str], tuple[bytes | None, _T]], message: Callable[[_T], str]
    ) -> _T:
        with self.lock():
            for hook in self.hooks:
                hook.before_write(self.file)
            for _ in range(_RETRIES):
                before = self.read_bytes()
                new, result = op(Document.parse(before), self.today().isoformat())
                if new is None or new == before:
                    return result
                unchanged_since_read = functools.partial(self._has_bytes, before)
                try:
                    changed = atomic_write(self.file, new, unless_changed=unchanged_since_read)
                except OSError as exc:
                    raise StoreError(f"cannot write {self.file}: {exc.strerror}") from exc
                if not changed:
                    continue  # an editor wrote between our read and rename: redo on its text
                for hook in self.hooks:
                    hook.after_write(self.file, before, new, message(result))
                return result
        raise StoreError(f"{self.file} keeps changing under palace; nothing written — try again")

    def _has_bytes(self, expected: bytes) -> bool:
        return self.read_bytes() == expected
