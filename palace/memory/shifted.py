"""Items in line order (blocks, headings, sections) kept as pieces shared with the document they were derived
from, each piece moved down by some lines only when read.

An edit moves everything after it by the lines it added; moving each item would make every save cost as much
as the file. A derived document instead shares the earlier one's lists and records how far each piece moved.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Iterator
from typing import Generic, NamedTuple, TypeVar

T = TypeVar("T")

MAX_PIECES = 24  # more than this and the pieces are moved into one list (once in a while, not at every edit)


class Piece(NamedTuple, Generic[T]):
    """Items shared with an earlier document, the lines they start at there, and how far they moved since."""

    items: list[T]
    lines: list[int]
    delta: int


class Shifted(Generic[T]):
    """A read-only sequence of items sorted by the line they start at, as moved pieces."""

    __slots__ = ("_ends", "_firsts", "_flat", "_line", "_move", "_pieces", "joined")

    def __init__(self, pieces: list[Piece[T]], move: Callable[[T, int], T], line: Callable[[T], int]) -> None:
        kept: list[Piece[T]] = []
        for piece in pieces:
            if not piece.items:
                continue
            if kept and kept[-1].delta == piece.delta:  # neighbours moved alike are one piece
                last = kept.pop()
                piece = Piece(last.items + piece.items, last.lines + piece.lines, piece.delta)
            kept.append(piece)
        self._move, self._line = move, line
        self._flat: list[T] | None = None
        self.joined = len(kept) > MAX_PIECES  # its items are new objects: any index of the old ones is stale
        if self.joined:
            flat = [item for p in kept for item in (self._moved(p.items, p.delta))]
            kept = [Piece(flat, [line(item) for item in flat], 0)]
        self._pieces = kept
        self._ends = list(itertools.accumulate(len(p.items) for p in kept))
        self._firsts = [p.lines[0] + p.delta for p in kept]  # the line each piece starts at, here

    @classmethod
    def of(cls, items: list[T], move: Callable[[T, int], T], line: Callable[[T], int]) -> Shifted[T]:
        """The items as one piece (not moved)."""
        shifted = cls([Piece(items, [line(item) for item in items], 0)], move, line)
        shifted._flat = items
        return shifted

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
            if len(self._pieces) == 1 and not self._pieces[0].delta:
                self._flat = self._pieces[0].items
            else:
                self._flat = [item for p in self._pieces for item in self._moved(p.items, p.delta)]
        return self._flat

    def _locate(self, index: int) -> tuple[Piece[T], int]:
        at = bisect.bisect_right(self._ends, index)
        return self._pieces[at], index - (self._ends[at - 1] if at else 0)

    def __getitem__(self, index: int) -> T:
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        if self._flat is not None:
            return self._flat[index]
        piece, offset = self._locate(index)
        item = piece.items[offset]
        return self._move(item, piece.delta) if piece.delta else item

    def index(self, line: int) -> int:
        """How many items start before line."""
        at = bisect.bisect_left(self._firsts, line) - 1  # the last piece that starts before line
        if at < 0:
            return 0
        piece = self._pieces[at]
        return (self._ends[at - 1] if at else 0) + bisect.bisect_left(piece.lines, line - piece.delta)

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
        ends = self._ends
        at = bisect.bisect_right(ends, low)  # the first piece that holds item low
        start = ends[at - 1] if at else 0
        for piece, end in zip(self._pieces[at:], ends[at:], strict=True):
            if start >= high:
                break
            a, b = max(low - start, 0), min(high, end) - start
            if a == 0 and b == len(piece.items):
                found.append(Piece(piece.items, piece.lines, piece.delta + delta))
            else:
                found.append(Piece(piece.items[a:b], piece.lines[a:b], piece.delta + delta))
            start = end
        return found

    def raw(self) -> Iterator[tuple[T, int]]:
        """Every item as stored, with how far it is to be moved (to filter before paying for the moves)."""
        for piece in self._pieces:
            for item in piece.items:
                yield item, piece.delta

    def placed(self, item: T) -> T | None:
        """A stored item (from `raw` or `stored`) moved to where it is here; None when it is not here."""
        line = self._line(item)
        for piece in self._pieces:
            index = bisect.bisect_left(piece.lines, line)
            while index < len(piece.items) and piece.lines[index] == line:
                if piece.items[index] is item:
                    return self._move(item, piece.delta) if piece.delta else item
                index += 1
        return None

    def stored(self, low: int, high: int) -> list[T]:
        """Items [low, high) as stored (not moved: to know them by identity)."""
        return [item for p in self.pieces(low, high) for item in p.items]

    def backwards(self, high: int) -> Iterator[tuple[T, int]]:
        """Items [0, high) from the last to the first, as stored, each with how far it is to be moved."""
        start = len(self)
        for piece in reversed(self._pieces):
            start -= len(piece.items)
            for offset in range(min(high - start, len(piece.items)) - 1, -1, -1):
                yield piece.items[offset], piece.delta

    def spliced(self, first: int, old_end: int, window: list[T], delta: int) -> Shifted[T]:
        """These items with those starting in lines [first, old_end) replaced by window (in the new lines), and
        those after moved delta lines down."""
        return self.replaced(self.index(first), self.index(old_end), window, delta)

    def replaced(self, low: int, high: int, window: list[T], delta: int) -> Shifted[T]:
        """These items with items [low, high) replaced by window, and those after moved delta lines down."""
        new = [*self.pieces(0, low), Piece(window, [self._line(i) for i in window], 0)]
        return Shifted([*new, *self.pieces(high, len(self), delta)], self._move, self._line)

    def move(self, item: T, delta: int) -> T:
        return self._move(item, delta) if delta else item
