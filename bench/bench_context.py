"""Long sessions: what palace adds per turn as a conversation grows, and the cost of a compaction.

`python bench/bench_context.py [--quick]`. A conversation of 2 KB turns runs against an in-process scripted
model that enforces a 32,768-token window (palace/testing/server.py ContextLimit); every model call is timed
and subtracted, so the figures are palace's own work (building and budgeting the request, the journal,
the tool plumbing, folding bookkeeping).

1. Per-turn cost at turn 300 (and 1,000) vs turn 3, the baseline of the same run (goal <= 1.5x: a bounded
   request makes the cost independent of the conversation's length), with the growth exponent.
2. Compaction wall time excluding the model calls: the turns that compacted during that run (goal: the
   slowest under 50 ms), and /compact folding a whole 300- and 1,000-turn conversation at once vs 30 turns
   (linear in what is folded: report only, goal under 50 ms at 300).
3. The same per-turn figure without the budget (the request is the whole conversation, as before issue 11),
   for scale: what the old behaviour cost at turn 300 vs turn 3.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchlib
from benchlib import figure, note

from palace.agent.conversation import Conversation
from palace.agent.window import ContextWindow
from palace.config import load_settings
from palace.memory.store import MemoryStore
from palace.model.stream import Reply
from palace.sessions.journal import Journal
from palace.testing.scripted import ScriptedModel
from palace.testing.server import ContextLimit, Step

PROSE = "We looked at the build again: the vitest run takes forty seconds and PostgreSQL starts in a container. "


def text(label: str, size: int = 1000) -> str:
    return f"{label}: {(PROSE * (size // len(PROSE) + 1))[: size - len(label) - 2]}"


class TimedModel:
    """The scripted model, with the time spent inside it counted (it is the model's, not palace's)."""

    def __init__(self, model: ScriptedModel) -> None:
        self.model = model
        self.inside = 0.0

    def stream_chat(self, messages: list[dict[str, Any]], tools: Any = None, on_text: Any = None, **kw: Any) -> Reply:
        start = time.perf_counter()
        try:
            return self.model.stream_chat(messages, tools, on_text, **kw)
        finally:
            self.inside += time.perf_counter() - start

    def complete(self, messages: list[dict[str, Any]], *, json_mode: bool = False) -> Reply:
        start = time.perf_counter()
        try:
            return self.model.complete(messages, json_mode=json_mode)
        finally:
            self.inside += time.perf_counter() - start

    def __getattr__(self, name: str) -> Any:
        return getattr(self.model, name)


def responder(body: dict[str, Any]) -> Step:
    if not body["stream"]:
        return Step(text=json.dumps({"summary": "The build and its tests were discussed at length."}))
    return Step(text=text("Reply"))


def session(home: Path, budget: bool) -> tuple[Conversation, TimedModel]:
    settings = load_settings({"home": home, "model": "m", "api_key": "k"}, env={})
    model = TimedModel(ScriptedModel(responder=responder, context_limit=ContextLimit(10**9 if not budget else 32_768)))
    store = MemoryStore(home)
    conversation = Conversation(settings, store, client=model, journal=Journal.start(home, model="m"))  # type: ignore[arg-type]
    if not budget:  # the old behaviour: every request is the whole conversation
        conversation.window.budget.window = 10**9
    return conversation, model


FOLDS: list[float] = []  # palace's time in the turns that compacted, of the last budgeted run


def per_turn(turns: int, budget: bool, samples: set[int]) -> dict[int, float]:
    """Palace's own time for each sampled turn (model time subtracted), median of the 21 turns around it that
    did not compact (those are counted apart, in FOLDS)."""
    costs: dict[int, list[float]] = {n: [] for n in samples}
    FOLDS.clear()
    with tempfile.TemporaryDirectory() as tmp:
        conversation, model = session(Path(tmp), budget)
        for n in range(1, turns + 1):
            model.inside = 0.0
            upto = conversation.window.snapshot.upto
            start = time.perf_counter()
            result = conversation.turn(text(f"Turn {n}"))
            spent = time.perf_counter() - start - model.inside
            assert result.error is None, result.error
            if conversation.window.snapshot.upto != upto:
                FOLDS.append(spent)
                continue
            for sample in samples:
                if sample - 10 <= n <= sample + 10:
                    costs[sample].append(spent)
        if conversation.journal is not None:
            conversation.journal.close()
    return {n: benchlib.median(values) for n, values in costs.items() if values}


def compaction(turns: int) -> float:
    """One forced compaction of a `turns`-turn conversation, model call subtracted (median of 5)."""
    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        conversation, model = session(Path(tmp), budget=False)  # grow it whole, then fold it
        for n in range(1, turns + 1):
            conversation.turn(text(f"Turn {n}"))
        window: ContextWindow = conversation.window
        for _ in range(5):
            window.snapshot.upto = 0
            window.snapshot.summary = ""
            model.inside = 0.0
            start = time.perf_counter()
            conversation.compact()
            times.append(time.perf_counter() - start - model.inside)
        if conversation.journal is not None:
            conversation.journal.close()
    return benchlib.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="300 turns only")
    args = parser.parse_args()
    benchlib.header("bench_context: long sessions", args.quick)
    last = 300 if args.quick else 1000
    samples = {3, 100, 300} | ({1000} if not args.quick else set())
    bounded = per_turn(last, True, samples)
    for n in sorted(samples - {3}):
        figure(
            f"1.{n}",
            f"palace per turn at turn {n:,} vs turn 3 (budgeted)",
            bounded[n],
            bounded[3],
            base="turn 3",
            goal=1.5,
        )
    sizes = sorted(bounded)
    note(f"growth exponent (turn 3 -> {sizes[-1]:,}): {benchlib.growth(sizes, [bounded[s] for s in sizes]):.2f}")
    folds = list(FOLDS)
    figure(
        "2.turn",
        f"a turn that compacts ({len(folds)} in {last:,} turns), model calls excluded, vs turn 3",
        benchlib.median(folds),
        bounded[3],
        base="turn 3",
        goal=None,
        met=max(folds) < 0.05,
        goal_text="goal: the slowest < 50 ms",
    )
    note(f"slowest compacting turn: {benchlib.ms(max(folds))}")

    base = compaction(30)
    for turns in (300, 1000) if not args.quick else (300,):
        spent = compaction(turns)
        figure(
            f"2.{turns}",
            f"/compact folding {turns - 4:,} turns at once, model calls excluded, vs 26",
            spent,
            base,
            base="26 turns",
            goal=None,
            met=spent < 0.05 if turns == 300 else None,
            goal_text="goal < 50 ms" if turns == 300 else "report only",
        )

    whole = per_turn(300, False, {3, 300})
    figure(
        "3",
        "without the budget (whole conversation sent): turn 300 vs turn 3",
        whole[300],
        whole[3],
        base="turn 3",
        goal=None,
    )
    note(f"at turn 300 the budgeted turn costs {benchlib.ms(bounded[300])}, the unbudgeted {benchlib.ms(whole[300])}")
    benchlib.footer()


if __name__ == "__main__":
    main()
