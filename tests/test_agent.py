"""The turn loop through the real openai client and a scripted endpoint on loopback (end-to-end): the stream and
its tool calls over HTTP, an error status, a dropped connection. The loop's own behaviour (tool rounds, their cap,
the prompt, compaction, interrupts) is tested in process in test_agent_loop.py.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from palace.agent.conversation import Conversation, TurnEvents
from palace.config import Settings
from palace.memory.store import MemoryStore
from palace.model.client import client_from_settings
from palace.testing.server import ScriptedServer, Step

pytestmark = pytest.mark.e2e

SAVE = "MemorySave"


def _session(settings: Settings, wing: str | None = None) -> tuple[Conversation, MemoryStore]:
    store = MemoryStore(settings.home, entry_limit=settings.entry_limit)
    return Conversation(settings, store, client=client_from_settings(settings), wings=[wing] if wing else []), store


def _collect() -> tuple[TurnEvents, dict[str, list[Any]]]:
    seen: dict[str, list[Any]] = {"text": [], "change": [], "tool_error": [], "notice": []}
    events = TurnEvents(
        on_text=seen["text"].append,
        on_change=seen["change"].append,
        on_tool_error=lambda tool, message: seen["tool_error"].append((tool, message)),
        on_notice=seen["notice"].append,
    )
    return events, seen


def test_a_stated_preference_is_saved_and_the_model_is_told(
    fake_server: ScriptedServer, settings_for: Callable[..., Settings]
) -> None:
    fake_server.add(
        Step(
            tool_calls=[(SAVE, json.dumps({"path": "Preferences/testing", "content": "Uses pytest"}))],
            chunk_size=5,
            usage=(120, 8),
        ),
        Step(text="Noted.", chunk_size=2, usage=(150, 3)),
    )
    session, store = _session(settings_for(fake_server))
    events, seen = _collect()
    result = session.turn("I always use pytest", events)
    assert result.error is None and result.text == "Noted."
    assert seen["text"] == ["No", "te", "d."]  # each piece as it arrived over the stream
    assert [c.message for c in seen["change"]] == ["Saved to Preferences/testing: Uses pytest"]
    assert "- [" in store.file.read_text() and "Uses pytest" in store.file.read_text()
    first, second = fake_server.requests
    assert first["stream"] is True and first["stream_options"] == {"include_usage": True}
    assert {SAVE, "MemoryForget", "WorkingContext"} <= {t["function"]["name"] for t in first["tools"]}
    call = second["messages"][-2]
    assert call["tool_calls"][0]["function"] == {
        "name": SAVE,
        "arguments": json.dumps({"path": "Preferences/testing", "content": "Uses pytest"}),
    }
    tool_message = second["messages"][-1]
    assert tool_message["role"] == "tool" and "Saved to Preferences/testing" in tool_message["content"]
    assert tool_message["tool_call_id"] == call["tool_calls"][0]["id"]
    assert session.usage == [270, 11]  # the usage chunks of both streams


def test_endpoint_failure_keeps_the_conversation_and_says_what_happened(
    fake_server: ScriptedServer, settings_for: Callable[..., Settings]
) -> None:
    fake_server.add(Step(text="first reply"), Step(status=500, text="boom"), Step(text="third reply"))
    session, _ = _session(settings_for(fake_server))
    session.turn("one")
    failed = session.turn("two")
    assert failed.error is not None and "\n" not in failed.error and "500" in failed.error
    assert fake_server.base_url in failed.error
    ok = session.turn("three")
    assert ok.text == "third reply"
    contents = [m.get("content") for m in fake_server.requests[-1]["messages"]]
    assert "first reply" in contents and "one" in contents


def test_a_broken_stream_keeps_the_partial_reply_marked(
    fake_server: ScriptedServer, settings_for: Callable[..., Settings]
) -> None:
    fake_server.add(Step(text="partial words that never finish", chunk_size=4, break_after=3), Step(text="next"))
    session, _ = _session(settings_for(fake_server))
    result = session.turn("hi")
    assert result.interrupted and result.interrupted.startswith("stream broke")
    assert session.messages[-1]["role"] == "assistant" and "interrupted" in session.messages[-1]["content"]
    assert session.turn("go on").text == "next"
