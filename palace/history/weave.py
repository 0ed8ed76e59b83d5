"""Sequence alignment for the three-way merge: where each side kept, removed and added the tokens of a base.

A base of n tokens has n + 1 gaps (gap g is just before token g); whatever a side added is at one gap.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from difflib import SequenceMatcher
from typing import Generic, NamedTuple, TypeVar

from palace.record import field, record

T = TypeVar("T")


class Op(NamedTuple):
    """A change: base tokens [i1, i2) became the side's tokens [j1, j2)."""

    i1: int
    i2: int
    j1: int
    j2: int


class Region(NamedTuple):
    """A stretch both sides kept as it was in the base: base [z0, z1), ours [a0, a1), theirs [b0, b1)."""

    z0: int
    z1: int
    a0: int
    a1: int
    b0: int
    b1: int


def _matcher(base: Sequence[Hashable], side: Sequence[Hashable]) -> SequenceMatcher[Hashable]:
    return SequenceMatcher(None, base, side, autojunk=False)


@record
class Side(Generic[T]):
    """One side's tokens aligned with the base."""

    tokens: list[T]
    ops: list[Op] = field(default_factory=list)
    kept: dict[int, int] = field(default_factory=dict)  # base index -> index in tokens, for tokens kept in place
    inserted: dict[int, list[T]] = field(default_factory=dict)  # gap -> tokens added there
    start: list[int] = field(default_factory=list)  # gap -> index in tokens where the gap begins
    replaced: set[int] = field(default_factory=set)  # gaps whose added tokens took the place of base tokens

    @classmethod
    def of(cls, base: Sequence[T], tokens: list[T], ident: Callable[[T], Hashable]) -> Side[T]:
        side = cls(tokens, start=[len(tokens)] * (len(base) + 1))
        opcodes = _matcher([ident(t) for t in base], [ident(t) for t in tokens]).get_opcodes()
        for tag, i1, i2, j1, _ in opcodes:
            if tag == "equal":
                for offset in range(i2 - i1):
                    side.kept[i1 + offset] = j1 + offset
                    side.start[i1 + offset] = j1 + offset
        for tag, i1, i2, j1, j2 in opcodes:
            if tag != "equal":
                side.ops.append(Op(i1, i2, j1, j2))
                if i2 > i1:
                    side.replaced.add(i1)
                if j2 > j1:
                    side.inserted[i1] = tokens[j1:j2]
                side.start[i1] = j1
                for gap in range(i1 + 1, i2 + 1):
                    side.start[gap] = j2
        return side

    def tokens_between(self, first_gap: int, last_gap: int) -> list[T]:
        """This side's tokens from gap first_gap through what it added at gap last_gap."""
        end = self.start[last_gap] + len(self.inserted.get(last_gap, []))
        return self.tokens[self.start[first_gap] : end]


def sync_regions(base: Sequence[Hashable], ours: Sequence[Hashable], theirs: Sequence[Hashable]) -> list[Region]:
    """The stretches both sides kept, in order, ending with an empty one at the ends (as diff3 finds them)."""
    ours_blocks = _matcher(base, ours).get_matching_blocks()
    theirs_blocks = _matcher(base, theirs).get_matching_blocks()
    regions: list[Region] = []
    ia = ib = 0
    while ia < len(ours_blocks) and ib < len(theirs_blocks):
        a_base, a_match, a_len = ours_blocks[ia]
        b_base, b_match, b_len = theirs_blocks[ib]
        low, high = max(a_base, b_base), min(a_base + a_len, b_base + b_len)
        if low < high:
            a0, b0 = a_match + low - a_base, b_match + low - b_base
            regions.append(Region(low, high, a0, a0 + high - low, b0, b0 + high - low))
        if a_base + a_len < b_base + b_len:
            ia += 1
        else:
            ib += 1
    regions.append(Region(len(base), len(base), len(ours), len(ours), len(theirs), len(theirs)))
    return regions


def common_tokens(ours: list[T], theirs: list[T], ident: Callable[[T], Hashable]) -> list[T]:
    """ours' tokens that theirs has too, in order (a longest common run of runs)."""
    blocks = _matcher([ident(t) for t in ours], [ident(t) for t in theirs]).get_matching_blocks()
    return [token for a, _, size in blocks for token in ours[a : a + size]]
