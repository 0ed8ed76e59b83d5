"""Wallet secrets: BIP39 seed phrases (a run of 12 to 24 words of the English list, numbered or not) and
private keys in wallet formats (WIF, BIP32 extended private keys).

The word list (bip39_english.txt beside this module) is read on first use: only a text with a long run of
short lower-case words needs it."""

from __future__ import annotations

import functools
import itertools
import os
import re

_LIST = os.path.join(os.path.dirname(__file__), "bip39_english.txt")  # os.path: pathlib costs an import
SEED_WORDS = 12  # the shortest phrase: 12, 15, 18, 21 or 24 words
_BASE58 = "1-9A-HJ-NP-Za-km-z"


@functools.cache
def bip39() -> frozenset[str]:
    """The 2048 words of the BIP39 English list."""
    with open(_LIST, encoding="utf-8") as file:
        lines = file.read().splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


# A run of 12+ words of 3 to 8 letters (the list's lengths), each optionally numbered (`1. abandon`), separated
# by spaces, commas, bars or line breaks. Over lower-cased text; most prose breaks such a run within a few
# words (`a`, `is`, `to`, a long word), so this rarely matches.
_WORD = r"(?:[0-9]{1,2}[.):]?[ \t]+)?[a-z]{3,8}(?![a-z0-9])"
_SEP = r"(?:[\"']?[ \t]*[,;|][ \t]*[\"']?|[ \t]*\r?\n[ \t]*|[ \t]+)"  # (a list's words may be quoted)
# In a list the words may be items, each after a bullet or a checkbox (`- [x] 1. abandon`, YAML's `  - abandon`).
_ITEM = rf"(?:[-*+][ \t]+(?:\[[ x]\][ \t]+)?)?{_WORD}"
SEED_RUN = rf"(?<![a-z0-9]){_ITEM}(?:{_SEP}{_ITEM}){{{SEED_WORDS - 1},}}"
# The run is looked for anywhere only in a text that says it holds one (a keyword, or a list numbered to 12);
# elsewhere, on a line of its own (after a label such as "words:", in quotes): sre tries a run at every word
# of prose, which would cost more than all the other rules together.
# (The words may be joined by dashes, `word-word-...`.)
_SEED_LINE = (
    rf"^[ \t]*(?:[^\n:=]{{0,40}}+[:=][ \t]*)?[\"'`\[]*(?:{_WORD}[\"']?(?:[ \t,]+|-)[\"']?){{{SEED_WORDS - 1},}}{_WORD}"
    r"[\"'`\]]*[ \t.,;]*$"
)
# Or 12+ words quoted on a command line that imports a key (`goal account import -m "word word ..." -w ops`).
_QUOTED_RUN = rf"[\"']((?:[a-z]{{3,8}} ){{{SEED_WORDS - 1},}}[a-z]{{3,8}})[\"']"
_SEED_HINTS = ("seed", "mnemonic", "recover", "restore", "phrase", "wallet", "subkey", "keys add", "semilla", "graine")
_OTHER_HINTS = ("助记词", "助記詞", "ニーモニック", "シード", "мнемон", "сид-фраз")


# Each compiled on first use, alone: most texts need one of them at most.
_PATTERNS = {
    "seed": (SEED_RUN, re.ASCII),
    "line": (_SEED_LINE, re.ASCII | re.MULTILINE),
    "letters": (r"[a-z]+", re.ASCII),
    "quoted": (_QUOTED_RUN, re.ASCII),
    "wallet": (rf"(?:[59][{_BASE58}]{{50}}|[KLc][{_BASE58}]{{51}}|[xtyzuvYZUV]prv[{_BASE58}]{{100,112}})", 0),
}


@functools.cache
def _pattern(name: str) -> re.Pattern[str]:
    source, flags = _PATTERNS[name]
    return re.compile(source, flags)


def _hinted(lower: str) -> bool:
    """Whether the text says it holds a phrase: a keyword, or a list numbered 1 to 12 or more."""
    for hint in _SEED_HINTS if lower.isascii() else _SEED_HINTS + _OTHER_HINTS:
        if hint in lower:
            return True
    if "12" not in lower:
        return False
    return ("1. " in lower or "1) " in lower or "1: " in lower) and (
        "12. " in lower or "12) " in lower or "12: " in lower
    )


def candidate_runs(lower: str) -> list[tuple[int, int]]:
    """Spans of the runs of short words where a seed phrase may be (a superset of seed_runs's)."""
    # too few words? (most texts have enough spaces: the other counts only when they do not)
    spaces = lower.count(" ")
    if spaces < SEED_WORDS - 1 and spaces + lower.count("\n") + lower.count(",") + lower.count("-") < SEED_WORDS - 1:
        return []
    hinted = _hinted(lower)
    runs = [m.span() for m in _pattern("seed" if hinted else "line").finditer(lower)]
    if not hinted and "import" in lower:  # (a key imported from its words on a command line)
        runs += [m.span(1) for m in _pattern("quoted").finditer(lower)]
    return runs


def seed_runs(lower: str) -> list[tuple[int, int]]:
    """Spans (in lower, the lower-cased text) of each run of 12+ consecutive BIP39 words."""
    letters = _pattern("letters")
    spans: list[tuple[int, int]] = []
    for start, end in candidate_runs(lower):
        words = bip39()
        found = [
            (m.start(), m.end(), m.group() in words)
            for m in letters.finditer(lower, start, end)
            if lower[m.start() - 1 : m.end() + 1] != "[x]"  # a ticked checkbox is no word of the phrase
        ]
        spans += _runs_of_words(lower, found)
    return spans


def _runs_of_words(lower: str, found: list[tuple[int, int, bool]]) -> list[tuple[int, int]]:
    """The spans of the maximal runs of list words in found (start, end, in the list) that are long enough and
    varied enough (a phrase of 12 random words has 11 or 12 different ones)."""
    spans = []
    start = 0
    for end in range(len(found) + 1):
        if end < len(found) and found[end][2]:
            continue
        run = found[start:end]
        phrase = [lower[a:b] for a, b, _ in run]
        rising = sum(left < right for left, right in itertools.pairwise(phrase))
        # 12 random words have 11 or 12 different ones, in no order (a run in the list's order is the list)
        if len(run) >= SEED_WORDS and len(set(phrase)) * 4 >= len(run) * 3 and rising * 5 < (len(run) - 1) * 4:
            spans.append((run[0][0], run[-1][1]))
        start = end + 1
    return spans


def wallet_key(token: str) -> bool:
    """A wallet private key in base58: WIF (51 or 52 characters, starting 5, K or L, or 9, c on testnet) or a
    BIP32 extended private key (xprv, tprv, yprv, zprv, ...)."""
    if len(token) not in (51, 52) and token[1:4] != "prv":  # (their lengths, or an extended key's `xprv`)
        return False
    return _pattern("wallet").fullmatch(token) is not None
