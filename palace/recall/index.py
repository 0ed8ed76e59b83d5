"""The recall index: the SQLite connection, corruption and busy handling, catching up with the files."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Callable, Collection, Iterable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from palace import session_notes as changes
from palace.errors import RecallError
from palace.memory.reuse import ReuseCounts
from palace.paths import MEMORIES, SUPERSEDED, PalacePaths
from palace.recall import rank, scan_state
from palace.recall.rank import RecallHit
from palace.recall.scan_state import SESSIONS_DIR, RefreshStats, Stamp
from palace.recall.schema import SCHEMA, TABLES, chunks, index_version
from palace.recall.scope import Scope
from palace.recall.sources import FileKind, FileMeta, classify, stat_folder
from palace.recall.tuning import DEFAULT, Tuning

BATCH_FILES = 200  # files re-indexed per write transaction (keeps the write lock short)
BUSY_SECONDS = 15.0  # how long a use of the index waits for another process's lock
FULL_SCAN_SECONDS = 600.0  # every session file is re-stat'ed at least this often (in-place edits)

if TYPE_CHECKING:  # imported when there is something to index: an up-to-date first query needs none of it
    from palace.recall.build import Work
    from palace.recall.prepare import PreparedFiles

_T = TypeVar("_T")


_ENTRY_PATHS = {MEMORIES: FileKind.MEMORIES, SUPERSEDED: FileKind.SUPERSEDED}  # stat'ed at every catch-up
_UNSETTLED = -1  # the sessions/ mtime kept when it changed just before the listing: list it again next time


class _Scan(NamedTuple):
    """What a catch-up found: the files whose stamp is not the index's, the indexed ones that are gone."""

    changed: dict[str, Stamp]  # rel path -> the stamp found
    gone: list[str]
    looked_at: int  # files looked at
    full: bool  # every session file was stat'ed
    snapshot: scan_state.Snapshot | None  # the index's stamps a listing of sessions/ compared with


_CORRUPT_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB (primary result codes)
_BUSY_CODES = {5, 6}  # SQLITE_BUSY, SQLITE_LOCKED


def _is_corruption(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and (code & 0xFF) in _CORRUPT_CODES:
        return True
    text = str(exc).lower()
    return "malformed" in text or "not a database" in text or "vtable constructor failed" in text


def _is_busy(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and (code & 0xFF) in _BUSY_CODES:
        return True
    return "locked" in str(exc).lower() or "busy" in str(exc).lower()


class RecallIndex:
    """Search over `home`'s archives, journals and memories.md; index in home/.index/recall.sqlite3."""

    def __init__(self, home: Path, *, tuning: Tuning = DEFAULT) -> None:
        self.home = Path(home)
        self.tuning = tuning  # how searches rank and pick what they show (the bench passes others in)
        self.path = PalacePaths(self.home).index / "recall.sqlite3"
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self._dir_mtime: int | None = None
        self._hot: list[str] = []
        self._cache = rank.IndexCache()
        self._last_full = 0.0
        self._rebuilt = False
        self._reuse = ReuseCounts(self.home)
        self._reuse_stamp: tuple[int, int] | None = None
        self._reuse_totals: dict[str, int] = {}
        self._state: scan_state.ScanState | None = None  # the scan state as last read or written
        self._notes: str | None = None  # where sessions/'s change notes were followed up to (a Position's text)

    # -- connection ------------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        if self._conn is not None:
            return self._conn
        try:
            return self._open()
        except sqlite3.Error as exc:
            if not _is_corruption(exc):
                raise RecallError(f"the recall index at {self.path} cannot be opened: {exc}") from exc
        self._discard()
        try:
            return self._open()
        except sqlite3.Error as exc:
            raise RecallError(f"the recall index at {self.path} cannot be rebuilt: {exc}") from exc

    def _open(self) -> sqlite3.Connection:
        self._create_file()
        conn = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False)
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
            _enter_wal(conn)
            conn.execute("PRAGMA synchronous = NORMAL")
            if conn.execute("PRAGMA user_version").fetchone()[0] != index_version():
                _rebuild_schema(conn)
            # Reading both tables here makes a damaged file fail now, where it is rebuilt, not mid-search.
            conn.execute("SELECT count(*) FROM file").fetchone()
            conn.execute("SELECT rowid FROM fts WHERE fts MATCH '\"x\"' LIMIT 1").fetchall()
        except BaseException:
            conn.close()
            raise
        self._conn = conn
        return conn

    def _create_file(self) -> None:
        """The index folder (0700) and file (0600), created before SQLite can create them with the umask."""
        folder = self.path.parent
        try:
            if not self.home.exists():
                self.home.mkdir(mode=0o700, parents=True, exist_ok=True)
            folder.mkdir(mode=0o700, exist_ok=True)
            with contextlib.suppress(OSError):
                os.chmod(folder, 0o700)
            fd = os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600)
            os.close(fd)
        except OSError as exc:
            raise RecallError(f"cannot create the recall index at {self.path}: {exc.strerror}") from exc

    def _discard(self) -> None:
        """Drop the index file (it is derived data) so that the next use rebuilds it."""
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
            self._conn = None
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(f"{self.path}{suffix}")
        self._dir_mtime = None
        self._cache.sources.clear()
        self._cache.doc_count = None
        self._rebuilt = True

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                with contextlib.suppress(sqlite3.Error):
                    self._conn.close()
                self._conn = None

    def __enter__(self) -> RecallIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _guard(self, action: str, fn: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run fn(conn); a corrupted index is discarded, rebuilt and the action retried once."""
        for attempt in (0, 1):
            try:
                conn = self._connect()
                if attempt == 1 and action != "refresh":
                    self._refresh(conn)
                return fn(conn)
            except sqlite3.Error as exc:
                if attempt == 0 and _is_corruption(exc):
                    self._discard()
                    continue
                raise RecallError(f"recall {action} failed: {exc}") from exc
        raise AssertionError("unreachable")  # pragma: no cover

    # -- searching -------------------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        limit: int = 5,
        since: date | None = None,
        until: date | None = None,
        exclude: Collection[str] = (),
        wings: Iterable[str] | None = None,
        shown: bool = True,
        catch_up: bool = True,
    ) -> list[RecallHit]:
        """The best `limit` sources (sessions, memory rooms) for query; refreshes the index first.

        `exclude` names sources to leave out (e.g. the live session, whose words the model has); `wings`
        the wings searched besides everything wing-less (None: every wing). Memory entries that were reused
        (recalled, confirmed: .index/reuse.json) rank a little higher. shown=False: the hits without snippet
        or excerpts (to count them); catch_up=False: the index as it is (a search a moment ago caught up)."""
        request = rank.parse_query(query, limit, since, until, exclude, Scope.of(wings), self._uses(), self.tuning)
        with self._lock:
            if catch_up:
                with contextlib.suppress(RecallError):  # a failed catch-up still leaves a usable index
                    self.refresh()
            return self._guard("search", lambda conn: rank.search(conn, request, self._cache, shown=shown))

    def _uses(self) -> dict[str, int]:
        """How often each memory entry was reused (reuse.key_of -> uses), read again only when it changed."""
        try:
            st = os.stat(self._reuse.file)
        except OSError:
            return {}
        stamp = (st.st_size, st.st_mtime_ns)
        if stamp != self._reuse_stamp:
            self._reuse_stamp = stamp
            self._reuse_totals = {key: uses.total for key, uses in self._reuse.load().items() if uses.total}
        return self._reuse_totals

    # -- catching up -----------------------------------------------------------------------------

    def refresh(self) -> RefreshStats:
        """Catch the index up with the files: index new and changed ones, drop deleted ones."""
        with self._lock:
            started = time.perf_counter()
            stats = self._guard("refresh", self._refresh)
            stats.rebuilt, self._rebuilt = self._rebuilt, False
            stats.seconds = time.perf_counter() - started
            return stats

    def _scan(self, conn: sqlite3.Connection) -> _Scan:
        """The files looked at, compared with the index.

        A full scan (first use, then every FULL_SCAN_SECONDS) stats every session file. When sessions/'s
        mtime changed (a file added, removed or renamed into place, or written in place of a removed one)
        it is listed and every archive is stat'ed, and the journals that may have changed (see stat_folder);
        both compare with the snapshot of the index's stamps (scan_state) rather than the file table.
        Otherwise only the hot files (written lately, or a journal still growing) are stat'ed: an old file
        rewritten in place while sessions/ did not change is seen at the next full scan."""
        sessions = PalacePaths(self.home).sessions
        read_at = time.time_ns()
        try:
            dir_mtime: int | None = sessions.stat().st_mtime_ns
        except OSError:
            dir_mtime = None
        now = time.time()
        full = self._dir_mtime is None or now - self._last_full > FULL_SCAN_SECONDS
        followed = None
        if not full and dir_mtime is not None and self._dir_mtime != _UNSETTLED:
            followed = changes.follow(self.home, changes.Position.parse(self._notes), dir_mtime)
        if full or (followed is None and dir_mtime != self._dir_mtime):
            # Read the directory's mtime before listing it: a file added meanwhile changes it again, unless it
            # lands in the same tick as a change just before the listing; then the next catch-up lists again.
            # The notes' end is read first too: a change noted meanwhile is followed again (a stat).
            notes = changes.position(self.home, dir_mtime) if dir_mtime is not None else None
            settled = dir_mtime is None or scan_state.settled(dir_mtime, read_at)
            self._dir_mtime = dir_mtime if settled else _UNSETTLED
            self._notes = notes.text() if notes is not None else None
            return self._list(conn, sessions, full, now)
        noted: list[str] = []
        if followed is not None:  # sessions/ changed only as palace noted: the files it named are stat'ed
            self._dir_mtime, self._notes = dir_mtime, followed.position.text()
            noted = _noted_paths(followed.names)
        found = _stat_files(self.home, [*self._hot, *noted, *_ENTRY_PATHS])
        self._hot = [rel for rel in dict.fromkeys([*self._hot, *noted]) if rel in found]
        known = _indexed_stamps(conn, {*self._hot, *noted, *_ENTRY_PATHS})
        changed = {rel: stamp for rel, stamp in found.items() if known.get(rel) != stamp}
        return _Scan(changed, [rel for rel in known if rel not in found], len(found), False, None)

    def _list(self, conn: sqlite3.Connection, sessions: Path, full: bool, now: float) -> _Scan:
        """List sessions/ and stat its files (every one for a full scan), and the entry files."""
        snapshot = scan_state.indexed(conn)
        try:
            listing = stat_folder(sessions, snapshot, full, now)
        except OSError as exc:
            self._dir_mtime = None
            raise RecallError(f"cannot list {sessions}: {exc.strerror}") from exc
        if full:
            self._last_full = now
        self._hot = sorted(SESSIONS_DIR + name for name in listing.hot)
        self._cache.sources.clear()  # cheap to refill; keeps the cache honest after another's rebuild
        changed = {SESSIONS_DIR + name: stamp for name, stamp in listing.changed.items()}
        gone = [SESSIONS_DIR + name for name in listing.gone]
        entries = _stat_files(self.home, _ENTRY_PATHS)
        changed.update((rel, stamp) for rel, stamp in entries.items() if snapshot.others.get(rel) != stamp)
        gone += [rel for rel in snapshot.others if rel not in entries]
        return _Scan(changed, gone, listing.looked_at + len(entries), full, snapshot)

    def _refresh(self, conn: sqlite3.Connection) -> RefreshStats:
        stats = RefreshStats()
        if self._dir_mtime is None:
            self._resume(conn)
        scan = self._scan(conn)
        stats.full_scan = scan.full
        # In name order, the entry files last: file ids, and so ties in the shortlist, do not vary by run.
        todo = sorted(scan.changed, key=lambda rel: (rel in _ENTRY_PATHS, rel))
        stats.unchanged = scan.looked_at - len(todo)
        work: Work = [(rel, m) for rel in todo if (m := _meta(rel, scan.changed[rel]))]
        work += [(rel, None) for rel in sorted(scan.gone)]
        if work:
            self._write_all(conn, work, len(todo), stats)
            self._cache.doc_count = None
        if not stats.busy:
            self._keep_state(conn)
            if scan.snapshot is not None:
                scan_state.keep_snapshot(conn, scan.snapshot)
        return stats

    def _resume(self, conn: sqlite3.Connection) -> None:
        """A new process takes up the scan state an earlier one left (sessions/'s mtime then, the last full
        scan, the hot files) while it holds: the same index and a full scan less than FULL_SCAN_SECONDS ago.
        Its first search then stats the hot files, or if sessions/ changed since, lists it (see _scan)."""
        state = scan_state.read(conn)
        if state is not None and time.time() - state.last_full <= FULL_SCAN_SECONDS:
            self._dir_mtime, self._last_full, self._hot = state.dir_mtime, state.last_full, list(state.hot)
            self._notes, self._state = state.notes, state

    def _keep_state(self, conn: sqlite3.Connection) -> None:
        """Record the scan state for the next process (when it changed)."""
        if self._dir_mtime is not None:
            state = scan_state.keep(conn, self._state, self._dir_mtime, self._last_full, self._hot, self._notes)
            self._state = state

    def _write_all(self, conn: sqlite3.Connection, work: Work, reads: int, stats: RefreshStats) -> None:
        """Index the work in batches, the files read ahead of the writer (in worker processes for many)."""
        from palace.recall import pool

        batches = [work[i : i + BATCH_FILES] for i in range(0, len(work), BATCH_FILES)]
        with contextlib.closing(pool.prepared(self.home, batches, reads)) as ready:
            for batch, prepared in zip(batches, ready, strict=True):
                if not self._write(conn, batch, stats, prepared):
                    break

    def _write(
        self,
        conn: sqlite3.Connection,
        batch: Work,
        stats: RefreshStats,
        ready: PreparedFiles | None,
    ) -> bool:
        """Re-index (meta) or drop (None) a batch of files in one transaction; False if another process
        holds the write lock (it is catching up: search what is there)."""
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if _is_busy(exc):
                stats.busy = True
                self._dir_mtime = None
                return False
            raise
        from palace.recall.build import write_batch
        from palace.recall.prepare import prepare_many

        try:
            if ready is None:  # read here, inside the transaction
                ready = prepare_many(self.home, [(rel, meta) for rel, meta in batch if meta is not None])
            write_batch(conn, batch, ready, stats, self._cache.sources)
            conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            self._dir_mtime = None
            raise
        return True


def _enter_wal(conn: sqlite3.Connection) -> None:
    """Put the index in WAL mode, waiting while another connection holds a lock: SQLite fails the switch at
    once rather than calling the busy handler, which made a new index opened by two palaces at once (a REPL's
    warm-up and `palace recall`, say) fail one of them and leave it searching a half-built index."""
    deadline = time.monotonic() + BUSY_SECONDS
    pause = 0.002
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc) or time.monotonic() > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.05)


def _rebuild_schema(conn: sqlite3.Connection) -> None:
    """Replace the tables of an index of another format (or a new, empty file) with empty current ones."""
    expected = index_version()
    conn.execute("BEGIN IMMEDIATE")
    try:
        if conn.execute("PRAGMA user_version").fetchone()[0] != expected:  # not rebuilt by another process
            for table in (*TABLES, *scan_state.TABLES):  # the file table first: its triggers go with it
                conn.execute(f"DROP TABLE IF EXISTS {table}")
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            # File ids (and so document rowids) of a rebuilt index never repeat earlier ones, so that an
            # id cached by a process that still has the old index open stays unique.
            conn.execute("DELETE FROM sqlite_sequence WHERE name = 'file'")
            conn.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('file', ?)", (int(time.time() * 1000),))
            conn.execute(f"PRAGMA user_version = {expected}")
        conn.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise


def _stat_files(home: Path, rels: Iterable[str]) -> dict[str, Stamp]:
    """rel path -> stamp of each regular file at rels (files gone meanwhile left out)."""
    found: dict[str, Stamp] = {}
    base = os.fspath(home) + os.sep  # plain strings: a Path per file costs more than its stat
    for rel in rels:
        try:
            st = os.stat(base + rel)
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode):
            found[rel] = (st.st_size, st.st_mtime_ns)
    return found


def _noted_paths(names: Iterable[str]) -> list[str]:
    """The rel paths of the session files noted changing, each with its companion (an archive's journal
    gets its end mark as the archive is written; a journal's archive may have been removed with it)."""
    paths: dict[str, None] = {}
    for name in names:
        session = classify(name)
        if session is not None:
            paths[SESSIONS_DIR + session.source + ".jsonl"] = None
            paths[SESSIONS_DIR + session.source + ".md"] = None
    return list(paths)


def _meta(rel: str, stamp: Stamp) -> FileMeta | None:
    """What the file at rel is, with its stamp; None for a name recall ignores."""
    if rel in _ENTRY_PATHS:
        return FileMeta(_ENTRY_PATHS[rel], rel, "", *stamp)
    name = classify(rel[len(SESSIONS_DIR) :]) if rel.startswith(SESSIONS_DIR) else None
    return None if name is None else FileMeta(name.kind, name.source, name.day, *stamp)


def _indexed_stamps(conn: sqlite3.Connection, paths: set[str] | None) -> dict[str, tuple[int, int]]:
    """rel path -> (size, mtime_ns) of the indexed files among paths (None: all of them)."""
    if paths is None:
        rows = conn.execute("SELECT path, size, mtime_ns FROM file").fetchall()
    else:
        rows = []
        for chunk, marks in chunks(sorted(paths)):
            rows += conn.execute(f"SELECT path, size, mtime_ns FROM file WHERE path IN ({marks})", chunk).fetchall()
    return {rel: (size, mtime) for rel, size, mtime in rows}
