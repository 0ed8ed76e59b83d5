"""`palace mcp`: the palace as a Model Context Protocol server over stdio, on the official `mcp` SDK.

The tools are declared once in model/specs.py: the REPL's, under their MCP names and words, with their MCP
annotations, plus `memory_show` (model/tools.py: the same argument models, code path and error texts). A
failure goes back as a tool result with isError set and its text, never as an exception (the SDK would turn
one into a bare "Internal server error"). Writes go through the one store (locked, re-read, atomic), one at a
time, each attributed to the client in its git commit. The memory is also a resource,
`palace://memories/{wing}`, and a prompt, `palace-memory`. The SDK is imported only here and in mcp/wire.py
(the screened stdio transport).
"""

from __future__ import annotations

import json
import re
import threading
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from palace import __version__
from palace.app import App
from palace.errors import MemoryPathError, PalaceError
from palace.mcp.memory import MEMORY_OFF, agent_context, rendered_text, show_text
from palace.mcp.wings import first_root, wings_for
from palace.mcp.wire import screened_stdio
from palace.memory.halls import wing_advice, wing_key, wing_problem
from palace.model.prompts import names, wing_line
from palace.model.specs import SAVE, SHOW, MemoryRecall, MemoryShow, ToolSpec
from palace.model.tools import ToolBox, ToolOutcome, memory_tools, tool_for
from palace.record import replace

Context = Any  # the SDK's ServerRequestContext (generic over its lifespan state)
RESOURCE_PREFIX = "palace://memories/"
PROMPT = "palace-memory"
ROOTS_SECONDS = 5.0  # a client that declares roots but never answers the request is not waited for longer

INSTRUCTIONS = (
    "palace keeps the user's long-term memory in one markdown file they own (memories.md). Read it with "
    "memory_show (or the palace-memory prompt) when a task starts; save lasting facts with memory_save as they "
    "come up; never save secrets. Older sessions are found with memory_recall."
)


def _client_name(raw: object) -> str:
    """The client's name as a commit may carry it: one short line of plain characters."""
    text = re.sub(r"[^\w .@+/-]", "", str(raw or ""))
    text = " ".join(text.split())[:60]
    return text or "unknown client"


def _checked_wings(wings: Sequence[str]) -> list[str]:
    for wing in wings:
        problem = wing_problem(wing)
        if problem is not None:
            raise MemoryPathError(f"{problem}; {wing_advice(wing)}")
    return list(wings)


def _no_such_wings(missing: Sequence[str], held: Sequence[str]) -> str:
    """`the palace has no wing `nosuch` (did you mean `ifai`?); its wings are `alice` and `ifai`; ...`."""
    import difflib

    close = difflib.get_close_matches(missing[0], list(held), n=1, cutoff=0.6)
    guess = f" (did you mean `{close[0]}`?)" if close else ""
    which = f"wing {names(missing)}" if len(missing) == 1 else f"wings {names(missing)}"
    have = f"its wing{'s are' if len(held) > 1 else ' is'} {names(sorted(held, key=str.casefold))}" if held else ""
    have = have or "it has no wings yet"
    return f"the palace has no {which}{guess}; {have}: pass one of them, or leave `wings` out for this workspace's"


class PalaceServer:
    """One MCP connection's state: the palace's parts, who the client is, and the wings it works in."""

    def __init__(self, app: App, *, cwd: Path | None = None) -> None:
        self.app = app
        self.settings = app.settings
        self.cwd = cwd
        self.client: str | None = None
        self._box: ToolBox | None = None
        self._wings: list[str] | None = None
        self._active: list[str] = []  # the wings of the call in progress
        self._lock = threading.Lock()  # one store operation at a time: its caches are not shared safely

    # ------------------------------------------------------------------ who and where
    def identify(self, ctx: Context) -> None:
        """Learn the client's name (from initialize's clientInfo) once; commits name it from then on."""
        if self.client is not None:
            return
        params = getattr(ctx.session, "client_params", None)
        info = getattr(params, "client_info", None)
        self.client = _client_name(getattr(info, "name", None))
        self.app.history.via = f"mcp: {self.client}"

    async def wings(self, ctx: Context) -> list[str]:
        """The active wings (--wing, else the client's roots, else the working directory), worked out once."""
        if self._wings is None:
            roots = await _roots(ctx)
            self._wings = await anyio.to_thread.run_sync(wings_for, self.settings, roots, self.cwd)
            workspace = first_root(roots)
            if workspace is not None:  # the project memory is the client's workspace's, not the server's folder's
                with self._lock:
                    self.app.work_in(workspace)
                    self._box = None  # its tools save through the targets of that folder
        return self._wings

    def forget_wings(self) -> None:
        """The client's roots changed: work the wings out (and find the project memory) again at the next request."""
        self._wings = None

    # ------------------------------------------------------------------ tools
    def toolbox(self) -> ToolBox:
        if self._box is None:
            by = f"mcp: {self.client or 'unknown client'}"
            limit = self.settings.entry_limit
            box = memory_tools(self.app.targets, by=by, recall=self._recall, mcp=True, limit=limit)
            tools = [*box.tools.values(), tool_for(SHOW, self._show, mcp=True, limit=limit)]
            if not self.settings.memory_enabled:  # arguments are still checked; then the one reason
                tools = [replace(tool, run=_memory_off) for tool in tools]
            self._box = ToolBox(tools)
        return self._box

    def tool_list(self, wings: Sequence[str]) -> list[types.Tool]:
        """Every MCP tool of TOOL_SPECS, with its annotations (a tool the box lacks is a bug a test catches)."""
        listed = []
        for tool in self.toolbox().tools.values():
            function = tool.schema()["function"]
            text = tool.description
            if tool.spec is SAVE:
                text += wing_line(wings).replace("\n-", "")
            parameters = {k: v for k, v in function["parameters"].items() if k != "description"}  # said above
            annotations = _annotations(tool.spec) if tool.spec is not None else None
            listed.append(
                types.Tool(name=tool.name, description=text, input_schema=parameters, annotations=annotations)
            )
        return listed

    def call(self, name: str, arguments: dict[str, Any] | None, wings: list[str]) -> ToolOutcome:
        """Run one tool (in a worker thread); every failure is an outcome with its error text."""
        with self._lock:
            self._active = wings
            return self.toolbox().call(name, json.dumps(arguments if arguments is not None else {}))

    def _recall(self, args: MemoryRecall) -> str:
        wings = args.wings(self._active)
        return self.app.recall_text(args.query, limit=args.limit, since=args.since, until=args.until, wings=wings)

    def _show(self, args: MemoryShow) -> ToolOutcome:
        wings = self._known(_checked_wings(args.wings)) if args.wings is not None else self._active
        return ToolOutcome(show_text(self.app, wings))

    def _known(self, asked: list[str]) -> list[str]:
        """The wings asked for, as the palace spells them; a MemoryPathError naming any it has not (an agent
        that misspells one must not read the shared halls alone as that wing's memory)."""
        try:
            held = self.app.store.document().wings()
        except PalaceError:
            held = []  # an unreadable file: show_text says why
        project = self.app.targets.project
        named = {wing_key(w): w for w in [*held, *self._active, *([project.name] if project is not None else [])]}
        missing = [wing for wing in asked if wing_key(wing) not in named]
        if missing:
            raise MemoryPathError(_no_such_wings(missing, list(named.values())))
        return [named[wing_key(wing)] for wing in asked]

    # ------------------------------------------------------------------ resource and prompt
    def resources(self, wings: Sequence[str]) -> list[types.Resource]:
        """One resource per wing: the active ones first, then every wing the file has."""
        named: dict[str, str] = {w.casefold(): w for w in wings}
        try:
            with self._lock:
                in_file = self.app.store.document().wings()
        except PalaceError:
            in_file = []  # an unreadable file lists the active wings only; reading one says why
        for wing in in_file:
            named.setdefault(wing.casefold(), wing)
        return [
            types.Resource(
                uri=RESOURCE_PREFIX + wing,
                name=f"memories: {wing}",
                description=f"palace's long-term memory for {wing}, with the facts true everywhere",
                mime_type="text/markdown",
            )
            for wing in named.values()
        ]

    def read(self, uri: str) -> str:
        wing = uri.removeprefix(RESOURCE_PREFIX) if uri.startswith(RESOURCE_PREFIX) else None
        if wing is None or wing_problem(wing) is not None:
            raise MCPError(types.INVALID_PARAMS, f"no such resource: {uri} (palace's are {RESOURCE_PREFIX}WING)")
        if not self.settings.memory_enabled:
            return f"({MEMORY_OFF})"
        with self._lock:
            return rendered_text(self.app, [wing])

    def prompt(self, wing: str | None, wings: list[str]) -> str:
        if wing:
            problem = wing_problem(wing)
            if problem is not None:
                raise MCPError(types.INVALID_PARAMS, f"{problem}; {wing_advice(wing)}")
            wings = [wing]
        if not self.settings.memory_enabled:
            return f"Long-term memory is off: {MEMORY_OFF}."
        with self._lock:
            return agent_context(self.app, wings)


def _annotations(spec: ToolSpec) -> types.ToolAnnotations:
    """What a client may skip asking about: reads, repeats that change nothing twice, nothing outside."""
    return types.ToolAnnotations(
        title=spec.name,
        read_only_hint=spec.read_only,
        destructive_hint=spec.destructive,
        idempotent_hint=spec.idempotent,
        open_world_hint=False,
    )


def _memory_off(args: object) -> ToolOutcome:
    raise PalaceError(MEMORY_OFF)


async def _roots(ctx: Context) -> list[str] | None:
    """The client's workspace roots as URIs, or None when it has none to give (or does not answer)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # roots are deprecated from 2026-07-28 on; clients still send them
            capabilities = ctx.session.client_capabilities
            if capabilities is None or capabilities.roots is None:
                return None
            with anyio.fail_after(ROOTS_SECONDS):
                listed = await ctx.session.list_roots()
    except Exception:  # no back-channel (2026-era requests), a timeout, an error answer: use the working directory
        return None
    return [str(root.uri) for root in listed.roots]


def build_server(palace: PalaceServer) -> Server[Any]:
    """The SDK's low-level server with palace's handlers (so the argument checks and error texts are palace's)."""

    async def list_tools(ctx: Context, params: object) -> types.ListToolsResult:
        palace.identify(ctx)
        return types.ListToolsResult(tools=palace.tool_list(await palace.wings(ctx)))

    async def call_tool(ctx: Context, params: types.CallToolRequestParams) -> types.CallToolResult:
        try:
            palace.identify(ctx)
            wings = await palace.wings(ctx)
            outcome = await anyio.to_thread.run_sync(palace.call, params.name, params.arguments, wings)
        except Exception as exc:  # never a bare protocol error: the agent reads the reason and goes on
            reason = f"{params.name} failed unexpectedly ({type(exc).__name__}: {exc})"
            outcome = ToolOutcome(f"Error: {reason}.", error=reason)
        text = types.TextContent(type="text", text=outcome.text)
        return types.CallToolResult(content=[text], is_error=outcome.error is not None)

    async def list_resources(ctx: Context, params: object) -> types.ListResourcesResult:
        wings = await palace.wings(ctx)
        return types.ListResourcesResult(resources=await anyio.to_thread.run_sync(palace.resources, wings))

    async def list_templates(ctx: Context, params: object) -> types.ListResourceTemplatesResult:
        template = types.ResourceTemplate(
            uri_template=RESOURCE_PREFIX + "{wing}",
            name="memories",
            description="palace's long-term memory for one wing (a project or person), with the facts true everywhere",
            mime_type="text/markdown",
        )
        return types.ListResourceTemplatesResult(resource_templates=[template])

    async def read_resource(ctx: Context, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        text = await anyio.to_thread.run_sync(palace.read, params.uri)
        contents = types.TextResourceContents(uri=params.uri, text=text, mime_type="text/markdown")
        return types.ReadResourceResult(contents=[contents])

    async def list_prompts(ctx: Context, params: object) -> types.ListPromptsResult:
        argument = types.PromptArgument(name="wing", description="a wing other than this workspace's", required=False)
        prompt = types.Prompt(
            name=PROMPT, description="Load the user's long-term memory from palace", arguments=[argument]
        )
        return types.ListPromptsResult(prompts=[prompt])

    async def get_prompt(ctx: Context, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        if params.name != PROMPT:
            raise MCPError(types.INVALID_PARAMS, f'unknown prompt "{params.name}"; palace has "{PROMPT}"')
        wings = await palace.wings(ctx)
        text = await anyio.to_thread.run_sync(palace.prompt, (params.arguments or {}).get("wing"), wings)
        message = types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))
        return types.GetPromptResult(description="palace's long-term memory", messages=[message])

    async def roots_changed(ctx: Context, params: object) -> None:
        palace.forget_wings()

    server: Server[Any] = Server(
        "palace",
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
    )
    server.add_notification_handler("notifications/roots/list_changed", types.NotificationParams, roots_changed)
    return server


def serve(app: App) -> int:
    """Serve MCP on stdin/stdout until the client closes the connection (every line screened: palace/mcp/wire.py)."""
    for line in app.expire_memories():  # a client's session starts: what ended leaves the memory (on stderr)
        app.warn(line)
    server = build_server(PalaceServer(app))

    async def main() -> None:
        async with screened_stdio() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    try:
        anyio.run(main)
    finally:
        app.close()
    return 0
