"""A secret handed to a command on its standard input, or written to a file named for it: `echo TOKEN | dart pub
token add`, `printf '%s' 'PW' | cryptsetup open ...`, `echo 'PW' > ~/.vault_pass`, `vncpasswd -f <<< 'PW'`.

The command (or the file) says what the value is: a word naming a secret in the rest of the line (`token`,
`passwd`, `--password-stdin`, `login`, `luks`), and the value must look like a password or be random."""

from __future__ import annotations

import re
from collections.abc import Iterator

from palace.memory.secrets import shape
from palace.memory.secrets.scan import PASSWORD, Hit
from palace.memory.secrets.scan import regex as _re
from palace.memory.secrets.stems import password_value

# `echo [-n] VALUE`, `printf '%s' VALUE` (the value quoted or bare), then `|`, `>` or `>>`, then the rest of the line.
_VALUE = r"(?:'([^'\n]{4,128})'|\"([^\"\n$`]{4,128})\"|([^\s'\"|>;&$`\-][^\s'\"|>;&$`]{3,127}))"
_ECHO = (
    r"(?<![\w\-])(?:echo(?:[ \t]+-[neE]{1,3})?|printf(?:[ \t]+(?:'%s(?:\\n)?'|\"%s(?:\\n)?\"))?)[ \t]+"
    + _VALUE
    + r"[ \t]*(\|{1}(?!\|)|>{1,2})[ \t]*([^\n;&]{1,160})"
)
_HERE = r"(?<![\w\-])([\w.\-]{2,40})(?:[ \t]+[^\s<|;&]{1,40}){0,4}[ \t]*<<<[ \t]*" + _VALUE
_COMMAND_NAMES = r"(?i)pass|pwd|token|secret|key(?!board)|login|auth|cred|stdin|luks|cryptsetup|vault|unlock"
# Commands that read nothing but a secret there: whatever is piped in is one (`echo user:pw | chpasswd`).
_READS_SECRET = (
    r"(?i)secret[ \t]+(?:create|set)|--password-stdin|chpasswd|passwd[ \t]+--stdin|--stdin-password|token[ \t]+add"
)
_FILE_NAMES = r"(?i)pass|pwd|secret|token|key|cred"


def _value(match: re.Match[str], first: int) -> tuple[int, int] | None:
    """The span of the value among the three alternatives of _VALUE, starting at group `first`."""
    for group in range(first, first + 3):
        span = match.span(group)
        if span[0] >= 0:
            return span
    return None


def _secret_like(value: str) -> bool:
    """Random, or a password: the command names it one, so a word in it is fine (`Lantern9941!`), a path is not."""
    if shape.is_placeholder(value) or "/" in value or password_value(value):
        return not shape.is_placeholder(value) and "/" not in value
    if shape.looks_random(value, hex_ok=True):
        return True
    mixed = _re(r"[A-Za-z]").search(value) and _re(r"[0-9!#%&*+=?@^~]").search(value)
    return bool(mixed) and len(value) >= 8 and shape.words_share(value) < 0.8


def hits(text: str) -> Iterator[Hit]:
    """Values piped, redirected or here-stringed into something that names them a secret."""
    if "echo" in text or "printf" in text:
        for match in _re(_ECHO).finditer(text):
            span = _value(match, 1)
            target = match.group(5)
            piped = match.group(4) == "|"
            if span is None or _re(_COMMAND_NAMES if piped else _FILE_NAMES, 0).search(target) is None:
                continue
            value = text[span[0] : span[1]]
            if (piped and _re(_READS_SECRET, 0).search(target) and not shape.is_placeholder(value)) or (
                len(value) >= 6 and _secret_like(value)
            ):
                yield Hit(span[0], span[1], PASSWORD)
    if "<<<" in text:
        for match in _re(_HERE).finditer(text):
            span = _value(match, 2)
            named = span is not None and _re(_COMMAND_NAMES, 0).search(match.group(1)) is not None
            if span is not None and named and _secret_like(text[span[0] : span[1]]):
                yield Hit(span[0], span[1], PASSWORD)
