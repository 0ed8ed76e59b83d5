"""What a recall catch-up leaves in the index for the next one (see RecallIndex._resume and _scan).

The scan state, one row: sessions/'s mtime at the last catch-up, when every session file was last stat'ed,
and the files that may change in place (the hot ones). `generation`, the index's lowest file id, ties it to
one build of the index: a rebuilt index numbers its files anew, so a state left for another build is never
taken up.

The stamps snapshot: the (size, mtime_ns) the index holds for each file, and which journals are quiet by
them (their session archived: see growing), in three blobs, so that a look at sessions/ after it changed
compares each file's stat with it instead of reading the whole file table, and knows which journals need no
stat. It is kept exact by triggers on the file table, which name every path inserted, updated or deleted
since the snapshot in scan_dirty (in the writer's own transaction: a writer that dies, or an older palace
that knows nothing of the snapshot, still leaves it exact); those paths are read from the file table.
"""

from __future__ import annotations

import contextlib
import sqlite3
import sys
import time
import zlib
from array import array
from collections.abc import Iterator
from typing import NamedTuple

from palace.recall.schema import chunks
from palace.record import record

SESSIONS_DIR = "sessions/"  # rel paths of session files start with this
HOT_SECONDS = 2 * 86400  # session files written this recently are stat'ed at every use
SETTLED_NS = 2_000_000_000  # a folder's mtime older than this will not change again within its granularity
DIRTY_LIMIT = 1000  # paths changed since the snapshot beyond which a full scan takes a new one
TABLES = ("scan_dirty", "scan_stamps", "scan_state")  # dropped with the index's tables when it is rebuilt

Stamp = tuple[int, int]  # (size, mtime_ns): how a file's version is told apart

_STATE = """CREATE TABLE IF NOT EXISTS scan_state (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    generation INTEGER,
    dir_mtime INTEGER NOT NULL,
    last_full REAL NOT NULL,
    hot TEXT NOT NULL,
    notes TEXT
)"""
_COLUMNS = "id, generation, dir_mtime, last_full, hot, notes"
_STAMPS = """CREATE TABLE IF NOT EXISTS scan_stamps (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    paths BLOB NOT NULL,
    sizes BLOB NOT NULL,
    mtimes BLOB NOT NULL
)"""
_DIRTY = "CREATE TABLE IF NOT EXISTS scan_dirty (path TEXT PRIMARY KEY) WITHOUT ROWID"
_MARK = "INSERT OR IGNORE INTO scan_dirty (path) VALUES"
_TRIGGERS = {  # dropped with the file table, so a snapshot is trusted only while all three exist
    "scan_file_added": f"AFTER INSERT ON file BEGIN {_MARK} (new.path); END",
    "scan_file_changed": f"AFTER UPDATE OF path, size, mtime_ns ON file BEGIN {_MARK} (old.path), (new.path); END",
    "scan_file_removed": f"AFTER DELETE ON file BEGIN {_MARK} (old.path); END",
}


@record
class RefreshStats:
    """What one catch-up did. `busy`: another process held the index; the search used it as it was."""

    added: int = 0
    changed: int = 0
    removed: int = 0
    unchanged: int = 0
    full_scan: bool = False
    busy: bool = False
    rebuilt: bool = False
    seconds: float = 0.0


class ScanState(NamedTuple):
    """What the last catch-up knew: sessions/'s mtime then, when every file was last stat'ed, the hot files."""

    generation: int | None
    dir_mtime: int  # -1: sessions/ had changed just before it was listed, so it is listed again
    last_full: float
    hot: tuple[str, ...]
    notes: str | None = None  # where the change notes were read up to (session_notes.py Position)


class Snapshot(NamedTuple):
    """The index's stamps: of each file in sessions/ (by name) and of the others (by rel path); and the
    journals in sessions/ that are not growing by these stamps (see growing)."""

    sessions: dict[str, Stamp]
    others: dict[str, Stamp]
    quiet: set[str]
    dirty: int  # paths read from the file table since the snapshot; -1: all of it (no snapshot to trust)


def recent_ns(now: float) -> int:
    """The mtime (ns) after which a file counts as written lately (HOT_SECONDS before now)."""
    return int((now - HOT_SECONDS) * 1e9)


def growing(journal: Stamp, archive: Stamp | None, recent: int) -> bool:
    """May a journal at this stamp still grow: written lately, or without an archive or newer than it (a live
    or resumed session)? A journal that is not (its session archived since) changes only by hand."""
    return journal[1] > recent or archive is None or journal[1] > archive[1]


def settled(dir_mtime: int, read_at_ns: int) -> bool:
    """Has a folder whose mtime was read at read_at_ns stopped changing within its mtime's granularity? A
    listing taken right after a change could miss a file added within the same tick (it leaves the same mtime)."""
    return read_at_ns - dir_mtime > SETTLED_NS


def generation(conn: sqlite3.Connection) -> int | None:
    row = conn.execute("SELECT min(id) FROM file").fetchone()
    return None if row is None or row[0] is None else int(row[0])


def read(conn: sqlite3.Connection) -> ScanState | None:
    """The scan state an earlier process left for this index, or None (none, or of another build)."""
    try:
        row = conn.execute(
            "SELECT generation, dir_mtime, last_full, hot, notes FROM scan_state WHERE id = 1"
        ).fetchone()
    except sqlite3.OperationalError:
        try:  # a state an older palace created, without the notes column
            row = conn.execute(
                "SELECT generation, dir_mtime, last_full, hot, NULL FROM scan_state WHERE id = 1"
            ).fetchone()
        except sqlite3.OperationalError:
            return None  # no state kept yet
    if row is None or row[0] != generation(conn):
        return None
    hot = tuple(rel for rel in str(row[3]).split("\n") if rel)
    return ScanState(row[0], int(row[1]), float(row[2]), hot, None if row[4] is None else str(row[4]))


def keep(
    conn: sqlite3.Connection,
    known: ScanState | None,
    dir_mtime: int,
    last_full: float,
    hot: list[str],
    notes: str | None = None,
) -> ScanState | None:
    """Write the state when it differs from `known` (what was last read or written); the state as it now
    stands in the index. Never worth a failed search: a write that fails is left for the next catch-up.
    An older palace writing the state leaves `notes` empty, so that its catch-ups are never taken for noted."""
    state = ScanState(generation(conn), dir_mtime, last_full, tuple(hot), notes)
    if state == known:
        return known
    values = (state.generation, state.dir_mtime, state.last_full, "\n".join(state.hot), state.notes)
    with contextlib.suppress(sqlite3.Error):
        conn.execute(_STATE)
        with contextlib.suppress(sqlite3.OperationalError):
            conn.execute(f"INSERT OR REPLACE INTO scan_state ({_COLUMNS}) VALUES (1, ?, ?, ?, ?, ?)", values)
            return state
        conn.execute("ALTER TABLE scan_state ADD COLUMN notes TEXT")  # a table an older palace created
        conn.execute(f"INSERT OR REPLACE INTO scan_state ({_COLUMNS}) VALUES (1, ?, ?, ?, ?, ?)", values)
        return state
    return known


# -- the stamps snapshot ---------------------------------------------------------------------------


def indexed(conn: sqlite3.Connection) -> Snapshot:
    """The index's stamps: from the snapshot and the paths changed since (one read transaction), or from the
    file table when there is no snapshot to trust."""
    with contextlib.suppress(sqlite3.OperationalError), _transaction(conn, "BEGIN"):  # no such table: none
        current = _current(conn)
        if current is not None:
            return current
    return _split(_file_table(conn), -1)


def keep_snapshot(conn: sqlite3.Connection, last: Snapshot) -> None:
    """Take a new snapshot when there was none to trust (`last`, read by this catch-up) or many paths changed
    since; written under the write lock from what the index then holds. A failed write is left for later."""
    if 0 <= last.dirty <= DIRTY_LIMIT:
        return
    with contextlib.suppress(sqlite3.Error), _transaction(conn, "BEGIN IMMEDIATE"):
        conn.execute(_STAMPS)
        conn.execute(_DIRTY)
        current = _current(conn)
        blobs = _encode(current if current is not None else _split(_file_table(conn), -1))
        if blobs is None:
            return
        conn.execute("INSERT OR REPLACE INTO scan_stamps (id, paths, sizes, mtimes) VALUES (1, ?, ?, ?)", blobs)
        conn.execute("DELETE FROM scan_dirty")
        for name, body in _TRIGGERS.items():
            conn.execute(f"CREATE TRIGGER IF NOT EXISTS {name} {body}")


@contextlib.contextmanager
def _transaction(conn: sqlite3.Connection, begin: str) -> Iterator[None]:
    conn.execute(begin)
    try:
        yield
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    if conn.in_transaction:
        conn.execute("COMMIT")


def _has_triggers(conn: sqlite3.Connection) -> bool:
    names = list(_TRIGGERS)
    marks = ",".join("?" * len(names))
    row = conn.execute(f"SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name IN ({marks})", names)
    return int(row.fetchone()[0]) == len(names)


def _current(conn: sqlite3.Connection) -> Snapshot | None:
    """The snapshot with the paths changed since read from the file table (inside a transaction)."""
    if not _has_triggers(conn):
        return None
    row = conn.execute("SELECT paths, sizes, mtimes FROM scan_stamps WHERE id = 1").fetchone()
    current = _decode(row) if row is not None else None
    if current is None:
        return None
    dirty = [str(path) for (path,) in conn.execute("SELECT path FROM scan_dirty")]
    fresh: dict[str, Stamp] = {}
    for chunk, marks in chunks(dirty):
        rows = conn.execute(f"SELECT path, size, mtime_ns FROM file WHERE path IN ({marks})", chunk)
        fresh.update((path, (size, mtime)) for path, size, mtime in rows)
    for path in dirty:
        session = path.startswith(SESSIONS_DIR)
        held, key = (current.sessions, path[len(SESSIONS_DIR) :]) if session else (current.others, path)
        held.pop(key, None)
        if path in fresh:
            held[key] = fresh[path]
        if session:  # a journal changed, or its archive: it is stat'ed until the next snapshot
            current.quiet.discard(key.removesuffix(".md") + ".jsonl" if key.endswith(".md") else key)
    return current._replace(dirty=len(dirty))


def _file_table(conn: sqlite3.Connection) -> dict[str, Stamp]:
    return {path: (size, mtime) for path, size, mtime in conn.execute("SELECT path, size, mtime_ns FROM file")}


def _split(stamps: dict[str, Stamp], dirty: int) -> Snapshot:
    """Stamps by rel path as a Snapshot: the files in sessions/ by name, the others by path."""
    sessions: dict[str, Stamp] = {}
    others: dict[str, Stamp] = {}
    for path, stamp in stamps.items():
        if path.startswith(SESSIONS_DIR):
            sessions[path[len(SESSIONS_DIR) :]] = stamp
        else:
            others[path] = stamp
    recent = recent_ns(time.time())
    quiet = {
        name
        for name, stamp in sessions.items()
        if name.endswith(".jsonl") and not growing(stamp, sessions.get(name.removesuffix(".jsonl") + ".md"), recent)
    }
    return Snapshot(sessions, others, quiet, dirty)


def _packed(values: list[int]) -> bytes:
    numbers = array("q", values)
    if sys.byteorder == "big":  # stored little-endian, whatever machine wrote the index
        numbers.byteswap()
    return zlib.compress(numbers.tobytes(), 1)


def _unpacked(blob: bytes) -> array[int]:
    numbers = array("q")
    numbers.frombytes(zlib.decompress(blob))
    if sys.byteorder == "big":
        numbers.byteswap()
    return numbers


def _encode(snapshot: Snapshot) -> tuple[bytes, bytes, bytes] | None:
    """The three blobs of a snapshot: its paths one a line (after a line of two counts: of the names in
    sessions/, and of the quiet journals), the names in sessions/ first, then the other paths, then the
    quiet journals; the sizes and mtimes of the first two; None if a path cannot be stored one a line."""
    names, others, quiet = sorted(snapshot.sessions), sorted(snapshot.others), sorted(snapshot.quiet)
    paths = [f"{len(names)} {len(quiet)}", *names, *others, *quiet]
    if any("\n" in path for path in paths):
        return None
    try:
        text = "\n".join(paths).encode("utf-8")
    except UnicodeError:
        return None
    stamps = [snapshot.sessions[name] for name in names] + [snapshot.others[path] for path in others]
    sizes, mtimes = _packed([size for size, _ in stamps]), _packed([mtime for _, mtime in stamps])
    return zlib.compress(text, 1), sizes, mtimes


def _decode(row: tuple[bytes, bytes, bytes]) -> Snapshot | None:
    """The stamps a snapshot's blobs hold; None if they do not read back (damaged, or of another format)."""
    try:
        head, *paths = zlib.decompress(row[0]).decode("utf-8").split("\n")
        count, quiet = (int(n) for n in head.split(" "))
        sizes, mtimes = _unpacked(row[1]), _unpacked(row[2])
    except (zlib.error, UnicodeError, ValueError, TypeError):
        return None
    stamped = len(paths) - quiet
    if not 0 <= count <= stamped == len(sizes) == len(mtimes):
        return None
    sessions = dict(zip(paths[:count], zip(sizes[:count], mtimes[:count], strict=True), strict=True))
    others = dict(zip(paths[count:stamped], zip(sizes[count:], mtimes[count:], strict=True), strict=True))
    return Snapshot(sessions, others, set(paths[stamped:]), 0)
