"""Hot memory as it goes into the system prompt: verbatim, scoped to a wing, within a byte budget."""

from __future__ import annotations

from dataclasses import dataclass, field

from palace.memory.document import Document
from palace.memory.halls import wing_key


@dataclass
class Rendered:
    """The memory text for the prompt and what was left out of it."""

    text: str
    total_entries: int = 0
    left_out: int = 0
    other_wings: list[str] = field(default_factory=list)
    cut: bool = False
    warning: str | None = None

    @property
    def size(self) -> int:
        return len(self.text.encode("utf-8"))


def _display(line: str) -> str:
    # Bytes that are not UTF-8 cannot travel in a JSON request; show them as U+FFFD.
    return line.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def render_document(doc: Document, wing: str | None, budget: int) -> Rendered:
    """The wing-less halls and the given wing verbatim; oldest entries left out whole when over budget."""
    key = wing_key(wing) if wing else None
    count = len(doc.lines)
    hidden = bytearray(count)
    others: dict[str, str] = {}
    for section in doc.sections:
        if section.kind == "wing" and section.wing and wing_key(section.wing) != key:
            others.setdefault(wing_key(section.wing), section.wing)
            hidden[section.heading.line : section.end] = b"\x01" * (section.end - section.heading.line)
    lines = [line if line.isascii() else _display(line) for line in doc.lines]
    kept = [i for i in range(count) if not hidden[i]]
    while kept and not lines[kept[-1]].strip():
        kept.pop()
    sizes = [len(line) if line.isascii() else len(line.encode("utf-8")) for line in lines]
    entries = [e for e in doc.entries if not hidden[e.start] and e.path is not None]
    tail: list[str] = []
    if others:
        tail.append(f"(Other wings, not shown: {', '.join(others.values())}.)")

    def note(left: int) -> str:
        return f"({left} older entries left out to fit the {budget}-byte memory budget; MemoryRecall finds them.)"

    def size(texts: list[str]) -> int:
        return sum(len(text.encode("utf-8")) + 1 for text in texts)

    # Joined with newlines, with a blank line before the tail: each line costs its bytes plus one.
    total = sum(sizes[i] for i in kept) + len(kept) + size(tail)
    left_out = 0
    cut = False
    if total > budget:
        order = sorted(entries, key=lambda e: (e.sort_date, e.start))
        dropped = bytearray(count)
        room_for_note = size([note(len(entries))])
        for entry in order:
            if total + room_for_note <= budget:
                break
            for i in range(entry.start, entry.end):
                if not hidden[i] and not dropped[i]:
                    dropped[i] = 1
                    total -= sizes[i] + 1
            left_out += 1
        kept = [i for i in kept if not dropped[i]]
        tail.append(note(left_out))
        total = sum(sizes[i] for i in kept) + len(kept) + size(tail)
        while kept and total > budget:
            total -= sizes[kept.pop()] + 1
            cut = True
    text = "\n".join([lines[i] for i in kept] + ([""] if tail and kept else []) + tail)
    return Rendered(text, total_entries=len(entries), left_out=left_out, other_wings=list(others.values()), cut=cut)
