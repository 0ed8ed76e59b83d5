"""Secret redaction of a whole file's messages at once, with exactly the result of redact() on each."""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate
from typing import NamedTuple

from palace.memory.secrets import (
    _DISCORD,
    _MAILGUN,
    _TELEGRAM,
    KINDS_BY_ANCHOR,
    SECRET_KINDS,
    UNANCHORED_KINDS,
    SecretKind,
    redact,
)

_SEPARATOR = "\n"


# A kind whose regex starts with a character class is tried at every position of the text: for those a
# screen, a regex starting with a literal (searched for quickly) that matches inside every match of the kind,
# is searched first, and the kind runs only if it finds something. Keyed by the kind's source: a kind whose
# regex changed runs without one.
_SCREENED = {
    _TELEGRAM: r":[A-Za-z0-9_\-]{35}",  # the `:` after the bot id and the 35 characters after it
    _MAILGUN: r"-[0-9a-f]{8}-[0-9a-f]{8}\b",  # the last two groups
    _DISCORD: r"\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27}",  # from the first dot
}


class _Regexes(NamedTuple):
    """How redact_all runs one kind over the joined messages."""

    source: str
    folded: bool  # run over the lower-cased text
    screen: re.Pattern[str] | None  # searched first (see _SCREENED)


_FLAGS = re.ASCII | re.MULTILINE
_REGEXES: dict[int, _Regexes] = {}
_PATTERNS: dict[int, re.Pattern[str]] = {}


def _regexes(position: int, kind: SecretKind) -> _Regexes:
    """A kind's regex (its folded form for a case-insensitive kind) run over the joined messages, with `^` and
    `$` at every line; its screen compiled (the regex itself is compiled when the screen finds something).

    Every match inside one message is then a match in the joined text at the same place (a message's edges
    sit at a newline, which every lookaround of the table treats as it treats the text's edges), so a
    message that no match of the joined text overlaps holds no secret."""
    regexes = _REGEXES.get(position)
    if regexes is None:
        folded = kind.folded is not None
        screen = _SCREENED.get(kind.source) if not folded else None
        # A folded kind's regex without IGNORECASE runs over the lower-cased text, as redact() runs it.
        regexes = _Regexes(kind.source, folded, re.compile(screen, _FLAGS) if screen else None)
        _REGEXES[position] = regexes
    return regexes


def _pattern(position: int, regexes: _Regexes) -> re.Pattern[str]:
    pattern = _PATTERNS.get(position)
    if pattern is None:
        pattern = _PATTERNS[position] = re.compile(regexes.source, _FLAGS)
    return pattern


def redact_all(texts: list[str]) -> list[str]:
    """[redact(text) for text in texts], with one pass of each admitted kind over the joined texts: only
    the messages a possible secret overlaps are redacted one by one (most files have none)."""
    if len(texts) < 2:
        return [redact(text) for text in texts]
    joined = _SEPARATOR.join(texts)
    lower = joined.lower()
    if len(lower) != len(joined):  # a message changed length when lowered: its offsets differ (rare)
        return [redact(text) for text in texts]
    starts = [0, *accumulate(len(text) + len(_SEPARATOR) for text in texts)][:-1]
    admitted = set(UNANCHORED_KINDS)
    for anchor, positions in KINDS_BY_ANCHOR.items():
        if anchor in lower:
            admitted.update(positions)
    suspects: set[int] = set()
    for position in sorted(admitted):
        regexes = _regexes(position, SECRET_KINDS[position])
        text = lower if regexes.folded else joined
        if regexes.screen is not None and regexes.screen.search(text) is None:
            continue
        for match in _pattern(position, regexes).finditer(text):
            first = bisect_right(starts, match.start()) - 1
            last = bisect_right(starts, max(match.end() - 1, match.start())) - 1
            suspects.update(range(first, last + 1))
    return [redact(text) if number in suspects else text for number, text in enumerate(texts)]


def compile_all() -> None:
    """Compile every kind's regexes now (before worker processes are forked: each would compile its own)."""
    for position, kind in enumerate(SECRET_KINDS):
        _pattern(position, _regexes(position, kind))
        _ = kind.pattern if kind.folded is None else kind.folded  # what redact() runs, compiled on first use
