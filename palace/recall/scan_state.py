"""The scan state a recall catch-up leaves in the index for the next process (see RecallIndex._resume).

One row: sessions/'s mtime at the last catch-up, when every session file was last stat'ed, and the files
that may change in place (the hot ones). `generation`, the index's lowest file id, ties it to one build of
the index: a rebuilt index numbers its files anew, so a state left for another build is never taken up.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from typing import NamedTuple

SETTLED_NS = 2_000_000_000  # a folder's mtime older than this will not change again within its granularity
_TABLE = """CREATE TABLE IF NOT EXISTS scan_state (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    generation INTEGER,
    dir_mtime INTEGER NOT NULL,
    last_full REAL NOT NULL,
    hot TEXT NOT NULL
)"""


class ScanState(NamedTuple):
    """What the last catch-up knew: sessions/'s mtime then, when every file was last stat'ed, the hot files."""

    generation: int | None
    dir_mtime: int
    last_full: float
    hot: tuple[str, ...]


def generation(conn: sqlite3.Connection) -> int | None:
    row = conn.execute("SELECT min(id) FROM file").fetchone()
    return None if row is None or row[0] is None else int(row[0])


def read(conn: sqlite3.Connection) -> ScanState | None:
    """The scan state an earlier process left for this index, or None (none, or of another build)."""
    try:
        row = conn.execute("SELECT generation, dir_mtime, last_full, hot FROM scan_state WHERE id = 1").fetchone()
    except sqlite3.OperationalError:
        return None  # no state kept yet
    if row is None or row[0] != generation(conn):
        return None
    hot = tuple(rel for rel in str(row[3]).split("\n") if rel)
    return ScanState(row[0], int(row[1]), float(row[2]), hot)


def keep(
    conn: sqlite3.Connection, known: ScanState | None, dir_mtime: int, last_full: float, hot: list[str]
) -> ScanState | None:
    """Write the state when it differs from `known` (what was last read or written); the state as it now
    stands in the index. Never worth a failed search: a write that fails is left for the next catch-up."""
    # A folder changed a moment ago may change again within its mtime's granularity (a file added then
    # would leave the same mtime): such a state is kept with no mtime, and the next process lists again.
    settled = time.time_ns() - dir_mtime > SETTLED_NS
    state = ScanState(generation(conn), dir_mtime if settled else -1, last_full, tuple(hot))
    if state == known:
        return known
    with contextlib.suppress(sqlite3.Error):
        conn.execute(_TABLE)
        conn.execute(
            "INSERT OR REPLACE INTO scan_state (id, generation, dir_mtime, last_full, hot) VALUES (1, ?, ?, ?, ?)",
            (state.generation, state.dir_mtime, state.last_full, "\n".join(state.hot)),
        )
        return state
    return known
