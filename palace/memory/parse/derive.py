"""Re-parsing only around an edit: a document derived from the last one parsed, sharing what did not change.

Functions of a parsed document (memory/document.py's Document, passed in; the Protocol below says what of it
is used, so that this package never imports it) and
the new bytes. Only a window of whole blocks around the change is parsed again; before it the structure is
the old one, after it the old one moved down by the lines the edit added (lazily, see shifted.py).
"""

from __future__ import annotations

import re
from itertools import accumulate
from typing import TYPE_CHECKING, Protocol, TypeVar

from palace.memory.parse.blocks import Entry, Scan, scan
from palace.memory.parse.lines import (
    BOM_BYTES,
    Derived,
    at_line_start,
    common_prefix,
    common_suffix,
    derived_endings,
    patched_index,
    replaced_run,
    split_lines,
)
from palace.memory.parse.moves import patched_sections
from palace.memory.parse.sections import rebuild_sections

if TYPE_CHECKING:
    from palace.memory.parse.blocks import Block, Heading
    from palace.memory.parse.offsets import LineOffsets
    from palace.memory.parse.sections import Section, SectionKey
    from palace.memory.parse.shifted import Shifted


class Document(Protocol):
    """What re-parsing needs of memory/document.py's Document (named here so the engine never imports it)."""

    lines: list[str]
    _eols: list[str] | None
    bom: bool
    final_newline: bool
    newline: str
    derived: Derived | None
    _raw: bytes | None
    _blocks: Shifted[Block]
    _headings: Shifted[Heading]
    _sections: Shifted[Section]
    _lists: Shifted[tuple[int, int]]
    _unparsed: Shifted[tuple[int, int]]
    _entries: Shifted[Entry]
    _keys: dict[str, list[Entry]] | None
    _by_key: dict[SectionKey, list[Section]] | None
    _offsets: LineOffsets | None
    _crlf: int
    _cr: int
    _ended: int

    def __init__(
        self,
        lines: list[str],
        _eols: list[str] | None,
        *,
        bom: bool = ...,
        final_newline: bool = ...,
        _raw: bytes | None = ...,
        _tally: tuple[int, int, int] | None = ...,
    ) -> None: ...

    def next_section(self, line: int) -> int: ...

    def _majority_newline(self) -> None: ...

    def _assign_entries(self, entries: list[Entry]) -> None: ...


_Doc = TypeVar("_Doc", bound=Document)

_ATX_LINE = re.compile(r"^#{1,6}(?:[ \t]|$)")
# Blocks that end before an ATX heading at the start of a line (a quote, a code block or an HTML block may not).
_CLOSED_BEFORE_ATX = frozenset({"blank_line", "heading", "list", "paragraph", "thematic_break"})


def derive_document(old: _Doc, data: bytes) -> _Doc | None:
    """data parsed by re-parsing only the blocks around what changed since old's bytes (None: parse it whole)."""
    raw = old._raw
    if raw is None or data.startswith(BOM_BYTES) != old.bom or old.newline == "\r":
        return None
    if b"\n" not in data and b"\r" in data:  # the LF found at once: no scan of the whole file for a CR
        return None  # CR-only line endings: the window arithmetic below counts LFs
    skip = len(BOM_BYTES) if old.bom else 0
    before, new = raw[skip:], data[skip:]
    prefix = common_prefix(before, new)
    suffix = common_suffix(before, new, min(len(before), len(new)) - prefix)
    start = before.rfind(b"\n", 0, prefix) + 1  # the changed lines, in whole lines
    old_end, new_end = len(before) - suffix, len(new) - suffix
    if not (at_line_start(before, old_end) and at_line_start(new, new_end)):
        newline = new.find(b"\n", new_end)
        step = len(new) - new_end if newline < 0 else newline + 1 - new_end
        old_end, new_end = old_end + step, new_end + step
    offsets = old._offsets
    # The line the change starts at: looked up in the offsets (a bisection), not counted in the bytes before it.
    first = offsets.line_of(skip + start, raw) if offsets is not None else before.count(b"\n", 0, start)
    old_count = before.count(b"\n", start, old_end) + (
        1 if old_end == len(before) and before[-1:] not in (b"", b"\n") else 0
    )
    region, region_eols, ended = split_lines(new[start:new_end].decode("utf-8", "surrogateescape"), whole=False)
    lines = replaced_run(old.lines, first, first + old_count, region)
    final_newline = (ended or not lines) if new_end == len(new) else old.final_newline
    old_tally = (old._crlf, old._cr, old._ended)
    eols, tally = derived_endings(old._eols, old_tally, len(old.lines), first, old_count, region_eols)
    doc = type(old)(lines, eols, bom=old.bom, final_newline=final_newline, _raw=data, _tally=tally)
    doc._majority_newline()
    if offsets is not None and not doc._cr:
        parts = new[start:new_end].split(b"\n")
        starts = accumulate((len(part) + 1 for part in parts[: len(region) - 1]), initial=skip + start)
        region_starts = list(starts) if region else []
        span = (skip + start, skip + new_end)
        doc._offsets = offsets.derived(first, span, region_starts, len(region) - old_count, new_end - old_end)
    rescan(old, doc, first, first + old_count, len(region) - old_count)
    return doc


def rescan(old: Document, doc: Document, first: int, end: int, delta: int) -> None:
    """Give doc (old with lines [first, end) replaced, delta lines more) its structure.

    Only a window of whole blocks around the change is parsed again. It starts where the parser's state
    does not depend on what came before (after a blank line or a heading, or at an ATX heading) and
    ends where the new parse ends in a state that lets the unchanged blocks after it parse as before
    (after a blank line that the old parse also had there, or before an ATX heading that nothing open
    can swallow). From there on the parse is the old one, moved by delta lines.
    """
    index, window_start = _window_start(old, first)
    after, old_end, found = _window_end(old, doc, window_start, end, delta)
    new_end = old_end + delta
    doc._blocks = old._blocks.replaced(index, after, found.blocks, delta)
    doc._headings = old._headings.spliced(window_start, old_end, found.headings, delta)
    doc._lists = old._lists.spliced(window_start, old_end, found.lists, delta)
    doc._unparsed = old._unparsed.spliced(window_start, old_end, found.unparsed_lists, delta)
    rebuilt = rebuild_sections(old._sections, doc._headings, window_start, old_end, delta, len(doc.lines))
    doc._sections, same_after = rebuilt.sections, rebuilt.same_after
    if old._by_key is not None and not doc._sections.joined:
        doc._by_key = patched_sections(old._by_key, rebuilt.removed, rebuilt.added)
        old._by_key = None  # given to doc (patched in place): a later look-up in old builds its own again
    # Entries after the window keep their rooms, but for those before the first heading after it (or
    # all of them when a heading in the window changed what the later headings mean).
    limit = doc.next_section(new_end) if same_after else len(doc.lines)
    _move_entries(old, doc, found.entries, window_start, old_end, delta, limit)
    doc.derived = Derived(window_start, old_end, new_end, same_after)


def _window_start(old: Document, first: int) -> tuple[int, int]:
    """(index of the first block to parse again, its first line) for a change starting at line first."""
    index = max(old._blocks.index_right(max(first - 1, 0)) - 1, 0)
    while index > 0 and not _fresh_start(old, index):
        index -= 1
    return index, (old._blocks[index].first if len(old._blocks) else 0)


def _window_end(old: Document, doc: Document, window_start: int, end: int, delta: int) -> tuple[int, int, Scan]:
    """(index of the first old block kept, the old line it starts at, the parse of the window in doc)."""
    blocks = old._blocks
    after = max(blocks.index(end), 1)
    while True:
        while after < len(blocks) and not (blocks[after - 1].kind == "blank_line" or _atx(old, after)):
            after += 1
        old_end = blocks[after].first if after < len(blocks) else len(old.lines)
        found = scan(doc.lines, window_start, old_end + delta)
        if after >= len(blocks) or _resumes_after(old, found, after):
            return after, old_end, found
        after += 1


def _resumes_after(old: Document, found: Scan, after: int) -> bool:
    """Whether the old parse from block `after` on holds after the window parsed as found."""
    if found.last == "blank_line" and old._blocks[after - 1].kind == "blank_line":
        return True
    return found.last in _CLOSED_BEFORE_ATX and _atx(old, after)


def _move_entries(
    old: Document, doc: Document, window: list[Entry], window_start: int, old_end: int, delta: int, limit: int
) -> None:
    """doc's entries: those before the window shared, the window's new ones, those after moved lazily
    (but for the ones up to limit, whose room may have changed: they are placed and assigned now)."""
    entries = old._entries
    low, middle, high = entries.index(window_start), entries.index(old_end), entries.index(limit - delta)
    placed = [e._moved(piece.delta) for piece in entries.pieces(middle, high, delta) for e in piece.items]
    changed = window + placed
    doc._assign_entries(changed)
    doc._entries = entries.replaced(low, high, changed, delta)
    keys = old._keys
    if keys is not None:
        old._keys = None  # given to doc: a later look-up in old builds its own again (rare: a failed try)
        if not doc._entries.joined:  # else its entries are new objects: the next look-up builds the index
            doc._keys = patched_index(keys, entries.stored(low, high), changed)


def _atx(old: Document, index: int) -> bool:
    """Whether block index is an ATX heading at the start of its line (nothing open before it can
    swallow it but a code fence, an HTML block or a quote)."""
    block = old._blocks[index]
    return block[2] == "heading" and bool(_ATX_LINE.match(old.lines[block[0]]))


def _fresh_start(old: Document, index: int) -> bool:
    """Whether a parse can start afresh at block index and find what the whole parse found."""
    return old._blocks[index - 1][2] in {"blank_line", "heading"} or _atx(old, index)
