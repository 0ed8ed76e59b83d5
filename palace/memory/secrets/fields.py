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
    """The values of a CSV column whose header names a secret (a browser's or a password manager's export):
    each row with as many cells as the header, the header cell as the label."""
    text = scan.text
    starts = scan.line_starts()
    for number, start in enumerate(starts[:-1]):
        header = text[start : starts[number + 1] - 1]
        if header.count(",") < 2 or _re(r"[\w .\-]+(?:,[\w .\-]+)+").fullmatch(header) is None:
            continue
        cells = header.split(",")
        wanted = [i for i, cell in enumerate(cells) if _re(_SECRET_COLUMN).fullmatch(cell.strip().lower())]
        for row_start in starts[number + 1 : number + 200]:
            row_end = text.find("\n", row_start)
            row = text[row_start : row_end if row_end >= 0 else len(text)]
            if row.count(",") != len(cells) - 1:
                break
            offsets = [0, *(m.end() for m in _re(",").finditer(row))]
            for i in wanted:
                cell = row[offsets[i] :].split(",", 1)[0]
                if len(cell) >= 6:
                    label = start + sum(len(c) + 1 for c in cells[:i])
                    yield Field(
                        row_start + offsets[i],
                        row_start + offsets[i] + len(cell),
                        "column",
                        label,
                        label + len(cells[i]),
                    )


_SECRET_COLUMN = r"password|passwd|passphrase|secret|token|api[ _]?key|private[ _]?key|pin|totp|otpauth"
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
