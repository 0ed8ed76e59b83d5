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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TextIO

from palace.history.git import GitTrouble, run_git
from palace.history.weave import Op, Side, common_tokens, sync_regions
from palace.memory.document import BOM, Document, Kind, Section
from palace.memory.halls import wing_key
from palace.memory.lint import section_label
from palace.memory.ops import normalise

NOTES_FILE = "palace-merge-notes"  # inside .git/: what the driver kept and why, for `palace sync` to show
SIMILAR = 0.5  # an entry replaced in place by one sharing this much of its words was rewritten, not forgotten
OURS_MARK, MIDDLE_MARK, THEIRS_MARK = "<<<<<<< ours", "=======", ">>>>>>> theirs"

Ident = tuple[str, ...]


@dataclass(frozen=True)
class Line:
    """A line of the user's own text (or of a heading), with its ending (None: the merged file's newline)."""

    text: str
    eol: str | None

    @property
    def blank(self) -> bool:
        return not self.text.strip()


@dataclass(frozen=True)
class Item:
    """An entry: its lines, and what it means."""

    ident: Ident
    lines: tuple[Line, ...]
    key: str
    content: str
    date: str | None
    raw_date: str | None
    path: str
    words: frozenset[str]


@dataclass
class Node:
    """A section (or the whole file), its heading lines and what is in it, in order."""

    ident: Ident
    heading: tuple[Line, ...]
    items: list[Piece]
    blank_before: bool  # the heading had a blank line before it
    label: str  # where it is, for messages: "Preferences/editors"


@dataclass(frozen=True)
class Conflict:
    """Lines both sides changed differently: left to the user between git's conflict markers."""

    ours: tuple[Line, ...]
    theirs: tuple[Line, ...]
    where: str


Token = Line | Item | Node
Piece = Token | Conflict


@dataclass
class MergeResult:
    data: bytes
    conflicts: list[str] = field(default_factory=list)  # where each conflict was left
    notes: list[str] = field(default_factory=list)  # what the merge decided that a user should hear


def ident_of(token: Token) -> Ident:
    if isinstance(token, Line):
        return ("p", token.text)
    return token.ident


# --------------------------------------------------------------------------- reading a version as a tree


def _section_key(section: Section) -> Ident:
    kind = section.kind
    if kind in (Kind.HALL, Kind.WING_HALL) and section.hall is not None:
        return (str(kind), section.hall.value)
    if kind == Kind.WING and section.wing:
        return (str(kind), wing_key(section.wing))
    if kind == Kind.ROOM and section.room:
        return (str(kind), section.room)
    return (str(kind), str(section.heading.level), normalise(section.heading.text))


class _Reader:
    """One version of the file as a tree of Nodes."""

    def __init__(self, doc: Document, *, own_endings: bool) -> None:
        self.doc = doc
        self.own_endings = own_endings  # the current side's lines keep their endings; the others take its newline
        self.entries = {e.start: e for e in doc.entries if e.path is not None}
        self.kids: dict[int, list[tuple[int, Section]]] = {}
        stack: list[tuple[int, Section]] = []
        for index, section in enumerate(sorted(doc.sections, key=lambda s: s.heading.line)):
            while stack and stack[-1][1].end <= section.heading.line:
                stack.pop()
            self.kids.setdefault(stack[-1][0] if stack else -1, []).append((index, section))
            stack.append((index, section))

    def line(self, number: int) -> Line:
        return Line(self.doc.lines[number], self.doc.eols[number] if self.own_endings else None)

    def root(self) -> Node:
        return Node(("root",), (), self._items(-1, 0, len(self.doc.lines)), False, "the top of the file")

    def _node(self, index: int, section: Section) -> Node:
        heading = section.heading
        end = max(section.end, heading.end)
        blank_before = heading.line > 0 and not self.doc.lines[heading.line - 1].strip()
        lines = tuple(self.line(n) for n in range(heading.line, heading.end))
        key = ("s", *_section_key(section))
        return Node(key, lines, self._items(index, heading.end, end), blank_before, section_label(section))

    def _items(self, index: int, start: int, end: int) -> list[Piece]:
        items: list[Piece] = []
        children = self.kids.get(index, [])
        k = 0
        number = start
        while number < end:
            if k < len(children) and children[k][1].heading.line <= number:
                child_index, child = children[k]
                k += 1
                items.append(self._node(child_index, child))
                number = max(child.end, child.heading.end, number + 1)
                continue
            limit = children[k][1].heading.line if k < len(children) else end
            entry = self.entries.get(number)
            if entry is not None and entry.path is not None and number < entry.end <= limit:
                lines = tuple(self.line(n) for n in range(entry.start, entry.end))
                key = normalise(entry.content)
                path = str(entry.path)
                items.append(Item(("e", key), lines, key, entry.content, entry.date, entry.raw_date, path, entry.words))
                number = entry.end
            else:
                items.append(self.line(number))
                number += 1
        return _numbered(items)


def _numbered(items: list[Piece]) -> list[Piece]:
    """Entries and sections given an occurrence number, so that each identity is unique among its siblings."""
    seen: dict[Ident, int] = {}
    out: list[Piece] = []
    for item in items:
        if isinstance(item, Item | Node):
            count = seen.get(item.ident, 0)
            seen[item.ident] = count + 1
            item = replace(item, ident=(*item.ident, str(count)))
        out.append(item)
    return out


# --------------------------------------------------------------------------- small helpers


def _texts(piece: Piece) -> tuple[str, ...]:
    return tuple(line.text for line in _lines_of([piece]))


def _lines_of(pieces: list[Piece]) -> list[Line]:
    out: list[Line] = []
    _render(pieces, out, [])
    return out


def _has_content(pieces: list[Piece]) -> bool:
    return any(not isinstance(p, Line) or not p.blank for p in pieces)


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
    line = Line(first.text.replace(f"[{item.raw_date}]", f"[{day}]", 1), first.eol)
    return replace(item, lines=(line, *item.lines[1:]), date=day, raw_date=day)


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
        self.out.append(Conflict(tuple(_lines_of(list(ours))), tuple(_lines_of(list(theirs))), self.label))

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
            if _texts(present) == _texts(z):
                return None  # removed on one side, untouched on the other
            # Removed on one side, changed on the other: what the change added or changed stays.
            items = self.items(present.label, z.items, a.items if a else [], b.items if b else [])
            return replace(present, items=items) if _has_content(items) else None
        heading = a.heading
        if z is not None and tuple(x.text for x in a.heading) == tuple(x.text for x in z.heading):
            heading = b.heading
        return replace(a, heading=heading, items=self.items(a.label, z.items if z else [], a.items, b.items))

    def entry(self, z: Item | None, a: Item | None, b: Item | None, where: str) -> Item | Conflict | None:
        if a is None or b is None:
            present = a if a is not None else b
            if present is None or z is None:
                return present
            if present.lines == z.lines or (_undated(present) == _undated(z) and present.date == z.date):
                return None  # forgotten on one side, untouched on the other
            self.notes.append(
                f"kept {present.path}: {present.content} (forgotten on one side, refreshed or changed on the other)"
            )
            return present
        if _undated(a) == _undated(b) and a.date == b.date:
            return a
        if z is not None and _undated(a) == _undated(z) and a.date == z.date:
            return b
        if z is not None and _undated(b) == _undated(z) and b.date == z.date:
            return a
        day = _merged_date(z, a, b)
        if _undated(a) == _undated(b) or (z is not None and _undated(b) == _undated(z)):
            return _dated(a, day)
        if z is not None and _undated(a) == _undated(z):
            return _dated(b, day)
        if a.key == b.key:  # the same fact written a little differently on each side: the later one
            return _dated(b if (b.date or "") > (a.date or "") else a, day)
        return Conflict(a.lines, b.lines, a.path or where)

    def items(self, label: str, base: list[Piece], ours: list[Piece], theirs: list[Piece]) -> list[Piece]:
        z = _tokens(base)
        a, b = _pair_rewrites(z, _tokens(ours)), _pair_rewrites(z, _tokens(theirs))
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


def _tokens(pieces: list[Piece]) -> list[Token]:
    return [p for p in pieces if not isinstance(p, Conflict)]


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


# --------------------------------------------------------------------------- writing


@dataclass
class _Writer:
    """Pieces as lines; where each entry went, so that the result can be checked."""

    out: list[Line] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    placed: list[tuple[Item, int]] = field(default_factory=list)  # each entry and the line it starts at
    blank_after: set[int] = field(default_factory=set)  # ids of entries that need a blank line after them

    def render(self, pieces: list[Piece]) -> None:
        out = self.out
        for piece in pieces:
            if isinstance(piece, Line):
                out.append(piece)
            elif isinstance(piece, Item):
                self.placed.append((piece, len(out)))
                out.extend(piece.lines)
                if id(piece) in self.blank_after:
                    out.append(Line("", None))
            elif isinstance(piece, Node):
                if piece.heading and piece.blank_before and out and not out[-1].blank:
                    out.append(Line("", None))  # the blank line its side had before the heading
                out.extend(piece.heading)
                self.render(piece.items)
            else:
                self.conflicts.append(piece.where)
                out += [Line(OURS_MARK, None), *piece.ours, Line(MIDDLE_MARK, None), *piece.theirs]
                out.append(Line(THEIRS_MARK, None))


def _render(pieces: list[Piece], out: list[Line], conflicts: list[str]) -> None:
    writer = _Writer(out, conflicts)
    writer.render(pieces)


def _to_bytes(lines: list[Line], like: Document) -> bytes:
    """The lines as like's file would have them: its newline, its BOM, its final newline or none."""
    if not like.final_newline:
        while lines and not lines[-1].text:
            lines = lines[:-1]  # an empty last line without an ending is no line at all
    parts = [line.text + (line.eol or like.newline) for line in lines]
    if parts and not like.final_newline:
        parts[-1] = lines[-1].text
    return ((BOM if like.bom else "") + "".join(parts)).encode("utf-8", "surrogateescape")


def _trailing_blanks(texts: list[str]) -> int:
    count = 0
    while count < len(texts) and not texts[-1 - count].strip():
        count += 1
    return count


def _write(root: Node, docs: list[Document]) -> tuple[bytes, list[str]]:
    """The merged file's bytes, checked by reading them back: a line of prose that two sides' edits put just
    under an entry would read as part of it, so the entry gets a blank line after it."""
    blank_after: set[int] = set()
    for _ in range(3):
        writer = _Writer(blank_after=blank_after)
        writer.render([root])
        lines = writer.out
        # A section placed last may bring the blank line that stood before the next heading on its side.
        extra = _trailing_blanks([x.text for x in lines]) - max(_trailing_blanks(doc.lines) for doc in docs[1:])
        del lines[len(lines) - max(extra, 0) :]
        data = _to_bytes(lines, docs[1])
        starts = {e.start: e for e in Document.parse(data).entries}
        swallowed = {
            id(item)
            for item, start in writer.placed
            if (found := starts.get(start)) is not None and found.end > start + len(item.lines)
        }
        if not swallowed - blank_after:
            break
        blank_after |= swallowed
    return data, writer.conflicts


def merge_memories(base: bytes, ours: bytes, theirs: bytes) -> MergeResult:
    """The three-way merge of memories.md; ours is the current side (its layout is kept)."""
    if ours == theirs or base == theirs:
        return MergeResult(ours)
    docs = [Document.parse(data) for data in (base, ours, theirs)]
    z, a, b = (_Reader(doc, own_endings=doc is docs[1]).root() for doc in docs)
    merge = _Merge()
    root = Node(a.ident, (), merge.items(a.label, z.items, a.items, b.items), False, a.label)
    data, conflicts = _write(root, docs)
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
    path = notes_file(Path.cwd())
    if path is not None and notes:
        with contextlib.suppress(OSError), path.open("a", encoding="utf-8") as handle:
            handle.write("".join(f"{note}\n" for note in notes))
    return 1 if result.conflicts else 0
