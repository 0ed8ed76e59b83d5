"""Recall evaluation: session-level recall@1 and recall@5 of palace.recall against a plain BM25 baseline,
and the conversation evaluation: recall@1/5/10 and the answer-bearing rate of the recall tool's text.

    python bench/recall_eval/run.py [--verbose] [--ablate] [--distractors N] [--misses N] [--tune-only]

1. Writes the evaluation sessions (sessions.py) as journals and archives into a temporary PALACE_HOME, asks
every question (questions.py) and counts how often the one session holding the answer is ranked first /
in the top five. The baseline is FTS5 bm25 with the default tokenizer over one document per session
(summary, extracted memories and every message), queried with the question's words OR-ed together.
The shared parts live in harness.py.

2. Imports the 32 generated conversations (convo.py; 22 tuning, 10 held out) each into its own palace and
asks their questions (convo_eval.py): recall@k of the sessions holding an answer turn, and how often the
exact text of the recall tool (format_hits at 2048 bytes of a limit-5 search) holds the marked answer
("bearing"), the whole answer turn ("whole") or every answer turn's marked text ("every"), and the median
size of that text ("bytes"), per part, language and kind of question.

3. The same for the chatty conversations (chatty.py; 26 conversations of 14-20 sessions over a year and more,
17 tuning, 9 held out by a fixed seed), per category: single fact, multi-session, temporal, inference, and
the questions that word things differently from their evidence (paraphrase).

4. The same for the second held-out chatty set (chatty_held2.py; 10 conversations, 214 questions, written
for measuring only), the third (chatty_held3.py; 8 conversations), the fourth (chatty_held4.py; 8
conversations, names of its own), the fifth (chatty_held5.py; 9 conversations, written blind, tuned on in
the seventh round) and the sixth (chatty_held6.py; 9 conversations, 370 questions, written blind after the
seventh round's changes, run once then, tuned on in the eighth round), and the seventh (chatty_held7.py; 9
conversations, 376 questions, written blind in the eighth round, run once then, tuned on in the ninth round),
and the eighth (chatty_held8.py; 9 conversations, 479 questions, written blind in the ninth round, run once
then, tuned on in the tenth round), and the ninth (chatty_held9.py; 10 conversations, 554 questions, written
blind in the tenth round, held out); --tune-only skips the second, third and ninth sets (held out) and keeps
the fourth to eighth (tuned on).

--ablate also reruns 2 and 3 with parts switched off (a Tuning passed in: RecallIndex(home, tuning=...)).
--misses N shows N questions of the tuning parts whose answer the text does not bear (the conversations' and
the chatty tuning parts, then the fourth to eighth sets: the held-out parts, the chatty held-out part
and the second, third and ninth sets, are measured, never looked into); --tune-only reports the tuning parts alone.
tests/test_recall_eval.py and tests/test_recall_chatty.py guard the figures.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from palace.record import replace

BENCH = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

from palace.recall.tuning import DEFAULT  # noqa: E402
from recall_eval import (  # noqa: E402
    chatty,
    chatty_held2,
    chatty_held3,
    chatty_held4,
    chatty_held5,
    chatty_held6,
    chatty_held7,
    chatty_held8,
    chatty_held9,
    convo_eval,
)
from recall_eval.convo import Conversation  # noqa: E402
from recall_eval.harness import (  # noqa: E402
    ZH,
    Score,
    answers,
    baseline_ranking,
    palace_ranking,
    score,
    write_palace,
)
from recall_eval.questions import QUESTIONS  # noqa: E402
from recall_eval.sessions import SESSIONS  # noqa: E402

# Parts of the ranking switched off one at a time by --ablate: (name, the Tuning changes).
ABLATIONS: list[tuple[str, dict[str, Any]]] = [
    ("no summary weight", {"summary_weight": 1.0, "assistant_weight": 1.0}),
    ("best document only", {"decay": 0.0}),
    ("no coverage factor", {"coverage_floor": 1.0}),
]


def ablate(home: Path) -> list[tuple[str, Score]]:
    """palace.recall's score with each of ABLATIONS in turn."""
    return [(name, score(palace_ranking(home, tuning=replace(DEFAULT, **changes)))) for name, changes in ABLATIONS]


# Parts of recall switched off one at a time for the conversation evaluations: (name, the Tuning changes).
CONVO_ABLATIONS: list[tuple[str, dict[str, Any]]] = [
    ("no related words", {"related": False}),
    ("no concept words", {"concept_weight": 0.0}),
    ("no longer spellings", {"stretch": False}),
    ("no typo correction", {"typo_min_letters": 1000}),
    ("no common-term discount", {"common_floor": 1.0}),
    ("no short-message discount", {"short_power": 0.0}),
    ("no date boost", {"date_boost": 0.0, "range_boost": 0.0, "day_boost": 0.0, "date_share": 0.0}),
    ("no date share of the query", {"date_share": 0.0}),
    ("no compound words", {"compound_weight": 0.0}),
    ("no salience in what is shown", {"salience_weight": 0.0}),
    ("no echo penalty", {"echo_floor": 1.0}),
    ("no neighbouring turns", {"after": 0.0, "after_question": 0.0, "second_after": 0.0, "before": 0.0}),
    ("one passage a session", {"max_centres": 1}),
    ("no speaker factor", {"speaker_boost": 0.0}),
    ("no nearness factor", {"near_boost": 0.0}),
    ("no length cap", {"length_cap": 1000.0}),
]


def convo_ablate(
    root: Path, convos: Callable[[], list[Conversation]] | None = None
) -> list[tuple[str, list[convo_eval.Outcome]]]:
    """A conversation evaluation (convo.py's, or convos') with each of CONVO_ABLATIONS in turn (fresh indexes)."""
    results = []
    for number, (name, changes) in enumerate(CONVO_ABLATIONS):
        tuning = replace(DEFAULT, **changes)
        results.append((name, convo_eval.run(root / f"ablation-{number}", convos() if convos else None, tuning)))
    return results


CONVO_KINDS = ("single", "temporal", "multi", "typo")
# The parts whose misses may be read (--misses): the others are held out, measured only.
TUNING_PARTS = (
    "tune",
    chatty_held4.PART,
    chatty_held5.PART,
    chatty_held6.PART,
    chatty_held7.PART,
    chatty_held8.PART,
)
CHATTY_KINDS = ("single", "multi", "temporal", "inference", "paraphrase")


def print_convo(
    outcomes: list[convo_eval.Outcome],
    ablations: list[tuple[str, list[convo_eval.Outcome]]],
    title: str = "conversation eval",
    kinds: tuple[str, ...] = CONVO_KINDS,
    parts: tuple[str, ...] = ("tune", "held"),
) -> None:
    convos = {o.convo.index: o.convo for o in outcomes}
    sessions = sum(len(c.sessions) for c in convos.values())
    print(f"\n{title}: {len(convos)} conversations, {sessions} sessions, {len(outcomes)} questions")
    print(convo_eval.HEADER)
    for part in parts:
        for lang in (None, "en", "zh"):
            print(convo_eval.figures(convo_eval.select(outcomes, part=part, lang=lang)).row(f"{part}, {lang or 'all'}"))
        for kind in kinds:
            print(convo_eval.figures(convo_eval.select(outcomes, part=part, kind=kind)).row(f"{part}, {kind}"))
    for name, result in ablations:
        for part in parts:
            print(convo_eval.figures(convo_eval.select(result, part=part)).row(f"{part}, {name}"))


def among_distractors(home: Path, count: int) -> tuple[Score, Score]:
    """palace.recall (limit=5) and the baseline after adding count synthetic sessions (bench_recall's)."""
    from bench_recall import Generator, day_of

    generator = Generator(11)
    for i in range(count):
        generator.session(home / "sessions", day_of(738000 + i * 1500 // count), f"d{i:07x}")
    return score(palace_ranking(home, limit=5)), score(baseline_ranking(home))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--verbose", action="store_true", help="list the questions not ranked first")
    parser.add_argument("--ablate", action="store_true", help="also score palace.recall without parts of its ranking")
    parser.add_argument("--misses", type=int, default=0, metavar="N", help="show N conversation questions not answered")
    parser.add_argument(
        "--distractors",
        type=int,
        default=0,
        metavar="N",
        help="also hide the sessions among N synthetic ones (bench_recall's generator) and ask again with limit=5",
    )
    parser.add_argument(
        "--tune-only", action="store_true", help="report the tuning parts only (what a change is measured on)"
    )
    args = parser.parse_args()
    parts = ("tune",) if args.tune_only else ("tune", "held")
    answers()  # every question names a known session
    with tempfile.TemporaryDirectory(prefix="palace-recall-eval-") as tmp:
        home = Path(tmp)
        write_palace(home)
        rows = [
            ("palace.recall", palace_ranking(home)),
            ("baseline: BM25 whole sessions", baseline_ranking(home)),
            ("BM25 whole sessions, palace terms", baseline_ranking(home, palace_tokens=True)),
        ]
        ablations = ablate(home) if args.ablate else []
        crowd = among_distractors(home, args.distractors) if args.distractors else None
        talks = convo_eval.run(home / "conversations")
        chats = convo_eval.run(home / "chatty", chatty.conversations())
        held2 = [] if args.tune_only else convo_eval.run(home / "held2", chatty_held2.conversations())
        held3 = [] if args.tune_only else convo_eval.run(home / "held3", chatty_held3.conversations())
        held4 = convo_eval.run(home / "held4", chatty_held4.conversations())
        held5 = convo_eval.run(home / "held5", chatty_held5.conversations())
        held6 = convo_eval.run(home / "held6", chatty_held6.conversations())
        held7 = convo_eval.run(home / "held7", chatty_held7.conversations())
        held8 = convo_eval.run(home / "held8", chatty_held8.conversations())
        held9 = [] if args.tune_only else convo_eval.run(home / "held9", chatty_held9.conversations())
        talk_ablations = convo_ablate(home / "ablations") if args.ablate else []
        chat_ablations = convo_ablate(home / "chatty-ablations", chatty.conversations) if args.ablate else []
    zh = sum(1 for q, _k in QUESTIONS if ZH.search(q))
    print(f"recall eval: {len(SESSIONS)} sessions, {len(QUESTIONS)} questions ({zh} in Chinese)")
    print(f"{'':44}recall@1  recall@5")
    for name, ranked in rows:
        for label, chinese in (("all", None), ("English", False), ("Chinese", True)):
            print_row(f"{name}, {label}", score(ranked, chinese))
    for name, result in ablations:
        print_row(f"palace.recall, {name}", result)
    if crowd is not None:
        print(f"among {args.distractors} synthetic distractor sessions:")
        print_row("palace.recall (limit=5)", crowd[0])
        print_row("baseline: BM25 whole sessions", crowd[1])
    if args.verbose:
        for name, ranked in (("palace.recall", rows[0][1]), ("baseline", rows[1][1])):
            misses = score(ranked).misses
            print(f"{name}: not first ({len(misses)})")
            print("\n".join(misses))
    print_convo(talks, talk_ablations, parts=parts)
    print_convo(chats, chat_ablations, "chatty eval", CHATTY_KINDS, parts)
    if held2:
        print_convo(held2, [], "chatty eval, second held-out set", CHATTY_KINDS, (chatty_held2.PART,))
    if held3:
        print_convo(held3, [], "chatty eval, third held-out set", CHATTY_KINDS, (chatty_held3.PART,))
    if held4:
        print_convo(held4, [], "chatty eval, fourth set (tuned on)", CHATTY_KINDS, (chatty_held4.PART,))
    if held5:
        print_convo(held5, [], "chatty eval, fifth set (tuned on)", CHATTY_KINDS, (chatty_held5.PART,))
    if held6:
        print_convo(
            held6, [], "chatty eval, sixth set (tuned on in the eighth round)", CHATTY_KINDS, (chatty_held6.PART,)
        )
    if held7:
        print_convo(
            held7, [], "chatty eval, seventh set (tuned on in the ninth round)", CHATTY_KINDS, (chatty_held7.PART,)
        )
    if held8:
        print_convo(
            held8, [], "chatty eval, eighth set (tuned on in the tenth round)", CHATTY_KINDS, (chatty_held8.PART,)
        )
    if held9:
        print_convo(held9, [], "chatty eval, ninth held-out set (written blind)", CHATTY_KINDS, (chatty_held9.PART,))
    # Misses of the tuning parts only: the held-out parts are measured, never looked into.
    tuned = [*talks, *chats, *held4, *held5, *held6, *held7, *held8]
    for outcome in [o for o in tuned if o.convo.part in TUNING_PARTS and not o.bearing][: args.misses]:
        print(convo_eval.miss_report(outcome))
    return 0


def print_row(name: str, result: Score) -> None:
    print(f"{name:44}{result.recall_at_1:8.1%}  {result.recall_at_5:8.1%}")


if __name__ == "__main__":
    raise SystemExit(main())
