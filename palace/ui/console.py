"""All terminal output goes through one Console, so every screen can be tested with plain pipes."""

from __future__ import annotations

import itertools
import os
import sys
import threading
from typing import TextIO

_STYLES = {"dim": "2", "bold": "1", "green": "32", "yellow": "33", "red": "31", "cyan": "36"}


class Console:
    """Writes lines and streamed text; colour only on a terminal (and never with NO_COLOR)."""

    def __init__(self, out: TextIO | None = None, err: TextIO | None = None, *, color: bool | None = None) -> None:
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        if color is None:
            color = self.out.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
        self.color = color
        self._mid_line = False

    def style(self, text: str, style: str) -> str:
        if not self.color or style not in _STYLES:
            return text
        return f"\x1b[{_STYLES[style]}m{text}\x1b[0m"

    def write(self, text: str) -> None:
        """Streamed text, no newline added."""
        if text:
            self.out.write(text)
            self.out.flush()
            self._mid_line = not text.endswith("\n")

    def end_line(self) -> None:
        """Finish a streamed line, if one is open."""
        if self._mid_line:
            self.write("\n")

    def print(self, text: str = "", style: str = "") -> None:
        self.end_line()
        self.out.write(self.style(text, style) + "\n")
        self.out.flush()
        self._mid_line = False

    def info(self, text: str) -> None:
        self.print(text, "dim")

    def success(self, text: str) -> None:
        self.print(text, "green")

    def warn(self, text: str) -> None:
        self.print(f"! {text}", "yellow")

    def error(self, text: str) -> None:
        """`Error: ...` on stderr."""
        self.end_line()
        self.err.write(self.style(f"Error: {text}", "red") + "\n")
        self.err.flush()


class Spinner:
    """A one-line spinner on a terminal while waiting for the first token."""

    def __init__(self, console: Console, enabled: bool) -> None:
        self.console = console
        self.enabled = enabled
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def set(self, waiting: bool) -> None:
        if not self.enabled:
            return
        if waiting and self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._spin, daemon=True)
            self._thread.start()
        elif not waiting and self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._thread = None

    def _spin(self) -> None:
        for frame in itertools.cycle("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"):
            self.console.out.write(f"\r{self.console.style(frame + ' thinking…', 'dim')}")
            self.console.out.flush()
            if self._stop.wait(0.08):
                break
        self.console.out.write("\r\x1b[K")
        self.console.out.flush()
