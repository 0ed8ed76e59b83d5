"""Multi-line input in the REPL: Esc-Enter (Alt-Enter) and Ctrl-J add a line, a trailing backslash
continues the message on the next line, and a bracketed paste stays one message (prompt_toolkit's own)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

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
