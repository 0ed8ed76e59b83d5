"""The ninth round: the seventh chatty set (chatty_held7.py), written blind in the eighth, is tuned on now
(bench/recall_eval/run.py counts it among the tuning parts) and guarded at the figures it was measured at."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from recall_eval import chatty_held7, run
from recall_eval.convo_eval import figures
from recall_eval.convo_eval import run as run_convos

HELD7_QUESTIONS = 376
HELD7_FLOOR = (171, 280, 247)  # recall@1, recall@5, answer-bearing, measured at the start of the ninth round


def test_the_seventh_set_is_a_tuning_part() -> None:
    assert chatty_held7.PART in run.TUNING_PARTS


def test_the_seventh_set_stays_at_or_above_its_floor(tmp_path: Path) -> None:
    result = figures(run_convos(tmp_path, chatty_held7.conversations()))
    assert result.asked == HELD7_QUESTIONS
    at1, at5, bearing = HELD7_FLOOR
    assert result.at1 >= at1 and result.at5 >= at5 and result.bearing >= bearing
    assert result.size_p50 <= 2048
