"""A streamed (or whole) chat reply as palace sees it, built from whatever chunks an endpoint sends."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class ToolCall:
    id: str
    name: str
    arguments: str  # raw JSON text as received (may be invalid; the tool layer reports that)


@dataclass
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0


@dataclass
class Reply:
    content: str  # text (partial if interrupted)
    tool_calls: list[ToolCall]
    usage: Usage | None
    finish_reason: str | None
    interrupted: str | None = None  # None, or a one-line reason: "stopped by user" / "stream broke: ..."

    def to_message(self) -> dict[str, Any]:
        """The assistant message to append to the conversation, in OpenAI chat format."""
        message: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.tool_calls:
            message["content"] = self.content or None
            message["tool_calls"] = [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                for c in self.tool_calls
            ]
        return message


@dataclass
class _PendingCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


class Accumulator:
    """Builds a Reply from chat.completion.chunk objects, tolerant of what compatible servers send."""

    def __init__(self) -> None:
        self.text: list[str] = []
        self.calls: list[_PendingCall] = []
        self.by_index: dict[int, _PendingCall] = {}
        self.usage: Usage | None = None
        self.finish_reason: str | None = None

    def add(self, chunk: Any) -> str:
        """Take one chunk; return its text (may be empty)."""
        usage = usage_of(getattr(chunk, "usage", None))
        if usage is not None:
            self.usage = usage
        text = ""
        for choice in getattr(chunk, "choices", None) or ():
            if (getattr(choice, "index", 0) or 0) != 0:
                continue
            delta = getattr(choice, "delta", None)
            piece = getattr(delta, "content", None)
            if isinstance(piece, str) and piece:
                self.text.append(piece)
                text += piece
            for call in getattr(delta, "tool_calls", None) or ():
                self._add_call(call)
            reason = getattr(choice, "finish_reason", None)
            if reason:
                self.finish_reason = str(reason)
        return text

    def _add_call(self, delta: Any) -> None:
        index = getattr(delta, "index", None)
        if not isinstance(index, int):
            index = len(self.calls)
        call_id = getattr(delta, "id", None) or ""
        function = getattr(delta, "function", None)
        name = getattr(function, "name", None) or ""
        arguments = getattr(function, "arguments", None) or ""
        pending = self.by_index.get(index)
        # Some servers reuse index 0 for every call; a new id there means a new call.
        if pending is None or (call_id and pending.id and call_id != pending.id):
            pending = _PendingCall()
            self.calls.append(pending)
            self.by_index[index] = pending
        if call_id and not pending.id:
            pending.id = call_id
        if name and name != pending.name:
            pending.name = pending.name + name if pending.name else name
        if arguments:
            pending.arguments.append(arguments)

    def reply(self, interrupted: str | None = None) -> Reply:
        calls = [] if interrupted else _tool_calls(self.calls)
        return Reply(
            content="".join(self.text),
            tool_calls=calls,
            usage=self.usage,
            finish_reason=self.finish_reason,
            interrupted=interrupted,
        )


def _tool_calls(pending: list[_PendingCall]) -> list[ToolCall]:
    return [
        ToolCall(id=p.id or f"call_palace_{n}", name=p.name, arguments="".join(p.arguments))
        for n, p in enumerate(pending)
    ]


def usage_of(raw: Any) -> Usage | None:
    if raw is None:
        return None
    prompt = getattr(raw, "prompt_tokens", None)
    completion = getattr(raw, "completion_tokens", None)
    if prompt is None and completion is None:
        return None
    return Usage(input_tokens=int(prompt or 0), output_tokens=int(completion or 0))
