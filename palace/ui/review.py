"""Reviewing what extraction proposed: `palace memory review [ACTION]` and `/review [ACTION]`.

ACTION is `list` (the default), `accept N [N...]`, `accept all`, `reject N [N...]` or `edit N NEW TEXT`; with no
ACTION on a terminal, `palace memory review` asks about each proposal in turn. A proposal flagged as reading like an
instruction to the model (⚠) is accepted only by its number: `accept all` and "accept all the rest" pass it by.
"""

from __future__ import annotations

from collections.abc import Callable

from palace.errors import PalaceError
from palace.memory.ops import ChangeResult
from palace.memory.review import Proposal, ReviewQueue
from palace.memory.store import MemoryStore
from palace.ui.console import Console

USAGE = "[list | accept N... | accept all | reject N... | edit N NEW TEXT]"
REPL = "/review"  # how the hints name the command: the REPL's, or the shell's
SHELL = "palace memory review"


def listing(proposals: list[Proposal], command: str = REPL) -> list[str]:
    """The proposals, numbered, and how to act on them from where the user is (`command`)."""
    if not proposals:
        return ["Nothing waits for review."]
    lines = [f"{len(proposals)} proposal(s) from extraction wait for review:"]
    flagged: list[str] = []
    for n, p in enumerate(proposals, start=1):
        warning = p.warning
        flagged += [str(n)] if warning else []
        flag = f"  {warning}" if warning else ""
        if p.tidy:
            lines.append(f"  {n}. [{p.confidence}] forget {p.path}: {p.content} — {p.reason}")
            continue
        lines.append(f"  {n}. {p.path}: {p.content}  ({p.confidence}, session {p.session}){flag}")
    lines.append(f"Accept with `{command} accept N` (or `{command} accept all`), reject with `{command} reject N`.")
    if flagged:
        lines.append(
            f"`accept all` skips the flagged ones ({', '.join(flagged)}): accept those by number, if you mean to."
        )
    return lines


def _unflagged(proposals: list[Proposal], console: Console, first: int = 1, command: str = REPL) -> list[Proposal]:
    """What `accept all` takes: every proposal but the flagged ones, which are named (by number) instead."""
    warned = [bool(p.warning) for p in proposals]
    flagged = [str(n) for n, warning in enumerate(warned, start=first) if warning]
    if flagged:
        console.print(
            f"Skipped {len(flagged)} flagged proposal(s) ({', '.join(flagged)}: ⚠ read as an instruction to the "
            f"model); accept one by its number (`{command} accept {flagged[0]}`), if you mean to."
        )
    return [p for p, warning in zip(proposals, warned, strict=True) if not warning]


def _numbers(words: list[str], count: int, command: str) -> list[int]:
    if words == ["all"]:
        return list(range(count))
    picked = []
    for word in words:
        if count == 0:
            raise PalaceError(f"no proposal {word!r}: nothing waits for review")
        if not word.isdigit() or not 1 <= int(word) <= count:
            numbers = "1, the only one" if count == 1 else f"a number from 1 to {count}"
            raise PalaceError(f"no proposal {word!r}: give {numbers} (see `{command} list`)")
        picked.append(int(word) - 1)
    if not picked:
        raise PalaceError(f"say which: {command} {USAGE}")
    return sorted(set(picked))


def run(
    argument: str,
    store: MemoryStore,
    queue: ReviewQueue,
    console: Console,
    show: Callable[[ChangeResult], None],
    command: str = REPL,
) -> None:
    """One review action; errors are PalaceError (shown by the caller). `command` is how the hints name the
    review command where the user is: `/review` in the REPL, `palace memory review` in a shell."""
    words = argument.split()
    action, rest = (words[0].lower(), words[1:]) if words else ("list", [])
    proposals = queue.pending()
    if action == "list":
        for line in listing(proposals, command):
            console.print(line)
        return
    if action == "edit":
        if len(rest) < 2:
            raise PalaceError(f"usage: {command} edit N NEW TEXT")
        [n] = _numbers(rest[:1], len(proposals), command)
        for result in queue.accept(store, [proposals[n]], {0: " ".join(rest[1:])}):
            show(result)
        return
    if action not in ("accept", "reject"):
        raise PalaceError(f"unknown review action {action!r}; {command} {USAGE}")
    if not proposals and rest == ["all"]:
        console.print("Nothing waits for review.")
        return
    picked = [proposals[n] for n in _numbers(rest, len(proposals), command)]
    if action == "accept" and rest == ["all"]:
        picked = _unflagged(picked, console, command=command)
    if action == "accept":
        for result in queue.accept(store, picked):
            show(result)
        return
    queue.reject(picked, store)
    for proposal in picked:
        console.print(
            f"⊘ Rejected (not saved, not proposed again from its session): {proposal.path}: {proposal.content}"
        )


def interactive(store: MemoryStore, queue: ReviewQueue, console: Console, show: Callable[[ChangeResult], None]) -> None:
    """Ask about each proposal: [a]ccept, [e]dit, [r]eject, [s]kip (also Enter), accept [A]ll the rest, [q]uit."""
    proposals = queue.pending()
    for line in listing(proposals, SHELL)[:1]:
        console.print(line)
    for n, proposal in enumerate(proposals):
        flag = f"  {proposal.warning}" if proposal.warning else ""
        console.print(f"{n + 1}/{len(proposals)}  {proposal.path}: {proposal.content}  ({proposal.confidence}){flag}")
        answer = input("[a]ccept, [e]dit, [r]eject, [s]kip (Enter), accept [A]ll, [q]uit? ").strip()
        if answer == "A":
            for result in queue.accept(store, _unflagged(proposals[n:], console, n + 1, SHELL)):
                show(result)
            return
        if answer == "q":
            return
        if answer == "a":
            for result in queue.accept(store, [proposal]):
                show(result)
        elif answer == "e":
            text = input("New text: ").strip()
            for result in queue.accept(store, [proposal], {0: text} if text else None):
                show(result)
        elif answer == "r":
            queue.reject([proposal], store)
            console.print(f"⊘ Rejected: {proposal.path}: {proposal.content}")
