"""Palace's own side files in memory-palace form: review.md (proposals) and superseded.md (removed entries).

They read like memories.md (Wing / Hall / Room, dated entries, parsed by document.py) so that a user can open
them in an editor; each entry carries its note after a " · " (who proposed it, why it was removed). Palace
writes them under the palace lock, atomically, like memories.md.
"""

from __future__ import annotations

from pathlib import Path

from palace.memory.contained import read_inside
from palace.memory.document import Document, Entry
from palace.memory.files import atomic_write, read_regular
from palace.memory.halls import MemoryPath
from palace.memory.ops import insert
from palace.record import record

SEPARATOR = " · "


@record(frozen=True)
class Item:
    """One entry of a side file: where it belongs, what it says, its date, and its note."""

    path: MemoryPath
    content: str
    day: str
    note: str
    start: int  # its first line in the file
    end: int


def split_note(content: str) -> tuple[str, str]:
    """(the fact, its note) of a side file entry's text."""
    fact, sep, note = content.rpartition(SEPARATOR)
    return (fact, note) if sep else (content, "")


class SideFile:
    """One side file of the palace: read its items, add some, remove some."""

    def __init__(self, file: Path, header: str, *, inside: Path | None = None) -> None:
        self.file = file
        self.header = header  # what a new file starts with (a title and a line saying what it is)
        self.inside = inside  # a file others control stays inside this folder (memory/contained.py)

    def read_bytes(self) -> bytes | None:
        if self.inside is not None:
            return read_inside(self.inside, self.file.relative_to(self.inside).as_posix())
        return read_regular(self.file)

    def write_bytes(self, data: bytes | None) -> None:
        """Put these bytes in place (None: no file), atomically; the caller holds the palace lock."""
        if data is not None:
            atomic_write(self.file, data)
        elif self.read_bytes() is not None:
            self.file.unlink()

    def read(self) -> Document:
        return Document.parse(self.read_bytes() or b"")

    def items(self) -> list[Item]:
        return [_item(entry) for entry in self.read().entries if entry.path is not None]

    def add(self, items: list[tuple[MemoryPath, str, str, str]]) -> None:
        """Append (path, fact, day, note) items; the caller holds the palace lock."""
        data = self.read_bytes()
        if data is None:
            data = self.header.encode("utf-8")
        for path, fact, day, note in items:
            line = f"{fact}{SEPARATOR}{note}" if note else fact
            data = insert(Document.parse(data), path, " ".join(line.split()), day)
        atomic_write(self.file, data)

    def remove(self, items: list[Item]) -> None:
        """Remove these items (found by what they say, wherever they now are); the caller holds the lock."""
        doc = self.read()
        lines: set[int] = set()
        for item in items:
            for entry in doc.entries:
                if entry.start not in lines and entry.path is not None and _same(_item(entry), item):
                    lines.update(range(entry.start, entry.end))
                    break
        if not lines:
            return
        kept = [line for number, line in enumerate(doc.lines) if number not in lines]
        atomic_write(self.file, _drop_empty_rooms(doc.splice(0, len(doc.lines), kept)))


def _same(a: Item, b: Item) -> bool:
    return a.path == b.path and (a.content, a.note) == (b.content, b.note)


def _item(entry: Entry) -> Item:
    assert entry.path is not None
    fact, note = split_note(entry.content)
    return Item(entry.path, fact, entry.date or "", note, entry.start, entry.end)


def _drop_empty_rooms(data: bytes) -> bytes:
    """The text without room headings that no longer have entries under them (palace's own file: tidy)."""
    doc = Document.parse(data)
    drop: set[int] = set()
    for section in doc.sections:
        body = range(section.heading.end, section.end)
        if section.kind == "room" and all(not doc.lines[n].strip() for n in body):
            drop.update(range(section.heading.line, section.end))
    if not drop:
        return data
    return doc.splice(0, len(doc.lines), [line for n, line in enumerate(doc.lines) if n not in drop])
