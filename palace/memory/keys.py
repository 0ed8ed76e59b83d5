"""Comparison keys of entry content: equal after normalising, and the words for near-duplicates."""

from __future__ import annotations

import functools
import re
import unicodedata

_TRAILING_PUNCT = ".。!！?？;；,，:：、…"


@functools.lru_cache(maxsize=1 << 16)
def normalise(text: str) -> str:
    """The comparison key of an entry: NFKC, case-folded, whitespace folded, trailing punctuation dropped."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = " ".join(text.split())
    return text.rstrip(_TRAILING_PUNCT + " ").strip()


_WORD = re.compile(r"[^\W_]+")


def _cjk_only(key: str) -> str:
    """The kana, CJK ideographs and hangul of key, in order (no regex: a class this wide takes ~5 ms to
    compile, at every start of a short `palace memory save`)."""
    if key.isascii():
        return ""
    return "".join(
        ch for ch in key if "\u3040" <= ch <= "\u30ff" or "\u3400" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af"
    )


@functools.lru_cache(maxsize=1 << 16)
def words_of(text: str) -> frozenset[str]:
    """The words of text once normalised, and each pair of neighbouring CJK characters (Chinese has no spaces)."""
    key = normalise(text)
    words = set(_WORD.findall(key))
    cjk = _cjk_only(key)
    words.update(cjk[i : i + 2] for i in range(len(cjk) - 1))
    return frozenset(words)
