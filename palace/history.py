"""The palace's history: git autocommits and `palace log`.

Every change palace makes to memories.md is one commit when the palace folder is a git work tree
(and `git.autocommit` is on); a hand edit found before a write is committed first, on its own. Git trouble
never stops a memory change: it costs one warning line. The undo record (`.index/undo.json`, palace/undo.py)
is kept whether or not there is git. Only the git command line is used (palace/git.py).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from palace.git import (
    HAND_EDIT_MESSAGE,
    MEMORIES,
    GitTrouble,
    commit_files,
    first_line,
    has_pending_change,
    is_own_repo,
    relative_to_home,
    run_git,
)
from palace.memory.ops import normalise
from palace.undo import UNDO_PREFIX, UndoStack


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


# --------------------------------------------------------------------------- log

_ENTRY_RE = re.compile(r"^ {0,3}[-*+][ \t]+(?:\[(\d{4}-\d{2}-\d{2})\][ \t]*)?(.*?)\s*$")
_HEADING_RE = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


class _Outline:
    """Tracks the Wing/Hall/Room headings above a line (display only; fences and comments skipped)."""

    def __init__(self) -> None:
        self.levels: dict[int, str] = {}
        self.fence: str | None = None
        self.comment = False

    def feed(self, line: str) -> str:
        """Kind of the line: 'entry', 'heading', 'blank' or 'other' (and update the outline)."""
        if self.fence is not None:
            if line.strip().startswith(self.fence):
                self.fence = None
            return "other"
        if self.comment:
            if "-->" in line:
                self.comment = False
            return "other"
        if not line.strip():
            return "blank"
        fence = _FENCE_RE.match(line)
        if fence:
            self.fence = fence.group(1)[0] * 3
            return "other"
        if line.lstrip().startswith("<!--"):
            self.comment = "-->" not in line
            return "other"
        heading = _HEADING_RE.match(line)
        if heading:
            level = len(heading.group(1))
            if level >= 2:
                self.levels = {k: v for k, v in self.levels.items() if k < level}
                self.levels[level] = heading.group(2)
            return "heading"
        return "entry" if _ENTRY_RE.match(line) else "other"

    @property
    def path(self) -> str:
        return "/".join(self.levels[k] for k in sorted(self.levels)) or "(top)"


@dataclass
class _Change:
    sign: str
    path: str
    date: str
    content: str


def _diff_changes(body: list[str]) -> tuple[list[_Change], int]:
    """Entry changes of one whole-file diff, and how many other lines changed."""
    old, new = _Outline(), _Outline()
    changes: list[_Change] = []
    headings: list[str] = []
    other = 0
    in_hunk = False
    for raw in body:
        if raw.startswith("@@"):
            in_hunk = True
            continue
        if not in_hunk or not raw or raw[0] not in " +-":
            continue
        sign, line = raw[0], raw[1:].rstrip("\r")
        if sign == " ":
            old.feed(line)
            new.feed(line)
            continue
        outline = old if sign == "-" else new
        kind = outline.feed(line)
        if kind == "entry":
            match = _ENTRY_RE.match(line)
            assert match is not None
            changes.append(_Change(sign, outline.path, match.group(1) or "", match.group(2)))
        elif kind == "heading":
            headings.append(outline.path)
        elif kind == "other":
            other += 1
    other += sum(1 for h in headings if not any(c.path.startswith(h) for c in changes))
    return changes, other


def _pair_refreshes(changes: list[_Change]) -> list[_Change]:
    removed = [c for c in changes if c.sign == "-"]
    result: list[_Change] = []
    for change in changes:
        if change.sign == "-":
            continue
        key = normalise(change.content)
        twin = next((r for r in removed if r.path == change.path and normalise(r.content) == key), None)
        if twin is not None:
            removed.remove(twin)
            result.append(_Change("~", change.path, change.date, change.content))
        else:
            result.append(change)
    return removed + result


def _who(subject: str, author: str) -> str:
    if subject == HAND_EDIT_MESSAGE:
        return "hand edit"
    if subject.startswith(("memory: ", "session: ", "palace: ")):
        return "palace: " + subject.split(": ", 1)[1]
    return f"commit by {author}: {subject}"


def history_log(home: Path, *, since: date | None = None) -> str:
    """The history of memories.md, readable without knowing git."""
    home = Path(home).expanduser()
    enable = (
        "Run `palace init --git` to keep one: every memory change (by palace or by hand) becomes a "
        "git commit, and `palace log` shows them."
    )
    try:
        if not is_own_repo(home):
            return f"{home} is not a git repository, so memories.md has no history yet.\n{enable}\n"
    except GitTrouble as exc:
        return f"Cannot read the history of {home}: {exc}.\n"
    args = [
        "log",
        "-p",
        "--no-color",
        "--no-ext-diff",
        "--no-textconv",
        "--text",
        "--no-renames",
        "--unified=1000000",
        "--format=%x1e%H%x1f%ad%x1f%an%x1f%s",
        "--date=format:%Y-%m-%d %H:%M",
    ]
    if since is not None:
        args.append(f"--since={since.isoformat()} 00:00:00")
    try:
        proc = run_git(home, *args, "--", MEMORIES, check=False)
    except GitTrouble as exc:
        return f"Cannot read the history of {home}: {exc}.\n"
    if proc.returncode != 0:
        text = proc.stderr.decode("utf-8", "replace")
        if "does not have any commits" in text:
            return "memories.md has no history yet.\n"
        return f"Cannot read the history of {home}: git log: {first_line(proc.stderr)}\n"
    out: list[str] = []
    for chunk in proc.stdout.decode("utf-8", "replace").split("\x1e")[1:]:
        header, _, diff = chunk.partition("\n")
        parts = header.split("\x1f")
        if len(parts) < 4:
            continue
        _sha, when, author, subject = parts[0], parts[1], parts[2], "\x1f".join(parts[3:])
        diff_lines = diff.splitlines()
        changes, other = _diff_changes(diff_lines)
        body: list[str] = []
        if any(line.startswith("new file mode") for line in diff_lines[:6]):
            body.append("    created memories.md")
            other = 0
        elif any(line.startswith("deleted file mode") for line in diff_lines[:6]):
            body.append("    deleted memories.md")
            other = 0
        for change in _pair_refreshes(changes):
            suffix = "  (date refreshed)" if change.sign == "~" else ""
            body.append(f"    {change.sign} {change.path}: {change.content}{suffix}")
        if other:
            body.append(f"    ({other} other line{'s' if other != 1 else ''} changed)")
        out.append(f"{when}  {_who(subject, author)}")
        out.extend(body or ["    (no visible change)"])
        out.append("")
    if not out:
        if since is not None:
            return f"No changes to memories.md since {since.isoformat()}.\n"
        return "memories.md has no history yet.\n"
    legend = "History of memories.md, newest first (+ added, - forgotten, ~ refreshed):\n\n"
    return legend + "\n".join(out)
