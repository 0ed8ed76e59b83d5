"""Reading the palace files for recall: session file classification, journals, archives, memories.md."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from palace.memory.secrets import redact
from palace.paths import session_file
from palace.recall.scan_state import Snapshot, Stamp, growing, recent_ns
from palace.record import record

if TYPE_CHECKING:
    from palace.memory.document import Entry

MAX_DOC_CHARS = 20_000  # a pasted log is indexed (and shown) up to this many characters


class FileKind(StrEnum):
    """What an indexed file is (stored in the index's file table)."""

    JOURNAL = "journal"  # sessions/<day>-<id>.jsonl
    ARCHIVE = "archive"  # sessions/<day>-<id>.md
    MEMORIES = "memories"  # memories.md
    SUPERSEDED = "superseded"  # superseded.md: entries palace removed or replaced


class DocKind(StrEnum):
    """What a session document is; a memory entry's kind is memory_kind(its room path) instead."""

    SUMMARY = "summary"
    USER = "user"
    ASSISTANT = "assistant"


MEMORY_PREFIX = "memory:"
SUPERSEDED_PREFIX = "superseded:"


def memory_kind(path: str) -> str:
    """The document kind of a memory entry in the room at path (e.g. "memory:Preferences/editor")."""
    return MEMORY_PREFIX + path


def memory_room(kind: str) -> str | None:
    """The room path of a memory entry's document kind, or None for a session document."""
    return kind[len(MEMORY_PREFIX) :] if kind.startswith(MEMORY_PREFIX) else None


def superseded_room(kind: str) -> str | None:
    """The room path of a superseded entry's document kind, or None for any other document."""
    return kind[len(SUPERSEDED_PREFIX) :] if kind.startswith(SUPERSEDED_PREFIX) else None


def is_entry(kind: str) -> bool:
    """Is a document of this kind an entry (current or superseded), not a session's message or summary?"""
    return kind.startswith((MEMORY_PREFIX, SUPERSEDED_PREFIX))


def entry_wing(kind: str) -> str | None:
    """The wing of an entry's room path ("memory:alpha/Decisions/db" -> "alpha"), None for a hall's room."""
    room = memory_room(kind) or superseded_room(kind) or ""
    return room.split("/", 1)[0] if room.count("/") == 2 else None


class SessionName(NamedTuple):
    """What a session file's name says: its kind, the session (source) it belongs to and its day."""

    kind: FileKind
    source: str  # "2026-11-30-a1b2c3d4"
    day: str  # "2026-11-30"


class FileMeta(NamedTuple):
    """A file found on disk: what it is and its stat stamp (size, mtime), compared with the index's."""

    kind: FileKind
    source: str
    day: str  # "" for memories.md: its entries carry their own dates
    size: int
    mtime_ns: int


@record
class Doc:
    """One indexable document: a message, an archive's summary, or a memory entry."""

    kind: str  # a DocKind, or memory_kind(path) for a memory entry (superseded: SUPERSEDED_PREFIX + path)
    date: str
    text: str  # as stored and shown
    indexed: str | None = None  # the part of text searched for, when not all of it (a superseded entry's fact)


class ParsedFile(NamedTuple):
    """The documents of one file, the day they are dated, and the size and mtime of the version read."""

    docs: list[Doc]
    day: str  # the conversation's own start date (journal header, archive `- Started:`), else the name's
    size: int
    mtime_ns: int
    wings: tuple[str, ...] = ()  # a session's wings (journal header, archive `- Wing:`); none: wing-less


def _clip(text: str) -> str:
    text = text.strip()
    return text[:MAX_DOC_CHARS]


def _content_text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # OpenAI content parts
        parts = [p.get("text") for p in content if isinstance(p, dict)]
        return "\n".join(p for p in parts if isinstance(p, str))
    return ""


def started_day(value: object) -> str | None:
    """The date (YYYY-MM-DD, in its own time zone) of a journal header's `started`, or None if unreadable."""
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value.strip()).date().isoformat()
    except ValueError:
        return None


def header_wings(record: dict[str, object]) -> tuple[str, ...]:
    """The wings a journal's header names (`wings`, else the older single `wing`), each once."""
    named = record.get("wings")
    wings = [w for w in named if isinstance(w, str)] if isinstance(named, list) else []
    first = record.get("wing")
    if not wings and isinstance(first, str):
        wings = [first]
    return _wing_names(wings)


def _wing_names(names: list[str]) -> tuple[str, ...]:
    """Plain wing names (a slug: no spaces or commas), each once whatever its case."""
    from palace.memory.halls import is_valid_wing  # the readers below import what only reading files needs

    seen: dict[str, str] = {}
    for name in names:
        name = name.strip()
        if name and is_valid_wing(name):
            seen.setdefault(name.casefold(), name)
    return tuple(seen.values())


def _parse_journal(data: bytes, day: str) -> tuple[list[Doc], str, tuple[str, ...]]:
    """The messages of a journal, dated by its header's `started` (a session imported or replayed from
    elsewhere is dated by when it happened, not by when its file was written), and its header's wings."""
    from palace.recall.records import journal_records
    from palace.recall.redaction import redact_all

    docs: list[Doc] = []
    wings: tuple[str, ...] = ()
    for obj in journal_records(data):
        if not isinstance(obj, dict):
            continue
        if obj.get("type") == "session" and not docs:
            day = started_day(obj.get("started")) or day
            wings = header_wings(obj)
            continue
        if obj.get("type") != "message":
            continue
        message = obj.get("message")
        if not isinstance(message, dict):
            continue
        role = message.get("role")
        if role not in (DocKind.USER, DocKind.ASSISTANT):
            continue
        text = _clip(_content_text(message.get("content")))
        if text:
            docs.append(Doc(DocKind(role), day, text))
    for doc, text in zip(docs, redact_all([doc.text for doc in docs]), strict=True):
        doc.text = text
    return docs, day, wings


def _parse_archive(text: str, day: str) -> tuple[list[Doc], str, tuple[str, ...]]:
    """An archive's summary document (its summary and memory lines), its day and its wings. A stand-in for a
    summary the model never wrote is not indexed: what it quotes is in the journal already."""
    from palace.archives import NO_SUMMARY, read_archive

    archive = read_archive(text)
    day = archive.day or day
    parts: list[str] = []
    if archive.summary and not archive.stand_in:
        parts.append(archive.summary)
    for memory in archive.memories:
        line = f"{memory.path}: {memory.content}" if memory.path else memory.content
        parts.append(f"{line} ({memory.how})" if memory.how else line)
    if not parts and "summary" not in archive.sections:  # hand-written or unusual: what it says, minus the header
        body = [ln for name, lines in archive.sections.items() if name != "token usage" for ln in lines]
        parts = [ln for ln in body if ln.strip() and ln.strip() not in (NO_SUMMARY, "- (none)")]
    clipped = _clip("\n".join(parts))
    return ([Doc(DocKind.SUMMARY, day, redact(clipped))] if clipped else []), day, _wing_names(archive.wings)


def _entries(data: bytes) -> Iterator[tuple[Entry, str]]:
    """The placed entries of a memories.md-shaped file, each with its text as recall stores it."""
    from palace.memory.document import Document  # only when an entry file changed: not on a first query

    for entry in Document.parse(data).entries:
        if entry.path is not None:
            yield entry, _clip(entry.content.encode("utf-8", "surrogateescape").decode("utf-8", "replace"))


def _parse_memories(data: bytes, default_day: str) -> list[Doc]:
    """The entries of memories.md, as memory/document.py reads them (so a comment is never an entry)."""
    return [
        Doc(memory_kind(str(entry.path)), entry.date or default_day, redact(text)) for entry, text in _entries(data)
    ]


def _parse_superseded(data: bytes, default_day: str) -> list[Doc]:
    """The entries of superseded.md: each with its note (when and why it went), only its fact searched."""
    from palace.memory.sidefile import split_note

    docs: list[Doc] = []
    for entry, text in _entries(data):
        fact, _note = split_note(text)
        kind = SUPERSEDED_PREFIX + str(entry.path)
        docs.append(Doc(kind, entry.date or default_day, redact(text), redact(fact)))
    return docs


def read_file(path: Path, kind: FileKind, day: str) -> ParsedFile | None:
    """The documents of one file (and the stamp of the version read), or None if it vanished or cannot be read."""
    from palace.memory.files import read_fd

    try:  # non-blocking and regular files only: a FIFO in place of a file must never hang a search
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        data = read_fd(fd)
    except OSError:
        return None
    finally:
        os.close(fd)
    wings: tuple[str, ...] = ()
    written = day or datetime.fromtimestamp(st.st_mtime).date().isoformat()
    if kind == FileKind.JOURNAL:
        docs, day, wings = _parse_journal(data, day)
    elif kind == FileKind.ARCHIVE:
        docs, day, wings = _parse_archive(data.decode("utf-8", "replace"), day)
    elif kind == FileKind.SUPERSEDED:
        docs = _parse_superseded(data, written)
    else:
        docs = _parse_memories(data, written)
    return ParsedFile(docs, day, st.st_size, st.st_mtime_ns, wings)


class Listing(NamedTuple):
    """What a look at sessions/ found, by file name: each file whose stamp is not the index's (new, or another
    version), those the index holds that are gone, the hot ones, and how many files it went through."""

    changed: dict[str, Stamp]
    gone: list[str]
    hot: list[str]
    looked_at: int


def stat_folder(folder: Path, known: Snapshot, every: bool, now: float) -> Listing:
    """The session files in folder compared with the index's stamps (`known`): one listing, and a stat (by
    name in the open folder) of every archive, and of every journal if `every`, else of the journals that may
    have changed: new, growing by the index's stamps (not quiet: see scan_state.growing), or whose archive
    changed. A journal is palace's append-only record of a session: it grows only while the session runs; an
    old one rewritten by hand is seen at the next look at `every` file.

    Hot: written in the last HOT_SECONDS, or a growing journal. A name the index knows is not classified
    again. A folder that does not exist has no files; one that cannot be listed raises OSError."""
    try:
        names = os.listdir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return Listing({}, list(known.sessions), [], 0)
    recent = recent_ns(now)
    look = _Look(os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)), known.sessions)
    try:
        journals = set()
        held = known.sessions
        seen = 0  # names the index holds: when all are here, none is gone
        for name in names:
            if name.endswith(".jsonl"):
                journals.add(name)
            elif name in held:
                seen += 1
                look.stat(name)
            elif classify(name) is not None:
                look.stat(name)
        seen += len(journals) - len(journals - held.keys())
        gone = held.keys() - set(names) if seen < len(held) else set()
        hot = [name for name, (_size, mtime) in look.stamps.items() if mtime > recent]
        archives = [name for name in (*look.changed, *gone, *look.failed) if name.endswith(".md")]
        look_at = journals if every else (journals - known.quiet) | (journals & _journals_of(archives))
        for name in look_at:
            if name in known.sessions or classify(name) is not None:
                stamp = look.stat(name)
                if stamp is not None and growing(stamp, look.stamps.get(_archive_of(name)), recent):
                    hot.append(name)
    finally:
        os.close(look.fd)
    gone.update(name for name in look.failed if name in known.sessions)
    return Listing(look.changed, sorted(gone), hot, len(look.stamps) + len(journals) - len(look_at))


def _archive_of(journal: str) -> str:
    return journal.removesuffix(".jsonl") + ".md"


def _journals_of(archives: Iterable[str]) -> set[str]:
    return {archive.removesuffix(".md") + ".jsonl" for archive in archives}


class _Look:
    """The stat'ing of stat_folder, by name in the open folder: the stamps found, those not as indexed."""

    def __init__(self, fd: int, known: Mapping[str, Stamp]) -> None:
        self.fd, self.known = fd, known
        self.stamps: dict[str, Stamp] = {}
        self.changed: dict[str, Stamp] = {}
        self.failed: list[str] = []  # listed, but gone meanwhile or not a regular file

    def stat(self, name: str) -> Stamp | None:
        try:
            st = os.stat(name, dir_fd=self.fd)
        except OSError:
            st = None
        if st is None or not stat.S_ISREG(st.st_mode):
            self.failed.append(name)
            return None
        self.stamps[name] = stamp = (st.st_size, st.st_mtime_ns)
        if stamp != self.known.get(name):
            self.changed[name] = stamp
        return stamp


_CLASSIFIED: dict[str, SessionName | None] = {}


def classify(name: str) -> SessionName | None:
    """What a file name under sessions/ says, or None for files recall ignores."""
    if name in _CLASSIFIED:
        return _CLASSIFIED[name]
    result = None
    named = session_file(name)
    if named is not None:
        kind = FileKind.JOURNAL if named.kind == "journal" else FileKind.ARCHIVE
        result = SessionName(kind, named.session_id, named.day)
    if len(_CLASSIFIED) < 1_000_000:
        _CLASSIFIED[name] = result
    return result
