"""`palace sync` and `palace init --project` with real git: a bare repository as the remote, palaces as machines.

Each machine is a palace folder with its own git history; they share memories.md and the session archives
through the remote, and git merges memories.md with palace's merge driver (a real `python -m palace
merge-driver` run by git). No network: the remote is a local path.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

import pytest
from test_merge import ROOMS, Machine, expected_merge

from palace.app import init_palace
from palace.errors import HistoryError
from palace.history.autocommit import GitHistory
from palace.history.changelog import ChangeLog
from palace.history.repo import PROJECT_ATTRIBUTE, driver_command
from palace.history.sync import sync
from palace.memory import ops
from palace.memory.document import Document
from palace.memory.halls import parse_path
from palace.memory.store import MemoryStore

# memories.md by palace's driver; the files palace only appends to keep both sides' lines.
ATTRIBUTES = "memories.md merge=palace\nsuperseded.md merge=union\nreview.md merge=union\n"
IDENTITY = {
    "GIT_AUTHOR_NAME": "Test User",
    "GIT_AUTHOR_EMAIL": "test@example.org",
    "GIT_COMMITTER_NAME": "Test User",
    "GIT_COMMITTER_EMAIL": "test@example.org",
}


@pytest.fixture(autouse=True)
def hermetic_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Git sees only a test config (branch main) and a test identity; nothing reaches the network."""
    home = tmp_path / "userhome"
    home.mkdir()
    config = home / "gitconfig"
    config.write_text("[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n")
    for var in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "EMAIL", "PALACE_HOME"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for var, value in IDENTITY.items():
        monkeypatch.setenv(var, value)


def git(cwd: Path, *args: str, check: bool = True) -> str:
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    if check and proc.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {proc.stderr}")
    return proc.stdout


def palace_cli(home: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PALACE_HOME": str(home), "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "palace", *args], cwd=cwd or home.parent, env=env, capture_output=True, text=True
    )


class Day:
    def __init__(self, value: date) -> None:
        self.value = value

    def __call__(self) -> date:
        return self.value


class Palace:
    """One machine: a palace with git history, its store, and what it should hold."""

    def __init__(self, home: Path) -> None:
        self.home = home
        init_palace(home, git=True)
        self.day = Day(date(2026, 1, 1))
        self.store = MemoryStore(home, hooks=[GitHistory(home)], today=self.day)
        self.model: dict[tuple[str, str], str] = {}
        self.notes: set[str] = set()

    @property
    def data(self) -> bytes:
        return (self.home / "memories.md").read_bytes()

    def save(self, path: str, content: str) -> None:
        self.store.save(path, content)
        self.model[(str(parse_path(path)), content)] = self.day.value.isoformat()

    def hand_note(self, path: str, note: str) -> None:
        """A hand edit: a line under the room's heading, written to the file (not committed)."""
        doc = Document.parse(self.data)
        rooms = doc.room_sections(parse_path(path))
        if rooms:
            at = rooms[0].heading.end
            (self.home / "memories.md").write_bytes(doc.splice(at, at, [note, ""]))
            self.notes.add(note)

    def step(self, rng: random.Random, name: str, parity: int) -> None:
        """One random save, refresh, forget or hand edit, a day later."""
        self.day.value += timedelta(days=1)
        kind = rng.choice(["save", "save", "shared", "refresh", "forget", "note"])
        number = rng.randrange(1000)
        room = rng.randrange(len(ROOMS))
        known = sorted(self.model)
        if kind == "save":
            self.save(ROOMS[room], f"{name}{number} fact{name}{number} detail{name}{number}")
        elif kind == "shared":
            self.save(ROOMS[number % len(ROOMS)], f"shared{number % 12} common{number % 12}")
        elif kind in {"refresh", "forget"} and known:
            path, content = known[number % len(known)]
            if kind == "refresh":
                self.save(path, content)
            else:
                self.store.forget(path, content)
                del self.model[(path, content)]
        elif kind == "note" and room % 2 == parity:
            self.hand_note(ROOMS[room], f"Note {name}{number} written by hand on day {self.day.value}.")

    def machine(self) -> Machine:
        return Machine("", self.data, dict(self.model), set(self.notes))


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    path = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(path))
    return path


@pytest.fixture
def machines(tmp_path: Path, remote: Path) -> Iterator[tuple[Palace, Palace]]:
    """Two palaces that have synced once with the remote (the laptop first, then the desktop)."""
    laptop, desktop = Palace(tmp_path / "laptop"), Palace(tmp_path / "desktop")
    assert sync(laptop.home, str(remote)).code == 0
    assert sync(desktop.home, str(remote)).code == 0
    assert sync(laptop.home).code == 0
    yield laptop, desktop


def remote_file(remote: Path, path: str = "memories.md") -> str:
    return git(remote, "show", f"main:{path}")


def head(home: Path) -> str:
    return git(home, "rev-parse", "HEAD").strip()


def clean(home: Path) -> None:
    """No merge half done, no lock left, nothing uncommitted."""
    assert git(home, "rev-parse", "-q", "--verify", "MERGE_HEAD", check=False) == ""
    assert not (home / ".git" / "index.lock").exists()
    assert git(home, "status", "--porcelain") == ""


# --------------------------------------------------------------------------- set-up and the first syncs


def test_sync_asks_for_git_first_and_then_for_a_remote(tmp_path: Path) -> None:
    home = tmp_path / "plain"
    init_palace(home, git=False)
    with pytest.raises(HistoryError, match=r"run `palace init --git` first"):
        sync(home)
    init_palace(home, git=True)
    with pytest.raises(HistoryError, match=r"run `palace sync --remote URL` once"):
        sync(home)
    proc = palace_cli(home, "sync")
    assert proc.returncode == 1 and "palace sync --remote URL" in proc.stderr


def test_init_git_registers_the_merge_driver_and_commits_gitattributes(tmp_path: Path) -> None:
    home = tmp_path / "p"
    init_palace(home, git=True)
    assert (home / ".gitattributes").read_text() == ATTRIBUTES
    assert git(home, "ls-files", ".gitattributes").strip() == ".gitattributes"
    assert git(home, "config", "merge.palace.driver").strip() == driver_command()
    assert git(home, "check-attr", "merge", "memories.md").strip() == "memories.md: merge: palace"
    assert git(home, "check-attr", "merge", "superseded.md").strip() == "superseded.md: merge: union"
    init_palace(home, git=True)  # idempotent
    assert (home / ".gitattributes").read_text() == ATTRIBUTES


def test_first_sync_pushes_sets_upstream_and_a_second_sync_is_a_no_op(tmp_path: Path, remote: Path) -> None:
    laptop = Palace(tmp_path / "laptop")
    laptop.save("Preferences/editors", "The user edits with vim")
    proc = palace_cli(laptop.home, "sync", "--remote", str(remote))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [f"palace sync: remote origin: {remote}", "palace sync: pushed to origin/main"]
    assert git(laptop.home, "rev-parse", "--abbrev-ref", "main@{upstream}").strip() == "origin/main"
    assert "The user edits with vim" in remote_file(remote)
    before = head(laptop.home)
    proc = palace_cli(laptop.home, "sync")
    assert proc.stdout == f"palace sync: up to date with origin ({remote})\n" and proc.returncode == 0
    assert head(laptop.home) == before
    clean(laptop.home)


def test_the_first_sync_of_a_palace_with_its_own_history_joins_the_two(tmp_path: Path, remote: Path) -> None:
    laptop, desktop = Palace(tmp_path / "laptop"), Palace(tmp_path / "desktop")
    laptop.save("Preferences/editors", "The user edits with vim")
    desktop.save("Decisions/database", "Postgres chosen")
    sync(laptop.home, str(remote))
    outcome = sync(desktop.home, str(remote))
    assert outcome.code == 0 and "pushed to origin/main" in outcome.lines
    sync(laptop.home)
    for machine in (laptop, desktop):
        contents = {e.content for e in Document.parse(machine.data).entries if e.path}
        assert contents == {"The user edits with vim", "Postgres chosen"}
        clean(machine.home)
    assert laptop.data == desktop.data
    assert "<<<<<<<" not in laptop.data.decode() and laptop.data.count(b"<!-- palace's memory") == 1


def test_only_memories_and_session_archives_leave_the_machine(machines: tuple[Palace, Palace], remote: Path) -> None:
    laptop, _ = machines
    sessions = laptop.home / "sessions"
    (sessions / "2026-01-05-abcdef12.md").write_text("# Session archive\n")
    (sessions / "2026-01-05-abcdef12.jsonl").write_text("{}\n")
    (sessions / ".live").mkdir()
    (sessions / ".live" / "123.json").write_text("{}\n")
    (laptop.home / ".index").mkdir()
    (laptop.home / ".index" / "fts.db").write_text("x")
    (laptop.home / "config.toml").write_text('api_key = "sk-not-for-the-remote"\n')
    outcome = sync(laptop.home)
    assert "committed what was pending (hand edits, session archives)" in outcome.lines
    shared = set(git(remote, "ls-tree", "-r", "--name-only", "main").split())
    assert shared == {".gitattributes", ".gitignore", "memories.md", "sessions/2026-01-05-abcdef12.md"}


def test_a_hand_edit_is_committed_as_such_before_the_sync(machines: tuple[Palace, Palace]) -> None:
    laptop, desktop = machines
    laptop.save("Preferences/editors", "The user edits with vim")
    laptop.hand_note("Preferences/editors", "Vim, not Neovim: the plugins differ.")
    sync(laptop.home)
    assert git(laptop.home, "log", "-1", "--format=%s").strip() == "memory: hand edit"
    sync(desktop.home)
    assert "Vim, not Neovim: the plugins differ." in desktop.data.decode()


def test_a_plain_git_clone_gets_the_driver_registered_by_its_first_sync(
    machines: tuple[Palace, Palace], tmp_path: Path, remote: Path
) -> None:
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(remote), str(clone))
    assert git(clone, "config", "--get", "merge.palace.driver", check=False) == ""
    outcome = sync(clone)
    assert "registered palace's merge driver for memories.md in this clone's git config" in outcome.lines
    assert git(clone, "config", "merge.palace.driver").strip() == driver_command()


# --------------------------------------------------------------------------- machines working at once


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_concurrent_work_on_two_machines_merges_with_no_markers_and_no_lost_line(
    machines: tuple[Palace, Palace], remote: Path, seed: int
) -> None:
    laptop, desktop = machines
    rng = random.Random(seed)
    for day in (laptop.day, desktop.day):
        day.value = date(2026, 2, 1)
    for _ in range(3):
        base = laptop.machine()  # both machines hold this after the last round
        for _ in range(rng.randrange(2, 7)):
            laptop.step(rng, "l", parity=0)
            desktop.step(rng, "d", parity=1)
        want, _kept = expected_merge(base, desktop.machine(), laptop.machine())
        for machine in (laptop, desktop, laptop):
            outcome = sync(machine.home)
            assert outcome.code == 0 and outcome.conflicts == [], outcome
            assert not [line for line in outcome.lines if "driver did not run" in line]  # git ran palace's driver
        assert laptop.data == desktop.data == remote_file(remote).encode()
        got = sorted((str(e.path), e.content, e.date) for e in Document.parse(laptop.data).entries if e.path)
        assert got == want
        text = laptop.data.decode()
        assert "<<<<<<<" not in text and ">>>>>>>" not in text
        for note in laptop.notes | desktop.notes:
            assert text.splitlines().count(note) == 1, note
        for machine in (laptop, desktop):
            machine.model = {(path, content): day or "" for path, content, day in want}
            machine.notes = laptop.notes | desktop.notes
        clean(laptop.home)
        clean(desktop.home)


def test_a_true_conflict_is_left_in_its_room_explained_and_finished_by_the_next_sync(
    machines: tuple[Palace, Palace], remote: Path
) -> None:
    laptop, desktop = machines
    old = "The user edits with vim every day"
    laptop.save("Preferences/editors", old)
    laptop.save("Preferences/editors", "Tabs are four spaces")
    sync(laptop.home)
    sync(desktop.home)
    laptop.store.save("Preferences/editors", "The user edits with neovim every day", replaces=old)
    laptop.save("Decisions/database", "Postgres chosen")
    desktop.store.save("Preferences/editors", "The user edits with helix every day", replaces=old)
    desktop.save("Preferences/shells", "zsh with starship")
    sync(laptop.home)
    proc = palace_cli(desktop.home, "sync")
    assert proc.returncode == 1
    text = desktop.data.decode()
    lines = text.splitlines()
    start = lines.index("<<<<<<< ours")
    assert lines[start - 1] == "### editors" and lines[start + 4] == ">>>>>>> theirs"
    assert text.count("<<<<<<<") == 1 and "Postgres chosen" in text and "zsh with starship" in text
    where = f"memories.md:{start + 1}: error: an unresolved merge conflict in Preferences/editors (lines {start + 1}-"
    assert where in proc.stderr and "then run `palace sync` again" in proc.stderr
    lint = palace_cli(desktop.home, "memory", "lint")
    assert lint.returncode == 1 and "an unresolved merge conflict in Preferences/editors" in lint.stderr
    assert "keep one side (or write what both should say), delete the markers" in lint.stderr
    assert palace_cli(desktop.home, "sync").returncode == 1  # still there: nothing is committed or pushed
    saved = palace_cli(desktop.home, "memory", "save", "Preferences/terminals", "The user runs kitty")
    assert saved.returncode == 0 and "Saved to Preferences/terminals" in saved.stdout  # a save still works
    assert "it is committed after the conflict `palace sync` left in memories.md is resolved" in saved.stdout
    assert "fatal" not in saved.stdout + saved.stderr and "hand edit" not in saved.stdout + saved.stderr
    lines = desktop.data.decode().splitlines()
    start = lines.index("<<<<<<< ours")
    assert "helix" not in remote_file(remote)
    assert lines[start + 1 : start + 4] == [
        "- [2026-01-01] The user edits with helix every day",
        "=======",
        "- [2026-01-01] The user edits with neovim every day",
    ]
    kept = [*lines[:start], lines[start + 1], *lines[start + 5 :]]  # the user keeps this machine's side
    (desktop.home / "memories.md").write_text("\n".join(kept) + "\n")
    proc = palace_cli(desktop.home, "sync")
    assert proc.returncode == 0, proc.stderr
    assert "palace sync: finished the merge the last sync left" in proc.stdout.splitlines()
    sync(laptop.home)
    assert laptop.data == desktop.data
    contents = {e.content for e in Document.parse(laptop.data).entries if e.path}
    assert contents == {
        "The user edits with helix every day",
        "Tabs are four spaces",
        "Postgres chosen",
        "zsh with starship",
        "The user runs kitty",  # saved during the conflict, committed with the finished merge
    }
    clean(desktop.home)


def test_an_unreachable_remote_costs_one_warning_and_loses_nothing(
    machines: tuple[Palace, Palace], remote: Path, tmp_path: Path
) -> None:
    laptop, desktop = machines
    laptop.save("Preferences/editors", "The user edits with vim")
    laptop.hand_note("Preferences/editors", "Written on the train.")
    away = tmp_path / "away.git"
    remote.rename(away)
    proc = palace_cli(laptop.home, "sync")
    assert proc.returncode == 0
    warnings = [line for line in proc.stdout.splitlines() if line.startswith("! ")]
    assert len(warnings) == 1 and proc.stderr == ""
    assert warnings[0].startswith("! palace sync: cannot reach origin (")
    assert warnings[0].endswith("): your changes are committed locally and will go up at the next sync")
    assert git(laptop.home, "status", "--porcelain") == ""  # the hand edit is committed
    away.rename(remote)
    assert "pushed to origin/main" in sync(laptop.home).lines
    sync(desktop.home)
    assert "Written on the train." in desktop.data.decode()


# --------------------------------------------------------------------------- a sync stopped anywhere

# The child runs `palace sync` with git's runner wrapped: before the named git command it says so on stdout
# and waits on stdin; for "driver", the merge driver itself says so (on the child's stdout) and waits.
CHILD = """
import os, sys
import palace.history.repo as repo
import palace.history.sync as sync_module

point, wrapper = sys.argv[1], sys.argv[2]
real = sync_module.run_git

def command(args):
    at = 0
    while at < len(args) and args[at] == "-c":
        at += 2
    return args[at] if at < len(args) else ""

def run_git(cwd, *args, **kwargs):
    if command(args) == point:
        print(f"@@ before {point}", flush=True)
        sys.stdin.readline()
    return real(cwd, *args, **kwargs)

sync_module.run_git = run_git
if point == "driver":
    signal_to = f"/proc/{os.getpid()}/fd/1"
    repo.driver_command = lambda: f"{sys.executable} {wrapper} {signal_to} %O %A %B %P"
from palace.ui.cli import main
sys.exit(main(["sync"]))
"""
DRIVER = """
import signal, sys
with open(sys.argv[1], "w") as out:
    out.write("@@ in the merge driver\\n")
signal.pause()
"""


def _child(home: Path, point: str, tmp_path: Path) -> subprocess.Popen[str]:
    wrapper = tmp_path / "driver.py"
    wrapper.write_text(DRIVER)
    env = {**os.environ, "PALACE_HOME": str(home), "NO_COLOR": "1"}
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, point, str(wrapper)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,  # its git and merge driver too: the whole group is killed
    )


def _wait_for_marker(child: subprocess.Popen[str]) -> str:
    assert child.stdout is not None
    for line in child.stdout:
        if line.startswith("@@"):
            return line
    child.wait()
    raise AssertionError(f"the sync ended before its signal: {child.stderr.read() if child.stderr else ''}")


def _wait_until_group_gone(group: int) -> None:
    """Return once no live process (zombies have closed their files) is left in the process group."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        alive = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # gone meanwhile
            if int(fields[2]) == group and fields[0] != "Z":
                alive.append(pid)
        if not alive:
            return
        time.sleep(0.01)
    raise AssertionError(f"processes of the killed group {group} still run after 120 s")


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="the driver signals through /proc")
@pytest.mark.parametrize("point", ["fetch", "merge", "driver", "push"])
def test_a_sync_killed_midway_is_finished_by_the_next_one(
    machines: tuple[Palace, Palace], remote: Path, tmp_path: Path, point: str
) -> None:
    laptop, desktop = machines
    laptop.save("Preferences/editors", "The user edits with vim")
    sync(laptop.home)
    desktop.save("Decisions/database", "Postgres chosen")
    desktop.hand_note("Decisions/database", "Chosen at the March meeting.")
    child = _child(desktop.home, point, tmp_path)
    _wait_for_marker(child)
    os.killpg(child.pid, signal.SIGKILL)
    child.wait()
    _wait_until_group_gone(child.pid)  # its git, reparented, may still hold index.lock while it dies
    outcome = sync(desktop.home)
    assert outcome.code == 0, outcome
    for text in (desktop.data.decode(), remote_file(remote)):
        for wanted in ("The user edits with vim", "Postgres chosen", "Chosen at the March meeting."):
            assert text.count(wanted) == 1, (wanted, text)
    clean(desktop.home)
    assert not list(desktop.home.glob(".merge_file_*"))
    assert git(desktop.home, "config", "merge.palace.driver").strip() == driver_command()
    before = head(desktop.home)
    assert sync(desktop.home).lines == [f"up to date with origin ({remote})"] and head(desktop.home) == before
    sync(laptop.home)
    assert laptop.data == desktop.data


def test_a_push_refused_because_the_remote_moved_on_is_merged_and_pushed_again(
    machines: tuple[Palace, Palace], remote: Path, tmp_path: Path
) -> None:
    laptop, desktop = machines
    desktop.save("Decisions/database", "Postgres chosen")
    child = _child(desktop.home, "push", tmp_path)
    _wait_for_marker(child)
    laptop.save("Preferences/editors", "The user edits with vim")  # meanwhile, the laptop pushes first
    sync(laptop.home)
    assert child.stdin is not None
    child.stdin.write("\n")
    child.stdin.flush()
    _wait_for_marker(child)  # refused, fetched, merged: the second push
    child.stdin.write("\n")
    child.stdin.close()
    assert child.wait() == 0
    text = remote_file(remote)
    assert "The user edits with vim" in text and "Postgres chosen" in text
    clean(desktop.home)


# --------------------------------------------------------------------------- project memory in a repository


def test_init_project_refuses_outside_a_repository(tmp_path: Path) -> None:
    outside = tmp_path / "not-a-repo"
    outside.mkdir()
    proc = palace_cli(tmp_path / "palace", "init", "--project", cwd=outside)
    assert proc.returncode == 1 and "is not inside a git repository" in proc.stderr
    assert not (outside / ".palace").exists()


def test_project_memory_is_shared_by_two_clones_through_git_pull(tmp_path: Path) -> None:
    origin = tmp_path / "project.git"
    git(tmp_path, "init", "-q", "--bare", str(origin))
    first = tmp_path / "alice"
    git(tmp_path, "clone", "-q", str(origin), str(first))
    (first / "src").mkdir()
    proc = palace_cli(tmp_path / "palace", "init", "--project", cwd=first / "src")  # from a subfolder
    assert proc.returncode == 0, proc.stderr
    memories = first / ".palace" / "memories.md"
    assert Document.parse(memories.read_bytes()).entries == []  # a starter, no example entries
    assert (first / ".gitattributes").read_text() == f"{PROJECT_ATTRIBUTE}\n/.palace/superseded.md merge=union\n"
    assert (first / ".palace" / ".gitignore").read_text().splitlines()[1:] == [".index/", ".lock", "*.tmp"]
    assert "git add .palace .gitattributes" in proc.stdout
    git(first, "add", ".palace", ".gitattributes")
    git(first, "commit", "-qm", "palace: project memory")
    git(first, "push", "-q", "origin", "HEAD:main")
    second = tmp_path / "bob"
    git(tmp_path, "clone", "-q", "--branch", "main", str(origin), str(second))
    assert palace_cli(tmp_path / "palace", "init", "--project", cwd=second).returncode == 0
    assert git(second, "status", "--porcelain") == ""  # the attribute was already there: nothing to commit

    def save_in(clone: Path, path: str, content: str) -> None:
        file = clone / ".palace" / "memories.md"
        data, _ = ops.save(Document.parse(file.read_bytes()), parse_path(path), content, "2026-04-01")
        assert data is not None
        file.write_bytes(data)
        git(clone, "commit", "-qam", f"memory: {content}")

    save_in(first, "Decisions/api", "REST over gRPC")
    save_in(first, "Project Knowledge/stack", "Vue 3 inside Tauri")
    save_in(second, "Decisions/api", "Errors are RFC 7807 problem documents")
    save_in(second, "Workflow Patterns/release", "Tags are signed")
    git(first, "push", "-q", "origin", "HEAD:main")
    proc = subprocess.run(["git", "pull", "--no-rebase", "--no-edit", "-q", "origin", "main"], cwd=second,
                          capture_output=True, text=True)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    merged = (second / ".palace" / "memories.md").read_text()
    assert "<<<<<<<" not in merged
    contents = {e.content for e in Document.parse(merged.encode()).entries if e.path}
    assert contents == {
        "REST over gRPC",
        "Vue 3 inside Tauri",
        "Errors are RFC 7807 problem documents",
        "Tags are signed",
    }


def test_a_merge_driver_that_does_not_run_is_made_up_for_by_sync(
    machines: tuple[Palace, Palace], monkeypatch: pytest.MonkeyPatch
) -> None:
    laptop, desktop = machines
    laptop.save("Preferences/editors", "The user edits with vim")
    sync(laptop.home)
    desktop.save("Decisions/database", "Postgres chosen")
    monkeypatch.setattr("palace.history.repo.driver_command", lambda: "false %O %A %B %P")
    outcome = sync(desktop.home)
    assert outcome.code == 0 and "merged memories.md here (git's merge driver did not run)" in outcome.lines
    contents = {e.content for e in Document.parse(desktop.data).entries if e.path}
    assert contents == {"The user edits with vim", "Postgres chosen"}
    clean(desktop.home)


def test_what_a_merge_brings_into_memories_md_is_named_and_logged(machines: tuple[Palace, Palace]) -> None:
    laptop, desktop = machines
    laptop.save("Preferences/editors", "Uses helix on the laptop")
    laptop.store.forget("Preferences/editors", "Uses helix on the laptop")
    laptop.save("Decisions/database", "PostgreSQL 16 for the shop")
    assert sync(laptop.home).code == 0
    outcome = sync(desktop.home)
    assert outcome.code == 0
    assert "memory: saved Decisions/database: PostgreSQL 16 for the shop" in outcome.lines
    assert not [line for line in outcome.lines if "helix" in line]  # saved and forgotten there: nothing came
    notes = ChangeLog(desktop.home).notes()
    assert notes[-1].events == [
        {"path": "Decisions/database", "content": "PostgreSQL 16 for the shop", "action": "saved", "by": "sync"}
    ]
