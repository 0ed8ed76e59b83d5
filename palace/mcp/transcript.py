"""A Claude Code transcript (JSONL: one record a line) as the conversation it holds.

`user` and `assistant` records carry a `message` with `content` as text or parts; the rest (summaries, file
snapshots, sub-agent threads, tool calls and results) is left out. The file is someone else's: it is read as
memory/contained.py reads such files (a regular file, no link, within a size limit, never hanging on a FIFO), and
a line that cannot be read (damaged, not UTF-8, nested too deep, of the wrong shape) is skipped and counted.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from palace.errors import UntrustedFileError
from palace.memory.contained import read_untrusted
from palace.record import record

MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024  # hooks.max_transcript_bytes' default: a hook must stay quick
# Text Claude Code writes into user records that the user did not say: slash-command echoes, their output,
# reminders, interruptions.
_NOT_SAID = re.compile(
    r"^\s*(<(command-[a-z-]+|local-command-[a-z-]+|system-reminder|bash-[a-z-]+)>|\[Request interrupted)"
)


@record(frozen=True)
class Line:
    """One transcript record that may carry conversation: its key (uuid), role, text, the model named, and when
    it was written (its `timestamp`, when it has a readable one)."""

    key: str
    role: str
    text: str
    model: str | None = None
    when: datetime | None = None


class _Unreadable(Exception):
    """A transcript line that is not a record of the shape Claude Code writes."""


@record
class Transcript:
    """The conversation lines of a transcript, and how many of its lines could not be read (skipped)."""

    lines: list[Line]
    unreadable: int = 0

    @property
    def skipped(self) -> str:
        """ "; skipped 2 unreadable lines", or "" when every line was read."""
        if not self.unreadable:
            return ""
        return f"; skipped {self.unreadable} unreadable line{'' if self.unreadable == 1 else 's'}"


def _text_of(content: object) -> str:
    """The plain text of a message's content: a string, or the text parts (tool calls, results and thinking
    are left out: the archive keeps what was said)."""
    if isinstance(content, str):
        return content.strip()
    if not isinstance(content, list):
        return ""
    parts = [part.get("text") for part in content if isinstance(part, dict) and part.get("type") == "text"]
    return "\n\n".join(part.strip() for part in parts if isinstance(part, str) and part.strip())


def _line(raw: bytes) -> Line | None:
    """A transcript record as a Line, None for what is not the main conversation's words; _Unreadable for a
    line that is not JSON (damaged, not UTF-8, nested deeper than Python reads) or not a record's shape."""
    try:
        record = json.loads(raw)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        raise _Unreadable from None
    if not isinstance(record, dict):
        raise _Unreadable
    kind = record.get("type")
    if kind not in ("user", "assistant"):
        return None  # summaries, file snapshots, system records
    if record.get("isSidechain") or record.get("isMeta") or record.get("isCompactSummary"):
        return None  # a sub-agent's thread, an internal note, the summary that replaces compacted turns
    message = record.get("message")
    if not isinstance(message, dict) or not isinstance(message.get("content", ""), str | list):
        raise _Unreadable
    text = _text_of(message.get("content"))
    if not text or (kind == "user" and _NOT_SAID.match(text)):
        return None
    key = record.get("uuid")
    if not isinstance(key, str) or not key:
        key = hashlib.sha256(raw).hexdigest()[:32]
    model = message.get("model") if kind == "assistant" else None
    return Line(key, str(kind), text, model if isinstance(model, str) and model else None, _time(record))


def _time(record: dict[str, Any]) -> datetime | None:
    """The record's `timestamp` (ISO 8601, `2025-06-01T12:34:56.789Z`), timezone-aware; None when unreadable."""
    stamp = record.get("timestamp")
    if not isinstance(stamp, str):
        return None
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.astimezone()


def parse_line(raw: bytes) -> Line | None:
    """A transcript record as a Line, or None for what is not the main conversation's words (or unreadable)."""
    try:
        return _line(raw)
    except _Unreadable:
        return None


def parse_transcript(data: bytes) -> Transcript:
    """The conversation lines of a transcript's bytes; a line that cannot be read is skipped and counted (the
    last one, not ended yet, is Claude Code still writing it: skipped, not counted)."""
    lines: list[Line] = []
    unreadable = 0
    raws = data.split(b"\n")
    for number, raw in enumerate(raws):
        if not raw.strip():
            continue
        try:
            line = _line(raw)
        except _Unreadable:
            unreadable += number < len(raws) - 1
            continue
        if line is not None:
            lines.append(line)
    return Transcript(lines, unreadable)


def load_transcript(path: Path, max_bytes: int = MAX_TRANSCRIPT_BYTES) -> Transcript:
    """A Claude Code transcript file, read as a file others control (contained.py): a regular file that is no
    link, within max_bytes (hooks.max_transcript_bytes), opened so that a FIFO never hangs the hook."""
    try:
        data = read_untrusted(path, max_bytes=max_bytes)
    except UntrustedFileError as exc:
        raise UntrustedFileError(f"the transcript {exc}") from None
    return parse_transcript(data)


def read_transcript(path: Path, max_bytes: int = MAX_TRANSCRIPT_BYTES) -> list[Line]:
    """The conversation lines of a Claude Code transcript file."""
    return load_transcript(path, max_bytes).lines


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
