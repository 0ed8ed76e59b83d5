"""A small terminal emulator for tests: what a user would see after a program's output, as plain lines.

It understands what rich and palace write: text, CR, LF (as CR LF, like a tty with onlcr), backspace,
cursor up/down/left/right/column, erase in line and in display, and ignores colours, modes and queries.
Lines scrolled off the top stay (a terminal's scrollback), so the result is the whole session's text.
"""

from __future__ import annotations

import re
import unicodedata

_CSI = re.compile(r"\x1b\[([?>=]?)([0-9;]*)([ -/]*)([@-~])")
_OSC = re.compile(r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
_ESC_OTHER = re.compile(r"\x1b[()][0-9A-Za-z]|\x1b[78=>DEHMNOZc]")
ANSI = re.compile(r"\x1b\[[0-9;?>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[78=>]")


def strip_ansi(text: str) -> str:
    return ANSI.sub("", text)


def _width(char: str) -> int:
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


class Screen:
    """Feed it output; `lines` and `text` are what is on the screen and in its scrollback."""

    def __init__(self, width: int = 80, height: int = 24) -> None:
        self.width = width
        self.height = height
        self.rows: list[list[str]] = [[]]
        self.row = 0
        self.col = 0
        self._wrap = False

    def _cell(self) -> list[str]:
        while len(self.rows) <= self.row:
            self.rows.append([])
        line = self.rows[self.row]
        while len(line) < self.col:
            line.append(" ")
        return line

    def _put(self, char: str) -> None:
        width = _width(char)
        if width == 0:
            return
        if self._wrap or self.col + width > self.width:
            self._newline()
        line = self._cell()
        if self.col < len(line):
            line[self.col] = char
        else:
            line.append(char)
        if width == 2:
            if self.col + 1 < len(line):
                line[self.col + 1] = ""
            else:
                line.append("")
        self.col += width
        self._wrap = self.col >= self.width
        if self._wrap:
            self.col = self.width - 1

    def _newline(self) -> None:
        self.row += 1
        self.col = 0
        self._wrap = False
        self._cell()

    @property
    def _top(self) -> int:
        return max(0, len(self.rows) - self.height)

    def _csi(self, private: str, params: str, final: str) -> None:
        numbers = [int(p) if p else 0 for p in params.split(";")] if params else []
        n = numbers[0] if numbers else 0
        count = max(1, n)
        self._wrap = False
        if private:
            return
        if final == "A":
            self.row = max(self._top, self.row - count)
        elif final == "B":
            self.row += count
            self._cell()
        elif final == "C":
            self.col = min(self.width - 1, self.col + count)
        elif final == "D":
            self.col = max(0, self.col - count)
        elif final == "G":
            self.col = min(self.width - 1, count - 1)
        elif final in "Hf":
            row = (numbers[0] if numbers else 1) or 1
            col = (numbers[1] if len(numbers) > 1 else 1) or 1
            self.row = self._top + row - 1
            self.col = col - 1
            self._cell()
        elif final == "K":
            line = self._cell()
            if n == 0:
                del line[self.col :]
            elif n == 1:
                line[: self.col + 1] = [" "] * min(len(line), self.col + 1)
            else:
                line.clear()
        elif final == "J":
            line = self._cell()
            if n == 0:
                del line[self.col :]
                del self.rows[self.row + 1 :]
            elif n in (2, 3):
                for index in range(self._top, len(self.rows)):
                    self.rows[index] = []

    def feed(self, data: str) -> Screen:
        at = 0
        while at < len(data):
            char = data[at]
            if char == "\x1b":
                match = _CSI.match(data, at)
                if match:
                    self._csi(match.group(1), match.group(2), match.group(4))
                    at = match.end()
                    continue
                other = _OSC.match(data, at) or _ESC_OTHER.match(data, at)
                at = other.end() if other else at + 1
                continue
            if char == "\n":
                self._newline()
            elif char == "\r":
                self.col = 0
                self._wrap = False
            elif char == "\b":
                self.col = max(0, self.col - 1)
                self._wrap = False
            elif char == "\t":
                self.col = min(self.width - 1, (self.col // 8 + 1) * 8)
            elif char >= " ":
                self._put(char)
            at += 1
        return self

    @property
    def lines(self) -> list[str]:
        out = ["".join(line).rstrip() for line in self.rows]
        while out and not out[-1]:
            out.pop()
        return out

    @property
    def text(self) -> str:
        return "\n".join(self.lines)
