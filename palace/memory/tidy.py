"""`palace memory tidy`: proposals that keep a year-old palace sharp, through the review queue only.

Three kinds, found without a model from the file and the reuse counts:
- **merge**: two entries of one scope (the same wing, or both wing-less) that say the same thing in other words,
  often in different rooms ("prefers zsh" in `shells`, "likes zsh" in `terminal`): forget the less used one;
- **replace**: two entries of one room about the same subject that disagree (`Uses PostgreSQL 15` and, later,
  `Uses PostgreSQL 16`; `login shell is bash` and `login shell is fish`): forget the older;
- **remove**: an entry neither confirmed nor recalled since `memory.stale_days` (365) and dated before that.
Each is a review proposal whose acceptance is one forget: one change, one commit, one undo.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta

from palace.memory.document import Document, Entry
from palace.memory.halls import MemoryPath
from palace.memory.keys import words_of
from palace.memory.reuse import Uses
from palace.record import record

TIDY_SESSION = "tidy"  # the session a tidy proposal is filed under in review.md
KINDS = ("merge", "replace", "remove")
STALE_DAYS = 365
_SAME = 0.75  # share of their words two entries must have in common to say the same thing
_SUBJECT = 0.5  # ... to be about the same subject (then what differs may contradict)
_FILLER = frozenset(
    "a an the user user's users uses use used is are was to of in on at for with and or it its their they "
    "prefers prefer likes like loves love wants want always usually".split()
)
_VALUE = re.compile(r"\d+(?:\.\d+)*")
_TOOLS = frozenset(
    "bash zsh fish nushell vim neovim emacs helix zed vscode mysql postgresql postgres sqlite mongodb redis "
    "npm pnpm yarn bun pip poetry uv conda docker podman tabs spaces light dark".split()
)


@record(frozen=True)
class TidyItem:
    """One proposal: forget `entry` (at `path`) because of `reason` (naming the entry it leaves, if any)."""

    kind: str
    path: MemoryPath
    content: str
    reason: str


def _terms(entry: Entry) -> frozenset[str]:
    return frozenset(w.rstrip("s") if len(w) > 3 else w for w in words_of(entry.content) if w not in _FILLER)


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def _scope(entry: Entry) -> str | None:
    return entry.path.wing_key if entry.path is not None else None


def _value_words(entry: Entry) -> frozenset[str]:
    """The words of an entry that are values: numbers and versions, and tools of a kind."""
    return frozenset(_VALUE.findall(entry.content)) | (words_of(entry.content) & _TOOLS)


def _disagree(a: Entry, b: Entry, terms_a: frozenset[str], terms_b: frozenset[str]) -> bool:
    """Do two entries say the same thing but for a value (`PostgreSQL 15` / `16`, `bash` / `fish`)? Everything
    else they say must agree, but for one word at most: two services that differ by name are two subjects."""
    values_a, values_b = _value_words(a), _value_words(b)
    if not values_a or not values_b or values_a == values_b:
        return False
    rest = (terms_a ^ terms_b) - values_a - values_b
    return len(rest) <= 1


def tidy_items(
    doc: Document, uses: Callable[[Entry], Uses], today: str, stale_days: int = STALE_DAYS
) -> list[TidyItem]:
    """The tidy proposals for a document, merges and replacements first."""
    entries = [e for e in doc.entries if e.path is not None]
    terms = [_terms(e) for e in entries]
    items: list[TidyItem] = []
    taken: set[int] = set()  # an entry is proposed once
    for i, j in _candidates(terms):
        a, b = entries[i], entries[j]
        if i in taken or j in taken or _scope(a) != _scope(b):
            continue
        share = _overlap(terms[i], terms[j])
        differ = _disagree(a, b, terms[i], terms[j])
        if a.path == b.path and share >= _SUBJECT and differ:
            old, new = sorted(((i, a), (j, b)), key=lambda pair: (pair[1].sort_date, pair[1].start))
            items.append(_item("replace", old[1], f'contradicted by the newer "{new[1].content}" ({new[1].path})'))
            taken.add(old[0])
        elif share >= _SAME and not differ and _value_words(a) == _value_words(b):
            keep, drop = sorted(((i, a), (j, b)), key=lambda p: (-uses(p[1]).total, p[1].sort_date == "", p[1].start))
            items.append(_item("merge", drop[1], f'says what "{keep[1].content}" says ({keep[1].path})'))
            taken.add(drop[0])
    items += _stale(entries, uses, today, stale_days, {id(entries[n]) for n in taken})
    return items


_COMMON = 40  # a word this many entries share does not make two of them candidates (it says too little)


def _candidates(terms: list[frozenset[str]]) -> list[tuple[int, int]]:
    """The pairs of entries worth comparing, in order: those that share a word few entries have (so that a
    tidy of thousands of entries compares near each entry's neighbours, not every pair)."""
    holders: dict[str, list[int]] = {}
    for n, words in enumerate(terms):
        for word in words:
            holders.setdefault(word, []).append(n)
    pairs: set[tuple[int, int]] = set()
    for members in holders.values():
        if len(members) <= _COMMON:
            pairs.update((a, b) for k, a in enumerate(members) for b in members[k + 1 :])
    return sorted(pairs)


def _stale(
    entries: list[Entry], uses: Callable[[Entry], Uses], today: str, stale_days: int, taken: set[int]
) -> list[TidyItem]:
    cutoff = (date.fromisoformat(today) - timedelta(days=stale_days)).isoformat()
    found = []
    for entry in entries:
        used = uses(entry)
        last = max(entry.date or "", used.last)
        if id(entry) not in taken and entry.date and entry.until is None and last < cutoff:  # an end: it expires
            reason = f"neither confirmed nor recalled since {last} (over {stale_days} days)"
            found.append(_item("remove", entry, reason))
    return found


def _item(kind: str, entry: Entry, reason: str) -> TidyItem:
    assert entry.path is not None
    return TidyItem(kind, entry.path, entry.content, " ".join(reason.replace(", ", "; ").split()))
