"""Secret redaction of a whole file's messages at once, with exactly the result of redact() on each.

It was one pass of each table kind over the joined messages, redacting one by one only the messages a match
overlapped. The generic rules (palace/memory/secrets/generic.py) made that pass cost more than it saved: a
screen for them costs what the rules cost, and per message the table's token kinds run over the few
candidate tokens only. So each message is redacted alone (bench/bench_secrets.py measures both)."""

from __future__ import annotations

import re
from typing import NamedTuple

from palace.memory.secrets import SECRET_KINDS, SecretKind, redact, warm

# The table's screens, keyed by the kind's source (a kind whose regex changed runs without one): redact()
# searches a kind's screen before its regex (SecretKind.screen).
_SCREENED = {kind.source: kind.screen for kind in SECRET_KINDS if kind.screen is not None}


class _Regexes(NamedTuple):
    """A kind's regex and its screen, as run over a text with `^` and `$` at every line."""

    source: str
    folded: bool  # run over the lower-cased text
    screen: re.Pattern[str] | None  # searched first (see _SCREENED)


_FLAGS = re.ASCII | re.MULTILINE
_REGEXES: dict[int, _Regexes] = {}


def _regexes(position: int, kind: SecretKind) -> _Regexes:
    """A kind's regex (its folded form for a case-insensitive kind) and its compiled screen."""
    regexes = _REGEXES.get(position)
    if regexes is None:
        folded = kind.folded is not None
        screen = _SCREENED.get(kind.source)  # a folded kind's screen is lower case too: it runs over the same text
        regexes = _Regexes(kind.source, folded, re.compile(screen, _FLAGS) if screen else None)
        _REGEXES[position] = regexes
    return regexes


def redact_all(texts: list[str]) -> list[str]:
    """[redact(text) for text in texts]."""
    return [redact(text) for text in texts]


def compile_all() -> None:
    """Compile every regex redact() may run now (before worker processes are forked: each would compile its
    own)."""
    for position, kind in enumerate(SECRET_KINDS):
        _regexes(position, kind)
    warm()
