"""The working context of a session (goals, decisions, open questions) and the rolling summary that stands
for the folded part of a long conversation (seed 003: L1/L2, W1, W4). agent/window.py decides what is sent;
the journal keeps the latest snapshot."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from palace.record import field, record

MAX_ITEMS = 12  # per list: a working context is a few lines, not a second transcript
MAX_ITEM_CHARS = 300


@record
class Item:
    """One line of the working context and the day it was first set."""

    text: str
    since: str


@record
class WorkingContext:
    """The user's current goals, the decisions made and the open questions; each list replaces the last."""

    goals: list[Item] = field(default_factory=list)
    decisions: list[Item] = field(default_factory=list)
    open_questions: list[Item] = field(default_factory=list)

    KINDS = ("goals", "decisions", "open_questions")

    def update(self, day: str, **lists: Sequence[str] | None) -> WorkingContext:
        """A copy with each given list replacing the old one (an item kept as it was keeps its date)."""
        updated = WorkingContext(list(self.goals), list(self.decisions), list(self.open_questions))
        for kind in self.KINDS:
            texts = lists.get(kind)
            if texts is None:
                continue
            old = {item.text.casefold(): item for item in getattr(self, kind)}
            fresh = [_clip(" ".join(t.split())) for t in texts if isinstance(t, str) and t.strip()]
            kept = list(dict.fromkeys(fresh))[:MAX_ITEMS]
            setattr(updated, kind, [old.get(text.casefold(), Item(text, day)) for text in kept])
        return updated

    @property
    def empty(self) -> bool:
        return not (self.goals or self.decisions or self.open_questions)

    def to_json(self) -> dict[str, list[dict[str, str]]]:
        return {kind: [{"text": i.text, "since": i.since} for i in getattr(self, kind)] for kind in self.KINDS}

    @classmethod
    def from_json(cls, data: object) -> WorkingContext:
        working = cls()
        if not isinstance(data, dict):
            return working
        for kind in cls.KINDS:
            raw = data.get(kind)
            raw = raw if isinstance(raw, list) else []
            items = [
                Item(_clip(str(i["text"])), str(i.get("since", ""))[:10])
                for i in raw[:MAX_ITEMS]
                if isinstance(i, dict) and isinstance(i.get("text"), str)
            ]
            setattr(working, kind, items)
        return working

    def counts(self) -> str:
        """`2 goals, 1 decision, 0 open questions`."""
        g, d, q = len(self.goals), len(self.decisions), len(self.open_questions)
        return f"{g} goal{'s' * (g != 1)}, {d} decision{'s' * (d != 1)}, {q} open question{'s' * (q != 1)}"

    def lines(self) -> list[str]:
        """The working context as text, for the model and for /context."""
        out: list[str] = []
        for kind, title in zip(self.KINDS, ("Goals", "Decisions", "Open questions"), strict=True):
            items = getattr(self, kind)
            if items:
                out.append(f"{title}:")
                out += [f"- {item.text} (since {item.since})" if item.since else f"- {item.text}" for item in items]
        return out


@record
class Snapshot:
    """What stands for the folded part of the conversation: messages[:upto] are in the summary."""

    summary: str = ""
    upto: int = 0
    working: WorkingContext = field(default_factory=WorkingContext)

    def to_json(self) -> dict[str, Any]:
        return {"summary": self.summary, "upto": self.upto, "working": self.working.to_json()}

    @classmethod
    def from_json(cls, data: object) -> Snapshot:
        if not isinstance(data, dict):
            return cls()
        upto = data.get("upto")
        summary = data.get("summary")
        return cls(
            summary if isinstance(summary, str) else "",
            upto if isinstance(upto, int) and not isinstance(upto, bool) and upto >= 0 else 0,
            WorkingContext.from_json(data.get("working")),
        )


def context_message(snapshot: Snapshot) -> list[dict[str, Any]]:
    """The message that stands for the folded conversation (and an acknowledgement, so that chat templates
    that insist on alternating user and assistant turns accept the turns that follow)."""
    if snapshot.summary:
        parts = ["The older part of this conversation, folded into a summary to fit the model's context:", ""]
        parts.append(snapshot.summary)
    else:
        parts = ["The older part of this conversation was left out to fit the model's context."]
    if not snapshot.working.empty:
        parts += ["", "Working context (goals, decisions, open questions as they stand):", *snapshot.working.lines()]
    return [
        {"role": "user", "content": "\n".join(parts)},
        {"role": "assistant", "content": "Understood; I will continue from there."},
    ]


def _clip(text: str) -> str:
    return text if len(text) <= MAX_ITEM_CHARS else text[: MAX_ITEM_CHARS - 1] + "…"
