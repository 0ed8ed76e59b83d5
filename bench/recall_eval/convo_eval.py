"""Scoring palace.recall on the conversation evaluation (convo.py): session recall@1/@5/@10 and how often the
text the model gets (`format_hits` at 2048 bytes of a limit-5 search, as the recall tool gives it) bears
the answer: holds the marked answer text of an answer turn ("answer-bearing"), or that whole turn.

Each conversation is imported into its own temporary palace with palace's transcript importer (JSON lines,
one dated session after another, as `palace import-transcript` reads them) and asked its own questions.
"""

from __future__ import annotations

import os
import re
import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from palace.recall import RecallIndex, format_hits
from palace.recall.tuning import DEFAULT, Tuning
from palace.sessions.importer import parse_transcript, write_sessions
from recall_eval.convo import Conversation, Question, conversations

TOOL_BYTES = 2048
TOOL_LIMIT = 5
OLD = 1_600_000_000  # files are dated this (2020), so recall does not stat them at every search as live ones


@dataclass
class Built:
    convo: Conversation
    home: Path
    sources: list[str]  # session index -> recall source


@dataclass
class Outcome:
    convo: Conversation
    question: Question
    ranked: list[str]  # sources, best first (limit 10)
    wanted: set[str]
    text: str  # the tool's text
    bearing: bool  # the marked answer text of some answer turn is in text
    whole: bool  # some whole answer turn is in text
    every: bool = False  # the marked answer text of every answer turn is in text

    @property
    def size(self) -> int:
        """The tool's text in UTF-8 bytes."""
        return len(self.text.encode("utf-8"))

    @property
    def rank(self) -> int | None:
        return next((i + 1 for i, s in enumerate(self.ranked) if s in self.wanted), None)


def build(root: Path, convos: Iterable[Conversation] | None = None) -> list[Built]:
    """Each conversation imported into root/c<index>."""
    built = []
    for convo in convos if convos is not None else conversations():
        home = root / f"c{convo.index:02d}"
        sessions = parse_transcript(convo.transcript())
        assert len(sessions) == len(convo.sessions), "the importer split or merged sessions"
        written = write_sessions(home, sessions, durable=False)
        for path in (home / "sessions").iterdir():  # an old conversation: no file is still being written
            os.utime(path, (OLD, OLD))
        built.append(Built(convo, home, [w.id for w in written]))
    return built


def _flat(text: str) -> str:
    return " ".join(text.split()).casefold()


def ask(item: Built, tuning: Tuning = DEFAULT) -> list[Outcome]:
    """Every question of one conversation, asked of its palace."""
    out = []
    index = RecallIndex(item.home, tuning=tuning)
    try:
        for question in item.convo.questions:
            ranked = [h.source for h in index.search(question.text, limit=10)]
            text = format_hits(index.search(question.text, limit=TOOL_LIMIT), max_bytes=TOOL_BYTES, query=question.text)
            flat = _flat(text)
            turns = [item.convo.sessions[a.session].turns[a.turn].text for a in question.answers]
            out.append(
                Outcome(
                    item.convo,
                    question,
                    ranked,
                    {item.sources[a.session] for a in question.answers},
                    text,
                    any(_flat(a.key) in flat for a in question.answers),
                    any(_flat(t) in flat for t in turns),
                    all(_flat(a.key) in flat for a in question.answers),
                )
            )
    finally:
        index.close()
    return out


def run(root: Path, convos: Iterable[Conversation] | None = None, tuning: Tuning = DEFAULT) -> list[Outcome]:
    """Build every conversation's palace under root (default: convo.py's) and ask all the questions."""
    return [outcome for item in build(root, convos) for outcome in ask(item, tuning)]


@dataclass
class Figures:
    asked: int
    at1: int
    at5: int
    at10: int
    bearing: int
    whole: int
    every: int = 0  # every answer turn's marked text shown (a multi-session question's whole answer)
    size_p50: int = 0  # the tool's text, median bytes

    def rate(self, count: int) -> float:
        return count / max(self.asked, 1)

    def row(self, name: str) -> str:
        r = self.rate
        return (
            f"{name:34}{self.asked:5}  {r(self.at1):6.1%}  {r(self.at5):6.1%}  {r(self.at10):6.1%}"
            f"  {r(self.bearing):8.1%}  {r(self.whole):6.1%}  {r(self.every):6.1%}  {self.size_p50:6}"
        )


HEADER = (
    f"{'':34}{'asked':>5}  {'R@1':>6}  {'R@5':>6}  {'R@10':>6}  {'bearing':>8}  {'whole':>6}  {'every':>6}"
    f"  {'bytes':>6}"
)


def figures(outcomes: Iterable[Outcome]) -> Figures:
    items = list(outcomes)
    ranks = [o.rank for o in items]
    return Figures(
        len(items),
        sum(r == 1 for r in ranks),
        sum(r is not None and r <= 5 for r in ranks),
        sum(r is not None for r in ranks),
        sum(o.bearing for o in items),
        sum(o.whole for o in items),
        sum(o.every for o in items),
        int(statistics.median(o.size for o in items)) if items else 0,
    )


def select(
    outcomes: Iterable[Outcome], *, part: str | None = None, lang: str | None = None, kind: str | None = None
) -> list[Outcome]:
    return [
        o
        for o in outcomes
        if (part is None or o.convo.part == part)
        and (lang is None or o.convo.lang == lang)
        and (kind is None or _is_kind(o.question, kind))
    ]


def _is_kind(question: Question, kind: str) -> bool:
    """A question's category, or "typo" / "paraphrase" for the questions so marked."""
    if kind == "typo":
        return question.typo
    if kind == "paraphrase":
        return question.paraphrase
    return question.kind == kind


def miss_report(outcome: Outcome) -> str:
    """A miss, explained: the question, where its answer ranked, the answer text, the tool's text."""
    keys = " | ".join(a.key for a in outcome.question.answers)
    shown = re.sub(r"\n", "\n      ", outcome.text)
    return (
        f"  [{outcome.convo.index:02d} {outcome.question.kind}] {outcome.question.text}\n"
        f"    rank {outcome.rank or '-'}; bearing {outcome.bearing}; wants: {keys}\n      {shown}"
    )
