"""Reading openai's exceptions: the endpoint's message, Retry-After, the cause of a connection failure."""

from __future__ import annotations

import email.utils
import json
import re
import time
from typing import Any

# Words in a 400 body that say "this request parameter is not supported here".
_UNSUPPORTED_WORDS = (
    "unsupported",
    "not supported",
    "unrecognized",
    "unknown",
    "extra inputs",
    "extra_forbidden",
    "not permitted",
    "not allowed",
    "invalid parameter",
)


def one_line(text: str, limit: int = 200) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def server_message(exc: Any) -> str:
    """The endpoint's own error message, on one line."""
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        message = body.get("message") or body.get("error")
        if isinstance(message, str) and message.strip():
            return one_line(message)
    elif isinstance(body, str) and body.strip():
        return one_line(body)
    return one_line(str(getattr(exc, "message", "") or exc))


def error_text(exc: Any) -> str:
    body = getattr(exc, "body", None)
    try:
        dumped = json.dumps(body) if body is not None else ""
    except (TypeError, ValueError):
        dumped = str(body)
    return f"{getattr(exc, 'message', '')} {dumped}".lower()


def rejects(exc: Any, *names: str) -> bool:
    """Does this 400 say that one of `names` (or some parameter) is not supported?"""
    text = error_text(exc)
    return any(name in text for name in names) or any(word in text for word in _UNSUPPORTED_WORDS)


def retry_after(exc: Any) -> float | None:
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


# How endpoints say "too long for the context": OpenAI, vLLM, llama.cpp server, Ollama, LM Studio, others.
_TOO_LONG = (
    "maximum context length",
    "context_length_exceeded",
    "context length",
    "context window",
    "exceeds the available context size",
    "exceed_context_size",
    "input length",
    "too many tokens",
    "prompt is too long",
    "input is too long",
    "reduce the length",
    "longer than the model's",
    "too long to fit into the model",
    "exceeds limit of",
    "exceed_context_size",
)
# The figures endpoints give with it: the window, and what they counted for the request.
_WINDOW = (
    re.compile(r"maximum context length is (\d+)"),
    re.compile(r"context length (?:of |is )?\(?(\d+)"),
    re.compile(r'"n_ctx": (\d+)'),
    re.compile(r"n_ctx[ =:]+(\d+)"),
    re.compile(r"exceeds limit of (\d+)"),
    re.compile(r"context window of (\d+)"),
)
_USED = (
    re.compile(r"resulted in (\d+) tokens"),
    re.compile(r"\((\d+) in the messages"),
    re.compile(r"has (\d+) input tokens"),
    re.compile(r'"n_prompt_tokens": (\d+)'),
    re.compile(r"total length (\d+)"),
    re.compile(r"input prompt \((\d+) tokens\)"),
    re.compile(r"requested tokens \((\d+)\)"),
)


def too_long(exc: Any) -> bool:
    """Does this error say the request did not fit the model's context window?"""
    text = error_text(exc)
    return any(phrase in text for phrase in _TOO_LONG)


def context_figures(exc: Any) -> tuple[int | None, int | None]:
    """(window, tokens counted) from a context-length error, as far as the endpoint said them."""
    text = error_text(exc).replace(",", "")
    return _first(_WINDOW, text), _first(_USED, text)


def _first(patterns: tuple[re.Pattern[str], ...], text: str) -> int | None:
    for pattern in patterns:
        match = pattern.search(text)
        if match and int(match.group(1)) > 0:
            return int(match.group(1))
    return None


def should_retry(exc: Any) -> bool | None:
    """The endpoint's own word on retrying (OpenAI's `x-should-retry: true|false` header), if it gave one."""
    headers = getattr(getattr(exc, "response", None), "headers", None)
    value = str(headers.get("x-should-retry") or "").strip().lower() if headers is not None else ""
    return {"true": True, "false": False}.get(value)


def cause_reason(exc: BaseException) -> str:
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
            return one_line(text, 120)
    return "connection failed"


def wait_text(value: float) -> str:
    """A wait as people say it: 0.5, 2, 20."""
    return f"{value:.1f}".rstrip("0").rstrip(".") if value < 10 else f"{value:.0f}"
