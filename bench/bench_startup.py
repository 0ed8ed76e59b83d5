"""`palace --help` wall time vs `python -c pass`, and the REPL ready to take input (piped, /exit at once).

Run: python bench/bench_startup.py [--runs N]. Prints medians and ratios measured in this same run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def _median_seconds(cmd: list[str], runs: int, env: dict[str, str], stdin: str | None = None) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, input=stdin, env=env, capture_output=True, text=True, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "PALACE_HOME": home, "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}
        env.pop("OPENAI_API_KEY", None)
        python = [sys.executable]
        _median_seconds([*python, "-c", "pass"], 3, env)  # warm the page cache
        bare = _median_seconds([*python, "-c", "pass"], args.runs, env)
        helps = _median_seconds([*python, "-m", "palace", "--help"], args.runs, env)
        ready = _median_seconds([*python, "-m", "palace", "chat"], max(3, args.runs // 3), env, stdin="/exit\n")
    print(f"python -c pass:            {bare * 1000:7.1f} ms")
    print(f"palace --help:             {helps * 1000:7.1f} ms   ratio {helps / bare:.2f}x (goal <= 3x)")
    print(f"palace chat, ready+/exit:  {ready * 1000:7.1f} ms   ratio {ready / bare:.2f}x (report)")


if __name__ == "__main__":
    main()
