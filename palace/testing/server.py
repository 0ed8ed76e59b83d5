"""A scripted OpenAI-compatible endpoint on 127.0.0.1, for `palace demo` and the tests.

Each POST to /v1/chat/completions takes the next scripted `Step` (or asks `responder`) and answers
it the way real endpoints do: a chat.completion object, or server-sent `chat.completion.chunk`
events ending with `data: [DONE]`. Nothing is logged; every connection is closed after its answer.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
import socket
import threading
from collections.abc import Callable, Iterable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

from palace.record import record, replace
from palace.testing.replies import Step as Step
from palace.testing.replies import completion_body as completion_body
from palace.testing.replies import stream_events as stream_events

MAX_BODY_BYTES = 16 * 1024 * 1024
SOCKET_TIMEOUT = 30.0
POLL_SECONDS = 0.005  # serve_forever notices stop() only between polls: tests start and stop hundreds of servers

ERROR_TEXT = {  # status: (error type, default message)
    400: ("invalid_request_error", "Bad request."),
    401: ("invalid_request_error", "Incorrect API key provided."),
    403: ("permission_denied", "You are not allowed to use this model."),
    404: ("invalid_request_error", "The model `{model}` does not exist or you do not have access to it."),
    429: ("rate_limit_exceeded", "Rate limit reached for requests. Please try again later."),
}


# The scripted endpoint's own token rule (not palace's): a CJK character, a run of other word characters, or a
# punctuation mark is one token; each message costs 4 more and the request 3.
_TOKEN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]|[^\W\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]+|[^\w\s]")


def _strings(value: Any, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for item in value.values():
            _strings(item, out)
    elif isinstance(value, list):
        for item in value:
            _strings(item, out)


@functools.lru_cache(maxsize=8192)
def _text_tokens(text: str) -> int:
    return len(_TOKEN.findall(text))  # (cached: a conversation sends the same messages again and again)


def count_tokens(body: dict[str, Any]) -> int:
    """What the scripted endpoint counts for a request (its usage.prompt_tokens under a ContextLimit)."""
    texts: list[str] = []
    messages = body.get("messages")
    _strings(messages, texts)
    if body.get("tools"):
        texts.append(json.dumps(body["tools"]))
    count = sum(_text_tokens(text) for text in texts)
    return count + 4 * (len(messages) if isinstance(messages, list) else 0) + 3


@record
class ContextLimit:
    """A context window the scripted endpoint enforces, refusing (or, as Ollama does, cutting) what is over it,
    in the words of one kind of server."""

    tokens: int
    style: str = "openai"  # openai | vllm | llamacpp | ollama

    def refusal(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
        """(status, error object) when the request is over the window; None when it is served."""
        used = count_tokens(body)
        if used <= self.tokens or self.style == "ollama":  # Ollama serves it, cut to fit (silently)
            return None
        if self.style == "llamacpp":
            message = "the request exceeds the available context size, try increasing it"
            extra = {"n_prompt_tokens": used, "n_ctx": self.tokens}
            return 400, {"message": message, "type": "exceed_context_size_error", "code": 400, **extra}
        if self.style == "vllm":
            message = (
                f"This model's maximum context length is {self.tokens} tokens. However, your request has {used} "
                "input tokens. Please reduce the length of the input messages."
            )
            return 400, {"message": message, "type": "BadRequestError", "param": None, "code": 400}
        message = (
            f"This model's maximum context length is {self.tokens} tokens. However, your messages resulted in "
            f"{used} tokens. Please reduce the length of the messages."
        )
        return 400, {
            "message": message,
            "type": "invalid_request_error",
            "param": "messages",
            "code": "context_length_exceeded",
        }

    def served(self, step: Step, body: dict[str, Any]) -> Step:
        """step with the prompt tokens this endpoint counted (at most the window: Ollama cuts the rest)."""
        if step.usage is None:
            return step
        return replace(step, usage=(min(count_tokens(body), self.tokens), step.usage[1]))


class _Stopped(Exception):
    """The server is stopping; abandon the request."""


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    owner: ScriptedServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Stay quiet: clients that hang up (timeouts, interrupted streams) are expected."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # many small SSE writes: do not wait for delayed ACKs
    timeout = SOCKET_TIMEOUT
    server: _HTTPServer

    def log_message(self, format: str, *args: Any) -> None:
        """No request logging."""

    # --- routing -------------------------------------------------------------------------------

    def do_GET(self) -> None:
        self.close_connection = True
        if self.path.rstrip("/").endswith("/models"):
            data = [
                {"id": name, "object": "model", "created": 0, "owned_by": "palace"} for name in self.server.owner.models
            ]
            self._send_json(200, {"object": "list", "data": data})
        else:
            self._send_error(404, f"Unknown path {self.path}", "invalid_request_error")

    def do_POST(self) -> None:
        self.close_connection = True
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send_error(404, f"Unknown path {self.path}", "invalid_request_error")
            return
        body = self._read_body()
        if body is None:
            return
        owner = self.server.owner
        owner._record(body)
        if owner.reject_stream_options and "stream_options" in body:
            self._send_error(
                400,
                "Unrecognized request argument supplied: stream_options",
                "invalid_request_error",
                param="stream_options",
            )
            return
        if owner.reject_response_format and "response_format" in body:
            self._send_error(
                400,
                "Unrecognized request argument supplied: response_format",
                "invalid_request_error",
                param="response_format",
            )
            return
        refusal = owner.context_limit.refusal(body) if owner.context_limit is not None else None
        if refusal is not None:
            with contextlib.suppress(OSError):
                self._send_json(refusal[0], {"error": refusal[1]})
            return
        try:
            step = owner._next_step(body)
        except Exception as exc:
            self._send_error(
                500, f"palace fake server: the responder failed: {type(exc).__name__}: {exc}", "server_error"
            )
            return
        if step is None:
            self._send_error(
                500, "palace fake server: the script is exhausted (no step left, no responder)", "server_error"
            )
            return
        if owner.context_limit is not None:
            step = owner.context_limit.served(step, body)
        try:
            if step.delay > 0:
                owner._wait(step.delay)
            if step.hang_up:
                self._drop()
                return
            self._answer(step, body)
        except (_Stopped, OSError):
            self.close_connection = True

    # --- helpers -------------------------------------------------------------------------------

    def _read_body(self) -> dict[str, Any] | None:
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if length < 0 or length > MAX_BODY_BYTES:
            self._send_error(413 if length > 0 else 400, "Request body missing or too large.", "invalid_request_error")
            return None
        try:
            body = json.loads(self.rfile.read(length) or b"null")
        except (ValueError, UnicodeDecodeError):
            body = None
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            self._send_error(400, "The body must be a JSON object with a 'messages' list.", "invalid_request_error")
            return None
        return body

    def _send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def _send_error(
        self,
        status: int,
        message: str,
        kind: str,
        *,
        param: str | None = None,
        code: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        error = {"message": message, "type": kind, "param": param, "code": code}
        with contextlib.suppress(OSError):
            self._send_json(status, {"error": error}, headers)

    def _answer(self, step: Step, body: dict[str, Any]) -> None:
        model = str(body.get("model", "palace-demo"))
        if step.raw_body is not None:
            self._send_raw(step.raw_body, step.content_type)
            return
        if step.status != 200:
            kind, default = ERROR_TEXT.get(step.status, ("server_error", "The server had an error."))
            message = step.text or default.format(model=model)
            code = kind if step.status == 429 else None
            self._send_error(step.status, message, kind, code=code, headers=step.headers)
            return
        if body.get("stream"):
            options = body.get("stream_options")
            include_usage = isinstance(options, dict) and bool(options.get("include_usage"))
            self._stream(step, model, include_usage)
        else:
            self._send_json(200, completion_body(step, model), step.headers)

    def _send_raw(self, data: bytes, content_type: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def _stream(self, step: Step, model: str, include_usage: bool) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Connection", "close")
        for key, value in step.headers.items():
            self.send_header(key, value)
        self.end_headers()
        events = step.events if step.events is not None else stream_events(step, model, include_usage)
        for sent, event in enumerate(events):
            if step.break_after is not None and sent >= step.break_after:
                self._drop()
                return
            data = event if isinstance(event, str) else json.dumps(event)
            self._write_chunk(f"data: {data}\n\n".encode())
        if step.events is None:
            self._write_chunk(b"data: [DONE]\n\n")
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def _drop(self) -> None:
        """Hang up in the middle of the body, as a crashed or cut-off server would."""
        self.close_connection = True
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


class ScriptedServer:
    """An OpenAI-compatible chat endpoint that answers from a script, on 127.0.0.1 (any free port)."""

    def __init__(
        self,
        steps: Iterable[Step] = (),
        *,
        responder: Callable[[dict[str, Any]], Step] | None = None,
        reject_stream_options: bool = False,
        reject_response_format: bool = False,
        models: Sequence[str] = ("gpt-4.1-mini", "palace-demo"),
        context_limit: ContextLimit | None = None,
    ) -> None:
        self._steps: list[Step] = list(steps)
        self.context_limit = context_limit
        self.responder = responder
        self.reject_stream_options = reject_stream_options
        self.reject_response_format = reject_response_format
        self.models: list[str] = list(models)
        self.requests: list[dict[str, Any]] = []
        self.base_url = ""
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- lifecycle -----------------------------------------------------------------------------

    def start(self) -> ScriptedServer:
        if self._httpd is not None:
            return self
        self._stopping.clear()
        httpd = _HTTPServer(("127.0.0.1", 0), _Handler)
        httpd.owner = self
        port = httpd.server_address[1]
        self.base_url = f"http://127.0.0.1:{port}/v1"
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": POLL_SECONDS}, name="palace-fakeserver", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        httpd, thread = self._httpd, self._thread
        if httpd is None:
            return
        self._stopping.set()
        httpd.shutdown()
        httpd.server_close()
        if thread is not None:
            thread.join(timeout=5)
        self._httpd = None
        self._thread = None

    def __enter__(self) -> ScriptedServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # --- script --------------------------------------------------------------------------------

    def add(self, *steps: Step) -> None:
        """Append steps to the script."""
        with self._lock:
            self._steps.extend(steps)

    @property
    def pending(self) -> int:
        """How many scripted steps are left."""
        with self._lock:
            return len(self._steps)

    def _record(self, body: dict[str, Any]) -> None:
        with self._lock:
            self.requests.append(body)

    def _next_step(self, body: dict[str, Any]) -> Step | None:
        with self._lock:
            if self._steps:
                return self._steps.pop(0)
        return self.responder(body) if self.responder is not None else None

    def _wait(self, seconds: float) -> None:
        if self._stopping.wait(seconds):
            raise _Stopped
