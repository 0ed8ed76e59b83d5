"""`palace chat --resume`: without an id, pick one of the latest real sessions (on a terminal; palace's own are
offered first, imported ones are marked) or take the latest of palace's own (in a pipe, saying so); then show
where the conversation was."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from palace.errors import PalaceError
from palace.sessions.catalog import Resumable, find_session, last_exchanges, origin_label, resumable_sessions
from palace.sessions.context import Snapshot
from palace.ui.console import Console

if TYPE_CHECKING:
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output

    from palace.app import App
    from palace.sessions.journal import Journal


def describe(session: Resumable, width: int = 100) -> str:
    """`2026-11-30 14:35  13 turns  the summary, or "what the user said first"` (`[imported from ...]` before it)."""
    turns = f"{session.turns} turn{'' if session.turns == 1 else 's'}"
    about = session.summary if session.summary and not session.summary.startswith("(") else ""
    about = about or (f'"{session.first}"' if session.first else "")
    if session.imported is not None:
        about = f"[{origin_label(session.imported)}] {about}".rstrip()
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
    """The id of the session to resume; KeyboardInterrupt when the user cancels the picker. Unasked, palace takes
    its own latest session, never an imported one (a Claude Code session or a transcript would get palace's
    turns appended to it): an imported one is resumed only when picked or named."""
    sessions = resumable_sessions(home)
    if not sessions:
        raise PalaceError("no session to resume: none had a reply from the model yet (`palace sessions list`)")
    own = [session for session in sessions if session.imported is None]
    if not interactive:
        if not own:
            raise PalaceError(
                "no palace session to resume: the latest are imported ones (Claude Code, transcripts); "
                "`palace chat --resume ID` resumes one of them (`palace sessions list`)"
            )
        console.info(
            f"Resuming the latest session {own[0].id} ({describe(own[0], 80).strip()}); "
            "`palace chat --resume ID` resumes another"
        )
        return own[0].id
    width = max(40, shutil.get_terminal_size().columns - 8)
    console.print("Resume which session?", "bold")
    for number, session in enumerate(sessions, 1):
        console.print(f"  {number:>2}  {describe(session, width)}")
    default = sessions.index(own[0]) + 1 if own else 1
    return sessions[_ask_number(len(sessions), default, pt_input, pt_output) - 1].id


def _ask_number(count: int, default: int, pt_input: Input | None, pt_output: Output | None) -> int:
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
        answer = prompt.prompt(f"Number [1–{count}, Enter for {default}, Ctrl-C to cancel]: ")
    except EOFError:
        raise KeyboardInterrupt from None
    return int(answer.strip() or str(default))


def ask_yes_no(question: str, pt_input: Input | None = None, pt_output: Output | None = None) -> bool:
    """A y/N question at the terminal: yes only for y or yes (Enter, Ctrl-C and Ctrl-D say no)."""
    from prompt_toolkit import PromptSession

    asking: PromptSession[str] = PromptSession(input=pt_input, output=pt_output)
    try:
        answer = asking.prompt(question)
    except (EOFError, KeyboardInterrupt):
        return False
    return answer.strip().casefold() in ("y", "yes")


def session_to_resume(
    home: Path,
    console: Console,
    resume: str | bool,
    interactive: bool,
    pt_input: Input | None = None,
    pt_output: Output | None = None,
) -> str:
    """The full id of the session to resume: the one named (an id or its start), else one picked (choose_session)."""
    if resume is True:
        return choose_session(home, console, interactive=interactive, pt_input=pt_input, pt_output=pt_output)
    return find_session(home, str(resume))


def resume_session(app: App, console: Console, session_id: str) -> Journal:
    """The session's journal taken over, and where its conversation was shown."""
    journal = app.resume_journal(session_id)
    for line in resumed_lines(journal):
        console.info(line)
    return journal


def resumed_lines(journal: Journal) -> list[str]:
    """What resuming says: the session, its last exchanges (catalog.last_exchanges) and its working context."""
    origin = f", {origin_label(journal.imported)}" if journal.imported is not None else ""
    lines = [f"Resumed session {journal.id} ({journal.turns} turn{'' if journal.turns == 1 else 's'}){origin}."]
    lines += last_exchanges(journal)
    working = Snapshot.from_json(journal.context).working
    if not working.empty:
        lines.append(f"Working context: {working.counts()} — /context shows them.")
    return lines
