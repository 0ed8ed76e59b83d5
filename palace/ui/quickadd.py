"""Quick add's question: which room a fact goes to (`/remember TEXT` without a path, a `# TEXT` line).

The rooms come from memory/suggest.py (existing rooms first, no model call). On a terminal palace asks once:
Enter saves to the room shown, Tab shows the next proposal, or type a path. In a pipe nobody answers: the first
proposal is taken and said.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palace.memory.halls import MemoryPath

if TYPE_CHECKING:
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output

    from palace.ui.console import Console


def pick_room(
    proposals: list[MemoryPath],
    console: Console,
    interactive: bool,
    pt_input: Input | None = None,
    pt_output: Output | None = None,
) -> str | None:
    """The room for a quick add: asked on a terminal (Enter, Tab, a path); in a pipe the first, said."""
    if interactive:
        return choose_room(proposals, pt_input, pt_output)
    others = ", ".join(str(p) for p in proposals[1:4])
    console.info(f"→ {proposals[0]} (the best fitting room" + (f"; others: {others})" if others else ")"))
    return str(proposals[0])


def choose_room(
    proposals: list[MemoryPath], pt_input: Input | None = None, pt_output: Output | None = None
) -> str | None:
    """The path the user accepts (Enter), cycles to (Tab) or types; None when they cancel (Ctrl-C, Ctrl-D, empty)."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.key_binding import KeyBindings

    shown = [str(p) for p in proposals]
    at = [0]
    keys = KeyBindings()

    @keys.add("tab")
    def _next(event: object) -> None:
        at[0] = (at[0] + 1) % len(shown)
        buffer = event.app.current_buffer  # type: ignore[attr-defined]
        buffer.text = shown[at[0]]
        buffer.cursor_position = len(buffer.text)

    asking: PromptSession[str] = PromptSession(input=pt_input, output=pt_output, key_bindings=keys)
    try:
        answer = asking.prompt("Room (Enter saves, Tab: next proposal, or type a path): ", default=shown[0])
    except (EOFError, KeyboardInterrupt):
        return None
    return answer.strip() or None
