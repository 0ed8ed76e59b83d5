"""Session journals and archives: real files in a temp palace, real flock ownership, a real second process."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from palace.errors import PalaceError
from palace.memory.halls import parse_path
from palace.memory.ops import ChangeResult
from palace.sessions.archive import render_archive, write_archive
from palace.sessions.catalog import find_journal, find_orphans, find_session, list_sessions, show_session
from palace.sessions.journal import Journal
from palace.sessions.lifecycle import resume
from palace.sessions.live import is_live

_HOLDER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from palace.sessions.journal import Journal
    from palace.sessions.lifecycle import resume
    home = Path(sys.argv[1])
    if sys.argv[2] == "new":
        journal = Journal.start(home, model="gpt-4.1-mini", wing="ifai")
    else:
        journal = resume(home, sys.argv[2])
    journal.add_message({"role": "user", "content": "held by another process"})
    print(journal.id, flush=True)
    sys.stdin.read()
    """
)


class Holder:
    """A second palace process that owns a journal until stopped."""

    def __init__(self, home: Path, what: str = "new") -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _HOLDER, str(home), what],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        self.id = self.proc.stdout.readline().strip()
        assert self.id, self.proc.stderr.read() if self.proc.stderr else "holder failed"

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=10)


@pytest.fixture
def holder_factory(palace_home: Path) -> Iterator[list[Holder]]:
    holders: list[Holder] = []
    yield holders
    for holder in holders:
        if holder.proc.poll() is None:
            holder.kill()


def _records(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _change(action: str, path: str, content: str, by: str) -> ChangeResult:
    return ChangeResult(action, parse_path(path), content, by=by)  # type: ignore[arg-type]


def test_start_creates_private_journal_with_header(palace_home: Path) -> None:
    journal = Journal.start(palace_home, model="gpt-4.1-mini", wing="ifai")
    try:
        folder = palace_home / "sessions"
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        assert stat.S_IMODE(journal.path.stat().st_mode) == 0o600
        assert journal.path == folder / f"{journal.id}.jsonl"
        day, hexpart = journal.id[:10], journal.id[11:]
        assert day == f"{journal.started:%Y-%m-%d}" and len(hexpart) == 8 and int(hexpart, 16) >= 0
        (header,) = _records(journal.path)
        assert header["type"] == "session" and header["id"] == journal.id
        assert header["model"] == "gpt-4.1-mini" and header["wing"] == "ifai"
        assert header["pid"] == os.getpid() and isinstance(header["host"], str)
        assert datetime.fromisoformat(str(header["started"])).tzinfo is not None
        assert journal.owned and is_live(journal.path)
    finally:
        journal.close()
    assert not is_live(journal.path)


def test_records_replay_into_the_same_state(palace_home: Path) -> None:
    journal = Journal.start(palace_home, model="m", wing=None)
    journal.add_message({"role": "user", "content": "I write backends in Rust"})
    journal.add_message(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "MemorySave", "arguments": "{}"}}],
        }
    )
    journal.add_message({"role": "tool", "tool_call_id": "call_1", "content": "Saved"})
    journal.add_message({"role": "assistant", "content": "Noted."})
    journal.add_message({"role": "user", "content": [{"type": "text", "text": "and 中文"}]})
    journal.add_usage(100, 20)
    journal.add_usage(1_000, 5)
    journal.add_memory(
        _change("saved", "Preferences/programming-languages", "The user writes backends in Rust", "model")
    )
    journal.add_memory(_change("unchanged", "Preferences/editor", "The user uses Neovim", "user"))
    journal.close()
    kinds = [r["type"] for r in _records(journal.path)]
    assert kinds == ["session"] + ["message"] * 5 + ["usage"] * 2 + ["memory"] * 2
    loaded = Journal.load(journal.path)
    assert loaded.id == journal.id and loaded.model == "m" and loaded.wing is None
    assert loaded.messages == journal.messages
    assert loaded.turns == 2 and loaded.usage == (1_100, 25)
    assert loaded.memory_events == [
        {
            "path": "Preferences/programming-languages",
            "content": "The user writes backends in Rust",
            "action": "saved",
            "by": "model",
        },
        {"path": "Preferences/editor", "content": "The user uses Neovim", "action": "refreshed", "by": "user"},
    ]
    assert loaded.extracted_upto == 0 and loaded.summary is None and not loaded.owned


def test_damaged_last_line_is_skipped_and_appends_start_on_a_new_line(palace_home: Path) -> None:
    journal = Journal.start(palace_home, model="m", wing=None)
    journal.add_message({"role": "user", "content": "first"})
    journal.close()
    with journal.path.open("ab") as handle:
        handle.write(b'{"type":"message","ts":"2026-11-30T1')  # a crash in the middle of a line
    resumed = resume(palace_home, journal.id)
    try:
        assert [m["content"] for m in resumed.messages] == ["first"]
        resumed.add_message({"role": "assistant", "content": "second"})
    finally:
        resumed.close()
    assert [m["content"] for m in Journal.load(journal.path).messages] == ["first", "second"]


def test_resume_restores_messages_and_keeps_the_id(palace_home: Path) -> None:
    journal = Journal.start(palace_home, model="m", wing="ifai")
    journal.add_message({"role": "user", "content": "hello"})
    journal.add_message({"role": "assistant", "content": "hi"})
    journal.add_usage(10, 2)
    journal.close()
    resumed = resume(palace_home)  # the latest
    try:
        assert resumed.id == journal.id and resumed.path == journal.path
        assert resumed.messages == journal.messages and resumed.usage == (10, 2) and resumed.wing == "ifai"
        assert resumed.owned and resumed.live_here
        resumed.add_message({"role": "user", "content": "again"})
    finally:
        resumed.close()
    records = _records(journal.path)
    assert [r["type"] for r in records][-2:] == ["resumed", "message"]
    assert records[-2]["pid"] == os.getpid()


def test_resume_by_prefix_and_errors(palace_home: Path) -> None:
    with pytest.raises(PalaceError, match="no session to resume"):
        resume(palace_home)
    first = Journal.start(palace_home, model="m", wing=None)
    first.close()
    second = Journal.start(palace_home, model="m", wing=None)
    second.close()
    for key in (first.id, first.id[11:15], first.id[:14] if first.id[11] != second.id[11] else first.id):
        assert find_session(palace_home, key) == first.id
    with pytest.raises(PalaceError, match="names 2 sessions"):
        find_session(palace_home, first.id[:10])
    with pytest.raises(PalaceError, match="no session 'ffff-nope'"):
        resume(palace_home, "ffff-nope")
    resumed = resume(palace_home, second.id[11:])
    assert resumed.id == second.id
    with pytest.raises(PalaceError, match="in use by a running palace"):
        resume(palace_home, second.id)  # this very process owns it now
    resumed.close()
    write_archive(Journal.load(first.path))
    first.path.unlink()
    with pytest.raises(PalaceError, match="no journal"):
        resume(palace_home, first.id)


def test_resume_closes_a_tool_call_left_open_by_a_crash(palace_home: Path) -> None:
    journal = Journal.start(palace_home, model="m", wing=None)
    journal.add_message({"role": "user", "content": "remember X"})
    journal.add_message(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_a", "type": "function", "function": {"name": "MemorySave", "arguments": "{}"}},
                {"id": "call_b", "type": "function", "function": {"name": "MemorySave", "arguments": "{}"}},
            ],
        }
    )
    journal.add_message({"role": "tool", "tool_call_id": "call_a", "content": "Saved"})
    journal.close()  # the crash: call_b never answered
    resumed = resume(palace_home, journal.id)
    resumed.close()
    last = resumed.messages[-1]
    assert last["role"] == "tool" and last["tool_call_id"] == "call_b"
    assert Journal.load(journal.path).messages == resumed.messages


def test_live_owner_in_another_process_is_never_grabbed(palace_home: Path, holder_factory: list[Holder]) -> None:
    mine = Journal.start(palace_home, model="m", wing=None)
    mine.add_message({"role": "user", "content": "mine"})
    holder = Holder(palace_home)
    holder_factory.append(holder)
    theirs = palace_home / "sessions" / f"{holder.id}.jsonl"
    assert is_live(theirs)
    assert find_orphans(palace_home) == []  # neither the other process's nor ours
    with pytest.raises(PalaceError, match=rf"in use by a running palace \(pid {holder.proc.pid} on "):
        resume(palace_home, holder.id)
    view = Journal.load(theirs)
    with pytest.raises(PalaceError, match="in use"):
        view.add_message({"role": "user", "content": "sneaking in"})
    assert [r["type"] for r in _records(theirs)] == ["session", "message"]
    with pytest.raises(PalaceError, match="no session to resume"):
        resume(palace_home)  # both sessions are live: `resume()` takes neither
    holder.kill()
    assert find_orphans(palace_home) == [theirs]  # owner dead: an orphan now
    mine.close()
    assert find_orphans(palace_home) == sorted([theirs, mine.path])


def test_resumed_session_held_by_another_process(palace_home: Path, holder_factory: list[Holder]) -> None:
    journal = Journal.start(palace_home, model="m", wing=None)
    journal.add_message({"role": "user", "content": "hello"})
    journal.close()
    holder = Holder(palace_home, journal.id[11:])
    holder_factory.append(holder)
    assert holder.id == journal.id
    with pytest.raises(PalaceError, match=f"pid {holder.proc.pid}"):
        resume(palace_home, journal.id)
    with pytest.raises(PalaceError, match="no session to resume"):
        resume(palace_home)


def test_orphans_archived_or_ended_sessions(palace_home: Path) -> None:
    done = Journal.start(palace_home, model="m", wing=None)
    done.add_message({"role": "user", "content": "finished properly"})
    write_archive(done)
    done.end()
    done.close()
    crashed = Journal.start(palace_home, model="m", wing=None)
    crashed.add_message({"role": "user", "content": "crashed"})
    crashed.close()
    assert find_orphans(palace_home) == [crashed.path]
    again = resume(palace_home, done.id)  # resumed after its archive, then it dies too
    again.add_message({"role": "user", "content": "more"})
    assert find_orphans(palace_home) == [crashed.path]
    again.close()
    assert find_orphans(palace_home) == sorted([crashed.path, done.path])


def test_orphans_are_found_from_the_registry_without_reading_archived_journals(palace_home: Path) -> None:
    done = Journal.start(palace_home, model="m", wing=None)
    done.add_message({"role": "user", "content": "finished properly"})
    write_archive(done)
    done.end()
    done.close()
    live = palace_home / "sessions" / ".live"
    assert not (live / done.id).exists()  # an ended session leaves the registry
    assert find_orphans(palace_home) == []
    # Once the registry is in use, an archived journal that is not registered is never opened: even a
    # journal whose tail says "resumed" (written by hand here) is not taken for an orphan.
    with done.path.open("a") as handle:
        handle.write('{"type": "resumed", "ts": "2026-11-30T10:00:00+00:00"}\n')
    assert find_orphans(palace_home) == []
    # A palace from before the registry: its first look reads the tails once (of the journals written after
    # their archive: a resume comes a while after it), then trusts the registry.
    later = (palace_home / "sessions" / f"{done.id}.md").stat().st_mtime_ns + 60 * 10**9
    os.utime(done.path, ns=(later, later))
    (live / ".scanned").unlink()
    assert find_orphans(palace_home) == [done.path]
    assert (live / ".scanned").exists()


def test_a_stale_registry_entry_of_a_vanished_journal_is_dropped(palace_home: Path) -> None:
    journal = Journal.start(palace_home, model="m", wing=None)
    journal.close()
    journal.path.unlink()
    assert find_orphans(palace_home) == []
    assert not (palace_home / "sessions" / ".live" / journal.id).exists()


def _fixed_journal(home: Path) -> Journal:
    journal = Journal.start(home, model="gpt-4.1-mini", wing="ifai")
    journal.started = datetime(2026, 11, 30, 14, 35, tzinfo=UTC)
    for n in range(3):
        journal.add_message({"role": "user", "content": f"question {n}"})
        journal.add_message({"role": "assistant", "content": f"answer {n}"})
    journal.add_usage(12_000, 2_000)
    journal.add_usage(345, 345)
    journal.add_memory(
        _change("saved", "Preferences/programming-languages", "The user writes backends in Rust", "model")
    )
    journal.add_memory(_change("saved", "ifai/Workflow Patterns/testing", "Tests run with vitest", "user"))
    journal.record_extraction(
        6,
        "The user set up the sync engine.\n\nThey chose events.",
        [
            _change("unchanged", "ifai/Decisions/architecture", "Event-driven architecture was chosen", "extracted"),
            _change("saved", "ifai/Project Knowledge/database", "The database is PostgreSQL 16", "extracted"),
        ],
        dropped=1,
    )
    return journal


def test_archive_format_exactly(palace_home: Path) -> None:
    journal = _fixed_journal(palace_home)
    ended = datetime(2026, 11, 30, 15, 2, tzinfo=timezone(timedelta(hours=0)))
    path = write_archive(journal, ended=ended)
    journal.close()
    assert path == palace_home / "sessions" / f"{journal.id}.md"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    short = journal.id[11:]
    assert path.read_text(encoding="utf-8") == textwrap.dedent(
        f"""\
        # Session {journal.id[:10]} · {short}

        - Started: 2026-11-30 14:35 +00:00
        - Ended: 2026-11-30 15:02 +00:00
        - Model: gpt-4.1-mini
        - Wing: ifai
        - Turns: 3

        ## Summary
        The user set up the sync engine.

        They chose events.

        ## Token Usage
        - Input: 12,345
        - Output: 2,345
        - Total: 14,690

        ## Memories Extracted
        - **Preferences/programming-languages**: The user writes backends in Rust (saved by the model)
        - **ifai/Workflow Patterns/testing**: Tests run with vitest (saved by the user)
        - **ifai/Decisions/architecture**: Event-driven architecture was chosen (extracted, refreshed)
        - **ifai/Project Knowledge/database**: The database is PostgreSQL 16 (extracted, saved)
        """
    )


def test_archive_without_memories_or_summary_and_other_zones(palace_home: Path) -> None:
    journal = Journal.start(palace_home, model="llama3", wing=None)
    journal.started = datetime(2026, 1, 2, 3, 4, tzinfo=timezone(timedelta(hours=8)))
    journal.add_message({"role": "user", "content": "你好"})
    text = render_archive(
        journal,
        ended=datetime(2026, 1, 2, 3, 9, tzinfo=timezone(timedelta(hours=-5, minutes=-30))),
        summary="(no summary: a short session)",
    )
    journal.close()
    assert "- Started: 2026-01-02 03:04 +08:00\n- Ended: 2026-01-02 03:09 -05:30\n" in text
    assert "- Wing: (none)\n- Turns: 1\n" in text
    assert "## Summary\n(no summary: a short session)\n" in text
    assert "- Input: 0\n- Output: 0\n- Total: 0\n" in text
    assert text.endswith("## Memories Extracted\n- (none)\n")


def test_archive_never_shows_a_secret(palace_home: Path) -> None:
    journal = Journal.start(palace_home, model="m", wing=None)
    journal.add_message({"role": "user", "content": "hi"})
    key = "sk-proj-" + "A1b2C3d4" * 4
    journal.add_memory(_change("forgotten", "Preferences/keys", f"old key {key}", "user"))
    text = render_archive(journal, summary=f"They pasted {key} by mistake.")
    journal.close()
    assert key not in text and "[redacted OpenAI API key]" in text
    assert "(forgotten by the user)" in text


def test_list_and_show(palace_home: Path) -> None:
    assert list_sessions(palace_home) == []
    archived = _fixed_journal(palace_home)
    write_archive(archived)
    archived.end()
    archived.close()
    live = Journal.start(palace_home, model="m", wing=None)
    live.add_message({"role": "user", "content": "What does the PostgreSQL config say?"})
    live.add_message(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "MemoryRecall", "arguments": '{"query": "pg"}'}}
            ],
        }
    )
    live.add_message({"role": "tool", "tool_call_id": "c1", "content": "nothing found"})
    live.add_message({"role": "assistant", "content": "It uses port 5432."})
    infos = list_sessions(palace_home)
    assert [i.id for i in infos] == [live.id, archived.id]  # newest first
    newest, older = infos
    assert (newest.archived, newest.turns, newest.summary) == (False, 1, "")
    assert (older.archived, older.turns, older.summary) == (True, 3, "The user set up the sync engine.")
    assert older.started == archived.started and older.date == archived.id[:10]
    assert show_session(palace_home, archived.id[11:]) == archived.path.with_suffix(".md").read_text()
    transcript = show_session(palace_home, live.id)
    live.close()
    assert "(not archived yet)" in transcript
    assert "**You**: What does the PostgreSQL config say?" in transcript
    assert '→ MemoryRecall {"query": "pg"}' in transcript and "← nothing found" in transcript
    assert "**Assistant**: It uses port 5432." in transcript
    assert find_journal(palace_home, live.id[11:]) == live.path


def test_discard_removes_an_empty_journal(palace_home: Path) -> None:
    journal = Journal.start(palace_home, model="m", wing=None)
    journal.discard()
    assert not journal.path.exists() and not journal.owned


def test_example_sessions_are_in_the_current_format() -> None:
    folder = Path(__file__).resolve().parent.parent / "sessions_example" / "sessions"
    journals = sorted(folder.glob("*.jsonl"))
    assert len(journals) >= 5
    for path in journals:
        journal = Journal.load(path)
        assert journal.messages and journal.turns and path.name.startswith(journal.id)
        archive = path.with_suffix(".md")
        if archive.exists():  # every archive is exactly what palace writes from its journal
            assert render_archive(journal) == archive.read_text(encoding="utf-8"), path.name
            assert journal.extracted_upto == len(journal.messages) and journal.ended is not None
        else:  # the one that "crashed": an orphan waiting for the next start
            assert journal.ended is None and journal.extracted_upto == 0
