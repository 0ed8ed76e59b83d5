"""memories.md, one version of it, as a tree for the merge: sections, and in each its prose lines and entries.

The tree is read through document.py (the one reader of memories.md) and written back line by line; the
written bytes are read again to check that every entry still ends where it should.
"""

from __future__ import annotations

from palace.memory.document import BOM, Document, Kind, Section
from palace.memory.halls import wing_key
from palace.memory.lint import section_label
from palace.memory.ops import normalise
from palace.record import field, record, replace

OURS_MARK, MIDDLE_MARK, THEIRS_MARK = "<<<<<<< ours", "=======", ">>>>>>> theirs"

Ident = tuple[str, ...]


@record(frozen=True)
class Line:
    """A line of the user's own text (or of a heading), with its ending (None: the merged file's newline)."""

    text: str
    eol: str | None

    @property
    def blank(self) -> bool:
        return not self.text.strip()


@record(frozen=True)
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
    scope: str | None  # the wing's key; None in the halls outside any wing


@record
class Node:
    """A section (or the whole file), its heading lines and what is in it, in order."""

    ident: Ident
    heading: tuple[Line, ...]
    items: list[Piece]
    blank_before: bool  # the heading had a blank line before it
    label: str  # where it is, for messages: "Preferences/editors"


@record(frozen=True)
class Conflict:
    """Lines both sides changed differently: left to the user between git's conflict markers."""

    ours: tuple[Line, ...]
    theirs: tuple[Line, ...]
    where: str


Token = Line | Item | Node
Piece = Token | Conflict


def ident_of(token: Token) -> Ident:
    if isinstance(token, Line):
        return ("p", token.text)
    return token.ident


# --------------------------------------------------------------------------- reading


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
                items.append(
                    Item(
                        ("e", key), lines, key, entry.content, entry.date, entry.raw_date, path, entry.words,
                        entry.path.wing_key,
                    )
                )  # fmt: skip
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


def texts_of(piece: Piece) -> tuple[str, ...]:
    return tuple(line.text for line in lines_of([piece]))


def lines_of(pieces: list[Piece]) -> list[Line]:
    writer = _Writer()
    writer.render(pieces)
    return writer.out


def has_content(pieces: list[Piece]) -> bool:
    return any(not isinstance(p, Line) or not p.blank for p in pieces)


def tokens_of(pieces: list[Piece]) -> list[Token]:
    return [p for p in pieces if not isinstance(p, Conflict)]


# --------------------------------------------------------------------------- writing


@record
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


def write_tree(root: Node, docs: list[Document]) -> tuple[bytes, list[str]]:
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


def read_tree(doc: Document, *, own_endings: bool) -> Node:
    """The document as a tree; with own_endings False its lines take the merged file's newline."""
    return _Reader(doc, own_endings=own_endings).root()
