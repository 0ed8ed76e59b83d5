"""Memory engine benchmarks: `python bench/bench_memory.py` (about a minute; ratios measured in the same run).

1. render of an unchanged 8 KB memories.md (cache hit) vs a bare read + string concat of the file  (goal <= 2x)
2. render after a change: a cold parse of 8 KB (goal <= 5 ms), 100 KB and 1 MB (ms and ms/KB: linear?),
   and render after a small hand edit (the parse picks up from the previous version)
3. save on a 1,000-entry file vs a bare temp-write + fsync + rename (+ folder fsync) of the same bytes
   (goal <= 3x; a bare MemoryStore: the REPL's store with its history hook is in bench_save.py)
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchlib import bare_write
from palacegen import fresh_entry, memories
from prose import Prose

from palace.memory import MemoryStore
from palace.memory import document as document_module
from palace.memory.document import Document


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return samples


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def forget_parses() -> None:
    """Drop the parse memo so the next parse starts from nothing (a new process)."""
    clear = getattr(document_module, "clear_parse_cache", None)
    if clear is not None:
        clear()


def bench_cache_hit(root: Path) -> tuple[str, str]:
    home = root / "hit"
    home.mkdir(mode=0o700)
    file = home / "memories.md"
    file.write_text(memories(target_bytes=8 * 1024).text)
    store = MemoryStore(home)
    store.render("ifai")

    def bare_render() -> str:
        text = file.read_bytes().decode("utf-8", "replace")
        return "<memory>\n" + text + "\n</memory>"

    hit = statistics.median(timed(lambda: store.render("ifai"), 20000))
    bare = statistics.median(timed(bare_render, 20000))
    return (
        f"render {file.stat().st_size / 1024:.1f} KB, unchanged (cache hit)",
        f"{ms(hit)} vs bare read+concat {ms(bare)}: ratio {hit / bare:.2f}x (goal <= 2x)",
    )


def bench_change(root: Path, label: str, target: int) -> tuple[str, str]:
    home = root / f"cold-{label.replace(' ', '')}"
    home.mkdir(mode=0o700)
    file = home / "memories.md"
    file.write_text(memories(target_bytes=target, seed=2).text)
    kb = file.stat().st_size / 1024
    repeat = 30 if target < 200_000 else 5

    def cold() -> None:
        forget_parses()
        MemoryStore(home).render("ifai")

    cold_s = statistics.median(timed(cold, repeat))
    store = MemoryStore(home)
    store.render("ifai")
    counter = [0]

    def hand_edit_then_render() -> None:
        counter[0] += 1
        with file.open("a") as handle:
            handle.write(f"A hand-written line {counter[0]}.\n")
        store.render("ifai")

    edit_s = statistics.median(timed(hand_edit_then_render, repeat))
    goal = " (goal <= 5 ms)" if target == 8 * 1024 else ""
    return (
        f"render after a change, {kb:.0f} KB",
        f"cold parse {ms(cold_s)} = {cold_s * 1000 / kb:.3f} ms/KB{goal}; after a small hand edit {ms(edit_s)}",
    )


def bench_save(root: Path) -> tuple[str, str]:
    home = root / "save"
    home.mkdir(mode=0o700)
    file = home / "memories.md"
    generated = memories(1000, seed=3)
    file.write_text(generated.text)
    rooms = generated.rooms
    store = MemoryStore(home, today=lambda: date(2026, 11, 30))
    rng = random.Random(4)
    prose = Prose(rng)
    bare_file = home / "bare.md"
    save_samples, bare_samples = [], []
    for n in range(300):  # alternate the two so that both see the same machine load
        path = rng.choice(rooms)
        content = fresh_entry(prose, path.split("/")[-2], n)
        save_samples += timed(lambda: store.save(path, content), 1)  # noqa: B023 (called at once)
        data = file.read_bytes()
        bare_samples += timed(lambda: bare_write(bare_file, data), 1)  # noqa: B023 (called at once)
    entries = len(Document.parse(file.read_bytes()).entries)
    save_s, bare_s = statistics.median(save_samples), statistics.median(bare_samples)
    return (
        f"save on a 1,000-entry file (ends at {entries}, {file.stat().st_size / 1024:.0f} KB)",
        f"{ms(save_s)} vs bare write+fsync+rename+dir fsync {ms(bare_s)}: ratio {save_s / bare_s:.2f}x (goal <= 3x)",
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        results = [bench_cache_hit(root)]
        for label, target in [("8 KB", 8 * 1024), ("100 KB", 100 * 1024), ("1 MB", 1024 * 1024)]:
            results.append(bench_change(root, label, target))
        results.append(bench_save(root))
    width = max(len(name) for name, _ in results)
    for name, value in results:
        print(f"{name.ljust(width)}  {value}")


if __name__ == "__main__":
    main()
