"""Shared helpers of the terminal-experience tests: an in-process REPL, a pty runner, a pausing stream."""

from __future__ import annotations

import fcntl
import io
import json
import os
import select
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ux_terminal import Screen

from palace.app import App
from palace.config import Settings
from palace.testing.scripted import ScriptedModel
from palace.testing.server import ScriptedServer, Step
from palace.ui.console import Console
from palace.ui.repl import Repl

REPO = Path(__file__).resolve().parent.parent


def summary_step(body: dict[str, Any]) -> Step:
    """The end-of-session extraction's answer (and anything unscripted after the script)."""
    return Step(text=json.dumps({"summary": "A short talk.", "memories": []}))


def replying(text: str, chunk_size: int = 7) -> Callable[[dict[str, Any]], Step]:
    """A responder: every chat turn gets text (streamed in pieces), every extraction a short summary."""

    def respond(body: dict[str, Any]) -> Step:
        return Step(text=text, chunk_size=chunk_size) if body.get("stream") else summary_step(body)

    return respond


def scripted(*steps: Step) -> ScriptedModel:
    return ScriptedModel(steps, responder=summary_step)


def make_repl(
    settings: Settings, model: ScriptedModel | None = None, *, color: bool = False, **kwargs: Any
) -> tuple[Repl, io.StringIO]:
    """A REPL on one StringIO (out and err), as a user would see it."""
    out = io.StringIO()
    console = Console(out, out, color=color)
    kwargs.setdefault("interactive", False)
    repl = Repl(App(settings, warn=console.warn, client=model or scripted()), console, **kwargs)
    return repl, out


def env_for(home: Path, server: ScriptedServer | None = None, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "PALACE_"))}
    for var in ("NO_COLOR", "VISUAL", "EDITOR", "PAGER", "LESS"):
        env.pop(var, None)
    env["PALACE_HOME"] = str(home)
    env["TERM"] = "xterm-256color"
    if server is not None:
        env["OPENAI_BASE_URL"] = server.base_url
        env["OPENAI_API_KEY"] = "test-key"
    env.update(extra)
    return env


def run_palace(
    args: list[str], env: dict[str, str], stdin: str | None = "", timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    cwd = Path(env["PALACE_HOME"]).parent / "cwd"  # not the palace's parent: `python -m` would import it
    cwd.mkdir(exist_ok=True)
    return subprocess.run(
        [sys.executable, "-m", "palace", *args],
        input=stdin,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        stdin=subprocess.DEVNULL if stdin is None else None,
    )


class PtyRun:
    """palace with its stdout (and stdin, stderr) on a pseudo-terminal of a given size."""

    def __init__(self, args: list[str], env: dict[str, str], *, width: int = 80, height: int = 24) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
        cwd = Path(env["PALACE_HOME"]).parent / "cwd"
        cwd.mkdir(exist_ok=True)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "palace", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env={**env, "COLUMNS": str(width), "LINES": str(height)},
            cwd=cwd,
            close_fds=True,
        )
        os.close(slave)
        self.master = master
        self.raw = b""
        self.width, self.height = width, height

    @property
    def text(self) -> str:
        return self.raw.decode("utf-8", "replace")

    def screen(self) -> Screen:
        return Screen(self.width, self.height).feed(self.text)

    def read_until(self, done: Callable[[PtyRun], bool], timeout: float = 60) -> bool:
        """Read output until done(self) holds or the process ends; False when the deadline passed first."""
        deadline = time.monotonic() + timeout
        while not done(self):
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            ready, _, _ = select.select([self.master], [], [], min(left, 0.5))
            if not ready:
                if self.proc.poll() is not None:
                    return done(self)
                continue
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # EIO: the other side closed
                return done(self)
            if not chunk:
                return done(self)
            self.raw += chunk
        return True

    def finish(self, timeout: float = 60) -> int:
        self.read_until(lambda run: run.proc.poll() is not None, timeout)
        self.read_until(lambda run: False, 0.2 if self.proc.poll() is not None else 0)
        code = self.proc.wait(timeout=timeout)
        os.close(self.master)
        return code


def chunk(content: str | None = None, finish: str | None = None) -> dict[str, Any]:
    delta: dict[str, Any] = {} if content is None else {"content": content}
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "gpt-4.1-mini",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


class HeldEvents(list):  # type: ignore[type-arg]
    """A stream's events that the server sends in two parts: the first at once, the rest after `go` is set."""

    def __init__(self, first: list[object], rest: list[object]) -> None:
        super().__init__([*first, *rest])
        self.first, self.rest = first, rest
        self.go = threading.Event()

    def __iter__(self) -> Iterator[object]:
        yield from self.first
        self.go.wait(60)
        yield from self.rest
