"""palace.model.client against palace.testing.server: the real openai client over real loopback HTTP."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from palace.config import Settings
from palace.errors import (
    LLMAuthError,
    LLMConnectionError,
    LLMError,
    LLMNotConfiguredError,
    LLMNotFoundError,
    LLMRateLimitError,
    LLMServerError,
    LLMTimeoutError,
)
from palace.model.client import LLMClient, client_from_settings
from palace.model.stream import Accumulator, Reply, ToolCall, Usage
from palace.testing.server import ScriptedServer, Step

MESSAGES: list[dict[str, Any]] = [{"role": "user", "content": "hello"}]
TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "MemorySave",
            "description": "Save a memory.",
            "parameters": {"type": "object", "properties": {"path": {"type": "string"}}},
        },
    }
]


@pytest.fixture(autouse=True)
def _no_openai_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """The openai package must never pick up a real key or endpoint from the environment."""
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID"):
        monkeypatch.delenv(var, raising=False)


class Sleeps(list[float]):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
def client(fake_server: ScriptedServer, sleeps: Sleeps) -> Iterator[LLMClient]:
    llm = LLMClient(base_url=fake_server.base_url, api_key=None, model="palace-demo", timeout=5, sleep=sleeps)
    yield llm
    llm.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


# --- text --------------------------------------------------------------------------------------


def test_stream_text_arrives_in_pieces(fake_server: ScriptedServer, client: LLMClient) -> None:
    fake_server.add(Step(text="Hello there, friend.", chunk_size=4))
    pieces: list[str] = []
    reply = client.stream_chat(MESSAGES, on_text=pieces.append)
    assert reply.content == "Hello there, friend."
    assert pieces == ["Hell", "o th", "ere,", " fri", "end."]
    assert reply.tool_calls == []
    assert reply.finish_reason == "stop"
    assert reply.interrupted is None
    body = fake_server.requests[0]
    assert body["stream"] is True
    assert body["model"] == "palace-demo"
    assert body["messages"] == MESSAGES
    assert "tools" not in body
    assert reply.to_message() == {"role": "assistant", "content": "Hello there, friend."}


def test_complete_returns_text_and_usage(fake_server: ScriptedServer, client: LLMClient) -> None:
    fake_server.add(Step(text="plain answer", usage=(7, 3)))
    reply = client.complete(MESSAGES)
    assert reply == Reply("plain answer", [], Usage(7, 3), "stop")
    assert fake_server.requests[0]["stream"] is False
    assert "response_format" not in fake_server.requests[0]


def test_model_is_switchable(fake_server: ScriptedServer, client: LLMClient) -> None:
    fake_server.add(Step(text="a"), Step(text="b"))
    client.stream_chat(MESSAGES)
    client.model = "gpt-4.1-mini"
    client.stream_chat(MESSAGES)
    assert [r["model"] for r in fake_server.requests] == ["palace-demo", "gpt-4.1-mini"]


# --- tool calls --------------------------------------------------------------------------------


@pytest.mark.parametrize("chunk_size", [0, 3])
def test_tool_call_arguments_whole_or_split(fake_server: ScriptedServer, client: LLMClient, chunk_size: int) -> None:
    args = '{"path": "Preferences/tools", "content": "uses ruff"}'
    fake_server.add(Step(tool_calls=[("MemorySave", args)], chunk_size=chunk_size))
    reply = client.stream_chat(MESSAGES, tools=TOOLS)
    assert reply.tool_calls == [ToolCall("call_0000", "MemorySave", args)]
    assert json.loads(reply.tool_calls[0].arguments)["content"] == "uses ruff"
    assert reply.finish_reason == "tool_calls"
    assert reply.content == ""
    assert fake_server.requests[0]["tools"] == TOOLS


def test_several_tool_calls_in_one_reply(fake_server: ScriptedServer, client: LLMClient) -> None:
    calls = [("MemorySave", '{"a": 1}'), ("MemoryRecall", '{"query": "ruff config"}'), ("MemoryForget", "{}")]
    fake_server.add(Step(tool_calls=calls, chunk_size=2))
    reply = client.stream_chat(MESSAGES, tools=TOOLS)
    assert [(c.name, c.arguments) for c in reply.tool_calls] == calls
    assert len({c.id for c in reply.tool_calls}) == 3


def test_text_and_tool_calls_in_one_reply(fake_server: ScriptedServer, client: LLMClient) -> None:
    fake_server.add(Step(text="Saving that.", tool_calls=[("MemorySave", '{"x": "y"}')], chunk_size=5))
    seen: list[str] = []
    reply = client.stream_chat(MESSAGES, tools=TOOLS, on_text=seen.append)
    assert reply.content == "Saving that."
    assert "".join(seen) == "Saving that."
    assert reply.tool_calls == [ToolCall("call_0000", "MemorySave", '{"x": "y"}')]
    assert reply.to_message() == {
        "role": "assistant",
        "content": "Saving that.",
        "tool_calls": [
            {"id": "call_0000", "type": "function", "function": {"name": "MemorySave", "arguments": '{"x": "y"}'}}
        ],
    }


def test_tool_calls_only_message_has_null_content() -> None:
    reply = Reply("", [ToolCall("c1", "MemoryRecall", "{}")], None, "tool_calls")
    message = reply.to_message()
    assert message["content"] is None
    assert message["tool_calls"][0]["id"] == "c1"


def test_invalid_json_arguments_passed_through_raw(fake_server: ScriptedServer, client: LLMClient) -> None:
    broken = '{"path": "Preferences/x", "content": '
    fake_server.add(Step(tool_calls=[("MemorySave", broken)], chunk_size=4))
    reply = client.stream_chat(MESSAGES, tools=TOOLS)
    assert reply.tool_calls[0].arguments == broken
    assert reply.interrupted is None


def test_non_streaming_tool_calls(fake_server: ScriptedServer, client: LLMClient) -> None:
    fake_server.add(Step(text="", tool_calls=[("MemorySave", "not json")]))
    reply = client.complete(MESSAGES)
    assert reply.tool_calls == [ToolCall("call_0000", "MemorySave", "not json")]
    assert reply.content == ""
    assert reply.finish_reason == "tool_calls"


def test_accumulator_tolerates_servers_that_reuse_index_zero() -> None:
    def chunk(**delta: Any) -> SimpleNamespace:
        choice = SimpleNamespace(index=0, delta=SimpleNamespace(**delta), finish_reason=None)
        return SimpleNamespace(choices=[choice], usage=None)

    def call(index: int | None, call_id: str | None, name: str | None, args: str) -> SimpleNamespace:
        return SimpleNamespace(index=index, id=call_id, function=SimpleNamespace(name=name, arguments=args))

    acc = Accumulator()
    acc.add(chunk(content=None, tool_calls=[call(0, "a", "One", '{"n":')]))
    acc.add(chunk(content=None, tool_calls=[call(0, None, None, " 1}")]))
    acc.add(chunk(content=None, tool_calls=[call(0, "b", "Two", "{}")]))
    acc.add(chunk(content="hi", tool_calls=[call(None, None, "Three", "[]")]))
    reply = acc.reply()
    assert [(c.id, c.name, c.arguments) for c in reply.tool_calls] == [
        ("a", "One", '{"n": 1}'),
        ("b", "Two", "{}"),
        ("call_palace_2", "Three", "[]"),
    ]
    assert reply.content == "hi"


# --- usage and stream_options --------------------------------------------------------------------


def test_usage_requested_with_stream_options(fake_server: ScriptedServer, client: LLMClient) -> None:
    fake_server.add(Step(text="ok", usage=(123, 45)))
    reply = client.stream_chat(MESSAGES)
    assert reply.usage == Usage(input_tokens=123, output_tokens=45)
    assert fake_server.requests[0]["stream_options"] == {"include_usage": True}


def test_endpoint_rejecting_stream_options(sleeps: Sleeps) -> None:
    with ScriptedServer([Step(text="first"), Step(text="second")], reject_stream_options=True) as server:
        llm = LLMClient(base_url=server.base_url, api_key=None, model="m", sleep=sleeps)
        first = llm.stream_chat(MESSAGES)
        second = llm.stream_chat(MESSAGES)
        llm.close()
    assert (first.content, first.usage) == ("first", None)
    assert second.content == "second"
    assert ["stream_options" in r for r in server.requests] == [True, False, False]
    assert sleeps == []


# --- errors ------------------------------------------------------------------------------------


def test_connection_refused_names_the_url() -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    llm = LLMClient(base_url=url, api_key="sk-test", model="m", timeout=2)
    with pytest.raises(LLMConnectionError) as info:
        llm.stream_chat(MESSAGES)
    message = str(info.value)
    assert url in message
    assert "connection refused" in message
    assert "OPENAI_BASE_URL" in message
    assert "\n" not in message
    assert info.value.__cause__ is not None


@pytest.mark.parametrize("status", [401, 403])
def test_auth_error_names_the_key_variable(fake_server: ScriptedServer, client: LLMClient, status: int) -> None:
    fake_server.add(Step(status=status))
    with pytest.raises(LLMAuthError, match="OPENAI_API_KEY") as info:
        client.stream_chat(MESSAGES)
    assert str(status) in str(info.value)


def test_not_found_names_the_model(fake_server: ScriptedServer, client: LLMClient) -> None:
    fake_server.add(Step(status=404))
    client.model = "no-such-model"
    with pytest.raises(LLMNotFoundError) as info:
        client.complete(MESSAGES)
    assert "no-such-model" in str(info.value)
    assert "PALACE_MODEL" in str(info.value)


def test_rate_limit_honours_retry_after_then_succeeds(
    fake_server: ScriptedServer, client: LLMClient, sleeps: Sleeps
) -> None:
    fake_server.add(Step(status=429, headers={"Retry-After": "7"}), Step(text="finally"))
    reply = client.stream_chat(MESSAGES)
    assert reply.content == "finally"
    assert sleeps == [7.0]
    assert len(fake_server.requests) == 2


def test_rate_limit_gives_up_after_max_retries(fake_server: ScriptedServer, sleeps: Sleeps) -> None:
    fake_server.add(*[Step(status=429) for _ in range(3)], Step(text="never reached"))
    llm = LLMClient(base_url=fake_server.base_url, api_key=None, model="m", max_retries=2, sleep=sleeps)
    with pytest.raises(LLMRateLimitError, match="429"):
        llm.stream_chat(MESSAGES)
    llm.close()
    assert len(fake_server.requests) == 3
    assert sleeps == [0.5, 1.0]  # exponential backoff when no Retry-After is given
    assert fake_server.pending == 1


def test_server_error(fake_server: ScriptedServer, client: LLMClient) -> None:
    fake_server.add(Step(status=500, text="the GPU caught fire"))
    with pytest.raises(LLMServerError, match="GPU caught fire") as info:
        client.stream_chat(MESSAGES)
    assert "500" in str(info.value)
    assert len(fake_server.requests) == 1  # 5xx is not retried


def test_other_status_is_an_llm_error_with_the_server_message(fake_server: ScriptedServer, client: LLMClient) -> None:
    fake_server.add(Step(status=400, text="context length exceeded"))
    with pytest.raises(LLMError, match="context length exceeded"):
        client.complete(MESSAGES)


def test_timeout(fake_server: ScriptedServer) -> None:
    fake_server.add(Step(text="too late", delay=2.0))
    llm = LLMClient(base_url=fake_server.base_url, api_key=None, model="m", timeout=0.3)
    with pytest.raises(LLMTimeoutError, match=r"0\.3s"):
        llm.stream_chat(MESSAGES)
    llm.close()


def test_not_configured_only_when_called() -> None:
    llm = LLMClient(base_url=None, api_key=None, model="gpt-4.1-mini")  # constructing is fine
    for call in (lambda: llm.stream_chat(MESSAGES), lambda: llm.complete(MESSAGES), llm.list_models):
        with pytest.raises(LLMNotConfiguredError) as info:
            call()
        assert "OPENAI_API_KEY" in str(info.value)
        assert "OPENAI_BASE_URL" in str(info.value)
        assert "\n" not in str(info.value)


# --- interrupted streams -----------------------------------------------------------------------


def test_stream_broken_midway_keeps_partial_text(fake_server: ScriptedServer, client: LLMClient) -> None:
    # chunks: role, "ab", "cd", the tool call's first piece, ... — the connection drops after 4
    fake_server.add(Step(text="abcd", chunk_size=2, tool_calls=[("MemorySave", '{"path": "x"}')], break_after=4))
    reply = client.stream_chat(MESSAGES)
    assert reply.content == "abcd"
    assert reply.interrupted is not None
    assert reply.interrupted.startswith("stream broke: ")
    assert "\n" not in reply.interrupted
    assert reply.tool_calls == []  # a half-received tool call is never offered for running
    assert reply.finish_reason is None


def test_ctrl_c_while_streaming_returns_partial_reply(fake_server: ScriptedServer, client: LLMClient) -> None:
    fake_server.add(Step(text="one two three four", chunk_size=4), Step(text="next"))
    seen: list[str] = []

    def on_text(piece: str) -> None:
        seen.append(piece)
        if len(seen) == 2:
            raise KeyboardInterrupt

    reply = client.stream_chat(MESSAGES, on_text=on_text)
    assert reply.content == "one two "
    assert reply.interrupted == "stopped by user"
    assert client.stream_chat(MESSAGES).content == "next"  # the client is still usable


# --- json mode ---------------------------------------------------------------------------------


def test_json_mode_sends_response_format(fake_server: ScriptedServer, client: LLMClient) -> None:
    fake_server.add(Step(text='{"memories": []}'))
    reply = client.complete(MESSAGES, json_mode=True)
    assert json.loads(reply.content) == {"memories": []}
    assert fake_server.requests[0]["response_format"] == {"type": "json_object"}


def test_json_mode_without_endpoint_support(sleeps: Sleeps) -> None:
    steps = [Step(text='{"a": 1}'), Step(text='{"b": 2}')]
    with ScriptedServer(steps, reject_response_format=True) as server:
        llm = LLMClient(base_url=server.base_url, api_key=None, model="m", sleep=sleeps)
        first = llm.complete(MESSAGES, json_mode=True)
        second = llm.complete(MESSAGES, json_mode=True)
        llm.close()
    assert (first.content, second.content) == ('{"a": 1}', '{"b": 2}')
    assert ["response_format" in r for r in server.requests] == [True, False, False]


# --- misc --------------------------------------------------------------------------------------


def test_list_models(client: LLMClient) -> None:
    assert client.list_models() == ["gpt-4.1-mini", "palace-demo"]


def test_client_from_settings(tmp_path: Any) -> None:
    settings = Settings(home=tmp_path, model="llama3", base_url="http://localhost:11434/v1", timeout=12)
    llm = client_from_settings(settings)
    assert (llm.model, llm.base_url, llm.api_key, llm.timeout) == ("llama3", settings.base_url, None, 12)
    assert client_from_settings(settings, model="small").model == "small"


def test_exhausted_script_is_a_clear_500(fake_server: ScriptedServer, client: LLMClient) -> None:
    with pytest.raises(LLMServerError, match="script is exhausted"):
        client.stream_chat(MESSAGES)


def test_import_does_not_import_openai() -> None:
    code = "import sys, palace.model.client; print('openai' in sys.modules, 'httpx2' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
