"""The context card (seed 003's L3 "脉络卡"): what the last sessions of a wing were about, shown to the user when
the REPL starts. It never enters the system prompt; `/bring ID` puts one session's context into the
conversation, visibly, when the user asks.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from palace.errors import StoreError
from palace.memory.secrets import redact
from palace.sessions.catalog import find_session
from palace.sessions.context import Snapshot
from palace.sessions.journal import Journal, parse_time, sessions_dir

CARD_SESSIONS = 3
SCAN_LIMIT = 200  # archives read at most to fill a card: start-up stays fast however long the history
_ARCHIVE_RE = re.compile(r"^(\d{4}-\d{2}-\d{2})-[0-9a-f]{8}\.md$")
_STARTED = re.compile(r"^- Started:\s*(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})(?: ([+-]\d{2}:\d{2}))?", re.M)
_WING = re.compile(r"^- Wing:\s*(.*)$", re.M)
_HEADER_BYTES = 2048  # the archive's header (id, times, model, wing, turns) is in its first few hundred bytes


@dataclass
class SessionContext:
    """One earlier session as the card and /bring show it."""

    id: str
    date: str
    started: str  # ISO time, for ordering sessions of one day
    wings: list[str]
    summary: str  # the whole summary ("" when it has none)
    working: dict[str, list[str]] = field(default_factory=dict)  # "Goals" -> lines, as in the archive
    written: int = 0  # the archive's mtime (ns): orders sessions that started in the same minute

    @property
    def headline(self) -> str:
        first = self.summary.split(". ")[0].strip().rstrip(".")
        return first if len(first) <= 110 else first[:109] + "…"

    @property
    def goals(self) -> list[str]:
        return self.working.get("Goals", [])


def parse_archive(session_id: str, text: str) -> SessionContext:
    """What the card needs from an archive's markdown."""
    started = _STARTED.search(text)
    moment = parse_time(f"{started.group(1)}T{started.group(2)}{started.group(3) or ''}") if started else None
    wing = _WING.search(text)
    wings = [w.strip() for w in wing.group(1).split(",")] if wing and wing.group(1).strip() != "(none)" else []
    sections = _sections(text)
    summary = " ".join(sections.get("summary", "").split())
    working: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in sections.get("working context", "").splitlines():
        if line.endswith(":") and not line.startswith("- "):
            current = working.setdefault(line[:-1].strip(), [])
        elif line.startswith("- ") and current is not None:
            current.append(re.sub(r" \(since \d{4}-\d{2}-\d{2}\)$", "", line[2:].strip()))
    return SessionContext(
        id=session_id,
        date=session_id[:10],
        started=moment.isoformat() if moment else session_id[:10],
        wings=wings,
        summary="" if summary == "(no summary)" else summary,
        working=working,
    )


def _sections(text: str) -> dict[str, str]:
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("## "):
            current = found.setdefault(line[3:].strip().casefold(), [])
        elif current is not None:
            current.append(line)
    return {name: "\n".join(lines).strip() for name, lines in found.items()}


def recent_sessions(
    home: Path, wings: list[str], *, exclude: str | None = None, count: int = CARD_SESSIONS
) -> list[SessionContext]:
    """The last `count` archived sessions of any of these wings, newest first (reading at most SCAN_LIMIT)."""
    wanted = {w.casefold() for w in wings}
    try:
        names = sorted((n for n in os.listdir(sessions_dir(home)) if _ARCHIVE_RE.match(n)), reverse=True)
    except OSError:
        return []
    found: list[SessionContext] = []
    for read, name in enumerate(names):
        if read >= SCAN_LIMIT or (len(found) >= count and name[:10] < found[count - 1].date):
            break  # (a day's sessions are all read: their hex ids say nothing about their order)
        session_id = name.removesuffix(".md")
        if session_id == exclude:
            continue
        card = _read_if_in(sessions_dir(home) / name, session_id, wanted)
        if card is not None:
            found.append(card)
            found.sort(key=lambda c: (c.started, c.written), reverse=True)
    return found[:count]


def _read_if_in(path: Path, session_id: str, wanted: set[str]) -> SessionContext | None:
    """The archive's context when its session was in one of the wanted wings (the header decides: only it is
    read for the others)."""
    try:
        with path.open("rb") as handle:
            head = handle.read(_HEADER_BYTES)
            wing = _WING.search(head.decode("utf-8", "replace"))
            if wing is None or not wanted & {w.strip().casefold() for w in wing.group(1).split(",")}:
                return None
            text = (head + handle.read()).decode("utf-8", "replace")
            written = os.fstat(handle.fileno()).st_mtime_ns
    except OSError:
        return None
    card = parse_archive(session_id, text)
    card.written = written
    return card


def card_lines(cards: list[SessionContext], wings: list[str]) -> list[str]:
    """The card as the REPL prints it (secrets redacted)."""
    if not cards:
        return []
    lines = [f"Recent sessions in {', '.join(wings)}:"]
    for card in cards:
        text = redact(card.headline) or "(no summary)"
        lines.append(f"  {card.date}  {text}")
        if card.goals:
            lines.append(f"              open goals: {redact('; '.join(card.goals))}")
    lines.append("  (/bring ID puts one of them into this conversation)")
    return lines


def load_session_context(home: Path, session_id: str) -> SessionContext:
    """One earlier session's summary and working context, by id or prefix (PalaceError when there is none)."""
    full = find_session(home, session_id)
    folder = sessions_dir(home)
    try:
        return parse_archive(full, (folder / f"{full}.md").read_text(encoding="utf-8", errors="replace"))
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise StoreError(f"cannot read the archive of {full}: {exc.strerror}") from exc
    journal = Journal.load(folder / f"{full}.jsonl")  # not archived yet (still running, or cut short)
    working = Snapshot.from_json(journal.context).working
    lists = {
        title: [item.text for item in getattr(working, kind)]
        for kind, title in zip(working.KINDS, ("Goals", "Decisions", "Open questions"), strict=True)
        if getattr(working, kind)
    }
    return SessionContext(full, full[:10], journal.started.isoformat(), journal.wings, journal.summary or "", lists)


def bring_text(context: SessionContext) -> str:
    """The visible message /bring adds to the conversation."""
    parts = [f"Context from an earlier session ({context.date}, {context.id}), brought in by the user:", ""]
    parts.append(f"Summary: {redact(context.summary) or '(none)'}")
    for title, items in context.working.items():
        parts += ["", f"{title}:", *(f"- {redact(item)}" for item in items)]
    return "\n".join(parts)
