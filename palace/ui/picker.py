"""`palace chat --resume` without an id: pick one of the latest real sessions (on a terminal), or take
the latest (in a pipe, saying so)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from palace.errors import PalaceError
from palace.sessions.catalog import Resumable, resumable_sessions
from palace.ui.console import Console

if TYPE_CHECKING:
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output


def describe(session: Resumable, width: int = 100) -> str:
    """`2026-11-30 14:35  13 turns  the summary, or "what the user said first"`."""
    turns = f"{session.turns} turn{'' if session.turns == 1 else 's'}"
    about = session.summary if session.summary and not session.summary.startswith("(") else ""
    about = about or (f'"{session.first}"' if session.first else "")
    line = f"{session.started:%Y-%m-%d %H:%M}  {turns:>9}  {about}"
    return line if len(line) <= width else line[: width - 1] + "…"


def choose_session(
    home: Path,
    console: Console,
    *,
    interactive: bool,
    pt_input: Input | None = None,
    pt_output: Output | None = None,
) -> str:
    """The id of the session to resume; KeyboardInterrupt when the user cancels the picker."""
    sessions = resumable_sessions(home)
    if not sessions:
        raise PalaceError("no session to resume: none had a reply from the model yet (`palace sessions list`)")
    if not interactive:
        console.info(
            f"Resuming the latest session {sessions[0].id} ({describe(sessions[0], 80).strip()}); "
            "`palace chat --resume ID` resumes another"
        )
        return sessions[0].id
    width = max(40, shutil.get_terminal_size().columns - 8)
    console.print("Resume which session?", "bold")
    for number, session in enumerate(sessions, 1):
        console.print(f"  {number:>2}  {describe(session, width)}")
    return sessions[_ask_number(len(sessions), pt_input, pt_output) - 1].id


def _ask_number(count: int, pt_input: Input | None, pt_output: Output | None) -> int:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.validation import Validator

    def valid(text: str) -> bool:
        text = text.strip()
        return not text or (text.isdigit() and 1 <= int(text) <= count)

    prompt: PromptSession[str] = PromptSession(
        input=pt_input,
        output=pt_output,
        validator=Validator.from_callable(valid, error_message=f"a number from 1 to {count}", move_cursor_to_end=True),
    )
    try:
        answer = prompt.prompt(f"Number [1–{count}, Enter for 1, Ctrl-C to cancel]: ")
    except EOFError:
        raise KeyboardInterrupt from None
    return int(answer.strip() or "1")
