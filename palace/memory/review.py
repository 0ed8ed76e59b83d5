"""review.md: what extraction proposed but did not save, waiting for the user's yes or no.

Extraction saves what it is sure of (a confirmation of an entry, or an item it rates high) and proposes the
rest here, each with the session it came from and its confidence. The user accepts, edits or rejects them
(`palace memory review`, `/review`); a medium item proposed again by another session is promoted. A rejection
is remembered (in .index/, per session), so the same session never proposes it again.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from pathlib import Path

from palace.errors import PalaceError
from palace.memory.files import atomic_write
from palace.memory.halls import MemoryPath
from palace.memory.keys import normalise
from palace.memory.ops import ChangeResult
from palace.memory.sidefile import Item, SideFile
from palace.memory.store import MemoryStore
from palace.paths import PalacePaths

HEADER = """\
# Memories to review

What extraction proposed from your sessions but did not save on its own. `palace memory review` (or /review
in the REPL) accepts, edits or rejects each one; accepted ones move to memories.md.
"""
CONFIDENCES = ("high", "medium", "low")


@dataclass(frozen=True)
class Proposal:
    """A fact extraction proposed: where it would go, what it says, from which session, how sure it was."""

    path: MemoryPath
    content: str
    session: str
    confidence: str
    day: str = ""
    item: Item | None = None  # where it stands in review.md, once it is there

    @property
    def key(self) -> tuple[str | None, str, str, str]:
        return (self.path.wing_key, self.path.hall.value, self.path.room, normalise(self.content))

    @property
    def note(self) -> str:
        return f"session {self.session}, {self.confidence}"


def _proposal(item: Item) -> Proposal:
    session, _, confidence = item.note.removeprefix("session ").partition(", ")
    return Proposal(item.path, item.content, session.strip(), confidence.strip() or "medium", item.day, item)


class ReviewQueue:
    def __init__(self, home: Path) -> None:
        paths = PalacePaths(home)
        self.side = SideFile(paths.review, HEADER)
        self.rejected_file = paths.index / "review-rejected.json"

    @property
    def file(self) -> Path:
        return self.side.file

    def pending(self) -> list[Proposal]:
        """What waits for review, in the file's order."""
        return [_proposal(item) for item in self.side.items()]

    def queued(self, proposal: Proposal) -> Proposal | None:
        """The proposal of the same fact already waiting (from any session), if there is one."""
        return next((p for p in self.pending() if p.key == proposal.key), None)

    def propose(self, proposals: list[Proposal], today: str) -> None:
        """Add proposals (the caller holds the palace lock)."""
        self.side.add([(p.path, p.content, today, p.note) for p in proposals])

    def take(self, proposals: list[Proposal]) -> None:
        """Remove proposals that were accepted (or rejected) from the file (the caller holds the lock)."""
        self.side.remove([p.item for p in proposals if p.item is not None])

    def reject(self, proposals: list[Proposal]) -> None:
        """Remove proposals and remember that their sessions may not propose them again."""
        rejected = self._rejected()
        for proposal in proposals:
            rejected.setdefault(proposal.session, []).append(list(map(str, proposal.key)))
        with contextlib.suppress(OSError):
            self.rejected_file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            atomic_write(self.rejected_file, json.dumps(rejected).encode("utf-8"))
        self.take(proposals)

    def was_rejected(self, proposal: Proposal) -> bool:
        return list(map(str, proposal.key)) in self._rejected().get(proposal.session, [])

    def _rejected(self) -> dict[str, list[list[str]]]:
        try:
            data = json.loads(self.rejected_file.read_bytes())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def accept(
        self, store: MemoryStore, proposals: list[Proposal], texts: dict[int, str] | None = None
    ) -> list[ChangeResult]:
        """Save proposals to memories.md (with the user's wording where `texts` gives one, by index) and take
        them out of review; a proposal that cannot be saved stays, and its error is raised after the rest."""
        results: list[ChangeResult] = []
        failed: PalaceError | None = None
        for n, proposal in enumerate(proposals):
            content = (texts or {}).get(n, proposal.content)
            try:
                results.append(store.save(str(proposal.path), content, by="review"))
            except PalaceError as exc:
                failed = failed or exc
                continue
            with store.lock():
                self.take([proposal])
        if failed is not None and not results:
            raise failed
        return results
