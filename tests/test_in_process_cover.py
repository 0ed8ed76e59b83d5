"""In process, what the rest of the quick tier (`-m "not e2e"`) reaches only through a real process: the shell
completion scripts and the words they complete (ui/shells.py), and the demo's scripted model (ui/demo.py)."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from palace.app import App
from palace.config import Settings
from palace.testing.scripted import ScriptedModel
from palace.ui.console import Console
from palace.ui.demo import SESSION_ONE, SESSION_TWO, demo_responder
from palace.ui.repl import Repl

Run = Callable[..., Any]  # conftest.run_cli


@pytest.mark.parametrize(
    ("shell", "says"),
    [
        ("bash", "complete -o default -F _palace_complete palace"),
        ("zsh", "#compdef palace"),
        ("fish", "complete -c palace"),
    ],
)
def test_each_shells_script_names_every_command_and_asks_palace_for_the_palaces_words(
    shell: str, says: str, run_cli: Run
) -> None:
    done = run_cli("completion", shell)
    assert done.returncode == 0 and says in done.stdout
    for word in ("chat", "ask", "memory", "sessions", "doctor", "completion", "transcript", "lint"):
        assert word in done.stdout
    assert "--complete" in done.stdout  # TAB on a path, a session or a wing asks palace itself


def test_completion_without_a_shell_says_which_are_known(run_cli: Run) -> None:
    done = run_cli("completion")
    assert done.returncode != 0 and "palace completion bash|zsh|fish" in done.stderr


def test_the_words_completed_are_the_palaces_rooms_halls_wings_and_sessions(run_cli: Run, palace_home: Path) -> None:
    assert run_cli("memory", "save", "ifai/Project Knowledge/db", "ifai uses PostgreSQL 16").returncode == 0
    assert run_cli("memory", "save", "Preferences/editor", "Uses helix").returncode == 0
    paths = run_cli("completion", "--complete", "paths", "--word", "pref").stdout.split()
    assert paths == ["Preferences/", "Preferences/editor"]
    spaced = run_cli("completion", "--complete", "paths", "--word", "ifai/project-k").stdout.split()
    assert spaced == ["ifai/ProjectKnowledge/", "ifai/ProjectKnowledge/db"]  # one shell word, no quotes needed
    assert run_cli("completion", "--complete", "wings", "--word", "").stdout.split() == ["ifai"]
    sessions = palace_home / "sessions"
    sessions.mkdir(exist_ok=True)
    for sid in ("2026-11-20-3f9a1c7e", "2026-11-25-9d3b6a10"):
        (sessions / f"{sid}.md").write_text(f"# Session {sid}\n")
    assert run_cli("completion", "--complete", "sessions", "--word", "2026-11").stdout.split() == [
        "2026-11-25-9d3b6a10",
        "2026-11-20-3f9a1c7e",
    ]
    assert run_cli("completion", "--complete", "sessions", "--word", "3f9").stdout.split() == ["2026-11-20-3f9a1c7e"]


def test_the_demo_model_saves_the_preference_then_uses_it_from_memory(settings_for: Callable[..., Settings]) -> None:
    settings: Settings = settings_for(model="palace-demo", extract_min=0)
    model = ScriptedModel(responder=demo_responder, model="palace-demo")
    outputs = []
    for lines in (SESSION_ONE, SESSION_TWO):
        out = io.StringIO()
        console = Console(out, out, color=False)
        Repl(App(settings, warn=console.warn, client=model), console, interactive=False).run(list(lines))
        outputs.append(out.getvalue())
    first, second = outputs
    assert "Saved to Preferences/testing: The user writes tests with pytest, never unittest" in first
    assert "The user writes tests with pytest" in settings.memories_file.read_text()
    assert "Since you write your tests with pytest" in second and "unittest-style" not in second
    summaries = sorted(
        p.read_text().split("## Summary\n")[1].split("\n")[0] for p in settings.sessions_dir.glob("*.md")
    )
    assert summaries == [
        "The user asked for a test of slugify(); the reply used their pytest preference from memory.",
        "The user said they write tests with pytest; the preference was saved.",
    ]
