"""The chatty evaluation: a second conversation set, written for the recall-quality issue in another style
than convo.py's, generated from seeds (no downloaded data, nothing from a public benchmark).

Each conversation is two friends chatting over a year or more: 14-20 sessions days to weeks apart (across a
new year), long rambling turns (two to five sentences, the fact in the middle of one), the things a fact is
about coming up again in other sessions without its answer (echoes), short goodbyes that name the other
person, and the transcript in one of three forms (JSON lines with user/assistant roles, JSON lines with the
speakers' names, markdown with bold names and dated headings), imported as `palace import-transcript`
reads it. English and Chinese.

Every question carries its category (single fact, multi-session, temporal, inference), whether it words the
thing differently from the evidence (paraphrase: colleagues for workmates, bicycle for bike, postgres for
PostgreSQL) and its evidence messages. The facts are split into a tuning part and a held-out part by a
fixed seed (SPLIT_SEED); a held-out conversation tells only held-out facts.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from recall_eval import chatty_en, chatty_zh
from recall_eval.convo import Answer, Conversation, Question, Session, Turn

SEED = 90_417
SPLIT_SEED = 2_718
HELD_SHARE = 1 / 3
# (language, tuning conversations, held-out conversations, facts per conversation)
LAYOUT = (("en", 12, 6, 8), ("zh", 5, 3, 5))
EN_NAMES = ("Rosa", "Felix", "Iris", "Caleb", "Noor", "Jasper", "Leila", "Owen", "Tess", "Ravi", "Mina", "Hugo")
ZH_NAMES = ("阿美", "志强", "晓雯", "俊杰", "佳怡", "国栋", "雨桐", "文博")
KINDS = {"S": "single", "M": "multi", "T": "temporal", "I": "inference"}
STYLES = ("json-roles", "json-names", "markdown")
_SLOT = re.compile(r"\{(\w+)\}")
_TURN = re.compile(r"^[AB]:")
_MARK = re.compile(r"\[\[(.+?)\]\]")
_QUESTION = re.compile(r"^([SMTI])(~?):\s*(.*?)(?:\s+@([\d,]+))?\s*$")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")  # fmt: skip


@dataclass
class Chat(Conversation):
    """A chatty conversation: how its transcript is written."""

    style: str = "json-roles"

    def transcript(self) -> str:
        """The conversation as a transcript for `palace import-transcript`, in its style."""
        if self.style == "markdown":
            return self._markdown()
        lines: list[dict[str, Any]] = []
        for number, session in enumerate(self.sessions, 1):
            lines.append({"session": number, "date": _stamp(session.day, number, self.style == "json-names")})
            for turn in session.turns:
                lines.append({"role": self._role(turn), "content": turn.text})
        return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)

    def _role(self, turn: Turn) -> str:
        if self.style == "json-names":
            return turn.speaker
        return "user" if turn.speaker == self.user else "assistant"

    def _markdown(self) -> str:
        out = [f"# Chat between {self.user} and {self.friend}\n"]
        for number, session in enumerate(self.sessions, 1):
            out.append(f"\n## {_stamp(session.day, number, True)}\n")
            out += [f"**{turn.speaker}:** {turn.text}\n" for turn in session.turns]
        return "".join(out)


def _stamp(day: date, number: int, words: bool) -> str:
    if not words:
        return day.isoformat()
    return f"{1 + number % 11}:{number * 13 % 60:02d} pm on {day.day} {_MONTHS[day.month - 1]}, {day.year}"


@dataclass
class _Fact:
    key: str
    stages: list[list[Turn]]
    stage_session: list[int]
    answers: list[tuple[int, int, str]]  # (stage, line, marked text)
    questions: list[str]
    echoes: tuple[str, ...]
    values: dict[str, str]


def _fill(text: str, values: dict[str, str]) -> str:
    return _SLOT.sub(lambda m: values.get(m.group(1), m.group(0)), text)


def _lines(block: str) -> list[str]:
    """A stage's turns, `A: ...` or `B: ...`, each with the indented lines that continue it."""
    lines: list[str] = []
    for line in block.strip().splitlines():
        if _TURN.match(line.strip()) or not lines:
            lines.append(line.strip())
        else:
            lines[-1] += " " + line.strip()
    return lines


def _instance(template: dict[str, Any], owner: str, other: str, rng: random.Random) -> _Fact:
    values = {name: rng.choice(choices) for name, choices in sorted(template["slots"].items())}
    values.update(A=owner, B=other)
    stages: list[list[Turn]] = []
    answers: list[tuple[int, int, str]] = []
    for block in _fill(template["text"], values).split("---"):
        turns: list[Turn] = []
        for raw in _lines(block):
            who, text = raw.split(":", 1)
            for key in _MARK.findall(text):
                answers.append((len(stages), len(turns), key))
            turns.append(Turn(owner if who.strip() == "A" else other, _MARK.sub(r"\1", text.strip())))
        stages.append(turns)
    echoes = tuple(_fill(line, values) for line in template["echoes"])
    return _Fact(template["key"], stages, [-1] * len(stages), answers, template["questions"], echoes, values)


def split(facts: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(tuning, held-out) facts, by the fixed SPLIT_SEED."""
    keys = sorted(f["key"] for f in facts)
    held = set(random.Random(SPLIT_SEED).sample(keys, round(len(keys) * HELD_SHARE)))
    return [f for f in facts if f["key"] not in held], [f for f in facts if f["key"] in held]


def _days(rng: random.Random, count: int) -> list[date]:
    day = date(rng.choice((2022, 2023)), rng.randint(1, 12), rng.randint(1, 28))
    days = [day]
    for _ in range(count - 1):
        day += timedelta(days=rng.choice((rng.randint(3, 12), rng.randint(12, 30), rng.randint(30, 50))))
        days.append(day)
    return days


def _place(facts: list[_Fact], days: list[date], rng: random.Random) -> None:
    """Each stage into a session (at most two a session), a later stage at least three weeks after."""
    load = [0] * len(days)
    for fact in facts:
        earliest = 0
        for number in range(len(fact.stages)):
            left = len(fact.stages) - number - 1
            latest = len(days) - 1 - 3 * left
            options = [i for i in range(earliest, latest + 1) if load[i] < 2] or list(range(len(days)))
            if left:
                options = options[: max(1, len(options) // 2)]
            chosen = rng.choice(options)
            fact.stage_session[number] = chosen
            load[chosen] += 1
            earliest = next(
                (i for i in range(chosen + 1, len(days)) if days[i] - days[chosen] >= timedelta(21)), chosen
            )


def _joiner(pack: Any) -> str:
    """What the pack's sentences are joined with: nothing in Chinese, a space in English."""
    return str(getattr(pack, "JOINER", " "))


def _ramble(pack: Any, rng: random.Random, count: int) -> str:
    return _joiner(pack).join(rng.sample(pack.SENTENCES, count))


def _pad(turn: Turn, pack: Any, rng: random.Random, before: float, after: float) -> Turn:
    """The turn in a longer message: chatter before and after it, at these odds."""
    joiner = _joiner(pack)
    ahead = rng.randint(1, 2) if rng.random() < before else 0
    behind = rng.randint(1, 3) if rng.random() < after else 0
    said = [s for s in rng.sample(pack.SENTENCES, ahead + behind) if s not in turn.text]  # none twice in a turn
    return Turn(turn.speaker, joiner.join([*said[:ahead], turn.text, *said[ahead:]]), turn.tag)


def _react(speaker: str, pack: Any, rng: random.Random) -> Turn:
    """A short reaction, now and then with a sentence more."""
    return _pad(Turn(speaker, rng.choice(pack.REACTIONS)), pack, rng, 0.0, 0.35)


def _other(pair: tuple[str, str], speaker: str) -> str:
    return pair[1] if speaker == pair[0] else pair[0]


def _session(
    number: int, day: date, facts: list[_Fact], pack: Any, pair: tuple[str, str], rng: random.Random
) -> Session:
    blocks: list[list[Turn]] = []
    for fact in facts:
        for stage, session in enumerate(fact.stage_session):
            if session == number:
                owner = fact.values["A"]
                padded = [_pad(t, pack, rng, 0.5, 0.7) if t.speaker == owner else _pad(t, pack, rng, 0.1, 0.3)
                          for t in fact.stages[stage]]  # fmt: skip
                fact.stages[stage][:] = padded  # the answers point at these turns
                blocks.append(list(padded))
    echoes = [line for fact in facts for line in fact.echoes]
    for line in rng.sample(echoes, min(len(echoes), rng.randint(1, 3))):
        speaker = rng.choice(pair)
        blocks.append([_pad(Turn(speaker, line), pack, rng, 0.5, 0.6), _react(_other(pair, speaker), pack, rng)])
    for ask, answer in rng.sample(pack.TALK, rng.randint(3, 5)):
        speaker = rng.choice(pair)
        blocks.append(
            [
                _pad(Turn(speaker, ask), pack, rng, 0.3, 0.0),
                _pad(Turn(_other(pair, speaker), answer), pack, rng, 0.3, 0.8),
            ]
        )
    for _ in range(rng.randint(1, 2)):
        blocks.append([Turn(rng.choice(pair), _ramble(pack, rng, rng.randint(2, 4)))])
    rng.shuffle(blocks)
    first = rng.choice(pair)
    names = {"A": first, "B": _other(pair, first)}
    hello, reply = rng.choice(pack.GREETINGS)
    turns = [Turn(first, _fill(hello, names)), Turn(names["B"], _fill(reply, names))]
    for block in blocks:
        if turns[-1].speaker == block[0].speaker and rng.random() < 0.5:
            turns.append(_react(_other(pair, block[0].speaker), pack, rng))
        turns += block
    closer = rng.choice(pair)
    bye = {"A": closer, "B": _other(pair, closer)}
    closing, answer = rng.choice(pack.CLOSINGS)
    turns += [Turn(closer, _fill(closing, bye)), Turn(bye["B"], _fill(answer, bye))]
    return Session(day, turns)


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
    part = "early" if day.day <= 10 else "late" if day.day > 20 else "mid"
    return rng.choice(
        (
            f"in {month}",
            f"in {month} {day.year}",
            f"on {day.day} {month} {day.year}",
            f"last {month}",
            f"in {part} {month}",
        )
    )


def _questions(fact: _Fact, sessions: list[Session], lang: str, rng: random.Random) -> list[Question]:
    out = []
    values = dict(fact.values)
    for number, session in enumerate(fact.stage_session):
        values[f"when{number}"] = _when(sessions[session].day, lang, rng)
    for raw in fact.questions:
        match = _QUESTION.match(raw)
        assert match is not None, raw
        letter, tilde, text, picks = match.groups()
        answers = []
        for pick in (int(p) for p in (picks or "0").split(",")):
            stage, line, key = fact.answers[pick]
            turn = fact.stages[stage][line]
            session = sessions[fact.stage_session[stage]]
            answers.append(
                Answer(fact.stage_session[stage], next(i for i, t in enumerate(session.turns) if t is turn), key)
            )
        out.append(Question(_fill(text, values), answers, KINDS[letter], fact.key, False, bool(tilde)))
    return out


def conversation(index: int, part: str, lang: str, fact_count: int, pack: Any = None) -> Chat:
    """One conversation, the same for the same arguments; with a pack (chatty_held2's), all of its facts are
    the pool."""
    rng = random.Random(SEED * 1000 + index)
    if pack is None:
        pack = chatty_zh if lang == "zh" else chatty_en
        tune, held = split(pack.FACTS)
        pool = tune if part == "tune" else held
    else:
        pool = pack.FACTS
    names = getattr(pack, "NAMES", None) or (ZH_NAMES if lang == "zh" else EN_NAMES)  # a pack may name its own
    user, friend = rng.sample(names, 2)
    days = _days(rng, rng.randint(14, 20))
    facts = []
    for template in rng.sample(pool, min(fact_count, len(pool))):
        owner = rng.choice((user, friend))
        facts.append(_instance(template, owner, _other((user, friend), owner), rng))
    _place(facts, days, rng)
    sessions = [_session(n, day, facts, pack, (user, friend), rng) for n, day in enumerate(days)]
    chat = Chat(index, part, lang, user, friend, False, sessions, [], STYLES[index % len(STYLES)])
    chat.named_roles = chat.style != "json-roles"
    for fact in facts:
        chat.questions += _questions(fact, sessions, lang, rng)
    return chat


def conversations() -> list[Chat]:
    """Every conversation of the chatty evaluation, tuning ones first."""
    plan = [(lang, part, facts) for part in ("tune", "held") for lang, *counts, facts in LAYOUT
            for _ in range(counts[0] if part == "tune" else counts[1])]  # fmt: skip
    return [conversation(100 + number, part, lang, facts) for number, (lang, part, facts) in enumerate(plan)]
