"""Importing dated transcripts: journals and archives named and dated by the conversation, found by recall."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from palace.errors import PalaceError
from palace.recall import RecallIndex, format_hits
from palace.sessions.catalog import list_sessions
from palace.sessions.importer import import_transcript, parse_transcript
from palace.sessions.journal import Journal

JSONL = [
    {"session": 1, "date": "1:56 pm on 8 May, 2023"},
    {"role": "Caroline", "content": "I went to a support group yesterday, it was powerful."},
    {"role": "Melanie", "content": "That's wonderful! What happened there?"},
    {"role": "Caroline", "content": "People shared their stories about coming out."},
    {"session": 2, "date": "2023-05-25"},
    {"role": "Caroline", "content": "I have been researching adoption agencies."},
    {"role": "Melanie", "content": "You'd be an amazing mom."},
]


def write(path: Path, lines: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_a_jsonl_transcript_becomes_sessions_named_and_dated_by_the_conversation(tmp_path: Path) -> None:
    home = tmp_path / "palace"
    written = import_transcript(home, write(tmp_path / "chat.jsonl", JSONL), wing="friends")
    assert [s.id[:10] for s in written] == ["2023-05-08", "2023-05-25"]
    first = Journal.load(written[0].journal)
    assert first.started.isoformat().startswith("2023-05-08T13:56")
    assert first.wing == "friends" and first.ended is not None
    assert [m["role"] for m in first.messages] == ["user", "assistant", "user"]
    assert first.messages[0]["content"].startswith("Caroline: I went to a support group")
    archive = written[0].archive.read_text(encoding="utf-8")
    assert "- Started: 2023-05-08 13:56" in archive and "- Turns: 2" in archive
    for session in written:
        assert stat.S_IMODE(session.journal.stat().st_mode) == 0o600
        assert stat.S_IMODE(session.archive.stat().st_mode) == 0o600
    assert [info.date for info in list_sessions(home)] == ["2023-05-25", "2023-05-08"]
    with RecallIndex(home) as index:
        hits = index.search("adoption agencies")
        assert hits[0].source == written[1].id and hits[0].date == "2023-05-25"
        assert index.search("support group", until=date(2023, 5, 10))[0].source == written[0].id
        text = format_hits(index.search("what happened at the support group"))
        assert "People shared their stories" in text and "[2023-05-08]" in text


def test_importing_the_same_transcript_again_adds_nothing(tmp_path: Path) -> None:
    home = tmp_path / "palace"
    file = write(tmp_path / "chat.jsonl", JSONL)
    first = import_transcript(home, file)
    again = import_transcript(home, file)
    assert [s.id for s in again] == [s.id for s in first] and all(s.existed for s in again)
    assert len(list((home / "sessions").glob("*.jsonl"))) == 2


def test_a_markdown_transcript_with_dated_headings(tmp_path: Path) -> None:
    text = (
        "# Chat export\n\n## 2023-06-01\n**User:** do you have pets?\nsecond line of it\n\n"
        "**Assistant:** Two turtles.\n\n## 3 July 2023\nuser: hi again\nassistant: **Note:** hello\n"
    )
    sessions = parse_transcript(text)
    assert [s.started.date().isoformat() for s in sessions if s.started] == ["2023-06-01", "2023-07-03"]
    assert [(m.role, m.content) for m in sessions[0].messages] == [
        ("user", "do you have pets?\nsecond line of it"),
        ("assistant", "Two turtles."),
    ]
    assert sessions[1].messages[1].content == "**Note:** hello"  # a bold label is no speaker here


def test_markdown_speaker_names_when_no_roles_are_used(tmp_path: Path) -> None:
    sessions = parse_transcript("Date: 2023-02-01\n**Ana:** I bought a kayak.\n**Bo:** Nice!\n")
    assert [(m.role, m.content) for m in sessions[0].messages] == [
        ("user", "Ana: I bought a kayak."),
        ("assistant", "Bo: Nice!"),
    ]


def test_dates_per_message_split_sessions_and_date_fills_the_undated(tmp_path: Path) -> None:
    lines = [
        {"role": "user", "content": "morning", "ts": "2023-01-05T09:00:00+01:00"},
        {"role": "assistant", "content": "hi", "ts": "2023-01-05T09:01:00+01:00"},
        {"role": "user", "content": "next day", "date": "2023-01-06"},
        {"role": "system", "content": "you are helpful"},
    ]
    sessions = parse_transcript("".join(json.dumps(x) + "\n" for x in lines))
    assert [len(s.messages) for s in sessions] == [2, 1]  # a system message is not a turn
    undated = write(tmp_path / "u.jsonl", [{"role": "user", "content": "no date here"}])
    with pytest.raises(PalaceError, match="--date"):
        import_transcript(tmp_path / "palace", undated)
    written = import_transcript(tmp_path / "palace", undated, day=date(2022, 12, 24))
    assert written[0].id.startswith("2022-12-24-")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json\n", "line 1 of the transcript is not JSON"),
        ('{"role": "user"}\n', "no content and no date"),
        ('{"role": "user", "content": "x", "date": "soon"}\n', "cannot read the date"),
        ("# nothing here\n", "holds no messages"),
    ],
)
def test_bad_transcripts_are_refused_with_clear_messages(tmp_path: Path, content: str, message: str) -> None:
    file = tmp_path / "bad.jsonl"
    file.write_text(content, encoding="utf-8")
    with pytest.raises(PalaceError, match=message):
        import_transcript(tmp_path / "palace", file, day=date(2023, 1, 1))
    assert (
        not list((tmp_path / "palace" / "sessions").glob("*")) if (tmp_path / "palace" / "sessions").exists() else True
    )


def test_the_command_line_imports_and_reports(tmp_path: Path) -> None:
    home = tmp_path / "palace"
    file = write(tmp_path / "chat.jsonl", [{"role": "user", "content": "we picked a heron for the logo"}])
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "PALACE_"))}
    env["PALACE_HOME"] = str(home)
    cwd = tmp_path / "cwd"
    cwd.mkdir()

    def palace(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "palace", *args]
        return subprocess.run(command, env=env, capture_output=True, text=True, timeout=60, cwd=cwd)

    done = palace("import-transcript", str(file), "--date", "2023-04-02", "--wing", "design")
    assert done.returncode == 0, done.stderr
    assert "2023-04-02-" in done.stdout and "1 message " in done.stdout
    assert "already imported" in palace("import-transcript", str(file), "--date", "2023-04-02").stdout
    found = palace("sessions", "search", "heron", "logo")
    assert "[2023-04-02] user: we picked a heron for the logo" in found.stdout
    assert " · wing design\n" in found.stdout
    refused = palace("import-transcript", str(file))
    assert refused.returncode == 1 and "--date" in refused.stderr
