"""The REPL: prompt_toolkit on a terminal, plain lines on a pipe; one place prints and carries on."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import signal
import subprocess
import sys
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, TextIO

from palace import commands
from palace.agent import Session, TurnEvents
from palace.config import Settings
from palace.console import Console
from palace.errors import PalaceError
from palace.memory.halls import Hall
from palace.memory.ops import ChangeResult
from palace.memory.store import MemoryStore
from palace.tools import MemoryRecall

if TYPE_CHECKING:
    from prompt_toolkit.application import Application
    from prompt_toolkit.completion import CompleteEvent, Completer, Completion
    from prompt_toolkit.document import Document as PTDocument
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output

    from palace.extract import Extractor
    from palace.history import GitHistory
    from palace.llm import LLMClient
    from palace.sessions import Journal


def detect_wing(settings: Settings, cwd: Path | None = None) -> str | None:
    """The current wing: --wing / config, else the name of the git repository we run in, else none."""
    if settings.wing:
        return settings.wing
    try:
        top = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"], cwd=cwd, capture_output=True, text=True, timeout=5, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if top.returncode != 0 or not top.stdout.strip():
        return None
    top_dir = Path(top.stdout.strip())
    if top_dir.resolve() == settings.home.resolve():
        return None  # the palace's own history repository is not a project
    from palace.memory.halls import is_valid_wing

    name = top_dir.name
    return name if is_valid_wing(name) else None


class _Spinner:
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
            self._stop.clear()
            self._thread = threading.Thread(target=self._spin, daemon=True)
            self._thread.start()
        elif not waiting and self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._thread = None

    def _spin(self) -> None:
        for frame in itertools.cycle("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"):
            self.console.out.write(f"\r{self.console.style(frame + ' thinking…', 'dim')}")
            self.console.out.flush()
            if self._stop.wait(0.08):
                break
        self.console.out.write("\r\x1b[K")
        self.console.out.flush()


class Repl:
    """A chat session with slash commands, a journal, background extraction and hand-edit notices."""

    def __init__(
        self,
        settings: Settings,
        console: Console,
        *,
        wing: str | None = None,
        resume: str | bool = False,
        interactive: bool | None = None,
        pt_input: Input | None = None,
        pt_output: Output | None = None,
        client: LLMClient | None = None,
    ) -> None:
        from palace.extract import Extractor
        from palace.history import GitHistory
        from palace.llm import client_from_settings

        self.settings = settings
        self.console = console
        self.wing = wing
        self.interactive = sys.stdin.isatty() and console.out.isatty() if interactive is None else interactive
        self.pt_input = pt_input
        self.pt_output = pt_output
        self.history: GitHistory = GitHistory(settings.home, autocommit=settings.git_autocommit, warn=console.warn)
        self.store = MemoryStore(settings.home, entry_limit=settings.entry_limit, hooks=[self.history])
        self.client: LLMClient = client or client_from_settings(settings)
        self.extractor: Extractor = Extractor(
            settings, self.store, commit=self.history.commit_paths, warn=console.warn
        )
        self._notices: list[str] = []
        self._notice_lock = threading.Lock()
        self._app: Application[Any] | None = None
        self._recall_index: Any = None
        self._shown: Any = None
        self.failed_turns = 0
        self.spinner = _Spinner(console, self.interactive and console.color)
        self._archive_orphans()
        self.session = self._open_session(resume)

    # ------------------------------------------------------------------ sessions
    def _archive_orphans(self) -> None:
        from palace.extract import archive_orphans

        try:
            for line in archive_orphans(self.settings, self.store, commit=self.history.commit_paths,
                                        warn=self.console.warn):
                self.console.info(line)
        except PalaceError as exc:
            self.console.warn(f"could not archive earlier sessions: {exc}")

    def _open_session(self, resume: str | bool) -> Session:
        from palace.sessions import Journal

        journal: Journal
        if resume is not False:
            journal = Journal.resume(self.settings.home, None if resume is True else str(resume))
            self.console.info(f"Resumed session {journal.id} ({journal.turns} turns).")
            self.wing = self.wing or journal.wing
        else:
            journal = Journal.start(self.settings.home, model=self.settings.model, wing=self.wing)
        session = Session(
            self.settings, self.store, client=self.client, wing=self.wing, journal=journal,
            extractor=self.extractor if self.settings.extraction else None, recall=self._recall_tool,
        )
        for notice in session.rebuild_prompt():
            self.console.warn(notice)
        return session

    def end_session(self) -> None:
        """Archive the session (extraction first); Ctrl-C leaves it for the next start."""
        journal = self.session.journal
        self.session.close()
        if journal is None:
            return
        self.spinner.set(True)
        try:
            archive = self.extractor.finish(journal)  # also archives when extraction is off
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
        if archive is not None:
            self.console.info(f"Session archived: {archive}")

    def new_session(self) -> None:
        self.end_session()
        self.session = self._open_session(False)
        self.console.info(f"New session {self.session.journal.id if self.session.journal else ''}.")

    def commit_hand_edit(self) -> None:
        """Record a hand edit in git right away (a no-op without git or without changes)."""
        with self.store.lock():
            self.history.before_write(self.store.file)

    def set_model(self, name: str) -> None:
        self.settings.model = name
        self.client.model = name

    # ------------------------------------------------------------------ recall
    def recall_text(self, query: str, *, limit: int = 5, since: Any = None, until: Any = None) -> str:
        from palace.recall import RecallIndex, format_hits

        if self._recall_index is None:
            self._recall_index = RecallIndex(self.settings.home)
        journal = self.session.journal
        current = (journal.id,) if journal is not None else ()  # the live conversation is in context already
        hits = self._recall_index.search(query, limit=limit, since=since, until=until, exclude=current)
        return format_hits(hits, query=query)

    def _recall_tool(self, args: MemoryRecall) -> str:
        return self.recall_text(args.query, limit=args.limit, since=args.since, until=args.until)

    # ------------------------------------------------------------------ output
    def show_change(self, change: ChangeResult) -> None:
        style = "yellow" if change.action == "forgotten" else "green"
        self.console.print(f"{change.symbol} {change.message}", style)

    def notify(self, text: str) -> None:
        """A notice from another thread: above the prompt when one is showing, else before the next turn."""
        app = self._app
        if app is not None and app.is_running and app.loop is not None:
            from prompt_toolkit.application import run_in_terminal

            def show() -> None:
                self._shown = asyncio.ensure_future(run_in_terminal(lambda: self.console.warn(text)))

            app.loop.call_soon_threadsafe(show)
            return
        with self._notice_lock:
            self._notices.append(text)

    def flush_notices(self) -> None:
        with self._notice_lock:
            pending, self._notices = self._notices, []
        for text in pending:
            self.console.warn(text)

    def _on_file_changed(self) -> None:
        if self.session.hand_edited():
            self.notify("memories.md changed on disk; the next turn uses the new version")

    # ------------------------------------------------------------------ input
    def handle(self, line: str) -> bool:
        """One line of input; False when the REPL should end."""
        line = line.strip()
        if not line:
            return True
        if line.startswith("/"):
            return commands.dispatch(self, line)
        self.chat(line)
        return True

    def chat(self, text: str) -> None:
        events = TurnEvents(
            on_text=self.console.write,
            on_change=self.show_change,
            on_tool_error=lambda tool, message: self.console.print(f"✗ Not saved: {message}", "red")
            if tool in {"MemorySave", "MemoryForget"}
            else self.console.print(f"✗ {tool}: {message}", "red"),
            on_notice=self.console.warn,
            on_waiting=self.spinner.set,
        )
        try:
            result = self.session.turn(text, events)
        except KeyboardInterrupt:
            self.spinner.set(False)
            self.console.end_line()
            self.console.warn("stopped")
            return
        self.console.end_line()
        if result.interrupted:
            self.console.warn(f"reply {result.interrupted}")
        if result.error:
            self.failed_turns += 1
            self.console.error(result.error)

    def _lines(self) -> Iterator[str]:
        stream: TextIO = sys.stdin
        for raw in stream:
            yield raw.rstrip("\n")

    def run(self, lines: Iterable[str] | None = None) -> int:
        """Run until /exit, Ctrl-D or end of input; the session is archived on the way out."""
        from palace.watch import MemoryWatcher

        watcher = MemoryWatcher(self.store.file, self._on_file_changed)
        watcher.start()
        previous = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGHUP)}

        def leave(signum: int, frame: FrameType | None) -> None:
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
            watcher.stop()
            self.end_session()
            for sig, handler in previous.items():
                with contextlib.suppress(ValueError, TypeError):
                    signal.signal(sig, handler)
        return 0

    def _run_prompt(self) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import FileHistory

        history_file = self.settings.home / "history.txt"
        history_file.touch(mode=0o600, exist_ok=True)
        history_file.chmod(0o600)
        prompt: PromptSession[str] = PromptSession(
            history=FileHistory(str(history_file)),
            completer=_completer(self),
            complete_while_typing=False,
            bottom_toolbar=self._toolbar,
            input=self.pt_input,
            output=self.pt_output,
        )
        self._app = prompt.app
        self.console.info("palace — /help for commands, Ctrl-D to leave.")
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

    def _toolbar(self) -> str:
        rendered = self.store.render(self.session.wing, self.settings.memory_budget)  # a stat when unchanged
        inp, out = self.session.usage
        wing = self.session.wing or "—"
        return (
            f" {self.settings.model} · wing {wing} · memory {rendered.size:,}/{self.settings.memory_budget:,} B"
            f" · tokens {inp + out:,} "
        )


def _memory_paths(store: MemoryStore) -> list[str]:
    try:
        doc = store.document()
    except PalaceError:
        return []
    paths = {str(entry.path) for entry in doc.entries if entry.path is not None}
    paths.update(f"{hall.value}/" for hall in Hall)
    return sorted(paths)


def _completer(repl: Repl) -> Completer:
    """Completes slash commands, then memory paths (halls, rooms) after /remember and /forget."""
    from prompt_toolkit.completion import Completer, Completion

    class _PalaceCompleter(Completer):
        def get_completions(self, document: PTDocument, complete_event: CompleteEvent) -> Iterator[Completion]:
            text = document.text_before_cursor
            if not text.startswith("/"):
                return
            if " " not in text:
                for word in commands.words_for_completion():
                    if word.startswith(text):
                        yield Completion(word, start_position=-len(text))
                return
            word, _, rest = text.partition(" ")
            if word in {"/remember", "/forget"} and " " not in rest:
                for path in _memory_paths(repl.store):
                    if path.lower().startswith(rest.lower()):
                        yield Completion(path, start_position=-len(rest))

    return _PalaceCompleter()
