"""Forgetting a secret for real: `forget` keeps no copy, `palace memory scrub` leaves no trace anywhere.

Real git, a real session through the REPL with an in-process scripted model, the CLI in this process; the
check after a scrub reads every object git still has, every file of the palace and the recall index.
"""

from __future__ import annotations

import io
import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from palace.app import App
from palace.config import Settings
from palace.testing.scripted import ScriptedModel
from palace.testing.server import Step
from palace.ui.console import Console
from palace.ui.repl import Repl
from tests.conftest import CliRun

SECRET = "Tr0ub4dor-zebra-991x"
ENTRY = f"The NAS password is {SECRET}"


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=True).stdout.decode("utf-8", "replace")


def _everything_git_has(home: Path) -> str:
    """Every commit with its patch on every ref, and the content of every object in the repository."""
    log = _git(home, "log", "-p", "--all", "--format=%H %B")
    objects = subprocess.run(
        ["git", "cat-file", "--batch-all-objects", "--batch", "--unordered"], cwd=home, capture_output=True, check=True
    ).stdout
    return log + objects.decode("utf-8", "replace")


def _every_file(home: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(home)): p.read_bytes()
        for p in home.rglob("*")
        if p.is_file() and not p.is_symlink() and ".git" not in p.relative_to(home).parts
    }


def _session_saying_the_secret(settings: Settings) -> None:
    """A REPL session in which the user types the secret (the journal keeps what was said)."""
    summary = json.dumps({"summary": "The user set up the NAS.", "memories": []})
    model = ScriptedModel([Step(text="Noted; I will not save passwords.")], responder=lambda body: Step(text=summary))
    out = io.StringIO()
    console = Console(out, out, color=False)
    Repl(App(settings, warn=console.warn, client=model), console, interactive=False).run(
        [f"the NAS at home uses the password {SECRET} for the admin user"]
    )


@pytest.fixture
def secret_palace(run_cli: Callable[..., CliRun], settings_for: Callable[..., Settings], palace_home: Path) -> Path:
    """A palace with git whose memories.md, history, a session and its input history all hold the secret."""
    assert run_cli("init", "--git").returncode == 0
    memories = palace_home / "memories.md"
    memories.write_text(memories.read_text() + f"\n## Preferences\n\n### nas\n- [2026-11-01] {ENTRY}\n")
    assert run_cli("memory", "save", "Preferences/editor", "The user edits with helix").returncode == 0
    _session_saying_the_secret(settings_for())
    (palace_home / "history.txt").write_text(f"\n# 2026-11-01\n+the password is {SECRET}\n")
    assert run_cli("sessions", "search", "NAS admin").returncode == 0  # the recall index is built
    assert SECRET in _everything_git_has(palace_home)
    return palace_home


def test_forget_of_a_secret_keeps_only_that_one_was_removed(
    secret_palace: Path, run_cli: Callable[..., CliRun]
) -> None:
    done = run_cli("memory", "forget", "Preferences/nas", ENTRY)
    assert done.returncode == 0, done.stderr
    assert SECRET not in done.stdout + done.stderr and "[secret removed]" in done.stdout
    superseded = (secret_palace / "superseded.md").read_text()
    assert SECRET not in superseded and "- [2026-11-01] [secret removed] · forgotten" in superseded
    assert SECRET not in (secret_palace / "memories.md").read_text()


def test_forget_secret_flag_hides_what_the_detector_would_not_see(
    palace_home: Path, run_cli: Callable[..., CliRun]
) -> None:
    assert run_cli("memory", "save", "Preferences/home", "The garage code is tulip").returncode == 0
    done = run_cli("memory", "forget", "--secret", "Preferences/home", "The garage code is tulip")
    assert done.returncode == 0 and "tulip" not in done.stdout
    assert "tulip" not in (palace_home / "superseded.md").read_text()


def test_scrub_leaves_no_trace_in_git_files_archives_or_the_index(
    secret_palace: Path, run_cli: Callable[..., CliRun]
) -> None:
    assert any(SECRET.encode() in data for data in _every_file(secret_palace).values())
    done = run_cli("memory", "scrub", SECRET, "--yes")
    assert done.returncode == 0, done.stderr
    assert SECRET not in done.stdout + done.stderr
    assert "rewrote the palace's git history" in done.stdout and "memories.md" in done.stdout
    assert SECRET not in _everything_git_has(secret_palace)
    for name, data in _every_file(secret_palace).items():
        assert SECRET.encode() not in data, name
    memories = (secret_palace / "memories.md").read_text()
    assert "The NAS password is [secret removed]" in memories and "The user edits with helix" in memories
    assert _git(secret_palace, "status", "--porcelain") == ""  # the rewritten history matches the files
    found = run_cli("sessions", "search", "NAS admin")  # the index is rebuilt from the scrubbed files
    assert found.returncode == 0 and "NAS" in found.stdout and SECRET not in found.stdout
    archives = list((secret_palace / "sessions").glob("*.md"))
    assert archives and all(SECRET not in a.read_text() for a in archives)


def test_scrub_of_a_text_that_is_nowhere_changes_nothing(secret_palace: Path, run_cli: Callable[..., CliRun]) -> None:
    head = _git(secret_palace, "rev-parse", "HEAD")
    before = _every_file(secret_palace)
    done = run_cli("memory", "scrub", "not-in-this-palace-42", "--yes")
    assert done.returncode == 0 and "nothing changed" in done.stdout
    assert _git(secret_palace, "rev-parse", "HEAD") == head
    after = _every_file(secret_palace)
    assert {k: v for k, v in after.items() if not k.startswith(".index")} == {
        k: v for k, v in before.items() if not k.startswith(".index")
    }


def test_scrub_refuses_a_text_too_short_to_be_a_secret_and_asks_without_yes(
    secret_palace: Path, run_cli: Callable[..., CliRun]
) -> None:
    short = run_cli("memory", "scrub", "NAS", "--yes")
    assert short.returncode != 0 and "at least 6 characters" in short.stderr
    unasked = run_cli("memory", "scrub", SECRET)
    assert unasked.returncode != 0 and "--yes" in unasked.stderr
    assert SECRET in _everything_git_has(secret_palace)


def test_replace_and_clear_of_a_secret_keep_no_copy_in_superseded(
    secret_palace: Path, run_cli: Callable[..., CliRun]
) -> None:
    replaced = run_cli("memory", "save", "Preferences/nas", "The NAS password lives in the vault", "--replaces", ENTRY)
    assert replaced.returncode == 0, replaced.stderr
    assert (
        SECRET not in replaced.stdout and "[secret removed] -> The NAS password lives in the vault" in replaced.stdout
    )
    memories = secret_palace / "memories.md"
    memories.write_text(memories.read_text() + f"\n### wifi\n- [2026-11-02] wifi password: {SECRET}\n")
    assert run_cli("memory", "clear", "--yes").returncode == 0
    superseded = (secret_palace / "superseded.md").read_text()
    assert SECRET not in superseded and superseded.count("[secret removed]") == 2, superseded
    assert "The NAS password lives in the vault" in superseded  # an ordinary entry is kept as it was


@pytest.mark.e2e
def test_after_a_scrub_sync_never_merges_the_old_history_back_and_force_replaces_it(
    secret_palace: Path, run_cli: Callable[..., CliRun], tmp_path: Path
) -> None:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    assert run_cli("sync", "--remote", str(remote)).returncode == 0
    assert SECRET in _git(remote, "log", "-p", "--all")  # pushed before anyone knew
    scrubbed = run_cli("memory", "scrub", SECRET, "--yes")
    assert scrubbed.returncode == 0 and "origin still holds the old commits" in scrubbed.stdout
    assert "`palace sync --force`" in scrubbed.stdout
    refused = run_cli("sync")
    assert refused.returncode != 0 and "would bring the scrubbed text back" in refused.stderr
    assert SECRET not in _everything_git_has(secret_palace)  # fetched again, never merged in
    assert SECRET not in (secret_palace / "memories.md").read_text()
    forced = run_cli("sync", "--force")
    assert forced.returncode == 0, forced.stderr
    assert "'s history with this palace's, scrubbed (a forced push)" in forced.stdout
    assert SECRET not in _git(remote, "log", "-p", "--all")
    assert SECRET not in _everything_git_has(secret_palace)
    again = run_cli("sync")
    assert again.returncode == 0 and "up to date with origin" in again.stdout
