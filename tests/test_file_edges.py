"""memories.md at the edges of real file systems: symlinks, hard links, read-only files and folders, FIFOs,
CR-only line endings, leftovers of killed writers, a stale git lock, a full disk. Each promise: nothing a user
wrote is lost, a refusal says why and changes nothing, palace never hangs or ends with a traceback."""

from __future__ import annotations

import contextlib
import os
import re
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from palace.app import App, init_palace
from palace.config import load_settings
from palace.errors import StoreError
from palace.memory import files as files_module
from palace.memory.document import Document
from palace.memory.store import MemoryStore
from palace.ui import cli

SAVE = ["memory", "save", "Preferences/editors", "The user edits with helix"]


def run_cli(home: Path, *args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """`palace ARGS` in this process (the real CLI code path), with PALACE_HOME set."""
    os.environ["PALACE_HOME"] = str(home)
    try:
        code = cli.main(list(args))
    finally:
        del os.environ["PALACE_HOME"]
    out, err = capsys.readouterr()
    return code, out, err


def palace_process(home: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "PALACE_"))}
    env["PALACE_HOME"] = str(home)
    cwd = home.parent / "cwd"
    cwd.mkdir(exist_ok=True)
    return subprocess.run(
        [sys.executable, "-m", "palace", *args], env=env, capture_output=True, text=True, timeout=timeout, cwd=cwd
    )


def _entries(file: Path) -> list[str]:
    return [e.content for e in Document.parse(file.read_bytes()).entries if e.path is not None]


# ---------------------------------------------------------------------- symlinks and hard links


@pytest.mark.parametrize("where", ["outside the palace", "inside the palace", "relative link"])
def test_a_symlinked_memories_file_is_written_through(
    tmp_path: Path, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "palace"
    home.mkdir(mode=0o700)
    dotfiles = (tmp_path / "dotfiles") if where == "outside the palace" else (home / "real")
    dotfiles.mkdir()
    target = dotfiles / "palace-memories.md"
    target.write_text("# Mine\n\nMy own notes.\n")
    link = home / "memories.md"
    link.symlink_to(os.path.relpath(target, home) if where == "relative link" else target)
    code, out, err = run_cli(home, *SAVE, capsys=capsys)
    assert code == 0, err
    assert "Saved to Preferences/editors" in out
    assert link.is_symlink() and link.resolve() == target.resolve()
    assert "My own notes." in target.read_text() and "helix" in target.read_text()
    assert sorted(p.name for p in dotfiles.iterdir()) == ["palace-memories.md"]  # no temp file left there
    code, out, _ = run_cli(home, "memory", "forget", "Preferences/editors", "The user edits with helix", capsys=capsys)
    assert code == 0 and link.is_symlink() and "helix" not in target.read_text()
    code, out, _ = run_cli(home, "doctor", capsys=capsys)
    assert f"palace reads and writes {target.resolve()}" in out


def test_a_hard_linked_memories_file_keeps_its_other_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "palace"
    home.mkdir(mode=0o700)
    other = tmp_path / "backup-name.md"
    other.write_text("## Preferences\n\n### shells\n- [2026-11-01] The user uses fish\n")
    os.link(other, home / "memories.md")
    code, _, err = run_cli(home, *SAVE, capsys=capsys)
    assert code == 0, err
    assert os.stat(other).st_ino == os.stat(home / "memories.md").st_ino and os.stat(other).st_nlink == 2
    assert _entries(other) == ["The user uses fish", "The user edits with helix"]
    assert [p.name for p in home.iterdir() if p.name.startswith(".memories.md")] == []
    code, out, _ = run_cli(home, "doctor", capsys=capsys)
    assert "2 hard links" in out


def test_a_save_redone_when_an_editor_renames_a_stale_copy_right_after_palace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editor read the file before palace's save and renames its copy over it just after: the save is
    redone on the editor's text, so the acknowledged entry and the editor's line are both there."""
    home = tmp_path / "palace"
    store = MemoryStore(home)
    store.save("Preferences/shells", "The user uses fish")
    stale = store.file.read_text()
    real = files_module._exchange_in
    done: list[bool] = []

    def exchange_then_editor_renames(
        file: Path, tmp: str, data: bytes, expect: bytes, existed: bool, read: files_module.Stamp | None
    ) -> files_module.Swapped:
        found = real(file, tmp, data, expect, existed, read)
        if found.found is None and not done:  # palace's file is in place; now the editor's stale copy lands
            done.append(True)
            copy = file.with_name(".memories.md.swp")
            copy.write_text(stale + "\nThe editor's own line.\n")
            os.replace(copy, file)
        return found

    monkeypatch.setattr(files_module, "_exchange_in", exchange_then_editor_renames)
    result = store.save("Preferences/editors", "The user edits with helix")
    assert done and result.action == "saved"
    text = store.file.read_text()
    assert "The user edits with helix" in text and "The editor's own line." in text and "fish" in text


def test_a_save_an_editor_dropped_a_moment_later_is_saved_again(tmp_path: Path) -> None:
    """Later than palace's own check after its write: the next look (the REPL's watcher, or the next write)
    finds the acknowledged entry missing and saves it again, keeping the editor's change."""
    home = tmp_path / "palace"
    store = MemoryStore(home)
    store.save("Preferences/shells", "The user uses fish")
    stale = store.file.read_text()
    assert store.save("Preferences/editors", "The user edits with helix").action == "saved"
    copy = home / ".memories.md.swp"
    copy.write_text(stale + "\nThe editor's own line.\n")
    os.replace(copy, store.file)  # the editor read the file before the save and saves now
    [again] = store.repair_recent()
    assert again.action == "saved" and again.content == "The user edits with helix"
    text = store.file.read_text()
    assert "helix" in text and "The editor's own line." in text
    assert store.repair_recent() == []  # once is enough
    copy.write_text(stale + "\nThe editor's own line.\n")
    os.replace(copy, store.file)  # the editor saves its buffer again; this time the next write repairs it
    store.save("Preferences/terminals", "The user uses kitty")
    assert all(word in store.file.read_text() for word in ("helix", "kitty", "fish"))


# ---------------------------------------------------------------------- refusals


def test_a_read_only_file_is_refused_not_replaced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "palace"
    init_palace(home, git=False)
    file = home / "memories.md"
    before = file.read_bytes()
    file.chmod(0o444)
    code, _out, err = run_cli(home, *SAVE, capsys=capsys)
    assert code == 1 and "Traceback" not in err
    assert "read-only (mode 444)" in err and "chmod u+w" in err
    assert file.read_bytes() == before and stat.S_IMODE(file.stat().st_mode) == 0o444


@contextlib.contextmanager
def _read_only_folder(folder: Path) -> Iterator[None]:
    """The folder made read-only for real: chmod for a normal user; root ignores modes, so chattr +i."""
    if os.geteuid() != 0:
        folder.chmod(0o500)
        try:
            yield
        finally:
            folder.chmod(0o700)
        return
    if subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode != 0:
        pytest.skip("running as root without chattr +i: a read-only folder cannot be made here")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


def test_a_read_only_palace_folder_is_a_clear_error(tmp_path: Path) -> None:
    home = tmp_path / "palace"
    init_palace(home, git=False)
    (home / ".lock").unlink(missing_ok=True)
    before = (home / "memories.md").read_bytes()
    with _read_only_folder(home):
        done = palace_process(home, *SAVE)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("Error: ") and str(home) in done.stderr
    assert (home / "memories.md").read_bytes() == before


@pytest.mark.parametrize("command", [["memory", "show"], SAVE, ["memory", "lint"], ["chat"]])
def test_a_fifo_in_place_of_memories_is_refused_without_hanging(tmp_path: Path, command: list[str]) -> None:
    home = tmp_path / "palace"
    home.mkdir(mode=0o700)
    os.mkfifo(home / "memories.md")
    done = palace_process(home, *command, timeout=60)  # a hang would end in TimeoutExpired
    assert "Traceback" not in done.stderr
    assert "is a FIFO (named pipe), not a regular file" in done.stdout + done.stderr
    if command != ["chat"]:
        assert done.returncode == 1
    assert stat.S_ISFIFO(os.stat(home / "memories.md").st_mode)


# ---------------------------------------------------------------------- line endings and leftovers


def test_cr_only_line_endings_are_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "palace"
    home.mkdir(mode=0o700)
    file = home / "memories.md"
    file.write_bytes(b"# Memories\r\r## Preferences\r\r### shells\r- [2026-11-01] The user uses fish\r")
    code, _, err = run_cli(home, "memory", "save", "Preferences/editors", "The user edits with helix", capsys=capsys)
    assert code == 0, err
    data = file.read_bytes()
    assert data.count(b"## Preferences") == 1 and b"\n" not in data
    assert re.search(rb"fish\r\r### editors\r- \[\d{4}-\d{2}-\d{2}\] The user edits with helix\r$", data)
    assert _entries(file) == ["The user uses fish", "The user edits with helix"]
    code, out, _ = run_cli(home, "memory", "lint", capsys=capsys)
    assert code == 0 and "(2 entries)" in out


def test_temp_copies_of_killed_writers_are_removed_at_start(tmp_path: Path) -> None:
    home = tmp_path / "palace"
    store = MemoryStore(home)
    store.save("Preferences/shells", "The user uses fish")
    for n in range(3):
        (home / f".memories.md.killed{n}.tmp").write_bytes(store.read_bytes())
    app = App(load_settings({"home": home}, env={}), warn=lambda _: None)
    removed = app.store.clean_stale()
    assert len(removed) == 3
    assert [p.name for p in home.iterdir() if p.name.endswith(".tmp")] == []
    assert "fish" in store.file.read_text()


def test_an_interrupted_in_place_write_is_kept_under_a_name_that_says_so(tmp_path: Path) -> None:
    home = tmp_path / "palace"
    store = MemoryStore(home)
    store.save("Preferences/shells", "The user uses fish")
    (home / "memories.md.palace-pending").write_text("the intended text")
    removed = store.clean_stale()
    assert len(removed) == 1 and removed[0].name.startswith("memories.md.interrupted-")
    assert removed[0].read_text() == "the intended text"


# ---------------------------------------------------------------------- git and the disk


def _git(home: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=home, capture_output=True, text=True, check=True).stdout


def test_a_stale_git_lock_is_named_and_changes_are_attributed_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for var, value in (("GIT_AUTHOR_NAME", "t"), ("GIT_AUTHOR_EMAIL", "t@t"), ("GIT_COMMITTER_NAME", "t"),
                       ("GIT_COMMITTER_EMAIL", "t@t")):  # fmt: skip
        monkeypatch.setenv(var, value)
    home = tmp_path / "palace"
    init_palace(home, git=True)
    warnings: list[str] = []
    app = App(load_settings({"home": home}, env={}), warn=warnings.append)
    lock = home / ".git" / "index.lock"
    lock.write_text("")  # left by a git that was killed: nobody holds it open
    app.store.save("Preferences/shells", "The user uses fish")
    assert len(warnings) == 1 and "left over from a git command that was stopped" in warnings[0]
    assert f"rm {lock}" in warnings[0]
    lock.unlink()
    app.store.save("Preferences/editors", "The user edits with helix")
    subjects = _git(home, "log", "--format=%s").splitlines()
    assert subjects[:2] == ["memory: save Preferences/editors", "memory: save Preferences/shells (committed late)"]
    assert not any("hand edit" in s for s in subjects)


_FULL_DISK = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writes past the limit fail with EFBIG, as on a full disk
resource.setrlimit(resource.RLIMIT_FSIZE, (700, 700))
from palace.ui.cli import main
sys.exit(main(["chat"]))
"""


def test_a_full_disk_costs_one_warning_and_the_chat_goes_on(tmp_path: Path) -> None:
    from palace.testing.server import ScriptedServer, Step

    home = tmp_path / "palace"
    init_palace(home, git=False)
    with ScriptedServer() as server:
        long_reply = "A long reply that fills the journal. " * 30
        server.add(Step(text=long_reply), Step(text="Still here."), Step(text="{}"))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "PALACE_"))}
        env.update(PALACE_HOME=str(home), OPENAI_BASE_URL=server.base_url, OPENAI_API_KEY="k")
        done = subprocess.run(
            [sys.executable, "-c", _FULL_DISK],
            input="first question\nsecond question\n/exit\n",
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            cwd=tmp_path / "cwd" if (tmp_path / "cwd").mkdir() is None else None,
        )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout.count("this session is not being recorded") == 1
    assert "Still here." in done.stdout  # the second turn was answered


def test_a_search_with_a_fifo_in_place_of_memories_does_not_hang(tmp_path: Path) -> None:
    home = tmp_path / "palace"
    home.mkdir(mode=0o700)
    os.mkfifo(home / "memories.md")
    done = palace_process(home, "sessions", "search", "anything", timeout=60)
    assert done.returncode == 0 and "no matches" in done.stdout and "Traceback" not in done.stderr


def test_store_read_refuses_a_fifo_directly(tmp_path: Path) -> None:
    home = tmp_path / "palace"
    home.mkdir()
    os.mkfifo(home / "memories.md")
    with pytest.raises(StoreError, match="FIFO"):
        MemoryStore(home).read_bytes()
