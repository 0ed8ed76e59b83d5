"""The conversation evaluation's data: long, dated, multi-session chats between two people, built
deterministically from the hand-written facts (facts_en.py, facts_zh.py) with a seeded generator.

Each conversation has 12-18 dated sessions (a week or a few apart, over most of a year); each session a
greeting, one or two facts told (or none: a session on other things), chit-chat, lines on the topics of
facts told elsewhere (distractors), short reactions and a goodbye. The questions are the facts' own
(paraphrased, some with a typo, some naming a month or a day), each with its answer turns marked.

Parts: the tuning conversations use only the TUNE facts, the held-out ones (about 30%) only the HELD ones.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from palace.recall.dates import MONTH_NAMES
from recall_eval import facts_en, facts_zh

SEED = 20240611
EN_NAMES = ("Maya", "Jon", "Priya", "Tom", "Aisha", "Lucas", "Nina", "Omar", "Grace", "Dev", "Hana", "Marco", "Elena")
ZH_NAMES = ("小林", "阿杰", "小美", "大伟", "婷婷", "浩然", "思思", "子轩")
# (part, language, conversations, facts per conversation)
LAYOUT = (("tune", "en", 16, 9), ("tune", "zh", 6, 7), ("held", "en", 7, 9), ("held", "zh", 3, 6))
TYPO_RATE = 0.15
_SLOT = re.compile(r"\{(\w+)(\|cap)?\}")
_MARK = re.compile(r"\[\[(.+?)\]\]")

_MONTHS = [name.capitalize() for name in MONTH_NAMES]


@dataclass
class Turn:
    speaker: str
    text: str
    tag: int = -1  # >= 0: the answer turn of that many-th marked answer of its fact


@dataclass
class Session:
    day: date
    turns: list[Turn] = field(default_factory=list)


@dataclass(frozen=True)
class Answer:
    session: int  # its index in the conversation
    turn: int  # its index in the session
    key: str  # the text an answer-bearing result shows


@dataclass
class Question:
    text: str
    answers: list[Answer]
    kind: str  # "single", "temporal" (names a date), "multi" (needs two turns); chatty.py: "inference" too
    fact: str
    typo: bool
    paraphrase: bool = False  # words the thing differently from its evidence (chatty.py marks it)


@dataclass
class Conversation:
    index: int
    part: str
    lang: str
    user: str
    friend: str
    named_roles: bool  # the transcript gives speaker names as roles (else user/assistant)
    sessions: list[Session]
    questions: list[Question]

    def transcript(self) -> str:
        """The conversation as a JSON lines transcript for `palace import-transcript`."""
        lines: list[dict[str, Any]] = []
        for number, session in enumerate(self.sessions, 1):
            day = session.day
            when = (
                day.isoformat()
                if number % 2
                else f"{1 + number % 11}:{number * 7 % 60:02d} pm on {day.day} {_MONTHS[day.month - 1]}, {day.year}"
            )
            lines.append({"session": number, "date": when})
            for turn in session.turns:
                role = turn.speaker if self.named_roles else ("user" if turn.speaker == self.user else "assistant")
                lines.append({"role": role, "content": turn.text})
        return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


@dataclass
class _Stage:
    lines: list[Turn]
    session: int = -1


@dataclass
class _Fact:
    key: str
    topic: str
    owner: str
    other: str
    stages: list[_Stage]
    answers: list[tuple[int, int, str]]  # (stage, line, key)
    questions: list[str]
    values: dict[str, str]


def _fill(text: str, values: dict[str, str]) -> str:
    def one(match: re.Match[str]) -> str:
        value = values.get(match.group(1), match.group(0))
        return value[:1].upper() + value[1:] if match.group(2) else value

    return _SLOT.sub(one, text)


def _instance(template: dict[str, Any], owner: str, other: str, rng: random.Random) -> _Fact:
    values = {name: rng.choice(choices) for name, choices in sorted(template["slots"].items())}
    values.update(A=owner, B=other)
    stages: list[_Stage] = []
    answers: list[tuple[int, int, str]] = []
    for stage_text in _fill(template["text"], values).split("---"):
        turns: list[Turn] = []
        for raw in (ln.strip() for ln in stage_text.strip().splitlines()):
            who, text = raw.split(":", 1)
            turn = Turn(owner if who.strip() == "A" else other, text.strip())
            for key in _MARK.findall(turn.text):
                answers.append((len(stages), len(turns), key))
            turn.text = _MARK.sub(r"\1", turn.text)
            turns.append(turn)
        stages.append(_Stage(turns))
    return _Fact(template["key"], template["topic"], owner, other, stages, answers, template["questions"], values)


def _dates(rng: random.Random, count: int) -> list[date]:
    day = date(rng.choice((2022, 2023, 2024)), rng.randint(1, 6), rng.randint(1, 28))
    days = [day]
    for _ in range(count - 1):
        day += timedelta(days=rng.randint(6, 26))
        days.append(day)
    return days


def _place(facts: list[_Fact], days: list[date], rng: random.Random) -> None:
    """Each stage into a session, at most two a session; later stages later, in another month."""
    load = [0] * len(days)
    for fact in facts:
        after = -1
        for stage in fact.stages:
            low = after + 1
            if after >= 0:
                while low < len(days) and (days[low].year, days[low].month) == (days[after].year, days[after].month):
                    low += 1
            high = len(days) - (len(fact.stages) - fact.stages.index(stage))
            options = [i for i in range(low, max(low, high) + 1) if i < len(days) and load[i] < 2]
            if after < 0 and len(fact.stages) > 1:
                options = [i for i in options if i < len(days) // 2] or options
            choice = rng.choice(options or [i for i in range(len(days)) if load[i] < 3])
            stage.session, after = choice, choice
            load[choice] += 1


def _when(day: date, lang: str, rng: random.Random) -> str:
    month = _MONTHS[day.month - 1]
    if lang == "zh":
        return rng.choice(
            (
                f"{day.month}月",
                f"{day.year}年{day.month}月",
                f"{day.month}月份",
                f"{day.year}年{day.month}月{day.day}日",
            )
        )
    return rng.choice((f"in {month}", f"in {month} {day.year}", f"on {day.day} {month} {day.year}", f"back in {month}"))


def _typo(question: str, rng: random.Random, protected: set[str]) -> str | None:
    words = [w for w in re.findall(r"[a-z]{6,}", question) if w not in protected]
    if not words:
        return None
    word = max(words, key=lambda w: (len(w), w))
    i = rng.randint(1, len(word) - 3)
    kind = rng.choice(("swap", "drop", "double", "insert"))
    if kind == "swap":
        wrong = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    elif kind == "drop":
        wrong = word[:i] + word[i + 1 :]
    elif kind == "double":
        wrong = word[:i] + word[i] + word[i:]
    else:
        wrong = word[:i] + "e" + word[i:]
    if wrong == word:
        return None
    return re.sub(rf"\b{word}\b", wrong, question, count=1)


def _pad(turn: Turn, pack: Any, rng: random.Random, before: float, after: float) -> Turn:
    """The turn with small talk before and/or after it, at these odds (and a second sentence after at half
    those): real chat turns run to two or three sentences, about 100 characters (LoCoMo's do)."""
    text = turn.text
    joiner = "" if pack is facts_zh else " "
    if rng.random() < before:
        text = rng.choice(pack.SENTENCES) + joiner + text
    for odds in (after, after / 2):
        if rng.random() < odds:
            text = text + joiner + rng.choice(pack.SENTENCES)
    return Turn(turn.speaker, text, turn.tag)


def _session_turns(
    session: int,
    day: date,
    stages: list[_Stage],
    topics: list[str],
    pack: Any,
    pair: tuple[str, str],
    rng: random.Random,
) -> Session:
    user, friend = pair
    blocks: list[list[Turn]] = []
    for stage in stages:
        padded = [_pad(turn, pack, rng, 0.5, 0.6) for turn in stage.lines]
        stage.lines[:] = padded  # the answers point at these turns
        blocks.append(list(padded))
    for filler in rng.sample(pack.FILLERS, rng.randint(2, 3)):
        first = rng.choice(pair)
        pair_turns = [Turn(first, filler[0]), Turn(friend if first == user else user, filler[1])]
        blocks.append([_pad(turn, pack, rng, 0.8, 0.9) for turn in pair_turns])
    for topic in rng.sample(topics, min(len(topics), rng.randint(1, 2))):
        speaker = rng.choice(pair)
        line = _pad(Turn(speaker, rng.choice(pack.TOPIC_LINES[topic])), pack, rng, 0.6, 0.7)
        reaction = _pad(Turn(friend if speaker == user else user, rng.choice(pack.REACTIONS)), pack, rng, 0.2, 0.7)
        blocks.append([line, reaction])
    rng.shuffle(blocks)
    greeting, closing = rng.choice(pack.GREETINGS), rng.choice(pack.CLOSINGS)
    first = rng.choice(pair)
    second = friend if first == user else user
    names = {"A": first, "B": second}
    turns = [Turn(first, _fill(greeting[0], names)), Turn(second, _fill(greeting[1], names))]
    for block in blocks:
        for turn in block:
            if turns[-1].speaker == turn.speaker:
                turns.append(Turn(friend if turn.speaker == user else user, rng.choice(pack.REACTIONS)))
            turns.append(turn)
    closer = rng.choice(pair)
    turns += [Turn(closer, closing[0]), Turn(friend if closer == user else user, closing[1])]
    return Session(day, turns)


def conversation(index: int, part: str, lang: str, fact_count: int) -> Conversation:
    """One conversation, the same for the same arguments."""
    rng = random.Random(SEED * 1000 + index)
    pack: Any = facts_zh if lang == "zh" else facts_en
    pool = pack.TUNE if part == "tune" else pack.HELD
    user, friend = rng.sample(ZH_NAMES if lang == "zh" else EN_NAMES, 2)
    days = _dates(rng, rng.randint(12, 18))
    facts = []
    for template in rng.sample(pool, fact_count):
        owner = rng.choice((user, friend))
        facts.append(_instance(template, owner, friend if owner == user else user, rng))
    _place(facts, days, rng)
    sessions = []
    for number, day in enumerate(days):
        stages = [stage for fact in facts for stage in fact.stages if stage.session == number]
        told = {fact.topic for fact in facts for stage in fact.stages if stage.session == number}
        topics = sorted({fact.topic for fact in facts} - told) or sorted(pack.TOPIC_LINES)[:3]
        sessions.append(_session_turns(number, day, stages, topics, pack, (user, friend), rng))
    convo = Conversation(index, part, lang, user, friend, index % 2 == 0, sessions, [])
    for fact in facts:
        convo.questions += _questions(fact, sessions, lang, rng)
    return convo


def _questions(fact: _Fact, sessions: list[Session], lang: str, rng: random.Random) -> list[Question]:
    out = []
    for raw in fact.questions:
        text, _, picks = raw.partition(" @")
        chosen = [int(p) for p in picks.split(",")] if picks else [0]
        answers = []
        for pick in chosen:
            stage_no, line_no, key = fact.answers[pick]
            stage = fact.stages[stage_no]
            turn = stage.lines[line_no]
            session = sessions[stage.session]
            answers.append(Answer(stage.session, next(i for i, t in enumerate(session.turns) if t is turn), key))
        values = dict(fact.values)
        for number, stage in enumerate(fact.stages):
            values[f"when{number}"] = _when(sessions[stage.session].day, lang, rng)
        question = _fill(text, values)
        typo = False
        if lang == "en" and rng.random() < TYPO_RATE:
            protected = {w.casefold() for value in fact.values.values() for w in re.findall(r"\w+", value)}
            wrong = _typo(question, rng, protected)
            if wrong is not None:
                question, typo = wrong, True
        kind = "multi" if len({a.session for a in answers}) > 1 else "temporal" if "{when" in text else "single"
        out.append(Question(question, answers, kind, fact.key, typo))
    return out


def conversations() -> list[Conversation]:
    """Every conversation of the evaluation, tuning ones first."""
    out = []
    for part, lang, count, facts in LAYOUT:
        for _ in range(count):
            out.append(conversation(len(out), part, lang, facts))
    return out
