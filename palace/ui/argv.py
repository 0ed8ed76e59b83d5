"""The command line's words before the parser: the command made explicit, words that are not text, and the plain
forms of the hot short commands, read without argparse.

`palace memory save PATH CONTENT...`, `palace sessions search QUERY...` and `palace hook EVENT` run many times a
day, from scripts and from Claude Code; importing argparse (with gettext and locale) and building even one
subparser costs each of them about a sixth of a bare interpreter's start. Their plain forms, with no word that
starts with `-` (no flag, no `--help`), are read by plain_args into the namespace the parser gives them
(tests/test_cli_argv.py checks that the two are equal); anything else is None, and the parser
(palace/ui/parser.py) reads it as always.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    import argparse

_CHAT_VALUE_FLAGS = frozenset({"--model", "--base-url", "--wing"})


def route(words: list[str], commands: list[str]) -> list[str] | str:
    """The words with the command made explicit (`palace` is chat, `palace "question"` is ask), or the
    message for a mistyped command (`palace memroy`: did you mean `memory`?)."""
    if not words:
        return ["chat"]
    first = words[0]
    if first in {"-h", "--help", "--version"} or first in commands:
        return words
    if first == "help":
        return ["--help"]
    if first.startswith("-"):
        return ["ask", *words] if _has_message(words) else ["chat", *words]
    import difflib  # only for a word that is no command

    close = difflib.get_close_matches(first, commands, n=1, cutoff=0.75)
    if close and re.fullmatch(r"[a-z][a-z-]*", first):
        return f"unknown command `{first}`; did you mean `{close[0]}`? (`palace --help` lists the commands)"
    return ["ask", *words]


def _has_message(words: list[str]) -> bool:
    """Chat flags followed by words that are not theirs: `palace --model M "question"`."""
    expect_value = False
    for word in words:
        if expect_value:
            expect_value = False
        elif word == "--resume":
            return False  # its optional ID would read as the message
        elif word in _CHAT_VALUE_FLAGS:
            expect_value = True
        elif not word.startswith("-"):
            return True
    return False


def not_utf8(words: Sequence[str]) -> str | None:
    """Why the command line cannot be used as text: an argument with bytes that are not UTF-8 (or None)."""
    for number, word in enumerate(words, 1):
        try:  # strict UTF-8 refuses a lone surrogate, how Python hands over a byte that does not decode
            word.encode("utf-8")
        except UnicodeEncodeError:
            try:
                raw = word.encode("utf-8", "surrogateescape")
            except UnicodeEncodeError:
                raw = word.encode("utf-8", "backslashreplace")
            shown = raw.decode("utf-8", "backslashreplace")
            return (
                f'argument {number} ("{shown}") is not valid UTF-8, so it cannot be saved or sent; nothing was done '
                "— pass it as UTF-8 (check the encoding of your terminal or script)"
            )
    return None


def plain_args(words: Sequence[str]) -> argparse.Namespace | None:
    """The parser's namespace for the plain form of a hot command, or None (the parser reads the words)."""
    if len(words) < 2 or any(word.startswith("-") for word in words):
        return None
    command, rest = words[0], list(words[1:])
    found: dict[str, object] | None = None
    if command == "memory" and rest[0] == "save" and len(rest) >= 3:
        found = {"action": "save", "path": rest[1], "content": rest[2:], "replaces": None, "until": None}
    elif command == "sessions" and rest[0] == "search" and len(rest) >= 2:
        found = {"action": "search", "query": rest[1:], "limit": 5, "since": None, "until": None}
        found.update(wing=None, all_wings=False)
    elif command == "hook" and len(rest) == 1:
        found = {"event": rest[0], "wing": None}
    if found is None:
        return None
    # The attributes argparse sets, on a plain namespace that every reader (attributes, vars) reads the same way.
    return cast("argparse.Namespace", SimpleNamespace(command=command, **found))
