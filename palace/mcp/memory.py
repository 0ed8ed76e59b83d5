"""The memory as other agents read it: the rendered block for a set of wings, and the text that introduces it."""

from __future__ import annotations

import re
from collections.abc import Sequence

from palace.app import App
from palace.memory.halls import HALL_LIST
from palace.memory.render import Rendered
from palace.model.prompts import ProjectBlock, load_prompt, memory_block, names, project_block, wing_line
from palace.record import replace

MEMORY_OFF = "long-term memory is off in this palace (memory.enabled = false, or PALACE_MEMORY=off)"


def rendered_text(app: App, wings: Sequence[str]) -> str:
    """memories.md as the model sees it for these wings (the wing-less halls and theirs), or a note why empty."""
    rendered = app.store.render(list(wings), app.settings.memory_budget)
    text = rendered.text.strip("\n")
    if text:
        return text
    return f"(no memories yet: {rendered.warning})" if rendered.warning else "(no memories yet)"


def project_memory(app: App) -> ProjectBlock | None:
    """The project memory of the repository palace runs in, rendered for the prompt (None when there is none)."""
    targets = app.targets
    if targets.project is None or targets.project_memory is None:
        return None
    rendered = targets.project_memory.render(None, app.settings.memory_budget)
    return ProjectBlock(targets.project.name, rendered, targets.to_project)


def show_text(app: App, wings: Sequence[str]) -> str:
    """What memory_show answers: which wings are active, then the memory (and the project's shared memory)."""
    scope = f"Active wings: {names(wings)}." if wings else "No project wing is active."
    shared = project_block(project_memory(app))
    return f"{scope}\n\n{rendered_text(app, wings)}" + (f"\n\n{shared}" if shared else "")


# The closing line of a render that left entries out names the REPL's tool; another agent has its own name for it.
_LEFT_OUT = re.compile(
    r"^(\(\d+ (?:older )?entries left out to fit the \d+-byte memory budget[^;\n]*); MemoryRecall finds them\.\)$", re.M
)
_TOOLS = re.compile(r"\{\{([#^])tools\}\}\n?(.*?)\{\{/tools\}\}\n?", re.S)


def _for_client(rendered: Rendered, tools: bool) -> Rendered:
    """rendered with its over-budget line naming the client's tool (`memory_recall`), or no tool without one."""
    if not rendered.left_out:
        return rendered
    said = r"\1; `memory_recall` finds them.)" if tools else r"\1.)"
    return replace(rendered, text=_LEFT_OUT.sub(said, rendered.text))


def _template(app: App, wings: Sequence[str], tools: bool) -> str:
    """prompts/agent-memory.md filled in but for the memory: `{{#tools}}...{{/tools}}` kept when the client has
    palace's tools, `{{^tools}}...{{/tools}}` when it has not."""
    template = load_prompt("agent-memory.md", app.settings.home)
    template = _TOOLS.sub(lambda m: m.group(2) if (m.group(1) == "#") == tools else "", template)
    return template.replace("{{halls}}", HALL_LIST).replace("{{wing_line}}", wing_line(wings))


def _split(room: int, personal: int, project: int) -> tuple[int, int]:
    """Budgets (bytes) for the personal and the project memory within room: each what it needs when both fit,
    else what one needs up to half, and the other the rest."""
    if personal + project <= room:
        return personal, project
    half = room // 2
    if personal <= half:
        return personal, room - personal
    if project <= half:
        return room - project, project
    return half, room - half


def agent_context(app: App, wings: Sequence[str], *, tools: bool = True, limit: int | None = None) -> str:
    """The memory for another agent's context (the MCP prompt, Claude Code's session start): what it is, how to
    keep it, and the fenced block (prompts/agent-memory.md, overridable in $PALACE_HOME/prompts/), then the
    project memory's. `tools`: the agent has palace's MCP tools (named as it sees them). `limit`: characters in
    all, the personal and the project memory sharing what the rest leaves (each over-budget part says so)."""
    template = _template(app, wings, tools)
    budget = app.settings.memory_budget
    personal = _for_client(app.store.render(list(wings), budget), tools)
    project = project_memory(app)
    project = replace(project, rendered=_for_client(project.rendered, tools)) if project else None
    text = _joined(template, personal, project)
    if limit is None or len(text) <= limit:
        return text
    empty = Rendered("")
    frame = len(_joined(template, empty, replace(project, rendered=empty) if project else None))
    room = max(2 * MIN_BUDGET, limit - frame - _SLACK)
    mine, theirs = _split(room, personal.size, project.rendered.size if project else 0)
    for _ in range(3):  # a line screened as a secret adds its note after the budget: shrink by what is over
        personal = _for_client(app.store.render(list(wings), max(MIN_BUDGET, mine)), tools)
        if project is not None and app.targets.project_memory is not None:
            shared = app.targets.project_memory.render(None, max(MIN_BUDGET, theirs))
            project = replace(project, rendered=_for_client(shared, tools))
        text = _joined(template, personal, project)
        over = len(text) - limit
        if over <= 0:
            return text
        share = (over + 1) // 2 if project is not None else over
        mine, theirs = personal.size - share, (project.rendered.size - share if project is not None else 0)
    return _cut(text, limit)


MIN_BUDGET = 256  # bytes: a memory part never gets less (the closing line alone takes ~90)
_SLACK = 64  # characters kept free for what a budget does not count (a tool's name in the closing line)


def _joined(template: str, personal: Rendered, project: ProjectBlock | None) -> str:
    text = template.replace("{{memory}}", memory_block(personal)).strip()
    shared = project_block(project)
    return f"{text}\n\n{shared}" if shared else text


def _cut(text: str, limit: int) -> str:
    """The last resort (a prompt override longer than the limit): whole lines up to limit, and a closing line."""
    closing = "\n(cut to fit Claude Code's context)"
    kept = text[: max(0, limit - len(closing))]
    return kept[: kept.rfind("\n")] + closing if "\n" in kept else kept[:limit]
