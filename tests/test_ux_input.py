"""Multi-line messages at the prompt: Esc-Enter, Ctrl-J, a trailing backslash, a bracketed paste."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from ux_helpers import env_for, replying, run_palace, scripted

from palace.app import App
from palace.config import Settings
from palace.testing.scripted import ScriptedModel
from palace.testing.server import ScriptedServer, Step
from palace.ui.console import Console
from palace.ui.repl import Repl


def _sent(model: ScriptedModel) -> list[str]:
    return [r["messages"][-1]["content"] for r in model.requests if r.get("stream")]


def _type(settings: Settings, keys: list[str]) -> tuple[ScriptedModel, str]:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    model = scripted(*[Step(text=f"reply {n}") for n in range(len(keys))])
    out = io.StringIO()
    console = Console(out, out, color=False)
    with create_pipe_input() as pipe:
        repl = Repl(
            App(settings, warn=console.warn, client=model),
            console,
            interactive=True,
            pt_input=pipe,
            pt_output=DummyOutput(),
        )
        for text in keys:
            pipe.send_text(text)
        pipe.send_text("\x04")
        repl.run()
    return model, out.getvalue()


def test_each_way_of_adding_a_line_makes_one_message(settings_for: Callable[..., Settings]) -> None:
    model, out = _type(
        settings_for(),
        [
            "first line\x1b\rsecond line\r",  # Esc-Enter (Alt-Enter)
            "one\ntwo\nthree\r",  # Ctrl-J
            "continued \\\rhere\r",  # a trailing backslash
            "\x1b[200~pasted line one\r\npasted line two\x1b[201~\r",  # a bracketed paste, then Enter
            "single\r",
        ],
    )
    assert _sent(model) == [
        "first line\nsecond line",
        "one\ntwo\nthree",
        "continued \nhere",
        "pasted line one\npasted line two",
        "single",
    ]
    assert "reply 4" in out


def test_a_multi_line_message_is_one_history_entry(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for()
    _type(settings, ["alpha\x1b\rbeta\r"])
    history = (settings.home / "history.txt").read_text()
    assert "+alpha\n+beta\n" in history


def test_piped_lines_continue_after_a_backslash(fake_server: ScriptedServer, palace_home: Path) -> None:
    fake_server.responder = replying("ok")
    done = run_palace(["chat"], env_for(palace_home, fake_server), "a \\\nb\nc\n/exit\n")
    assert done.returncode == 0, done.stderr
    sent = [r["messages"][-1]["content"] for r in fake_server.requests if r.get("stream")]
    assert sent == ["a \nb", "c"]


def test_startup_screen_names_the_keys(settings_for: Callable[..., Settings]) -> None:
    _, out = _type(settings_for(), [])
    lines = out.splitlines()
    assert lines[0].startswith("palace sends")  # the one-time privacy notice comes first, on a first start
    first, second = lines[1:3]
    assert first == "palace · gpt-4.1-mini at the OpenAI API · no wing · memory: 0 entries, 0 of 8,192 bytes"
    assert second == "/help for commands · Esc-Enter or Ctrl-J for a new line · Ctrl-C stops a reply · Ctrl-D leaves"
