"""The REPL: prompt_toolkit on a terminal, plain lines on a pipe; one place prints and carries on."""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Iterable, Iterator, Sequence
from datetime import date
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from palace.agent.conversation import Conversation, TurnEvents
from palace.app import App
from palace.errors import PalaceError
from palace.memory.halls import MemoryPath
from palace.memory.ops import ChangeResult
from palace.recall.scope import default_wings
from palace.ui import commands
from palace.ui.console import FAILED, Console, Spinner, change_line, mark
from palace.ui.pricing import CostMeter

if TYPE_CHECKING:
    from prompt_toolkit.application import Application
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output

    from palace.agent.conversation import TurnResult
    from palace.model.tools import MemoryRecall, ToolOutcome
    from palace.sessions.extract import ExtractionOutcome
    from palace.sessions.journal import Journal

_CHANGED_ON_DISK = "memories.md changed on disk; the next turn uses the new version"


class Repl:
    """A chat session with slash commands, a journal, background extraction and hand-edit notices."""

    def __init__(
        self,
        app: App,
        console: Console,
        *,
        wings: Sequence[str] = (),
        resume: str | bool = False,
        interactive: bool | None = None,
        pt_input: Input | None = None,
        pt_output: Output | None = None,
    ) -> None:
        self.app = app
        self.review_hint = "/review"  # how to review proposals from here (`palace ask` has no slash commands)
        self.settings = app.settings
        self.store = app.store
        self.console = console
        self.wings = list(wings)
        self.interactive = sys.stdin.isatty() and console.out.isatty() if interactive is None else interactive
        self.pt_input = pt_input
        self.pt_output = pt_output
        self.extractor = app.extractor(warn=console.warn, on_extracted=self._show_extracted)
        self._notices: list[tuple[str, str]] = []  # (text, "warn" | "change" | "info")
        self._notice_lock = threading.Lock()
        self._app: Application[Any] | None = None
        self._shown: Any = None
        self.failed_turns = 0
        self.hung_up = False  # the terminal closed (SIGHUP): the session ends as /exit ends it, quietly
        self.archive: Path | None = None  # where the session was archived, once it ended
        self.last_result: TurnResult | None = None  # the last turn's (None when Ctrl-C escaped it)
        self._edit_told = False  # the watcher told of a hand edit the prompt does not have yet
        self.spinner = Spinner(console, self.interactive and console.color)
        self.meter = CostMeter(self.settings.pricing)
        resumed = None if resume is False else self._to_resume(resume)
        self._archive_orphans(keep=resumed)
        for line in app.expire_memories():
            self.console.print(line)
        self._privacy_notice()
        self.session = self._open_session(resumed)
        if resume is False:
            self._context_card()
        self._review_notice()
        if self.interactive:
            app.warm_up()

    # ------------------------------------------------------------------ sessions
    def _review_notice(self) -> None:
        from palace.memory.review import ReviewQueue

        with contextlib.suppress(PalaceError, OSError):
            waiting = len(ReviewQueue(self.settings.home).pending())
            if waiting:
                waits = "y waits" if waiting == 1 else "ies wait"
                self.console.info(f"{waiting} proposed memor{waits} for review: {self.review_hint}")

    def _show_extracted(self, outcome: ExtractionOutcome) -> None:
        """Extraction's changes, one line each (from the background thread: above the prompt); its tokens are
        counted in /usage."""
        self.meter.add(outcome.model, *outcome.usage)
        for result in outcome.results:
            if result.changed:
                self.notify(f"{result.symbol} (extracted) {result.message}", change=True)
        for proposal in outcome.proposed:
            text = f"? Proposed for review ({proposal.confidence}): {proposal.path}: {proposal.content}"
            text += f" — {self.review_hint}"
            self.notify(text, change=True)

    def _context_card(self) -> None:
        """What the last sessions of this wing were about: for the user, never for the prompt (seed 003 L3)."""
        from palace.sessions.card import card_lines, recent_sessions

        if not self.wings:
            return
        journal = self.session.journal
        cards = recent_sessions(self.settings.home, self.wings, exclude=journal.id if journal else None)
        for line in card_lines(cards, self.wings):
            self.console.info(line)

    def _privacy_notice(self) -> None:
        """Once per palace: what goes to the model provider."""
        from palace.ui.startup import privacy_notice

        privacy_notice(self.app, self.console, interactive=self.interactive)

    def _to_resume(self, resume: str | bool) -> str:
        from palace.ui.picker import session_to_resume

        home = self.settings.home
        return session_to_resume(home, self.console, resume, self.interactive, self.pt_input, self.pt_output)

    def _archive_orphans(self, keep: str | None) -> None:
        """The sessions that died, archived at once; their extraction runs in the background (the session about to
        be resumed is not one: it goes on)."""
        try:
            self.store.clean_stale()
            for line in self.app.archive_orphans(background=lambda line: self.notify(line, info=True), keep=keep):
                self.console.info(line)
        except PalaceError as exc:
            self.console.warn(f"could not archive earlier sessions: {exc}")

    def _open_session(self, resume: str | None) -> Conversation:
        journal: Journal
        if resume is not None:
            from palace.ui.picker import resume_session

            journal = resume_session(self.app, self.console, resume)
            self.wings = self.wings or journal.wings
            self.meter.add(journal.model, *journal.usage)
        else:
            journal = self.app.start_journal(self.wings)
        session = Conversation(
            self.settings,
            self.store,
            client=self.app.client,
            wings=self.wings,
            journal=journal,
            extractor=self.extractor if self.settings.extracting else None,
            recall=self._recall_tool,
            targets=self.app.targets,
        )
        self._show_prompt_notices(session, session.notices)
        return session

    def _show_prompt_notices(self, session: Conversation, notices: list[str] | None = None) -> None:
        """What is worth saying about the session's prompt (built again from the file as it is now, unless the
        notices of the build just made are given)."""
        for notice in session.rebuild_prompt() if notices is None else notices:
            rendered = session.rendered
            if notice == rendered.warning and not rendered.text.strip() and not rendered.unreadable:
                continue  # no memories yet (a new palace): nothing to warn about
            self.console.warn(notice)

    def end_session(self) -> None:
        """Archive the session (extraction first; after a hangup the archive first, so that a kill during the
        extraction still leaves one); Ctrl-C leaves it for the next start."""
        from palace.sessions.catalog import had_reply

        journal = self.session.journal
        self.session.close()
        if journal is None:
            return
        failed = not had_reply(journal.messages) and not journal.memory_events
        self.spinner.set(True)
        try:
            archive = self.app.finish(self.extractor, journal, hung_up=self.hung_up)
        except KeyboardInterrupt:
            self.spinner.set(False)
            self.console.warn("archiving interrupted; it will be done at the next start")
            return
        except PalaceError as exc:
            self.spinner.set(False)
            self.console.warn(f"session not archived: {exc}")
            return
        finally:
            self.spinner.set(False)
            journal.close()
        self.archive = archive
        self.flush_notices()  # what the final extraction saved or proposed
        if archive is not None and failed:
            self.console.info(f"Session kept as failed (no model answered; what you typed is in it): {archive}")
        elif archive is not None:
            self.console.info(f"Session archived: {archive}")

    def new_session(self) -> None:
        """/new: the session archived, another begun, with its own count of tokens and cost."""
        self.end_session()
        self.meter = CostMeter(self.settings.pricing)
        self.failed_turns = 0
        self.session = self._open_session(None)
        self.console.info(f"New session {self.session.journal.id if self.session.journal else ''}.")

    def commit_hand_edit(self) -> None:
        """After /edit: record the hand edit in git right away (a no-op without git or without changes) and
        build the prompt from it now, so that neither the watcher nor the next turn announces it again."""
        with self.store.lock():
            self.app.history.commit_pending(self.store.file)
        if self.session.hand_edited():
            self._show_prompt_notices(self.session)
        self._edit_told = False
        with self._notice_lock:
            self._notices = [notice for notice in self._notices if notice[0] != _CHANGED_ON_DISK]

    def set_model(self, name: str) -> None:
        """Switch the model for the rest of this session (extraction's too, unless it has its own)."""
        self.settings.model = name
        self.app.client.model = name
        if not self.settings.extract_model:
            self.extractor.client().model = name

    def pick_room(self, proposals: list[MemoryPath]) -> str | None:
        """The room for a quick add (palace/ui/quickadd.py)."""
        from palace.ui.quickadd import pick_room

        return pick_room(proposals, self.console, self.interactive, self.pt_input, self.pt_output)

    def confirm(self, question: str) -> bool:
        """A y/N question on a terminal (Enter, Ctrl-C and Ctrl-D say no); False in a pipe, where nobody answers."""
        from palace.ui.picker import ask_yes_no

        return self.interactive and ask_yes_no(question, self.pt_input, self.pt_output)

    # ------------------------------------------------------------------ recall
    def recall_text(self, query: str, *, limit: int = 5, since: date | None = None, until: date | None = None) -> str:
        """Recall in the active wings and everything wing-less (every wing when none is active)."""
        return self._recall(query, limit=limit, since=since, until=until, wings=default_wings(self.wings))

    def recall_in(self, query: str, wings: Sequence[str] | None) -> str:
        """Recall in these wings and everything wing-less (None: every wing), as `/recall --wing` asks."""
        return self._recall(query, limit=5, since=None, until=None, wings=list(wings) if wings else None)

    def _recall_tool(self, args: MemoryRecall) -> str:
        from palace.model.tools import Shown

        wings = args.wings(self.wings)
        text = self._recall(args.query, limit=args.limit, since=args.since, until=args.until, wings=wings)
        return Shown(text, commands.recall_line(args.query, text, args.wing))

    def _recall(
        self, query: str, *, limit: int, since: date | None, until: date | None, wings: Sequence[str] | None
    ) -> str:
        journal = self.session.journal
        current = (journal.id,) if journal is not None else ()  # the live conversation is in context already
        return self.app.recall_text(query, limit=limit, since=since, until=until, exclude=current, wings=wings)

    # ------------------------------------------------------------------ output
    def show_change(self, change: ChangeResult) -> None:
        style = "yellow" if change.action == "forgotten" else "green"
        self.console.print(change_line(change), style)

    def _show_tool(self, tool: str, outcome: ToolOutcome) -> None:
        """A call that changed no memory (recall, working context): its one line, as a save has its own."""
        if outcome.shown:
            self.console.info(f"· {outcome.shown}")

    def _show_tool_error(self, tool: str, message: str) -> None:
        from palace.model.specs import spec_of  # (pydantic: loaded by the tool call already)

        spec = spec_of(tool)
        label = "Not saved" if spec is not None and spec.writes_memory else tool
        self.console.print(f"{FAILED} {label}: {message}", "red")

    def notify(self, text: str, *, change: bool = False, info: bool = False) -> None:
        """A notice (with `change` a memory change line, with `info` a dim line) from another thread: printed
        above the prompt when one is showing, without breaking the line being typed; else before the next turn."""
        kind = "change" if change else "info" if info else "warn"
        app = self._app
        if app is not None and app.is_running and app.loop is not None:
            from prompt_toolkit.application import run_in_terminal

            def show() -> None:
                import asyncio

                self._shown = asyncio.ensure_future(run_in_terminal(lambda: self._say(text, kind)))

            app.loop.call_soon_threadsafe(show)
            return
        with self._notice_lock:
            self._notices.append((text, kind))

    def _say(self, text: str, kind: str) -> None:
        if kind == "change":
            self.console.print(text, "green")
        elif kind == "info":
            self.console.info(text)
        else:
            self.console.warn(text)

    def flush_notices(self) -> None:
        with self._notice_lock:
            pending, self._notices = self._notices, []
        for text, kind in pending:
            self._say(text, kind)

    def _on_file_changed(self) -> None:
        for change in self.store.repair_recent():  # an editor's save dropped what palace had just saved
            text = f"{mark(change)} Saved again (an editor's save had dropped it): {change.path}: {change.content}"
            self.notify(text, change=True)
        if self.session.hand_edited() and not self._edit_told:
            self._edit_told = True
            self.notify(_CHANGED_ON_DISK)

    # ------------------------------------------------------------------ input
    def handle(self, line: str) -> bool:
        """One message or command (it may span lines); False when the REPL should end."""
        line = line.strip()
        if not line:
            return True
        if commands.is_command(line):
            return commands.dispatch(self, line)
        if line.startswith("# "):  # `# I use fish`: remember it (quick add), not a message
            return commands.dispatch(self, "/remember " + line[2:])
        self.chat(line[1:] if line.startswith("//") else line)
        return True

    def chat(self, text: str) -> TurnResult | None:
        """One turn with the model, shown as it streams; None when Ctrl-C escaped the model call."""
        if self._edit_told:  # the watcher said so already: the turn need not say it again
            self._edit_told = False
            if self.session.hand_edited():
                self._show_prompt_notices(self.session)
        events = TurnEvents(
            on_text=self.console.write,
            on_change=self.show_change,
            on_tool_error=self._show_tool_error,
            on_tool=self._show_tool,
            on_notice=self.console.warn,
            on_waiting=self.spinner.set,
        )
        model, before = self.settings.model, tuple(self.session.usage)
        self.last_result = None
        try:
            with self._keys_held():
                result = self.session.turn(text, events)
        except KeyboardInterrupt:
            self.spinner.set(False)
            self.console.end_line()
            self.console.warn("stopped")
            return None
        finally:
            self.meter.add(model, self.session.usage[0] - before[0], self.session.usage[1] - before[1])
        self.last_result = result
        self.console.end_line()
        if result.interrupted:
            self.console.warn(f"reply {result.interrupted}")
        if result.error:
            self.failed_turns += 1
            self.console.error(result.error)
        return result

    def _keys_held(self) -> contextlib.AbstractContextManager[None]:
        """While a reply streams on the terminal, keys typed are not echoed into it (palace/ui/keys.py)."""
        if not self.interactive or self.pt_input is not None:
            return contextlib.nullcontext()
        from palace.ui.keys import keys_unechoed

        return keys_unechoed(sys.stdin.fileno())

    def _lines(self) -> Iterator[str]:
        from palace.ui.keys import joined_lines

        return joined_lines(raw.rstrip("\n") for raw in sys.stdin)

    def run(self, lines: Iterable[str] | None = None) -> int:
        """Run until /exit, Ctrl-D or end of input; the session is archived on the way out."""
        from palace.ui.watch import MemoryWatcher

        watcher = MemoryWatcher(self.store.target, self._on_file_changed)  # a symlink's target: its edits
        watcher.start()
        previous = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGHUP)}

        def leave(signum: int, frame: FrameType | None) -> None:
            self.hung_up = self.hung_up or signum == signal.SIGHUP
            raise SystemExit(128 + signum)

        for sig in previous:
            with contextlib.suppress(ValueError):
                signal.signal(sig, leave)
        try:
            if self.interactive and lines is None:
                self._run_prompt()
            else:
                for line in lines if lines is not None else self._lines():
                    self.flush_notices()
                    if not self.handle(line):
                        break
        finally:
            # A closed terminal sends SIGHUP to the shell and to palace; the shell passes its own on: the
            # session is ending already, and a second one must not cut its archive short.
            with contextlib.suppress(ValueError):
                signal.signal(signal.SIGHUP, signal.SIG_IGN)
            watcher.stop()
            self.end_session()
            self._finish_orphans()
            self.app.history.flush()  # the memory changes' commits, before the process goes
            for sig, handler in previous.items():
                with contextlib.suppress(ValueError, TypeError):
                    signal.signal(sig, handler)
        return 0

    def _finish_orphans(self) -> None:
        """Earlier sessions' extraction still running in the background: waited for, as this session's own
        final extraction is (Ctrl-C leaves it for the next start)."""
        work = self.app.orphan_extraction
        if work is not None and work.is_alive():
            self.console.info("Finishing the extraction of the earlier unfinished sessions…")
            try:
                work.join()
            except KeyboardInterrupt:
                self.console.warn("left for the next start")
        self.flush_notices()

    def _run_prompt(self) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import FileHistory

        from palace.ui.completion import completer
        from palace.ui.keys import key_bindings

        history_file = self.settings.paths.input_history
        history_file.touch(mode=0o600, exist_ok=True)
        history_file.chmod(0o600)
        prompt: PromptSession[str] = PromptSession(
            history=FileHistory(str(history_file)),
            completer=completer(self.store, home=self.settings.home, current=self._session_id),
            complete_while_typing=False,
            bottom_toolbar=self._toolbar,
            key_bindings=key_bindings(),
            prompt_continuation="  ",
            input=self.pt_input,
            output=self.pt_output,
        )
        self._app = prompt.app
        for line in self.startup_lines():
            self.console.info(line)
        while True:
            self.flush_notices()
            try:
                line = prompt.prompt("› ")
            except KeyboardInterrupt:
                continue
            except EOFError:
                break
            if not self.handle(line):
                break

    def _session_id(self) -> str | None:
        journal = self.session.journal
        return journal.id if journal is not None else None

    def startup_lines(self) -> list[str]:
        """What the REPL says when it starts: where it talks to, with what memory, and the keys."""
        from palace.ui.startup import startup_lines

        return startup_lines(self.settings, self.session)

    def _toolbar(self) -> str:
        rendered = self.store.render(self.session.wings, self.settings.memory_budget)  # a stat when unchanged
        inp, out = self.meter.totals()
        wing = ", ".join(self.session.wings) or "—"
        cost = self.meter.short()
        memory = (
            f"memory {rendered.size:,}/{self.settings.memory_budget:,} B"
            if self.settings.memory_enabled
            else "memory off"
        )
        return f" {self.settings.model} · wing {wing} · {memory} · tokens {inp + out:,}{' · ' + cost if cost else ''} "
