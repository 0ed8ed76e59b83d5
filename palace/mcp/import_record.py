"""Which palace session a Claude Code session was imported to, and which of its transcript's lines it has.

`.index/claude-code/<session>.json` (derived data) keeps it for the hooks that import a transcript
(session-end, pre-compact: palace/mcp/hooks.py), with the import under way, so that a hook killed half-way is
finished by the next run; session-start never reads it.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from palace.filelock import exclusive
from palace.paths import PalacePaths
from palace.record import asdict, field, record


@record
class Pending:
    """An import under way: the transcript lines it takes (by key), and where its messages begin in the palace
    session's journal (None until that is recorded); `since` is when it began (ISO 8601)."""

    keys: list[str]
    base: int | None = None
    since: str = ""


@record
class Imported:
    """What .index/claude-code/<session>.json keeps: the palace session it went to, the lines already in it,
    and the import under way (a hook killed mid-import leaves it for the next run to finish)."""

    palace: str | None = None
    seen: set[str] = field(default_factory=set)
    pending: Pending | None = None


class ImportRecord:
    """Which palace session a Claude Code session went to, and which of its lines it has (derived data)."""

    def __init__(self, home: Path, session: str) -> None:
        self.folder = PalacePaths(home).index / "claude-code"
        self.file = self.folder / f"{session}.json"
        self.lock_file = self.folder / f"{session}.lock"

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Two hooks of one session (a compaction racing its end) import one after the other."""
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        with exclusive(self.lock_file):
            yield

    def load(self) -> Imported:
        try:
            data = json.loads(self.file.read_bytes())
        except (OSError, ValueError, RecursionError):
            return Imported()
        if not isinstance(data, dict):
            return Imported()
        palace = data.get("palace")
        seen = data.get("seen")
        return Imported(
            palace if isinstance(palace, str) else None,
            {key for key in seen if isinstance(key, str)} if isinstance(seen, list) else set(),
            _pending(data.get("pending")),
        )

    def save(self, imported: Imported) -> None:
        from palace.memory.files import atomic_write

        data: dict[str, Any] = {"palace": imported.palace, "seen": sorted(imported.seen)}
        if imported.pending is not None:
            data["pending"] = asdict(imported.pending)
        atomic_write(self.file, json.dumps(data).encode("utf-8"))


def _pending(data: object) -> Pending | None:
    if not isinstance(data, dict) or not isinstance(data.get("keys"), list):
        return None
    base, since = data.get("base"), data.get("since")
    return Pending(
        [key for key in data["keys"] if isinstance(key, str)],
        base if isinstance(base, int) and not isinstance(base, bool) and base >= 0 else None,
        since if isinstance(since, str) else "",
    )
