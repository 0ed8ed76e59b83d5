"""What a turn sends, within the model's context window (seed 003, L1/L2): the system prompt (unchanged, so
prefix caches still hit), one message holding the rolling summary and the working context, then the recent
turns verbatim.

palace knows the real size of the last request from the endpoint's `usage.prompt_tokens` and estimates only
what was added since, with a characters-per-token ratio calibrated from those figures (no tokenizer is ever
downloaded). Before a request would pass `compact_at` x the window, the older turns are folded by the model
into the summary (prompts/compact.md). The journal keeps every original message: folding changes what is
sent, never what is recorded, and extraction reads the originals.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import Any

from palace.errors import LLMContextLengthError, LLMError, PalaceError
from palace.model.answers import json_values
from palace.model.chat import ChatModel
from palace.model.prompts import load_prompt
from palace.record import record
from palace.sessions.context import Snapshot, WorkingContext, context_message
from palace.sessions.extract_prompt import render_message

KEEP_TURNS = 4  # the last turns, always sent verbatim (the current one among them)
DEFAULT_CHARS_PER_TOKEN = 3.0  # until the endpoint has said: on the safe side for code and prose
SUMMARY_WORDS = 400
_SUMMARY_ROOM = SUMMARY_WORDS * 8  # characters a new summary may take, when planning how much to fold
_PER_MESSAGE = 8  # tokens an endpoint adds around each message (role, separators)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def weight(text: str) -> int:
    """A text's size for the budget: its characters, a CJK character counted as four (about a token each)."""
    return len(text) + 3 * len(_CJK.findall(text))


def message_weight(message: dict[str, Any]) -> int:
    """What a message weighs in a request: its JSON (content, tool calls and their results)."""
    return weight(json.dumps(message, ensure_ascii=False))


def turn_starts(messages: Sequence[dict[str, Any]], first: int = 0) -> list[int]:
    """Where each turn begins (a user message), from index first on: tool calls stay with their results."""
    return [n for n in range(first, len(messages)) if messages[n].get("role") == "user"]


class CompactionFailed(PalaceError):
    """The model could not fold the conversation (its call failed or its answer was unusable)."""


@record
class Budget:
    """The window, and what the endpoint said the last request cost."""

    window: int
    compact_at: float
    ratio: float = DEFAULT_CHARS_PER_TOKEN  # weight per token, calibrated by observe()
    last_tokens: int | None = None
    last_weight: int = 0

    @property
    def limit(self) -> int:
        return int(self.window * self.compact_at)

    def observe(self, request_weight: int, prompt_tokens: int) -> None:
        """The endpoint counted prompt_tokens for a request of this weight."""
        if prompt_tokens > 0 and request_weight > 0:
            self.ratio = min(8.0, max(0.8, request_weight / prompt_tokens))
            self.last_tokens, self.last_weight = prompt_tokens, request_weight

    def estimate(self, request_weight: int, messages: int) -> int:
        """Tokens of a request: the last real figure plus what was added since (or all of it, estimated)."""
        if self.last_tokens is not None and request_weight >= self.last_weight:
            added = (request_weight - self.last_weight) / min(self.ratio, DEFAULT_CHARS_PER_TOKEN)
            return self.last_tokens + int(added)
        return int(request_weight / self.ratio) + _PER_MESSAGE * messages


@record
class WindowStatus:
    """What /context shows."""

    estimate: int
    window: int
    limit: int
    reported: int | None
    sent_turns: int
    folded_turns: int
    snapshot: Snapshot


class ContextWindow:
    """Builds each request and keeps it under the budget, folding (or, failing that, dropping) older turns."""

    def __init__(
        self,
        *,
        window: int,
        compact_at: float,
        home: Path,
        snapshot: Snapshot,
        messages: Sequence[dict[str, Any]],
        record: Callable[[Snapshot], None] = lambda snapshot: None,
        resumed: bool = False,
    ) -> None:
        self.budget = Budget(window, compact_at)
        self.configured_window = window
        self.home = home
        self.snapshot = snapshot
        self._record = record
        self._resume_pending = resumed and bool(messages)
        self._weights: list[int] = []
        self._fixed: dict[int, tuple[object, int]] = {}  # system prompt and tool schemas, weighed once
        self._told: set[str] = set()
        self.last_weight = 0
        self.spent = [0, 0]  # tokens the compaction calls used (input, output), until the conversation counts them
        starts = turn_starts(messages)
        if snapshot.upto and starts:  # a snapshot must end where a turn starts (a hand-edited journal...)
            snapshot.upto = max([s for s in starts if s <= snapshot.upto], default=0)
        else:
            snapshot.upto = 0

    # ------------------------------------------------------------------ requests
    def request(self, system: str, messages: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        head: list[dict[str, Any]] = [{"role": "system", "content": system}]
        if self.snapshot.upto > 0:
            head += context_message(self.snapshot)
        return head + list(messages[self.snapshot.upto :])

    def weigh(self, system: str, messages: Sequence[dict[str, Any]], tools: object, start: int | None = None) -> int:
        """The weight of the request that sends messages[start:] (by default from the snapshot on)."""
        start = self.snapshot.upto if start is None else start
        for message in messages[len(self._weights) :]:
            self._weights.append(message_weight(message))
        total = self._fixed_weight(0, system) + self._fixed_weight(1, tools) + sum(self._weights[start:])
        if start > 0:
            total += sum(message_weight(m) for m in context_message(self.snapshot))
        return total

    def _fixed_weight(self, slot: int, value: object) -> int:
        cached = self._fixed.get(slot)
        if cached is not None and cached[0] is value:
            return cached[1]
        size = 0 if value is None else weight(value if isinstance(value, str) else json.dumps(value))
        self._fixed[slot] = (value, size)
        return size

    def prepare(
        self,
        client: ChatModel,
        system: str,
        messages: Sequence[dict[str, Any]],
        tools: object,
        notice: Callable[[str], None],
    ) -> list[dict[str, Any]]:
        """The request for the next model call, compacted first when it would pass the budget."""
        if self._resume_pending:
            self._resume_pending = False
            starts = turn_starts(messages, self.snapshot.upto)
            if self.snapshot.upto > 0 and len(starts) > KEEP_TURNS:
                self._make_room(client, system, messages, tools, notice, "resuming from the summary")
        size = self.weigh(system, messages, tools)
        if self.budget.estimate(size, len(messages) - self.snapshot.upto) > self.budget.limit:
            self._make_room(client, system, messages, tools, notice, "the conversation is near the context limit")
        self.last_weight = self.weigh(system, messages, tools)
        return self.request(system, messages)

    def observe(self, prompt_tokens: int) -> list[str]:
        """The endpoint's count for the last request; notices when it looks wrong."""
        if prompt_tokens <= 0 or self.last_weight <= 0:
            return []
        if self.last_weight / prompt_tokens > 9:  # no calibration from a figure that cannot be right
            if "cut" in self._told or self.last_weight < 20_000:
                return []
            self._told.add("cut")
            return [
                f"the endpoint counted only {prompt_tokens:,} prompt tokens for a request of about "
                f"{int(self.last_weight / DEFAULT_CHARS_PER_TOKEN):,}: it may be cutting the conversation to fit a "
                "smaller context without saying so (Ollama does past its num_ctx); set context.window_tokens in "
                "config.toml to the model's real context size"
            ]
        self.budget.observe(self.last_weight, prompt_tokens)
        return []

    def overflowed(
        self,
        exc: LLMContextLengthError,
        client: ChatModel,
        system: str,
        messages: Sequence[dict[str, Any]],
        tools: object,
        notice: Callable[[str], None],
    ) -> bool:
        """The endpoint said the request was too long: learn its figures and fold more; False when nothing
        older is left to fold."""
        refused = exc.used or self.budget.estimate(self.last_weight, 0)  # the window is smaller than this
        window = exc.window or refused
        if window < self.budget.window:
            self.budget.window = window
            if "window" not in self._told:
                self._told.add("window")
                said = f"is {window:,} tokens" if exc.window else f"is under {window:,} tokens (it refused that)"
                notice(
                    f"the model's context {said}, less than context.window_tokens = {self.configured_window:,}; "
                    "palace keeps under it this session (set it in config.toml)"
                )
        if exc.used and self.last_weight:
            self.budget.observe(self.last_weight, exc.used)
        else:  # the estimate was low by an unknown amount: be more careful from now on
            self.budget.ratio = max(0.8, self.budget.ratio * 0.8)
            self.budget.last_tokens = None
        before = self.snapshot.upto
        self._make_room(client, system, messages, tools, notice, "the endpoint said the request was too long")
        return self.snapshot.upto > before

    # ------------------------------------------------------------------ folding
    def _plan(self, system: str, messages: Sequence[dict[str, Any]], tools: object, keep: int) -> int | None:
        """Where to fold up to: the start of the last `keep` turns, fewer when those alone do not fit."""
        starts = turn_starts(messages, self.snapshot.upto)
        room = weight(self.snapshot.summary) + _SUMMARY_ROOM
        for kept in sorted({keep, 2, 1}, reverse=True):
            if kept > keep or len(starts) <= kept:
                continue
            end = starts[-kept]
            size = self.weigh(system, messages, tools, start=end) + room
            if self.budget.estimate(size, len(messages) - end) <= self.budget.limit or kept == 1:
                return end
        return None

    def _make_room(
        self,
        client: ChatModel,
        system: str,
        messages: Sequence[dict[str, Any]],
        tools: object,
        notice: Callable[[str], None],
        reason: str,
        keep: int = KEEP_TURNS,
    ) -> None:
        end = self._plan(system, messages, tools, keep)
        if end is None or end <= self.snapshot.upto:
            return
        first = len(turn_starts(messages[: self.snapshot.upto])) + 1  # the first folded turn, counting from 1
        turns = len(turn_starts(messages[:end], self.snapshot.upto))
        notice(f"{reason}: folding {turns} older turn{'s' * (turns != 1)} into a summary…")
        try:
            self.snapshot = fold(client, self.home, self.snapshot, messages, end, self.budget, self.spent)
        except CompactionFailed as exc:
            self._drop(system, messages, tools, notice, str(exc))
            return
        self._record(self.snapshot)
        notice(
            f"folded turns {first}–{first + turns - 1} into a summary; "
            f"{len(turn_starts(messages, end))} recent turns are sent as they are"
        )

    def _drop(
        self, system: str, messages: Sequence[dict[str, Any]], tools: object, notice: Callable[[str], None], why: str
    ) -> None:
        """Compaction failed: leave out the oldest whole turns until the request fits (the current one stays)."""
        starts = turn_starts(messages, self.snapshot.upto)
        end = starts[-1] if starts else self.snapshot.upto
        for start in starts[1:]:
            if self.budget.estimate(self.weigh(system, messages, tools, start=start), 0) <= self.budget.limit:
                end = start
                break
        if end <= self.snapshot.upto:
            return
        dropped = len(turn_starts(messages[:end], self.snapshot.upto))
        self.snapshot = Snapshot(self.snapshot.summary, end, self.snapshot.working)
        self._record(self.snapshot)
        notice(
            f"could not fold the older turns into a summary ({why}); the oldest {dropped} turn"
            f"{'s are' if dropped != 1 else ' is'} left out of what is sent (the journal keeps every message)"
        )

    def compact(self, client: ChatModel, system: str, messages: Sequence[dict[str, Any]], tools: object) -> str:
        """/compact: fold all but the last few turns now; what happened, in one line."""
        starts = turn_starts(messages, self.snapshot.upto)
        if len(starts) <= KEEP_TURNS:
            return f"nothing to fold: the conversation has {len(starts)} turn(s) since the last summary"
        lines: list[str] = []
        before = self.snapshot.upto
        self._make_room(client, system, messages, tools, lines.append, "compacting", keep=KEEP_TURNS)
        if self.snapshot.upto == before:
            return lines[-1] if lines else "nothing was folded"
        return lines[-1]

    # ------------------------------------------------------------------ the working context
    def set_working(self, **lists: Sequence[str] | None) -> WorkingContext:
        """The model's WorkingContext call: each given list replaces the old one."""
        working = self.snapshot.working.update(date.today().isoformat(), **lists)
        self.snapshot = Snapshot(self.snapshot.summary, self.snapshot.upto, working)
        self._record(self.snapshot)
        return working

    def status(self, system: str, messages: Sequence[dict[str, Any]], tools: object) -> WindowStatus:
        size = self.weigh(system, messages, tools)
        return WindowStatus(
            estimate=self.budget.estimate(size, len(messages) - self.snapshot.upto),
            window=self.budget.window,
            limit=self.budget.limit,
            reported=self.budget.last_tokens,
            sent_turns=len(turn_starts(messages, self.snapshot.upto)),
            folded_turns=len(turn_starts(messages[: self.snapshot.upto])),
            snapshot=self.snapshot,
        )


# ---------------------------------------------------------------------- the compaction call


def fold(
    client: ChatModel,
    home: Path,
    snapshot: Snapshot,
    messages: Sequence[dict[str, Any]],
    end: int,
    budget: Budget,
    spent: list[int] | None = None,
) -> Snapshot:
    """A new snapshot with messages[snapshot.upto:end] folded into it, in as many calls as the window needs
    (their tokens added to `spent`)."""
    current = snapshot
    while current.upto < end:
        stop = _chunk_end(messages, current.upto, end, budget)
        current = _fold_once(client, home, current, messages, stop, spent if spent is not None else [0, 0])
    return current


def _chunk_end(messages: Sequence[dict[str, Any]], start: int, end: int, budget: Budget) -> int:
    """How far one compaction call can reach: about half the window of conversation, in whole turns."""
    room = budget.window * budget.ratio / 2
    total = 0.0
    stop = start
    for n in range(start, end):
        total += message_weight(messages[n])
        if total > room and stop > start:
            break
        if n + 1 == end or messages[n + 1].get("role") == "user":
            stop = n + 1  # a turn boundary: calls and their results are never split
    return max(stop, min(end, start + 1))


def _fold_once(
    client: ChatModel, home: Path, snapshot: Snapshot, messages: Sequence[dict[str, Any]], end: int, spent: list[int]
) -> Snapshot:
    template = load_prompt("compact.md", home).replace("{{summary_words}}", str(SUMMARY_WORDS))
    working = snapshot.working
    lists = {kind: [item.text for item in getattr(working, kind)] for kind in WorkingContext.KINDS}
    transcript = "\n\n".join(part for part in (render_message(m) for m in messages[snapshot.upto : end]) if part)
    data = [
        f"Summary so far: {snapshot.summary or '(none: this is the first part)'}",
        f"Working context: {json.dumps(lists, ensure_ascii=False)}",
        "",
        "The next part of the conversation:",
        transcript or "(no text)",
        "",
        'Answer with the JSON object {"summary": ..., "goals": [...], "decisions": [...], "open_questions": [...]}.',
    ]
    request = [{"role": "system", "content": template}, {"role": "user", "content": "\n".join(data)}]
    try:
        reply = client.complete(request, json_mode=True)
    except LLMError as exc:
        raise CompactionFailed(str(exc)) from exc
    if reply.usage is not None:
        spent[0] += reply.usage.input_tokens
        spent[1] += reply.usage.output_tokens
    answer = _summary_object(reply.content)
    if answer is None:
        raise CompactionFailed("the model's answer held no summary")
    given = {kind: answer.get(kind) if isinstance(answer.get(kind), list) else None for kind in WorkingContext.KINDS}
    summary = " ".join(answer["summary"].split())[: _SUMMARY_ROOM * 2]
    return Snapshot(summary, end, working.update(date.today().isoformat(), **given))


def _summary_object(text: str) -> dict[str, Any] | None:
    """The first JSON object in the answer that has a summary."""
    try:
        values = json_values(text)
    except ValueError:
        return None
    return next((v for v in values if isinstance(v, dict) and isinstance(v.get("summary"), str)), None)
