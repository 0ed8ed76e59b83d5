"""An in-process scripted chat model behind the same seam as the openai client (model/chat.ChatModel).

It plays the same `Step` scripts as the loopback ScriptedServer (server.py), so a test can run a REPL or a
CLI command in-process, fast, and keep the HTTP path for the end-to-end set. Requests are recorded as the
bodies the real client would send (`model`, `messages`, `tools`, `stream`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from palace.errors import LLMAuthError, LLMError, LLMNotFoundError, LLMRateLimitError, LLMServerError
from palace.model.stream import Reply, ToolCall, Usage
from palace.testing.server import Step

URL = "scripted://model"


def _pieces(text: str, size: int) -> list[str]:
    if size <= 0 or len(text) <= size:
        return [text] if text else []
    return [text[i : i + size] for i in range(0, len(text), size)]


class ScriptedModel:
    """A ChatModel that answers from a script (then from `responder`), recording every request."""

    def __init__(
        self,
        steps: Iterable[Step] = (),
        *,
        responder: Callable[[dict[str, Any]], Step] | None = None,
        model: str = "gpt-4.1-mini",
        models: Sequence[str] = ("gpt-4.1-mini", "palace-demo"),
    ) -> None:
        self._steps = list(steps)
        self.responder = responder
        self.model = model
        self.models = list(models)
        self.requests: list[dict[str, Any]] = []
        self.closed = False
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        return URL

    def add(self, *steps: Step) -> None:
        with self._lock:
            self._steps.extend(steps)

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._steps)

    def _next(self, body: dict[str, Any]) -> Step:
        with self._lock:
            self.requests.append(body)
            if self._steps:
                return self._steps.pop(0)
        if self.responder is None:
            raise LLMServerError(f"{URL} failed (500: the script is exhausted) — try again later")
        return self.responder(body)

    def _fail(self, step: Step) -> None:
        detail = step.text or "scripted failure"
        if step.status in (401, 403):
            raise LLMAuthError(f"{URL} refused the API key ({step.status}: {detail}) — check OPENAI_API_KEY")
        if step.status == 404:
            raise LLMNotFoundError(f"model {self.model!r} not found at {URL} (404: {detail})")
        if step.status == 429:
            raise LLMRateLimitError(f"{URL} is still rate limiting (429)")
        if step.status >= 500:
            raise LLMServerError(f"{URL} failed ({step.status}: {detail}) — try again later")
        raise LLMError(f"{URL} rejected the request ({step.status}: {detail})")

    def stream_chat(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        on_text: Callable[[str], None] | None = None,
        *,
        on_notice: Callable[[str], None] | None = None,
    ) -> Reply:
        body: dict[str, Any] = {"model": self.model, "messages": list(messages), "stream": True}
        if tools:
            body["tools"] = tools
        step = self._next(body)
        if step.status != 200:
            self._fail(step)
        # The events the server would send: the role, each text piece, each call's pieces, the finish.
        events = ["role", *(("text", piece) for piece in _pieces(step.text, step.chunk_size))]
        for _name, args in step.tool_calls:
            events += ["call"] * max(1, len(_pieces(args, step.chunk_size)))
        events.append("finish")
        text: list[str] = []
        for sent, event in enumerate(events):
            if step.break_after is not None and sent >= step.break_after:
                return Reply("".join(text), [], None, None, interrupted="stream broke: connection lost")
            if isinstance(event, tuple):
                text.append(event[1])
                if on_text is not None:
                    on_text(event[1])
        return self._reply("".join(text), step)

    def complete(self, messages: list[dict[str, Any]], *, json_mode: bool = False) -> Reply:
        body: dict[str, Any] = {"model": self.model, "messages": list(messages), "stream": False}
        if json_mode:
            body["response_format"] = {"type": "json_object"}
        step = self._next(body)
        if step.status != 200:
            self._fail(step)
        return self._reply(step.text, step)

    def _reply(self, text: str, step: Step) -> Reply:
        calls = [ToolCall(f"call_{n:04d}", name, args) for n, (name, args) in enumerate(step.tool_calls)]
        usage = Usage(*step.usage) if step.usage is not None else None
        return Reply(text, calls, usage, "tool_calls" if calls else "stop")

    def list_models(self) -> list[str]:
        return list(self.models)

    def close(self) -> None:
        self.closed = True
