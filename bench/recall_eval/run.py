"""Recall evaluation: session-level recall@1 and recall@5 of palace.recall against a plain BM25 baseline,
and the conversation evaluation: recall@1/5/10 and the answer-bearing rate of the recall tool's text.

    python bench/recall_eval/run.py [--verbose] [--ablate] [--distractors N] [--misses N]

1. Writes the evaluation sessions (sessions.py) as journals and archives into a temporary PALACE_HOME, asks
every question (questions.py) and counts how often the one session holding the answer is ranked first /
in the top five. The baseline is FTS5 bm25 with the default tokenizer over one document per session
(summary, extracted memories and every message), queried with the question's words OR-ed together.
The shared parts live in harness.py.

2. Imports the 32 generated conversations (convo.py; 22 tuning, 10 held out) each into its own palace and
asks their questions (convo_eval.py): recall@k of the sessions holding an answer turn, and how often the
exact text of the recall tool (format_hits at 2048 bytes of a limit-5 search) holds the marked answer
("bearing") or the whole answer turn ("whole"), per part, language and kind of question. --ablate also
reruns it with parts switched off. tests/test_recall_eval.py guards both evaluations' figures.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

import palace.recall.expand as expand  # noqa: E402
import palace.recall.passages as passages  # noqa: E402
import palace.recall.rank as rank  # noqa: E402
import palace.recall.weights as weights  # noqa: E402
from recall_eval import convo_eval  # noqa: E402
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

# Parts of the ranking switched off one at a time by --ablate: (name, attribute of palace.recall.rank, value).
ABLATIONS: list[tuple[str, str, object]] = [
    ("no summary weight", "_KIND_WEIGHT", {"summary": 1.0, "user": 1.0, "assistant": 1.0}),
    ("best document only", "_DECAY", 0.0),
    ("no coverage factor", "_COVERAGE_FLOOR", 1.0),
]


def ablate(home: Path) -> list[tuple[str, Score]]:
    """palace.recall's score with each of ABLATIONS in turn."""
    results = []
    for name, attr, value in ABLATIONS:
        saved = getattr(rank, attr)
        setattr(rank, attr, value)
        try:
            results.append((name, score(palace_ranking(home))))
        finally:
            setattr(rank, attr, saved)
    return results


# Parts of recall switched off one at a time for the conversation evaluation: (name, [(module, attribute, value)]).
CONVO_ABLATIONS: list[tuple[str, list[tuple[object, str, object]]]] = [
    ("with related words", [(weights, "USE_RELATED", True)]),
    ("no typo correction", [(expand, "TYPO_MIN_LETTERS", 1000)]),
    ("no date boost", [(rank, "_DATE_BOOST", 0.0), (rank, "_DAY_BOOST", 0.0)]),
    ("no echo penalty", [(rank, "_ECHO_FLOOR", 1.0)]),
    ("echo penalty in ranking too", [(rank, "ECHO_IN_RANK", True)]),
    (
        "no neighbouring turns",
        [
            (passages, "AFTER", 0.0),
            (passages, "AFTER_QUESTION", 0.0),
            (passages, "SECOND_AFTER", 0.0),
            (passages, "BEFORE", 0.0),
        ],
    ),
    ("one passage a session", [(passages, "MAX_CENTRES", 1)]),
]


def convo_ablate(root: Path) -> list[tuple[str, list[convo_eval.Outcome]]]:
    """The conversation evaluation with each of CONVO_ABLATIONS in turn (each on fresh indexes)."""
    results = []
    for number, (name, patches) in enumerate(CONVO_ABLATIONS):
        saved = [(module, attr, getattr(module, attr)) for module, attr, _v in patches]
        for module, attr, value in patches:
            setattr(module, attr, value)
        try:
            results.append((name, convo_eval.run(root / f"ablation-{number}")))
        finally:
            for module, attr, value in saved:
                setattr(module, attr, value)
    return results


def print_convo(outcomes: list[convo_eval.Outcome], ablations: list[tuple[str, list[convo_eval.Outcome]]]) -> None:
    convos = {o.convo.index: o.convo for o in outcomes}
    sessions = sum(len(c.sessions) for c in convos.values())
    print(f"\nconversation eval: {len(convos)} conversations, {sessions} sessions, {len(outcomes)} questions")
    print(convo_eval.HEADER)
    for part in ("tune", "held"):
        for lang in (None, "en", "zh"):
            print(convo_eval.figures(convo_eval.select(outcomes, part=part, lang=lang)).row(f"{part}, {lang or 'all'}"))
        for kind in ("single", "temporal", "multi", "typo"):
            print(convo_eval.figures(convo_eval.select(outcomes, part=part, kind=kind)).row(f"{part}, {kind}"))
    for name, result in ablations:
        for part in ("tune", "held"):
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
    args = parser.parse_args()
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
        talk_ablations = convo_ablate(home / "ablations") if args.ablate else []
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
    print_convo(talks, talk_ablations)
    for outcome in [o for o in talks if not o.bearing][: args.misses]:
        print(convo_eval.miss_report(outcome))
    return 0


def print_row(name: str, result: Score) -> None:
    print(f"{name:44}{result.recall_at_1:8.1%}  {result.recall_at_5:8.1%}")


if __name__ == "__main__":
    raise SystemExit(main())
