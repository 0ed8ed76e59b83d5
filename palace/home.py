"""`palace init` (folder, starter memories.md, `--git` repository, .gitignore, pre-commit hook) and the editor."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from palace.errors import HistoryError, PalaceError
from palace.git import MEMORIES, GitTrouble, commit_files, identity_args, is_own_repo, run_git

INIT_MESSAGE = "palace: init"
HOOK_MARKER = "# palace pre-commit hook"

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
    git_dir = Path(run_git(home, "rev-parse", "--absolute-git-dir").stdout.decode().strip())
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
    hooks_path = run_git(home, "config", "--get", "core.hooksPath", check=False).stdout.decode().strip()
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
    except GitTrouble as exc:
        raise HistoryError(f"the palace is ready at {home}, but its git history is not: {exc}") from exc
    except OSError as exc:
        raise HistoryError(f"cannot set up git in {home}: {exc.strerror or exc}") from exc
    return lines


def _init_git(home: Path) -> list[str]:
    lines: list[str] = []
    if is_own_repo(home):
        lines.append("git repository: already there")
    else:
        run_git(home, "init", "-q")
        if not is_own_repo(home):
            raise GitTrouble(f"git init did not make {home} a repository")
        lines.append(f"made {home} a git repository")
    gitignore_changed = _ensure_gitignore(home)
    if gitignore_changed:
        lines.append("wrote .gitignore (journals, .index/, history.txt, .lock, temp files and config.toml stay out)")
    lines.append(_install_hook(home))
    has_head = run_git(home, "rev-parse", "-q", "--verify", "HEAD^{commit}", check=False).returncode == 0
    if not has_head:
        paths = [".gitignore", MEMORIES] + [p for p in ("sessions", "prompts") if (home / p).is_dir()]
        run_git(home, "add", "--", *paths)
        run_git(home, *identity_args(home), "commit", "--no-verify", "-q", "-m", INIT_MESSAGE)
        lines.append(f"first commit: {INIT_MESSAGE!r}")
    elif gitignore_changed and commit_files(home, [".gitignore"], "palace: update .gitignore"):
        lines.append("committed the .gitignore update")
    lines.append("git history: on (each memory change is a commit; see `palace log`)")
    return lines


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
