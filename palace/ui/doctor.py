"""`palace doctor`: the settings in effect and where each came from, the endpoint, the palace's health."""

from __future__ import annotations

import stat

from palace.config import Settings
from palace.errors import PalaceError
from palace.ui.console import Console

_SHOWN = (
    "home",
    "model",
    "base_url",
    "api_key",
    "wing",
    "memory_budget",
    "entry_limit",
    "soft_limit",
    "tool_rounds",
    "extraction",
    "extract_model",
    "extract_trigger",
    "extract_min",
    "git_autocommit",
    "timeout",
)


def _value(settings: Settings, name: str) -> str:
    value = getattr(settings, name)
    if name == "api_key":
        return "(not set)" if not value else f"set ({len(str(value))} characters, not shown)"
    return "(not set)" if value is None else str(value)


def run_doctor(settings: Settings, console: Console) -> int:
    """Print a health report; exit 1 when something needs fixing."""
    problems = 0
    console.print("Settings (value — where it came from):", "bold")
    for name in _SHOWN:
        console.print(f"  {name:<16} {_value(settings, name)} — {settings.source(name)}")

    console.print("Endpoint:", "bold")
    from palace.model.client import client_from_settings

    client = client_from_settings(settings)
    client.timeout = min(client.timeout, 10.0)
    try:
        models = client.list_models()
    except PalaceError as exc:
        problems += 1
        console.print(f"  ✗ {exc}", "red")
    else:
        console.print(f"  ✓ reachable: {client.url} ({len(models)} models)", "green")
        if settings.model in models:
            console.print(f"  ✓ model {settings.model} is listed", "green")
        else:
            problems += 1
            listed = ", ".join(models[:8]) + (" …" if len(models) > 8 else "")
            console.print(f"  ✗ model {settings.model} is not listed (listed: {listed or 'none'})", "red")
    finally:
        client.close()

    console.print("Palace:", "bold")
    home = settings.home
    if not home.exists():
        console.print(f"  ! {home} does not exist yet — `palace init` creates it", "yellow")
        return 1 if problems else 0
    mode = stat.S_IMODE(home.stat().st_mode)
    ok = not mode & 0o077
    problems += 0 if ok else 1
    console.print(
        f"  {'✓' if ok else '✗'} folder {home} mode {mode:o}" + ("" if ok else " (should be 700)"),
        "green" if ok else "red",
    )
    file = settings.memories_file
    if not file.exists():
        console.print("  ! memories.md does not exist yet (the first save creates it)", "yellow")
    else:
        from palace.memory.lint import lint_file
        from palace.memory.store import MemoryStore

        fmode = stat.S_IMODE(file.stat().st_mode)
        report = lint_file(file, entry_limit=settings.entry_limit, soft_limit=settings.soft_limit)
        rendered = MemoryStore(home).render(settings.wing, settings.memory_budget)
        console.print(
            f"  {'✓' if not fmode & 0o077 else '!'} memories.md mode {fmode:o}, {report.entries} entries, "
            f"{rendered.size:,} of {settings.memory_budget:,} prompt bytes"
            + (f", {rendered.left_out} left out" if rendered.left_out else "")
        )
        for problem in report.problems:
            console.print(f"    {problem}", "red" if problem.severity == "error" else "yellow")
        problems += 1 if report.has_errors else 0
    sessions = list(settings.sessions_dir.glob("*.jsonl"))
    archives = list(settings.sessions_dir.glob("*.md"))
    console.print(f"  sessions: {len(archives)} archived, {len(sessions)} journals")
    git = (home / ".git").exists()
    console.print(f"  history: {'git repository' if git else 'not a git repository (palace init --git)'}")
    return 1 if problems else 0
