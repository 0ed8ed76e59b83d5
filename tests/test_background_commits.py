"""Commits in the background (the REPL's GitHistory): one per change, exact bytes, hand edits on their own,
nothing lost when the process dies, nothing committed twice or backwards when others commit too."""

from __future__ import annotations

import contextlib
import fcntl
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from palace.app import init_palace
from palace.history.autocommit import GitHistory
from palace.history.undo import undo_last
from palace.memory import MemoryStore

DAY = date(2026, 11, 30)


@pytest.fixture(autouse=True)
def hermetic_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Git sees only a test identity: no system or user config."""
    config = tmp_path / "gitconfig"
    config.write_text("[user]\n\tname = Test User\n\temail = test@example.org\n[init]\n\tdefaultBranch = main\n")
    for var in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME", "EMAIL"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")


def git(home: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=home, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
    return done.stdout


def subjects(home: Path) -> list[str]:
    return git(home, "log", "--format=%s").splitlines()


def removed_lines(home: Path) -> list[str]:
    """Lines any commit removed from memories.md (none, when changes only add: nothing went backwards)."""
    log = git(home, "log", "-p", "--format=", "--", "memories.md")
    return [ln for ln in log.splitlines() if ln.startswith("-") and not ln.startswith("---")]


def committed_and_clean(home: Path) -> None:
    assert git(home, "show", "HEAD:memories.md") == (home / "memories.md").read_text()
    assert git(home, "status", "--porcelain") == ""
    assert not (home / ".git" / "palace-uncommitted.jsonl").exists()


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "palace"
    init_palace(home, git=True)
    return home


def background(home: Path, warnings: list[str] | None = None) -> tuple[MemoryStore, GitHistory]:
    history = GitHistory(home, warn=(warnings if warnings is not None else []).append, background=True)
    return MemoryStore(home, hooks=[history], today=lambda: DAY), history


@contextlib.contextmanager
def commit_lock_held(home: Path) -> Iterator[None]:
    """palace's commit lock held by the test: background commits wait meanwhile."""
    fd = os.open(home / ".git" / "palace-commit.lock", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        yield
    finally:
        os.close(fd)


def test_each_change_is_its_own_commit_after_the_save_returns(home: Path) -> None:
    store, history = background(home)
    store.save("Preferences/shells", "The user uses fish")
    store.save("Preferences/shells", "The user uses zsh at work")
    store.save("Preferences/editors", "The user edits with helix")
    store.forget("Preferences/shells", "The user uses zsh at work")
    history.flush()
    assert subjects(home) == [
        "memory: forget Preferences/shells",
        "memory: save Preferences/editors",
        "memory: save Preferences/shells",
        "memory: save Preferences/shells",
        "palace: init",
    ]
    assert "zsh at work" in git(home, "show", "HEAD~1:memories.md")  # each commit holds its change's bytes
    assert "superseded.md" in git(home, "show", "--name-only", "--format=", "HEAD")  # the forget's side file
    committed_and_clean(home)


def test_a_hand_edit_is_committed_on_its_own_with_the_bytes_the_user_left(home: Path) -> None:
    store, history = background(home)
    store.save("Preferences/shells", "The user uses fish")
    with (home / "memories.md").open("a") as handle:
        handle.write("A paragraph written by hand.\n")
    by_hand = (home / "memories.md").read_text()
    (home / "notes.txt").write_text("work in progress\n")
    git(home, "add", "notes.txt")  # the user's own staged work stays staged, out of palace's commits
    store.save("Preferences/shells", "The user uses zsh at work")
    history.flush()
    saved = "memory: save Preferences/shells"
    assert subjects(home)[:3] == [saved, "memory: hand edit", saved]
    assert git(home, "show", "HEAD~1:memories.md") == by_hand
    assert git(home, "status", "--porcelain") == "A  notes.txt\n"
    assert git(home, "show", "HEAD:memories.md") == (home / "memories.md").read_text()


def test_the_change_of_a_user_commit_is_built_on_not_committed_again(home: Path) -> None:
    store, history = background(home)
    store.save("Preferences/shells", "The user uses fish")
    history.flush()
    with (home / "memories.md").open("a") as handle:
        handle.write("Committed by the user.\n")
    git(home, "commit", "-q", "-am", "mine")
    store.save("Preferences/editors", "The user edits with helix")
    history.flush()
    assert subjects(home)[:3] == ["memory: save Preferences/editors", "mine", "memory: save Preferences/shells"]
    assert removed_lines(home) == []
    committed_and_clean(home)


def test_changes_queued_when_the_user_commits_them_are_not_committed_backwards(home: Path) -> None:
    store, history = background(home)
    store.save("Preferences/shells", "The user uses fish")
    history.flush()
    with commit_lock_held(home):  # the committer waits: both changes are still queued when the user commits
        store.save("Preferences/shells", "The user uses zsh")
        store.save("Preferences/editors", "The user edits with helix")
        git(home, "commit", "-q", "-am", "mine")
    history.flush()
    store.save("Decisions/db", "Postgres was chosen")
    history.flush()
    assert subjects(home)[:3] == ["memory: save Decisions/db", "mine", "memory: save Preferences/shells"]
    assert removed_lines(home) == []
    committed_and_clean(home)


def test_undo_after_background_commits(home: Path) -> None:
    store, history = background(home)
    store.save("Preferences/shells", "The user uses fish")
    store.save("Preferences/shells", "The user uses zsh")
    history.flush()
    assert undo_last(store, home) == "Undone: save Preferences/shells"
    history.flush()
    assert subjects(home)[0] == "memory: undo save Preferences/shells"
    assert "zsh" not in (home / "memories.md").read_text()
    committed_and_clean(home)


_KILLED = """
import os, signal, sys
from datetime import date
from pathlib import Path
from palace.history.autocommit import GitHistory
from palace.memory import MemoryStore
home = Path(sys.argv[1])
store = MemoryStore(home, hooks=[GitHistory(home, background=True)], today=lambda: date(2026, 11, 30))
store.save("Preferences/shells", "The user uses fish")
store.save("Preferences/editors", "The user edits with helix")
if sys.argv[2] == "kill":
    os.kill(os.getpid(), signal.SIGKILL)  # before its commits: the test holds palace's commit lock
"""


def test_a_killed_process_s_changes_go_in_with_the_next_change_under_their_names(home: Path) -> None:
    with commit_lock_held(home):
        done = subprocess.run([sys.executable, "-c", _KILLED, str(home), "kill"], capture_output=True, timeout=60)
    assert done.returncode == -9, done.stderr
    assert subjects(home) == ["palace: init"]
    text = (home / "memories.md").read_text()
    assert "fish" in text and "helix" in text  # saved: the file was in place before each save returned
    store, history = background(home)
    store.save("Decisions/db", "Postgres was chosen")
    history.flush()
    assert subjects(home) == [
        "memory: save Decisions/db",
        "memory: 2 changes committed together: save Preferences/shells; save Preferences/editors",
        "palace: init",
    ]
    committed_and_clean(home)


def test_a_process_that_exits_commits_what_it_saved(home: Path) -> None:
    done = subprocess.run([sys.executable, "-c", _KILLED, str(home), "exit"], capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert subjects(home) == ["memory: save Preferences/editors", "memory: save Preferences/shells", "palace: init"]
    committed_and_clean(home)


def test_two_palaces_committing_at_once_never_commit_backwards(home: Path) -> None:
    """A background palace and a palace that commits as it saves, on one repository: whatever order their
    commits land in, every change is in the history once, nothing is removed, and git ends clean."""
    mine, history = background(home)
    theirs = MemoryStore(home, hooks=[GitHistory(home)], today=lambda: DAY)

    def other() -> None:
        for n in range(6):
            theirs.save("Decisions/db", f"Database choice number {n} was made")

    thread = threading.Thread(target=other)
    thread.start()
    for n in range(6):
        mine.save("Preferences/shells", f"Shell number {n} is in use")
    thread.join()
    history.flush()
    log = git(home, "log", "-p", "--format=%s", "--", "memories.md")
    for n in range(6):
        assert f"+- [2026-11-30] Shell number {n} is in use" in log
        assert f"+- [2026-11-30] Database choice number {n} was made" in log
    assert removed_lines(home) == []
    assert not any("hand edit" in s for s in subjects(home))
    committed_and_clean(home)


def test_saves_another_palace_committed_under_a_background_palace_are_not_a_hand_edit(home: Path) -> None:
    """Two palaces commit as they save while the background one waits: the file it next writes on is not
    what it left, but it is what HEAD holds. No hand-edit record is made (whoever commits next would name it)."""
    mine, history = background(home)
    theirs = MemoryStore(home, hooks=[GitHistory(home)], today=lambda: DAY)
    other = MemoryStore(home, hooks=[GitHistory(home)], today=lambda: DAY)
    mine.save("Preferences/shells", "The user uses fish")
    history.flush()
    theirs.save("Decisions/db", "Postgres was chosen")
    other.save("Decisions/queue", "Redis streams carry the jobs")
    with commit_lock_held(home):  # the background commit waits: its records are all there is to see
        mine.save("Preferences/editors", "The user edits with helix")
        pending = (home / ".git" / "palace-uncommitted.jsonl").read_text()
        assert "hand edit" not in pending and "save Preferences/editors" in pending
    theirs.save("Decisions/db", "SQLite for the tests")  # may commit the background palace's change for it
    history.flush()
    assert not any("hand edit" in s for s in subjects(home)), subjects(home)
    names = "\n".join(subjects(home))
    assert names.count("save Preferences/editors") == 1 and names.count("save Decisions/db") == 2
    assert removed_lines(home) == []
    committed_and_clean(home)


def test_a_change_another_background_palace_has_not_committed_yet_is_not_a_hand_edit(home: Path) -> None:
    mine, history = background(home)
    theirs, their_history = background(home)
    mine.save("Preferences/shells", "The user uses fish")
    history.flush()
    with commit_lock_held(home):  # neither committer can go on: the other's change is only a pending record
        theirs.save("Decisions/db", "Postgres was chosen")
        mine.save("Preferences/editors", "The user edits with helix")
        assert "hand edit" not in (home / ".git" / "palace-uncommitted.jsonl").read_text()
    their_history.flush()
    history.flush()
    names = "\n".join(subjects(home))
    assert "hand edit" not in names and names.count("Decisions/db") == 1 and names.count("Preferences/editors") == 1
    assert removed_lines(home) == []
    committed_and_clean(home)


def test_a_change_of_a_palace_that_died_before_committing_is_named_by_the_commit_that_holds_it(
    home: Path,
) -> None:
    """Another background palace saves and dies (SIGKILL-like, no exit handlers) while its commit waits; the
    next change's commit holds its bytes, so it names that change too, and no record is left to name it again."""
    mine, history = background(home)
    mine.save("Preferences/shells", "The user uses fish")
    history.flush()
    script = (
        "import os, sys\n"
        "from pathlib import Path\n"
        "from palace.history.autocommit import GitHistory\n"
        "from palace.memory import MemoryStore\n"
        "home = Path(sys.argv[1])\n"
        "MemoryStore(home, hooks=[GitHistory(home, background=True)]).save('Decisions/db', 'Postgres was chosen')\n"
        "os._exit(0)\n"
    )
    with commit_lock_held(home):  # its committer waits for the lock when the process ends
        done = subprocess.run([sys.executable, "-c", script, str(home)], capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        assert "save Decisions/db" in (home / ".git" / "palace-uncommitted.jsonl").read_text()
        mine.save("Preferences/editors", "The user edits with helix")
    history.flush()
    assert subjects(home)[0] == ("memory: 2 changes committed together: save Decisions/db; save Preferences/editors"), (
        subjects(home)
    )
    assert removed_lines(home) == []
    committed_and_clean(home)


def test_a_hand_edit_under_a_background_palace_after_another_palace_committed_is_still_its_own_commit(
    home: Path,
) -> None:
    mine, history = background(home)
    theirs = MemoryStore(home, hooks=[GitHistory(home)], today=lambda: DAY)
    mine.save("Preferences/shells", "The user uses fish")
    history.flush()
    theirs.save("Decisions/db", "Postgres was chosen")
    with (home / "memories.md").open("a") as handle:
        handle.write("A paragraph written by hand.\n")
    by_hand = (home / "memories.md").read_text()
    mine.save("Preferences/editors", "The user edits with helix")
    history.flush()
    assert subjects(home)[:3] == ["memory: save Preferences/editors", "memory: hand edit", "memory: save Decisions/db"]
    assert git(home, "show", "HEAD~1:memories.md") == by_hand
    committed_and_clean(home)


def test_a_detached_head_costs_one_warning_and_keeps_the_change(home: Path) -> None:
    warnings: list[str] = []
    store, history = background(home, warnings)
    store.save("Preferences/shells", "The user uses fish")
    history.flush()
    git(home, "checkout", "-q", "--detach")
    head = git(home, "rev-parse", "HEAD")
    store.save("Preferences/shells", "The user uses zsh")
    history.flush()
    assert "zsh" in (home / "memories.md").read_text()
    assert git(home, "rev-parse", "HEAD") == head
    assert len(warnings) == 1 and "detached" in warnings[0]
