"""Start-up benchmarks: `python bench/bench_startup.py [--quick] [--runs N]`. Ratios are measured in this run.

-. `palace --help` wall time vs `python -c pass` (goal <= 3x), and the REPL ready + /exit on an empty palace.
4. The REPL ready then exit (`palace chat` with `/exit` piped in) in a palace of 1,000, 10,000 and 30,000
   archived sessions vs an empty palace, both with the same small memories.md (goal <= 1.15x), its growth;
   and the first start after an upgrade (the state an older palace lacks removed first: the registry's
   `.scanned` mark and `.unchecked` list, the unarchived list and the change notes) vs the same empty palace
   (goal <= 1.5x); the second start too (the one-time look of such a palace goes on, CHECK_SLICE sessions a
   start: palace/sessions/live.py), and how many starts it took.
5. The system prompt's memory at session start, in a new process, with an 8 KB, 100 KB and 1 MB
   memories.md: `App(settings).store.render(wing, 8192)` vs reading the file and cutting it to the 8 KB
   budget, both whole processes, nothing subtracted (goal <= 5x); also the first render inside the new
   process (after the imports) vs the read + cut inside its process, and the first process after the file
   was written.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchlib
import palacegen
from benchlib import figure, note

RENDER = """
import sys, time
start = time.perf_counter()
from palace.app import App
from palace.config import load_settings
app = App(load_settings(), warn=lambda message: None)
ready = time.perf_counter()
rendered = app.store.render(sys.argv[1], 8192)
print(time.perf_counter() - ready, len(rendered.text.encode("utf-8")))
"""
READ_CUT = """
import sys, time
start = time.perf_counter()
text = open(sys.argv[1], encoding="utf-8").read()[:8192]
print(time.perf_counter() - start, len(text))
"""
WING = "ifai"  # a project wing of the generated memories (the REPL started in that repository)


def medians(runs: list[benchlib.Run]) -> tuple[float, float]:
    """(median wall, median of the first number the child printed)."""
    return benchlib.median([r.wall for r in runs]), benchlib.median([float(r.stdout.split()[0]) for r in runs])


def cli_start(root: Path, runs: int, cwd: Path) -> None:
    env = benchlib.child_env(root / "cli-home")
    bare_cmd = [sys.executable, "-c", "pass"]
    for _ in range(3):  # warm the page cache
        benchlib.run(bare_cmd, env, cwd=cwd)
    bare, helps = [], []
    for _ in range(runs):
        bare.append(benchlib.run(bare_cmd, env, cwd=cwd).wall)
        helps.append(benchlib.run([*benchlib.PALACE, "--help"], env, cwd=cwd).wall)
    bare_s = benchlib.median(bare)
    figure("-", "palace --help", benchlib.median(helps), bare_s, base="python -c pass", goal=3)


def session_palaces(root: Path, counts: list[int]) -> dict[str, Path]:
    """Private copies of an empty palace and of palaces of `counts` archived sessions (same memories.md)."""
    homes: dict[str, Path] = {}
    empty = root / "empty"
    empty.mkdir(mode=0o700)
    (empty / "memories.md").write_text(palacegen.memories(20, seed=7).text, encoding="utf-8")
    homes["empty"] = empty
    for count in counts:
        source = palacegen.sessions_palace(count, seed=7, memory_entries=20)
        homes[f"{count:,} sessions"] = palacegen.copy_palace(source, root / f"sessions-{count}")
    return homes


def _session_files(home: Path) -> int:
    """The session files (not the `.live` registry folder that the first start creates)."""
    folder = home / "sessions"
    return len([n for n in os.listdir(folder) if not n.startswith(".")]) if folder.is_dir() else 0


UPGRADE_STATE = (
    "sessions/.live/.scanned",
    "sessions/.live/.unchecked",
    ".index/unarchived-sessions",
    ".index/sessions.notes",
)
UPGRADE_STARTS = 30  # at most this many starts finish the one-time look (palace/sessions/live.py)


def as_before_upgrade(home: Path) -> None:
    """The palace as an older palace left it: none of the state that spares a start reading sessions/."""
    for rel in UPGRADE_STATE:
        (home / rel).unlink(missing_ok=True)


def finish_upgrade(home: Path, chat: list[str], env: dict[str, str], cwd: Path) -> int:
    """Starts (unmeasured) until the one-time look of an upgraded palace is done; how many starts it took
    counting the two measured ones."""
    starts = 2
    while not (home / UPGRADE_STATE[0]).exists() and starts < UPGRADE_STARTS:
        benchlib.run(chat, env, stdin="/exit\n", cwd=cwd)
        starts += 1
    return starts


@dataclass
class Upgrades:
    """The starts of a palace after its upgrade: the first, the second, and how many the one-time look took."""

    first: list[benchlib.Run] = field(default_factory=list)
    second: list[benchlib.Run] = field(default_factory=list)
    looks: list[int] = field(default_factory=list)

    def run(self, home: Path, chat: list[str], env: dict[str, str], cwd: Path) -> None:
        """The first start after an upgrade, the second, then starts until the palace is as it was."""
        as_before_upgrade(home)
        self.first.append(benchlib.run(chat, env, stdin="/exit\n", cwd=cwd))
        done_first = (home / UPGRADE_STATE[0]).exists()
        self.second.append(benchlib.run(chat, env, stdin="/exit\n", cwd=cwd))
        self.looks.append(1 if done_first else finish_upgrade(home, chat, env, cwd))

    def report(self, name: str, wall: float, cpu: float) -> None:
        """Their figures against the empty palace's start (`wall`, `cpu`)."""
        what = f"  first start after an upgrade, {name}"
        figure("4", f"{what}: wall", benchlib.median([r.wall for r in self.first]), wall, base="empty", goal=1.5)
        figure("4", f"{what}: CPU", benchlib.median([r.cpu for r in self.first]), cpu, base="empty", goal=1.5)
        what = f"  second start after an upgrade, {name}: CPU"
        figure("4", what, benchlib.median([r.cpu for r in self.second]), cpu, base="empty", goal=None)
        note(f"the one-time look of an upgraded palace was done by its start {max(self.looks)} after the upgrade")


def repl_ready(root: Path, counts: list[int], runs: int, cwd: Path) -> None:
    homes = session_palaces(root, counts)
    before = {name: _session_files(home) for name, home in homes.items()}
    done: dict[str, list[benchlib.Run]] = {name: [] for name in homes}
    upgraded = {name: Upgrades() for name in homes if name != "empty"}
    envs = {name: benchlib.child_env(home) for name, home in homes.items()}
    names = list(homes)
    chat = [*benchlib.PALACE, "chat"]
    for n in range(runs + 1):  # the first round warms the page cache; each round starts with another palace
        for name in names[n % len(names) :] + names[: n % len(names)]:
            finished = benchlib.run(chat, envs[name], stdin="/exit\n", cwd=cwd)
            if n:
                done[name].append(finished)
            if n and name in upgraded:
                upgraded[name].run(homes[name], chat, envs[name], cwd)
    wall = {name: benchlib.median([r.wall for r in runs]) for name, runs in done.items()}
    cpu = {name: benchlib.median([r.cpu for r in runs]) for name, runs in done.items()}
    bare = benchlib.median(
        [benchlib.run([sys.executable, "-c", "pass"], envs["empty"], cwd=cwd).wall for _ in range(5)]
    )
    figure("-", "palace chat, ready + /exit, empty palace", wall["empty"], bare, base="python -c pass", goal=None)
    for name, home in homes.items():
        if name == "empty":
            continue
        figure("4", f"palace chat, ready + /exit, {name}: wall", wall[name], wall["empty"], base="empty", goal=1.15)
        figure("4", f"palace chat, ready + /exit, {name}: CPU", cpu[name], cpu["empty"], base="empty", goal=1.15)
        upgraded[name].report(name, wall["empty"], cpu["empty"])
        if _session_files(home) != before[name]:
            note(f"warning: the session files changed ({before[name]} -> {_session_files(home)})")
    small, big = counts[0], counts[-1]
    name_small, name_big = f"{small:,} sessions", f"{big:,} sessions"
    what = f"chat start growth, {small:,} -> {big:,} sessions (CPU)"
    figure("4", what, cpu[name_big], cpu[name_small], base=f"at {small:,}", goal=None)


def cpu_note(ours: list[benchlib.Run], bare: list[benchlib.Run]) -> None:
    cpu, base = benchlib.median([r.cpu for r in ours]), benchlib.median([r.cpu for r in bare])
    note(f"CPU (user+sys): palace {benchlib.ms(cpu)}, baseline {benchlib.ms(base)}, ratio {cpu / base:.2f}x")


def system_prompt(root: Path, sizes: list[int], runs: int, cwd: Path) -> None:
    for size in sizes:
        home = root / f"memories-{size}"
        home.mkdir(mode=0o700)
        file = home / "memories.md"
        file.write_text(palacegen.memories(target_bytes=size, seed=8).text, encoding="utf-8")
        env = benchlib.child_env(home)
        render_cmd = [sys.executable, "-c", RENDER, WING]
        cut_cmd = [sys.executable, "-c", READ_CUT, str(file)]
        first = benchlib.run(render_cmd, env, cwd=cwd)
        first_cut = benchlib.run(cut_cmd, env, cwd=cwd)
        ours, bare = [], []
        for _ in range(runs):
            ours.append(benchlib.run(render_cmd, env, cwd=cwd))
            bare.append(benchlib.run(cut_cmd, env, cwd=cwd))
        (wall, render), (bare_wall, cut) = medians(ours), medians(bare)
        kb = f"{file.stat().st_size / 1024:,.0f} KB"  # about the size asked for
        figure("5", f"system prompt memory, new process, {kb}", wall, bare_wall, base="read+cut process", goal=5)
        figure("5", f"  first render in that process (after imports), {kb}", render, cut, base="read+cut", goal=None)
        figure(
            "5",
            f"  first process after the file was written, {kb}",
            first.wall,
            first_cut.wall,
            base="read+cut",
            goal=None,
        )
        cpu_note(ours, bare)
        note(f"rendered {ours[0].stdout.split()[1]} bytes for wing {WING}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes, a smoke run in under a minute")
    parser.add_argument("--runs", type=int, default=0, help="runs per figure (default 15, --quick 3)")
    args = parser.parse_args()
    runs = args.runs or (3 if args.quick else 15)
    counts = [100, 1000] if args.quick else [1000, 10000, 30000]
    sizes = [8 * 1024, 100 * 1024] if args.quick else [8 * 1024, 100 * 1024, 1024 * 1024]
    benchlib.header("bench_startup", args.quick)
    cwd = benchlib.outside_git()
    try:
        with tempfile.TemporaryDirectory(prefix="palace-bench-startup-") as tmp:
            root = Path(tmp)
            cli_start(root, runs, cwd)
            repl_ready(root, counts, max(3, runs // 3), cwd)
            system_prompt(root, sizes, max(3, runs // 2), cwd)
    finally:
        os.rmdir(cwd)
    benchlib.footer()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
