"""`palace init --git`: the palace folder as a git repository, its .gitignore and the lint pre-commit hook."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

from palace.history.git import GitTrouble, commit_files, identity_args, is_own_repo, run_git
from palace.paths import CONFIG, INDEX, INPUT_HISTORY, LOCK, MEMORIES, PROMPTS, SESSIONS

INIT_MESSAGE = "palace: init"
HOOK_MARKER = "# palace pre-commit hook"

GITIGNORE_LINES = (
    "# palace: transcripts are private; memories and archives are the history",
    f"{SESSIONS}/*.jsonl",
    f"{SESSIONS}/.live/",
    f"{INDEX}/",
    INPUT_HISTORY,
    LOCK,
    "*.tmp",
    "*.swp",
    "*~",
    "# may hold an API key",
    CONFIG,
)


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


def init_git(home: Path) -> list[str]:
    """Make home a git repository that records palace's changes (idempotent); the lines to show."""
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
        paths = [".gitignore", MEMORIES] + [p for p in (SESSIONS, PROMPTS) if (home / p).is_dir()]
        run_git(home, "add", "--", *paths)
        run_git(home, *identity_args(home), "commit", "--no-verify", "-q", "-m", INIT_MESSAGE)
        lines.append(f"first commit: {INIT_MESSAGE!r}")
    elif gitignore_changed and commit_files(home, [".gitignore"], "palace: update .gitignore"):
        lines.append("committed the .gitignore update")
    lines.append("git history: on (each memory change is a commit; see `palace log`)")
    return lines
