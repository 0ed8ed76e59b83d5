"""Items in line order (blocks, headings, sections, entries) kept as pieces shared with the document they were
derived from, each piece moved down by some lines only when read.

An edit moves everything after it by the lines it added; moving each item would make every save cost as much
as the file. A derived document instead shares the earlier one's lists and records how far each piece moved.
Pieces hold at most CHUNK items, so an edit copies at most one piece's lists; the pieces' lists and deltas are
kept in parallel lists, so moving every piece after an edit is one map over the deltas, in C.
"""

from __future__ import annotations

import bisect
import math
import operator
from collections.abc import Callable, Iterator
from itertools import accumulate
from typing import Generic, NamedTuple, TypeVar

T = TypeVar("T")

MAX_PIECES = 24  # more pieces than this beyond the chunks' own (and a square root) and all are moved into one list
CHUNK = 2048  # the most items a piece holds: what an edit copies of the piece it cuts
_first = operator.itemgetter(0)


class Piece(NamedTuple, Generic[T]):
    """Items shared with an earlier document, the lines they start at there, and how far they moved since."""

    items: list[T]
    lines: list[int]
    delta: int


class Shifted(Generic[T]):
    """A read-only sequence of items sorted by the line they start at, as moved pieces."""

    __slots__ = ("_deltas", "_ends", "_firsts", "_flat", "_items", "_line", "_lines", "_move", "joined")

    def __init__(self, pieces: list[Piece[T]], move: Callable[[T, int], T], line: Callable[[T], int]) -> None:
        self._move, self._line = move, line
        self._items: list[list[T]] = []
        self._lines: list[list[int]] = []
        self._deltas: list[int] = []
        for piece in pieces:
            self._push(piece)
        self._settle()

    @classmethod
    def of(cls, items: list[T], move: Callable[[T, int], T], line: Callable[[T], int]) -> Shifted[T]:
        """The items as one list (in chunks, not moved)."""
        shifted = cls([Piece(items, [line(item) for item in items], 0)], move, line)
        shifted._flat = items
        return shifted

    def _push(self, piece: Piece[T]) -> None:
        """Append a piece: in chunks when long, joined to the last one when moved alike and both fit in one."""
        items, lines, delta = piece
        size = CHUNK
        for a in range(0, len(items), size):
            chunk, starts = (items[a : a + size], lines[a : a + size]) if len(items) > size else (items, lines)
            if self._deltas and self._deltas[-1] == delta and len(self._items[-1]) + len(chunk) <= size:
                self._items[-1] = self._items[-1] + chunk
                self._lines[-1] = self._lines[-1] + starts
            else:
                self._items.append(chunk)
                self._lines.append(starts)
                self._deltas.append(delta)

    def _settle(self) -> None:
        """Count the items and find where each piece starts; join the pieces when too many piled up."""
        self._flat: list[T] | None = None
        ends = list(accumulate(map(len, self._items)))
        count = ends[-1] if ends else 0
        # Each edit pays a little per piece, a join pays per item: the bound grows as the square root.
        self.joined = len(ends) > count // CHUNK + MAX_PIECES + 2 * math.isqrt(count)  # the old items are stale
        if self.joined:
            flat = [
                item
                for items, delta in zip(self._items, self._deltas, strict=True)
                for item in self._moved(items, delta)
            ]
            self._items, self._lines, self._deltas = [], [], []
            self._push(Piece(flat, [self._line(item) for item in flat], 0))
            ends = list(accumulate(map(len, self._items)))
            self._flat = flat
        self._ends = ends
        self._firsts = list(map(operator.add, map(_first, self._lines), self._deltas))  # where each starts, here

    def _moved(self, items: list[T], delta: int) -> list[T]:
        move = self._move
        return [move(item, delta) for item in items] if delta else items

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    def __iter__(self) -> Iterator[T]:
        return iter(self.flat())

    def flat(self) -> list[T]:
        """Every item, moved to where it is (built once, on the first call)."""
        if self._flat is None:
            pairs = zip(self._items, self._deltas, strict=True)
            self._flat = [item for items, delta in pairs for item in self._moved(items, delta)]
        return self._flat

    def _locate(self, index: int) -> tuple[int, int]:
        """(the piece that holds item index, the item's offset in it)."""
        at = bisect.bisect_right(self._ends, index)
        return at, index - (self._ends[at - 1] if at else 0)

    def __getitem__(self, index: int) -> T:
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        if self._flat is not None:
            return self._flat[index]
        at, offset = self._locate(index)
        item, delta = self._items[at][offset], self._deltas[at]
        return self._move(item, delta) if delta else item

    def index(self, line: int) -> int:
        """How many items start before line."""
        at = bisect.bisect_left(self._firsts, line) - 1  # the last piece that starts before line
        if at < 0:
            return 0
        return (self._ends[at - 1] if at else 0) + bisect.bisect_left(self._lines[at], line - self._deltas[at])

    def index_right(self, line: int) -> int:
        """How many items start at or before line."""
        return self.index(line + 1)

    def slice(self, low: int, high: int) -> list[T]:
        """Items [low, high), moved."""
        if self._flat is not None:
            return self._flat[low:high]
        return [item for p in self.pieces(low, high) for item in self._moved(p.items, p.delta)]

    def between(self, first: int, end: int) -> list[T]:
        """The items that start in lines [first, end)."""
        return self.slice(self.index(first), self.index(end))

    def pieces(self, low: int, high: int, delta: int = 0) -> list[Piece[T]]:
        """Items [low, high) as pieces (sharing this one's lists), moved delta lines further."""
        found: list[Piece[T]] = []
        if low >= high:
            return found
        at, a = self._locate(low)
        start = low - a
        while start < high:
            items, lines, moved = self._items[at], self._lines[at], self._deltas[at] + delta
            b = min(high - start, len(items))
            found.append(
                Piece(items, lines, moved) if a == 0 and b == len(items) else Piece(items[a:b], lines[a:b], moved)
            )
            start += len(items)
            at, a = at + 1, 0
        return found

    def raw(self) -> Iterator[tuple[T, int]]:
        """Every item as stored, with how far it is to be moved (to filter before paying for the moves)."""
        for items, delta in zip(self._items, self._deltas, strict=True):
            for item in items:
                yield item, delta

    def placed(self, item: T) -> T | None:
        """A stored item (from `raw` or `stored`) moved to where it is here; None when it is not here."""
        line = self._line(item)
        for items, lines, delta in zip(self._items, self._lines, self._deltas, strict=True):
            index = bisect.bisect_left(lines, line)
            while index < len(items) and lines[index] == line:
                if items[index] is item:
                    return self._move(item, delta) if delta else item
                index += 1
        return None

    def stored(self, low: int, high: int) -> list[T]:
        """Items [low, high) as stored (not moved: to know them by identity)."""
        return [item for p in self.pieces(low, high) for item in p.items]

    def backwards(self, high: int) -> Iterator[tuple[T, int]]:
        """Items [0, high) from the last to the first, as stored, each with how far it is to be moved."""
        start = len(self)
        for items, delta in zip(reversed(self._items), reversed(self._deltas), strict=True):
            start -= len(items)
            for offset in range(min(high - start, len(items)) - 1, -1, -1):
                yield items[offset], delta

    def runs_backwards(self, high: int) -> Iterator[tuple[list[T], int, int]]:
        """(items, how far they are to be moved, n) for each piece holding items of [0, high), from the last to
        the first: of each, items[:n] are (as stored; to walk back in one loop, without a generator per item)."""
        start = len(self)
        for items, delta in zip(reversed(self._items), reversed(self._deltas), strict=True):
            start -= len(items)
            n = min(high - start, len(items))
            if n > 0:
                yield items, delta, n

    def spliced(self, first: int, old_end: int, window: list[T], delta: int) -> Shifted[T]:
        """These items with those starting in lines [first, old_end) replaced by window (in the new lines), and
        those after moved delta lines down."""
        return self.replaced(self.index(first), self.index(old_end), window, delta)

    def replaced(self, low: int, high: int, window: list[T], delta: int) -> Shifted[T]:
        """These items with items [low, high) replaced by window, and those after moved delta lines down."""
        return self.rebuilt(low, [Piece(window, [self._line(i) for i in window], 0)], high, delta)

    def rebuilt(self, head: int, middle: list[Piece[T]], tail: int, delta: int) -> Shifted[T]:
        """Items [0, head) of these, then the middle pieces, then items [tail, len) moved delta lines down: the
        whole pieces before and after are shared as they are, the lists of their deltas moved in C."""
        new: Shifted[T] = Shifted.__new__(Shifted)
        new._move, new._line = self._move, self._line
        at, a = self._locate(head) if head < len(self) else (len(self._items), 0)
        new._items, new._lines, new._deltas = self._items[:at], self._lines[:at], self._deltas[:at]
        if a:
            new._push(Piece(self._items[at][:a], self._lines[at][:a], self._deltas[at]))
        for piece in middle:
            new._push(piece)
        if tail < len(self):
            at, b = self._locate(tail)
            new._push(Piece(self._items[at][b:], self._lines[at][b:], self._deltas[at] + delta))
            new._items += self._items[at + 1 :]
            new._lines += self._lines[at + 1 :]
            new._deltas += map(delta.__add__, self._deltas[at + 1 :]) if delta else self._deltas[at + 1 :]
        new._settle()
        return new

    def move(self, item: T, delta: int) -> T:
        return self._move(item, delta) if delta else item
