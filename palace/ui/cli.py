"""The `palace` command line. Heavy modules are imported inside the commands so --help starts fast."""

from __future__ import annotations

import atexit
import gc
import os
import sys
from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING, Any, NoReturn

from palace.ui.argv import not_utf8, plain_args, route

if TYPE_CHECKING:
    import argparse
    from pathlib import Path

    from palace.app import App
    from palace.config import Settings
    from palace.ui.console import Console

Handler = Callable[["argparse.Namespace", "Settings", "Console"], int]


# Commands that finish in a moment: they run without the cyclic garbage collector (reference counting frees
# what they drop; the process ends before cycles matter), as does `hook session-start`. The REPL, ask, mcp and the
# rest keep it.
_SHORT = frozenset({"memory", "sessions", "init", "log", "doctor", "export", "import", "completion"})


def _flags(args: argparse.Namespace) -> dict[str, Any]:
    flags = {key: getattr(args, key, None) for key in ("model", "base_url", "memory_enabled")}
    wings = getattr(args, "wing", None)
    if wings:  # flags replace the wings of config.toml and the environment
        flags.update(wing=wings[0], wings=wings[1:])
    return flags


def entry() -> NoReturn:
    """The `palace` program: main(); a short command then ends without the interpreter's teardown."""
    code = main()
    words = sys.argv[1:]
    if _is_short(words if plain_args(words) is not None else route(words, _command_names())) and _only_thread():
        _exit_now(code)
    sys.exit(code)


def _is_short(routed: list[str] | str) -> bool:
    """Whether the routed command line is a command that finishes in a moment (see _SHORT)."""
    if not isinstance(routed, list) or not routed:
        return False
    return routed[0] in _SHORT or routed[:2] == ["hook", "session-start"]  # the other hooks import a transcript


def _only_thread() -> bool:
    """No thread but daemon ones (which a normal exit does not wait for either) is running."""
    threading = sys.modules.get("threading")  # not imported: no thread was started
    if threading is None:
        return True
    main = threading.main_thread()
    return all(thread.daemon for thread in threading.enumerate() if thread is not main)


def _exit_now(code: int) -> NoReturn:
    """End the process once its exit handlers ran and its output is flushed, skipping the garbage collection
    and module cleanup of a normal exit: they only free memory, and cost ~10% of a `palace memory save` (more
    as the palace grows, since they walk every object its parsed memories.md left). Every file palace writes
    is closed (and fsynced) before its command returns, so nothing is left to flush but stdout and stderr."""
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # the reader left, or the stream is closed: nothing more can be shown
            code = code or 141
    os._exit(code)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: parse, run one command, present errors as `Error: ...` with exit 1."""
    words = list(sys.argv[1:] if argv is None else argv)
    problem = not_utf8(words)
    if problem is not None:
        from palace.ui.console import Console

        Console().error(problem)
        return 2
    args = plain_args(words)  # `palace memory save PATH CONTENT` and the like: read without argparse
    names = [words[0]] if args is not None else _command_names()
    routed = words if args is not None else route(words, names)  # `palace`: chat; `palace "question"`: ask
    command = routed[0] if isinstance(routed, list) and routed and routed[0] in names else None
    collecting = gc.isenabled()
    if command is not None and _is_short(routed):
        gc.disable()  # it would only walk the modules being imported (a tenth of a `palace memory save`)
    try:
        return _main(routed, command, args)
    finally:
        if collecting:
            gc.enable()


def _command_names() -> list[str]:
    from palace.ui.parser import command_names

    return command_names()


def __getattr__(name: str) -> Any:
    """The parser's build_parser and command_names, as this module had them, imported when first asked for."""
    if name in {"build_parser", "command_names"}:
        from palace.ui import parser

        return getattr(parser, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _main(routed: list[str] | str, command: str | None, args: argparse.Namespace | None = None) -> int:
    if args is None:  # not one of plain_args's forms: the parser reads it
        from palace.ui.parser import build_parser

        parser = build_parser(command, routed[1] if command and len(routed) > 1 else None)
        if isinstance(routed, str):
            parser.print_usage(sys.stderr)
            sys.stderr.write(f"palace: error: {routed}\n")
            return 2
        args = parser.parse_args(routed)
    group = _GROUPS.get(args.command)
    if group is not None and getattr(args, group) is None:  # `palace memory`: what it can do, not a usage error
        sys.stdout.write(_actions(args.command))
        return 0
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
            return _completion(args)
        from palace.config import load_settings

        settings = load_settings(_flags(args))
        for notice in settings.notices if args.command != "doctor" else ():  # doctor lists them with the rest
            console.err.write(console.style(f"! {notice}", "yellow") + "\n")  # stdout may be a protocol (mcp)
        return int(_HANDLERS[args.command](args, settings, console))
    except PalaceError as exc:
        console.error(str(exc))
        return 1
    except KeyboardInterrupt:
        console.end_line()
        return 130


_GROUPS = {"memory": "action", "sessions": "action", "export": "format"}  # commands that take an action word


def _actions(command: str) -> str:
    """What `palace memory` alone prints: its actions, one a line, with what each does."""
    from palace.ui.parser import build_parser
    from palace.ui.shells import command_tree

    node = next(n for n in command_tree(build_parser(command)) if n.path == (command,))
    width = max(len(name) for name, _ in node.subs)
    lines = [f"palace {command} {_GROUPS[command].upper()}:"]
    lines += [f"  {name:<{width}}  {text}" for name, text in node.subs]
    lines.append(f"(`palace {command} {_GROUPS[command].upper()} --help` tells more of one)")
    return "\n".join(lines) + "\n"


def _completion(args: argparse.Namespace) -> int:
    """`palace completion SHELL` prints the script; `--complete KIND --word W` is what the script calls on TAB."""
    from palace.ui import shells
    from palace.ui.parser import build_parser

    if args.complete:
        from palace.config import default_home

        words = shells.completion_words(args.complete, args.word, default_home())
        sys.stdout.write("".join(f"{word}\n" for word in words))
        return 0
    if args.shell is None:
        build_parser("completion").error("say which shell: palace completion bash|zsh|fish")
    sys.stdout.write(shells.completion_script(args.shell, build_parser()))
    return 0


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

    outcome = sync(settings.home, remote=args.remote, force=args.force)
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
    from palace.history.autocommit import stderr_warning

    try:
        from palace.mcp.server import serve
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in {"mcp", "mcp_types", "anyio"}:
            raise
        message = _sdk_missing()
        console.error(message)  # on stderr: the MCP Inspector shows it in its server log
        _refuse_client(message, sys.stdin, sys.stdout)  # else a client shows only "Connection closed"
        return 1
    return serve(App(settings, warn=stderr_warning))  # stdout is the protocol's: warnings go to stderr


def _sdk_missing() -> str:
    """What to run for the MCP SDK where palace runs (PyPI's `palace` is another project: never that)."""
    import json
    from importlib import metadata
    from pathlib import Path

    requirement, origin = "mcp", {}
    for dist in metadata.distributions(name="palace"):  # a checkout's palace.egg-info may come first
        extras = [req.split(";")[0].strip() for req in dist.requires or [] if 'extra == "mcp"' in req]
        requirement = extras[0] if extras else requirement
        try:
            origin = json.loads(dist.read_text("direct_url.json") or "{}")
        except ValueError:
            origin = {}
        if origin:
            break
    command = install_command(origin, Path(sys.prefix), sys.executable, requirement)
    return f"`palace mcp` needs the MCP SDK, which is not installed beside palace; install it with: {command}"


def install_command(origin: dict[str, Any], prefix: Path, python: str, requirement: str) -> str:
    """The command that adds the `mcp` extra to this install: `origin` is its direct_url.json (PEP 610)."""
    from pathlib import Path
    from shlex import quote
    from urllib.parse import unquote, urlsplit

    url = str(origin.get("url", ""))
    where = Path(unquote(urlsplit(url).path)) if url.startswith("file:") else None
    local = where if where is not None and where.is_dir() else None
    pip = f"{quote(python)} -m pip install"
    sdk = f"{pip} {quote(requirement)}"
    if (prefix / "pipx_metadata.json").is_file():  # pipx keeps one in each of its venvs
        again = f" (or: pipx install --force {quote(f'{local}[mcp]')})" if local else ""
        return f"pipx inject palace {quote(requirement)}{again}"
    vcs = origin.get("vcs_info")
    if local is None and isinstance(vcs, dict):
        source = f"palace[mcp] @ {vcs.get('vcs', 'git')}+{url}"
        return f"{pip} {quote(source)}"
    editable = bool((origin.get("dir_info") or {}).get("editable"))
    if local is None:
        tree = Path(__file__).resolve().parents[2]  # run from a source tree (python -m palace in a clone)?
        if not origin and (tree / "pyproject.toml").is_file():
            local, editable = tree, True
        else:
            return sdk
    return f"{pip} {'-e ' if editable else ''}{quote(f'{local}[mcp]')} (or only the SDK: {sdk})"


def _refuse_client(message: str, stdin: IO[str], stdout: IO[str]) -> None:
    """Answer an MCP client's first request (initialize) with a JSON-RPC error holding message: clients and
    the MCP Inspector show that, where a server that only exits leaves them "Connection closed"."""
    import json

    try:
        line = "" if stdin.isatty() else stdin.readline(1 << 20)
        request = json.loads(line) if line.strip() else None
    except (OSError, ValueError):  # no client, or not one speaking JSON-RPC: stderr said it
        return
    ident = request.get("id") if isinstance(request, dict) else None
    if isinstance(ident, str | int) and not isinstance(ident, bool):
        error = {"code": -32603, "message": message}
        stdout.write(json.dumps({"jsonrpc": "2.0", "id": ident, "error": error}) + "\n")
        stdout.flush()


def _export(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    """`palace export agents-md`: the repository's wing (or --wing), never the active wings of config or env."""
    from pathlib import Path

    from palace.app import detect_wings
    from palace.mcp.bridge import PERSONAL, export_agents_md
    from palace.record import replace

    file = Path(args.file)
    own = replace(settings, wing=None, wings=[])  # a person's wing in config.toml is not the repo's
    wings = list(dict.fromkeys(args.wing)) if args.wing else detect_wings(own, file.absolute().parent)
    line = export_agents_md(_app(settings, console), file, wings, personal=args.include_personal)
    console.print(line)
    if args.include_personal:
        console.warn(PERSONAL.format(file=file))
    return 0


def _import(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    from pathlib import Path

    from palace.app import detect_wing
    from palace.mcp.bridge import propose_from_file

    file = Path(args.file)
    for line in propose_from_file(_app(settings, console), file, detect_wing(settings, file.absolute().parent)):
        console.print(line)
    return 0


def _prompts(args: argparse.Namespace, settings: Settings, console: Console) -> int:
    """`palace prompts`: each packaged prompt and whether this palace overrides it; `copy NAME` to edit one."""
    from palace.errors import PalaceError
    from palace.memory.files import ensure_home
    from palace.model.prompts import packaged_prompt, packaged_prompts

    names = packaged_prompts()
    folder = settings.home / "prompts"
    if not args.copy:
        for name in names:
            mine = folder / name
            console.print(f"{name:<18} " + (f"overridden by {mine}" if mine.is_file() else "packaged"))
        console.print(f"(palace prompts copy NAME puts one in {folder} to edit; delete it to go back)")
        return 0
    if args.name not in names:
        import difflib

        close = difflib.get_close_matches(args.name or "", names, n=1)
        hint = f' (did you mean "{close[0]}"?)' if close else ""
        raise PalaceError(f"no packaged prompt {args.name!r}{hint}; they are: {', '.join(names)}")
    target = folder / args.name
    if target.exists() and not args.force:
        raise PalaceError(f"{target} exists already (your own version): edit it, or say --force to start again")
    ensure_home(settings.home)
    folder.mkdir(mode=0o700, exist_ok=True)
    from palace.memory.files import atomic_write

    atomic_write(target, packaged_prompt(args.name).encode("utf-8"))
    console.print(f"copied {args.name} to {target}: palace uses your version from the next session")
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
    "prompts": _prompts,
    "sync": _sync,
    "mcp": _mcp,
    "export": _export,
    "import": _import,
}
