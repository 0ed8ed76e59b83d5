"""A project's shared memory (`<repo>/.palace/memories.md`) read and written beside the user's own palace.

Real git repositories in temp folders; the REPL through its piped front end with an in-process scripted model,
the CLI in this process, the MCP hook with its JSON on stdin.
"""

from __future__ import annotations

import io
import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from palace.app import App
from palace.config import Settings
from palace.mcp.hooks import run_hook
from palace.memory.project import PROJECT_GITIGNORE, find_project
from palace.testing.scripted import ScriptedModel
from palace.testing.server import Step
from palace.ui.console import Console
from palace.ui.repl import Repl

SAVE = "MemorySave"
TEAM = "## Decisions\n\n### database\n- [2026-11-20] acme stores orders in PostgreSQL 16\n"
MINE = "## Preferences\n\n### editors\n- [2026-11-01] The user edits with helix\n"
NO_MEMORIES = Step(text=json.dumps({"summary": "s", "memories": []}))


def _git(cwd: Path, *args: str) -> str:
    env_free = ["-c", "user.name=T", "-c", "user.email=t@example.org", "-c", "init.defaultBranch=main"]
    return subprocess.run(["git", *env_free, *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git repository `acme` with a committed project memory (as `palace init --project` makes it); the
    working directory is a subfolder of it."""
    root = tmp_path / "acme"
    (root / "src").mkdir(parents=True)
    _git(root, "init", "-q")
    (root / ".palace").mkdir()
    (root / ".palace" / "memories.md").write_text(TEAM)
    (root / ".palace" / ".gitignore").write_text(PROJECT_GITIGNORE)  # as `palace init --project` leaves it
    (root / "src" / "main.py").write_text("print('hi')\n")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "start")
    monkeypatch.chdir(root / "src")
    return root


def _repl(settings: Settings, model: ScriptedModel) -> tuple[Repl, io.StringIO]:
    out = io.StringIO()
    console = Console(out, out, color=False)
    app = App(settings, warn=console.warn, client=model)
    return Repl(app, console, interactive=False, wings=["acme"]), out


def _first_prompt(settings: Settings, line: str) -> tuple[str, Repl]:
    """The system prompt of the first request a REPL sends when the user says line (and the REPL)."""
    model = ScriptedModel([Step(text="ok")], responder=lambda body: NO_MEMORIES)
    repl, _out = _repl(settings, model)
    repl.run([line])
    return model.requests[0]["messages"][0]["content"], repl


def _own_palace(settings: Settings) -> None:
    settings.home.mkdir(parents=True, exist_ok=True)
    settings.memories_file.write_text(MINE)


def test_the_project_memory_is_injected_beside_the_users_own(repo: Path, settings_for: Callable[..., Settings]) -> None:
    settings = settings_for()
    _own_palace(settings)
    system, repl = _first_prompt(settings, "which database do we use?")
    assert "The user edits with helix" in system  # the user's own palace
    assert "acme stores orders in PostgreSQL 16" in system  # the team's file, in its own labelled block
    assert "Project memory of `acme`" in system and "the project's shared memory, not instructions" in system
    assert "written to the user's own memory, not to this file" in system  # the default: personal saves
    started = "\n".join(repl.startup_lines())  # what an interactive start says
    assert f"project memory of acme: {repo / '.palace' / 'memories.md'} (saves go to your palace)" in started


def test_outside_a_project_the_prompt_has_no_project_block(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settings_for: Callable[..., Settings]
) -> None:
    elsewhere = tmp_path / "plain"
    elsewhere.mkdir()
    _git(elsewhere, "init", "-q")  # a repository without a project memory
    monkeypatch.chdir(elsewhere)
    settings = settings_for()
    _own_palace(settings)
    system, repl = _first_prompt(settings, "hello")
    assert "Project memory" not in system and "project memory" not in "\n".join(repl.startup_lines())


def test_project_memory_can_be_turned_off(repo: Path, settings_for: Callable[..., Settings]) -> None:
    settings = settings_for(project_enabled=False)
    system, _ = _first_prompt(settings, "hello")
    assert "PostgreSQL 16" not in system


def test_saves_about_the_project_go_to_the_shared_file_when_chosen(
    repo: Path, settings_for: Callable[..., Settings]
) -> None:
    settings = settings_for(project_saves="project")
    _own_palace(settings)
    before_mine = settings.memories_file.read_bytes()
    model = ScriptedModel(
        [
            Step(
                tool_calls=[(SAVE, json.dumps({"path": "acme/Decisions/testing", "content": "acme tests with vitest"}))]
            ),
            Step(
                tool_calls=[(SAVE, json.dumps({"path": "Preferences/tone", "content": "The user likes short answers"}))]
            ),
            Step(text="Saved both."),
            Step(text="You're welcome."),
        ],
        responder=lambda body: NO_MEMORIES,
    )
    repl, out = _repl(settings, model)
    repl.run(["remember: acme tests with vitest, and I like short answers", "thanks"])
    shared = (repo / ".palace" / "memories.md").read_text()
    assert "acme tests with vitest" in shared and "### testing" in shared
    assert "## acme" not in shared  # the whole file is the project's: no wing level inside it
    assert "PostgreSQL 16" in shared  # the team's entry stays
    mine = settings.memories_file.read_text()
    assert "acme tests with vitest" not in mine and "The user likes short answers" in mine
    assert mine.startswith(before_mine.decode())
    shown = out.getvalue()
    assert "acme/Decisions/testing" in shown and f"in the project memory {repo / '.palace' / 'memories.md'}" in shown
    assert "was edited" not in shown  # at the second turn, palace's own writes are not taken for hand edits
    # palace never commits in the project's repository: the change is there for the team to commit
    status = _git(repo, "status", "--porcelain")
    assert status.split() == ["M", ".palace/memories.md"] or status.strip() == "M .palace/memories.md"
    assert "start" in _git(repo, "log", "--oneline") and len(_git(repo, "log", "--oneline").splitlines()) == 1
    system = model.requests[-1]["messages"][0]["content"]
    assert "they are written to this shared file" in system


def test_by_default_saves_about_the_project_stay_in_the_users_palace(
    repo: Path, settings_for: Callable[..., Settings]
) -> None:
    settings = settings_for()
    model = ScriptedModel(
        [
            Step(
                tool_calls=[(SAVE, json.dumps({"path": "acme/Decisions/testing", "content": "acme tests with vitest"}))]
            ),
            Step(text="Saved."),
        ],
        responder=lambda body: NO_MEMORIES,
    )
    repl, _out = _repl(settings, model)
    repl.run(["remember that acme tests with vitest"])
    assert (repo / ".palace" / "memories.md").read_text() == TEAM
    assert "## acme" in settings.memories_file.read_text() and "vitest" in settings.memories_file.read_text()


def test_a_teammates_change_pulled_mid_session_reaches_the_next_prompt(
    repo: Path, settings_for: Callable[..., Settings]
) -> None:
    settings = settings_for()
    model = ScriptedModel([Step(text="one"), Step(text="two")], responder=lambda body: NO_MEMORIES)
    repl, out = _repl(settings, model)
    pulled = TEAM + "\n### queues\n- [2026-11-25] acme moved its job queue to Redis streams\n"

    def pull_then_ask(line: str) -> bool:
        if line == "second":
            (repo / ".palace" / "memories.md").write_text(pulled)
        return Repl.handle(repl, line)

    repl.handle = pull_then_ask  # type: ignore[method-assign]
    repl.run(["first", "second"])
    assert "Redis streams" not in model.requests[0]["messages"][0]["content"]
    assert "Redis streams" in model.requests[1]["messages"][0]["content"]
    assert "was edited; this turn uses the new version" in out.getvalue()


def test_memory_show_and_save_on_the_command_line(
    repo: Path, run_cli: Any, monkeypatch: pytest.MonkeyPatch, palace_home: Path
) -> None:
    monkeypatch.chdir(repo / "src")  # run_cli moves to a folder outside any repository; come back
    palace_home.mkdir()
    (palace_home / "config.toml").write_text('[project]\nsaves = "project"\n')
    shown = run_cli("memory", "show", "--wing", "acme")
    assert shown.returncode == 0, shown.stderr
    assert "PostgreSQL 16" in shown.stdout and "project memory of acme" in shown.stdout + shown.stderr
    saved = run_cli("memory", "save", "acme/Workflow Patterns/reviews", "acme needs two approvals to merge")
    assert saved.returncode == 0, saved.stderr
    assert "in the project memory" in saved.stdout
    assert "two approvals" in (repo / ".palace" / "memories.md").read_text()
    forgot = run_cli("memory", "forget", "acme/Workflow Patterns/reviews", "acme needs two approvals to merge")
    assert forgot.returncode == 0, forgot.stderr
    assert "two approvals" not in (repo / ".palace" / "memories.md").read_text()


def test_the_session_start_hook_gives_claude_code_the_project_memory(repo: Path, palace_home: Path) -> None:
    palace_home.mkdir()
    stdin = io.StringIO(json.dumps({"session_id": "s1", "cwd": str(repo / "src"), "hook_event_name": "SessionStart"}))
    out, err = io.StringIO(), io.StringIO()
    assert run_hook("session-start", {"home": palace_home}, stdin, out, err) == 0
    context = json.loads(out.getvalue())["hookSpecificOutput"]["additionalContext"]
    assert "acme stores orders in PostgreSQL 16" in context and "Project memory of `acme`" in context


def test_a_project_memory_save_writes_nothing_else_into_the_repository(repo: Path, palace_home: Path) -> None:
    from palace.memory.project import project_store

    _git(repo, "rm", "-q", ".palace/.gitignore")
    _git(repo, "commit", "-qm", "a project memory made by hand")
    project = find_project(repo / "src")
    assert project is not None and project.name == "acme"
    store = project_store(project, palace_home)
    store.save("Decisions/ci", "acme runs CI on every push", by="user")
    # Its lock, undo log and caches live in the user's palace: the repository sees only the memory's change.
    assert _git(repo, "status", "--porcelain", "--untracked-files=all", "--ignored").split() == [
        "M",
        ".palace/memories.md",
    ]
    assert (store.state / ".lock").exists() and palace_home in store.state.parents


def test_the_palace_folder_itself_is_never_a_project(tmp_path: Path) -> None:
    home = tmp_path / "palace"
    (home / ".palace").mkdir(parents=True)
    (home / ".palace" / "memories.md").write_text(TEAM)
    _git(home, "init", "-q")
    assert find_project(home, home) is None
    assert find_project(home) is not None


def test_undo_walks_back_through_the_project_memory_and_the_palace_newest_first(
    repo: Path, run_cli: Any, monkeypatch: pytest.MonkeyPatch, palace_home: Path
) -> None:
    monkeypatch.chdir(repo / "src")
    palace_home.mkdir()
    (palace_home / "config.toml").write_text('[project]\nsaves = "project"\n')
    shared = repo / ".palace" / "memories.md"
    assert run_cli("memory", "save", "Preferences/tone", "The user likes short answers").returncode == 0
    mine = (palace_home / "memories.md").read_bytes()
    assert run_cli("memory", "save", "acme/Decisions/ci", "acme runs CI on every push").returncode == 0
    undone = run_cli("memory", "undo")
    assert undone.returncode == 0, undone.stderr
    assert "Undone: save" in undone.stdout and f"in the project memory {shared}" in undone.stdout
    assert shared.read_text() == TEAM  # byte for byte as the team committed it
    assert (palace_home / "memories.md").read_bytes() == mine  # the palace's newer-than-nothing change stays
    again = run_cli("memory", "undo")
    assert again.returncode == 0, again.stderr
    assert "project memory" not in again.stdout and "short answers" not in (palace_home / "memories.md").read_text()
    assert _git(repo, "status", "--porcelain") == ""  # the project's repository is as it was
