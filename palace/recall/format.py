"""Recall results as compact text for the model: the answer-bearing passages of the best sources, packed.

Each source's excerpts (its best documents and the turns around them, see passages.py) are worth their
value times the source's weight, (score / best score) ** SOURCE_POWER: the best session's second passage
usually beats a distant fifth session's best one. The most valuable excerpts are taken until the bytes
run out, each one a source has had lowering what its next is worth (SOURCE_DECAY) and a turn shown for its
neighbour worth less than a matched one (NEIGHBOUR_SHARE), then shown per source (best first) in conversation
order, consecutive turns as one passage, each source labelled with its wing (an entry by its own):

    session 2023-05-08-1a2b3c4d · wing alpha
      - [2023-05-08] user: Do you have any pets at home?
        assistant: Yep, two turtles, Shelly and Tank. They sunbathe on a rock all day.
    memories.md
      - memory Decisions/database [2026-11-02] · no wing: Uses PostgreSQL
    superseded.md (replaced or forgotten: no longer true)
      - superseded Decisions/database [2026-10-01] · no wing: Uses MySQL (superseded 2026-11-02: replaced ...)
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from typing import NamedTuple

from palace.memory.secrets import redact
from palace.paths import MEMORIES, SUPERSEDED
from palace.recall.passages import Excerpt
from palace.recall.rank import RecallHit, neg_date
from palace.recall.schema import DOC_BITS
from palace.recall.scope import Scope, wing_label
from palace.record import record

# Below 1, a lower-ranked session's best passage is worth a little more against the top one's fourth: the
# second to fifth sessions often hold the answer when the first one only shares the question's words.
SOURCE_POWER = 0.9
# Each excerpt a source has had makes its next worth this much less: the top session's third and fourth turns
# seldom hold an answer its first two do not, and the bytes show another session's best-matching message.
SOURCE_DECAY = 0.8
# A turn offered for its neighbour (side != 0), when packing, against a message matching the query itself: the
# answer is more often another matched message (of this or another session) than the turn around a match; but
# not the turn right after one that asks something ("How long is the ride?"): that one is the answer.
NEIGHBOUR_SHARE = 0.5
MIN_CUT = 100  # an excerpt is shortened to fit only if at least this many bytes are left for it
_PASSAGE = "  - "
_CONTINUED = "    "
_ENTRY_FILES = (MEMORIES, SUPERSEDED)  # sources whose hits are entries, one room each, not sessions


def _utf8_len(text: str) -> int:
    return len(text.encode("utf-8", "replace"))


def _cut_utf8(text: str, max_bytes: int, ellipsis: str = "…") -> str:
    """Text shortened to at most max_bytes UTF-8 bytes, with an ellipsis when shortened."""
    if _utf8_len(text) <= max_bytes:
        return text
    room = max_bytes - _utf8_len(ellipsis)
    if room <= 0:
        return ""
    cut = text.encode("utf-8", "replace")[:room].decode("utf-8", "ignore")
    return cut.rstrip() + ellipsis


def _cut_start(text: str, max_bytes: int) -> str:
    """Text shortened from its start (the end of a turn shown before a match is what leads to it)."""
    if _utf8_len(text) <= max_bytes:
        return text
    data = text.encode("utf-8", "replace")
    kept = data[len(data) - max(0, max_bytes - 3) :].decode("utf-8", "ignore")
    return "…" + kept.lstrip("…").lstrip()


@record
class _Item:
    order: int  # the hit's place, best first
    hit: RecallHit
    excerpt: Excerpt
    value: float
    text: str = ""  # as shown (one line, cut to fit; the whole answer is redacted once)
    share: float = 1.0  # NEIGHBOUR_SHARE for a neighbour turn that answers no question shown before it


def _label(hit: RecallHit, excerpt: Excerpt) -> str:
    if hit.source in _ENTRY_FILES:
        return f"{excerpt.role} [{hit.date}] · {wing_label(hit.wings)}: "
    return f"[{hit.date}] {excerpt.role}: "


def _header(hit: RecallHit) -> str:
    if hit.source == MEMORIES:
        return "\nmemories.md"
    if hit.source == SUPERSEDED:
        return "\nsuperseded.md (replaced or forgotten: no longer true)"
    source = hit.source
    dated = "" if source.startswith(hit.date) else f"[{hit.date}] "  # the id names the day it began, mostly
    return f"\n{dated}session {source} · {wing_label(hit.wings)}"


def _line(item: _Item) -> str:
    """An excerpt's text on one line; a superseded entry's note turned into its label."""
    line = " ".join(item.excerpt.text.split())
    if item.hit.source != SUPERSEDED:
        return line
    from palace.memory.sidefile import split_note  # the memory parser: only for superseded hits
    from palace.memory.superseded import label

    fact, note = split_note(line)
    return f"{fact} ({label(note)})"


def _excerpts(hit: RecallHit) -> list[Excerpt]:
    if hit.excerpts:
        return hit.excerpts
    role = hit.where.removeprefix("message (").removesuffix(")")  # a hit made by hand: its snippet
    return [Excerpt(0, role, hit.snippet, 1.0, 0)]


def _shares(excerpts: list[Excerpt]) -> list[float]:
    """Each excerpt's share when packing: 1 for a matched one and for the turn after an excerpt that asks."""
    out = []
    for n, excerpt in enumerate(excerpts):
        before = excerpts[n - 1] if n else None
        answers = (
            excerpt.side > 0
            and before is not None
            and before.rowid >> DOC_BITS == excerpt.rowid >> DOC_BITS
            and ("?" in before.text or "？" in before.text)
        )
        out.append(1.0 if excerpt.side == 0 or answers else NEIGHBOUR_SHARE)
    return out


def _items(ordered: list[RecallHit]) -> list[_Item]:
    top = max((h.score for h in ordered), default=0.0)
    items = []
    for order, hit in enumerate(ordered):
        weight = (hit.score / top) ** SOURCE_POWER if top > 0 else 1.0
        shown = sorted(_excerpts(hit), key=lambda e: e.rowid)
        items += [_Item(order, hit, e, weight * e.value, share=f) for e, f in zip(shown, _shares(shown), strict=True)]
    return items


def _worth(item: _Item, taken: int) -> float:
    """What an excerpt adds when its source has had `taken` excerpts: less for each, less for a neighbour."""
    return item.value * item.share * SOURCE_DECAY**taken


def _by_worth(items: list[_Item], taken: dict[str, int]) -> Iterator[_Item]:
    """The items, most worth first, each valued by what its source has had when it comes up (a lazy heap: a
    source's taking only lowers its other items, so one popped at its current worth is the best)."""
    heap = [(-_worth(i, 0), i.order, i.excerpt.rowid, n, 0) for n, i in enumerate(items)]
    heapq.heapify(heap)
    while heap:
        _worth_then, order, rowid, n, seen = heapq.heappop(heap)
        now = taken.get(items[n].hit.source, 0)
        if now != seen:
            heapq.heappush(heap, (-_worth(items[n], now), order, rowid, n, now))
            continue
        yield items[n]


def _pack(items: list[_Item], room: int, line_cap: int) -> list[_Item]:
    """The most valuable excerpts that fit in room bytes (a source's header counted with its first)."""
    chosen: list[_Item] = []
    shown: set[str] = set()
    taken: dict[str, int] = {}
    used = 0
    for item in _by_worth(items, taken):
        head = 0 if item.hit.source in shown else _utf8_len(_header(item.hit)) + 1
        line = _line(item)
        # A passage line's label: the date and role, or (continuing a passage) the role only.
        cost = head + 1 + len(_PASSAGE) + _utf8_len(_label(item.hit, item.excerpt))
        left = min(room - used - cost, line_cap)
        if _utf8_len(line) > left:
            if left < MIN_CUT or item.excerpt.side != 0:
                continue
            line = _cut_start(line, left) if item.excerpt.side < 0 else _cut_utf8(line, left)
        item.text = line
        taken[item.hit.source] = taken.get(item.hit.source, 0) + 1
        chosen.append(item)
        shown.add(item.hit.source)
        used += cost + _utf8_len(line)
    return chosen


def _render(ordered: list[RecallHit], chosen: list[_Item]) -> list[str]:
    """The chosen excerpts per source (best first), in document order, adjacent turns as one passage."""
    by_source: dict[str, list[_Item]] = {}
    for item in sorted(chosen, key=lambda i: (i.order, i.excerpt.rowid)):
        by_source.setdefault(item.hit.source, []).append(item)
    first: dict[str, RecallHit] = {}
    for hit in ordered:
        first.setdefault(hit.source, hit)
    lines: list[str] = []
    for source in sorted(by_source, key=lambda s: min(i.order for i in by_source[s])):
        lines.append(_header(first[source]))
        previous: _Item | None = None
        for item in sorted(by_source[source], key=lambda i: (i.excerpt.rowid, i.order)):
            joined = (
                previous is not None
                and source not in _ENTRY_FILES
                and item.excerpt.rowid == previous.excerpt.rowid + 1
                and item.excerpt.rowid >> DOC_BITS == previous.excerpt.rowid >> DOC_BITS
            )
            if joined:
                lines.append(f"\n{_CONTINUED}{item.excerpt.role}: {item.text}")
            else:
                lines.append(f"\n{_PASSAGE}{_label(item.hit, item.excerpt)}{item.text}")
            previous = item
    return lines


class Formatted(NamedTuple):
    """Recall's answer, and the current memory entries it shows (room, text as stored): their reuse."""

    text: str
    recalled: list[tuple[str, str]]


def format_hits(
    hits: list[RecallHit], *, max_bytes: int = 2048, query: str | None = None, scope: Scope | None = None
) -> str:
    """Compact text for the model (see format_result)."""
    return format_result(hits, max_bytes=max_bytes, query=query, scope=scope).text


def format_result(
    hits: list[RecallHit], *, max_bytes: int = 2048, query: str | None = None, scope: Scope | None = None
) -> Formatted:
    """Compact text for the model: the best passages of the hits grouped by session (best first, newer
    first among equal scores), each dated and labelled with its role and wing, at most max_bytes UTF-8
    bytes, secrets redacted. `query` only words the empty answer, `scope` (the wings searched) the title."""
    searched = f" ({scope.describe()})" if scope is not None else ""
    if not hits:
        what = f' for "{" ".join(query.split())}"' if query and query.strip() else ""
        others = f" (searched: {scope.describe()}; other wings were not)" if scope and scope.wings is not None else ""
        return Formatted(_cut_utf8(redact(f"no matches{what} in archived sessions or memories{others}"), max_bytes), [])
    ordered = sorted(hits, key=lambda h: (-h.score, neg_date(h.date)))
    sources = len({h.source for h in ordered})
    total = len(hits)
    title = f"{total} match{'es' if total != 1 else ''} from {sources} source{'s' if sources != 1 else ''}"
    title += f"{searched}, best first:"
    reserve = _utf8_len(f"\n({total} more not shown)")
    chosen = _pack(_items(ordered), max_bytes - _utf8_len(title) - reserve, max(240, max_bytes // 3))
    lines = [title, *_render(ordered, chosen)]
    hidden = total - len({id(i.hit) for i in chosen})
    if hidden:
        lines.append(f"\n({hidden} more not shown)")
    # Redacted once, whole (the index holds redacted text already: this is the second look, and one call over
    # 2 KB costs a fraction of one per candidate line), then cut: a marker may be longer than what it hides.
    text = _cut_utf8(redact("".join(lines)), max_bytes)
    recalled = [
        (i.excerpt.role.removeprefix("memory "), i.excerpt.entry) for i in chosen if i.excerpt.entry is not None
    ]
    return Formatted(text, recalled)
