"""history.py, undo.py, home.py with real git in temporary palaces: commits, hand edits, trouble, undo, log, hook."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from datetime import date
from pathlib import Path

import pytest

from palace.app import init_palace
from palace.errors import HistoryError, PalaceError, UndoError
from palace.history.autocommit import GitHistory
from palace.history.log import history_log
from palace.history.undo import UNDO_DEPTH, undo_last
from palace.memory import MemoryStore
from palace.ui.editor import open_editor

GIT_IDENTITY_VARS = (
    "GIT_AUTHOR_NAME",
    "GIT_AUTHOR_EMAIL",
    "GIT_COMMITTER_NAME",
    "GIT_COMMITTER_EMAIL",
    "EMAIL",
    "GIT_AUTHOR_DATE",
    "GIT_COMMITTER_DATE",
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
)


def _write_git_config(path: Path, *, identity: bool) -> None:
    lines = ["[init]", "\tdefaultBranch = main", "[advice]", "\tdetachedHead = false"]
    if identity:
        lines += ["[user]", "\tname = Test User", "\temail = test@example.org"]
    path.write_text("\n".join(lines) + "\n")


@pytest.fixture(autouse=True)
def hermetic_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Git sees only our config: a test identity, no system or user config."""
    fake_home = tmp_path / "userhome"
    fake_home.mkdir()
    config = fake_home / "gitconfig"
    _write_git_config(config, identity=True)
    for var in GIT_IDENTITY_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(fake_home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(fake_home / ".config"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    return config


class Day:
    """A settable `today` for the store."""

    def __init__(self, value: date) -> None:
        self.value = value

    def __call__(self) -> date:
        return self.value


def git(home: Path, *args: str, check: bool = True) -> str:
    proc = subprocess.run(["git", *args], cwd=home, capture_output=True, text=True, check=False)
    if check and proc.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {proc.stderr}")
    return proc.stdout


def subjects(home: Path) -> list[str]:
    return git(home, "log", "--format=%s").splitlines()


def numstat(home: Path, rev: str = "HEAD") -> tuple[int, int]:
    """(added, deleted) lines of memories.md in one commit."""
    out = git(home, "show", "--numstat", "--format=", rev, "--", "memories.md").split()
    return int(out[0]), int(out[1])


Palace = tuple[Path, MemoryStore, GitHistory, list[str]]


def make(
    home: Path, *, git_repo: bool = True, autocommit: bool = True, day: date = date(2026, 11, 30)
) -> tuple[MemoryStore, GitHistory, list[str]]:
    init_palace(home, git=git_repo)
    warnings: list[str] = []
    history = GitHistory(home, autocommit=autocommit, warn=warnings.append)
    store = MemoryStore(home, hooks=[history], today=Day(day))
    return store, history, warnings


@pytest.fixture
def palace(tmp_path: Path) -> Palace:
    home = tmp_path / "palace"
    store, history, warnings = make(home)
    return home, store, history, warnings


# --------------------------------------------------------------------------- init


def test_init_without_git_creates_a_private_palace(tmp_path: Path) -> None:
    home = tmp_path / "p"
    lines = init_palace(home, git=False)
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    memories = home / "memories.md"
    assert stat.S_IMODE(memories.stat().st_mode) == 0o600
    text = memories.read_text()
    assert "<!--" in text and "-->" in text
    for word in ("Preferences", "Project Knowledge", "Decisions", "Workflow Patterns", "Wing", "[YYYY-MM-DD]"):
        assert word in text
    assert not (home / ".git").exists()
    assert any("palace init --git" in line for line in lines)
    memories.write_text("# mine\n")
    init_palace(home, git=False)
    assert memories.read_text() == "# mine\n"
    assert not GitHistory(home).is_repo


def test_init_git_makes_repo_ignore_hook_and_first_commit(palace: Palace) -> None:
    home, _store, history, _ = palace
    assert history.is_repo
    assert subjects(home) == ["palace: init"]
    assert git(home, "status", "--porcelain") == ""
    assert set(git(home, "ls-files").split()) == {".gitattributes", ".gitignore", "memories.md"}
    for private in ("sessions/2026-11-30-a1b2c3d4.jsonl", ".index/fts.db", "history.txt", ".lock", ".x.tmp"):
        assert subprocess.run(["git", "check-ignore", "-q", private], cwd=home).returncode == 0, private
    assert subprocess.run(["git", "check-ignore", "-q", "sessions/2026-11-30-a1b2c3d4.md"], cwd=home).returncode
    hook = home / ".git" / "hooks" / "pre-commit"
    assert os.access(hook, os.X_OK)
    assert "memory lint" in hook.read_text() and sys.executable in hook.read_text()
    # idempotent: a second init changes nothing and commits nothing
    init_palace(home, git=True)
    assert subjects(home) == ["palace: init"]
    assert git(home, "status", "--porcelain") == ""


def test_init_git_on_existing_palace_keeps_archives_not_journals(tmp_path: Path) -> None:
    home = tmp_path / "p"
    init_palace(home, git=False)
    (home / "memories.md").write_text("# Memories\n\n## Decisions\n\n### db\n- [2026-11-01] Postgres\n")
    (home / "sessions" / "2026-11-01-abcdef12.md").write_text("# Session\n")
    (home / "sessions" / "2026-11-01-abcdef12.jsonl").write_text("{}\n")
    init_palace(home, git=True)
    tracked = set(git(home, "ls-files").split())
    assert tracked == {".gitattributes", ".gitignore", "memories.md", "sessions/2026-11-01-abcdef12.md"}
    assert "Postgres" in git(home, "show", "HEAD:memories.md")


def test_enclosing_repository_is_not_the_palace(tmp_path: Path) -> None:
    outer = tmp_path / "dotfiles"
    outer.mkdir()
    git(outer, "init", "-q")
    home = outer / "palace"
    store, history, warnings = make(home, git_repo=False)
    assert not history.is_repo
    store.save("Preferences/shells", "The user uses fish")
    assert warnings == []
    assert git(outer, "log", "--oneline", check=False) == ""
    assert "not a git repository" in history_log(home)


def test_init_git_inside_an_enclosing_repository_makes_its_own(tmp_path: Path) -> None:
    outer = tmp_path / "dotfiles"
    outer.mkdir()
    git(outer, "init", "-q")
    home = outer / "palace"
    store, history, _warnings = make(home)
    assert history.is_repo
    store.save("Preferences/shells", "The user uses fish")
    assert subjects(home) == ["memory: save Preferences/shells", "palace: init"]
    assert git(outer, "log", "--oneline", check=False) == ""


# --------------------------------------------------------------------------- one commit per change


def test_one_commit_per_change_with_minimal_diffs(tmp_path: Path) -> None:
    home = tmp_path / "p"
    day = Day(date(2026, 11, 28))
    init_palace(home, git=True)
    store = MemoryStore(home, hooks=[GitHistory(home, warn=pytest.fail)], today=day)

    store.save("Preferences/shells", "The user uses fish")  # new hall: blank, hall, blank, room, entry
    assert subjects(home)[0] == "memory: save Preferences/shells"
    store.save("Preferences/shells", "The user uses zsh at work")
    assert subjects(home)[0] == "memory: save Preferences/shells"
    assert numstat(home) == (1, 0)  # into an existing room: one line
    store.save("Preferences/editors", "The user edits with helix")
    assert numstat(home) == (3, 0)  # a new room: heading, blank line, entry
    day.value = date(2026, 11, 30)
    store.save("Preferences/shells", "the user uses FISH.")
    assert subjects(home)[0] == "memory: refresh Preferences/shells"
    assert numstat(home) == (1, 1)  # a refresh: one line changed
    store.forget("Preferences/shells", "The user uses zsh at work")
    assert subjects(home)[0] == "memory: forget Preferences/shells"
    assert numstat(home) == (0, 1)  # a forget: one line removed
    store.save_many(
        [("Decisions/db", "Postgres was chosen"), ("Decisions/db", "Migrations run with sqlx")],
        message="memory: extract 2 from session 2026-11-30-a1b2c3d4",
    )
    assert subjects(home)[0] == "memory: extract 2 from session 2026-11-30-a1b2c3d4"
    assert len(subjects(home)) == 7  # init + 6 changes, one commit each
    assert git(home, "status", "--porcelain") == ""
    assert git(home, "show", "HEAD:memories.md") == (home / "memories.md").read_text()


def test_a_change_that_writes_nothing_commits_nothing(palace: Palace) -> None:
    home, store, _history, warnings = palace
    store.save("Preferences/shells", "The user uses fish")
    count = len(subjects(home))
    assert store.save("Preferences/shells", "the user uses fish").action == "unchanged"
    with pytest.raises(PalaceError):
        store.forget("Preferences/shells", "never said")
    with pytest.raises(PalaceError):
        store.save("Prefernces/shells", "typo hall")
    assert len(subjects(home)) == count
    assert warnings == []


def test_hand_edit_is_committed_first_on_its_own(palace: Palace) -> None:
    home, store, _history, warnings = palace
    store.save("Preferences/shells", "The user uses fish")
    (home / "notes.txt").write_text("work in progress\n")
    git(home, "add", "notes.txt")  # the user's own staged work stays staged
    with (home / "memories.md").open("a") as handle:
        handle.write("A paragraph written by hand.\n")
    store.save("Preferences/shells", "The user uses zsh at work")
    assert subjects(home)[:2] == ["memory: save Preferences/shells", "memory: hand edit"]
    hand = git(home, "show", "--format=", "HEAD~1", "--", "memories.md")
    assert "+A paragraph written by hand." in hand and "zsh" not in hand
    assert numstat(home) == (1, 0)
    assert git(home, "status", "--porcelain") == "A  notes.txt\n"
    assert warnings == []


def test_autocommit_off_commits_nothing_but_keeps_undo(tmp_path: Path) -> None:
    home = tmp_path / "p"
    store, _history, warnings = make(home, autocommit=False)
    store.save("Preferences/shells", "The user uses fish")
    assert subjects(home) == ["palace: init"]
    assert warnings == []
    undo_last(store, home)
    assert "fish" not in (home / "memories.md").read_text()
    undo = home / ".index" / "undo.jsonl"
    assert stat.S_IMODE(undo.stat().st_mode) == 0o600
    assert stat.S_IMODE(undo.parent.stat().st_mode) == 0o700


def test_commit_paths_commits_archives(palace: Palace, tmp_path: Path) -> None:
    home, _store, history, warnings = palace
    archive = home / "sessions" / "2026-11-30-a1b2c3d4.md"
    archive.write_text("# Session 2026-11-30 · a1b2c3d4\n")
    (home / "sessions" / "2026-11-30-a1b2c3d4.jsonl").write_text("{}\n")
    with (home / "memories.md").open("a") as handle:
        handle.write("hand\n")
    assert history.commit_paths([archive], "session: archive 2026-11-30-a1b2c3d4")
    assert subjects(home)[0] == "session: archive 2026-11-30-a1b2c3d4"
    assert git(home, "show", "--name-only", "--format=", "HEAD").split() == ["sessions/2026-11-30-a1b2c3d4.md"]
    assert not history.commit_paths([archive], "session: archive 2026-11-30-a1b2c3d4")  # nothing new
    assert warnings == []
    plain = tmp_path / "plain"
    init_palace(plain, git=False)
    assert not GitHistory(plain, warn=pytest.fail).commit_paths([plain / "memories.md"], "x")


def test_archive_commits_and_memory_commits_can_run_at_once(palace: Palace) -> None:
    home, store, _history, warnings = palace
    other = GitHistory(home, warn=warnings.append)

    def archive() -> None:
        for n in range(5):
            path = home / "sessions" / f"2026-11-30-0000000{n}.md"
            path.write_text(f"# Session {n}\n")
            assert other.commit_paths([path], f"session: archive 2026-11-30-0000000{n}")

    thread = threading.Thread(target=archive)
    thread.start()
    for n in range(5):
        store.save("Preferences/shells", f"Shell number {n} is in use")
    thread.join()
    assert warnings == []
    assert len(subjects(home)) == 11
    assert git(home, "status", "--porcelain") == ""


# --------------------------------------------------------------------------- git trouble


def test_git_missing_costs_one_warning(palace: Palace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home, store, history, warnings = palace
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    monkeypatch.setenv("PATH", str(bin_dir))
    with (home / "memories.md").open("a") as handle:
        handle.write("hand\n")  # a hand edit too: still one warning for the change
    store.save("Preferences/shells", "The user uses fish")
    assert "fish" in (home / "memories.md").read_text()
    assert len(warnings) == 1 and "git is not installed" in warnings[0]
    assert not history.is_repo
    assert "git is not installed" in history_log(home)
    undo_last(store, home)  # the undo record works without git
    assert "fish" not in (home / "memories.md").read_text()
    with pytest.raises(HistoryError, match="git is not installed"):
        init_palace(tmp_path / "new", git=True)
    assert (tmp_path / "new" / "memories.md").exists()  # the palace itself is made


def test_missing_identity_falls_back_to_palace(tmp_path: Path, hermetic_git: Path) -> None:
    _write_git_config(hermetic_git, identity=False)
    home = tmp_path / "p"
    store, _history, warnings = make(home)
    store.save("Preferences/shells", "The user uses fish")
    assert warnings == []
    assert (
        git(home, "log", "--format=%an <%ae>|%cn <%ce>").splitlines()
        == ["palace <palace@localhost>|palace <palace@localhost>"] * 2
    )
    assert git(home, "config", "--get", "user.name", check=False) == ""  # nothing configured for the user


def test_configured_identity_is_used(palace: Palace) -> None:
    home, store, _history, _warnings = palace
    store.save("Preferences/shells", "The user uses fish")
    assert git(home, "log", "-1", "--format=%an <%ae>").strip() == "Test User <test@example.org>"


def test_detached_head_costs_one_warning(palace: Palace) -> None:
    home, store, _history, warnings = palace
    store.save("Preferences/shells", "The user uses fish")
    git(home, "checkout", "-q", "--detach")
    head = git(home, "rev-parse", "HEAD")
    store.save("Preferences/shells", "The user uses zsh")
    assert "zsh" in (home / "memories.md").read_text()
    assert git(home, "rev-parse", "HEAD") == head
    assert len(warnings) == 1 and "detached" in warnings[0]


def test_locked_repo_costs_one_warning(palace: Palace) -> None:
    home, store, _history, warnings = palace
    (home / ".git" / "index.lock").write_text("")
    store.save("Preferences/shells", "The user uses fish")
    assert "fish" in (home / "memories.md").read_text()
    assert subjects(home) == ["palace: init"]
    assert len(warnings) == 1 and "index.lock" in warnings[0]
    (home / ".git" / "index.lock").unlink()
    warnings.clear()
    store.save("Preferences/shells", "The user uses zsh")  # the stuck change goes in first, under its own name
    assert subjects(home)[:2] == ["memory: save Preferences/shells", "memory: save Preferences/shells (committed late)"]
    assert warnings == []


# --------------------------------------------------------------------------- undo


def test_undo_without_git_walks_back_the_stack(tmp_path: Path) -> None:
    home = tmp_path / "p"
    store, _history, warnings = make(home, git_repo=False)
    start = store.read_bytes()
    store.save("Preferences/shells", "The user uses fish")
    after_first = store.read_bytes()
    store.forget("Preferences/shells", "The user uses fish")
    assert undo_last(store, home) == "Undone: forget Preferences/shells"
    assert store.read_bytes() == after_first
    assert undo_last(store, home) == "Undone: save Preferences/shells"
    assert store.read_bytes() == start
    with pytest.raises(UndoError, match="nothing to undo"):
        undo_last(store, home)
    assert warnings == []


def test_undo_records_the_edit_not_copies_of_a_big_file(tmp_path: Path) -> None:
    home = tmp_path / "p"
    store, _history, _warnings = make(home, git_repo=False)
    rooms = "\n".join(f"### room-{n}\n- [2026-10-01] Fact number {n} about the project" for n in range(4000))
    store.file.write_text(f"# Memories\n\n## Preferences\n\n{rooms}\n")
    versions = [store.read_bytes()]
    for n in range(12):
        store.save(f"Preferences/room-{n * 300}", f"A new fact {n}")
        versions.append(store.read_bytes())
    log = home / ".index" / "undo.jsonl"
    assert len(versions[-1]) > 200_000 and log.stat().st_size < 12 * 1000  # edits, not 12 copies of 200 KB
    for expected in reversed(versions[-11:-1]):  # ten deep, each byte for byte
        undo_last(store, home)
        assert store.read_bytes() == expected
    with pytest.raises(UndoError, match="nothing to undo"):
        undo_last(store, home)


def test_the_undo_log_stays_short_even_when_another_process_appends_to_it(tmp_path: Path) -> None:
    # A process counts the log's lines as it appends them; when someone else wrote meanwhile it must count
    # again, or the log would grow without bound (or be compacted too early).
    home = tmp_path / "p"
    store, _history, _warnings = make(home, git_repo=False)
    log = home / ".index" / "undo.jsonl"
    for n in range(60):
        store.save("Preferences/shells", f"Shell fact number {n}")
    assert len(log.read_bytes().splitlines()) <= 4 * UNDO_DEPTH + 1
    foreign = "".join(json.dumps({"undone": f"{n:032x}"}) + "\n" for n in range(60))  # as another palace writes
    with log.open("a", encoding="utf-8") as handle:
        handle.write(foreign)
    store.save("Preferences/shells", "The last shell fact")
    assert len(log.read_bytes().splitlines()) <= UNDO_DEPTH
    undo_last(store, home)
    assert "The last shell fact" not in store.read_bytes().decode()
    assert "Shell fact number 59" in store.read_bytes().decode()


def test_digests_of_big_texts_that_differ_by_one_byte_differ() -> None:
    # Digests of big texts are remembered (a save hashes the text before it, the last save's after): a text
    # equal in length but not in bytes must never get the remembered digest.
    import hashlib

    from palace.sha import sha256_hex

    first = b"x" * 300_000
    second = first[:-1] + b"y"
    assert sha256_hex(first) == hashlib.sha256(first).hexdigest()
    assert sha256_hex(second) == hashlib.sha256(second).hexdigest()
    assert sha256_hex(bytes(bytearray(first))) == hashlib.sha256(first).hexdigest()  # equal, another object


def test_undo_with_git_is_a_commit(palace: Palace) -> None:
    home, store, _history, warnings = palace
    store.save("Preferences/shells", "The user uses fish")
    store.save("Preferences/shells", "The user uses zsh at work")
    undo_last(store, home)
    assert subjects(home)[0] == "memory: undo save Preferences/shells"
    assert numstat(home) == (0, 1)
    assert git(home, "diff", "HEAD~2", "HEAD", "--", "memories.md") == ""
    assert git(home, "status", "--porcelain") == ""
    assert warnings == []


@pytest.mark.parametrize("git_repo", [True, False])
def test_undo_refused_after_a_hand_edit(tmp_path: Path, git_repo: bool) -> None:
    home = tmp_path / "p"
    store, _history, _warnings = make(home, git_repo=git_repo)
    store.save("Preferences/shells", "The user uses fish")
    with (home / "memories.md").open("a") as handle:
        handle.write("by hand\n")
    edited = store.read_bytes()
    commits = subjects(home) if git_repo else []
    with pytest.raises(UndoError, match="changed since that change"):
        undo_last(store, home)
    assert store.read_bytes() == edited
    if git_repo:
        assert subjects(home) == commits


def test_undo_falls_back_to_git_without_a_record(palace: Palace) -> None:
    home, store, _history, _warnings = palace
    store.save("Preferences/shells", "The user uses fish")
    before = store.read_bytes()
    store.save("Preferences/shells", "The user uses zsh")
    (home / ".index" / "undo.jsonl").unlink()
    assert undo_last(store, home) == "Undone: save Preferences/shells"
    assert store.read_bytes() == before
    with pytest.raises(UndoError, match="was an undo"):
        undo_last(store, home)


# --------------------------------------------------------------------------- log


def test_history_log_reads_without_git_knowledge(palace: Palace, monkeypatch: pytest.MonkeyPatch) -> None:
    home, store, _history, _warnings = palace
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2026-10-01T09:00:00")
    store.save("Preferences/shells", "The user uses fish")
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2026-11-29T09:00:00")
    store.save("ifai/Decisions/architecture", "Event-driven sync engine")
    with (home / "memories.md").open("a") as handle:
        handle.write("Some notes.\n")
    store.forget("Preferences/shells", "The user uses fish")
    text = history_log(home)
    assert "+ Preferences/shells: The user uses fish" in text
    assert "+ ifai/Decisions/architecture: Event-driven sync engine" in text
    assert "- Preferences/shells: The user uses fish" in text
    assert "hand edit" in text and "palace: forget Preferences/shells" in text
    assert text.index("forget") < text.index("save ifai")  # newest first
    recent = history_log(home, since=date(2026, 11, 1))
    assert "ifai/Decisions" in recent and "+ Preferences/shells" not in recent
    assert "No changes" in history_log(home, since=date(2099, 1, 1))


def test_history_log_shows_refreshes(tmp_path: Path) -> None:
    home = tmp_path / "p"
    day = Day(date(2026, 11, 1))
    init_palace(home, git=True)
    store = MemoryStore(home, hooks=[GitHistory(home)], today=day)
    store.save("Preferences/shells", "The user uses fish")
    day.value = date(2026, 11, 30)
    store.save("Preferences/shells", "The user uses fish")
    assert "~ Preferences/shells: The user uses fish  (date refreshed)" in history_log(home)


def test_history_log_explains_how_to_enable(tmp_path: Path) -> None:
    home = tmp_path / "p"
    init_palace(home, git=False)
    assert "palace init --git" in history_log(home)


# --------------------------------------------------------------------------- the pre-commit hook


@pytest.mark.parametrize(
    "bad",
    [
        "- [2026-11-30] The wifi password=hunter22\n",
        "\n## Prefernces\n\n### editors\n- [2026-11-30] The user edits with helix\n",
    ],
    ids=["secret", "hall-typo"],
)
def test_pre_commit_hook_blocks_a_bad_file(palace: Palace, bad: str) -> None:
    home, store, _history, warnings = palace
    memories = home / "memories.md"
    memories.write_text("# Memories\n\n## Preferences\n\n### shells\n- [2026-11-30] The user uses fish\n")
    git(home, "add", "memories.md")
    ok = subprocess.run(["git", "commit", "-q", "-m", "good"], cwd=home, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    memories.write_text(memories.read_text() + bad)
    git(home, "add", "memories.md")
    blocked = subprocess.run(["git", "commit", "-q", "-m", "bad"], cwd=home, capture_output=True, text=True)
    assert blocked.returncode != 0
    assert "memories.md has errors" in blocked.stderr and "error" in blocked.stdout + blocked.stderr
    assert subjects(home)[0] == "good"
    # palace's own commits do not run the hook: history keeps what the file really is
    store.save("Decisions/db", "Postgres was chosen")
    assert subjects(home)[:2] == ["memory: save Decisions/db", "memory: hand edit"]
    assert warnings == []


def test_cli_init_log_undo_edit(tmp_path: Path) -> None:
    home = tmp_path / "p"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    editor = _script(
        bin_dir / "ed.sh", 'printf -- "## Decisions\\n\\n### wifi\\n- [2026-11-30] password=hunter22\\n" >> "$1"\n'
    )
    env = {**os.environ, "PALACE_HOME": str(home), "EDITOR": str(editor), "VISUAL": ""}

    def palace_cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "palace", *args], env=env, capture_output=True, text=True, timeout=60
        )

    assert palace_cli("log").stdout.count("palace init --git") == 1
    assert palace_cli("init", "--git").returncode == 0
    assert palace_cli("memory", "save", "Preferences/shells", "The user uses fish").returncode == 0
    log = palace_cli("log").stdout
    assert "+ Preferences/shells: The user uses fish" in log
    assert palace_cli("memory", "undo").returncode == 0
    assert subjects(home)[0] == "memory: undo save Preferences/shells"
    refused = palace_cli("memory", "undo")
    assert refused.returncode != 0 and "nothing to undo" in refused.stdout + refused.stderr
    edited = palace_cli("memory", "edit")
    assert edited.returncode != 0  # the editor wrote a secret: lint shows the problem
    assert "error" in edited.stdout + edited.stderr


# --------------------------------------------------------------------------- editor


def _script(path: Path, body: str) -> Path:
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


def test_open_editor_uses_visual_with_arguments(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _script(bin_dir / "myedit", f'printf "%s|" "$@" > {bin_dir}/args\nexit 3\n')
    target = tmp_path / "memories.md"
    env = {"PATH": str(bin_dir), "VISUAL": "myedit --wait", "EDITOR": "nano"}
    assert open_editor(target, env=env) == 3
    assert (bin_dir / "args").read_text() == f"--wait|{target}|"


def test_open_editor_falls_back_and_fails_clearly(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    target = tmp_path / "memories.md"
    with pytest.raises(PalaceError, match="no editor found"):
        open_editor(target, env={"PATH": str(bin_dir), "EDITOR": "missing-editor"})
    _script(bin_dir / "vi", 'echo edited > "$1"\n')
    assert open_editor(target, env={"PATH": str(bin_dir)}) == 0
    assert target.read_text() == "edited\n"
