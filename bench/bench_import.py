"""`palace import FILE` as it grows: `python bench/bench_import.py [--quick] [--runs N] [--sizes 1000,4000,16000]`.

9. `palace import CLAUDE.md` of 1,000, 4,000 and 16,000 bullets (about twenty under each heading, over the
   four halls) into a new palace: the time per bullet, as a whole process with the same process importing a
   file of no bullets subtracted (Python's start and palace's imports are not the import's cost). The 1,000
   row is set against a floor measured in the same run (read the file, find its bullets with one regex, write
   review.md's lines with one fsync: report only); the larger sizes against the 1,000 row (goal <= 1.5x: the
   cost per bullet stays flat).
10. The same file imported again, every bullet already waiting in review.md (nothing is written): per bullet,
    16,000 against 1,000 (goal <= 1.5x).
Ratios, not times, are what to read: the machine is shared. `--timeout S` stops a size that takes longer
(to measure an older palace, whose import grows with the square of the bullets).
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchlib
from benchlib import figure, note
from prose import ADJS, NOUNS, TECH, VERBS

GOAL = 1.5  # per-bullet cost at a size, against the 1,000-bullet run
SECTIONS = ["Build and test", "Code style", "Decisions", "Architecture", "Deploy", "Conventions", "Debugging"]
_BULLET = re.compile(rb"^\s*[-*+]\s+(.*\S)\s*$", re.M)


def claude_md(bullets: int, seed: int = 5) -> str:
    """A CLAUDE.md of `bullets` distinct one-sentence facts, about twenty under each heading."""
    rng = random.Random(seed)
    lines = ["# Project notes", "", "Notes for the coding agent.", ""]
    for serial in range(bullets):
        if serial % 20 == 0:
            lines += ["", f"## {rng.choice(SECTIONS)} {serial // 20}", ""]
        lines.append(
            f"- The {rng.choice(NOUNS)} of {rng.choice(TECH)} stays {rng.choice(ADJS)} when we "
            f"{rng.choice(VERBS)} the {rng.choice(NOUNS)} (rule {serial})."
        )
    return "\n".join(lines) + "\n"


def floor(file: Path, out: Path) -> float:
    """The least an import does: read the file, find its bullets, write one line for each, durably."""
    start = time.perf_counter()
    found = _BULLET.findall(file.read_bytes())
    day = "2026-12-01"
    lines = [b"- [" + day.encode() + b"] " + text + b" \xc2\xb7 session import-CLAUDE.md, medium" for text in found]
    benchlib.bare_write(out, b"# Memories to review\n\n" + b"\n".join(lines) + b"\n")
    return time.perf_counter() - start


def palace_import(home: Path, file: Path, cwd: Path, timeout: float) -> float | None:
    """Wall time of `palace import FILE` as a whole process (None when it took longer than timeout)."""
    env = benchlib.child_env(home)
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [*benchlib.PALACE, "import", str(file)], env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return None
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"palace import failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return wall


def per_bullet(root: Path, size: int, runs: int, cwd: Path, timeout: float) -> tuple[float | None, float | None]:
    """(per-bullet seconds of a first import, of the same import again), medians of runs; None: timed out."""
    file = root / f"CLAUDE-{size}.md"
    file.write_text(claude_md(size), encoding="utf-8")
    empty = root / "EMPTY.md"
    empty.write_text("# Project notes\n\nNothing yet.\n", encoding="utf-8")
    firsts: list[float] = []
    agains: list[float] = []
    for run in range(runs):
        home = Path(tempfile.mkdtemp(prefix=f"home-{size}-{run}-", dir=root))
        fixed = palace_import(home, empty, cwd, timeout)
        first = palace_import(home, file, cwd, timeout)
        if fixed is None or first is None:
            return None, None
        firsts.append(max(first - fixed, 1e-6) / size)
        again = palace_import(home, file, cwd, timeout)
        if again is not None:
            agains.append(max(again - fixed, 1e-6) / size)
    return benchlib.median(firsts), benchlib.median(agains) if len(agains) == runs else None


def us(seconds: float) -> str:
    return f"{seconds * 1e6:.0f} us"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="sizes 250, 1,000 and 4,000; one run each")
    parser.add_argument("--runs", type=int, default=0, help="runs per size (default 3, 1 with --quick)")
    parser.add_argument("--sizes", default="", help="bullet counts, comma-separated; the first is the baseline")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds one import may take")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s] or ([250, 1000, 4000] if args.quick else [1000, 4000, 16000])
    runs = args.runs or (1 if args.quick else 3)
    benchlib.header("palace import: cost per bullet as the file grows", args.quick)
    root = Path(tempfile.mkdtemp(prefix="palace-bench-import-"))
    cwd = benchlib.outside_git()
    firsts: dict[int, float | None] = {}
    agains: dict[int, float | None] = {}
    for size in sizes:
        firsts[size], agains[size] = per_bullet(root, size, runs, cwd, args.timeout)
        if firsts[size] is None:
            note(f"{size:,} bullets: did not finish in {args.timeout:.0f} s")
            break
    report(sizes, firsts, agains, root)
    shutil.rmtree(root, ignore_errors=True)
    shutil.rmtree(cwd, ignore_errors=True)
    benchlib.footer()


def report(sizes: list[int], firsts: dict[int, float | None], agains: dict[int, float | None], root: Path) -> None:
    """Rows 9 and 10, each against a baseline measured in this run."""
    base = sizes[0]
    base_first = firsts.get(base)
    if base_first is None:
        return
    floors = [floor(root / f"CLAUDE-{base}.md", root / "floor-review.md") / base for _ in range(5)]
    what = f"import {base:,} bullets, per bullet, vs read + regex + one write"
    figure("9", what, base_first, benchlib.median(floors), base="floor", goal=None, show=us)
    measured: list[tuple[int, float]] = [(base, base_first)]
    for size in sizes[1:]:
        cost = firsts.get(size)
        if cost is not None:
            figure("9", f"import {size:,} bullets, per bullet, vs {base:,}", cost, base_first, base=f"{base:,}",
                   goal=GOAL, show=us)  # fmt: skip
            measured.append((size, cost))
    if len(measured) > 1:
        exponent = benchlib.growth([s for s, _ in measured], [s * cost for s, cost in measured])
        note(f"growth exponent of the whole import, {measured[0][0]:,} to {measured[-1][0]:,} bullets: "
             f"{exponent:.2f} (1.0: linear)")  # fmt: skip
    base_again = agains.get(base)
    for size in sizes[1:]:
        cost = agains.get(size)
        if base_again is not None and cost is not None:
            figure("10", f"import again, all {size:,} waiting, per bullet, vs {base:,}", cost, base_again,
                   base=f"{base:,}", goal=GOAL, show=us)  # fmt: skip


if __name__ == "__main__":
    main()
