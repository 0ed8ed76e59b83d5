"""Claude Code's hooks are kill-safe and bounded: a hook killed at any step of an import is finished by the next
run (one journal, one archive, one extraction's worth of memories); a transcript that is no regular file or is
too big is refused in one line; an unreadable line is skipped and counted; what looks like a secret never
reaches the journal or the model; session-start's context stays within 10,000 characters and names the tools
the client has.

The kill tests run the real `palace hook session-end` as a process that sends itself SIGKILL at a named step
(PALACE_TEST_KILL_AT, read by palace/mcp/hooks.py), then run it again without.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from palace.app import App
from palace.config import load_settings
from palace.mcp.hooks import CONTEXT_CHARS, KILL_STEPS, run_hook
from palace.model.prompts import load_prompt, system_prompt
from palace.recall import RecallIndex
from palace.testing.server import ScriptedServer, Step

SESSION = "0c6f3b2a-1d4e-4a5b-8c7d-9e0f1a2b3c4d"
SAID = [
    ("user", "We picked SQLite in WAL mode for the heron event store."),
    ("assistant", "Good choice: WAL lets readers run while the writer appends."),
    ("user", "Schema changes go in numbered SQL files under migrations."),
    ("assistant", "I will add migrations/004_wal.sql for the heron store."),
    ("user", "And the nightly backup runs at three with litestream."),
    ("assistant", "Noted: litestream replicates the heron database nightly."),
]
HIGH = "The heron event store uses SQLite in WAL mode"
MEDIUM = "Schema changes for heron go in numbered SQL files"
TOKEN = "ghp_" + "Zx9Yw8Vu7Tq6Rp5So4Zx9Yw8Vu7Tq6Rp5So4"  # a GitHub token's shape (not a real one)


def _record(n: int, role: str, text: str) -> dict[str, Any]:
    message: dict[str, Any] = {"role": role, "content": [{"type": "text", "text": text}]}
    if role == "assistant":
        message["model"] = "claude-sonnet-4-5"
    return {"type": role, "uuid": f"line-{n}", "sessionId": SESSION, "message": message}


def _transcript(path: Path, said: Sequence[tuple[str, str]] = SAID, extra: Sequence[bytes] = ()) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(_record(n, role, text)).encode() for n, (role, text) in enumerate(said)]
    path.write_bytes(b"".join(line + b"\n" for line in [*lines, *extra]))
    return path


def _hook_input(transcript: Path | str, cwd: Path) -> str:
    return json.dumps(
        {
            "session_id": SESSION,
            "transcript_path": str(transcript),
            "cwd": str(cwd),
            "hook_event_name": "SessionEnd",
            "reason": "exit",
        }
    )


def _extraction(body: dict[str, Any]) -> Step:
    memories = [
        {"path": "Decisions/event-store", "content": HIGH, "confidence": "high"},
        {"path": "Workflow Patterns/migrations", "content": MEDIUM, "confidence": "medium"},
    ]
    return Step(text=json.dumps({"summary": "Picked SQLite WAL for the heron store.", "memories": memories}))


def _env(home: Path, server: ScriptedServer | None = None, **more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "PALACE_"))}
    env.update(PALACE_HOME=str(home), HOME=str(home.parent), PYTHONDONTWRITEBYTECODE="1", **more)
    if server is not None:
        env.update(OPENAI_BASE_URL=server.base_url, OPENAI_API_KEY="test-key")
    return env


def _hook(event: str, stdin: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "palace", "hook", event],
        input=stdin,
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _journal_messages(home: Path) -> list[dict[str, Any]]:
    journals = list((home / "sessions").glob("*.jsonl"))
    assert len(journals) == 1, journals
    records = [json.loads(line) for line in journals[0].read_text().splitlines() if line.strip()]
    return [r["message"] for r in records if r.get("type") == "message"]


@pytest.fixture
def palace(tmp_path: Path) -> Path:
    home = tmp_path / "palace"
    home.mkdir()
    (home / "config.toml").write_text("[extraction]\nmin_chars = 10\n")
    return home


@pytest.mark.e2e
@pytest.mark.parametrize("step", KILL_STEPS)
def test_a_hook_killed_at_any_step_is_finished_by_the_next_run(
    step: str, palace: Path, tmp_path: Path, fake_server: ScriptedServer
) -> None:
    fake_server.responder = _extraction
    transcript = _transcript(tmp_path / "claude" / f"{SESSION}.jsonl")
    cwd = tmp_path / "work"
    cwd.mkdir()
    stdin = _hook_input(transcript, cwd)

    killed = _hook("session-end", stdin, _env(palace, fake_server, PALACE_TEST_KILL_AT=step), cwd)
    assert killed.returncode == -signal.SIGKILL, (step, killed.returncode, killed.stderr)
    asked = len(fake_server.requests)
    journals_before = sorted(p.name for p in (palace / "sessions").glob("*.jsonl"))

    again = _hook("session-end", stdin, _env(palace, fake_server), cwd)
    assert again.returncode == 0 and again.stdout == "", again.stderr
    assert "failed" not in again.stderr, again.stderr

    journals = list((palace / "sessions").glob("*.jsonl"))
    archives = list((palace / "sessions").glob("*.md"))
    assert len(journals) == 1 and len(archives) == 1, (journals, archives)
    assert archives[0].stem == journals[0].stem
    if step == "journal":  # the killed run's journal (its header alone) was removed, not archived
        assert journals_before and journals[0].name not in journals_before
    messages = _journal_messages(palace)
    assert [(m["role"], m["content"]) for m in messages] == SAID, "every message once, in order"
    # The extraction ran once: what it saved and proposed is there once; the model was asked again only when the
    # first run was killed between its answer and the journal's note of it.
    assert len(fake_server.requests) == (2 if step == "proposed" else 1), (asked, len(fake_server.requests))
    assert (palace / "memories.md").read_text().count(HIGH) == 1
    assert (palace / "review.md").read_text().count(MEDIUM) == 1
    record = json.loads(next((palace / ".index" / "claude-code").glob("*.json")).read_text())
    assert "pending" not in record and len(record["seen"]) == len(SAID) and record["palace"] == journals[0].stem
    with RecallIndex(palace) as index:
        hits = index.search("litestream nightly backup")
        assert hits and hits[0].source == journals[0].stem


@pytest.mark.e2e
def test_a_finished_import_after_a_kill_then_nothing_new(
    palace: Path, tmp_path: Path, fake_server: ScriptedServer
) -> None:
    fake_server.responder = _extraction
    transcript = _transcript(tmp_path / "claude" / f"{SESSION}.jsonl", SAID[:4])
    cwd = tmp_path / "work"
    cwd.mkdir()
    stdin = _hook_input(transcript, cwd)
    killed = _hook("pre-compact", stdin, _env(palace, fake_server, PALACE_TEST_KILL_AT="message"), cwd)
    assert killed.returncode == -signal.SIGKILL
    _transcript(transcript, SAID)  # Claude Code went on; then the session ended
    ended = _hook("session-end", stdin, _env(palace, fake_server), cwd)
    assert ended.returncode == 0 and "finished an interrupted import" in ended.stderr, ended.stderr
    assert [(m["role"], m["content"]) for m in _journal_messages(palace)] == SAID
    assert len(list((palace / "sessions").glob("*.md"))) == 1
    once_more = _hook("session-end", stdin, _env(palace, fake_server), cwd)
    assert once_more.returncode == 0 and "nothing new to import" in once_more.stderr, once_more.stderr
    assert len(_journal_messages(palace)) == len(SAID)


def _fifo(tmp_path: Path) -> Path:
    path = tmp_path / "fifo.jsonl"
    os.mkfifo(path)
    return path


def _link_elsewhere(tmp_path: Path) -> Path:
    target = _transcript(tmp_path / "elsewhere" / "real.jsonl")
    link = tmp_path / "claude" / "link.jsonl"
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(target)
    return link


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "a-folder.jsonl"
    folder.mkdir()
    return folder


@pytest.mark.e2e
@pytest.mark.parametrize(
    ("make", "said"),
    [
        (_fifo, "FIFO"),
        (lambda tmp_path: Path("/dev/zero"), "device"),
        (_link_elsewhere, "symbolic link"),
        (_folder, "folder"),
    ],
)
def test_a_transcript_that_is_no_regular_file_is_refused_in_one_line(
    make: Any, said: str, palace: Path, tmp_path: Path
) -> None:
    path = make(tmp_path)
    cwd = tmp_path / "work"
    cwd.mkdir()
    done = _hook("session-end", _hook_input(path, cwd), _env(palace), cwd)  # the timeout: a FIFO never hangs it
    assert done.returncode == 0 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("palace: hook session-end failed: the transcript"), done.stderr
    assert said in lines[0], lines[0]
    assert not list(palace.glob("sessions/*")) and not list(palace.glob(".index/claude-code/*.json"))


def _run(event: str, stdin: str, home: Path) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    assert run_hook(event, {"home": home}, io.StringIO(stdin), out, err) == 0
    return out.getvalue(), err.getvalue()


def test_a_transcript_over_the_size_limit_is_refused(palace: Path, tmp_path: Path) -> None:
    (palace / "config.toml").write_text("[extraction]\nenabled = false\n\n[hooks]\nmax_transcript_bytes = 1024\n")
    transcript = _transcript(tmp_path / "t.jsonl", SAID * 3)
    out, err = _run("session-end", _hook_input(transcript, tmp_path), palace)
    assert out == "" and err.count("\n") == 1 and "over the limit of 1,024" in err, err
    assert not (palace / "sessions").exists()
    (palace / "config.toml").write_text("[extraction]\nenabled = false\n")  # the default: 64 MiB
    out, err = _run("session-end", _hook_input(transcript, tmp_path), palace)
    assert f"imported 18 messages of Claude Code session {SESSION}" in err, err
    assert load_settings({"home": palace}).hook_max_transcript_bytes == 64 * 1024 * 1024


def test_one_bad_line_is_skipped_and_counted_never_the_whole_import(palace: Path, tmp_path: Path) -> None:
    (palace / "config.toml").write_text("[extraction]\nenabled = false\n")
    bad = [
        b"[" * 100_000 + b"]" * 100_000,  # nested deeper than Python's parser goes: RecursionError
        b'{"type": "user", "uuid": "x", "message": {"content": "cut',  # not JSON
        b'{"type": "user", "uuid": "y", "message": {"content": "caf\xe9"}}',  # not UTF-8
        b'{"type": "assistant", "uuid": "z", "message": 5}',  # the wrong shape
        b'"just a string"',
    ]
    transcript = _transcript(tmp_path / "t.jsonl", SAID, bad)
    with transcript.open("ab") as handle:
        handle.write(b'{"type": "user", "uuid": "w", "mess')  # Claude Code still writing it: not counted
    out, err = _run("session-end", _hook_input(transcript, tmp_path), palace)
    assert out == "" and "failed" not in err, err
    assert "imported 6 messages" in err and "skipped 5 unreadable lines" in err, err
    assert [(m["role"], m["content"]) for m in _journal_messages(palace)] == SAID


def test_a_secret_in_a_transcript_reaches_neither_the_journal_nor_the_model(
    palace: Path, tmp_path: Path, fake_server: ScriptedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_server.responder = _extraction
    said = [*SAID[:2], ("user", f"The deploy token is {TOKEN} for the heron store, keep it handy.")]
    transcript = _transcript(tmp_path / "t.jsonl", said)
    monkeypatch.setenv("OPENAI_BASE_URL", fake_server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    _out, err = _run("session-end", _hook_input(transcript, tmp_path), palace)
    assert "imported 3 messages" in err, err
    journal = next((palace / "sessions").glob("*.jsonl")).read_text()
    archive = next((palace / "sessions").glob("*.md")).read_text()
    asked = json.dumps(fake_server.requests)
    assert TOKEN not in journal and TOKEN not in archive and TOKEN not in asked
    assert "for the heron store, keep it handy" in journal


# ---------------------------------------------------------------------- session start


def _big_memories(entries: int, wing: str | None, words: str) -> str:
    hall = "## ifai\n\n### Decisions\n\n#### choices\n" if wing else "## Preferences\n\n### habits\n"
    lines = [f"- [2026-{1 + n % 12:02d}-{1 + n % 28:02d}] {words} {n} keeps the build honest" for n in range(entries)]
    return hall + "\n".join(lines) + "\n"


@pytest.fixture
def project(tmp_path: Path, palace: Path) -> Path:
    root = tmp_path / "ifai"
    (root / ".palace").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / ".palace" / "memories.md").write_text(_big_memories(400, None, "Team rule"))
    (palace / "memories.md").write_text(
        _big_memories(300, None, "Personal habit") + _big_memories(300, "ifai", "Choice")
    )
    return root


def _context(palace: Path, project: Path) -> str:
    stdin = json.dumps({"session_id": "s1", "cwd": str(project), "hook_event_name": "SessionStart"})
    out, err = _run("session-start", stdin, palace)
    assert err == "", err
    context: str = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    return context


def test_the_session_start_context_stays_within_10000_characters_without_tools(palace: Path, project: Path) -> None:
    context = _context(palace, project)
    assert len(context) <= CONTEXT_CHARS == 10_000, len(context)
    assert "Personal habit" in context and "Choice" in context and "Team rule" in context
    left_out = [line for line in context.splitlines() if "entries left out to fit the" in line]
    assert len(left_out) == 2 and all(line.endswith(".)") and "MemoryRecall" not in line for line in left_out)
    for tool in ("MemoryRecall", "memory_recall", "memory_save", "MCP"):
        assert tool not in context, tool


def test_the_session_start_context_names_the_mcp_tools_when_claude_code_has_them(
    palace: Path, project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sdk = tmp_path / "site" / "mcp"
    sdk.mkdir(parents=True)
    (sdk / "__init__.py").write_text("")  # the MCP SDK `palace mcp` needs, as far as finding it goes
    monkeypatch.syspath_prepend(str(sdk.parent))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    assert "memory_recall" not in _context(palace, project), "the SDK alone: Claude Code has no palace server"
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"memory": {"command": "palace", "args": ["mcp"]}}}))
    context = _context(palace, project)
    assert len(context) <= CONTEXT_CHARS and "`memory_recall` finds them.)" in context and "memory_save" in context
    assert "MemoryRecall" not in context
    (project / ".mcp.json").unlink()
    config = {"projects": {str(project): {"mcpServers": {"palace": {"command": "/opt/bin/palace", "args": ["mcp"]}}}}}
    (tmp_path / "home" / ".claude.json").write_text(json.dumps(config))
    assert "`memory_recall` finds them.)" in _context(palace, project)


def test_the_repl_prompt_keeps_its_own_tool_name(palace: Path, project: Path) -> None:
    app = App(load_settings({"home": palace}), warn=print, cwd=project)
    rendered = app.store.render(["ifai"], app.settings.memory_budget)
    prompt = system_prompt(load_prompt("system.md"), rendered, ["ifai"], memory_section=load_prompt("system-memory.md"))
    assert "MemoryRecall finds them.)" in prompt and "memory_recall" not in prompt
