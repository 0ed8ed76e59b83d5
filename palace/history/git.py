"""Palace's git plumbing: git run with one-line errors, and commits of exactly the given paths."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from palace.filelock import exclusive

if TYPE_CHECKING:
    import subprocess

HAND_EDIT_MESSAGE = "memory: hand edit"
_T = TypeVar("_T")
_GIT_TIMEOUT = 30.0
_LOCK_RETRIES = 20  # a busy index.lock is retried this many times...
_LOCK_WAIT = 0.1  # ...this many seconds apart
_STALE_LOCK_SECONDS = 60.0  # without /proc, an index.lock this old counts as left over

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


class GitTrouble(Exception):
    """Git could not do what was asked; the message is one line."""


class Diverged(Exception):
    """HEAD does not hold the versions a change was made on (the user committed, a sync merged, another
    process committed): the background committer leaves the change for a commit of the work tree."""


def _git_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _GIT_LOCATION_VARS}
    env.update(LC_ALL="C", LANGUAGE="C", GIT_TERMINAL_PROMPT="0", GIT_OPTIONAL_LOCKS="0")
    return env


def git_env() -> dict[str, str]:
    """The environment palace runs git in (for a git process started by hand, e.g. a pipe)."""
    return _git_env()


def first_line(raw: bytes) -> str:
    lines = [ln.strip() for ln in raw.decode("utf-8", "replace").splitlines() if ln.strip()]
    for line in lines:
        if line.startswith(("fatal:", "error:")):
            return line
    return lines[0] if lines else ""


def run_git(
    cwd: Path, *args: str, check: bool = True, stdin: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    import subprocess  # only when git runs: `palace memory save` without git never needs it

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
        raise GitTrouble("git is not installed (not found on PATH)") from exc
    except subprocess.TimeoutExpired as exc:
        raise GitTrouble(f"git {args[0]} did not finish in {_GIT_TIMEOUT:.0f} s") from exc
    except OSError as exc:
        raise GitTrouble(f"cannot run git: {exc.strerror}") from exc
    if check and proc.returncode != 0:
        detail = first_line(proc.stderr) or first_line(proc.stdout) or f"exit status {proc.returncode}"
        raise GitTrouble(f"git {args[0]}: {detail}")
    return proc


def is_own_repo(home: Path) -> bool:
    """home is the top of a git work tree (never an enclosing repository of a parent folder)."""
    if not (home / ".git").exists():
        return False
    proc = run_git(home, "rev-parse", "--show-toplevel", check=False)
    if proc.returncode != 0:
        return False
    top = proc.stdout.decode("utf-8", "surrogateescape").strip()
    try:
        return bool(top) and Path(top).resolve() == home.resolve()
    except OSError:
        return False


def identity_args(home: Path) -> list[str]:
    """`-c user.name=palace -c user.email=palace@localhost`, each only when none is configured."""
    proc = run_git(home, "config", "--get-regexp", r"^user\.(name|email)$", check=False)
    keys = {ln.split(" ", 1)[0].lower() for ln in proc.stdout.decode("utf-8", "replace").splitlines()}
    env = os.environ
    args: list[str] = []
    if "user.name" not in keys and not (env.get("GIT_AUTHOR_NAME") and env.get("GIT_COMMITTER_NAME")):
        args += ["-c", "user.name=palace"]
    has_env_email = bool(env.get("EMAIL")) or bool(env.get("GIT_AUTHOR_EMAIL") and env.get("GIT_COMMITTER_EMAIL"))
    if "user.email" not in keys and not has_env_email:
        args += ["-c", "user.email=palace@localhost"]
    return args


def commit_files(
    home: Path,
    rels: Sequence[str],
    message: str | Callable[[], str],
    *,
    then: Callable[[bool], None] | None = None,
) -> bool:
    """Commit exactly these paths; a busy index (the user's own git running) is retried for a moment, a
    stale one (left by a killed git) is named at once with what to do.

    `message` may be a function: it is then asked under the commit lock, so that it names what is pending
    when the commit is made. `then(committed)` runs under the lock too, after the commit (or after finding
    nothing to commit), so that what it records goes with the commit as one step."""
    with commit_lock(home):  # palace's own commits (threads and processes alike) take turns
        text = message() if callable(message) else message
        committed = retry_busy_index(home, lambda: _commit_once(home, rels, text))
        if then is not None:
            then(committed)
        return committed


def retry_busy_index(home: Path, action: Callable[[], _T]) -> _T:
    """action(), retried for a moment while git's index is locked by a git that runs (the user's)."""
    for attempt in range(_LOCK_RETRIES + 1):
        try:
            return action()
        except GitTrouble as exc:
            if "index.lock" not in str(exc):
                raise
            stale = stale_index_lock(home)
            if stale is not None:
                raise GitTrouble(stale_lock_message(stale)) from exc
            if attempt == _LOCK_RETRIES:
                raise
            time.sleep(_LOCK_WAIT)
    raise AssertionError("unreachable")


@contextlib.contextmanager
def commit_lock(home: Path) -> Iterator[None]:
    """A flock inside .git/, so it is never tracked and never outlives the repository."""
    try:
        with exclusive(home / ".git" / "palace-commit.lock"):
            yield
    except OSError as exc:
        raise GitTrouble(f"cannot lock the repository: {exc.strerror}") from exc


def _commit_once(home: Path, rels: Sequence[str], message: str) -> bool:
    """Commit exactly these paths (other staged work is left alone). False when nothing changed."""
    if run_git(home, "symbolic-ref", "-q", "HEAD", check=False).returncode != 0:
        raise GitTrouble("HEAD is detached (a commit is checked out, not a branch)")
    run_git(home, "add", "--", *rels)
    proc = run_git(home, *identity_args(home), "commit", "--no-verify", "-q", "-m", message, "--", *rels, check=False)
    if proc.returncode == 0:
        return True
    text = (proc.stdout + proc.stderr).decode("utf-8", "replace")
    if "nothing to commit" in text or "no changes added to commit" in text:
        return False
    detail = first_line(proc.stderr) or first_line(proc.stdout) or f"exit status {proc.returncode}"
    raise GitTrouble(f"git commit: {detail}")


def has_pending_change(home: Path, rel: str) -> bool:
    """rel differs from HEAD (modified, staged, untracked or deleted)."""
    proc = run_git(home, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--", rel)
    return bool(proc.stdout.strip(b"\0 "))


def relative_to_home(home: Path, path: Path) -> str:
    """path relative to the palace; a symlink itself is named (git tracks the link, not its target)."""
    path = path if path.is_absolute() else home / path
    try:
        return (path.parent.resolve() / path.name).relative_to(home.resolve()).as_posix()
    except ValueError as exc:
        raise GitTrouble(f"{path} is not inside the palace {home}") from exc


def _held_open(lock: Path) -> bool | None:
    """Whether some process has lock open (Linux: /proc/*/fd); None where that cannot be seen."""
    proc = Path("/proc")
    if not (proc / "self" / "fd").is_dir():
        return None
    wanted = os.path.realpath(lock)
    for pid in os.listdir(proc):
        if not pid.isdigit():
            continue
        try:
            fds = os.listdir(proc / pid / "fd")
        except OSError:
            continue  # gone, or another user's process
        for fd in fds:
            try:
                if os.readlink(proc / pid / "fd" / fd) == wanted:
                    return True
            except OSError:
                continue
    return False


def stale_index_lock(home: Path) -> Path | None:
    """git's index.lock when it is left over from a git command that was killed (no process holds it)."""
    lock = home / ".git" / "index.lock"
    try:
        age = time.time() - lock.stat().st_mtime
    except OSError:
        return None
    held = _held_open(lock)
    if held is False or (held is None and age > _STALE_LOCK_SECONDS):
        return lock
    return None


def stale_lock_message(lock: Path) -> str:
    return (
        f"git's {lock} is left over from a git command that was stopped (no git process is using it); "
        f"remove it (`rm {lock}`) and palace commits its changes again"
    )
