"""Secret redaction of a whole file's messages at once, with exactly the result of redact() on each."""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate

from palace.memory.secrets import KINDS_BY_ANCHOR, SECRET_KINDS, UNANCHORED_KINDS, SecretKind, redact

_SEPARATOR = "\n"


_SCREENS: dict[int, tuple[re.Pattern[str], re.Pattern[str] | None]] = {}


def _screen(position: int, kind: SecretKind) -> tuple[re.Pattern[str], re.Pattern[str] | None]:
    """A kind's regex (and its folded form) run over the joined messages, with `^` and `$` at every line.

    Every match inside one message is then a match in the joined text at the same place (a message's edges
    sit at a newline, which every lookaround of the table treats as it treats the text's edges), so a
    message that no match of the joined text overlaps holds no secret."""
    screens = _SCREENS.get(position)
    if screens is None:
        flags = re.ASCII | re.MULTILINE
        folded = kind.folded is not None
        pattern = re.compile(kind.source, flags | (re.IGNORECASE if folded else 0))
        screens = (pattern, re.compile(kind.source, flags) if folded else None)
        _SCREENS[position] = screens
    return screens


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
        kind = SECRET_KINDS[position]
        # As redact() runs it on a message whose lower() kept its length: the folded form over the lower text.
        pattern, lowered = _screen(position, kind)
        regex, text = (pattern, joined) if lowered is None else (lowered, lower)
        for match in regex.finditer(text):
            first = bisect_right(starts, match.start()) - 1
            last = bisect_right(starts, max(match.end() - 1, match.start())) - 1
            suspects.update(range(first, last + 1))
    return [redact(text) if number in suspects else text for number, text in enumerate(texts)]
