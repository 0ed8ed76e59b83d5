"""Replies rendered as markdown while they stream (rich), plain in pipes and with NO_COLOR; Ctrl-C keeps text."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from ux_helpers import REPO, HeldEvents, PtyRun, chunk, env_for, make_repl, replying, run_palace, scripted
from ux_terminal import Screen, strip_ansi

from palace.config import Settings
from palace.testing.server import ScriptedServer, Step
from palace.ui.markdown import Blocks, MarkdownStream

REPLY = """Use **pytest** with `tmp_path`; see [the docs](https://docs.pytest.org) for more.

1. Write the test
2. Run it

```python
def test_slug():
    assert slugify("Hello World") == "hello-world"
```

## Then

- keep it *short*
"""


def _screen_of(text: str, piece: int) -> list[str]:
    out = io.StringIO()
    stream = MarkdownStream(out)
    for at in range(0, len(text), piece):
        stream.feed(text[at : at + piece])
    stream.finish()
    return Screen(80, 24).feed(out.getvalue()).lines


EXPECTED = [
    "Use pytest with tmp_path; see the docs (https://docs.pytest.org) for more.",
    "",
    " 1 Write the test",
    " 2 Run it",
    "",
    "",
    " def test_slug():",
    '     assert slugify("Hello World") == "hello-world"',
    "",
    "",
    "Then",
    "",
    " • keep it short",
]


@pytest.mark.parametrize("piece", [1, 3, 17, 10_000])
def test_a_streamed_reply_renders_the_same_however_it_is_cut(piece: int) -> None:
    assert _screen_of(REPLY, piece) == EXPECTED


def test_blocks_end_where_nothing_more_can_change_them() -> None:
    blocks = Blocks()
    assert blocks.add("A paragraph\nstill the same one\n") == []
    assert blocks.add("\n") == []  # a blank line: the next line may continue a list, so wait for it
    assert blocks.add("- item one\n\n") == ["A paragraph\nstill the same one\n"]
    assert blocks.add("- item two after a blank line\n") == []  # the same (loose) list
    assert blocks.add("  continued\n\n```sh\nls\n\n") == ["- item one\n\n- item two after a blank line\n  continued\n"]
    assert blocks.add("pwd\n") == []  # the fence is still open: its blank line ended nothing
    assert blocks.add("```\n") == ["```sh\nls\n\npwd\n```\n"]
    assert blocks.close() == ""


def test_blocks_close_a_fence_and_a_heading_at_once() -> None:
    blocks = Blocks()
    assert blocks.add("```\ncode\n```\n") == ["```\ncode\n```\n"]
    assert blocks.add("## Heading\n") == ["## Heading\n"]
    assert blocks.add("text") == []
    assert blocks.tail == "text"
    assert blocks.close() == "text"


def test_finished_blocks_are_printed_once_and_never_redrawn() -> None:
    out = io.StringIO()
    stream = MarkdownStream(out)
    for at in range(0, len(REPLY), 2):
        stream.feed(REPLY[at : at + 2])
    stream.finish()
    raw = strip_ansi(out.getvalue())
    first_seen = raw.index("keep it")  # the last block appears only after the first ones were printed
    assert "Write the test" not in raw[first_seen:]
    assert "hello-world" not in raw[first_seen:]


def test_the_repl_streams_markdown_on_a_terminal(settings_for: Callable[..., Settings]) -> None:
    model = scripted(Step(text=REPLY, chunk_size=5))
    repl, out = make_repl(settings_for(), model, color=True)
    repl.run(["How do I test slugify?"])
    lines = Screen(80, 24).feed(out.getvalue()).lines
    reply = lines[: len(EXPECTED)]
    assert reply == EXPECTED
    assert "**" not in out.getvalue() and "```" not in out.getvalue()
    assert any(line.startswith("Session archived:") for line in lines)


def test_a_pipe_and_no_color_get_the_markdown_as_written(fake_server: ScriptedServer, palace_home: Path) -> None:
    fake_server.responder = replying(REPLY)
    piped = run_palace(["chat"], env_for(palace_home, fake_server), "How?\n/exit\n")
    assert piped.returncode == 0, piped.stderr
    assert REPLY.strip() in piped.stdout and "\x1b[" not in piped.stdout
    run = PtyRun(["ask", "How?"], env_for(palace_home, fake_server, NO_COLOR="1"))
    assert run.finish() == 0
    assert "\x1b[" not in run.text.replace("\x1b[?", "")
    assert "**pytest**" in run.text and "```python" in run.text


def test_ask_on_a_terminal_renders_markdown(fake_server: ScriptedServer, palace_home: Path) -> None:
    fake_server.add(Step(text=REPLY, chunk_size=4))
    fake_server.responder = lambda body: Step(text='{"summary": "s", "memories": []}')
    run = PtyRun(["ask", "How do I test slugify?"], env_for(palace_home, fake_server))
    assert run.finish() == 0
    lines = run.screen().lines
    assert lines[: len(EXPECTED)] == EXPECTED
    assert "\x1b[" in run.text  # colour and highlighting


def test_ctrl_c_mid_reply_keeps_what_arrived(fake_server: ScriptedServer, palace_home: Path) -> None:
    held = HeldEvents(
        [chunk("First **paragraph** arrived whole.\n\n"), chunk("- one item\n- and half of the sec")],
        [chunk("ond one\n"), chunk(None, "stop"), "[DONE]"],
    )
    fake_server.add(Step(events=held))
    fake_server.responder = lambda body: Step(text='{"summary": "s", "memories": []}')
    run = PtyRun(["ask", "Tell me"], env_for(palace_home, fake_server))
    try:
        assert run.read_until(lambda r: "and half of the sec" in strip_ansi(r.text)), run.text
        os.kill(run.proc.pid, signal.SIGINT)
        assert run.finish() == 0
    finally:
        held.go.set()
    lines = run.screen().lines
    assert lines[:4] == ["First paragraph arrived whole.", "", " • one item", " • and half of the sec"]
    assert "stopped by user" in run.screen().text
    journal = next((palace_home / "sessions").glob("*.jsonl")).read_text()
    assert "and half of the sec" in journal  # the conversation keeps it too


def test_ctrl_c_that_escapes_the_model_call_still_shows_the_text(settings_for: Callable[..., Settings]) -> None:
    class Interrupted:
        model = "gpt-4.1-mini"
        url = "scripted://model"

        def stream_chat(self, messages: object, tools: object = None, on_text: object = None, **kw: object) -> None:
            assert callable(on_text)
            on_text("A block that is done.\n\nAnd one in progr")
            raise KeyboardInterrupt

        def complete(self, *a: object, **kw: object) -> None:
            raise AssertionError("no extraction expected")

        def list_models(self) -> list[str]:
            return []

        def close(self) -> None:
            pass

    repl, out = make_repl(settings_for(), Interrupted(), color=True)  # type: ignore[arg-type]
    repl.handle("Go on")
    lines = Screen(80, 24).feed(out.getvalue()).lines
    assert lines[:3] == ["A block that is done.", "", "And one in progr"]
    assert "! stopped" in lines


def test_rich_is_not_imported_by_help_or_memory_commands(tmp_path: Path) -> None:
    code = (
        "import sys, palace.ui.cli as c; c.build_parser().format_help();"
        "import palace.ui.console, palace.ui.repl, palace.ui.commands;"
        "print('rich' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    assert done.stdout.strip() == "False"
