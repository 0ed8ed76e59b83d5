"""A password typed at a shell's prompt by mistake (the prompt had moved on): the shell then names it in its error,
`zsh: command not found: <pw>`, `bash: <pw>: command not found`, `fish: Unknown command: <pw>`, cmd.exe's `'<pw>'
is not recognized as an internal or external command`, PowerShell's `<pw> : The term '<pw>' is not recognized`.

The error says the word was typed as a command; a command's name has no mix of cases, digits and symbols, so
one that looks like a password (stems.password_value) is taken for one, and every copy of it in the text goes."""

from __future__ import annotations

import re
from collections.abc import Iterator

from palace.memory.secrets.scan import PASSWORD, Hit
from palace.memory.secrets.scan import regex as _re
from palace.memory.secrets.stems import password_value

# Each error, with the typed word as its one group; the literal each starts with (or holds) is looked for first.
_ERRORS = (
    ("command not found", r"command not found:[ \t]*([^\s'\"]{6,64})[ \t]*$"),
    ("command not found", r"^(?:[a-z]+:[ \t]+)?([^\s'\":]{6,64}):[ \t]*command not found"),
    ("nknown command", r"[Uu]nknown command:?[ \t]*['\"]?([^\s'\"]{6,64})['\"]?[ \t]*$"),
    ("is not recognized", r"'([^\s']{6,64})' is not recognized as (?:an internal or external command|the name)"),
)


def _typed(text: str) -> Iterator[str]:
    """The words a shell's error names as typed commands."""
    for literal, pattern in _ERRORS:
        if literal in text:
            for match in _re(pattern, re.ASCII | re.MULTILINE).finditer(text):
                yield match.group(1)


def _wordy(word: str) -> bool:
    """Most of it words one can say (`MyScript_V2`, `RunTests_v3`): a script's name, not a password."""
    return sum(map(len, _re(r"[A-Z]?[a-z]{2,}").findall(word))) > 0.5 * len(word)


def hits(text: str) -> Iterator[Hit]:
    """Each copy of a password that a shell's error says was typed as a command."""
    for word in set(_typed(text)):
        if not password_value(word) or _wordy(word) or word.startswith(("-", "./", "/")):
            continue
        at = text.find(word)
        while at >= 0:
            yield Hit(at, at + len(word), PASSWORD)
            at = text.find(word, at + len(word))
