"""The corpus case type and a seeded generator of random strings in documented credential alphabets."""

from __future__ import annotations

import base64
import json
import random
import string
from dataclasses import dataclass

DIGITS = string.digits
HEX = "0123456789abcdef"
UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
LETTERS = string.ascii_letters
ALNUM = string.ascii_letters + string.digits
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
BASE32 = UPPER + "234567"
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
PASSWORD = ALNUM + "!#%&*+-.?@^_~"


@dataclass(frozen=True)
class Case:
    """One line (or block) a user might say or a transcript might hold.

    `kind` is the kind name palace should report (None: not a secret), `vendor` the credential format,
    `secret` the part that must never be stored or shown (None for look-alikes)."""

    text: str
    kind: str | None
    vendor: str
    secret: str | None = None


class Gen:
    """Random strings from a fixed seed, so the corpus is the same on every run and machine."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def chars(self, alphabet: str, n: int) -> str:
        """n characters drawn from alphabet."""
        return "".join(self.rng.choice(alphabet) for _ in range(n))

    def mixed(self, alphabet: str, n: int) -> str:
        """n characters from alphabet with a digit, an upper and a lower letter in it (as far as it has them)."""
        wanted = [test for test in (str.isdigit, str.isupper, str.islower) if any(map(test, alphabet))]
        while True:
            text = self.chars(alphabet, n)
            if all(any(map(test, text)) for test in wanted):
                return text

    def password(self, n: int = 14) -> str:
        """A random password with a digit and a symbol in it."""
        while True:
            text = self.chars(PASSWORD, n)
            if any(c.isdigit() for c in text) and any(not c.isalnum() for c in text):
                return text

    def url_password(self, n: int = 16) -> str:
        """A random password that needs no percent-encoding in a URL."""
        return self.mixed(ALNUM, n - 2) + self.chars("-_~.", 1) + self.chars(DIGITS, 1)

    def b64_bytes(self, n: int) -> str:
        """Standard base64 of n random bytes (padded)."""
        return base64.b64encode(self.rng.randbytes(n)).decode("ascii")

    def b64url(self, data: bytes) -> str:
        """Unpadded base64url of data."""
        return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")

    def digits(self, n: int) -> str:
        """n digits, the first not zero."""
        return self.chars("123456789", 1) + self.chars(DIGITS, n - 1)

    def uuid(self) -> str:
        """A random version-4 UUID."""
        h = self.chars(HEX, 32)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{self.rng.choice('89ab')}{h[17:20]}-{h[20:]}"

    def pick(self, options: list[str]) -> str:
        """One of options."""
        return self.rng.choice(options)


# Helpers the later blind parts share (each part keeps its own words and shapes).
BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
XML_SAFE_PASSWORD = PASSWORD.replace("&", "")  # so a password needs no escaping in XML either
SHELL_SAFE = ALNUM + "-_.@%+"  # a password that needs no quoting on a command line or in YAML


def strong_password(g: Gen, alphabet: str = XML_SAFE_PASSWORD, low: int = 11, high: int = 20) -> str:
    """A random password of low to high characters from alphabet with a letter, a digit and a symbol in it, and a
    letter or digit first (so that it is never read as a flag, a YAML tag or a comment)."""
    while True:
        text = g.chars(alphabet, g.rng.randint(low, high))
        if (
            text[0].isalnum()
            and any(c.isdigit() for c in text)
            and any(c.isalpha() for c in text)
            and any(not c.isalnum() for c in text)
        ):
            return text


def shell_safe_password(g: Gen) -> str:
    """A random password that needs no quoting on a command line, in YAML or in INI."""
    return strong_password(g, SHELL_SAFE)


def url_safe_password(g: Gen) -> str:
    """A random password that needs no percent-encoding in a URL."""
    return g.url_password(g.rng.randint(12, 18))


def b64_text(text: str) -> str:
    """Standard base64 of a UTF-8 text."""
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def pem_lines(body: str, width: int = 64) -> str:
    """body cut into lines of width characters."""
    return "\n".join(body[i : i + width] for i in range(0, len(body), width))


def json_b64url(g: Gen, value: object) -> str:
    """Unpadded base64url of compact JSON."""
    return g.b64url(json.dumps(value, separators=(",", ":")).encode())


def jwt(g: Gen, header: dict[str, str], payload: dict[str, object], sig_bytes: int = 32) -> str:
    """A JWT with the given header and payload and a random signature."""
    return f"{json_b64url(g, header)}.{json_b64url(g, payload)}.{g.b64url(g.rng.randbytes(sig_bytes))}"
