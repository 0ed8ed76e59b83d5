"""Claude Code's hooks: `palace hook session-start | session-end | pre-compact`.

Claude Code runs a hook command with one JSON object on stdin: session_id, transcript_path, cwd and
hook_event_name, plus source (SessionStart), reason (SessionEnd) or trigger (PreCompact). session-start prints
the memory of the session's project (the wing is the git repository of cwd) as the hookSpecificOutput's
additionalContext, within CONTEXT_CHARS. session-end and pre-compact read the transcript (palace/mcp/transcript.py:
a regular file within hooks.max_transcript_bytes; an unreadable line is skipped and counted) and import it as a
palace session: a journal, the final extraction through the review rules, the archive, the recall index. The same
Claude Code session imported again (a compaction, then its end) appends only what is new to the same palace
session: the lines already imported are kept by uuid in .index/claude-code/, and an import killed half-way (the
hook's timeout) is finished by the next run. A hook never fails Claude Code: trouble is one line on stderr and
exit status 0 (2 would block some events); session-end and pre-compact print nothing on stdout (PreCompact's
stdout would steer the compaction).
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import signal
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from palace.app import App, detect_wings
from palace.config import load_settings
from palace.errors import PalaceError
from palace.record import record

# What only an import of a transcript (session-end, pre-compact) uses is imported by the functions that do it:
# session-start runs at the start of every Claude Code session, and the sessions and transcript modules would
# cost it a fifth of its time.
if TYPE_CHECKING:
    from palace.mcp.import_record import Imported, ImportRecord, Pending
    from palace.mcp.transcript import Transcript
    from palace.sessions.extract import ExtractionOutcome
    from palace.sessions.journal import Journal

_TRANSCRIPT_NAMES = frozenset({"MAX_TRANSCRIPT_BYTES", "Line", "chat_messages", "parse_line", "read_transcript"})


def __getattr__(name: str) -> Any:
    """This module's API before the transcript had its own (palace/mcp/transcript.py), imported when used."""
    if name in _TRANSCRIPT_NAMES:
        from palace.mcp import transcript

        return getattr(transcript, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


EVENTS = ("session-start", "session-end", "pre-compact")
CONTEXT_CHARS = 10_000  # Claude Code puts about this much of a hook's context in whole (past it, a preview)
CONFIG_BYTES = 16 * 1024 * 1024  # a Claude Code config larger than this is not read for its MCP servers
UNNAMED_BYTES = 4096  # a journal with a header alone is smaller than this
_SESSION_ID = re.compile(r"^[A-Za-z0-9_.-]{1,128}$")
Tell = Callable[[str], None]

# The steps of an import, where a test has the process SIGKILL itself (PALACE_TEST_KILL_AT=<step>) to check that
# the next run finishes what it began. Read once; unset, _step costs one comparison.
KILL_STEPS = (
    "read", "pending", "journal", "base", "message", "written", "proposed", "extracted", "archived", "finished",
    "recorded",
)  # fmt: skip
_KILL_AT = os.environ.get("PALACE_TEST_KILL_AT", "")


def _step(name: str) -> None:
    """A named step of an import: the process kills itself here when a test asks for this step."""
    if name == _KILL_AT:
        os.kill(os.getpid(), signal.SIGKILL)


class HookInputError(PalaceError):
    """The hook's stdin is not what Claude Code sends."""


# ---------------------------------------------------------------------- the hooks


@record(frozen=True)
class HookInput:
    session: str
    transcript: Path | None
    cwd: Path | None
    event: str


def parse_input(text: str) -> HookInput:
    try:
        data = json.loads(text) if text.strip() else None
    except (ValueError, RecursionError) as exc:
        raise HookInputError(f"stdin is not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise HookInputError("stdin is not a JSON object (Claude Code sends one with session_id, transcript_path)")
    session, transcript, cwd = data.get("session_id"), data.get("transcript_path"), data.get("cwd")
    if not isinstance(session, str) or not _SESSION_ID.match(session):
        raise HookInputError(f"session_id {session!r} is not a session id")
    folder = Path(cwd).expanduser() if isinstance(cwd, str) and cwd else None
    return HookInput(
        session,
        Path(transcript).expanduser() if isinstance(transcript, str) and transcript else None,
        folder if folder is not None and folder.is_dir() else None,
        str(data.get("hook_event_name") or ""),
    )


def _wings(app: App, hook: HookInput) -> list[str]:
    return detect_wings(app.settings, hook.cwd)


def session_start(app: App, hook: HookInput) -> str:
    """The JSON that gives Claude Code the project's memory as additional context ("" when there is none):
    within CONTEXT_CHARS in all, naming palace's tools only when Claude Code has them."""
    from palace.mcp.memory import agent_context

    wings = _wings(app, hook)
    if not app.settings.memory_enabled:
        return ""
    for line in app.expire_memories():  # a session starts: what ended leaves the memory, said on stderr
        app.warn(line)
    if not app.store.render(wings, app.settings.memory_budget).text.strip() and app.project is None:
        return ""
    context = agent_context(app, wings, tools=claude_code_has_palace(hook.cwd), limit=CONTEXT_CHARS)
    return json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": context}})


def _names_palace(servers: object) -> bool:
    """Does an `mcpServers` table start palace's server (`palace mcp`, `python -m palace mcp`, or one named so)?"""
    if not isinstance(servers, dict):
        return False
    for name, server in servers.items():
        if name == "palace":
            return True
        if not isinstance(server, dict):
            continue
        args = server.get("args")
        words = [server.get("command"), *(args if isinstance(args, list) else [])]
        names = [Path(word).name.removesuffix(".exe") for word in words if isinstance(word, str)]
        if "mcp" in names and "palace" in names:
            return True
    return False


def _config_names_palace(data: bytes | None, cwd: Path | None) -> bool:
    """Does a Claude Code config (~/.claude.json: user and local scope; .mcp.json: project scope) name palace?"""
    if not data or b"palace" not in data:  # most configs: no JSON to parse
        return False
    try:
        config = json.loads(data)
    except (ValueError, RecursionError):
        return False
    if not isinstance(config, dict):
        return False
    if _names_palace(config.get("mcpServers")):
        return True
    projects = config.get("projects")
    if not isinstance(projects, dict) or cwd is None:
        return False
    for folder in (cwd, *cwd.parents):  # local scope: keyed by the folder Claude Code was started in
        project = projects.get(str(folder))
        if isinstance(project, dict) and _names_palace(project.get("mcpServers")):
            return True
    return False


def _user_config(file: Path) -> bytes | None:
    """The user's own Claude Code config (it may be a link into their dotfiles), within CONFIG_BYTES."""
    from palace.memory.files import read_regular

    with contextlib.suppress(OSError, PalaceError):
        if file.stat().st_size <= CONFIG_BYTES:
            return read_regular(file)
    return None


def claude_code_has_palace(cwd: Path | None) -> bool:
    """Can Claude Code call palace's MCP tools in this session: the MCP SDK that `palace mcp` needs is
    installed, and a Claude Code config names palace's server. No process is started: a few stats and reads."""
    if importlib.util.find_spec("mcp") is None:
        return False
    from palace.memory.contained import read_untrusted

    homes = [Path.home()] + ([Path(os.environ["CLAUDE_CONFIG_DIR"])] if os.environ.get("CLAUDE_CONFIG_DIR") else [])
    if any(_config_names_palace(_user_config(home / ".claude.json"), cwd) for home in homes):
        return True
    for folder in (cwd, *cwd.parents) if cwd is not None else ():
        with contextlib.suppress(PalaceError):  # a project's .mcp.json is the repository's: read as untrusted
            if (folder / ".mcp.json").exists() and _config_names_palace(
                read_untrusted(folder / ".mcp.json", max_bytes=CONFIG_BYTES), None
            ):
                return True
    return False


def _journal(app: App, imported: Imported, wings: list[str], model: str, started: datetime | None = None) -> Journal:
    """The palace session this Claude Code session went to before (taken over), else a new one, dated by when
    the conversation began (its first message's time, when the transcript has it; else now) and marked imported."""
    from palace.sessions.catalog import find_journal
    from palace.sessions.journal import CLAUDE_CODE, Journal

    if imported.palace is not None:
        try:
            return Journal.take_over(find_journal(app.settings.home, imported.palace))
        except PalaceError:
            pass  # it was empty and removed, or its journal is gone: a new session then
    return Journal.start(
        app.settings.home, model=model, wings=wings, warn=app.warn, started=started, imported=CLAUDE_CODE
    )


def _first_time(transcript: Transcript, keys: set[str]) -> datetime | None:
    """When the lines of an import began: the first one's timestamp (None when none has one)."""
    return next((line.when for line in transcript.lines if line.key in keys and line.when is not None), None)


def _discard_unnamed(home: Path, pending: Pending, started: datetime | None) -> None:
    """Remove the journal of a killed import that started it but never recorded its name: a header and nothing
    else, written since the import began, owned by nobody (the orphan archiver would remove it too). Its id is
    dated by the conversation's start (`started`, see _journal), else by the day the import ran."""
    if pending.base is not None or not pending.since:
        return
    from palace.sessions.journal import Journal, sessions_dir

    try:
        began = datetime.fromisoformat(pending.since).replace(microsecond=0) - timedelta(seconds=1)
    except ValueError:
        return
    folder = sessions_dir(home)
    days = {f"{began:%Y-%m-%d}", f"{began + timedelta(days=1):%Y-%m-%d}"}
    days |= {f"{min(started, began).astimezone():%Y-%m-%d}"} if started is not None else set()
    for day in sorted(days):
        for path in folder.glob(f"{day}-*.jsonl"):
            with contextlib.suppress(OSError, PalaceError):
                info = path.stat()
                if (
                    info.st_size > UNNAMED_BYTES
                    or info.st_mtime < began.timestamp()
                    or path.with_suffix(".md").exists()
                ):
                    continue
                journal = Journal.load(path)
                if journal.messages or journal.memory_events or not journal.model.startswith("claude-code"):
                    continue
                journal.discard()  # claims it first: a journal a live palace holds is never touched


def import_session(app: App, hook: HookInput, *, tell: Callable[[str], None]) -> str:
    """Import the session's transcript (what is new since the last import, after finishing an import that was
    killed); a line saying what happened.

    Kill-safe by its order: the import record names the lines of an import before anything is written, then the
    journal and where the import's messages begin in it; the journal gets the messages not in it yet, then the
    extraction and the archive (both done once: the journal keeps the extraction's progress, the archive is
    rewritten whole); the record marks the lines imported last. A run killed at any step leaves a record that
    the next run of the hook completes."""
    if hook.transcript is None:
        raise HookInputError("no transcript_path in the hook's input")
    from palace.mcp.import_record import ImportRecord, Pending
    from palace.mcp.transcript import chat_messages, load_transcript

    transcript = load_transcript(hook.transcript, app.settings.hook_max_transcript_bytes)
    _step("read")
    record = ImportRecord(app.settings.home, hook.session)
    done: list[str] = []
    with record.locked():
        imported = record.load()
        if imported.pending is not None:  # the last run was killed half-way: finish what it began
            _discard_unnamed(app.settings.home, imported.pending, _first_time(transcript, set(imported.pending.keys)))
            done.append("finished an interrupted import: " + _import(app, hook, record, imported, transcript, tell))
        new = [line for line in transcript.lines if line.key not in imported.seen]
        if chat_messages(new):
            imported.pending = Pending([line.key for line in new], since=datetime.now().astimezone().isoformat())
            record.save(imported)
            _step("pending")
            done.append(_import(app, hook, record, imported, transcript, tell))
    if not done:
        return f"Claude Code session {hook.session}: nothing new to import{transcript.skipped}"
    with contextlib.suppress(Exception):  # searching catches up anyway; this makes the session findable now
        app.recall.refresh()
    return "; ".join(done) + transcript.skipped


def _import(
    app: App, hook: HookInput, record: ImportRecord, imported: Imported, transcript: Transcript, tell: Tell
) -> str:
    """Carry the pending import through (the record lock held): journal, messages, extraction, archive, record."""
    from palace.mcp.transcript import chat_messages
    from palace.memory.secrets import redact

    pending = imported.pending
    assert pending is not None
    keys = set(pending.keys)
    messages = chat_messages(line for line in transcript.lines if line.key in keys)
    model = next((f"claude-code ({line.model})" for line in transcript.lines if line.model), "claude-code")
    journal = _journal(app, imported, _wings(app, hook), model, _first_time(transcript, keys))
    _step("journal")
    try:
        if pending.base is None or journal.id != imported.palace:
            pending.base, imported.palace = len(journal.messages), journal.id
            record.save(imported)
            _step("base")
        written = min(len(messages), max(0, len(journal.messages) - pending.base))
        for number, message in enumerate(messages[written:], written + 1):
            # Text from a file others control: what looks like a secret never reaches the journal, the extraction
            # call or the archive.
            journal.add_message({"role": message["role"], "content": redact(message["content"])})
            if number < len(messages):
                _step("message")
        _step("written")
        archive = _finish(app, journal, tell)
        _step("finished")
    finally:
        journal.close()
    imported.seen.update(pending.keys)
    imported.pending = None
    record.save(imported)
    _step("recorded")
    where = f"; archive {archive}" if archive is not None else ""
    return f"imported {len(messages)} messages of Claude Code session {hook.session} as {journal.id}{where}"


def _finish(app: App, journal: Journal, tell: Tell) -> Path | None:
    """The final extraction and the archive (app.finish), with the test's kill points between their steps."""
    from palace.sessions.archive import archive_path

    def extracted(outcome: ExtractionOutcome) -> None:
        _tell_changes(outcome, tell)
        _step("extracted")

    extractor = app.extractor(warn=tell, on_extracted=extracted)
    if _KILL_AT and extractor.commit is not None:
        commit, archive = extractor.commit, archive_path(journal)

        def committed(paths: list[Path], message: str) -> object:
            result = commit(paths, message)
            _step("archived" if archive in paths else "proposed")
            return result

        extractor.commit = committed
    try:
        return app.finish(extractor, journal)
    finally:
        extractor.close()


def _tell_changes(outcome: ExtractionOutcome, tell: Callable[[str], None]) -> None:
    for result in outcome.results:
        tell(f"{result.symbol} {result.message}")
    for proposal in outcome.proposed:
        flag = f" {proposal.flag}" if proposal.flag else ""
        tell(f"? Proposed for review: {proposal.path}: {proposal.content}{flag} (palace memory review)")


def run_hook(event: str, flags: Mapping[str, Any], stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """One hook run; always exit status 0, with at most one line of trouble on stderr per problem."""

    def tell(line: str) -> None:
        from palace.model.failures import one_line  # only when there is something to say

        stderr.write(f"palace: {one_line(line, 400)}\n")

    try:
        if event not in EVENTS:
            raise PalaceError(f'unknown hook "{event}"; palace has: {", ".join(EVENTS)}')
        if stdin.isatty():
            raise HookInputError("a hook reads Claude Code's JSON on stdin; run it from Claude Code's settings")
        hook = parse_input(stdin.read())
        app = App(load_settings(dict(flags)), warn=tell, cwd=hook.cwd)
        try:
            if event == "session-start":
                output = session_start(app, hook)
                if output:
                    stdout.write(output + "\n")
            else:
                tell(import_session(app, hook, tell=tell))
        finally:
            app.close()
    except Exception as exc:  # whatever went wrong, Claude Code carries on
        tell(f"hook {event} failed: {exc}" if isinstance(exc, PalaceError) else f"hook {event} failed: {exc!r}")
    return 0
