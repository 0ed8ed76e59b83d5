"""`palace ask`: one message (with piped stdin appended), one reply on stdout, everything else on stderr.

`git diff | palace ask "review this"` sends the question and the diff; `$(palace ask ...)` captures the
answer only; `--json` prints one object for scripts: the answer, the session, tokens, cost, memory changes.
"""

from __future__ import annotations

import io
import json
import sys
from typing import IO, TYPE_CHECKING, Any, TextIO

from palace.errors import PalaceError
from palace.ui.console import Console

if TYPE_CHECKING:
    from palace.agent.conversation import TurnResult
    from palace.config import Settings
    from palace.ui.repl import Repl


def read_piped(stdin: IO[str] | None) -> str:
    """All of stdin when it is a pipe or a file (not a terminal), as text; "" otherwise."""
    if stdin is None:
        return ""
    try:
        if stdin.isatty():
            return ""
        raw = stdin.buffer.read() if hasattr(stdin, "buffer") else stdin.read().encode("utf-8", "surrogateescape")
    except (OSError, ValueError):
        return ""
    return raw.decode("utf-8", "replace")


def message_of(words: list[str], piped: str) -> str:
    """The question, then what was piped in (a blank line between); PalaceError when both are empty."""
    question = " ".join(words).strip()
    piped = piped.strip("\n")
    if not question and not piped.strip():
        raise PalaceError('say what to ask: palace ask "QUESTION" (or pipe text in: git diff | palace ask "review")')
    return f"{question}\n\n{piped}" if question and piped.strip() else (question or piped)


def run_ask(words: list[str], settings: Settings, *, as_json: bool, stdin: IO[str] | None = None) -> int:
    """One turn; exit 1 when the model call failed."""
    from palace.app import App, detect_wings

    message = message_of(words, read_piped(sys.stdin if stdin is None else stdin))
    answer: TextIO = io.StringIO() if as_json else sys.stdout
    console = Console(sys.stderr, sys.stderr, reply=answer)
    repl = _ask_repl()(App(settings, warn=console.warn), console, wings=detect_wings(settings), interactive=False)
    repl.review_hint = "palace memory review"  # a shell's command: `palace ask` has no slash commands
    repl.run([message])
    result = repl.last_result
    if as_json:
        sys.stdout.write(json.dumps(report(repl, result), ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return 1 if result is None or result.error else 0


def _ask_repl() -> type[Repl]:
    """The REPL's session for one turn, without what only the REPL can act on: the context card (it offers
    `/bring ID`, a slash command `palace ask` has not), which the question's own context does not need."""
    from palace.ui.repl import Repl

    class AskRepl(Repl):
        def _context_card(self) -> None:
            return None

    return AskRepl


def report(repl: Repl, result: TurnResult | None) -> dict[str, Any]:
    """The --json object: the answer, the session it was archived as, tokens, cost, memory changes."""
    inp, out = repl.meter.totals()  # the chat's, compaction's and extraction's calls
    cost = repl.meter.cost()
    journal = repl.session.journal
    events = list(journal.memory_events) if journal is not None else []  # extraction's too, after the end
    return {
        "answer": result.text if result is not None else "",
        "error": (result.error if result is not None else "stopped") or None,
        "interrupted": result.interrupted if result is not None else None,
        "session": journal.id if journal is not None and repl.archive is not None else None,
        "archive": str(repl.archive) if repl.archive is not None else None,
        "model": repl.settings.model,
        "tokens": {"input": inp, "output": out, "total": inp + out},
        "cost_usd": cost.dollars if cost.priced and not cost.unpriced else None,
        "memory_changes": [
            {"action": e.get("action"), "path": e.get("path"), "content": e.get("content"), "by": e.get("by")}
            for e in events
        ],
    }
