"""The store's write hook that keeps the history: one git commit per change, and the undo record.

Every change palace makes to memories.md is one commit when the palace folder is a git work tree
(and `git.autocommit` is on); a hand edit found before a write is committed first, on its own. Git trouble
never stops a memory change: it costs one warning line. The undo record (history/undo.py) is kept whether
or not there is git. Only the git command line is used (history/git.py).

By default each change is committed before the write returns. With `background=True` (the REPL) the write
returns once the file is in place and the change recorded as pending (history/pending.py); a thread
commits it (history/committer.py). `flush()` waits for those commits; it runs before the session's archive
is committed and when the process exits, and what the thread could not commit is committed then from the
work tree, under the change's own name.
"""

from __future__ import annotations

import atexit
import functools
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from palace.filelock import exclusive
from palace.history.changelog import SessionTag
from palace.history.git import (
    Diverged,
    GitTrouble,
    commit_files,
    has_pending_change,
    is_own_repo,
    relative_to_home,
)
from palace.paths import MEMORIES, PalacePaths
from palace.sha import long_lived, sha256_hex

if TYPE_CHECKING:
    from palace.history.committer import Committer
    from palace.history.pending import PendingChanges
    from palace.memory.change import Change


def stderr_warning(message: str) -> None:
    print(f"palace: warning: {message}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- the write hook


class MergeWaiting(GitTrouble):
    """`palace sync` stopped at a conflict: nothing can be committed until the user resolves it."""


class GitHistory:
    """A store write hook: commits each change (git work tree + autocommit) and keeps the undo record."""

    def __init__(
        self,
        home: Path,
        *,
        autocommit: bool = True,
        warn: Callable[[str], None] = stderr_warning,
        background: bool = False,
        tag: SessionTag | None = None,
    ) -> None:
        self.home = Path(home)
        self.tag = tag or SessionTag()  # the session the changes belong to (the change log says so)
        self.autocommit = autocommit
        self.warn = warn
        self._warned = False  # at most one warning per change (before_write + after_write)
        self.via: str | None = None  # where the changes come from, named in each commit (`mcp: claude-code`)
        self._committer: Committer | None = None
        if background:
            from palace.history.committer import Committer  # threads and plumbing only for the REPL

            self._committer = Committer(self.home, self._pending, warn)
            long_lived()
        self._at_exit = False

    @functools.cached_property
    def _pending(self) -> PendingChanges:
        """The changes not committed yet (pending.py), imported by the first write: a process that only reads the
        memory (a session start) needs none of it."""
        from palace.history.pending import PendingChanges

        return PendingChanges(self.home / ".git")

    @property
    def is_repo(self) -> bool:
        """The palace folder is the top of a git work tree (and git runs)."""
        try:
            return is_own_repo(self.home)
        except GitTrouble:
            return False

    def _wants_git(self) -> bool:
        # `.git` present is enough to try: if git is missing or broken that is trouble worth a warning.
        return self.autocommit and (self.home / ".git").exists()

    def _trouble(self, what: str, exc: GitTrouble) -> None:
        if not self._warned:
            self._warned = True
            self.warn(str(exc) if isinstance(exc, MergeWaiting) else f"{exc} — {what}")

    def _check_top(self) -> bool:
        if not is_own_repo(self.home):
            raise GitTrouble(f"{self.home}/.git exists but is not a usable git repository")
        if (self.home / ".git" / "MERGE_HEAD").exists():  # git refuses partial commits until the merge ends
            raise MergeWaiting(
                "the change is saved; it is committed after the conflict `palace sync` left in memories.md is "
                "resolved (`palace memory lint` shows where) and `palace sync` runs again"
            )
        return True

    def _message(self, digest: str | None, current: str | None = None) -> str:
        from palace.history.pending import commit_message

        fresh = self._committer.fresh if self._committer is not None else ()
        return commit_message(self._pending.records(), digest, current, fresh)

    def _clear(self, _committed: bool) -> None:
        self._pending.clear()

    def before_write(self, file: Path) -> None:
        """Commit what is pending in the memory file first: palace's own changes that could not be committed
        earlier (under their own names), else a hand edit (as its own commit). In the background the
        committer finds hand edits itself (in the bytes each change was made on): nothing to do here."""
        self._warned = False
        if not self._wants_git():
            return
        committer = self._committer
        if committer is not None and committer.ready and file == self.home / MEMORIES:
            return
        self.commit_pending(file)

    def commit_pending(self, file: Path) -> None:
        """Commit what is pending in the memory file now (a hand edit, changes left uncommitted); the caller
        holds the palace lock."""
        if not self._wants_git():
            return
        committer = self._committer
        if committer is not None:
            committer.wait_idle()
        try:
            self._check_top()
            rel = relative_to_home(self.home, file)
            if has_pending_change(self.home, rel):
                commit_files(self.home, [rel], lambda: self._message(_digest(file)), then=self._clear)
            else:
                self._pending.clear()  # HEAD holds the file: whatever palace changed in it is committed
            if committer is not None and file == self.home / MEMORIES and not file.is_symlink():
                committer.start_from(file.read_bytes() if file.exists() else b"")
        except (GitTrouble, Diverged) as exc:
            if isinstance(exc, GitTrouble):
                self._trouble("hand edit not committed", exc)
        except OSError:
            pass  # the store reports an unreadable file; the committer just stays off

    def after_write(self, file: Path, before: bytes, after: bytes, message: str, change: Change | None = None) -> None:
        """Record the change for undo (always) and commit it (git work tree + autocommit), or queue it."""
        from palace.history.undo import UNDO_PREFIX, UndoStack  # not for a process that only reads the memory

        if self.via:
            message = f"{message} (via {self.via})"
        try:
            stack = UndoStack(self.home)
            if message.startswith(UNDO_PREFIX):
                stack.consume_undone(before, after)
            else:
                stack.push(before, after, message, change, session=self.tag.id)
        except OSError as exc:
            if not self._warned:
                self._warned = True
                self.warn(f"cannot keep the undo record ({exc.strerror or exc}) — `undo` will not see it")
        if self._wants_git():
            committer = self._committer
            if committer is not None and file == self.home / MEMORIES and committer.queue(before, after, message):
                self._flush_at_exit()
            else:
                self._commit_now(file, after, message)
        self._warned = False

    def _commit_now(self, file: Path, after: bytes, message: str) -> None:
        try:
            self._check_top()
            paths = [relative_to_home(self.home, file), *self._companions()]
            commit_files(self.home, paths, lambda: self._message(None, message), then=self._clear)
        except GitTrouble as exc:
            self._pending.add(message, sha256_hex(after))
            self._trouble("the change is saved, not committed", exc)

    def _companions(self) -> list[str]:
        """palace's side files (superseded.md, review.md) that a memory change may have written too."""
        named = PalacePaths(self.home)
        return [f.name for f in (named.superseded, named.review) if f.exists()]

    def _flush_at_exit(self) -> None:
        if not self._at_exit:
            self._at_exit = True
            atexit.register(self.flush)

    def flush(self) -> None:
        """Wait for the background commits; what they left is committed now from the work tree (under the
        palace lock: never call this while holding it)."""
        committer = self._committer
        if committer is None:
            return
        committer.wait_idle()
        if committer.ready or not self._wants_git():
            return
        if not any(change.id in committer.fresh for change in self._pending.records()):
            return
        with exclusive(PalacePaths(self.home).lock):  # the store's lock: no write lands meanwhile
            self.commit_pending(self.home / MEMORIES)

    def commit_paths(self, paths: Sequence[Path], message: str) -> bool:
        """Commit these files (e.g. a session archive), after the memory changes before them. False when not
        committed; one warning on trouble."""
        if not self._wants_git() or not paths:
            return False
        self.flush()
        try:
            self._check_top()
            rels = [relative_to_home(self.home, p) for p in paths]
            refresh = self._committer.refresh if self._committer is not None else None
            return commit_files(self.home, rels, message, then=lambda _: refresh(rels) if refresh else None)
        except GitTrouble as exc:
            self.warn(f"{exc} — {message!r} not committed")
            return False


def _digest(file: Path) -> str | None:
    try:
        return sha256_hex(file.read_bytes())
    except OSError:
        return None
