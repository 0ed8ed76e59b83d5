"""`palace memory why`: who saved an entry, the message it came from, its uses and its commits."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from palace.app import App
from palace.config import Settings
from palace.testing.scripted import ScriptedModel
from palace.testing.server import Step
from palace.ui.console import Console
from palace.ui.repl import Repl
from tests.conftest import CliRun

TOOLS = ["ripgrep", "fzf", "zoxide", "bat", "delta", "hyperfine", "jq", "httpie", "tmux", "direnv"]
LANGUAGES = ["Rust", "Go", "Elixir", "Kotlin", "Zig", "OCaml", "Haskell", "Julia", "Nim", "Crystal"]


def _session(settings: Settings, said: list[str], steps: list[Step], memories: list[dict[str, Any]]) -> None:
    summary = Step(text=json.dumps({"summary": "A chat.", "memories": memories}))
    model = ScriptedModel(steps, responder=lambda body: summary)
    out = io.StringIO()
    console = Console(out, out, color=False)
    Repl(App(settings, warn=console.warn, client=model), console, interactive=False).run(said)


def test_why_quotes_the_message_each_of_20_entries_came_from(
    settings_for: Callable[..., Settings], run_cli: Callable[..., CliRun]
) -> None:
    settings = settings_for()
    assert run_cli("init", "--git").returncode == 0
    for tool in TOOLS:  # saved by the model, right after the user said it
        save = {"path": "Workflow Patterns/tools", "content": f"The user relies on {tool} every day"}
        steps = [Step(tool_calls=[("MemorySave", json.dumps(save))]), Step(text="Noted.")]
        _session(settings, [f"by the way I rely on {tool} every single day", "thanks"], steps, [])
    for language in LANGUAGES:  # found by extraction in a longer conversation
        said = [
            f"lately I have been writing a lot of {language} at work, mostly services and a few command-line tools",
            "what is a good book on testing? something practical about unit tests, fixtures and property tests",
        ]
        fact = {"path": "Preferences/languages", "content": f"The user writes {language} at work"}
        fact["confidence"] = "high"
        _session(settings, said, [Step(text="Nice."), Step(text="Try one.")], [fact])
    quoted = 0
    for word, path, content in [
        *((t, "Workflow Patterns/tools", f"The user relies on {t} every day") for t in TOOLS),
        *((lang, "Preferences/languages", f"The user writes {lang} at work") for lang in LANGUAGES),
    ]:
        done = run_cli("memory", "why", path, content)
        assert done.returncode == 0, done.stderr
        quote = next((line for line in done.stdout.splitlines() if "from: > user:" in line), "")
        quoted += word in quote
        assert "commit " in done.stdout and "in session 20" in done.stdout
    assert quoted == 20


def test_why_names_uses_and_an_entry_written_by_hand(run_cli: Callable[..., CliRun], palace_home: Path) -> None:
    palace_home.mkdir()
    (palace_home / "memories.md").write_text("## Preferences\n\n### shell\n- [2026-11-01] The user uses fish\n")
    run_cli("memory", "save", "Preferences/shell", "the user uses fish")  # a confirmation
    done = run_cli("memory", "why", "Preferences/shell", "- [2026-11-01] The user uses fish")
    assert done.returncode == 0, done.stderr
    assert "no session holds its saving" in done.stdout and "confirmed 1 time(s)" in done.stdout
    missing = run_cli("memory", "why", "Preferences/shell", "The user uses zsh")
    assert missing.returncode == 1 and "no entry" in missing.stderr
