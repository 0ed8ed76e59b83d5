"""Claude Code's hooks with inputs and a transcript in the shape Claude Code records (tests/fixtures/claude_code/).

session-start gives the project's memory as additionalContext; pre-compact then session-end import the
transcript as one palace session (only the new part the second time; nothing twice), with extraction through
the review rules and the session findable by recall; whatever goes wrong, a hook exits 0 with one line on stderr.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from palace.mcp.hooks import chat_messages, read_transcript
from palace.testing.server import ScriptedServer, Step

FIXTURES = Path(__file__).parent / "fixtures" / "claude_code"
SESSION = "8f1d2c3a-5b6e-4f70-9a81-b2c3d4e5f607"
Run = Callable[..., Any]


def _repo(path: Path) -> Path:
    path.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


def _input(name: str, transcript: Path, cwd: Path) -> str:
    """A recorded hook input, pointed at this test's transcript and project folder."""
    data = json.loads((FIXTURES / name).read_text())
    data.update(transcript_path=str(transcript), cwd=str(cwd))
    return json.dumps(data)


def _parts() -> tuple[list[str], list[str]]:
    """The transcript as it stood when compaction began, and what came after."""
    lines = (FIXTURES / "transcript.jsonl").read_text().splitlines(keepends=True)
    cut = next(n for n, line in enumerate(lines) if '"compact_boundary"' in line)
    return lines[:cut], lines[cut:]


def _extraction(body: dict[str, Any]) -> Step:
    """The extraction model: what each part of the session is worth remembering, with its confidence."""
    asked = body["messages"][-1]["content"]
    if "WAL" in asked and "tabs" not in asked:
        memories = [
            {
                "path": "ifai/Decisions/database",
                "content": "The event store uses SQLite in WAL mode",
                "confidence": "high",
            },
            {"path": "ifai/Workflow Patterns/migrations", "content": "Schema changes go in numbered SQL files"},
        ]
        return Step(text=json.dumps({"summary": "Chose SQLite with WAL; added migration 003.", "memories": memories}))
    memories = [{"path": "Preferences/sql-style", "content": "Prefers tabs over spaces in SQL", "confidence": "high"}]
    return Step(text=json.dumps({"summary": "Also: tabs in SQL files.", "memories": memories}))


def _journal_messages(home: Path) -> list[dict[str, Any]]:
    journals = list((home / "sessions").glob("*.jsonl"))
    assert len(journals) == 1, journals
    records = [json.loads(line) for line in journals[0].read_text().splitlines()]
    return [r["message"] for r in records if r["type"] == "message"]


def test_the_transcript_reader_keeps_what_was_said_in_the_main_thread() -> None:
    messages = chat_messages(read_transcript(FIXTURES / "transcript.jsonl"))
    assert messages == [
        {
            "role": "user",
            "content": "We settled on SQLite in WAL mode for the ifai event store. "
            "Please add a migration that turns WAL on.",
        },
        {
            "role": "assistant",
            "content": "I'll add a migration that switches the event store to WAL.\n\n"
            "Done: migrations/003_wal.sql turns on WAL for the event store.",
        },
        {"role": "user", "content": "Also: I prefer tabs over spaces in SQL files."},
        {"role": "assistant", "content": "Noted: tabs in SQL files from now on."},
    ]


def test_pre_compact_then_session_end_import_one_session_once(
    run_cli: Run, palace_home: Path, tmp_path: Path, fake_server: ScriptedServer
) -> None:
    palace_home.mkdir()
    (palace_home / "config.toml").write_text("[extraction]\nmin_chars = 10\n")
    fake_server.responder = _extraction
    env = {"OPENAI_BASE_URL": fake_server.base_url, "OPENAI_API_KEY": "test-key"}
    project = _repo(tmp_path / "ifai")
    transcript = tmp_path / "claude" / f"{SESSION}.jsonl"
    transcript.parent.mkdir()
    before, after = _parts()
    transcript.write_text("".join(before))

    compacted = run_cli("hook", "pre-compact", stdin=_input("pre_compact.json", transcript, project), env=env)
    assert compacted.returncode == 0 and compacted.stdout == "", compacted.stderr
    assert f"imported 2 messages of Claude Code session {SESSION}" in compacted.stderr
    assert "Proposed for review: ifai/Workflow Patterns/migrations" in compacted.stderr
    first = _journal_messages(palace_home)
    assert [m["role"] for m in first] == ["user", "assistant"]
    assert "Caveat" not in str(first) and "Sub-agent" not in str(first) and "journal_mode" not in str(first)
    memories = (palace_home / "memories.md").read_text()
    assert "The event store uses SQLite in WAL mode" in memories and "numbered SQL files" not in memories
    assert "Schema changes go in numbered SQL files" in (palace_home / "review.md").read_text()

    transcript.write_text("".join(before + after))  # Claude Code appended the rest, then the session ended
    ended = run_cli("hook", "session-end", stdin=_input("session_end.json", transcript, project), env=env)
    assert ended.returncode == 0 and ended.stdout == "", ended.stderr
    assert "imported 2 messages" in ended.stderr
    messages = _journal_messages(palace_home)
    assert messages[:2] == first and len(messages) == 4 and "tabs over spaces" in messages[2]["content"]
    assert len(list((palace_home / "sessions").glob("*.md"))) == 1
    extraction_asks = [r["messages"][-1]["content"] for r in fake_server.requests]
    assert len(extraction_asks) == 2 and "We settled" not in extraction_asks[1], "the first part was extracted again"
    assert "Prefers tabs over spaces in SQL" in (palace_home / "memories.md").read_text()
    archive = next((palace_home / "sessions").glob("*.md")).read_text()
    assert "Chose SQLite with WAL" in archive or "tabs in SQL" in archive

    again = run_cli("hook", "session-end", stdin=_input("session_end.json", transcript, project), env=env)
    assert again.returncode == 0 and "nothing new to import" in again.stderr
    assert len(fake_server.requests) == 2 and len(_journal_messages(palace_home)) == 4

    found = run_cli("sessions", "search", "WAL", "migration")
    journal_id = next((palace_home / "sessions").glob("*.md")).stem
    assert found.returncode == 0 and journal_id in found.stdout, found.stdout


def test_session_start_gives_the_project_memory_as_additional_context(
    run_cli: Run, palace_home: Path, tmp_path: Path
) -> None:
    project = _repo(tmp_path / "ifai")
    transcript = tmp_path / "t.jsonl"
    hook_input = _input("session_start.json", transcript, project)
    empty = run_cli("hook", "session-start", stdin=hook_input)
    assert empty.returncode == 0 and empty.stdout == "", "no memory yet: nothing to add"
    for path, content in [
        ("ifai/Decisions/database", "The event store uses SQLite in WAL mode"),
        ("other/Decisions/database", "Another project uses Postgres"),
        ("Preferences/editor", "Prefers helix"),
    ]:
        assert run_cli("memory", "save", path, content).returncode == 0
    started = run_cli("hook", "session-start", stdin=hook_input)
    assert started.returncode == 0, started.stderr
    output = json.loads(started.stdout)
    assert output["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    context = output["hookSpecificOutput"]["additionalContext"]
    assert "The event store uses SQLite in WAL mode" in context and "Prefers helix" in context
    assert "Postgres" not in context and "The current wing is `ifai`" in context
    assert "never anything secret" in " ".join(context.split())


@pytest.mark.parametrize(
    ("args", "stdin", "said"),
    [
        (["session-end"], '{"session_id": "../../etc", "transcript_path": "/x"}', "is not a session id"),
        (["pre-compact"], json.dumps({"session_id": "abc", "transcript_path": "/no/such.jsonl"}), "does not exist"),
        (["session-begin"], "{}", 'unknown hook "session-begin"'),
        (["session-start"], json.dumps({"session_id": "abc", "cwd": "/"}), "invalid settings"),
        (["session-start"], "[]", "not a JSON object"),
    ],
)
def test_a_hook_never_fails_claude_code(
    run_cli: Run, palace_home: Path, args: list[str], stdin: str, said: str
) -> None:
    palace_home.mkdir()
    if "invalid settings" in said:
        (palace_home / "config.toml").write_text('wing = "not a wing!"\n')
    done = run_cli("hook", *args, stdin=stdin)
    assert done.returncode == 0 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("palace: hook ") and said in lines[0], done.stderr


def test_a_hook_process_exits_0_on_input_it_cannot_read(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "PALACE_"))}
    env["PALACE_HOME"] = str(tmp_path / "palace-home")
    done = subprocess.run(
        [sys.executable, "-m", "palace", "hook", "session-end"],
        input="{not json",
        env=env,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0 and done.stdout == ""
    assert done.stderr.startswith("palace: hook session-end failed: stdin is not JSON") and done.stderr.count("\n") == 1
