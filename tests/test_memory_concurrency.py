"""Real processes on one palace: concurrent writers, writers killed at each step, editors that ignore the lock.

Every process runs the real MemoryStore on the real file in a temporary PALACE_HOME.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from datetime import date
from pathlib import Path
from typing import NamedTuple

import pytest

from palace.memory import MemoryStore, ops, parse_path
from palace.memory.document import Document

TODAY = date(2026, 11, 30)

# A writer in its own interpreter: `python -c WRITER home worker count` saves `count` distinct entries once it
# reads "go", then prints the monotonic time of each of its writes, taken inside the palace lock (the order
# of all writes, across the processes).
WRITER = """
import sys, time
from datetime import date
from pathlib import Path
from palace.memory import MemoryStore

class Stamps:
    def __init__(self):
        self.times = []
    def before_write(self, file):
        pass
    def after_write(self, file, before, after, message, change=None):
        self.times.append(time.monotonic_ns())

home, worker, count = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
stamps = Stamps()
store = MemoryStore(home, today=lambda: date(2026, 11, 30), hooks=[stamps])
rooms = ["Preferences/editors", "Decisions/db", "ifai/Decisions/architecture", "ifai/Project Knowledge/stack"]
print("ready", flush=True)
sys.stdin.readline()
for n in range(count):
    result = store.save(rooms[(worker + n) % len(rooms)], f"Worker {worker} wrote entry number {n}")
    assert result.action == "saved", result.message
print(*stamps.times, flush=True)
"""


def spawn_writer(home: Path, worker: int, count: int) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, str(home), str(worker), str(count)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def contents(data: bytes) -> list[str]:
    return [e.content for e in Document.parse(data).entries]


WRITERS, SAVES = 4, 100  # 4 x 100: with the lock taken out, every measured run lost entries or gave up


@pytest.mark.slow
def test_four_processes_saving_at_once_lose_nothing(tmp_path: Path) -> None:
    home = tmp_path / "palace"
    home.mkdir(mode=0o700)
    (home / "memories.md").write_text("# Memories\n\nA hand-written introduction.\n")
    writers = [spawn_writer(home, worker, SAVES) for worker in range(WRITERS)]
    for writer in writers:  # all started and imported: they begin together
        assert writer.stdout is not None and writer.stdout.readline() == "ready\n"
    for writer in writers:
        assert writer.stdin is not None
        writer.stdin.write("go\n")
        writer.stdin.flush()
    order: list[tuple[int, int]] = []  # (time of the write, writer)
    for worker, writer in enumerate(writers):
        out, err = writer.communicate(timeout=300)
        assert writer.returncode == 0, err
        order += [(int(stamp), worker) for stamp in out.split()]
    assert len(order) == WRITERS * SAVES
    order.sort()
    switches = sum(1 for (_, a), (_, b) in itertools.pairwise(order) if a != b)
    assert switches > WRITERS - 1, "the writers ran one after another, not at once"
    data = (home / "memories.md").read_bytes()
    doc = Document.parse(data)
    assert doc.to_bytes() == data
    found = [e.content for e in doc.entries]
    assert sorted(found) == sorted(f"Worker {w} wrote entry number {n}" for w in range(WRITERS) for n in range(SAVES))
    assert all(e.path is not None and e.date == TODAY.isoformat() for e in doc.entries)
    # each room heading exactly once, the hand-written text untouched at the top
    assert data.startswith(b"# Memories\n\nA hand-written introduction.\n")
    assert sorted(s.heading.text for s in doc.sections) == sorted(
        ["Preferences", "editors", "Decisions", "db", "ifai", "Decisions", "architecture", "Project Knowledge", "stack"]
    )
    assert sorted(os.listdir(home)) == [".lock", "memories.md"]


# ---------------------------------------------------------------------- killed writers
# Writers that stop at each step of a save: around the temp file's creation, os.fsync, os.replace, os.rename,
# os.unlink and Linux renameat2 they print `step <name> <before|after>` and wait for a line on stdin. The test
# SIGKILLs a writer at its k-th step, for every k, so every crash point is hit on purpose, not by timing.
# `python -c STEPPING home mode` imports palace once and forks one writer per content line it reads (each a
# process of its own, with its own lock descriptor); mode "exchange" keeps renameat2, "replace" hides it (as
# on systems without it). Lines are read byte by byte, so no process takes a line meant for another.
STEPPING = """
import os, sys, traceback
from datetime import date
from pathlib import Path
from palace.memory import MemoryStore
from palace.memory import files as store_module

home, mode = Path(sys.argv[1]), sys.argv[2]

def line():
    data = bytearray()
    while (byte := os.read(0, 1)) not in (b"", b"\\n"):
        data += byte
    return data.decode()

def say(*words):
    os.write(1, (" ".join(words) + "\\n").encode())

def stepping(name, real):
    def step(*args, **kwargs):
        say("step", name, "before")
        line()
        result = real(*args, **kwargs)
        say("step", name, "after")
        line()
        return result
    return step

store_module._new_temp = stepping("newtemp", store_module._new_temp)
for name in ("fsync", "replace", "rename", "unlink"):
    setattr(os, name, stepping(name, getattr(os, name)))
real_renameat2 = store_module._renameat2()
if mode == "replace" or real_renameat2 is None:
    store_module._renameat2 = lambda: None
else:
    wrapped = stepping("renameat2", real_renameat2)
    store_module._renameat2 = lambda: wrapped
say("ready")
while content := line():
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            line()  # the test's go: from here on only this writer reads
            result = MemoryStore(home, today=lambda: date(2026, 11, 30)).save("Preferences/editors", content)
            say("saved", result.action)
            code = 0
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(code)
    say("writer", str(pid))
    _, status = os.waitpid(pid, 0)
    say("exit", str(os.waitstatus_to_exitcode(status)))
"""

SWAPS = {"renameat2", "replace", "rename"}  # the steps that put the new file in place


class SteppingWriters:
    """The STEPPING process: start() a writer, go() to its next step, kill() it there."""

    def __init__(self, home: Path, mode: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", STEPPING, str(home), mode],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        assert self.next_line() == "ready"
        self.pid = 0

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.strip())
        self.lines.put("")  # end of output

    def _send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def next_line(self) -> str:
        try:
            return self.lines.get(timeout=60)
        except queue.Empty:
            self.proc.kill()
            raise AssertionError("the writers said nothing for 60 s (stuck on the lock?)") from None

    def start(self, content: str) -> None:
        """A new writer that will save content; it waits for go()."""
        self._send(content)
        word, pid = self.next_line().split()
        assert word == "writer"
        self.pid = int(pid)

    def go(self) -> str:
        """Let the writer run to its next step (or to its end); that step's line, or its last line."""
        self._send("")
        return self.next_line()

    def kill(self) -> None:
        os.kill(self.pid, signal.SIGKILL)
        assert self.next_line() == f"exit {-signal.SIGKILL}"

    def finished(self) -> None:
        """The writer has ended by itself: it exited with status 0."""
        assert self.next_line() == "exit 0", self.close()

    def close(self) -> str:
        """End the STEPPING process; its stderr (tracebacks of failed writers)."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(30)
        assert self.proc.stderr is not None
        return self.proc.stderr.read()


def _saved(data: bytes | None, content: str) -> bytes:
    new, _ = ops.save(
        Document.parse(data or b""), parse_path("Preferences/editors"), content, TODAY.isoformat(), by="user"
    )
    assert new is not None
    return new


def _strays(home: Path) -> list[str]:
    return sorted(name for name in os.listdir(home) if name not in {".lock", "memories.md"})


class Trial(NamedTuple):
    reached: list[str]  # the steps the writer reached, the last one where it was killed
    killed: bool  # False: it had fewer steps than that and finished its save


def _kill_at_step(writers: SteppingWriters, k: int) -> Trial:
    """Let the started writer through k steps and SIGKILL it at the next one (unless it finishes first)."""
    reached: list[str] = []
    line = writers.go()
    while line.startswith("step "):
        reached.append(line.removeprefix("step "))
        if len(reached) > k:
            writers.kill()
            return Trial(reached, killed=True)
        line = writers.go()
    assert line == "saved saved", writers.close()
    writers.finished()
    return Trial(reached, killed=False)


def _assert_old_or_new(file: Path, before: bytes | None, new: bytes, reached: list[str]) -> None:
    """After a kill: exactly the new bytes once a swap step has run, else exactly the old ones (or no file)."""
    swapped = any(step.split()[0] in SWAPS and step.endswith(" after") for step in reached)
    after = file.read_bytes() if file.exists() else None
    assert after == (new if swapped else before), f"killed at step {len(reached) - 1} ({reached[-1]})"
    if after is not None:
        assert Document.parse(after).to_bytes() == after
    # a killed writer may leave its temp file; nothing else, and it never matters to the next save
    assert all(name.startswith(".memories.md.") and name.endswith(".tmp") for name in _strays(file.parent))


@pytest.mark.parametrize(
    ("start", "mode"),
    [("crlf-bom", "exchange"), ("missing", "exchange"), ("crlf-bom", "replace")],
)
def test_a_writer_killed_at_each_step_leaves_the_old_or_the_new_file(tmp_path: Path, start: str, mode: str) -> None:
    home = tmp_path / "palace"
    home.mkdir(mode=0o700)
    file = home / "memories.md"
    if start != "missing":
        file.write_bytes(b"\xef\xbb\xbf# Memories\r\n\r\nHand-written notes, CRLF, BOM.\r\n")
    steps: list[str] = []  # the steps of one whole save, learnt as the kills go further
    writers = SteppingWriters(home, mode)
    for k in itertools.count():
        if start == "missing" and file.exists():
            file.unlink()  # every trial of this series starts without a file
        before = file.read_bytes() if file.exists() else None
        new = _saved(before, f"Entry {k}")
        strays = _strays(home)
        writers.start(f"Entry {k}")
        trial = _kill_at_step(writers, k)
        if not trial.killed:  # k is past the last step: a fresh writer, after all those kills, saves normally
            assert trial.reached == steps
            assert file.read_bytes() == new
            assert _strays(home) == strays  # a whole save leaves no temp file of its own
            break
        assert trial.reached[:-1] == steps[:k], "the save took another path this time"
        steps[k:] = trial.reached[k:]
        _assert_old_or_new(file, before, new, trial.reached)
        for name in _strays(home):  # the killed writer's temp file: the next palace would remove it at its
            os.unlink(home / name)  # first write (tested in test_file_edges); here every trial starts alike
    assert writers.close() == ""
    # every kind of step was a kill point: the temp file's creation and fsync, the swap, the folder's fsync
    kinds = [step.split()[0] for step in steps if step.endswith(" before")]
    assert kinds[:2] == ["newtemp", "fsync"] and kinds[-1] == "fsync" and SWAPS & set(kinds), steps
    assert len(steps) >= 9


# ---------------------------------------------------------------------- editors that ignore the lock
# An editor that ignores the lock: `python -c EDITOR file style count` makes `count` hand edits, each one once
# palace has saved again since the one before (the test saves in a loop), so every edit lands during a save
# of palace's, whatever the machine's speed.
EDITOR = """
import os, re, sys, time
from pathlib import Path

file, style, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])

def palace_saves():
    return max(map(int, re.findall(rb"Palace saved entry (\\d+)", file.read_bytes())), default=-1)

for n in range(count):
    seen = palace_saves()
    line = f"Hand-written line {n} ({style})"
    if style == "append":  # in place: O_APPEND, no read of what it writes into
        fd = os.open(file, os.O_WRONLY | os.O_APPEND)
        os.write(fd, f"\\n{line}\\n".encode())
        os.close(fd)
    elif style == "rename":  # read, write a temp file, rename it over the original
        data = file.read_bytes()
        tmp = file.with_name(f".editor-{os.getpid()}.tmp")
        tmp.write_bytes(data + f"\\n{line}\\n".encode())
        os.replace(tmp, file)
    deadline = time.monotonic() + 60
    while palace_saves() <= seen:  # a very fast typist: the next edit as soon as palace saved again
        if time.monotonic() > deadline:
            sys.exit("palace stopped saving")
        time.sleep(0.001)
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
    try:
        while editor.poll() is None:
            content = f"Palace saved entry {len(saved)}"
            result = store.save(["Preferences/editors", "Decisions/db", "ifai/Decisions/x"][len(saved) % 3], content)
            # "unchanged": the editor copied palace's text in the instant it was in place, before palace saw
            # the editor's own change and put that back; the redo then found the entry already there.
            assert result.action == "saved" or (style == "rename" and result.action == "unchanged")
            saved.append(content)
    finally:
        if editor.poll() is None:
            editor.kill()
    _, err = editor.communicate(timeout=60)
    assert editor.returncode == 0, err
    text = store.file.read_text()
    hand = [f"Hand-written line {k} ({style})" for k in range(EDITS)]
    missing = [line for line in hand if line not in text]
    assert not missing, f"{len(missing)} hand-written lines lost, e.g. {missing[:3]}"
    assert len(saved) >= EDITS  # each edit met a save of palace's
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
