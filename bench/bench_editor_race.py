"""Acknowledged saves under racing editors: `python bench/bench_editor_race.py [--seconds N] [--editors K]
[--palaces P]`.

K editor processes each loop: read memories.md, append a line of their own, write a temp file, rename it
over memories.md, sleep ~30 ms (the way editors save, without palace's lock). Meanwhile P palace processes
save entries as fast as they can: the first one as the REPL does (one store, which looks again once the
editors stop, as its watcher would), the others as `palace memory save` does (a store for each save, gone
right after it: only another palace process can repair what an editor drops from them). At the end every save
palace acknowledged ("Saved") is looked for in the file; the baseline is the same run's count of the editors'
own lines that survived, since an editor that renames a stale copy loses lines too (that loss is the
editors', not palace's).

This is a measurement, not a test: the interleavings are timing-dependent, so it lives in bench/. The
deterministic version of the race (an editor renaming a stale copy right after palace's swap) is a test in
tests/test_file_edges.py.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import footer, header

EDITOR = r"""
import os, sys, time, random
file, name, stop = sys.argv[1], sys.argv[2], float(sys.argv[3])
n = 0
while time.time() < stop:
    try:
        text = open(file, encoding="utf-8").read()
    except FileNotFoundError:
        continue
    n += 1
    tmp = f"{file}.{name}.swp"
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(text + f"\n{name} line {n}\n")
    os.replace(tmp, file)
    print(n, flush=True)
    time.sleep(0.02 + random.random() * 0.02)
"""

PALACE = r"""
import sys, time
from pathlib import Path
from palace.errors import StoreError
from palace.memory.store import MemoryStore
home, stop, name, kind = Path(sys.argv[1]), float(sys.argv[2]), sys.argv[3], sys.argv[4]
store = MemoryStore(home)
n = 0
while time.time() < stop:
    n += 1
    if kind == "cli":
        store = MemoryStore(home)
    try:
        result = store.save(f"Preferences/room-{n % 7}", f"Acknowledged fact {name} number {n}")
    except StoreError:  # the file kept changing for seconds: refused, not acknowledged
        continue
    if result.action == "saved":
        print(n, flush=True)
time.sleep(0.5)  # the editors stop too; then the look the REPL's watcher makes when the file changes
if kind == "repl":
    store.repair_recent()
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--editors", type=int, default=3)
    parser.add_argument("--palaces", type=int, default=1, help="palace processes: a REPL, then CLI saves")
    args = parser.parse_args()
    header("bench_editor_race", False)
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "palace"
        home.mkdir(mode=0o700)
        file = home / "memories.md"
        file.write_text("# Memories\n\n## Preferences\n\n### start\n- [2026-11-01] The first entry\n")
        stop = time.time() + args.seconds
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
        editors = [
            subprocess.Popen(
                [sys.executable, "-c", EDITOR, str(file), f"editor{k}", str(stop)],
                stdout=subprocess.PIPE,
                text=True,
                env=env,
            )
            for k in range(args.editors)
        ]
        kinds = ["repl"] + ["cli"] * (args.palaces - 1)
        palaces = [
            subprocess.Popen(
                [sys.executable, "-c", PALACE, str(home), str(stop), f"p{k}", kind],
                stdout=subprocess.PIPE,
                text=True,
                env=env,
            )
            for k, kind in enumerate(kinds)
        ]
        saved = {k: palace.communicate()[0].split() for k, palace in enumerate(palaces)}
        written = {k: editor.communicate()[0].split() for k, editor in enumerate(editors)}
        text = file.read_text(encoding="utf-8")
    acknowledged = [(k, n) for k, numbers in saved.items() for n in numbers]
    lost = [(k, n) for k, n in acknowledged if f"Acknowledged fact p{k} number {n}\n" not in text + "\n"]
    editor_lines = sum(len(lines) for lines in written.values())
    editor_lost = sum(1 for k, lines in written.items() for n in lines if f"editor{k} line {n}\n" not in text + "\n")
    print(f"palace saves acknowledged: {len(acknowledged)}, missing at the end: {len(lost)}")
    for k, kind in enumerate(kinds):
        mine = [n for j, n in lost if j == k]
        print(f"  palace p{k} ({kind}): {len(saved[k])} acknowledged, {len(mine)} missing")
    print(
        f"editor saves: {editor_lines}, editor lines missing at the end (lost by the editors' own stale copies): "
        f"{editor_lost}"
    )
    print(
        f"ratio of palace's loss rate to the editors': "
        f"{(len(lost) / max(1, len(acknowledged))) / max(1e-9, editor_lost / max(1, editor_lines)):.3f}"
    )
    footer()


if __name__ == "__main__":
    main()
