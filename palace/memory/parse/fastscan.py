"""The top-level blocks of plain memories.md text, found without mistune.

A memories.md is mostly ATX headings, one-line `- ` entries, plain paragraphs, blank lines, and now and then
a fenced code block, an HTML comment or a pipe table. For text made only of those the blocks follow from a
few rules, and finding them this way costs a regex per line instead of mistune's import and parse (most of
what a `palace memory save` process spent). Any other line (a quote, other HTML, indentation, a setext
underline, a link definition, an ordered list, emphasis at a line's start, odd whitespace) makes
`simple_tokens` answer None, and mistune parses the range as before. tests/test_fastscan.py holds the two to
the same answer on generated documents.
"""

from __future__ import annotations

import re
from typing import Any

# `## Room`: no closing hashes, text not starting with one.
_HEADING = re.compile(r"(#{1,6})[ \t]+([^\s#][^#]*)\Z")
# `- text`: one space, then text that cannot open another block inside the item.
_ITEM = re.compile(r"- (?!\[[^\]]*\]:|\[[^\]]*\Z)(?!\d{1,9}[.)])[^\s#>`~<*_+\-=$:\\]")
# A paragraph line that starts like prose: no marker, no indentation, not `1.`, not a link definition.
_TEXT = re.compile(r"(?!\d{1,9}[.)])[^\W_]|[(\"'“‘«¿¡!@/.,;?&%][^\s]|\||\[(?![^\]]*\]:)[^\]]*\]")
_FENCE = re.compile(r"(`{3,})[^`]*\Z|(~{3,}).*\Z")
_ODD_SPACE = re.compile(r"[\r\v\f\x00\x1c-\x1f\x85\u2028\u2029]")


def _kind(line: str) -> str | None:
    if not line.strip(" \t"):
        return "blank"
    if _ODD_SPACE.search(line):
        return None
    first = line[0]
    if first == "#":
        return "heading" if _HEADING.match(line) else None
    if first == "-":  # `- - -` is a rule, not an item: _ITEM wants a third character that is neither
        return "item" if _ITEM.match(line) else None
    if first in "`~":
        return "fence" if _FENCE.match(line) else None
    if first == "<":
        return "comment" if line.startswith("<!--") and not line.startswith(("<!-->", "<!--->")) else None
    return "text" if _TEXT.match(line) else None


def _fence_end(lines: list[str], start: int, last: int) -> int:
    """The line after the fenced block opened at start (its closing fence, or the end)."""
    match = _FENCE.match(lines[start])
    assert match is not None
    marker = match[1] or match[2]
    closing = re.compile(rf" {{0,3}}{re.escape(marker[0])}{{{len(marker)},}}[ \t]*\Z")
    for index in range(start + 1, last):
        if closing.match(lines[index]):
            return index + 1
    return last


def _comment_end(lines: list[str], start: int, last: int) -> int:
    """The line after the HTML comment block opened at start (the line holding `-->`, or the end)."""
    if "-->" in lines[start][4:]:
        return start + 1
    for index in range(start + 1, last):
        if "-->" in lines[index]:
            return index + 1
    return last


class _Reader:
    """The top-level tokens, as the lines come."""

    def __init__(self) -> None:
        self.tokens: list[tuple[int, dict[str, Any]]] = []
        self.state = ""  # the block being read: "", "blank", "heading", "paragraph", "list", "code", "html"
        self.items = 0
        self.starts: list[int] = []  # the lines the items of the list being read start at
        self.lazy = False  # may a text line continue the list's last item?

    def start(self, index: int, token: dict[str, Any], state: str) -> None:
        if self.state == "list":
            self.tokens[-1][1]["children"] = [None] * self.items
        self.tokens.append((index, token))
        self.state = state
        if state == "list":
            self.starts = token["items"] = [index]  # where each item starts: blocks.py needs no regex for it

    def blank(self, index: int) -> None:
        if self.state == "list":
            self.lazy = False  # blank lines inside and after a list belong to it
        elif self.state != "blank":
            self.start(index, {"type": "blank_line"}, "blank")

    def line(self, index: int, kind: str, text: str) -> None:
        if kind == "text" and (self.state == "paragraph" or (self.state == "list" and self.lazy)):
            return
        if kind == "item" and self.state == "list":
            self.items += 1
            self.lazy = True
            self.starts.append(index)
        elif kind == "heading":
            match = _HEADING.match(text)
            assert match is not None
            level = len(match[1])
            self.start(index, {"type": "heading", "text": match[2], "attrs": {"level": level}, "style": "atx"}, kind)
        elif kind == "item":
            self.start(index, {"type": "list"}, "list")
            self.items, self.lazy = 1, True
        else:
            self.start(index, {"type": "paragraph"}, "paragraph")

    def done(self) -> list[tuple[int, dict[str, Any]]]:
        self.start(-1, {}, "")
        return self.tokens[:-1]


def simple_tokens(lines: list[str], first: int, last: int) -> list[tuple[int, dict[str, Any]]] | None:
    """(line, token) for each top-level block of lines [first, last), shaped as mistune's; None when a line
    is not plain (mistune must parse the range)."""
    reader = _Reader()
    index = first
    while index < last:
        line = lines[index]
        kind = _kind(line)
        if kind is None:
            return None
        if kind == "blank":
            reader.blank(index)
        elif kind == "fence":
            reader.start(index, {"type": "block_code"}, "code")
            index = _fence_end(lines, index, last)
            continue
        elif kind == "comment":
            reader.start(index, {"type": "block_html"}, "html")
            index = _comment_end(lines, index, last)
            continue
        else:
            reader.line(index, kind, line)
        index += 1
    return reader.done()
