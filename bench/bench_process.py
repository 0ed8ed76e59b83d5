"""The fixed CPU cost of short palace processes: `python bench/bench_process.py [--quick] [--runs N]`.

Each figure is a whole process's CPU time (user + sys of the child and its children, from os.wait4: the
`git rev-parse` that finds the wing counts), the median of N runs, next to `python -c pass` measured in the
same rounds (a round runs the baseline and then each command once, so the machine's load falls on both).

9.  `palace sessions search QUERY` with 1,000 and 10,000 archived sessions (--quick: 100 and 1,000), the index
    up to date, vs `python -c pass` (goal <= 2.5x at the larger size); the growth between the two sizes.
10. `palace memory save PATH CONTENT` on a 1,000-entry memories.md, no git (goal <= 2.5x).
11. `palace hook session-start` (Claude Code's JSON on stdin, its cwd a git repository named after a wing of the
    memory, 1,000 entries, memories.md unchanged since the last run: the render cache answers) (goal <= 2.5x).
12. `palace mcp`: spawn, initialize, tools/list, end of stdin, exit, vs a process that imports the MCP SDK's
    server module (goal <= 1.3x); skipped when the SDK is not installed.
13. For scale (report only): a process that imports only the standard library modules every short command
    needs (pathlib, re, typing, contextlib, argparse, json, threading, sqlite3), vs `python -c pass`:
    the floor under rows 9-11 that no change inside palace can lower.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchlib
import palacegen
from benchlib import figure, note
from prose import Prose

PASS = [sys.executable, "-c", "pass"]
STDLIB = "import pathlib, re, typing, contextlib, argparse, json, threading, sqlite3"
QUERIES = ["database migration", "why is the cache slow", "deploy rollback", "webpack config", "kafka timeout"]
WING = "ifai"  # a project wing of the generated memories


def rounds(runs: int, cases: dict[str, Callable[[int], benchlib.Run]]) -> dict[str, list[float]]:
    """CPU seconds of each case over `runs` rounds (plus one warm-up round), `python -c pass` first in each."""
    cpu: dict[str, list[float]] = {name: [] for name in cases}
    for n in range(runs + 1):
        for name, case in cases.items():
            finished = case(n)
            if n:
                cpu[name].append(finished.cpu)
    return cpu


def search_rows(root: Path, counts: list[int], runs: int, cwd: Path) -> None:
    bare_env = benchlib.child_env(None)
    cases: dict[str, Callable[[int], benchlib.Run]] = {"pass": lambda n: benchlib.run(PASS, bare_env, cwd=cwd)}
    for count in counts:
        home = palacegen.copy_palace(palacegen.sessions_palace(count, seed=7), root / f"sessions-{count}")
        env = benchlib.child_env(home)
        started = time.perf_counter()
        benchlib.run([*benchlib.PALACE, "sessions", "search", "warm"], env, cwd=cwd)  # builds the index
        note(f"{count:,} sessions: the index built in {time.perf_counter() - started:.1f} s (untimed)")

        def search(n: int, env: dict[str, str] = env) -> benchlib.Run:
            return benchlib.run([*benchlib.PALACE, "sessions", "search", QUERIES[n % len(QUERIES)]], env, cwd=cwd)

        cases[f"{count:,}"] = search
    cpu = rounds(runs, cases)
    base = benchlib.median(cpu.pop("pass"))
    medians = {name: benchlib.median(values) for name, values in cpu.items()}
    last = list(medians)[-1]
    for name, value in medians.items():
        goal = 2.5 if name == last else None
        figure(
            "9", f"`palace sessions search` process CPU, {name} sessions", value, base, base="python -c pass", goal=goal
        )
    first = next(iter(medians))
    note(f"growth {first} -> {last} sessions: {medians[last] / medians[first]:.2f}x the CPU time")


def save_row(root: Path, runs: int, cwd: Path) -> None:
    home = root / "save"
    home.mkdir(mode=0o700)
    generated = palacegen.memories(1000, seed=3)
    (home / "memories.md").write_text(generated.text, encoding="utf-8")
    os.chmod(home / "memories.md", 0o600)
    env, bare_env = benchlib.child_env(home), benchlib.child_env(None)
    rng = random.Random(5)
    prose = Prose(rng)

    def save(n: int) -> benchlib.Run:
        path = rng.choice(generated.rooms)
        content = palacegen.fresh_entry(prose, path.split("/")[-2], n)
        return benchlib.run([*benchlib.PALACE, "memory", "save", path, content], env, cwd=cwd)

    cpu = rounds(runs, {"pass": lambda n: benchlib.run(PASS, bare_env, cwd=cwd), "save": save})
    base = benchlib.median(cpu["pass"])
    what = "`palace memory save` process CPU, 1,000 entries, no git"
    figure("10", what, benchlib.median(cpu["save"]), base, base="python -c pass", goal=2.5)


def hook_row(root: Path, runs: int) -> None:
    home = root / "hook"
    home.mkdir(mode=0o700)
    (home / "memories.md").write_text(palacegen.memories(1000, seed=3).text, encoding="utf-8")
    repo = root / "repos" / WING  # the session's cwd: its repository's name is the wing
    repo.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    stdin = json.dumps(
        {
            "session_id": "bench-session-1",
            "transcript_path": str(root / "transcript.jsonl"),
            "cwd": str(repo),
            "hook_event_name": "SessionStart",
            "source": "startup",
        }
    )
    env, bare_env = benchlib.child_env(home), benchlib.child_env(None)

    def hook(n: int) -> benchlib.Run:
        finished = benchlib.run([*benchlib.PALACE, "hook", "session-start"], env, stdin=stdin, cwd=repo)
        if '"additionalContext"' not in finished.stdout or finished.stderr:
            raise SystemExit(f"the hook gave no context: {finished.stdout[:300]!r} {finished.stderr[-300:]!r}")
        return finished

    cpu = rounds(runs, {"pass": lambda n: benchlib.run(PASS, bare_env, cwd=repo), "hook": hook})
    base = benchlib.median(cpu["pass"])
    what = "`palace hook session-start` process CPU, 1,000 entries"
    figure("11", what, benchlib.median(cpu["hook"]), base, base="python -c pass", goal=2.5)


def _mcp_session(env: dict[str, str], cwd: Path) -> benchlib.Run:
    """Spawn `palace mcp`, initialize, list the tools, close stdin; its wall and CPU time to its exit."""
    start = time.perf_counter()
    cmd = [*benchlib.PALACE, "mcp"]
    proc = subprocess.Popen(
        cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=cwd
    )
    assert proc.stdin is not None and proc.stdout is not None
    info = {"name": "bench", "version": "1"}
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": info}
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    proc.stdin.write((json.dumps(messages[0]) + "\n").encode())
    proc.stdin.flush()
    answer = json.loads(proc.stdout.readline())
    proc.stdin.write("".join(json.dumps(m) + "\n" for m in messages[1:]).encode())
    proc.stdin.flush()
    tools = json.loads(proc.stdout.readline())
    proc.stdin.close()
    _pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    proc.stdout.close()
    if "result" not in answer or not tools.get("result", {}).get("tools"):
        raise SystemExit(f"palace mcp did not answer: {answer!r} {tools!r}")
    return benchlib.Run(time.perf_counter() - start, usage.ru_utime + usage.ru_stime, "", "", proc.returncode)


def mcp_row(root: Path, runs: int, cwd: Path) -> None:
    if importlib.util.find_spec("mcp") is None:
        note("[12] skipped: the MCP SDK is not installed (pip install -e '.[mcp]')")
        return
    home = root / "mcp"
    home.mkdir(mode=0o700)
    (home / "memories.md").write_text(palacegen.memories(1000, seed=3).text, encoding="utf-8")
    env, bare_env = benchlib.child_env(home), benchlib.child_env(None)
    sdk = [sys.executable, "-c", "import mcp.server.lowlevel"]
    done: dict[str, list[benchlib.Run]] = {"sdk": [], "mcp": []}
    for n in range(runs + 1):
        sdk_run, mcp_run = benchlib.run(sdk, bare_env, cwd=cwd), _mcp_session(env, cwd)
        if n:
            done["sdk"].append(sdk_run)
            done["mcp"].append(mcp_run)
    for what, key in (("wall", "wall"), ("CPU", "cpu")):
        ours = benchlib.median([getattr(r, key) for r in done["mcp"]])
        base = benchlib.median([getattr(r, key) for r in done["sdk"]])
        text = f"`palace mcp` spawn + initialize + tools/list, {what}"
        figure("12", text, ours, base, base="import mcp.server", goal=1.3 if key == "cpu" else None)


def stdlib_row(runs: int, cwd: Path) -> None:
    env = benchlib.child_env(None)
    cases = {
        "pass": lambda n: benchlib.run(PASS, env, cwd=cwd),
        "stdlib": lambda n: benchlib.run([sys.executable, "-c", STDLIB], env, cwd=cwd),
    }
    cpu = rounds(runs, cases)
    what = "standard library a short command needs, process CPU"
    figure("13", what, benchlib.median(cpu["stdlib"]), benchlib.median(cpu["pass"]), base="python -c pass", goal=None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes, a smoke run in under a minute")
    parser.add_argument("--runs", type=int, default=0, help="runs per figure (default 21, --quick 5)")
    args = parser.parse_args()
    runs = args.runs or (5 if args.quick else 21)
    counts = [100, 1000] if args.quick else [1000, 10000]
    benchlib.header("bench_process", args.quick)
    cwd = benchlib.outside_git()
    try:
        with tempfile.TemporaryDirectory(prefix="palace-bench-process-") as tmp:
            root = Path(tmp)
            search_rows(root, counts, runs, cwd)
            save_row(root, runs, cwd)
            hook_row(root, runs)
            mcp_row(root, runs, cwd)
            stdlib_row(runs, cwd)
    finally:
        os.rmdir(cwd)
    benchlib.footer()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
