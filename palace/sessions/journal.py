"""Session journals in $PALACE_HOME/sessions/.

`YYYY-MM-DD-{8 hex}.jsonl` is a session's journal: one JSON object a line (header, messages, usage,
memory changes, extraction bookkeeping, context snapshots, resumed/end marks), appended as things
happen. A running session owns its journal through an exclusive `flock` on the journal itself, held for
as long as it runs, so a journal whose lock can be taken belongs to nobody alive (robust against pid
reuse). Only the owner appends. `YYYY-MM-DD-{8 hex}.md` is the archive written when the session ends
(sessions/archive.py, DESIGN 1.3).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import socket
import threading
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from palace.errors import PalaceError, StoreError
from palace.memory.files import ensure_home
from palace.memory.ops import ChangeResult
from palace.paths import SESSION_ID, PalacePaths
from palace.session_notes import noted_start
from palace.sessions.live import lock_nb, register, unregister
from palace.sessions.replay import ACTIVITY, apply_record, parse_time

SESSION_ID_RE = SESSION_ID  # (paths.py spells it)
CLAUDE_CODE = "claude-code"  # the origin of a session imported by Claude Code's hooks (palace/mcp/hooks.py)


def now() -> datetime:
    """The current time, timezone-aware in local time."""
    return datetime.now().astimezone()


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")


def sessions_dir(home: Path) -> Path:
    return PalacePaths(home).sessions


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
        self.wings: list[str] = [wing] if wing else []  # every active wing; `wing` is the first
        self.pid = pid  # the process that last started or resumed it (as recorded)
        self.host = host
        self.messages: list[dict[str, Any]] = []
        self.extracted_upto = 0
        self.memory_events: list[dict[str, Any]] = []
        self.summary: str | None = None
        self.context: dict[str, Any] | None = None  # the latest working-context snapshot (agent/context.py)
        self.ended: datetime | None = None  # the last "end" mark (None while unfinished)
        self.last_activity: datetime = started
        self.live_here = False  # started or resumed by this process (so "now" is its end time)
        self.usage_counts = [0, 0]  # input and output tokens, as recorded
        # Where an imported session came from (the header's "imported": CLAUDE_CODE, a transcript's file name);
        # None for palace's own.
        self.imported: str | None = None
        self._fd: int | None = None
        self._size = 0  # bytes of the file replayed into this object
        self._lock = threading.RLock()
        self.broken: str | None = None  # why appends stopped (a full disk), if they did
        self.warn: Callable[[str], None] = _no_warning

    # ------------------------------------------------------------------ opening
    @classmethod
    @noted_start  # the new journal is noted for the next look at sessions/ (session_notes.py)
    def start(
        cls,
        home: Path,
        *,
        model: str,
        wing: str | None = None,
        wings: Sequence[str] = (),
        warn: Callable[[str], None] | None = None,
        started: datetime | None = None,
        imported: str | None = None,
    ) -> Journal:
        """A new session: a fresh id, its journal (0600) with the header line, owned by this process. An imported
        session is dated by when it `started` elsewhere (its id too) and names where it came from (`imported`)."""
        folder = _ensure_sessions(home)
        started = min(started, now()).astimezone() if started is not None else now()  # (its local day names it)
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
        active = list(dict.fromkeys([w for w in (wing, *wings) if w]))  # in order, once each
        journal = cls(
            path,
            session_id=session_id,
            started=started,
            model=model,
            wing=active[0] if active else None,
            pid=os.getpid(),
            host=socket.gethostname(),
        )
        journal.wings = active
        journal.imported = imported
        if not lock_nb(fd):  # pragma: no cover - nobody else can know this new file yet
            os.close(fd)
            raise StoreError(f"cannot lock the new session journal {path}")
        journal._fd = fd
        journal.live_here = True
        journal.warn = warn or _no_warning
        register(path)
        header: dict[str, Any] = {
            "type": "session",
            "id": session_id,
            "started": _iso(started),
            "model": model,
            "wing": journal.wing,
            "wings": journal.wings,
            "pid": journal.pid,
            "host": journal.host,
        }
        journal._append(header | ({"imported": imported} if imported is not None else {}))
        return journal

    @classmethod
    def take_over(cls, path: Path) -> Journal:
        """Resume the session of this journal in this process (PalaceError while another palace owns it)."""
        journal = cls.load(path)
        journal.claim()
        register(path)
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
        match = SESSION_ID_RE.match(session_id)
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
        return (self.usage_counts[0], self.usage_counts[1])

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
        self.context = None
        self.ended = None
        self.usage_counts = [0, 0]
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
        apply_record(self, record)
        if record.get("type") == "session":
            origin = record.get("imported")  # (Claude Code's imports recorded none before: their model says so)
            self.imported = (
                origin if isinstance(origin, str) else CLAUDE_CODE if self.model.startswith(CLAUDE_CODE) else None
            )

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
                    self.add_message(
                        {
                            "role": "tool",
                            "tool_call_id": call_id,
                            "content": "[no result: the session ended before this tool call finished]",
                        }
                    )
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
                locked = lock_nb(fd)
            except BaseException:
                os.close(fd)
                raise
            if not locked:
                os.close(fd)
                who = f"pid {self.pid}" if self.pid else "another process"
                where = f" on {self.host}" if self.host else ""
                raise PalaceError(
                    f"session {self.id} is in use by a running palace ({who}{where}); finish that session first"
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
            unregister(self.path)
            self.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # ------------------------------------------------------------------ appends
    def _append(self, record: dict[str, Any]) -> None:
        """Append one record; a write that fails (a full disk) costs one warning, and the session goes on
        unrecorded: its messages stay in memory, the journal keeps what it had."""
        # A lone surrogate (half an emoji from a model) becomes a JSON \u escape, which reads back as itself.
        line = json.dumps(record, ensure_ascii=False, default=str) + "\n"
        data = line.encode("utf-8", "backslashreplace")
        with self._lock:
            if self.broken is not None:
                return
            self.claim()
            assert self._fd is not None
            try:
                _write_all(self._fd, data)
            except OSError as exc:
                self.broken = f"cannot write the session journal {self.path}: {exc.strerror}"
                self.warn(f"{self.broken} — this session is not being recorded; the conversation goes on")
                return
            self._size += len(data)
            moment = parse_time(record.get("ts") or record.get("started"))
            if moment is not None and record.get("type") in ACTIVITY:
                self.last_activity = max(self.last_activity, moment)

    def add_message(self, message: dict[str, Any]) -> None:
        with self._lock:
            self._append({"type": "message", "ts": _iso(now()), "message": message})
            self.messages.append(message)

    def add_usage(self, input_tokens: int, output_tokens: int) -> None:
        with self._lock:
            self._append({"type": "usage", "ts": _iso(now()), "input": int(input_tokens), "output": int(output_tokens)})
            self.usage_counts[0] += int(input_tokens)
            self.usage_counts[1] += int(output_tokens)

    def add_context(self, snapshot: dict[str, Any]) -> None:
        """The rolling summary and the working context as they are now (the latest record wins)."""
        with self._lock:
            self._append({"type": "context", "ts": _iso(now()), "snapshot": snapshot})
            self.context = snapshot

    def add_undo(self, path: str) -> None:
        """The user undid the last change to path (the archive marks it undone)."""
        event = {"path": path, "content": "", "action": "undone", "by": "user"}
        with self._lock:
            self._append({"type": "memory", "ts": _iso(now()), **event})
            self.memory_events.append(event)

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

    def record_extraction(
        self,
        upto: int,
        summary: str,
        results: list[ChangeResult],
        dropped: int,
        proposed: Sequence[tuple[str, str]] = (),
    ) -> None:
        """Bookkeeping of one successful extraction: messages[:upto] are done; `proposed` (path, content)
        went to review instead of memories.md."""
        saved = [
            {
                "path": str(r.path),
                "content": r.content,
                "action": "refreshed" if r.action == "unchanged" else r.action,
                "by": "extracted",
            }
            for r in results
        ]
        saved += [
            {"path": path, "content": content, "action": "proposed", "by": "extracted"} for path, content in proposed
        ]
        with self._lock:
            upto = max(self.extracted_upto, min(upto, len(self.messages)))
            self._append(
                {
                    "type": "extracted",
                    "ts": _iso(now()),
                    "upto": upto,
                    "summary": summary,
                    "saved": saved,
                    "dropped": dropped,
                }
            )
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
        unregister(self.path)

    def snapshot(self) -> tuple[int, list[dict[str, Any]], str | None]:
        """(extracted_upto, all messages, summary) read together, for a background extraction."""
        with self._lock:
            return self.extracted_upto, list(self.messages), self.summary


def _no_warning(message: str) -> None:
    """Journals made without a warning callback stay quiet."""


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
