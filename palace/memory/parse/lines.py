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


def uniform(eols: list[str] | None, tally: tuple[int, int, int], size: int) -> bool:
    """Whether every one of size lines ends with LF, or every one with CRLF, but perhaps the last with nothing:
    then the endings need no list (a save would copy it, and the collector walk it, for nothing).
    eols None: the endings of a document that has no list of them (so they are uniform)."""
    crlf, cr, ended = tally
    if cr or crlf not in (0, ended):
        return False
    return eols is None or ended == size or (ended == size - 1 and eols[-1] == "")


def uniform_endings(tally: tuple[int, int, int], size: int) -> list[str]:
    """The list of the endings that `uniform` says need none."""
    crlf, _, ended = tally
    return ["\r\n" if crlf else "\n"] * ended + [""] * (size - ended)


def derived_endings(
    eols: list[str] | None, tally: tuple[int, int, int], size: int, first: int, count: int, region: list[str]
) -> tuple[list[str] | None, tuple[int, int, int]]:
    """The endings of size lines (the list, or None when uniform) after lines [first, first + count) were
    replaced by lines ending as region does: (the new list, or None when still uniform; their tally)."""
    crlf, cr, ended = tally
    end = first + count
    if eols is None or uniform(eols, tally, size):
        unended_gone = 1 if count and end == size and ended < size else 0  # the last line, without an ending
        gone = ((count - unended_gone) if crlf else 0, 0, count - unended_gone)
    else:
        gone = endings(eols[first:end])
    came = endings(region)
    new = (crlf - gone[0] + came[0], cr - gone[1] + came[1], ended - gone[2] + came[2])
    new_size = size - count + len(region)
    if eols is None or uniform(eols, tally, size):
        unended = _last_unended(ended < size, end == size, count, region)
        if uniform(None, new, new_size) and new_size - new[2] == unended:
            return None, new
        eols = eols if eols is not None else uniform_endings(tally, size)
    return replaced_run(eols, first, end, region), new


def _last_unended(was: bool, at_end: bool, count: int, region: list[str]) -> int:
    """1 when the last line has no ending after an edit (`was`: before it; `at_end`: the edit replaced the lines
    up to the end, `count` of them, by region's), else 0: only the last line of a uniform document may have none."""
    if at_end and region:
        return 1 if region[-1] == "" else 0
    if at_end and count:
        return 0  # the last lines went: the new last one was followed by them, so it ends
    return 1 if was else 0


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
    prefix: int  # -1: not compared yet (but for the `head` bytes known to be shared)
    suffix: dict[int, int]  # by limit
    head: int = 0  # leading bytes they are known to share, at least (b made from a by a splice)
    tail: int = 0  # trailing bytes they are known to share, at least


_last = _Shared(b"", b"", 0, {})


def note_splice(a: bytes, b: bytes, head: int, tail: int) -> None:
    """b is a with a[head:len(a) - tail] replaced: what they share is looked for from there, not from the ends
    (a save's re-parse then compares only the bytes around its edit, not the whole file twice)."""
    global _last
    limit = min(len(a), len(b))
    _last = _Shared(a, b, -1, {}, min(head, limit), min(tail, limit))


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
        if last.prefix >= 0:
            return last.prefix
        found = _prefix(a, b, last.head)
        _last = last._replace(prefix=found)
        return found
    found = _prefix(a, b)
    _last = _Shared(a, b, found, {})
    return found


def _prefix(a: bytes, b: bytes, lo: int = 0) -> int:
    """How many leading bytes a and b share, knowing that they share lo."""
    hi, step = min(len(a), len(b)), 4096
    while lo < hi:  # galloping from lo: what is compared is about twice what is shared beyond lo
        mid = min(lo + step, hi)
        if not b.startswith(a[lo:mid], lo):
            hi = mid - 1
            break
        lo, step = mid, step * 2
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
            known = last.suffix[limit] = _suffix(a, b, limit, min(last.tail, limit))
        return known
    return _suffix(a, b, limit)


def _suffix(a: bytes, b: bytes, limit: int, lo: int = 0) -> int:
    """How many trailing bytes a and b share, at most limit, knowing that they share lo."""
    hi, step = limit, 4096
    while lo < hi:  # galloping from lo, as in _prefix
        mid = min(lo + step, hi)
        if not b.endswith(a[len(a) - mid : len(a) - lo], 0, len(b) - lo):
            hi = mid - 1
            break
        lo, step = mid, step * 2
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if b.endswith(a[len(a) - mid : len(a) - lo], 0, len(b) - lo):
            lo = mid
        else:
            hi = mid - 1
    return lo
