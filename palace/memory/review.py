"""review.md: what extraction proposed but did not save, waiting for the user's yes or no.

Extraction saves what it is sure of (a confirmation of an entry, or an item it rates high) and proposes the
rest here, each with the session it came from and its confidence. The user accepts, edits or rejects them
(`palace memory review`, `/review`); a medium item proposed again by another session is promoted. A rejection
is remembered (in .index/, per session), so the same session never proposes it again. A fact that reads as an
instruction to the model carries a flag in its note; nothing that looks like a secret is ever written here.
The proposals of an import (hundreds at once) go in with one edit (insert_many).
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
from collections import Counter
from pathlib import Path

from palace.errors import PalaceError
from palace.memory.document import Document, Kind, SectionSig, entry_line
from palace.memory.files import atomic_write
from palace.memory.halls import Hall, MemoryPath
from palace.memory.keys import normalise
from palace.memory.ops import ChangeResult, last_text_line
from palace.memory.secrets import find_secret
from palace.memory.sidefile import SEPARATOR, Item, SideFile
from palace.memory.store import MemoryStore
from palace.memory.tidy import TIDY_SESSION
from palace.paths import PalacePaths
from palace.record import field, record

HEADER = """\
# Memories to review

What extraction proposed from your sessions but did not save on its own. `palace memory review` (or /review
in the REPL) accepts, edits or rejects each one; accepted ones move to memories.md.
"""
CONFIDENCES = ("high", "medium", "low")
INSTRUCTION_FLAG = "⚠ reads as an instruction to the model"

# What a fact written for the model to obey looks like (a planted CLAUDE.md bullet, a transcript that quotes
# one): proposed all the same, flagged, and never accepted by `review accept all`. Each is (what it does, how).
_VERB = r"(?:ignore|disregard|forget|override|bypass)"
_SECRET_FILES = (
    r"(?:~/\.ssh|\.ssh/|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|~/\.aws|\.aws/credentials|\.netrc|\.env\b"
    r"|/etc/(?:passwd|shadow)|\bcredentials\b|\bprivate keys?\b|\bapi keys?\b|\btokens?\b|\bsecrets?\b"
    r"|\bpasswords?\b|\bcookies\b|\bkeychain\b)"
)
_INSTRUCTIONS = [
    (
        "overrides earlier instructions",
        rf"\b{_VERB}(?:\s+(?:all|any|every|the|your|my|these|those|of))*\s+(?:previous|prior|above|earlier|preceding"
        r"|original|former|system|safety|developer)\b"
        rf"|\b{_VERB}\b(?:\s+\w+){{0,3}}?\s+(?:instructions|system\s+prompt|guardrails)\b"
        r"|\b(?:reveal|print|repeat|leak)\b[^.\n]{0,20}\b(?:your|the)\s+(?:system\s+prompt|hidden\s+prompt|instructions)\b"
        r"|\bnew\s+instructions\s*:",
    ),
    (
        "tells the model who it is",
        r"\byou\s+are\s+now\b|\bfrom\s+now\s+on,?\s+you\s+(?:are|will|must)\b|\bpretend\s+(?:to\s+be|you\s+are)\b"
        r"|</?(?:system|instructions?)>|\[/?INST\]|^\s*(?:system|assistant)\s*:",
    ),
    (
        "pipes a download into a shell",
        r"\b(?:curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^|\n]*\|\s*(?:sudo\s+)?"
        r"(?:(?:ba|z|k|c|tc|da|fi)?sh|python[0-9.]*(?!\s+-m\s+json\.tool)|perl|ruby|node|iex|powershell|pwsh)\b"
        r"|\b(?:ba|z)?sh\s+(?:-c\s+)?[\"']?(?:\$\(|<\()\s*(?:curl|wget)\b",
    ),
    (
        "acts without asking the user",
        r"\bwithout\s+(?:asking|confirmation|confirming|prompting|approval|permission|checking\s+with)\b"
        r"|\b(?:do\s+not|don't|never|no\s+need\s+to)\s+(?:ask|prompt|check\s+with|wait\s+for)\b[^.\n]{0,30}?"
        r"\b(?:permission|confirmation|approval|the\s+user|me)\b|--dangerously-skip-permissions|\bauto-?approve\b",
    ),
    (
        "sends private files or keys elsewhere",
        rf"\b(?:send|upload|post|exfiltrate|copy|forward|transmit|e-?mail|leak|share)\b[^.\n]{{0,60}}?{_SECRET_FILES}"
        r"[^.\n]{0,80}?\b(?:to|into)\b"
        r"|\b(?:curl|wget|nc|scp)\b[^\n]*(?:-d|--data(?:-binary)?|-F|--form|-T|--upload-file|--post-file)\s*[\"']?@?\S*"
        r"(?:\.ssh|id_rsa|\.aws|\.env|passwd|credentials)",
    ),
    (
        "hides something from the user",
        r"\b(?:do\s+not|don't|never)\s+(?:tell|inform|mention|show|reveal)\b[^.\n]{0,20}?\b(?:the\s+user|anyone)\b"
        r"|\b(?:hide|conceal)\b[^.\n]{0,30}?\bfrom\s+the\s+user\b|\b(?:secretly|covertly)\b|\bwithout\s+telling\b",
    ),
]
_INSTRUCTION_RE = [(what, re.compile(pattern, re.I | re.M)) for what, pattern in _INSTRUCTIONS]


def instruction_flag(text: str) -> str:
    """The flag for a fact that reads as an instruction to the model, naming what it does; "" for one that
    does not."""
    for what, pattern in _INSTRUCTION_RE:
        if pattern.search(text):
            return f"{INSTRUCTION_FLAG} ({what})"
    return ""


@record(frozen=True)
class Proposal:
    """A fact extraction proposed: where it would go, what it says, from which session, how sure it was."""

    path: MemoryPath
    content: str
    session: str
    confidence: str
    day: str = ""
    item: Item | None = None  # where it stands in review.md, once it is there
    flag: str = ""  # "⚠ reads as an instruction to the model (...)", or nothing
    reason: str = ""  # a tidy proposal's why (`palace memory tidy`): accepting it forgets the entry

    @property
    def tidy(self) -> bool:
        """A proposal to forget an entry (merge, replace, remove), not to save one."""
        return self.session == TIDY_SESSION

    @property
    def key(self) -> tuple[str | None, str, str, str]:
        return (self.path.wing_key, self.path.hall.value, self.path.room, normalise(self.content))

    @property
    def note(self) -> str:
        extra = self.reason if self.tidy else self.flag
        return f"session {self.session}, {self.confidence}" + (f", {extra}" if extra else "")

    @property
    def warning(self) -> str:
        """The flag to show: the one written with it, else one found now (a proposal from before flags, or
        written into review.md by hand). A tidy proposal saves nothing: it has none."""
        return "" if self.tidy else self.flag or instruction_flag(self.content)

    @property
    def secret(self) -> str | None:
        """The kind of secret the fact or its path looks like it holds (None: nothing found)."""
        return find_secret(self.content) or find_secret(str(self.path))


def _proposal(item: Item) -> Proposal:
    session, _, rest = item.note.removeprefix("session ").partition(", ")
    confidence, _, flag = rest.partition(", ")
    session, flag = session.strip(), flag.strip()
    if session == TIDY_SESSION:
        return Proposal(item.path, item.content, session, confidence.strip(), item.day, item, reason=flag)
    return Proposal(item.path, item.content, session, confidence.strip() or "medium", item.day, item, flag)


@record
class Waiting:
    """review.md and the rejections read once, indexed by key: for routing many candidates in one pass."""

    queued: dict[tuple[str | None, str, str, str], Proposal] = field(default_factory=dict)
    rejected: dict[str, set[tuple[str, ...]]] = field(default_factory=dict)

    def find(self, proposal: Proposal) -> Proposal | None:
        """The proposal of the same fact already waiting (from any session), if there is one."""
        return self.queued.get(proposal.key)

    def was_rejected(self, proposal: Proposal) -> bool:
        return tuple(map(str, proposal.key)) in self.rejected.get(proposal.session, set())

    def add(self, proposal: Proposal) -> None:
        """A proposal about to be written: a second candidate with its key is not proposed again."""
        self.queued.setdefault(proposal.key, proposal)


class ReviewQueue:
    def __init__(self, home: Path) -> None:
        paths = PalacePaths(home)
        self.home = home
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

    def waiting(self) -> Waiting:
        """What waits and what was rejected, read once (PalaceError when review.md cannot be read)."""
        queued: dict[tuple[str | None, str, str, str], Proposal] = {}
        for proposal in self.pending():
            queued.setdefault(proposal.key, proposal)
        rejected = {
            session: {tuple(map(str, key)) for key in keys if isinstance(key, list)}
            for session, keys in self._rejected().items()
            if isinstance(keys, list)
        }
        return Waiting(queued, rejected)

    def propose(self, proposals: list[Proposal], today: str) -> list[Proposal]:
        """Add proposals in one write (the caller holds the palace lock); what was written. One that looks like
        a secret is never written (the callers drop and count those before)."""
        kept = [p for p in proposals if p.secret is None]
        if not kept:
            return []
        items = [(p.path, " ".join(f"{p.content}{SEPARATOR}{p.note}".split())) for p in kept]
        data = self.side.read_bytes()
        new = insert_many(Document.parse(data if data is not None else self.side.header.encode("utf-8")), items, today)
        if new is None:  # a hand-edited review.md the batch cannot place into safely: one checked edit each
            self.side.add([(p.path, p.content, today, p.note) for p in kept])
        else:
            atomic_write(self.side.file, new)
        return kept

    def take(self, proposals: list[Proposal]) -> None:
        """Remove proposals that were accepted (or rejected) from the file (the caller holds the lock)."""
        self.side.remove([p.item for p in proposals if p.item is not None])

    def reject(self, proposals: list[Proposal], store: MemoryStore) -> None:
        """Remove proposals and remember that their sessions may not propose them again: one change, undoable."""
        if not proposals:
            return
        what = f"{proposals[0].path}" if len(proposals) == 1 else f"{len(proposals)} proposals"
        rejected_name = self.rejected_file.relative_to(self.home).as_posix()
        writes = [
            store.side_write(rejected_name, lambda: self._remember_rejected(proposals)),
            store.side_write(self.file.name, lambda: self.take(proposals)),
        ]
        store.change_sides(f"memory: review reject {what}", writes)

    def _remember_rejected(self, proposals: list[Proposal]) -> None:
        rejected = self._rejected()
        for proposal in proposals:
            rejected.setdefault(proposal.session, []).append(list(map(str, proposal.key)))
        with contextlib.suppress(OSError):
            self.rejected_file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            atomic_write(self.rejected_file, json.dumps(rejected).encode("utf-8"))

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
        them out of review (each one change: undo puts it back in review); a proposal that cannot be saved
        stays, and its error is raised after the rest."""
        results: list[ChangeResult] = []
        failed: PalaceError | None = None
        for n, proposal in enumerate(proposals):
            content = (texts or {}).get(n, proposal.content)
            taken = [store.side_write(self.file.name, functools.partial(self.take, [proposal]))]
            try:
                if proposal.tidy:  # merge, replace or remove: one forget, one change, one undo
                    results.append(store.forget(str(proposal.path), proposal.content, by="review", also=taken))
                else:
                    results.append(store.save(str(proposal.path), content, by="review", also=taken))
            except PalaceError as exc:
                failed = failed or exc
                continue
        if failed is not None and not results:
            raise failed
        return results


# ---------------------------------------------------------------------- many proposals in one edit
# ops.insert places one entry and checks the result by parsing it; review.md gets hundreds at once from an
# import, so they are placed together in one pass (the same places ops.insert would choose, in the same order)
# and the result is checked once: its sections and entries must be the old ones plus the new.

_Edit = tuple[int, int, list[str]]  # (the line before which they go, what they belong to, the lines)
_EntrySig = tuple[str | None, Hall | None, str | None, str]


@record
class _Tree:
    """What has to be created, in the order first named: rooms under halls under wings."""

    rooms: dict[tuple[str | None, str], dict[str, tuple[MemoryPath, list[str]]]] = field(default_factory=dict)
    halls: dict[str | None, dict[str, MemoryPath]] = field(default_factory=dict)
    top: list[tuple[str | None, str]] = field(default_factory=list)  # (wing, its first hall), in order named
    sections: list[SectionSig] = field(default_factory=list)

    def room_lines(self, hall: tuple[str | None, str]) -> list[str]:
        """A blank line, the room heading and its entries, for each new room of the hall."""
        lines: list[str] = []
        for path, entries in self.rooms[hall].values():
            level = 4 if path.wing else 3
            lines += ["", f"{'#' * level} {path.room}", *entries]
            self.sections.append((Kind.ROOM, level, path.wing_key, path.hall, path.room))
        return lines

    def hall_lines(self, wing: str | None, only: str | None = None) -> list[str]:
        """Each new hall of the wing (or the one wing-less hall `only`) with its rooms."""
        lines: list[str] = []
        for hall, path in self.halls[wing].items():
            if only is not None and hall != only:
                continue
            head = f"### {path.hall.value}" if path.wing else f"## {path.hall.value}"
            lines += ["", head, *self.room_lines((wing, hall))]
            self.sections.append(
                (Kind.WING_HALL, 3, wing, path.hall, None) if path.wing else (Kind.HALL, 2, None, path.hall, None)
            )
        return lines

    def new_hall(self, wing: str | None, hall: str, path: MemoryPath) -> None:
        """A hall to create; the first new hall of a wing, or a wing-less one, is a new top-level part."""
        if wing not in self.halls or wing is None:
            self.top.append((wing, hall))
        self.halls.setdefault(wing, {})[hall] = path


def _placed(doc: Document, items: list[tuple[MemoryPath, str]], day: str) -> tuple[list[_Edit], _Tree]:
    """Where each item's line goes: after its room's last entry, or in a room, hall or wing to create."""
    groups: dict[tuple[str | None, str, str], tuple[MemoryPath, list[str]]] = {}
    for path, text in items:
        groups.setdefault((path.wing_key, path.hall.value, path.room), (path, []))[1].append(entry_line(text, day))
    edits: list[_Edit] = []
    tree = _Tree()
    for path, lines in groups.values():
        entries = doc.room_entries(path)
        rooms = doc.room_sections(path) if not entries else []
        if entries:
            edits.append((entries[-1].end, 0, lines))
        elif rooms:
            edits.append((last_text_line(doc, rooms[-1].heading.line, rooms[-1].end), 0, lines))
        else:
            tree.rooms.setdefault((path.wing_key, path.hall.value), {})[path.room] = (path, lines)
    for wing, hall in list(tree.rooms):
        path = next(iter(tree.rooms[(wing, hall)].values()))[0]
        halls = doc.hall_sections(path.wing, path.hall)
        if halls:
            at = last_text_line(doc, halls[-1].heading.line, halls[-1].end)
            edits.append((at, 1, tree.room_lines((wing, hall))))
        else:
            tree.new_hall(wing, hall, path)
    return edits, tree


def _wings(doc: Document, tree: _Tree, edits: list[_Edit]) -> list[str]:
    """The new halls of existing wings as edits; the lines of what goes at the end (new wings, new wing-less
    halls), in the order they were first named."""
    tail: list[str] = []
    for wing, hall in tree.top:
        path = tree.halls[wing][hall]
        if path.wing is None:
            tail += tree.hall_lines(None, hall)
            continue
        sections = doc.wing_sections(path.wing)
        if sections:
            at = last_text_line(doc, sections[-1].heading.line, sections[-1].end)
            edits.append((at, 2, tree.hall_lines(wing)))
        else:
            tail += ["", f"## {path.wing}", *tree.hall_lines(wing)]
            tree.sections.append((Kind.WING, 2, wing, None, None))
    return tail


def _entry_sig(path: MemoryPath | None, content: str) -> _EntrySig:
    return (path.wing_key, path.hall, path.room, content) if path is not None else (None, None, None, content)


def insert_many(doc: Document, items: list[tuple[MemoryPath, str]], day: str) -> bytes | None:
    """doc's bytes with an entry for each (path, text) placed as ops.insert would place them one after the
    other; None when the result does not parse as the old structure plus exactly these (then insert each)."""
    edits, tree = _placed(doc, items, day)
    tail = _wings(doc, tree, edits)
    edits.sort(key=lambda edit: (edit[0], edit[1]))
    lines: list[str] = []
    done = 0
    for at, _, new in edits:
        lines += doc.lines[done:at]
        lines += new
        done = at
    lines += doc.lines[done:]
    if tail:
        tail = tail[1:] if not lines or not lines[-1].strip() else tail  # a blank line before, unless there is one
    data = doc.splice(0, len(doc.lines), lines + tail)
    new_doc = Document.parse(data)
    added = Counter(_entry_sig(path, text) for path, text in items)
    entries = Counter(_entry_sig(e.path, e.content) for e in new_doc.entries)
    if entries != Counter(_entry_sig(e.path, e.content) for e in doc.entries) + added:
        return None
    if Counter(s.sig for s in new_doc.sections) != Counter(s.sig for s in doc.sections) + Counter(tree.sections):
        return None
    return data
