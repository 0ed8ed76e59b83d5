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
    hidden: set[int] = set()
    others: dict[str, str] = {}
    for section in doc.sections:
        if section.kind == "wing" and section.wing and wing_key(section.wing) != key:
            others.setdefault(wing_key(section.wing), section.wing)
            hidden.update(range(section.heading.line, section.end))
    kept = [i for i in range(len(doc.lines)) if i not in hidden]
    lines = {i: _display(doc.lines[i]) for i in kept}
    while kept and not lines[kept[-1]].strip():
        kept.pop()
    entries = [e for e in doc.entries if e.start not in hidden and e.path is not None]
    tail: list[str] = []
    if others:
        tail.append(f"(Other wings, not shown: {', '.join(others.values())}.)")

    def size(indexes: list[int], extra: list[str]) -> int:
        return sum(len(lines[i].encode("utf-8")) + 1 for i in indexes) + sum(len(t.encode("utf-8")) + 1 for t in extra)

    total = size(kept, tail)
    left_out = 0
    cut = False
    if total > budget:
        order = sorted(entries, key=lambda e: (e.sort_date, e.start))
        drop: set[int] = set()
        note = [f"({len(entries)} older entries left out to fit the {budget}-byte memory budget; "
                "MemoryRecall finds them.)"]
        for entry in order:
            if total + size([], note) <= budget:
                break
            span = [i for i in range(entry.start, entry.end) if i in lines and i not in drop]
            total -= size(span, [])
            drop.update(span)
            left_out += 1
        kept = [i for i in kept if i not in drop]
        note = [f"({left_out} older entries left out to fit the {budget}-byte memory budget; "
                "MemoryRecall finds them.)"]
        tail = tail + note
        while kept and size(kept, tail) > budget:
            kept.pop()
            cut = True
    text = "\n".join([lines[i] for i in kept] + ([""] if tail and kept else []) + tail)
    return Rendered(text, total_entries=len(entries), left_out=left_out, other_wings=list(others.values()), cut=cut)
