"""The eleventh round: packing the 2 KB of a recall answer turn by turn across the sessions shown. Each excerpt
a session has had makes its next worth less (SOURCE_DECAY), and a turn shown only for its neighbour is worth
less than a matched message (NEIGHBOUR_SHARE), unless it is the turn after one that asks: the answer."""

from __future__ import annotations

from pathlib import Path

import pytest

from palace.recall import RecallIndex, format_hits
from palace.recall import format as fmt
from palace.recall.format import NEIGHBOUR_SHARE, SOURCE_DECAY, _items, _pack
from palace.recall.passages import Excerpt
from palace.recall.rank import RecallHit
from tests.test_recall_wording import FILLER, chat

WORDY = (
    "Tomás keeps talking about the community garden: the garden committee, the garden rota, the garden fence "
    "and who waters the garden tomatoes while the garden shed gets painted, garden meeting after garden meeting."
)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "palace"


def _hit(source: str, score: float, excerpts: list[tuple[int, float, int, str]]) -> RecallHit:
    shown = [Excerpt(rowid, "user", text, value, side) for rowid, value, side, text in excerpts]
    return RecallHit(source, "2023-05-08", "", score, "message (user)", shown)


def test_the_knobs_lower_a_source_s_later_excerpts_and_its_neighbour_turns() -> None:
    assert 0 < SOURCE_DECAY < 1 and 0 < NEIGHBOUR_SHARE < 1


def test_a_second_session_s_best_message_beats_the_first_one_s_third_match() -> None:
    text = "x" * 300
    first = _hit("2023-05-08-a", 1.0, [(1, 1.0, 0, text), (5, 0.9, 0, text), (9, 0.8, 0, text)])
    second = _hit("2023-05-09-b", 0.75, [(3, 0.9, 0, "the answer: purple carrots " + text)])
    chosen = _pack(_items([first, second]), 1100, 700)  # room for three of the four
    assert ("2023-05-09-b", 3) in {(i.hit.source, i.excerpt.rowid) for i in chosen}
    assert ("2023-05-08-a", 9) not in {(i.hit.source, i.excerpt.rowid) for i in chosen}


def test_a_neighbour_is_worth_less_unless_it_follows_a_question() -> None:
    hit = _hit(
        "2023-05-08-a",
        1.0,
        [(1, 0.5, -1, "Hi."), (2, 1.0, 0, "How long is the ride?"), (3, 0.9, 1, "Twenty-five minutes.")],
    )
    shares = {i.excerpt.rowid: i.share for i in _items([hit])}
    assert shares == {1: NEIGHBOUR_SHARE, 2: 1.0, 3: 1.0}
    plain = _hit("2023-05-08-a", 1.0, [(2, 1.0, 0, "I cycle now."), (3, 0.9, 1, "Nice.")])
    assert {i.excerpt.rowid: i.share for i in _items([plain])}[3] == NEIGHBOUR_SHARE


def test_the_answer_after_a_matched_question_is_shown(home: Path) -> None:
    chat(
        home,
        "2023-05-01",
        "a0000001",
        [*FILLER, "Nice! How long is the ride to work?", "Twenty-five minutes each way.", "See you."],
    )
    for n in range(3):
        chat(home, f"2023-06-0{n + 1}", f"b000000{n}", [*FILLER, *(f"{WORDY} The ride {k}." for k in range(4))])
    index = RecallIndex(home)
    try:
        query = "How long is the ride to work?"
        assert "Twenty-five minutes each way" in format_hits(index.search(query, limit=5), query=query)
    finally:
        index.close()


def test_the_answer_shows_though_wordier_sessions_share_more_words(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for n in range(2):  # two sessions of wordier messages sharing more of the query's words than the answer
        chat(home, f"2023-05-0{n + 1}", f"a000000{n}", [*FILLER, *(f"{WORDY} Round {k}." for k in range(10))])
    chat(home, "2023-06-01", "b0000001", [*FILLER, "Tomás got a plot at the garden: purple carrots.", "Lovely!"])
    index = RecallIndex(home)
    try:
        query = "What does Tomás grow at the garden?"
        hits = index.search(query, limit=5)
        spread = format_hits(hits, query=query)
        monkeypatch.setattr(fmt, "SOURCE_DECAY", 1.0)
        monkeypatch.setattr(fmt, "NEIGHBOUR_SHARE", 1.0)
        flat = format_hits(hits, query=query)
    finally:
        index.close()
    assert "purple carrots" in spread and len(spread.encode()) <= 2048
    assert "purple carrots" not in flat  # packed by value alone, the wordy sessions' later matches fill the bytes
