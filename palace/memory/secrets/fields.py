"""Values given to a field whose name is on another field: `- name: DB_PASSWORD` then `value: ...` (Kubernetes,
ECS, compose), `variable "db_password" { default = "..." }` (HCL), `<add key="ClearTextPassword" value="..."/>`,
`{"name": "API_TOKEN", "value": "..."}`. The keyword is in the label, not before the value."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from palace.memory.secrets.scan import Text
from palace.memory.secrets.scan import regex as _re

# A field that holds a value (matched where its name ends); `plaintext_value` and `secret_value` say by their
# name that it is a secret.
_NAMES = ("value", "default")
_FIELD = r"[\"']?[ \t]*(?:[:=]|=>)[ \t]*[\"']?(?![$<{%\[(])([^\s\"'`,;}\]<>]{6,200})"
_AFTER_NAME = ('"', "'", " ", "\t", ":", "=")  # what may follow a field's name (a quick test first)
_FIELD_NAME = r"(?:plaintext_|secret_)?(?:value|default)$"
SECRET_FIELDS = ("plaintext_value", "secret_value")
# A field or block that names the value below it (or beside it, on its own line).
_LABEL = r"(?:(?<![^\n])|[\s{\"'<,\-])(?:name|key|variable|resource|secret_name|parameter|env|id)(?![A-Za-z0-9_])"
_ABOVE = 3  # lines a label may be above its value


class Field(NamedTuple):
    """A value (start, end), its field's name, and the label's span of text that may name it."""

    start: int
    end: int
    field: str
    label_start: int
    label_end: int


def fields(scan: Text) -> Iterator[Field]:
    """Each value field in the text with the nearest label on its line (before it) or on a line above."""
    text = scan.text
    lower = scan.lower()
    for word in _NAMES:
        at = lower.find(word)
        while at >= 0:
            end = at + len(word)
            value = _re(_FIELD).match(text, end) if lower[end : end + 1] in _AFTER_NAME else None
            name = _re(_FIELD_NAME).search(lower, max(0, at - 10), end) if value else None
            before = lower[name.start() - 1] if name and name.start() else " "
            if value and name and not (before.isalnum() or before in "_-"):
                label = _label(scan, scan.line_start(at), name.start())
                if label is not None:
                    yield Field(value.start(1), value.end(1), name.group(), *label)
            at = lower.find(word, end)


def tagged(scan: Text) -> Iterator[Field]:
    """XML values named by the element above (`<name>fs.s3a.secret.key</name>` then `<value>...</value>`, a
    plist's `<key>APISecret</key>` then `<string>...</string>`)."""
    text, lower = scan.text, scan.lower()
    for tag in ("<value>", "<string>"):
        at = lower.find(tag)
        while at >= 0:
            value = _re(r"[ \t]*([^\s<>]{6,200})[ \t]*</").match(text, at + len(tag))
            label = _label(scan, scan.line_start(at), at) if value else None
            if value and label is not None:
                yield Field(value.start(1), value.end(1), tag[1:-1], *label)
            at = lower.find(tag, at + len(tag))


def columns(scan: Text) -> Iterator[Field]:
    """The values of a table's column whose header names a secret (a browser's or a password manager's CSV
    export, a spreadsheet pasted with tabs, a markdown table): each row with as many cells as the header, the
    header cell as the label. Only lines holding a secret's word are tried as a header."""
    text, lower = scan.text, scan.lower()
    starts = scan.line_starts()
    tried: set[int] = set()
    for word in _re(SECRET_COLUMN_WORDS).finditer(lower):
        number = scan.line_of(word.start())
        if number in tried or number + 1 >= len(starts):
            continue
        tried.add(number)
        line = text[starts[number] : starts[number + 1]]
        for delimiter in _DELIMITERS:
            if line.count(delimiter) >= 1 + (delimiter == ","):
                yield from _column_values(text, starts, number, delimiter)


_DELIMITERS = (",", "\t", "|")
_HEADER_CELL = r"[\w .\-]+"
_RULE_ROW = r"[ \t]*\|?(?:[ \t]*:?-{3,}:?[ \t]*\|)+(?:[ \t]*:?-{3,}:?[ \t]*)?"  # a markdown table's rule


def _cells(text: str, start: int, end: int, delimiter: str) -> list[tuple[int, int]]:
    """The spans of a row's cells, spaces around them left out (a markdown row's outer bars too)."""
    line = text[start:end].rstrip("\r")
    if delimiter == "|":
        if not (line.lstrip().startswith("|") and line.rstrip().endswith("|")):
            return []
        first, last = line.index("|"), line.rindex("|")
        line, start = line[first + 1 : last], start + first + 1
    spans, at = [], 0
    for cell in line.split(delimiter):
        lead = len(cell) - len(cell.lstrip())
        spans.append((start + at + lead, start + at + len(cell.rstrip())))
        at += len(cell) + 1
    return spans


def _column_values(text: str, starts: list[int], number: int, delimiter: str) -> Iterator[Field]:
    """The values of the secret columns under line number as a header of cells split by delimiter."""
    header = _cells(text, starts[number], starts[number + 1] - 1, delimiter)
    if len(header) < (3 if delimiter == "," else 2) or not all(
        _re(_HEADER_CELL).fullmatch(text, a, b) for a, b in header
    ):
        return
    wanted = [i for i, (a, b) in enumerate(header) if _re(_SECRET_COLUMN).fullmatch(text[a:b].lower())]
    for row_number in range(number + 1, min(number + 200, len(starts))):
        row_end = starts[row_number + 1] - 1 if row_number + 1 < len(starts) else len(text)
        if (
            delimiter == "|"
            and row_number == number + 1
            and _re(_RULE_ROW).fullmatch(text, starts[row_number], row_end)
        ):
            continue
        row = _cells(text, starts[row_number], row_end, delimiter)
        if len(row) != len(header):
            return
        for i in wanted:
            a, b = row[i]
            if b - a >= 6:
                yield Field(a, b, "column", *header[i])


# A header that names a secret, perhaps after a word (`db_password`, `dbPassword`, `api token`).
_SECRET_COLUMN = (
    r"(?:[a-z0-9]{1,20}[ _.\-]?)?(?:password|passwd|passphrase|secret|token|api[ _]?key|private[ _]?key)"
    r"|(?:[a-z0-9]{1,20}[ _.\-])?(?:pin|totp|otpauth)"
)
SECRET_COLUMN_WORDS = r"pass|secret|token|key|pin|totp|otpauth"  # (one of them is in a header that names one)


def _label(scan: Text, line: int, field: int) -> tuple[int, int] | None:
    """The span of the nearest label: the field's own line before it, else one of the _ABOVE lines above."""
    text = scan.text
    if _re(_LABEL).search(text, line, field):
        return line, field
    end = line - 1
    for _ in range(_ABOVE):
        if end < 0:
            return None
        start = scan.line_start(end)
        if _re(_LABEL).search(text, start, end):
            return start, end
        end = start - 1
    return None
