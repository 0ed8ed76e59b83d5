"""The command line's parser: every subcommand and its flags, declared once; built whole (for --help and
completion) or only for the command about to run (argparse builds each subparser at once, most of a short
command's own time)."""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
from datetime import date
from typing import Any, NoReturn

from palace import __version__

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def _until(text: str, today: date | None = None) -> date:
    """An end date: YYYY-MM-DD, or a month's name for the last day of its next coming (`March`)."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        pass
    word = text.strip().casefold()[:3]
    if word not in _MONTHS:
        raise argparse.ArgumentTypeError(f"{text!r} is not an end date: give YYYY-MM-DD, or a month such as March")
    today = today or date.today()
    month = _MONTHS.index(word) + 1
    year = today.year + (1 if month < today.month else 0)
    following = date(year + month // 12, month % 12 + 1, 1)
    return date.fromordinal(following.toordinal() - 1)


def _date(text: str) -> date:
    """A date as given on the command line: YYYY-MM-DD, or one counted back from today ("yesterday",
    "3 days ago", "last week": the first day of the time named)."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        pass
    day = relative_day(" ".join(text.casefold().split()), date.today())
    if day is None:
        raise argparse.ArgumentTypeError(
            f'{text!r} is not a date: give YYYY-MM-DD, or today, yesterday, "3 days ago", "last week", "June 2026"'
        )
    return day


_UNIT_DAYS = {"day": 1, "week": 7}


def relative_day(text: str, today: date) -> date | None:
    """The first day of a time named relative to today (lower-case, single spaces), or None."""
    from datetime import timedelta

    named = {"today": 0, "yesterday": 1, "this week": today.weekday(), "last week": today.weekday() + 7}
    if text in named:
        return today - timedelta(days=named[text])
    ago = re.fullmatch(r"(\d+|an?|one) (day|week|month|year)s? ago", text)
    if ago is not None:
        count = int(ago.group(1)) if ago.group(1).isdigit() else 1
        unit = ago.group(2)
        if unit in _UNIT_DAYS:
            return today - timedelta(days=count * _UNIT_DAYS[unit])
        return _months_back(today, count * (12 if unit == "year" else 1))
    if text in {"this month", "last month"}:
        return _months_back(today, 1 if text == "last month" else 0).replace(day=1)
    if text in {"this year", "last year"}:
        return date(today.year - (text == "last year"), 1, 1)
    from palace.recall.dates import query_date  # a named time: "June 2026", "3 June 2026", "昨天"

    hint = query_date(text, today)
    return date.fromisoformat(hint.low) if hint is not None and hint.low else None


def _months_back(today: date, months: int) -> date:
    """The same day `months` months earlier (the month's last day when it has no such day)."""
    import calendar

    year, month = divmod(today.year * 12 + today.month - 1 - months, 12)
    return date(year, month + 1, min(today.day, calendar.monthrange(year, month + 1)[1]))


def _completes(action: argparse.Action | None, kind: str) -> None:
    """Mark an argument for shell completion from the palace: `paths`, `sessions` or `wings` (ui/shells.py)."""
    if action is not None:  # None: its command is declared, not built
        action.complete_with = kind  # type: ignore[attr-defined]


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
    wing = parser.add_argument(
        "--wing",
        action="append",
        help="a project or person whose memories to load; repeat for several (default: the git repo's name)",
    )
    _completes(wing, "wings")
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
    if not _COMMAND_NAMES:  # declared into nothing: no argparse parser is built for the names alone
        sub = _Commands(_Skipped(), "")
        _subcommands(sub, None)
        _COMMAND_NAMES.extend(sub.names)
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
    actions = _subcommands(sub, action)
    return parser, sub.names, actions


def _subcommands(sub: _Commands, action: str | None) -> list[str]:
    """Declare every subcommand into sub; the names of the actions of the one sub builds (all declared)."""
    chat = sub.add_parser("chat", help="chat with the model (the default)")
    _model_flags(chat)
    resume = chat.add_argument(
        "--resume",
        nargs="?",
        const=True,
        default=False,
        metavar="ID",
        help="continue the latest session, or the one with this id",
    )
    _completes(resume, "sessions")
    ask = sub.add_parser(
        "ask", help="one message, one reply on stdout; piped stdin is added to the message", description=_ASK_HELP
    )
    _model_flags(ask)
    ask.add_argument("message", nargs="*", help="what to say (piped stdin follows it)")
    ask.add_argument("--json", action="store_true", help="print one JSON object: answer, session, tokens, changes")

    memory = sub.add_parser("memory", help="read and change memories.md")
    # Not required: `palace memory` alone lists the actions (ui/cli.py), rather than argparse's error.
    msub = _Commands(memory.add_subparsers(dest="action", metavar="ACTION"), action)
    show = msub.add_parser("show", help="the memory as the model sees it")
    shown = show.add_argument(
        "--wing", action="append", help="show this wing's memories with the shared halls (repeatable)"
    )
    _completes(shown, "wings")
    show.add_argument("--raw", action="store_true", help="print the file exactly as it is")
    show.add_argument("--stats", action="store_true", help="each entry with how often it was confirmed or recalled")
    show.add_argument("--expiring", action="store_true", help="the entries that end within 30 days")
    msub.add_parser("path", help="print the path of memories.md")
    save = msub.add_parser("save", help="save an entry: palace memory save PATH CONTENT")
    _completes(save.add_argument("path", help="Hall/room or wing/Hall/room"), "paths")
    save.add_argument("content", nargs="+", help="one short sentence")
    save.add_argument("--replaces", help="the text of the entry this one replaces")
    save.add_argument(
        "--until", type=_until, help="the last day it holds (YYYY-MM-DD, or a month: March): past it, it leaves memory"
    )
    tidy = msub.add_parser("tidy", help="propose merges, replacements and removals for review (nothing written)")
    tidy.add_argument(
        "--model", dest="use_model", action="store_true", help="also ask the configured model for proposals"
    )
    tidy.add_argument("--stale-days", type=int, help="propose removing entries unused this long (memory.stale_days)")
    why = msub.add_parser("why", help="where an entry came from: who saved it, the message, its uses and commits")
    _completes(why.add_argument("path"), "paths")
    why.add_argument("content", nargs="+", help="the entry's text (a line copied with its `- [date]` is fine)")
    forget = msub.add_parser("forget", help="remove an entry: palace memory forget PATH CONTENT")
    _completes(forget.add_argument("path"), "paths")
    forget.add_argument("content", nargs="+", help="the entry's text (a line copied with its `- [date]` is fine)")
    forget.add_argument(
        "--secret", action="store_true", help="it is a secret: superseded.md keeps only that one was removed"
    )
    lint = msub.add_parser("lint", help="check memories.md (exit 1 on errors; usable as a pre-commit hook)")
    lint.add_argument("file", nargs="?", help="a memories file to check instead of the palace's")
    msub.add_parser("undo", help="revert the last change palace made")
    msub.add_parser("edit", help="open memories.md in $VISUAL/$EDITOR, then check it")
    review = msub.add_parser("review", help="accept, edit or reject what extraction proposed (review.md)")
    review.add_argument(
        "words", nargs="*", metavar="ACTION", help="list | accept N... | accept all | reject N... | edit N TEXT"
    )
    scrub = msub.add_parser(
        "scrub", help="remove a secret everywhere in the palace: its files, derived data and git history"
    )
    scrub.add_argument("text", help="the secret itself, as it was written (quote it)")
    scrub.add_argument("--yes", action="store_true", help="do not ask for the typed confirmation")
    clear = msub.add_parser("clear", help="remove every entry (kept in superseded.md; undoable)")
    clear.add_argument("--yes", action="store_true", help="do not ask for the typed confirmation")
    clear.add_argument("--all", dest="everything", action="store_true", help="your own notes too: empty the file")

    sessions = sub.add_parser("sessions", help="archived sessions (cold memory)")
    ssub = _Commands(sessions.add_subparsers(dest="action", metavar="ACTION"), action)  # alone: lists them
    ssub.add_parser("list", help="sessions, newest first")
    sshow = ssub.add_parser("show", help="one session's archive, or with --transcript its conversation")
    _completes(sshow.add_argument("id"), "sessions")
    sshow.add_argument("--transcript", action="store_true", help="the messages themselves (paged on a terminal)")
    search = ssub.add_parser(
        "search",
        help="search sessions and memories",
        description="Search archived sessions and memory entries (superseded ones labelled so) of the current "
        "wing(s) and everything without a wing (every wing when none is current); each hit says its wing.",
    )
    search.add_argument("query", nargs="+")
    search.add_argument("--limit", type=int, default=5)
    search.add_argument("--since", type=_date, help='YYYY-MM-DD, or "yesterday", "3 days ago", "last week"')
    search.add_argument("--until", type=_date, help="YYYY-MM-DD, or a relative date like --since")
    scope = search.add_mutually_exclusive_group()
    searched = scope.add_argument(
        "--wing", action="append", help="search this wing (and the wing-less) instead of the current one; repeatable"
    )
    _completes(searched, "wings")
    scope.add_argument("--all-wings", dest="all_wings", action="store_true", help="search every wing")
    extract = ssub.add_parser("extract", help="run memory extraction on a session again")
    _completes(extract.add_argument("id"), "sessions")

    imported = sub.add_parser(
        "import-transcript",
        help="import a dated conversation (markdown or JSON lines) as archived sessions named by their dates",
        description="Import a conversation held elsewhere as palace sessions (a journal and an archive each), "
        "dated by when it happened, so recall's since/until and dates in questions work for it. JSON lines: one "
        'message a line, {"role": "user"|"assistant"|<speaker name>, "content": "...", "date": "2023-05-08"} '
        '(date optional: ISO 8601 or "1:56 pm on 8 May, 2023"); a line with a date and no content starts a new '
        "session. Markdown: `user:` / `assistant:` (or **User:**, ## Assistant) start messages; a heading or "
        "`Date:` line holding a date starts a session. A new session also starts where the date changes. "
        "A ChatGPT or Claude.ai data export's conversations.json is read as it is: one session per conversation, "
        "dated by its messages. With a model configured, each new session's facts are proposed for review "
        "(palace memory review). Importing the same file again adds nothing.",
    )
    imported.add_argument("file", help="the transcript (.jsonl, .json or .md)")
    imported.add_argument("--date", type=_date, help="the date of messages that carry none (YYYY-MM-DD)")
    _completes(imported.add_argument("--wing", help="the wing the sessions belong to"), "wings")
    imported.add_argument(
        "--no-extract", dest="extract", action="store_false", help="do not propose their facts for review"
    )
    init = sub.add_parser("init", help="create the palace folder and a starter memories.md")
    init.add_argument("--git", action="store_true", help="also make it a git repository that records each change")
    init.add_argument(
        "--project",
        action="store_true",
        help="create a shared project memory, .palace/memories.md, in the current git repository",
    )
    sync = sub.add_parser("sync", help="share the palace through git: pull, merge and push memories and archives")
    sync.add_argument("--remote", metavar="URL", help="set the git remote (origin) first: a path or any git URL")
    sync.add_argument(
        "--force", action="store_true", help="after `palace memory scrub`: replace the remote's older history"
    )
    driver = sub.add_parser("merge-driver", help="(internal) git's merge driver for memories.md")
    for name in ("base", "ours", "theirs", "name"):
        driver.add_argument(name)
    log = sub.add_parser("log", help="the history of memories.md")
    log.add_argument("--since", type=_date, help='YYYY-MM-DD, or "yesterday", "2 days ago", "last week"')
    demo = sub.add_parser("demo", help="the whole loop offline, against a bundled scripted model")
    demo.add_argument("--keep", action="store_true", help="keep the demo palace afterwards (its path is printed)")
    sub.add_parser("doctor", help="settings in effect, endpoint reachability, palace health")
    prompts = sub.add_parser("prompts", help="the packaged prompts, and copying one into $PALACE_HOME/prompts/")
    prompts.add_argument("copy", nargs="?", choices=("copy",), help="copy NAME into $PALACE_HOME/prompts/ to edit it")
    prompts.add_argument("name", nargs="?", help="the prompt to copy (system.md, extract.md, ...)")
    prompts.add_argument("--force", action="store_true", help="copy over an override you already have")
    shell = sub.add_parser("completion", help="print a shell completion script: palace completion bash|zsh|fish")
    shell.add_argument("shell", nargs="?", choices=("bash", "zsh", "fish"))
    # What the scripts call on TAB: the palace's memory paths, session ids or wings that start with --word.
    shell.add_argument("--complete", choices=("paths", "sessions", "wings"), help=argparse.SUPPRESS)
    shell.add_argument("--word", default="", help=argparse.SUPPRESS)
    _agent_commands(sub)
    return {"memory": msub.names, "sessions": ssub.names}.get(sub.only or "", [])


def _agent_commands(sub: Any) -> None:
    """`palace mcp`, `hook`, `export` and `import`: the palace for other agents (palace/mcp/)."""
    wing = "the wing (project or person) to use; repeatable (default: the git repo's name)"
    mcp = sub.add_parser("mcp", help="serve the memory to other agents over MCP on stdio (needs palace[mcp])")
    _completes(mcp.add_argument("--wing", action="append", help=wing + ", else the client's workspace roots"), "wings")
    hook = sub.add_parser("hook", help="a Claude Code hook: session-start | session-end | pre-compact (JSON on stdin)")
    hook.add_argument("event", nargs="?", default="", help="session-start, session-end or pre-compact")
    _completes(hook.add_argument("--wing", action="append", help=wing + " of the session's cwd"), "wings")
    export = sub.add_parser("export", help="write the memory into the palace block of an AGENTS.md or CLAUDE.md")
    formats = export.add_subparsers(dest="format", metavar="FORMAT")  # alone: lists the formats
    agents = formats.add_parser(
        "agents-md",
        help="the palace block of AGENTS.md (or CLAUDE.md, any markdown file): the repository's wing and its "
        "project memory",
    )
    agents.add_argument("file", nargs="?", default="AGENTS.md", help="the file (default: ./AGENTS.md)")
    _completes(
        agents.add_argument("--wing", action="append", help="the wing to export (default: the file's repository's)"),
        "wings",
    )
    agents.add_argument(
        "--include-personal",
        dest="include_personal",
        action="store_true",
        help="add your shared halls (Preferences and the rest, in no wing): the file is usually committed",
    )
    imports = sub.add_parser("import", help="propose the bullet facts of a CLAUDE.md, AGENTS.md or .cursorrules")
    imports.add_argument("file", help="the file to read")
    _completes(imports.add_argument("--wing", action="append", help=wing + " of the file's folder"), "wings")


_ASK_HELP = """One message, one reply. The reply alone goes to stdout (notices to stderr), so
`$(palace ask "...")` captures the answer; text piped in is added after the message:
`git diff | palace ask "review this"`. --json prints one object for scripts."""
