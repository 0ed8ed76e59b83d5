"""How recall matches words: the related-words table (everyday synonyms, tech names, Chinese), the stemmer's
short stems, and the weights of terms every session holds and of very short messages.

Real journals in a temporary PALACE_HOME, searched through RecallIndex, plus the pieces on their own.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from palace.recall import RecallIndex, Tuning, expand, query_terms, stem
from palace.recall.score import short_factor
from palace.recall.text import QueryTerm
from palace.recall.weights import common_factor


def chat(home: Path, day: str, ident: str, turns: list[str]) -> None:
    """A journal of alternating user/assistant turns, dated day."""
    folder = home / "sessions"
    folder.mkdir(parents=True, exist_ok=True)
    records: list[dict[str, object]] = [{"type": "session", "id": ident, "started": f"{day}T09:00:00+00:00"}]
    for i, text in enumerate(turns):
        role = "user" if i % 2 == 0 else "assistant"
        records.append(
            {"type": "message", "ts": f"{day}T09:0{i % 10}:00+00:00", "message": {"role": role, "content": text}}
        )
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


FILLER = ["Morning! How was the weekend?", "Quiet, we stayed in and cooked.", "The weather was awful all week."]


def _related(word: str) -> set[str]:
    term = query_terms(word)[0]
    return {" ".join(t.text for t in alternative) for alternative in expand.related(term)}


# -- the related-words table ------------------------------------------------------------------------------


def test_the_table_holds_everyday_synonyms_tech_names_and_chinese_words() -> None:
    assert stem("colleague") in _related("workmates") and stem("workmate") in _related("colleagues")
    assert "bike" in _related("bicycle") and stem("bicycle") in _related("bikes")
    assert "postgresql" in _related("postgres") and stem("postgres") in _related("PostgreSQL")
    assert stem("kubernetes") in _related("k8s") and "k8s" in _related("Kubernetes")
    assert "javascript" in _related("js") and "js" in _related("JavaScript")
    assert "自行 行车" in _related("单车")  # a Chinese word as its bigrams
    assert _related("pytest") == set()  # a word of no group


def test_every_group_maps_each_word_to_the_others_both_ways() -> None:
    for line in expand._GROUPS:
        words = [tuple(t.text for t in query_terms(word.replace("_", " "))) for word in line.split()]
        for word in words:
            if len(word) > 1 and word[0].isascii():
                continue  # two English words ("next_door") are found for the others, never a key themselves
            term = QueryTerm(word[0], len(word[0]) == 1 and not word[0].isascii(), 0)
            found = {tuple(t.text for t in alternative) for alternative in expand.related(term)}
            assert {w for w in words if w[0] != word[0]} <= found, (line, word)
        english = [w for w in line.split() if w.isascii() and "_" not in w]
        assert all(len(query_terms(w)) == 1 for w in english), line  # single words: no phrase half-matches
        for word in line.split():  # the table's own reading of a word is the query's
            read = [(t.text, t.prefix) for t in expand._terms(word)]
            assert read == [(t.text, t.prefix) for t in query_terms(word.replace("_", " "))]


def test_a_synonym_finds_the_session_that_says_it_the_other_way(home: Path, index: RecallIndex) -> None:
    chat(home, "2023-05-08", "a0000001", [*FILLER, "My workmates threw me a surprise party.", "Aww, lovely."])
    chat(home, "2023-05-09", "a0000002", [*FILLER, "We moved billing onto PostgreSQL last night.", "Finally!"])
    chat(home, "2023-05-10", "a0000003", [*FILLER, "I cycle in on my new bike now.", "In this traffic?"])
    chat(home, "2023-05-11", "a0000004", [*FILLER, "我买了一辆二手自行车。", "真不错。"])
    chat(home, "2023-05-12", "a0000005", [*FILLER, "The pods kept restarting on Kubernetes.", "Ugh."])
    assert index.search("what did my colleagues do")[0].source == "2023-05-08-a0000001"
    assert index.search("when did we move to postgres")[0].source == "2023-05-09-a0000002"
    assert index.search("which bicycle do I ride")[0].source == "2023-05-10-a0000003"
    assert index.search("单车")[0].source == "2023-05-11-a0000004"
    assert index.search("k8s pods")[0].source == "2023-05-12-a0000005"


def test_the_word_itself_counts_more_than_its_synonym(home: Path, index: RecallIndex) -> None:
    chat(home, "2023-05-08", "b0000001", [*FILLER, "The party my colleagues threw was lovely."])
    chat(home, "2023-05-09", "b0000002", [*FILLER, "The party my workmates threw was lovely."])
    hits = index.search("workmates party")
    assert [h.source for h in hits] == ["2023-05-09-b0000002", "2023-05-08-b0000001"]
    assert hits[0].score > hits[1].score


def test_a_misspelt_word_of_the_table_still_finds_its_synonyms(home: Path, index: RecallIndex) -> None:
    chat(home, "2023-05-08", "c0000001", [*FILLER, "The car broke down on the motorway.", "Oh no."])
    chat(home, "2023-05-09", "c0000002", [*FILLER, "The motorway was closed all day.", "Again?"])
    assert index.search("what happened to the veehicle on the motorway")[0].source == "2023-05-08-c0000001"


def test_related_words_can_be_tuned_off(home: Path) -> None:
    chat(home, "2023-05-08", "d0000001", ["My workmates threw me a surprise party."])
    with RecallIndex(home, tuning=Tuning(related=False)) as off:
        assert off.search("colleagues") == []
    with RecallIndex(home) as on:
        assert [h.source for h in on.search("colleagues")] == ["2023-05-08-d0000001"]


# -- the stemmer ------------------------------------------------------------------------------------------


def test_a_short_stem_keeps_its_e_so_every_form_of_the_word_meets() -> None:
    for forms in (("hike", "hiked", "hiking", "hikes"), ("code", "coded", "coding"), ("bake", "baking", "baked")):
        assert len({stem(f) for f in forms}) == 1, forms
    assert stem("hopped") == stem("hop") != stem("hoped") == stem("hope")  # a doubled consonant is no lost e
    assert stem("fixed") == "fix" and stem("played") == "play" and stem("running") == "run"
    assert stem("news") != stem("new")  # not a plural


# -- terms every session holds, very short messages -------------------------------------------------------


def test_a_term_most_sessions_hold_weighs_less_down_to_the_floor() -> None:
    tuning = Tuning()
    assert common_factor(1, 100, tuning) == 1.0
    assert common_factor(30, 100, tuning) == 1.0  # under common_share
    middle = common_factor(60, 100, tuning)
    assert tuning.common_floor < middle < 1.0
    assert common_factor(100, 100, tuning) == pytest.approx(tuning.common_floor, abs=0.05)
    assert common_factor(1, 1, tuning) == 1.0 and common_factor(2, 2, tuning) > 0.9  # a small palace: hardly any


def test_a_name_in_every_greeting_weighs_little(home: Path, index: RecallIndex) -> None:
    for number in range(8):
        chat(home, f"2023-05-{10 + number:02d}", f"e00000{number:02d}", ["Hi Maya! Good to see you.", *FILLER])
    chat(home, "2023-06-01", "e0000100", ["Hello there.", *FILLER, "My sister started a pottery class on Thursdays."])
    with RecallIndex(home, tuning=Tuning(common_floor=1.0)) as plain:
        undiscounted = {h.source: h.score for h in plain.search("Maya pottery")}
    hits = index.search("Maya pottery")
    assert hits[0].source == "2023-06-01-e0000100"
    greeted = hits[1]  # a session that holds the name only, in its greeting
    assert greeted.score < 0.6 * undiscounted[greeted.source]


def test_a_very_short_message_scores_down() -> None:
    tuning = Tuning()
    assert short_factor(tuning.short_terms, tuning) == 1.0 and short_factor(40, tuning) == 1.0
    assert short_factor(2, tuning) < short_factor(4, tuning) < 1.0
    assert short_factor(2, Tuning(short_power=0.0)) == 1.0


def test_a_goodbye_that_names_someone_does_not_outrank_what_was_said_of_them(home: Path) -> None:
    chat(home, "2023-05-08", "f0000001", [*FILLER, "Bye Maya!", "Bye!"])
    long = "Maya spent the whole afternoon telling me about the rye bread she bakes on Saturdays."
    chat(home, "2023-05-07", "f0000002", [*FILLER, long, "Sounds tasty."])
    with RecallIndex(home) as index:
        assert index.search("Maya")[0].source == "2023-05-07-f0000002"
    with RecallIndex(home, tuning=Tuning(short_power=0.0)) as plain:
        assert plain.search("Maya")[0].source == "2023-05-08-f0000001"  # BM25's length normalisation alone


# -- who said it, and how close the words stand (score.py's evidence factors) ------------------------------


def _named(home: Path, day: str, ident: str, turns: list[tuple[str, str]]) -> None:
    """A journal of an imported chat with named speakers: each message starts with its speaker's name."""
    chat(home, day, ident, [f"{name}: {text}" for name, text in turns])


def test_a_message_by_the_person_the_query_names_ranks_first(home: Path) -> None:
    for number in range(6):  # the two names are in every session, as a chat's speakers are
        _named(home, f"2023-04-{10 + number:02d}", f"c00000{number:02d}", [("Maya", FILLER[0]), ("Tom", FILLER[1])])
    _named(home, "2023-05-02", "c0000100", [("Maya", "Hi!"), ("Tom", "Guess what Maya, my boss agreed to a new desk.")])
    maya = "Big news from work today: after weeks of asking, my boss agreed to four-day weeks for the summer."
    _named(home, "2023-05-01", "c0000101", [("Tom", "Hi!"), ("Maya", maya)])
    with RecallIndex(home) as index:
        assert index.search("What did Maya's boss agree to?")[0].source == "2023-05-01-c0000101"
    with RecallIndex(home, tuning=Tuning(speaker_boost=0.0)) as plain:
        assert plain.search("What did Maya's boss agree to?")[0].source == "2023-05-02-c0000100"


def test_words_said_together_count_more_than_the_same_words_apart(home: Path) -> None:
    apart = "The kettle is new, we bought it at the market on Sunday with the blue mugs, and it cracked."
    close = "We bought the blue mugs at the market on Sunday with it, and the new kettle cracked, of course."
    chat(home, "2023-05-02", "d0000001", [*FILLER, apart])
    chat(home, "2023-05-01", "d0000002", [*FILLER, close])
    with RecallIndex(home) as index:
        assert index.search("cracked kettle")[0].source == "2023-05-01-d0000002"
    with RecallIndex(home, tuning=Tuning(near_boost=0.0)) as plain:
        assert plain.search("cracked kettle")[0].source == "2023-05-02-d0000001"  # a tie: the newer first


def test_a_question_s_hedges_are_not_searched_for() -> None:
    terms = [t.text for t in query_terms("Is Maya likely to drive? Probably not, maybe she cycles")]
    assert terms == ["maya", stem("drive"), stem("cycles")]
