"""Replies rendered as markdown while they stream: each finished block is printed once, for good, and the
block still arriving is shown in a small live region below it (re-rendered a few times a second by rich).

A block is finished when nothing that can still arrive would change how it renders: a blank line followed
by a line that does not continue it, a closing code fence, a heading. Only the block in progress is ever
redrawn, so long replies do not flicker, and the text of a block is printed before it leaves the buffer,
so a Ctrl-C mid-reply never loses what arrived. Printing a block and taking it off the queue, starting the live
region and closing it are each done with Ctrl-C held back until they are complete: a Ctrl-C between the two
halves would print a block twice, or leave a live region half drawn under the final text. rich is imported on
the first reply.
"""

from __future__ import annotations

import re
import threading
from typing import TYPE_CHECKING, Any, ClassVar, TextIO

from palace.threads import signals_for_main as _held_back  # (it holds Ctrl-C back in this thread until the end)

if TYPE_CHECKING:
    from rich.console import Console as RichConsole
    from rich.console import ConsoleOptions, JustifyMethod, RenderResult
    from rich.live import Live
    from rich.markdown import MarkdownElement
    from rich.segment import Segment

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_LIST_ITEM = re.compile(r"^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")
CODE_THEME = "monokai"


def _closes(line: str, fence: str) -> bool:
    match = re.match(r"^ {0,3}(`{3,}|~{3,})[ \t]*$", line.rstrip("\n"))
    return match is not None and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence)


class Blocks:
    """Splits streamed markdown into top-level blocks as soon as each is finished."""

    def __init__(self) -> None:
        self.lines: list[str] = []  # complete lines of the block in progress
        self.partial = ""  # the line still arriving
        self._fence: str | None = None
        self._blank = False
        self._list = False

    @property
    def tail(self) -> str:
        """The text of the block in progress."""
        return "".join(self.lines) + self.partial

    def add(self, text: str) -> list[str]:
        """Take streamed text; the blocks it finished, in order."""
        done: list[str] = []
        self.partial += text
        while "\n" in self.partial:
            line, _, self.partial = self.partial.partition("\n")
            self._line(line + "\n", done)
        return done

    def close(self) -> str:
        """The rest, as the last block (the stream ended)."""
        rest = self.tail
        self.lines, self.partial = [], ""
        self._fence, self._blank, self._list = None, False, False
        return rest

    def _commit(self, done: list[str]) -> None:
        while self.lines and not self.lines[-1].strip():
            self.lines.pop()
        if self.lines:
            done.append("".join(self.lines))
        self.lines, self._blank, self._list = [], False, False

    def _line(self, line: str, done: list[str]) -> None:
        if self._fence is not None:
            self.lines.append(line)
            if _closes(line, self._fence):
                self._fence = None
                if not self._list:
                    self._commit(done)
            return
        if not line.strip():
            if self.lines:
                self.lines.append(line)
                self._blank = True
            return
        opens = _FENCE.match(line)
        continues_list = self._list and (line.startswith(("  ", "\t")) or _LIST_ITEM.match(line) is not None)
        if self.lines and ((self._blank and not continues_list) or (opens and not self._list)):
            self._commit(done)  # a new block begins, or a fence interrupts a paragraph
        if not self.lines:
            self._list = _LIST_ITEM.match(line) is not None
        self.lines.append(line)
        self._blank = False
        if opens:
            self._fence = opens.group(1)
        elif _HEADING.match(line) and not self._list:
            self._commit(done)


def markdown(text: str) -> Any:
    """A rich Markdown renderable for text: code highlighted, headings to the left, links with their address."""
    from rich.markdown import Heading, Markdown

    class _Heading(Heading):
        LEVEL_ALIGN: ClassVar[dict[str, JustifyMethod]] = dict.fromkeys(Heading.LEVEL_ALIGN, "left")

    class _Markdown(Markdown):
        elements: ClassVar[dict[str, type[MarkdownElement]]] = {**Markdown.elements, "heading_open": _Heading}

    return _Markdown(text, code_theme=CODE_THEME, hyperlinks=False)


def _blank(line: list[Segment]) -> bool:
    """A line with no text and no background (a code block's padding has one: it is kept)."""
    return all(not seg.text.strip() and not (seg.style and seg.style.bgcolor) for seg in line)


class Rendered:
    """A block of markdown without the blank lines rich puts around it (blocks are spaced by the stream), and
    with only its last `limit` lines when given: a live region taller than the screen cannot be redrawn."""

    def __init__(self, text: str, limit: int | None = None) -> None:
        self.text = text
        self.limit = limit  # the live view: its last lines, and no newline after them (the cursor stays there)

    def __rich_console__(self, console: RichConsole, options: ConsoleOptions) -> RenderResult:
        from rich.segment import Segment

        lines = console.render_lines(markdown(self.text), options, pad=False) if self.text.strip() else []
        while lines and _blank(lines[0]):
            lines.pop(0)
        while lines and _blank(lines[-1]):
            lines.pop()
        if self.limit is not None:
            lines = lines[-self.limit :]
        for number, line in enumerate(lines):
            yield from line
            if self.limit is None or number < len(lines) - 1:
                yield Segment.line()


class MarkdownStream:
    """Streamed markdown to a terminal."""

    def __init__(self, file: TextIO, *, refresh_per_second: float = 8.0) -> None:
        from rich.console import Console as RichConsole

        self.console = RichConsole(file=file, force_terminal=True, highlight=False, soft_wrap=False, emoji=False)
        self.blocks = Blocks()
        self.refresh_per_second = refresh_per_second
        self._lock = threading.Lock()
        self._live: Live | None = None
        self._queue: list[str] = []  # finished blocks not printed yet (a Ctrl-C may land mid-print)
        self._printed = 0  # blocks printed in this reply

    def _view(self) -> Rendered:
        with self._lock:
            tail = self.blocks.tail
        return Rendered(tail, max(1, self.console.size.height - 2))

    def feed(self, text: str) -> None:
        """More of the reply."""
        with self._lock:
            self._queue += self.blocks.add(text)
        self._print_queue()
        if self._live is None and self.blocks.tail.strip():
            self._start_live()

    def _start_live(self) -> None:
        from rich.live import Live

        with _held_back():
            self._live = Live(
                console=self.console,
                get_renderable=self._view,
                auto_refresh=True,
                refresh_per_second=self.refresh_per_second,
                transient=True,
                redirect_stdout=False,
                redirect_stderr=False,
                vertical_overflow="crop",
            )
            self._live.start(refresh=True)

    def _print_queue(self) -> None:
        while self._queue:
            with _held_back():
                self._print(self._queue[0])
                self._queue.pop(0)  # only once it is on the screen

    def _print(self, block: str) -> None:
        if self._printed:
            self.console.print()
        self.console.print(Rendered(block))
        self._printed += 1

    def finish(self) -> None:
        """The reply ended (or was stopped): print the block in progress and close the live region."""
        with _held_back():
            live, self._live = self._live, None
            try:
                if live is not None:
                    live.stop()
            finally:
                with self._lock:
                    rest = self.blocks.close()
                if rest.strip():
                    self._queue.append(rest)
                self._print_queue()
                self._printed = 0
