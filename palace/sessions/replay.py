"""A journal's records replayed into its session's state: one handler per record type (sessions/journal.py)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, Protocol


class Journal(Protocol):
    """The session state a replay fills in (sessions/journal.py's Journal is one)."""

    started: datetime
    last_activity: datetime
    model: str
    wing: str | None
    wings: list[str]
    pid: int | None
    host: str | None
    messages: list[dict[str, Any]]
    usage_counts: list[int]
    memory_events: list[dict[str, Any]]
    extracted_upto: int
    summary: str | None
    context: dict[str, Any] | None
    ended: datetime | None


# Records that say the session itself was active (bookkeeping written later does not move its end time).
ACTIVITY = frozenset({"session", "message", "memory", "resumed"})


def parse_time(value: object) -> datetime | None:
    """A record's ISO time, timezone-aware (local time when it names none); None when it is not one."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.astimezone()


def apply_record(journal: Journal, record: dict[str, Any]) -> None:
    """Bring the journal's state up to one more record (unknown types and damaged fields are skipped)."""
    kind = record.get("type")
    moment = parse_time(record.get("ts"))
    if moment is not None and kind in ACTIVITY:
        journal.last_activity = max(journal.last_activity, moment)
    handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is not None:
        handler(journal, record, moment)


def _session(journal: Journal, record: dict[str, Any], moment: datetime | None) -> None:
    started = parse_time(record.get("started"))
    if started is not None:
        journal.started = started
        journal.last_activity = max(journal.last_activity, started)
    journal.model = str(record.get("model") or journal.model)
    wing = record.get("wing")
    journal.wing = wing if isinstance(wing, str) and wing else None
    wings = record.get("wings")
    named = [w for w in wings if isinstance(w, str) and w] if isinstance(wings, list) else []
    journal.wings = named or ([journal.wing] if journal.wing else [])
    _owner(journal, record)


def _message(journal: Journal, record: dict[str, Any], moment: datetime | None) -> None:
    message = record.get("message")
    if isinstance(message, dict):
        journal.messages.append(message)


def _usage(journal: Journal, record: dict[str, Any], moment: datetime | None) -> None:
    journal.usage_counts[0] += _int(record.get("input"))
    journal.usage_counts[1] += _int(record.get("output"))


def _memory(journal: Journal, record: dict[str, Any], moment: datetime | None) -> None:
    event = _event(record, record.get("by"))
    if event is not None:
        journal.memory_events.append(event)


def _extracted(journal: Journal, record: dict[str, Any], moment: datetime | None) -> None:
    upto = _int(record.get("upto"))
    journal.extracted_upto = max(journal.extracted_upto, min(upto, len(journal.messages)))
    summary = record.get("summary")
    if isinstance(summary, str) and summary.strip():
        journal.summary = summary.strip()
    for item in record.get("saved") or ():
        event = _event(item, "extracted") if isinstance(item, dict) else None
        if event is not None:
            journal.memory_events.append(event)


def _context(journal: Journal, record: dict[str, Any], moment: datetime | None) -> None:
    snapshot = record.get("snapshot")
    if isinstance(snapshot, dict):
        journal.context = snapshot


def _resumed(journal: Journal, record: dict[str, Any], moment: datetime | None) -> None:
    _owner(journal, record)
    journal.ended = None


def _end(journal: Journal, record: dict[str, Any], moment: datetime | None) -> None:
    journal.ended = moment or journal.last_activity


_HANDLERS: dict[str, Callable[[Journal, dict[str, Any], datetime | None], None]] = {
    "session": _session,
    "message": _message,
    "usage": _usage,
    "memory": _memory,
    "extracted": _extracted,
    "context": _context,
    "resumed": _resumed,
    "end": _end,
}


def _owner(journal: Journal, record: dict[str, Any]) -> None:
    pid = record.get("pid")
    journal.pid = pid if isinstance(pid, int) else journal.pid
    host = record.get("host")
    journal.host = host if isinstance(host, str) else journal.host


def _int(value: object) -> int:
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return max(0, value)
    if isinstance(value, float):
        return max(0, int(value))
    return 0


def _event(record: dict[str, Any], by: object) -> dict[str, Any] | None:
    path, content = record.get("path"), record.get("content")
    if not isinstance(path, str) or not isinstance(content, str):
        return None
    action = record.get("action")
    return {
        "path": path,
        "content": content,
        "action": action if isinstance(action, str) else "saved",
        "by": by if isinstance(by, str) else "user",
    }
