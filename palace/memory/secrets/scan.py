"""What the generic rules share: the kinds they name, a hit, the text being scanned, cached regexes."""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from typing import NamedTuple

from palace.memory.secrets.kinds import SecretKind

# The generic kinds, after the table's: a table kind's name wins where both match.
API_TOKEN = "API token"
SECRET = "secret assignment"
PASSWORD = "password assignment"
PRIVATE_KEY = "private key"
BASIC = "basic auth credentials"
WALLET = "wallet private key"
SEED = "seed phrase"
URL_TOKEN = "URL with a token"
WEBHOOK = "webhook URL"
URL_PASSWORD = "URL with a password"
JWK = "JSON Web Key"
PAIR = "secret key"
RANDOM_PASSWORD = "random password"
NAMES = (
    URL_PASSWORD, API_TOKEN, SECRET, PASSWORD, PRIVATE_KEY, BASIC, WALLET, SEED, URL_TOKEN, WEBHOOK, JWK, PAIR,
    RANDOM_PASSWORD,
)  # fmt: skip
VERSION = "generic rules 9"  # part of each generic kind's source: a change rebuilds the recall index
GENERIC_KINDS = tuple(SecretKind(name, f"(?!)(?#{VERSION})", (), generic=True) for name in NAMES)


class Hit(NamedTuple):
    """A span of text and the name of the kind of secret there."""

    start: int
    end: int
    name: str


@functools.cache  # compiled on first use, never at import
def regex(source: str, flags: int = re.ASCII) -> re.Pattern[str]:
    return re.compile(source, flags)


class Text:
    """The text being scanned, with what the rules look up in it more than once."""

    def __init__(self, text: str, lower: str | None = None) -> None:
        self.text = text
        self._line_starts: list[int] | None = None
        self._lower = lower  # (given: text.lower(), as long as text)

    def lower(self) -> str:
        """The text lower-cased character for character (one whose lower case is longer is kept), so that
        offsets in it are offsets in the text."""
        if self._lower is None:
            lower = self.text.lower()
            if len(lower) != len(self.text):
                lower = "".join(c if len(c.lower()) != 1 else c.lower() for c in self.text)
            self._lower = lower
        return self._lower

    def line_starts(self) -> list[int]:
        """The offset of each line's first character."""
        if self._line_starts is None:
            self._line_starts = [0, *(m.end() for m in regex(r"\n").finditer(self.text))]
        return self._line_starts

    def line_of(self, at: int) -> int:
        """The line number (from 0) of offset at."""
        return bisect_right(self.line_starts(), at) - 1

    def line_start(self, at: int) -> int:
        """The offset of the start of at's line."""
        return self.text.rfind("\n", 0, at) + 1
