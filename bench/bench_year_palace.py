"""A year-old palace (bench/yearpalace.py): what the prompt keeps by value, what tidy proposes, and their cost.

Rows: the 20 most-used entries in the prompt (goal 20/20) against what leaving out the oldest first kept (the
old rule, measured in the same run); entries past their end in the prompt (goal 0); seeded duplicate pairs tidy
proposes (goal >= 8 of 10) and how many other proposals it makes; the cost of a render by value and of a tidy,
each as a ratio to a plain parse of the same file in the same run.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.yearpalace import TODAY, generate, write
from palace.memory.document import Document
from palace.memory.render import render_document
from palace.memory.reuse import Uses, key_of
from palace.memory.store import MemoryStore
from palace.memory.tidy import tidy_items


def _best(run: object, times: int = 5) -> float:
    best = float("inf")
    for _ in range(times):
        start = time.perf_counter()
        run()  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    palace = generate()
    home = Path(tempfile.mkdtemp()) / "palace"
    write(home, palace)
    store = MemoryStore(home, today=lambda: TODAY)
    doc = store.document()
    today = TODAY.isoformat()
    by_value = render_document(doc, None, 8192, today=today, value=store._value(today))
    by_date = render_document(doc, None, 8192, today=today)
    top = palace.most_used(20)
    print(f"20 most used in the prompt: by value {sum(t in by_value.text for t in top)}/20, "
          f"oldest-first rule {sum(t in by_date.text for t in top)}/20 ({by_value.left_out} of "
          f"{by_value.total_entries} entries left out)")  # fmt: skip
    print(f"entries past their end in the prompt: {sum(e in by_value.text for e in palace.expired)} of 40")
    counts = store.reuse.load()
    items = tidy_items(doc, lambda e: counts.get(key_of(e.path or "", e.content), Uses()), today)
    found = sum(any(i.kind == "merge" and i.content in pair for i in items) for pair in palace.pairs)
    other = [i for i in items if not any(i.content in pair for pair in palace.pairs)]
    kinds = {k: sum(i.kind == k for i in other) for k in ("merge", "replace", "remove")}
    print(f"tidy: {found}/10 seeded pairs proposed; other proposals {kinds} among {len(doc.entries)} entries")
    data = (home / "memories.md").read_bytes()
    docs = [Document.parse(data.replace(b"# Memories", b"# Memories %d" % n, 1)) for n in range(12)]
    plain = _best(lambda: render_document(docs.pop(), None, 8192, today=today))
    valued = _best(lambda: render_document(docs.pop(), None, 8192, today=today, value=store._value(today)))
    tidy = _best(lambda: tidy_items(doc, lambda e: Uses(), today), 2)
    print(f"cost at {len(doc.entries)} entries: render by value {valued * 1000:.1f} ms vs oldest-first "
          f"{plain * 1000:.1f} ms ({valued / plain:.2f}x); tidy {tidy * 1000:.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
