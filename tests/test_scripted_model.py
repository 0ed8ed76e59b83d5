"""ScriptedModel (in-process) answers every Step script exactly as LLMClient does over the loopback ScriptedServer.

Each case plays the same script through both and compares what palace sees: the replies (text, tool calls,
usage, finish reason, interruption), the streamed pieces, the errors (class and message, endpoint aside),
the requests the endpoint received, and how much of the script was used.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from palace.errors import LLMError
from palace.model.chat import ChatModel
from palace.model.client import LLMClient
from palace.testing.scripted import ScriptedModel
from palace.testing.server import ScriptedServer, Step

MESSAGES = [{"role": "system", "content": "You are terse."}, {"role": "user", "content": "Hello?"}]
TOOLS = [{"type": "function", "function": {"name": "MemorySave", "parameters": {"type": "object"}}}]
SAVE = ("MemorySave", json.dumps({"path": "Preferences/shell", "content": "Uses fish"}))


@dataclass
class Call:
    """One call of the ChatModel seam: stream_chat (with or without tools) or complete."""

    kind: str = "stream"  # "stream" | "complete"
    tools: bool = False
    json_mode: bool = False


@dataclass
class Case:
    steps: list[Step]
    calls: list[Call] = field(default_factory=lambda: [Call()])
    flags: dict[str, bool] = field(default_factory=dict)  # reject_stream_options / reject_response_format
    responder: Callable[[dict[str, Any]], Step] | None = None


def _failing_responder(body: dict[str, Any]) -> Step:
    raise RuntimeError("no idea")


STREAM, TOOLS_CALL, COMPLETE, JSON = Call(), Call(tools=True), Call("complete"), Call("complete", json_mode=True)

# Each case is one script played by one client; cases that do not depend on each other share a script.
CASES = {
    "streamed replies": Case(
        [
            Step(text="Hello there, how are you?", chunk_size=4),
            Step(text="Fine."),
            Step(),
            Step(text="no usage here", usage=None),
            Step(text="Saving. ", tool_calls=[SAVE, ("MemoryForget", "{not json")], chunk_size=5),
            Step(tool_calls=[SAVE]),
        ],
        [STREAM, STREAM, STREAM, STREAM, TOOLS_CALL, TOOLS_CALL],
    ),
    "broken streams": Case(
        [
            Step(text="never", break_after=0),
            Step(text="partial words that never finish", chunk_size=4, break_after=3),
            Step(tool_calls=[SAVE], chunk_size=6, break_after=4),
            Step(text="whole", chunk_size=2, break_after=5),  # role, 3 pieces, finish: only the usage is lost
        ],
        [STREAM, STREAM, TOOLS_CALL, STREAM],
    ),
    "error statuses": Case(
        [
            Step(status=401),
            Step(status=403, text="not for you"),
            Step(status=404),
            Step(status=400),
            Step(status=418, text="I'm a teapot"),
            Step(status=500, text="upstream exploded"),
            Step(status=503),
            Step(status=502, text="bad gateway"),
        ],
        [STREAM] * 7 + [JSON],
    ),
    "429s retried, then given up": Case(
        [Step(status=429), Step(status=429), Step(text="finally"), *[Step(status=429)] * 5],
        [STREAM, STREAM],
    ),
    "exhausted script": Case([], [STREAM, COMPLETE]),
    "responder answers": Case([], [STREAM, COMPLETE], responder=lambda body: Step(text=f"{len(body['messages'])}")),
    "responder fails": Case([], responder=_failing_responder),
    "stream_options refused": Case(
        [Step(text="one"), Step(text="two")], [STREAM, STREAM], flags={"reject_stream_options": True}
    ),
    "unsupported parameter": Case(
        [Step(status=400, text="Unsupported parameter: stream_options"), Step(text="a"), Step(text="b")],
        [STREAM, STREAM],
    ),
    "whole replies": Case(
        [
            Step(text='{"summary": "s", "memories": []}', usage=(300, 40)),
            Step(text="{}"),
            Step(tool_calls=[SAVE]),
            Step(text="x", usage=None),
            Step(text="streamed", chunk_size=3),
        ],
        [COMPLETE, JSON, COMPLETE, COMPLETE, TOOLS_CALL],
    ),
    "JSON mode refused by a 400": Case([Step(status=400), Step(text="{}"), Step(text="{}")], [JSON, JSON]),
    "response_format refused": Case(
        [Step(text="{}"), Step(text="{}")], [JSON, JSON], flags={"reject_response_format": True}
    ),
}


def _play(model: ChatModel, calls: list[Call], url: str) -> list[Any]:
    """What palace sees of each call: the reply and the streamed pieces, or the error."""
    seen: list[Any] = []
    for call in calls:
        pieces: list[str] = []
        try:
            if call.kind == "stream":
                reply = model.stream_chat(list(MESSAGES), TOOLS if call.tools else None, on_text=pieces.append)
            else:
                reply = model.complete(list(MESSAGES), json_mode=call.json_mode)
        except LLMError as exc:
            seen.append(("error", type(exc).__name__, str(exc).replace(url, "ENDPOINT")))
            continue
        seen.append(("reply", reply, pieces))
    return seen


@pytest.mark.parametrize("name", list(CASES))
def test_the_scripted_model_answers_like_the_client_over_the_server(name: str) -> None:
    case = CASES[name]
    with ScriptedServer(case.steps, responder=case.responder, **case.flags) as server:
        client = LLMClient(base_url=server.base_url, api_key="test-key", model="gpt-4.1-mini", sleep=lambda _: None)
        over_http = _play(client, case.calls, server.base_url.rstrip("/"))
        client.close()
        http_requests, http_pending = server.requests, server.pending
    scripted = ScriptedModel(case.steps, responder=case.responder, **case.flags)
    in_process = _play(scripted, case.calls, scripted.url)
    assert in_process == over_http
    assert scripted.requests == http_requests
    assert scripted.pending == http_pending


def test_a_delay_past_the_timeout_is_the_same_timeout_error() -> None:
    with ScriptedServer([Step(text="too late", delay=5)]) as server:
        client = LLMClient(base_url=server.base_url, api_key="k", model="m", timeout=0.1)
        over_http = _play(client, [Call()], server.base_url.rstrip("/"))
        client.close()
    scripted = ScriptedModel([Step(text="too late", delay=5)], model="m", timeout=0.1)
    assert _play(scripted, [Call()], scripted.url) == over_http
    assert over_http[0][:2] == ("error", "LLMTimeoutError")


def test_ctrl_c_while_streaming_keeps_the_text_so_far() -> None:
    def interrupt_on_the_second_piece(pieces: list[str]) -> Callable[[str], None]:
        def on_text(text: str) -> None:
            pieces.append(text)
            if len(pieces) == 2:
                raise KeyboardInterrupt

        return on_text

    step = Step(text="one two three four", chunk_size=4)
    with ScriptedServer([step]) as server:
        client = LLMClient(base_url=server.base_url, api_key="k", model="m")
        http_pieces: list[str] = []
        over_http = client.stream_chat(list(MESSAGES), on_text=interrupt_on_the_second_piece(http_pieces))
        client.close()
    pieces: list[str] = []
    in_process = ScriptedModel([step], model="m").stream_chat(
        list(MESSAGES), on_text=interrupt_on_the_second_piece(pieces)
    )
    assert in_process == over_http and pieces == http_pieces
    assert in_process.interrupted == "stopped by user" and in_process.content == "one two "


def test_models_are_listed_alike() -> None:
    with ScriptedServer(models=["zeta", "alpha"]) as server:
        client = LLMClient(base_url=server.base_url, api_key="k", model="m")
        listed = client.list_models()
        client.close()
    assert ScriptedModel(models=["zeta", "alpha"]).list_models() == listed == ["alpha", "zeta"]
