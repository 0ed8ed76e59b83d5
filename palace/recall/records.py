"""A journal's lines as JSON records, read as json.loads reads each line, with less work per line."""

from __future__ import annotations

import json
from collections.abc import Iterator

_DECODE = json.JSONDecoder().decode  # what json.loads(str) runs


def journal_records(data: bytes) -> Iterator[object]:
    """The JSON value of each line of data that may be a `message` or `session` record, in order: what
    json.loads(line) gives for it (lines it cannot read are left out)."""
    text = _utf8(data)
    if text is None:
        yield from _slow_records(data)
        return
    for line in text.split("\n"):
        # The record types recall reads: a line without either as a JSON string, and without a \u escape
        # (which could spell one), is none of them (nor is a blank line) and is not decoded.
        if '"message"' in line or '"session"' in line or "\\u" in line:
            try:
                yield _DECODE(line)
            except ValueError:  # a truncated last line of a live journal, or a damaged line
                continue


def _utf8(data: bytes) -> str | None:
    """data decoded as json.loads decodes each of its lines, when that is UTF-8 for every line (no NUL byte,
    so no line looks like UTF-16 or UTF-32; no byte-order mark); else None."""
    if b"\x00" in data or b"\xef\xbb\xbf" in data:
        return None
    try:
        return data.decode("utf-8", "surrogatepass")  # \xff and \xfe (UTF-16 marks) are not UTF-8: not here
    except UnicodeDecodeError:
        return None


def _slow_records(data: bytes) -> Iterator[object]:
    for line in data.split(b"\n"):
        if not line.strip():
            continue
        try:
            yield json.loads(line)
        except ValueError:
            continue
