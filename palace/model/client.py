"""Model access: the one module that talks to an OpenAI-compatible chat endpoint.

`openai` is imported lazily, inside the methods, so `import palace.model.client` stays cheap. Every failure
of the `openai` package is translated here, once, into a `palace.errors.LLMError` whose message is one
line with a hint. Message content is never logged or printed.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
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
from palace.model.failures import cause_reason, one_line, rejects, retry_after, server_message
from palace.model.stream import Accumulator, Reply, ToolCall, usage_of

if TYPE_CHECKING:
    from openai import OpenAI

    from palace.config import Settings

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://api.openai.com/v1"
PLACEHOLDER_KEY = "palace-no-key"  # local servers (Ollama, llama.cpp) accept any key
MAX_RETRY_AFTER = 60.0  # never wait longer than this for one 429, whatever the server asks
_T = TypeVar("_T")


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
                wait = retry_after(exc)
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
            if not rejects(exc, "stream_options", "include_usage"):
                raise
            del params["stream_options"]
            stream = self._with_retries(create)
            self._stream_usage = False
            return stream

    def _consume(self, stream: Any, on_text: Callable[[str], None] | None) -> Reply:
        import openai

        acc = Accumulator()
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
            return f"connection lost ({cause_reason(exc)})"
        if isinstance(exc, openai.APIError):
            return f"the endpoint sent an error: {server_message(exc)}"
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
            usage=usage_of(getattr(response, "usage", None)),
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
                f"cannot reach {url}: {cause_reason(exc)} — is the server running? (OPENAI_BASE_URL)"
            )
        if isinstance(exc, openai.APIStatusError):
            status = exc.status_code
            detail = server_message(exc)
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
                        f"{url} says the quota is used up (429: {detail}) — check the billing of OPENAI_API_KEY"
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
            return LLMServerError(f"{url} failed: {server_message(exc)}")
        return LLMError(f"model call failed: {one_line(str(exc)) or type(exc).__name__}")


def client_from_settings(settings: Settings, model: str | None = None) -> LLMClient:
    """An LLMClient for the configured endpoint (`model` overrides settings.model)."""
    return LLMClient(
        base_url=settings.base_url,
        api_key=settings.api_key,
        model=model or settings.model,
        timeout=settings.timeout,
    )
