"""A big catch-up (the first build of an index, a rebuild) reads and tokenises its files in worker processes,
on the other cores, while this process writes what they send back."""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections import deque
from collections.abc import Generator
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from palace.recall import redaction
from palace.recall.build import Work
from palace.recall.prepare import PreparedFiles, prepare_many
from palace.threads import signals_for_main

if TYPE_CHECKING:  # imported when a pool starts: a search that catches up a few files never needs them
    from concurrent.futures import Future, ProcessPoolExecutor

FORK_FILES = 400  # a catch-up of fewer files reads them here: starting the workers would cost more ...
SPAWN_FILES = 3000  # ... where a worker is a new interpreter that imports palace (spawned, not forked)
MAX_WORKERS = 4
TASK_FILES = 50  # files a worker reads per task (the workers share the first batch: it is written sooner)
AHEAD = 2  # batches handed out before the one being written: the workers never wait for the writes


class _Plan(NamedTuple):
    workers: int
    start: str  # "fork" or "spawn"


def _plan(files: int) -> _Plan | None:
    """How a catch-up of this many files uses worker processes (None: it does not). Fork where it is safe
    (Linux, and no other thread that may hold a lock the child would need), else spawn.
    PALACE_RECALL_WORKERS sets the most workers (0: none)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    most = MAX_WORKERS
    with contextlib.suppress(ValueError):
        most = max(0, int(os.environ.get("PALACE_RECALL_WORKERS", MAX_WORKERS)))
    fork = sys.platform == "linux" and threading.active_count() == 1
    if files < (FORK_FILES if fork else SPAWN_FILES) or cores < 2 or most < 1:
        return None
    return _Plan(min(cores, most), "fork" if fork else "spawn")


Tasks = list["Future[PreparedFiles]"] | None  # None: not handed out (the pool broke)


def prepared(home: Path, batches: list[Work], files: int) -> Generator[PreparedFiles | None, None, None]:
    """For each batch in turn (of a catch-up that reads this many files), its files read by worker processes
    (None: read them in this process, as when there are too few, or the pool could not start or broke)."""
    plan = _plan(files)
    executor = _start(plan) if plan is not None else None
    if executor is None:
        yield from (None for _ in batches)
        return
    pending: deque[Tasks] = deque()
    broken = False  # once a batch could not be read there, the rest are read here
    try:
        for batch in batches[: AHEAD + 1]:
            pending.append(_hand_out(executor, home, batch))
        for later in range(AHEAD + 1, len(batches) + AHEAD + 1):
            tasks = pending.popleft()
            if later < len(batches) and not broken:
                pending.append(_hand_out(executor, home, batches[later]))
            ready = None if broken else _collect(tasks)
            broken = ready is None
            yield ready
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


def _start(plan: _Plan) -> ProcessPoolExecutor | None:
    """The pool of the plan's worker processes (None if it cannot be set up)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    if plan.start == "fork":
        redaction.compile_all()  # once here, not once in each worker
    try:
        return ProcessPoolExecutor(max_workers=plan.workers, mp_context=multiprocessing.get_context(plan.start))
    except (OSError, ValueError):  # no semaphores (no /dev/shm), say
        return None


def _hand_out(executor: ProcessPoolExecutor, home: Path, batch: Work) -> Tasks:
    """One batch's files given to the workers, a task of TASK_FILES at a time (None if the pool broke)."""
    files = [(rel, meta) for rel, meta in batch if meta is not None]
    tasks = [files[i : i + TASK_FILES] for i in range(0, len(files), TASK_FILES)]
    try:
        with signals_for_main():  # the pool's thread (and forked workers) start with the first submit
            return [executor.submit(prepare_many, home, task) for task in tasks]
    except Exception:  # the pool broke (BrokenProcessPool), or its processes cannot start
        return None


def _collect(tasks: Tasks) -> PreparedFiles | None:
    """What the tasks of one batch prepared (None if the pool broke: the batch is read in this process)."""
    if tasks is None:
        return None
    ready = PreparedFiles()
    try:
        for future in tasks:
            ready.merge(future.result())
    except Exception:  # a worker died, or could not be sent its task: this process reads (and raises) alike
        return None
    return ready
