"""All terminal output goes through one Console, so every screen can be tested with plain pipes."""

from __future__ import annotations

import os
import sys
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
