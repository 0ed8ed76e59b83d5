"""The REPL on a real terminal: `palace chat` on a pseudo-terminal that is its controlling terminal, so that a
typed Ctrl-C is the line discipline's SIGINT (echo and all) and closing the terminal is a hangup.

Ctrl-C mid-reply leaves the partial reply on screen once; closing the terminal ends the session as /exit does
(archived and extracted, not left to the next start), even when a second SIGHUP arrives during the extraction.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import struct
import subprocess
import sys
import termios
import threading
from pathlib import Path
from typing import Any

import pytest
from extraction_env import Gate
from ux_helpers import HeldEvents, PtyRun, chunk, env_for, run_palace
from ux_terminal import strip_ansi

from palace.testing.server import ScriptedServer, Step

# The child makes the pty its controlling terminal, then runs palace (no preexec_fn in a threaded test process).
_CTTY = (
    "import fcntl, os, sys, termios; fcntl.ioctl(0, termios.TIOCSCTTY, 0); "
    "os.execv(sys.executable, [sys.executable, '-m', 'palace', *sys.argv[1:]])"
)


class Terminal(PtyRun):
    """palace in a session of its own whose controlling terminal is the pty: what a terminal emulator gives it."""

    def __init__(self, args: list[str], env: dict[str, str], *, width: int = 80, height: int = 24) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
        cwd = Path(env["PALACE_HOME"]).parent / "cwd"
        cwd.mkdir(exist_ok=True)
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _CTTY, *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env={**env, "COLUMNS": str(width), "LINES": str(height), "PROMPT_TOOLKIT_NO_CPR": "1"},
            cwd=cwd,
            close_fds=True,
            start_new_session=True,
        )
        os.close(slave)
        self.master = master
        self.raw = b""
        self.width, self.height = width, height

    def prompting(self, after: str = "") -> bool:
        """Is the prompt on screen (after the last `after`)? prompt_toolkit draws it as soon as it reads keys."""
        text = strip_ansi(self.text)
        return "›" in (text.rpartition(after)[2] if after else text)

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)


def _extraction(body: dict[str, Any]) -> Step:
    return Step(text=json.dumps({"summary": "s", "memories": []}))


def _hang_up_during_the_extraction(term: Terminal, gate: Gate) -> None:
    """Close the terminal (palace is hung up: SIGHUP, and its output goes nowhere), then, once the session's final
    extraction is under way, send the SIGHUP the shell palace ran in passes on."""
    try:
        os.close(term.master)
        assert gate.asked.wait(60), "the session's final extraction never started"
        term.proc.send_signal(signal.SIGHUP)
    finally:
        gate.opened.set()


@pytest.mark.e2e
@pytest.mark.parametrize("no_color", [False, True], ids=["markdown", "NO_COLOR"])
def test_ctrl_c_mid_reply_leaves_the_partial_reply_once(
    fake_server: ScriptedServer, palace_home: Path, no_color: bool
) -> None:
    held = HeldEvents(
        [chunk("First **paragraph** arrived whole.\n\n"), chunk("- one item\n- and half of the sec")],
        [chunk("ond one\n"), chunk(None, "stop"), "[DONE]"],
    )
    fake_server.add(Step(events=held))
    fake_server.responder = _extraction
    term = Terminal(["chat"], env_for(palace_home, fake_server, **({"NO_COLOR": "1"} if no_color else {})))
    try:
        assert term.read_until(lambda t: t.prompting()), term.text
        term.type(b"Tell me\r")
        assert term.read_until(lambda t: "and half of the sec" in strip_ansi(t.text)), term.text
        term.type(b"\x03")  # Ctrl-C as typed: the terminal sends SIGINT, and would echo ^C
        assert term.read_until(lambda t: "reply stopped by user" in t.text and t.prompting("stopped by user"))
    finally:
        held.go.set()
    term.type(b"\x04")
    assert term.finish() == 0
    lines = term.screen().lines
    assert sum("and half of the sec" in line for line in lines) == 1, lines
    assert sum("one item" in line for line in lines) == 1, lines
    partial = next(n for n, line in enumerate(lines) if "and half of the sec" in line)
    assert lines[partial].endswith("and half of the sec") and "^C" not in term.screen().text
    assert lines[partial + 1] == "! reply stopped by user"


@pytest.mark.e2e
def test_closing_the_terminal_ends_the_session_as_exit_does(fake_server: ScriptedServer, palace_home: Path) -> None:
    gate = Gate(Step(text=json.dumps({"summary": "Fish shell and its prompt.", "memories": []})))
    fake_server.responder = lambda body: Step(text="Noted: fish.") if body.get("stream") else gate(body)
    env = env_for(palace_home, fake_server)
    term = Terminal(["chat"], env)
    assert term.read_until(lambda t: t.prompting()), term.text
    term.type(b"I use the fish shell with a two-line prompt, and starship draws it for me. " * 4 + b"\r")
    assert term.read_until(lambda t: "Noted: fish." in t.text and t.prompting("Noted: fish.")), term.text
    _hang_up_during_the_extraction(term, gate)
    assert term.proc.wait(60) in (0, 128 + signal.SIGHUP)
    (archive,) = (palace_home / "sessions").glob("*.md")
    assert "## Summary\nFish shell and its prompt." in archive.read_text()
    journal = archive.with_suffix(".jsonl").read_text().splitlines()
    assert json.loads(journal[-1])["type"] == "end"
    fake_server.responder = lambda body: Step(text="hi") if body.get("stream") else _extraction(body)
    again = run_palace(["chat"], env, "/exit\n")
    assert again.returncode == 0 and "unfinished session" not in again.stdout + again.stderr


@pytest.mark.e2e
def test_closing_the_terminal_while_the_reply_is_awaited_keeps_and_extracts_what_was_said(
    fake_server: ScriptedServer, palace_home: Path
) -> None:
    gate = Gate(Step(text=json.dumps({"summary": "Fish shell, asked about.", "memories": []})))
    asked = threading.Event()
    release = threading.Event()

    def respond(body: dict[str, Any]) -> Step:
        if not body.get("stream"):
            return gate(body)
        asked.set()
        release.wait(60)  # the reply never comes while the terminal is open
        return Step(text="too late")

    fake_server.responder = respond
    term = Terminal(["chat"], env_for(palace_home, fake_server))
    try:
        assert term.read_until(lambda t: t.prompting()), term.text
        term.type(b"Which prompt goes best with the fish shell I use every day at work? " * 4 + b"\r")
        assert asked.wait(60), "the question never reached the model"
        _hang_up_during_the_extraction(term, gate)
        assert term.proc.wait(60) in (0, 128 + signal.SIGHUP)
    finally:
        release.set()
    (archive,) = (palace_home / "sessions").glob("*.md")
    assert "## Summary\nFish shell, asked about." in archive.read_text()
    assert "Which prompt goes best" in archive.with_suffix(".jsonl").read_text()
