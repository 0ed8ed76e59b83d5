"""`palace memory tidy [--model]`: proposals for review, never a write to memories.md (memory/tidy.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from palace.errors import PalaceError
from palace.memory.halls import parse_path
from palace.memory.reuse import Uses, key_of
from palace.memory.review import Proposal, ReviewQueue
from palace.memory.tidy import KINDS, TIDY_SESSION, TidyItem, tidy_items

if TYPE_CHECKING:
    from palace.app import App
    from palace.memory.document import Document, Entry
    from palace.ui.console import Console

MODEL_ENTRIES = 400  # entries sent to the model at most (the rest are still tidied without it)


def tidy_command(app: App, console: Console, *, use_model: bool, stale_days: int | None) -> int:
    """Find the proposals, add the new ones to review.md in one write, and say what waits."""
    store = app.store
    doc = store.document()
    counts = store.reuse.load()

    def uses(entry: Entry) -> Uses:
        return counts.get(key_of(entry.path or "", entry.content), Uses())

    today = store.today().isoformat()
    items = tidy_items(doc, uses, today, stale_days or app.settings.stale_days)
    if use_model:
        items += _model_items(app, doc, items)
    queue = ReviewQueue(store.home)
    waiting = queue.waiting()
    fresh = []
    for item in items:
        proposal = Proposal(item.path, item.content, TIDY_SESSION, item.kind, reason=item.reason)
        if waiting.find(proposal) is None and not waiting.was_rejected(proposal):
            waiting.add(proposal)
            fresh.append(proposal)
    if fresh:
        with store.lock():
            fresh = queue.propose(fresh, today)
        app.history.commit_paths([queue.file], f"memory: {len(fresh)} tidy proposal(s) for review")
    for proposal in fresh:
        console.print(f"? Proposed for review ({proposal.confidence}): forget {proposal.path}: {proposal.content}")
    already = len(items) - len(fresh)
    said = f"{len(fresh)} new tidy proposal(s)" + (f", {already} already waiting or rejected" if already else "")
    console.print(f"{said}; nothing is written until you accept: `palace memory review` (accept N, reject N)")
    return 0


def _model_items(app: App, doc: Document, found: list[TidyItem]) -> list[TidyItem]:
    """What the configured model proposes besides (each checked against the file; the unusable dropped)."""
    from palace.model.answers import json_values
    from palace.model.prompts import load_prompt

    entries = [e for e in doc.entries if e.path is not None][:MODEL_ENTRIES]
    listing = "\n".join(f"{e.path} | {e.date or '-'} | {e.content}" for e in entries)
    prompt = load_prompt("tidy.md", app.settings.home).replace("{{entries}}", listing)
    try:
        reply = app.client.complete([{"role": "user", "content": prompt}], json_mode=True)
        answer = next((v for v in json_values(reply.content) if isinstance(v, dict)), {})
    except (PalaceError, ValueError) as exc:
        app.warn(f"the model's tidy proposals could not be had ({exc}); palace's own are proposed")
        return []
    known = {(str(e.path).casefold(), e.key): e for e in entries}
    have = {(str(i.path).casefold(), i.content.casefold()) for i in found}
    items = []
    for raw in answer.get("proposals", []) if isinstance(answer, dict) else []:
        item = _checked(raw, known)
        if item is not None and (str(item.path).casefold(), item.content.casefold()) not in have:
            items.append(item)
    return items


def _checked(raw: object, known: dict[tuple[str, str], Entry]) -> TidyItem | None:
    """A model's proposal when it names an entry the file has and a kind tidy knows; else None."""
    if not isinstance(raw, dict) or raw.get("kind") not in KINDS:
        return None
    try:
        path = parse_path(str(raw.get("path")))
    except PalaceError:
        return None
    from palace.memory.keys import normalise

    entry = known.get((str(path).casefold(), normalise(str(raw.get("content")))))
    if entry is None or entry.path is None:
        return None
    reason = " ".join(str(raw.get("reason") or "proposed by the model").replace(", ", "; ").split())[:200]
    return TidyItem(str(raw["kind"]), entry.path, entry.content, f"{reason} (the model)")
