"""The `palace` command line. Heavy modules are imported inside the commands so --help starts fast."""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import re
import sys
from collections.abc import Callable, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any, NoReturn

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


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout, with the terminal's width found without importing shutil (argparse makes a
    formatter for every argument it is given, and shutil costs a `palace memory save` a few ms)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None):
        super().__init__(prog, indent_increment, max_help_position, width or _columns() - 2)


def _columns() -> int:
    """What shutil.get_terminal_size() says the width is: $COLUMNS, else stdout's terminal, else 80."""
    with contextlib.suppress(KeyError, ValueError):
        if int(os.environ["COLUMNS"]) > 0:
            return int(os.environ["COLUMNS"])
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


class _Parser(argparse.ArgumentParser):
    """argparse, with a did-you-mean for a mistyped subcommand (Python 3.11's argparse has none)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)  # subcommands' parsers are made with this class too
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        wrong = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if wrong:
            import difflib

            choices = re.findall(r"'([^']*)'", wrong.group(2))
            close = difflib.get_close_matches(wrong.group(1), choices, n=1)
            if close:
                message += f"; did you mean `{close[0]}`?"
        super().error(message)


def _model_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", help="model name (env PALACE_MODEL)")
    parser.add_argument("--base-url", dest="base_url", help="OpenAI-compatible endpoint (env OPENAI_BASE_URL)")
    parser.add_argument(
        "--wing",
        action="append",
        help="a project or person whose memories to load; repeat for several (default: the git repo's name)",
    )
    parser.add_argument(
        "--no-memory",
        dest="memory_enabled",
        action="store_false",
        default=None,
        help="no memory this session: no memory block, no memory tools, no extraction (env PALACE_MEMORY=off)",
    )


class _Skipped:
    """A subcommand that is declared but not built: what its declaration adds goes nowhere."""

    def add_argument(self, *args: Any, **kwargs: Any) -> None:
        return None

    def add_subparsers(self, **kwargs: Any) -> _Skipped:
        return self

    def add_mutually_exclusive_group(self, **kwargs: Any) -> _Skipped:
        return self

    def add_parser(self, name: str, **kwargs: Any) -> _Skipped:
        return self


class _Commands:
    """The subcommands as they are declared: every one built, or only the one about to run (argparse builds
    each subparser and its arguments at once, ~2 ms a command: most of a `palace memory save`'s own time)."""

    def __init__(self, action: Any, only: str | None) -> None:
        self.action = action
        self.only = only
        self.names: list[str] = []

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        self.names.append(name)
        if self.only is None or name == self.only:
            return self.action.add_parser(name, **kwargs)
        return _Skipped()


def build_parser(only: str | None = None, action: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: every subcommand, or with `only` just that one (the others are left out),
    and of its actions (`memory save`) only `action` when it is one of them."""
    parser, _names, actions = _declare(only, action)
    if action is not None and actions and action not in actions:  # argparse will list the actions: all of them
        parser, _names, actions = _declare(only, None)
    return parser


def command_names() -> list[str]:
    """The subcommands, in the order --help lists them."""
    if not _COMMAND_NAMES:
        _COMMAND_NAMES.extend(_declare("", None)[1])
    return list(_COMMAND_NAMES)


_COMMAND_NAMES: list[str] = []


def _declare(only: str | None, action: str | None) -> tuple[argparse.ArgumentParser, list[str], list[str]]:
    """The parser, the subcommands' names and the names of the actions of `only`'s (all declared)."""
    parser = _Parser(
        prog="palace",
        description="A terminal agent that remembers: memories live in $PALACE_HOME/memories.md (a memory palace).",
        epilog="Run `palace demo` to see the whole loop offline. With no command, `palace chat` runs; "
        '`palace "QUESTION"` is `palace ask "QUESTION"`.',
    )
    parser.add_argument("--version", action="version", version=f"palace {__version__}")
    sub = _Commands(parser.add_subparsers(dest="command", metavar="COMMAND", required=True), only)

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
    ask = sub.add_parser(
        "ask", help="one message, one reply on stdout; piped stdin is added to the message", description=_ASK_HELP
    )
    _model_flags(ask)
    ask.add_argument("message", nargs="*", help="what to say (piped stdin follows it)")
    ask.add_argument("--json", action="store_true", help="print one JSON object: answer, session, tokens, changes")

    memory = sub.add_parser("memory", help="read and change memories.md")
    msub = _Commands(memory.add_subparsers(dest="action", metavar="ACTION", required=True), action)
    show = msub.add_parser("show", help="the memory as the model sees it")
    show.add_argument("--wing", action="append", help="show this wing's memories with the shared halls (repeatable)")
    show.add_argument("--raw", action="store_true", help="print the file exactly as it is")
    show.add_argument("--stats", action="store_true", help="each entry with how often it was confirmed or recalled")
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
    review = msub.add_parser("review", help="accept, edit or reject what extraction proposed (review.md)")
    review.add_argument(
        "words", nargs="*", metavar="ACTION", help="list | accept N... | accept all | reject N... | edit N TEXT"
    )
    clear = msub.add_parser("clear", help="remove every entry (kept in superseded.md; undoable)")
    clear.add_argument("--yes", action="store_true", help="do not ask for the typed confirmation")
    clear.add_argument("--all", dest="everything", action="store_true", help="your own notes too: empty the file")

    sessions = sub.add_parser("sessions", help="archived sessions (cold memory)")
    ssub = _Commands(sessions.add_subparsers(dest="action", metavar="ACTION", required=True), action)
    ssub.add_parser("list", help="sessions, newest first")
    sshow = ssub.add_parser("show", help="one session's archive, or with --transcript its conversation")
    sshow.add_argument("id")
    sshow.add_argument("--transcript", action="store_true", help="the messages themselves (paged on a terminal)")
    search = ssub.add_parser(
        "search",
        help="search sessions and memories",
        description="Search archived sessions and memory entries (superseded ones labelled so) of the current "
        "wing(s) and everything without a wing (every wing when none is current); each hit says its wing.",
    )
    search.add_argument("query", nargs="+")
    search.add_argument("--limit", type=int, default=5)
    search.add_argument("--since", type=_date)
    search.add_argument("--until", type=_date)
    scope = search.add_mutually_exclusive_group()
    scope.add_argument(
        "--wing", action="append", help="search this wing (and the wing-less) instead of the current one; repeatable"
    )
    scope.add_argument("--all-wings", dest="all_wings", action="store_true", help="search every wing")
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
    init.add_argument(
        "--project",
        action="store_true",
        help="create a shared project memory, .palace/memories.md, in the current git repository",
    )
    sync = sub.add_parser("sync", help="share the palace through git: pull, merge and push memories and archives")
    sync.add_argument("--remote", metavar="URL", help="set the git remote (origin) first: a path or any git URL")
    driver = sub.add_parser("merge-driver", help="(internal) git's merge driver for memories.md")
    for name in ("base", "ours", "theirs", "name"):
        driver.add_argument(name)
    log = sub.add_parser("log", help="the history of memories.md")
    log.add_argument("--since", type=_date)
    demo = sub.add_parser("demo", help="the whole loop offline, against a bundled scripted model")
    demo.add_argument("--keep", action="store_true", help="keep the demo palace afterwards (its path is printed)")
    sub.add_parser("doctor", help="settings in effect, endpoint reachability, palace health")
    shell = sub.add_parser("completion", help="print a shell completion script: palace completion bash|zsh|fish")
    shell.add_argument("shell", choices=("bash", "zsh", "fish"))
    _agent_commands(sub)
    actions = {"memory": msub.names, "sessions": ssub.names}.get(only or "", [])
    return parser, sub.names, actions


def _agent_commands(sub: Any) -> None:
    """`palace mcp`, `hook`, `export` and `import`: the palace for other agents (palace/mcp/)."""
    wing = "the wing (project or person) to use; repeatable (default: the git repo's name)"
    mcp = sub.add_parser("mcp", help="serve the memory to other agents over MCP on stdio (needs palace[mcp])")
    mcp.add_argument("--wing", action="append", help=wing + ", else the client's workspace roots")
    hook = sub.add_parser("hook", help="a Claude Code hook: session-start | session-end | pre-compact (JSON on stdin)")
    hook.add_argument("event", nargs="?", default="", help="session-start, session-end or pre-compact")
    hook.add_argument("--wing", action="append", help=wing + " of the session's cwd")
    export = sub.add_parser("export", help="write the memory into the palace block of an AGENTS.md or CLAUDE.md")
    formats = export.add_subparsers(dest="format", metavar="FORMAT", required=True)
    agents = formats.add_parser("agents-md", help="the palace block of AGENTS.md (or CLAUDE.md, any markdown file)")
    agents.add_argument("file", nargs="?", default="AGENTS.md", help="the file (default: ./AGENTS.md)")
    agents.add_argument("--wing", action="append", help=wing + " of the file's folder")
    imports = sub.add_parser("import", help="propose the bullet facts of a CLAUDE.md, AGENTS.md or .cursorrules")
    imports.add_argument("file", help="the file to read")
    imports.add_argument("--wing", action="append", help=wing + " of the file's folder")


_ASK_HELP = """One message, one reply. The reply alone goes to stdout (notices to stderr), so
`$(palace ask "...")` captures the answer; text piped in is added after the message:
`git diff | palace ask "review this"`. --json prints one object for scripts."""

_CHAT_VALUE_FLAGS = frozenset({"--model", "--base-url", "--wing"})
# Commands that finish in a moment: they run without the cyclic garbage collector (reference counting frees
# what they drop; the process ends before cycles matter). The REPL, ask, mcp and the rest keep it.
_SHORT = frozenset({"memory", "sessions", "init", "log", "doctor", "export", "import", "completion"})


def route(words: list[str], commands: list[str]) -> list[str] | str:
    """The words with the command made explicit (`palace` is chat, `palace "question"` is ask), or the
    message for a mistyped command (`palace memroy`: did you mean `memory`?)."""
    if not words:
        return ["chat"]
    first = words[0]
    if first in {"-h", "--help", "--version"} or first in commands:
        return words
    if first == "help":
        return ["--help"]
    if first.startswith("-"):
        return ["ask", *words] if _has_message(words) else ["chat", *words]
    import difflib  # only for a word that is no command

    close = difflib.get_close_matches(first, commands, n=1, cutoff=0.75)
    if close and re.fullmatch(r"[a-z][a-z-]*", first):
        return f"unknown command `{first}`; did you mean `{close[0]}`? (`palace --help` lists the commands)"
    return ["ask", *words]


def _has_message(words: list[str]) -> bool:
    """Chat flags followed by words that are not theirs: `palace --model M "question"`."""
    expect_value = False
    for word in words:
        if expect_value:
            expect_value = False
        elif word == "--resume":
            return False  # its optional ID would read as the message
        elif word in _CHAT_VALUE_FLAGS:
            expect_value = True
        elif not word.startswith("-"):
            return True
    return False


def _flags(args: argparse.Namespace) -> dict[str, Any]:
    flags = {key: getattr(args, key, None) for key in ("model", "base_url", "memory_enabled")}
    wings = getattr(args, "wing", None)
    if wings:  # flags replace the wings of config.toml and the environment
        flags.update(wing=wings[0], wings=wings[1:])
    return flags


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
    names = command_names()
    routed = route(words, names)  # `palace`, `palace --model M`: chat; `palace "question"`: ask
    command = routed[0] if isinstance(routed, list) and routed and routed[0] in names else None
    collecting = gc.isenabled()
    if command in _SHORT:
        gc.disable()  # it would only walk the modules being imported (a tenth of a `palace memory save`)
    try:
        return _main(routed, command)
    finally:
        if collecting:
            gc.enable()


def _main(routed: list[str] | str, command: str | None) -> int:
    parser = build_parser(command, routed[1] if command and len(routed) > 1 else None)
    if isinstance(routed, str):
        parser.print_usage(sys.stderr)
        sys.stderr.write(f"palace: error: {routed}\n")
        return 2
    args = parser.parse_args(routed)
    if args.command == "hook":  # a hook never fails Claude Code: it loads its own settings, says why, exits 0
        from palace.mcp.hooks import run_hook

        return run_hook(args.event, _flags(args), sys.stdin, sys.stdout, sys.stderr)
    if args.command == "merge-driver":  # run by git: needs no settings, so a broken config.toml cannot stop it
        return _merge_driver(args)
    try:
        return _run(args)
    except BrokenPipeError:  # `palace sessions list | head -1`: the reader left; so do we, quietly
        from palace.ui.console import silence

        silence(sys.stdout)
        return 141


def _run(args: argparse.Namespace) -> int:
    from palace.errors import PalaceError
    from palace.ui.console import Console

    console = Console()
    try:
        if args.command == "completion":  # no settings needed, nor a palace
            from palace.ui.shells import completion_script

            sys.stdout.write(completion_script(args.shell, build_parser()))
            return 0
        from palace.config import load_settings

        settings = load_settings(_flags(args))
        return int(_HANDLERS[args.command](args, settings, console))
    except PalaceError as exc:
        console.error(str(exc))
        return 1
    except KeyboardInterrupt:
        console.end_line()
        return 130


def _app(settings: Settings, console: Console, *, background_commits: bool = False) -> App:
    from palace.app import App

    return App(settings, warn=console.warn, background_commits=background_commits)


def _chat(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from palace.app import detect_wings
    from palace.ui.repl import Repl

    app = _app(settings, console, background_commits=True)  # a save returns before git has committed it
    return Repl(app, console, wings=detect_wings(settings), resume=args.resume).run()


def _ask(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from palace.ui.ask import run_ask

    return run_ask(list(args.message), settings, as_json=args.json)


def _memory(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from palace.ui.cli_memory import memory_command

    return memory_command(args, settings, console)


def _sessions(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from palace.ui.cli_sessions import sessions_command

    return sessions_command(args, settings, console)


def _import_transcript(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from palace.ui.cli_sessions import import_transcript_command

    return import_transcript_command(args, settings, console)


def _init(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from palace.app import init_palace

    if args.project:
        return _init_project(console)
    for line in init_palace(settings.home, git=args.git):
        console.print(line)
    return 0


def _init_project(console: Console) -> int:
    from pathlib import Path

    from palace.errors import HistoryError
    from palace.history.git import GitTrouble
    from palace.history.repo import init_project

    try:
        lines = init_project(Path.cwd())
    except GitTrouble as exc:
        raise HistoryError(str(exc)) from exc
    for line in lines:
        console.print(line)
    return 0


def _sync(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from palace.history.sync import sync

    outcome = sync(settings.home, remote=args.remote)
    for line in outcome.lines:
        console.print(f"palace sync: {line}")
    for warning in outcome.warnings:
        console.warn(f"palace sync: {warning}")
    for conflict in outcome.conflicts:
        console.err.write(f"{conflict}\n")
    return outcome.code


def _merge_driver(args: argparse.Namespace) -> int:
    from pathlib import Path

    from palace.history.merge import run_driver

    return run_driver(Path(args.base), Path(args.ours), Path(args.theirs), args.name)


def _log(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from palace.history.log import history_log

    console.print(history_log(settings.home, since=args.since))
    return 0


def _demo(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from palace.ui.demo import run_demo

    return run_demo(console, keep=args.keep)


def _doctor(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from palace.ui.doctor import run_doctor

    return run_doctor(settings, console)


def _mcp(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from palace.app import App
    from palace.errors import PalaceError
    from palace.history.autocommit import stderr_warning

    try:
        from palace.mcp.server import serve
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in {"mcp", "mcp_types", "anyio"}:
            raise
        raise PalaceError("`palace mcp` needs the MCP SDK: pip install 'palace[mcp]' (or pip install mcp)") from exc
    return serve(App(settings, warn=stderr_warning))  # stdout is the protocol's: warnings go to stderr


def _export(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from pathlib import Path

    from palace.app import detect_wings
    from palace.mcp.bridge import export_agents_md

    file = Path(args.file)
    console.print(export_agents_md(_app(settings, console), file, detect_wings(settings, file.absolute().parent)))
    return 0


def _import(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from pathlib import Path

    from palace.app import detect_wing
    from palace.mcp.bridge import propose_from_file

    file = Path(args.file)
    for line in propose_from_file(_app(settings, console), file, detect_wing(settings, file.absolute().parent)):
        console.print(line)
    return 0


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
    "sync": _sync,
    "mcp": _mcp,
    "export": _export,
    "import": _import,
}
