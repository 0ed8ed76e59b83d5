"""`palace doctor`: the settings in effect and where each came from, the endpoint, the palace's health."""

from __future__ import annotations

import os
import stat
from urllib.parse import urlsplit

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


def model_listed(model: str, listed: list[str]) -> bool:
    """Whether the endpoint serves model; Ollama lists `llama3.1` as `llama3.1:latest`."""
    return model in listed or f"{model}:latest" in listed or (model.endswith(":latest") and model[:-7] in listed)


def _settings(settings: Settings, console: Console) -> None:
    """Each main setting by its config.toml key, its value and where it came from; what config.toml has that
    palace ignores (an unknown key warns and is skipped: a bad value of a known one stops palace instead)."""
    from palace.config import toml_key

    config = settings.paths.config
    where = "read" if config.exists() else "not present; defaults and the environment apply"
    console.print(f"Settings (value — where it came from); config file {config} ({where}):", "bold")
    for name in _SHOWN:
        console.print(f"  {toml_key(name):<24} {_value(settings, name)} — {settings.source(name)}")
    for notice in settings.notices:
        console.print(f"  ! {notice}", "yellow")


def _endpoint(settings: Settings, console: Console) -> int:
    """Problems found with the endpoint (0 or 1)."""
    from palace.model.client import client_from_settings

    console.print("Endpoint:", "bold")
    client = client_from_settings(settings)
    client.timeout = min(client.timeout, 10.0)
    host = urlsplit(client.url).hostname or client.url
    console.print(f"  the memory block and the conversation are sent to {host}")
    try:
        models = client.list_models()
    except PalaceError as exc:
        console.print(f"  ✗ {exc}", "red")
        return 1
    finally:
        client.close()
    console.print(f"  ✓ reachable: {client.url} ({len(models)} models)", "green")
    if model_listed(settings.model, models):
        console.print(f"  ✓ model {settings.model} is listed", "green")
        return 0
    listed = ", ".join(models[:8]) + (" …" if len(models) > 8 else "")
    console.print(f"  ✗ model {settings.model} is not listed (listed: {listed or 'none'})", "red")
    return 1


def _folder(settings: Settings, console: Console) -> None:
    home = settings.home
    mode = stat.S_IMODE(home.stat().st_mode)
    if mode & 0o077:  # e.g. after `cp -r`: the next write tightens it; nothing to fix by hand
        console.print(f"  ! folder {home} mode {mode:o}: palace makes it 700 at its next write", "yellow")
    else:
        console.print(f"  ✓ folder {home} mode {mode:o}", "green")


def _memories(settings: Settings, console: Console) -> int:
    """Problems found in memories.md (0 or 1)."""
    from palace.memory.lint import lint_file
    from palace.memory.store import MemoryStore

    store = MemoryStore(settings.home)
    file = store.file
    if not os.path.lexists(file):
        console.print("  ! memories.md does not exist yet (the first save creates it)", "yellow")
        return 0
    target = store.target
    if target != file:
        console.print(f"  memories.md is a symlink: palace reads and writes {target}")
    try:
        st = target.stat()
    except OSError as exc:
        console.print(f"  ✗ {target} cannot be read: {exc.strerror}", "red")
        return 1
    if st.st_nlink > 1:
        console.print(f"  memories.md has {st.st_nlink} hard links: palace rewrites it in place so all see changes")
    try:
        report = lint_file(
            file, entry_limit=settings.entry_limit, soft_limit=settings.soft_limit, budget=settings.memory_budget
        )
    except PalaceError as exc:
        console.print(f"  ✗ {exc}", "red")
        return 1
    rendered = store.render(settings.wing, settings.memory_budget)
    fmode = stat.S_IMODE(st.st_mode)
    entries = f"{report.entries} entr{'y' if report.entries == 1 else 'ies'}"
    console.print(
        f"  {'✓' if not fmode & 0o077 else '!'} memories.md mode {fmode:o}, {entries}, "
        f"{rendered.size:,} of {settings.memory_budget:,} prompt bytes"
        + (f", {rendered.left_out} left out" if rendered.left_out else "")
    )
    for problem in report.problems:
        console.print(f"    {problem}", "red" if problem.severity == "error" else "yellow")
    return 1 if report.has_errors else 0


def _sessions(settings: Settings, console: Console) -> None:
    """How many sessions, and the files of sessions/ that are no session's (every command ignores them)."""
    from palace.paths import session_file

    try:
        names = sorted(os.listdir(settings.sessions_dir))
    except OSError:
        names = []
    kinds = [session_file(name) for name in names]
    archives = sum(1 for k in kinds if k is not None and k.kind == "archive")
    journals = sum(1 for k in kinds if k is not None and k.kind == "journal")
    console.print(f"  sessions: {archives} archived, {journals} journals")
    ignored = [name for name, kind in zip(names, kinds, strict=True) if kind is None and not name.startswith(".")]
    if ignored:
        shown = ", ".join(ignored[:8]) + (f" and {len(ignored) - 8} more" if len(ignored) > 8 else "")
        console.print(
            f"  ! sessions/ holds {len(ignored)} file(s) that no command reads (a session's files are named "
            f"YYYY-MM-DD-<8 hex digits>.md or .jsonl): {shown}",
            "yellow",
        )


def run_doctor(settings: Settings, console: Console) -> int:
    """Print a health report; exit 1 when something needs fixing."""
    _settings(settings, console)
    problems = _endpoint(settings, console)
    console.print("Palace:", "bold")
    home = settings.home
    if not home.exists():
        console.print(f"  ! {home} does not exist yet — `palace init` creates it", "yellow")
        return 1 if problems else 0
    _folder(settings, console)
    problems += _memories(settings, console)
    _sessions(settings, console)
    git = (home / ".git").exists()
    console.print(f"  history: {'git repository' if git else 'not a git repository (palace init --git)'}")
    return 1 if problems else 0
