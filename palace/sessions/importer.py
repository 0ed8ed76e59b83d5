"""Importing a dated transcript (a conversation held elsewhere) as palace sessions named by their own dates.

`palace import-transcript FILE [--date YYYY-MM-DD] [--wing W]` reads one of two formats:

- JSON lines (or one JSON array) of messages: `{"role": "user", "content": "...", "date": "2023-05-08"}`.
  `role` is `user` or `assistant` (`human`/`ai` too), or a speaker's name: the first name seen becomes the
  user, any other the assistant, and the text is kept as `Name: text`. `date` (or `ts`, `timestamp`, `time`)
  is optional: ISO 8601 (`2023-05-08`, `2023-05-08T13:56:00+02:00`) or words (`1:56 pm on 8 May, 2023`).
  A line with a date but no `content` (`{"session": 2, "date": "2023-05-20"}`) starts a new session.
- Markdown: a heading or a `Date: ...` line that holds a date starts a session of that date; a message
  starts with `user:`, `assistant:`, `**user:**` or `## assistant` (in a transcript with none of those, a
  bold speaker name, `**Caroline:**`); the lines after it, up to the next message, are its text. Anything
  before the first message is ignored.

A new session also starts where a message's own date falls on another day. `--date` dates the messages
that carry none. Each session becomes a journal (`sessions/<its date>-<8 hex>.jsonl`, the records
palace/sessions/journal.py writes: a `session` header whose `started` is the conversation's start, the
messages, an `end` mark) and its archive (palace/sessions/archive.py's `write_archive`). The id is a hash
of the session's content, so importing the same file again adds nothing.

The file is someone else's text: it is read as memory/contained.py reads such files (a regular file, no link,
within `max_bytes`, never hanging on a FIFO), and what looks like a secret in a message is redacted before it
reaches the journal (and so the archive, recall and any extraction).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import socket
from datetime import date, datetime
from pathlib import Path
from typing import Any

from palace.errors import PalaceError, StoreError
from palace.memory.contained import folder_of, read_untrusted
from palace.memory.files import atomic_write, ensure_home
from palace.memory.secrets import redact
from palace.recall.dates import parse_when
from palace.record import record
from palace.sessions.archive import archive_path, render_archive, write_archive
from palace.sessions.dated import Message, TranscriptSession
from palace.sessions.exports import export_kind, parse_export
from palace.sessions.journal import Journal, sessions_dir

MODEL = "(imported)"
_ROLES = {
    "user": "user",
    "human": "user",
    "me": "user",
    "assistant": "assistant",
    "ai": "assistant",
    "bot": "assistant",
}
_SKIPPED_ROLES = {"system", "tool", "developer", "function"}
_DATE_KEYS = ("date", "ts", "timestamp", "time", "datetime", "started")
MAX_NAME = 40
MAX_BYTES = 64 * 1024 * 1024  # a transcript larger than this is not read (as hooks.max_transcript_bytes)


@record
class ImportedSession:
    """One session written (or found already imported)."""

    id: str
    messages: int
    journal: Path
    archive: Path
    existed: bool


class _Speakers:
    """Speaker names -> roles: the first name is the user, any other the assistant."""

    def __init__(self) -> None:
        self.first: str | None = None

    def message(self, speaker: str, text: str) -> tuple[str, str] | None:
        """(role, content) of a message by speaker, or None for a system or tool message."""
        key = speaker.strip().casefold()
        if key in _SKIPPED_ROLES:
            return None
        if key in _ROLES:
            return _ROLES[key], text
        name = " ".join(speaker.split())[:MAX_NAME]
        if self.first is None:
            self.first = name
        return ("user" if name == self.first else "assistant"), f"{name}: {text}"


class _Builder:
    """Collects messages into sessions: a new one at each marker and where a message's day changes."""

    def __init__(self, default: datetime | None) -> None:
        self.default = default
        self.sessions: list[TranscriptSession] = []
        self.speakers = _Speakers()

    def mark(self, when: datetime | None) -> None:
        """A session starts here (dated `when`, else by its first message or the default)."""
        if self.sessions and not self.sessions[-1].messages:
            self.sessions[-1].started = when or self.sessions[-1].started
            return
        self.sessions.append(TranscriptSession(when))

    def add(self, speaker: str, text: str, when: datetime | None) -> None:
        made = self.speakers.message(speaker, text.strip())
        if made is None or not made[1].strip():
            return
        current = self.sessions[-1] if self.sessions else None
        day = _day_of(current) if current is not None else None
        if current is None or (when is not None and current.messages and day is not None and day != when.date()):
            self.sessions.append(TranscriptSession(None))
            current = self.sessions[-1]
        if current.started is None and when is not None:
            current.started = when
        current.messages.append(Message(made[0], redact(made[1]), when))

    def finish(self) -> list[TranscriptSession]:
        sessions = [s for s in self.sessions if s.messages]
        for number, session in enumerate(sessions, 1):
            if session.started is None:
                session.started = self.default
            if session.started is None:
                raise PalaceError(
                    f"session {number} of the transcript carries no date: give one with --date YYYY-MM-DD "
                    "(or a date per message or session)"
                )
        return sessions


def _day_of(session: TranscriptSession) -> date | None:
    return session.started.date() if session.started is not None else None


def _when(obj: dict[str, Any]) -> datetime | None:
    for key in _DATE_KEYS:
        value = obj.get(key)
        if isinstance(value, str) and value.strip():
            moment = parse_when(value)
            if moment is None:
                raise PalaceError(f"cannot read the date {value!r} (use YYYY-MM-DD or ISO 8601)")
            return moment
    return None


def _json_objects(text: str) -> list[object]:
    stripped = text.lstrip()
    if stripped.startswith("["):
        try:
            data = json.loads(stripped)
        except ValueError as exc:
            raise PalaceError(f"the transcript is not valid JSON: {exc}") from None
        except RecursionError:
            raise PalaceError("the transcript is not JSON palace can read: it is nested too deep") from None
        return list(data) if isinstance(data, list) else [data]
    objects: list[object] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            objects.append(json.loads(line))
        except ValueError as exc:
            raise PalaceError(f"line {number} of the transcript is not JSON: {exc}") from None
        except RecursionError:
            raise PalaceError(f"line {number} of the transcript is not JSON palace can read: nested too deep") from None
    return objects


def parse_json(text: str, default: datetime | None = None) -> list[TranscriptSession]:
    """The sessions of a JSON lines (or JSON array) transcript."""
    builder = _Builder(default)
    for number, obj in enumerate(_json_objects(text), 1):
        if not isinstance(obj, dict):
            raise PalaceError(f"item {number} of the transcript is not an object with role and content")
        when = _when(obj)
        content = obj.get("content", obj.get("text"))
        if content is None:
            if when is None and "session" not in obj:
                raise PalaceError(f"item {number} of the transcript has no content and no date")
            builder.mark(when)
            continue
        speaker = obj.get("role") or obj.get("speaker") or obj.get("name")
        if not isinstance(speaker, str) or not isinstance(content, str):
            raise PalaceError(f"item {number} of the transcript needs a role (or speaker) and a text content")
        builder.add(speaker, content, when)
    return builder.finish()


_MD_ROLE = re.compile(
    r"^\s*(?:#{1,6}\s*)?(?:(?:\*\*|__)(user|assistant|human|ai)(?::(?:\*\*|__)|(?:\*\*|__):?)"
    r"|(user|assistant|human|ai)(?=\s*:|\s*$):?)\s*",
    re.I,
)
_MD_NAME = re.compile(r"^\s*(?:\*\*|__)([^*_:\n]{1,40}?)(?::(?:\*\*|__)|(?:\*\*|__):)\s*")
_MD_DATE_LINE = re.compile(r"^\s*(?:[-*]\s*)?(?:\*\*)?(?:date|started|session date|when)(?:\*\*)?\s*:\s*(.+)$", re.I)
_MD_HEADING = re.compile(r"^\s*#{1,6}\s+(.*\S)\s*$")


def parse_markdown(text: str, default: datetime | None = None) -> list[TranscriptSession]:
    """The sessions of a markdown transcript."""
    builder = _Builder(default)
    speaker: str | None = None
    lines: list[str] = []
    names = not any(_MD_ROLE.match(line) for line in text.splitlines())  # "**Note:**" is no speaker then

    def flush() -> None:
        if speaker is not None:
            builder.add(speaker, "\n".join(lines), None)

    for line in text.splitlines():
        role, name = _MD_ROLE.match(line), _MD_NAME.match(line) if names else None
        dated = _MD_DATE_LINE.match(line) or (_MD_HEADING.match(line) if role is None else None)
        when = parse_when(dated.group(1)) if dated is not None else None
        if when is not None:
            flush()
            speaker, lines = None, []
            builder.mark(when)
        elif role is not None or name is not None:
            flush()
            match = role or name
            assert match is not None
            speaker, lines = match.group(1) or match.group(2), [line[match.end() :]]
        elif speaker is not None:
            lines.append(line)
    flush()
    return builder.finish()


def parse_transcript(text: str, default: datetime | None = None) -> list[TranscriptSession]:
    """The dated sessions of a transcript, JSON (lines) or markdown, whichever it is."""
    first = text.lstrip()[:1]
    if first in ("{", "["):
        return parse_json(text, default)
    return parse_markdown(text, default)


def parse_any(text: str, default: datetime | None = None) -> tuple[list[TranscriptSession], str]:
    """A transcript's sessions, or a ChatGPT or Claude.ai export's (conversations.json), and the export's
    name ("" for a transcript)."""
    if text.lstrip()[:1] == "[":
        objects = _json_objects(text)
        kind = export_kind(objects)
        if kind is not None:
            return parse_export(objects), kind
    return parse_transcript(text, default), ""


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")


def journal_text(session_id: str, session: TranscriptSession, wing: str | None, origin: str) -> str:
    """The journal of one imported session, in the records palace/sessions/journal.py writes."""
    assert session.started is not None
    records: list[dict[str, Any]] = [
        {
            "type": "session",
            "id": session_id,
            "started": _iso(session.started),
            "model": MODEL,
            "wing": wing,
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "imported": origin,
        }
    ]
    last = session.started
    for message in session.messages:
        moment = message.when if message.when is not None and message.when >= last else last
        last = moment
        records.append(
            {"type": "message", "ts": _iso(moment), "message": {"role": message.role, "content": message.content}}
        )
    records.append({"type": "end", "ts": _iso(last)})
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def session_id(session: TranscriptSession) -> str:
    """`<its date>-<8 hex of its content>`: the same conversation always gets the same id."""
    assert session.started is not None
    digest = hashlib.sha256(_iso(session.started).encode())
    for message in session.messages:
        digest.update(f"\0{message.role}\0{message.content}".encode("utf-8", "backslashreplace"))
    return f"{session.started:%Y-%m-%d}-{digest.hexdigest()[:8]}"


def write_sessions(
    home: Path, sessions: list[TranscriptSession], *, wing: str | None = None, origin: str = "", durable: bool = True
) -> list[ImportedSession]:
    """Write each session as a journal and an archive (skipping those imported before). `durable=False`
    skips the fsyncs (for building throwaway palaces in bulk, e.g. an evaluation)."""
    ensure_home(home)
    folder = sessions_dir(home)
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create {folder}: {exc.strerror}") from exc
    written: list[ImportedSession] = []
    for session in sessions:
        ident = session_id(session)
        path = folder / f"{ident}.jsonl"
        existed = path.exists()
        if not existed:
            # A lone surrogate becomes a JSON \u escape (as Journal writes it), which reads back as itself.
            _write(path, journal_text(ident, session, wing, origin).encode("utf-8", "backslashreplace"), durable)
        journal = Journal.load(path)
        archive = archive_path(journal)
        if not archive.exists():
            if durable:
                write_archive(journal)
            else:
                _write(archive, render_archive(journal).encode("utf-8"), durable)
        written.append(ImportedSession(ident, len(session.messages), path, archive, existed))
    return written


def _write(path: Path, data: bytes, durable: bool) -> None:
    try:
        if durable:
            atomic_write(path, data)
            return
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)
    except OSError as exc:
        raise StoreError(f"cannot write {path}: {exc.strerror}") from exc


def import_transcript(
    home: Path, file: Path, *, day: date | None = None, wing: str | None = None, max_bytes: int = MAX_BYTES
) -> list[ImportedSession]:
    """Import the transcript at file into home's sessions; `day` dates the messages that carry no date."""
    try:
        text = read_untrusted(file, max_bytes=max_bytes, within=folder_of(file)).decode("utf-8")
    except UnicodeDecodeError:
        raise PalaceError(f"{file} is not UTF-8 text") from None
    default = datetime(day.year, day.month, day.day).astimezone() if day is not None else None
    sessions, kind = parse_any(text, default)
    if not sessions:
        raise PalaceError(f"{file} holds no messages (see `palace import-transcript --help` for the formats)")
    return write_sessions(home, sessions, wing=wing, origin=kind or redact(file.name))
