"""A streamed (or whole) chat reply as palace sees it, built from whatever chunks an endpoint sends.

Compatible servers send all sorts: a `choices` that is not a list, arguments as a JSON object instead of
text, token counts as strings, half an emoji (a lone UTF-16 surrogate). The accumulator never raises on
any of it: it coerces what has one clear meaning, skips the rest, and keeps a note of each for the user.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from palace.record import field, record

_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")
_HIGH_SURROGATES = ("\ud800", "\udbff")
REPLACEMENT = "\ufffd"


@record
class ToolCall:
    id: str
    name: str
    arguments: str  # raw JSON text as received (may be invalid; the tool layer reports that)


@record
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0


@record
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


def valid_text(text: str) -> str:
    """text that encodes as UTF-8: surrogate pairs joined, lone surrogates (half an emoji) as U+FFFD."""
    if not _SURROGATE.search(text):
        return text
    text = _SURROGATE_PAIR.sub(_join_pair, text)
    return _SURROGATE.sub(REPLACEMENT, text)


def valid_json_text(text: str) -> str:
    """JSON text that encodes as UTF-8 and means the same: lone surrogates become `\\uXXXX` escapes."""
    if not _SURROGATE.search(text):
        return text
    text = _SURROGATE_PAIR.sub(_join_pair, text)
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _join_pair(match: re.Match[str]) -> str:
    return match.group().encode("utf-16-le", "surrogatepass").decode("utf-16-le")


def _record(value: object) -> bool:
    """Is value something with fields (an SDK object or a JSON object), not a bare value or a list?"""
    return value is not None and not isinstance(value, str | bytes | int | float | list | tuple)


def _get(obj: object, name: str) -> Any:
    """A field of an SDK object, or of a plain dict (what is left where the SDK could not type the data)."""
    if isinstance(obj, dict):
        return obj.get(name)
    if not _record(obj):
        return None
    return getattr(obj, name, None)


def _count(value: object) -> int | None:
    """A token count as an int: numbers and digit strings count; anything else is None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return max(0, value)
    if isinstance(value, float) and value == value and abs(value) < 2**53:
        return max(0, int(value))
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def _small_int(value: object) -> int | None:
    """A choice or tool-call index: an int (or a digit string) of sane size, else None."""
    number = _count(value)
    return number if number is not None and number < 1_000_000 else None


@record
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
        self.chunks = 0  # chunks received, readable or not
        self.notes: list[str] = []  # what was skipped or coerced, once each
        self._held = ""  # a high surrogate at the end of a piece, waiting for its other half

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    def add(self, chunk: Any) -> str:
        """Take one chunk; return its text (may be empty). Never raises on what the chunk holds."""
        self.chunks += 1
        if not _record(chunk):
            self.note("a chunk that is not a JSON object was skipped")
            return ""
        raw_usage = _get(chunk, "usage")
        if raw_usage is not None:
            usage = usage_of(raw_usage, self.note)
            if usage is not None:
                self.usage = usage
        choices = _get(chunk, "choices")
        if choices is None:
            return ""
        if not isinstance(choices, list | tuple):
            self.note("a chunk whose `choices` is not a list was skipped")
            return ""
        text = ""
        for choice in choices:
            text += self._add_choice(choice)
        return text

    def _add_choice(self, choice: object) -> str:
        if not _record(choice):
            self.note("a choice that is not a JSON object was skipped")
            return ""
        index = _get(choice, "index")
        if index is not None and _small_int(index) != 0:
            return ""  # palace asks for one choice; others (or unreadable indexes) are not part of it
        delta = _get(choice, "delta")
        if delta is not None and not _record(delta):
            self.note("a `delta` that is not a JSON object was skipped")
        text = self._add_text(_get(delta, "content"))
        tool_calls = _get(delta, "tool_calls")
        if isinstance(tool_calls, list | tuple):
            for call in tool_calls:
                self._add_call(call)
        elif tool_calls is not None:
            self.note("`tool_calls` that is not a list was skipped")
        reason = _get(choice, "finish_reason")
        if isinstance(reason, str) and reason:
            self.finish_reason = reason
        elif reason is not None and reason != "":
            self.note("a `finish_reason` that is not text was read as text")
            self.finish_reason = str(reason)
        return text

    def _add_text(self, piece: object) -> str:
        if piece is None or piece == "":
            return ""
        if not isinstance(piece, str):
            self.note("text `content` that is not a string was skipped")
            return ""
        piece = self._held + piece
        self._held = ""
        if _HIGH_SURROGATES[0] <= piece[-1] <= _HIGH_SURROGATES[1]:
            # The other half of a surrogate pair may come in the next chunk.
            piece, self._held = piece[:-1], piece[-1]
        piece = valid_text(piece)
        if piece:
            self.text.append(piece)
        return piece

    def _add_call(self, delta: object) -> None:
        if not _record(delta):
            self.note("a tool call that is not a JSON object was skipped")
            return
        index = _small_int(_get(delta, "index"))
        if index is None:
            index = len(self.calls)
        call_id = self._name_text(_get(delta, "id"), "id")
        function = _get(delta, "function")
        name = self._name_text(_get(function, "name"), "name")
        arguments = self._arguments_text(_get(function, "arguments"))
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

    def _name_text(self, value: object, what: str) -> str:
        if value is None or isinstance(value, str):
            return valid_text(value or "")
        if isinstance(value, int | float) and not isinstance(value, bool):
            self.note(f"a tool-call {what} that is a number was read as text")
            return str(value)
        self.note(f"a tool-call {what} that is not text was skipped")
        return ""

    def _arguments_text(self, value: object) -> str:
        if value is None or isinstance(value, str):
            return valid_json_text(value or "")
        try:
            text = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError):
            self.note("tool-call `arguments` that are not text were skipped")
            return ""
        self.note("tool-call `arguments` sent as JSON, not as text, were read as JSON text")
        return valid_json_text(text)

    def add_completion(self, response: Any) -> bool:
        """Take a whole chat.completion object; False when it holds no choice to read."""
        choices = _get(response, "choices")
        if not isinstance(choices, list | tuple) or not choices or not _record(choices[0]):
            return False
        self.chunks += 1
        choice = choices[0]
        message = _get(choice, "message")
        self._add_text(_get(message, "content"))
        tool_calls = _get(message, "tool_calls")
        for call in tool_calls if isinstance(tool_calls, list | tuple) else ():
            self._add_call(call)
        reason = _get(choice, "finish_reason")
        self.finish_reason = str(reason) if reason else None
        self.usage = usage_of(_get(response, "usage"), self.note)
        return True

    def reply(self, interrupted: str | None = None) -> Reply:
        if self._held:
            self.text.append(REPLACEMENT)
            self._held = ""
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


def usage_of(raw: Any, note: Callable[[str], None] | None = None) -> Usage | None:
    """Token usage from an SDK usage object (or a dict); counts that are not numbers are left out."""
    tell = note or (lambda text: None)
    if raw is None:
        return None
    if not _record(raw):
        tell("a `usage` that is not a JSON object was skipped")
        return None
    prompt, completion = _get(raw, "prompt_tokens"), _get(raw, "completion_tokens")
    if prompt is None and completion is None:
        return None
    if isinstance(prompt, str) or isinstance(completion, str):
        tell("token counts sent as text were read as numbers")
    counts = [_count(value) if value is not None else 0 for value in (prompt, completion)]
    if None in counts:
        tell("token counts that are not numbers were counted as 0")
    return Usage(input_tokens=counts[0] or 0, output_tokens=counts[1] or 0)
