"""memories.md read: its bytes, the parsed document and the render for the prompt, each cached.

The store (store.py) writes through its one locked path and builds on this. Reading imports neither the parser
nor the edits until a parse is needed: a render the cache answers (every session start with memories.md
unchanged, render_cache.py) costs a stat, a read and a hash.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from palace.errors import StoreError
from palace.memory.contained import read_inside
from palace.memory.current import signature
from palace.memory.files import read_regular, target_of
from palace.memory.halls import parse_path
from palace.memory.reuse import ReuseCounts, key_of
from palace.paths import PalacePaths

if TYPE_CHECKING:  # the render's modules are imported by render() itself: a save renders nothing
    from palace.memory.document import Document, Entry
    from palace.memory.render import Rendered, Value, Wings
    from palace.memory.render_cache import RenderCache


class MemoryReader:
    """memories.md in a palace folder, read: the bytes, the document, the render, one room."""

    def __init__(
        self,
        home: Path,
        *,
        today: Callable[[], date] = date.today,
        inside: Path | None = None,
        state: Path | None = None,
    ) -> None:
        """`inside`: the folder that memories.md must stay inside, for a file others control (a project memory):
        then no link is followed, no hard link written, and nothing is read from outside (memory/contained.py).
        `state`: where the lock and derived data live (default: home), so that none of it goes into another's
        folder."""
        self.home = home
        self.file = PalacePaths(home).memories
        self.inside = inside
        self.state = state or home
        self.today = today
        self._render_cache: dict[tuple[object, ...], Rendered] = {}
        self._doc_cache: tuple[tuple[int, int, int, int] | None, Document] | None = None
        self.reuse = ReuseCounts(self.state)

    @functools.cached_property
    def _disk_cache(self) -> RenderCache:
        """The renders remembered across processes (.index/render.json)."""
        from palace.memory.render_cache import RenderCache

        return RenderCache(PalacePaths(self.state).index)

    def read_bytes(self) -> bytes:
        """The file's bytes; b"" when it does not exist; StoreError when it is not a regular file."""
        if self.inside is not None:
            return read_inside(self.inside, self.file.relative_to(self.inside).as_posix()) or b""
        return read_regular(self.file) or b""

    @property
    def _source(self) -> str:
        """How notices name this file: relative to the repository for a project memory."""
        if self.inside is not None:
            return self.file.relative_to(self.inside).as_posix()
        return str(self.file)

    @property
    def target(self) -> Path:
        """The file palace really writes (memories.md, or where its symlink points in the user's own palace)."""
        return self.file if self.inside is not None else target_of(self.file)

    def document(self) -> Document:
        """The parsed file, cached on (mtime_ns, size, inode)."""
        from palace.memory.document import Document

        sig = signature(self.file)
        if self._doc_cache is not None and sig is not None and self._doc_cache[0] == sig:
            return self._doc_cache[1]
        doc = Document.parse(self.read_bytes())
        self._doc_cache = (sig, doc)
        return doc

    def render(self, wing: Wings = None, budget_bytes: int = 8192) -> Rendered:
        """Hot memory for the prompt (the wing-less halls and the active wing or wings); an unchanged file
        costs one stat in this process, and a read and a hash in a new one."""
        from palace.memory.render import Rendered, render_document, wing_keys
        from palace.memory.render_cache import cache_key

        sig = signature(self.file)
        today = self.today().isoformat()  # an entry past its end leaves the prompt that day
        key = (sig, wing_keys(wing), budget_bytes, today)
        cached = self._render_cache.get(key)
        if cached is not None and sig is not None:
            return cached
        if sig is None:
            return Rendered("", warning=f"no memories yet ({self.file} does not exist)")
        try:
            data = self.read_bytes()
        except StoreError as exc:
            return Rendered(
                "", warning=f"memories.md could not be read ({exc}); starting with no memory", unreadable=True
            )
        disk_key = cache_key(data, wing, budget_bytes, f"{today}:{self.reuse.stamp()}")
        rendered = self._disk_cache.get(disk_key)
        if rendered is None:
            from palace.memory.document import Document

            doc = Document.parse(data)
            self._doc_cache = (sig, doc)
            rendered = render_document(doc, wing, budget_bytes, self._source, today, self._value(today))
            if not doc.lines or not rendered.text.strip():
                rendered.warning = "memories.md holds no memories yet" if doc.lines else "memories.md is empty"
            self._disk_cache.put(disk_key, rendered)
        self._render_cache = {key: rendered}
        return rendered

    def room_text(self, path: str) -> str:
        """One room whole (MemoryRoom); opening it counts as a recall of its entries."""
        from palace.memory import ops

        today = self.today().isoformat()
        text, entries = ops.room_text(self.document(), parse_path(path), today)
        self.reuse.bump([(e.path or "", e.content) for e in entries], "recalled", today)
        return text

    def _value(self, today: str) -> Value:
        """What an entry is worth in the prompt over budget: its uses (reuse counts) and its recency."""
        from palace.memory.render import reuse_value

        counts: dict[str, int] | None = None

        def uses(entry: Entry) -> int:
            nonlocal counts
            if counts is None:  # read only when the memory is over its budget
                counts = {key: u.total for key, u in self.reuse.load().items()}
            return counts.get(key_of(entry.path or "", entry.content), 0)

        return reuse_value(uses, today)
