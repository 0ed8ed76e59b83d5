"""`palace init --git` and `--project`: git repositories for memory, their ignores, merge driver and lint hook."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

from palace.history.git import GitTrouble, commit_files, has_pending_change, identity_args, is_own_repo, run_git
from palace.memory.contained import create_inside, read_inside, replace_inside
from palace.memory.project import PROJECT_GITIGNORE
from palace.paths import (
    CONFIG,
    INDEX,
    INPUT_HISTORY,
    LOCK,
    MEMORIES,
    PROJECT_DIR,
    PROMPTS,
    REVIEW,
    SESSIONS,
    SUPERSEDED,
)

INIT_MESSAGE = "palace: init"
HOOK_MARKER = "# palace pre-commit hook"
DRIVER_MESSAGE = "palace: merge memories.md with palace's merge driver"
ATTRIBUTE = f"{MEMORIES} merge=palace"
PROJECT_MEMORIES = f"{PROJECT_DIR}/{MEMORIES}"  # a project's shared memory, inside its repository
PROJECT_ATTRIBUTE = f"/{PROJECT_MEMORIES} merge=palace"
PROJECT_UNION = f"/{PROJECT_DIR}/{SUPERSEDED} merge=union"
DRIVER_NAME = "palace: memories.md merged by hall, wing, room and entry"
# What palace only appends to (replaced entries kept, proposals waiting): both sides' lines are kept.
UNION_ATTRIBUTES = (f"{SUPERSEDED} merge=union", f"{REVIEW} merge=union")

PROJECT_STARTER = """\
# Project memory

<!--
This repository's shared memory: palace reads it beside each user's own palace. The format is that of
memories.md: halls (## Preferences, ## Project Knowledge, ## Decisions, ## Workflow Patterns), rooms under them
(### kebab-case-topic), and entries, one line each: "- [YYYY-MM-DD] one short fact". No credentials.
Commit it with the code. Git merges it with palace's merge driver (see .gitattributes); each clone registers the
driver once with `palace init --project`.
-->
"""

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
    """Write or complete .gitignore; True when it changed (a link there is replaced, never written through)."""
    data = read_inside(home, ".gitignore")
    if data is None:
        replace_inside(home, ".gitignore", ("\n".join(GITIGNORE_LINES) + "\n").encode())
        return True
    text = data.decode("utf-8", "surrogateescape")
    present = {ln.strip() for ln in text.splitlines()}
    missing = [ln for ln in GITIGNORE_LINES if not ln.startswith("#") and ln not in present]
    if not missing:
        return False
    prefix = "" if not text or text.endswith("\n") else "\n"
    added = prefix + GITIGNORE_LINES[0] + "\n" + "\n".join(missing) + "\n"
    replace_inside(home, ".gitignore", data + added.encode())
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


def driver_command() -> str:
    """The merge driver git runs (through a shell) for files marked `merge=palace`."""
    return f"{shlex.quote(sys.executable)} -m palace merge-driver %O %A %B %P"


def _ensure_attribute(top: Path, attribute: str) -> bool:
    """Add the attribute line to top/.gitattributes unless it is there; True when it changed. A clone's file is
    another's: a link there is refused when read and never written through."""
    data = read_inside(top, ".gitattributes") or b""
    text = data.decode("utf-8", "surrogateescape")
    if any(line.split() == attribute.split() for line in text.splitlines()):
        return False
    prefix = "" if not text or text.endswith("\n") else "\n"
    replace_inside(top, ".gitattributes", data + f"{prefix}{attribute}\n".encode())
    return True


def _same_setting(current: str, wanted: str) -> bool:
    """Whether a driver setting already says what is wanted: an interpreter with two spellings (a `..`, a
    symlinked venv) is the same interpreter, so the driver is not registered again on every sync."""
    if current == wanted:
        return True
    try:
        have, want = shlex.split(current), shlex.split(wanted)
    except ValueError:
        return False
    if not have or len(have) != len(want) or have[1:] != want[1:]:
        return False
    return os.path.realpath(have[0]) == os.path.realpath(want[0])


def register_merge_driver(top: Path, attribute: str = ATTRIBUTE) -> list[str]:
    """The attribute line in .gitattributes (shared: commit it) and the driver in this clone's own git config
    (never shared: each clone registers it). Idempotent; the lines to show."""
    lines = []
    unions = UNION_ATTRIBUTES if attribute == ATTRIBUTE else (PROJECT_UNION,)
    for line in (attribute, *unions):
        if _ensure_attribute(top, line):
            lines.append(f"added `{line}` to .gitattributes")
    changed = False
    for key, value in (("merge.palace.name", DRIVER_NAME), ("merge.palace.driver", driver_command())):
        current = run_git(top, "config", "--local", "--get", key, check=False).stdout
        if not _same_setting(current.decode("utf-8", "surrogateescape").strip(), value):
            run_git(top, "config", "--local", key, value)
            changed = True
    if changed:
        lines.append("registered palace's merge driver for memories.md in this clone's git config")
    return lines


def _commit_pending(home: Path, names: list[str], message: str) -> bool:
    pending = [name for name in names if (home / name).exists() and has_pending_change(home, name)]
    return bool(pending) and commit_files(home, pending, message)


def prepare_sync(home: Path) -> list[str]:
    """What `palace sync` needs before it merges: .gitignore complete, the merge driver registered, and both
    committed; the lines to show."""
    _ensure_gitignore(home)
    lines = register_merge_driver(home)
    if _commit_pending(home, [".gitattributes", ".gitignore"], DRIVER_MESSAGE):
        lines.append("committed .gitattributes and .gitignore (the other clones merge memories.md alike)")
    return lines


def init_project(cwd: Path) -> list[str]:
    """`palace init --project`: .palace/memories.md in the git repository around cwd, with the merge driver."""
    proc = run_git(cwd, "rev-parse", "--show-toplevel", check=False)
    top_text = proc.stdout.decode("utf-8", "surrogateescape").strip()
    if proc.returncode != 0 or not top_text:
        raise GitTrouble(f"{cwd} is not inside a git repository: run `palace init --project` in your project's folder")
    top = Path(top_text)
    memories = top / PROJECT_MEMORIES
    lines = []
    folder = memories.parent
    if not folder.is_symlink():
        folder.mkdir(exist_ok=True)
    if read_inside(top, PROJECT_MEMORIES) is not None:
        lines.append(f"kept {memories}")
    else:
        create_inside(top, PROJECT_MEMORIES, PROJECT_STARTER.encode("utf-8"))
        lines.append(f"wrote {memories} (the project's shared memory; the comment at its top explains the format)")
    if create_inside(top, f"{PROJECT_DIR}/.gitignore", PROJECT_GITIGNORE.encode("utf-8")):
        lines.append(f"wrote {folder / '.gitignore'} (palace's temporary files stay out of the repository)")
    lines += register_merge_driver(top, PROJECT_ATTRIBUTE)
    lines.append(
        f"commit it for your team: git add {PROJECT_DIR} .gitattributes && git commit -m 'palace: project memory'"
    )
    lines.append("each clone runs `palace init --project` once: git's merge driver setting is per clone")
    return lines


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
    register_merge_driver(home)
    lines.append("memories.md merges with palace's merge driver (.gitattributes; see `palace sync`)")
    has_head = run_git(home, "rev-parse", "-q", "--verify", "HEAD^{commit}", check=False).returncode == 0
    if not has_head:
        paths = [".gitignore", ".gitattributes", MEMORIES] + [p for p in (SESSIONS, PROMPTS) if (home / p).is_dir()]
        run_git(home, "add", "--", *paths)
        run_git(home, *identity_args(home), "commit", "--no-verify", "-q", "-m", INIT_MESSAGE)
        lines.append(f"first commit: {INIT_MESSAGE!r}")
    elif gitignore_changed and commit_files(home, [".gitignore"], "palace: update .gitignore"):
        lines.append("committed the .gitignore update")
    if has_head and _commit_pending(home, [".gitattributes"], DRIVER_MESSAGE):
        lines.append("committed .gitattributes")
    lines.append("git history: on (each memory change is a commit; see `palace log`)")
    return lines
