"""What the REPL says as it starts: where it talks to, with what memory, and (once) what leaves the machine."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from palace.agent.conversation import Conversation
    from palace.app import App
    from palace.config import Settings
    from palace.ui.console import Console


def privacy_notice(app: App, console: Console, *, interactive: bool) -> None:
    """Once per palace, on a terminal: what goes to the model provider."""
    settings = app.settings
    mark = settings.paths.index / "privacy-notice-shown"
    if not interactive or mark.exists() or app.endpoint_host() is None:
        return  # (a script reading palace's output does not want it; the first chat on a terminal does)
    what = "your memory block and each conversation" if settings.memory_enabled else "each conversation"
    console.info(
        f"palace sends {what} to {app.endpoint_host()} (your model provider); nothing else leaves this "
        "machine. `palace doctor` shows the endpoint; `--no-memory` keeps the memory out. (Shown once.)"
    )
    with contextlib.suppress(OSError):
        mark.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        mark.touch(mode=0o600)


def startup_lines(settings: Settings, session: Conversation) -> list[str]:
    """The REPL's first lines: the model and endpoint, the wings, the memory's size, the project memory, keys."""
    rendered = session.rendered
    where = settings.base_url or "the OpenAI API"
    wings = session.wings
    wing = f"wing{'s' * (len(wings) > 1)} {', '.join(wings)}" if wings else "no wing"
    entries = f"{rendered.total_entries} {'entry' if rendered.total_entries == 1 else 'entries'}"
    lines = [
        f"palace · {settings.model} at {where} · {wing} · memory: {entries}, "
        f"{rendered.size:,} of {settings.memory_budget:,} bytes",
    ]
    targets = session.targets
    if targets is not None and targets.project is not None and settings.memory_enabled:
        where_saves = "saves about it go there" if targets.to_project else "saves go to your palace"
        lines.append(f"project memory of {targets.project.name}: {targets.project.file} ({where_saves})")
    lines.append("/help for commands · Esc-Enter or Ctrl-J for a new line · Ctrl-C stops a reply · Ctrl-D leaves")
    return lines
