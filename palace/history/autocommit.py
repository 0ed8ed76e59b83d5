"""The store's write hook that keeps the history: one git commit per change, and the undo record.

Every change palace makes to memories.md is one commit when the palace folder is a git work tree
(and `git.autocommit` is on); a hand edit found before a write is committed first, on its own. Git trouble
never stops a memory change: it costs one warning line. The undo record (history/undo.py) is kept whether
or not there is git. Only the git command line is used (history/git.py).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
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
from palace.paths import PalacePaths


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
        self.via: str | None = None  # where the changes come from, named in each commit (`mcp: claude-code`)
        self._late = _LateCommits(self.home / ".git" / "palace-uncommitted.jsonl")

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
        """Commit what is pending in the memory file first: palace's own changes that could not be committed
        earlier (under their own names), else a hand edit (as its own commit)."""
        self._warned = False
        if not self._wants_git():
            return
        try:
            self._check_top()
            rel = relative_to_home(self.home, file)
            if has_pending_change(self.home, rel):
                commit_files(self.home, [rel], self._late.message(_digest(file)))
                self._late.clear()
        except GitTrouble as exc:
            self._trouble("hand edit not committed", exc)

    def after_write(self, file: Path, before: bytes, after: bytes, message: str) -> None:
        """Record the change for undo (always) and commit it (git work tree + autocommit)."""
        if self.via:
            message = f"{message} (via {self.via})"
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
                paths = [relative_to_home(self.home, file), *self._companions()]
                commit_files(self.home, paths, self._late.message(None, message))
                self._late.clear()
            except GitTrouble as exc:
                self._late.add(message, hashlib.sha256(after).hexdigest())
                self._trouble("the change is saved, not committed", exc)
        self._warned = False

    def _companions(self) -> list[str]:
        """palace's side files (superseded.md, review.md) that a memory change may have written too."""
        named = PalacePaths(self.home)
        return [f.name for f in (named.superseded, named.review) if f.exists()]

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


def _digest(file: Path) -> str | None:
    try:
        return hashlib.sha256(file.read_bytes()).hexdigest()
    except OSError:
        return None


class _LateCommits:
    """palace's changes that git could not commit (a locked index...), kept inside .git until it can, so
    that they are committed under their own names, not as a hand edit."""

    def __init__(self, file: Path) -> None:
        self.file = file

    def _records(self) -> list[dict[str, str]]:
        try:
            lines = self.file.read_text(encoding="utf-8").splitlines()
        except OSError:
            return []
        records = []
        for line in lines:
            with contextlib.suppress(ValueError):
                record = json.loads(line)
                if isinstance(record, dict) and isinstance(record.get("message"), str):
                    records.append({"message": record["message"], "digest": str(record.get("digest"))})
        return records

    def add(self, message: str, digest: str) -> None:
        with contextlib.suppress(OSError), self.file.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps({"message": message, "digest": digest}) + "\n")

    def clear(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.file.unlink()

    def message(self, digest: str | None, current: str | None = None) -> str:
        """The commit message for what is pending: the late changes by name, then `current` (palace's change
        being committed now) or, when the file is not what palace last wrote, the hand edit on top."""
        late = [r["message"] for r in self._records()]
        if not late:
            return current or HAND_EDIT_MESSAGE
        names = [m.removeprefix("memory: ") for m in late]
        if current is not None:
            names.append(current.removeprefix("memory: "))
        elif digest != self._records()[-1]["digest"]:
            names.append("hand edit")
        if len(names) == 1:
            return f"memory: {names[0]} (committed late)"
        return f"memory: {len(names)} changes committed together: " + "; ".join(names)
