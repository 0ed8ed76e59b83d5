"""Acknowledged saves under racing editors: `python bench/bench_editor_race.py [--seconds N] [--editors K]`.

K editor processes each loop: read memories.md, append a line of their own, write a temp file, rename it
over memories.md, sleep ~30 ms (the way editors save, without palace's lock). Meanwhile one palace process
saves entries as fast as it can. At the end every save palace acknowledged ("Saved") is looked for in the
file; the baseline is the same run's count of the editors' own lines that survived, since an editor that
renames a stale copy loses lines too (that loss is the editors', not palace's).

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
from palace.memory.store import MemoryStore
store = MemoryStore(Path(sys.argv[1]))
stop = float(sys.argv[2])
n = 0
while time.time() < stop:
    n += 1
    result = store.save(f"Preferences/room-{n % 7}", f"Acknowledged fact number {n}")
    if result.action == "saved":
        print(n, flush=True)
time.sleep(0.5)  # the editors stop too; then the look the REPL's watcher makes when the file changes
store.repair_recent()
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--editors", type=int, default=3)
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
        palace = subprocess.Popen(
            [sys.executable, "-c", PALACE, str(home), str(stop)], stdout=subprocess.PIPE, text=True, env=env
        )
        acknowledged = palace.communicate()[0].split()
        written = {k: editor.communicate()[0].split() for k, editor in enumerate(editors)}
        text = file.read_text(encoding="utf-8")
    lost = [n for n in acknowledged if f"Acknowledged fact number {n}\n" not in text + "\n"]
    editor_lines = sum(len(lines) for lines in written.values())
    editor_lost = sum(1 for k, lines in written.items() for n in lines if f"editor{k} line {n}\n" not in text + "\n")
    print(f"palace saves acknowledged: {len(acknowledged)}, missing at the end: {len(lost)}")
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
