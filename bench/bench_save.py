"""Save benchmarks (costs that do not grow with history): `python bench/bench_save.py [--quick]`.

1. MemorySave in the REPL path (`App(settings, warn=..., background_commits=True).store`, as `palace chat`
   builds it: the GitHistory hook commits in a background thread) on a 1,000-entry memories.md, in a palace
   without git and in one made by `palace init --git`, vs a bare temp-write + fsync + rename + folder fsync
   of the same bytes (goal <= 3x). With git, each save is timed with the committer idle (the commits of the
   one before waited for and written back with os.sync(), untimed: in the REPL a model turn separates
   saves), and then in a burst (saves back to back while the commits run: report only); the background
   commit's own time is printed too.
2. `palace memory save PATH CONTENT` as a whole process on a 1,000-entry palace: CPU time (user + sys, from
   os.wait4) vs `python -c pass` (goal <= 4x), and wall time.
3. Save cost vs file size, 10 -> 100 -> 1,000 -> 5,000 -> 20,000 -> 50,000 entries (REPL path, no git): ms
   per save, ratio to the bare write of the same bytes (goal <= 2x at 1,000, 20,000 and 50,000 entries,
   <= 3x at the other sizes), bytes, ms/KB and the growth exponent between sizes (goal: no faster than the
   bytes, exponent <= 1.1 allowing for noise); the CPU time of a save (this process's user + sys) and its
   growth exponent from 1,000 to 50,000 entries (goal <= 0.2: the work of a save hardly grows with the
   file), next to the bare write's CPU time.

Each timed save is followed by an untimed forget of the same entry, so the file keeps its size; saves and
bare writes alternate, so both see the same machine load.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import benchlib
import palacegen
from benchlib import figure, note
from prose import Prose

from palace.app import App
from palace.config import load_settings
from palace.memory.store import MemoryStore


@dataclass
class Palace:
    """A palace folder with a generated memories.md, and the REPL's store on it."""

    home: Path
    rooms: list[str]
    store: MemoryStore
    warnings: list[str]
    flush: Callable[[], None]  # waits for the background commits


def make_palace(root: Path, name: str, entries: int, *, git: bool, seed: int = 3) -> Palace:
    """A palace as `palace chat` opens it (commits in the background)."""
    home = root / name
    if git:
        benchlib.run([*benchlib.PALACE, "init", "--git"], benchlib.child_env(home))
    else:
        home.mkdir(mode=0o700)
    generated = palacegen.memories(entries, seed=seed)
    file = home / "memories.md"
    file.write_text(generated.text, encoding="utf-8")
    os.chmod(file, 0o600)
    warnings: list[str] = []
    app = App(load_settings(env={"PALACE_HOME": str(home)}), warn=warnings.append, background_commits=True)
    return Palace(home, generated.rooms, app.store, warnings, app.history.flush)


@dataclass
class SaveTimes:
    save: float  # median seconds
    bare: float
    save_cpu: float  # median CPU seconds (user + sys of this process) of a save
    bare_cpu: float
    size: int  # bytes of the file after a save
    samples: int
    not_saved: int  # saves that did not add an entry (should be 0)
    commit: float  # median seconds the background commits of one save and its forget took (spaced only)


def time_saves(palace: Palace, samples: int, *, seed: int = 4, spaced: bool = False) -> SaveTimes:
    """Median of `samples` saves, each followed by an untimed forget, alternating with bare writes; with
    `spaced` the background commits are waited for (timed apart) before each save."""
    rng = random.Random(seed)
    prose = Prose(rng)
    bare_dir = palace.home.parent / f"{palace.home.name}-bare"
    bare_dir.mkdir(exist_ok=True)
    bare_file = bare_dir / "memories.md"
    saves, bares, commits, save_cpus, bare_cpus = [], [], [], [], []
    not_saved = size = 0
    for n in range(samples + 3):  # the first three warm up (and commit the generated file as a hand edit)
        path = rng.choice(palace.rooms)
        content = palacegen.fresh_entry(prose, path.split("/")[-2], n)
        results = []
        cpu = time.process_time()
        took = benchlib.timed(lambda: results.append(palace.store.save(path, content)))  # noqa: B023
        save_cpu = time.process_time() - cpu
        data = palace.store.file.read_bytes()
        cpu = time.process_time()
        bare = benchlib.timed(lambda: benchlib.bare_write(bare_file, data))  # noqa: B023
        bare_cpu = time.process_time() - cpu
        not_saved += results[0].action != "saved"
        palace.store.forget(path, results[0].content)
        flushed = benchlib.timed(palace.flush) if spaced else 0.0
        if spaced:
            os.sync()  # what the seconds of a model turn give the kernel: git's writes reach the disk
        if n >= 3:
            saves.append(took)
            bares.append(bare)
            commits.append(flushed)
            save_cpus.append(save_cpu)
            bare_cpus.append(bare_cpu)
            size = len(data)
    palace.flush()
    return SaveTimes(
        benchlib.median(saves),
        benchlib.median(bares),
        benchlib.median(save_cpus),
        benchlib.median(bare_cpus),
        size,
        samples,
        not_saved,
        benchlib.median(commits),
    )


def row1(root: Path, quick: bool) -> None:
    for git in (False, True):
        palace = make_palace(root, f"row1-{'git' if git else 'plain'}", 1000, git=git)
        times = time_saves(palace, (10 if git else 30) if quick else (40 if git else 100), spaced=git)
        kind = "palace init --git" if git else "no git"
        what = f"MemorySave, REPL path, {kind}, 1,000 entries ({times.size / 1024:.0f} KB)"
        figure("1", what, times.save, times.bare, base="bare write", goal=3)
        _warn(palace, times)
        if git:
            note(f"the background commits of a save and its forget: {benchlib.ms(times.commit)} (not waited for)")
            burst = time_saves(palace, 10 if quick else 30, seed=9)
            what = "  the same, in a burst (saves back to back while the commits run)"
            figure("1", what, burst.save, burst.bare, base="bare write", goal=None)
            commits = _git_count(palace.home)
            note(f"{commits} commits in all, one per change; `git status` clean: {_git_clean(palace.home)}")


def _git_count(home: Path) -> int:
    done = subprocess.run(["git", "rev-list", "--count", "HEAD"], cwd=home, capture_output=True, text=True)
    return int(done.stdout.strip() or 0)


def _git_clean(home: Path) -> bool:
    done = subprocess.run(["git", "status", "--porcelain"], cwd=home, capture_output=True, text=True)
    return done.returncode == 0 and not done.stdout.strip()


def _warn(palace: Palace, times: SaveTimes) -> None:
    if times.not_saved:
        note(f"warning: {times.not_saved} saves did not add an entry")
    for warning in dict.fromkeys(palace.warnings):
        note(f"palace warned: {warning}")


def row2(root: Path, quick: bool) -> None:
    """In a folder outside any git repository (no project around it), as from a user's home."""
    runs = 5 if quick else 15
    pass_env = benchlib.child_env(None)
    for git in (False, True):
        palace = make_palace(root, f"row2-{'git' if git else 'plain'}", 1000, git=git)
        env = benchlib.child_env(palace.home)
        rng = random.Random(5)
        prose = Prose(rng)
        ours, bare = [], []
        for n in range(runs + 2):  # two warm-ups
            path = rng.choice(palace.rooms)
            content = palacegen.fresh_entry(prose, path.split("/")[-2], n)
            saved = benchlib.run([*benchlib.PALACE, "memory", "save", path, content], env, cwd=root)
            floor = benchlib.run([sys.executable, "-c", "pass"], pass_env, cwd=root)
            if n >= 2:
                ours.append(saved)
                bare.append(floor)
        kind = "palace init --git" if git else "no git"
        cpu, cpu_base = benchlib.median([r.cpu for r in ours]), benchlib.median([r.cpu for r in bare])
        wall, wall_base = benchlib.median([r.wall for r in ours]), benchlib.median([r.wall for r in bare])
        what = f"`palace memory save` process, {kind}, 1,000 entries"
        figure("2", f"{what}: CPU", cpu, cpu_base, base="python -c pass", goal=None if git else 4)
        figure("2", f"{what}: wall", wall, wall_base, base="python -c pass", goal=None)


_TIGHT = {1000, 20000, 50000}  # the sizes held to 2x (issue 25); the others to 3x


def row3(root: Path, quick: bool, sizes: list[int] | None = None) -> None:
    sizes = sizes or ([10, 100, 1000] if quick else [10, 100, 1000, 5000, 20000, 50000])
    points: list[tuple[int, float]] = []
    cpus: dict[int, float] = {}
    worst = 0.0
    for entries in sizes:
        palace = make_palace(root, f"row3-{entries}", entries, git=False, seed=6)
        probe = benchlib.timed(lambda: palace.store.save(palace.rooms[0], "A probe entry to size the run"))  # noqa: B023
        samples = max(8, min(60 if not quick else 15, int(4.0 / max(probe, 1e-3))))
        times = time_saves(palace, samples)
        what = f"save, {entries:,} entries ({times.size:,} bytes)"
        figure("3", what, times.save, times.bare, base="bare write", goal=2 if entries in _TIGHT else 3)
        kb = times.size / 1024
        line = f"ms/KB: palace {times.save * 1000 / kb:.3f}, bare {times.bare * 1000 / kb:.3f}; {times.samples} saves"
        if points:
            exponent = benchlib.growth([points[-1][0], times.size], [points[-1][1], times.save])
            worst = max(worst, exponent)
            line += (
                f"; growth exponent since the previous size {exponent:.2f} (bytes x{times.size / points[-1][0]:.1f})"
            )
        note(line)
        note(f"CPU: save {benchlib.ms(times.save_cpu)}, bare write {benchlib.ms(times.bare_cpu)}")
        _warn(palace, times)
        points.append((times.size, times.save))
        cpus[entries] = times.save_cpu
    first, last = points[0], points[-1]
    figure(
        "3",
        f"save cost growth, {sizes[0]:,} -> {sizes[-1]:,} entries",
        last[1],
        first[1],
        base=f"at {sizes[0]} entries",
        goal=None,
        met=worst <= 1.1,
        goal_text=f"bytes x{last[0] / first[0]:.0f}; worst exponent {worst:.2f}, goal <= 1.1 (linear in the bytes)",
    )
    if 1000 in cpus and len(cpus) > 1 and max(cpus) > 1000:
        top = max(cpus)
        exponent = benchlib.growth([1000, top], [cpus[1000], cpus[top]])
        figure(
            "3",
            f"save CPU growth, 1,000 -> {top:,} entries",
            cpus[top],
            cpus[1000],
            base="at 1,000 entries",
            goal=None,
            met=exponent <= 0.2,
            goal_text=f"entries x{top // 1000}; exponent {exponent:.2f}, goal <= 0.2",
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes, a smoke run in under a minute")
    parser.add_argument("--row3", metavar="SIZES", help="only row 3, at these entry counts (comma-separated)")
    args = parser.parse_args()
    benchlib.header("bench_save", args.quick)
    with tempfile.TemporaryDirectory(prefix="palace-bench-save-") as tmp:
        root = Path(tmp)
        if args.row3:
            row3(root, args.quick, [int(n) for n in args.row3.split(",")])
            benchlib.footer()
            return 0
        row1(root, args.quick)
        row2(root, args.quick)
        row3(root, args.quick)
    benchlib.footer()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
