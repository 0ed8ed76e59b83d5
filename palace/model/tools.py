"""The tools offered to the model: a pydantic model for the arguments plus a function each.

A tool failure is data for the model (a clear error text), never an exception out of the loop.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from palace.errors import ContentError, PalaceError
from palace.memory.halls import HALL_LIST, wing_problem
from palace.memory.ops import ChangeResult
from palace.memory.secrets import find_secret
from palace.memory.store import MemoryStore
from palace.model.failures import one_line
from palace.model.stream import valid_text
from palace.recall.scope import default_wings

log = logging.getLogger(__name__)
ALL_WINGS = "all"  # MemoryRecall's `wing` that searches every wing

_PATH_HELP = (
    "Where the memory lives: 'Hall/room' for facts about the user that hold everywhere, or "
    "'wing/Hall/room' for one project or person (wing = project name, e.g. 'ifai'). "
    f"Hall is one of: {HALL_LIST}. room is a short kebab-case topic such as 'programming-languages'; "
    "reuse a room that already exists in the memories when it fits."
)


class MemorySave(BaseModel):
    """Save one lasting fact to long-term memory (memories.md).

    Use when the user states a lasting preference, a fact about their project, a decision, or a habit in
    how they work — something worth knowing in a future session. Do not save one-off questions, chit-chat,
    things already in memory (saving the same fact again only refreshes its date), or secrets of any kind
    (keys, tokens, passwords are refused). One short sentence, at most 200 characters, no date. To update
    an existing entry, pass its old text as `replaces`.
    """

    model_config = ConfigDict(extra="forbid")
    path: str = Field(description=_PATH_HELP, examples=["Preferences/programming-languages", "ifai/Decisions/database"])
    content: str = Field(description="One short sentence stating the fact, at most 200 characters, no leading date.")
    replaces: str | None = Field(
        default=None, description="The exact text of an existing entry in the same room that this one replaces."
    )


class MemoryForget(BaseModel):
    """Remove one entry from long-term memory, when the user says it is wrong or no longer true."""

    model_config = ConfigDict(extra="forbid")
    path: str = Field(description=_PATH_HELP)
    content: str = Field(description="The text of the entry to remove, as it appears in memory (without the date).")


class MemoryRecall(BaseModel):
    """Search earlier sessions (their summaries and transcripts) and memory entries, including superseded ones.

    Use when the user refers to something discussed before that is not in the memory shown in the system
    prompt ("what did we decide about...", "last week we..."). Returns dated passages, each labelled with its
    wing (project or person, or "no wing"); entries that were replaced or forgotten are labelled superseded and
    are no longer true. Searches the current wing(s) and everything without a wing, unless `wing` says otherwise.
    """

    model_config = ConfigDict(extra="forbid")
    query: str = Field(description="Keywords to search for (English or Chinese).")
    limit: int = Field(default=5, ge=1, le=20, description="How many sessions to return (1-20).")
    since: date | None = Field(default=None, description="Only sessions on or after this date (YYYY-MM-DD).")
    until: date | None = Field(default=None, description="Only sessions on or before this date (YYYY-MM-DD).")
    wing: str | None = Field(
        default=None,
        description='Search this wing (and what has no wing) instead of the current one(s), or "all" for every wing.',
    )

    @field_validator("wing")
    @classmethod
    def _known_form(cls, value: str | None) -> str | None:
        if value is None or value.strip().casefold() == ALL_WINGS:
            return None if value is None else ALL_WINGS
        problem = wing_problem(value.strip())
        if problem is not None:
            raise ValueError(f'{problem}, or "{ALL_WINGS}" for every wing')
        return value.strip()

    def wings(self, active: Sequence[str]) -> list[str] | None:
        """The wings to search (besides the wing-less): the one named, else the active ones; None for all."""
        if self.wing == ALL_WINGS:
            return None
        return [self.wing] if self.wing is not None else default_wings(active)


class WorkingContextArgs(BaseModel):
    """Keep this session's working context current: the user's goals, the decisions made, the open questions.

    Call it when a goal is set, reached, dropped or replaced, when a decision is made or reversed, and when a
    question comes up or is answered. Each list you pass replaces the previous one entirely: pass the whole
    list, items that still hold in the same words; leave a list out to keep it as it is. It survives restarts
    and stands in for the older turns when the conversation is folded to fit. It is not long-term memory (use
    MemorySave for lasting facts). Short lines, no secrets.
    """

    model_config = ConfigDict(extra="forbid")
    goals: list[str] | None = Field(default=None, description="What the user is trying to do now, one line each.")
    decisions: list[str] | None = Field(default=None, description="Choices made that still hold, one line each.")
    open_questions: list[str] | None = Field(default=None, description="What is still to answer or decide.")


@dataclass
class ToolOutcome:
    """What a tool call produced: the text for the model, and the memory change if any."""

    text: str
    change: ChangeResult | None = None
    error: str | None = None


@dataclass
class Tool:
    name: str
    args: type[BaseModel]
    run: Callable[[Any], ToolOutcome]

    def schema(self) -> dict[str, Any]:
        parameters = self.args.model_json_schema()
        parameters.pop("title", None)
        for prop in parameters.get("properties", {}).values():
            prop.pop("title", None)
        description = " ".join((self.args.__doc__ or "").split())
        function = {"name": self.name, "description": description, "parameters": parameters}
        return {"type": "function", "function": function}


def _failure(message: str) -> ToolOutcome:
    message = valid_text(message)  # an error may quote the model's own broken text back
    return ToolOutcome(f"Error: {message}. Nothing was written.", error=message)


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
            return _failure(f"{name} failed unexpectedly ({type(exc).__name__}: {one_line(str(exc), 160)})")

    def _call(self, tool: Tool, arguments: str) -> ToolOutcome:
        name = tool.name
        try:
            raw = json.loads(arguments or "{}")
        except json.JSONDecodeError as exc:
            return _failure(f"the arguments for {name} are not valid JSON ({exc.msg} at character {exc.pos})")
        except RecursionError:
            return _failure(f"the arguments for {name} are nested too deeply to read; send a flat JSON object")
        except ValueError as exc:  # e.g. an integer with more digits than Python converts
            return _failure(f"the arguments for {name} are not valid JSON ({one_line(str(exc), 120)})")
        if not isinstance(raw, dict):
            return _failure(f"the arguments for {name} must be a JSON object")
        try:
            args = tool.args.model_validate(raw)
        except ValidationError as exc:
            details = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or 'arguments'}: {err['msg']}" for err in exc.errors()
            )
            return _failure(f"invalid arguments for {name}: {valid_text(details)}")
        try:
            return tool.run(args)
        except PalaceError as exc:
            return _failure(str(exc))


class MemoryWriter(Protocol):
    """Where saves and forgets go: a MemoryStore, or memory/project.Targets (the project memory beside it)."""

    def save(self, path: str, content: str, replaces: str | None = None, *, by: str = "user") -> ChangeResult: ...

    def forget(self, path: str, content: str, *, by: str = "user") -> ChangeResult: ...


def memory_tools(
    store: MemoryStore | MemoryWriter,
    *,
    by: str = "model",
    recall: Callable[[MemoryRecall], str] | None = None,
    working: Callable[[WorkingContextArgs], str] | None = None,
    names: Mapping[str, str] | None = None,
) -> ToolBox:
    """MemorySave and MemoryForget on the store, MemoryRecall when a recall function is given, WorkingContext
    when a working-context function is; `names` renames tools (the MCP server's `memory_save`, ...)."""
    named = names or {}

    def save(args: MemorySave) -> ToolOutcome:
        result = store.save(args.path, args.content, args.replaces, by=by)
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

    tools = [Tool("MemorySave", MemorySave, save), Tool("MemoryForget", MemoryForget, forget)]
    if recall is not None:
        tools.append(Tool("MemoryRecall", MemoryRecall, lambda args: ToolOutcome(recall(args))))
    if working is not None:
        tools.append(Tool("WorkingContext", WorkingContextArgs, set_working))
    return ToolBox([Tool(named.get(tool.name, tool.name), tool.args, tool.run) for tool in tools])
