"""What a change's outcome says it did: the entries it removed (for superseded.md) and its events (for the
session archive)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from palace.memory import ops
from palace.memory.ops import ChangeResult

if TYPE_CHECKING:
    from palace.memory.superseded import Removed

# superseded.md's module (with the side file and its secret checks) and expiry's are imported only by a change that
# removes something: a save that only adds an entry needs neither (~3 ms of every `palace memory save`).
_SUPERSEDED, _EXPIRY = "palace.memory.superseded", "palace.memory.expiry"


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
    if not any(_removes(item) for item in results):
        return []
    from palace.memory.expiry import Expired
    from palace.memory.superseded import Removed

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


def _removes(item: object) -> bool:
    """Whether item can name a removed entry (a Removed or an Expired exists only once its module is loaded)."""
    if isinstance(item, ChangeResult):
        return item.action == "forgotten" or (item.action == "replaced" and item.replaced is not None)
    return (
        isinstance(item, ops.Cleared) or _instance(item, _SUPERSEDED, "Removed") or _instance(item, _EXPIRY, "Expired")
    )


def _instance(item: object, module: str, name: str) -> bool:
    loaded = sys.modules.get(module)
    return loaded is not None and isinstance(item, getattr(loaded, name))
