"""Lines and bytes beneath the document: splitting text into lines that keep their endings, the bytes two
versions share, and the entry key index an incremental re-parse patches."""

from __future__ import annotations

from typing import NamedTuple, TypeVar

from palace.memory.parse.blocks import Entry

_Item = TypeVar("_Item")

BOM = "\ufeff"
BOM_BYTES = BOM.encode()


class Derived(NamedTuple):
    """A document re-parsed around a change: lines [first, old_end) of the earlier one became [first, new_end)."""

    first: int
    old_end: int
    new_end: int
    same_after: bool  # whether the sections after the change still mean what they meant


def patched_index(index: dict[str, list[Entry]], removed: list[Entry], added: list[Entry]) -> dict[str, list[Entry]]:
    """The key index without the removed entries (by identity) and with the added ones in rooms.

    Patched in place: the document it belonged to gives it up (copying it would cost as much as the file).
    Its lists may be held by a reader: they are replaced, never changed.
    """
    for entry in removed:
        kept = [e for e in index.get(entry.key, ()) if e is not entry]
        if kept:
            index[entry.key] = kept
        else:
            index.pop(entry.key, None)
    for entry in added:
        if entry.path is not None:
            index[entry.key] = [*index.get(entry.key, ()), entry]
    return index


def endings(eols: list[str]) -> tuple[int, int, int]:
    """(lines that end with CRLF, with a lone CR (a file without LFs), lines that have an ending)."""
    return eols.count("\r\n"), eols.count("\r"), len(eols) - eols.count("")


def at_line_start(data: bytes, pos: int) -> bool:
    return pos == 0 or data[pos - 1] == 10  # "\n"


def split_lines(text: str, *, whole: bool = True) -> tuple[list[str], list[str], bool]:
    """Lines and endings of text; the flag says whether its last line has an ending.

    Lines end with LF or CRLF; in a whole file with no LF at all (classic Mac OS), with a lone CR.
    """
    if whole and "\r" in text and "\n" not in text:
        return split_on(text, "\r")
    raw_lines = text.split("\n")
    tail = raw_lines.pop()  # what follows the last "\n": "" when text ends with one
    if "\r" not in text:
        lines, eols = raw_lines, ["\n"] * len(raw_lines)
    else:
        lines, eols = [], []
        for raw in raw_lines:
            if raw.endswith("\r"):
                lines.append(raw[:-1])
                eols.append("\r\n")
            else:
                lines.append(raw)
                eols.append("\n")
    if tail:
        lines.append(tail)  # a last line without an ending keeps a trailing "\r" as text
        eols.append("")
    return lines, eols, not tail


def split_on(text: str, ending: str) -> tuple[list[str], list[str], bool]:
    lines = text.split(ending)
    tail = lines.pop()
    eols = [ending] * len(lines)
    if tail:
        lines.append(tail)
        eols.append("")
    return lines, eols, not tail


class _Shared(NamedTuple):
    """The last pair of texts compared, and what they share: a save compares the same two texts when it
    re-parses, when it records the change for undo and when it remembers where the change went."""

    a: bytes
    b: bytes
    prefix: int
    suffix: dict[int, int]  # by limit


_last = _Shared(b"", b"", 0, {})


def replaced_run(items: list[_Item], start: int, end: int, new: list[_Item]) -> list[_Item]:
    """A copy of items with items[start:end] replaced by new: one copy of the list, where slicing and
    concatenating would make three (a 20,000-entry file has ~45,000 lines)."""
    out = items.copy()
    out[start:end] = new
    return out


def common_prefix(a: bytes, b: bytes) -> int:
    """How many leading bytes a and b share."""
    global _last
    last = _last
    if last.a is a and last.b is b:
        return last.prefix
    found = _prefix(a, b)
    _last = _Shared(a, b, found, {})
    return found


def _prefix(a: bytes, b: bytes) -> int:
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:  # one slice copied, compared in place with memcmp: O(n) in all, in C
        mid = (lo + hi + 1) // 2
        if b.startswith(a[lo:mid], lo):
            lo = mid
        else:
            hi = mid - 1
    return lo


def common_suffix(a: bytes, b: bytes, limit: int) -> int:
    """How many trailing bytes a and b share, at most limit."""
    last = _last
    if last.a is a and last.b is b:
        known = last.suffix.get(limit)
        if known is None:
            known = last.suffix[limit] = _suffix(a, b, limit)
        return known
    return _suffix(a, b, limit)


def _suffix(a: bytes, b: bytes, limit: int) -> int:
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if b.endswith(a[len(a) - mid : len(a) - lo], 0, len(b) - lo):
            lo = mid
        else:
            hi = mid - 1
    return lo
