"""Multi-line input in the REPL: Esc-Enter (Alt-Enter) and Ctrl-J add a line, a trailing backslash
continues the message on the next line, and a bracketed paste stays one message (prompt_toolkit's own).
While a reply streams, what is typed is not echoed into it (keys_unechoed)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent


def key_bindings() -> KeyBindings:
    from prompt_toolkit.filters import is_searching
    from prompt_toolkit.key_binding import KeyBindings

    bindings = KeyBindings()

    @bindings.add("escape", "enter", filter=~is_searching)
    @bindings.add("c-j", filter=~is_searching)
    def _new_line(event: KeyPressEvent) -> None:
        event.current_buffer.insert_text("\n")

    @bindings.add("enter", filter=~is_searching)
    def _enter(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        document = buffer.document
        if document.is_cursor_at_the_end and document.text.endswith("\\"):
            buffer.delete_before_cursor(1)
            buffer.insert_text("\n")
        else:
            buffer.validate_and_handle()

    return bindings


def joined_lines(lines: Iterable[str]) -> Iterator[str]:
    """Piped input: a line that ends with a backslash continues on the next one, as at the prompt."""
    held: list[str] = []
    for line in lines:
        if line.endswith("\\"):
            held.append(line[:-1])
            continue
        yield "\n".join([*held, line])
        held = []
    if held:
        yield "\n".join(held)


def _quieted(fd: int) -> list[Any] | None:
    """Turn the terminal's echo off and NOFLSH on; its modes before, or None when fd is not a terminal."""
    try:
        import termios
    except ImportError:  # (Windows)
        return None
    try:
        before = termios.tcgetattr(fd)
        quiet = list(before)
        quiet[3] = (quiet[3] & ~(termios.ECHO | getattr(termios, "ECHOCTL", 0))) | termios.NOFLSH
        termios.tcsetattr(fd, termios.TCSANOW, quiet)
    except (termios.error, OSError, ValueError):
        return None
    return before


@contextlib.contextmanager
def keys_unechoed(fd: int) -> Iterator[None]:
    """While a reply streams to the terminal on fd: keys typed are not echoed, and Ctrl-C flushes no output."""
    # The echo of Ctrl-C ("^C") lands after the live region's last line, which fills the width: the terminal
    # wraps, rich erases from one line too low, and the partial reply stays on screen twice. The output flush a
    # Ctrl-C makes by default (no NOFLSH) can drop a redraw half-written. Ctrl-C still interrupts (ISIG stays);
    # keys typed meanwhile wait for the next prompt.
    before = _quieted(fd)
    try:
        yield
    finally:
        if before is not None:
            import termios

            with contextlib.suppress(termios.error, OSError):  # the terminal may be gone (closed: SIGHUP)
                termios.tcsetattr(fd, termios.TCSANOW, before)
