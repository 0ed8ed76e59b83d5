"""`/remember PATH CONTENT` and `/forget PATH CONTENT`: where the path ends and the content begins.

Two halls have a space in their display form (`Project Knowledge`, `Workflow Patterns`), and completion
inserts that form, so a path may contain spaces: a hall name is recognised as a whole, with or without a
wing before it. A path may also be quoted, shell style (`"Project Knowledge/db"` or `'...'`); then the
room may have spaces too. The content is the rest of the line, as typed.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from palace.errors import PalaceError
from palace.memory.halls import Hall


class PathArg(NamedTuple):
    path: str
    content: str


def _hall_pattern() -> str:
    names = sorted((hall.value for hall in Hall if " " in hall.value), key=len, reverse=True)
    return "|".join(r"\s+".join(re.escape(word) for word in name.split()) for name in names)


# An optional wing, a hall whose name has spaces, then the room: `[wing/]Project Knowledge/room`.
_SPACED = re.compile(rf"(?P<path>(?:[^\s/\"']+/)?(?:{_hall_pattern()})/[^\s/]+(?:/[^\s/]*)*)(?:\s+|$)", re.I)
_QUOTES = "\"'"


def split_path_arg(arg: str, usage: str) -> PathArg:
    """The memory path and the content of a command's argument; PalaceError with the usage when one is missing."""
    text = arg.strip()
    if text and text[0] in _QUOTES:
        end = text.find(text[0], 1)
        if end < 0:
            raise PalaceError(f"the path's closing quote {text[0]} is missing; usage: {usage}")
        path, content = text[1:end], text[end + 1 :]
        if content and not content[0].isspace():
            raise PalaceError(f"put a space after the quoted path; usage: {usage}")
    else:
        spaced = _SPACED.match(text)
        if spaced:
            path, content = " ".join(spaced.group("path").split()), text[spaced.end() :]
        else:
            path, _, content = text.partition(" ")
    path, content = path.strip(), content.strip()
    if not path or not content:
        raise PalaceError(f"usage: {usage}")
    return PathArg(path, content)


def completion_text(path: str, typed: str) -> str:
    """What completion inserts for path, given what was typed so far: quoted when the user opened a quote."""
    if typed and typed[0] in _QUOTES:
        quote = typed[0]
        return f"{quote}{path}" if path.endswith("/") else f"{quote}{path}{quote} "
    return path if path.endswith("/") else f"{path} "


def typed_path(typed: str) -> str:
    """The path prefix in what was typed (without an opening quote)."""
    return typed[1:] if typed and typed[0] in _QUOTES else typed
