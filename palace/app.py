"""The one place that assembles palace's parts for the CLI, the REPL, the demo and the MCP server.

An App holds one palace's settings and builds, each on first use, what the front ends share: the memory
store with its history hook, the chat model, the extractor, the recall index, and the session set-up
(orphans archived, a journal started or resumed, a session finished). Heavy modules are imported only when
a part is first asked for, so `palace memory ...` stays fast.
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from palace.config import Settings
from palace.errors import ConfigError, HistoryError, PalaceError

if TYPE_CHECKING:
    from palace.history.autocommit import GitHistory
    from palace.history.changelog import SessionTag
    from palace.memory.project import Project, Targets
    from palace.memory.reuse import ReuseCounts
    from palace.memory.store import MemoryStore
    from palace.model.chat import ChatModel
    from palace.recall.index import RecallIndex
    from palace.sessions.extract import ExtractionOutcome, Extractor
    from palace.sessions.journal import Journal

Warn = Callable[[str], None]


def _quiet(message: str) -> None:
    """Drop a warning (extraction failures of orphans are reported in their notice instead)."""


class App:
    """One palace's assembled parts, built on first use."""

    def __init__(
        self,
        settings: Settings,
        *,
        warn: Warn,
        client: ChatModel | None = None,
        cwd: Path | None = None,
        background_commits: bool = False,
    ) -> None:
        """`background_commits`: memory changes are committed by a thread after the write returns (the REPL;
        see history/autocommit.py); `close()` waits for them. `cwd`: where palace works (None: the process's
        working directory)."""
        check_wing_setting(settings)
        self.settings = settings
        self.cwd = cwd
        self.warn = warn
        self._background_commits = background_commits
        self._client = client
        self._injected = client is not None
        self._recall: RecallIndex | None = None
        self.orphan_extraction: threading.Thread | None = None  # the background extraction of crashed sessions
        if background_commits:  # the REPL: its committer starts with the App, as it always did
            _ = self.history

    # ------------------------------------------------------------------ the memory
    # Built on first use: `palace sessions search` needs neither, and importing them costs a short command
    # more than its own work (the store's modules, git plumbing, the undo log).
    @functools.cached_property
    def session_tag(self) -> SessionTag:
        """The session this process's changes belong to (a chat's; none for a command or an MCP client)."""
        from palace.history.changelog import SessionTag

        return SessionTag()

    @functools.cached_property
    def history(self) -> GitHistory:
        """The store's write hook: commits each change (when the palace is a git repository), keeps undo."""
        from palace.history.autocommit import GitHistory

        settings = self.settings
        return GitHistory(
            settings.home,
            autocommit=settings.git_autocommit,
            warn=self.warn,
            background=self._background_commits,
            tag=self.session_tag,
        )

    @functools.cached_property
    def store(self) -> MemoryStore:
        """The palace's memories.md, with the history hook."""
        from palace.memory.store import MemoryStore

        store = MemoryStore(self.settings.home, entry_limit=self.settings.entry_limit, hooks=[self.history])
        store.reuse = self.reuse  # one set of counts, whether the store or a search bumped them first
        return store

    @functools.cached_property
    def reuse(self) -> ReuseCounts:
        """How often each entry was confirmed or recalled (the store's counts)."""
        from palace.memory.reuse import ReuseCounts

        return ReuseCounts(self.settings.home)

    # ------------------------------------------------------------------ the model
    @property
    def client(self) -> ChatModel:
        """The chat model: the one given, else an openai client for the configured endpoint."""
        if self._client is None:
            from palace.model.client import client_from_settings

            self._client = client_from_settings(self.settings)
        return self._client

    def endpoint_host(self) -> str | None:
        """The host the memory block and the conversation go to (None when no endpoint is configured)."""
        from urllib.parse import urlsplit

        if self.settings.base_url is None and self.settings.api_key is None and not self._injected:
            return None
        url = self.settings.base_url or "https://api.openai.com/v1"
        if self._injected:
            url = self.client.url
        return urlsplit(url).hostname or url

    def extractor(
        self, *, warn: Warn | None = None, on_extracted: Callable[[ExtractionOutcome], None] | None = None
    ) -> Extractor:
        """An extractor for this palace; it uses the extraction model when one is set."""
        from palace.sessions.extract import Extractor

        # An injected model (the demo, tests) serves both; else extraction has a client of its own, with its own
        # timeout (extraction.timeout: one call reads a whole conversation) and model when one is set.
        client = self._client if self._injected else None
        return Extractor(
            self.settings,
            self.store,
            client=client,
            commit=self.history.commit_paths,
            warn=warn or self.warn,
            on_extracted=on_extracted,
        )

    def warm_up(self) -> threading.Thread:
        """Import the model's heavy modules (openai, the tool schemas) in the background while the user
        types, so that the first reply does not wait for them."""
        from palace.threads import start_thread

        def load() -> None:
            with contextlib.suppress(Exception):  # a failure here shows up, properly, at the first call
                import openai  # noqa: F401

                from palace.model import tools

                tools.memory_tools(self.store, by="model").schemas()

        return start_thread(load, name="palace-warm-up")

    # ------------------------------------------------------------------ the project memory
    def work_in(self, cwd: Path) -> None:
        """Work for a folder other than the one palace started in (an MCP client's workspace root)."""
        if cwd != self.cwd:
            self.cwd = cwd
            for name in ("project", "targets"):  # found again for the new folder on next use
                self.__dict__.pop(name, None)

    @functools.cached_property
    def project(self) -> Project | None:
        """The repository around the working directory, when it has a project memory (and it is wanted)."""
        if not (self.settings.project_enabled and self.settings.memory_enabled):
            return None
        from palace.memory.project import find_project

        found = find_project(self.cwd or Path.cwd(), self.settings.home)
        if found is not None and found.refused is not None:
            self.warn(f"no project memory: {found.refused}")  # said once: the refused file is not used
            return None
        return found

    @functools.cached_property
    def targets(self) -> Targets:
        """Where saves go: the user's palace, and the project memory for the project's wing."""
        from palace.memory.project import Targets, project_store

        project = self.project
        shared = None
        if project is not None:
            from palace.history.undo import UndoRecorder

            shared = project_store(project, self.settings.home, entry_limit=self.settings.entry_limit)
            shared.hooks.append(UndoRecorder(shared.state, self.session_tag))  # undoable like the palace, without git
        return Targets(self.store, project, shared, to_project=self.settings.project_saves == "project")

    def expire_memories(self) -> list[str]:
        """At a session's start: the entries past their end date move to superseded.md (one change, undoable);
        a line each for the user."""
        if not self.settings.memory_enabled:
            return []
        try:
            gone = self.store.expire()
        except PalaceError as exc:
            return [f"! could not move the entries past their end date: {exc}"]
        return [
            f"⌛ Expired from {entry.path}: {entry.content} (it held until {entry.until}; kept in superseded.md, "
            "`palace memory undo` brings it back)"
            for entry in gone.entries
        ]

    def undo(self) -> str:
        """Revert palace's newest change, in the user's palace or the project memory."""
        from palace.history.undo import Undoable, undo_latest

        self.history.flush()  # the changes committed first: undo may read the last one from git
        files = [Undoable(self.store, self.settings.home)]
        targets = self.targets
        if targets.project is not None and targets.project_memory is not None:
            label = f" (in the project memory {targets.project.file})"
            files.append(Undoable(targets.project_memory, targets.project_memory.state, label))
        return undo_latest(files)

    # ------------------------------------------------------------------ recall
    @property
    def recall(self) -> RecallIndex:
        if self._recall is None:
            from palace.recall.index import RecallIndex

            self._recall = RecallIndex(self.settings.home)
        return self._recall

    def recall_text(
        self,
        query: str,
        *,
        limit: int = 5,
        since: date | None = None,
        until: date | None = None,
        exclude: tuple[str, ...] = (),
        max_bytes: int = 2048,
        wings: Sequence[str] | None = None,
    ) -> str:
        """Search results as the compact text the model (or `/recall`) gets: `wings` and everything wing-less
        (None: every wing). The memory entries it shows count as recalled (`palace memory show --stats`)."""
        from palace.recall.format import format_result
        from palace.recall.scope import Scope

        hits = self.recall.search(query, limit=limit, since=since, until=until, exclude=exclude, wings=wings)
        result = format_result(hits, query=query, max_bytes=max_bytes, scope=Scope.of(wings))
        self.reuse.bump(list(result.recalled), "recalled")
        return result.text

    # ------------------------------------------------------------------ sessions
    def archive_orphans(self, *, background: Callable[[str], None] | None = None, keep: str | None = None) -> list[str]:
        """Archive the sessions that died earlier (but `keep`, about to be resumed); one notice line each. With
        `background`, the start does not wait for their extraction: they are archived at once, and a thread
        (`orphan_extraction`) extracts them, telling `background` a line for each."""
        from palace.sessions.lifecycle import archive_orphans, extract_orphans

        extractor = self.extractor(warn=_quiet)
        extractor.commit_warn = self.warn  # extraction failures are in the notice; commit trouble warns
        deferred: list[Journal] = []
        try:
            notices = archive_orphans(extractor, later=deferred if background is not None else None, keep=keep)
        except BaseException:
            for journal in deferred:
                journal.close()
            extractor.close()
            raise
        if background is None or not deferred:
            extractor.close()
            return notices

        def extract() -> None:
            try:
                for line in extract_orphans(extractor, deferred):
                    background(line)
            except Exception as exc:  # a thread's failure would only reach stderr: the user hears of it
                background(f"the extraction of earlier sessions stopped: {exc}")
            finally:
                extractor.close()

        from palace.threads import start_thread

        self.orphan_extraction = start_thread(extract, name="palace-orphans")
        return notices

    def start_journal(self, wings: Sequence[str]) -> Journal:
        from palace.sessions.journal import Journal

        journal = Journal.start(self.settings.home, model=self.settings.model, wings=wings, warn=self.warn)
        self.session_tag.id = journal.id  # the changes made from here on are this session's
        return journal

    def resume_journal(self, session_id: str | None) -> Journal:
        from palace.sessions.lifecycle import resume

        journal = resume(self.settings.home, session_id)
        journal.warn = self.warn
        self.session_tag.id = journal.id
        return journal

    def finish(self, extractor: Extractor, journal: Journal, *, hung_up: bool = False) -> Path | None:
        """Final extraction, archive, commit; None for a session in which nothing was said (its journal is
        removed). `hung_up` (the terminal closed): the archive is written before the extraction too, and a session
        cut off while it waited for its reply is extracted, as an orphan that died so is (lifecycle.finish)."""
        from palace.sessions.lifecycle import finish

        return finish(extractor, journal, archive_first=hung_up, keep_unanswered=hung_up)

    def close(self) -> None:
        if "history" in self.__dict__:  # never built: nothing was committed
            self.history.flush()
        if self._recall is not None:
            self._recall.close()
            self._recall = None
        if self._client is not None:
            self._client.close()


def check_wing_setting(settings: Settings) -> None:
    """Wing settings every memory path accepts (else each save under them would be refused): ConfigError."""
    named = [("wing", settings.wing)] if settings.wing else []
    named += [("wings", wing) for wing in settings.wings]
    if not named:
        return
    from palace.memory.halls import wing_advice, wing_problem

    for field, wing in named:
        problem = wing_problem(wing)
        if problem is not None:
            source = settings.source(field)
            raise ConfigError(f"invalid settings: {field} ({source}): {problem}; {wing_advice(wing)}")


def _git_top(cwd: str | None) -> Path | None:
    """The top of the git work tree cwd is in, as `git rev-parse --show-toplevel` says it (the real path), found
    without running git (a process of its own: most of a short command's start): the nearest folder up with a
    `.git` folder holding HEAD, or a `.git` file (a worktree, a submodule). Where the environment tells git
    otherwise (GIT_DIR, GIT_WORK_TREE, GIT_CEILING_DIRECTORIES), git itself is asked."""
    if any(os.environ.get(name) for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_CEILING_DIRECTORIES")):
        return _git_top_by_git(cwd)
    try:
        here = Path(os.path.realpath(cwd or os.getcwd()))
    except OSError:
        return None
    for folder in (here, *here.parents):
        marker = folder / ".git"
        if (marker / "HEAD").is_file() or marker.is_file():
            return folder
    return None


def _git_top_by_git(cwd: str | None) -> Path | None:
    import subprocess

    try:
        top = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"], cwd=cwd, capture_output=True, text=True, timeout=5, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if top.returncode != 0 or not top.stdout.strip():
        return None
    return Path(top.stdout.strip())


def detect_wings(settings: Settings, cwd: Path | None = None) -> list[str]:
    """The active wings: --wing (repeatable) / PALACE_WING / config `wing` and `wings`, else the name of the
    git repository we run in, else none."""
    named: dict[str, str] = {}
    for wing in [settings.wing, *settings.wings]:
        if wing:
            named.setdefault(wing.casefold(), wing)
    if named:
        return list(named.values())
    top = _git_top(str(cwd) if cwd is not None else None)
    if top is None or top.resolve() == settings.home.resolve():
        return []  # no repository, or the palace's own history repository (not a project)
    from palace.memory.halls import is_valid_wing

    return [top.name] if is_valid_wing(top.name) else []


def detect_wing(settings: Settings, cwd: Path | None = None) -> str | None:
    """The first active wing (see detect_wings), or None."""
    wings = detect_wings(settings, cwd)
    return wings[0] if wings else None


def init_palace(home: Path, *, git: bool) -> list[str]:
    """`palace init`: the folder, a starter memories.md, and with git=True a repository. Idempotent."""
    from palace.history.git import GitTrouble
    from palace.history.repo import init_git
    from palace.memory.starter import create_palace

    home = Path(home).expanduser()
    lines = create_palace(home)
    if not git:
        on = (home / ".git").exists()
        lines.append(
            "git history: on (each memory change is a commit; see `palace log`)"
            if on
            else "git history: off (run `palace init --git` to keep one)"
        )
        return lines
    try:
        lines.extend(init_git(home))
    except GitTrouble as exc:
        raise HistoryError(f"the palace is ready at {home}, but its git history is not: {exc}") from exc
    except OSError as exc:
        raise HistoryError(f"cannot set up git in {home}: {exc.strerror or exc}") from exc
    return lines
