"""Model access: the one module that talks to an OpenAI-compatible chat endpoint.

`openai` is imported lazily, inside the methods, so `import palace.model.client` stays cheap. Every failure
of the `openai` package is translated here, once, into a `palace.errors.LLMError` whose message is one
line with a hint. Message content is never logged or printed.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from palace.errors import (
    LLMAuthError,
    LLMConnectionError,
    LLMContextLengthError,
    LLMError,
    LLMNotConfiguredError,
    LLMNotFoundError,
    LLMRateLimitError,
    LLMServerError,
    LLMTimeoutError,
)
from palace.model.failures import (
    cause_reason,
    context_figures,
    one_line,
    rejects,
    retry_after,
    server_message,
    should_retry,
    too_long,
    wait_text,
)
from palace.model.stream import Accumulator, Reply, valid_text

if TYPE_CHECKING:
    from openai import OpenAI

    from palace.config import Settings

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://api.openai.com/v1"
PLACEHOLDER_KEY = "palace-no-key"  # local servers (Ollama, llama.cpp) accept any key
MAX_RETRY_AFTER = 60.0  # never wait longer than this before one retry, whatever the server asks
_T = TypeVar("_T")
Notice = Callable[[str], None]


class _Retry(NamedTuple):
    seconds: float
    notice: str  # what the user is told while palace waits


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
        self._told: set[str] = set()  # notes about malformed stream data already shown this session

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
        *,
        on_notice: Notice | None = None,
    ) -> Reply:
        """One streamed model reply. `on_text` gets each text piece as it arrives, `on_notice` each retry wait.

        A stream that breaks midway or ends without a finish reason, or Ctrl-C, returns the partial reply with
        `interrupted` set (and no tool calls, which may be incomplete). Failures before the stream starts,
        and a 200 that is not a chat stream at all, raise LLMError.
        """
        import openai

        client = self._get_client()
        params: dict[str, Any] = {"model": self.model, "messages": _sendable(messages), "stream": True}
        if tools:
            params["tools"] = tools
        try:
            stream = self._open_stream(client, params, on_notice)
        except KeyboardInterrupt:
            return Reply("", [], None, None, interrupted="stopped by user")
        except openai.OpenAIError as exc:
            raise self._translate(exc) from exc
        return self._consume(stream, on_text, on_notice)

    def complete(
        self, messages: list[dict[str, Any]], *, json_mode: bool = False, on_notice: Notice | None = None
    ) -> Reply:
        """One non-streamed model reply; `json_mode` asks for a JSON object when the endpoint can."""
        import openai

        client = self._get_client()
        params: dict[str, Any] = {"model": self.model, "messages": _sendable(messages), "stream": False}

        def create() -> Any:
            return client.chat.completions.create(**params)

        try:
            if json_mode and self._json_mode:
                params["response_format"] = {"type": "json_object"}
                try:
                    response = self._with_retries(create, on_notice)
                except openai.BadRequestError:
                    del params["response_format"]
                    response = self._with_retries(create, on_notice)
                    self._json_mode = False
            else:
                response = self._with_retries(create, on_notice)
        except openai.OpenAIError as exc:
            raise self._translate(exc) from exc
        return self._from_completion(response, on_notice)

    def list_models(self) -> list[str]:
        """The model names the endpoint offers."""
        import openai

        client = self._get_client()
        try:
            page = self._with_retries(lambda: client.models.list(), None)
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

    def _with_retries(self, call: Callable[[], _T], on_notice: Notice | None) -> _T:
        """Run `call`, retrying 429, 5xx and dropped connections with backoff (Retry-After when given)."""
        import openai

        attempt = 0
        while True:
            try:
                return call()
            except openai.OpenAIError as exc:
                retry = self._retry(exc, attempt)
                if retry is None:
                    raise
                attempt += 1
                log.debug("%s (retry %d/%d)", retry.notice, attempt, self.max_retries)
                if on_notice is not None:
                    on_notice(retry.notice)
                self._sleep(retry.seconds)

    def _retry(self, exc: Exception, attempt: int) -> _Retry | None:
        """How long to wait before trying `exc`'s request again, or None when another try cannot help."""
        import openai

        told = should_retry(exc)
        if attempt >= self.max_retries or told is False:
            return None
        if isinstance(exc, openai.RateLimitError):
            if getattr(exc, "code", None) == "insufficient_quota":
                return None
            reason = "rate limited"
        elif isinstance(exc, openai.APIStatusError) and (told or _transient(exc.status_code)):
            reason = f"the endpoint failed ({exc.status_code})"
        elif isinstance(exc, openai.APIConnectionError) and not isinstance(exc, openai.APITimeoutError):
            cause = cause_reason(exc)
            if cause in {"connection refused", "unknown host"}:
                return None  # nothing listens there: trying again in a second will not change that
            reason = f"the connection dropped before the reply started ({cause.rstrip('.')})"
        else:
            return None  # a timeout already waited its time; other errors are answers, not accidents
        asked = retry_after(exc)
        wait = min(0.5 * 2**attempt, 8.0) if asked is None else asked
        if wait <= MAX_RETRY_AFTER:
            return _Retry(wait, f"{reason}, retrying in {wait_text(wait)} s")
        capped = f"the endpoint asked to wait {wait_text(wait)} s; palace waits at most {wait_text(MAX_RETRY_AFTER)} s"
        return _Retry(MAX_RETRY_AFTER, f"{reason}, retrying in {wait_text(MAX_RETRY_AFTER)} s ({capped})")

    def _open_stream(self, client: OpenAI, params: dict[str, Any], on_notice: Notice | None) -> Any:
        import openai

        def create() -> Any:
            return client.chat.completions.create(**params)

        if not self._stream_usage:
            return self._with_retries(create, on_notice)
        params["stream_options"] = {"include_usage": True}
        try:
            return self._with_retries(create, on_notice)
        except openai.BadRequestError as exc:
            if not rejects(exc, "stream_options", "include_usage"):
                raise
            del params["stream_options"]
            stream = self._with_retries(create, on_notice)
            self._stream_usage = False
            return stream

    def _consume(self, stream: Any, on_text: Callable[[str], None] | None, on_notice: Notice | None) -> Reply:
        acc = Accumulator()
        interrupted: str | None = None
        try:
            not_a_stream = self._not_a_stream(getattr(stream, "response", None))
            if not_a_stream is not None:
                raise not_a_stream
            interrupted = self._read(stream, acc, on_text)
        except KeyboardInterrupt:
            interrupted = "stopped by user"
        finally:
            try:
                stream.close()
            except Exception:  # closing a broken connection may fail too; nothing to do
                log.debug("closing the stream failed", exc_info=True)
        self._tell_notes(acc.notes, on_notice)
        if interrupted is None and acc.chunks == 0:
            raise self._empty_stream(getattr(stream, "response", None))
        if interrupted is None and acc.finish_reason is None:
            interrupted = "stream ended without a finish reason"  # a proxy may cut a stream cleanly
        return acc.reply(interrupted)

    def _read(self, stream: Any, acc: Accumulator, on_text: Callable[[str], None] | None) -> str | None:
        """Feed the stream's chunks to acc; the reason it broke, or None when it ended."""
        iterator = iter(stream)
        while True:
            try:
                chunk = next(iterator)
            except StopIteration:
                return None
            except Exception as exc:  # openai, httpx or decoding errors alike: the stream is over
                if acc.finish_reason is not None:  # after finish_reason the reply is whole
                    return None
                return f"stream broke: {self._stream_reason(exc)}"
            text = acc.add(chunk)
            if text and on_text is not None:
                on_text(text)

    def _tell_notes(self, notes: list[str], on_notice: Notice | None) -> None:
        """Say once per session what the endpoint sent that palace had to skip or coerce."""
        new = [note for note in notes if note not in self._told]
        if not new:
            return
        self._told.update(new)
        text = f"{self.url} sent data that does not follow the chat format: " + "; ".join(new)
        log.debug(text)
        if on_notice is not None:
            on_notice(text)

    def _not_a_stream(self, response: Any) -> LLMServerError | None:
        """The error for a 200 whose body is plainly not a chat stream (HTML, JSON, empty), before reading it."""
        headers = getattr(response, "headers", None)
        if headers is None:
            return None
        kind = str(headers.get("content-type") or "").lower()
        if str(headers.get("content-length") or "").strip() == "0":
            return self._not_chat("an empty body")
        if "html" in kind:
            return self._not_chat("an HTML page")
        if "json" in kind:
            return self._not_chat(_describe_json(response))
        return None

    def _empty_stream(self, response: Any) -> LLMServerError:
        if getattr(response, "num_bytes_downloaded", None) == 0:
            return self._not_chat("an empty body")
        return self._not_chat("a stream that held no reply (no chat chunks, only [DONE] or nothing)", stream=True)

    def _not_chat(self, what: str, *, stream: bool = False) -> LLMServerError:
        what = what if stream else f"{what}, not a chat stream"
        return LLMServerError(f"{self.url} answered 200 with {what} — is OPENAI_BASE_URL right?")

    def _stream_reason(self, exc: BaseException) -> str:
        import openai

        if isinstance(exc, openai.APITimeoutError):
            return f"no data for {self.timeout:g}s"
        if isinstance(exc, openai.APIConnectionError):
            return f"connection lost ({cause_reason(exc)})"
        if isinstance(exc, openai.APIError):
            return f"the endpoint sent an error: {server_message(exc)}"
        return f"unreadable data from the endpoint ({type(exc).__name__})"

    def _from_completion(self, response: Any, on_notice: Notice | None) -> Reply:
        acc = Accumulator()
        if not acc.add_completion(response):
            raise LLMServerError(f"{self.url} answered without a reply (no choices) — is it a chat endpoint?")
        self._tell_notes(acc.notes, on_notice)
        return acc.reply()

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
            if status in (400, 413, 500) and too_long(exc):  # (llama.cpp said it with a 500 for a while)
                window, used = context_figures(exc)
                return LLMContextLengthError(
                    f"{url} says the request is longer than the model's context ({detail})", window=window, used=used
                )
            if status >= 500:
                return LLMServerError(f"{url} failed ({status}: {detail}) — try again later")
            return LLMError(f"{url} rejected the request ({status}: {detail})")
        if isinstance(exc, openai.APIResponseValidationError):
            return LLMServerError(f"{url} answered something unusable — is it an OpenAI-compatible endpoint?")
        if isinstance(exc, openai.APIError):
            return LLMServerError(f"{url} failed: {server_message(exc)}")
        return LLMError(f"model call failed: {one_line(str(exc)) or type(exc).__name__}")


def _transient(status: int) -> bool:
    """A 5xx that says "not now": bad gateway, unavailable, gateway timeout, a CDN's unreachable origin."""
    # Not a plain 500: local servers (Ollama, llama.cpp) answer 500 for failures that repeat, such as a model
    # that does not fit in memory, and the same request would only fail the same way three more times.
    return status in {502, 503, 504} or 520 <= status <= 529


def _sendable(value: Any) -> Any:
    """value with every string valid UTF-8: one lone surrogate anywhere would make the whole request fail."""
    if isinstance(value, str):
        return valid_text(value)
    if isinstance(value, dict):
        return {key: _sendable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_sendable(item) for item in value]
    return value


def _describe_json(response: Any) -> str:
    """What a JSON body that came instead of a stream says: an error message, or just "JSON"."""
    try:
        body = json.loads(response.read())
    except Exception:  # unreadable is still "JSON" as far as the user needs to know
        return "JSON"
    error = body.get("error") if isinstance(body, dict) else None
    message = error.get("message") if isinstance(error, dict) else error
    if isinstance(message, str) and message.strip():
        return f"an error in JSON ({one_line(message, 120)})"
    if isinstance(body, dict) and "choices" in body:
        return "a whole reply in JSON"
    return "JSON"


def client_from_settings(settings: Settings, model: str | None = None, timeout: float | None = None) -> LLMClient:
    """An LLMClient for the configured endpoint (`model` overrides settings.model, `timeout` settings.timeout)."""
    return LLMClient(
        base_url=settings.base_url,
        api_key=settings.api_key,
        model=model or settings.model,
        timeout=timeout or settings.timeout,
    )
