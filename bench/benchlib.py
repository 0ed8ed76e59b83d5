"""Shared helpers of the scale benchmarks: the figure lines, timing, subprocesses with their CPU time."""

from __future__ import annotations

import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PALACE = [sys.executable, "-m", "palace"]  # the `palace` command line
# Children keep their compiled bytecode here, as an installed palace has its .pyc files: with
# PYTHONDONTWRITEBYTECODE (set in some shells) every child would compile palace's source again, ~0.1 s.
PYCACHE = Path(os.environ.get("PALACE_BENCH_CACHE", "/tmp/palace-bench-cache")) / "pycache"


def header(title: str, quick: bool) -> None:
    """What runs, on which Python, and the machine's load (the machine is shared: read ratios, not times)."""
    print(f"{title}{' (--quick)' if quick else ''}; python {sys.version.split()[0]}; {uptime()}", flush=True)


def footer() -> None:
    print(f"done; {uptime()}", flush=True)


def uptime() -> str:
    try:
        text = subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()
    except OSError:
        text = ""
    return text or "load average: {:.2f}, {:.2f}, {:.2f}".format(*os.getloadavg())


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms" if seconds < 1 else f"{seconds:.2f} s"


def figure(
    row: str,
    what: str,
    palace: float,
    baseline: float,
    *,
    base: str,
    goal: float | None,
    show: Callable[[float], str] = ms,
    met: bool | None = None,
    goal_text: str | None = None,
) -> bool | None:
    """One line: what, palace's figure, the baseline's, their ratio, the goal and whether it is met.

    `goal` is a ratio (palace / baseline); `met` and `goal_text` say it for other goals (an absolute one)."""
    ratio = palace / baseline if baseline > 0 else math.inf
    if met is None and goal is not None:
        met = ratio <= goal
    goal_text = goal_text or (f"goal <= {goal:g}x" if goal is not None else "report only")
    verdict = "" if met is None else ("MET" if met else "NOT MET")
    print(
        f"[{row}] {what:<66} palace {show(palace):>10}  {base} {show(baseline):>10}  "
        f"ratio {ratio:6.2f}x  {goal_text} {verdict}".rstrip(),
        flush=True,
    )
    return met


def note(text: str) -> None:
    print(f"    {text}", flush=True)


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


def percentile(values: Sequence[float], p: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


@dataclass
class Run:
    """One finished child process: wall time, CPU time (user + sys, with its waited-for children), output."""

    wall: float
    cpu: float
    stdout: str
    stderr: str
    code: int


def child_env(home: Path | None, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a benchmarked child: this palace's code, PALACE_HOME, an endpoint nobody serves."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PALACE_", "OPENAI_"))}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    env["PYTHONPATH"] = str(REPO)
    env["OPENAI_BASE_URL"] = "http://127.0.0.1:9/v1"
    if home is not None:
        env["PALACE_HOME"] = str(home)
    env.update(extra or {})
    return env


def run(cmd: Sequence[str], env: Mapping[str, str], *, stdin: str = "", cwd: Path | None = None) -> Run:
    """Run cmd to its end; its wall time and its CPU time from os.wait4 (so grandchildren like git count)."""
    with tempfile.TemporaryFile() as inp, tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        inp.write(stdin.encode("utf-8"))
        inp.seek(0)
        start = time.perf_counter()
        proc = subprocess.Popen(list(cmd), stdin=inp, stdout=out, stderr=err, env=dict(env), cwd=cwd)
        _pid, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        result = Run(
            wall,
            usage.ru_utime + usage.ru_stime,
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
            proc.returncode,
        )
    if result.code != 0:
        raise SystemExit(f"benchmark child failed ({result.code}): {' '.join(cmd)}\n{result.stderr[-2000:]}")
    return result


def outside_git() -> Path:
    """A working folder outside any git repository (so the REPL finds no project wing)."""
    folder = Path(tempfile.mkdtemp(prefix="palace-bench-cwd-"))
    probe = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=folder, capture_output=True, check=False)
    if probe.returncode == 0:
        print(f"    note: {folder} is inside a git repository; the REPL will pick a wing", flush=True)
    return folder


def bare_write(file: Path, data: bytes) -> None:
    """The floor of a durable replace: temp file, write, fsync, rename, fsync of the folder."""
    fd, tmp = tempfile.mkstemp(prefix=".bare.", suffix=".tmp", dir=file.parent)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, file)
    folder = os.open(file.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def growth(sizes: Sequence[float], costs: Sequence[float]) -> float:
    """The exponent k of cost ~ size**k between the first and the last point (1.0: linear)."""
    if len(sizes) < 2 or sizes[0] <= 0 or costs[0] <= 0 or sizes[-1] == sizes[0]:
        return math.nan
    return math.log(costs[-1] / costs[0]) / math.log(sizes[-1] / sizes[0])
