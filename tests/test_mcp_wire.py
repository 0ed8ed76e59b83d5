"""`palace mcp`'s screening of stdin (palace/mcp/wire.py): every request that carries an id is answered.

A raw stdio client writes exact bytes to `python -m palace mcp` and reads its stdout lines: each hostile line
gets its exact error code and id (or, for a notification or a blank line, nothing), and a ping sent after it is
still answered. No sleeps: a refusal is written before the next line is read, so "nothing before the ping's
answer" is decided by the ping's answer arriving. In this process: the line reader's bound, the encoder's
fallback, and a property test that screen() never raises and answers every request that carries an id.
"""

from __future__ import annotations

import io
import json
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_mcp import _env

from palace.mcp.wire import HEAD, LINE_LIMIT, Refusal, dump, read_line, screen

WAIT = 30.0  # seconds for one answer line: generous, for a loaded machine; a passing run never waits it out
MARK = "wire-secret-marker"  # in hostile lines: the log must never show a line's content
PARSE, INVALID, PARAMS, NO_METHOD = -32700, -32600, -32602, -32601


class Wire:
    """`palace mcp` in a subprocess, spoken to in raw bytes; stderr is collected, stdout read line by line."""

    def __init__(self, home: Path, cwd: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "palace", "mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=_env(home),
            cwd=cwd,
        )
        assert self.process.stdout is not None and self.process.stderr is not None
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.errors: list[bytes] = []
        self.pings = 0
        out, err = self.process.stdout, self.process.stderr
        self.pumps = [
            threading.Thread(target=lambda: [self.lines.put(line) for line in out], daemon=True),
            threading.Thread(target=lambda: self.errors.extend(err), daemon=True),
        ]
        for pump in self.pumps:
            pump.start()

    def send(self, raw: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(raw + b"\n")
        self.process.stdin.flush()

    def request(self, request_id: object, method: str, params: dict[str, Any] | None = None) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(json.dumps(message).encode())

    def after(self, raw: bytes, answers: int) -> list[dict[str, Any]]:
        """Send raw, then a ping: the `answers` messages that came besides the ping's answer (checked to be all)."""
        self.pings += 1
        ping = f"ping-{self.pings}"
        self.send(raw)
        self.request(ping, "ping")
        others: list[dict[str, Any]] = []
        pinged = False
        while not pinged or len(others) < answers:
            message = json.loads(self.lines.get(timeout=WAIT))
            if message.get("id") == ping:
                assert message == {"jsonrpc": "2.0", "id": ping, "result": {}}
                pinged = True
            else:
                others.append(message)
                assert len(others) <= answers, others  # a refusal is written before the ping is even read
        return others

    def close(self) -> tuple[int, str]:
        """Close stdin: the server ends; its exit status and its stderr."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        status = self.process.wait(timeout=WAIT)
        for pump in self.pumps:
            pump.join(timeout=WAIT)
        return status, b"".join(self.errors).decode("utf-8", "replace")


def _initialized(wire: Wire) -> dict[str, Any]:
    info = {"name": "raw-wire", "version": "0"}
    wire.request(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": info})
    answer = json.loads(wire.lines.get(timeout=WAIT))
    wire.send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')
    return dict(answer)


@pytest.fixture(scope="module")
def wire(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Wire]:
    """One initialized server for the module's cases (each leaves it serving, or the next case says so)."""
    root = tmp_path_factory.mktemp("wire")
    server = Wire(root / "palace-home", root)  # (not "palace": python -m puts the cwd on sys.path)
    assert _initialized(server)["result"]["serverInfo"]["name"] == "palace"
    yield server
    assert server.close()[0] == 0


def _req(request_id: object, method: object, params: object = None, **extra: object) -> bytes:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method, **extra}
    if params is not None:
        message["params"] = params
    return json.dumps(message).encode()


def _error(message: dict[str, Any]) -> tuple[object, int]:
    assert set(message) == {"jsonrpc", "id", "error"} and message["jsonrpc"] == "2.0", message
    return message["id"], message["error"]["code"]


def _call(request_id: str, name: str, arguments: object) -> bytes:
    return _req(request_id, "tools/call", {"name": name, "arguments": arguments})


DEEP = b'{"jsonrpc":"2.0","id":7,"method":"ping","params":' + b"[" * 100_000 + b"]" * 100_000 + b"}"
OVER = b'{"jsonrpc":"2.0","id":"big","method":"ping","params":{"pad":"' + b"x" * LINE_LIMIT + b'"}}'
BAD_ARGS = _call("args", "memory_save", {"path": 5, "content": "Prefers vim"})
# (a lone surrogate escape cannot come from json.dumps of a str: written out)
SURROGATE_ARG = (
    b'{"jsonrpc":"2.0","id":"arg","method":"tools/call","params":{"name":"memory_save",'
    b'"arguments":{"path":"Preferences/editor","content":"Prefers helix \\ud800 always"}}}'
)
ERRORS: dict[str, tuple[bytes, list[tuple[object, int]]]] = {
    "not JSON": (b'{"jsonrpc": "2.0", "id": 1, "method": "' + MARK.encode(), [(None, PARSE)]),
    "invalid UTF-8": (b"\xff\xfe\x80 " + MARK.encode(), [(None, PARSE)]),
    "a JSON value that is no object": (b"42", [(None, INVALID)]),
    "lone surrogate in the method": (b'{"jsonrpc":"2.0","id":"m","method":"ping\\udc00"}', [("m", NO_METHOD)]),
    "lone surrogate in the id": (b'{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}', [("\ud800", INVALID)]),
    "100,000-deep nesting, the id at the front": (DEEP, [(7, INVALID)]),
    "300-deep nesting inside params (json parses it, the SDK's parser not)": (
        b'{"jsonrpc":"2.0","id":8,"method":"ping","params":{"a":' + b"[" * 300 + b"]" * 300 + b"}}",
        [(8, INVALID)],
    ),
    "missing method": (b'{"jsonrpc":"2.0","id":3}', [(3, INVALID)]),
    "method not a string": (_req(4, 12), [(4, INVALID)]),
    "wrong jsonrpc": (b'{"jsonrpc":"1.0","id":5,"method":"ping"}', [(5, INVALID)]),
    "id a boolean": (_req(True, "ping"), [(None, INVALID)]),
    "id a fraction": (_req(1.5, "ping"), [(None, INVALID)]),
    "id null": (_req(None, "ping"), [(None, INVALID)]),
    "params as a string": (_req(9, "ping", "x"), [(9, PARAMS)]),
    "params as an array": (_req(10, "tools/list", ["a"]), [(10, PARAMS)]),
    "batch: each request with an id answered": (
        b"[" + _req("b1", "ping") + b',{"jsonrpc":"2.0","method":"notifications/x"},' + _req(11, "tools/list") + b"]",
        [("b1", INVALID), (11, INVALID)],
    ),
    "batch without a request id": (b"[1, 2, 3]", [(None, INVALID)]),
    "empty batch": (b"[]", [(None, INVALID)]),
    "a line over the limit": (OVER, [("big", INVALID)]),
    "a number of 5000 digits": (
        b'{"jsonrpc":"2.0","id":6,"method":"ping","params":{"n":' + b"9" * 5000 + b"}}",
        [(6, INVALID)],
    ),
}
SILENT = {
    "empty line": b"",
    "blank line": b" \t\r",
    "notification, method not a string": b'{"jsonrpc":"2.0","method":5}',
    "notification, params a string": b'{"jsonrpc":"2.0","method":"notifications/initialized","params":"x"}',
    "notification, deep": b'{"jsonrpc":"2.0","method":"ping","params":{"a":' + b"[" * 300 + b"]" * 300 + b"}}",
    "notification, no method": b'{"jsonrpc":"2.0","params":{}}',
    "a response nobody asked for": b'{"jsonrpc":"2.0","id":"nobody","result":"not an object"}',
}


@pytest.mark.e2e
def test_initialize_works(wire: Wire) -> None:
    (tools,) = wire.after(_req("tools", "tools/list"), 1)
    assert tools["id"] == "tools" and {tool["name"] for tool in tools["result"]["tools"]} == {
        "memory_save",
        "memory_forget",
        "memory_recall",
        "memory_room",
        "memory_show",
    }


@pytest.mark.e2e
@pytest.mark.parametrize("case", list(ERRORS))
def test_each_hostile_request_gets_its_error_and_the_server_goes_on(wire: Wire, case: str) -> None:
    raw, expected = ERRORS[case]
    answers = wire.after(raw, len(expected))
    assert sorted(map(_error, answers), key=repr) == sorted(expected, key=repr)


@pytest.mark.e2e
@pytest.mark.parametrize("case", list(SILENT))
def test_blank_lines_and_malformed_notifications_get_no_answer(wire: Wire, case: str) -> None:
    assert wire.after(SILENT[case], 0) == []


@pytest.mark.e2e
def test_a_line_at_the_limit_is_served(wire: Wire) -> None:
    start = b'{"jsonrpc":"2.0","id":"at-limit","method":"ping","params":{"pad":"'
    line = start + b"x" * (LINE_LIMIT - len(start) - 3) + b'"}}'
    assert len(line) == LINE_LIMIT
    assert wire.after(line, 1) == [{"jsonrpc": "2.0", "id": "at-limit", "result": {}}]


@pytest.mark.e2e
def test_bad_bytes_inside_strings_become_u_fffd_and_are_served(wire: Wire) -> None:
    (saved,) = wire.after(SURROGATE_ARG, 1)
    assert saved["id"] == "arg" and saved["result"]["isError"] is False
    assert saved["result"]["content"][0]["text"] == "Saved to Preferences/editor: Prefers helix \ufffd always"
    raw = b'{"jsonrpc":"2.0","id":"u8","method":"ping","params":{"pad":"\xff\xc3("}}'
    assert wire.after(raw, 1) == [{"jsonrpc": "2.0", "id": "u8", "result": {}}]


@pytest.mark.e2e
def test_bad_tool_arguments_are_a_tool_error(wire: Wire) -> None:
    (answer,) = wire.after(BAD_ARGS, 1)
    assert answer["id"] == "args" and answer["result"]["isError"] is True
    assert (
        "invalid arguments for memory_save: path: Input should be a valid string"
        in (answer["result"]["content"][0]["text"])
    )


@pytest.mark.e2e
def test_the_log_says_what_was_refused_never_the_line_and_eof_ends_the_server(tmp_path: Path) -> None:
    wire = Wire(tmp_path / "palace-home", tmp_path)
    assert "result" in _initialized(wire)
    assert [_error(a) for a in wire.after(ERRORS["not JSON"][0], 1)] == [(None, PARSE)]
    assert wire.after(b'{"jsonrpc":"2.0","method":"' + MARK.encode() + b'","params":[]}', 0) == []
    status, log = wire.close()
    assert status == 0
    assert MARK not in log
    lines = [line for line in log.splitlines() if line.startswith("palace mcp: refused a line")]
    assert lines == [
        "palace mcp: refused a line: -32700 Parse error: the line is not JSON (answered)",
        "palace mcp: refused a line: -32602 Invalid params: params must be an object (a notification: not answered)",
    ]


# ---------------------------------------------------------------------------------------------- in process


def test_read_line_bounds_what_it_holds() -> None:
    stdin = io.BytesIO(b"x" * (LINE_LIMIT + 10) + b"\n" + b"next\n" + b"a" * LINE_LIMIT + b"\nlast")
    assert read_line(stdin) == (b"x" * HEAD, True)
    assert read_line(stdin) == (b"next", False)
    assert read_line(stdin) == (b"a" * LINE_LIMIT, False)
    assert read_line(stdin) == (b"last", False)
    assert read_line(stdin) is None


def test_an_answer_utf8_cannot_carry_goes_back_as_an_internal_error() -> None:
    unencodable = types.JSONRPCResponse(jsonrpc="2.0", id=3, result={"text": "\ud800"})
    assert json.loads(dump(unencodable) or b"") == {
        "jsonrpc": "2.0",
        "id": 3,
        "error": {"code": -32603, "message": "Internal error: the answer could not be encoded"},
    }
    assert dump(types.JSONRPCNotification(jsonrpc="2.0", method="x", params={"text": "\ud800"})) is None


def test_over_long_lines_answer_with_the_id_their_head_gives() -> None:
    cut = lambda head: screen(head, cut=True)  # noqa: E731
    assert _answered(cut(b'{"jsonrpc": "2.0", "method": "x", "id": "z", "params": {')) == [("z", INVALID)]
    assert _answered(cut(b'{"jsonrpc":"2.0","params":{"id":3},"id":4')) == [(None, INVALID)]  # not read past {
    assert _answered(cut(b"[{")) == [(None, INVALID)]
    response = cut(b'{"jsonrpc":"2.0","id":4,"result":{"roots":[')
    assert isinstance(response, Refusal) and response.answers == ()  # it would reach the client's own request 4


def _answered(verdict: object) -> list[tuple[object, int]]:
    assert isinstance(verdict, Refusal)
    return [_error(json.loads(answer)) for answer in verdict.answers]


# Property: screen() never raises; a blank line is ignored; a message it passes is one the SDK can encode; a
# refusal's answers are JSON-RPC errors (one of the three codes); a line with no id is never answered; and a
# request that carries a usable id is passed with that id or answered with it.
SURROGATES = st.sampled_from(["\ud800", "\udbff", "\udc00", "\udfff", "\ud83d", "\ude00"])  # pairs form too
TEXT = st.text(st.one_of(st.characters(), SURROGATES), max_size=8)
SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | TEXT
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4))
KEYS = st.sampled_from(["jsonrpc", "id", "method", "params", "result", "error"])
VALID = st.fixed_dictionaries(
    {
        "jsonrpc": st.just("2.0"),
        "id": st.integers() | TEXT,
        "method": st.sampled_from(["ping", "tools/list", "tools/call", "initialize"]) | TEXT,
        "params": st.dictionaries(TEXT, JSON, max_size=3),
    }
)


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    """A valid request, or one made a response, with a member dropped or replaced, deep nesting, or bytes damaged."""
    message = draw(VALID)
    how = draw(st.sampled_from(["drop", "replace", "respond", "deep", "batch", "cut", "byte", "none"]))
    if how == "respond":  # as if the client answered the server, with any result or error
        del message["method"]
        message[draw(st.sampled_from(["result", "error"]))] = draw(JSON)
    elif how == "drop":
        message.pop(draw(KEYS), None)
    elif how == "replace":
        message[draw(KEYS)] = draw(JSON)
    elif how == "deep":
        message["params"] = {"a": "@deep@"}  # replaced by the brackets below
    raw = json.dumps(message, ensure_ascii=draw(st.booleans())).encode("utf-8", "surrogatepass")
    if how == "deep":
        depth = draw(st.integers(1, 3000))
        raw = raw.replace(b'"@deep@"', b"[" * depth + b"]" * depth)
    elif how == "batch":
        raw = b"[" + raw + b"]"
    elif how == "cut":
        raw = raw[: draw(st.integers(0, len(raw)))]
    elif how == "byte":
        at = draw(st.integers(0, len(raw)))
        raw = raw[:at] + bytes([draw(st.integers(0, 255))]) + raw[at:]
    return raw


@st.composite
def values(draw: st.DrawFn) -> bytes:
    """Any JSON value, its lone surrogates written as escapes or as the bytes UTF-8 forbids."""
    ascii_only = draw(st.booleans())
    return json.dumps(draw(JSON), ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")


LINES = st.one_of(st.binary(max_size=64), values(), mutated(), mutated(), mutated())  # mostly near-valid


def _usable_id(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LINES)
@example(DEEP)
@example(ERRORS["a number of 5000 digits"][0])
@example(b'{"jsonrpc":"2.0","id":"\\udfff","method":"ping"}')
@example(b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"\\ud800":"\\udc00\\ud800"}}')
def test_screen_never_raises_and_answers_every_request_with_an_id(line: bytes) -> None:
    verdict = screen(line)
    text = line.strip(b" \t\r\n").decode("utf-8", "replace")
    if verdict is None:
        assert text == ""
        return
    if isinstance(verdict, Refusal):
        assert verdict.reason.isascii() and MARK not in verdict.reason
        answered = []
        for answer in verdict.answers:
            assert answer.endswith(b"\n") and answer.count(b"\n") == 1
            request_id, code = _error(json.loads(answer))
            assert code in (PARSE, INVALID, PARAMS) and (request_id is None or _usable_id(request_id))
            answered.append(request_id)
    else:
        dump(verdict)  # the SDK could write it back: nothing in it that UTF-8 cannot carry
        answered = []
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return
    if not isinstance(value, dict):
        return
    if "id" not in value:
        assert isinstance(verdict, Refusal | types.JSONRPCNotification) and answered == []
    elif "method" not in value and ("result" in value or "error" in value):  # a response: never answered
        assert isinstance(verdict, Refusal | types.JSONRPCResponse | types.JSONRPCError) and answered == []
    elif "method" in value and _usable_id(value["id"]):
        passed = isinstance(verdict, types.JSONRPCRequest) and verdict.id == value["id"]
        assert passed or value["id"] in answered, (verdict, value)
