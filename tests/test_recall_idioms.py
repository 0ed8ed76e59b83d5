"""Idioms said plainly (palace/recall/idioms.py), questions about how things stand now (the latest session
found ranks higher), the British double l of the stemmer, and table words of two English words.

Real journals in a temporary PALACE_HOME, searched through RecallIndex, plus the pieces on their own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from palace.recall import RecallIndex, Tuning, expand, idioms, query_terms, stem
from palace.recall.query import parse_query
from tests.test_recall_wording import FILLER, chat


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "palace"


def test_an_idiom_is_searched_as_its_plain_words() -> None:
    assert idioms.plain("How did her other half pop the question?").split() == [
        "How",
        "did",
        "her",
        "partner",
        "propose",
        "?",
    ]
    assert "输液" in idioms.plain("她为什么去打点滴？")
    assert idioms.plain("the other day") == "the other day"  # no idiom, nothing changed
    assert {t.text for t in query_terms(idioms.plain("Did they tie the knot?"))} == {stem("marry"), stem("wedding")}


def test_an_idiomatic_question_finds_the_plain_answer(home: Path) -> None:
    chat(home, "2023-05-08", "d0000001", [*FILLER, "Big news: my partner proposed on the pier at sunset!"])
    chat(home, "2023-05-09", "d0000002", [*FILLER, "Half the office is off with a cold, question is who is next."])
    with RecallIndex(home) as index:
        assert [h.source for h in index.search("how did her other half pop the question")][:1] == [
            "2023-05-08-d0000001"
        ]


def test_a_question_about_now_ranks_the_latest_session_first(home: Path) -> None:
    chat(home, "2023-02-08", "d0000001", [*FILLER, "I drive an old diesel Golf to work."])
    chat(home, "2023-09-09", "d0000002", [*FILLER, "I drive a new electric Fiat to work, it is quiet."])
    chat(home, "2023-03-09", "d0000003", [*FILLER, "I drive the red Golf to work."])
    with RecallIndex(home) as index:
        assert [h.source for h in index.search("what does she drive to work these days")][:1] == ["2023-09-09-d0000002"]
    assert parse_query("is he still at the bakery", 5, None, None, ()).present
    assert parse_query("他现在还在面包店吗", 5, None, None, ()).present
    assert not parse_query("what did he bake in June", 5, None, None, ()).present  # a time named instead
    with RecallIndex(home) as on, RecallIndex(home, tuning=Tuning(present_boost=0.0)) as off:
        ask = "what does she drive to work these days"
        latest = [{h.source[-8:]: h.score for h in index.search(ask)} for index in (on, off)]
        assert latest[0]["d0000002"] / latest[0]["d0000001"] > 1.3 * latest[1]["d0000002"] / latest[1]["d0000001"]


def test_the_british_double_l_meets_the_single_one() -> None:
    assert stem("travelled") == stem("travel") == stem("travelling")
    assert stem("cancelled") == stem("cancel")
    assert stem("smelled") == "smell" and stem("filled") == "fill" and stem("installed") == "install"


def test_a_table_word_of_two_words_is_found_but_finds_nothing() -> None:
    found = {" ".join(t.text for t in alternative) for alternative in expand.related(query_terms("neighbour")[0])}
    assert f"{stem('next')} {stem('door')}" in found
    assert expand.related(query_terms("next")[0]) == ()
