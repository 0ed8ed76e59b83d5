"""Quick add: how often the first room proposed for a `/remember TEXT` fits, on the tuning and held-out parts.

Goal (issue: a palace that stays sharp for a year): a fitting existing room first for at least 24 of the 30
tuning sentences. The held-out part was written apart and never tuned on: its figure is what to expect.
Also the cost of a proposal against a plain parse of the same memories.md, measured in the same run.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.quickadd_corpus import HELD_OUT, PALACE, TUNE
from palace.memory.document import Document
from palace.memory.suggest import propose_rooms


def main() -> None:
    doc = Document.parse(PALACE.encode())
    for name, part in (("tuning", TUNE), ("held-out", HELD_OUT)):
        fits = sum(str(propose_rooms(doc, text)[0]) in rooms for text, rooms in part)
        among = sum(any(str(p) in rooms for p in propose_rooms(doc, text)[:3]) for text, rooms in part)
        print(f"{name:>9}: first proposal fits {fits}/{len(part)} ({fits / len(part):.0%}); in the first three {among}")
    runs = 200
    start = time.perf_counter()
    for n in range(runs):
        Document.parse(f"{PALACE}<!-- {n} -->\n".encode())  # a new text each time: no cache answers
    parse = (time.perf_counter() - start) / runs
    start = time.perf_counter()
    for text, _ in TUNE:
        propose_rooms(doc, text)
    propose = (time.perf_counter() - start) / len(TUNE)
    print(f"a proposal: {propose * 1000:.2f} ms, {propose / parse:.2f}x a fresh parse of the same memories.md")


if __name__ == "__main__":
    main()
