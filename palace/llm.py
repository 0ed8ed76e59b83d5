"""Model access: the one module that talks to an OpenAI-compatible chat endpoint.

`openai` is imported lazily, inside the methods, so `import palace.llm` stays cheap. Every failure
of the `openai` package is translated here, once, into a `palace.errors.LLMError` whose message is one
line with a hint. Message content is never logged or printed.
"""

from __future__ import annotations

import email.utils
import json
import logging
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

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

if TYPE_CHECKING:
    from openai import OpenAI

    from palace.config import Settings

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://api.openai.com/v1"
PLACEHOLDER_KEY = "palace-no-key"  # local servers (Ollama, llama.cpp) accept any key
MAX_RETRY_AFTER = 60.0  # never wait longer than this for one 429, whatever the server asks
_T = TypeVar("_T")

# Words in a 400 body that say "this request parameter is not supported here".
_UNSUPPORTED_WORDS = (
    "unsupported", "not supported", "unrecognized", "unknown", "extra inputs", "extra_forbidden",
    "not permitted", "not allowed", "invalid parameter",
)


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


class _Accumulator:
    """Builds a Reply from chat.completion.chunk objects, tolerant of what compatible servers send."""

    def __init__(self) -> None:
        self.text: list[str] = []
        self.calls: list[_PendingCall] = []
        self.by_index: dict[int, _PendingCall] = {}
        self.usage: Usage | None = None
        self.finish_reason: str | None = None

    def add(self, chunk: Any) -> str:
        """Take one chunk; return its text (may be empty)."""
        usage = _usage(getattr(chunk, "usage", None))
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


def _usage(raw: Any) -> Usage | None:
    if raw is None:
        return None
    prompt = getattr(raw, "prompt_tokens", None)
    completion = getattr(raw, "completion_tokens", None)
    if prompt is None and completion is None:
        return None
    return Usage(input_tokens=int(prompt or 0), output_tokens=int(completion or 0))


def _one_line(text: str, limit: int = 200) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _server_message(exc: Any) -> str:
    """The endpoint's own error message, on one line."""
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        message = body.get("message") or body.get("error")
        if isinstance(message, str) and message.strip():
            return _one_line(message)
    elif isinstance(body, str) and body.strip():
        return _one_line(body)
    return _one_line(str(getattr(exc, "message", "") or exc))


def _error_text(exc: Any) -> str:
    body = getattr(exc, "body", None)
    try:
        dumped = json.dumps(body) if body is not None else ""
    except (TypeError, ValueError):
        dumped = str(body)
    return f"{getattr(exc, 'message', '')} {dumped}".lower()


def _rejects(exc: Any, *names: str) -> bool:
    """Does this 400 say that one of `names` (or some parameter) is not supported?"""
    text = _error_text(exc)
    return any(name in text for name in names) or any(word in text for word in _UNSUPPORTED_WORDS)


def _retry_after(exc: Any) -> float | None:
    """Seconds the server asked us to wait (Retry-After / retry-after-ms), if it said."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    value = headers.get("retry-after-ms")
    if value:
        try:
            return max(0.0, float(value) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _cause_reason(exc: BaseException) -> str:
    """A short reason from the low-level error behind a connection failure."""
    seen: set[int] = set()
    current: BaseException | None = exc
    texts: list[str] = []
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, ConnectionRefusedError):
            return "connection refused"
        if isinstance(current, OSError) and current.strerror:
            texts.append(current.strerror)
        text = str(current)
        if text:
            texts.append(text)
        current = current.__cause__ or current.__context__
    joined = " ".join(texts).lower()
    if "refused" in joined:
        return "connection refused"
    if "name or service not known" in joined or "nodename nor servname" in joined or "getaddrinfo" in joined:
        return "unknown host"
    for text in texts[1:] + texts[:1]:
        if text and text not in ("Connection error.",):
            return _one_line(text, 120)
    return "connection failed"


class LLMClient:
    """Chat completions (streaming, with tools) against any OpenAI-compatible endpoint."""

    def __init__(
        self,
        *,
        base_url: str | None,
        api_key: str | None,
        model: str,
        timeout: float = 60.0,
        max_retries: int = 3,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url or None
        self.api_key = api_key or None
        self.model = model
        self.timeout = timeout
        self.max_retries = max(0, max_retries)
        self._sleep = sleep
        self._client: OpenAI | None = None
        self._lock = threading.Lock()
        self._stream_usage = True  # send stream_options.include_usage until the endpoint refuses it
        self._json_mode = True  # send response_format json_object until the endpoint refuses it

    @property
    def url(self) -> str:
        """The endpoint, as shown in messages."""
        return (self.base_url or DEFAULT_BASE_URL).rstrip("/")

    # --- public API ----------------------------------------------------------------------------

    def stream_chat(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        on_text: Callable[[str], None] | None = None,
    ) -> Reply:
        """One streamed model reply. `on_text` gets each text piece as it arrives.

        A stream that breaks midway, or Ctrl-C, returns the partial reply with `interrupted` set
        (and no tool calls, which may be incomplete). Failures before the stream starts raise LLMError.
        """
        import openai

        client = self._get_client()
        params: dict[str, Any] = {"model": self.model, "messages": messages, "stream": True}
        if tools:
            params["tools"] = tools
        try:
            stream = self._open_stream(client, params)
        except KeyboardInterrupt:
            return Reply("", [], None, None, interrupted="stopped by user")
        except openai.OpenAIError as exc:
            raise self._translate(exc) from exc
        return self._consume(stream, on_text)

    def complete(self, messages: list[dict[str, Any]], *, json_mode: bool = False) -> Reply:
        """One non-streamed model reply; `json_mode` asks for a JSON object when the endpoint can."""
        import openai

        client = self._get_client()
        params: dict[str, Any] = {"model": self.model, "messages": messages, "stream": False}
        try:
            if json_mode and self._json_mode:
                params["response_format"] = {"type": "json_object"}
                try:
                    response = self._with_retries(lambda: client.chat.completions.create(**params))
                except openai.BadRequestError:
                    del params["response_format"]
                    response = self._with_retries(lambda: client.chat.completions.create(**params))
                    self._json_mode = False
            else:
                response = self._with_retries(lambda: client.chat.completions.create(**params))
        except openai.OpenAIError as exc:
            raise self._translate(exc) from exc
        return self._from_completion(response)

    def list_models(self) -> list[str]:
        """The model names the endpoint offers."""
        import openai

        client = self._get_client()
        try:
            page = self._with_retries(lambda: client.models.list())
            return sorted(str(model.id) for model in page)
        except openai.OpenAIError as exc:
            raise self._translate(exc) from exc

    def close(self) -> None:
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            client.close()

    # --- internals -----------------------------------------------------------------------------

    def _get_client(self) -> OpenAI:
        with self._lock:
            if self._client is not None:
                return self._client
            if self.api_key is None and self.base_url is None:
                raise LLMNotConfiguredError(
                    "no model endpoint configured: set OPENAI_API_KEY "
                    "(or OPENAI_BASE_URL and PALACE_MODEL for a local server such as Ollama)"
                )
            import openai

            self._client = openai.OpenAI(
                api_key=self.api_key or PLACEHOLDER_KEY,
                base_url=self.base_url or DEFAULT_BASE_URL,
                timeout=self.timeout,
                max_retries=0,
            )
            return self._client

    def _with_retries(self, call: Callable[[], _T]) -> _T:
        """Run `call`, retrying 429 answers with backoff (Retry-After when given)."""
        import openai

        attempt = 0
        while True:
            try:
                return call()
            except openai.RateLimitError as exc:
                if attempt >= self.max_retries or getattr(exc, "code", None) == "insufficient_quota":
                    raise
                wait = _retry_after(exc)
                if wait is None:
                    wait = min(0.5 * 2**attempt, 8.0)
                wait = min(wait, MAX_RETRY_AFTER)
                attempt += 1
                log.debug("rate limited (429); retry %d/%d in %.2fs", attempt, self.max_retries, wait)
                self._sleep(wait)

    def _open_stream(self, client: OpenAI, params: dict[str, Any]) -> Any:
        import openai

        def create() -> Any:
            return client.chat.completions.create(**params)

        if not self._stream_usage:
            return self._with_retries(create)
        params["stream_options"] = {"include_usage": True}
        try:
            return self._with_retries(create)
        except openai.BadRequestError as exc:
            if not _rejects(exc, "stream_options", "include_usage"):
                raise
            del params["stream_options"]
            stream = self._with_retries(create)
            self._stream_usage = False
            return stream

    def _consume(self, stream: Any, on_text: Callable[[str], None] | None) -> Reply:
        import openai

        acc = _Accumulator()
        interrupted: str | None = None
        try:
            iterator = iter(stream)
            while True:
                try:
                    chunk = next(iterator)
                except StopIteration:
                    break
                except (openai.OpenAIError, ValueError) as exc:
                    if acc.finish_reason is None:  # after finish_reason the reply is whole
                        interrupted = f"stream broke: {self._stream_reason(exc)}"
                    break
                text = acc.add(chunk)
                if text and on_text is not None:
                    on_text(text)
        except KeyboardInterrupt:
            interrupted = "stopped by user"
        finally:
            try:
                stream.close()
            except Exception:  # closing a broken connection may fail too; nothing to do
                log.debug("closing the stream failed", exc_info=True)
        return acc.reply(interrupted)

    def _stream_reason(self, exc: BaseException) -> str:
        import openai

        if isinstance(exc, openai.APITimeoutError):
            return f"no data for {self.timeout:g}s"
        if isinstance(exc, openai.APIConnectionError):
            return f"connection lost ({_cause_reason(exc)})"
        if isinstance(exc, openai.APIError):
            return f"the endpoint sent an error: {_server_message(exc)}"
        return f"unreadable data from the endpoint ({type(exc).__name__})"

    def _from_completion(self, response: Any) -> Reply:
        choices = getattr(response, "choices", None)
        if not choices:
            raise LLMServerError(f"{self.url} answered without a reply (no choices) — is it a chat endpoint?")
        choice = choices[0]
        message = getattr(choice, "message", None)
        content = getattr(message, "content", None)
        calls: list[ToolCall] = []
        for n, raw in enumerate(getattr(message, "tool_calls", None) or ()):
            function = getattr(raw, "function", None)
            calls.append(
                ToolCall(
                    id=str(getattr(raw, "id", None) or f"call_palace_{n}"),
                    name=str(getattr(function, "name", None) or ""),
                    arguments=str(getattr(function, "arguments", None) or ""),
                )
            )
        reason = getattr(choice, "finish_reason", None)
        return Reply(
            content=content if isinstance(content, str) else "",
            tool_calls=calls,
            usage=_usage(getattr(response, "usage", None)),
            finish_reason=str(reason) if reason else None,
        )

    def _translate(self, exc: Exception) -> LLMError:
        """The one place where openai errors become palace errors (one line, with a hint)."""
        import openai

        url = self.url
        if isinstance(exc, openai.APITimeoutError):
            return LLMTimeoutError(
                f"no answer from {url} within {self.timeout:g}s — the server is slow or stuck "
                "(raise `timeout` in config.toml if it is just slow)"
            )
        if isinstance(exc, openai.APIConnectionError):
            return LLMConnectionError(
                f"cannot reach {url}: {_cause_reason(exc)} — is the server running? (OPENAI_BASE_URL)"
            )
        if isinstance(exc, openai.APIStatusError):
            status = exc.status_code
            detail = _server_message(exc)
            if status in (401, 403):
                return LLMAuthError(
                    f"{url} refused the API key ({status}: {detail}) — check OPENAI_API_KEY"
                    + (f" and that it may use model {self.model!r}" if status == 403 else "")
                )
            if status == 404:
                return LLMNotFoundError(
                    f"model {self.model!r} not found at {url} (404: {detail}) — list the endpoint's models "
                    "with /model in the REPL or `palace doctor`, then set PALACE_MODEL or --model"
                )
            if status == 429:
                if getattr(exc, "code", None) == "insufficient_quota":
                    return LLMRateLimitError(
                        f"{url} says the quota is used up (429: {detail}) — "
                        "check the billing of OPENAI_API_KEY"
                    )
                return LLMRateLimitError(
                    f"{url} is still rate limiting (429) after {self.max_retries} retries — wait a minute "
                    "and try again, or switch model"
                )
            if status >= 500:
                return LLMServerError(f"{url} failed ({status}: {detail}) — try again later")
            return LLMError(f"{url} rejected the request ({status}: {detail})")
        if isinstance(exc, openai.APIResponseValidationError):
            return LLMServerError(f"{url} answered something unusable — is it an OpenAI-compatible endpoint?")
        if isinstance(exc, openai.APIError):
            return LLMServerError(f"{url} failed: {_server_message(exc)}")
        return LLMError(f"model call failed: {_one_line(str(exc)) or type(exc).__name__}")


def client_from_settings(settings: Settings, model: str | None = None) -> LLMClient:
    """An LLMClient for the configured endpoint (`model` overrides settings.model)."""
    return LLMClient(
        base_url=settings.base_url,
        api_key=settings.api_key,
        model=model or settings.model,
        timeout=settings.timeout,
    )
