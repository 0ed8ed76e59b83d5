"""Which wings a search covers: some wings and everything wing-less (the default: the active wings), or all.

A session carries its wings in its journal header and its archive's `- Wing:` line; a memory entry (current or
superseded) in its path (`alpha/Decisions/database`). Sessions and entries without a wing are searched in every
scope: they are the user's, not one project's. With no wing active there is no project to keep the others'
sessions out of, so every wing is searched (see default_wings).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Scope:
    """The wings searched, as named (None: every wing); wing-less sessions and entries are always searched."""

    wings: tuple[str, ...] | None = None

    @classmethod
    def of(cls, wings: Iterable[str] | None) -> Scope:
        """The scope of these wings (each once, whatever its case), or of every wing for None."""
        if wings is None:
            return cls(None)
        named: dict[str, str] = {}
        for wing in wings:
            named.setdefault(wing.casefold(), wing)
        return cls(tuple(named.values()))

    @property
    def folded(self) -> frozenset[str]:
        return frozenset(w.casefold() for w in self.wings or ())

    def allows(self, wings: Iterable[str]) -> bool:
        """Is a session or entry with these wings searched (every wing, none, or one of the scope's)?"""
        if self.wings is None:
            return True
        named = [w.casefold() for w in wings]
        return not named or not self.folded.isdisjoint(named)

    def condition(self, column: str) -> tuple[str | None, list[object]]:
        """An SQL condition on a column of space-separated wings, with its values (None: every file passes).

        Wings are ASCII slugs, so SQLite's lower() folds them as casefold() does."""
        if self.wings is None:
            return None, []
        folded = sorted(self.folded)
        tests = [f"{column} = ''", *(f"instr(' ' || lower({column}) || ' ', ?) > 0" for _ in folded)]
        return "(" + " OR ".join(tests) + ")", [f" {wing} " for wing in folded]

    def describe(self) -> str:
        """How recall's answer names the scope: "wing beta and wing-less", "every wing"."""
        if self.wings is None:
            return "every wing"
        if not self.wings:
            return "wing-less only"
        return f"{wing_label(self.wings)} and wing-less"


EVERY_WING = Scope(None)


def default_wings(active: Sequence[str]) -> list[str] | None:
    """The wings searched when none is asked for: the active ones, or every wing when none is active."""
    return list(active) or None


def wing_label(wings: Sequence[str]) -> str:
    """A hit's wing label: "wing alpha", "wings alpha, beta" or "no wing"."""
    if not wings:
        return "no wing"
    return ("wing " if len(wings) == 1 else "wings ") + ", ".join(wings)
