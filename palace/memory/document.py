"""memories.md as lines plus the structure mistune's block parser finds in them.

The document keeps every byte: lines are decoded with `surrogateescape` (so bytes that are not UTF-8
survive), each line keeps its own ending, a BOM and a missing final newline are remembered. Only
top-level headings and top-level list items are structure; everything else is opaque user text.
"""

from __future__ import annotations

import bisect
import functools
import operator
import re
import threading
import unicodedata
from dataclasses import dataclass, field
from datetime import date
from typing import Any, NamedTuple

from mistune.block_parser import BlockParser
from mistune.core import BlockState

from palace.memory.halls import Hall, MemoryPath, parse_hall, room_slug, wing_key

BOM = "\ufeff"
BOM_BYTES = BOM.encode()
_ITEM_RE = re.compile(r"^(?P<indent> {0,3})(?P<bullet>[-*+])(?P<gap>[ \t]+|$)(?P<rest>.*)$")
_DATE_RE = re.compile(r"^\[(?P<date>[^\]\s]{1,24})\][ \t]*")
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_ATX_LINE = re.compile(r"^#{1,6}(?:[ \t]|$)")
# Blocks that end before an ATX heading at the start of a line (a quote, a code block or an HTML block may not).
_CLOSED_BEFORE_ATX = frozenset({"blank_line", "heading", "list", "paragraph", "thematic_break"})


class _TrackingState(BlockState):
    """Block state that notes where each top-level token starts in the source."""

    def add_paragraph(self, text: str) -> None:
        last = self.last_token()
        super().add_paragraph(text)
        if self.parent is None and self.tokens[-1] is not last:
            self.tokens[-1].setdefault("_start", self.cursor)

    def append_token(self, token: dict[str, Any]) -> None:
        if self.parent is None:
            token.setdefault("_start", self.cursor)
        super().append_token(token)

    def append_paragraph(self) -> int | None:
        # Only the paragraph that ends right here can go on. mistune also asks while it is inside a list
        # (a quote that interrupts a list, lazily continued into an empty `*` item), when the last token
        # is a paragraph from before the list: continuing that one would scramble the token stream.
        last = self.last_token()
        if self.parent is None and last and last["type"] == "paragraph":
            start = last.get("_start")
            if start is not None and start + len(last["text"]) != self.cursor:
                return None
        return super().append_paragraph()


class _TrackingParser(BlockParser):
    """Block parser that stamps top-level tokens with the offset where their block began.

    Only the top level is structure, so the insides of lists and block quotes are not parsed: their
    extent is found by the top-level parse, their content never matters (and skipping it makes the
    parse several times faster).
    """

    state_cls = _TrackingState

    def parse(self, state: BlockState, rules: list[str] | None = None) -> None:
        if state.parent is not None:
            return  # the inside of a list item or a block quote: opaque to palace
        super().parse(state, rules)

    def parse_ref_link(self, m: re.Match[str], state: BlockState) -> int | None:
        # A link reference definition makes no token; give it one so that the lines it spans are not
        # counted into the block before it (an entry would otherwise swallow a `[x]: url` line).
        last = state.last_token()
        continues_paragraph = bool(last) and last["type"] == "paragraph"
        end: int | None = super().parse_ref_link(m, state)
        if end and not continues_paragraph and state.parent is None:
            state.append_token({"type": "ref_link"})
        return end

    def parse_method(self, m: re.Match[str], state: BlockState) -> int | None:
        if state.parent is not None:
            return super().parse_method(m, state)
        before = len(state.tokens)
        end: int | None = super().parse_method(m, state)
        # A list or quote appends its token only when it ends; the match start is where it began.
        for token in state.tokens[before:]:
            if not token.get("_stamped"):
                token["_start"] = m.start()
                token["_stamped"] = True
        return end


@functools.cache
def _parser() -> _TrackingParser:
    return _TrackingParser()  # built on first use: compiling mistune's rules costs ~20 ms at import


@dataclass
class Heading:
    line: int
    end: int  # exclusive; a setext heading spans its paragraph's lines and the underline
    level: int
    text: str


@dataclass
class Section:
    """A structural heading and the lines up to the next heading of the same or a higher level."""

    kind: str  # "hall" | "wing" | "wing-hall" | "room" | "other"
    heading: Heading
    end: int
    wing: str | None = None
    hall: Hall | None = None
    room: str | None = None

    @property
    def sig(self) -> tuple[str, int, str | None, Hall | None, str | None]:
        """What the section means, without where it is."""
        return (self.kind, self.heading.level, wing_key(self.wing) if self.wing else None, self.hall, self.room)


@dataclass
class Entry:
    """A top-level list item inside a room: `- [YYYY-MM-DD] content`."""

    start: int
    end: int  # exclusive, trailing blank lines excluded
    bullet: str
    date: str | None  # a valid ISO date, or None
    raw_date: str | None  # whatever stood in the leading brackets, valid or not
    content: str
    path: MemoryPath | None  # None when the item is not inside a room

    @property
    def sort_date(self) -> str:
        return self.date or ""

    @functools.cached_property
    def key(self) -> str:
        """The content normalised for comparison (see `normalise`)."""
        return normalise(self.content)

    @functools.cached_property
    def words(self) -> frozenset[str]:
        """The content's words, for near-duplicate detection (see `words_of`)."""
        return words_of(self.content)

    def _moved(self, delta: int) -> Entry:
        copy = object.__new__(Entry)
        copy.__dict__.update(self.__dict__)
        copy.start += delta
        copy.end += delta
        return copy


class _Scan(NamedTuple):
    """The structure found in a range of lines."""

    blocks: list[tuple[int, int, str]]
    headings: list[Heading]
    lists: list[tuple[int, int]]
    unparsed_lists: list[tuple[int, int]]
    entries: list[Entry]
    last: str | None  # the type of the last block


_Run = tuple[list[Entry], list[int], int]  # entries, the lines they start at, how many lines to move them down
_MAX_RUNS = 24


def _cut(runs: list[_Run], line: int) -> tuple[list[_Run], list[_Run]]:
    """Runs split into the entries that start before line and those that start at or after it."""
    head: list[_Run] = []
    tail: list[_Run] = []
    for entries, starts, delta in runs:
        index = bisect.bisect_left(starts, line - delta)
        if index == len(entries):
            head.append((entries, starts, delta))
        elif index == 0:
            tail.append((entries, starts, delta))
        else:
            head.append((entries[:index], starts[:index], delta))
            tail.append((entries[index:], starts[index:], delta))
    return head, tail


def _compact(runs: list[_Run]) -> list[_Run]:
    """Runs with the empty ones dropped and neighbours moved alike joined."""
    out: list[_Run] = []
    for entries, starts, delta in runs:
        if not entries:
            continue
        if out and out[-1][2] == delta:
            last = out.pop()
            entries, starts = last[0] + entries, last[1] + starts
        out.append((entries, starts, delta))
    return out


_TRAILING_PUNCT = ".。!！?？;；,，:：、…"


@functools.lru_cache(maxsize=1 << 16)
def normalise(text: str) -> str:
    """The comparison key of an entry: NFKC, case-folded, whitespace folded, trailing punctuation dropped."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = " ".join(text.split())
    return text.rstrip(_TRAILING_PUNCT + " ").strip()


_WORD = re.compile(r"[^\W_]+")
_NOT_CJK = re.compile(r"[^\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


@functools.lru_cache(maxsize=1 << 16)
def words_of(text: str) -> frozenset[str]:
    """The words of text once normalised, and each pair of neighbouring CJK characters (Chinese has no spaces)."""
    key = normalise(text)
    words = set(_WORD.findall(key))
    cjk = _NOT_CJK.sub("", key)
    words.update(cjk[i : i + 2] for i in range(len(cjk) - 1))
    return frozenset(words)


_MEMO_SIZE = 4
_memo: list[Document] = []  # the last few parsed documents, most recent last
_memo_lock = threading.Lock()


def clear_parse_cache() -> None:
    """Forget the recently parsed documents (the next parse starts from nothing)."""
    with _memo_lock:
        _memo.clear()


def _remember(doc: Document) -> None:
    with _memo_lock:
        if doc in _memo:
            _memo.remove(doc)
        _memo.append(doc)
        del _memo[:-_MEMO_SIZE]


def _recent(data: bytes) -> tuple[Document | None, Document | None]:
    """(a remembered document of exactly these bytes, the most recent remembered document)."""
    with _memo_lock:
        for doc in reversed(_memo):
            if doc._raw is not None and (doc._raw is data or (len(doc._raw) == len(data) and doc._raw == data)):
                return doc, doc
        return None, (_memo[-1] if _memo else None)


def _split(text: str) -> tuple[list[str], list[str], bool]:
    """Lines and endings of text; the flag says whether its last line has an ending."""
    raw_lines = text.split("\n")
    tail = raw_lines.pop()  # what follows the last "\n": "" when text ends with one
    if "\r" not in text:
        lines, eols = raw_lines, ["\n"] * len(raw_lines)
    else:
        lines, eols = [], []
        for raw in raw_lines:
            if raw.endswith("\r"):
                lines.append(raw[:-1])
                eols.append("\r\n")
            else:
                lines.append(raw)
                eols.append("\n")
    if tail:
        lines.append(tail)  # a last line without an ending keeps a trailing "\r" as text
        eols.append("")
    return lines, eols, not tail


def _common_prefix(a: bytes, b: bytes) -> int:
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:  # slices of bytes compare with memcmp: O(n) in all, in C
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_suffix(a: bytes, b: bytes, limit: int) -> int:
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[len(a) - mid : len(a) - lo] == b[len(b) - mid : len(b) - lo]:
            lo = mid
        else:
            hi = mid - 1
    return lo


@dataclass(eq=False)
class Document:
    """The file as (text, ending) lines, with its structure.

    Documents that `parse` returns are shared (the last few are remembered, so that parsing bytes seen a
    moment ago is free and parsing an edited version re-parses only around the edit): never mutate one.
    """

    lines: list[str]
    eols: list[str]
    bom: bool = False
    final_newline: bool = True
    newline: str = "\n"
    headings: list[Heading] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    lists: list[tuple[int, int]] = field(default_factory=list)  # top-level list spans
    unparsed_lists: list[tuple[int, int]] = field(default_factory=list)  # lists kept opaque
    blocks: list[tuple[int, int, str]] = field(default_factory=list)  # top-level blocks: first, end, type
    # When this document was derived from another by re-parsing only around a change: the lines
    # [first, old_end) of the other became [first, new_end) here, and whether the sections after the
    # change still mean what they meant (nothing else can differ).
    derived: tuple[int, int, int, bool] | None = field(default=None, repr=False)
    _raw: bytes | None = field(default=None, repr=False)  # the bytes this was parsed from (not when built by hand)
    # The entries, as runs of Entry objects shared with the document this one was derived from, each run
    # to be moved down by some lines: entries after an edit are moved only when someone needs their lines.
    _runs: list[_Run] = field(default_factory=list, repr=False)
    _flat: list[Entry] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self._crlf = self.eols.count("\r\n")  # lines that end with CRLF
        self._ended = len(self.eols) - self.eols.count("")  # lines that have an ending

    @property
    def entries(self) -> list[Entry]:
        """Every top-level list item, in order; those outside rooms have no path."""
        flat = self._flat
        if flat is None:
            flat = []
            for entries, _, delta in self._runs:
                flat.extend([e._moved(delta) for e in entries] if delta else entries)
            self._flat = flat
            self._runs = [(flat, [e.start for e in flat], 0)]
        return flat

    @entries.setter
    def entries(self, value: list[Entry]) -> None:
        self._flat = value
        self._runs = [(value, [e.start for e in value], 0)]

    def entries_between(self, first: int, end: int) -> list[Entry]:
        """The entries that start in lines [first, end)."""
        found: list[Entry] = []
        for entries, starts, delta in self._runs:
            low, high = bisect.bisect_left(starts, first - delta), bisect.bisect_left(starts, end - delta)
            found.extend(e._moved(delta) if delta else e for e in entries[low:high])
        return found

    # ------------------------------------------------------------------ reading
    @classmethod
    def parse(cls, data: bytes) -> Document:
        """Parse raw file bytes; never fails, whatever the bytes."""
        same, recent = _recent(data)
        if same is not None:
            _remember(same)
            return same
        doc = recent._derive(data) if recent is not None else None
        if doc is None:
            doc = cls._parse_all(data)
        _remember(doc)
        return doc

    def reparse(self, data: bytes) -> Document:
        """data (an edited version of this document's bytes) parsed, re-parsing only around the change."""
        if self._raw is not None and self._raw == data:
            return self
        doc = self._derive(data) or Document._parse_all(data)
        _remember(doc)
        return doc

    @classmethod
    def _parse_all(cls, data: bytes) -> Document:
        text = data.decode("utf-8", "surrogateescape")
        bom = text.startswith(BOM)
        if bom:
            text = text[1:]
        lines, eols, final_newline = _split(text)
        doc = cls(lines, eols, bom=bom, final_newline=final_newline or not lines, _raw=data)
        doc._majority_newline()
        found = doc._scan(0, len(lines))
        doc.blocks, doc.headings, doc.lists, doc.unparsed_lists, doc.entries = found[:5]
        doc._build_sections()
        doc._assign_entries(found.entries)
        return doc

    def _majority_newline(self) -> None:
        self.newline = "\r\n" if self._crlf and self._crlf * 2 >= self._ended else "\n"

    def _derive(self, data: bytes) -> Document | None:
        """data parsed by re-parsing only the blocks around what changed since this document's bytes."""
        if self._raw is None or data.startswith(BOM_BYTES) != self.bom:
            return None
        skip = len(BOM_BYTES) if self.bom else 0
        old, new = self._raw[skip:], data[skip:]
        prefix = _common_prefix(old, new)
        suffix = _common_suffix(old, new, min(len(old), len(new)) - prefix)
        start = old.rfind(b"\n", 0, prefix) + 1  # the changed lines, in whole lines
        old_end, new_end = len(old) - suffix, len(new) - suffix
        if not (_at_line_start(old, old_end) and _at_line_start(new, new_end)):
            newline = new.find(b"\n", new_end)
            step = len(new) - new_end if newline < 0 else newline + 1 - new_end
            old_end, new_end = old_end + step, new_end + step
        first = old.count(b"\n", 0, start)
        old_count = old.count(b"\n", start, old_end) + (
            1 if old_end == len(old) and old[-1:] not in (b"", b"\n") else 0
        )
        region, region_eols, ended = _split(new[start:new_end].decode("utf-8", "surrogateescape"))
        lines = self.lines[:first] + region + self.lines[first + old_count :]
        eols = self.eols[:first] + region_eols + self.eols[first + old_count :]
        final_newline = (ended or not lines) if new_end == len(new) else self.final_newline
        doc = Document(lines, eols, bom=self.bom, final_newline=final_newline, _raw=data)
        doc._majority_newline()
        self._rescan(doc, first, first + old_count, len(region) - old_count)
        return doc

    def _rescan(self, doc: Document, first: int, end: int, delta: int) -> None:
        """Give doc (this document with lines [first, end) replaced, delta lines more) its structure.

        Only a window of whole blocks around the change is parsed again. It starts where the parser's state
        does not depend on what came before (after a blank line or a heading, or at an ATX heading) and
        ends where the new parse ends in a state that lets the unchanged blocks after it parse as before
        (after a blank line that the old parse also had there, or before an ATX heading that nothing open
        can swallow). From there on the parse is the old one, moved by delta lines.
        """
        blocks = self.blocks
        firsts = [block[0] for block in blocks]
        index = max(bisect.bisect_right(firsts, max(first - 1, 0)) - 1, 0)
        while index > 0 and not self._fresh_start(index):
            index -= 1
        window_start = blocks[index][0] if blocks else 0
        after = max(bisect.bisect_left(firsts, end), 1)  # the first block after the window
        while True:
            while after < len(blocks) and not (blocks[after - 1][2] == "blank_line" or self._atx(after)):
                after += 1
            old_end = blocks[after][0] if after < len(blocks) else len(self.lines)
            found = doc._scan(window_start, old_end + delta)
            if (
                after >= len(blocks)
                or (found.last == "blank_line" and blocks[after - 1][2] == "blank_line")
                or (found.last in _CLOSED_BEFORE_ATX and self._atx(after))
            ):
                break
            after += 1
        new_end = old_end + delta

        def moved(block: tuple[int, int, str]) -> tuple[int, int, str]:
            return (block[0] + delta, block[1] + delta, block[2])

        doc.blocks = blocks[:index] + found.blocks + [moved(b) for b in blocks[after:]]
        doc.headings = (
            [h for h in self.headings if h.line < window_start]
            + found.headings
            + [Heading(h.line + delta, h.end + delta, h.level, h.text) for h in self.headings if h.line >= old_end]
        )
        doc.lists = (
            [span for span in self.lists if span[0] < window_start]
            + found.lists
            + [(a + delta, b + delta) for a, b in self.lists if a >= old_end]
        )
        doc.unparsed_lists = (
            [span for span in self.unparsed_lists if span[0] < window_start]
            + found.unparsed_lists
            + [(a + delta, b + delta) for a, b in self.unparsed_lists if a >= old_end]
        )
        before = _cut(self._runs, window_start)[0]
        later = [(entries, starts, moved + delta) for entries, starts, moved in _cut(self._runs, old_end)[1]]
        doc._build_sections()
        old_after = [s.sig for s in self.sections if s.heading.line >= old_end]
        new_after = [s for s in doc.sections if s.heading.line >= new_end]
        same_after = old_after == [s.sig for s in new_after]
        # Entries after the window keep their rooms, but for those before the first heading after it (or
        # all of them when a heading in the window changed what the later headings mean).
        limit = (new_after[0].heading.line if new_after else len(doc.lines)) if same_after else len(doc.lines)
        near, far = _cut(later, limit)
        placed = [e._moved(moved) for entries, _, moved in near for e in entries]
        doc._assign_entries(found.entries + placed)
        window = found.entries + placed
        doc._runs = _compact([*before, (window, [e.start for e in window], 0), *far])
        if len(doc._runs) > _MAX_RUNS:
            doc._flat = None
            _ = doc.entries  # move them all now, once in a while, rather than walk many runs each time
        doc.derived = (window_start, old_end, new_end, same_after)

    def _atx(self, index: int) -> bool:
        """Whether block index is an ATX heading at the start of its line (nothing open before it can
        swallow it but a code fence, an HTML block or a quote)."""
        block = self.blocks[index]
        return block[2] == "heading" and bool(_ATX_LINE.match(self.lines[block[0]]))

    def _fresh_start(self, index: int) -> bool:
        """Whether a parse can start afresh at block index and find what the whole parse found."""
        return self.blocks[index - 1][2] in {"blank_line", "heading"} or self._atx(index)

    def _scan(self, first: int, last: int) -> _Scan:
        """Parse lines [first, last) on their own."""
        found = _Scan([], [], [], [], [], None)
        if last <= first:
            return found
        # Lone carriage returns would read as line breaks to mistune and shift every offset.
        source = ("\n".join(self.lines[first:last]) + "\n").replace("\r", " ")
        state = _TrackingState()
        state.process(source)
        _parser().parse(state)
        # In document order: a block quote that a list interrupts is put before the list's last token,
        # not before the list.
        tokens = sorted((t for t in state.tokens if "_start" in t), key=lambda t: int(t["_start"]))
        line_of: list[int] = []
        offset = line = 0
        for token in tokens:
            line += source.count("\n", offset, token["_start"])
            offset = token["_start"]
            line_of.append(first + line)
        line_of.append(last)
        for index, token in enumerate(tokens):
            start, end = line_of[index], max(line_of[index + 1], line_of[index] + 1)
            kind = str(token["type"])
            found.blocks.append((start, end, kind))
            if kind == "heading":
                stop = start + 1
                if token.get("style") == "setext":
                    # The paragraph's lines, then the underline.
                    stop = min(start + token["text"].rstrip("\n").count("\n") + 2, end)
                text = " ".join(token["text"].split())
                found.headings.append(Heading(start, stop, int(token["attrs"]["level"]), text))
            elif kind == "list":
                while end > start + 1 and not self.lines[end - 1].strip():
                    end -= 1
                found.lists.append((start, end))
                self._list_items(found, start, end, len(token.get("children") or []))
        return found._replace(last=found.blocks[-1][2] if found.blocks else None)

    def _list_items(self, found: _Scan, first: int, last: int, expected: int) -> None:
        starts: list[int] = []
        content_col = 0
        bullet = ""
        for index in range(first, last):
            line = self.lines[index].expandtabs(4)
            match = _ITEM_RE.match(line)
            indent = len(line) - len(line.lstrip(" "))
            if match and (not starts or (indent < content_col and match["bullet"] == bullet)):
                bullet = match["bullet"]
                gap = len(match["gap"].expandtabs(4)) if match["gap"] else 1
                content_col = len(match["indent"]) + 1 + (gap if 1 <= gap <= 4 else 1)
                starts.append(index)
        if len(starts) != expected or not starts or starts[0] != first:
            found.unparsed_lists.append((first, last))  # unusual shape: keep it opaque, never edit it
            return
        for number, start in enumerate(starts):
            end = starts[number + 1] if number + 1 < len(starts) else last
            while end > start + 1 and not self.lines[end - 1].strip():
                end -= 1
            found.entries.append(self._entry(start, end))

    def _entry(self, start: int, end: int) -> Entry:
        match = _ITEM_RE.match(self.lines[start].expandtabs(4))
        assert match is not None
        rest = self.lines[start].lstrip(" ")[1:].lstrip(" \t")
        raw_date = found_date = None
        dated = _DATE_RE.match(rest)
        if dated and dated["date"].lower() not in {"x", " "}:
            raw_date = dated["date"]
            if _ISO_DATE.match(raw_date) and _valid_date(raw_date):
                found_date = raw_date
            rest = rest[dated.end() :]
        pieces = [rest.strip()] + [self.lines[i].strip() for i in range(start + 1, end)]
        content = " ".join(piece for piece in pieces if piece)
        return Entry(start, end, match["bullet"], found_date, raw_date, content, None)

    def _build_sections(self) -> None:
        self.sections = []
        wing: str | None = None
        hall: Hall | None = None
        in_wing = False
        open_sections: list[Section] = []
        for heading in self.headings:
            level, text = heading.level, heading.text
            section: Section | None = None
            if level == 1:
                # A title: it carries no meaning, but it closes every section before it.
                wing, hall, in_wing = None, None, False
                while open_sections:
                    open_sections.pop().end = heading.line
                continue
            elif level == 2:
                parsed = parse_hall(text)
                if parsed is not None:
                    wing, hall, in_wing = None, parsed, False
                    section = Section("hall", heading, 0, hall=parsed)
                else:
                    wing, hall, in_wing = text, None, True
                    section = Section("wing", heading, 0, wing=text)
            elif level == 3 and in_wing:
                hall = parse_hall(text)
                section = Section("wing-hall" if hall else "other", heading, 0, wing=wing, hall=hall)
            elif (level == 3 and not in_wing and hall) or (level == 4 and in_wing and hall):
                section = Section("room", heading, 0, wing=wing, hall=hall, room=room_slug(text))
            elif level <= 4:
                section = Section("other", heading, 0, wing=wing, hall=None)
            if section is None:
                continue  # a deeper heading is the user's own sub-heading inside a room
            while open_sections and open_sections[-1].heading.level >= level:
                open_sections.pop().end = heading.line
            open_sections.append(section)
            self.sections.append(section)
        for section in open_sections:
            section.end = len(self.lines)

    def _assign_entries(self, entries: list[Entry]) -> None:
        """Set the path of each of entries from the room it sits in."""
        rooms = [s for s in self.sections if s.kind == "room"]
        room_starts = [s.heading.line for s in rooms]
        paths: dict[int, MemoryPath | None] = {}
        for entry in entries:
            index = bisect.bisect_right(room_starts, entry.start) - 1
            path = None
            if index >= 0 and entry.start < rooms[index].end:
                if index not in paths:
                    room = rooms[index]
                    paths[index] = MemoryPath(room.wing, room.hall, room.room) if room.hall and room.room else None
                path = paths[index]
            entry.path = path

    # ------------------------------------------------------------------ finding
    def room_of(self, entry: Entry) -> Section | None:
        """The room section an entry sits in."""
        rooms = [s for s in self.sections if s.kind == "room" and s.heading.line <= entry.start < s.end]
        return rooms[-1] if rooms else None

    def room_sections(self, path: MemoryPath) -> list[Section]:
        key = path.wing_key
        return [
            s
            for s in self.sections
            if s.kind == "room"
            and s.hall == path.hall
            and s.room == path.room
            and (wing_key(s.wing) if s.wing else None) == key
        ]

    def room_entries(self, path: MemoryPath) -> list[Entry]:
        key = path.wing_key
        return [
            e._moved(delta) if delta else e
            for entries, _, delta in self._runs
            for e in entries
            if e.path is not None and e.path.hall == path.hall and e.path.room == path.room and e.path.wing_key == key
        ]

    def scope_entries(self, wing: str | None, *, placed: bool = True) -> list[Entry]:
        """Entries of one wing, or of the wing-less halls when wing is None.

        With placed=False the entries may carry the line numbers of an earlier version of the document
        (only their path, content and date are to be read): cheaper when that is all that is needed.
        """
        key = wing_key(wing) if wing else None
        return [
            e._moved(delta) if delta and placed else e
            for entries, _, delta in self._runs
            for e in entries
            if e.path is not None and e.path.wing_key == key
        ]

    def placed(self, entry: Entry) -> Entry:
        """An entry of this document (from `scope_entries(placed=False)`) with its lines in this document."""
        for entries, starts, delta in self._runs:
            index = bisect.bisect_left(starts, entry.start)
            while index < len(entries) and starts[index] == entry.start:
                if entries[index] is entry:
                    return entry._moved(delta) if delta else entry
                index += 1
        raise ValueError("not an entry of this document")

    def hall_sections(self, wing: str | None, hall: Hall) -> list[Section]:
        if wing is None:
            return [s for s in self.sections if s.kind == "hall" and s.hall == hall]
        key = wing_key(wing)
        return [s for s in self.sections if s.kind == "wing-hall" and s.hall == hall and wing_key(s.wing or "") == key]

    def wing_sections(self, wing: str) -> list[Section]:
        key = wing_key(wing)
        return [s for s in self.sections if s.kind == "wing" and wing_key(s.wing or "") == key]

    def wings(self) -> list[str]:
        seen: dict[str, str] = {}
        for section in self.sections:
            if section.kind == "wing" and section.wing:
                seen.setdefault(wing_key(section.wing), section.wing)
        return list(seen.values())

    # ------------------------------------------------------------------ writing
    def to_bytes(self) -> bytes:
        if self._raw is not None:
            return self._raw
        return self._serialise(self.lines, self.eols)

    def _serialise(self, lines: list[str], eols: list[str]) -> bytes:
        text = "".join(map(operator.add, lines, eols))
        return ((BOM if self.bom else "") + text).encode("utf-8", "surrogateescape")

    def splice(self, start: int, end: int, new_lines: list[str]) -> bytes:
        """Bytes of the document with lines[start:end] replaced; every other line keeps its bytes.

        New lines end with the file's own newline; a last line without an ending stays without one.
        """
        lines = self.lines[:start] + new_lines + self.lines[end:]
        if not lines:
            return BOM_BYTES if self.bom else b""
        newline = self.newline
        # A blank last line keeps its ending (without one it would not be there at all).
        final_newline = self.final_newline or not lines[-1]
        if self._crlf in (0, self._ended):
            # Every line ends alike (the last perhaps with nothing): join, don't walk the lines.
            text = newline.join(lines) + (newline if final_newline else "")
            return ((BOM if self.bom else "") + text).encode("utf-8", "surrogateescape")
        eols = self.eols[:start] + [newline] * len(new_lines) + self.eols[end:]
        if start > 0 and not eols[start - 1] and len(eols) > start:
            eols[start - 1] = newline  # the old last line gains an ending when text follows it
        if not final_newline:
            eols[-1] = ""
        elif not eols[-1]:
            eols[-1] = newline
        return self._serialise(lines, eols)


def _at_line_start(data: bytes, pos: int) -> bool:
    return pos == 0 or data[pos - 1] == 10  # "\n"


def _valid_date(text: str) -> bool:
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def entry_line(content: str, day: str) -> str:
    """The line palace writes for an entry."""
    return f"- [{day}] {content}"
