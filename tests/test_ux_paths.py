"""Memory paths typed as completion inserts them (halls with spaces, quotes), and messages that start with "/"."""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from ux_helpers import make_repl, scripted

from palace.app import App
from palace.config import Settings
from palace.errors import PalaceError
from palace.testing.server import Step
from palace.ui.completion import completer, path_completions
from palace.ui.console import Console
from palace.ui.pathargs import split_path_arg
from palace.ui.repl import Repl

USAGE = "/remember PATH CONTENT"


@pytest.mark.parametrize(
    ("arg", "path", "content"),
    [
        ("Project Knowledge/db The app uses Postgres", "Project Knowledge/db", "The app uses Postgres"),
        ("project  knowledge/db The app uses Postgres", "project knowledge/db", "The app uses Postgres"),
        (
            "ifai/Workflow Patterns/review Reviews go through PRs",
            "ifai/Workflow Patterns/review",
            "Reviews go through PRs",
        ),
        ('"Project Knowledge/db" The app uses Postgres', "Project Knowledge/db", "The app uses Postgres"),
        ("'Preferences/Programming Languages' Rust, mostly", "Preferences/Programming Languages", "Rust, mostly"),
        ('Preferences/editor Uses "neovim" (it\'s fast)', "Preferences/editor", 'Uses "neovim" (it\'s fast)'),
        ("Decisions/db-choice Postgres", "Decisions/db-choice", "Postgres"),
    ],
)
def test_the_path_and_the_content_are_told_apart(arg: str, path: str, content: str) -> None:
    assert split_path_arg(arg, USAGE) == (path, content)


@pytest.mark.parametrize(
    ("arg", "message"),
    [
        ("Project Knowledge/db", "usage: /remember PATH CONTENT"),
        ('"Project Knowledge/db The app', "closing quote"),
        ('"Project Knowledge/db"The app', "space after the quoted path"),
        ("", "usage:"),
    ],
)
def test_a_half_typed_path_says_what_is_missing(arg: str, message: str) -> None:
    with pytest.raises(PalaceError, match=message):
        split_path_arg(arg, USAGE)


def test_remember_and_forget_accept_the_halls_as_displayed(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for()
    repl, out = make_repl(settings)
    repl.run(
        [
            "/remember Project Knowledge/db The app uses Postgres",
            '/remember "Workflow Patterns/review" Reviews happen on Fridays',
            "/forget Project Knowledge/db The app uses Postgres",
            "/exit",
        ]
    )
    text = out.getvalue()
    assert "✓ Saved to Project Knowledge/db: The app uses Postgres" in text
    assert "✓ Saved to Workflow Patterns/review: Reviews happen on Fridays" in text
    assert "− Forgot from Project Knowledge/db: The app uses Postgres" in text  # not the failure mark
    assert "✗" not in text and "Error" not in text
    memories = settings.memories_file.read_text()
    assert "Reviews happen on Fridays" in memories and "Postgres" not in memories


def _completions(repl: Repl, text: str) -> list[str]:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    found = completer(repl.store).get_completions(Document(text), CompleteEvent(completion_requested=True))
    return [c.text for c in found]


def test_completion_offers_what_the_commands_accept(settings_for: Callable[..., Settings]) -> None:
    repl, _ = make_repl(settings_for())
    repl.handle("/remember Project Knowledge/db The app uses Postgres")
    assert _completions(repl, "/remember Proj") == ["Project Knowledge/", "Project Knowledge/db "]
    assert _completions(repl, "/remember Project Kn") == ["Project Knowledge/", "Project Knowledge/db "]
    assert _completions(repl, "/remember Project Knowledge/") == ["Project Knowledge/", "Project Knowledge/db "]
    assert _completions(repl, '/forget "Project Knowledge/d') == ['"Project Knowledge/db" ']
    assert _completions(repl, "/rem Work") == ["Workflow Patterns/"]
    assert _completions(repl, "/remember Project Knowledge/db The") == []  # the content: nothing to complete
    assert _completions(repl, "/us") == ["/usage"]
    for typed in ("Project Knowledge/db ", '"Project Knowledge/db" '):
        assert split_path_arg(typed + "Uses Postgres 16", USAGE).path == "Project Knowledge/db"
    repl.run([])


def test_tab_then_typing_saves_through_the_real_prompt(settings_for: Callable[..., Settings]) -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    settings = settings_for()
    out = io.StringIO()
    console = Console(out, out, color=False)
    with create_pipe_input() as pipe:
        repl = Repl(
            App(settings, warn=console.warn, client=scripted()),
            console,
            interactive=True,
            pt_input=pipe,
            pt_output=DummyOutput(),
        )
        runner = threading.Thread(target=repl.run)
        runner.start()
        try:
            pipe.send_text("/remember Project Kn\t")  # Tab completes the hall (in the background)
            assert _wait_for(lambda: _buffer(repl) == "/remember Project Knowledge/"), _buffer(repl)
            pipe.send_text("db The app uses Postgres\r")
        finally:
            pipe.send_text("\x04")
            runner.join(60)
    assert "✓ Saved to Project Knowledge/db: The app uses Postgres" in out.getvalue()


def _buffer(repl: Repl) -> str | None:
    app = repl._app
    return app.current_buffer.text if app is not None and app.is_running else None


def _wait_for(condition: Callable[[], bool], timeout: float = 30) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_wings_halls_are_offered_too(settings_for: Callable[..., Settings]) -> None:
    repl, _ = make_repl(settings_for())
    repl.handle("/remember ifai/Decisions/db Postgres")
    assert [shown for _, shown in path_completions(repl.store, "ifai/Pro")] == ["ifai/Project Knowledge/"]
    repl.run([])


def test_messages_that_start_with_a_path_go_to_the_model(settings_for: Callable[..., Settings], tmp_path: Path) -> None:
    model = scripted(Step(text="It maps names to addresses."), Step(text="A slash."), Step(text="Full."))
    repl, out = make_repl(settings_for(), model)
    repl.run(
        [
            "/etc/hosts is a file I keep editing, what is it for?",
            "//help means what?",
            f"{tmp_path} is full",
            "/frobnicate",
            "/exit",
        ]
    )
    sent = [r["messages"][-1]["content"] for r in model.requests if r.get("stream")]
    assert sent == ["/etc/hosts is a file I keep editing, what is it for?", "/help means what?", f"{tmp_path} is full"]
    text = out.getvalue()
    assert "It maps names to addresses." in text and "A slash." in text
    assert "unknown command /frobnicate" in text  # a word naming nothing on disk is still a mistyped command
