"""The recall index: the SQLite FTS5 schema, catching up with the files, search and ranking."""

from __future__ import annotations

import contextlib
import math
import os
import sqlite3
import stat
import threading
import time
import zlib
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import TypeVar

from palace.errors import RecallError
from palace.memory.secrets import SECRET_KINDS
from palace.paths import MEMORIES, PalacePaths
from palace.recall.sources import Found, classify, hot_files, read_file
from palace.recall.text import QueryTerm, match_expression, query_terms, snippet, tokenize

SCHEMA_VERSION = 4  # bump when the tables or the tokenizer change: older index files are rebuilt
MAX_LIMIT = 20
MAX_QUERY_CHARS = 1000
TERM_ROW_LIMIT = 30_000  # a term in more documents than this only counts for the shortlisted ones
SHORTLIST = 2  # sessions scored exactly per requested result (at least MIN_SHORTLIST)
MIN_SHORTLIST = 10
DOC_BITS = 20  # a document's rowid is its file's id << DOC_BITS | its number in the file
BATCH_FILES = 200  # files re-indexed per write transaction (keeps the write lock short)
FULL_SCAN_SECONDS = 600.0  # every session file is re-stat'ed at least this often (in-place edits)

# Relative weight of a document by kind before aggregation.
_KIND_WEIGHT = {"summary": 1.6, "user": 1.0, "assistant": 0.9}
_MEMORY_WEIGHT = 1.0
_DECAY = 0.15  # weight of the n-th best document of a session: _DECAY ** n (0.5 and 0.3 ranked worse)
_MAX_DOCS_PER_SOURCE = 6
_K1, _B = 1.2, 0.75  # BM25 term-frequency saturation and length normalisation
_COVERAGE_FLOOR = 0.2  # score factor (squared) of a source covering almost none of the query
_RECENCY = 0.02  # at most +2% for today's sessions, fading over months

_T = TypeVar("_T")


@dataclass
class RecallHit:
    """One result: the best matching text of one session (or one memory room)."""

    source: str  # session id like "2026-11-30-a1b2c3d4", or "memories.md"
    date: str  # "YYYY-MM-DD"
    snippet: str  # best matching text, secrets redacted, shortened around the match
    score: float
    where: str  # "summary" | "message (user)" | "message (assistant)" | "memory Preferences/x"


@dataclass
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


def _where(kind: str) -> str:
    if kind.startswith("memory:"):
        return "memory " + kind[len("memory:") :]
    if kind == "summary":
        return "summary"
    return f"message ({kind})"


def neg_date(day: str) -> int:
    """Sort key of a YYYY-MM-DD date, newest first (0 for a malformed date)."""
    try:
        return -date.fromisoformat(day).toordinal()
    except ValueError:
        return 0


_SCHEMA = """
CREATE TABLE IF NOT EXISTS file (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    path TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    source TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS file_source ON file(source);
CREATE TABLE IF NOT EXISTS doc (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL,
    source TEXT NOT NULL,
    date TEXT NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    terms TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS doc_file ON doc(file_id);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
    terms, content = 'doc', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 0'
);
CREATE VIRTUAL TABLE IF NOT EXISTS fts_vocab USING fts5vocab(fts, row);
"""


def _index_version() -> int:
    """The index format: the schema version and the secret patterns its text was redacted with. When
    either changes, the index is rebuilt, so it never keeps a secret that redact() now recognises."""
    fingerprint = f"{SCHEMA_VERSION}|" + "|".join(kind.pattern.pattern for kind in SECRET_KINDS)
    return zlib.crc32(fingerprint.encode("utf-8")) & 0x7FFFFFFF or 1


_CORRUPT_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB (primary result codes)


def _is_corruption(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and (code & 0xFF) in _CORRUPT_CODES:
        return True
    text = str(exc).lower()
    return "malformed" in text or "not a database" in text or "vtable constructor failed" in text


def _is_busy(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and (code & 0xFF) in {5, 6}:  # SQLITE_BUSY, SQLITE_LOCKED
        return True
    return "locked" in str(exc).lower() or "busy" in str(exc).lower()


@dataclass
class _Group:
    """The candidate documents of one source (a session, or one memory room) during a search."""

    source: str
    scores: list[float]
    mask: int  # bit i: the query's i-th term occurs in some document of the source
    best: float
    rowid: int  # the best document
    kind: str
    date: str
    best_mask: int


class RecallIndex:
    """Search over `home`'s archives, journals and memories.md; index in home/.index/recall.sqlite3."""

    def __init__(self, home: Path) -> None:
        self.home = Path(home)
        self.path = PalacePaths(self.home).index / "recall.sqlite3"
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self._dir_mtime: int | None = None
        self._hot: list[str] = []
        self._names: dict[str, int] = {}
        self._files: dict[int, tuple[str, str]] = {}  # file id -> (source, kind)
        self._last_full = 0.0
        self._doc_count: int | None = None
        self._rebuilt = False

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
        conn = sqlite3.connect(self.path, timeout=15.0, isolation_level=None, check_same_thread=False)
        try:
            conn.execute("PRAGMA busy_timeout = 15000")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            expected = _index_version()
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version != expected:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    version = conn.execute("PRAGMA user_version").fetchone()[0]
                    if version != expected:
                        for table in ("fts_vocab", "fts", "doc", "file"):
                            conn.execute(f"DROP TABLE IF EXISTS {table}")
                        for statement in _SCHEMA.split(";"):
                            if statement.strip():
                                conn.execute(statement)
                        # File ids (and so document rowids) of a rebuilt index never repeat earlier ones,
                        # so that an id cached by a process that still has the old index open stays unique.
                        conn.execute("DELETE FROM sqlite_sequence WHERE name = 'file'")
                        conn.execute(
                            "INSERT INTO sqlite_sequence (name, seq) VALUES ('file', ?)", (int(time.time() * 1000),)
                        )
                        conn.execute(f"PRAGMA user_version = {expected}")
                    conn.execute("COMMIT")
                except BaseException:
                    with contextlib.suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                    raise
            conn.execute("SELECT count(*) FROM file").fetchone()
            conn.execute("SELECT rowid FROM fts WHERE fts MATCH '\"x\"' LIMIT 1").fetchall()
        except BaseException:
            conn.close()
            raise
        self._conn = conn
        return conn

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
        self._doc_count = None
        self._files.clear()
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

    # -- catching up -----------------------------------------------------------------------------

    def refresh(self) -> RefreshStats:
        """Catch the index up with the files: index new and changed ones, drop deleted ones."""
        with self._lock:
            started = time.perf_counter()
            stats = self._guard("refresh", self._refresh)
            stats.rebuilt, self._rebuilt = self._rebuilt, False
            stats.seconds = time.perf_counter() - started
            return stats

    def _scan(self, conn: sqlite3.Connection) -> tuple[Found, set[str] | None]:
        """The files to compare with the table: rel path -> (kind, source, date, size, mtime_ns), and
        the set of paths looked at (None: a full scan, every indexed file was looked at).

        A full scan stats every session file (first use, then every FULL_SCAN_SECONDS). Otherwise a
        changed directory mtime (a file added, removed or renamed into place) costs a listing of names
        and inodes and a stat of the new or replaced ones, and the files that may change in place (see
        hot_files) are stat'ed at every use. An old, not hot file rewritten in place (same inode) is
        seen at the next full scan."""
        del conn  # the scan looks at the files only; _refresh compares with the table
        sessions = PalacePaths(self.home).sessions
        try:
            dir_mtime: int | None = sessions.stat().st_mtime_ns
        except OSError:
            dir_mtime = None
        now = time.time()
        full = self._dir_mtime is None or now - self._last_full > FULL_SCAN_SECONDS
        found: Found = {}
        checked: set[str] | None = None
        if full or dir_mtime != self._dir_mtime:
            # Read the directory's mtime before listing it: a file added meanwhile changes it again.
            self._dir_mtime = dir_mtime
            names: dict[str, int] = {}  # rel path -> inode (from the directory entry: no stat needed)
            with contextlib.suppress(OSError), os.scandir(sessions) as entries:
                for entry in entries:
                    if classify(entry.name) is not None:
                        names["sessions/" + entry.name] = entry.inode()
            if full:
                self._last_full = now
                to_stat = set(names)
            else:
                # Added, removed, and replaced (renamed into place: a new inode) files, and the hot ones.
                changed = {rel for rel, inode in names.items() if self._names.get(rel) != inode}
                checked = changed | (self._names.keys() - names.keys()) | set(self._hot)
                to_stat = checked & names.keys()
            self._names = names
        else:
            checked = set(self._hot)
            to_stat = checked
        for rel in to_stat:
            kind = classify(rel[len("sessions/") :])
            if kind is None:
                continue
            try:
                st = os.stat(self.home / rel)
            except OSError:
                continue  # gone meanwhile
            if stat.S_ISREG(st.st_mode):
                found[rel] = (*kind, st.st_size, st.st_mtime_ns)
        if full:
            self._hot = hot_files(found, now)
            self._files.clear()  # cheap to refill; keeps the cache honest after another process's rebuild
        elif checked:
            self._hot = sorted(set(self._hot) | {rel for rel in checked if rel in found})
        if checked is not None:
            checked.add(MEMORIES)
        try:
            st = os.stat(self.home / MEMORIES)
            found[MEMORIES] = ("memories", MEMORIES, "", st.st_size, st.st_mtime_ns)
        except OSError:
            pass
        return found, checked

    def _refresh(self, conn: sqlite3.Connection) -> RefreshStats:
        stats = RefreshStats()
        found, checked = self._scan(conn)
        stats.full_scan = checked is None
        if checked is None:
            rows = conn.execute("SELECT path, size, mtime_ns FROM file").fetchall()
        else:
            rows = []
            wanted = sorted(checked)
            for start in range(0, len(wanted), 500):
                chunk = wanted[start : start + 500]
                marks = ",".join("?" * len(chunk))
                rows += conn.execute(f"SELECT path, size, mtime_ns FROM file WHERE path IN ({marks})", chunk).fetchall()
        known = {rel: (size, mtime) for rel, size, mtime in rows}
        gone = [rel for rel in known if rel not in found]
        todo = [rel for rel, meta in found.items() if known.get(rel) != (meta[3], meta[4])]
        stats.unchanged = len(found) - len(todo)
        work = [(rel, False) for rel in todo] + [(rel, True) for rel in gone]
        for i in range(0, len(work), BATCH_FILES):
            batch = work[i : i + BATCH_FILES]
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                if _is_busy(exc):  # another process is catching up: search what is there
                    stats.busy = True
                    self._dir_mtime = None
                    break
                raise
            try:
                for rel, deleted in batch:
                    self._apply(conn, rel, None if deleted else found[rel], stats)
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                self._dir_mtime = None
                raise
        if work:
            self._doc_count = None
        return stats

    def _apply(
        self,
        conn: sqlite3.Connection,
        rel: str,
        meta: tuple[str, str, str, int, int] | None,
        stats: RefreshStats,
    ) -> None:
        """Re-index (or drop) one file inside a write transaction, re-checking it against the table."""
        row = conn.execute("SELECT id, size, mtime_ns FROM file WHERE path = ?", (rel,)).fetchone()
        if meta is not None and row is not None and (row[1], row[2]) == (meta[3], meta[4]):
            return  # another process indexed this version meanwhile
        parsed = None
        if meta is not None:
            kind, source, day, _size, _mtime = meta
            parsed = read_file(self.home / rel, kind, day)
        if parsed is not None and row is not None and (row[1], row[2]) == (parsed[1], parsed[2]):
            return  # another process indexed this version meanwhile
        if row is not None:
            file_id = row[0]
            conn.execute(
                "INSERT INTO fts (fts, rowid, terms) SELECT 'delete', id, terms FROM doc WHERE file_id = ?", (file_id,)
            )
            conn.execute("DELETE FROM doc WHERE file_id = ?", (file_id,))
        if parsed is None or meta is None:
            if row is not None:
                conn.execute("DELETE FROM file WHERE id = ?", (row[0],))
                stats.removed += 1
            return
        docs, size, mtime = parsed
        kind, source, _day, _size, _mtime = meta
        if row is None:
            cur = conn.execute(
                "INSERT INTO file (path, kind, source, size, mtime_ns) VALUES (?, ?, ?, ?, ?)",
                (rel, kind, source, size, mtime),
            )
            file_id = int(cur.lastrowid or 0)
            stats.added += 1
        else:
            conn.execute("UPDATE file SET size = ?, mtime_ns = ? WHERE id = ?", (size, mtime, file_id))
            stats.changed += 1
        self._files[file_id] = (source, kind)
        for number, doc in enumerate(docs[: 1 << DOC_BITS]):
            terms = " ".join(tokenize(doc.text))
            if not terms:
                continue
            rowid = file_id << DOC_BITS | number
            conn.execute(
                "INSERT INTO doc (id, file_id, source, date, kind, text, terms) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (rowid, file_id, source, doc.date, doc.kind, doc.text, terms),
            )
            conn.execute("INSERT INTO fts (rowid, terms) VALUES (?, ?)", (rowid, terms))

    # -- searching -------------------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        limit: int = 5,
        since: date | None = None,
        until: date | None = None,
        exclude: Collection[str] = (),
    ) -> list[RecallHit]:
        """The best `limit` sources (sessions, memory rooms) for query; refreshes the index first.

        `exclude` names sources to leave out (e.g. the live session, whose words the model has)."""
        terms = _validate(query, limit, since, until)
        if isinstance(exclude, str):
            exclude = (exclude,)
        with self._lock:
            with contextlib.suppress(RecallError):  # a failed catch-up still leaves a usable index
                self.refresh()
            return self._guard("search", lambda conn: self._search(conn, terms, limit, since, until, set(exclude)))

    def _frequencies(self, conn: sqlite3.Connection, terms: list[QueryTerm]) -> tuple[dict[QueryTerm, int], int]:
        """How many documents hold each term (from the FTS5 vocabulary), and how many there are."""
        if self._doc_count is None:
            self._doc_count = int(conn.execute("SELECT count(*) FROM doc").fetchone()[0])
        total = max(self._doc_count, 1)
        freqs: dict[QueryTerm, int] = {}
        for term in terms:
            if term.prefix:
                row = conn.execute(
                    "SELECT sum(doc) FROM fts_vocab WHERE term >= ? AND term < ?", (term.text, term.text + "\U0010ffff")
                ).fetchone()
            else:
                row = conn.execute("SELECT doc FROM fts_vocab WHERE term = ?", (term.text,)).fetchone()
            freqs[term] = min(int(row[0] or 0), total) if row else 0
        return freqs, total

    def _file_info(self, conn: sqlite3.Connection, ids: Iterable[int]) -> dict[int, tuple[str, str]]:
        """file id -> (source, kind), cached (ids are never reused: the table is AUTOINCREMENT)."""
        missing = [i for i in ids if i not in self._files]
        for start in range(0, len(missing), 500):
            chunk = missing[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for file_id, source, kind in conn.execute(
                f"SELECT id, source, kind FROM file WHERE id IN ({marks})", chunk
            ):
                self._files[file_id] = (source, kind)
        return self._files

    def _search(
        self,
        conn: sqlite3.Connection,
        terms: list[QueryTerm],
        limit: int,
        since: date | None,
        until: date | None,
        exclude: set[str],
    ) -> list[RecallHit]:
        freqs, total = self._frequencies(conn, terms)
        present = [t for t in terms if freqs[t] > 0]
        if not present:
            return []
        # idf weights; a CJK word of n bigrams weighs about as much as one English word.
        sizes: dict[int, int] = {}
        for term in terms:
            sizes[term.group] = sizes.get(term.group, 0) + 1
        weights = {
            t: math.log(1 + (total - freqs[t] + 0.5) / (freqs[t] + 0.5)) / math.sqrt(sizes[t.group]) for t in terms
        }
        bits = {t: 1 << i for i, t in enumerate(present)}
        total_weight = sum(weights.values()) or 1.0
        row = conn.execute("SELECT id FROM file WHERE path = ?", (MEMORIES,)).fetchone()
        memories_id = int(row[0]) if row else None

        # 1. Shortlist session files inside SQLite from the FTS5 posting lists alone (ranking each
        #    matching document with bm25 costs a lookup per document): the idf-weighted share of the
        #    query a file covers; among equals, the most recently indexed. A term in very many documents
        #    is not listed (unless it is the rarest); it still counts when the shortlist is scored.
        listed: list[QueryTerm] = []
        for term in sorted(present, key=lambda t: freqs[t]):
            if listed and freqs[term] > TERM_ROW_LIMIT:
                break
            listed.append(term)
        postings = " UNION ALL ".join(
            "SELECT DISTINCT rowid >> ? AS fid, ? AS w FROM fts WHERE fts MATCH ?" for _t in listed
        )
        params: list[object] = []
        for term in listed:
            params += [DOC_BITS, weights[term], match_expression([term])]
        sql = f"SELECT g.fid, g.cov AS e FROM (SELECT fid, sum(w) AS cov FROM ({postings}) GROUP BY fid) AS g"
        conditions = ["g.fid IS NOT ?"]
        params.append(memories_id)
        if since is not None or until is not None or exclude:
            sql += " JOIN file AS f ON f.id = g.fid"
            if since is not None:
                conditions.append("substr(f.source, 1, 10) >= ?")
                params.append(_day(since).isoformat())
            if until is not None:
                conditions.append("substr(f.source, 1, 10) <= ?")
                params.append(_day(until).isoformat())
            if exclude:
                conditions.append(f"f.source NOT IN ({','.join('?' * len(exclude))})")
                params.extend(sorted(exclude))
        sql += " WHERE " + " AND ".join(conditions) + " ORDER BY e DESC, g.fid DESC LIMIT ?"
        params.append(max(MIN_SHORTLIST, SHORTLIST * limit))
        shortlisted = [file_id for file_id, _estimate in conn.execute(sql, params)]

        # 2. Read every document of the shortlisted sessions (journal and archive), and the memory
        #    entries that hold a query term.
        files = self._file_info(conn, shortlisted)
        names = sorted({files[i][0] for i in shortlisted if i in files})
        rows: list[tuple[int, str, str, str]] = []
        for start in range(0, len(names), 500):
            chunk = names[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows += conn.execute(
                "SELECT d.id, d.date, d.kind, d.terms FROM file AS f JOIN doc AS d ON d.file_id = f.id "
                f"WHERE f.source IN ({marks})",
                chunk,
            ).fetchall()
        if memories_id is not None and MEMORIES not in exclude:
            rows += conn.execute(
                "SELECT id, date, kind, terms FROM doc WHERE id IN "
                "(SELECT rowid FROM fts WHERE fts MATCH ? AND rowid >= ? AND rowid < ?)",
                (match_expression(present), memories_id << DOC_BITS, (memories_id + 1) << DOC_BITS),
            ).fetchall()
        files = self._file_info(conn, {rowid >> DOC_BITS for rowid, *_rest in rows})
        low = _day(since).isoformat() if since is not None else ""
        high = _day(until).isoformat() if until is not None else "9999"

        # 3. Score them exactly: BM25 over every query term (term frequency, length), summaries weighted
        #    up, then per source a diminishing sum of its best documents times its coverage of the query.
        coverage_of: dict[int, float] = {}

        def coverage(mask: int) -> float:
            value = coverage_of.get(mask)
            if value is None:
                covered = sum(weights[t] for t in present if mask & bits[t])
                value = coverage_of[mask] = covered / total_weight
            return value

        needles = [(bits[t], f" {t.text}" if t.prefix else f" {t.text} ", weights[t]) for t in present]
        lengths = [doc_terms.count(" ") + 1 for *_rest, doc_terms in rows]
        average = sum(lengths) / len(lengths) if lengths else 1.0
        groups: dict[str, _Group] = {}
        for (rowid, day, kind, doc_terms), length in zip(rows, lengths, strict=True):
            info = files.get(rowid >> DOC_BITS)
            if info is None or not low <= day <= high:
                continue
            source = info[0]
            padded = f" {doc_terms} "
            norm = _K1 * (1 - _B + _B * length / average)
            mask = 0
            score = 0.0
            for bit, needle, weight in needles:
                tf = padded.count(needle)
                if tf:
                    mask |= bit
                    score += weight * tf * (_K1 + 1) / (tf + norm)
            if not mask:
                continue
            score *= _KIND_WEIGHT.get(kind, _MEMORY_WEIGHT)
            name = f"{source}\0{kind}" if kind.startswith("memory:") else source  # one result per memory room
            group = groups.get(name)
            if group is None:
                groups[name] = _Group(source, [score], mask, score, rowid, kind, day, mask)
            else:
                group.scores.append(score)
                group.mask |= mask
                if score > group.best:
                    group.best, group.rowid, group.kind, group.date, group.best_mask = score, rowid, kind, day, mask
        today = date.today().toordinal()
        ranked: list[tuple[float, int, _Group]] = []
        for group in groups.values():
            scores = sorted(group.scores, reverse=True)[:_MAX_DOCS_PER_SOURCE]
            aggregate = sum(value * _DECAY**i for i, value in enumerate(scores))
            score = aggregate * (_COVERAGE_FLOOR + (1 - _COVERAGE_FLOOR) * coverage(group.mask)) ** 2
            ordinal = -neg_date(group.date)
            age = max(0, today - ordinal) if ordinal else 3650
            score *= 1.0 + _RECENCY / (1.0 + age / 90.0)  # a mild preference for recent sessions
            ranked.append((score, ordinal, group))
        ranked.sort(key=lambda r: (-r[0], -r[1]))
        hits: list[RecallHit] = []
        for score, _ordinal, group in ranked[:limit]:
            row = conn.execute("SELECT text FROM doc WHERE id = ?", (group.rowid,)).fetchone()
            text = row[0] if row else ""
            shown = [t for t in present if group.best_mask & bits[t]]
            hits.append(
                RecallHit(
                    source=group.source,
                    date=group.date,
                    snippet=snippet(text, shown or present),
                    score=round(score, 4),
                    where=_where(group.kind),
                )
            )
        return hits


def _validate(query: object, limit: object, since: object, until: object) -> list[QueryTerm]:
    if not isinstance(query, str) or not query.strip():
        raise RecallError("recall query is empty: give a few words to search for")
    if len(query) > MAX_QUERY_CHARS:
        raise RecallError(f"recall query is too long ({len(query)} characters; at most {MAX_QUERY_CHARS})")
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise RecallError(f"recall limit must be a whole number from 1 to {MAX_LIMIT}, not {limit!r}")
    for name, value in (("since", since), ("until", until)):
        if value is not None and not isinstance(value, date):
            raise RecallError(f"recall {name} must be a date (YYYY-MM-DD), not {value!r}")
    if isinstance(since, date) and isinstance(until, date) and _day(since) > _day(until):
        raise RecallError(f"recall since ({_day(since)}) is after until ({_day(until)})")
    terms = query_terms(query)
    if not terms:
        shown = " ".join(query.split())[:80]
        raise RecallError(f"recall query has no words to search for, only punctuation or symbols: {shown}")
    return terms


def _day(value: date) -> date:
    return value.date() if isinstance(value, datetime) else value
