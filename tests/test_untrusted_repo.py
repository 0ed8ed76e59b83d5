"""A cloned repository is another's: its `.palace/` is read as untrusted input by every reader and writer.

Each hostile repository holds a link, a hard link, a FIFO or a committed token where the project memory goes,
next to a file outside the repository whose text must never reach palace's output, prompt or hooks, and whose
bytes must never change. Readers: the REPL's first prompt, `palace ask`, `palace memory show`, the Claude Code
session-start hook, MCP memory_show, resource and prompt. Writers: `palace memory save` with saves="project",
a forget (superseded.md), `palace init --project` (.gitignore, .gitattributes).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from palace.app import App
from palace.config import Settings
from palace.mcp.hooks import run_hook
from palace.testing.scripted import ScriptedModel
from palace.testing.server import ScriptedServer, Step
from palace.ui.console import Console
from palace.ui.repl import Repl
from tests.conftest import CliRun

MARKER = "outside-text-7f3a9"  # in every file outside the repository: never in any output
TEAM = "## Decisions\n\n### database\n- [2026-11-20] acme stores orders in PostgreSQL 16\n"
NO_MEMORIES = Step(text=json.dumps({"summary": "s", "memories": []}))
CREDENTIALS = f"[default]\naws_access_key_id = AKIAQ3EGRXMPLE7TQ4NA\n# {MARKER}\n"


def _git(cwd: Path, *args: str) -> str:
    env_free = ["-c", "user.name=T", "-c", "user.email=t@example.org", "-c", "init.defaultBranch=main"]
    return subprocess.run(["git", *env_free, *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


@dataclass
class Hostile:
    """A repository `acme` whose .palace/ was made by someone else, and the outside files it points at."""

    root: Path
    outside: Path
    refusal: str  # a part of the one line that says what was refused and why

    def snapshot(self) -> dict[str, tuple[bytes, int]]:
        """Every file outside the repository, with its bytes and mtime (nothing may change or appear)."""
        found = {}
        for path in sorted(self.outside.rglob("*")):
            if path.is_file() and not path.is_symlink():
                found[str(path)] = (path.read_bytes(), path.stat().st_mtime_ns)
        return found


def _make(tmp_path: Path, kind: str) -> Hostile:
    outside = tmp_path / "outside"
    (outside / "dir").mkdir(parents=True)
    (outside / "credentials").write_text(CREDENTIALS)
    (outside / "dir" / "memories.md").write_text(f"## Preferences\n\n### x\n- [2026-01-01] {MARKER}\n")
    root = tmp_path / "acme"
    (root / "src").mkdir(parents=True)
    _git(root, "init", "-q")
    folder = root / ".palace"
    memories = folder / "memories.md"
    refusal = "symbolic link"
    if kind == "folder-link":
        folder.symlink_to("../outside/dir")
    else:
        folder.mkdir()
    if kind == "file-link":
        memories.symlink_to("../../outside/credentials")
    elif kind == "absolute-link":
        memories.symlink_to(outside / "credentials")
    elif kind == "dangling-link":
        memories.symlink_to("../../outside/created-by-palace")
    elif kind == "hard-link":
        os.link(outside / "credentials", memories)
        refusal = "hard link"
    elif kind == "fifo":
        os.mkfifo(memories)
        refusal = "FIFO"
    (root / "src" / "main.py").write_text("print('hi')\n")
    return Hostile(root, outside, refusal)


KINDS = ["file-link", "absolute-link", "folder-link", "dangling-link", "hard-link", "fifo"]


@pytest.fixture(params=KINDS)
def hostile(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Hostile:
    made = _make(tmp_path, request.param)
    monkeypatch.chdir(made.root / "src")
    return made


def _one_refusal(text: str, hostile: Hostile) -> None:
    lines = [line for line in text.splitlines() if "no project memory" in line]
    assert len(lines) == 1, text
    assert ".palace" in lines[0] and hostile.refusal in lines[0] and "did not open it" in lines[0], lines[0]
    assert MARKER not in text


def test_the_repl_prompt_never_carries_an_outside_file(hostile: Hostile, settings_for: Callable[..., Settings]) -> None:
    before = hostile.snapshot()
    settings = settings_for(project_saves="project")
    model = ScriptedModel([Step(text="ok")], responder=lambda body: NO_MEMORIES)
    out = io.StringIO()
    console = Console(out, out, color=False)
    repl = Repl(App(settings, warn=console.warn, client=model), console, interactive=False, wings=["acme"])
    repl.run(["which database do we use?"])
    system = model.requests[0]["messages"][0]["content"]
    assert MARKER not in system and "AKIA" not in system and "Project memory" not in system
    _one_refusal(out.getvalue(), hostile)
    assert hostile.snapshot() == before


def test_memory_show_and_a_project_save_never_touch_an_outside_file(
    hostile: Hostile, run_cli: Callable[..., CliRun], palace_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = hostile.snapshot()
    palace_home.mkdir(parents=True, exist_ok=True)
    (palace_home / "config.toml").write_text('[project]\nsaves = "project"\n')
    monkeypatch.chdir(hostile.root / "src")
    shown = run_cli("memory", "show")
    assert shown.returncode == 0, shown.stderr
    _one_refusal(shown.stdout + shown.stderr, hostile)
    saved = run_cli("memory", "save", "acme/Decisions/testing", "acme tests with vitest")
    assert saved.returncode == 0, saved.stderr
    _one_refusal(saved.stdout + saved.stderr, hostile)
    assert "acme tests with vitest" in (palace_home / "memories.md").read_text()  # the user's own palace instead
    assert hostile.snapshot() == before
    assert not (hostile.outside / "created-by-palace").exists()


def test_ask_never_sends_an_outside_file(
    hostile: Hostile, run_cli: Callable[..., CliRun], fake_server: ScriptedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = hostile.snapshot()
    fake_server.add(Step(text="PostgreSQL."))
    fake_server.responder = lambda body: NO_MEMORIES
    monkeypatch.chdir(hostile.root / "src")
    done = run_cli("ask", "which database?", env={"OPENAI_BASE_URL": fake_server.base_url, "OPENAI_API_KEY": "k"})
    assert done.returncode == 0, done.stderr
    _one_refusal(done.stdout + done.stderr, hostile)
    assert all(MARKER not in json.dumps(body) for body in fake_server.requests)
    assert hostile.snapshot() == before


def test_the_session_start_hook_never_hands_claude_code_an_outside_file(hostile: Hostile, palace_home: Path) -> None:
    before = hostile.snapshot()
    palace_home.mkdir()
    event = {"session_id": "s1", "cwd": str(hostile.root / "src"), "hook_event_name": "SessionStart"}
    out, err = io.StringIO(), io.StringIO()
    assert run_hook("session-start", {"home": palace_home}, io.StringIO(json.dumps(event)), out, err) == 0
    assert MARKER not in out.getvalue() and "AKIA" not in out.getvalue()
    _one_refusal(err.getvalue(), hostile)
    assert hostile.snapshot() == before


def test_mcp_show_resource_and_prompt_never_answer_with_an_outside_file(hostile: Hostile, palace_home: Path) -> None:
    from palace.config import load_settings
    from palace.mcp.server import PalaceServer

    before = hostile.snapshot()
    warned: list[str] = []
    app = App(load_settings({"home": palace_home}, env={}), warn=warned.append, cwd=hostile.root / "src")
    server = PalaceServer(app, cwd=hostile.root / "src")
    shown = server.call("memory_show", {}, ["acme"])
    answers = [shown.text, server.read("palace://memories/acme"), server.prompt(None, ["acme"])]
    assert shown.error is None
    assert all(MARKER not in text and "AKIA" not in text and "Project memory" not in text for text in answers)
    _one_refusal("\n".join(warned), hostile)
    assert hostile.snapshot() == before


# ---------------------------------------------------------------------- one hostile file at a time


@pytest.fixture
def acme(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Hostile:
    """A repository with a plain project memory, and an outside folder."""
    made = _make(tmp_path, "plain")
    (made.root / ".palace" / "memories.md").write_text(TEAM)
    monkeypatch.chdir(made.root / "src")
    return made


def test_a_committed_token_is_left_out_of_every_reader_with_a_notice(
    acme: Hostile, run_cli: Callable[..., CliRun], palace_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = "ghp_" + "R7d2kQ9vX3mB8nL4pW6tY1zA5cE0fH2jK8sU"
    team = TEAM + f"- [2026-11-21] The CI token is {token}\n"
    (acme.root / ".palace" / "memories.md").write_text(team)
    monkeypatch.chdir(acme.root / "src")
    shown = run_cli("memory", "show")
    assert token not in shown.stdout + shown.stderr and "PostgreSQL 16" in shown.stdout
    assert "Left out 1 line of .palace/memories.md that looks like a secret: line 5" in shown.stdout
    palace_home.mkdir(exist_ok=True)
    event = {"session_id": "s1", "cwd": str(acme.root / "src"), "hook_event_name": "SessionStart"}
    out = io.StringIO()
    run_hook("session-start", {"home": palace_home}, io.StringIO(json.dumps(event)), out, io.StringIO())
    context = json.loads(out.getvalue())["hookSpecificOutput"]["additionalContext"]
    assert token not in context and "PostgreSQL 16" in context and "line 5" in context
    assert (acme.root / ".palace" / "memories.md").read_text() == team  # left out, never rewritten


def test_the_repl_says_once_what_it_left_out_and_never_sends_it(
    acme: Hostile, settings_for: Callable[..., Settings]
) -> None:
    token = "ghp_" + "R7d2kQ9vX3mB8nL4pW6tY1zA5cE0fH2jK8sU"
    (acme.root / ".palace" / "memories.md").write_text(TEAM + f"- [2026-11-21] deploy token {token}\n")
    settings = settings_for()
    settings.home.mkdir(parents=True, exist_ok=True)
    settings.memories_file.write_text(f"## Preferences\n\n### shell\n- [2026-11-01] my password is {token}\n")
    model = ScriptedModel([Step(text="ok"), Step(text="ok again")], responder=lambda body: NO_MEMORIES)
    out = io.StringIO()
    console = Console(out, out, color=False)
    repl = Repl(App(settings, warn=console.warn, client=model), console, interactive=False, wings=["acme"])
    repl.run(["hello", "and again"])
    assert all(token not in json.dumps(body) for body in model.requests)
    said = out.getvalue()
    assert said.count("Left out 1 line of .palace/memories.md") == 1, said
    assert said.count(f"Left out 1 line of {settings.memories_file}") == 1, said


def test_a_dangling_gitignore_link_is_never_created_by_a_read_or_by_init(
    acme: Hostile, run_cli: Callable[..., CliRun], monkeypatch: pytest.MonkeyPatch
) -> None:
    ignore = acme.root / ".palace" / ".gitignore"
    ignore.symlink_to("../../outside/made-by-gitignore")
    attributes = acme.root / ".gitattributes"
    attributes.symlink_to("../outside/credentials")
    before = acme.snapshot()
    monkeypatch.chdir(acme.root / "src")
    assert run_cli("memory", "show").returncode == 0
    init = run_cli("init", "--project")
    assert init.returncode != 0 and ".gitattributes" in init.stderr and "symbolic link" in init.stderr
    assert MARKER not in init.stdout + init.stderr
    assert acme.snapshot() == before and not (acme.outside / "made-by-gitignore").exists()
    assert ignore.is_symlink() and attributes.is_symlink()


def test_a_linked_superseded_file_refuses_the_forget_before_anything_is_written(
    acme: Hostile, run_cli: Callable[..., CliRun], palace_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (acme.root / ".palace" / "superseded.md").symlink_to("../../outside/credentials")
    palace_home.mkdir(parents=True, exist_ok=True)
    (palace_home / "config.toml").write_text('[project]\nsaves = "project"\n')
    before = acme.snapshot()
    monkeypatch.chdir(acme.root / "src")
    done = run_cli("memory", "forget", "acme/Decisions/database", "acme stores orders in PostgreSQL 16")
    assert done.returncode != 0 and "superseded.md" in done.stderr and "symbolic link" in done.stderr
    assert MARKER not in done.stdout + done.stderr
    assert (acme.root / ".palace" / "memories.md").read_text() == TEAM  # nothing written
    assert acme.snapshot() == before


def test_links_where_older_palaces_kept_their_lock_and_index_are_never_followed(
    acme: Hostile, run_cli: Callable[..., CliRun], palace_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (acme.root / ".palace" / ".lock").symlink_to("../../outside/credentials")
    (acme.root / ".palace" / ".index").symlink_to("../../outside/dir")
    palace_home.mkdir(parents=True, exist_ok=True)
    (palace_home / "config.toml").write_text('[project]\nsaves = "project"\n')
    before = acme.snapshot()
    monkeypatch.chdir(acme.root / "src")
    saved = run_cli("memory", "save", "acme/Decisions/testing", "acme tests with vitest")
    assert saved.returncode == 0, saved.stderr
    assert "acme tests with vitest" in (acme.root / ".palace" / "memories.md").read_text()
    undone = run_cli("memory", "undo")
    assert undone.returncode == 0, undone.stderr
    assert (acme.root / ".palace" / "memories.md").read_text() == TEAM
    assert acme.snapshot() == before
    assert sorted(p.name for p in (acme.outside / "dir").iterdir()) == ["memories.md"]
