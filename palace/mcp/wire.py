"""The stdio wire of `palace mcp`: every line is screened, so that each request carrying an id gets an answer.

The SDK's own stdio transport drops whatever its parser refuses (not JSON, a batch, no method, params not an
object, a lone surrogate, deep nesting), and the client waits until its timeout. Here stdin is read as bytes,
one bounded line at a time; a line the SDK would drop is answered with its JSON-RPC error by this module, a
valid one goes to the SDK as its stdio transport would hand it over. One writer task puts both on stdout.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, BinaryIO, Literal, TextIO

import anyio
import anyio.lowlevel
import anyio.to_thread
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.server import stdio as sdk_stdio
from mcp.shared._context_streams import ContextReceiveStream, ContextSendStream, create_context_streams
from mcp.shared.message import SessionMessage
from mcp_types import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    PARSE_ERROR,
    JSONRPCError,
    JSONRPCMessage,
    JSONRPCResponse,
    RequestId,
    jsonrpc_message_adapter,
)
from pydantic import ValidationError

from palace.record import record

LINE_LIMIT = 4 * 1024 * 1024  # bytes per line; the SDK's HTTP transports refuse bodies over 4 MiB too
HEAD = 64 * 1024  # how much of a line too long or too deep to parse is scanned for its id
CHUNK = 64 * 1024  # the rest of an over-long line is skipped in reads this big, never held
NAMES = {PARSE_ERROR: "Parse error", INVALID_REQUEST: "Invalid Request", INVALID_PARAMS: "Invalid params"}
BATCH = "batches are not supported (MCP removed JSON-RPC batching in 2025-06-18): send one message per line"

_WHITESPACE = b" \t\r\n"  # JSON's own; bytes.strip() would also take characters JSON does not allow there
_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")  # decoded bytes never hold a surrogate: only an escape can
_SURROGATE = re.compile("[\ud800-\udfff]")  # after json.loads, a pair is one character: what is left is lone
_OBJECT_START = re.compile(r"\s*\{")
# One top-level member with a scalar value (group 2), or the key of a structured one (group 2 None). Each \s*
# sits between two different tokens, so the pattern cannot backtrack badly on a hostile line.
_MEMBER = re.compile(r'\s*"((?:[^"\\]|\\.)*)"\s*:\s*("(?:[^"\\]|\\.)*"|[-+.\w]+)?\s*')

ReadStream = ContextReceiveStream[SessionMessage | Exception]
WriteStream = ContextSendStream[SessionMessage]
Lines = MemoryObjectSendStream[bytes]


@record(frozen=True)
class Refusal:
    """A line not handed to the SDK: why (for the log: never the line's content) and the error answers to write."""

    reason: str
    answers: tuple[bytes, ...] = ()


Verdict = JSONRPCMessage | Refusal | None  # None: a blank line, ignored


def error_line(request_id: RequestId | None, code: int, message: str) -> bytes:
    """One JSON-RPC error answer as a line of stdout."""
    answer = {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}
    # ASCII: an id holding a lone surrogate goes back as the escape it came as (UTF-8 cannot carry it)
    return (json.dumps(answer, separators=(",", ":"), ensure_ascii=True) + "\n").encode("ascii")


def _refuse(code: int, why: str, request_id: RequestId | None) -> Refusal:
    message = f"{NAMES[code]}: {why}"
    return Refusal(f"{code} {message}", (error_line(request_id, code, message),))


def _unanswered(code: int, why: str, kind: str) -> Refusal:
    return Refusal(f"{code} {NAMES[code]}: {why} (a {kind}: not answered)")  # JSON-RPC answers none


def _is_id(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def head_members(text: str) -> dict[str, Any]:
    """The top-level members an object starts with, up to its first structured value (which maps to ...)."""
    members: dict[str, Any] = {}
    start = _OBJECT_START.match(text)
    pos = start.end() if start is not None else len(text)
    while (member := _MEMBER.match(text, pos)) is not None:
        key, raw = member.group(1), member.group(2)
        if raw is None:  # an array or an object: scanning it could cost what parsing did
            members[key] = ...
            break
        try:
            members[key] = json.loads(raw)
        except ValueError:  # a bare word such as `tru`, or a bad escape
            members[key] = ...
        pos = member.end()
        if not text.startswith(",", pos):
            break
        pos += 1
    return members


def _refuse_unparsed(why: str, text: str) -> Refusal:
    """A line too long or too deep to parse: answered with its id when its first members give it."""
    members = head_members(text[:HEAD])
    if "result" in members or "error" in members:  # a response: an answer would reach the wrong request
        return _unanswered(INVALID_REQUEST, why, "response")
    found = members.get("id")
    return _refuse(INVALID_REQUEST, why, found if _is_id(found) else None)


def _envelope_problem(obj: dict[str, Any]) -> tuple[int, str] | None:
    """What makes an object (an id's validity aside) not a JSON-RPC request or notification, if anything."""
    if obj.get("jsonrpc") != "2.0":
        return INVALID_REQUEST, 'jsonrpc must be "2.0"'
    if "method" not in obj:
        return INVALID_REQUEST, "no method"
    if not isinstance(obj["method"], str):
        return INVALID_REQUEST, "method must be a string"
    if obj.get("params") is not None and not isinstance(obj["params"], dict):
        return INVALID_PARAMS, "params must be an object"
    return None


def _too_deep(exc: Exception) -> bool:
    if not isinstance(exc, ValidationError):
        return isinstance(exc, RecursionError)
    return any("recursion limit" in error["msg"] for error in exc.errors(include_url=False, include_input=False))


def _validated(obj: dict[str, Any], text: str, request_id: RequestId | None, kind: str) -> Verdict:
    """The SDK's message for an object that passed the checks, parsed by the SDK's parser as stdio.py does."""
    try:
        if _ESCAPED_SURROGATE.search(text):  # lone surrogates become U+FFFD, as undecodable bytes already do
            text = _SURROGATE.sub("\ufffd", json.dumps(obj, ensure_ascii=False))
        return jsonrpc_message_adapter.validate_json(text, by_name=False)
    except (ValueError, RecursionError) as exc:  # its parser nests less deep (~200 levels) than json's (~1000)
        why = "nested too deeply" if _too_deep(exc) else "not a valid JSON-RPC message"
        if kind != "request":
            return _unanswered(INVALID_REQUEST, why, kind)
        return _refuse(INVALID_REQUEST, why, request_id)


def _message(obj: dict[str, Any], text: str) -> Verdict:
    """The verdict on one JSON object: a request, a notification or a response."""
    if "id" not in obj:  # a notification, however malformed: never answered
        problem = _envelope_problem(obj)
        if problem is not None:
            return _unanswered(*problem, "notification")
        return _validated(obj, text, None, "notification")
    if "method" not in obj and ("result" in obj or "error" in obj):  # the client answering the server
        return _validated(obj, text, None, "response")
    request_id = obj["id"]
    if not _is_id(request_id):  # null, a fraction, a boolean...: the SDK would take it for a notification
        return _refuse(INVALID_REQUEST, "id must be a string or an integer", None)
    if isinstance(request_id, str) and _SURROGATE.search(request_id):  # replaced, it would match no request
        return _refuse(INVALID_REQUEST, "the id holds a lone surrogate", request_id)
    problem = _envelope_problem(obj)
    if problem is not None:
        return _refuse(*problem, request_id)
    return _validated(obj, text, request_id, "request")


def _batch(items: list[Any]) -> Refusal:
    """A batch: each request in it with an id gets its own -32600; one with id null if none has one."""
    ids = [item["id"] for item in items if isinstance(item, dict) and "method" in item and _is_id(item.get("id"))]
    if not ids:
        return _refuse(INVALID_REQUEST, BATCH, None)
    answers = tuple(error_line(request_id, INVALID_REQUEST, f"Invalid Request: {BATCH}") for request_id in ids)
    return Refusal(f"{INVALID_REQUEST} Invalid Request: {BATCH}", answers)


def screen(line: bytes, cut: bool = False) -> Verdict:
    """What to do with one line of stdin (cut: only its head, the line was over LINE_LIMIT); never raises."""
    if cut:
        return _refuse_unparsed(f"the line is longer than {LINE_LIMIT} bytes", line.decode("utf-8", "replace"))
    data = line.strip(_WHITESPACE)
    if not data:
        return None
    text = data.decode("utf-8", "replace")  # as the SDK's stdio transport decodes: bad bytes become U+FFFD
    try:
        value = json.loads(text)
    except json.JSONDecodeError:  # JSON-RPC: no id can be known from a line that is not JSON
        return _refuse(PARSE_ERROR, "the line is not JSON", None)
    except RecursionError:  # ~1000 levels: the id is looked for in the line's head
        return _refuse_unparsed("nested too deeply", text)
    except ValueError:  # JSON, but a number of over 4300 digits (which the SDK's parser refuses too)
        return _refuse_unparsed("a number too long to read", text)
    if isinstance(value, list):
        return _batch(value)
    if not isinstance(value, dict):
        return _refuse(INVALID_REQUEST, "not a JSON-RPC message object", None)
    return _message(value, text)


def read_line(stdin: BinaryIO) -> tuple[bytes, bool] | None:
    """The next line without its newline and whether it was cut (only its head kept); None at end of input."""
    data = stdin.readline(LINE_LIMIT + 1)
    if not data:
        return None
    if data.endswith(b"\n") or len(data) <= LINE_LIMIT:  # whole (the last line may lack its newline)
        return data.removesuffix(b"\n"), False
    rest = data
    while rest and not rest.endswith(b"\n"):
        rest = stdin.readline(CHUNK)
    return data[:HEAD], True


def log(refusal: Refusal) -> None:
    """One line on stderr per refused line: the reason only (memory content never goes to a log)."""
    told = " (answered)" if refusal.answers else ""
    print(f"palace mcp: refused a line: {refusal.reason}{told}", file=sys.stderr, flush=True)


def dump(message: JSONRPCMessage) -> bytes | None:
    """The SDK's message as a line, as its stdio transport writes it; a response it cannot encode, as -32603."""
    try:
        return (message.model_dump_json(by_alias=True, exclude_unset=True) + "\n").encode("utf-8")
    except (ValueError, UnicodeError):  # text that UTF-8 cannot carry: the request is still answered
        if isinstance(message, JSONRPCResponse | JSONRPCError) and message.id is not None:
            return error_line(message.id, INTERNAL_ERROR, "Internal error: the answer could not be encoded")
        print("palace mcp: dropped a message it could not encode", file=sys.stderr, flush=True)
        return None  # stdio.py would end the connection on it


async def _pump(stdin: BinaryIO, messages: ContextSendStream[SessionMessage | Exception], answers: Lines) -> None:
    """Read, screen and route stdin's lines until it closes; then the SDK sees the end of its input."""
    try:
        async with messages, answers:
            while (got := await anyio.to_thread.run_sync(read_line, stdin, abandon_on_cancel=True)) is not None:
                verdict = screen(*got)
                if isinstance(verdict, Refusal):
                    log(verdict)
                    for answer in verdict.answers:
                        await answers.send(answer)
                elif verdict is not None:
                    await messages.send(SessionMessage(verdict))
    except (anyio.ClosedResourceError, anyio.BrokenResourceError):  # the server stopped reading first
        await anyio.lowlevel.checkpoint()


async def _forward(sdk: ContextReceiveStream[SessionMessage], lines: Lines) -> None:
    """The SDK's outgoing messages, encoded, into the one writer's queue."""
    async with sdk, lines:
        async for session_message in sdk:
            line = dump(session_message.message)
            if line is not None:
                await lines.send(line)


def _put(stdout: BinaryIO, line: bytes) -> None:
    stdout.write(line)
    stdout.flush()


async def _write(lines: MemoryObjectReceiveStream[bytes], stdout: BinaryIO) -> None:
    """The one writer of stdout: whole lines, one at a time, so answers never interleave."""
    async with lines:
        async for line in lines:
            await anyio.to_thread.run_sync(_put, stdout, line)


def _claim(fd: int, stream: TextIO, mode: Literal["rb", "wb"]) -> tuple[BinaryIO, Callable[[], None] | None]:
    """The SDK's own claim of fd 0 or 1 (handlers' stray reads see EOF, their prints go to stderr) when it has one."""
    claim = getattr(sdk_stdio, "_claim_fd", None)  # private: a later SDK may move it; then serve undiverted
    divert = getattr(sdk_stdio, "_open_stdin_diversion" if fd == 0 else "_open_stdout_diversion", None)
    if claim is None or divert is None:
        return stream.buffer, None
    claimed: tuple[BinaryIO, Callable[[], None] | None] = claim(fd, stream, mode, divert)
    return claimed


@asynccontextmanager
async def screened_stdio() -> AsyncIterator[tuple[ReadStream, WriteStream]]:
    """stdio_server() with every line screened: the streams for `Server.run`, served until stdin closes."""
    release_in: Callable[[], None] | None = None
    release_out: Callable[[], None] | None = None
    try:
        stdin, release_in = _claim(0, sys.stdin, "rb")
        stdout, release_out = _claim(1, sys.stdout, "wb")
        read_writer, read_stream = create_context_streams[SessionMessage | Exception](0)
        write_stream, write_reader = create_context_streams[SessionMessage](0)
        lines, to_write = anyio.create_memory_object_stream[bytes](0)
        async with anyio.create_task_group() as tg:
            tg.start_soon(_pump, stdin, read_writer, lines.clone())
            tg.start_soon(_forward, write_reader, lines)
            tg.start_soon(_write, to_write, stdout)
            yield read_stream, write_stream
    finally:
        if release_out is not None:
            release_out()
        if release_in is not None:
            release_in()
