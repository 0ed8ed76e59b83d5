"""The `palace` command line. Heavy modules are imported inside the commands so --help starts fast."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

from palace import __version__

if TYPE_CHECKING:
    from palace.app import App
    from palace.config import Settings
    from palace.ui.console import Console

Handler = Callable[[argparse.Namespace, "Settings", "Console"], int]


def _date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date (YYYY-MM-DD)") from exc


def _model_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", help="model name (env PALACE_MODEL)")
    parser.add_argument("--base-url", dest="base_url", help="OpenAI-compatible endpoint (env OPENAI_BASE_URL)")
    parser.add_argument("--wing", help="the project or person whose memories to load (default: the git repo's name)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="palace",
        description="A terminal agent that remembers: memories live in $PALACE_HOME/memories.md (a memory palace).",
        epilog="Run `palace demo` to see the whole loop offline. With no command, `palace chat` runs.",
    )
    parser.add_argument("--version", action="version", version=f"palace {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    chat = sub.add_parser("chat", help="chat with the model (the default)")
    _model_flags(chat)
    chat.add_argument(
        "--resume",
        nargs="?",
        const=True,
        default=False,
        metavar="ID",
        help="continue the latest session, or the one with this id",
    )
    ask = sub.add_parser("ask", help="one message, one reply; the session is archived")
    _model_flags(ask)
    ask.add_argument("message", help="what to say")

    memory = sub.add_parser("memory", help="read and change memories.md")
    msub = memory.add_subparsers(dest="action", metavar="ACTION", required=True)
    show = msub.add_parser("show", help="the memory as the model sees it")
    show.add_argument("--wing", help="show this wing's memories with the shared halls")
    show.add_argument("--raw", action="store_true", help="print the file exactly as it is")
    msub.add_parser("path", help="print the path of memories.md")
    save = msub.add_parser("save", help="save an entry: palace memory save PATH CONTENT")
    save.add_argument("path", help="Hall/room or wing/Hall/room")
    save.add_argument("content", nargs="+", help="one short sentence")
    save.add_argument("--replaces", help="the text of the entry this one replaces")
    forget = msub.add_parser("forget", help="remove an entry: palace memory forget PATH CONTENT")
    forget.add_argument("path")
    forget.add_argument("content", nargs="+")
    lint = msub.add_parser("lint", help="check memories.md (exit 1 on errors; usable as a pre-commit hook)")
    lint.add_argument("file", nargs="?", help="a memories file to check instead of the palace's")
    msub.add_parser("undo", help="revert the last change palace made")
    msub.add_parser("edit", help="open memories.md in $VISUAL/$EDITOR, then check it")

    sessions = sub.add_parser("sessions", help="archived sessions (cold memory)")
    ssub = sessions.add_subparsers(dest="action", metavar="ACTION", required=True)
    ssub.add_parser("list", help="sessions, newest first")
    sshow = ssub.add_parser("show", help="one session's archive")
    sshow.add_argument("id")
    search = ssub.add_parser("search", help="search sessions and memories")
    search.add_argument("query", nargs="+")
    search.add_argument("--limit", type=int, default=5)
    search.add_argument("--since", type=_date)
    search.add_argument("--until", type=_date)
    extract = ssub.add_parser("extract", help="run memory extraction on a session again")
    extract.add_argument("id")

    imported = sub.add_parser(
        "import-transcript",
        help="import a dated conversation (markdown or JSON lines) as archived sessions named by their dates",
        description="Import a conversation held elsewhere as palace sessions (a journal and an archive each), "
        "dated by when it happened, so recall's since/until and dates in questions work for it. JSON lines: one "
        'message a line, {"role": "user"|"assistant"|<speaker name>, "content": "...", "date": "2023-05-08"} '
        '(date optional: ISO 8601 or "1:56 pm on 8 May, 2023"); a line with a date and no content starts a new '
        "session. Markdown: `user:` / `assistant:` (or **User:**, ## Assistant) start messages; a heading or "
        "`Date:` line holding a date starts a session. A new session also starts where the date changes. "
        "Importing the same file again adds nothing.",
    )
    imported.add_argument("file", help="the transcript (.jsonl, .json or .md)")
    imported.add_argument("--date", type=_date, help="the date of messages that carry none (YYYY-MM-DD)")
    imported.add_argument("--wing", help="the wing the sessions belong to")
    init = sub.add_parser("init", help="create the palace folder and a starter memories.md")
    init.add_argument("--git", action="store_true", help="also make it a git repository that records each change")
    log = sub.add_parser("log", help="the history of memories.md")
    log.add_argument("--since", type=_date)
    sub.add_parser("demo", help="the whole loop offline, against a bundled scripted model")
    sub.add_parser("doctor", help="settings in effect, endpoint reachability, palace health")
    return parser


def _flags(args: argparse.Namespace) -> dict[str, Any]:
    return {key: getattr(args, key, None) for key in ("model", "base_url", "wing")}


def _not_utf8(words: Sequence[str]) -> str | None:
    """Why the command line cannot be used as text: an argument with bytes that are not UTF-8 (or None)."""
    for number, word in enumerate(words, 1):
        if re.search("[\ud800-\udfff]", word):  # how Python hands over a byte that does not decode
            try:
                raw = word.encode("utf-8", "surrogateescape")
            except UnicodeEncodeError:
                raw = word.encode("utf-8", "backslashreplace")
            shown = raw.decode("utf-8", "backslashreplace")
            return (
                f'argument {number} ("{shown}") is not valid UTF-8, so it cannot be saved or sent; nothing was done '
                "— pass it as UTF-8 (check the encoding of your terminal or script)"
            )
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: parse, run one command, present errors as `Error: ...` with exit 1."""
    words = list(sys.argv[1:] if argv is None else argv)
    problem = _not_utf8(words)
    if problem is not None:
        from palace.ui.console import Console

        Console().error(problem)
        return 2
    if not words or (words[0].startswith("-") and words[0] not in {"-h", "--help", "--version"}):
        words = ["chat", *words]  # `palace` and `palace --model M` mean `palace chat ...`
    args = build_parser().parse_args(words)
    from palace.errors import PalaceError
    from palace.ui.console import Console

    console = Console()
    try:
        from palace.config import load_settings

        settings = load_settings(_flags(args))
        return int(_HANDLERS[args.command](args, settings, console))
    except PalaceError as exc:
        console.error(str(exc))
        return 1
    except KeyboardInterrupt:
        console.end_line()
        return 130


def _app(settings: Settings, console: Console) -> App:
    from palace.app import App

    return App(settings, warn=console.warn)


def _chat(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from palace.app import detect_wing
    from palace.ui.repl import Repl

    return Repl(_app(settings, console), console, wing=detect_wing(settings), resume=args.resume).run()


def _ask(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from palace.app import detect_wing
    from palace.ui.repl import Repl

    repl = Repl(_app(settings, console), console, wing=detect_wing(settings), interactive=False)
    repl.run([args.message])
    return 1 if repl.failed_turns else 0


def _memory(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    app = _app(settings, console)
    store = app.store
    action = args.action
    if action == "path":
        console.print(str(store.file))
    elif action == "show":
        if args.raw:
            sys.stdout.buffer.write(store.read_bytes())
            sys.stdout.flush()
            return 0
        store.document()  # an unreadable file is an error here, not an empty memory
        rendered = store.render(args.wing or settings.wing, settings.memory_budget)
        if rendered.warning:
            console.warn(rendered.warning)
        console.print(rendered.text)
    elif action in {"save", "forget"}:
        content = " ".join(args.content)
        if action == "save":
            result = store.save(args.path, content, args.replaces, by="user")
        else:
            result = store.forget(args.path, content, by="user")
        console.print(f"{result.symbol} {result.message}", "green")
    elif action == "lint":
        return _lint(args.file, settings, console)
    elif action == "undo":
        from palace.history.undo import undo_last

        console.print(f"↶ {undo_last(store, settings.home)}", "green")
    elif action == "edit":
        return _edit(app, console)
    return 0


def _edit(app: App, console: Console) -> int:
    from palace.app import init_palace
    from palace.ui.editor import open_editor

    store = app.store
    if not store.file.exists():
        init_palace(app.settings.home, git=False)
    code = open_editor(store.file)
    with store.lock():
        app.history.before_write(store.file)
    status = _lint(None, app.settings, console)
    return code or status


def _lint(file: str | None, settings: Settings, console: Console) -> int:
    from pathlib import Path

    from palace.memory.lint import lint_file

    path = Path(file) if file else settings.memories_file
    report = lint_file(path, entry_limit=settings.entry_limit, soft_limit=settings.soft_limit)
    for problem in report.problems:
        stream = console.err if problem.severity == "error" else console.out
        stream.write(f"{problem}\n")
    console.print(report.summary)
    return 1 if report.has_errors else 0


def _sessions(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from palace.sessions.catalog import find_journal, list_sessions, show_session

    if args.action == "list":
        infos = list_sessions(settings.home)
        if not infos:
            console.print("No sessions yet.")
        for info in infos:
            summary = (info.summary or "").splitlines()[0] if info.summary else ""
            mark = "" if info.archived else "  (not archived yet)"
            console.print(f"{info.date}  {info.id}  {info.turns:>3} turns  {summary[:90]}{mark}")
    elif args.action == "show":
        console.print(show_session(settings.home, args.id))
    elif args.action == "search":
        app = _app(settings, console)
        try:
            query = " ".join(args.query)
            console.print(app.recall_text(query, limit=args.limit, since=args.since, until=args.until, max_bytes=16384))
        finally:
            app.close()
    elif args.action == "extract":
        from palace.sessions.journal import Journal

        app = _app(settings, console)
        journal = Journal.load(find_journal(settings.home, args.id))
        extractor = app.extractor()
        outcome = extractor.extract(journal, force=True)
        if outcome is None:
            console.print("Nothing extracted.")
            return 1
        for result in outcome.results:
            console.print(f"{result.symbol} {result.message}", "green")
        if outcome.dropped:
            console.warn(f"{outcome.dropped} invalid item(s) dropped")
        archive = app.finish(extractor, journal)
        if archive:
            console.info(f"Archive updated: {archive}")
    return 0


def _import_transcript(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from pathlib import Path

    from palace.sessions.importer import import_transcript

    written = import_transcript(settings.home, Path(args.file), day=args.date, wing=args.wing)
    for session in written:
        count = session.messages
        state = "already imported" if session.existed else f"{count} message{'s' if count != 1 else ''}"
        console.print(f"{session.id}  {state}  {session.journal.name}, {session.archive.name}")
    added = sum(not s.existed for s in written)
    console.info(f"{added} session(s) imported, {len(written) - added} already there")
    return 0


def _init(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from palace.app import init_palace

    for line in init_palace(settings.home, git=args.git):
        console.print(line)
    return 0


def _log(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from palace.history.log import history_log

    console.print(history_log(settings.home, since=args.since))
    return 0


def _demo(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from palace.ui.demo import run_demo

    return run_demo(console)


def _doctor(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from palace.ui.doctor import run_doctor

    return run_doctor(settings, console)


_HANDLERS: dict[str, Handler] = {
    "chat": _chat,
    "ask": _ask,
    "memory": _memory,
    "sessions": _sessions,
    "import-transcript": _import_transcript,
    "init": _init,
    "log": _log,
    "demo": _demo,
    "doctor": _doctor,
}
