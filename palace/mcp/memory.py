"""The memory as other agents read it: the rendered block for a set of wings, and the text that introduces it."""

from __future__ import annotations

from collections.abc import Sequence

from palace.app import App
from palace.memory.halls import HALL_LIST
from palace.model.prompts import ProjectBlock, load_prompt, memory_block, names, project_block, wing_line

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


def agent_context(app: App, wings: Sequence[str]) -> str:
    """The memory for another agent's context (the MCP prompt, Claude Code's session start): what it is, how to
    keep it, and the fenced block (prompts/agent-memory.md, overridable in $PALACE_HOME/prompts/)."""
    rendered = app.store.render(list(wings), app.settings.memory_budget)
    template = load_prompt("agent-memory.md", app.settings.home)
    text = (
        template.replace("{{halls}}", HALL_LIST)
        .replace("{{wing_line}}", wing_line(wings))
        .replace("{{memory}}", memory_block(rendered))
        .strip()
    )
    shared = project_block(project_memory(app))
    return f"{text}\n\n{shared}" if shared else text
