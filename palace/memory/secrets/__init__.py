"""Credential detection: refuse secrets on save, redact them on recall.

    find_secret(text) -> kind name | None     the first kind of secret in text (a save refuses it)
    redact(text) -> str                        text with every secret replaced by `[redacted <kind>]`
    secret_lines(text) -> [(line, kind)]       for screening a file line by line: each line (numbered from 1,
                                               as an editor shows it) that holds part of a secret, with the
                                               kind; the text is judged whole, so both lines of a split key
                                               and every line of a key body are listed
    SECRET_KINDS                               the kinds, in the order a marker's name is chosen
    warm()                                     compile every regex now (before forking workers)

Two layers. The table (table.py: vendors' formats; prose.py: passwords named in words or by an option, in
several languages) holds kinds with a shape of their own. Every kind has anchors, lower-case literals one of
which occurs in every match once the text is lower-cased, so a kind whose anchors are all absent is skipped
without running its regex; a token kind (kinds.py) runs over the text's candidate tokens only (16+ characters
of the token alphabet; prose has few). The generic rules (generic.py, with urls.py, blocks.py, shape.py and
words.py) find what has no shape of its own: a random token named by a keyword before or after it in an
assignment, an option, a header or a sentence; a vendor-style prefix before a random body; base64 of a key
file or of `user:password`; key bodies without their header lines; secrets in URLs; BIP39 seed phrases
(bip39_english.txt) and wallet keys; the secret beside a key id or a redaction marker; a token cut over two
lines. Both work on the whole text, not line by line.

Regexes are compiled on first use, never at import: find_secret() runs in every `palace memory save`
process. redact() runs over every indexed message; bench/bench_secrets.py measures its cost against the
previous detector's, and its recall against a generated corpus (bench/secrets_corpus/)."""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from collections.abc import Iterator

from palace.memory.secrets import generic, vouched
from palace.memory.secrets.kinds import SecretKind
from palace.memory.secrets.prose import PROSE_KINDS
from palace.memory.secrets.table import SECRET_KINDS as _TABLE

SECRET_KINDS: tuple[SecretKind, ...] = (*_TABLE, *PROSE_KINDS, *generic.GENERIC_KINDS)
# A generic hit names its kind; a hit of two lines joined may name a table kind (the first of that name).
_POSITION = {kind.name: position for position, kind in reversed(list(enumerate(SECRET_KINDS)))}
_POSITION.update({kind.name: position for position, kind in enumerate(SECRET_KINDS) if kind.generic})
_MARKER = "[redacted {}]"

__all__ = [
    "KINDS_BY_ANCHOR",
    "SECRET_KINDS",
    "UNANCHORED_KINDS",
    "SecretKind",
    "find_secret",
    "redact",
    "secret_lines",
    "warm",
]


def _by_anchor() -> dict[str, list[int]]:
    """Each anchor, looked up once per text, with the table positions of the kinds it admits (recall's bulk
    redaction uses the same table)."""
    index: dict[str, list[int]] = {}
    for position, kind in enumerate(SECRET_KINDS):
        for anchor in kind.anchors:
            index.setdefault(anchor, []).append(position)
    return index


KINDS_BY_ANCHOR = _by_anchor()
UNANCHORED_KINDS = [position for position, kind in enumerate(SECRET_KINDS) if not kind.anchors and not kind.generic]


class _Anchors:
    """The anchors of a set of kinds, behind the gate those kinds share."""

    def __init__(self, gate: tuple[str, ...], anchors: dict[str, list[int]]) -> None:
        self.gate = gate
        self.common = "".join(set.intersection(*map(set, gate))) if gate else ""  # one lookup rules most out
        self.positions = anchors
        # An anchor that holds another (`authorization` holds `auth`) is looked up only where that one occurs.
        self.children: dict[str, list[str]] = {}
        self.roots: list[str] = []
        for anchor in anchors:
            inside = [other for other in anchors if other != anchor and other in anchor]
            if inside:
                self.children.setdefault(max(inside, key=len), []).append(anchor)
            else:
                self.roots.append(anchor)

    def admit(self, lower: str, admitted: set[int]) -> None:
        """Add to admitted the positions of the kinds whose gate and anchors occur in lower."""
        # Loops, not all()/any() over generators: this runs for every group on every message.
        if self.gate:
            for c in self.common:
                if c not in lower:
                    return
            for g in self.gate:  # its first character first: `\x0b-` is looked for only where there is a `\x0b`
                if g[0] in lower and g in lower:
                    break
            else:
                return
        found = [anchor for anchor in self.roots if anchor in lower]
        for anchor in found:  # (and the children's children, appended as found)
            admitted.update(self.positions[anchor])
            children = self.children.get(anchor)
            if children:
                found += [child for child in children if child in lower]


def _anchor_groups(token: bool, ascii_only: bool) -> list[_Anchors]:
    """The anchors of the token kinds (token=True) or of the others, grouped by gate; only the ASCII anchors or
    only the others."""
    groups: dict[tuple[str, ...], dict[str, list[int]]] = {}
    for anchor, positions in KINDS_BY_ANCHOR.items():
        if anchor.isascii() != ascii_only:
            continue
        for position in positions:
            kind = SECRET_KINDS[position]
            if kind.token == token:
                groups.setdefault(kind.gate, {}).setdefault(anchor, []).append(position)
    return [_Anchors(gate, anchors) for gate, anchors in groups.items()]


# Looked up in the text (those that are not ASCII only in a text that is not), or (a token kind's) in its
# candidate tokens only: each lookup scans the whole text when the anchor is absent, as it mostly is.
_TEXT_ANCHORS = _anchor_groups(token=False, ascii_only=True)
_OTHER_ANCHORS = _anchor_groups(token=False, ascii_only=False)
_TOKEN_ANCHORS = _anchor_groups(token=True, ascii_only=True) + _anchor_groups(token=True, ascii_only=False)


def _admitted(lower: str, tokens: str) -> list[int]:
    """The table positions, in table order, of the kinds whose anchors occur in lower (the lower-cased text)
    or, for a token kind, in tokens (its candidate tokens, lower-cased)."""
    admitted = set(UNANCHORED_KINDS)
    for group in _TEXT_ANCHORS if lower.isascii() else _TEXT_ANCHORS + _OTHER_ANCHORS:
        group.admit(lower, admitted)
    if tokens:
        for group in _TOKEN_ANCHORS:
            group.admit(tokens, admitted)
    return sorted(admitted)


class _Tokens:
    """A text's candidate tokens joined by spaces (a space is no token character, so each token's edges look
    to a regex as they do in the text), with the way back to the text's offsets."""

    def __init__(self, text: str, spans: list[tuple[int, int]]) -> None:
        self.text = " ".join(text[a:b] for a, b in spans)
        self.lower = self.text.lower()
        self.starts: list[int] = []  # where each token starts in self.text
        at = 0
        for a, b in spans:
            self.starts.append(at)
            at += b - a + 1
        self.spans = spans

    def offset(self, at: int) -> int:
        """The offset in the text of offset at of self.text (at inside a token, or at its end)."""
        index = bisect_right(self.starts, at) - 1
        return self.spans[index][0] + at - self.starts[index]

    def matches(self, kind: SecretKind) -> Iterator[tuple[int, int]]:
        """The spans in the text of a token kind's matches."""
        if kind.folded is not None and len(self.lower) == len(self.text):
            found = kind.folded.finditer(self.lower)
        else:
            found = kind.pattern.finditer(self.text)
        return ((self.offset(m.start()), self.offset(m.end())) for m in found)


def _table_matches(
    text: str, spans: list[tuple[int, int]] | None = None, lower: str | None = None
) -> Iterator[tuple[int, int, int]]:
    """(table position, start, end) of every match of every table kind in text, kind by kind in table order;
    spans: the text's candidate tokens (generic.candidates), which the token kinds run over."""
    lower = text.lower() if lower is None else lower
    folded = lower if len(lower) == len(text) else None
    tokens = _Tokens(text, generic.candidates(text) if spans is None else spans)
    for position in _admitted(lower, tokens.lower):
        kind = SECRET_KINDS[position]
        if kind.token:  # (no case-insensitive token kind has a screen)
            if kind.screened_out(tokens.text):
                continue
            found: Iterator[tuple[int, int]] = tokens.matches(kind)
        elif kind.ignore_case and folded is not None:  # the screen first: `folded` compiles the regex
            if kind.screened_out(folded, lowered=True) or kind.folded is None:
                continue
            found = (match.span() for match in kind.folded.finditer(folded))
        else:
            if kind.screened_out(text):
                continue
            found = (match.span() for match in kind.pattern.finditer(text))
        yield from ((position, start, end) for start, end in found)


def _hits(text: str, join: bool = True) -> list[tuple[int, int, int]]:
    """(start, end, table position) of every secret in text: the table's, then the generic rules'."""
    spans = generic.candidates(text)
    lower = text.lower()  # once for both layers
    table = [
        (start, end, position)
        for position, start, end in _table_matches(text, spans, lower)
        if end > start and not vouched.cleared(text, start, end)
    ]
    named = [(start, end, SECRET_KINDS[position].name) for start, end, position in table]
    detect = _joined_detector if join else None
    found = generic.find(text, named, detect, spans, lower if len(lower) == len(text) else None)
    return table + [(hit.start, hit.end, _POSITION[hit.name]) for hit in found if hit.end > hit.start]


def _joined_detector(text: str) -> list[tuple[int, int, str]]:
    """The detector without its joining of lines, for two lines joined."""
    return [(start, end, SECRET_KINDS[position].name) for start, end, position in _hits(text, join=False)]


@functools.lru_cache(maxsize=512)  # a save checks its path and content at each layer it passes through
def find_secret(text: str) -> str | None:
    """The name of the first kind of secret in text, or None."""
    spans = generic.candidates(text)
    lower = text.lower()
    for position, start, end in _table_matches(text, spans, lower):
        if not vouched.cleared(text, start, end):
            return SECRET_KINDS[position].name
    same = lower if len(lower) == len(text) else None
    positions = [
        _POSITION[hit.name] for hit in generic.find(text, [], _joined_detector, spans, same) if hit.end > hit.start
    ]
    return SECRET_KINDS[min(positions)].name if positions else None


def _spans(text: str) -> list[list[int]]:
    """[start, end, position of the most specific kind] of each run of overlapping hits, in order."""
    spans: list[list[int]] = []
    for start, end, position in sorted(_hits(text)):
        if spans and start < spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], end)
            spans[-1][2] = min(spans[-1][2], position)
        else:
            spans.append([start, end, position])
    return spans


def _redact_once(text: str) -> str:
    """Text with each run of overlapping hits replaced by one marker naming the most specific kind."""
    spans = _spans(text)
    if not spans:
        return text
    parts: list[str] = []
    done = 0
    for start, end, position in spans:
        parts += [text[done:start], _MARKER.format(SECRET_KINDS[position].name)]
        done = end
    return "".join(parts) + text[done:]


def redact(text: str) -> str:
    """Text with every recognised secret replaced, whole, by a `[redacted <kind>]` marker (over the whole text:
    a key split over two lines, or a key body without its header lines, is found as one)."""
    # A marker can give a neighbour the word boundary it lacked (`AIza...ghp_...`): redact until nothing changes.
    for _ in range(4):
        redacted = _redact_once(text)
        if redacted == text:
            break
        text = redacted
    return text


def warm() -> None:
    """Compile every regex the detector may run (before worker processes are forked: each would compile its
    own), by running it once over a text that admits every kind."""
    for kind in SECRET_KINDS:
        _ = kind.pattern if kind.folded is None else kind.folded
        kind.screened_out("")
        kind.screened_out("", lowered=True)
    redact(" ".join(KINDS_BY_ANCHOR) + "\n1. seed https://a:b@c.d/?sig=0 \\n\n" + "Ab1" * 8 + '"kty" [redacted x]')


def secret_lines(text: str) -> list[tuple[int, str]]:
    """(line number from 1, kind name) of each line of text that holds part of a secret, for screening a file
    line by line; the text is judged whole, so both lines of a split key and every line of a key body count.
    A line with parts of several secrets is named after the most specific."""
    starts = [0, *(m.end() for m in re.finditer(r"\n", text))]
    found: dict[int, int] = {}
    for start, end, position in _spans(text):
        first = _line(starts, start)
        last = _line(starts, max(start, end - 1))
        for number in range(first, last + 1):
            found[number] = min(found.get(number, position), position)
    return [(number + 1, SECRET_KINDS[position].name) for number, position in sorted(found.items())]


def _line(starts: list[int], at: int) -> int:
    return bisect_right(starts, at) - 1
