"""Writing the recall index: a batch of files re-indexed or dropped in one write transaction."""

from __future__ import annotations

import sqlite3
from collections import Counter
from typing import NamedTuple

from palace.recall.prepare import ENTRY_FILES, Prepared, PreparedFiles, counts, held_counts
from palace.recall.scan_state import RefreshStats
from palace.recall.schema import ANY_TERM, DOC_BITS, chunks, unpack_terms
from palace.recall.sources import FileMeta

Work = list[tuple[str, FileMeta | None]]  # files to re-index (meta) or drop (None)


class _Indexed(NamedTuple):
    """A file's row in the index: its id and the stamp of the version indexed."""

    id: int
    size: int
    mtime_ns: int
    kind: str


DocRow = tuple[int, int, str, str, str, bytes | str]  # id, file_id, date, kind, text, terms (as stored)
FileRow = tuple[int, str, str, str, str, str, int, int]  # id, path, kind, source, day, wings, size, mtime_ns


class _Batch:
    """The rows one write transaction adds, written together at its end (a common term's vocabulary row is
    updated once a batch, not once a file)."""

    def __init__(self, ready: PreparedFiles) -> None:
        # The vocabulary's counts of every file prepared; a file then not written is taken off.
        self.doc_counts = ready.doc_counts  # term -> change in the documents holding it
        self.file_counts = ready.file_counts  # term -> change in the files holding it
        self.dropped = False
        self.new_files: list[FileRow] = []
        self.rows: list[DocRow] = []
        self.entries: list[tuple[int, str]] = []  # (rowid, terms) of entries, for `fts`
        self.held: list[tuple[int, str]] = []  # (file id, its distinct terms), for `ffts`
        self._next_id: int | None = None

    def new_id(self, conn: sqlite3.Connection) -> int:
        """The id of a file added by this batch: the next the table's AUTOINCREMENT would give."""
        if self._next_id is None:
            seq = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'file'").fetchone()
            top = conn.execute("SELECT max(id) FROM file").fetchone()[0]
            self._next_id = max(int(seq[0]) if seq else 0, int(top or 0)) + 1
        self._next_id += 1
        return self._next_id - 1

    def add_file(self, file_id: int, ready: Prepared) -> None:
        base = file_id << DOC_BITS
        self.rows += [
            (base | number, file_id, day, kind, text, terms) for number, day, kind, text, terms, _ in ready.docs
        ]
        self.entries += [(base | doc[0], doc[5]) for doc in ready.docs if doc[5]]
        if ready.held:
            self.held.append((file_id, ready.held))

    def take_off(self, held: Counter[str]) -> None:
        """A file's documents leave the vocabulary (held: term -> its documents holding it)."""
        self.doc_counts.subtract(held)
        self.file_counts.subtract(held.keys())
        self.dropped = True

    def write(self, conn: sqlite3.Connection) -> None:
        # One statement per table and batch: the build spends its time in Python, not in SQLite. An explicit
        # id moves the table's AUTOINCREMENT sequence on as a generated one does.
        conn.executemany(
            "INSERT INTO file (id, path, kind, source, day, wings, size, mtime_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            self.new_files,
        )
        conn.executemany("INSERT INTO doc (id, file_id, date, kind, text, terms) VALUES (?, ?, ?, ?, ?, ?)", self.rows)
        conn.executemany("INSERT INTO fts (rowid, terms) VALUES (?, ?)", self.entries)
        conn.executemany("INSERT INTO ffts (rowid, terms) VALUES (?, ?)", self.held)
        docs = self.doc_counts
        changed = sorted((t, docs[t], n) for t, n in self.file_counts.items() if n or docs[t])
        conn.executemany(
            "INSERT INTO vocab (term, docs, files) VALUES (?, ?, ?) "
            "ON CONFLICT (term) DO UPDATE SET docs = docs + excluded.docs, files = files + excluded.files",
            changed,
        )
        if self.dropped:
            gone = [(t,) for t, n in self.file_counts.items() if n < 0]
            conn.executemany("DELETE FROM vocab WHERE term = ? AND files <= 0", gone)


def write_batch(
    conn: sqlite3.Connection, work: Work, ready: PreparedFiles, stats: RefreshStats, sources: dict[int, str]
) -> None:
    """Re-index (meta) or drop (None) each file of work, as prepared in ready, inside the caller's write
    transaction, re-checking each against the table (another process may have indexed it meanwhile);
    `sources` learns new file ids."""
    batch = _Batch(ready)
    known = _rows(conn, [rel for rel, _meta in work])
    for rel, meta in work:
        row = known.get(rel)
        file = ready.files.get(rel) if meta is not None else None
        if meta is not None and row is not None and (row.size, row.mtime_ns) in _stamps(meta, file):
            if file is not None:
                batch.take_off(counts(file))
            continue  # another process indexed this version meanwhile
        if row is not None:
            # A batch's new rows are written at its end: what it drops must not be among them (one file once).
            _drop_docs(conn, row.id, row.kind in ENTRY_FILES, batch)
        if meta is None or file is None:
            if row is not None:
                conn.execute("DELETE FROM file WHERE id = ?", (row.id,))
                stats.removed += 1
            continue
        if row is None:
            file_id = batch.new_id(conn)
            batch.new_files.append(
                (file_id, rel, meta.kind, meta.source, file.day, file.wings, file.size, file.mtime_ns)
            )
            stats.added += 1
        else:
            file_id = row.id
            conn.execute(
                "UPDATE file SET day = ?, wings = ?, size = ?, mtime_ns = ? WHERE id = ?",
                (file.day, file.wings, file.size, file.mtime_ns, file_id),
            )
            stats.changed += 1
        sources[file_id] = meta.source
        batch.add_file(file_id, file)
    batch.write(conn)


def _stamps(meta: FileMeta, file: Prepared | None) -> list[tuple[int, int]]:
    """The stamps of the version found (meta) and, when it was read, of the version read."""
    return [(meta.size, meta.mtime_ns)] + ([(file.size, file.mtime_ns)] if file is not None else [])


def _rows(conn: sqlite3.Connection, paths: list[str]) -> dict[str, _Indexed]:
    """rel path -> its row in the file table, for the indexed files among paths."""
    found: dict[str, _Indexed] = {}
    for chunk, marks in chunks(sorted(set(paths))):
        sql = f"SELECT path, id, size, mtime_ns, kind FROM file WHERE path IN ({marks})"
        for path, *row in conn.execute(sql, chunk):
            found[path] = _Indexed._make(row)
    return found


def _drop_docs(conn: sqlite3.Connection, file_id: int, entries: bool, batch: _Batch) -> None:
    """Remove one file's documents from the table, the full-text indexes and the vocabulary."""
    rows = [
        (rowid, unpack_terms(t)) for rowid, t in conn.execute("SELECT id, terms FROM doc WHERE file_id = ?", (file_id,))
    ]
    held = held_counts([terms for _rowid, terms in rows])
    if held:
        terms = " ".join(term for term in held if term != ANY_TERM)
        conn.execute("INSERT INTO ffts (ffts, rowid, terms) VALUES ('delete', ?, ?)", (file_id, terms))
        batch.take_off(held)
    if entries:
        conn.executemany("INSERT INTO fts (fts, rowid, terms) VALUES ('delete', ?, ?)", rows)
    conn.execute("DELETE FROM doc WHERE file_id = ?", (file_id,))
