"""The background committer: each memory change is committed after it is on disk, not while the save waits.

A change is queued with the exact bytes it wrote (memories.md, and the side files it changed), under the
palace lock, and recorded as pending (history/pending.py); a thread commits the queue in order, one commit
per change, with history/snapshot.py: the work tree may hold later changes by then. A change is committed
only on top of the versions it was made from. When HEAD holds others (the user committed, `palace sync`
merged, another palace committed this change already), or git is in trouble, the committer stops and what
is left is committed from the work tree, under the palace lock, at the next write or flush (autocommit.py):
by then the file holds every change, and the pending records name them.

A hand edit found under a change (the bytes the change was made on are not what the last change left) is
queued first, as its own commit, with the bytes palace read: exactly the file as the user left it. Bytes
that another palace left (its change still pending, or committed: HEAD moved and holds them) are no hand edit.
"""

from __future__ import annotations

import os
import stat
import threading
from collections import deque
from collections.abc import Callable
from pathlib import Path

from palace.history.git import HAND_EDIT_MESSAGE, GitTrouble, commit_lock, identity_args
from palace.history.pending import PendingChange, PendingChanges, commit_message
from palace.history.snapshot import (
    Content,
    Diverged,
    Head,
    busy_elsewhere,
    commit_contents,
    read_head,
    sync_index,
    write_blob,
)
from palace.paths import MEMORIES, REVIEW, SUPERSEDED
from palace.record import record
from palace.sha import sha256_hex
from palace.threads import start_thread

SIDE_FILES = (SUPERSEDED, REVIEW)  # written with memory changes now and then: committed with them
_Signature = tuple[int, int, int, int]


def sha256(data: bytes) -> str:
    return sha256_hex(data)


@record(frozen=True)
class Job:
    """One change to commit: its pending record and the top-level files as it left them."""

    change: PendingChange
    files: dict[str, Content]
    hand_edit: bool = False
    base: str | None = None  # a hand edit's: HEAD's memories.md when it was found (None: not known)


class Committer:
    """The queue of changes to commit and the thread that commits them."""

    def __init__(self, home: Path, pending: PendingChanges, warn: Callable[[str], None]) -> None:
        self.home = home
        self.pending = pending
        self.warn = warn
        self.fresh: set[str] = set()  # ids of the pending changes this process queued and git did not refuse
        self._cond = threading.Condition()
        self._jobs: deque[Job] = deque()
        self._busy = False
        self._thread: threading.Thread | None = None
        self._ready = False  # the baseline is known: changes may be queued
        self._committed: dict[str, str | None] = {}  # blob ids in HEAD of the files, as this committer knows them
        self._last: bytes | None = None  # memories.md as the last queued change left it
        self._signatures: dict[str, _Signature | None] = {}  # side files' stat when they were last queued
        self._troubled = False  # a warning was given since the last commit that worked

    @property
    def ready(self) -> bool:
        with self._cond:
            return self._ready

    # ------------------------------------------------------------------ the writer's side (palace lock held)
    def start_from(self, data: bytes) -> None:
        """HEAD holds what is on disk (memories.md is `data`): queue changes from here on."""
        reason = busy_elsewhere(self.home)
        if reason is not None:
            raise Diverged(reason)
        head = read_head(self.home)
        with self._cond:
            self._committed = {name: head.blob(name) for name in (MEMORIES, *SIDE_FILES)}
            self._last = data
            self._signatures = {}
            self._ready = True

    def queue(self, before: bytes, after: bytes, message: str) -> bool:
        """Queue a change that is in place (before -> after); False when the committer is not ready (the
        caller commits it from the work tree)."""
        with self._cond:
            if not self._ready:
                return False
            if before is not self._last and before != self._last and (hand := self._hand_edit(before)) is not None:
                self._add(hand)
            change = self.pending.add(message, sha256(after))
            self._add(Job(change, {MEMORIES: Content(after), **self._side_files()}))
            self._last = after
            if self._thread is None or not self._thread.is_alive():
                self._thread = start_thread(self._run, name="palace-commits")
            self._cond.notify_all()
            return True

    def _hand_edit(self, before: bytes) -> Job | None:
        """The job committing a hand edit found under a change, or None when another palace left the file so:
        a change of its own still pending, or one it committed (HEAD holds these bytes). A record saying "hand
        edit" would be named in the commit of whoever commits next. Only when the file changed under us."""
        digest = sha256(before)
        theirs = [r for r in self.pending.records() if r.message != HAND_EDIT_MESSAGE and r.id not in self.fresh]
        if any(record.digest == digest for record in theirs):
            return None
        base: str | None = None
        try:
            head = read_head(self.home)
            base = head.blob(MEMORIES)
            moved = base is not None and base != self._committed.get(MEMORIES)  # another palace committed
            if moved and base == write_blob(self.home, MEMORIES, before, store=False):
                if not self._jobs and not self._busy:  # nothing of ours in flight: HEAD is the new baseline
                    self._adopt(head)
                return None
        except (GitTrouble, Diverged):
            base = None
        hand = self.pending.add(HAND_EDIT_MESSAGE, digest)
        return Job(hand, {MEMORIES: Content(before)}, hand_edit=True, base=base)

    def _add(self, job: Job) -> None:
        if job.change.id is not None:
            self.fresh.add(job.change.id)
        self._jobs.append(job)

    def _side_files(self) -> dict[str, Content]:
        """The side files that changed since they were last queued (a stat each, a read only when changed)."""
        found: dict[str, Content] = {}
        for name in SIDE_FILES:
            try:
                st = os.lstat(self.home / name)
            except OSError:
                self._signatures[name] = None
                continue
            signature = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
            if not stat.S_ISREG(st.st_mode) or self._signatures.get(name) == signature:
                continue
            try:
                found[name] = Content((self.home / name).read_bytes(), stat.S_IMODE(st.st_mode))
            except OSError:
                continue
            self._signatures[name] = signature
        return found

    # ------------------------------------------------------------------ waiting
    def wait_idle(self) -> None:
        """Until every queued change is committed (or left for the work-tree commit)."""
        with self._cond:
            while self._jobs or self._busy:
                if self._thread is None or not self._thread.is_alive():  # never wait on a thread that is gone
                    self._jobs.clear()
                    self._busy = self._ready = False
                    return
                self._cond.wait(timeout=1.0)

    # ------------------------------------------------------------------ the thread
    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._jobs:
                    self._busy = False
                    self._cond.notify_all()
                    self._cond.wait()
                self._busy = True
            try:
                with commit_lock(self.home):
                    self._commit_queued()
            except Diverged:
                self._stop(refused=False)
            except Exception as exc:  # GitTrouble, OSError, or anything unforeseen: never a thread that hangs
                self._stop(refused=True)
                if not self._troubled:
                    self._troubled = True
                    self.warn(f"{exc} — the change is saved, not committed")
            else:
                self._troubled = False

    def _stop(self, *, refused: bool) -> None:
        """Drop the queue: its changes stay pending, for the work-tree commit (late ones when git refused)."""
        with self._cond:
            if refused:
                self.fresh.difference_update(j.change.id for j in self._jobs if j.change.id is not None)
            self._jobs.clear()
            self._ready = False
            self._cond.notify_all()

    def _commit_queued(self) -> None:
        """Commit the queued changes in order, one commit each (the commit lock held); git's index is told
        once, at the end. Diverged when one cannot go on top of HEAD."""
        reason = busy_elsewhere(self.home)
        if reason is not None:
            raise Diverged(reason)
        records = self.pending.records()  # only committers remove records, and they hold the commit lock
        head = read_head(self.home)
        identity = identity_args(self.home)
        names: set[str] = set()
        try:
            while True:
                with self._cond:
                    if not self._jobs:
                        return
                    job = self._jobs[0]
                if job.change.id not in {r.id for r in records}:
                    records = self.pending.records()  # queued since: its record came after the last read
                head = self._commit(job, head, records, identity)
                names.update(job.files)
                with self._cond:
                    self._jobs.popleft()
                    self.fresh.discard(job.change.id or "")
        finally:
            if names:
                sync_index(self.home, sorted(names))

    def _commit(self, job: Job, head: Head, records: list[PendingChange], identity: list[str]) -> Head:
        """Commit one queued change on head; HEAD after it."""
        ids = [r.id for r in records]
        if job.change.id not in ids:
            raise Diverged("the change was committed by another palace")
        message = job.change.message
        done = [job.change]
        blobs: dict[str, str] = {}
        # Other palaces' changes recorded before this one are in the bytes it was made on: their committers
        # will find them committed, so this commit names them (else a change would pass unnamed).
        others = [r for r in records[: ids.index(job.change.id)] if r.id not in self.fresh]
        if job.hand_edit:
            data = job.files[MEMORIES].data
            blobs[MEMORIES] = write_blob(self.home, MEMORIES, data)
            if head.blob(MEMORIES) == blobs[MEMORIES]:  # another palace committed this state: start from it
                self._adopt(head)
                self.pending.remove([job.change.id or ""])
                records[:] = [r for r in records if r.id != job.change.id]
                return head
            if others:
                message = commit_message(others, sha256(data))
            elif job.base is not None and head.blob(MEMORIES) == job.base:
                self._adopt(head)  # HEAD has not moved since the edit was found: it holds all that came before
        elif others:
            message = commit_message(others, None, job.change.message)
        done += others
        for name in job.files:
            if head.blob(name) != self._committed.get(name):
                raise Diverged(f"HEAD holds another {name}")
        head, blob_ids = commit_contents(self.home, head, job.files, message, identity=identity, blobs=blobs)
        self._committed.update(blob_ids)
        committed = {c.id for c in done if c.id is not None}
        self.pending.remove(committed)
        records[:] = [r for r in records if r.id not in committed]  # the caller's view, for the next job
        return head

    def refresh(self, names: list[str]) -> None:
        """These files were committed from the work tree (the commit lock held): take HEAD's versions."""
        if not self.ready or not any(name in (MEMORIES, *SIDE_FILES) for name in names):
            return
        try:
            head = read_head(self.home)
            blobs = {name: head.blob(name) for name in names if name in self._committed}
        except (GitTrouble, Diverged):
            blobs = None
        with self._cond:
            if blobs is None:
                self._ready = False  # the next write starts again from what HEAD holds
            else:
                self._committed.update(blobs)

    def _adopt(self, head: Head) -> None:
        self._committed = {name: head.blob(name) for name in (MEMORIES, *SIDE_FILES)}
