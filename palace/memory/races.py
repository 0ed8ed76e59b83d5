"""Editors that save memories.md without palace's lock: their changes redone on palace's text, and the ledger
through which any palace process saves again what an editor's stale copy dropped.

An editor that read the file before a save and writes its copy back after it drops the saved entry; that is the
editor's doing, but palace acknowledged the save. Every palace write notes in the ledger the lines it added and
removed, and the saves it acknowledged; the ledger lives in the palace's lock file and is only read and written
under the lock, so the next palace write of any process (a REPL, an MCP server, the next `palace memory save`)
and the REPL's watcher see the saves of all of them, not only their own.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Generic, NamedTuple, TypeVar

from palace.memory.ops import ChangeResult
from palace.memory.parse import common_prefix, common_suffix

RETRIES = 32  # a write's tries in a burst against a file that keeps changing, before they are spaced out
RETRY_SECONDS = 5.0  # a write retries this long while an editor keeps replacing the file
RECENT_SECONDS = 5.0  # how long an acknowledged save is checked for an editor's late overwrite
_RECORDS = 200  # at most this many records are kept (a burst of writes): the oldest go first
_REWRITE = 1 << 18  # the ledger is rewritten without its expired records once it is this big
_ANCHORS = 3  # lines kept above and below a save: one of them may go (dropped or forgotten too) and two still tell
_SITE = 2  # how many of the nearest of those still there must surround the place of a dropped save


_T = TypeVar("_T")


def attempts() -> Iterator[int]:
    """Tries of a write against a file that keeps changing: a burst, then spaced out (editors save in
    bursts), for a few seconds in all before giving up."""
    deadline = time.monotonic() + RETRY_SECONDS
    for attempt in itertools.count():
        if attempt >= RETRIES and time.monotonic() > deadline:
            return
        if attempt >= RETRIES:
            import random  # only once the burst is over: a save that gets through at once never loads it

            time.sleep(random.uniform(0.001, 0.02))
        yield attempt


# The records here are NamedTuples: a frozen dataclass compiles five methods at import (see palace/paths.py).
class Written(NamedTuple, Generic[_T]):
    """An edit palace put in place: its outcome, and the text it replaced and wrote."""

    result: _T
    before: bytes
    after: bytes


def lines_of(data: bytes) -> list[bytes]:
    """data's lines, each with its line ending."""
    parts = data.split(b"\n")
    lines = [part + b"\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def replay(changes: list[tuple[bytes, bytes]], onto: bytes) -> bytes:
    """onto with each (before, after) change redone on it, in order (see rebase)."""
    for before, after in changes:
        onto = rebase(before, after, onto)
    return onto


def rebase(before: bytes, after: bytes, onto: bytes) -> bytes:
    """onto with the change that turned before into after applied to it, as far as it can be placed.

    Used when an editor changed a file that palace had already replaced (or saved over palace's file in the
    instant it was in place): its change must not be lost. The change is taken hunk by hunk, line by line:
    lines it added that onto lacks are put where they were (after the same line), or at the end when they
    were at the end; lines it removed go only where they are found exactly, and not when what replaced them
    is there already. (One block from the first difference to the last, as a stale copy that dropped a line
    and appended one makes, would take every line in between with it.)
    """
    old, new, target = lines_of(before), lines_of(after), lines_of(onto)
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    from difflib import SequenceMatcher  # only when an editor raced palace: not on the path of every save

    hunks = SequenceMatcher(None, old[head : len(old) - tail], new[head : len(new) - tail], autojunk=False)
    for kind, i1, i2, j1, j2 in hunks.get_opcodes():
        if kind != "equal":
            _redo(target, old, head + i1, head + i2, new[head + j1 : head + j2])
    return b"".join(target)


def _redo(target: list[bytes], old: list[bytes], start: int, end: int, added: list[bytes]) -> None:
    """In target, old[start:end] replaced by added (a hunk of an editor's change), as far as it can be placed."""
    if added and _find(target, added) is not None:
        return  # already there (a later save of the same editor carried it)
    removed = old[start:end]
    at = _find(target, removed) if removed else None
    span = len(removed) if at is not None else 0  # what is replaced there; none where the lines go in
    if at is None and not added:
        return  # what it removed is not there (any more)
    if at is None:
        at = len(target)  # at the end, where it was at the end of before
        if start == 0 and end < len(old):
            at = 0
        elif end < len(old):
            at = next((i + 1 for i, line in enumerate(target) if line == old[start - 1]), len(target))
    added = list(added)
    if at and not target[at - 1].endswith(b"\n"):
        target[at - 1] += b"\n"
    if added and at + span < len(target) and not added[-1].endswith(b"\n"):
        added[-1] += b"\n"
    target[at : at + span] = added


def _find(lines: list[bytes], block: list[bytes]) -> int | None:
    for start in range(len(lines) - len(block) + 1):
        if lines[start : start + len(block)] == block:
            return start
    return None


def _bare(line: bytes) -> bytes:
    return line.rstrip(b"\r\n")


def _middle(before: bytes, after: bytes) -> tuple[int, int, int]:
    """Where the two differ, cut at line starts: (start, end in before, end in after)."""
    head = common_prefix(before, after)
    tail = common_suffix(before, after, min(len(before), len(after)) - head)
    start = before.rfind(b"\n", 0, head) + 1
    end = len(after) - tail
    end = len(after) if after.find(b"\n", end) < 0 else after.find(b"\n", end) + 1
    return start, len(before) - (len(after) - end), end


def changed_lines(before: bytes, after: bytes) -> tuple[list[bytes], list[bytes], int]:
    """The lines a write removed and the lines it added (without line endings; blank lines left out), and where
    in after the change starts."""
    start, old_end, new_end = _middle(before, after)
    gone = [_bare(line) for line in lines_of(before[start:old_end]) if line.strip()]
    came = [_bare(line) for line in lines_of(after[start:new_end]) if line.strip()]
    if gone and came:  # lines both hold (between two changes, or moved) are neither
        gone, came = list((Counter(gone) - Counter(came)).elements()), list((Counter(came) - Counter(gone)).elements())
    return gone, came, start


class Acknowledged(NamedTuple):
    """A save palace acknowledged, and what surrounded it: how a stale copy that dropped it is told from a hand
    edit that changed it."""

    when: float  # time.time(): the ledger is shared between processes
    path: str
    content: str
    by: str
    until: str | None  # its last day, when it has one
    line: bytes  # the entry's line as written, without its line ending
    above: tuple[bytes, ...]  # the nearest lines above it as written (not blank), the nearest last
    below: tuple[bytes, ...]  # the same below it, the nearest first


class _Record(NamedTuple):
    when: float
    added: frozenset[bytes]
    removed: frozenset[bytes]
    saved: tuple[Acknowledged, ...]
    line: bytes  # as the ledger holds it


def _text(line: bytes) -> str:
    return line.decode("utf-8", "surrogateescape")


def _data(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _dump(when: float, added: list[bytes], removed: list[bytes], acks: list[Acknowledged]) -> bytes:
    saved = [
        [a.path, a.content, a.by, a.until, _text(a.line), [*map(_text, a.above)], [*map(_text, a.below)]] for a in acks
    ]
    body = {"a": [*map(_text, added)], "r": [*map(_text, removed)], "s": saved}
    return f"{when:.6f} {json.dumps(body)}\n".encode("ascii")


def _load(line: bytes, since: float) -> _Record | None:
    stamp, _, body = line.partition(b" ")
    try:
        when = float(stamp)
        if when < since:
            return None  # expired: not even parsed
        fields = json.loads(body)
        saved = tuple(
            Acknowledged(when, p, c, by, until, _data(ln), tuple(map(_data, up)), tuple(map(_data, down)))
            for p, c, by, until, ln, up, down in fields["s"]
        )
        return _Record(when, frozenset(map(_data, fields["a"])), frozenset(map(_data, fields["r"])), saved, line)
    except (ValueError, TypeError, KeyError):
        return None  # a record cut short by a crash, or not one: the ledger is only a safety net


class Ledger:
    """The recent palace writes to memories.md, kept in a file every palace process shares (the lock file):
    call every method under the palace lock. Records are numbered in the order they were written."""

    def __init__(self, file: Path) -> None:
        self.file = file
        self._records: list[tuple[int, _Record]] = []
        self._acks: dict[bytes, tuple[int, Acknowledged]] = {}  # their saves that no later record removed, by line
        self._count = 0
        # The file as last read: (device, inode, bytes read, the last line of them). Another process appends to
        # it, or rewrites it without the expired records: the last line read is found where it was, or not.
        self._seen: tuple[int, int, int, bytes] | None = None

    def _reset(self) -> None:
        self._records, self._acks, self._seen = [], {}, None

    def _add(self, record: _Record) -> None:
        self._count += 1
        self._records.append((self._count, record))
        for line in record.removed:  # palace removed it (a forget, a replace, an undo, a clear): not to repair
            self._acks.pop(line, None)
        self._acks.update((ack.line, (self._count, ack)) for ack in record.saved)

    def recent(self) -> None:
        """Bring the records of the last seconds up to date (only what was appended since the last call is read)."""
        since = time.time() - RECENT_SECONDS
        try:
            fd = os.open(self.file, os.O_RDONLY)
        except OSError:
            self._reset()
            return
        try:
            st = os.fstat(fd)
            read = self._read_before(fd, st)
            data = os.pread(fd, st.st_size - read, read) if st.st_size > read else b""
        finally:
            os.close(fd)
        if not read:
            self._reset()
        whole = data[: data.rfind(b"\n") + 1]  # a line still being written (never, under the lock) waits
        if whole:
            self._seen = (st.st_dev, st.st_ino, read + len(whole), whole[whole.rfind(b"\n", 0, -1) + 1 :])
        for line in whole.splitlines(keepends=True):
            if (record := _load(line, since)) is not None:
                self._add(record)
        self._expire(since)

    def _expire(self, since: float) -> None:
        old = next((n for n, (_, r) in enumerate(self._records) if r.when >= since), len(self._records))
        old = max(old, len(self._records) - _RECORDS)
        if not old:
            return
        del self._records[:old]
        first = self._records[0][0] if self._records else self._count + 1
        self._acks = {line: (seq, ack) for line, (seq, ack) in self._acks.items() if seq >= first}

    def _read_before(self, fd: int, st: os.stat_result) -> int:
        """How much of the file was read already (0: it is to be read from the start)."""
        if self._seen is None:
            return 0
        dev, ino, read, last = self._seen
        if (
            (dev, ino) != (st.st_dev, st.st_ino)
            or read > st.st_size
            or os.pread(fd, len(last), read - len(last)) != last
        ):
            return 0
        return read

    def note(self, before: bytes, after: bytes, result: object) -> None:
        """Record a write now in place: the lines it removed and added, and the saves its result (one, or a
        list) acknowledged, each with the lines around it."""
        items = [r for r in (result if isinstance(result, list) else [result]) if isinstance(r, ChangeResult)]
        saved = [(str(r.path), r.content, r.by, r.until) for r in items if r.action == "saved"]
        removed, added, start = changed_lines(before, after)
        if not removed and not added:
            return
        now = time.time()
        acks = []
        for path, content, by, until in saved:
            text = _data(content)
            line = next((ln for ln in added if ln.endswith(b"] " + text)), None)
            line = line or next((ln for ln in added if text in ln), None)
            if line is not None:
                above, below = _surroundings(after, line, start)
                acks.append(Acknowledged(now, path, content, by, until, line, above, below))
        record = _Record(now, frozenset(added), frozenset(removed), tuple(acks), _dump(now, added, removed, acks))
        with contextlib.suppress(OSError):  # a safety net: a write never fails for it
            self._append(record)

    def _append(self, record: _Record) -> None:
        fd = os.open(self.file, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            st = os.fstat(fd)
            known = not st.st_size or self._read_before(fd, st) == st.st_size  # all of it read already
            if st.st_size > _REWRITE:  # kept small: only the records still held are written again
                self.recent()
                held = [r.line for _, r in self._records]
                os.ftruncate(fd, 0)
                os.write(fd, b"".join(held))
                known = True
            os.write(fd, record.line)
            end = os.fstat(fd).st_size
        finally:
            os.close(fd)
        if known:  # what the file holds is known without reading it again
            if not st.st_size:
                self._reset()
            self._add(record)
            self._seen = (st.st_dev, st.st_ino, end, record.line)

    def dropped(self, read: Callable[[], bytes]) -> list[Acknowledged]:
        """The saves acknowledged in the last seconds (by any palace process) that data lacks because an
        editor's stale copy dropped them, not because palace or a hand edit took them out or changed them.

        Dropped means: the line is gone, no palace write removed it since, and the nearest lines that were
        around it and are still there are next to each other again (leaving out what palace wrote since, in
        any process): the place is as it was before the save. A line changed by hand, or a hand edit beside
        it, is the user's. `read` gives the file's bytes; it is called only when there is a save to look for.
        """
        self.recent()
        now = time.time()
        due = [(n, a) for n, a in self._acks.values() if 0 <= now - a.when < RECENT_SECONDS]
        if not due:
            return []
        data = read()
        if len(due) > 4:  # many saves to look for (a burst): the file's lines once, not a search of it for each
            lines = set(data.replace(b"\r", b"").split(b"\n"))
            due = [(n, a) for n, a in due if a.line not in lines]
        lost: list[Acknowledged] = []
        for seq, ack in due:
            if ack.line in data or _still_said(ack, data):
                continue
            since = set().union(*(r.added for n, r in self._records if n > seq))  # what palace wrote after it
            if _in_place(ack, data, since):
                lost.append(ack)
        return lost


def _surroundings(after: bytes, line: bytes, start: int) -> tuple[tuple[bytes, ...], tuple[bytes, ...]]:
    """The nearest lines above and below `line` (written at `start` or after it) in after (not blank)."""
    at = start if after.startswith(line, start) else after.find(b"\n" + line, max(0, start - 1)) + 1
    end = after.find(b"\n", at)
    above = _nearest(_upwards(after, at))[::-1]
    below = _nearest(_downwards(after, end + 1)) if end >= 0 else []
    return tuple(above), tuple(below)


def _upwards(data: bytes, at: int) -> Iterator[bytes]:
    """The lines that end just before `at`, going up."""
    end = at - 1
    while end > 0:
        start = data.rfind(b"\n", 0, end) + 1
        yield data[start:end]
        end = start - 1


def _downwards(data: bytes, at: int) -> Iterator[bytes]:
    """The lines from `at` on, going down."""
    while at < len(data):
        end = data.find(b"\n", at)
        end = len(data) if end < 0 else end
        yield data[at:end]
        at = end + 1


def _nearest(lines: Iterator[bytes]) -> list[bytes]:
    found: list[bytes] = []
    for line in lines:
        if (bare := _bare(line)).strip():
            found.append(bare)
            if len(found) == _ANCHORS:
                break
    return found


def _still_said(ack: Acknowledged, data: bytes) -> bool:
    """Whether the saved fact is still an entry of data with another date or end (refreshed by another
    palace, say a synced machine): changed, not dropped."""
    tail = b"] " + _data(ack.content)
    return tail + b"\n" in data or tail + b"\r" in data or data.endswith(tail)


def _in_place(ack: Acknowledged, data: bytes, since: set[bytes]) -> bool:
    """Whether the lines that were around ack and are still in data are next to each other again there, once
    the lines palace wrote since (`since`) are left out."""
    around = {*ack.above, *ack.below}
    kept = [
        bare for line in data.split(b"\n") if (bare := _bare(line)).strip() and (bare not in since or bare in around)
    ]
    present = set(kept)
    above = [line for line in ack.above if line in present][-_SITE:]
    site = above + [line for line in ack.below if line in present][:_SITE]
    if not site:
        return False  # nothing of what was around it is left: no telling a stale copy from a hand edit
    joined = b"\n" + b"\n".join(kept) + b"\n"
    at = joined.find(b"\n" + b"\n".join(site) + b"\n")
    if at < 0:
        return False
    # At the end (or the top) of the file nothing below (above) tells: the line now where the save was, if it
    # is an entry of the save's date (`- [2026-12-01] Uses helix` for `... Uses neovim`), is the user's change.
    if not ack.below or not ack.above:
        index = joined.count(b"\n", 0, at) + (len(site) if not ack.below else -1)
        there = kept[index] if 0 <= index < len(kept) else b""
        mark = ack.line[: ack.line.find(b"]") + 1]
        if mark and there.startswith(mark):
            return False
    return True
