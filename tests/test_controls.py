"""The user's controls: memory off, several wings at once, budget honesty, the one-time privacy notice."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from palace.app import App, detect_wings
from palace.config import Settings, load_settings
from palace.memory.lint import lint_file
from palace.memory.store import MemoryStore
from palace.testing.scripted import ScriptedModel
from palace.testing.server import ScriptedServer, Step
from palace.ui.console import Console
from palace.ui.repl import Repl

FACTS = "## Preferences\n\n### editors\n- [2026-11-01] The user edits with helix\n"
NO_MEMORIES = Step(text=json.dumps({"summary": "s", "memories": []}))


def _repl(settings: Settings, model: ScriptedModel, **kwargs: Any) -> tuple[Repl, io.StringIO]:
    out = io.StringIO()
    console = Console(out, out, color=False)
    return Repl(App(settings, warn=console.warn, client=model), console, interactive=False, **kwargs), out


# ---------------------------------------------------------------------- memory off


@pytest.mark.parametrize("how", ["flag", "environment", "config"])
def test_memory_off_sends_no_memory_block_no_tool_and_extracts_nothing(
    how: str, fake_server: ScriptedServer, palace_home: Path, run_cli: Any
) -> None:
    palace_home.mkdir()
    (palace_home / "memories.md").write_text(FACTS)
    env = {"OPENAI_BASE_URL": fake_server.base_url, "OPENAI_API_KEY": "k"}
    args = ["ask", "hello there, a long enough message " * 20]
    if how == "flag":
        args.insert(1, "--no-memory")
    elif how == "environment":
        env["PALACE_MEMORY"] = "off"
    else:
        (palace_home / "config.toml").write_text("[memory]\nenabled = false\n")
    fake_server.add(Step(text="Hi."))
    fake_server.responder = lambda body: NO_MEMORIES
    done = run_cli(*args, env=env)
    assert done.returncode == 0, done.stderr
    [request] = fake_server.requests  # one chat request, and no extraction call at the end
    assert request["stream"] and "tools" not in request
    system = request["messages"][0]["content"]
    assert "helix" not in system and "reference data" not in system
    assert "Long-term memory is off in this session" in system


def test_memory_off_shows_in_the_toolbar(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for(memory_enabled=False)
    repl, _out = _repl(settings, ScriptedModel(responder=lambda body: NO_MEMORIES))
    assert "memory off" in repl._toolbar()
    repl.run([])


# ---------------------------------------------------------------------- several wings


def test_several_wings_each_go_into_the_prompt(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for()
    MemoryStore(settings.home).file.parent.mkdir(parents=True, exist_ok=True)
    settings.memories_file.write_text(
        FACTS
        + "\n## alice\n\n### Preferences\n\n#### tone\n- [2026-11-02] Alice likes short answers\n"
        + "\n## ifai\n\n### Decisions\n\n#### db\n- [2026-11-03] ifai uses Postgres\n"
        + "\n## other\n\n### Decisions\n\n#### x\n- [2026-11-04] Something elsewhere\n"
    )
    model = ScriptedModel([Step(text="ok")], responder=lambda body: NO_MEMORIES)
    repl, _out = _repl(settings, model, wings=["alice", "ifai"])
    repl.run(["hello"])
    system = model.requests[0]["messages"][0]["content"]
    assert "Alice likes short answers" in system and "ifai uses Postgres" in system and "helix" in system
    assert "Something elsewhere" not in system and "Other wings, not shown: other" in system
    assert "The active wings are `alice` and `ifai`" in system and "always naming the wing" in system
    archive = next(settings.sessions_dir.glob("*.md")).read_text()
    assert "- Wing: alice, ifai" in archive


def test_wings_from_repeated_flags_and_the_environment(palace_home: Path, run_cli: Any) -> None:
    palace_home.mkdir()
    (palace_home / "memories.md").write_text(
        "## alice\n\n### Preferences\n\n#### tone\n- [2026-11-02] Alice likes short answers\n"
        "\n## ifai\n\n### Decisions\n\n#### db\n- [2026-11-03] ifai uses Postgres\n"
    )
    shown = run_cli("memory", "show", "--wing", "alice", "--wing", "ifai").stdout
    assert "Alice likes short answers" in shown and "ifai uses Postgres" in shown
    shown = run_cli("memory", "show", env={"PALACE_WING": "alice,ifai"}).stdout
    assert "Alice likes short answers" in shown and "ifai uses Postgres" in shown
    (palace_home / "config.toml").write_text('wing = "zed"\nwings = ["other"]\n')
    for value, active in (("alice,ifai", ["alice", "ifai"]), ("alice", ["alice"])):  # the variable replaces both
        settings = load_settings({"home": palace_home}, env={"PALACE_WING": value})
        assert detect_wings(settings) == active
    assert detect_wings(load_settings({"home": palace_home}, env={})) == ["zed", "other"]
    bad = run_cli("memory", "show", "--wing", "alice", "--wing", "my project")
    assert bad.returncode == 1 and 'wings (flag): wing "my project" must be a slug' in bad.stderr


# ---------------------------------------------------------------------- budget honesty


def test_the_over_budget_notice_is_shown_once_per_session(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for(memory_budget=600)
    entries = "\n".join(
        f"- [2026-10-{n + 1:02d}] Fact number {n} about the project and its many parts" for n in range(20)
    )
    settings.home.mkdir(parents=True, exist_ok=True)
    settings.memories_file.write_text(f"## Preferences\n\n### facts\n{entries}\n")
    model = ScriptedModel([Step(text="one"), Step(text="two")], responder=lambda body: NO_MEMORIES)
    repl, out = _repl(settings, model)
    with settings.memories_file.open("a") as handle:
        handle.write("- [2026-11-30] A hand-added fact that makes the prompt be rebuilt\n")
    repl.run(["first", "second"])
    assert out.getvalue().count("memory is over its 600-byte budget") == 1
    system = model.requests[0]["messages"][0]["content"]
    assert "entries left out to fit the 600-byte memory budget, the least used first, from Preferences/facts" in system


def test_own_text_too_long_for_the_budget_is_said_exactly_and_linted(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for(memory_budget=300)
    settings.home.mkdir(parents=True, exist_ok=True)
    prose = "\n".join(f"My own note number {n}, written by hand, a little long." for n in range(12))
    settings.memories_file.write_text(f"# Memories\n\n{prose}\n\n{FACTS}")
    model = ScriptedModel([Step(text="ok")], responder=lambda body: NO_MEMORIES)
    repl, out = _repl(settings, model)
    repl.run(["hello"])
    text = out.getvalue()
    assert "your own text in memories.md does not fit the 300-byte memory budget" in text
    assert "from line" in text and "raise memory.budget_bytes" in text
    report = lint_file(settings.memories_file, budget=300)
    assert any("does not fit the 300-byte memory budget" in p.message for p in report.problems)
    assert not report.has_errors  # a warning: nothing is wrong with the file itself


# ---------------------------------------------------------------------- privacy


def test_the_privacy_notice_is_shown_once_on_the_first_chat(settings_for: Callable[..., Settings]) -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    settings = settings_for(base_url="http://models.example.test/v1")
    texts = []
    for _ in range(2):
        out = io.StringIO()
        console = Console(out, out, color=False)
        app = App(settings, warn=console.warn, client=ScriptedModel(responder=lambda body: NO_MEMORIES))
        with create_pipe_input() as pipe:
            repl = Repl(app, console, interactive=True, pt_input=pipe, pt_output=DummyOutput())
            pipe.send_text("\x04")
            repl.run()
        texts.append(out.getvalue())
    assert "palace sends your memory block and each conversation to" in texts[0]
    assert "palace sends" not in texts[1]


def test_the_wing_comes_from_the_repository_git_itself_would_name(tmp_path: Path, palace_home: Path) -> None:
    # The repository is found without running git (a process of its own): it must be the one git names.
    import subprocess

    from palace.app import _git_top, _git_top_by_git

    repo = tmp_path / "Shop-Frontend"
    (repo / "src" / "deep").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (tmp_path / "link").symlink_to(repo / "src")
    nested = repo / "vendor" / "lib"
    nested.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(nested)], check=True)  # a repository inside another: the inner one
    (tmp_path / "plain").mkdir()
    for cwd in (repo, repo / "src" / "deep", tmp_path / "link", nested, tmp_path / "plain"):
        assert _git_top(str(cwd)) == _git_top_by_git(str(cwd)), cwd
    settings = load_settings({"home": palace_home}, env={})
    assert detect_wings(settings, repo / "src" / "deep") == ["Shop-Frontend"]
