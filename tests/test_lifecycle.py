"""A session's end and its orphans, with extraction on the scripted server: finish, archive_orphans, retries."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from extraction_env import NO_RETRY, Env, Gate, answer, turn

from palace.config import Settings
from palace.errors import PalaceError
from palace.memory.halls import parse_path
from palace.memory.ops import ChangeResult
from palace.sessions.catalog import find_orphans
from palace.sessions.journal import Journal
from palace.sessions.lifecycle import finish, resume
from palace.testing.server import ScriptedServer, Step


@pytest.fixture
def env(fake_server: ScriptedServer, settings_for: Callable[..., Settings]) -> Env:
    return Env(settings_for(fake_server), fake_server)


def test_restart_never_reextracts(env: Env) -> None:
    journal = env.journal()
    turn(journal, "The ifai front end is Vue 3 inside Tauri. " * 60, "ok " * 500)
    env.server.add(answer("Front end.", ("ifai/Project Knowledge/frontend-stack", "The front end is Vue 3 in Tauri")))
    first = env.extractor()
    assert first.maybe_start(journal) is True
    first.wait(10)
    journal.close()  # the process ends (or crashes) here
    loaded = Journal.load(journal.path)
    second = env.extractor()
    assert loaded.extracted_upto == 2 and loaded.summary == "Front end."
    assert second.pending_chars(loaded) == 0
    assert second.maybe_start(loaded) is False and second.extract(loaded) is None
    resumed = resume(env.home, journal.id)
    assert resumed.extracted_upto == 2 and env.extractor().maybe_start(resumed) is False
    resumed.close()
    assert len(env.server.requests) == 1


def test_finish_runs_the_final_extraction_and_archives(env: Env) -> None:
    journal = env.journal()
    turn(journal, "I write backends in Rust; ifai uses Tauri. " * 10, "Understood.")
    journal.add_memory(
        ChangeResult(
            "saved", parse_path("Preferences/programming-languages"), "The user writes backends in Rust", by="model"
        )
    )
    journal.add_usage(1_200, 300)
    env.server.add(answer("Rust backends and Tauri.", ("ifai/Project Knowledge/frontend-stack", "ifai uses Tauri")))
    archive = finish(env.extractor(), journal)
    assert archive == env.home / "sessions" / f"{journal.id}.md"
    text = archive.read_text()
    assert f"# Session {journal.id[:10]} · {journal.id[11:]}\n" in text
    assert "## Summary\nRust backends and Tauri.\n" in text
    assert "- Input: 1,500\n- Output: 340\n- Total: 1,840\n" in text  # the extraction call is counted too
    assert (
        "- **Preferences/programming-languages**: The user writes backends in Rust (saved by the model)\n"
        "- **ifai/Project Knowledge/frontend-stack**: ifai uses Tauri (extracted, saved)\n"
    ) in text
    assert env.commits == [([archive], f"session: archive {journal.id}")]
    records = [json.loads(line) for line in journal.path.read_text().splitlines()]
    assert records[-1]["type"] == "end" and records[-2]["type"] == "extracted"
    assert not journal.owned and find_orphans(env.home) == []


def test_finish_below_minimum_does_not_call_the_model(env: Env) -> None:
    journal = env.journal()
    turn(journal, "hi", "hello!")
    archive = finish(env.extractor(), journal)
    assert archive is not None and env.server.requests == []
    assert '## Summary\n(no summary: a short session) It began with: "hi"\n' in archive.read_text()


def test_finish_of_an_empty_session_leaves_nothing(env: Env) -> None:
    journal = env.journal()
    assert finish(env.extractor(), journal) is None
    assert not journal.path.exists() and [p.name for p in (env.home / "sessions").iterdir()] == [".live"]
    assert list((env.home / "sessions" / ".live").iterdir()) == []  # nor a registry entry


def test_finish_after_a_background_extraction(env: Env) -> None:
    journal = env.journal()
    turn(journal, "a" * 4000, "b")
    extractor = env.extractor()
    gate = Gate(answer("First."))
    env.server.responder = gate
    assert extractor.maybe_start(journal)
    assert gate.asked.wait(30)  # the background extraction is waiting for its answer
    turn(journal, "Final words about ifai. " * 20, "bye")
    env.server.add(answer("Whole session."))
    archived: list[Path | None] = []
    finisher = threading.Thread(target=lambda: archived.append(finish(extractor, journal)))
    finisher.start()
    gate.opened.set()
    finisher.join(30)
    (archive,) = archived  # finish waited for the first extraction, then extracted the rest
    assert archive is not None and "## Summary\nWhole session.\n" in archive.read_text()
    assert len(env.server.requests) == 2 and "Final words" in env.request_text(1)
    assert "Summary of the session so far: First." in env.request_text(1)
    assert "a" * 4000 not in env.request_text(1)


_OWNER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from palace.sessions.journal import Journal
    journal = Journal.start(Path(sys.argv[1]), model="m", wing="ifai")
    journal.add_message({"role": "user", "content": "LIVE SESSION " * 40})
    print(journal.id, flush=True)
    sys.stdin.read()
    """
)


def test_orphans_archived_at_start_but_never_a_live_session(env: Env) -> None:
    crashed = env.journal()
    turn(crashed, "We keep migrations in ifai/db/migrations. " * 10, "ok")
    crashed.close()  # died without finishing
    empty = env.journal()
    empty.close()
    owner = subprocess.Popen(
        [sys.executable, "-c", _OWNER, str(env.home)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert owner.stdout is not None
        live_id = owner.stdout.readline().strip()
        env.server.add(
            answer("Migrations.", ("ifai/Project Knowledge/migrations", "Migrations live in ifai/db/migrations"))
        )
        notices = env.orphans(commit=lambda p, m: env.commits.append((p, m)), warn=env.warnings.append)
        assert sorted(notices) == sorted(
            [
                f"Archived the unfinished session {crashed.id} (1 turn, 1 memory extracted: ifai/Project "
                "Knowledge/migrations: Migrations live in ifai/db/migrations (saved))",
                f"Removed the empty journal of the unfinished session {empty.id}",
            ]
        )
        assert len(env.server.requests) == 1 and "LIVE SESSION" not in env.request_text()
        assert (env.home / "sessions" / f"{crashed.id}.md").exists()
        assert not (env.home / "sessions" / f"{live_id}.md").exists()
        assert (env.home / "sessions" / f"{live_id}.jsonl").read_text().count("\n") == 2  # untouched
        assert env.orphans() == []  # nothing left to do, nothing twice
    finally:
        owner.kill()
        owner.wait(10)
    assert [p.name for p in find_orphans(env.home)] == [f"{live_id}.jsonl"]


def test_orphan_extraction_failure_still_archives_and_can_be_retried(env: Env) -> None:
    ids = []
    for n in range(2):
        journal = env.journal()
        turn(journal, f"Session {n}: ifai uses pnpm workspaces. " * 10, "ok")
        journal.close()
        ids.append(journal.id)
    env.server.add(Step(status=502, text="bad gateway", headers=NO_RETRY))
    notices = env.orphans(warn=env.warnings.append)
    assert len(notices) == 2 and len(env.server.requests) == 1  # the second does not wait for it again
    for session_id, notice in zip(ids, sorted(notices, key=lambda n: ids.index(n.split()[4])), strict=True):
        assert notice.startswith(f"Archived the unfinished session {session_id} without a summary (extraction failed: ")
        assert f"retry with `palace sessions extract {session_id}`" in notice
        archive = (env.home / "sessions" / f"{session_id}.md").read_text()
        assert "## Summary\n(no summary: extraction failed: " in archive
        assert Journal.load(env.home / "sessions" / f"{session_id}.jsonl").extracted_upto == 0
    assert find_orphans(env.home) == []
    # `palace sessions extract ID`: extract, then rewrite the archive
    journal = Journal.load(env.home / "sessions" / f"{ids[0]}.jsonl")
    extractor = env.extractor()
    env.server.add(answer("pnpm.", ("ifai/Project Knowledge/packages", "ifai uses pnpm workspaces")))
    outcome = extractor.extract(journal, force=True)
    assert outcome is not None and journal.extracted_upto == 2
    archive_path = finish(extractor, journal)
    assert archive_path is not None and "## Summary\npnpm.\n" in archive_path.read_text()
    assert "(extracted, saved)" in archive_path.read_text()


def test_forced_reextraction_and_live_sessions_refused(env: Env) -> None:
    journal = env.journal()
    turn(journal, "The ifai CLI is built with clap. " * 10, "ok")
    env.server.add(answer("clap.", ("ifai/Project Knowledge/cli", "The ifai CLI is built with clap")))
    extractor = env.extractor()
    assert extractor.extract(journal) is not None
    assert extractor.extract(journal) is None  # nothing pending
    view = Journal.load(journal.path)
    with pytest.raises(PalaceError, match="in use by a running palace"):
        extractor.extract(view, force=True)  # the live owner (this journal object) keeps it
    env.server.add(answer("clap again.", ("ifai/Project Knowledge/cli", "The ifai CLI is built with clap")))
    outcome = extractor.extract(journal, force=True)
    assert outcome is not None and [r.action for r in outcome.results] == ["unchanged"]
    assert journal.extracted_upto == 2 and len(env.server.requests) == 2
    journal.close()
