"""`palace memory ...`: show, save, forget, lint, undo, edit, review and clear memories.md."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from palace.app import App

if TYPE_CHECKING:
    import argparse

    from palace.config import Settings
    from palace.memory.ops import ChangeResult
    from palace.ui.console import Console


def memory_command(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from palace.ui.console import change_line

    app = App(settings, warn=console.warn)
    store = app.store
    action = args.action
    if action == "path":
        console.print(str(store.file))
    elif action == "show":
        if args.raw:
            sys.stdout.buffer.write(store.read_bytes())
            sys.stdout.flush()
            return 0
        if args.stats:
            return _stats(app, console)
        if args.expiring:
            return _expiring(app, console)
        store.document()  # an unreadable file is an error here, not an empty memory
        from palace.app import detect_wings

        rendered = store.render(detect_wings(settings), settings.memory_budget)
        if rendered.warning:
            console.warn(rendered.warning)
        console.print(rendered.text)
        _show_project(app, console)
    elif action in {"save", "forget"}:
        content = " ".join(args.content)
        targets = app.targets  # the project's wing may go to the repository's shared memory
        if action == "save":
            until = args.until.isoformat() if args.until is not None else None
            result = targets.save(args.path, content, args.replaces, by="user", until=until)
        else:
            result = targets.forget(args.path, content, by="user", secret=args.secret)
        console.print(change_line(result), "green")
    elif action == "lint":
        return lint_command(args.file, settings, console)
    elif action == "undo":
        console.print(f"↶ {app.undo()}", "green")
    elif action == "edit":
        return _edit(app, console)
    elif action == "review":
        return _review(app, args.words, console)
    elif action == "clear":
        return _clear(app, console, yes=args.yes, everything=args.everything)
    elif action == "scrub":
        return _scrub(app, console, args.text, yes=args.yes)
    elif action == "tidy":
        from palace.ui.tidy import tidy_command

        return tidy_command(app, console, use_model=args.use_model, stale_days=args.stale_days)
    elif action == "why":
        from palace.sessions.provenance import why

        for line in why(store, args.path, " ".join(args.content)).lines():
            console.print(line)
    return 0


def _show_project(app: App, console: Console) -> None:
    """The project memory of the repository around the working directory, under its own heading."""
    targets = app.targets
    if targets.project is None or targets.project_memory is None:
        return
    rendered = targets.project_memory.render(None, app.settings.memory_budget)
    where = "saves about it go there" if targets.to_project else "saves go to your own palace (project.saves)"
    console.info(f"— project memory of {targets.project.name}: {targets.project.file} ({where})")
    if rendered.warning:
        console.warn(rendered.warning)
    console.print(rendered.text.strip("\n") or "(nothing yet)")


def _expiring(app: App, console: Console) -> int:
    """The entries that end within 30 days, soonest first (and those that ended already, if any are left)."""
    from palace.memory.expiry import EXPIRING_DAYS, expired, expiring

    doc = app.store.document()
    today = app.store.today().isoformat()
    ending = expired(doc, today) + expiring(doc, today)
    if not ending:
        console.print(f"nothing ends within {EXPIRING_DAYS} days")
        return 0
    for entry in ending:
        state = "ended" if entry.until is not None and entry.until < today else "ends"
        console.print(f"{state} {entry.until}  {entry.path}: {entry.content}")
    return 0


def _stats(app: App, console: Console) -> int:
    """Every entry with its reuse: times confirmed, times recalled, last used; most used first."""
    counts = app.store.reuse.load()
    from palace.memory.reuse import Uses, key_of

    rows = []
    for entry in app.store.document().entries:
        if entry.path is not None:
            uses = counts.get(key_of(entry.path, entry.content), Uses())
            rows.append((uses, entry))
    rows.sort(key=lambda row: (-row[0].total, str(row[1].path)))
    console.print(f"{'confirmed':>9} {'recalled':>8}  {'last used':<10}  entry")
    for uses, entry in rows:
        console.print(f"{uses.confirmed:>9} {uses.recalled:>8}  {uses.last or '—':<10}  {entry.path}: {entry.content}")
    console.info(f"— {len(rows)} entries; counts are derived data in {app.store.reuse.file}")
    return 0


def _show_change(console: Console) -> Callable[[ChangeResult], None]:
    return lambda result: console.print(f"{result.symbol} {result.message}", "green")


def _review(app: App, words: list[str], console: Console) -> int:
    from palace.memory.review import ReviewQueue
    from palace.ui import review

    queue = ReviewQueue(app.settings.home)
    if not words and sys.stdin.isatty() and queue.pending():
        review.interactive(app.store, queue, console, _show_change(console))
    else:
        review.run(" ".join(words), app.store, queue, console, _show_change(console), review.SHELL)
    return 0


def _clear(app: App, console: Console, *, yes: bool, everything: bool) -> int:
    from palace.errors import PalaceError
    from palace.memory.document import Document

    count = sum(1 for e in Document.parse(app.store.read_bytes()).entries if e.path is not None)
    what = "the whole of memories.md" if everything else f"all {count} entries (your own notes stay)"
    if not yes:
        if not sys.stdin.isatty():
            raise PalaceError(f"this removes {what}; say --yes to do it without a terminal")
        if input(f"This removes {what}. Type 'clear' to go on: ").strip() != "clear":
            console.print("Nothing cleared.")
            return 1
    cleared = app.store.clear(everything=everything)
    console.print(f"⌫ Cleared {cleared.counted} (kept in superseded.md; `palace memory undo` puts them back)")
    return 0


def _scrub(app: App, console: Console, text: str, *, yes: bool) -> int:
    from palace.errors import PalaceError
    from palace.history.scrub import scrub

    what = "rewrites the palace's git history and deletes derived data that holds the text; it cannot be undone"
    if not yes:
        if not sys.stdin.isatty():
            raise PalaceError(f"scrub {what}; say --yes to do it without a terminal")
        if input(f"Scrub {what}. Type 'scrub' to go on: ").strip() != "scrub":
            console.print("Nothing scrubbed.")
            return 1
    outcome = scrub(app.store, text, flush=app.history.flush)
    for line in outcome.lines():
        console.print(f"palace memory scrub: {line}")
    return 0


def _edit(app: App, console: Console) -> int:
    from palace.app import init_palace
    from palace.ui.editor import open_editor

    store = app.store
    if not store.file.exists():
        init_palace(app.settings.home, git=False)
    code = open_editor(store.file, notice=console.info)
    with store.lock():
        app.history.commit_pending(store.file)
    status = lint_command(None, app.settings, console)
    return code or status


def lint_command(file: str | None, settings: Settings, console: Console) -> int:
    from pathlib import Path

    from palace.memory.lint import lint_file

    path = Path(file) if file else settings.memories_file
    report = lint_file(
        path, entry_limit=settings.entry_limit, soft_limit=settings.soft_limit, budget=settings.memory_budget
    )
    for problem in report.problems:
        stream = console.err if problem.severity == "error" else console.out
        stream.write(f"{problem}\n")
    console.print(report.summary)
    return 1 if report.has_errors else 0
