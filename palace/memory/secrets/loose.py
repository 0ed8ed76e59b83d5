"""Random passwords wherever they stand: a token in the shape a password generator makes (capitals, small
letters, digits and a symbol such as `!`, `#`, `%`, `&`, `*`, `?`, `@`, `^` or `~`, mixed at random, 8-48
characters), found without a keyword before it. Commands, configs, code and sentences in any language give a
password so many ways (`snmp-server community ...`, `IDENTIFIED BY ...`, `ssh.Password("...")`, "heslo k wifi je
...", "I set the bastion one to ...") that no list of contexts keeps up; the shape holds in all of them.

What is not one: words, names and identifiers (`HelloWorld2024!`, `#Q3Goals`), versions (`^1.2.3-Beta.4`),
paths, URLs and their query strings, percent-encoded text, base64 of text, shell and template references
(`${X}`, `%(pw)s`), and code (split at brackets, quotes and separators, its pieces are short or made of
words). bench/bench_secrets.py measures it on the look-alikes and on ordinary messages."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from palace.memory.secrets import shape
from palace.memory.secrets.scan import RANDOM_PASSWORD, Hit
from palace.memory.secrets.scan import Text as _Text
from palace.memory.secrets.scan import regex as _re

__all__ = ["hits", "spans"]

# A run between spaces with a strong symbol beside a letter or a digit: where a generated password may be
# (prose has few such places).
_STRONG = frozenset("!#$%&*?@^~+")
_STRONG_CLASS = r"[!#$%&*?@^~+]"
_RUN = rf"(?<!\S)\S*?(?:[A-Za-z0-9]{_STRONG_CLASS}|{_STRONG_CLASS}[A-Za-z0-9])\S*"
_WRAP = "\"'`([{<>=:,;)]}"  # what may stand around a value: quotes, brackets, `=`, `:`, `>` (Redis ACL's `>pw`)
_END = ".!?,;:"  # what may end a sentence after one
# Code split at brackets, quotes, separators, spaces and other scripts: the ASCII left, spelled out (a negated
# class with the whole of Unicode in it costs 2-7 ms to compile in every process that redacts).
_PIECE = r"[\x00-\x08\x0e-\x1f!#-&*+\-./0-9?@A-Z^_a-z~\x7f]+"
_CODE = r"[\"'`()\[\]{}<>\\|]"  # inside a run, code: only its pieces are judged
# A format string (`%H%x1f%s`), a regex's ranges (`A-Za-z0-9`), a dotted name after an operator (`~Flags.NO_X`).
# An e-mail address, an IPv6 address, a reference to a name (`$HOME2`, `%XMLSet_6`, `#Q3Goals`), a locale
# (`sr_RS.UTF-8@latin`).
_NOT_RANDOM = (
    r"A-[FZ]|a-[fz]|0-9|^[!#$%&*?@^~+]?[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$"
    r"|@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[a-z]{2,}$|:.*:.*:|^[$%@#][A-Za-z_][A-Za-z0-9_]*$"
    r"|^[a-z]{2,3}_[A-Z]{2}(?![A-Za-z0-9])"
)
# Arithmetic (`519750*C1*x**8`, `2*I*pi/n`): numbers and plain names between operators, and nothing else.
_NUMBER = r"[0-9]+(?:\.[0-9]+)?(?:e[-+]?[0-9]+)?"
_OPERAND = rf"(?:{_NUMBER}|[A-Za-z]{{1,2}}[0-9]*|[a-z]{{3,}}[0-9]*|[A-Z][a-z]{{2,}}[0-9]*|[A-Z]{{2,}}[0-9]*)"
_NAME = rf"{_OPERAND}(?:[._]{_OPERAND})*"
_EXPRESSION = rf"[-+]?{_NAME}(?:(?:\*\*|[-*+/^]){_NAME})+\.?"
_SHORTEST, _LONGEST = 8, 48
_SYMBOLS = 0.4  # more symbols than this: an expression (`2**R*y*M`), not a password
_BASE64 = r"(?:[A-Za-z0-9_.\-]{1,24}[:=])?[A-Za-z0-9+/=_\-]+"  # (after a name: `h1:<digest>`, `sha1-<digest>`)
_WORDY = 0.4  # more of it than this made of words: a name, not a password
_CHANGES = 0.4  # a random mix of four kinds of characters changes kind at about 3 of 4 places; words rarely do


def _kind(c: str) -> int:
    return 0 if c.islower() else 1 if c.isupper() else 2 if c.isdigit() else 3


def _mixed(token: str) -> bool:
    """Capitals, small letters, a digit and a strong symbol, changing kind often."""
    kinds = [_kind(c) for c in token]
    if len(set(kinds)) < 4 or not any(c in _STRONG for c in token) or kinds.count(3) > _SYMBOLS * len(token):
        return False
    changes = sum(a != b for a, b in itertools.pairwise(kinds))
    return changes >= _CHANGES * (len(token) - 1)


def _words_share(token: str) -> float:
    """The share of token in words of 3+ small letters (after a capital or not) that one can say; a random
    mix has few (`dzgu`), a name has most of it so (`HelloWorld2024!`)."""
    found = (run for run in _re(r"[A-Z]?[a-z]{3,}").findall(token) if shape.pronounceable(run))
    return sum(map(len, found)) / len(token)


def _not_password(token: str) -> bool:
    """Something else with the same characters: a path, a URL or its query, percent-encoding, a version, a
    reference, a placeholder, words, or base64 of text."""
    if "://" in token or token.startswith(("/", "./", "~/", "$", "%(", "{{")) or token.count("/") >= 2:
        return True
    if len(_re(r"%[0-9A-Fa-f]{2}").findall(token)) >= 2 or _re(_BASE64).fullmatch(token):
        return True  # percent-encoded text; base64 (a digest, a public key: the other rules judge it)
    if len(_re(r"(?=[0-9]\.[0-9])").findall(token)) >= 2 or shape.is_placeholder(token.lstrip("*") or token):
        return True  # a version, a placeholder (a leading `*` is a password's own, not a mask: no `****`)
    if len(_re(r"%[A-Za-z]").findall(token)) >= 2 or _re(_NOT_RANDOM).search(token):
        return True
    if _words_share(token) > _WORDY or _re(_EXPRESSION).fullmatch(token):
        return True
    decoded = shape.b64decode(token) if _re(r"[A-Za-z0-9+/]+=*").fullmatch(token) else None
    return decoded is not None and shape.printable(decoded) is not None


def _judged(token: str) -> bool:
    """Whether a stripped token is a generated password."""
    return _SHORTEST <= len(token) <= _LONGEST and _mixed(token) and not _not_password(token)


def _stripped(text: str, start: int, end: int) -> tuple[int, int]:
    """A run without the quotes and brackets around it, nor the punctuation that ends a sentence after it."""
    while start < end and text[start] in _WRAP:
        start += 1
    while end > start and text[end - 1] in _WRAP:
        end -= 1
    if end - start > _SHORTEST and text[end - 1] in _END and text[end - 2] not in _END:
        end -= 1
    return start, end


def _found(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The span of a generated password in the run text[start:end], whole or as one of its pieces."""
    start, end = _stripped(text, start, end)
    if _re(r"://|[?&][A-Za-z_]+=").search(text, start, end):
        return None  # a URL or its query (urls.py judges those)
    named = _re(r"[A-Za-z_][A-Za-z0-9_.\-]{0,40}[=:]+").match(text, start, end)
    start, end = _stripped(text, named.end(), end) if named else (start, end)  # `LANG=...`: judge the value
    if _re(_CODE).search(text, start, end) is None and _judged(text[start:end]):
        return start, end
    for match in _re(_PIECE).finditer(text, start, end):
        a, b = _stripped(text, *match.span())
        if b - a >= _SHORTEST and _judged(text[a:b]):
            return a, b
    return None


def _runs(text: str) -> Iterator[tuple[int, int]]:
    """Each run of characters between spaces that holds a strong symbol beside a letter or a digit."""
    if _re(_STRONG_CLASS).search(text) is None:  # most messages: one scan
        return
    for match in _re(_RUN).finditer(text):
        if match.end() - match.start() >= _SHORTEST:
            yield match.span()


def spans(text: str) -> Iterator[tuple[int, int]]:
    """The runs a generated password may be in (for the screen: every hit lies in one)."""
    return _runs(text)


def hits(scan: _Text) -> Iterator[Hit]:
    """Every generated password in the text."""
    text = scan.text
    for start, end in _runs(text):
        found = _found(text, start, end)
        if found is not None:
            yield Hit(*found, RANDOM_PASSWORD)
