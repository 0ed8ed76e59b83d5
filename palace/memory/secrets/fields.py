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
