"""Session journals and archives in $PALACE_HOME/sessions/.

`YYYY-MM-DD-{8 hex}.jsonl` is a session's journal: one JSON object a line (header, messages, usage,
memory changes, extraction bookkeeping, resumed/end marks), appended as things happen. A running session
owns its journal through an exclusive `flock` on the journal itself, held for as long as it runs, so a
journal whose lock can be taken belongs to nobody alive (robust against pid reuse). Only the owner
appends. `YYYY-MM-DD-{8 hex}.md` is the archive written when the session ends (DESIGN 1.3).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import secrets
import socket
import threading
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from palace.errors import PalaceError, StoreError
from palace.memory.ops import ChangeResult, normalise
from palace.memory.secrets import redact
from palace.memory.store import atomic_write, ensure_home

SESSIONS = "sessions"
_ID_RE = re.compile(r"^(\d{4}-\d{2}-\d{2})-([0-9a-f]{8})$")
_FILE_RE = re.compile(r"^(\d{4}-\d{2}-\d{2}-[0-9a-f]{8})\.(jsonl|md)$")
_BY_WORDS = {"model": "the model", "user": "the user"}
# Records that say the session itself was active (bookkeeping written later does not move its end time).
_ACTIVITY = frozenset({"session", "message", "memory", "resumed"})


def now() -> datetime:
    """The current time, timezone-aware in local time."""
    return datetime.now().astimezone()


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")


def _parse_time(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.astimezone()


def _offset(moment: datetime) -> str:
    delta = moment.utcoffset()
    minutes = int(delta.total_seconds() // 60) if delta is not None else 0
    sign = "-" if minutes < 0 else "+"
    minutes = abs(minutes)
    return f"{sign}{minutes // 60:02d}:{minutes % 60:02d}"


def format_time(moment: datetime) -> str:
    """`2026-11-30 14:35 +00:00`, as in the archive header."""
    return f"{moment:%Y-%m-%d %H:%M} {_offset(moment)}"


def sessions_dir(home: Path) -> Path:
    return home / SESSIONS


def _ensure_sessions(home: Path) -> Path:
    ensure_home(home)
    folder = sessions_dir(home)
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        if folder.stat().st_mode & 0o077:
            folder.chmod(0o700)
    except OSError as exc:
        raise StoreError(f"cannot create {folder}: {exc.strerror}") from exc
    return folder


def content_text(content: object) -> str:
    """The text of a chat message's content (a string, or OpenAI content parts)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [part.get("text") for part in content if isinstance(part, dict)]
        return "\n".join(part for part in parts if isinstance(part, str))
    return ""


def _lock_nb(fd: int) -> bool:
    """Take the exclusive lock without waiting; False when someone else holds it."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError as exc:  # e.g. a file system without flock: treat as not lockable
        raise StoreError(f"cannot lock a session journal: {exc.strerror}") from exc
    return True


def is_live(path: Path) -> bool:
    """True when a running palace owns this journal (holds its lock)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return False
    try:
        return not _lock_nb(fd)
    finally:
        os.close(fd)  # closing our descriptor drops the lock we may have taken


class Journal:
    """One session's journal: its state as replayed from the file, and the appends of its owner."""

    def __init__(
        self,
        path: Path,
        *,
        session_id: str,
        started: datetime,
        model: str,
        wing: str | None,
        pid: int | None = None,
        host: str | None = None,
    ) -> None:
        self.path = path
        self.id = session_id
        self.started = started
        self.model = model
        self.wing = wing
        self.pid = pid  # the process that last started or resumed it (as recorded)
        self.host = host
        self.messages: list[dict[str, Any]] = []
        self.extracted_upto = 0
        self.memory_events: list[dict[str, Any]] = []
        self.summary: str | None = None
        self.ended: datetime | None = None  # the last "end" mark (None while unfinished)
        self.last_activity: datetime = started
        self.live_here = False  # started or resumed by this process (so "now" is its end time)
        self._usage = [0, 0]
        self._fd: int | None = None
        self._size = 0  # bytes of the file replayed into this object
        self._lock = threading.RLock()

    # ------------------------------------------------------------------ opening
    @classmethod
    def start(cls, home: Path, *, model: str, wing: str | None) -> Journal:
        """A new session: a fresh id, its journal (0600) with the header line, owned by this process."""
        folder = _ensure_sessions(home)
        started = now()
        for _ in range(100):
            session_id = f"{started:%Y-%m-%d}-{secrets.token_hex(4)}"
            path = folder / f"{session_id}.jsonl"
            if (folder / f"{session_id}.md").exists():
                continue
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
            except FileExistsError:
                continue
            except OSError as exc:
                raise StoreError(f"cannot create a session journal in {folder}: {exc.strerror}") from exc
            break
        else:  # pragma: no cover - 100 collisions of 32 random bits
            raise StoreError(f"cannot find a free session id in {folder}")
        journal = cls(
            path, session_id=session_id, started=started, model=model, wing=wing,
            pid=os.getpid(), host=socket.gethostname(),
        )
        if not _lock_nb(fd):  # pragma: no cover - nobody else can know this new file yet
            os.close(fd)
            raise StoreError(f"cannot lock the new session journal {path}")
        journal._fd = fd
        journal.live_here = True
        journal._append({
            "type": "session", "id": session_id, "started": _iso(started), "model": model, "wing": wing,
            "pid": journal.pid, "host": journal.host,
        })
        return journal

    @classmethod
    def resume(cls, home: Path, session_id: str | None = None) -> Journal:
        """Take over an earlier session: the latest one not in use, or the one named by id or prefix."""
        if session_id is None or not session_id.strip():
            journal = None
            for info in list_sessions(home):
                if info.journal is not None and not is_live(info.journal):
                    journal = cls.load(info.journal)
                    break
            if journal is None:
                raise PalaceError(f"no session to resume in {sessions_dir(home)}")
        else:
            journal = cls.load(find_journal(home, session_id))
        journal.claim()
        journal.live_here = True
        journal.pid, journal.host = os.getpid(), socket.gethostname()
        journal._append({"type": "resumed", "ts": _iso(now()), "pid": journal.pid, "host": journal.host})
        journal.ended = None
        journal._repair_tool_calls()
        return journal

    @classmethod
    def load(cls, path: Path) -> Journal:
        """A view of a journal as it is on disk; it takes ownership only when something is written."""
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise PalaceError(f"no session journal {path}") from None
        except OSError as exc:
            raise StoreError(f"cannot read {path}: {exc.strerror}") from exc
        session_id = path.name.removesuffix(".jsonl")
        match = _ID_RE.match(session_id)
        fallback = now()
        if match:
            with contextlib.suppress(ValueError):
                fallback = datetime.fromisoformat(match.group(1)).astimezone()
        journal = cls(path, session_id=session_id, started=fallback, model="(unknown)", wing=None)
        journal._replay(data)
        return journal

    # ------------------------------------------------------------------ state
    @property
    def usage(self) -> tuple[int, int]:
        return (self._usage[0], self._usage[1])

    @property
    def turns(self) -> int:
        return sum(1 for message in self.messages if message.get("role") == "user")

    @property
    def owned(self) -> bool:
        """True while this object holds the journal's lock."""
        return self._fd is not None

    def _replay(self, data: bytes) -> None:
        self.messages = []
        self.extracted_upto = 0
        self.memory_events = []
        self.summary = None
        self.ended = None
        self._usage = [0, 0]
        for line in data.split(b"\n"):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError:  # a line cut short by a crash, or damaged by hand
                continue
            if isinstance(record, dict):
                self._apply(record)
        self._size = len(data)

    def _apply(self, record: dict[str, Any]) -> None:
        kind = record.get("type")
        moment = _parse_time(record.get("ts"))
        if moment is not None and kind in _ACTIVITY:
            self.last_activity = max(self.last_activity, moment)
        if kind == "session":
            started = _parse_time(record.get("started"))
            if started is not None:
                self.started = started
                self.last_activity = max(self.last_activity, started)
            self.model = str(record.get("model") or self.model)
            wing = record.get("wing")
            self.wing = wing if isinstance(wing, str) and wing else None
            self._owner(record)
        elif kind == "message":
            message = record.get("message")
            if isinstance(message, dict):
                self.messages.append(message)
        elif kind == "usage":
            self._usage[0] += _int(record.get("input"))
            self._usage[1] += _int(record.get("output"))
        elif kind == "memory":
            event = _event(record, record.get("by"))
            if event is not None:
                self.memory_events.append(event)
        elif kind == "extracted":
            upto = _int(record.get("upto"))
            self.extracted_upto = max(self.extracted_upto, min(upto, len(self.messages)))
            summary = record.get("summary")
            if isinstance(summary, str) and summary.strip():
                self.summary = summary.strip()
            for item in record.get("saved") or ():
                event = _event(item, "extracted") if isinstance(item, dict) else None
                if event is not None:
                    self.memory_events.append(event)
        elif kind == "resumed":
            self._owner(record)
            self.ended = None
        elif kind == "end":
            self.ended = moment or self.last_activity

    def _owner(self, record: dict[str, Any]) -> None:
        pid = record.get("pid")
        self.pid = pid if isinstance(pid, int) else self.pid
        host = record.get("host")
        self.host = host if isinstance(host, str) else self.host

    def _repair_tool_calls(self) -> None:
        """A crash between a tool call and its result leaves a history endpoints reject: close the calls."""
        for index in range(len(self.messages) - 1, -1, -1):
            message = self.messages[index]
            if message.get("role") == "tool":
                continue
            if message.get("role") != "assistant" or not message.get("tool_calls"):
                return
            answered = {m.get("tool_call_id") for m in self.messages[index + 1 :]}
            for call in message.get("tool_calls") or ():
                call_id = call.get("id") if isinstance(call, dict) else None
                if isinstance(call_id, str) and call_id not in answered:
                    self.add_message({
                        "role": "tool", "tool_call_id": call_id,
                        "content": "[no result: the session ended before this tool call finished]",
                    })
            return

    # ------------------------------------------------------------------ ownership
    def claim(self) -> None:
        """Take ownership (the journal's lock) unless a live process holds it: PalaceError then."""
        with self._lock:
            if self._fd is not None:
                return
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
            except FileNotFoundError:
                raise PalaceError(f"session {self.id}: its journal {self.path} is gone") from None
            except OSError as exc:
                raise StoreError(f"cannot open {self.path}: {exc.strerror}") from exc
            try:
                locked = _lock_nb(fd)
            except BaseException:
                os.close(fd)
                raise
            if not locked:
                os.close(fd)
                who = f"pid {self.pid}" if self.pid else "another process"
                where = f" on {self.host}" if self.host else ""
                raise PalaceError(
                    f"session {self.id} is in use by a running palace ({who}{where}); "
                    "finish that session first"
                )
            self._fd = fd
            try:
                data = self.path.read_bytes()
                if len(data) != self._size:  # it grew between our read and the lock: replay the final text
                    self._replay(data)
                if data and not data.endswith(b"\n"):  # a crash cut the last line: start ours on a new one
                    _write_all(fd, b"\n")
                    self._size += 1
            except OSError as exc:
                self.close()
                raise StoreError(f"cannot read {self.path}: {exc.strerror}") from exc

    def close(self) -> None:
        """Release ownership (the archive is written by Extractor.finish, not here)."""
        with self._lock:
            fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.fsync(fd)
            os.close(fd)

    def discard(self) -> None:
        """Remove the journal of a session that has nothing in it."""
        with self._lock:
            self.claim()
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()
            self.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # ------------------------------------------------------------------ appends
    def _append(self, record: dict[str, Any]) -> None:
        data = (json.dumps(record, ensure_ascii=False, default=str) + "\n").encode("utf-8", "surrogateescape")
        with self._lock:
            self.claim()
            assert self._fd is not None
            try:
                _write_all(self._fd, data)
            except OSError as exc:
                raise StoreError(f"cannot write the session journal {self.path}: {exc.strerror}") from exc
            self._size += len(data)
            moment = _parse_time(record.get("ts") or record.get("started"))
            if moment is not None and record.get("type") in _ACTIVITY:
                self.last_activity = max(self.last_activity, moment)

    def add_message(self, message: dict[str, Any]) -> None:
        with self._lock:
            self._append({"type": "message", "ts": _iso(now()), "message": message})
            self.messages.append(message)

    def add_usage(self, input_tokens: int, output_tokens: int) -> None:
        with self._lock:
            self._append({"type": "usage", "ts": _iso(now()), "input": int(input_tokens), "output": int(output_tokens)})
            self._usage[0] += int(input_tokens)
            self._usage[1] += int(output_tokens)

    def add_memory(self, result: ChangeResult) -> None:
        """A save/forget made during the session by the model's tool or by the user."""
        event = {
            "path": str(result.path),
            "content": result.content,
            "action": "refreshed" if result.action == "unchanged" else result.action,
            "by": result.by,
        }
        with self._lock:
            self._append({"type": "memory", "ts": _iso(now()), **event})
            self.memory_events.append(event)

    def record_extraction(self, upto: int, summary: str, results: list[ChangeResult], dropped: int) -> None:
        """Bookkeeping of one successful extraction: messages[:upto] are done."""
        saved = [
            {
                "path": str(r.path), "content": r.content,
                "action": "refreshed" if r.action == "unchanged" else r.action, "by": "extracted",
            }
            for r in results
        ]
        with self._lock:
            upto = max(self.extracted_upto, min(upto, len(self.messages)))
            self._append({
                "type": "extracted", "ts": _iso(now()), "upto": upto, "summary": summary, "saved": saved,
                "dropped": dropped,
            })
            self.extracted_upto = upto
            if summary.strip():
                self.summary = summary.strip()
            self.memory_events.extend(saved)

    def end(self) -> None:
        """Mark the session finished."""
        with self._lock:
            moment = now()
            self._append({"type": "end", "ts": _iso(moment)})
            self.ended = moment

    def snapshot(self) -> tuple[int, list[dict[str, Any]], str | None]:
        """(extracted_upto, all messages, summary) read together, for a background extraction."""
        with self._lock:
            return self.extracted_upto, list(self.messages), self.summary


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


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


# ---------------------------------------------------------------------- archive


def archive_path(journal: Journal) -> Path:
    return journal.path.with_name(f"{journal.id}.md")


def _summary_block(summary: str) -> str:
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", redact(summary))]
    paragraphs = [("\\" + p if p.startswith("#") else p) for p in paragraphs if p]
    return "\n\n".join(paragraphs) or "(no summary)"


def _event_line(event: dict[str, Any]) -> str:
    by, action = str(event.get("by")), str(event.get("action"))
    label = f"extracted, {action}" if by == "extracted" else f"{action} by {_BY_WORDS.get(by, by)}"
    content = " ".join(redact(str(event.get("content"))).split())
    return f"- **{event.get('path')}**: {content} ({label})"


def render_archive(journal: Journal, *, ended: datetime | None = None, summary: str | None = None) -> str:
    """The archive markdown (DESIGN 1.3)."""
    ended = ended or journal.ended or journal.last_activity
    match = _ID_RE.match(journal.id)
    day, short = (match.group(1), match.group(2)) if match else (f"{journal.started:%Y-%m-%d}", journal.id)
    text = summary if summary is not None else journal.summary
    input_tokens, output_tokens = journal.usage
    seen: set[tuple[str, str]] = set()
    lines: list[str] = []
    for event in journal.memory_events:
        key = (str(event.get("path")).casefold(), normalise(str(event.get("content"))))
        if key in seen and event.get("action") in ("saved", "refreshed"):
            continue  # already listed (e.g. the model saved it, then extraction found it again)
        seen.add(key)
        lines.append(_event_line(event))
    parts = [
        f"# Session {day} · {short}",
        "",
        f"- Started: {format_time(journal.started)}",
        f"- Ended: {format_time(ended)}",
        f"- Model: {journal.model}",
        f"- Wing: {journal.wing or '(none)'}",
        f"- Turns: {journal.turns}",
        "",
        "## Summary",
        _summary_block(text or "(no summary)"),
        "",
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


# ---------------------------------------------------------------------- listing


@dataclass
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
        match = _FILE_RE.match(entry.name)
        if match:
            found.setdefault(match.group(1), {})[match.group(2)] = Path(entry.path)
    return found


_ARCHIVE_STARTED = re.compile(r"^- Started:\s*(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})(?: ([+-]\d{2}:\d{2}))?", re.M)
_ARCHIVE_TURNS = re.compile(r"^- Turns:\s*(\d+)", re.M)


def _archive_info(text: str) -> tuple[datetime | None, int, str]:
    started = None
    match = _ARCHIVE_STARTED.search(text)
    if match:
        started = _parse_time(f"{match.group(1)}T{match.group(2)}{match.group(3) or ''}")
    turns_match = _ARCHIVE_TURNS.search(text)
    turns = int(turns_match.group(1)) if turns_match else 0
    summary = ""
    in_summary = False
    for line in text.splitlines():
        if line.startswith("## "):
            in_summary = line[3:].strip().casefold() == "summary"
            continue
        if in_summary and line.strip():
            summary = line.strip()
            break
    return started, turns, summary


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
        infos.append((order, SessionInfo(
            id=session_id, date=day, started=started, turns=turns, summary=redact(summary),
            archived=archive is not None, journal=journal_path, archive=archive,
        )))
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


def _transcript(journal: Journal) -> str:
    lines = [
        f"# Session {journal.id} (not archived yet)",
        "",
        f"- Started: {format_time(journal.started)}",
        f"- Model: {journal.model}",
        f"- Wing: {journal.wing or '(none)'}",
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
        lines += ["", "## Memories", *(_event_line(e) for e in journal.memory_events)]
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


def _ends_finished(path: Path) -> bool:
    """Does the journal's last lifecycle mark say "end" (not resumed since)?"""
    try:
        with path.open("rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            handle.seek(max(0, size - 65536))
            tail = handle.read()
    except OSError:
        return True
    for line in reversed(tail.split(b"\n")):
        if b'"type"' not in line:
            continue
        try:
            kind = json.loads(line).get("type")
        except (ValueError, AttributeError):
            continue
        if kind == "end":
            return True
        if kind in ("resumed", "session"):
            return False
    return False


def find_orphans(home: Path) -> list[Path]:
    """Journals left by sessions that died: nobody alive owns them, and they have no archive
    (or were resumed after their archive was written and never ended)."""
    orphans: list[tuple[str, Path]] = []
    for session_id, files in _session_files(home).items():
        journal = files.get("jsonl")
        if journal is None:
            continue
        if "md" in files and _ends_finished(journal):
            continue
        try:
            if is_live(journal):
                continue
        except StoreError:
            continue
        orphans.append((session_id, journal))
    return [path for _, path in sorted(orphans)]
