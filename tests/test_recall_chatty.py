"""The chatty evaluation as a guard (bench/recall_eval/chatty.py): long, dated two-speaker conversations over
a year and more, English and Chinese, written for the recall-quality issue in another style than convo.py's,
with paraphrased, multi-session, temporal and inference questions. Each conversation is imported into its
own palace and asked its questions; "bearing": the exact text of the recall tool (format_hits at 2048 bytes
of a limit-5 search) holds the marked evidence of an answer message.

The floors are the counts measured when they were set (bench/recall_eval/run.py prints them as rates):
raise them when recall improves, never lower them to let a change through. The held-out part is measured,
never tuned on; so are the second, third and fourth held-out sets (chatty_held2.py, chatty_held3.py,
chatty_held4.py: facts and small talk of their own, each written before the ranking changes it measures).
The fifth (chatty_held5.py), written blind, was tuned on in the seventh round, the sixth (chatty_held6.py)
in the eighth.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from recall_eval import (
    chatty,
    chatty_en,
    chatty_held2,
    chatty_held2_en,
    chatty_held3,
    chatty_held3_en,
    chatty_held4,
    chatty_held4_en,
    chatty_held4_zh,
    chatty_held5,
    chatty_held6,
    chatty_zh,
)
from recall_eval.convo_eval import Outcome, figures, run, select

CHATTY_QUESTIONS = {"tune": 332, "held": 199, "held2": 214, "held3": 181, "held4": 215, "held5": 282, "held6": 370}
CHATTY_FLOORS = {  # part -> (recall@1, recall@5, answer-bearing); before issue 26: 192/245/197 and 98/135/104;
    # raised with the speaker, nearness and length-cap factors of score.py (from 214/286/272, 102/143/134 and,
    # for the second held-out set, 120/177/156 measured before them)
    # for the second held-out set, 120/177/156 measured before them), then with the concept words of
    # concepts.py (from 219/286/275, 103/148/138, 126/178/159, 95/133/122; measured 249/316/305, 113/160/148,
    # 133/183/166, 102/141/128, 125/179/159), then with the seventh round's changes (measured 251/317/311,
    # 121/170/162, 134/185/176, 105/141/132, 129/180/175; the fifth set 111/200/176), then with the eighth
    # round's (idioms, questions about now, vocabulary: measured 259/319/316, 121/172/162, 134/185/176,
    # 105/141/132, 130/180/175, 121/223/195; the sixth set 193/314/286)
    "tune": (257, 317, 314),
    "held": (119, 170, 160),
    "held2": (132, 183, 174),
    "held3": (103, 139, 130),  # measured 97/135/124 when it was written, before the third round's experiments
    "held4": (128, 178, 173),  # measured 93/131/115 when it was written, before the concept words (91/131/115
    # once a line of its small talk that the second set also has was replaced)
    "held5": (119, 221, 193),  # measured 109/194/156 when it was written blind; tuned on in the seventh round
    "held6": (191, 312, 284),  # measured 154/283/241 when it was written blind; tuned on in the eighth round
}


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> list[Outcome]:
    return run(tmp_path_factory.mktemp("chatty-eval"), chatty.conversations())


@pytest.fixture(scope="module")
def held2(tmp_path_factory: pytest.TempPathFactory) -> list[Outcome]:
    return run(tmp_path_factory.mktemp("chatty-held2"), chatty_held2.conversations())


@pytest.fixture(scope="module")
def held3(tmp_path_factory: pytest.TempPathFactory) -> list[Outcome]:
    return run(tmp_path_factory.mktemp("chatty-held3"), chatty_held3.conversations())


@pytest.fixture(scope="module")
def held4(tmp_path_factory: pytest.TempPathFactory) -> list[Outcome]:
    return run(tmp_path_factory.mktemp("chatty-held4"), chatty_held4.conversations())


@pytest.fixture(scope="module")
def held5(tmp_path_factory: pytest.TempPathFactory) -> list[Outcome]:
    return run(tmp_path_factory.mktemp("chatty-held5"), chatty_held5.conversations())


@pytest.fixture(scope="module")
def held6(tmp_path_factory: pytest.TempPathFactory) -> list[Outcome]:
    return run(tmp_path_factory.mktemp("chatty-held6"), chatty_held6.conversations())


def _explain(outcomes: list[Outcome]) -> str:
    if outcomes and outcomes[0].convo.part != "tune":  # the held-out parts are measured, not looked into
        return f"{len(outcomes)} held-out questions"
    misses = [o for o in outcomes if not o.bearing or o.rank != 1]
    return "\n".join(f"rank {o.rank or '-'} bearing {o.bearing}: {o.question.text}" for o in misses[:40])


@pytest.mark.parametrize("part", ["tune", "held", "held2", "held3", "held4", "held5", "held6"])
def test_chatty_recall_and_answer_bearing_stay_at_or_above_the_floors(
    outcomes: list[Outcome],
    held2: list[Outcome],
    held3: list[Outcome],
    held4: list[Outcome],
    held5: list[Outcome],
    held6: list[Outcome],
    part: str,
) -> None:
    sets = {"held2": held2, "held3": held3, "held4": held4, "held5": held5, "held6": held6}
    asked = select(sets.get(part, outcomes), part=part)
    result = figures(asked)
    assert result.asked == CHATTY_QUESTIONS[part]  # the generated questions, none dropped
    at1, at5, bearing = CHATTY_FLOORS[part]
    assert result.at1 >= at1, _explain(asked)
    assert result.at5 >= at5, _explain(asked)
    assert result.bearing >= bearing, _explain(asked)
    assert result.size_p50 <= 2048  # the tool's text stays within its default budget


def test_the_chatty_evaluation_covers_what_it_claims(outcomes: list[Outcome]) -> None:
    convos = {o.convo.index: o.convo for o in outcomes}
    assert len(convos) >= 24 and len(outcomes) >= 500
    assert all(len(c.sessions) >= 14 for c in convos.values())
    assert all((c.sessions[-1].day - c.sessions[0].day).days >= 180 for c in convos.values())  # months apart
    assert {c.style for c in convos.values() if isinstance(c, chatty.Chat)} == set(chatty.STYLES)
    assert {c.lang for c in convos.values()} == {"en", "zh"} and len(select(outcomes, lang="zh")) >= 100
    for part in ("tune", "held"):
        kinds = {kind: len(select(outcomes, part=part, kind=kind)) for kind in (*chatty.KINDS.values(), "paraphrase")}
        assert min(kinds.values()) >= 20, (part, kinds)
    assert sum(c.part == "held" for c in convos.values()) >= 0.3 * len(convos)
    # Held-out conversations tell only facts the tuning ones never do, split by the fixed seed.
    tune = {o.question.fact for o in select(outcomes, part="tune")}
    held = {o.question.fact for o in select(outcomes, part="held")}
    assert tune and held and not tune & held
    for pack in (chatty_en, chatty_zh):
        first, second = chatty.split(pack.FACTS), chatty.split(pack.FACTS)
        assert [f["key"] for f in first[1]] == [f["key"] for f in second[1]]


def test_the_second_held_out_set_is_new_text(held2: list[Outcome]) -> None:
    convos = {o.convo.index: o.convo for o in held2}
    assert len(convos) >= 8 and len(held2) >= 200 and len(select(held2, lang="zh")) >= 40
    assert all(len(c.sessions) >= 14 for c in convos.values())
    first = {f["key"] for f in (*chatty_en.FACTS, *chatty_zh.FACTS)}
    assert first.isdisjoint(o.question.fact for o in held2)  # facts of its own, none of the first set's
    assert set(chatty_held2_en.SENTENCES).isdisjoint(chatty_en.SENTENCES)  # its own small talk


def test_the_third_held_out_set_is_new_text(held2: list[Outcome], held3: list[Outcome]) -> None:
    convos = {o.convo.index: o.convo for o in held3}
    assert len(convos) >= 8 and len(held3) >= 150 and len(select(held3, lang="zh")) >= 30
    assert all(len(c.sessions) >= 14 for c in convos.values())
    earlier = {f["key"] for f in (*chatty_en.FACTS, *chatty_zh.FACTS)} | {o.question.fact for o in held2}
    assert earlier.isdisjoint(o.question.fact for o in held3)  # facts of its own
    said = {*chatty_en.SENTENCES, *chatty_held2_en.SENTENCES}
    assert set(chatty_held3_en.SENTENCES).isdisjoint(said)  # its own small talk


def test_the_fourth_held_out_set_is_new_text_and_people(
    held2: list[Outcome], held3: list[Outcome], held4: list[Outcome]
) -> None:
    convos = {o.convo.index: o.convo for o in held4}
    assert len(convos) >= 8 and len(held4) >= 150 and len(select(held4, lang="zh")) >= 30
    assert all(len(c.sessions) >= 14 for c in convos.values())
    earlier = {f["key"] for f in (*chatty_en.FACTS, *chatty_zh.FACTS)} | {o.question.fact for o in [*held2, *held3]}
    assert earlier.isdisjoint(o.question.fact for o in held4)  # facts of its own
    said = {*chatty_en.SENTENCES, *chatty_held2_en.SENTENCES, *chatty_held3_en.SENTENCES}
    assert set(chatty_held4_en.SENTENCES).isdisjoint(said)  # its own small talk
    names = {*chatty.EN_NAMES, *chatty.ZH_NAMES}
    assert names.isdisjoint({*chatty_held4_en.NAMES, *chatty_held4_zh.NAMES})  # its own people
    assert all({c.user, c.friend} <= {*chatty_held4_en.NAMES, *chatty_held4_zh.NAMES} for c in convos.values())


def test_every_question_marks_evidence_that_its_conversation_holds(
    outcomes: list[Outcome], held2: list[Outcome], held3: list[Outcome], held4: list[Outcome]
) -> None:
    for outcome in [*outcomes, *held2, *held3, *held4]:
        convo, question = outcome.convo, outcome.question
        assert question.answers, question.text
        for answer in question.answers:
            assert answer.key in convo.sessions[answer.session].turns[answer.turn].text, question.text
        if question.kind == "multi":
            assert len({a.session for a in question.answers}) > 1, question.text
