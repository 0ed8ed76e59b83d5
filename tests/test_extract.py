"""Extraction through the real openai client and a scripted endpoint on loopback (end-to-end): the request on the
wire, its retries and its fallback, an error status, non-ASCII answers; and the answer parser. Everything else
about extraction (triggers, bookkeeping, what is kept of an answer, review routing) is tested in process in
test_extract_loop.py.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from extraction_env import NO_RETRY, Env, answer, turn

from palace.config import Settings
from palace.memory.halls import HALL_LIST
from palace.sessions.extract_prompt import build_messages, parse_answer
from palace.testing.server import ScriptedServer, Step


@pytest.fixture
def env(fake_server: ScriptedServer, settings_for: Callable[..., Settings]) -> Env:
    return Env(settings_for(fake_server), fake_server)


@pytest.mark.e2e
def test_an_extraction_over_http_is_one_json_mode_call_retried_when_rate_limited(env: Env) -> None:
    env.store.save("Preferences/programming-languages", "The user writes backends in Rust")
    journal = env.journal(wing=None)
    turn(journal, "我们用 PostgreSQL。" * 40, "好的")
    journal.add_usage(1_000, 100)
    env.server.add(
        Step(status=429, headers={"Retry-After": "0"}),
        Step(
            text='```json\n{"summary": "讨论数据库。", "memories": '
            '[{"path": "Preferences/数据库", "content": "用户偏好 PostgreSQL", "confidence": "high"}]}\n```',
            usage=(300, 40),
        ),
    )
    outcome = env.extractor().extract(journal)
    assert outcome is not None and outcome.summary == "讨论数据库。" and outcome.usage == (300, 40)
    assert "### 数据库\n" in env.memories() and "用户偏好 PostgreSQL" in env.memories()
    assert tuple(journal.usage) == (1_300, 140)  # the extraction's usage, as the endpoint counted it
    assert len(env.server.requests) == 2 and env.server.requests[0] == env.server.requests[1]  # retried as sent
    body = env.server.requests[1]
    assert body["stream"] is False and body["response_format"] == {"type": "json_object"}
    assert body["model"] == "gpt-4.1-mini" and "stream_options" not in body
    system, user = body["messages"]
    assert system["role"] == "system" and HALL_LIST in system["content"]
    assert "The user writes backends in Rust" in user["content"] and "我们用 PostgreSQL。" in user["content"]
    assert env.warnings == []
    journal.close()


@pytest.mark.e2e
def test_a_500_over_http_in_the_background_is_one_warning_and_nothing_advances(
    env: Env, fake_server: ScriptedServer
) -> None:
    journal = env.journal()
    turn(journal, "We deploy ifai with docker compose. " * 120, "noted")
    extractor = env.extractor()
    env.server.add(Step(status=500, text="upstream exploded", headers=NO_RETRY))
    assert extractor.maybe_start(journal) is True  # the real client, in the extraction thread
    extractor.wait(10)
    (warning,) = env.warnings
    assert "\n" not in warning and "memory extraction failed" in warning
    assert "500" in warning and "upstream exploded" in warning and fake_server.base_url in warning
    assert journal.extracted_upto == 0 and len(env.server.requests) == 1  # the endpoint said not to retry
    env.server.add(answer("Deploys.", ("ifai/Workflow Patterns/deploy", "ifai is deployed with docker compose")))
    outcome = extractor.extract(journal)
    assert outcome is not None and journal.extracted_upto == 2 and extractor.last_error is None
    journal.close()


@pytest.mark.e2e
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


# The answer parser and the prompt builder, in process (no endpoint).


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
