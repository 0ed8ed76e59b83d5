"""The one code path that writes memories.md: locked, re-read, atomic, never stale (it reads through reader.py)."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Generic, NamedTuple, Protocol, TypeVar

from palace.errors import PalaceError, StoreError, UndoError
from palace.filelock import exclusive
from palace.memory.current import Current, open_current, put
from palace.memory.files import (
    check_writable,
    close_fd,
    close_later,
    ensure_home,
    inode_of,
    read_fd,
    remove_stale_temps,
)
from palace.memory.halls import MemoryPath, parse_path
from palace.memory.reader import MemoryReader
from palace.paths import PalacePaths
from palace.record import replace

# The parser, the edits and the write's race handling are imported by the methods that use them: a render the cache
# answers (a session's start, memories.md unchanged) needs none of them.
if TYPE_CHECKING:
    from palace.memory import ops
    from palace.memory.change import Change, SideEdit, SideWrite
    from palace.memory.document import Document
    from palace.memory.expiry import Expired
    from palace.memory.ops import ChangeResult
    from palace.memory.races import Acknowledged, Ledger, Written
    from palace.memory.sidefile import SideFile
    from palace.memory.superseded import Superseded

_T = TypeVar("_T")
_Op = Callable[["Document", str], tuple[bytes | None, _T]]  # an edit: (the text, today) -> (new bytes or None, outcome)
_Said = Callable[[_T], str]  # an outcome's commit message


class _Told(NamedTuple, Generic[_T]):  # not a frozen dataclass: no methods compiled at import (paths.py)
    """How a change is named (its commit message, from its outcome) and the side files it writes too."""

    message: _Said[_T]
    also: Sequence[SideWrite] = ()


class WriteHook(Protocol):
    """Observes writes (git autocommit, the undo record); called inside the palace lock."""

    def before_write(self, file: Path) -> None: ...

    def after_write(self, file: Path, before: bytes, after: bytes, message: str, change: Change | None = None) -> None:
        """`change`: what the change wrote besides memories.md (for undo) and what it did to which entries."""


class MemoryStore(MemoryReader):
    """memories.md in a palace folder: save, forget, render, all through one locked write path."""

    def __init__(
        self,
        home: Path,
        *,
        entry_limit: int = 200,
        hooks: Sequence[WriteHook] = (),
        today: Callable[[], date] = date.today,
        inside: Path | None = None,
        state: Path | None = None,
    ) -> None:
        """`entry_limit`: entries a room holds at most; `hooks`: told of each write (git, undo); `today`, `inside`
        and `state` as MemoryReader's."""
        super().__init__(home, today=today, inside=inside, state=state)
        self.entry_limit = entry_limit
        self.hooks = list(hooks)
        self._cleaned = False
        self._day = ""  # the date the last edit was made with

    @functools.cached_property
    def ledger(self) -> Ledger:
        """What palace wrote lately, in every process (races.py)."""
        from palace.memory.races import Ledger

        return Ledger(PalacePaths(self.state).lock)

    @functools.cached_property
    def superseded(self) -> Superseded:
        from palace.memory.superseded import Superseded

        return Superseded(self.home, inside=self.inside)

    # ------------------------------------------------------------------ writing
    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        """The cross-process palace lock (flock on home/.lock)."""
        ensure_home(self.state)
        lock_file = PalacePaths(self.state).lock
        try:
            with exclusive(lock_file):
                yield
        except PermissionError as exc:
            raise StoreError(
                f"cannot lock the palace: {lock_file} cannot be opened ({exc.strerror}); is {self.state} "
                "writable? (nothing written)"
            ) from exc

    def clean_stale(self) -> list[Path]:
        """Remove temp copies left by a palace killed mid-save (they are never needed: see files.py)."""
        with self.lock():
            self._cleaned = True
            return remove_stale_temps(self.target)

    def save(
        self,
        path: str,
        content: str,
        replaces: str | None = None,
        *,
        by: str = "user",
        until: str | None = None,
        also: Sequence[SideWrite] = (),
    ) -> ChangeResult:
        """Save an entry (or refresh an equal one, or rewrite `replaces` in place); `until`: its last day; `also`:
        side files the same change writes (a review accept takes its proposal out of review.md)."""
        from palace.memory import ops

        ops.check_path_secret(path)
        parsed = parse_path(path)
        limit = self.entry_limit
        result = self._edit(
            lambda doc, day: ops.save(doc, parsed, content, day, replaces=replaces, limit=limit, by=by, until=until),
            also,
        )
        if result.action == "unchanged":  # the same fact said again the same day: reused, nothing written
            self.reuse.bump([(result.where or result.path, result.content)], "confirmed", self._day)
        return result

    def repair_recent(self) -> list[ChangeResult]:
        """Save again what palace (any of its processes) acknowledged in the last few seconds but an editor's stale
        copy, renamed over memories.md or written into it, dropped (races.Ledger). Each edit does this first; the
        REPL's watcher calls it when the file changes."""
        try:
            with self.lock():
                return self._repair()
        except StoreError:  # the palace cannot be locked (a read-only folder): nothing is written either
            return []

    def _repair(self, data: bytes | None = None) -> list[ChangeResult]:
        """repair_recent under the lock, on data (read when None); each entry saved again is a write of its own."""
        repaired: list[ChangeResult] = []
        with contextlib.suppress(StoreError):  # not a file palace can read: the write that follows says so
            for lost in self.ledger.dropped(self.read_bytes if data is None else lambda: data):
                with contextlib.suppress(PalaceError):
                    repaired.append(self._save_again(lost))
        return repaired

    def _save_again(self, lost: Acknowledged) -> ChangeResult:
        from palace.memory import ops

        path, limit = parse_path(lost.path), self.entry_limit
        return self._locked_write(
            lambda doc, day: ops.save(doc, path, lost.content, day, limit=limit, by=lost.by, until=lost.until),
            lambda result: result.commit_message,
        )

    def forget(
        self, path: str, content: str, *, by: str = "user", secret: bool = False, also: Sequence[SideWrite] = ()
    ) -> ChangeResult:
        """Remove one entry; its room heading goes too when nothing else is left in the room. `secret`: the
        user says it is one (superseded.md then keeps only that a secret was removed)."""
        from palace.memory import ops

        parsed = parse_path(path)

        def op(doc: Document, day: str) -> tuple[bytes | None, ChangeResult]:
            data, result = ops.forget(doc, parsed, content, by=by)
            return data, replace(result, secret=True) if secret else result

        return self._edit(op, also)

    def save_many(
        self, items: Sequence[tuple[str, str] | tuple[str, str, str | None]], *, message: str, by: str = "extracted"
    ) -> list[ChangeResult | PalaceError]:
        """Save several entries, each (path, content) or (path, content, replaces), in one write (one
        commit); invalid items come back as errors."""
        from palace.memory import ops
        from palace.memory.document import Document
        from palace.memory.ops import ChangeResult

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
        confirmed = [r for r in outcome if isinstance(r, ChangeResult) and r.action == "unchanged"]
        self.reuse.bump([(r.where or r.path, r.content) for r in confirmed], "confirmed", self._day)
        return list(outcome)

    def expire(self) -> Expired:
        """Move the entries whose end date has passed to superseded.md ("expired"): one change, undoable."""
        from palace.memory.expiry import Expired, expire
        from palace.memory.expiry import expired as expired_in

        expired = Expired([])

        def apply(doc: Document, day: str) -> tuple[bytes | None, Expired]:
            nonlocal expired
            data, expired = expire(doc, day)
            return data, expired

        try:
            data = self.read_bytes()
        except StoreError:
            return expired  # the render says why the file cannot be read
        if "→".encode() not in data and b" -> " not in data:
            return expired  # no entry has an end: the common case costs one read, no parse, no lock
        if not expired_in(self.document(), self.today().isoformat()):
            return expired
        return self._write(apply, lambda gone: gone.message)

    def clear(self, *, everything: bool = False) -> ops.Cleared:
        """Remove every entry (kept in superseded.md), or with `everything` the whole text; undoable."""
        from palace.memory import ops

        return self._write(lambda doc, day: ops.clear(doc, everything=everything), lambda cleared: cleared.message)

    def restore(self, expected: bytes, new: bytes, *, message: str, change: Change | None = None) -> list[str]:
        """Replace the file's bytes with new, but only if they still equal expected (undo), and take back what
        `change` wrote besides: the side files that changed since so that their part cannot be placed."""
        unplaced: list[str] = []

        def apply(doc: Document, day: str) -> tuple[bytes | None, None]:
            if doc.to_bytes() != expected:
                raise UndoError(
                    "memories.md changed since that change (a hand edit?), so nothing was undone; "
                    "see `palace log` or edit the file"
                )
            return new, None

        reverts = [self._revert(edit, unplaced) for edit in reversed(change.files)] if change else []
        self._write(apply, lambda _: message, also=reverts)
        if change is not None and change.reuse is not None:
            self.reuse.take_back(change.reuse)
        return unplaced

    def change_sides(self, message: str, writes: list[SideWrite]) -> None:
        """A change of side files only (a review reject): one change, recorded for undo like any other."""
        self._write(lambda doc, day: (None, None), lambda _: message, also=writes)

    def side_write(self, name: str, write: Callable[[], None]) -> SideWrite:
        """A write of one of the palace's side files (superseded.md, review.md) that a change makes too."""
        from palace.memory.change import SideWrite

        return SideWrite(name, self._side(name).read_bytes, write)

    def _side(self, name: str) -> SideFile:
        from palace.memory.sidefile import SideFile

        if name == self.superseded.file.name:
            return self.superseded.side
        return SideFile(self.home / name, "", inside=self.inside)

    def _revert(self, edit: SideEdit, unplaced: list[str]) -> SideWrite:
        from palace.memory.change import SideWrite

        side = self._side(edit.name)

        def write() -> None:
            try:
                side.write_bytes(edit.revert(side.read_bytes()))
            except ValueError:
                unplaced.append(edit.name)

        return SideWrite(edit.name, side.read_bytes, write)

    def _edit(self, op: _Op[ChangeResult], also: Sequence[SideWrite] = ()) -> ChangeResult:
        with self.lock():  # one lock for both: what is repaired is there when the edit reads the file
            return self._locked_write(op, lambda result: result.commit_message, repair=True, also=also)

    def _write(self, op: _Op[_T], message: _Said[_T], also: Sequence[SideWrite] = ()) -> _T:
        with self.lock():
            return self._locked_write(op, message, also=also)

    def _locked_write(
        self, op: _Op[_T], message: _Said[_T], *, repair: bool = False, also: Sequence[SideWrite] = ()
    ) -> _T:
        """Apply op to the file's current text and put the result in place, never from a stale copy.

        Inside the palace lock: read the file (keeping it open), apply op, swap the result in only if the
        file still holds what was read. An editor that does not take the lock can still save meanwhile:
        when it replaced the file before palace's swap, or right after it, the edit is redone on its text;
        when it wrote into the old file in place (seen through the descriptor kept open), the edit is redone
        on that text too. Called under the palace lock; with `repair`, what editors dropped is saved again first;
        `also`: side files the change writes too (after memories.md, as part of the same change).
        """
        if not self._cleaned:
            self._cleaned = True
            remove_stale_temps(self.target)
        for hook in self.hooks:
            hook.before_write(self.file)
        if self.inside is not None:  # a side file palace may not write is refused before anything is written
            self.superseded.side.read_bytes()
        current = open_current(self.file, self.inside)
        try:
            if repair and self._repair(current.data):  # each a write of its own: the file is read again
                close_fd(current.fd)
                current = open_current(self.file, self.inside)
            return self._apply(op, _Told(message, also), current)
        finally:
            if current.fd is not None:  # often the last hold on the file just replaced: freed meanwhile
                close_later(current.fd)

    def _apply(self, op: _Op[_T], told: _Told[_T], current: Current) -> _T:
        from palace.memory.races import Written, attempts, rebase, replay

        base = current.data  # the text the edit is applied to; `current.data` is what the file holds
        late: list[tuple[bytes, bytes]] = []  # editors' changes to files we replaced: (before, after)
        written: Written[_T] | None = None  # the edit first put in place: its outcome, the text before and after
        for _ in attempts():
            try:
                base, new, result = self._edited(op, base)
            except PalaceError:
                if (done := self._held(written, base, current.data, told)) is not None:
                    return done.result  # the redo found the edit there already (an editor's copy of palace's file)
                if late:  # the file may hold our edit of a stale text: give the editors' changes back
                    self._give_back(late, base, current)
                raise
            if written is not None:
                result = written.result  # a redo: what the edit did is what it did the first time
            if new == current.data:
                return self._finish(base, new, result, told, written)
            check_writable(self.target, current.mode)
            outcome = put(self.target, new, current)
            moved = False
            if outcome.found is None:
                written = written or Written(result, current.data, new)
                replaced = current.data
                seen = replaced if current.fd is None else read_fd(current.fd)
                moved = outcome.inode is not None and inode_of(self.target) != outcome.inode
                if seen == replaced and not moved:
                    return self._finish(base, new, result, told, None)
                if seen != replaced:  # an editor wrote into the file we replaced: redo on its text
                    late.append((replaced, seen))
                    base = seen if base == replaced else rebase(replaced, seen, onto=base)
            else:  # ours was in place for an instant: an editor that read it then saves without its change
                late += outcome.late
            close_fd(current.fd)
            current.fd = None
            fresh = open_current(self.file, self.inside)
            if outcome.found is not None or moved:  # replaced by someone else before or after our swap
                base = replay(late, onto=fresh.data)
            current.take(fresh)  # the caller's, so that the descriptor it closes is the one open now
        if late:  # giving up while the file may hold our edit of a stale text
            self._give_back(late, base, current)
        raise StoreError(f"{self.file} keeps changing under palace; nothing written — try again")

    def _edited(self, op: _Op[_T], base: bytes) -> tuple[bytes, bytes, _T]:
        """op applied to base: (base as parsed, the new text, the outcome)."""
        self._day = self.today().isoformat()
        from palace.memory.document import Document

        doc = Document.parse(base)
        base = doc.to_bytes()  # equal bytes, as the object the parse remembered: compared faster
        new, result = op(doc, self._day)
        return base, base if new is None else new, result

    def _finish(self, base: bytes, new: bytes, result: _T, told: _Told[_T], written: Written[_T] | None) -> _T:
        """The file holds the edit: tell superseded.md, the ledger and the hooks what it did."""
        if new != base:
            self._done(base, new, result, told)
        elif written is not None:  # redone on an editor's copy of palace's own file: it was there already
            self._done(written.before, written.after, result, told)
        elif (
            told.also
        ):  # memories.md stays as it is, the side files change (a review reject, an accept of a known fact)
            self._done(base, base, result, told)
        return result

    def _held(self, written: Written[_T] | None, base: bytes, data: bytes, told: _Told[_T]) -> Written[_T] | None:
        """The edit put in place, done, when base (what the file holds: data) holds it already; else None."""
        from palace.memory.races import rebase

        if written is None or base != data or rebase(written.before, written.after, onto=base) != base:
            return None
        self._done(written.before, written.after, written.result, told)
        return written

    def _give_back(self, late: list[tuple[bytes, bytes]], base: bytes, current: Current) -> None:
        """Put the editors' text back in place of our edit of a stale text (best effort, keeps hand lines)."""
        from palace.memory.races import RETRIES, replay

        for _ in range(RETRIES):
            if base == current.data:
                return  # the file holds every change already
            outcome = put(self.target, base, current)
            if outcome.found is None:
                return
            late += outcome.late
            current = Current(None, outcome.found, current.mode, current.links)
            base = replay(late, onto=outcome.found)

    def _done(self, before: bytes, after: bytes, result: _T, told: _Told[_T]) -> None:
        """A write is in place: keep what it removed in superseded.md, write the other side files, count the uses
        of what it refreshed, then tell the hooks (git, undo) the whole change."""
        from palace.memory.change import Change, tracked
        from palace.memory.outcomes import events_of, removed_by, results_of

        removed = removed_by(result)
        writes = list(told.also)
        if removed:
            writes.insert(
                0, self.side_write(self.superseded.file.name, lambda: self.superseded.record(removed, self._day))
            )
        change = Change(tracked(writes), events=events_of(result))
        refreshed: list[tuple[MemoryPath | str, str]] = [
            (r.where or r.path, r.content) for r in results_of(result) if r.action == "refreshed"
        ]
        if refreshed:
            change.reuse = self.reuse.bump(refreshed, "confirmed", self._day)
        self.ledger.note(before, after, result)  # so that any palace process repairs what an editor drops
        self._after_write(before, after, told.message(result), change)

    def _after_write(self, before: bytes, after: bytes, message: str, change: Change) -> None:
        self._render_cache.clear()
        self._doc_cache = None
        for hook in self.hooks:
            hook.after_write(self.file, before, after, message, change)
