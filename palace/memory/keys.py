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
_NOT_CJK = re.compile(r"[^\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


@functools.lru_cache(maxsize=1 << 16)
def words_of(text: str) -> frozenset[str]:
    """The words of text once normalised, and each pair of neighbouring CJK characters (Chinese has no spaces)."""
    key = normalise(text)
    words = set(_WORD.findall(key))
    cjk = _NOT_CJK.sub("", key)
    words.update(cjk[i : i + 2] for i in range(len(cjk) - 1))
    return frozenset(words)
