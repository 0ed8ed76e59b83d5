"""Which wings a search covers: some wings and everything wing-less (the default: the active wings), or all.

A session carries its wings in its journal header and its archive's `- Wing:` line; a memory entry (current or
superseded) in its path (`alpha/Decisions/database`). Sessions and entries without a wing are searched in every
scope: they are the user's, not one project's. With no wing active there is no project to keep the others'
sessions out of, so every wing is searched (see default_wings).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from palace.record import record


@record(frozen=True)
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


def left_out(found: Iterable[Sequence[str]], scope: Scope) -> dict[str, int]:
    """Of the wings of each hit of an every-wing search, what the scope leaves out: hits per wing, most first."""
    counts: dict[str, int] = {}
    for wings in found:
        if not scope.allows(wings):
            for wing in dict.fromkeys(wings):
                counts[wing] = counts.get(wing, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0].casefold())))


def left_out_note(total: int, per_wing: dict[str, int], *, more: bool = False) -> str:
    """What a scoped search says of the matches other wings hold, and how to see them ("" for none):
    `(12 more matches in other wings: ifai 9, alice 3 — add --all-wings, or --wing ifai)`."""
    if total <= 0 or not per_wing:
        return ""
    counted = f"at least {total}" if more else str(total)
    matches = "match" if total == 1 and not more else "matches"
    wings = ", ".join(f"{wing} {count}" for wing, count in per_wing.items())
    where = "another wing" if len(per_wing) == 1 else "other wings"
    return f"({counted} more {matches} in {where}: {wings} — add --all-wings, or --wing {next(iter(per_wing))})"
