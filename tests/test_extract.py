"""Extraction against the scripted server (the real openai client over loopback, real files): when it starts,
what it is given, what it keeps of the answer, and how its bookkeeping survives failures.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

import pytest
from extraction_env import NO_RETRY, Env, Gate, answer, turn

from palace.config import Settings
from palace.memory.halls import HALL_LIST
from palace.sessions.extract import (
    MAX_CONVERSATION_CHARS,
    MAX_ITEMS,
    MAX_SUMMARY_CHARS,
    ExtractionOutcome,
    Extractor,
)
from palace.sessions.extract_prompt import MAX_MESSAGE_CHARS, build_messages, parse_answer
from palace.testing.server import ScriptedServer, Step

SECRET = "sk-proj-" + "Zx9Yw8Vu7" * 3


@pytest.fixture
def env(fake_server: ScriptedServer, settings_for: Callable[..., Settings]) -> Env:
    return Env(settings_for(fake_server), fake_server)


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
    settings = settings_for(env.server, extraction=False)
    extractor = Extractor(settings, env.store, warn=env.warnings.append)
    journal = env.journal()
    turn(journal, "a" * 5000, "b")
    assert extractor.maybe_start(journal) is False and env.server.requests == []
    journal.close()


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
    assert "extracted" not in journal.path.read_text()
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
    assert outcome.dropped == 10
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


def test_answers_in_code_fences_lists_and_prose() -> None:
    fenced = 'Here you go:\n```json\n{"summary": "S", "memories": [{"path": "Decisions/a", "content": "c"}]}\n```\n'
    assert parse_answer(fenced) == ("S", [{"path": "Decisions/a", "content": "c"}])
    assert parse_answer('[{"path": "Decisions/a", "content": "c"}]') == ("", [{"path": "Decisions/a", "content": "c"}])
    assert parse_answer('<think>hmm {"no": 1}</think>\nResult: {"summary": "T", "memories": []} done') == ("T", [])
    assert parse_answer('{"summary": "only"}') == ("only", [])
    assert parse_answer('{"summary": "x", "memories": null}') == ("x", [])
    for bad in ("", "no json here", '"just a string"', '{"unrelated": 1}', "{broken"):
        with pytest.raises(ValueError):
            parse_answer(bad)


def test_fenced_answer_end_to_end(env: Env) -> None:
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


def test_endpoint_rejecting_response_format(env: Env) -> None:
    env.server.reject_response_format = True
    journal = env.journal()
    turn(journal, "We chose vitest over jest for ifai. " * 20, "ok")
    env.server.add(answer("Testing.", ("ifai/Decisions/testing", "vitest was chosen over jest")))
    outcome = env.extractor().extract(journal)
    assert outcome is not None and [r.action for r in outcome.results] == ["saved"]
    assert "response_format" in env.server.requests[0] and "response_format" not in env.server.requests[1]
    assert env.warnings == []
    journal.close()


def test_build_messages_fences_data_longer_than_its_backticks() -> None:
    messages = build_messages(
        "{{halls}} {{wing_line}} {{limit}}",
        session_id="2026-11-30-a1b2c3d4",
        wings=[],
        memories="```\ncode\n```",
        previous_summary=None,
        conversation=[{"role": "user", "content": "````` five"}],
        first_index=0,
    )
    assert messages[0]["content"].startswith(HALL_LIST) and messages[0]["content"].endswith(" 200")
    user = messages[1]["content"]
    assert "````markdown\n```\ncode\n```\n````" in user and "``````text\n[user]\n````` five\n``````" in user
