"""What a change's outcome says it did: the entries it removed (for superseded.md) and its events (for the
session archive)."""

from __future__ import annotations

from palace.memory import ops
from palace.memory.expiry import Expired
from palace.memory.ops import ChangeResult
from palace.memory.superseded import Removed


def results_of(result: object) -> list[ChangeResult]:
    """The ChangeResults of an outcome (one, or a list)."""
    return [r for r in (result if isinstance(result, list) else [result]) if isinstance(r, ChangeResult)]


def events_of(result: object) -> list[dict[str, str]]:
    """What a change did to which entries, as the session archive lists it: (path, content, action, by)."""
    events = [
        {"path": str(r.path), "content": r.content, "action": r.action, "by": r.by}
        for r in results_of(result)
        if r.action != "unchanged"
    ]
    for removed in removed_by(result):
        if removed.reason in ("cleared", "expired"):
            events.append(
                {"path": str(removed.path), "content": removed.content, "action": removed.reason, "by": removed.by}
            )
    return events


def removed_by(result: object) -> list[Removed]:
    """The entries an operation's result says it removed from memories.md (forgets, replaces, a clear)."""
    results = result if isinstance(result, list) else [result]
    removed: list[Removed] = []
    for item in results:
        if isinstance(item, ChangeResult) and item.action == "forgotten":
            removed.append(Removed(item.path, item.content, item.old_date, "forgotten", item.by, secret=item.secret))
        elif isinstance(item, ChangeResult) and item.action == "replaced" and item.replaced is not None:
            removed.append(Removed(item.path, item.replaced, item.old_date, "replaced", item.by, item.content))
        elif isinstance(item, Removed):
            removed.append(item)
        elif isinstance(item, Expired):
            removed += [Removed(e.path, e.content, e.date, "expired", "expiry") for e in item.entries if e.path]
        elif isinstance(item, ops.Cleared):
            removed += [Removed(e.path, e.content, e.date, "cleared") for e in item.entries if e.path is not None]
    return removed
