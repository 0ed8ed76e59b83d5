"""Where each line starts in a document's bytes, so that an edit splices bytes instead of re-encoding the file.

A parsed document's table is built on first use (one split of the bytes, in C). A document derived from an
earlier one by an edit does not copy the table: it keeps the earlier one's, the starts of its own new lines
and how far the lines after them moved, and after a few generations builds a table of its own again.
"""

from __future__ import annotations

import bisect
import itertools

# Derived generations looked through before a table of its own is built (a split of the file's bytes,
# ~5-10 ms at 4 MB: rare enough to cost little a save; each look-up walks at most this many).
_MAX_DEPTH = 96


def line_starts(data: bytes, skip: int) -> list[int]:
    """The offset of every line of data[skip:] (lines end with LF), and the offset of its end last."""
    parts = data[skip:].split(b"\n")
    starts = list(itertools.accumulate(map((1).__add__, map(len, parts[:-1])), initial=skip))  # in C, no loop
    if parts[-1]:
        starts.append(len(data))  # the last line has no ending: its end is the end of the bytes
    return starts


class LineOffsets:
    """The byte offset at which each line starts, for line numbers 0 to the line count (its end)."""

    __slots__ = (
        "_byte_delta",
        "_data",
        "_depth",
        "_end_byte",
        "_first",
        "_line_delta",
        "_parent",
        "_region",
        "_skip",
        "_start_byte",
        "_table",
    )

    def __init__(self, skip: int, data: bytes | None = None) -> None:
        self._skip = skip
        self._data = data  # a parsed document's bytes, until its table is built from them
        self._table: list[int] | None = None
        self._parent: LineOffsets | None = None
        self._first = self._line_delta = self._byte_delta = self._depth = self._start_byte = self._end_byte = 0
        self._region: list[int] = []

    def derived(
        self, first: int, span: tuple[int, int], region: list[int], line_delta: int, byte_delta: int
    ) -> LineOffsets:
        """The offsets after the lines from first on were replaced by lines starting at region (absolute
        offsets in the new bytes, from span[0] to span[1]), the lines after the replaced ones moved
        line_delta lines and byte_delta bytes."""
        child = LineOffsets(self._skip)
        child._parent, child._depth = self, self._depth + 1
        child._first, child._region = first, region
        child._start_byte, child._end_byte = span
        child._line_delta, child._byte_delta = line_delta, byte_delta
        return child

    def _own_table(self, data: bytes) -> None:
        """Build this document's own table when it is parsed (not derived) or derived too many times over."""
        if self._table is None and (self._parent is None or self._depth > _MAX_DEPTH):
            self._table, self._parent, self._region, self._data = line_starts(data, self._skip), None, [], None
            self._depth = 0

    def line_of(self, offset: int, data: bytes) -> int:
        """The line that starts at offset (where a line starts in data, this document's bytes), found by walking
        up through the edits as `at` does, not by counting the newlines before it."""
        self._own_table(data)
        node: LineOffsets = self
        shift = 0
        while node._table is None:
            parent = node._parent
            if parent is None:  # a parsed document whose table is not built yet
                assert node._data is not None
                node._table, node._data, node._depth = line_starts(node._data, node._skip), None, 0
                break
            if offset >= node._end_byte:  # after the lines the edit made: moved
                offset -= node._byte_delta
                shift += node._line_delta
            elif offset >= node._start_byte:
                return shift + node._first + bisect.bisect_right(node._region, offset) - 1
            node = parent
        return shift + bisect.bisect_left(node._table, offset)

    def at(self, line: int, data: bytes) -> int:
        """Where line starts in data (this document's bytes); the line count gives the end of the last line."""
        self._own_table(data)
        if self._table is not None:
            return self._table[line]
        node: LineOffsets = self
        shift = 0
        while node._table is None:  # walk up through the edits that moved this line
            parent = node._parent
            if parent is None:  # a parsed document whose table is not built yet
                assert node._data is not None
                node._table, node._data, node._depth = line_starts(node._data, node._skip), None, 0
                break
            if line < node._first:
                node = parent
            elif line < node._first + len(node._region):
                return node._region[line - node._first] + shift
            else:
                line -= node._line_delta
                shift += node._byte_delta
                node = parent
        return node._table[line] + shift
