"""An in-process scripted chat model behind the same seam as the openai client (model/chat.ChatModel).

It plays the same `Step` scripts as the loopback ScriptedServer (server.py) and answers as LLMClient does
over that server: the same chunks go through the same Accumulator, 429s are retried, a 400 to a JSON-mode
request is retried without it, failures raise the same LLMError subclasses with the same messages (with
`scripted://model` for the endpoint). Requests are recorded as the bodies the server would record.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from types import SimpleNamespace
from typing import Any

from palace.errors import (
    LLMAuthError,
    LLMContextLengthError,
    LLMError,
    LLMNotFoundError,
    LLMRateLimitError,
    LLMServerError,
    LLMTimeoutError,
)
from palace.model.failures import context_figures, rejects, too_long, wait_text
from palace.model.stream import Accumulator, Reply, ToolCall, usage_of
from palace.testing.replies import Step, completion_body, stream_events
from palace.testing.server import ERROR_TEXT, ContextLimit

URL = "scripted://model"
# What LLMClient reports when the server drops the connection mid-stream (httpx's words).
BROKEN = (
    "stream broke: connection lost "
    "(peer closed connection without sending complete message body (incomplete chunked read))"
)


def _objects(value: Any) -> Any:
    """JSON data as attribute objects, the way the openai client hands chunks to the Accumulator."""
    if isinstance(value, dict):
        return SimpleNamespace(**{key: _objects(item) for key, item in value.items()})
    if isinstance(value, list):
        return [_objects(item) for item in value]
    return value


class _Failed(Exception):
    """An HTTP error answer, before LLMClient's retries and translation."""

    def __init__(
        self, status: int, detail: str, headers: dict[str, str] | None = None, body: dict[str, Any] | None = None
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.body = body
        self.headers = {k.lower(): v for k, v in (headers or {}).items()}


class ScriptedModel:
    """A ChatModel that answers from a script (then from `responder`), recording every request."""

    def __init__(
        self,
        steps: Iterable[Step] = (),
        *,
        responder: Callable[[dict[str, Any]], Step] | None = None,
        model: str = "gpt-4.1-mini",
        models: Sequence[str] = ("gpt-4.1-mini", "palace-demo"),
        timeout: float = 60.0,
        max_retries: int = 3,
        reject_stream_options: bool = False,
        reject_response_format: bool = False,
        context_limit: ContextLimit | None = None,
    ) -> None:
        self._steps = list(steps)
        self.context_limit = context_limit
        self.responder = responder
        self.model = model
        self.models = list(models)
        self.timeout = timeout
        self.max_retries = max(0, max_retries)
        self.reject_stream_options = reject_stream_options
        self.reject_response_format = reject_response_format
        self.requests: list[dict[str, Any]] = []
        self.closed = False
        self._lock = threading.Lock()
        self._stream_usage = True  # as LLMClient: ask for usage until the endpoint refuses it
        self._json_mode = True  # as LLMClient: ask for JSON mode until the endpoint refuses it

    @property
    def url(self) -> str:
        return URL

    def add(self, *steps: Step) -> None:
        """Append steps to the script."""
        with self._lock:
            self._steps.extend(steps)

    @property
    def pending(self) -> int:
        """How many scripted steps are left."""
        with self._lock:
            return len(self._steps)

    # ------------------------------------------------------------------ one request, as the server answers it
    def _answer(self, body: dict[str, Any]) -> Step:
        """Record the request and take its step; an error answer raises _Failed."""
        with self._lock:
            self.requests.append(json.loads(json.dumps(body)))  # what the server would have decoded
        for flag, name in (
            (self.reject_stream_options, "stream_options"),
            (self.reject_response_format, "response_format"),
        ):
            if flag and name in body:
                raise _Failed(400, f"Unrecognized request argument supplied: {name}")
        refusal = self.context_limit.refusal(body) if self.context_limit is not None else None
        if refusal is not None:
            raise _Failed(refusal[0], str(refusal[1]["message"]), body=refusal[1])
        with self._lock:
            step = self._steps.pop(0) if self._steps else None
        if step is None:
            if self.responder is None:
                raise _Failed(500, "palace fake server: the script is exhausted (no step left, no responder)")
            try:
                step = self.responder(body)
            except Exception as exc:
                raise _Failed(500, f"palace fake server: the responder failed: {type(exc).__name__}: {exc}") from exc
        if self.context_limit is not None:
            step = self.context_limit.served(step, body)
        if step.delay > self.timeout:
            time.sleep(self.timeout)
            raise LLMTimeoutError(
                f"no answer from {URL} within {self.timeout:g}s — the server is slow or stuck "
                "(raise `timeout` in config.toml if it is just slow)"
            )
        if step.delay > 0:
            time.sleep(step.delay)
        if step.status != 200:
            _, default = ERROR_TEXT.get(step.status, ("server_error", "The server had an error."))
            raise _Failed(
                step.status, step.text or default.format(model=body.get("model", "palace-demo")), step.headers
            )
        return step

    def _with_retries(self, body: dict[str, Any], on_notice: Callable[[str], None] | None = None) -> Step:
        """Take steps until one is not retried (at most max_retries more), as LLMClient retries them: 429s,
        and the 5xx answers that mean "not now", unless the endpoint says not to (x-should-retry)."""
        for attempt in range(self.max_retries + 1):
            try:
                return self._answer(body)
            except _Failed as failed:
                told = {"true": True, "false": False}.get(failed.headers.get("x-should-retry", "").strip().lower())
                transient = failed.status in {502, 503, 504} or 520 <= failed.status <= 529
                if attempt == self.max_retries or told is False or not (failed.status == 429 or transient or told):
                    raise
                reason = "rate limited" if failed.status == 429 else f"the endpoint failed ({failed.status})"
                asked = failed.headers.get("retry-after")
                wait = float(asked) if asked else min(0.5 * 2**attempt, 8.0)
                if on_notice is not None:
                    on_notice(f"{reason}, retrying in {wait_text(wait)} s")
        raise AssertionError("unreachable")

    def _error(self, failed: _Failed) -> LLMError:
        """LLMClient._translate's error for an HTTP error answer."""
        status, detail = failed.status, failed.detail
        if status in (401, 403):
            extra = f" and that it may use model {self.model!r}" if status == 403 else ""
            return LLMAuthError(f"{URL} refused the API key ({status}: {detail}) — check OPENAI_API_KEY{extra}")
        if status == 404:
            return LLMNotFoundError(
                f"model {self.model!r} not found at {URL} (404: {detail}) — list the endpoint's models "
                "with /model in the REPL or `palace doctor`, then set PALACE_MODEL or --model"
            )
        if status == 429:
            return LLMRateLimitError(
                f"{URL} is still rate limiting (429) after {self.max_retries} retries — wait a minute "
                "and try again, or switch model"
            )
        seen = SimpleNamespace(message=detail, body=failed.body)
        if status in (400, 413, 500) and too_long(seen):
            window, used = context_figures(seen)
            return LLMContextLengthError(
                f"{URL} says the request is longer than the model's context ({detail})", window=window, used=used
            )
        if status >= 500:
            return LLMServerError(f"{URL} failed ({status}: {detail}) — try again later")
        return LLMError(f"{URL} rejected the request ({status}: {detail})")

    # ------------------------------------------------------------------ ChatModel
    def stream_chat(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        on_text: Callable[[str], None] | None = None,
        *,
        on_notice: Callable[[str], None] | None = None,
    ) -> Reply:
        body: dict[str, Any] = {"model": self.model, "messages": messages, "stream": True}
        if tools:
            body["tools"] = tools
        try:
            step = self._open_stream(body, on_notice)
        except KeyboardInterrupt:
            return Reply("", [], None, None, interrupted="stopped by user")
        except _Failed as failed:
            raise self._error(failed) from None
        acc = Accumulator()
        interrupted: str | None = None
        try:
            for sent, event in enumerate(stream_events(step, self.model, "stream_options" in body)):
                if step.break_after is not None and sent >= step.break_after:
                    if acc.finish_reason is None:  # after finish_reason the reply is whole
                        interrupted = BROKEN
                    break
                text = acc.add(_objects(event))
                if text and on_text is not None:
                    on_text(text)
        except KeyboardInterrupt:
            interrupted = "stopped by user"
        return acc.reply(interrupted)

    def _open_stream(self, body: dict[str, Any], on_notice: Callable[[str], None] | None = None) -> Step:
        if not self._stream_usage:
            return self._with_retries(body, on_notice)
        body["stream_options"] = {"include_usage": True}
        try:
            return self._with_retries(body, on_notice)
        except _Failed as failed:
            if failed.status != 400 or not rejects(SimpleNamespace(message=failed.detail, body=None), "stream_options"):
                raise
            del body["stream_options"]
            step = self._with_retries(body)
            self._stream_usage = False
            return step

    def complete(self, messages: list[dict[str, Any]], *, json_mode: bool = False) -> Reply:
        body: dict[str, Any] = {"model": self.model, "messages": messages, "stream": False}
        try:
            if json_mode and self._json_mode:
                body["response_format"] = {"type": "json_object"}
                try:
                    step = self._with_retries(body)
                except _Failed as failed:
                    if failed.status != 400:
                        raise
                    del body["response_format"]  # asked again without JSON mode, as LLMClient does
                    step = self._with_retries(body)
                    self._json_mode = False
            else:
                step = self._with_retries(body)
        except _Failed as failed:
            raise self._error(failed) from None
        return self._from_completion(completion_body(step, self.model))

    def _from_completion(self, payload: dict[str, Any]) -> Reply:
        choice = payload["choices"][0]
        message = choice["message"]
        calls = [
            ToolCall(raw["id"], raw["function"]["name"], raw["function"]["arguments"])
            for raw in message.get("tool_calls") or ()
        ]
        content = message.get("content")
        return Reply(
            content=content if isinstance(content, str) else "",
            tool_calls=calls,
            usage=usage_of(_objects(payload.get("usage"))),
            finish_reason=choice.get("finish_reason"),
        )

    def list_models(self) -> list[str]:
        return sorted(self.models)

    def close(self) -> None:
        self.closed = True
