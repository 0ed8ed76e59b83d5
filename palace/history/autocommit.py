"""The store's write hook that keeps the history: one git commit per change, and the undo record.

Every change palace makes to memories.md is one commit when the palace folder is a git work tree
(and `git.autocommit` is on); a hand edit found before a write is committed first, on its own. Git trouble
never stops a memory change: it costs one warning line. The undo record (history/undo.py) is kept whether
or not there is git. Only the git command line is used (history/git.py).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from palace.history.git import (
    HAND_EDIT_MESSAGE,
    GitTrouble,
    commit_files,
    has_pending_change,
    is_own_repo,
    relative_to_home,
)
from palace.history.undo import UNDO_PREFIX, UndoStack


def stderr_warning(message: str) -> None:
    print(f"palace: warning: {message}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- the write hook


class GitHistory:
    """A store write hook: commits each change (git work tree + autocommit) and keeps the undo record."""

    def __init__(
        self,
        home: Path,
        *,
        autocommit: bool = True,
        warn: Callable[[str], None] = stderr_warning,
    ) -> None:
        self.home = Path(home)
        self.autocommit = autocommit
        self.warn = warn
        self._warned = False  # at most one warning per change (before_write + after_write)

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
            self.warn(f"{exc} — {what}")

    def _check_top(self) -> bool:
        if is_own_repo(self.home):
            return True
        raise GitTrouble(f"{self.home}/.git exists but is not a usable git repository")

    def before_write(self, file: Path) -> None:
        """Commit a pending hand edit of the memory file as its own commit."""
        self._warned = False
        if not self._wants_git():
            return
        try:
            self._check_top()
            rel = relative_to_home(self.home, file)
            if has_pending_change(self.home, rel):
                commit_files(self.home, [rel], HAND_EDIT_MESSAGE)
        except GitTrouble as exc:
            self._trouble("hand edit not committed", exc)

    def after_write(self, file: Path, before: bytes, after: bytes, message: str) -> None:
        """Record the change for undo (always) and commit it (git work tree + autocommit)."""
        try:
            stack = UndoStack(self.home)
            if message.startswith(UNDO_PREFIX):
                stack.consume_undone(before, after)
            else:
                stack.push(before, after, message)
        except OSError as exc:
            if not self._warned:
                self._warned = True
                self.warn(f"cannot keep the undo record ({exc.strerror or exc}) — `undo` will not see it")
        if self._wants_git():
            try:
                self._check_top()
                commit_files(self.home, [relative_to_home(self.home, file)], message)
            except GitTrouble as exc:
                self._trouble("the change is saved, not committed", exc)
        self._warned = False

    def commit_paths(self, paths: Sequence[Path], message: str) -> bool:
        """Commit these files (e.g. a session archive). False when not committed; one warning on trouble."""
        if not self._wants_git() or not paths:
            return False
        try:
            self._check_top()
            return commit_files(self.home, [relative_to_home(self.home, p) for p in paths], message)
        except GitTrouble as exc:
            self.warn(f"{exc} — {message!r} not committed")
            return False
