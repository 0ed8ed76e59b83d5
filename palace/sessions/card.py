"""The context card (seed 003's L3 "脉络卡"): what the last sessions of a wing were about, shown to the user when
the REPL starts. It never enters the system prompt; `/bring ID` puts one session's context into the
conversation, visibly, when the user asks.
"""

from __future__ import annotations

import os
from pathlib import Path

from palace.archives import read_archive
from palace.errors import StoreError
from palace.memory.secrets import redact
from palace.paths import session_file
from palace.record import field, record
from palace.sessions.catalog import find_session
from palace.sessions.context import Snapshot
from palace.sessions.journal import SESSION_ID_RE, Journal, sessions_dir

CARD_SESSIONS = 3
SCAN_LIMIT = 200  # archives read at most to fill a card: start-up stays fast however long the history
_HEADER_BYTES = 2048  # the archive's header (id, times, model, wing, turns) is in its first few hundred bytes


@record
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
    archive = read_archive(text)
    return SessionContext(
        id=session_id,
        date=session_id[:10],
        started=archive.started.isoformat() if archive.started else session_id[:10],
        wings=archive.wings,
        summary=" ".join(archive.summary.split()),
        working=archive.working,
    )


def recent_sessions(
    home: Path, wings: list[str], *, exclude: str | None = None, count: int = CARD_SESSIONS
) -> list[SessionContext]:
    """The last `count` archived sessions of any of these wings, newest first (reading at most SCAN_LIMIT)."""
    wanted = {w.casefold() for w in wings}
    try:
        names = sorted((n for n in os.listdir(sessions_dir(home)) if _is_archive(n)), reverse=True)
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


def _is_archive(name: str) -> bool:
    named = session_file(name)
    return named is not None and named.kind == "archive"


def _read_if_in(path: Path, session_id: str, wanted: set[str]) -> SessionContext | None:
    """The archive's context when its session was in one of the wanted wings (the header decides: only it is
    read for the others)."""
    try:
        with path.open("rb") as handle:
            head = handle.read(_HEADER_BYTES)
            wings = read_archive(head.decode("utf-8", "replace").split("\n## ", 1)[0]).wings
            if not wanted & {w.casefold() for w in wings}:
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
        lines.append(f"  {short_id(card.id)}  {card.date}  {text}")
        if card.goals:
            lines.append(f"                        open goals: {redact('; '.join(card.goals))}")
    example = short_id(cards[0].id)
    lines.append(f"  (/bring ID, e.g. /bring {example}, puts one of them into this conversation; Tab completes it)")
    return lines


def short_id(session_id: str) -> str:
    """The part of a session id that `/bring` and `palace sessions show` take alone: its 8 hex digits."""
    match = SESSION_ID_RE.match(session_id)
    return match.group(2) if match else session_id


def bring_choices(home: Path, typed: str, *, exclude: str | None = None, limit: int = 20) -> list[tuple[str, str]]:
    """(short id, its date and headline) of each session whose id or short id begins with `typed`, newest first
    (by name: at most `limit`, each one's archive read), for `/bring`'s Tab completion."""
    wanted = typed.strip().casefold()
    try:
        names = os.listdir(sessions_dir(home))
    except OSError:
        return []
    ids = sorted({named.session_id for named in map(session_file, names) if named is not None}, reverse=True)
    chosen = [i for i in ids if i != exclude and (i.startswith(wanted) or short_id(i).startswith(wanted))][:limit]
    return [(short_id(i), _about(home, i)) for i in chosen]


def _about(home: Path, session_id: str) -> str:
    """`2026-11-30  the first line of its summary` (redacted), from the archive when there is one."""
    try:
        text = (sessions_dir(home) / f"{session_id}.md").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return f"{session_id[:10]}  (not archived yet)"
    return f"{session_id[:10]}  {redact(parse_archive(session_id, text).headline) or '(no summary)'}"


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
