"""What recall hands the model: answer-bearing passages, conversation dates, numbers, typos, related words.

Real journals and archives in a temporary PALACE_HOME, searched through RecallIndex and format_hits.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from palace.recall import RecallIndex, Tuning, dates, format_hits, query_terms, stem, tokenize
from palace.recall.dates import parse_when, query_date
from palace.recall.schema import ANY_TERM, unpack_terms

SECRET = "sk-proj-Zx81Qw3Er5Ty7Ui9Op2As4Df6Gh8Jk0L"


def chat(home: Path, name_day: str, ident: str, turns: list[str], *, started: str | None = None) -> Path:
    """A journal of alternating user/assistant turns, its header dated `started` (default: the name's day)."""
    folder = home / "sessions"
    folder.mkdir(parents=True, exist_ok=True)
    day = started or name_day
    records: list[dict[str, object]] = [
        {"type": "session", "id": f"{name_day}-{ident}", "started": f"{day}T09:00:00+02:00", "model": "m", "wing": None}
    ]
    for i, text in enumerate(turns):
        role = "user" if i % 2 == 0 else "assistant"
        records.append(
            {"type": "message", "ts": f"{day}T09:0{i % 10}:00+02:00", "message": {"role": role, "content": text}}
        )
    path = folder / f"{name_day}-{ident}.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "palace"


@pytest.fixture
def index(home: Path) -> Iterator[RecallIndex]:
    home.mkdir(exist_ok=True)
    idx = RecallIndex(home)
    yield idx
    idx.close()


def told(index: RecallIndex, query: str, max_bytes: int = 2048) -> str:
    return format_hits(index.search(query, limit=5), max_bytes=max_bytes, query=query)


FILLER = [
    "Morning! How was the weekend?",
    "Pretty quiet, we mostly stayed in and cooked.",
    "The weather has been awful all week, rain every single day.",
    "At least the garden likes it.",
]


# -- answer-bearing passages --------------------------------------------------------------------------


def test_the_answer_after_a_question_is_shown_though_it_holds_no_query_word(home: Path, index: RecallIndex) -> None:
    chat(
        home, "2023-05-08", "a0000001", [*FILLER, "Do you have any pets at home?", "Yep, Shelly and Tank, two of them."]
    )
    text = told(index, "what pets does she have")
    assert "Do you have any pets at home?" in text
    assert "Shelly and Tank" in text  # the turn after the question: the answer
    assert "user: Do you have any pets" in text and "assistant: Yep, Shelly and Tank" in text


def test_an_answer_two_turns_on_follows_a_question_asked_back(home: Path, index: RecallIndex) -> None:
    turns = [*FILLER, "We adopted a rescue dog over the weekend!", "No way! What kind?", "A greyhound named Pixie."]
    chat(home, "2023-05-08", "a0000002", turns)
    assert "A greyhound named Pixie." in told(index, "which rescue dog was adopted")


def test_the_turn_before_a_short_echo_is_shown_and_outranks_it(home: Path, index: RecallIndex) -> None:
    turns = [
        *FILLER,
        "My turtles Shelly and Tank spend all day on their rock under the heat lamp.",
        "So cute! I love your turtles!",
    ]
    chat(home, "2023-05-08", "a0000003", turns)
    hits = index.search("what are the turtles called", limit=5)
    values = {e.text: e.value for e in hits[0].excerpts}
    answer = next(v for t, v in values.items() if t.startswith("My turtles"))
    echo = next(v for t, v in values.items() if t.startswith("So cute"))
    assert answer > echo  # the echo repeats the query's word and says nothing else
    assert "Shelly and Tank" in format_hits(hits)


def test_several_passages_of_one_session_are_shown_when_they_score(home: Path, index: RecallIndex) -> None:
    turns = [
        "I started a pottery class on Thursdays.",
        "Fun! Made anything?",
        "A bowl so far.",
        *FILLER,
        "The pottery teacher fired my mug in the kiln.",
        "Did it survive?",
        "The handle fell off, naturally.",
    ]
    chat(home, "2023-05-08", "a0000004", turns)
    text = told(index, "pottery class mug kiln")
    assert "A bowl so far." in text and "The handle fell off" in text
    assert "rain every single day" not in text  # the unrelated middle of the session is not shown


def test_each_passage_carries_its_date_and_role(home: Path, index: RecallIndex) -> None:
    chat(home, "2023-05-08", "a0000005", ["What should the new logo look like?", "A blue fox on white."])
    text = told(index, "new logo")
    assert "\nsession 2023-05-08-a0000005 · no wing\n" in text
    assert "  - [2023-05-08] user: What should the new logo look like?" in text
    assert "    assistant: A blue fox on white." in text


def test_the_output_fills_its_budget_and_never_exceeds_it(home: Path, index: RecallIndex) -> None:
    for i in range(8):
        long_turns = [f"Kafka consumer lag story {i}: " + "the brokers were slow and the partitions uneven. " * 6] * 6
        chat(home, f"2023-05-{10 + i:02d}", f"b00000{i:02d}", long_turns)
    small = told(index, "kafka consumer lag")
    assert 1600 < len(small.encode("utf-8")) <= 2048
    big = told(index, "kafka consumer lag", max_bytes=16384)
    assert 2048 < len(big.encode("utf-8")) <= 16384
    assert big.count("session 2023-05-") == 5


def test_secrets_in_neighbouring_turns_stay_redacted(home: Path, index: RecallIndex) -> None:
    chat(home, "2023-05-08", "a0000006", ["Which key does the deploy use?", f"It uses {SECRET} for now."])
    text = told(index, "deploy key", max_bytes=16384)
    assert "It uses" in text and SECRET not in text and "[redacted" in text


# -- dates that belong to the conversation ---------------------------------------------------------------


def test_a_replayed_session_is_dated_by_its_header_not_its_file_name(home: Path, index: RecallIndex) -> None:
    chat(home, "2026-11-30", "c0000001", ["We chose Postgres for billing."], started="2023-06-03")
    hits = index.search("postgres billing")
    assert hits[0].date == "2023-06-03"
    assert "[2023-06-03] user: We chose Postgres" in format_hits(hits)
    assert index.search("postgres", since=date(2023, 6, 1), until=date(2023, 6, 30))
    assert not index.search("postgres", since=date(2026, 11, 1))


def test_an_archive_is_dated_by_its_started_line(home: Path, index: RecallIndex) -> None:
    folder = home / "sessions"
    folder.mkdir(parents=True)
    (folder / "2026-11-30-c0000002.md").write_text(
        "# Session 2026-11-30 · c0000002\n\n- Started: 2023-03-14 10:00 +00:00\n- Ended: 2023-03-14 11:00 +00:00\n\n"
        "## Summary\nPicked a heron for the logo.\n\n## Memories Extracted\n- (none)\n",
        encoding="utf-8",
    )
    assert [h.date for h in index.search("heron logo")] == ["2023-03-14"]
    assert not index.search("heron", until=date(2023, 3, 13))


def test_an_archive_without_a_summary_indexes_nothing_of_its_own(home: Path, index: RecallIndex) -> None:
    folder = home / "sessions"
    folder.mkdir(parents=True)
    (folder / "2023-01-02-c0000003.md").write_text(
        "# Session 2023-01-02 · c0000003\n\n- Started: 2023-01-02 10:00 +00:00\n\n## Summary\n(no summary)\n\n"
        "## Memories Extracted\n- (none)\n",
        encoding="utf-8",
    )
    assert index.search("summary") == []


def test_a_month_in_the_query_boosts_that_months_sessions(home: Path, index: RecallIndex) -> None:
    chat(home, "2023-06-10", "d0000001", ["the logo should be a heron"])
    chat(home, "2023-09-10", "d0000002", ["the logo should be a heron"])
    assert index.search("logo heron")[0].source == "2023-09-10-d0000002"  # newer first among equals
    assert index.search("what did we say about the logo in June")[0].source == "2023-06-10-d0000001"
    assert index.search("logo on 10 June 2023")[0].source == "2023-06-10-d0000001"
    assert index.search("6月的logo")[0].source == "2023-06-10-d0000001"
    # A boost, not a filter: the other session is still found.
    assert len(index.search("logo in June")) == 2


def test_query_dates_are_read_in_english_and_chinese() -> None:
    today = date(2026, 12, 1)
    june = query_date("what did we decide in June", today)
    assert june is not None and june.month == 6 and june.matches("2023-06-30") and not june.matches("2023-07-01")
    day = query_date("notes from 3 June 2023", today)
    assert day is not None and (day.low, day.high) == ("2023-06-03", "2023-06-03")
    month = query_date("in May 2023", today)
    assert month is not None and (month.low, month.high) == ("2023-05-01", "2023-05-31")
    assert query_date("I may go later", today) is None  # "may" the verb is no month
    zh = query_date("2023年6月3日说了什么", today)
    assert zh is not None and zh.low == "2023-06-03"
    week = query_date("what did we do last week", today)
    assert week is not None and week.low <= "2026-11-24" and week.high == "2026-12-01"
    assert parse_when("1:56 pm on 8 May, 2023") is not None
    moment = parse_when("1:56 pm on 8 May, 2023")
    assert moment is not None and (moment.date(), moment.hour, moment.minute) == (date(2023, 5, 8), 13, 56)
    assert parse_when("next Tuesday") is None


# -- matching -----------------------------------------------------------------------------------------------


def test_numbers_match_as_words_and_digits() -> None:
    assert tokenize("three kids, twenty-five minutes, 25 minutes") == ["3", "kid", "25", "minut", "25", "minut"]
    assert "3" in tokenize("我养了三只猫") and "12" in tokenize("十二个人")
    assert "3" in [t.text for t in query_terms("the 3 cats")]
    assert "one" in tokenize("the one I liked")  # "one" stays a word: it is mostly not a number


def test_a_question_with_digits_finds_the_number_in_words(home: Path, index: RecallIndex) -> None:
    chat(home, "2023-05-08", "e0000001", ["We adopted three kittens from the shelter."])
    chat(home, "2023-05-09", "e0000002", ["The shelter has a new roof."])
    assert index.search("who adopted 3 kittens")[0].source == "2023-05-08-e0000001"
    chat(home, "2023-05-10", "e0000003", ["我养了3只猫"])
    assert index.search("三只猫")[0].source == "2023-05-10-e0000003"


def test_a_misspelt_query_word_finds_the_indexed_word(home: Path, index: RecallIndex) -> None:
    chat(home, "2023-05-08", "f0000001", ["The music festival was three days of mud."])
    hits = index.search("fesetival mud")
    assert hits and hits[0].source == "2023-05-08-f0000001"
    assert "festival" in hits[0].snippet
    assert index.search("festivla") and not index.search("xyzzyq")


def test_irregular_past_forms_match_their_verb(home: Path, index: RecallIndex) -> None:
    chat(home, "2023-05-09", "f0000003", ["I bought a used electric car."])
    chat(home, "2023-05-10", "f0000004", ["The car is electric and used daily."])
    assert index.search("what did I buy")[0].source == "2023-05-09-f0000003"
    assert stem("bought") == stem("buying") == stem("buy")


def test_related_words_match_unless_tuned_off(home: Path, index: RecallIndex) -> None:
    chat(home, "2023-05-08", "f0000002", ["My workmates threw me a surprise party."])
    chat(home, "2023-05-11", "f0000005", ["A surprise party for the neighbours."])
    assert index.search("party colleagues")[0].source == "2023-05-08-f0000002"
    with RecallIndex(home, tuning=Tuning(related=False)) as off:
        assert off.search("party colleagues")[0].source == "2023-05-11-f0000005"  # "colleagues" matches nothing


# -- the index's own tables -------------------------------------------------------------------------------


def _recount(conn: sqlite3.Connection) -> tuple[dict[str, tuple[int, int]], dict[str, set[int]]]:
    """term -> (documents, files) and term -> files, counted again from the documents."""
    docs: dict[str, int] = {}
    files: dict[str, set[int]] = {}
    for file_id, terms in conn.execute("SELECT file_id, terms FROM doc"):
        for term in {*unpack_terms(terms).split(" "), ANY_TERM}:  # ANY_TERM: every document and file with a term
            docs[term] = docs.get(term, 0) + 1
            files.setdefault(term, set()).add(file_id)
    return {t: (docs[t], len(files[t])) for t in docs}, files


def test_the_vocabulary_and_file_index_follow_every_change(home: Path, index: RecallIndex) -> None:
    first = chat(home, "2023-05-08", "a1000001", ["kafka lag alert", "the lag is three minutes"])
    chat(home, "2023-05-09", "a1000002", ["kafka partitions", "我们的数据库"])
    index.refresh()
    first.write_text(first.read_text(encoding="utf-8").replace("alert", "pager"), encoding="utf-8")
    os.utime(first, (1_700_000_000, 1_700_000_000))
    (home / "sessions" / "2023-05-09-a1000002.jsonl").unlink()
    chat(home, "2023-05-10", "a1000003", ["pager duty for kafka"])
    index.refresh()
    conn = sqlite3.connect(index.path)
    try:
        counted, holders = _recount(conn)
        stored = {t: (d, f) for t, d, f in conn.execute("SELECT term, docs, files FROM vocab")}
        assert stored == counted  # "alert" and the Chinese terms are gone, "pager" counted twice
        assert "alert" not in stored and "数据" not in stored and stored["pager"] == (2, 2)
        for term, files in holders.items():
            if term == ANY_TERM:
                continue
            found = {r for (r,) in conn.execute("SELECT rowid FROM ffts WHERE ffts MATCH ?", (f'"{term}"',))}
            assert found == files, term
    finally:
        conn.close()


_TIME_WORDS = ["in", "on", "june", "May", "sept", "last", "week", "this", "month", "yesterday", "of", "2023", "8th"]


@settings(max_examples=300, deadline=None)
@example(["what", "did", "we", "do", "last", "week"])
@example(["notes", "this", "month"])
@example(["yesterday"])
@example(["in", "june"])
@example(["in", "september", "2023"])
@example(["on", "8", "May"])
@given(st.lists(st.sampled_from([*_TIME_WORDS, "postgres", "the"]) | st.text(max_size=4), max_size=5))
def test_the_quick_look_for_a_time_never_hides_one(words: list[str]) -> None:
    # query_date skips its patterns for an ASCII query with no digit and no time word; run them anyway and
    # the answer must be the same.
    query = " ".join(words)
    today = date(2026, 12, 1)
    expected = None
    for finder in (dates._day_hint, dates._month_hint, dates._zh_hint, dates._year_hint, dates._relative_hint):
        expected = finder(query, today)
        if expected is not None:
            break
    assert query_date(query, today) == expected
