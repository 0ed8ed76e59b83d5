"""Concept words (palace/recall/concepts.py: a general word of a question finds the specific words a
conversation says, one way) and longer spellings (expand.stretch: "postgres" finds "postgresql").

Real journals in a temporary PALACE_HOME, searched through RecallIndex, plus the table on its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from palace.recall import RecallIndex, Tuning, concepts, query_terms, stem
from tests.test_recall_wording import FILLER, chat


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "palace"


def _specific(word: str) -> set[str]:
    """The specific words a general word finds, each as its terms joined by spaces."""
    found: set[str] = set()
    for term in query_terms(word):
        found |= {" ".join(t.text for t in alternative) for alternative in concepts.concept_words(term)}
    return found


def test_a_general_word_finds_its_kinds_one_way_only() -> None:
    assert {stem("ferret"), stem("dog"), stem("hamster")} <= _specific("pets")
    assert {stem("piano"), stem("guitar")} <= _specific("instrument")
    assert {stem("javascript"), stem("python")} <= _specific("computers")
    assert stem("cat") not in _specific("dog")  # a kind does not find its siblings
    assert _specific("teapot") == set()


def test_chinese_general_words_find_their_kinds_as_bigrams_and_units() -> None:
    assert "钢琴" in _specific("乐器") and "吉他" in _specific("乐器")
    assert "天" in _specific("多久")  # a unit after a number ("十天": "10", "天") is its own term


def test_a_question_in_general_words_finds_the_specific_message(home: Path) -> None:
    chat(home, "2023-05-08", "d0000001", [*FILLER, "We adopted a greyhound from the shelter last week."])
    chat(home, "2023-05-09", "d0000002", [*FILLER, "I finally fixed the leaking kitchen tap."])
    with RecallIndex(home) as on:
        assert [h.source for h in on.search("what pets")][:1] == ["2023-05-08-d0000001"]
    with RecallIndex(home, tuning=Tuning(concept_weight=0.0, related=False)) as off:
        assert off.search("what pets") == []


def test_chinese_question_in_general_words_finds_the_specific_message(home: Path) -> None:
    chat(home, "2023-05-08", "d0000001", ["最近怎么样？", "我每周六上午学钢琴，老师很严格。"])
    chat(home, "2023-05-09", "d0000002", ["最近怎么样？", "我家楼下新开了一家面包店。"])
    with RecallIndex(home) as on:
        assert [h.source for h in on.search("他会弹乐器吗")][:1] == ["2023-05-08-d0000001"]


def test_a_word_no_document_holds_finds_its_longer_spelling(home: Path) -> None:
    chat(home, "2023-05-08", "d0000001", ["We moved the orders table to PostgreSQL on Friday.", "How did it go?"])
    chat(home, "2023-05-09", "d0000002", ["The tensorflow build failed again.", "Pin the version."])
    with RecallIndex(home, tuning=Tuning(related=False)) as on:
        assert [h.source for h in on.search("postgres migration")][:1] == ["2023-05-08-d0000001"]
        assert [h.source for h in on.search("tensor build")][:1] == ["2023-05-09-d0000002"]
    with RecallIndex(home, tuning=Tuning(related=False, stretch=False)) as off:
        assert off.search("postgres") == []
