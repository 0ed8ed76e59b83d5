"""The one code path that reads and writes memories.md: locked, re-read, atomic, never stale."""

from __future__ import annotations

import contextlib
import itertools
import os
import random
import stat
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Protocol, TypeVar

from palace.errors import PalaceError, StoreError, UndoError
from palace.filelock import exclusive
from palace.memory import ops
from palace.memory.document import Document
from palace.memory.files import (
    Stamp,
    Swapped,
    check_writable,
    close_later,
    ensure_home,
    open_regular,
    read_fd,
    read_regular,
    remove_stale_temps,
    stamp_of,
    swap_in,
    target_of,
    write_in_place,
)
from palace.memory.halls import MemoryPath, parse_path
from palace.memory.lines import common_prefix, common_suffix
from palace.memory.ops import ChangeResult
from palace.memory.render import Rendered, Wings, render_document, wing_keys
from palace.memory.render_cache import RenderCache, cache_key
from palace.memory.reuse import ReuseCounts
from palace.memory.superseded import Removed, Superseded
from palace.paths import PalacePaths

_RETRIES = 32
RETRY_SECONDS = 5.0  # a write retries this long while an editor keeps replacing the file
RECENT_SECONDS = 5.0  # how long an acknowledged save is checked for an editor's late overwrite
_T = TypeVar("_T")


class WriteHook(Protocol):
    """Observes writes (git autocommit, the undo record); called inside the palace lock."""

    def before_write(self, file: Path) -> None: ...

    def after_write(self, file: Path, before: bytes, after: bytes, message: str) -> None: ...


def _lines(data: bytes) -> list[bytes]:
    parts = data.split(b"\n")
    lines = [part + b"\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _replay(changes: list[tuple[bytes, bytes]], onto: bytes) -> bytes:
    """onto with each (before, after) change redone on it, in order (see _rebase)."""
    for before, after in changes:
        onto = _rebase(before, after, onto)
    return onto


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


def _signature(file: Path) -> tuple[int, int, int, int] | None:
    try:
        st = file.stat()
    except (FileNotFoundError, NotADirectoryError):
        return None
    return (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)


@dataclass(frozen=True)
class _Acknowledged:
    when: float
    path: MemoryPath
    content: str
    by: str
    line: bytes  # the entry's line as written (its text, encoded as the file is)
    site: bytes  # the text around the change as it was before it


def _site(before: bytes, after: bytes) -> bytes:
    """The bytes of `before` where the change to `after` went, with some of what surrounds them."""
    head = common_prefix(before, after)
    tail = common_suffix(before, after, min(len(before), len(after)) - head)
    return before[max(0, head - 120) : len(before) - tail + 120]


@dataclass
class _Current:
    """The file as it is under the lock: a descriptor kept open on it (None when missing), its bytes, stat."""

    fd: int | None
    data: bytes
    mode: int = 0o600
    links: int = 1
    stamp: Stamp | None = None  # what fstat said as the bytes were read

    def take(self, other: _Current) -> None:
        """Become other (the file as read again)."""
        self.fd, self.data, self.stamp = other.fd, other.data, other.stamp
        self.mode, self.links = other.mode, other.links


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
        self._cleaned = False
        self._recent: list[_Acknowledged] = []  # saves acknowledged lately, checked again by repair_recent
        self._day = ""  # the date the last edit was made with
        self._last_write: tuple[bytes, bytes] | None = None  # (before, after) of the last write
        self._disk_cache = RenderCache(PalacePaths(home).index)
        self.superseded = Superseded(home)
        self.reuse = ReuseCounts(home)

    # ------------------------------------------------------------------ reading
    def read_bytes(self) -> bytes:
        """The file's bytes; b"" when it does not exist; StoreError when it is not a regular file."""
        return read_regular(self.file) or b""

    @property
    def target(self) -> Path:
        """The file palace really writes (memories.md, or where its symlink points)."""
        return target_of(self.file)

    def document(self) -> Document:
        """The parsed file, cached on (mtime_ns, size, inode)."""
        sig = _signature(self.file)
        if self._doc_cache is not None and sig is not None and self._doc_cache[0] == sig:
            return self._doc_cache[1]
        doc = Document.parse(self.read_bytes())
        self._doc_cache = (sig, doc)
        return doc

    def render(self, wing: Wings = None, budget_bytes: int = 8192) -> Rendered:
        """Hot memory for the prompt (the wing-less halls and the active wing or wings); an unchanged file
        costs one stat in this process, and a read and a hash in a new one."""
        sig = _signature(self.file)
        key = (sig, wing_keys(wing), budget_bytes)
        cached = self._render_cache.get(key)
        if cached is not None and sig is not None:
            return cached
        if sig is None:
            return Rendered("", warning=f"no memories yet ({self.file} does not exist)")
        try:
            data = self.read_bytes()
        except StoreError as exc:
            return Rendered(
                "", warning=f"memories.md could not be read ({exc}); starting with no memory", unreadable=True
            )
        disk_key = cache_key(data, wing, budget_bytes)
        rendered = self._disk_cache.get(disk_key)
        if rendered is None:
            doc = Document.parse(data)
            self._doc_cache = (sig, doc)
            rendered = render_document(doc, wing, budget_bytes)
            if not doc.lines or not rendered.text.strip():
                rendered.warning = "memories.md holds no memories yet" if doc.lines else "memories.md is empty"
            self._disk_cache.put(disk_key, rendered)
        self._render_cache = {key: rendered}
        return rendered

    # ------------------------------------------------------------------ writing
    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        """The cross-process palace lock (flock on home/.lock)."""
        ensure_home(self.home)
        lock_file = PalacePaths(self.home).lock
        try:
            with exclusive(lock_file):
                yield
        except PermissionError as exc:
            raise StoreError(
                f"cannot lock the palace: {lock_file} cannot be opened ({exc.strerror}); is {self.home} "
                "writable? (nothing written)"
            ) from exc

    def clean_stale(self) -> list[Path]:
        """Remove temp copies left by a palace killed mid-save (they are never needed: see files.py)."""
        with self.lock():
            self._cleaned = True
            return remove_stale_temps(self.target)

    def save(self, path: str, content: str, replaces: str | None = None, *, by: str = "user") -> ChangeResult:
        """Save an entry (or refresh an equal one, or rewrite `replaces` in place)."""
        ops.check_path_secret(path)
        parsed = parse_path(path)
        result = self._edit(
            lambda doc, day: ops.save(doc, parsed, content, day, replaces=replaces, limit=self.entry_limit, by=by),
        )
        if result.action in ("refreshed", "unchanged"):  # the same fact said again: it is reused
            self.reuse.bump([(result.where or result.path, result.content)], "confirmed", self._day)
        if result.action == "saved" and self._last_write is not None:
            line = f"[{self._day}] {result.content}".encode("utf-8", "surrogateescape")  # as the line was written
            site = _site(*self._last_write)
            self._recent.append(_Acknowledged(time.monotonic(), parsed, result.content, by, line, site))
        return result

    def repair_recent(self) -> list[ChangeResult]:
        """Save again what palace acknowledged in the last few seconds but the file no longer holds.

        An editor that renames its copy over memories.md right after palace's save drops the new entry (it
        read the file before the save); palace checks right after its own write, and again here, when the
        file next changes (the REPL's watcher) or palace next writes.
        """
        now = time.monotonic()
        self._recent = [a for a in self._recent if now - a.when < RECENT_SECONDS]
        if not self._recent:
            return []
        try:
            data = self.read_bytes()
        except StoreError:
            return []
        # Dropped means: the line is gone and the text around it is again what it was before the save (a
        # copy made before it). A line changed by hand, or a hand edit that continued it, is the user's.
        missing = [a for a in self._recent if a.site and a.line not in data and a.site in data]
        self._recent = [a for a in self._recent if a not in missing]
        repaired: list[ChangeResult] = []
        for lost in missing:
            with contextlib.suppress(PalaceError):
                repaired.append(self.save(str(lost.path), lost.content, by=lost.by))
        return repaired

    def forget(self, path: str, content: str, *, by: str = "user") -> ChangeResult:
        """Remove one entry; its room heading goes too when nothing else is left in the room."""
        parsed = parse_path(path)
        return self._edit(lambda doc, day: ops.forget(doc, parsed, content, by=by))

    def save_many(
        self, items: Sequence[tuple[str, str] | tuple[str, str, str | None]], *, message: str, by: str = "extracted"
    ) -> list[ChangeResult | PalaceError]:
        """Save several entries, each (path, content) or (path, content, replaces), in one write (one
        commit); invalid items come back as errors."""
        outcome: list[ChangeResult | PalaceError] = []

        def apply(doc: Document, day: str) -> tuple[bytes | None, list[ChangeResult | PalaceError]]:
            outcome.clear()
            data: bytes | None = None
            for item in items:
                path, content, replaces = (*item, None)[:3]
                try:
                    ops.check_path_secret(path)
                    new, result = ops.save(
                        doc, parse_path(path), content, day, replaces=replaces, limit=self.entry_limit, by=by
                    )
                except PalaceError as exc:
                    outcome.append(exc)
                    continue
                if new is not None:
                    data, doc = new, Document.parse(new)
                outcome.append(result)
            return data, outcome

        self._write(apply, lambda _: message)
        confirmed = [r for r in outcome if isinstance(r, ChangeResult) and r.action in ("refreshed", "unchanged")]
        self.reuse.bump([(r.where or r.path, r.content) for r in confirmed], "confirmed", self._day)
        return list(outcome)

    def clear(self, *, everything: bool = False) -> ops.Cleared:
        """Remove every entry (kept in superseded.md), or with `everything` the whole text; undoable."""
        return self._write(lambda doc, day: ops.clear(doc, everything=everything), lambda cleared: cleared.message)

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
        if self._recent:
            self.repair_recent()
        return self._write(op, lambda result: result.commit_message)

    def _write(self, op: Callable[[Document, str], tuple[bytes | None, _T]], message: Callable[[_T], str]) -> _T:
        """Apply op to the file's current text and put the result in place, never from a stale copy.

        Inside the palace lock: read the file (keeping it open), apply op, swap the result in only if the
        file still holds what was read. An editor that does not take the lock can still save meanwhile:
        when it replaced the file before palace's swap, or right after it, the edit is redone on its text;
        when it wrote into the old file in place (seen through the descriptor kept open), the edit is redone
        on that text too.
        """
        with self.lock():
            if not self._cleaned:
                self._cleaned = True
                remove_stale_temps(self.target)
            for hook in self.hooks:
                hook.before_write(self.file)
            current = self._open_current()
            try:
                return self._apply(op, message, current)
            finally:
                if current.fd is not None:  # often the last hold on the file just replaced: freed meanwhile
                    close_later(current.fd)

    def _apply(
        self,
        op: Callable[[Document, str], tuple[bytes | None, _T]],
        message: Callable[[_T], str],
        current: _Current,
    ) -> _T:
        base = current.data  # the text the edit is applied to; `current.data` is what the file holds
        late: list[tuple[bytes, bytes]] = []  # editors' changes to files we replaced: (before, after)
        written: _T | None = None  # the outcome of the edit first put in place
        for _ in _attempts():
            try:
                self._day = self.today().isoformat()
                doc = Document.parse(base)
                base = doc.to_bytes()  # equal bytes, as the object the parse remembered: compared faster
                new, result = op(doc, self._day)
            except PalaceError:
                if late:  # the file may hold our edit of a stale text: give the editors' changes back
                    self._give_back(late, base, current)
                raise
            if written is not None:
                result = written  # a redo: what the edit did is what it did the first time
            new = base if new is None else new
            if new == current.data:
                if new != base:
                    self._done(base, new, result, message)
                return result
            check_writable(self.target, current.mode)
            outcome = self._put(new, current)
            moved = False
            if outcome.found is None:
                written = result if written is None else written
                replaced = current.data
                seen = replaced if current.fd is None else read_fd(current.fd)
                moved = outcome.inode is not None and _inode(self.target) != outcome.inode
                if seen == replaced and not moved:
                    if new != base:
                        self._done(base, new, result, message)
                    return result
                if seen != replaced:  # an editor wrote into the file we replaced: redo on its text
                    late.append((replaced, seen))
                    base = seen if base == replaced else _rebase(replaced, seen, onto=base)
            else:  # ours was in place for an instant: an editor that read it then saves without its change
                late += outcome.late
            _close(current.fd)
            current.fd = None
            fresh = self._open_current()
            if outcome.found is not None or moved:  # replaced by someone else before or after our swap
                base = _replay(late, onto=fresh.data)
            current.take(fresh)  # the caller's, so that the descriptor it closes is the one open now
        if late:  # giving up while the file may hold our edit of a stale text
            self._give_back(late, base, current)
        raise StoreError(f"{self.file} keeps changing under palace; nothing written — try again")

    def _give_back(self, late: list[tuple[bytes, bytes]], base: bytes, current: _Current) -> None:
        """Put the editors' text back in place of our edit of a stale text (best effort, keeps hand lines)."""
        for _ in range(_RETRIES):
            if base == current.data:
                return  # the file holds every change already
            outcome = self._put(base, current)
            if outcome.found is None:
                return
            late += outcome.late
            current = _Current(None, outcome.found, current.mode, current.links)
            base = _replay(late, onto=outcome.found)

    def _open_current(self) -> _Current:
        """A descriptor on the file as it is now (None when missing), its bytes and what stat says."""
        fd = open_regular(self.file)
        if fd is None:
            return _Current(None, b"")
        try:
            st = os.fstat(fd)
            return _Current(fd, read_fd(fd), stat.S_IMODE(st.st_mode), st.st_nlink, stamp_of(st))
        except OSError as exc:
            os.close(fd)
            raise StoreError(f"cannot read {self.file}: {exc.strerror}") from exc

    def _put(self, data: bytes, current: _Current) -> Swapped:
        target = self.target
        try:
            if current.links > 1 and current.fd is not None:  # hard links: every name must see the change
                return Swapped(found=write_in_place(target, current.fd, data, current.data))
            return swap_in(target, data, current.data, existed=current.fd is not None, read=current.stamp)
        except OSError as exc:
            raise StoreError(f"cannot write {target}: {exc.strerror} (nothing written)") from exc

    def _done(self, before: bytes, after: bytes, result: _T, message: Callable[[_T], str]) -> None:
        """A write is in place: keep what it removed in superseded.md, then tell the hooks (git, undo)."""
        removed = removed_by(result)
        if removed:
            self.superseded.record(removed, self._day)
        self._after_write(before, after, message(result))

    def _after_write(self, before: bytes, after: bytes, message: str) -> None:
        self._last_write = (before, after)
        if self._recent:  # what palace itself has just removed is no longer to be repaired
            self._recent = [a for a in self._recent if a.line in after]
        self._render_cache.clear()
        self._doc_cache = None
        for hook in self.hooks:
            hook.after_write(self.file, before, after, message)


def _attempts() -> Iterator[int]:
    """Tries of a write against a file that keeps changing: a burst, then spaced out (editors save in
    bursts), for a few seconds in all before giving up."""
    deadline = time.monotonic() + RETRY_SECONDS
    for attempt in itertools.count():
        if attempt >= _RETRIES and time.monotonic() > deadline:
            return
        if attempt >= _RETRIES:
            time.sleep(random.uniform(0.001, 0.02))
        yield attempt


def removed_by(result: object) -> list[Removed]:
    """The entries an operation's result says it removed from memories.md (forgets, replaces, a clear)."""
    results = result if isinstance(result, list) else [result]
    removed: list[Removed] = []
    for item in results:
        if isinstance(item, ChangeResult) and item.action == "forgotten":
            removed.append(Removed(item.path, item.content, item.old_date, "forgotten", item.by))
        elif isinstance(item, ChangeResult) and item.action == "replaced" and item.replaced is not None:
            removed.append(Removed(item.path, item.replaced, item.old_date, "replaced", item.by, item.content))
        elif isinstance(item, Removed):
            removed.append(item)
        elif isinstance(item, ops.Cleared):
            removed += [Removed(e.path, e.content, e.date, "cleared") for e in item.entries if e.path is not None]
    return removed


def _inode(file: Path) -> int | None:
    try:
        return file.stat().st_ino
    except OSError:
        return None


def _close(fd: int | None) -> None:
    if fd is not None:
        os.close(fd)
