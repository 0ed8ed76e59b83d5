"""`palace memory why PATH TEXT`: where an entry came from, joined from what is on disk already.

The journals say who saved it in which session and after which message (a model's save follows the user's
message that asked for it; extraction names the messages it read); review.md's notes say an import proposed it;
the reuse counts say how often it was confirmed and recalled, and when; git's history of memories.md says
which commits added, refreshed or replaced it, and through which MCP client. Nothing here writes.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from palace.errors import EntryNotFoundError
from palace.history.git import GitTrouble, is_own_repo, run_git
from palace.memory.halls import MemoryPath, parse_path
from palace.memory.keys import normalise, words_of
from palace.memory.reuse import ReuseCounts
from palace.memory.secrets import redact
from palace.memory.store import MemoryStore
from palace.paths import MEMORIES, PalacePaths, session_file
from palace.record import field, record
from palace.sessions.journal import content_text

QUOTE_CHARS = 300  # a message quoted at most this long
_BY = {"model": "the model", "user": "you", "extracted": "extraction", "review": "you, in review"}


@record
class Event:
    """One time the entry was touched in a session: saved, refreshed, replaced, proposed..."""

    session: str
    when: str
    action: str
    by: str
    quote: str = ""  # the message it came from


@record
class Provenance:
    """What is known of one entry."""

    path: MemoryPath
    content: str
    date: str | None
    events: list[Event] = field(default_factory=list)
    commits: list[str] = field(default_factory=list)
    confirmed: int = 0
    recalled: int = 0
    last_used: str = ""
    uses: list[str] = field(default_factory=list)  # "2026-11-30 recalled", newest last

    def lines(self) -> list[str]:
        said = [f"{self.path}: {self.content}" + (f" (dated {self.date})" if self.date else "")]
        for event in self.events:
            who = _BY.get(event.by, event.by)
            said.append(f"  {event.action} {event.when} by {who} in session {event.session}")
            if event.quote:
                said.append(f"    from: > {event.quote}")
        if not self.events:
            said.append("  no session holds its saving: written by hand, through MCP or before palace kept journals")
        uses = f"  confirmed {self.confirmed} time(s), recalled {self.recalled} time(s)"
        said.append(uses + (f", last used {self.last_used}" if self.last_used else ""))
        if self.uses:
            said.append(f"  uses: {', '.join(self.uses)}")
        said += [f"  commit {commit}" for commit in self.commits] or ["  no git history (palace init --git keeps one)"]
        return said


def why(store: MemoryStore, path: str, text: str) -> Provenance:
    """The provenance of the entry `text` in room `path` (EntryNotFoundError when the room has no such entry)."""
    parsed = parse_path(path)
    key = normalise(re.sub(r"^\s*(?:[-*+]\s+)?\[[^\]]*\]\s*", "", text))
    entry = next((e for e in store.document().room_entries(parsed) if e.key == key), None)
    if entry is None:
        raise EntryNotFoundError(f'no entry "{text.strip()}" in {parsed} (see `palace memory show`)')
    found = Provenance(parsed, entry.content, entry.date)
    found.events = _events(store.home, str(parsed), entry.key, entry.content)
    uses = ReuseCounts(store.home).get(parsed, entry.content)
    found.confirmed, found.recalled, found.last_used = uses.confirmed, uses.recalled, uses.last
    found.uses = uses.days
    found.commits = _commits(store.home, entry.content)
    return found


def _events(home: Path, path: str, key: str, content: str) -> list[Event]:
    """Every session event of the entry, oldest first (journals read only when their bytes name it)."""
    folder = PalacePaths(home).sessions
    try:
        names = sorted(n for n in os.listdir(folder) if (f := session_file(n)) is not None and f.kind == "journal")
    except OSError:
        return []
    needle = json.dumps(content)[1:-1].encode("utf-8", "surrogateescape")
    events: list[Event] = []
    for name in names:
        try:
            data = (folder / name).read_bytes()
        except OSError:
            continue
        if needle in data or content.encode("utf-8", "surrogateescape") in data:
            events += _session_events(name.removesuffix(".jsonl"), data, path.casefold(), key, content)
    return events


def _session_events(session: str, data: bytes, path: str, key: str, content: str) -> list[Event]:
    """The entry's events in one journal, each with the message it came from."""
    messages: list[str] = []  # the conversation so far, as text
    done = 0  # messages extraction had read before the current record
    events: list[Event] = []
    for raw in data.splitlines():
        try:
            record = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(record, dict):
            continue
        kind, when = record.get("type"), str(record.get("ts") or "")[:10]
        if kind == "message" and isinstance(record.get("message"), dict):
            message = record["message"]
            if message.get("role") in ("user", "assistant"):
                messages.append(f"{message.get('role')}: {content_text(message.get('content'))}")
        elif kind == "memory" and _same(record, path, key):
            quote = _last_user(messages)
            events.append(Event(session, when, str(record.get("action")), str(record.get("by")), quote))
        elif kind == "extracted":
            mark = record.get("upto")
            upto = mark if isinstance(mark, int) else len(messages)
            for item in record.get("saved") or ():
                if isinstance(item, dict) and _same(item, path, key):
                    quote = _best(messages[done:upto] or messages, content)
                    events.append(Event(session, when, str(item.get("action")), "extracted", quote))
            done = max(done, upto)
    return events


def _same(record: dict[str, object], path: str, key: str) -> bool:
    return str(record.get("path")).casefold() == path and normalise(str(record.get("content"))) == key


def _clip(text: str) -> str:
    text = " ".join(redact(text).split())
    return text if len(text) <= QUOTE_CHARS else text[: QUOTE_CHARS - 1] + "…"


def _last_user(messages: list[str]) -> str:
    for message in reversed(messages):
        if message.startswith("user: "):
            return _clip(message)
    return ""


def _best(messages: list[str], content: str) -> str:
    """The message that shares the most words with the fact (the one extraction most likely read it in)."""
    words = words_of(content)
    scored = [(len(words & words_of(m)), -i, m) for i, m in enumerate(messages)]
    best = max(scored, default=None)
    return _clip(best[2]) if best is not None and best[0] else ""


def _commits(home: Path, content: str) -> list[str]:
    """The commits of memories.md that added or removed the entry's text (git's pickaxe), oldest first."""
    if not is_own_repo(home):
        return []
    try:
        log = run_git(home, "log", "--reverse", "--format=%h %ad %s", "--date=short", "-S", content, "--", MEMORIES)
    except GitTrouble:
        return []
    return [line for line in log.stdout.decode("utf-8", "replace").splitlines() if line.strip()]
