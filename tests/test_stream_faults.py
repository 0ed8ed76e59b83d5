"""Faults at the stream boundary: the real openai client over loopback HTTP against a scripted endpoint that
sends wrong JSON types, half emoji, streams that stop without finishing, 200s that are not streams, and
failures worth retrying. Whatever comes, the client returns a reply or raises one LLMError line; the turn
loop turns either into an interrupted reply or a one-line error, and an unfinished tool call never runs."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from palace.agent.conversation import Conversation, TurnEvents
from palace.config import Settings
from palace.errors import LLMConnectionError, LLMServerError
from palace.memory.store import MemoryStore
from palace.model.client import LLMClient
from palace.model.stream import Usage
from palace.model.tools import memory_tools
from palace.testing.scripted import ScriptedModel
from palace.testing.server import ScriptedServer, Step

MESSAGES: list[dict[str, Any]] = [{"role": "user", "content": "hello"}]
SAVE_ARGS = {"path": "Preferences/editor", "content": "Uses helix"}


@pytest.fixture(autouse=True)
def _no_openai_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID"):
        monkeypatch.delenv(var, raising=False)


class Sleeps(list[float]):
    """A sleep that records instead of sleeping, so retries cost no time."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
def client(fake_server: ScriptedServer, sleeps: Sleeps) -> Iterator[LLMClient]:
    llm = LLMClient(base_url=fake_server.base_url, api_key=None, model="m", timeout=5, sleep=sleeps)
    yield llm
    llm.close()


def chunk(choices: object, **extra: object) -> dict[str, object]:
    return {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "m", "choices": choices, **extra}


def delta(finish: object = None, **fields: object) -> dict[str, object]:
    """A chunk with one choice whose delta holds `fields`."""
    return chunk([{"index": 0, "delta": fields, "finish_reason": finish}])


def call(arguments: object, *, index: int = 0, call_id: str | None = "call_1", name: str = "MemorySave") -> object:
    return {"index": index, "id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


ROLE = delta(role="assistant", content="")
STOP = delta("stop")
CALLS_DONE = delta("tool_calls")


def sse(*events: object) -> bytes:
    """A raw event-stream body, exactly as given (no [DONE] unless listed)."""
    return b"".join(f"data: {e if isinstance(e, str) else json.dumps(e)}\n\n".encode() for e in events)


def _conversation(settings: Settings, llm: LLMClient) -> tuple[Conversation, MemoryStore]:
    store = MemoryStore(settings.home, entry_limit=settings.entry_limit)
    return Conversation(settings, store, client=llm), store


def _events() -> tuple[TurnEvents, dict[str, list[Any]]]:
    seen: dict[str, list[Any]] = {"text": [], "change": [], "tool_error": [], "notice": [], "waiting": []}
    events = TurnEvents(
        on_text=seen["text"].append,
        on_change=seen["change"].append,
        on_tool_error=lambda tool, message: seen["tool_error"].append((tool, message)),
        on_notice=seen["notice"].append,
        on_waiting=seen["waiting"].append,
    )
    return events, seen


# --- wrong JSON types in chunks: skipped or coerced, with a note; never an exception ----------------


@pytest.mark.parametrize(
    ("bad", "note"),
    [
        (chunk(5), "`choices` is not a list"),
        (chunk({"0": {"delta": {"content": "x"}}}), "`choices` is not a list"),
        (chunk(["not a choice"]), "a choice that is not a JSON object"),
        (chunk([{"index": 0, "delta": "text where an object belongs", "finish_reason": None}]), "`delta`"),
        (delta(content=42), "text `content` that is not a string"),
        (delta(tool_calls={"0": "x"}), "`tool_calls` that is not a list"),
        (delta(tool_calls=["x"]), "a tool call that is not a JSON object"),
        (5, "not a JSON object"),
        ([1, 2], "not a JSON object"),
        (chunk([], usage=["not", "usage"]), "a `usage` that is not a JSON object"),
    ],
)
def test_a_malformed_chunk_is_skipped_and_the_rest_of_the_reply_arrives(
    fake_server: ScriptedServer, client: LLMClient, bad: object, note: str
) -> None:
    fake_server.add(Step(events=[ROLE, delta(content="Hello "), bad, delta(content="there."), STOP, "[DONE]"]))
    notices: list[str] = []
    reply = client.stream_chat(MESSAGES, on_notice=notices.append)
    assert (reply.content, reply.finish_reason, reply.interrupted) == ("Hello there.", "stop", None)
    assert reply.tool_calls == []
    assert len(notices) == 1 and note in notices[0] and fake_server.base_url in notices[0]


def test_the_same_malformed_data_is_told_once_per_session(fake_server: ScriptedServer, client: LLMClient) -> None:
    steps = [Step(events=[ROLE, chunk(5), delta(content=f"reply {n}"), STOP, "[DONE]"]) for n in range(2)]
    fake_server.add(*steps)
    notices: list[str] = []
    assert [client.stream_chat(MESSAGES, on_notice=notices.append).content for _ in range(2)] == ["reply 0", "reply 1"]
    assert len(notices) == 1


def test_arguments_sent_as_a_json_object_are_read_as_json_text_and_the_tool_runs(
    fake_server: ScriptedServer, client: LLMClient, palace_home: Any
) -> None:
    fake_server.add(Step(events=[ROLE, delta(tool_calls=[call(SAVE_ARGS)]), CALLS_DONE, "[DONE]"]))
    notices: list[str] = []
    reply = client.stream_chat(MESSAGES, on_notice=notices.append)
    assert json.loads(reply.tool_calls[0].arguments) == SAVE_ARGS
    assert "read as JSON text" in notices[0]
    store = MemoryStore(palace_home)
    outcome = memory_tools(store).call(reply.tool_calls[0].name, reply.tool_calls[0].arguments)
    assert outcome.error is None and "Uses helix" in store.file.read_text()


def test_arguments_that_are_a_number_reach_the_tool_as_an_error_for_the_model(
    fake_server: ScriptedServer, client: LLMClient, palace_home: Any
) -> None:
    fake_server.add(Step(events=[ROLE, delta(tool_calls=[call(5)]), CALLS_DONE, "[DONE]"]))
    reply = client.stream_chat(MESSAGES)
    store = MemoryStore(palace_home)
    outcome = memory_tools(store).call(reply.tool_calls[0].name, reply.tool_calls[0].arguments)
    assert outcome.error == "the arguments for MemorySave must be a JSON object"
    assert not store.file.exists()


def test_token_counts_as_text_are_read_as_numbers_or_left_out(fake_server: ScriptedServer, client: LLMClient) -> None:
    usage = {"prompt_tokens": "12", "completion_tokens": "many", "total_tokens": None}
    fake_server.add(Step(events=[ROLE, delta("stop", content="ok"), chunk([], usage=usage), "[DONE]"]))
    notices: list[str] = []
    reply = client.stream_chat(MESSAGES, on_notice=notices.append)
    assert reply.content == "ok" and reply.usage == Usage(12, 0)
    assert "token counts" in notices[0]


def test_a_non_text_finish_reason_still_finishes_the_reply(fake_server: ScriptedServer, client: LLMClient) -> None:
    fake_server.add(Step(events=[ROLE, delta(1, content="done"), "[DONE]"]))
    reply = client.stream_chat(MESSAGES)
    assert (reply.content, reply.finish_reason, reply.interrupted) == ("done", "1", None)


# --- half an emoji (a lone surrogate) ---------------------------------------------------------------


def test_a_lone_surrogate_in_text_is_shown_as_a_replacement_character(
    fake_server: ScriptedServer, client: LLMClient
) -> None:
    fake_server.add(Step(events=[ROLE, delta(content="half \ud83e"), delta(content=" gone"), STOP, "[DONE]"]))
    pieces: list[str] = []
    reply = client.stream_chat(MESSAGES, on_text=pieces.append)
    assert reply.content == "half \ufffd gone"
    assert "".join(pieces).encode("utf-8").decode() == reply.content


def test_a_surrogate_pair_split_across_chunks_is_joined(fake_server: ScriptedServer, client: LLMClient) -> None:
    fake_server.add(Step(events=[ROLE, delta(content="thinking \ud83e"), delta(content="\udd14"), STOP, "[DONE]"]))
    pieces: list[str] = []
    reply = client.stream_chat(MESSAGES, on_text=pieces.append)
    assert reply.content == "thinking 🤔" and "".join(pieces) == "thinking 🤔"


@pytest.mark.parametrize(
    "arguments",
    [
        '{"path": "Preferences/editor", "content": "Uses helix \\ud83e"}',  # escaped inside the arguments text
        '{"path": "Preferences/editor", "content": "Uses helix \ud83e"}',  # a raw surrogate in the arguments text
        '{"path": "Preferences/editor", "content": "Uses helix \\udcff"}',  # the store's stand-in for byte 0xFF
    ],
)
def test_a_save_with_half_an_emoji_is_refused_and_the_conversation_goes_on(
    fake_server: ScriptedServer, settings_for: Callable[..., Settings], arguments: str
) -> None:
    fake_server.add(
        Step(events=[ROLE, delta(tool_calls=[call(arguments)]), CALLS_DONE, "[DONE]"]),
        Step(text="Could not save that."),
        Step(text="Still here."),
    )
    settings = settings_for(fake_server)
    session, store = _conversation(settings, LLMClient(base_url=fake_server.base_url, api_key=None, model="m"))
    events, seen = _events()
    result = session.turn("remember my editor", events)
    assert result.error is None and result.text == "Could not save that."
    broken = "content has a broken character (an unpaired surrogate, e.g. half an emoji)"
    assert seen["tool_error"] == [("MemorySave", f"{broken}; send the character whole or leave it out")]
    assert not store.file.exists()
    assert session.turn("and now?").text == "Still here."  # the history with the refused call still sends
    sent = json.dumps(fake_server.requests[-1]["messages"], ensure_ascii=False)
    sent.encode("utf-8")  # every string that went out was valid UTF-8


def test_user_text_with_a_lone_surrogate_is_sent_with_a_replacement_character(
    fake_server: ScriptedServer, client: LLMClient
) -> None:
    fake_server.add(Step(text="ok"))
    assert client.stream_chat([{"role": "user", "content": "caf\udce9 please"}]).content == "ok"
    assert fake_server.requests[0]["messages"] == [{"role": "user", "content": "caf\ufffd please"}]


# --- streams that stop without finishing --------------------------------------------------------------


@pytest.mark.parametrize("done", [True, False], ids=["then-DONE", "then-end"])
def test_a_stream_that_stops_without_a_finish_reason_is_an_interrupted_reply(
    fake_server: ScriptedServer, client: LLMClient, done: bool
) -> None:
    events: list[object] = [ROLE, delta(content="The answer is"), delta(content=" forty")]
    fake_server.add(Step(raw_body=sse(*events, *(["[DONE]"] if done else [])), content_type="text/event-stream"))
    reply = client.stream_chat(MESSAGES)
    assert reply.content == "The answer is forty"
    assert reply.interrupted == "stream ended without a finish reason"


def test_an_unfinished_tool_call_is_not_run_and_the_reply_is_marked(
    fake_server: ScriptedServer, settings_for: Callable[..., Settings]
) -> None:
    # The whole arguments arrived, but the stream stopped before the finish reason: the call may be incomplete.
    events = [ROLE, delta(content="Saving."), delta(tool_calls=[call(json.dumps(SAVE_ARGS))])]
    fake_server.add(Step(events=events), Step(text="next turn"))
    settings = settings_for(fake_server)
    session, store = _conversation(settings, LLMClient(base_url=fake_server.base_url, api_key=None, model="m"))
    events_, seen = _events()
    result = session.turn("I use helix", events_)
    assert result.interrupted == "stream ended without a finish reason" and result.error is None
    assert seen["change"] == [] and result.tool_rounds == 0
    assert not store.file.exists()
    assert session.messages[-1] == {
        "role": "assistant",
        "content": "Saving.\n[reply interrupted: stream ended without a finish reason]",
    }
    assert session.turn("go on").text == "next turn"
    assert len(fake_server.requests) == 2


# --- 200s that are not chat streams -------------------------------------------------------------------

NO_CHUNKS = "a stream that held no reply (no chat chunks, only [DONE] or nothing)"


@pytest.mark.parametrize(
    ("body", "content_type", "says"),
    [
        (b"<!doctype html><html><body>Welcome to nginx!</body></html>", "text/html", "an HTML page"),
        (b"", "text/event-stream", "an empty body"),
        (b"data: [DONE]\n\n", "text/event-stream", NO_CHUNKS),
        (b": keep-alive\n\n", "text/event-stream", NO_CHUNKS),
        (b'{"error": {"message": "model is loading"}}', "application/json", "an error in JSON (model is loading)"),
        (b'{"choices": []}', "application/json", "a whole reply in JSON"),
    ],
)
def test_a_200_that_is_not_a_chat_stream_is_one_clear_error(
    fake_server: ScriptedServer, client: LLMClient, body: bytes, content_type: str, says: str
) -> None:
    fake_server.add(Step(raw_body=body, content_type=content_type))
    with pytest.raises(LLMServerError) as info:
        client.stream_chat(MESSAGES)
    what = says if says == NO_CHUNKS else f"{says}, not a chat stream"
    assert str(info.value) == f"{fake_server.base_url} answered 200 with {what} — is OPENAI_BASE_URL right?"


def test_a_200_html_page_ends_the_turn_with_one_line(
    fake_server: ScriptedServer, settings_for: Callable[..., Settings]
) -> None:
    fake_server.add(Step(raw_body=b"<html>login</html>"), Step(text="back"))
    settings = settings_for(fake_server)
    session, _ = _conversation(settings, LLMClient(base_url=fake_server.base_url, api_key=None, model="m"))
    result = session.turn("hi")
    assert result.error is not None and "HTML page" in result.error and "\n" not in result.error
    assert result.text == "" and session.turn("again").text == "back"


# --- retries: 429, 502/503/504 and connections dropped before the reply, with notices --------------------


def test_a_502_is_retried_after_a_notice(fake_server: ScriptedServer, client: LLMClient, sleeps: Sleeps) -> None:
    fake_server.add(Step(status=502, text="bad gateway"), Step(text="recovered"))
    notices: list[str] = []
    assert client.stream_chat(MESSAGES, on_notice=notices.append).content == "recovered"
    assert notices == ["the endpoint failed (502), retrying in 0.5 s"]
    assert sleeps == [0.5]


def test_a_503_retry_after_is_honoured(fake_server: ScriptedServer, client: LLMClient, sleeps: Sleeps) -> None:
    fake_server.add(Step(status=503, headers={"Retry-After": "2"}), Step(text="ok"))
    notices: list[str] = []
    assert client.complete(MESSAGES, on_notice=notices.append).content == "ok"
    assert (notices, sleeps) == (["the endpoint failed (503), retrying in 2 s"], [2.0])


def test_the_rate_limit_wait_is_told(fake_server: ScriptedServer, client: LLMClient, sleeps: Sleeps) -> None:
    fake_server.add(Step(status=429, headers={"Retry-After": "20"}), Step(text="ok"))
    notices: list[str] = []
    assert client.stream_chat(MESSAGES, on_notice=notices.append).content == "ok"
    assert (notices, sleeps) == (["rate limited, retrying in 20 s"], [20.0])


def test_a_far_retry_after_is_capped_and_the_cap_is_told(
    fake_server: ScriptedServer, client: LLMClient, sleeps: Sleeps
) -> None:
    fake_server.add(Step(status=429, headers={"Retry-After": "3600"}), Step(text="ok"))
    notices: list[str] = []
    assert client.stream_chat(MESSAGES, on_notice=notices.append).content == "ok"
    assert sleeps == [60.0]
    assert notices == ["rate limited, retrying in 60 s (the endpoint asked to wait 3600 s; palace waits at most 60 s)"]


def test_a_connection_dropped_before_the_reply_is_retried(
    fake_server: ScriptedServer, client: LLMClient, sleeps: Sleeps
) -> None:
    fake_server.add(Step(hang_up=True), Step(hang_up=True), Step(text="third time lucky"))
    notices: list[str] = []
    assert client.stream_chat(MESSAGES, on_notice=notices.append).content == "third time lucky"
    assert sleeps == [0.5, 1.0] and len(fake_server.requests) == 3
    assert all(n.startswith("the connection dropped before the reply started (") for n in notices)
    assert notices[1].endswith("retrying in 1 s")


def test_retries_stop_after_three_and_the_error_is_one_line(
    fake_server: ScriptedServer, client: LLMClient, sleeps: Sleeps
) -> None:
    fake_server.add(*[Step(status=503, text="overloaded") for _ in range(4)], Step(text="never"))
    notices: list[str] = []
    with pytest.raises(LLMServerError, match=r"\(503: overloaded\)") as info:
        client.stream_chat(MESSAGES, on_notice=notices.append)
    assert "\n" not in str(info.value)
    assert sleeps == [0.5, 1.0, 2.0] and len(notices) == 3 and fake_server.pending == 1


def test_dropped_connections_give_up_after_three_retries(
    fake_server: ScriptedServer, client: LLMClient, sleeps: Sleeps
) -> None:
    fake_server.add(*[Step(hang_up=True) for _ in range(4)])
    with pytest.raises(LLMConnectionError):
        client.stream_chat(MESSAGES)
    assert len(fake_server.requests) == 4 and len(sleeps) == 3


def test_a_plain_500_is_not_retried_unless_the_endpoint_says_so(
    fake_server: ScriptedServer, client: LLMClient, sleeps: Sleeps
) -> None:
    fake_server.add(Step(status=500, text="model does not fit"))
    with pytest.raises(LLMServerError, match="model does not fit"):
        client.stream_chat(MESSAGES)
    assert sleeps == [] and len(fake_server.requests) == 1
    fake_server.add(Step(status=500, headers={"x-should-retry": "true"}), Step(text="then fine"))
    assert client.stream_chat(MESSAGES).content == "then fine" and sleeps == [0.5]


def test_the_endpoint_can_say_not_to_retry(fake_server: ScriptedServer, client: LLMClient, sleeps: Sleeps) -> None:
    fake_server.add(Step(status=503, headers={"x-should-retry": "false"}), Step(text="never"))
    with pytest.raises(LLMServerError, match="503"):
        client.stream_chat(MESSAGES)
    assert sleeps == [] and fake_server.pending == 1


def test_a_refused_connection_is_not_retried(sleeps: Sleeps) -> None:
    with ScriptedServer() as server:
        url = server.base_url  # a port that was just free, and is closed again below
    llm = LLMClient(base_url=url, api_key=None, model="m", sleep=sleeps)
    with pytest.raises(LLMConnectionError, match="connection refused"):
        llm.stream_chat(MESSAGES)
    assert sleeps == []


def test_ctrl_c_during_a_retry_wait_stops_the_reply(fake_server: ScriptedServer) -> None:
    def sleep(seconds: float) -> None:
        raise KeyboardInterrupt

    fake_server.add(Step(status=503), Step(text="never"))
    llm = LLMClient(base_url=fake_server.base_url, api_key=None, model="m", sleep=sleep)
    reply = llm.stream_chat(MESSAGES)
    llm.close()
    assert reply.interrupted == "stopped by user" and fake_server.pending == 1


def test_the_turn_shows_the_retry_notice_without_the_spinner_over_it(
    fake_server: ScriptedServer, settings_for: Callable[..., Settings], sleeps: Sleeps
) -> None:
    fake_server.add(Step(status=429, headers={"Retry-After": "20"}), Step(text="Hello.", chunk_size=3))
    settings = settings_for(fake_server)
    llm = LLMClient(base_url=fake_server.base_url, api_key=None, model="m", sleep=sleeps)
    session, _ = _conversation(settings, llm)
    events, seen = _events()
    result = session.turn("hi", events)
    assert result.error is None and result.text == "Hello."
    assert seen["notice"] == ["rate limited, retrying in 20 s"] and sleeps == [20.0]
    # waiting on, off for the notice, on again through the wait, off at the first text
    assert seen["waiting"][:4] == [True, False, True, False]
    assert seen["waiting"][-1] is False


# --- whatever else goes wrong below the seam ends the turn, not the REPL -------------------------------


class _Broken(ScriptedModel):
    """A model whose client code itself fails (a bug below the seam, not an answer from the endpoint)."""

    def stream_chat(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("something deep\nbroke")


def test_an_unexpected_exception_from_the_model_is_a_one_line_turn_error(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for()
    store = MemoryStore(settings.home)
    session = Conversation(settings, store, client=_Broken())
    result = session.turn("hi")
    assert result.error == "the model call failed unexpectedly: RuntimeError: something deep broke"
