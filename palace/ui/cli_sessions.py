"""`palace sessions ...` and `palace import-transcript`: the archived sessions (cold memory)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from palace.app import App

if TYPE_CHECKING:
    import argparse
    from pathlib import Path

    from palace.config import Settings
    from palace.ui.console import Console


def sessions_command(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    if args.action == "search":  # the catalog is not needed for it: its imports cost a search a tenth
        _search(args, settings, console)
        return 0
    from palace.sessions.catalog import find_journal, list_sessions, show_session, transcript
    from palace.ui.console import change_line

    if args.action == "list":
        infos = list_sessions(settings.home)
        if not infos:
            console.print("No sessions yet.")
        for info in infos:
            summary = (info.summary or "").splitlines()[0] if info.summary else ""
            mark = "" if info.archived else "  (not archived yet)"
            turns = f"{info.turns} turn{'' if info.turns == 1 else 's'}"
            console.print(f"{info.date}  {info.id}  {turns:>9}  {summary[:90]}{mark}")
    elif args.action == "show":
        from palace.ui.pager import page

        console.end_line()
        page(transcript(settings.home, args.id) if args.transcript else show_session(settings.home, args.id))
    elif args.action == "extract":
        from palace.sessions.journal import Journal

        app = App(settings, warn=console.warn)
        journal = Journal.load(find_journal(settings.home, args.id))
        extractor = app.extractor()
        outcome = extractor.extract(journal, force=True)
        if outcome is None:
            console.print("Nothing extracted.")
            return 1
        for result in outcome.results:
            console.print(change_line(result), "green")
        if outcome.dropped:
            console.warn(f"{outcome.dropped} invalid item(s) dropped")
        archive = app.finish(extractor, journal)
        if archive:
            console.info(f"Archive updated: {archive}")
    return 0


def _search(args: argparse.Namespace, settings: Settings, console: Console) -> None:
    """The matches in the active wings (and the wing-less); then how many other wings hold, and how to see them."""
    from palace.app import detect_wings
    from palace.recall.scope import default_wings

    app = App(settings, warn=console.warn)
    wings = None if args.all_wings else default_wings(detect_wings(settings))  # --wing: in settings (_flags)
    try:
        query = " ".join(args.query)
        text = app.recall_text(
            query, limit=args.limit, since=args.since, until=args.until, max_bytes=16384, wings=wings
        )
        console.print(text)
        note = _elsewhere(app, query, args, wings) if wings is not None else ""
        if note:
            console.info(note)
    finally:
        app.close()


def _elsewhere(app: App, query: str, args: argparse.Namespace, wings: list[str]) -> str:
    """The note on the matches a search of these wings left out, from one search of every wing ("" for none)."""
    from palace.errors import RecallError
    from palace.recall.rank import MAX_LIMIT
    from palace.recall.scope import Scope, left_out, left_out_note

    try:
        hits = app.recall.search(
            query, limit=MAX_LIMIT, since=args.since, until=args.until, wings=None, shown=False, catch_up=False
        )
    except RecallError:
        return ""  # the search itself said what was wrong
    scope = Scope.of(wings)
    total = sum(1 for hit in hits if not scope.allows(hit.wings))
    return left_out_note(total, left_out([hit.wings for hit in hits], scope), more=len(hits) >= MAX_LIMIT)


def import_transcript_command(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from pathlib import Path

    from palace.sessions.importer import import_transcript

    written = import_transcript(settings.home, Path(args.file), day=args.date, wing=args.wing)
    for session in written:
        count = session.messages
        state = "already imported" if session.existed else f"{count} message{'s' if count != 1 else ''}"
        console.print(f"{session.id}  {state}  {session.journal.name}, {session.archive.name}")
    added = sum(not s.existed for s in written)
    console.info(f"{added} session(s) imported, {len(written) - added} already there")
    fresh = [s for s in written if not s.existed]
    if fresh and args.extract:
        _propose_facts(settings, console, [s.journal for s in fresh])
    return 0


def _propose_facts(settings: Settings, console: Console, journals: list[Path]) -> None:
    """Extraction of imported sessions, everything through review (nothing saved unasked)."""
    from palace.errors import LLMError
    from palace.record import replace
    from palace.sessions.journal import Journal

    app = App(replace(settings, auto_save="none"), warn=console.warn)
    if app.endpoint_host() is None:
        console.info("no model is configured: `palace sessions extract ID` proposes a session's facts later")
        return
    extractor = app.extractor()
    proposed = 0
    try:
        for path in journals:
            journal = Journal.load(path)
            outcome = extractor.extract(journal, force=True)
            if outcome is not None:
                proposed += len(outcome.proposed)
                app.finish(extractor, journal)
    except LLMError as exc:
        console.warn(f"extraction stopped ({exc}); `palace sessions extract ID` goes on later")
    finally:
        app.close()
    console.info(f"{proposed} fact(s) proposed for review: `palace memory review`")
