"""Session archives: the markdown written when a session ends (DESIGN 1.3)."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Any

from palace.errors import StoreError
from palace.memory.files import atomic_write
from palace.memory.ops import normalise
from palace.memory.secrets import redact
from palace.sessions.context import Snapshot
from palace.sessions.journal import SESSION_ID_RE, Journal

_BY_WORDS = {"model": "the model", "user": "the user"}


def utc_offset(moment: datetime) -> str:
    delta = moment.utcoffset()
    minutes = int(delta.total_seconds() // 60) if delta is not None else 0
    sign = "-" if minutes < 0 else "+"
    minutes = abs(minutes)
    return f"{sign}{minutes // 60:02d}:{minutes % 60:02d}"


def format_time(moment: datetime) -> str:
    """`2026-11-30 14:35 +00:00`, as in the archive header."""
    return f"{moment:%Y-%m-%d %H:%M} {utc_offset(moment)}"


# ---------------------------------------------------------------------- archive


def archive_path(journal: Journal) -> Path:
    return journal.path.with_name(f"{journal.id}.md")


def _summary_block(summary: str) -> str:
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", redact(summary))]
    paragraphs = [("\\" + p if p.startswith("#") else p) for p in paragraphs if p]
    return "\n\n".join(paragraphs) or "(no summary)"


def event_line(event: dict[str, Any], *, undone: bool = False) -> str:
    by, action = str(event.get("by")), str(event.get("action"))
    action = "proposed for review" if action == "proposed" else action
    label = f"extracted, {action}" if by == "extracted" else f"{action} by {_BY_WORDS.get(by, by)}"
    content = " ".join(redact(str(event.get("content"))).split())
    return f"- **{event.get('path')}**: {content} ({label}{', undone' if undone else ''})"


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


def _working_block(journal: Journal) -> list[str]:
    """The working context the session ended with (goals, decisions, open questions), when it had one."""
    working = Snapshot.from_json(journal.context).working
    if working.empty:
        return []
    return ["## Working Context", *(redact(line) for line in working.lines()), ""]


def render_archive(journal: Journal, *, ended: datetime | None = None, summary: str | None = None) -> str:
    """The archive markdown (DESIGN 1.3)."""
    ended = ended or journal.ended or journal.last_activity
    match = SESSION_ID_RE.match(journal.id)
    day, short = (match.group(1), match.group(2)) if match else (f"{journal.started:%Y-%m-%d}", journal.id)
    text = summary if summary is not None else journal.summary
    input_tokens, output_tokens = journal.usage
    seen: set[tuple[str, str]] = set()
    lines: list[str] = []
    undone = _undone(journal.memory_events)
    for n, event in enumerate(journal.memory_events):
        key = (str(event.get("path")).casefold(), normalise(str(event.get("content"))))
        if event.get("action") == "undone" or (key in seen and event.get("action") in ("saved", "refreshed")):
            continue  # the mark itself, or already listed (the model saved it, then extraction found it again)
        seen.add(key)
        lines.append(event_line(event, undone=n in undone))
    parts = [
        f"# Session {day} · {short}",
        "",
        f"- Started: {format_time(journal.started)}",
        f"- Ended: {format_time(ended)}",
        f"- Model: {journal.model}",
        f"- Wing: {', '.join(journal.wings) or '(none)'}",
        f"- Turns: {journal.turns}",
        "",
        "## Summary",
        _summary_block(text or "(no summary)"),
        "",
        *_working_block(journal),
        "## Token Usage",
        f"- Input: {input_tokens:,}",
        f"- Output: {output_tokens:,}",
        f"- Total: {input_tokens + output_tokens:,}",
        "",
        "## Memories Extracted",
        *(lines or ["- (none)"]),
    ]
    return "\n".join(parts) + "\n"


def write_archive(journal: Journal, *, ended: datetime | None = None, summary: str | None = None) -> Path:
    """Write (or rewrite) the session's archive atomically, mode 0600. `summary` overrides the journal's."""
    path = archive_path(journal)
    text = render_archive(journal, ended=ended, summary=summary)
    try:
        atomic_write(path, text.encode("utf-8"))
    except OSError as exc:
        raise StoreError(f"cannot write the session archive {path}: {exc.strerror}") from exc
    return path
