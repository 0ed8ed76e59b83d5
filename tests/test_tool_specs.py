"""One declaration per tool (model/specs.py): the model's tool box, the MCP server and the REPL all read it."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from palace.app import App
from palace.config import Settings, load_settings
from palace.mcp.server import PalaceServer
from palace.model.specs import TOOL_SPECS, ToolSpec, spec_of
from palace.model.tools import ToolOutcome, memory_tools, tool_for
from palace.testing.scripted import ScriptedModel
from palace.testing.server import Step
from palace.ui.console import Console
from palace.ui.repl import Repl


def test_every_spec_is_listed_over_mcp_with_its_words_and_annotations(tmp_path: Path) -> None:
    app = App(load_settings({"home": tmp_path / "home", "entry_limit": 150}, env={}), warn=lambda text: None)
    listed = {tool.name: tool for tool in PalaceServer(app).tool_list([])}
    served = [spec for spec in TOOL_SPECS if spec.mcp_name]
    assert sorted(listed) == sorted(spec.mcp_name for spec in served if spec.mcp_name)
    for spec in served:
        assert spec.mcp_name is not None
        tool = listed[spec.mcp_name]
        assert tool.description is not None and tool.description.startswith(spec.text(mcp=True, limit=150))
        assert "{limit}" not in tool.description
        hints = tool.annotations
        assert hints is not None and hints.open_world_hint is False
        assert (hints.read_only_hint, hints.destructive_hint, hints.idempotent_hint) == (
            spec.read_only,
            spec.destructive,
            spec.idempotent,
        )
        assert set(tool.input_schema["properties"]) == set(spec.args.model_fields)


def test_palaces_own_model_gets_every_repl_spec_in_its_words(tmp_path: Path) -> None:
    store_home = tmp_path / "home"
    app = App(load_settings({"home": store_home}, env={}), warn=lambda text: None)
    box = memory_tools(app.store, recall=lambda args: "", working=lambda args: "", limit=120)
    offered = {schema["function"]["name"]: schema["function"] for schema in box.schemas()}
    assert sorted(offered) == sorted(spec.name for spec in TOOL_SPECS if spec.in_repl)
    for name, function in offered.items():
        spec = spec_of(name)
        assert spec is not None and function["description"] == spec.text(mcp=False, limit=120)
    assert "at most 120 characters" in offered["MemorySave"]["description"]


def test_a_new_spec_is_served_by_mcp_without_any_other_table(tmp_path: Path) -> None:
    from pydantic import BaseModel

    class Ping(BaseModel):
        pass

    spec = ToolSpec("MemoryPing", "memory_ping", Ping, "Answer pong.")
    app = App(load_settings({"home": tmp_path / "home"}, env={}), warn=lambda text: None)
    server = PalaceServer(app)
    box = server.toolbox()
    box.tools["memory_ping"] = tool_for(spec, lambda args: ToolOutcome("pong"), mcp=True)
    listed = {tool.name: tool for tool in server.tool_list([])}
    assert listed["memory_ping"].description == "Answer pong." and listed["memory_ping"].annotations is not None
    assert server.call("memory_ping", {}, []).text == "pong"


@pytest.mark.parametrize("spec", [s for s in TOOL_SPECS if s.in_repl], ids=lambda s: s.name)
def test_the_repl_labels_a_failed_call_of_every_tool(spec: ToolSpec, settings_for: Callable[..., Settings]) -> None:
    model = ScriptedModel([Step(tool_calls=[(spec.name, "{not json")]), Step(text="ok")])
    out = io.StringIO()
    console = Console(out, out, color=False)
    settings = settings_for()
    Repl(App(settings, warn=console.warn, client=model), console, interactive=False).run(["go"])
    label = "Not saved" if spec.writes_memory else spec.name
    assert f"✗ {label}: the arguments for {spec.name} are not valid JSON" in out.getvalue(), out.getvalue()
    tool_message = next(m for m in model.requests[1]["messages"] if m["role"] == "tool")
    assert json.dumps(tool_message["content"]).count("not valid JSON") == 1
