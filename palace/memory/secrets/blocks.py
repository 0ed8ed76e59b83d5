"""Key bodies without their header lines: blocks of base64 lines of key size (each alone on its line, all
as wide but the last), and the same joined by `\\n` inside a JSON string, unless a public key's or a
certificate's header is above them or they decode to text or to a public key."""

from __future__ import annotations

from collections.abc import Iterator

from palace.memory.secrets import shape
from palace.memory.secrets.scan import PRIVATE_KEY, Hit, Text
from palace.memory.secrets.scan import regex as _re

ESCAPED_BLOCK = r"(?:[A-Za-z0-9+/]{40,}={0,2}\\n){2,}[A-Za-z0-9+/]*={0,2}"
_PUBLIC_HEADER = r"-{4,5} ?BEGIN (?!.*PRIVATE)[A-Z0-9 ]+-{4,5}|Public-Lines:"


def base64_line(scan: Text, start: int, end: int) -> bool:
    """A token of 40+ standard base64 characters alone on its line (quotes and indentation aside)."""
    text = scan.text
    if end - start < 40 or _re(r"[A-Za-z0-9+/]+=*").fullmatch(text, start, end) is None:
        return False
    left = text[scan.line_start(start) : start]
    line_end = text.find("\n", end)
    right = text[end : len(text) if line_end < 0 else line_end]
    return _re(r"[ \t\"'`]*").fullmatch(left) is not None and _re(r"[ \t\"'`,\\]*").fullmatch(right) is not None


def blocks(scan: Text, lines: list[tuple[int, int]]) -> Iterator[Hit]:
    """The blocks of consecutive base64 lines (each (start, end)) that hold a private key's body."""
    groups: list[list[tuple[int, int]]] = []
    for span in lines:
        if groups and scan.line_of(span[0]) == scan.line_of(groups[-1][-1][0]) + 1:
            groups[-1].append(span)
        else:
            groups.append([span])
    for group in groups:
        group = [*group, *_tail_line(scan, group[-1][1])]
        widths = {end - start for start, end in group[:-1]}
        if len(group) < 2 or len(widths) > 1 or sum(end - start for start, end in group) < 120:
            continue
        if _private_body(scan.text, group[0][0], "".join(scan.text[a:b] for a, b in group)):
            yield Hit(group[0][0], group[-1][1], PRIVATE_KEY)


def _tail_line(scan: Text, end: int) -> list[tuple[int, int]]:
    """The short last line of a base64 block (or a PGP checksum line) after the line ending at end."""
    match = _re(r"\r?\n[ \t\"']*(=?[A-Za-z0-9+/]{0,99}[0-9+/=][A-Za-z0-9+/]{0,99}={0,2})[ \t\"',]*(?=\r?\n|$)").match(
        scan.text, end
    )
    return [(match.start(1), match.end(1))] if match else []


def _private_body(text: str, start: int, body: str) -> bool:
    """Whether a base64 block starting at start is a private key's body: not under a public key's or a
    certificate's header, not base64 of text, not DER of a public key or certificate."""
    before = text[max(0, start - 400) : start]
    headers = _re(_PUBLIC_HEADER + r"|-{4,5} ?BEGIN [A-Z0-9 ]*PRIVATE").findall(before)
    if headers and "PRIVATE" not in headers[-1]:
        return False
    data = shape.b64decode(_strip_checksum(body))
    if data is None or shape.printable(data) is not None:
        return False
    return data[:1] != b"\x30" or shape.der_private(data)


def _strip_checksum(body: str) -> str:
    """A PGP block's body without its `=XXXX` checksum line."""
    match = _re(r"(.*?=*)(=[A-Za-z0-9+/]{4})").fullmatch(body)
    return match.group(1) if match else body


def escaped_blocks(scan: Text) -> Iterator[Hit]:
    """Key bodies inside a JSON string, their lines joined by `\\n`."""
    text = scan.text
    for match in _re(ESCAPED_BLOCK).finditer(text):
        if _private_body(text, match.start(), match.group().replace("\\n", "")):
            yield Hit(match.start(), match.end(), PRIVATE_KEY)
