"""The catalog of sessions: listing, lookup by id or prefix, showing, and finding orphaned journals."""

from __future__ import annotations

import contextlib
import os
import re
from datetime import datetime
from pathlib import Path
from typing import Any

from palace import session_notes as changes
from palace.archives import format_time, read_archive
from palace.errors import PalaceError, StoreError
from palace.memory.secrets import redact
from palace.paths import JOURNAL_SUFFIX, PalacePaths, session_file
from palace.record import record
from palace.sessions.archive import event_line
from palace.sessions.journal import CLAUDE_CODE, Journal, content_text, sessions_dir
from palace.sessions.live import check_unregistered, is_live, live_dir

_UNARCHIVED = "unarchived-sessions"  # in .index/: the journals without an archive the last start found

# ---------------------------------------------------------------------- listing


@record
class SessionInfo:
    """One session as listed: from its archive when there is one, else from its journal."""

    id: str
    date: str
    started: datetime | None
    turns: int
    summary: str  # first line of the summary ("" when none yet)
    archived: bool
    journal: Path | None
    archive: Path | None


def _session_files(home: Path) -> dict[str, dict[str, Path]]:
    found: dict[str, dict[str, Path]] = {}
    try:
        entries = list(os.scandir(sessions_dir(home)))
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise StoreError(f"cannot list {sessions_dir(home)}: {exc.strerror}") from exc
    for entry in entries:
        named = session_file(entry.name)
        if named is not None:
            found.setdefault(named.session_id, {})["md" if named.kind == "archive" else "jsonl"] = Path(entry.path)
    return found


def _archive_info(text: str) -> tuple[datetime | None, int, str]:
    archive = read_archive(text)
    first = next((line.strip() for line in archive.summary.splitlines() if line.strip()), "")
    return archive.started, archive.turns, first


def list_sessions(home: Path) -> list[SessionInfo]:
    """Every session, newest first."""
    infos: list[tuple[float, SessionInfo]] = []
    for session_id, files in _session_files(home).items():
        journal_path, archive = files.get("jsonl"), files.get("md")
        started: datetime | None = None
        turns, summary = 0, ""
        try:
            if archive is not None:
                started, turns, summary = _archive_info(archive.read_text(encoding="utf-8", errors="replace"))
            elif journal_path is not None:
                journal = Journal.load(journal_path)
                started, turns = journal.started, journal.turns
                summary = (journal.summary or "").strip().splitlines()[0] if journal.summary else ""
        except (OSError, PalaceError):
            pass
        day = session_id[:10]
        order = started.timestamp() if started else _mtime(archive or journal_path)
        infos.append(
            (
                order,
                SessionInfo(
                    id=session_id,
                    date=day,
                    started=started,
                    turns=turns,
                    summary=redact(summary),
                    archived=archive is not None,
                    journal=journal_path,
                    archive=archive,
                ),
            )
        )
    infos.sort(key=lambda pair: (pair[1].date, pair[0]), reverse=True)
    return [info for _, info in infos]


def _mtime(path: Path | None) -> float:
    if path is None:
        return 0.0
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def find_session(home: Path, session_id: str) -> str:
    """The full id named by an id, a unique prefix of it, or a unique prefix of its 8 hex digits."""
    wanted = session_id.strip().removesuffix(".md").removesuffix(".jsonl").casefold()
    if not wanted:
        raise PalaceError("say which session: an id like 2026-11-30-a1b2c3d4, or the start of its hex part")
    ids = sorted(_session_files(home))
    if wanted in ids:
        return wanted
    matches = [i for i in ids if i.startswith(wanted) or i[11:].startswith(wanted)]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise PalaceError(f"no session {session_id!r} in {sessions_dir(home)} (`palace sessions list` lists them)")
    shown = ", ".join(matches[:8]) + (", ..." if len(matches) > 8 else "")
    raise PalaceError(f"{session_id!r} names {len(matches)} sessions ({shown}); give more of the id")


def find_journal(home: Path, session_id: str) -> Path:
    """The journal of the session named by id or prefix (PalaceError when it has none)."""
    full = find_session(home, session_id)
    path = sessions_dir(home) / f"{full}.jsonl"
    if not path.exists():
        raise PalaceError(f"session {full} has an archive but no journal (its transcript was deleted)")
    return path


_INTERRUPTED = re.compile(r"\n?\[reply interrupted: [^\]]*\]\s*$")


def had_reply(messages: list[dict[str, Any]]) -> bool:
    """Did the model answer at all: a reply with text (even one cut short) or a tool call?"""
    for message in messages:
        if message.get("role") != "assistant":
            continue
        if message.get("tool_calls") or _INTERRUPTED.sub("", content_text(message.get("content"))).strip():
            return True
    return False


@record
class Resumable:
    """A session worth resuming, as the picker shows it."""

    id: str
    started: datetime
    turns: int
    first: str  # the first thing the user said (one line, redacted)
    summary: str  # the first line of the summary, or ""
    imported: str | None = None  # where an imported session came from (Journal.imported); None: palace's own


def resumable_sessions(home: Path, limit: int = 10, scan: int = 60) -> list[Resumable]:
    """The sessions last active most recently that had a reply and that no running palace holds, newest first
    (among the `scan` latest started; archives name only the minute, so the journals decide the order)."""
    found: list[tuple[tuple[datetime, int], Resumable]] = []
    for info in list_sessions(home)[:scan]:
        if info.journal is None:
            continue
        try:
            if is_live(info.journal):
                continue
            journal = Journal.load(info.journal)
            changed = info.journal.stat().st_mtime_ns
        except (OSError, PalaceError):
            continue
        if not had_reply(journal.messages):
            continue
        first = next((content_text(m.get("content")) for m in journal.messages if m.get("role") == "user"), "")
        summary = info.summary or ((journal.summary or "").strip().splitlines() or [""])[0]
        session = Resumable(
            info.id, journal.started, journal.turns, " ".join(redact(first).split()), summary, journal.imported
        )
        found.append(((journal.last_activity, changed), session))
    found.sort(key=lambda pair: pair[0], reverse=True)
    return [session for _, session in found[:limit]]


def origin_label(imported: str) -> str:
    """`imported from Claude Code`, `imported from notes.md`: where an imported session came from, in words."""
    if imported == CLAUDE_CODE:
        return "imported from Claude Code"
    return f"imported from {imported}" if imported else "imported"


RESUME_EXCHANGES = 3  # the exchanges `--resume` shows: about a screen with the messages clipped as below
_SAID_LINES = 2  # lines of what the user said, shown on resume
_REPLY_LINES = 4  # lines of each reply
_LINE_CHARS = 100  # a line of a message, shown on resume (the rest of it is cut)


def last_exchanges(journal: Journal, count: int = RESUME_EXCHANGES) -> list[str]:
    """The end of the conversation as resuming shows it: the last `count` exchanges, what the user said after
    `› ` and each reply indented, every message clipped to its first lines (secrets redacted)."""
    messages = journal.messages
    starts = [n for n, message in enumerate(messages) if message.get("role") == "user"]
    shown = starts[-count:] if count > 0 else []
    lines: list[str] = []
    earlier = len(starts) - len(shown)
    if earlier:
        more = f"{earlier} earlier exchange{'s' * (earlier != 1)}"
        lines.append(f"… {more} (palace sessions show {journal.id[11:]} --transcript)")
    for number, start in enumerate(shown):
        end = shown[number + 1] if number + 1 < len(shown) else len(messages)
        lines += _clipped(content_text(messages[start].get("content")), "› ", _SAID_LINES)
        for message in messages[start + 1 : end]:
            if message.get("role") == "assistant":
                text = _INTERRUPTED.sub(" [interrupted]", content_text(message.get("content")))
                lines += _clipped(text, "  ", _REPLY_LINES)
    return lines


def _clipped(text: str, prefix: str, most: int) -> list[str]:
    rows = [row.rstrip() for row in redact(text).strip().splitlines() if row.strip()]
    if not rows:
        return []
    kept = [_clip(row, _LINE_CHARS) for row in rows[:most]]
    if len(rows) > most:
        hidden = len(rows) - most
        kept[-1] += f"  … ({hidden} more line{'s' * (hidden != 1)})"
    return [prefix + kept[0], *(f"  {row}" for row in kept[1:])]


def transcript(home: Path, session_id: str) -> str:
    """The session's conversation as readable text, from its journal (secrets redacted)."""
    full = find_session(home, session_id)
    folder = sessions_dir(home)
    archived = (folder / f"{full}.md").exists()
    return _transcript(Journal.load(find_journal(home, full)), archived=archived)


def _transcript(journal: Journal, *, archived: bool = False) -> str:
    lines = [
        f"# Session {journal.id}" + ("" if archived else " (not archived yet)"),
        "",
        f"- Started: {format_time(journal.started)}",
        f"- Model: {journal.model}",
        f"- Wing: {', '.join(journal.wings) or '(none)'}",
        f"- Turns: {journal.turns}",
        "",
        "## Transcript",
    ]
    for message in journal.messages:
        role = message.get("role")
        text = redact(content_text(message.get("content"))).strip()
        if role == "user":
            lines += ["", f"**You**: {text}"]
        elif role == "assistant":
            if text:
                lines += ["", f"**Assistant**: {text}"]
            for call in message.get("tool_calls") or ():
                function = call.get("function") if isinstance(call, dict) else None
                if isinstance(function, dict):
                    arguments = redact(str(function.get("arguments") or ""))
                    lines.append(f"  → {function.get('name')} {_clip(arguments, 200)}")
        elif role == "tool":
            lines.append(f"  ← {_clip(' '.join(text.split()), 200)}")
    if journal.memory_events:
        lines += ["", "## Memories", *(event_line(e) for e in journal.memory_events)]
    return "\n".join(lines) + "\n"


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def show_session(home: Path, session_id: str) -> str:
    """The archive's markdown, or a readable transcript when only the journal exists."""
    full = find_session(home, session_id)
    folder = sessions_dir(home)
    archive = folder / f"{full}.md"
    try:
        return archive.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise StoreError(f"cannot read {archive}: {exc.strerror}") from exc
    return _transcript(Journal.load(folder / f"{full}.jsonl"))


class _Listing:
    """The names in sessions/, listed at most once per look (the unarchived list and the one-time look of
    check_unregistered may both need them): names only, no Path objects and no stat per file."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self._names: tuple[set[str], set[str]] | None = None

    def names(self) -> tuple[set[str], set[str]]:
        """The ids of the sessions with a journal, and of those with an archive."""
        if self._names is None:
            folder = sessions_dir(self.home)
            try:
                names = os.listdir(folder)
            except FileNotFoundError:
                names = []
            except OSError as exc:
                raise StoreError(f"cannot list {folder}: {exc.strerror}") from exc
            journals = {name[:-6] for name in names if name.endswith(".jsonl")}
            archives = {name[:-3] for name in names if name.endswith(".md")}
            self._names = journals, archives
        return self._names

    def archived(self) -> set[str]:
        """The ids of the sessions with both a journal and an archive."""
        journals, archives = self.names()
        return journals & archives


def _state_file(home: Path) -> Path:
    return PalacePaths(home).index / _UNARCHIVED


def _read_state(home: Path) -> tuple[changes.Position | None, set[str]]:
    try:
        first, *ids = _state_file(home).read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeError):
        return None, set()
    return changes.Position.parse(first), {sid for sid in ids if sid}


def _keep_state(home: Path, position: changes.Position | None, ids: set[str]) -> None:
    """What the next start needs to know without a listing (derived data: a failed write is left out)."""
    file = _state_file(home)
    temp = file.with_name(f".{file.name}.{os.getpid()}.tmp")
    with contextlib.suppress(OSError):
        file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        temp.write_text("\n".join([position.text() if position else "", *sorted(ids)]), encoding="utf-8")
        os.replace(temp, file)


def _unarchived(home: Path, listing: _Listing) -> set[str]:
    """The ids of the journals without an archive: from the last start's list and the notes of what palace
    changed in sessions/ since (session_notes.py), or, when something else changed it, from a listing."""
    folder = sessions_dir(home)
    mtime = changes.dir_mtime(folder)
    if mtime is None:
        return set()
    known, ids = _read_state(home)
    followed = changes.follow(home, known, mtime)
    if followed is not None:
        for name in followed.names:
            named = session_file(name)
            if named is not None:
                journal, archive = (folder / (named.session_id + suffix) for suffix in (JOURNAL_SUFFIX, ".md"))
                if archive.exists() or not journal.exists():
                    ids.discard(named.session_id)
                else:
                    ids.add(named.session_id)
        if followed.position != known:
            _keep_state(home, followed.position, ids)
        return ids
    position = changes.position(home, mtime)  # read before the listing: a change noted meanwhile is followed again
    journals, archives = listing.names()
    ids = journals - archives
    # Kept even when sessions/ changed just before the listing: a journal that landed in that same tick (one
    # sync brought: palace's own are registered) waits for the next listing, as an unnoted change brings it.
    _keep_state(home, position, ids)
    return ids


def _registered(home: Path, listing: _Listing) -> set[str]:
    """Sessions the live registry names (its entries of vanished journals are dropped), after the one-time
    look for what a palace from before the registry may have left (live.check_unregistered)."""
    folder = live_dir(home)
    named = check_unregistered(home, listing.archived)
    with contextlib.suppress(OSError):
        for name in os.listdir(folder):
            if name.startswith("."):
                continue
            if (sessions_dir(home) / (name + JOURNAL_SUFFIX)).exists():
                named.add(name)
            else:
                with contextlib.suppress(OSError):
                    (folder / name).unlink()
    return named


def find_orphans(home: Path) -> list[Path]:
    """Journals left by sessions that died: nobody alive owns them, and they have no archive (found by name)
    or they are in the live registry (resumed after their archive, or stopped before it)."""
    listing = _Listing(home)
    candidates = _unarchived(home, listing) | _registered(home, listing)
    orphans: list[Path] = []
    for session_id in sorted(sid for sid in candidates if session_file(sid + JOURNAL_SUFFIX) is not None):
        journal = sessions_dir(home) / f"{session_id}.jsonl"
        try:
            if not journal.exists() or is_live(journal):
                continue
        except StoreError:
            continue
        orphans.append(journal)
    return orphans
