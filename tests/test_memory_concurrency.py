"""Real processes on one palace: concurrent writers, writers killed at random moments, editors that ignore the lock.

Every process runs the real MemoryStore on the real file in a temporary PALACE_HOME.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import pytest

from palace.memory import MemoryStore, ops, parse_path
from palace.memory.document import Document

TODAY = date(2026, 11, 30)

# A writer in its own interpreter: `python -c WRITER home worker count` saves `count` distinct entries.
WRITER = """
import sys
from datetime import date
from pathlib import Path
from palace.memory import MemoryStore

home, worker, count = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
store = MemoryStore(home, today=lambda: date(2026, 11, 30))
rooms = ["Preferences/editors", "Decisions/db", "ifai/Decisions/architecture", "ifai/Project Knowledge/stack"]
for n in range(count):
    result = store.save(rooms[(worker + n) % len(rooms)], f"Worker {worker} wrote entry number {n}")
    assert result.action == "saved", result.message
print("done", flush=True)
"""


def spawn_writer(home: Path, worker: int, count: int) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, str(home), str(worker), str(count)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def contents(data: bytes) -> list[str]:
    return [e.content for e in Document.parse(data).entries]


def test_four_processes_saving_250_entries_each_make_exactly_1000(tmp_path: Path) -> None:
    home = tmp_path / "palace"
    home.mkdir(mode=0o700)
    (home / "memories.md").write_text("# Memories\n\nA hand-written introduction.\n")
    writers = [spawn_writer(home, worker, 250) for worker in range(4)]
    for writer in writers:
        out, err = writer.communicate(timeout=300)
        assert writer.returncode == 0, err
        assert out.strip() == "done"
    data = (home / "memories.md").read_bytes()
    doc = Document.parse(data)
    assert doc.to_bytes() == data
    found = [e.content for e in doc.entries]
    assert len(found) == 1000
    assert sorted(found) == sorted(f"Worker {w} wrote entry number {n}" for w in range(4) for n in range(250))
    assert all(e.path is not None and e.date == TODAY.isoformat() for e in doc.entries)
    # each room heading exactly once, the hand-written text untouched at the top
    assert data.startswith(b"# Memories\n\nA hand-written introduction.\n")
    assert [s.heading.text for s in doc.sections] == [
        "Preferences",
        "editors",
        "Decisions",
        "db",
        "ifai",
        "Decisions",
        "architecture",
        "Project Knowledge",
        "stack",
    ] or sorted(s.heading.text for s in doc.sections) == sorted(
        ["Preferences", "editors", "Decisions", "db", "ifai", "Decisions", "architecture", "Project Knowledge", "stack"]
    )
    assert sorted(os.listdir(home)) == [".lock", "memories.md"]


# ---------------------------------------------------------------------- killed writers
CRASH_PATHS = ["Preferences/editors", "ifai/Decisions/architecture", "Workflow Patterns/reviews"]


def _crash_writer(home: str, trial: int, ready: object) -> None:
    """Save entries in a loop until killed."""
    store = MemoryStore(Path(home), today=lambda: TODAY)
    ready.set()  # type: ignore[attr-defined]
    n = 0
    while True:
        store.save(CRASH_PATHS[n % len(CRASH_PATHS)], f"Trial {trial} entry {n}")
        n += 1


def _replay(before: bytes, trial: int, count: int) -> bytes:
    """The file after the first `count` saves of a trial, computed in this process."""
    data = before
    for n in range(count):
        new, _ = ops.save(
            Document.parse(data),
            parse_path(CRASH_PATHS[n % len(CRASH_PATHS)]),
            f"Trial {trial} entry {n}",
            TODAY.isoformat(),
        )
        assert new is not None
        data = new
    return data


def test_a_writer_killed_at_random_moments_leaves_the_old_or_the_new_file(tmp_path: Path) -> None:
    home = tmp_path / "palace"
    home.mkdir(mode=0o700)
    file = home / "memories.md"
    file.write_bytes(b"\xef\xbb\xbf# Memories\r\n\r\nHand-written notes, CRLF, BOM.\r\n")
    context = multiprocessing.get_context("fork")  # a fork is cheap: 200 writers in a few seconds
    rng = random.Random(20261130)
    strays = 0
    lengths: list[int] = []
    for trial in range(200):
        before = file.read_bytes()
        ready = context.Event()
        writer = context.Process(target=_crash_writer, args=(str(home), trial, ready), daemon=True)
        writer.start()
        assert ready.wait(10)
        time.sleep(rng.uniform(0, 0.012))
        assert writer.pid is not None
        os.kill(writer.pid, signal.SIGKILL)
        writer.join(10)
        assert writer.exitcode == -signal.SIGKILL
        after = file.read_bytes()
        doc = Document.parse(after)
        assert doc.to_bytes() == after
        mine = {c for c in contents(after) if c.startswith(f"Trial {trial} ")}
        assert mine == {f"Trial {trial} entry {n}" for n in range(len(mine))}  # the first saves, all of each
        assert after == _replay(before, trial, len(mine))  # exactly the version after that many saves
        lengths.append(len(mine))
        leftovers = [name for name in os.listdir(home) if name not in {".lock", "memories.md"}]
        assert all(name.startswith(".memories.md.") and name.endswith(".tmp") for name in leftovers), leftovers
        strays += len(leftovers)
        for name in leftovers:  # a killed writer's temp file: harmless, never read; tidy up between trials
            os.unlink(home / name)
    assert any(n == 0 for n in lengths) or min(lengths) <= 1
    assert max(lengths) >= 2  # the kills landed at many different points
    print(
        f"\n{strays} stray temp files from 200 killed writers; saves completed per trial: "
        f"min {min(lengths)}, max {max(lengths)}"
    )


def _kill_at(home: str, point: str) -> None:
    """Save one entry and SIGKILL this process at a precise point of the write."""
    from palace.memory import files as store_module

    def die() -> None:
        os.kill(os.getpid(), signal.SIGKILL)

    real_fsync, real_rename, real_fsync_dir = os.fsync, store_module._renameat2(), store_module.fsync_dir
    if point == "temp written, before its fsync":
        os.fsync = lambda fd: die()  # type: ignore[assignment]
    elif point == "after the temp fsync, before the swap":

        def fsync_then_die(fd: int) -> None:
            real_fsync(fd)
            die()

        os.fsync = fsync_then_die  # type: ignore[assignment]
    elif point == "after the swap, before the folder fsync":
        store_module.fsync_dir = lambda folder: die()  # type: ignore[assignment]
    elif point == "after the folder fsync":

        def fsync_dir_then_die(folder: Path) -> None:
            real_fsync_dir(folder)
            die()

        store_module.fsync_dir = fsync_dir_then_die  # type: ignore[assignment]
    del real_rename
    MemoryStore(Path(home), today=lambda: TODAY).save("Preferences/editors", "Zed")


@pytest.mark.parametrize(
    "point",
    [
        "temp written, before its fsync",
        "after the temp fsync, before the swap",
        "after the swap, before the folder fsync",
        "after the folder fsync",
    ],
)
def test_a_writer_killed_at_each_step_of_a_write(tmp_path: Path, point: str) -> None:
    home = tmp_path / "palace"
    store = MemoryStore(home, today=lambda: TODAY)
    store.save("Preferences/editors", "Helix")
    before = store.file.read_bytes()
    new = _replay(before, 0, 0)
    assert new == before
    expected_new, _ = ops.save(Document.parse(before), parse_path("Preferences/editors"), "Zed", TODAY.isoformat())
    writer = multiprocessing.get_context("fork").Process(target=_kill_at, args=(str(home), point))
    writer.start()
    writer.join(10)
    assert writer.exitcode == -signal.SIGKILL
    after = store.file.read_bytes()
    assert after in (before, expected_new)
    assert after == (before if "before the swap" in point or "before its fsync" in point else expected_new)
    assert Document.parse(after).to_bytes() == after
    # the next save works normally: a stray temp file or a held lock does not get in the way
    assert store.save("Preferences/editors", "Emacs").action == "saved"
    assert "Emacs" in store.file.read_text()


# ---------------------------------------------------------------------- editors that ignore the lock
EDITOR = """
import os, sys, time, random
from pathlib import Path

file, style, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
rng = random.Random(style)
for n in range(count):
    line = f"Hand-written line {n} ({style})"
    if style == "append":  # in place: O_APPEND, no read
        fd = os.open(file, os.O_WRONLY | os.O_APPEND)
        os.write(fd, f"\\n{line}\\n".encode())
        os.close(fd)
    elif style == "rename":  # read, write a temp file, rename it over the original
        data = file.read_bytes()
        tmp = file.with_name(f".editor-{os.getpid()}.tmp")
        tmp.write_bytes(data + f"\\n{line}\\n".encode())
        os.replace(tmp, file)
    time.sleep(rng.uniform(0.003, 0.02))  # a very fast typist: a save every few milliseconds
print("done", flush=True)
"""


EDITS = 100


@pytest.mark.parametrize("style", ["append", "rename"])
def test_hand_edits_while_palace_saves_are_never_lost(tmp_path: Path, style: str) -> None:
    home = tmp_path / "palace"
    store = MemoryStore(home, today=lambda: TODAY)
    store.save("Preferences/editors", "Helix")
    editor = subprocess.Popen(
        [sys.executable, "-c", EDITOR, str(store.file), style, str(EDITS)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    saved: list[str] = []
    n = 0
    while editor.poll() is None:
        content = f"Palace saved entry {n}"
        result = store.save(["Preferences/editors", "Decisions/db", "ifai/Decisions/x"][n % 3], content)
        assert result.action == "saved"
        saved.append(content)
        n += 1
    _, err = editor.communicate(timeout=60)
    assert editor.returncode == 0, err
    text = store.file.read_text()
    hand = [f"Hand-written line {k} ({style})" for k in range(EDITS)]
    missing = [line for line in hand if line not in text]
    assert not missing, f"{len(missing)} hand-written lines lost, e.g. {missing[:3]}"
    assert len(saved) > 10
    if style == "append":
        # Appending never reads, so it cannot drop palace's entries either: all of them are there.
        found = set(contents(store.file.read_bytes()))
        assert set(saved) <= found
    # (A renaming editor that does not take the lock can drop palace's entries itself: it writes back the
    # copy it read a moment before. Palace only promises not to do that to the editor.)
    assert Document.parse(store.file.read_bytes()).to_bytes() == store.file.read_bytes()
    assert not [name for name in os.listdir(home) if name.startswith(".memories.md.")]


def test_a_rename_editor_that_takes_the_lock_loses_nothing_either_way(tmp_path: Path) -> None:
    home = tmp_path / "palace"
    store = MemoryStore(home, today=lambda: TODAY)
    store.save("Preferences/editors", "Helix")
    assert "Helix" in store.render().text  # palace holds a parsed copy: it must not write from it
    context = multiprocessing.get_context("fork")
    editor = context.Process(target=_locked_editor, args=(str(home), 100))
    editor.start()
    saved = []
    for n in range(150):
        content = f"Palace saved entry {n}"
        store.save("Decisions/db", content)
        saved.append(content)
    editor.join(60)
    assert editor.exitcode == 0
    text = store.file.read_text()
    assert all(f"Locked hand line {k}\n" in text for k in range(100))
    assert set(saved) <= set(contents(store.file.read_bytes()))


def _locked_editor(home: str, count: int) -> None:
    store = MemoryStore(Path(home))
    for n in range(count):
        with store.lock():  # e.g. `flock ~/.palace/.lock vim memories.md`
            data = store.file.read_bytes()
            tmp = store.file.with_name(".editor.tmp")
            tmp.write_bytes(data + f"\nLocked hand line {n}\n".encode())
            os.replace(tmp, store.file)
        time.sleep(0.001)
