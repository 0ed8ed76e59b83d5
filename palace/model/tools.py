"""The tools offered to the model: a pydantic model for the arguments plus a function each.

A tool failure is data for the model (a clear error text), never an exception out of the loop.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from typing import Any, Protocol

from pydantic import BaseModel, ValidationError

from palace.errors import ContentError, PalaceError
from palace.memory.ops import ChangeResult
from palace.memory.secrets import find_secret
from palace.memory.store import MemoryStore
from palace.model.failures import one_line
from palace.model.specs import (
    ALL_WINGS,
    FORGET,
    RECALL,
    ROOM,
    SAVE,
    WORKING,
    MemoryForget,
    MemoryRecall,
    MemoryRoom,
    MemorySave,
    MemoryShow,
    ToolSpec,
    WorkingContextArgs,
)
from palace.model.stream import valid_text
from palace.record import record

log = logging.getLogger(__name__)
__all__ = [
    "ALL_WINGS",
    "MemoryForget",
    "MemoryRecall",
    "MemoryRoom",
    "MemorySave",
    "MemoryShow",
    "WorkingContextArgs",
]


class Shown(str):
    """A tool function's text for the model that carries the one line the user sees of the call (`shown`)."""

    shown: str

    def __new__(cls, text: str, shown: str) -> Shown:
        made = super().__new__(cls, text)
        made.shown = shown
        return made


@record
class ToolOutcome:
    """What a tool call produced: the text for the model, the memory change if any, and for a call that changes
    no memory the one line the user sees of it (`recalled 3 matches for "postgres"`), when its function gave one
    (a `Shown` text)."""

    text: str
    change: ChangeResult | None = None
    error: str | None = None
    shown: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.text, Shown):
            self.shown = self.shown or self.text.shown
            self.text = str(self.text)  # a plain str: the journal and the request hold a str


@record
class Tool:
    """A tool as one front end runs it: its name there, its arguments, its function, and its spec."""

    name: str
    args: type[BaseModel]
    run: Callable[[Any], ToolOutcome]
    spec: ToolSpec | None = None
    description: str = ""  # the spec's words as this front end gives them

    def schema(self) -> dict[str, Any]:
        parameters = self.args.model_json_schema()
        parameters.pop("title", None)
        for prop in parameters.get("properties", {}).values():
            prop.pop("title", None)
        description = self.description or " ".join((self.args.__doc__ or "").split())
        function = {"name": self.name, "description": description, "parameters": parameters}
        return {"type": "function", "function": function}


_NOTHING_WRITTEN = re.compile(r" ?\((?:nothing written|nothing was written)\)", re.IGNORECASE)


def _failure(message: str, spec: ToolSpec | None = None) -> ToolOutcome:
    """A failed call as the caller reads it. "Nothing was written." only where a call could have written (a
    read-only tool's failure changes nothing anyway), said once: the store's own "(nothing written)" goes."""
    message = valid_text(message)  # an error may quote the model's own broken text back
    if spec is not None and spec.read_only:
        return ToolOutcome(f"Error: {message}.", error=message)
    said = _NOTHING_WRITTEN.sub("", message)
    return ToolOutcome(f"Error: {said}. Nothing was written.", error=said)


class ToolBox:
    """The tools of a session, by name."""

    def __init__(self, tools: list[Tool]) -> None:
        self.tools = {tool.name: tool for tool in tools}
        self._schemas = [tool.schema() for tool in tools]  # built once: every request sends the same bytes

    def schemas(self) -> list[dict[str, Any]]:
        return self._schemas

    def call(self, name: str, arguments: str) -> ToolOutcome:
        """Run a tool on raw JSON arguments; every failure comes back as an error text."""
        tool = self.tools.get(name)
        if tool is None:
            return _failure(f'unknown tool "{name}"; available tools: {", ".join(self.tools)}')
        try:
            return self._call(tool, arguments)
        except Exception as exc:  # whatever a tool does, the model hears of it and the loop goes on
            log.debug("tool %s failed", name, exc_info=True)
            return _failure(f"{name} failed unexpectedly ({type(exc).__name__}: {one_line(str(exc), 160)})", tool.spec)

    def _call(self, tool: Tool, arguments: str) -> ToolOutcome:
        name, spec = tool.name, tool.spec
        try:
            raw = json.loads(arguments or "{}")
        except json.JSONDecodeError as exc:
            return _failure(f"the arguments for {name} are not valid JSON ({exc.msg} at character {exc.pos})", spec)
        except RecursionError:
            return _failure(f"the arguments for {name} are nested too deeply to read; send a flat JSON object", spec)
        except ValueError as exc:  # e.g. an integer with more digits than Python converts
            return _failure(f"the arguments for {name} are not valid JSON ({one_line(str(exc), 120)})", spec)
        if not isinstance(raw, dict):
            return _failure(f"the arguments for {name} must be a JSON object", spec)
        try:
            args = tool.args.model_validate(raw)
        except ValidationError as exc:
            details = "; ".join(_invalid(err) for err in exc.errors())
            return _failure(f"invalid arguments for {name}: {valid_text(details)}", spec)
        try:
            return tool.run(args)
        except PalaceError as exc:
            return _failure(str(exc), spec)


def _invalid(err: Any) -> str:
    """One argument's problem; a string where a list belongs is named so (`"wings": "acme"` is not one wing)."""
    where = ".".join(str(part) for part in err["loc"]) or "arguments"
    said = f"{where}: {err['msg']}"
    if err.get("type") == "list_type" and isinstance(err.get("input"), str):
        said += ' (a string was given; send a JSON list, e.g. ["name"])'
    return said


class MemoryWriter(Protocol):
    """Where saves and forgets go: a MemoryStore, or memory/project.Targets (the project memory beside it)."""

    def save(
        self, path: str, content: str, replaces: str | None = None, *, by: str = "user", until: str | None = None
    ) -> ChangeResult: ...

    def forget(self, path: str, content: str, *, by: str = "user") -> ChangeResult: ...

    def room_text(self, path: str) -> str: ...


def memory_tools(
    store: MemoryStore | MemoryWriter,
    *,
    by: str = "model",
    recall: Callable[[MemoryRecall], str] | None = None,
    working: Callable[[WorkingContextArgs], str] | None = None,
    mcp: bool = False,
    limit: int = 200,
) -> ToolBox:
    """MemorySave and MemoryForget on the store, MemoryRecall when a recall function is given, WorkingContext
    when a working-context function is; with `mcp`, under their MCP names and words (model/specs.py)."""

    def save(args: MemorySave) -> ToolOutcome:
        until = args.until.isoformat() if args.until is not None else None
        result = store.save(args.path, args.content, args.replaces, by=by, until=until)
        return ToolOutcome(result.message, change=result)

    def forget(args: MemoryForget) -> ToolOutcome:
        result = store.forget(args.path, args.content, by=by)
        return ToolOutcome(result.message, change=result)

    def set_working(args: WorkingContextArgs) -> ToolOutcome:
        assert working is not None
        for items in (args.goals, args.decisions, args.open_questions):
            for item in items or ():
                kind = find_secret(item)
                if kind is not None:
                    raise ContentError(f"a working-context line looks like it holds a secret ({kind}); leave it out")
        return ToolOutcome(working(args))

    def room(args: MemoryRoom) -> ToolOutcome:
        return ToolOutcome(store.room_text(args.path))

    runs: list[tuple[ToolSpec, Callable[[Any], ToolOutcome]]] = [(SAVE, save), (FORGET, forget)]
    if recall is not None:
        runs.append((RECALL, lambda args: ToolOutcome(recall(args))))
    if working is not None:
        runs.append((WORKING, set_working))
    runs.append((ROOM, room))
    return ToolBox([tool_for(spec, run, mcp=mcp, limit=limit) for spec, run in runs if not mcp or spec.mcp_name])


def tool_for(spec: ToolSpec, run: Callable[[Any], ToolOutcome], *, mcp: bool = False, limit: int = 200) -> Tool:
    """The tool of a spec, named and worded for palace's model or (`mcp`) an MCP client."""
    name = spec.mcp_name if mcp and spec.mcp_name else spec.name
    return Tool(name, spec.args, run, spec, spec.text(mcp=mcp, limit=limit))
