"""The rendered memory remembered across processes, keyed by the file's content hash.

A session starts by rendering memories.md for the prompt; with an unchanged file that should cost a read and
a hash, not a parse. `.index/render.json` keeps the last few renders (derived data: deletable, never trusted
beyond its key: the hash of the exact bytes, the wing, the budget and the render format's version).
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from palace.memory.render import Rendered, Wings, wing_keys
from palace.record import asdict
from palace.sha import sha256_hex

RENDER_VERSION = 5  # bump when render_document's output changes: older cached renders are ignored
_KEEP = 8


def cache_key(data: bytes, wings: Wings, budget: int, today: str = "") -> str:
    digest = sha256_hex(data)[:40]
    return f"{RENDER_VERSION}:{digest}:{','.join(sorted(wing_keys(wings)))}:{budget}:{today}"


class RenderCache:
    """A small JSON file of recent renders; every failure to read or write it is silent (it is a cache)."""

    def __init__(self, index_dir: Path) -> None:
        self.file = index_dir / "render.json"

    def _load(self) -> dict[str, Any]:
        try:
            data = json.loads(self.file.read_bytes())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def get(self, key: str) -> Rendered | None:
        item = self._load().get(key)
        if not isinstance(item, dict):
            return None
        try:
            return Rendered(**item)
        except TypeError:
            return None

    def put(self, key: str, rendered: Rendered) -> None:
        entries = self._load()
        entries.pop(key, None)
        entries[key] = asdict(rendered)
        kept = dict(list(entries.items())[-_KEEP:])
        with contextlib.suppress(OSError):
            self.file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            tmp = self.file.with_name(f".render.{os.getpid()}.tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(kept, handle, ensure_ascii=False)
            os.replace(tmp, self.file)  # no fsync: a render lost in a crash is made again
