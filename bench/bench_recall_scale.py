"""Recall at a year's scale: `python bench/bench_recall_scale.py [--quick]`. Ratios are measured in this run.

7. Index build of 1,000 and 10,000 archived sessions: `RecallIndex(home).refresh()` vs a direct FTS5 build of
   the same text (one row per message, archive and memory entry, default tokenizer, 200 files a
   transaction; goal <= 2x), and the index size vs the corpus size (goal <= 1.5x). A build of many files reads
   them in worker processes: the note under it gives both builds' CPU time.
8. Warm query latency, p50 / p95 over the same queries, `RecallIndex.search` vs a direct FTS5 query
   (`MATCH` of the query's words OR-ed, stop words dropped, `ORDER BY rank LIMIT 5`; goal p50 <= 20 ms), and
   the same queries scoped to one wing and the wing-less sessions (as the REPL searches).
6. The first query of a new process (index built and up to date) vs a direct FTS5 query in a new process
   against the table of row 7, both whole processes (goal <= 2x at 10,000 sessions, as the issue sets it;
   at 1,000 the direct query is so cheap that palace's fixed import cost decides the ratio: reported, with
   the growth from 1,000 to 10,000 sessions); also the first search inside the new
   process (after the imports) vs the direct query inside its process; and a new process's first query
   right after a session was archived by palace's own writers (sessions/ changed, and the change is noted:
   the new files are stat'ed, no listing), vs the same direct FTS5 process (goal <= 2x), and vs the first
   query with nothing changed of the same size (goal <= 1.3x at 10,000 and 30,000 sessions).

The palaces come from palacegen (cached); each size is copied, so every build starts from no index.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import sqlite3
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import benchlib
import palacegen
from benchlib import figure, note
from prose import WINGS, Prose, words

from palace.recall.index import RecallIndex
from palace.sessions.journal import Journal
from palace.sessions.lifecycle import write_archive

STOP = frozenset(
    words(
        """
        a an and are as at be but by did do does for from had has have how i in is it its of on or
        so that the then there this to was we were what when where which who why will with you
        """
    )
)

FIRST_SEARCH = """
import sys, time
from pathlib import Path
from palace.recall.index import RecallIndex
index = RecallIndex(Path(sys.argv[1]))
start = time.perf_counter()
hits = index.search(sys.argv[2], limit=5)
print(time.perf_counter() - start, len(hits))
"""
DIRECT_SEARCH = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1])
start = time.perf_counter()
rows = conn.execute(
    "SELECT source, day, snippet(docs, 0, '[', ']', '...', 12) FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT 5",
    (sys.argv[2],),
).fetchall()
print(time.perf_counter() - start, len(rows))
"""


def fts_expression(query: str) -> str | None:
    """The query's words OR-ed for FTS5 (stop words dropped, each word quoted); None when none is left."""
    words = [w for w in re.findall(r"[^\W_]+", query.casefold()) if w not in STOP]
    return " OR ".join('"' + w + '"' for w in dict.fromkeys(words)) or None


def _documents(path: Path) -> list[tuple[str, str]]:
    """(kind, text) rows of one palace file, as a plain indexer would take them."""
    data = path.read_bytes()
    if path.suffix == ".md" and path.name != "memories.md":
        return [("archive", data.decode("utf-8", "replace"))]
    if path.name == "memories.md":
        lines = data.decode("utf-8", "replace").splitlines()
        return [("memory", line) for line in lines if line.startswith("- ")]
    rows = []
    for line in data.split(b"\n"):
        if not line.strip():
            continue
        record = json.loads(line)
        message = record.get("message") if record.get("type") == "message" else None
        if isinstance(message, dict) and message.get("role") in ("user", "assistant"):
            content = message.get("content")
            if isinstance(content, str) and content:
                rows.append((str(message["role"]), content))
    return rows


def direct_build(home: Path, db: Path) -> None:
    """The baseline: the same files into one FTS5 table (text stored, default tokenizer), WAL as palace."""
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("CREATE VIRTUAL TABLE docs USING fts5(text, source UNINDEXED, day UNINDEXED, kind UNINDEXED)")
    files = [*sorted(Path(e.path) for e in os.scandir(home / "sessions")), home / "memories.md"]
    for start in range(0, len(files), 200):
        conn.execute("BEGIN")
        for path in files[start : start + 200]:
            source = path.name.rsplit(".", 1)[0]
            day = source[:10]
            conn.executemany(
                "INSERT INTO docs (text, source, day, kind) VALUES (?, ?, ?, ?)",
                [(text, source, day, kind) for kind, text in _documents(path)],
            )
        conn.execute("COMMIT")
    conn.close()


def cpu_seconds() -> float:
    """CPU time (user+sys) of this process and of its children that have ended (palace's worker processes)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def db_bytes(db: Path) -> int:
    """Bytes of an SQLite database with its -wal and -shm files."""
    return sum(p.stat().st_size for p in db.parent.glob(db.name + "*"))


def wal_bytes(db: Path) -> int:
    wal = db.with_name(db.name + "-wal")
    return wal.stat().st_size if wal.exists() else 0


@dataclass
class Built:
    home: Path
    db: Path  # the direct FTS5 table
    index: RecallIndex


def row7(root: Path, count: int) -> Built:
    home = palacegen.copy_palace(palacegen.sessions_palace(count, seed=7), root / f"palace-{count}")
    corpus = palacegen.corpus_bytes(home) + (home / "memories.md").stat().st_size
    db = root / f"direct-{count}.sqlite3"
    for entry in os.scandir(home / "sessions"):  # both builds start with the files in the page cache
        Path(entry.path).read_bytes()
    started = cpu_seconds()
    direct = benchlib.timed(lambda: direct_build(home, db))
    direct_cpu = cpu_seconds() - started
    index = RecallIndex(home)
    stats = []
    started = cpu_seconds()
    ours = benchlib.timed(lambda: stats.append(index.refresh()))
    ours_cpu = cpu_seconds() - started
    built = stats[0]
    figure("7", f"index build, {count:,} sessions", ours, direct, base="direct FTS5", goal=2)
    note(
        f"CPU (user+sys, palace's worker processes included): palace {ours_cpu:.2f} s, direct {direct_cpu:.2f} s,"
        f" ratio {ours_cpu / direct_cpu:.2f}x"
    )
    open_size, open_wal = db_bytes(index.path), wal_bytes(index.path)
    index.close()  # the last connection checkpoints the -wal into the file: the index as it stays on disk
    size = db_bytes(index.path)
    figure(
        "7",
        f"index size, {count:,} sessions (corpus {corpus / 1e6:.1f} MB)",
        size,
        corpus,
        base="corpus",
        goal=1.5,
        show=lambda b: f"{b / 1e6:.1f} MB",
    )
    note(
        f"{built.added} files indexed; index files while open {open_size / 1e6:.1f} MB (-wal {open_wal / 1e6:.1f} MB);"
        f" direct FTS5 table {db_bytes(db) / 1e6:.1f} MB"
    )
    return Built(home, db, index)


def queries(count: int, seed: int = 11) -> list[str]:
    prose = Prose(random.Random(seed))
    found: list[str] = []
    while len(found) < count:
        query = prose.query()
        if fts_expression(query):
            found.append(query)
    return found


def row8(built: Built, count: int, number: int) -> None:
    conn = sqlite3.connect(built.db)
    sql = "SELECT source, day, snippet(docs, 0, '[', ']', '...', 12) FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT 5"
    asked = queries(number + 5)
    for query in asked[:5]:  # warm the caches of both
        built.index.search(query, limit=5)
        conn.execute(sql, (fts_expression(query),)).fetchall()
    ours, direct = [], []
    answered = 0
    for query in asked[5:]:
        hits: list[object] = []
        ours.append(benchlib.timed(lambda: hits.extend(built.index.search(query, limit=5))))  # noqa: B023
        answered += bool(hits)
        expression = fts_expression(query)
        direct.append(benchlib.timed(lambda: conn.execute(sql, (expression,)).fetchall()))  # noqa: B023
    conn.close()
    p50, p95 = benchlib.percentile(ours, 50), benchlib.percentile(ours, 95)
    base50, base95 = benchlib.percentile(direct, 50), benchlib.percentile(direct, 95)
    what = f"warm query p50, {count:,} sessions"
    figure("8", what, p50, base50, base="direct FTS5", goal=None, met=p50 <= 0.020, goal_text="goal p50 <= 20 ms")
    figure("8", f"warm query p95, {count:,} sessions", p95, base95, base="direct FTS5", goal=None)
    note(f"{len(ours)} queries, {answered} with results; max {benchlib.ms(max(ours))}")
    # The REPL and the MCP server search the active wing and the wing-less sessions: the same queries so scoped.
    scoped = [benchlib.timed(lambda: built.index.search(query, limit=5, wings=[WINGS[0]])) for query in asked[5:]]  # noqa: B023
    p50 = benchlib.percentile(scoped, 50)
    what = f"warm query p50 in one wing, {count:,} sessions"
    figure("8", what, p50, base50, base="direct FTS5", goal=None, met=p50 <= 0.020, goal_text="goal p50 <= 20 ms")


GOAL_SESSIONS = 10_000  # the issue sets row 6's goal at a year's sessions; smaller palaces show how it grows


def row6(built: Built, count: int, runs: int, cwd: Path) -> tuple[float, float]:
    """Row 6 at one size; the medians of the first query and of the first query after a change."""
    built.index.close()
    env = benchlib.child_env(built.home)
    asked = queries(runs + 1, seed=13)
    ours_runs, direct_runs = [], []
    for n, query in enumerate(asked):
        ours = benchlib.run([sys.executable, "-c", FIRST_SEARCH, str(built.home), query], env, cwd=cwd)
        expression = fts_expression(query) or query
        theirs = benchlib.run([sys.executable, "-c", DIRECT_SEARCH, str(built.db), expression], env, cwd=cwd)
        if n:  # the first pair warms the page cache
            ours_runs.append(ours)
            direct_runs.append(theirs)
    wall, direct = benchlib.median([r.wall for r in ours_runs]), benchlib.median([r.wall for r in direct_runs])
    goal = 2.0 if count >= GOAL_SESSIONS else None
    aside = None if goal else f"report only (goal at {GOAL_SESSIONS:,} sessions)"
    what = f"first query, new process, {count:,} sessions"
    figure("6", what, wall, direct, base="direct FTS5 process", goal=goal, goal_text=aside)
    settled = wall
    first = benchlib.median([float(r.stdout.split()[0]) for r in ours_runs])
    direct_first = benchlib.median([float(r.stdout.split()[0]) for r in direct_runs])
    what = f"  first search in that process (after imports), {count:,} sessions"
    figure("6", what, first, direct_first, base="direct FTS5 query", goal=None)
    cpu, base = benchlib.median([r.cpu for r in ours_runs]), benchlib.median([r.cpu for r in direct_runs])
    note(f"CPU (user+sys): palace {benchlib.ms(cpu)}, direct {benchlib.ms(base)}, ratio {cpu / base:.2f}x")
    rescans = []
    for n, query in enumerate(queries(runs, seed=17)):  # a session finished since the last catch-up
        finish_session(built.home, n)
        rescans.append(benchlib.run([sys.executable, "-c", FIRST_SEARCH, str(built.home), query], env, cwd=cwd))
    wall = benchlib.median([r.wall for r in rescans])
    what = f"first query after sessions/ changed (a session archived), {count:,} sessions"
    figure("6", what, wall, direct, base="direct FTS5 process", goal=goal, goal_text=aside)
    first = benchlib.median([float(r.stdout.split()[0]) for r in rescans])
    note(f"its first search (after imports, with the catch-up of sessions/): {benchlib.ms(first)}")
    what = f"first query after a session archived vs nothing changed, {count:,} sessions"
    figure("6", what, wall, settled, base="unchanged", goal=1.3 if goal else None, goal_text=aside)
    return settled, wall


def finish_session(home: Path, n: int) -> None:
    """What a finished session leaves in sessions/, written by palace's own writers (which note what they
    changed, palace/session_notes.py): its journal with a few messages of an old session, its archive."""
    folder = home / "sessions"
    old = sorted(name for name in os.listdir(folder) if name.endswith(".jsonl"))[n]
    said = [
        r["message"] for r in map(json.loads, (folder / old).read_text().splitlines()) if r.get("type") == "message"
    ]
    journal = Journal.start(home, model="bench")
    for message in said[:6]:
        journal.add_message(message)
    write_archive(journal, summary=f"the bench's session {n}")
    journal.end()
    journal.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes, a smoke run in under a minute")
    args = parser.parse_args()
    counts = [100, 500] if args.quick else [1000, 10000, 30000]
    number, runs = (40, 3) if args.quick else (200, 7)
    benchlib.header("bench_recall_scale", args.quick)
    cwd = benchlib.outside_git()
    try:
        with tempfile.TemporaryDirectory(prefix="palace-bench-recall-") as tmp:
            firsts: list[tuple[int, float, float]] = []
            for count in counts:
                root = Path(tmp) / str(count)
                root.mkdir()
                built = row7(root, count)
                row8(built, count, number)
                firsts.append((count, *row6(built, count, runs, cwd)))
            (small, settled_small, changed_small), (big, settled_big, changed_big) = firsts[0], firsts[-1]
            sizes = f"{small:,} -> {big:,} sessions"
            figure("6", f"first query growth, {sizes}", settled_big, settled_small, base=f"at {small:,}", goal=None)
            what = f"first query after a change, growth, {sizes}"
            figure("6", what, changed_big, changed_small, base=f"at {small:,}", goal=None)
    finally:
        os.rmdir(cwd)
    import palace.recall.index as index_module

    seconds = getattr(index_module, "FULL_SCAN_SECONDS", None)
    if seconds is not None:
        note(
            f"palace.recall.index.FULL_SCAN_SECONDS = {seconds:g}: every session file is re-stat'ed that often; a "
            "new process takes up the last one's scan state (row 6): it stats the hot files, or after sessions/ "
            "changed, the archives and the journals that may have changed"
        )
    benchlib.footer()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
