"""Recall's catch-up in a new process: it takes up the scan state an earlier process left, so its first
search stats the files that may change, not every session file; and it still sees every change a running
process would see. After sessions/ changed (a new process's usual first search: a session was archived
since), every archive is stat'ed again and the journals that may have changed, against a snapshot of the
index's stamps that must stay exact whatever wrote the index meanwhile."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator
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
        write_journal(home, f"2020-09-1{n}", f"01d0000{n}", f"an old session about topic{n}")
        write_archive(home, f"2020-09-1{n}", f"01d0000{n}", f"Talked about topic{n}.")
    settle(home)
    with RecallIndex(home) as first:
        assert first.refresh().full_scan  # the first process stats every file, and leaves its state
    return home


def test_a_new_process_takes_up_the_last_full_scan(home: Path) -> None:
    with new_process(home) as index:
        stats = index.refresh()
        assert not stats.full_scan and stats.unchanged <= 2  # memories.md and the hot files, not every file
        assert [h.source for h in index.search("topic3")] == ["2020-09-13-01d00003"]


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
    old = home / "sessions" / "2020-09-12-01d00002.jsonl"
    write_journal(home, "2020-09-12", "01d00002", "rewritten in place to mention jaeger")  # same inode
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
        assert [h.source for h in index.search("topic4")] == ["2020-09-14-01d00004"]


def test_a_state_left_for_another_build_of_the_index_is_not_taken_up(home: Path) -> None:
    conn = sqlite3.connect(home / ".index" / "recall.sqlite3")
    with conn:  # what an older palace's rebuild does: new tables and file ids, the state table left alone
        conn.execute("DELETE FROM file")
        conn.execute("UPDATE sqlite_sequence SET seq = seq + 1000 WHERE name = 'file'")
    conn.close()
    with new_process(home) as index:
        stats = index.refresh()
        assert stats.full_scan and stats.added == 10


# -- after sessions/ changed: every session file is stat'ed again, none missed ---------------------------


@pytest.fixture(params=["new process", "running process"])
def later(request: pytest.FixtureRequest, home: Path) -> Iterator[Callable[[], RecallIndex]]:
    """The index a later search uses: a new process's, or one a running process caught up before the change."""
    settle(home)  # so that the running process lists sessions/ itself
    running = RecallIndex(home)
    running.refresh()
    opened = [running]

    def index() -> RecallIndex:
        if request.param == "running process":
            return running
        opened.append(new_process(home))
        return opened[-1]

    yield index
    for each in opened:
        each.close()


def sessions_of(index: RecallIndex, query: str) -> list[str]:
    return [hit.source for hit in index.search(query, limit=10)]


def test_an_archive_added_in_an_old_month_is_found(home: Path, later: Callable[[], RecallIndex]) -> None:
    write_journal(home, "2020-03-02", "01dadd01", "imported from the old laptop")
    write_archive(home, "2020-03-02", "01dadd01", "Planned the greenhouse irrigation.")  # old mtime: not hot
    assert sessions_of(later(), "greenhouse") == ["2020-03-02-01dadd01"]


@pytest.mark.parametrize("how", ["in place", "removed, then written", "renamed into place"])
def test_an_old_archive_edited_to_the_same_size_is_seen(
    home: Path, later: Callable[[], RecallIndex], tmp_path: Path, how: str
) -> None:
    archive = home / "sessions" / "2020-09-12-01d00002.md"
    before = archive.read_text(encoding="utf-8")
    after = before.replace("topic2", "zebra2")
    assert len(after) == len(before)
    if how == "in place":  # sessions/ itself does not change: a session finished since does
        archive.write_text(after, encoding="utf-8")
        write_journal(home, "2026-08-03", "f1e15b01", "a session finished since")
    elif how == "removed, then written":  # the new file may get the old one's inode back
        archive.unlink()
        archive.write_text(after, encoding="utf-8")
    else:
        temp = tmp_path / "edited.md"
        temp.write_text(after, encoding="utf-8")
        os.replace(temp, archive)
    os.utime(archive, (OLD + 120, OLD + 120))  # still an old file, not one that may change in place
    assert sessions_of(later(), "zebra2") == ["2020-09-12-01d00002"]


def test_a_deleted_session_is_dropped(home: Path, later: Callable[[], RecallIndex]) -> None:
    for suffix in (".jsonl", ".md"):
        (home / "sessions" / f"2020-09-11-01d00001{suffix}").unlink()
    index = later()
    assert sessions_of(index, "topic1") == []
    assert sessions_of(index, "topic4") == ["2020-09-14-01d00004"]


def test_a_sessions_folder_made_after_the_last_catch_up_is_read(tmp_path: Path) -> None:
    home = tmp_path / "palace"
    home.mkdir()
    (home / "memories.md").write_text("# Memories\n\n## Preferences\n\n### editor\n- [2020-01-01] uses helix\n")
    with RecallIndex(home) as first:
        first.refresh()
    write_journal(home, "2026-08-04", "f1a57001", "the first session talked about hyperfine")
    with new_process(home) as index:
        assert sessions_of(index, "hyperfine") == ["2026-08-04-f1a57001"]


def test_a_file_added_in_the_same_mtime_tick_as_the_listing_is_found(
    home: Path, later: Callable[[], RecallIndex], monkeypatch: pytest.MonkeyPatch
) -> None:
    # sessions/ changed just before a catch-up listed it; a file added right after the listing can leave
    # the same mtime (a coarse clock): set back with os.utime here. The next catch-up must list again.
    monkeypatch.setattr("palace.recall.scan_state.SETTLED_NS", 3600 * 10**9)  # "just before", however slow
    sessions = home / "sessions"
    write_journal(home, "2026-08-05", "71cc0001", "a session about ripgrep")
    tick = sessions.stat().st_mtime_ns
    index = later()
    assert sessions_of(index, "ripgrep") == ["2026-08-05-71cc0001"]
    write_journal(home, "2026-08-05", "71cc0002", "another session about fd-find", old=True)
    os.utime(sessions, ns=(tick, tick))
    assert sessions_of(later(), "fd-find") == ["2026-08-05-71cc0002"]


def test_a_settled_sessions_folder_is_not_listed_again(home: Path, later: Callable[[], RecallIndex]) -> None:
    write_journal(home, "2026-08-06", "5e771ed1", "a session about zoxide")
    settle(home)
    assert sessions_of(later(), "zoxide") == ["2026-08-06-5e771ed1"]
    stats = later().refresh()
    assert not stats.full_scan and stats.added == stats.changed == stats.removed == 0


def test_a_session_dropped_by_another_process_then_put_back_is_indexed_again(home: Path, tmp_path: Path) -> None:
    archive = home / "sessions" / "2020-09-13-01d00003.md"
    aside = tmp_path / "aside.md"
    os.rename(archive, aside)  # moved out, and later back: a rename keeps its size and mtime
    with new_process(home) as other:
        assert other.refresh().removed == 1
    os.rename(aside, archive)
    with new_process(home) as index:
        stats = index.refresh()
        assert stats.added == 1 and stats.changed == 0
        assert "2020-09-13-01d00003" in sessions_of(index, "Talked about topic3")


def test_stamps_whose_triggers_are_gone_are_not_trusted(home: Path, tmp_path: Path) -> None:
    # What an index file whose triggers were dropped (by another tool, say) looks like: changes to the file
    # table no longer reach the snapshot, so a snapshot without them must not be compared with.
    conn = sqlite3.connect(home / ".index" / "recall.sqlite3")
    triggers = [name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")]
    assert triggers
    for name in triggers:
        conn.execute(f"DROP TRIGGER {name}")
    conn.commit()
    conn.close()
    test_a_session_dropped_by_another_process_then_put_back_is_indexed_again(home, tmp_path)


def append_message(journal: Path, text: str, mtime: int) -> None:
    """What a running (or resumed) session does to its journal: a message appended in place."""
    message = {"role": "user", "content": text}
    with journal.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"type": "message", "ts": "2026-08-07T10:00:00+00:00", "message": message}) + "\n")
    os.utime(journal, (mtime, mtime))


def test_a_resumed_sessions_journal_is_read_again_when_its_archive_is_rewritten(
    home: Path, later: Callable[[], RecallIndex], tmp_path: Path
) -> None:
    journal = home / "sessions" / "2020-09-11-01d00001.jsonl"
    append_message(journal, "resumed to talk about nushell", OLD + 300)
    temp = tmp_path / "archive.md"
    temp.write_text((home / "sessions" / "2020-09-11-01d00001.md").read_text(encoding="utf-8") + "\nResumed.\n")
    os.utime(temp, (OLD + 400, OLD + 400))
    os.replace(temp, home / "sessions" / "2020-09-11-01d00001.md")  # the resumed session's end
    assert sessions_of(later(), "nushell") == ["2020-09-11-01d00001"]


def test_a_journal_without_an_archive_is_read_again_when_sessions_changed(
    home: Path, later: Callable[[], RecallIndex]
) -> None:
    journal = write_journal(home, "2020-09-20", "0afa0001", "a session that never ended")
    with new_process(home) as running:
        running.refresh()
    append_message(journal, "it went on about starship prompts", OLD + 500)
    write_journal(home, "2026-08-08", "f1e15b02", "a session finished since")
    assert sessions_of(later(), "starship") == ["2020-09-20-0afa0001"]


def test_an_old_journal_rewritten_in_place_waits_for_the_full_scan(
    home: Path, later: Callable[[], RecallIndex], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A journal is palace's append-only record: an old one (its archive written, not hot) changes only by hand,
    # and is seen at the next full scan even when sessions/ changed meanwhile.
    journal = home / "sessions" / "2020-09-14-01d00004.jsonl"
    append_message(journal, "edited by hand to mention fzf", OLD + 600)
    write_journal(home, "2026-08-09", "f1e15b03", "a session finished since")
    assert sessions_of(later(), "fzf") == []
    monkeypatch.setattr("palace.recall.index.FULL_SCAN_SECONDS", 0.0)
    assert sessions_of(later(), "fzf") == ["2020-09-14-01d00004"]


def test_a_recent_journal_appended_while_sessions_changed_is_read_again(
    home: Path, later: Callable[[], RecallIndex]
) -> None:
    journal = write_journal(home, "2026-08-10", "2e5e0001", "finished today", old=False)
    archive = write_archive(home, "2026-08-10", "2e5e0001", "Finished today.")
    now = journal.stat().st_mtime
    os.utime(archive, (now, now))  # archived today: the journal is hot (written lately), not live
    later().refresh()
    append_message(journal, "resumed for a word on atuin", int(now) + 1)
    write_journal(home, "2026-08-10", "f1e15b04", "a session finished since")
    assert sessions_of(later(), "atuin") == ["2026-08-10-2e5e0001"]


def test_a_journal_that_grew_after_the_last_snapshot_is_still_read_again(
    home: Path, later: Callable[[], RecallIndex], monkeypatch: pytest.MonkeyPatch
) -> None:
    journal = home / "sessions" / "2020-09-13-01d00003.jsonl"  # quiet when the snapshot was taken
    append_message(journal, "resumed to talk about batcat", OLD + 700)  # newer than its archive now
    monkeypatch.setattr("palace.recall.index.FULL_SCAN_SECONDS", 0.0)
    assert sessions_of(later(), "batcat") == ["2020-09-13-01d00003"]  # read by a full scan
    monkeypatch.undo()
    append_message(journal, "and then about deltadiff", OLD + 800)
    write_journal(home, "2026-08-11", "f1e15b05", "a session finished since")
    assert sessions_of(later(), "deltadiff") == ["2020-09-13-01d00003"]
