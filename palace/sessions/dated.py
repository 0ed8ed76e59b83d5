"""A conversation held elsewhere, as palace reads it: dated messages, grouped into sessions (importer, exports)."""

from __future__ import annotations

from datetime import datetime

from palace.record import field, record


@record
class Message:
    """One message of a transcript: its palace role, its text and its own time (if it has one)."""

    role: str
    content: str
    when: datetime | None


@record
class TranscriptSession:
    """A run of messages of one conversation on one day."""

    started: datetime | None
    messages: list[Message] = field(default_factory=list)
