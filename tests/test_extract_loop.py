"""Extraction in process, against the ChatModel seam (a ScriptedModel): when it starts, what it is given, what
it keeps of the answer, where each item goes, and how its bookkeeping survives failures. What only the real
client over HTTP can show (the wire, its retries and fallbacks) is in test_extract.py.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

import pytest
from extraction_env import NO_RETRY, Env, Gate, answer, turn

from palace.config import Settings
from palace.memory.halls import HALL_LIST, parse_path
from palace.memory.ops import ChangeResult
from palace.sessions.catalog import find_orphans
from palace.sessions.extract import (
    MAX_CONVERSATION_CHARS,
    MAX_ITEMS,
    MAX_SUMMARY_CHARS,
    ExtractionOutcome,
    Extractor,
)
from palace.sessions.extract_prompt import MAX_MESSAGE_CHARS
from palace.sessions.journal import Journal
from palace.sessions.lifecycle import finish
from palace.testing.scripted import ScriptedModel
from palace.testing.server import Step

SECRET = "sk-proj-" + "Zx9Yw8Vu7" * 3


@pytest.fixture
def env(settings_for: Callable[..., Settings]) -> Env:
    return Env(settings_for(), ScriptedModel())


def _items(*items: tuple[str, str, str]) -> Step:
    """An extraction answer with (path, content, confidence) items."""
    memories = [{"path": p, "content": c, "confidence": level} for p, c, level in items]
    return Step(text=json.dumps({"summary": "Routing.", "memories": memories}))


# ---------------------------------------------------------------------- when it starts


def test_trigger_threshold_once_and_never_twice(env: Env) -> None:
    journal = env.journal()
    extractor = env.extractor()
    turn(journal, "I write the ifai backend in Rust. " + "x" * 966, "b" * 2999)  # 3,999 characters
    assert extractor.pending_chars(journal) == 3999
    assert extractor.maybe_start(journal) is False and env.server.requests == []
    gate = Gate(answer("Backend talk.", ("ifai/Project Knowledge/backend", "The ifai backend is written in Rust")))
    env.server.responder = gate
    journal.add_message({"role": "user", "content": "!"})  # 4,000 exactly
    assert extractor.maybe_start(journal) is True
    # maybe_start has returned while the model cannot have answered yet: the caller never waits for it
    assert extractor.in_flight and journal.extracted_upto == 0
    assert extractor.maybe_start(journal) is False  # one in flight
    turn(journal, "y" * 3000, "z" * 1500)  # more than a trigger's worth arrives meanwhile
    assert extractor.maybe_start(journal) is False
    gate.opened.set()
    extractor.wait(30)
    assert len(env.server.requests) == 1
    assert journal.extracted_upto == 3  # what it was given, not what arrived meanwhile
    assert "- [" in env.memories() and "The ifai backend is written in Rust" in env.memories()
    assert extractor.pending_chars(journal) == 4500
    env.server.add(answer("More."))
    assert extractor.maybe_start(journal) is True  # the 4,500 that arrived meanwhile: a second round
    extractor.wait(30)
    assert extractor.maybe_start(journal) is False and len(env.server.requests) == 2
    assert "y" * 3000 in env.request_text() and "I write the ifai backend" not in env.request_text()
    assert env.warnings == []
    journal.close()


def test_disabled_extraction_never_starts(env: Env, settings_for: Callable[..., Settings]) -> None:
    for settings in (settings_for(extraction=False), settings_for(memory_enabled=False)):
        extractor = Extractor(settings, env.store, client=env.client, warn=env.warnings.append)
        journal = env.journal()
        turn(journal, "a" * 5000, "b")
        assert extractor.maybe_start(journal) is False
        journal.close()
    assert env.server.requests == [] and env.warnings == []


def test_a_trigger_from_the_settings(env: Env, settings_for: Callable[..., Settings]) -> None:
    extractor = Extractor(settings_for(extract_trigger=500), env.store, client=env.client, warn=env.warnings.append)
    journal = env.journal()
    turn(journal, "a" * 300, "b" * 199)
    assert extractor.maybe_start(journal) is False
    journal.add_message({"role": "user", "content": "!"})
    env.server.add(answer())
    assert extractor.maybe_start(journal) is True
    extractor.wait(30)
    assert journal.extracted_upto == 3 and len(env.server.requests) == 1
    journal.close()


# ---------------------------------------------------------------------- what it is given


def test_request_carries_halls_memories_wing_and_only_the_new_part(env: Env) -> None:
    env.store.save("Preferences/programming-languages", "The user writes backends in Rust")
    journal = env.journal()
    turn(journal, "old part " * 30, "old answer")
    journal.record_extraction(2, "Earlier summary.", [], 0)
    turn(journal, "We use PostgreSQL 16 for ifai.", "Good choice.")
    journal.add_message(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c", "type": "function", "function": {"name": "MemoryRecall", "arguments": '{"query": "db"}'}}
            ],
        }
    )
    journal.add_message({"role": "tool", "tool_call_id": "c", "content": "r" * 5000})
    env.server.add(answer())
    outcome = env.extractor().extract(journal)
    assert outcome is not None and outcome.upto == 6
    body = env.server.requests[0]
    assert body["stream"] is False and body["response_format"] == {"type": "json_object"}
    system, user = body["messages"]
    assert system["role"] == "system" and HALL_LIST in system["content"]
    assert "`ifai/Hall/room`" in system["content"] and "{{" not in system["content"]
    assert "The user writes backends in Rust" in user["content"]
    assert "Summary of the session so far: Earlier summary." in user["content"]
    assert "We use PostgreSQL 16 for ifai." in user["content"] and "old part" not in user["content"]
    assert '[assistant called MemoryRecall] {"query": "db"}' in user["content"]
    assert "r" * 301 not in user["content"]  # tool results are only summarised
    journal.close()


def test_user_prompt_override(env: Env) -> None:
    (env.home / "prompts").mkdir(parents=True)
    (env.home / "prompts" / "extract.md").write_text("MY OWN EXTRACTOR. Halls: {{halls}}", encoding="utf-8")
    journal = env.journal()
    turn(journal, "hello " * 50, "hi")
    env.server.add(answer())
    assert env.extractor().extract(journal) is not None
    assert env.server.requests[0]["messages"][0]["content"] == f"MY OWN EXTRACTOR. Halls: {HALL_LIST}"
    journal.close()


def test_a_long_backlog_is_extracted_in_batches_of_at_most_48000_characters(env: Env) -> None:
    journal = env.journal()
    # One huge message counts as MAX_MESSAGE_CHARS (the prompt cuts it): 4 x 12,000 = 48,000, a batch exactly.
    turn(journal, "H" * 30_000, "i" * MAX_MESSAGE_CHARS)
    turn(journal, "j" * MAX_MESSAGE_CHARS, "k" * MAX_MESSAGE_CHARS)
    journal.add_message({"role": "user", "content": "THE-LAST-WORD " * 10})
    extractor = env.extractor()
    env.server.add(answer("First batch."), answer("Second batch."))
    first = extractor.extract(journal)
    assert first is not None and first.upto == 4 and MAX_CONVERSATION_CHARS == 4 * MAX_MESSAGE_CHARS
    assert "k" * 1000 in env.request_text() and "THE-LAST-WORD" not in env.request_text()
    second = extractor.extract(journal)
    assert second is not None and second.upto == 5
    assert "THE-LAST-WORD" in env.request_text() and "k" * 1000 not in env.request_text()
    journal.close()


def test_a_background_extraction_takes_what_the_turn_end_had(env: Env) -> None:
    other = env.journal()
    turn(other, "Another session about ifai. " * 20, "ok")
    journal = env.journal()
    turn(journal, "TURN-END " * 450, "ok")  # over the trigger
    extractor = env.extractor()
    gate = Gate(answer("Held back."))
    env.server.responder = gate
    busy = threading.Thread(target=extractor.extract, args=(other,))  # holds the extractor meanwhile
    busy.start()
    assert gate.asked.wait(30)
    assert extractor.maybe_start(journal) is True  # it waits its turn behind the other extraction
    turn(journal, "LATER " * 800, "ok")  # more than a trigger's worth, after the turn end
    gate.opened.set()
    busy.join(30)
    extractor.wait(30)
    assert len(env.server.requests) == 2
    assert "TURN-END" in env.request_text() and "LATER" not in env.request_text()
    assert journal.extracted_upto == 2
    other.close()
    journal.close()


def test_a_queued_background_extraction_skips_what_an_explicit_one_did(env: Env) -> None:
    journal = env.journal()
    turn(journal, "FIRST-PART " * 450, "ok")
    extractor = env.extractor()
    gate = Gate(answer("First part."))
    env.server.responder = gate
    explicit = threading.Thread(target=extractor.extract, args=(journal,))
    explicit.start()
    assert gate.asked.wait(30)
    assert extractor.maybe_start(journal) is True  # queued behind the explicit one, same messages pending
    turn(journal, "SECOND-PART " * 400, "ok")
    env.server.add(answer("Second part."))
    gate.opened.set()
    explicit.join(30)
    extractor.wait(30)
    assert len(env.server.requests) == 2
    assert "SECOND-PART" in env.request_text() and "FIRST-PART" not in env.request_text()  # never twice
    assert journal.extracted_upto == 4 and journal.summary == "Second part."
    journal.close()


# ---------------------------------------------------------------------- bookkeeping: it advances on success only


def test_failure_then_retry_extracts_the_missed_part(env: Env) -> None:
    journal = env.journal()
    turn(journal, "MISSED-PART: we deploy ifai with docker compose. " * 50, "noted " * 300)
    before = env.memories()
    extractor = env.extractor()
    env.server.add(Step(status=500, text="upstream exploded", headers=NO_RETRY))
    assert extractor.maybe_start(journal) is True
    extractor.wait(10)
    assert journal.extracted_upto == 0 and env.memories() == before
    assert len(env.warnings) == 1 and "\n" not in env.warnings[0]
    assert "memory extraction failed" in env.warnings[0] and "500" in env.warnings[0]
    assert "upstream exploded" in env.warnings[0] and "the conversation is kept" in env.warnings[0]
    assert "extracted" not in journal.path.read_text()
    assert extractor.last_error is not None and "500" in extractor.last_error
    turn(journal, "NEW-PART: and we test with vitest. " * 20, "sure")
    env.server.add(
        answer(
            "Deploy and tests.",
            ("ifai/Workflow Patterns/deploy", "ifai is deployed with docker compose"),
            ("ifai/Workflow Patterns/testing", "Tests run with vitest"),
        )
    )
    assert extractor.maybe_start(journal) is True  # retried at the next completed turn
    extractor.wait(10)
    retry = env.request_text()
    assert "MISSED-PART" in retry and "NEW-PART" in retry
    assert journal.extracted_upto == 4 and extractor.last_error is None
    assert "ifai is deployed with docker compose" in env.memories() and len(env.warnings) == 1
    journal.close()


def test_retry_waits_after_a_failure(env: Env) -> None:
    journal = env.journal()
    turn(journal, "w" * 4100, "ok")
    extractor = env.extractor(retry_delay=60.0)
    env.server.add(Step(status=503, headers=NO_RETRY))
    assert extractor.maybe_start(journal) is True
    extractor.wait(10)
    turn(journal, "v" * 100, "ok")
    assert extractor.maybe_start(journal) is False  # not one failing call per turn
    env.server.add(answer())
    assert extractor.extract(journal) is not None  # an explicit extraction does not wait
    turn(journal, "u" * 4100, "ok")
    env.server.add(answer())
    assert extractor.maybe_start(journal) is True  # a success ends the wait
    extractor.wait(30)
    assert journal.extracted_upto == 6 and len(env.server.requests) == 3
    assert len(env.warnings) == 1
    journal.close()


def test_a_failed_save_is_a_failure_and_the_same_part_is_extracted_again(env: Env) -> None:
    journal = env.journal()
    turn(journal, "We host ifai on Fly.io. " * 20, "ok")
    env.store.file.mkdir(parents=True)  # memories.md cannot be read or written (a directory in its place)
    item = ("ifai/Project Knowledge/hosting", "ifai is hosted on Fly.io")
    env.server.add(answer("Hosting.", item))
    extractor = env.extractor()
    assert extractor.extract(journal) is None
    assert journal.extracted_upto == 0 and journal.summary is None
    assert len(env.warnings) == 1 and "memory extraction failed" in env.warnings[0]
    assert "extracted" not in journal.path.read_text()
    env.store.file.rmdir()
    env.server.add(answer("Hosting.", item))
    outcome = extractor.extract(journal)
    assert outcome is not None and [r.action for r in outcome.results] == ["saved"]
    assert journal.extracted_upto == 2 and "ifai is hosted on Fly.io" in env.memories()
    assert "We host ifai on Fly.io." in env.request_text()  # the same messages, asked again
    journal.close()


def test_invalid_json_answer_is_a_failure(env: Env) -> None:
    journal = env.journal()
    turn(journal, "q" * 300, "a")
    env.server.add(Step(text="Sure! Here are the memories: none really."))
    extractor = env.extractor()
    assert extractor.extract(journal) is None
    assert journal.extracted_upto == 0 and env.store.read_bytes() == b""
    assert len(env.warnings) == 1 and "not usable JSON" in env.warnings[0]
    journal.close()


def test_the_usage_of_an_extraction_is_counted_in_the_journal_and_the_outcome(env: Env) -> None:
    journal = env.journal()
    turn(journal, "We pin Node 22 for ifai. " * 20, "ok")
    journal.add_usage(1_000, 100)
    env.server.add(answer("Node.", ("ifai/Decisions/node", "ifai pins Node 22")))  # usage (300, 40)
    outcome = env.extractor().extract(journal)
    assert outcome is not None and outcome.usage == (300, 40) and outcome.model == "gpt-4.1-mini"
    assert tuple(journal.usage) == (1_300, 140)
    env.server.add(Step(text="no JSON at all", usage=(50, 5)))
    turn(journal, "More about Node. " * 20, "ok")
    assert env.extractor().extract(journal) is None
    assert tuple(journal.usage) == (1_300, 140)  # a failed extraction records nothing
    journal.close()


# ---------------------------------------------------------------------- what it keeps of the answer


def test_invalid_items_are_dropped_and_counted(env: Env) -> None:
    env.store.save("other-project/Decisions/db", "other-project uses SQLite")
    journal = env.journal()
    turn(journal, f"my key is {SECRET} and I like tabs " * 5, "ok")
    items: list[Any] = [
        {"path": "Preferences/indentation", "content": "The user indents with tabs"},
        {"path": "IFAI/Decisions/architecture", "content": "[2026-11-29] - Event-driven architecture was chosen"},
        {"path": "Prefernces/editor", "content": "The user uses Neovim"},
        {"path": "Preferences", "content": "no room"},
        {"path": "Preferences/keys", "content": f"The user's key is {SECRET}"},
        {"path": "Preferences/long", "content": "x" * 201},
        {"path": "Preferences/multi", "content": "line one\nline two"},
        {"path": "made-up-wing/Decisions/x", "content": "A wing the model invented"},
        {"path": "other-project/Decisions/db", "content": "other-project uses SQLite"},
        {"path": "Preferences/indentation", "content": "the user indents with tabs."},
        "just a string",
        {"path": "Preferences/x"},
        {"path": 3, "content": "number path"},
    ]
    for item in items:  # sure of each: they are saved, or dropped as invalid (never proposed for review)
        if isinstance(item, dict):
            item["confidence"] = "high"
    env.server.add(Step(text=json.dumps({"summary": f"Tabs; key {SECRET}.", "memories": items})))
    outcome = env.extractor().extract(journal)
    assert outcome is not None
    assert outcome.dropped == 10 and outcome.proposed == []
    assert [(str(r.path), r.action) for r in outcome.results] == [
        ("Preferences/indentation", "saved"),
        ("ifai/Decisions/architecture", "saved"),
        ("other-project/Decisions/db", "unchanged"),
    ]
    text = env.memories()
    assert "The user indents with tabs" in text and "Event-driven architecture was chosen\n" in text
    assert "## ifai" in text and "IFAI" not in text
    for absent in (SECRET, "Neovim", "no room", "x" * 201, "line one", "invented", "number path"):
        assert absent not in text
    assert journal.summary is not None and SECRET not in journal.summary
    record = [json.loads(line) for line in journal.path.read_text().splitlines()][-1]
    assert record["type"] == "extracted" and record["dropped"] == 10 and record["upto"] == 2
    assert [s["action"] for s in record["saved"]] == ["saved", "saved", "refreshed"]
    assert not (env.home / "review.md").exists()
    journal.close()


def test_at_most_max_items_are_taken_from_one_answer(env: Env) -> None:
    journal = env.journal()
    turn(journal, "Many facts about ifai. " * 20, "ok")
    items: list[Any] = [{"path": "Nowhere", "content": "invalid, dropped first"}]
    items += [
        {"path": f"ifai/Project Knowledge/fact-{n:02d}", "content": f"ifai fact number {n}", "confidence": "high"}
        for n in range(32)
    ]
    env.server.add(Step(text=json.dumps({"summary": "Facts.", "memories": items})))
    outcome = env.extractor().extract(journal)
    assert outcome is not None
    assert [r.content for r in outcome.results] == [f"ifai fact number {n}" for n in range(MAX_ITEMS)]
    assert outcome.dropped == 1 + 32 - MAX_ITEMS  # the invalid one does not use up a place
    assert "ifai fact number 29" in env.memories() and "ifai fact number 30" not in env.memories()
    journal.close()


def test_the_same_item_twice_in_one_answer_is_saved_once(env: Env) -> None:
    env.store.save("Other-Project/Decisions/db", "Other-Project uses SQLite")
    journal = env.journal()
    turn(journal, "The other project moved to DuckDB. " * 20, "ok")
    items = [
        {"path": "Other-Project/Decisions/db", "content": "Other-Project moved to DuckDB", "confidence": "high"},
        {"path": "other-project/decisions/DB", "content": "other-project moved to duckdb.", "confidence": "high"},
    ]
    env.server.add(Step(text=json.dumps({"summary": "DuckDB.", "memories": items})))
    outcome = env.extractor().extract(journal)
    assert outcome is not None and outcome.dropped == 1
    assert [(r.action, r.content) for r in outcome.results] == [("saved", "Other-Project moved to DuckDB")]
    assert env.memories().lower().count("moved to duckdb") == 1
    journal.close()


def test_a_long_summary_is_cut(env: Env) -> None:
    journal = env.journal()
    turn(journal, "A long talk. " * 30, "ok")
    env.server.add(answer("word " * 1000))
    outcome = env.extractor().extract(journal)
    assert outcome is not None and journal.summary is not None
    assert len(journal.summary) == MAX_SUMMARY_CHARS and journal.summary.endswith("…")
    assert outcome.summary == journal.summary
    journal.close()


def test_a_fenced_answer_in_chinese_is_saved_under_its_own_room(env: Env) -> None:
    journal = env.journal(wing=None)
    turn(journal, "我们用 PostgreSQL。" * 40, "好的")
    env.server.add(
        Step(
            text='```json\n{"summary": "讨论数据库。", "memories": '
            '[{"path": "Preferences/数据库", "content": "用户偏好 PostgreSQL", "confidence": "high"}]}\n```'
        )
    )
    outcome = env.extractor().extract(journal)
    assert outcome is not None and outcome.summary == "讨论数据库。"
    assert "### 数据库\n" in env.memories() and "用户偏好 PostgreSQL" in env.memories()
    journal.close()


# ---------------------------------------------------------------------- confidence and the review queue


def test_high_is_saved_medium_and_low_are_proposed_for_review(env: Env) -> None:
    journal = env.journal()
    turn(journal, "Editors, deploys and a guess about CI. " * 20, "ok")
    env.server.add(
        _items(
            ("Preferences/editors", "The user edits with helix", "high"),
            ("Workflow Patterns/deploys", "The user deploys with fly.io", "medium"),
            ("ifai/Workflow Patterns/ci", "ifai might move CI to Forgejo", "low"),
            ("Preferences/shell", "The user's shell is fish", "sure-ish"),  # not a confidence: medium
        )
    )
    outcome = env.extractor().extract(journal)
    assert outcome is not None and outcome.dropped == 0
    assert [(str(r.path), r.action) for r in outcome.results] == [("Preferences/editors", "saved")]
    assert [(str(p.path), p.content, p.confidence) for p in outcome.proposed] == [
        ("Workflow Patterns/deploys", "The user deploys with fly.io", "medium"),
        ("ifai/Workflow Patterns/ci", "ifai might move CI to Forgejo", "low"),
        ("Preferences/shell", "The user's shell is fish", "medium"),
    ]
    memories = env.memories()
    assert "helix" in memories and "fly.io" not in memories and "Forgejo" not in memories
    review = (env.home / "review.md").read_text()
    assert "fly.io" in review and "Forgejo" in review and "fish" in review and "helix" not in review
    assert [paths for paths, _ in env.commits] == [[env.home / "review.md"]]  # the queue is committed
    assert env.commits[0][1] == f"memory: 3 proposed for review from {journal.id}"
    record = [json.loads(line) for line in journal.path.read_text().splitlines()][-1]
    assert record["type"] == "extracted"
    assert [s["action"] for s in record["saved"]] == ["saved", "proposed", "proposed", "proposed"]
    journal.close()


@pytest.mark.parametrize(("auto", "saved"), [("all", 3), ("none", 0)])
def test_auto_save_all_saves_every_item_and_none_proposes_every_new_one(
    auto: str, saved: int, settings_for: Callable[..., Settings]
) -> None:
    env = Env(settings_for(auto_save=auto), ScriptedModel())
    journal = env.journal()
    turn(journal, "Three facts. " * 30, "ok")
    env.server.add(
        _items(
            ("Preferences/editors", "The user edits with helix", "high"),
            ("Preferences/deploys", "The user deploys with fly.io", "medium"),
            ("Preferences/ci", "The user may try Forgejo", "low"),
        )
    )
    outcome = env.extractor().extract(journal)
    assert outcome is not None
    assert len(outcome.results) == saved and len(outcome.proposed) == 3 - saved
    journal.close()


def test_a_fact_proposed_by_another_session_is_promoted_unless_low(env: Env) -> None:
    first = env.journal()
    turn(first, "Deploys and CI. " * 30, "ok")
    env.server.add(
        _items(
            ("Workflow Patterns/deploys", "The user deploys with fly.io", "medium"),
            ("Workflow Patterns/ci", "The user may try Forgejo", "medium"),
        )
    )
    first_outcome = env.extractor().extract(first)
    assert first_outcome is not None and len(first_outcome.proposed) == 2
    second = env.journal()
    turn(second, "Deploys and CI again. " * 30, "ok")
    env.server.add(
        _items(
            ("Workflow Patterns/deploys", "The user deploys with fly.io", "medium"),
            ("Workflow Patterns/ci", "The user may try Forgejo", "low"),
        )
    )
    outcome = env.extractor().extract(second)
    assert outcome is not None
    assert [r.content for r in outcome.results] == ["The user deploys with fly.io"]  # promoted out of review
    review = (env.home / "review.md").read_text()
    assert "fly.io" not in review and "Forgejo" in review
    first.close()
    second.close()


# ---------------------------------------------------------------------- reporting


def test_the_background_reports_each_extraction(env: Env) -> None:
    journal = env.journal()
    turn(journal, "We lint ifai with ruff. " * 200, "ok")
    outcomes: list[ExtractionOutcome] = []
    extractor = env.extractor(on_extracted=outcomes.append)
    env.server.add(answer("Linting.", ("ifai/Workflow Patterns/lint", "ifai is linted with ruff")))
    assert extractor.maybe_start(journal) is True
    extractor.wait(30)
    assert [(o.summary, [r.content for r in o.results], o.upto) for o in outcomes] == [
        ("Linting.", ["ifai is linted with ruff"], 2)
    ]

    def broken(outcome: ExtractionOutcome) -> None:
        raise RuntimeError("the screen is gone")

    turn(journal, "And format with ruff too. " * 200, "ok")
    env.server.add(answer("Formatting."))
    failing = env.extractor(on_extracted=broken)
    assert failing.maybe_start(journal) is True
    failing.wait(30)
    assert env.warnings == ["could not show the extracted memories: the screen is gone"]
    assert journal.extracted_upto == 4  # the extraction itself stands
    journal.close()


def test_an_unexpected_error_in_the_background_is_one_warning(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    journal = env.journal()
    turn(journal, "z" * 4100, "ok")
    extractor = env.extractor()

    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(env.store, "render", broken)
    assert extractor.maybe_start(journal) is True
    extractor.wait(30)
    assert env.warnings == [
        "memory extraction failed: ZeroDivisionError: division by zero (it will be retried; the conversation is kept)"
    ]
    assert journal.extracted_upto == 0 and env.server.requests == []
    journal.close()


# ---------------------------------------------------------------------- the end of a session (lifecycle)


def test_finish_runs_the_final_extraction_archives_and_commits(env: Env) -> None:
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
    assert "## Summary\nRust backends and Tauri.\n" in text
    assert "- Input: 1,500\n- Output: 340\n- Total: 1,840\n" in text  # the extraction call is counted too
    assert "- **ifai/Project Knowledge/frontend-stack**: ifai uses Tauri (extracted, saved)\n" in text
    assert env.commits == [([archive], f"session: archive {journal.id}")]
    assert not journal.owned and find_orphans(env.home) == []


def test_finish_of_a_short_or_empty_session_asks_nothing(env: Env) -> None:
    short = env.journal()
    turn(short, "hi", "hello!")
    archive = finish(env.extractor(), short)
    assert archive is not None and env.server.requests == []
    assert '## Summary\n(no summary: a short session) It began with: "hi"\n' in archive.read_text()
    empty = env.journal()
    assert finish(env.extractor(), empty) is None and not empty.path.exists()


def test_an_orphan_whose_extraction_fails_is_archived_and_the_next_one_does_not_wait(env: Env) -> None:
    ids = []
    for n in range(2):
        journal = env.journal()
        turn(journal, f"Session {n}: ifai uses pnpm workspaces. " * 10, "ok")
        journal.close()  # died without finishing
        ids.append(journal.id)
    env.server.add(Step(status=502, text="bad gateway", headers=NO_RETRY))
    notices = env.orphans(warn=env.warnings.append)
    assert len(notices) == 2 and len(env.server.requests) == 1  # the second does not wait for it again
    for session_id in ids:
        (notice,) = [n for n in notices if session_id in n]
        assert notice.startswith(f"Archived the unfinished session {session_id} without a summary (extraction failed: ")
        assert f"retry with `palace sessions extract {session_id}`" in notice
        assert Journal.load(env.home / "sessions" / f"{session_id}.jsonl").extracted_upto == 0
    assert find_orphans(env.home) == [] and env.warnings == []
    journal = Journal.load(env.home / "sessions" / f"{ids[0]}.jsonl")
    env.server.add(answer("pnpm.", ("ifai/Project Knowledge/packages", "ifai uses pnpm workspaces")))
    outcome = env.extractor().extract(journal, force=True)  # `palace sessions extract ID`
    assert outcome is not None and journal.extracted_upto == 2
    archive = finish(env.extractor(), journal)
    assert archive is not None and "## Summary\npnpm.\n" in archive.read_text()


def test_app_extractor_uses_the_injected_model(settings_for: Callable[..., Settings]) -> None:
    from palace.app import App

    model = ScriptedModel([answer("Injected.", ("Preferences/editors", "The user edits with helix"))])
    warnings: list[str] = []
    app = App(settings_for(extract_model="another-model"), warn=warnings.append, client=model)
    journal = app.start_journal(["ifai"])
    turn(journal, "I edit with helix. " * 20, "ok")
    extractor = app.extractor()
    outcome = extractor.extract(journal)
    assert outcome is not None and outcome.summary == "Injected." and len(model.requests) == 1
    assert app.endpoint_host() == "model" and warnings == []
    journal.close()
    extractor.close()
    app.close()
    assert model.closed
