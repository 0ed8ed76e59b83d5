"""Hot memory as it goes into the system prompt: verbatim, scoped to the active wings, within a byte budget."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from palace.memory.halls import wing_key
from palace.record import field, record

# The parser and the secret screen are imported by the render itself: a render the cache answers (every session
# start with memories.md unchanged: render_cache.py) needs Rendered and wing_keys alone.
if TYPE_CHECKING:
    from palace.memory.document import Document, Entry


@record
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
    left_rooms: list[str] = field(default_factory=list)  # the rooms entries were left out of (MemoryRoom opens one)
    screened: str = ""  # "Left out 1 line of memories.md that looks like a secret: line 12 (GitHub token)."

    @property
    def size(self) -> int:
        return len(self.text.encode("utf-8"))


def _display(line: str) -> str:
    # Bytes that are not UTF-8 cannot travel in a JSON request; show them as U+FFFD.
    return line.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _secret_lines(lines: list[str]) -> list[tuple[int, str]]:
    """(index, kind) of each line that looks like a secret, the lines judged together (a key split over two)."""
    from palace.memory.secrets import secret_lines

    return [(number - 1, kind) for number, kind in secret_lines("\n".join(lines))]


def _note(left: int, budget: int, rooms: Sequence[str] = ()) -> str:
    """The closing line of a memory over its budget (mcp/memory.py rewrites its tool name for other agents)."""
    where = ""
    if rooms:
        shown = ", ".join(rooms[:_ROOMS_NAMED]) + (
            f" and {len(rooms) - _ROOMS_NAMED} more" if len(rooms) > _ROOMS_NAMED else ""
        )
        where = f", the least used first, from {shown}"
    return f"({left} entries left out to fit the {budget}-byte memory budget{where}; MemoryRecall finds them.)"


_ROOMS_NAMED = 6  # rooms the closing line names at most
Value = Callable[["Entry"], float]  # how much an entry is worth keeping in the prompt (uses and recency)


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


def _oldest(entry: Entry) -> tuple[str, int]:
    return (entry.sort_date, entry.start)


def reuse_value(uses: Callable[[Entry], int], today: str) -> Value:
    """An entry's worth for the prompt: each doubling of its uses (confirmations, recalls) counts one, and
    recency adds up to one more, halving every 90 days."""
    import math
    from datetime import date

    now = date.fromisoformat(today).toordinal()

    def value(entry: Entry) -> float:
        try:
            age = max(0, now - date.fromisoformat(entry.date).toordinal()) if entry.date else 3650
        except ValueError:
            age = 3650
        return float(math.log2(1 + uses(entry)) + 0.5 ** (age / 90))

    return value


def _hide_expired(doc: Document, hidden: bytearray, today: str | None) -> None:
    """Mark the lines of entries past their end date (memory/expiry.py): no longer true."""
    if today is None:
        return
    for entry in doc.entries:
        if entry.until is not None and entry.until < today:
            hidden[entry.start : entry.end] = b"\x01" * (entry.end - entry.start)


def _hide_other_wings(doc: Document, hidden: bytearray, keys: frozenset[str]) -> dict[str, str]:
    """Mark the lines of the wings not active here: their names, by key."""
    from palace.memory.document import Kind

    others: dict[str, str] = {}
    for section in doc.sections:
        if section.kind == Kind.WING and section.wing and wing_key(section.wing) not in keys:
            others.setdefault(wing_key(section.wing), section.wing)
            hidden[section.heading.line : section.end] = b"\x01" * (section.end - section.heading.line)
    return others


class _Layout:
    """The lines of the active wings' view of a document and their sizes, as the prompt joins them."""

    def __init__(self, doc: Document, wings: Wings, today: str | None = None) -> None:
        count = len(doc.lines)
        hidden = bytearray(count)
        _hide_expired(doc, hidden, today)
        others = _hide_other_wings(doc, hidden, wing_keys(wings))
        _hide_comments(doc, hidden)
        self.lines = [line if line.isascii() else _display(line) for line in doc.lines]
        self.sizes = [len(line) if line.isascii() else len(line.encode("utf-8")) for line in self.lines]
        self.kept = [i for i in range(count) if not hidden[i]]
        while self.kept and not self.lines[self.kept[-1]].strip():
            self.kept.pop()
        self.entries = [e for e in doc.entries if not hidden[e.start] and e.path is not None]
        self.others = list(others.values())
        self.tail = [f"(Other wings, not shown: {', '.join(self.others)}.)"] if others else []
        self.left_rooms: list[str] = []

    def total(self) -> int:
        """Bytes of the text: each line and each tail line costs its bytes plus a newline."""
        return sum(self.sizes[i] + 1 for i in self.kept) + sum(len(t.encode("utf-8")) + 1 for t in self.tail)

    def leave_out(self, budget: int, value: Value | None = None) -> int:
        """Drop whole entries, the least valued first (else the oldest), until the text and the closing note
        fit; how many were dropped. The file's order is kept: only which entries show changes."""
        total = self.total()
        room_for_note = len(_note(len(self.entries), budget, ["x" * 40] * _ROOMS_NAMED).encode("utf-8")) + 1
        dropped: set[int] = set()
        rooms: dict[str, int] = {}
        order = sorted(self.entries, key=(lambda e: (value(e), e.sort_date, e.start)) if value else _oldest)
        for entry in order:
            if total + room_for_note <= budget:
                break
            for i in range(entry.start, entry.end):
                if i not in dropped:
                    dropped.add(i)
                    total -= self.sizes[i] + 1
            room = str(entry.path)
            rooms[room] = rooms.get(room, 0) + 1
        self.kept = [i for i in self.kept if i not in dropped]
        named = sorted(rooms, key=lambda r: -rooms[r]) if value else []
        self.tail.append(_note(sum(rooms.values()), budget, named))
        self.left_rooms = list(rooms)
        return sum(rooms.values())

    def cut_to(self, budget: int) -> tuple[int, int]:
        """Drop whole lines from the end until the text fits: (how many went, the first one's index)."""
        total = self.total()
        cut, first = 0, 0
        while self.kept and total > budget:
            first = self.kept.pop()
            total -= self.sizes[first] + 1
            cut += 1
        return cut, first

    def screen(self, source: str) -> str:
        """Leave out the kept lines that look like a secret (a hand edit, a teammate's change, a cloned
        repository's file): the same detector as a save, on what would reach the prompt. The notices name the
        line and the kind, never the text."""
        found = _secret_lines([self.lines[i] for i in self.kept])
        if not found:
            return ""
        where = [f"line {self.kept[at] + 1} ({kind})" for at, kind in found]
        drop = {self.kept[at] for at, _ in found}
        self.kept = [i for i in self.kept if i not in drop]
        what = "1 line" if len(where) == 1 else f"{len(where)} lines"
        looks = "looks like a secret" if len(where) == 1 else "look like secrets"
        note = f"Left out {what} of {source} that {looks}: {', '.join(where)}."
        self.tail.append(f"({note})")
        return note

    def text(self) -> str:
        body = [self.lines[i] for i in self.kept]
        return "\n".join(body + ([""] if self.tail and body else []) + self.tail)


def render_document(
    doc: Document,
    wings: Wings,
    budget: int,
    source: str = "memories.md",
    today: str | None = None,
    value: Value | None = None,
) -> Rendered:
    """The wing-less halls and the active wings verbatim; oldest entries left out whole when over budget,
    then, if the user's own text alone is still too long, its last lines (and Rendered says which); then any
    line that looks like a secret (named in a closing line: `source` says which file). With `today`, entries
    whose end date has passed are left out."""
    layout = _Layout(doc, wings, today)
    left_out = cut = first = 0
    if layout.total() > budget:
        left_out = layout.leave_out(budget, value)
        cut, first = layout.cut_to(budget)
    screened = layout.screen(source)
    return Rendered(
        layout.text(),
        total_entries=len(layout.entries),
        left_out=left_out,
        other_wings=layout.others,
        cut=bool(cut),
        cut_lines=cut,
        cut_from=first + 1 if cut else 0,
        screened=screened,
        left_rooms=layout.left_rooms,
    )
