"""Reviewing what extraction proposed: `palace memory review [ACTION]` and `/review [ACTION]`.

ACTION is `list` (the default), `accept N [N...]`, `accept all`, `reject N [N...]` or `edit N NEW TEXT`; with no
ACTION on a terminal, `palace memory review` asks about each proposal in turn.
"""

from __future__ import annotations

from collections.abc import Callable

from palace.errors import PalaceError
from palace.memory.ops import ChangeResult
from palace.memory.review import Proposal, ReviewQueue
from palace.memory.store import MemoryStore
from palace.ui.console import Console

USAGE = "review [list | accept N... | accept all | reject N... | edit N NEW TEXT]"


def listing(proposals: list[Proposal]) -> list[str]:
    if not proposals:
        return ["Nothing waits for review."]
    lines = [f"{len(proposals)} proposal(s) from extraction wait for review:"]
    for n, p in enumerate(proposals, start=1):
        lines.append(f"  {n}. {p.path}: {p.content}  ({p.confidence}, session {p.session})")
    lines.append("Accept with `review accept N` (or `accept all`), reject with `review reject N`.")
    return lines


def _numbers(words: list[str], count: int) -> list[int]:
    if words == ["all"]:
        return list(range(count))
    picked = []
    for word in words:
        if not word.isdigit() or not 1 <= int(word) <= count:
            raise PalaceError(f"no proposal {word!r}: give numbers from 1 to {count} (see `review list`)")
        picked.append(int(word) - 1)
    if not picked:
        raise PalaceError(f"say which: {USAGE}")
    return sorted(set(picked))


def run(
    argument: str, store: MemoryStore, queue: ReviewQueue, console: Console, show: Callable[[ChangeResult], None]
) -> None:
    """One review action; errors are PalaceError (shown by the caller)."""
    words = argument.split()
    action, rest = (words[0].lower(), words[1:]) if words else ("list", [])
    proposals = queue.pending()
    if action == "list":
        for line in listing(proposals):
            console.print(line)
        return
    if action == "edit":
        if len(rest) < 2:
            raise PalaceError("usage: review edit N NEW TEXT")
        [n] = _numbers(rest[:1], len(proposals))
        for result in queue.accept(store, [proposals[n]], {0: " ".join(rest[1:])}):
            show(result)
        return
    if action not in ("accept", "reject"):
        raise PalaceError(f"unknown review action {action!r}; {USAGE}")
    picked = [proposals[n] for n in _numbers(rest, len(proposals))]
    if action == "accept":
        for result in queue.accept(store, picked):
            show(result)
        return
    with store.lock():
        queue.reject(picked)
    for proposal in picked:
        console.print(
            f"⊘ Rejected (not saved, not proposed again from its session): {proposal.path}: {proposal.content}"
        )


def interactive(store: MemoryStore, queue: ReviewQueue, console: Console, show: Callable[[ChangeResult], None]) -> None:
    """Ask about each proposal: [a]ccept, [e]dit, [r]eject, [s]kip (also Enter), accept [A]ll the rest, [q]uit."""
    proposals = queue.pending()
    for line in listing(proposals)[:1]:
        console.print(line)
    for n, proposal in enumerate(proposals):
        console.print(f"{n + 1}/{len(proposals)}  {proposal.path}: {proposal.content}  ({proposal.confidence})")
        answer = input("[a]ccept, [e]dit, [r]eject, [s]kip (Enter), accept [A]ll, [q]uit? ").strip()
        if answer == "A":
            for result in queue.accept(store, proposals[n:]):
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
            with store.lock():
                queue.reject([proposal])
            console.print(f"⊘ Rejected: {proposal.path}: {proposal.content}")
