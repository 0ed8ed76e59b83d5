"""All terminal output goes through one Console, so every screen can be tested with plain pipes."""

from __future__ import annotations

import errno
import itertools
import os
import sys
import threading
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from palace.memory.ops import ChangeResult
    from palace.ui.markdown import MarkdownStream

_STYLES = {"dim": "2", "bold": "1", "green": "32", "yellow": "33", "red": "31", "cyan": "36"}
# ChangeResult.symbol marks a forget with ✗, which the REPL keeps for failures: the UI shows its own marks.
_MARKS = {"saved": "✓", "refreshed": "↻", "unchanged": "=", "replaced": "✎", "forgotten": "−"}
FAILED = "✗"


def mark(change: ChangeResult) -> str:
    """The mark shown before a memory change: ✓ saved, ↻ refreshed, = confirmed, ✎ replaced, − forgotten."""
    return _MARKS.get(change.action, change.symbol)


def change_line(change: ChangeResult) -> str:
    return f"{mark(change)} {change.message}"


def silence(stream: TextIO) -> None:
    """Point a stream whose reader went away (`| head`) at /dev/null, so that no later write or the flush
    at exit raises BrokenPipeError again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def reader_gone(exc: OSError) -> bool:
    """Does a write's error say that nobody reads the stream any more: a closed pipe, a terminal hung up?"""
    return isinstance(exc, BrokenPipeError) or exc.errno in (errno.EIO, errno.ENXIO, errno.EPIPE)


def colour_allowed(stream: TextIO) -> bool:
    """A terminal, no NO_COLOR, not TERM=dumb."""
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        return False
    return tty and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


class Console:
    """Lines on `out`, errors on `err`, the streamed reply on `reply` (default: out), rendered as markdown
    when `reply` is a colour terminal; colour only on a terminal (and never with NO_COLOR)."""

    def __init__(
        self,
        out: TextIO | None = None,
        err: TextIO | None = None,
        *,
        color: bool | None = None,
        reply: TextIO | None = None,
        markdown: bool | None = None,
    ) -> None:
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.reply = reply or self.out
        self.color = colour_allowed(self.out) if color is None else color
        if markdown is None:
            markdown = self.color if self.reply is self.out else colour_allowed(self.reply)
        self.markdown = markdown
        self._mid_line = False
        self._stream: MarkdownStream | None = None
        self.reply_closed = False  # the reader of the reply went away (`palace ask ... | head -3`)

    def style(self, text: str, style: str) -> str:
        if not self.color or style not in _STYLES:
            return text
        return f"\x1b[{_STYLES[style]}m{text}\x1b[0m"

    def write(self, text: str) -> None:
        """Streamed reply text, no newline added; markdown is rendered block by block as it completes.
        When the reply's reader has gone the text is dropped: the turn goes on, and the journal has it."""
        if not text or self.reply_closed:
            return
        try:
            self._write(text)
        except OSError as exc:
            if not reader_gone(exc):
                raise
            self.reply_closed = True
            self._stream = None
            silence(self.reply)

    def _write(self, text: str) -> None:
        if self.markdown:
            if self._stream is None:
                from palace.ui.markdown import MarkdownStream

                self._stream = MarkdownStream(self.reply)
            self._stream.feed(text)
            return
        self._mid_line = not text.endswith("\n")  # first: a Ctrl-C right after the write still ends the line
        self.reply.write(text)
        self.reply.flush()

    def end_line(self) -> None:
        """Finish the streamed reply: print the markdown still in progress, or end a plain line left open."""
        stream, self._stream = self._stream, None
        mid_line, self._mid_line = self._mid_line, False
        try:
            if stream is not None:
                stream.finish()
            if mid_line:
                self.reply.write("\n")
                self.reply.flush()
        except OSError as exc:
            if not reader_gone(exc):
                raise
            self.reply_closed = True
            silence(self.reply)

    def print(self, text: str = "", style: str = "") -> None:
        self.end_line()
        self._line(self.out, self.style(text, style))

    def _line(self, stream: TextIO, text: str) -> None:
        """One line on stream; when its reader has gone (the terminal closed: SIGHUP) the rest is dropped, and
        the session still ends as it should (archived, extracted)."""
        try:
            stream.write(text + "\n")
            stream.flush()
        except OSError as exc:
            if not reader_gone(exc):
                raise
            silence(stream)

    def info(self, text: str) -> None:
        self.print(text, "dim")

    def success(self, text: str) -> None:
        self.print(text, "green")

    def warn(self, text: str) -> None:
        self.print(f"! {text}", "yellow")

    def error(self, text: str) -> None:
        """`Error: ...` on stderr."""
        self.end_line()
        self._line(self.err, self.style(f"Error: {text}", "red"))

    def clear(self) -> None:
        """Clear a terminal screen (nothing on a pipe)."""
        self.end_line()
        if self.color or colour_allowed(self.out):
            self.out.write("\x1b[H\x1b[2J\x1b[3J")
            self.out.flush()


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
            self.console.end_line()  # the text before a tool call: the spinner would write over it
            self._stop.clear()
            from palace.threads import start_thread  # signal handling: only for a spinning REPL, not a command

            self._thread = start_thread(self._spin, name="palace-spinner")
        elif not waiting and self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._thread = None

    def _spin(self) -> None:
        out = self.console.reply
        try:
            for frame in itertools.cycle("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"):
                out.write(f"\r{self.console.style(frame + ' thinking…', 'dim')}")
                out.flush()
                if self._stop.wait(0.08):
                    break
            out.write("\r\x1b[K")
            out.flush()
        except (OSError, ValueError):  # the terminal went away (or the stream was closed): nothing to show on
            return
