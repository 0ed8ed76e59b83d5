"""What recall shows of a session it found: the messages that match the question, and when none says much of
it, the ones that say the most of their own (a turn-level choice); the knobs in one Tuning object; imported
conversations dated by when they happened.

Real journals in a temporary PALACE_HOME, searched through RecallIndex and format_hits.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from palace.recall import RecallIndex, Tuning, format_hits
from palace.recall.passages import Salience, Scored, _valued
from palace.record import FrozenError, replace
from palace.sessions.importer import parse_transcript, write_sessions


def chat(home: Path, day: str, ident: str, turns: list[str]) -> None:
    """A journal of alternating user/assistant turns, dated day."""
    folder = home / "sessions"
    folder.mkdir(parents=True, exist_ok=True)
    records: list[dict[str, object]] = [{"type": "session", "id": ident, "started": f"{day}T09:00:00+00:00"}]
    for i, text in enumerate(turns):
        role = "user" if i % 2 == 0 else "assistant"
        records.append({"type": "message", "ts": f"{day}T09:00:00+00:00", "message": {"role": role, "content": text}})
    (folder / f"{day}-{ident}.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8"
    )


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "palace"


@pytest.fixture
def index(home: Path) -> Iterator[RecallIndex]:
    home.mkdir(exist_ok=True)
    with RecallIndex(home) as idx:
        yield idx


SMALL_TALK = [
    "How was your weekend?",
    "Quiet, we stayed in and cooked soup.",
    "The weather has been grey all week.",
    "At least the garden likes the rain.",
]


def _month_of_chats(home: Path) -> None:
    """Sessions over a year, each greeting Maya and making small talk; the June one also says what she did."""
    for month in (2, 3, 4, 5, 7, 8, 9):
        chat(home, f"2023-{month:02d}-12", f"a00000{month:02d}", ["Hi Maya! Got a minute?", "Always.", *SMALL_TALK])
    june = ["Hi Maya! Got a minute?", "Always.", SMALL_TALK[0], "I passed my driving test on the second try!"]
    chat(home, "2023-06-12", "a0000006", [*june, "Congratulations!", *SMALL_TALK[1:], "Bye Maya!"])


# -- the turn-level choice --------------------------------------------------------------------------------


def test_a_session_found_by_its_date_shows_what_was_said_in_it(home: Path, index: RecallIndex) -> None:
    _month_of_chats(home)
    query = "What did Maya achieve in June?"  # no word of the answer: the date and the name find the session
    hits = index.search(query)
    assert hits[0].source == "2023-06-12-a0000006"
    assert "driving test on the second try" in format_hits(hits, query=query)
    driving = next(e for e in hits[0].excerpts if "driving test" in e.text)
    assert driving.value >= 0.9 * max(e.value for e in hits[0].excerpts)  # about as much as "Hi Maya!"
    with RecallIndex(home, tuning=Tuning(salience_weight=0.0)) as plain:
        shown = plain.search(query)[0].excerpts
        assert not any("driving" in e.text for e in shown)  # by the matches alone: the greetings that name Maya


def test_messages_that_match_the_question_still_come_first(home: Path, index: RecallIndex) -> None:
    _month_of_chats(home)
    chat(
        home, "2023-10-12", "a0000010", ["Hi Maya!", *SMALL_TALK, "We finally picked the sofa: green velvet.", "Nice."]
    )
    hit = index.search("which sofa did we pick")[0]
    assert hit.source == "2023-10-12-a0000010"
    assert "green velvet" in max(hit.excerpts, key=lambda e: e.value).text


def test_salience_weighs_in_only_as_far_as_the_matches_fall_short() -> None:
    docs = [Scored(2.0, 1, "user", 1), Scored(1.0, 2, "user", 1), Scored(0.0, 3, "user", 0)]
    salient = {1: 0.0, 2: 0.0, 3: 5.0}
    tuning = Tuning()
    assert [d.score for d in _valued(docs, tuning, None)] == [1.0, 0.5, 0.0]
    assert [d.score for d in _valued(docs, tuning, Salience(salient, 1.0))] == [1.0, 0.5, 0.0]  # a full match
    weak = [d.score for d in _valued(docs, tuning, Salience(salient, 0.0))]  # matches that cover nothing
    mix = tuning.salience_weight
    assert weak == pytest.approx([1 - mix, (1 - mix) / 2, mix])


# -- the knobs ----------------------------------------------------------------------------------------------


def test_the_tuning_is_one_frozen_object_with_the_defaults(home: Path) -> None:
    tuning = Tuning()
    with pytest.raises(FrozenError):
        tuning.related = False  # type: ignore[misc]
    assert replace(tuning, decay=0.0).decay == 0.0 and tuning.decay > 0
    with RecallIndex(home) as index:
        assert index.tuning == Tuning()
    with RecallIndex(home, tuning=replace(tuning, max_centres=1)) as index:
        assert index.tuning.max_centres == 1


def test_one_centre_a_session_shows_one_passage(home: Path) -> None:
    chat(home, "2023-05-08", "b0000001", ["kafka lag again", *SMALL_TALK, "kafka brokers were slow", "why?"])
    with RecallIndex(home) as index:
        assert sum(e.side == 0 for e in index.search("kafka")[0].excerpts) == 2
    with RecallIndex(home, tuning=Tuning(max_centres=1)) as index:
        assert sum(e.side == 0 for e in index.search("kafka")[0].excerpts) == 1


# -- dates: an imported conversation is dated by when it happened ---------------------------------------


def test_an_imported_conversation_filters_and_boosts_by_its_own_dates(home: Path, index: RecallIndex) -> None:
    transcript = "".join(
        json.dumps(line) + "\n"
        for line in (
            {"session": 1, "date": "2023-06-03"},
            {"role": "user", "content": "We adopted a beagle called Pretzel."},
            {"role": "assistant", "content": "Lovely!"},
            {"session": 2, "date": "1:56 pm on 8 September, 2023"},
            {"role": "user", "content": "Pretzel chewed the sofa today."},
            {"role": "assistant", "content": "Classic beagle."},
        )
    )
    written = write_sessions(home, parse_transcript(transcript), durable=False)
    assert [w.id[:10] for w in written] == ["2023-06-03", "2023-09-08"]
    for path in (home / "sessions").iterdir():  # the files are new: written today, whatever they hold
        assert date.fromtimestamp(path.stat().st_mtime) == date.today()
        os.utime(path)
    assert sorted(h.date for h in index.search("Pretzel")) == ["2023-06-03", "2023-09-08"]
    assert index.search("Pretzel in June")[0].date == "2023-06-03"
    assert index.search("what did Pretzel do on 8 September 2023")[0].date == "2023-09-08"
    assert [h.date for h in index.search("Pretzel", until=date(2023, 6, 30))] == ["2023-06-03"]
    assert [h.date for h in index.search("Pretzel", since=date(2023, 7, 1))] == ["2023-09-08"]
    assert index.search("Pretzel", since=date.today()) == []
