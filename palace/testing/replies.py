"""What an OpenAI-compatible endpoint answers: a scripted `Step`, as a chat.completion object or as the
`chat.completion.chunk` events of a stream (shared by the loopback server and the in-process ScriptedModel)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from palace.record import field, record


@record
class Step:
    """One scripted response."""

    text: str = ""
    tool_calls: list[tuple[str, str]] = field(default_factory=list)  # (name, arguments JSON text)
    chunk_size: int = 0  # >0: split the text and each tool call's arguments into chunks of this many chars
    status: int = 200  # non-200: an OpenAI-style error body (its message is `text` when given)
    headers: dict[str, str] = field(default_factory=dict)  # e.g. {"Retry-After": "0"}
    delay: float = 0.0  # seconds before responding
    break_after: int | None = None  # streaming: drop the connection after this many chunks
    usage: tuple[int, int] | None = (10, 5)  # (prompt_tokens, completion_tokens)
    # Faults an endpoint or a proxy can produce:
    raw_body: bytes | None = None  # sent verbatim as a 200 body with `content_type`, instead of an answer
    content_type: str = "text/html; charset=utf-8"
    events: list[object] | None = None  # streaming: these as the `data:` events (str as is, else JSON), no [DONE]
    hang_up: bool = False  # close the connection without sending any response


def _pieces(text: str, size: int) -> list[str]:
    if size <= 0 or len(text) <= size:
        return [text]
    return [text[i : i + size] for i in range(0, len(text), size)]


def _usage(step: Step) -> dict[str, int] | None:
    if step.usage is None:
        return None
    prompt, completion = step.usage
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def _call_id(n: int) -> str:
    return f"call_{n:04d}"


def _finish_reason(step: Step) -> str:
    return "tool_calls" if step.tool_calls else "stop"


def completion_body(step: Step, model: str) -> dict[str, Any]:
    """The chat.completion object a non-streaming request gets for step."""
    message: dict[str, Any] = {"role": "assistant", "content": step.text or None, "refusal": None}
    if step.tool_calls:
        message["tool_calls"] = [
            {"id": _call_id(i), "type": "function", "function": {"name": name, "arguments": args}}
            for i, (name, args) in enumerate(step.tool_calls)
        ]
    payload: dict[str, Any] = {
        "id": "chatcmpl-palace",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": _finish_reason(step)}],
    }
    usage = _usage(step)
    if usage is not None:
        payload["usage"] = usage
    return payload


def stream_events(step: Step, model: str, include_usage: bool) -> Iterator[dict[str, Any]]:
    """The chat.completion.chunk events a streaming request gets for step, before `data: [DONE]`."""
    created = int(time.time())

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        event: dict[str, Any] = {
            "id": "chatcmpl-palace",
            "object": "chat.completion.chunk",
            "created": created,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
        }
        if include_usage:
            event["usage"] = None
        return event

    yield chunk({"role": "assistant", "content": ""})
    if step.text:
        for piece in _pieces(step.text, step.chunk_size):
            yield chunk({"content": piece})
    for index, (name, args) in enumerate(step.tool_calls):
        pieces = _pieces(args, step.chunk_size)
        yield chunk(
            {
                "tool_calls": [
                    {
                        "index": index,
                        "id": _call_id(index),
                        "type": "function",
                        "function": {"name": name, "arguments": pieces[0]},
                    }
                ]
            }
        )
        for piece in pieces[1:]:
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    yield chunk({}, _finish_reason(step))
    usage = _usage(step)
    if include_usage and usage is not None:
        yield {
            "id": "chatcmpl-palace",
            "object": "chat.completion.chunk",
            "created": created,
            "model": model,
            "choices": [],
            "usage": usage,
        }
