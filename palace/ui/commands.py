"""Slash commands of the REPL: one table holds each command's usage, help and handler."""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from palace.errors import PalaceError
from palace.record import record

if TYPE_CHECKING:
    from palace.agent.conversation import Conversation
    from palace.app import App
    from palace.config import Settings
    from palace.memory.halls import MemoryPath
    from palace.memory.ops import ChangeResult
    from palace.memory.store import MemoryStore
    from palace.ui.console import Console
    from palace.ui.pricing import CostMeter


class Repl(Protocol):
    """What the slash commands need of the REPL."""

    app: App
    settings: Settings
    store: MemoryStore
    console: Console
    session: Conversation
    meter: CostMeter

    def show_change(self, change: ChangeResult) -> None: ...

    def new_session(self) -> None: ...

    def commit_hand_edit(self) -> None: ...

    def set_model(self, name: str) -> None: ...

    def confirm(self, question: str) -> bool: ...

    def pick_room(self, proposals: list[MemoryPath]) -> str | None: ...

    def recall_text(self, query: str, *, limit: int = 5) -> str: ...

    def recall_in(self, query: str, wings: Sequence[str] | None) -> str: ...


@record(frozen=True)
class Command:
    name: str
    usage: str
    help: str
    run: Callable[[Repl, str], bool]  # returns False to leave the REPL


def _help(repl: Repl, arg: str) -> bool:
    repl.console.print("Commands:")
    width = max(len(c.usage) for c in COMMANDS)
    for command in COMMANDS:
        repl.console.print(f"  {command.usage.ljust(width)}  {command.help}")
    repl.console.print("Anything else is a message to the model; start it with // to begin it with a slash.")
    repl.console.print("Esc-Enter or Ctrl-J adds a line, so does a trailing \\; a paste is one message.")
    repl.console.print("Ctrl-C stops a reply, Ctrl-D exits.")
    return True


def _memory(repl: Repl, arg: str) -> bool:
    wings = arg.split() or repl.session.wings
    rendered = repl.store.render(wings, repl.settings.memory_budget)
    repl.console.print(rendered.text or "(no memories yet)")
    budget = repl.settings.memory_budget
    repl.console.info(
        f"— {repl.store.file} · {rendered.total_entries} entr{'y' if rendered.total_entries == 1 else 'ies'} · "
        f"{rendered.size:,} of {budget:,} bytes"
        + (f" · {rendered.left_out} left out of the prompt" if rendered.left_out else "")
    )
    targets = repl.session.targets
    if targets is not None and targets.project is not None and targets.project_memory is not None:
        shared = targets.project_memory.render(None, budget)
        repl.console.print(shared.text.strip("\n") or "(nothing yet)")
        repl.console.info(f"— project memory of {targets.project.name}: {targets.project.file}")
    return True


def _edit(repl: Repl, arg: str) -> bool:
    from palace.app import init_palace
    from palace.memory.lint import lint_file
    from palace.ui.editor import open_editor

    if not repl.store.file.exists():
        init_palace(repl.settings.home, git=False)
    code = open_editor(repl.store.file, notice=repl.console.info)
    repl.commit_hand_edit()
    if code != 0:
        repl.console.warn(f"the editor exited with status {code}")
    settings = repl.settings
    report = lint_file(
        repl.store.file, entry_limit=settings.entry_limit, soft_limit=settings.soft_limit, budget=settings.memory_budget
    )
    for problem in report.problems:
        repl.console.print(str(problem), "red" if problem.severity == "error" else "yellow")
    repl.console.info(report.summary)
    return True


def _remember(repl: Repl, arg: str) -> bool:
    from palace.ui.pathargs import split_path_arg

    try:
        path, content = split_path_arg(arg, "/remember PATH CONTENT")
    except PalaceError:
        if "/" in arg and len(arg.split()) == 1:  # a path and nothing to say: the usage, not a quick add
            raise
        path, content = "", arg
    if "/" not in path:  # no path (`/remember I use fish`): propose a room (quick add)
        return _quick_add(repl, arg)
    return user_change(repl, (repl.session.targets or repl.store).save(path, content, by="user"))


def _forget(repl: Repl, arg: str) -> bool:
    from palace.ui.pathargs import split_path_arg

    path, content = split_path_arg(arg, "/forget PATH CONTENT")
    return user_change(repl, (repl.session.targets or repl.store).forget(path, content, by="user"))


def _quick_add(repl: Repl, text: str) -> bool:
    """Save text to the room the user picks from the proposals (memory/suggest.py, ui/quickadd.py)."""
    from palace.memory.suggest import propose_rooms

    text = " ".join(text.split())
    if not text:
        raise PalaceError("say what to remember: /remember TEXT (or /remember PATH TEXT), or a line `# TEXT`")
    path = repl.pick_room(propose_rooms(repl.store.document(), text, repl.session.wings))
    if path is None:
        repl.console.print("Not saved.")
        return True
    return user_change(repl, (repl.session.targets or repl.store).save(path, text, by="user"))


def _why(repl: Repl, arg: str) -> bool:
    from palace.sessions.provenance import why
    from palace.ui.pathargs import split_path_arg

    path, content = split_path_arg(arg, "/why PATH CONTENT")
    for line in why(repl.store, path, content).lines():
        repl.console.print(line)
    return True


def user_change(repl: Repl, result: ChangeResult) -> bool:
    """Show a change the user made and record it for the session's archive."""
    repl.session.record_user_change(result)
    repl.show_change(result)
    return True


def _undo(repl: Repl, arg: str) -> bool:
    done = repl.app.undo()
    repl.console.success(f"↶ {done}")
    verb, _, path = done.removeprefix("Undone: ").partition(" (")[0].partition(" ")
    journal = repl.session.journal
    if journal is not None and verb in {"save", "forget", "replace", "refresh"} and "/" in path:
        journal.add_undo(path)  # the session's archive marks that change undone
    return True


_RECALL_USAGE = "usage: /recall [--wing NAME]... [--all-wings] QUERY"


def _recall(repl: Repl, arg: str) -> bool:
    from palace.memory.halls import wing_problem

    words, wings, everywhere = arg.split(), [], False
    while words and words[0] in ("--wing", "--all-wings"):
        flag = words.pop(0)
        if flag == "--all-wings":
            everywhere = True
        elif not words:
            raise PalaceError(_RECALL_USAGE)
        else:
            wing = words.pop(0)
            problem = wing_problem(wing)
            if problem:
                raise PalaceError(f"/recall --wing {wing}: {problem}")
            wings.append(wing)
    if not words or (everywhere and wings):
        raise PalaceError(_RECALL_USAGE)
    query = " ".join(words)
    if everywhere or wings:
        repl.console.print(repl.recall_in(query, None if everywhere else wings))
    else:
        repl.console.print(repl.recall_text(query, limit=5))
    return True


def recall_line(query: str, text: str, wing: str | None) -> str:
    """The line the user sees of the model's MemoryRecall, counted from the result's title ("3 matches from ...",
    palace/recall/format.py): `recalled 3 matches for "postgres"`."""
    from palace.memory.secrets import redact

    found = re.match(r"(\d+) match", text)
    count = int(found.group(1)) if found else 0
    asked = " ".join(redact(query).split())
    asked = asked if len(asked) <= 60 else asked[:59] + "…"
    where = " in every wing" if wing == "all" else f" in wing {wing}" if wing else ""
    what = f"{count} match{'es' * (count != 1)}" if count else "nothing"
    return f'recalled {what} for "{asked}"{where}'


def _sessions(repl: Repl, arg: str) -> bool:
    from palace.sessions.catalog import list_sessions

    infos = list_sessions(repl.settings.home)
    if not infos:
        repl.console.print("No sessions yet.")
    for info in infos[:20]:
        repl.console.print(_session_line(info))
    return True


def _session_line(info: object) -> str:
    sid = getattr(info, "id", "")
    turns = getattr(info, "turns", 0)
    summary = getattr(info, "summary", "") or ""
    mark = "" if getattr(info, "archived", True) else " (not archived yet)"
    return f"{sid}  {turns:>3} turn{'' if turns == 1 else 's'}  {summary[:80]}{mark}"


def _new(repl: Repl, arg: str) -> bool:
    repl.new_session()
    return True


_YES = ("--yes", "-y")


def _model(repl: Repl, arg: str) -> bool:
    words = arg.split()
    names = [word for word in words if word not in _YES]
    if len(names) > 1:
        raise PalaceError("usage: /model [NAME [--yes]]")
    if names:
        return _switch(repl, names[0], sure=len(names) < len(words))
    current = repl.settings.model
    repl.console.print(f"Model: {current} at {repl.settings.base_url or 'the OpenAI API'}")
    try:
        models = repl.app.client.list_models()
    except PalaceError as exc:
        repl.console.warn(f"cannot list the endpoint's models: {exc}")
        return True
    from palace.ui.doctor import model_listed

    if not models:
        repl.console.print("The endpoint lists no models.")
        return True
    repl.console.print(f"The endpoint's models ({len(models)}); /model NAME switches:")
    for model in models:
        here = model_listed(current, [model])
        repl.console.print(f"  {'*' if here else ' '} {model}{'  (current)' if here else ''}")
    if not model_listed(current, models):
        repl.console.warn(f"{current} is not among them")
    return True


def _switch(repl: Repl, name: str, *, sure: bool) -> bool:
    """/model NAME: switch to a model the endpoint lists; an unlisted one (some endpoints do not list every model
    they serve) after a y/N question, or with --yes; when the list cannot be fetched, as asked, saying so."""
    from palace.ui.doctor import model_listed

    try:
        models = repl.app.client.list_models()
    except PalaceError as exc:
        repl.set_model(name)
        repl.console.warn(f"cannot list the endpoint's models ({exc}); using {name} unchecked")
        repl.console.print(f"Model: {name} (from now on in this session)")
        return True
    if not models:
        repl.console.warn(f"the endpoint lists no models; using {name} unchecked")
    elif not model_listed(name, models):
        close = difflib.get_close_matches(name, models, n=1, cutoff=0.5)
        close = close or [m for m in models if m.casefold() == name.casefold()]
        hint = f' (did you mean "{close[0]}"?)' if close else ""
        unlisted = f"{name} is not among the endpoint's {len(models)} models{hint}"
        if not sure and not repl.confirm(f"{unlisted}. Use it anyway? [y/N] "):
            raise PalaceError(f"{unlisted}; `/model` lists them, `/model {name} --yes` uses it anyway")
        repl.set_model(name)
        repl.console.print(f"Model: {name} (from now on in this session; the endpoint does not list it)")
        return True
    repl.set_model(name)
    repl.console.print(f"Model: {name} (from now on in this session)")
    return True


def _usage(repl: Repl, arg: str) -> bool:
    inp, out = repl.meter.totals()  # the chat's, compaction's and extraction's calls
    repl.console.print(f"Tokens this session: input {inp:,}, output {out:,}, total {inp + out:,}")
    for line in repl.meter.lines():
        repl.console.print(line)
    return True


def _clear(repl: Repl, arg: str) -> bool:
    repl.console.clear()
    return True


def _review(repl: Repl, arg: str) -> bool:
    from palace.memory.review import ReviewQueue
    from palace.ui import review

    review.run(arg, repl.store, ReviewQueue(repl.settings.home), repl.console, repl.show_change)
    return True


def _clear_memory(repl: Repl, arg: str) -> bool:
    from palace.memory.document import Document

    count = sum(1 for e in Document.parse(repl.store.read_bytes()).entries if e.path is not None)
    everything = "all" in arg.split()
    if "yes" not in arg.split():
        what = "the whole of memories.md" if everything else f"all {count} entries (your own notes stay)"
        repl.console.print(f"This removes {what}. Type `/clear-memory yes{' all' if everything else ''}` to do it.")
        return True
    cleared = repl.store.clear(everything=everything)
    repl.console.print(f"⌫ Cleared {cleared.counted} (kept in superseded.md; /undo puts them back)", "yellow")
    return True


def _context(repl: Repl, arg: str) -> bool:
    from palace.memory.secrets import redact

    status = repl.session.context_status()
    reported = f"; the endpoint counted {status.reported:,} for the last request" if status.reported else ""
    console = repl.console
    console.print(
        f"Context: about {status.estimate:,} of {status.window:,} tokens (folds past {status.limit:,}){reported}"
    )
    console.print(
        f"Turns sent as they are: {status.sent_turns}; folded into the summary: {status.folded_turns}"
        if status.folded_turns
        else f"Turns sent as they are: {status.sent_turns} (nothing folded yet)"
    )
    snapshot = status.snapshot
    if snapshot.summary:
        console.print(f"Summary: {redact(snapshot.summary)}")
    lines = snapshot.working.lines()
    console.print("\n".join(redact(line) for line in lines) if lines else "Working context: (empty so far)")
    return True


def _compact(repl: Repl, arg: str) -> bool:
    before = tuple(repl.session.usage)
    repl.console.info(repl.session.compact())
    repl.meter.add(repl.settings.model, repl.session.usage[0] - before[0], repl.session.usage[1] - before[1])
    return True


def _bring(repl: Repl, arg: str) -> bool:
    from palace.sessions.card import bring_text, load_session_context

    if not arg.strip():
        raise PalaceError(
            "usage: /bring ID (the 8 hex digits the card and /sessions show, or their start; Tab completes)"
        )
    text = bring_text(load_session_context(repl.settings.home, arg.strip()))
    repl.session.bring(text)
    repl.console.print(text)
    repl.console.info("— added to this conversation")
    return True


def _exit(repl: Repl, arg: str) -> bool:
    return False


COMMANDS: tuple[Command, ...] = (
    Command("help", "/help", "this list", _help),
    Command("memory", "/memory [WING]", "show the memory the model sees (and its size)", _memory),
    Command("edit", "/edit", "open memories.md in $VISUAL/$EDITOR, then check it", _edit),
    Command(
        "remember",
        "/remember [PATH] CONTENT",
        "save an entry yourself, e.g. /remember Preferences/editor Uses vim; without a path palace proposes a room",
        _remember,
    ),
    Command("forget", "/forget PATH CONTENT", "remove an entry", _forget),
    Command("why", "/why PATH CONTENT", "where an entry came from: who, the message, its uses and commits", _why),
    Command("undo", "/undo", "revert the last memory change palace made", _undo),
    Command("review", "/review [accept N|reject N|edit N TEXT]", "what extraction proposed, waiting for you", _review),
    Command("clear-memory", "/clear-memory [yes] [all]", "remove every entry (asks first; undoable)", _clear_memory),
    Command(
        "recall", "/recall [--wing W] QUERY", "search earlier sessions and memories (--all-wings: every wing)", _recall
    ),
    Command("sessions", "/sessions", "list recent sessions", _sessions),
    Command("context", "/context", "the context in use: tokens, summary, goals, decisions, open questions", _context),
    Command("compact", "/compact", "fold the older turns into the summary now", _compact),
    Command("bring", "/bring ID", "put an earlier session's summary and goals into this conversation", _bring),
    Command("new", "/new", "archive this session and start a new one", _new),
    Command(
        "model",
        "/model [NAME [--yes]]",
        "list the endpoint's models, or switch to one (--yes: one it does not list)",
        _model,
    ),
    Command("usage", "/usage", "tokens used this session, and their cost when the model's price is known", _usage),
    Command("clear", "/clear", "clear the screen", _clear),
    Command("exit", "/exit", "archive the session and leave (also /quit, Ctrl-D)", _exit),
    Command("quit", "/quit", "the same as /exit", _exit),
)
_BY_NAME = {command.name: command for command in COMMANDS}


def resolve(word: str) -> Command:
    """The command a (possibly abbreviated) name refers to; PalaceError when unknown or ambiguous."""
    name = word.lstrip("/").lower()
    if name in _BY_NAME:
        return _BY_NAME[name]
    matches = [c for c in COMMANDS if c.name.startswith(name)] if name else []
    if len(matches) == 1:
        return matches[0]
    if matches:
        options = ", ".join(f"/{c.name}" for c in matches)
        raise PalaceError(f"/{name} is ambiguous: {options}")
    close = difflib.get_close_matches(name, list(_BY_NAME), n=1)
    hint = f' (did you mean "/{close[0]}"?)' if close else ""
    raise PalaceError(f"unknown command /{name}{hint}; /help lists the commands")


def is_command(line: str) -> bool:
    """Is this line a slash command? Not when it starts with `//` (the escape: a message that begins with
    "/") or with a path: `/etc/hosts is ...`, or a word naming no command that exists on disk (`/tmp`)."""
    if not line.startswith("/") or line.startswith("//"):
        return False
    word = line.split(maxsplit=1)[0]
    if "/" in word[1:]:
        return False
    try:
        resolve(word)
    except PalaceError:
        return not os.path.exists(word)
    return True


def dispatch(repl: Repl, line: str) -> bool:
    """Run a slash command line; errors are printed and the REPL carries on."""
    word, _, arg = line.strip().partition(" ")
    try:
        return resolve(word).run(repl, arg)
    except PalaceError as exc:
        repl.console.error(str(exc))
        return True


def words_for_completion() -> list[str]:
    return [f"/{c.name}" for c in COMMANDS]
