"""How often each entry was confirmed (saved again) or recalled: derived data in `.index/reuse.json`.

Seed 003 ranks knowledge by reuse: an entry the model keeps confirming or finding is worth more than one
written once. Counts are keyed by the entry's path and normalised content, so a refreshed date keeps them;
losing the file only loses the counts.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from palace.filelock import exclusive
from palace.memory.keys import normalise
from palace.paths import PalacePaths
from palace.record import field, record

if TYPE_CHECKING:
    from palace.memory.change import ReuseEdit
    from palace.memory.halls import MemoryPath


@record
class Uses:
    confirmed: int = 0
    recalled: int = 0
    last: str = ""  # the last day it was used
    days: list[str] = field(default_factory=list)  # "2026-11-30 recalled", the newest DAYS_KEPT uses

    @property
    def total(self) -> int:
        return self.confirmed + self.recalled


DAYS_KEPT = 30  # uses remembered with their day (palace memory why): the counts go on past it


def key_of(path: MemoryPath | str, content: str) -> str:
    return f"{str(path).casefold()}\x1f{normalise(content)}"


class ReuseCounts:
    """The counts of one palace (a small JSON file, changed under its own lock)."""

    def __init__(self, home: Path) -> None:
        self.dir = PalacePaths(home).index
        self.file = self.dir / "reuse.json"
        self._lock = threading.Lock()

    def load(self) -> dict[str, Uses]:
        try:
            raw = json.loads(self.file.read_bytes())
        except (OSError, ValueError):
            return {}
        if not isinstance(raw, dict):
            return {}
        counts: dict[str, Uses] = {}
        for key, value in raw.items():
            with contextlib.suppress(TypeError, ValueError, AttributeError):
                days = [str(d) for d in value.get("days", [])][-DAYS_KEPT:]
                counts[str(key)] = Uses(
                    int(value["confirmed"]), int(value["recalled"]), str(value.get("last", "")), days
                )
        return counts

    def stamp(self) -> str:
        """The counts file's size and mtime: what a cached render that depends on them is keyed by."""
        try:
            st = self.file.stat()
        except OSError:
            return "-"
        return f"{st.st_size}.{st.st_mtime_ns}"

    def get(self, path: MemoryPath | str, content: str) -> Uses:
        return self.load().get(key_of(path, content), Uses())

    def bump(self, used: list[tuple[MemoryPath | str, str]], how: str, day: str | None = None) -> ReuseEdit | None:
        """Count one use (`how` is "confirmed" or "recalled") of each (path, content): what it counted (for
        undo), None when nothing was counted; never raises."""
        if not used:
            return None
        day = day or date.today().isoformat()
        with contextlib.suppress(OSError), self._lock:
            self.dir.mkdir(mode=0o700, parents=True, exist_ok=True)
            with exclusive(self.dir / "reuse.lock"):
                counts = self.load()
                keys: list[tuple[str, bool, str]] = []
                for path, content in used:
                    key = key_of(path, content)
                    uses = counts.get(key)
                    keys.append((key, uses is None, uses.last if uses is not None else ""))
                    uses = counts.setdefault(key, Uses())
                    setattr(uses, how, getattr(uses, how) + 1)
                    uses.last = day
                    uses.days = [*uses.days, f"{day} {how}"][-DAYS_KEPT:]
                self._write(counts)
                from palace.memory.change import ReuseEdit  # only a change (not a recall) is undone

                return ReuseEdit(how, day, tuple(keys))
        return None

    def take_back(self, edit: ReuseEdit) -> None:
        """Undo what a bump counted (the uses counted since stay); never raises."""
        with contextlib.suppress(OSError), self._lock, exclusive(self.dir / "reuse.lock"):
            counts = self.load()
            for key, created, last in reversed(edit.keys):
                uses = counts.get(key)
                if uses is None:
                    continue
                setattr(uses, edit.how, max(0, getattr(uses, edit.how) - 1))
                mark = f"{edit.day} {edit.how}"
                if mark in uses.days:
                    at = len(uses.days) - 1 - uses.days[::-1].index(mark)
                    del uses.days[at]
                uses.last = uses.days[-1].split(" ")[0] if uses.days else last
                if created and not uses.total and not uses.days:
                    del counts[key]
            self._write(counts)

    def _write(self, counts: dict[str, Uses]) -> None:
        data = {
            k: {"confirmed": u.confirmed, "recalled": u.recalled, "last": u.last, "days": u.days}
            for k, u in counts.items()
        }
        tmp = self.file.with_name(f".reuse.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle)
        os.replace(tmp, self.file)  # derived data: no fsync
