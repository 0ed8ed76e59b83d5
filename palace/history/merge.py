"""The three-way merge of memories.md that git runs for `memories.md merge=palace` (`palace merge-driver`).

Each version is read through document.py as a tree: the top of the file, its halls and wings, their halls and
rooms; in each, the user's prose lines and the entries. Sections and entries are matched by what they mean (a
room by its name in its hall, an entry by its content normalised), so that two machines' edits merge by
meaning: entries saved on either side are kept, the same entry saved on both ends once with the later date, a
forget on one side against a refresh on the other keeps the entry (and says so), new sections stay where their
side put them (ours first). The user's prose is merged line by line as git would. Only a true conflict (one
entry, or the same lines of prose, changed both ways) is left to the user: git's conflict markers around just
that, inside its room. The current side's line endings, BOM and missing final newline are kept.
"""

from __future__ import annotations

import contextlib
import sys
from collections import Counter
from pathlib import Path
from typing import TextIO

from palace.history.git import GitTrouble, run_git
from palace.history.tree import (
    Conflict,
    Ident,
    Item,
    Line,
    Node,
    Piece,
    Token,
    has_content,
    ident_of,
    lines_of,
    read_tree,
    texts_of,
    tokens_of,
    write_tree,
)
from palace.history.weave import Op, Side, common_tokens, sync_regions
from palace.memory.document import Document
from palace.memory.lint import section_label as lint_label
from palace.paths import MEMORIES
from palace.record import field, record, replace

NOTES_FILE = "palace-merge-notes"  # inside .git/: what the driver kept and why, for `palace sync` to show
SIMILAR = 0.5  # an entry replaced in place by one sharing this much of its words was rewritten, not forgotten


@record
class MergeResult:
    data: bytes
    conflicts: list[str] = field(default_factory=list)  # where each conflict was left
    notes: list[str] = field(default_factory=list)  # what the merge decided that a user should hear


# --------------------------------------------------------------------------- small helpers


def _similar(old: Item, new: Item) -> bool:
    if not old.words or not new.words:
        return False
    shared = len(old.words & new.words)
    return shared / (len(old.words) + len(new.words) - shared) >= SIMILAR


def _pair_rewrites(base: list[Token], side: list[Token]) -> list[Token]:
    """side with each entry that took the place of a similar base entry (a `replaces`, a reworded fact) given
    that entry's identity: it is the same entry, changed."""
    base_ids = {ident_of(t) for t in base}
    side_ids = {ident_of(t) for t in side}
    renamed: dict[int, Ident] = {}
    for op in Side.of(base, side, ident_of).ops:
        gone = [t for t in base[op.i1 : op.i2] if isinstance(t, Item) and t.ident not in side_ids]
        new = [t for t in side[op.j1 : op.j2] if isinstance(t, Item) and t.ident not in base_ids]
        for old in gone:
            match = next((t for t in new if id(t) not in renamed and _similar(old, t)), None)
            if match is not None:
                renamed[id(match)] = old.ident
    if not renamed:
        return side
    return [replace(t, ident=renamed[id(t)]) if isinstance(t, Item) and id(t) in renamed else t for t in side]


def _undated(item: Item) -> tuple[str, ...]:
    texts = [line.text for line in item.lines]
    if item.raw_date is not None and texts:
        texts[0] = texts[0].replace(f"[{item.raw_date}]", "[]", 1)
    return tuple(texts)


def _dated(item: Item, day: str | None) -> Item:
    """item with its date set to day (when it has a date to set)."""
    if day is None or day == item.date or item.raw_date is None:
        return item
    first = item.lines[0]
    raw = day + item.raw_date[10:] if item.raw_date == item.date or item.raw_date[10:11] == " " else day
    line = Line(first.text.replace(f"[{item.raw_date}]", f"[{raw}]", 1), first.eol)  # an end date is kept
    return replace(item, lines=(line, *item.lines[1:]), date=day, raw_date=raw)


def _same(x: Item, y: Item) -> bool:
    return _undated(x) == _undated(y) and x.date == y.date


def _both_changed(z: Item | None, a: Item, b: Item, where: str) -> Item | Conflict:
    """An entry both sides changed: the text one side changed (or the later one, written alike), the date
    the later; two different texts conflict."""
    day = _merged_date(z, a, b)
    if _undated(a) == _undated(b) or (z is not None and _undated(b) == _undated(z)):
        return _dated(a, day)
    if z is not None and _undated(a) == _undated(z):
        return _dated(b, day)
    if a.key == b.key:  # the same fact written a little differently on each side: the later one
        return _dated(b if (b.date or "") > (a.date or "") else a, day)
    return Conflict(a.lines, b.lines, a.path or where)


def _merged_date(z: Item | None, a: Item, b: Item) -> str | None:
    if a.date == b.date:
        return a.date
    if z is not None and a.date == z.date:
        return b.date
    if z is not None and b.date == z.date:
        return a.date
    return max(a.date or "", b.date or "") or None


def _is_prose(token: Token) -> bool:
    return isinstance(token, Line) and not token.blank


def _combine(ours: list[Token], theirs: list[Token]) -> list[Token]:
    """What both sides put at one place (and do not conflict over): entries and sections from both, ours first,
    before the one side's prose; a blank line once."""
    if not theirs:
        return ours
    if not ours or [ident_of(t) for t in ours] == [ident_of(t) for t in theirs]:
        return ours or theirs
    main, other = (theirs, ours) if any(map(_is_prose, theirs)) and not any(map(_is_prose, ours)) else (ours, theirs)
    if any(isinstance(t, Line) and t.blank for t in main):
        other = [t for t in other if not (isinstance(t, Line) and t.blank)]
    cut = max((n + 1 for n, t in enumerate(main) if not isinstance(t, Line)), default=0)
    return [*main[:cut], *other, *main[cut:]]


# --------------------------------------------------------------------------- merging


class _Weave:
    """The merged content of one section, built in order; every entry and section is placed once."""

    def __init__(self, merge: _Merge, label: str, z: list[Token], a: list[Token], b: list[Token]) -> None:
        self.merge = merge
        self.label = label
        self.versions: dict[Ident, list[Token | None]] = {}
        for number, side in enumerate((z, a, b)):
            for token in side:
                if isinstance(token, Item | Node):
                    self.versions.setdefault(token.ident, [None, None, None])[number] = token
        self.out: list[Piece] = []
        self.placed: set[Ident] = set()

    def place(self, ident: Ident) -> None:
        if ident in self.placed:
            return
        self.placed.add(ident)
        z, a, b = self.versions[ident]
        merged: Piece | None
        if ident[0] == "e":
            entries = [v if isinstance(v, Item) else None for v in (z, a, b)]
            merged = self.merge.entry(entries[0], entries[1], entries[2], self.label)
        else:
            nodes = [v if isinstance(v, Node) else None for v in (z, a, b)]
            merged = self.merge.node(nodes[0], nodes[1], nodes[2])
        if merged is not None:
            self.out.append(merged)

    def put(self, token: Token) -> None:
        if isinstance(token, Line):
            self.out.append(token)
        else:
            self.place(token.ident)

    def base(self, token: Token, ours: Token | None, kept_by_theirs: bool) -> None:
        """A base token at its place: prose stays when both sides kept it; entries and sections are merged."""
        if isinstance(token, Line):
            if ours is not None and kept_by_theirs:
                self.out.append(ours)
        elif ours is not None or kept_by_theirs:
            self.place(token.ident)

    def conflict(self, ours: list[Token], theirs: list[Token]) -> None:
        for token in (*ours, *theirs):
            if not isinstance(token, Line):
                self.placed.add(token.ident)
        self.out.append(Conflict(tuple(lines_of(list(ours))), tuple(lines_of(list(theirs))), self.label))

    def finish(self) -> list[Piece]:
        for ident in self.versions:  # never reached in practice; no entry or section may be lost
            self.place(ident)
        return self.out


class _Merge:
    """A three-way merge of two documents against their base; notes what a user should hear."""

    def __init__(self) -> None:
        self.notes: list[str] = []

    def node(self, z: Node | None, a: Node | None, b: Node | None) -> Node | None:
        if a is None or b is None:
            present = a if a is not None else b
            if present is None or z is None:
                return present  # added on one side (or gone from both)
            if texts_of(present) == texts_of(z):
                return None  # removed on one side, untouched on the other
            # Removed on one side, changed on the other: what the change added or changed stays.
            items = self.items(present.label, z.items, a.items if a else [], b.items if b else [])
            return replace(present, items=items) if has_content(items) else None
        heading = a.heading
        if z is not None and tuple(x.text for x in a.heading) == tuple(x.text for x in z.heading):
            heading = b.heading
        return replace(a, heading=heading, items=self.items(a.label, z.items if z else [], a.items, b.items))

    def entry(self, z: Item | None, a: Item | None, b: Item | None, where: str) -> Item | Conflict | None:
        if a is None or b is None:
            present = a if a is not None else b
            if present is None or z is None:
                return present  # saved on one side (or forgotten on both)
            if _same(present, z):
                return None  # forgotten on one side, untouched on the other
            self.notes.append(
                f"kept {present.path}: {present.content} (forgotten on one side, refreshed or changed on the other)"
            )
            return present
        if _same(a, b) or (z is not None and _same(b, z)):
            return a
        if z is not None and _same(a, z):
            return b
        return _both_changed(z, a, b, where)

    def items(self, label: str, base: list[Piece], ours: list[Piece], theirs: list[Piece]) -> list[Piece]:
        z = tokens_of(base)
        a, b = _pair_rewrites(z, tokens_of(ours)), _pair_rewrites(z, tokens_of(theirs))
        weave = _Weave(self, label, z, a, b)
        self._sequence(weave, z, a, b, refined=False)
        return weave.finish()

    def _sequence(self, weave: _Weave, z: list[Token], a: list[Token], b: list[Token], *, refined: bool) -> None:
        iz = ia = ib = 0
        for region in sync_regions([ident_of(t) for t in z], [ident_of(t) for t in a], [ident_of(t) for t in b]):
            self._chunk(weave, z[iz : region.z0], a[ia : region.a0], b[ib : region.b0], refined=refined)
            for offset in range(region.z1 - region.z0):
                token = a[region.a0 + offset]
                weave.base(token, token, True)
            iz, ia, ib = region.z1, region.a1, region.b1

    def _chunk(self, weave: _Weave, z: list[Token], a: list[Token], b: list[Token], *, refined: bool) -> None:
        """A stretch that one or both sides changed."""
        if not (z or a or b):
            return
        ours, theirs = Side.of(z, a, ident_of), Side.of(z, b, ident_of)
        groups = _conflict_groups(z, ours, theirs)
        if groups and not z and not refined:
            common = common_tokens(a, b, ident_of)
            if common:  # both added here: what they added alike is a base, so only the differences conflict
                self._sequence(weave, common, a, b, refined=True)
                return
        starts = dict(groups)
        gap = 0
        while gap <= len(z):
            if gap in starts:
                end = starts[gap]
                weave.conflict(ours.tokens_between(gap, end), theirs.tokens_between(gap, end))
                gap = end
            else:
                # What a side added before a base token comes before what another side put in its place.
                for replacing in (False, True):
                    added = [
                        side.inserted.get(gap, []) if (gap in side.replaced) == replacing else []
                        for side in (ours, theirs)
                    ]
                    for token in _combine(added[0], added[1]):
                        weave.put(token)
            if gap < len(z):
                kept = ours.kept.get(gap)
                weave.base(z[gap], a[kept] if kept is not None else None, gap in theirs.kept)
            gap += 1


def _conflict_groups(z: list[Token], ours: Side[Token], theirs: Side[Token]) -> list[tuple[int, int]]:
    """The base ranges [start, end] (gaps included) where both sides changed the user's prose differently."""

    def prose(op: Op, side: Side[Token]) -> bool:
        return any(map(_is_prose, z[op.i1 : op.i2])) or any(map(_is_prose, side.tokens[op.j1 : op.j2]))

    def same(x: Op, y: Op) -> bool:
        left = [ident_of(t) for t in ours.tokens[x.j1 : x.j2]]
        return (x.i1, x.i2) == (y.i1, y.i2) and left == [ident_of(t) for t in theirs.tokens[y.j1 : y.j2]]

    ranges = [
        (min(x.i1, y.i1), max(x.i2, y.i2))
        for x in ours.ops
        if prose(x, ours)
        for y in theirs.ops
        if prose(y, theirs) and x.i1 <= y.i2 and y.i1 <= x.i2 and not same(x, y)
    ]
    every = [(op.i1, op.i2) for op in (*ours.ops, *theirs.ops)]
    merged: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        grown = True
        while grown:  # take in every change that touches the range, so that it starts and ends at a gap
            grown = False
            for i1, i2 in every:
                if i1 <= end and start <= i2 and (i1 < start or i2 > end):
                    start, end, grown = min(start, i1), max(end, i2), True
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _entries_by_node(node: Node, found: dict[tuple[str | None, str], list[tuple[Node, Item]]]) -> None:
    for piece in node.items:
        if isinstance(piece, Item):
            found.setdefault((piece.scope, piece.key), []).append((node, piece))
        elif isinstance(piece, Node):
            _entries_by_node(piece, found)


def _prune(node: Node, emptied: set[int], keep: set[str]) -> bool:
    """Drop the sections that lost their last entry to _dedupe (unless the current side has them); whether
    node lost something."""
    lost = id(node) in emptied
    kept: list[Piece] = []
    for piece in node.items:
        if isinstance(piece, Node) and _prune(piece, emptied, keep):
            lost = True
            if piece.label not in keep and not has_content(piece.items):
                continue
        kept.append(piece)
    node.items = kept
    return lost


def _scope_counts(doc: Document) -> Counter[tuple[str | None, str]]:
    return Counter((e.path.wing_key, e.key) for e in doc.entries if e.path is not None)


def _dedupe(root: Node, docs: list[Document], notes: list[str]) -> None:
    """One fact saved on each side into a different room of one wing (where palace's own save would have found
    it and refreshed it): kept once, where the current side has it, with the later date."""
    ours_paths = {(e.path.wing_key, e.key): str(e.path) for e in docs[1].entries if e.path is not None}
    counts = [_scope_counts(doc) for doc in docs[1:]]
    found: dict[tuple[str | None, str], list[tuple[Node, Item]]] = {}
    _entries_by_node(root, found)
    emptied: set[int] = set()
    for key, places in found.items():
        if len(places) < 2 or counts[0][key] > 1 or counts[1][key] > 1:
            continue  # not two sides' saves of one fact (or a side had it twice already: the user's to judge)
        notes.append(_keep_once(places, ours_paths.get(key), emptied))
    if emptied:
        _prune(root, emptied, {lint_label(s) for s in docs[1].sections})


def _keep_once(places: list[tuple[Node, Item]], ours: str | None, emptied: set[int]) -> str:
    """Keep one of the places (ours where it has it) with the latest date, drop the rest: the note saying so."""
    node, item = next((p for p in places if p[1].path == ours), places[0])
    day = max((i.date for _, i in places if i.date), default=None)
    node.items = [_dated(item, day) if p is item else p for p in node.items]
    for other_node, other in places:
        if other is not item:
            other_node.items = [p for p in other_node.items if p is not other]
            emptied.add(id(other_node))
    others = ", ".join(dict.fromkeys(i.path for _, i in places if i is not item))
    return f"kept {item.path}: {item.content} once (it was saved on the other side in {others} too)"


def merge_memories(base: bytes, ours: bytes, theirs: bytes) -> MergeResult:
    """The three-way merge of memories.md; ours is the current side (its layout is kept)."""
    if ours == theirs or base == theirs:
        return MergeResult(ours)
    docs = [Document.parse(data) for data in (base, ours, theirs)]
    z, a, b = (read_tree(doc, own_endings=doc is docs[1]) for doc in docs)
    merge = _Merge()
    root = Node(a.ident, (), merge.items(a.label, z.items, a.items, b.items), False, a.label)
    _dedupe(root, docs, merge.notes)
    data, conflicts = write_tree(root, docs)
    return MergeResult(data, conflicts, merge.notes)


# --------------------------------------------------------------------------- the git driver


def _line_merge(base: Path, ours: Path, theirs: Path) -> MergeResult:
    """git's own line merge (for when the structural merge fails: nothing may be lost)."""
    proc = run_git(
        Path.cwd(), "merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs", str(ours), str(base), str(theirs),
        check=False,
    )  # fmt: skip
    if proc.returncode < 0 or proc.returncode > 127:
        raise GitTrouble("git merge-file failed")
    return MergeResult(proc.stdout, ["the file (line by line)"] * proc.returncode)


def notes_file(cwd: Path) -> Path | None:
    """.git/palace-merge-notes of the repository at cwd."""
    try:
        proc = run_git(cwd, "rev-parse", "--absolute-git-dir", check=False)
    except GitTrouble:
        return None
    git_dir = proc.stdout.decode("utf-8", "surrogateescape").strip()
    return Path(git_dir) / NOTES_FILE if proc.returncode == 0 and git_dir else None


def take_notes(cwd: Path) -> list[str]:
    """The notes merges recorded since the last call (and forget them)."""
    path = notes_file(cwd)
    if path is None:
        return []
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
        path.unlink()
    except OSError:
        return []
    return [line for line in text.splitlines() if line.strip()]


def run_driver(base: Path, ours: Path, theirs: Path, name: str, *, err: TextIO = sys.stderr) -> int:
    """`palace merge-driver %O %A %B %P`: merge into ours; 0 when clean, 1 when conflicts are left (as git asks)."""
    data = [path.read_bytes() for path in (base, ours, theirs)]
    try:
        result = merge_memories(*data)
    except Exception as exc:  # a bug must not cost a line: fall back on git's line merge
        print(f"palace merge-driver: {name}: merged line by line ({type(exc).__name__}: {exc})", file=err)
        result = _line_merge(base, ours, theirs)
    ours.write_bytes(result.data)
    notes = [f"{name}: {note}" for note in result.notes]
    if result.conflicts:
        places = ", ".join(dict.fromkeys(result.conflicts))
        notes.append(f"{name}: {len(result.conflicts)} conflict(s) left for you in {places}")
    for note in notes:
        print(f"palace merge-driver: {note}", file=err)
    path = notes_file(Path.cwd()) if name == MEMORIES else None  # a palace's own file: `palace sync` shows them
    if path is not None and notes:
        with contextlib.suppress(OSError), path.open("a", encoding="utf-8") as handle:
            handle.write("".join(f"{note}\n" for note in notes))
    return 1 if result.conflicts else 0
