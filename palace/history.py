"""The palace's history: git autocommits, `palace log`, undo, `palace init` and the editor.

Every change palace makes to memories.md is one commit when the palace folder is a git work tree
(and `git.autocommit` is on); a hand edit found before a write is committed first, on its own. Git trouble
never stops a memory change: it costs one warning line. The undo record (`.index/undo.json`) is kept
whether or not there is git. Only the git command line is used.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Protocol

from palace.errors import HistoryError, PalaceError, UndoError
from palace.filelock import exclusive
from palace.memory.ops import normalise

MEMORIES = "memories.md"
HAND_EDIT_MESSAGE = "memory: hand edit"
UNDO_PREFIX = "memory: undo "
INIT_MESSAGE = "palace: init"
HOOK_MARKER = "# palace pre-commit hook"
UNDO_DEPTH = 10  # undo records kept (newest last)
_UNDO_MAX_BYTES = 4 * 1024 * 1024  # older records are dropped past this many bytes of file content
_GIT_TIMEOUT = 30.0
_LOCK_RETRIES = 20  # a busy index.lock is retried this many times...
_LOCK_WAIT = 0.1  # ...this many seconds apart

# Environment variables that point git at another repository (set, e.g., when palace runs inside a hook).
_GIT_LOCATION_VARS = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_NAMESPACE",
    "GIT_PREFIX",
    "GIT_IMPLICIT_WORK_TREE",
    "GIT_GRAFT_FILE",
    "GIT_SHALLOW_FILE",
)

GITIGNORE_LINES = (
    "# palace: transcripts are private; memories and archives are the history",
    "sessions/*.jsonl",
    ".index/",
    "history.txt",
    ".lock",
    "*.tmp",
    "*.swp",
    "*~",
    "# may hold an API key",
    "config.toml",
)

STARTER_MEMORIES = """\
# Memories

<!--
This file is palace's long-term memory. It is plain markdown: read it, edit it, diff it.
It is organised as a memory palace: Wing / Hall / Room.

Halls are a fixed set: Preferences, Project Knowledge, Decisions, Workflow Patterns.
Rooms are topics, named in kebab-case (programming-languages, frontend-stack).
Wings are scopes, a project or a person (ifai, alice). Halls outside any wing apply everywhere.

  ## Preferences                     a hall: applies everywhere
  ### programming-languages          a room in that hall
  - [2026-11-30] The user writes backends in Rust

  ## ifai                            a wing: any level-2 heading that is not a hall
  ### Project Knowledge              a hall inside the wing
  #### frontend-stack                a room
  - [2026-11-29] The front end is Vue 3 inside Tauri

An entry is one list item on one line: "- [YYYY-MM-DD] what to remember", dated when it was
last saved or confirmed, short (200 characters at most by default), and never a credential.
Everything else (paragraphs, comments like this one, tables, code blocks) is yours: palace keeps
it byte for byte and never reorders it.

Check the file with `palace memory lint`; see its history with `palace log`.
-->
"""


def _stderr_warning(message: str) -> None:
    print(f"palace: warning: {message}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- git plumbing


class _GitTrouble(Exception):
    """Git could not do what was asked; the message is one line."""


def _git_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _GIT_LOCATION_VARS}
    env.update(LC_ALL="C", LANGUAGE="C", GIT_TERMINAL_PROMPT="0", GIT_OPTIONAL_LOCKS="0")
    return env


def _one_line(raw: bytes) -> str:
    lines = [ln.strip() for ln in raw.decode("utf-8", "replace").splitlines() if ln.strip()]
    for line in lines:
        if line.startswith(("fatal:", "error:")):
            return line
    return lines[0] if lines else ""


def _git(cwd: Path, *args: str, check: bool = True, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    try:
        proc = subprocess.run(
            ["git", *args],
            cwd=cwd,
            env=_git_env(),
            input=stdin,
            capture_output=True,
            timeout=_GIT_TIMEOUT,
            check=False,
        )
    except FileNotFoundError as exc:
        raise _GitTrouble("git is not installed (not found on PATH)") from exc
    except subprocess.TimeoutExpired as exc:
        raise _GitTrouble(f"git {args[0]} did not finish in {_GIT_TIMEOUT:.0f} s") from exc
    except OSError as exc:
        raise _GitTrouble(f"cannot run git: {exc.strerror}") from exc
    if check and proc.returncode != 0:
        detail = _one_line(proc.stderr) or _one_line(proc.stdout) or f"exit status {proc.returncode}"
        raise _GitTrouble(f"git {args[0]}: {detail}")
    return proc


def _is_top(home: Path) -> bool:
    """home is the top of a git work tree (never an enclosing repository of a parent folder)."""
    if not (home / ".git").exists():
        return False
    proc = _git(home, "rev-parse", "--show-toplevel", check=False)
    if proc.returncode != 0:
        return False
    top = proc.stdout.decode("utf-8", "surrogateescape").strip()
    try:
        return bool(top) and Path(top).resolve() == home.resolve()
    except OSError:
        return False


def _identity_args(home: Path) -> list[str]:
    """`-c user.name=palace -c user.email=palace@localhost`, each only when none is configured."""
    proc = _git(home, "config", "--get-regexp", r"^user\.(name|email)$", check=False)
    keys = {ln.split(" ", 1)[0].lower() for ln in proc.stdout.decode("utf-8", "replace").splitlines()}
    env = os.environ
    args: list[str] = []
    if "user.name" not in keys and not (env.get("GIT_AUTHOR_NAME") and env.get("GIT_COMMITTER_NAME")):
        args += ["-c", "user.name=palace"]
    has_env_email = bool(env.get("EMAIL")) or bool(env.get("GIT_AUTHOR_EMAIL") and env.get("GIT_COMMITTER_EMAIL"))
    if "user.email" not in keys and not has_env_email:
        args += ["-c", "user.email=palace@localhost"]
    return args


def _commit(home: Path, rels: Sequence[str], message: str) -> bool:
    """Commit exactly these paths; a busy index (the user's own git running) is retried for a moment."""
    with _commit_lock(home):  # palace's own commits (threads and processes alike) take turns
        for attempt in range(_LOCK_RETRIES + 1):
            try:
                return _commit_once(home, rels, message)
            except _GitTrouble as exc:
                if "index.lock" not in str(exc) or attempt == _LOCK_RETRIES:
                    raise
                time.sleep(_LOCK_WAIT)
    raise AssertionError("unreachable")


@contextlib.contextmanager
def _commit_lock(home: Path) -> Iterator[None]:
    """A flock inside .git/, so it is never tracked and never outlives the repository."""
    try:
        with exclusive(home / ".git" / "palace-commit.lock"):
            yield
    except OSError as exc:
        raise _GitTrouble(f"cannot lock the repository: {exc.strerror}") from exc


def _commit_once(home: Path, rels: Sequence[str], message: str) -> bool:
    """Commit exactly these paths (other staged work is left alone). False when nothing changed."""
    if _git(home, "symbolic-ref", "-q", "HEAD", check=False).returncode != 0:
        raise _GitTrouble("HEAD is detached (a commit is checked out, not a branch)")
    _git(home, "add", "--", *rels)
    proc = _git(home, *_identity_args(home), "commit", "--no-verify", "-q", "-m", message, "--", *rels, check=False)
    if proc.returncode == 0:
        return True
    text = (proc.stdout + proc.stderr).decode("utf-8", "replace")
    if "nothing to commit" in text or "no changes added to commit" in text:
        return False
    detail = _one_line(proc.stderr) or _one_line(proc.stdout) or f"exit status {proc.returncode}"
    raise _GitTrouble(f"git commit: {detail}")


def _pending_change(home: Path, rel: str) -> bool:
    """rel differs from HEAD (modified, staged, untracked or deleted)."""
    proc = _git(home, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--", rel)
    return bool(proc.stdout.strip(b"\0 "))


def _rel(home: Path, path: Path) -> str:
    path = path if path.is_absolute() else home / path
    try:
        return path.resolve().relative_to(home.resolve()).as_posix()
    except ValueError as exc:
        raise _GitTrouble(f"{path} is not inside the palace {home}") from exc


# --------------------------------------------------------------------------- undo records


@dataclass
class _UndoRecord:
    id: str
    message: str
    before: bytes
    after: bytes
    time: float = field(default_factory=time.time)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "message": self.message,
            "time": self.time,
            "before": base64.b64encode(self.before).decode("ascii"),
            "after": base64.b64encode(self.after).decode("ascii"),
        }

    @classmethod
    def from_json(cls, data: Any) -> _UndoRecord | None:
        try:
            return cls(
                id=str(data["id"]),
                message=str(data["message"]),
                time=float(data.get("time", 0.0)),
                before=base64.b64decode(data["before"], validate=True),
                after=base64.b64decode(data["after"], validate=True),
            )
        except (KeyError, TypeError, ValueError, AttributeError, binascii.Error):
            return None


class _UndoStack:
    """`.index/undo.json`: the last few changes palace made, newest last, under `.index/undo.lock`."""

    def __init__(self, home: Path) -> None:
        self.dir = home / ".index"
        self.file = self.dir / "undo.json"

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        self.dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        with exclusive(self.dir / "undo.lock"):
            yield

    def load(self) -> list[_UndoRecord]:
        try:
            data = json.loads(self.file.read_bytes())
        except (OSError, ValueError):
            return []
        raw = data.get("records", []) if isinstance(data, dict) else []
        records = [_UndoRecord.from_json(item) for item in raw] if isinstance(raw, list) else []
        return [r for r in records if r is not None]

    def store(self, records: list[_UndoRecord]) -> None:
        records = records[-UNDO_DEPTH:]
        while len(records) > 1 and sum(len(r.before) + len(r.after) for r in records) > _UNDO_MAX_BYTES:
            records = records[1:]
        payload = json.dumps({"version": 1, "records": [r.to_json() for r in records]}).encode()
        fd, tmp = tempfile.mkstemp(prefix=".undo.", suffix=".tmp", dir=self.dir)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(payload)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, 0o600)
            os.replace(tmp, self.file)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    def push(self, before: bytes, after: bytes, message: str) -> None:
        with self.locked():
            records = self.load()
            records.append(_UndoRecord(uuid.uuid4().hex, message, before, after))
            self.store(records)

    def discard(self, record_id: str) -> None:
        with self.locked():
            records = self.load()
            kept = [r for r in records if r.id != record_id]
            if len(kept) != len(records):
                self.store(kept)

    def consume_undone(self, before: bytes, after: bytes) -> None:
        """An undo write (before -> after) consumes the newest record it reverses."""
        with self.locked():
            records = self.load()
            if records and records[-1].after == before and records[-1].before == after:
                self.store(records[:-1])

    def top(self) -> _UndoRecord | None:
        with self.locked():
            records = self.load()
        return records[-1] if records else None


# --------------------------------------------------------------------------- the write hook


class GitHistory:
    """A store write hook: commits each change (git work tree + autocommit) and keeps the undo record."""

    def __init__(
        self,
        home: Path,
        *,
        autocommit: bool = True,
        warn: Callable[[str], None] = _stderr_warning,
    ) -> None:
        self.home = Path(home)
        self.autocommit = autocommit
        self.warn = warn
        self._warned = False  # at most one warning per change (before_write + after_write)

    @property
    def is_repo(self) -> bool:
        """The palace folder is the top of a git work tree (and git runs)."""
        try:
            return _is_top(self.home)
        except _GitTrouble:
            return False

    def _wants_git(self) -> bool:
        # `.git` present is enough to try: if git is missing or broken that is trouble worth a warning.
        return self.autocommit and (self.home / ".git").exists()

    def _trouble(self, what: str, exc: _GitTrouble) -> None:
        if not self._warned:
            self._warned = True
            self.warn(f"{exc} — {what}")

    def _check_top(self) -> bool:
        if _is_top(self.home):
            return True
        raise _GitTrouble(f"{self.home}/.git exists but is not a usable git repository")

    def before_write(self, file: Path) -> None:
        """Commit a pending hand edit of the memory file as its own commit."""
        self._warned = False
        if not self._wants_git():
            return
        try:
            self._check_top()
            rel = _rel(self.home, file)
            if _pending_change(self.home, rel):
                _commit(self.home, [rel], HAND_EDIT_MESSAGE)
        except _GitTrouble as exc:
            self._trouble("hand edit not committed", exc)

    def after_write(self, file: Path, before: bytes, after: bytes, message: str) -> None:
        """Record the change for undo (always) and commit it (git work tree + autocommit)."""
        try:
            stack = _UndoStack(self.home)
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
                _commit(self.home, [_rel(self.home, file)], message)
            except _GitTrouble as exc:
                self._trouble("the change is saved, not committed", exc)
        self._warned = False

    def commit_paths(self, paths: Sequence[Path], message: str) -> bool:
        """Commit these files (e.g. a session archive). False when not committed; one warning on trouble."""
        if not self._wants_git() or not paths:
            return False
        try:
            self._check_top()
            return _commit(self.home, [_rel(self.home, p) for p in paths], message)
        except _GitTrouble as exc:
            self.warn(f"{exc} — {message!r} not committed")
            return False


# --------------------------------------------------------------------------- init


def _write_private(path: Path, data: bytes, mode: int = 0o600) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    os.chmod(path, mode)


def _hook_script() -> str:
    python = shlex.quote(sys.executable)
    return f"""\
#!/bin/sh
{HOOK_MARKER}: lints the staged memories.md with `palace memory lint` (installed by `palace init --git`).
# Palace's own commits skip it; it guards commits you make yourself. Remove this file to turn it off.
top=$(git rev-parse --show-toplevel) || exit 1
git diff --cached --quiet --diff-filter=ACMR -- memories.md && exit 0
PY={python}
FIND='import importlib.util as u, sys; sys.exit(u.find_spec("palace.__main__") is None)'
if [ -x "$PY" ] && "$PY" -c "$FIND" >/dev/null 2>&1; then
    set -- "$PY" -m palace
elif command -v palace >/dev/null 2>&1; then
    set -- palace
else
    echo "palace pre-commit: palace not found; memories.md not linted" >&2
    exit 0
fi
umask 077
staged_dir="$(git rev-parse --absolute-git-dir)/palace-staged"
mkdir -p "$staged_dir" || exit 1
staged="$staged_dir/memories.md"
git show :memories.md > "$staged" || exit 1
PALACE_HOME="$top" "$@" memory lint "$staged"
status=$?
rm -f "$staged"
if [ "$status" -ne 0 ]; then
    echo "palace pre-commit: memories.md has errors (above); fix them or commit with --no-verify" >&2
fi
exit "$status"
"""


def _ensure_gitignore(home: Path) -> bool:
    """Write or complete .gitignore; True when it changed."""
    path = home / ".gitignore"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        _write_private(path, ("\n".join(GITIGNORE_LINES) + "\n").encode(), 0o644)
        return True
    present = {ln.strip() for ln in text.splitlines()}
    missing = [ln for ln in GITIGNORE_LINES if not ln.startswith("#") and ln not in present]
    if not missing:
        return False
    prefix = "" if not text or text.endswith("\n") else "\n"
    with path.open("a", encoding="utf-8") as handle:
        handle.write(prefix + GITIGNORE_LINES[0] + "\n" + "\n".join(missing) + "\n")
    return True


def _install_hook(home: Path) -> str:
    git_dir = Path(_git(home, "rev-parse", "--absolute-git-dir").stdout.decode().strip())
    hook = git_dir / "hooks" / "pre-commit"
    hook.parent.mkdir(parents=True, exist_ok=True)
    script = _hook_script()
    if hook.exists():
        current = hook.read_text(encoding="utf-8", errors="replace")
        if HOOK_MARKER not in current:
            return f"left your own {hook} alone (add `palace memory lint memories.md` to it to lint commits)"
        if current == script:
            note = "pre-commit hook already installed"
        else:
            hook.write_text(script, encoding="utf-8")
            note = "updated the pre-commit hook (palace memory lint)"
    else:
        hook.write_text(script, encoding="utf-8")
        note = "installed a pre-commit hook that runs `palace memory lint` on memories.md"
    hook.chmod(0o755)
    hooks_path = _git(home, "config", "--get", "core.hooksPath", check=False).stdout.decode().strip()
    if hooks_path:
        note += f" (but core.hooksPath={hooks_path} is set, so git will not run it)"
    return note


def init_palace(home: Path, *, git: bool) -> list[str]:
    """Create the palace (and with git=True a repository that autocommits). Idempotent; returns lines."""
    home = Path(home).expanduser()
    lines: list[str] = []
    try:
        if home.exists():
            if not home.is_dir():
                raise HistoryError(f"{home} exists and is not a folder")
            lines.append(f"palace folder: {home} (already there)")
        else:
            home.mkdir(mode=0o700, parents=True)
            os.chmod(home, 0o700)
            lines.append(f"created the palace folder {home}")
        memories = home / MEMORIES
        if memories.exists():
            lines.append(f"kept your {memories}")
        else:
            _write_private(memories, STARTER_MEMORIES.encode("utf-8"))
            lines.append(f"wrote a starter {memories} (the comment at its top explains the format)")
        sessions = home / "sessions"
        if not sessions.exists():
            sessions.mkdir(mode=0o700)
    except OSError as exc:
        raise HistoryError(f"cannot create the palace at {home}: {exc.strerror or exc}") from exc
    if not git:
        if (home / ".git").exists():
            lines.append("git history: on (each memory change is a commit; see `palace log`)")
        else:
            lines.append("git history: off (run `palace init --git` to keep one)")
        return lines
    try:
        lines.extend(_init_git(home))
    except _GitTrouble as exc:
        raise HistoryError(f"the palace is ready at {home}, but its git history is not: {exc}") from exc
    except OSError as exc:
        raise HistoryError(f"cannot set up git in {home}: {exc.strerror or exc}") from exc
    return lines


def _init_git(home: Path) -> list[str]:
    lines: list[str] = []
    if _is_top(home):
        lines.append("git repository: already there")
    else:
        _git(home, "init", "-q")
        if not _is_top(home):
            raise _GitTrouble(f"git init did not make {home} a repository")
        lines.append(f"made {home} a git repository")
    gitignore_changed = _ensure_gitignore(home)
    if gitignore_changed:
        lines.append("wrote .gitignore (journals, .index/, history.txt, .lock, temp files and config.toml stay out)")
    lines.append(_install_hook(home))
    has_head = _git(home, "rev-parse", "-q", "--verify", "HEAD^{commit}", check=False).returncode == 0
    if not has_head:
        paths = [".gitignore", MEMORIES] + [p for p in ("sessions", "prompts") if (home / p).is_dir()]
        _git(home, "add", "--", *paths)
        _git(home, *_identity_args(home), "commit", "--no-verify", "-q", "-m", INIT_MESSAGE)
        lines.append(f"first commit: {INIT_MESSAGE!r}")
    elif gitignore_changed and _commit(home, [".gitignore"], "palace: update .gitignore"):
        lines.append("committed the .gitignore update")
    lines.append("git history: on (each memory change is a commit; see `palace log`)")
    return lines


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
        if not _is_top(home):
            return f"{home} is not a git repository, so memories.md has no history yet.\n{enable}\n"
    except _GitTrouble as exc:
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
        proc = _git(home, *args, "--", MEMORIES, check=False)
    except _GitTrouble as exc:
        return f"Cannot read the history of {home}: {exc}.\n"
    if proc.returncode != 0:
        text = proc.stderr.decode("utf-8", "replace")
        if "does not have any commits" in text:
            return "memories.md has no history yet.\n"
        return f"Cannot read the history of {home}: git log: {_one_line(proc.stderr)}\n"
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


# --------------------------------------------------------------------------- undo


class _RestoringStore(Protocol):
    """What undo needs of palace.memory.store.MemoryStore."""

    def read_bytes(self) -> bytes: ...

    def restore(self, expected: bytes, new: bytes, *, message: str) -> None: ...


_NOTHING = "nothing to undo: palace has made no memory change that is not undone already"
_CHANGED_SINCE = "memories.md changed since that change (hand edit?) — nothing undone; see `palace log`"


def _short(message: str) -> str:
    return message.removeprefix("memory: ")


def _git_last_change(home: Path) -> tuple[str, bytes, bytes]:
    """(message, before, after) of the last palace commit of memories.md; UndoError when there is none."""
    proc = _git(home, "log", "-1", "--format=%H%x1f%s", "--", MEMORIES, check=False)
    line = proc.stdout.decode("utf-8", "replace").strip()
    if proc.returncode != 0 or not line:
        raise UndoError(_NOTHING)
    sha, _, subject = line.partition("\x1f")
    if subject == HAND_EDIT_MESSAGE or not subject.startswith("memory: "):
        raise UndoError("nothing to undo: the last change to memories.md was not made by palace; see `palace log`")
    if subject.startswith(UNDO_PREFIX):
        raise UndoError("nothing to undo: the last change palace made was an undo; see `palace log`")
    after = _git(home, "show", f"{sha}:{MEMORIES}").stdout
    parent = _git(home, "show", f"{sha}^:{MEMORIES}", check=False)
    before = parent.stdout if parent.returncode == 0 else b""
    return subject, before, after


def undo_last(store: _RestoringStore, home: Path) -> str:
    """Revert the last change palace made; UndoError when there is none or the file changed since.

    The undo records (`.index/undo.json`, kept with or without git) form a short stack: each undo
    consumes one, so repeated undos walk back up to UNDO_DEPTH changes. Without a record (e.g. `.index/`
    was deleted) a git palace falls back to its last palace commit.
    """
    home = Path(home).expanduser()
    stack = _UndoStack(home)
    try:
        record = stack.top()
    except OSError:
        record = None
    current = store.read_bytes()
    if record is not None:
        if current != record.after:
            raise UndoError(_CHANGED_SINCE)
        store.restore(record.after, record.before, message=UNDO_PREFIX + _short(record.message))
        with contextlib.suppress(OSError):
            stack.discard(record.id)  # already consumed when a GitHistory hook saw the write
        return f"Undone: {_short(record.message)}"
    try:
        if not _is_top(home):
            raise UndoError(_NOTHING)
        message, before, after = _git_last_change(home)
    except _GitTrouble as exc:
        raise UndoError(f"nothing undone: {exc}") from exc
    if current != after:
        raise UndoError(_CHANGED_SINCE)
    store.restore(after, before, message=UNDO_PREFIX + _short(message))
    return f"Undone: {_short(message)}"


# --------------------------------------------------------------------------- editor


def open_editor(file: Path, *, env: Mapping[str, str] | None = None) -> int:
    """Open $VISUAL, $EDITOR (may carry arguments), else nano, else vi on file; the editor's exit code."""
    env = dict(os.environ if env is None else env)
    search_path = env.get("PATH", os.defpath)
    candidates: list[list[str]] = []
    for var in ("VISUAL", "EDITOR"):
        value = env.get(var, "").strip()
        if not value:
            continue
        try:
            argv = shlex.split(value)
        except ValueError as exc:
            raise PalaceError(f"${var} is not a usable command ({exc}): {value}") from exc
        if argv:
            candidates.append(argv)
    candidates += [["nano"], ["vi"]]
    for argv in candidates:
        exe = shutil.which(argv[0], path=search_path)
        if exe is None:
            continue
        try:
            return subprocess.run([exe, *argv[1:], str(file)], env=env, check=False).returncode
        except OSError as exc:
            raise PalaceError(f"cannot start the editor {argv[0]}: {exc.strerror or exc}") from exc
    tried = ", ".join(argv[0] for argv in candidates)
    raise PalaceError(f"no editor found (tried {tried}); set $EDITOR, e.g. `export EDITOR=nano`")
