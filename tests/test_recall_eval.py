"""The recall evaluation as a guard: palace.recall must keep finding the bundled questions' sessions.

The corpus (bench/recall_eval: 38 sessions, 44 paraphrased questions, 9 in Chinese) is written as real
journals and archives in a temporary palace and searched through RecallIndex. The floors are the counts
measured when this guard was added (bench/recall_eval/run.py prints the same figures as percentages);
raise them when the ranking improves, never lower them to let a change through.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from recall_eval.harness import Score, baseline_ranking, palace_ranking, score, write_palace
from recall_eval.questions import QUESTIONS

QUESTION_COUNT = 44
CHINESE_COUNT = 9


@pytest.fixture(scope="module")
def eval_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("recall-eval")
    write_palace(home)
    return home


@pytest.fixture(scope="module")
def ours(eval_home: Path) -> dict[str, list[str]]:
    return palace_ranking(eval_home)  # limit=20, as run.py reports it


def _explain(result: Score) -> str:
    return f"{result.at1}/{result.asked} first, {result.at5}/{result.asked} in the top five; not first:\n" + "\n".join(
        result.misses
    )


def test_recall_at_1_and_at_5_stay_at_or_above_the_measured_figures(ours: dict[str, list[str]]) -> None:
    result = score(ours)
    assert result.asked == len(QUESTIONS) == QUESTION_COUNT  # the bundled questions, none dropped
    assert result.at1 >= 40, _explain(result)  # 90.9%
    assert result.at5 >= 43, _explain(result)  # 97.7%


def test_chinese_questions_all_find_their_session_first(ours: dict[str, list[str]]) -> None:
    result = score(ours, chinese=True)
    assert result.asked == CHINESE_COUNT
    assert result.at1 >= 9, _explain(result)


def test_the_default_limit_of_five_finds_as_many(eval_home: Path) -> None:
    # The model's recall tool asks for five results by default: a smaller shortlist, scored exactly.
    result = score(palace_ranking(eval_home, limit=5))
    assert result.at1 >= 40, _explain(result)
    assert result.at5 >= 43, _explain(result)


def test_palace_beats_plain_bm25_over_whole_sessions(eval_home: Path, ours: dict[str, list[str]]) -> None:
    palace, baseline = score(ours), score(baseline_ranking(eval_home))
    assert baseline.asked == palace.asked == QUESTION_COUNT
    assert palace.at1 > baseline.at1, (_explain(palace), _explain(baseline))
    assert palace.at5 > baseline.at5, (_explain(palace), _explain(baseline))
