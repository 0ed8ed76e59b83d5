"""Claude Code's hooks: `palace hook session-start | session-end | pre-compact`.

Claude Code runs a hook command with one JSON object on stdin: session_id, transcript_path, cwd and
hook_event_name, plus source (SessionStart), reason (SessionEnd) or trigger (PreCompact). session-start prints
the memory of the session's project (the wing is the git repository of cwd) as the hookSpecificOutput's
additionalContext. session-end and pre-compact read the transcript (JSONL: one record a line; `user` and
`assistant` records carry a `message` with `content` as text or parts) and import it as a palace session: a
journal, the final extraction through the review rules, the archive, the recall index. The same Claude Code
session imported again (a compaction, then its end) appends only what is new to the same palace session: the
lines already imported are kept by uuid in .index/claude-code/. A hook never fails Claude Code: trouble is one
line on stderr and exit status 0 (2 would block some events); session-end and pre-compact print nothing on
stdout (PreCompact's stdout would steer the compaction).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from palace.app import App, detect_wings
from palace.config import load_settings
from palace.errors import PalaceError
from palace.filelock import exclusive
from palace.memory.files import atomic_write
from palace.model.failures import one_line
from palace.paths import PalacePaths
from palace.sessions.catalog import find_journal
from palace.sessions.journal import Journal

if TYPE_CHECKING:
    from palace.sessions.extract import ExtractionOutcome

EVENTS = ("session-start", "session-end", "pre-compact")
MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024  # a transcript larger than this is not read (a hook must stay quick)
_SESSION_ID = re.compile(r"^[A-Za-z0-9_.-]{1,128}$")
# Text Claude Code writes into user records that the user did not say: slash-command echoes, their output,
# reminders, interruptions.
_NOT_SAID = re.compile(
    r"^\s*(<(command-[a-z-]+|local-command-[a-z-]+|system-reminder|bash-[a-z-]+)>|\[Request interrupted)"
)


class HookInputError(PalaceError):
    """The hook's stdin is not what Claude Code sends."""


@dataclass(frozen=True)
class Line:
    """One transcript record that may carry conversation: its key (uuid), role, text, and the model named."""

    key: str
    role: str
    text: str
    model: str | None = None


@dataclass
class Imported:
    """What .index/claude-code/<session>.json keeps: the palace session it went to, the lines already in it."""

    palace: str | None = None
    seen: set[str] = field(default_factory=set)


# ---------------------------------------------------------------------- the transcript


def _text_of(content: object) -> str:
    """The plain text of a message's content: a string, or the text parts (tool calls, results and thinking
    are left out: the archive keeps what was said)."""
    if isinstance(content, str):
        return content.strip()
    if not isinstance(content, list):
        return ""
    parts = [part.get("text") for part in content if isinstance(part, dict) and part.get("type") == "text"]
    return "\n\n".join(part.strip() for part in parts if isinstance(part, str) and part.strip())


def parse_line(raw: bytes) -> Line | None:
    """A transcript record as a Line, or None for what is not the main conversation's words."""
    try:
        record = json.loads(raw)
    except ValueError:
        return None  # a line cut short (Claude Code still writing it), or damaged
    if not isinstance(record, dict) or record.get("type") not in ("user", "assistant"):
        return None  # summaries, file snapshots, system records
    if record.get("isSidechain") or record.get("isMeta") or record.get("isCompactSummary"):
        return None  # a sub-agent's thread, an internal note, the summary that replaces compacted turns
    message = record.get("message")
    if not isinstance(message, dict):
        return None
    text = _text_of(message.get("content"))
    if not text or (record["type"] == "user" and _NOT_SAID.match(text)):
        return None
    key = record.get("uuid")
    if not isinstance(key, str) or not key:
        key = hashlib.sha256(raw).hexdigest()[:32]
    model = message.get("model") if record["type"] == "assistant" else None
    return Line(key, record["type"], text, model if isinstance(model, str) and model else None)


def read_transcript(path: Path) -> list[Line]:
    """The conversation lines of a Claude Code transcript file."""
    try:
        size = path.stat().st_size
        if size > MAX_TRANSCRIPT_BYTES:
            limit = f"{MAX_TRANSCRIPT_BYTES:,}"
            raise PalaceError(f"the transcript {path} is {size:,} bytes; palace imports at most {limit}")
        data = path.read_bytes()
    except FileNotFoundError:
        raise PalaceError(f"the transcript {path} does not exist") from None
    except OSError as exc:
        raise PalaceError(f"cannot read the transcript {path}: {exc.strerror}") from exc
    return [line for raw in data.splitlines() if raw.strip() for line in [parse_line(raw)] if line is not None]


def chat_messages(lines: Iterable[Line]) -> list[dict[str, Any]]:
    """Chat messages from transcript lines: consecutive lines of one role (an answer written in several
    records around its tool calls) become one message."""
    messages: list[dict[str, Any]] = []
    for line in lines:
        if messages and messages[-1]["role"] == line.role:
            messages[-1]["content"] += "\n\n" + line.text
        else:
            messages.append({"role": line.role, "content": line.text})
    return messages


# ---------------------------------------------------------------------- the import record


class ImportRecord:
    """Which palace session a Claude Code session went to, and which of its lines it has (derived data)."""

    def __init__(self, home: Path, session: str) -> None:
        self.folder = PalacePaths(home).index / "claude-code"
        self.file = self.folder / f"{session}.json"
        self.lock_file = self.folder / f"{session}.lock"

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Two hooks of one session (a compaction racing its end) import one after the other."""
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        with exclusive(self.lock_file):
            yield

    def load(self) -> Imported:
        try:
            data = json.loads(self.file.read_bytes())
        except (OSError, ValueError):
            return Imported()
        if not isinstance(data, dict):
            return Imported()
        palace = data.get("palace")
        seen = data.get("seen")
        return Imported(
            palace if isinstance(palace, str) else None,
            {key for key in seen if isinstance(key, str)} if isinstance(seen, list) else set(),
        )

    def save(self, imported: Imported) -> None:
        data = {"palace": imported.palace, "seen": sorted(imported.seen)}
        atomic_write(self.file, json.dumps(data).encode("utf-8"))


# ---------------------------------------------------------------------- the hooks


@dataclass(frozen=True)
class HookInput:
    session: str
    transcript: Path | None
    cwd: Path | None
    event: str


def parse_input(text: str) -> HookInput:
    try:
        data = json.loads(text) if text.strip() else None
    except ValueError as exc:
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
    """The JSON that gives Claude Code the project's memory as additional context ("" when there is none)."""
    from palace.mcp.memory import agent_context

    wings = _wings(app, hook)
    if not app.settings.memory_enabled:
        return ""
    if not app.store.render(wings, app.settings.memory_budget).text.strip() and app.project is None:
        return ""
    context = agent_context(app, wings)
    return json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": context}})


def _journal(app: App, imported: Imported, wings: list[str], model: str) -> Journal:
    """The palace session this Claude Code session went to before (taken over), else a new one."""
    if imported.palace is not None:
        try:
            return Journal.take_over(find_journal(app.settings.home, imported.palace))
        except PalaceError:
            pass  # it was empty and removed, or its journal is gone: a new session then
    return Journal.start(app.settings.home, model=model, wings=wings, warn=app.warn)


def import_session(app: App, hook: HookInput, *, tell: Callable[[str], None]) -> str:
    """Import the session's transcript (what is new since the last import); a line saying what happened."""
    if hook.transcript is None:
        raise HookInputError("no transcript_path in the hook's input")
    lines = read_transcript(hook.transcript)
    record = ImportRecord(app.settings.home, hook.session)
    with record.locked():
        imported = record.load()
        new = [line for line in lines if line.key not in imported.seen]
        messages = chat_messages(new)
        if not messages:
            return f"Claude Code session {hook.session}: nothing new to import"
        model = next((f"claude-code ({line.model})" for line in lines if line.model), "claude-code")
        journal = _journal(app, imported, _wings(app, hook), model)
        try:
            for message in messages:
                journal.add_message(message)
            imported.palace = journal.id
            imported.seen.update(line.key for line in new)
            record.save(imported)
            extractor = app.extractor(warn=tell, on_extracted=lambda outcome: _tell_changes(outcome, tell))
            try:
                archive = app.finish(extractor, journal)
            finally:
                extractor.close()
        finally:
            journal.close()
    with contextlib.suppress(Exception):  # searching catches up anyway; this makes the session findable now
        app.recall.refresh()
    where = f"; archive {archive}" if archive is not None else ""
    return f"imported {len(messages)} messages of Claude Code session {hook.session} as {journal.id}{where}"


def _tell_changes(outcome: ExtractionOutcome, tell: Callable[[str], None]) -> None:
    for result in outcome.results:
        tell(f"{result.symbol} {result.message}")
    for proposal in outcome.proposed:
        tell(f"? Proposed for review: {proposal.path}: {proposal.content} (palace memory review)")


def run_hook(event: str, flags: Mapping[str, Any], stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """One hook run; always exit status 0, with at most one line of trouble on stderr per problem."""

    def tell(line: str) -> None:
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
