"""Session archives: the markdown written when a session ends (DESIGN 1.3)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from palace.archives import Archive, format_archive
from palace.errors import StoreError
from palace.memory.files import atomic_write
from palace.memory.ops import normalise
from palace.memory.secrets import redact
from palace.sessions.context import Snapshot
from palace.sessions.journal import SESSION_ID_RE, Journal

_BY_WORDS = {"model": "the model", "user": "the user", "sync": "palace sync"}


# ---------------------------------------------------------------------- archive


def archive_path(journal: Journal) -> Path:
    return journal.path.with_name(f"{journal.id}.md")


def event_line(event: dict[str, Any], *, undone: bool = False, elsewhere: bool = False) -> str:
    """One memory change as the archive lists it; `elsewhere`: made outside this session (another palace
    process: the command line, an MCP client, another chat)."""
    by, action = str(event.get("by")), str(event.get("action"))
    action = "proposed for review" if action == "proposed" else action
    if by in ("extracted", "review"):  # extraction saved it; the user accepted it in review
        label = f"extracted, {action}" if by == "extracted" else f"{action} in review"
    else:
        label = f"{action} by {_BY_WORDS.get(by, by)}"
    label += ", outside this session" if elsewhere else ""
    content = " ".join(redact(str(event.get("content"))).split())
    return f"- **{event.get('path')}**: {content} ({label}{', undone' if undone else ''})"


def _key(event: dict[str, Any]) -> tuple[str, str, str]:
    action = str(event.get("action"))
    return (str(event.get("path")).casefold(), normalise(str(event.get("content"))), action)


def changes_elsewhere(journal: Journal, ended: datetime | None = None) -> list[tuple[dict[str, str], bool, bool]]:
    """The memory changes made while the session ran that its journal does not list (from the palace's change
    log, history/changelog.py): each event, whether it was undone since, and whether it was made outside the
    session (another palace process: the command line, an MCP client, another chat, a sync)."""
    from palace.history.changelog import ChangeLog

    start = journal.started.timestamp()
    end = (ended or journal.ended or journal.last_activity).timestamp()
    own: dict[tuple[str, str, str], int] = {}
    for event in journal.memory_events:
        own[_key(event)] = own.get(_key(event), 0) + 1
    found: list[tuple[dict[str, str], bool, bool]] = []
    for note in ChangeLog(journal.path.parent.parent).notes():
        if not (start <= note.time <= end + 1 or note.session == journal.id):
            continue
        for event in note.events:
            if own.get(_key(event), 0) > 0:  # the journal lists it already
                own[_key(event)] -= 1
                continue
            found.append((event, note.undone, note.session != journal.id))
    return found


def _undone(events: list[dict[str, Any]]) -> set[int]:
    """Which events an undo reverted: each "undone" mark reverts the latest change of its path before it."""
    undone: set[int] = set()
    for n, event in enumerate(events):
        if event.get("action") != "undone":
            continue
        for earlier in range(n - 1, -1, -1):
            other = events[earlier]
            if (
                earlier not in undone
                and other.get("action") not in ("undone", "proposed")
                and (str(other.get("path")).casefold() == str(event.get("path")).casefold())
            ):
                undone.add(earlier)
                break
    return undone


def render_archive(journal: Journal, *, ended: datetime | None = None, summary: str | None = None) -> str:
    """The archive markdown (DESIGN 1.3; the format is palace/archives.py's)."""
    match = SESSION_ID_RE.match(journal.id)
    day, short = (match.group(1), match.group(2)) if match else (f"{journal.started:%Y-%m-%d}", journal.id)
    text = summary if summary is not None else journal.summary
    seen: set[tuple[str, str]] = set()
    lines: list[str] = []
    undone = _undone(journal.memory_events)
    for n, event in enumerate(journal.memory_events):
        key = (str(event.get("path")).casefold(), normalise(str(event.get("content"))))
        if event.get("action") == "undone" or (key in seen and event.get("action") in ("saved", "refreshed")):
            continue  # the mark itself, or already listed (the model saved it, then extraction found it again)
        seen.add(key)
        lines.append(event_line(event, undone=n in undone))
    lines += [event_line(e, undone=gone, elsewhere=out) for e, gone, out in changes_elsewhere(journal, ended)]
    working = Snapshot.from_json(journal.context).working
    working_lines = [] if working.empty else [redact(line) for line in working.lines()]
    facts = Archive(
        started=journal.started,
        ended=ended or journal.ended or journal.last_activity,
        model=journal.model,
        wings=list(journal.wings),
        turns=journal.turns,
        summary=redact(text or ""),
        usage=journal.usage,
    )
    return format_archive(facts, day=day, short=short, working_lines=working_lines, memory_lines=lines)


def write_archive(journal: Journal, *, ended: datetime | None = None, summary: str | None = None) -> Path:
    """Write (or rewrite) the session's archive atomically, mode 0600. `summary` overrides the journal's."""
    path = archive_path(journal)
    text = render_archive(journal, ended=ended, summary=summary)
    try:
        atomic_write(path, text.encode("utf-8"))
    except OSError as exc:
        raise StoreError(f"cannot write the session archive {path}: {exc.strerror}") from exc
    return path
