"""What one memory change wrote besides memories.md (superseded.md, review.md, the reuse counts), for undo.

A change is memories.md's edit plus these: undo takes them back together, so that recall never says a fact
is superseded when its removal was undone, and an undone review accept puts the proposal back.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from typing import Any, NamedTuple

from palace.record import field, record
from palace.sha import fingerprint, fingerprint_matches

_CONTEXT = 160  # bytes kept before an edit, to find its place again in a file edited since


def digest(data: bytes | None) -> str:
    """A fingerprint of a side file's bytes (palace/sha.py; "-" when it does not exist)."""
    return "-" if data is None else fingerprint(data)


# The immutable records here are NamedTuples: a frozen dataclass compiles five methods at import (paths.py).
class SideEdit(NamedTuple):
    """One side file's edit: after[head : len(after) - tail] (`new`) replaced before[head : ...] (`old`)."""

    name: str  # the file's name in the palace folder
    head: int
    tail: int
    old: bytes
    new: bytes
    before: str  # digest of the file before ("-": there was no file)
    after: str
    context: bytes = b""  # the bytes just before the edit, to place it again after an edit elsewhere

    @classmethod
    def of(cls, name: str, before: bytes | None, after: bytes | None) -> SideEdit:
        from palace.memory.parse import common_prefix, common_suffix  # the parse engine: only when a change is made

        old_bytes, new_bytes = before or b"", after or b""
        head = common_prefix(old_bytes, new_bytes)
        tail = common_suffix(old_bytes, new_bytes, min(len(old_bytes), len(new_bytes)) - head)
        return cls(
            name,
            head,
            tail,
            old_bytes[head : len(old_bytes) - tail],
            new_bytes[head : len(new_bytes) - tail],
            digest(before),
            digest(after),
            old_bytes[max(0, head - _CONTEXT) : head],
        )

    def revert(self, current: bytes | None) -> bytes | None:
        """The file with this edit taken back (None: no file, as before the edit); ValueError when the file
        changed since in a way that hides where the edit was."""
        if (current is None and self.after == "-") or (
            current is not None and fingerprint_matches(current, self.after)
        ):
            if self.before == "-":
                return None
            data = current or b""
            return data[: self.head] + self.old + data[len(data) - self.tail :]
        data = current or b""
        if self.new:  # what the edit wrote, still there once (an entry added to the record): take it out
            if data.count(self.new) == 1:
                return data.replace(self.new, self.old, 1)
        elif self.context and data.count(self.context) == 1:  # what it removed goes back where it was
            at = data.index(self.context) + len(self.context)
            return data[:at] + self.old + data[at:]
        raise ValueError(f"{self.name} changed since in a way that hides this change")

    def to_json(self) -> dict[str, Any]:
        b64 = base64.b64encode
        return {
            "name": self.name,
            "head": self.head,
            "tail": self.tail,
            "old": b64(self.old).decode("ascii"),
            "new": b64(self.new).decode("ascii"),
            "before": self.before,
            "after": self.after,
            "context": b64(self.context).decode("ascii"),
        }

    @classmethod
    def from_json(cls, data: Any) -> SideEdit:
        """KeyError, TypeError, ValueError or binascii.Error when data is not one."""
        b64 = base64.b64decode
        return cls(
            str(data["name"]),
            int(data["head"]),
            int(data["tail"]),
            b64(data["old"], validate=True),
            b64(data["new"], validate=True),
            str(data["before"]),
            str(data["after"]),
            b64(data.get("context", ""), validate=True),
        )


class ReuseEdit(NamedTuple):
    """Uses a change counted (a refreshed entry is confirmed): the keys, and whether each was new."""

    how: str  # "confirmed"
    day: str
    keys: tuple[tuple[str, bool, str], ...]  # (key, created by this change, its `last` day before)

    def to_json(self) -> dict[str, Any]:
        return {"how": self.how, "day": self.day, "keys": [list(k) for k in self.keys]}

    @classmethod
    def from_json(cls, data: Any) -> ReuseEdit:
        keys = tuple((str(k), bool(created), str(last)) for k, created, last in data["keys"])
        return cls(str(data["how"]), str(data["day"]), keys)


@record
class Change:
    """What a change did besides memories.md's edit: the side files it wrote, the uses it counted, and the
    entries it saved, refreshed, replaced or removed (path, content, action, by: for the session archive)."""

    files: list[SideEdit] = field(default_factory=list)
    reuse: ReuseEdit | None = None
    events: list[dict[str, str]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {"files": [edit.to_json() for edit in self.files], "events": self.events}
        if self.reuse is not None:
            found["reuse"] = self.reuse.to_json()
        return found

    @classmethod
    def from_json(cls, data: Any) -> Change:
        """An empty Change when data is missing or not one (an older record: memories.md only)."""
        if not isinstance(data, dict):
            return cls()
        try:
            files = [SideEdit.from_json(item) for item in data.get("files", [])]
            reuse = ReuseEdit.from_json(data["reuse"]) if "reuse" in data else None
            events = [{str(k): str(v) for k, v in event.items()} for event in data.get("events", [])]
        except (KeyError, TypeError, ValueError, AttributeError, binascii.Error):
            return cls()
        return cls(files, reuse, events)


class SideWrite(NamedTuple):
    """A side file a change writes too (a review accept takes its proposal out of review.md)."""

    name: str
    read: Callable[[], bytes | None]
    write: Callable[[], None]


def tracked(writes: list[SideWrite]) -> list[SideEdit]:
    """Run the writes, each side file read before and after: their edits (unchanged files left out)."""
    edits: list[SideEdit] = []
    for item in writes:
        before = item.read()
        item.write()
        after = item.read()
        if before != after:
            edits.append(SideEdit.of(item.name, before, after))
    return edits
