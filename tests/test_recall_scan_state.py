"""Recall's catch-up in a new process: it takes up the scan state an earlier process left, so its first
search stats the files that may change, not every session file; and it still sees every change a running
process would see."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from palace.recall import RecallIndex

OLD = 1_600_000_000  # 2020: files that are no longer changing


def write_journal(home: Path, day: str, ident: str, text: str, *, old: bool = True) -> Path:
    folder = home / "sessions"
    folder.mkdir(parents=True, exist_ok=True)
    lines = [
        {"type": "session", "id": ident, "started": f"{day}T14:35:00+00:00", "model": "m", "pid": 1, "host": "h"},
        {"type": "message", "ts": f"{day}T14:36:00+00:00", "message": {"role": "user", "content": text}},
    ]
    path = folder / f"{day}-{ident}.jsonl"
    path.write_text("".join(json.dumps(o) + "\n" for o in lines), encoding="utf-8")
    if old:
        os.utime(path, (OLD, OLD))
    return path


def write_archive(home: Path, day: str, ident: str, summary: str) -> Path:
    path = home / "sessions" / f"{day}-{ident}.md"
    path.write_text(f"# Session {day} · {ident}\n\n- Started: {day} 14:35 +00:00\n\n## Summary\n{summary}\n")
    os.utime(path, (OLD, OLD))
    return path


_SETTLED = [OLD]


def settle(home: Path) -> None:
    """sessions/ as if its last change were a while ago (a state taken right after a change is not kept),
    each time a later while: a folder's mtime only moves on."""
    _SETTLED[0] += 60
    os.utime(home / "sessions", (_SETTLED[0], _SETTLED[0]))


def new_process(home: Path) -> RecallIndex:
    """What a new palace process has: a RecallIndex that has not caught up yet."""
    return RecallIndex(home)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "palace"
    for n in range(5):
        write_journal(home, f"2020-09-1{n}", f"0ld0000{n}", f"an old session about topic{n}")
        write_archive(home, f"2020-09-1{n}", f"0ld0000{n}", f"Talked about topic{n}.")
    settle(home)
    with RecallIndex(home) as first:
        assert first.refresh().full_scan  # the first process stats every file, and leaves its state
    return home


def test_a_new_process_takes_up_the_last_full_scan(home: Path) -> None:
    with new_process(home) as index:
        stats = index.refresh()
        assert not stats.full_scan and stats.unchanged <= 2  # memories.md and the hot files, not every file
        assert [h.source for h in index.search("topic3")] == ["2020-09-13-0ld00003"]


def test_a_file_added_since_is_found(home: Path) -> None:
    write_journal(home, "2026-08-01", "a11e0001", "a new session about zookeeper", old=False)
    with new_process(home) as index:
        assert [h.source for h in index.search("zookeeper")] == ["2026-08-01-a11e0001"]


def test_a_live_journal_appended_since_is_found(home: Path) -> None:
    live = write_journal(home, "2026-08-02", "11fe0001", "a live session", old=False)
    settle(home)
    with RecallIndex(home) as running:
        running.refresh()
    with live.open("a", encoding="utf-8") as handle:  # appended: sessions/ does not change
        message = {"role": "user", "content": "we still run consul for service discovery"}
        handle.write(json.dumps({"type": "message", "ts": "2026-08-02T15:00:00+00:00", "message": message}) + "\n")
    with new_process(home) as index:
        assert [h.source for h in index.search("consul")] == ["2026-08-02-11fe0001"]
        assert not index.refresh().full_scan


def test_an_old_file_rewritten_in_place_waits_for_the_full_scan(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = home / "sessions" / "2020-09-12-0ld00002.jsonl"
    write_journal(home, "2020-09-12", "0ld00002", "rewritten in place to mention jaeger")  # same inode
    with new_process(home) as index:
        assert index.search("jaeger") == []  # as a running process: not a file that may change in place
    monkeypatch.setattr("palace.recall.index.FULL_SCAN_SECONDS", 0.0)  # the last full scan is old now
    with new_process(home) as index:
        stats = index.refresh()
        assert stats.full_scan and stats.changed == 1
        assert [h.source for h in index.search("jaeger")] == [old.name.removesuffix(".jsonl")]


def test_an_index_rebuilt_in_another_format_does_not_take_up_the_old_state(home: Path) -> None:
    conn = sqlite3.connect(home / ".index" / "recall.sqlite3")
    conn.execute("PRAGMA user_version = 1")  # another palace version's index: rebuilt at the next open
    conn.commit()
    conn.close()
    with new_process(home) as index:
        stats = index.refresh()
        assert stats.full_scan and stats.added == 10
        assert [h.source for h in index.search("topic4")] == ["2020-09-14-0ld00004"]


def test_a_state_left_for_another_build_of_the_index_is_not_taken_up(home: Path) -> None:
    conn = sqlite3.connect(home / ".index" / "recall.sqlite3")
    with conn:  # what an older palace's rebuild does: new tables and file ids, the state table left alone
        conn.execute("DELETE FROM file")
        conn.execute("UPDATE sqlite_sequence SET seq = seq + 1000 WHERE name = 'file'")
    conn.close()
    with new_process(home) as index:
        stats = index.refresh()
        assert stats.full_scan and stats.added == 10
