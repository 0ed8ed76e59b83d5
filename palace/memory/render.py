"""Hot memory as it goes into the system prompt: verbatim, scoped to the active wings, within a byte budget."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from palace.memory.document import Document, Kind
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
    unreadable: bool = False  # the file is there but cannot be read: always worth saying
    cut_lines: int = 0  # lines of the user's own text that did not fit even with every entry left out
    cut_from: int = 0  # the 1-based line of memories.md where what was cut begins

    @property
    def size(self) -> int:
        return len(self.text.encode("utf-8"))


def _display(line: str) -> str:
    # Bytes that are not UTF-8 cannot travel in a JSON request; show them as U+FFFD.
    return line.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _note(left: int, budget: int) -> str:
    return f"({left} older entries left out to fit the {budget}-byte memory budget; MemoryRecall finds them.)"


Wings = str | Sequence[str] | None  # the active wing(s): one name, several, or none


def _is_comment(doc: Document, first: int, end: int) -> bool:
    """Are lines [first, end) one HTML comment and nothing else?"""
    text = "\n".join(doc.lines[first:end]).strip()
    return text.startswith("<!--") and text.endswith("-->") and text.count("-->") == 1


def _hide_comments(doc: Document, hidden: bytearray) -> None:
    """HTML comments stay out of the prompt: rendered markdown does not show them, so people keep notes to
    themselves there (and the starter file's pointer to the docs is one). A blank line left doubled goes too."""
    for block in doc.blocks:
        if block.kind != "block_html" or not _is_comment(doc, block.first, block.end):
            continue
        end, before = block.end, block.first - 1
        while before >= 0 and hidden[before]:
            before -= 1
        if before < 0 or not doc.lines[before].strip():
            while end < len(doc.lines) and not doc.lines[end].strip():
                end += 1
        hidden[block.first : end] = b"\x01" * (end - block.first)


def wing_keys(wings: Wings) -> frozenset[str]:
    """The comparison keys of the active wings."""
    if wings is None:
        return frozenset()
    return frozenset(wing_key(w) for w in ([wings] if isinstance(wings, str) else wings) if w)


class _Layout:
    """The lines of the active wings' view of a document and their sizes, as the prompt joins them."""

    def __init__(self, doc: Document, wings: Wings) -> None:
        keys = wing_keys(wings)
        count = len(doc.lines)
        hidden = bytearray(count)
        others: dict[str, str] = {}
        for section in doc.sections:
            if section.kind == Kind.WING and section.wing and wing_key(section.wing) not in keys:
                others.setdefault(wing_key(section.wing), section.wing)
                hidden[section.heading.line : section.end] = b"\x01" * (section.end - section.heading.line)
        _hide_comments(doc, hidden)
        self.lines = [line if line.isascii() else _display(line) for line in doc.lines]
        self.sizes = [len(line) if line.isascii() else len(line.encode("utf-8")) for line in self.lines]
        self.kept = [i for i in range(count) if not hidden[i]]
        while self.kept and not self.lines[self.kept[-1]].strip():
            self.kept.pop()
        self.entries = [e for e in doc.entries if not hidden[e.start] and e.path is not None]
        self.others = list(others.values())
        self.tail = [f"(Other wings, not shown: {', '.join(self.others)}.)"] if others else []

    def total(self) -> int:
        """Bytes of the text: each line and each tail line costs its bytes plus a newline."""
        return sum(self.sizes[i] + 1 for i in self.kept) + sum(len(t.encode("utf-8")) + 1 for t in self.tail)

    def leave_out_oldest(self, budget: int) -> int:
        """Drop the oldest entries whole until the text and the closing note fit; how many were dropped."""
        total = self.total()
        room_for_note = len(_note(len(self.entries), budget).encode("utf-8")) + 1
        dropped: set[int] = set()
        left_out = 0
        for entry in sorted(self.entries, key=lambda e: (e.sort_date, e.start)):
            if total + room_for_note <= budget:
                break
            for i in range(entry.start, entry.end):
                if i not in dropped:
                    dropped.add(i)
                    total -= self.sizes[i] + 1
            left_out += 1
        self.kept = [i for i in self.kept if i not in dropped]
        self.tail.append(_note(left_out, budget))
        return left_out

    def cut_to(self, budget: int) -> tuple[int, int]:
        """Drop whole lines from the end until the text fits: (how many went, the first one's index)."""
        total = self.total()
        cut, first = 0, 0
        while self.kept and total > budget:
            first = self.kept.pop()
            total -= self.sizes[first] + 1
            cut += 1
        return cut, first

    def text(self) -> str:
        body = [self.lines[i] for i in self.kept]
        return "\n".join(body + ([""] if self.tail and body else []) + self.tail)


def render_document(doc: Document, wings: Wings, budget: int) -> Rendered:
    """The wing-less halls and the active wings verbatim; oldest entries left out whole when over budget,
    then, if the user's own text alone is still too long, its last lines (and Rendered says which)."""
    layout = _Layout(doc, wings)
    left_out = cut = first = 0
    if layout.total() > budget:
        left_out = layout.leave_out_oldest(budget)
        cut, first = layout.cut_to(budget)
    return Rendered(
        layout.text(),
        total_entries=len(layout.entries),
        left_out=left_out,
        other_wings=layout.others,
        cut=bool(cut),
        cut_lines=cut,
        cut_from=first + 1 if cut else 0,
    )
