"""Tokenising for recall: normalisation, the light stemmer, CJK bigrams, stop words, query terms, snippets."""

from __future__ import annotations

import functools
import operator
import re
import unicodedata
from collections.abc import Collection, Iterable, Iterator

from palace.record import record

MAX_QUERY_TERMS = 32
SNIPPET_CHARS = 220

_CJK_CLASS = (
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3400-\u4dbf"  # CJK extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\uac00-\ud7af"  # hangul syllables
    "\uf900-\ufaff"  # CJK compatibility ideographs
    "\U00020000-\U0002ffff"  # CJK extensions B..
)
_WORD = re.compile(r"[^\W_]+")
_VOWEL = re.compile(r"[aeiouy]")

_STEMS_KEPT = 200_000  # words whose stem is remembered (the first ones looked up)


class _Stems(dict[str, str]):
    """word -> its stem, worked out on its first lookup: a lookup of a known word costs no Python call."""

    def __missing__(self, word: str) -> str:
        w = IRREGULAR.get(word, word)
        if len(w) > 3 and w.isascii() and w.isalpha() and w not in _UNSTEMMED:
            w = _final_e(_derivational(_verb_ending(_plural(w))))
        if len(self) < _STEMS_KEPT:
            self[word] = w
        return w


_STEMS = _Stems()


def stem(word: str) -> str:
    """A light, deterministic English stemmer (plural, -ing/-ed, -ment, -ation/-ion, -ly, final e).

    It only has to map variants of a word to the same key on both the index and the query side;
    the key need not be a real word (`database`, `Databases` -> `databas`).
    """
    return _STEMS[word]


# Irregular past forms (and a few plurals) -> the word they come from, so that "what did she buy" finds
# "I bought". Forms whose base is a common word in technical talk (built, broke, kept, spent, sent, found,
# left) are not on the list: they made developer sessions match too widely.
IRREGULAR = {
    past: base
    for base, forms in (
        ("buy", "bought"), ("go", "went gone"), ("run", "ran"), ("see", "seen"), ("make", "made"),
        ("take", "took taken"), ("give", "gave given"), ("win", "won"), ("lose", "lost"),
        ("meet", "met"), ("feel", "felt"), ("begin", "began begun"), ("write", "wrote written"),
        ("teach", "taught"), ("catch", "caught"), ("bring", "brought"), ("sell", "sold"), ("pay", "paid"),
        ("choose", "chose chosen"), ("eat", "ate eaten"),
        ("drive", "drove driven"), ("fly", "flew flown"), ("swim", "swam swum"), ("sing", "sang sung"),
        ("steal", "stole stolen"), ("grow", "grew grown"), ("throw", "threw thrown"),
        ("draw", "drew drawn"), ("wear", "wore worn"), ("ride", "rode ridden"), ("hide", "hid hidden"),
        ("sleep", "slept"), ("hear", "heard"),
        ("hold", "held"), ("sit", "sat"), ("stand", "stood"), ("understand", "understood"), ("speak", "spoke spoken"),
        ("forget", "forgot forgotten"),
        ("drink", "drank drunk"), ("know", "knew known"),
        ("child", "children"), ("foot", "feet"), ("tooth", "teeth"), ("mouse", "mice"),
        ("woman", "women"), ("man", "men"),
    )
    for past in forms.split()
}  # fmt: skip


_STEMMED_ENDINGS = ("s", "ed", "ing", "ment", "ion", "ly", "e")  # what the rules below take off or change


def may_stem(word: str) -> bool:
    """Whether stem() can make something else of a word: it has an ending the stemmer takes off, or is an
    irregular form (any other word is its own stem)."""
    return word.endswith(_STEMMED_ENDINGS) or word in IRREGULAR


_UNSTEMMED = frozenset({"news"})  # a word that is not the plural of another one it would meet ("new")


def _plural(w: str) -> str:
    if w.endswith(("ies", "ied")) and len(w) > 4:  # cries, cried -> cry
        return w[:-3] + "y"
    if w.endswith("sses") or w.endswith(("xes", "ches", "shes", "zzes")):
        return w[:-2]
    if w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    return w


_SHORT_E = re.compile(r"^[^aeiouy][aeiouy][^aeiouwxy]$")  # hik(e), cod(e), bak(e): a short stem lost its e


def _verb_ending(w: str) -> str:
    """-ing and -ed off a stem that keeps a vowel, a doubled consonant undone (running -> run; the British
    double l of a longer verb too: travelled -> travel), the e of a short stem put back (hiking, hiked -> hike,
    as the four-letter word keeps its e)."""
    for suffix in ("ing", "ed"):
        base = w[: -len(suffix)]
        if w.endswith(suffix) and len(base) >= 3 and _VOWEL.search(base):
            if len(base) > 3 and base[-1] == base[-2] and base[-1] not in "lsz" and base[-1] not in "aeiou":
                return base[:-1]
            if base.endswith("ell") and any(v in base[:-3] for v in "aeiou"):  # travelled, cancelled; not smelled
                return base[:-1]
            return base + "e" if _SHORT_E.match(base) else base
    return w


def _derivational(w: str) -> str:
    if w.endswith("ment") and len(w) > 7:
        return w[:-4]
    if (w.endswith("ation") and len(w) > 7) or (w.endswith(("tion", "sion")) and len(w) > 6):
        return w[:-3]
    if w.endswith("ly") and len(w) > 5:
        return w[:-2]
    return w


def _final_e(w: str) -> str:
    return w[:-1] if w.endswith("e") and len(w) > 4 else w


def _norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _cjk_terms(run: str) -> list[str]:
    """Overlapping bigrams of a CJK run, plus its last character (so any character starts a term)."""
    return [*map(operator.add, run, run[1:]), run[-1]]


_UNITS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "zero": 0,
}  # fmt: skip
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_ONES = {"one": 1, **{w: n for w, n in _UNITS.items() if 2 <= n <= 9}}  # "one" alone stays a word: too common
_ZH_NUMERALS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_ZH_SCALES = {"十": 10, "百": 100, "千": 1000}
_ZH_NUMBER_RUN = re.compile("[零一二两三四五六七八九十百千]+")


def _words_as_numbers(pieces: Iterable[tuple[str, bool]]) -> Iterator[tuple[str, bool]]:
    """Numbers written as words become digits, as digits are: "three" -> "3", "twenty-five" -> "25"."""
    pending: int | None = None  # a tens word waiting for its unit
    for piece, is_cjk in pieces:
        if pending is not None:
            unit = None if is_cjk else _ONES.get(piece)
            yield str(pending + unit) if unit is not None else str(pending), False
            pending = None
            if unit is not None:
                continue
        if not is_cjk and piece in _TENS:
            pending = _TENS[piece]
        elif not is_cjk and piece in _UNITS:
            yield str(_UNITS[piece]), False
        else:
            yield piece, is_cjk
    if pending is not None:
        yield str(pending), False


def _zh_value(run: str) -> int | None:
    """The value of a run of Chinese numerals (三 -> 3, 十二 -> 12, 二十五 -> 25, 三百 -> 300), or None."""
    if len(run) == 1 and run in _ZH_NUMERALS:
        return _ZH_NUMERALS[run]
    total = digit = 0
    for char in run:
        if char in _ZH_NUMERALS:
            digit = _ZH_NUMERALS[char]
        else:
            total += (digit or 1) * _ZH_SCALES[char]
            digit = 0
    return total + digit if total or digit else None


def cjk_numbers(run: str) -> list[str]:
    """The numbers a CJK run writes in Chinese numerals, as digits (三只猫 -> ["3"]); a lone 一 is left out,
    it is part of too many words (一起, 一下)."""
    out = []
    for match in _ZH_NUMBER_RUN.finditer(run):
        if match.group() == "一":
            continue
        value = _zh_value(match.group())
        if value is not None:
            out.append(str(value))
    return out


def _pieces(text: str) -> Iterable[tuple[str, bool]]:
    """(piece, is_cjk) for each word or CJK run of already normalised text, numbers as digits."""
    if not has_cjk(text):  # the common case, without a look at each word
        pieces: Iterable[tuple[str, bool]] = [(word, False) for word in _WORD.findall(text)]
    else:
        pieces = _mixed_pieces(text)
    return _words_as_numbers(pieces) if _NUMBER_WORD.search(text) else pieces


# ASCII bytes -> themselves lowered for letters and digits, a space for the rest (what separates `_WORD`'s runs).
_ASCII_WORDS = bytes(ord(chr(c).lower()) if chr(c).isalnum() else 0x20 for c in range(128)) + b" " * 128
_NUMBER_WORDS = frozenset({*_UNITS, *_TENS})
_NUMBER_WORD = re.compile(r"\b(?:" + "|".join(sorted({*_UNITS, *_TENS}, key=len, reverse=True)) + r")\b")


# The code points outside the CJK ranges. A word character (not `_`) that is none of them is CJK; one that is
# no CJK is of the other kind: a `_WORD` word is a run of pieces, each a run of one kind.
_NON_CJK = "\x00-\u303f\u3100-\u33ff\u4dc0-\u4dff\ua000-\uabff\ud7b0-\uf8ff\ufb00-\U0001ffff\U00030000-\U0010ffff"


@functools.cache
def _cjk_regex() -> re.Pattern[str]:
    """A run of CJK characters; compiled on first use (its class takes milliseconds, and ASCII never needs it)."""
    return re.compile(f"[{_CJK_CLASS}]+")


def has_cjk(text: str) -> bool:
    """Does text hold a CJK character?"""
    return not text.isascii() and _cjk_regex().search(text) is not None


@functools.cache
def _piece_regex() -> re.Pattern[str]:
    """A CJK run (group 1) or a run of other word characters (group 2); compiled on first use (its classes
    take milliseconds, and most processes see no CJK)."""
    return re.compile(f"([^\\W_{_NON_CJK}]+)|([^\\W_{_CJK_CLASS}]+)")


def _mixed_pieces(text: str) -> list[tuple[str, bool]]:
    """(piece, is_cjk) for each run of CJK or of other word characters (`_WORD`'s words, split where CJK
    starts or ends)."""
    return [(cjk, True) if cjk else (other, False) for cjk, other in _piece_regex().findall(text)]


def tokenize(text: str) -> list[str]:
    """Index terms of text: stemmed words and CJK bigrams, in order."""
    pieces: list[tuple[str, str]] | None = None  # (CJK run, other word): one of them ""; None: no CJK
    normed: str | None = None  # NFKC and casefold; for ASCII text (where that is lower()) made if needed
    if text.isascii():  # `[^\W_]+` is then a run of [a-z0-9]: the table lowers and keeps those, spaces the rest
        words = text.encode("ascii").translate(_ASCII_WORDS).decode("ascii").split()
    else:
        normed = _norm(text)
        if not has_cjk(normed):
            words = _WORD.findall(normed)
        else:
            pieces = _piece_regex().findall(normed)
            words = [other for _cjk, other in pieces if other]
    # A `_NUMBER_WORD` match is a word (a piece) of its own: no number word among them, no match either.
    if not _NUMBER_WORDS.isdisjoint(words):
        normed = text.lower() if normed is None else normed
        if _NUMBER_WORD.search(normed) is not None:
            return _number_terms(normed)
    if pieces is None or normed is None:
        return list(map(_STEMS.__getitem__, words))  # most words were stemmed before: lookups in C
    terms: list[str] = []
    numerals = _ZH_NUMBER_RUN.search(normed) is not None
    for cjk, other in pieces:
        if other:
            terms.append(_STEMS[other])
        else:
            terms += map(operator.add, cjk, cjk[1:])  # _cjk_terms
            terms.append(cjk[-1])
            if numerals:
                terms += cjk_numbers(cjk)
    return terms


def _number_terms(normed: str) -> list[str]:
    """tokenize's terms of normalised text that writes a number in words."""
    terms: list[str] = []
    for piece, is_cjk in _pieces(normed):
        if is_cjk:
            terms += _cjk_terms(piece)
            terms += cjk_numbers(piece)
        else:
            terms.append(stem(piece))
    return terms


def _wordlist(text: str) -> list[str]:
    return text.split()


_EN_STOP = frozenset(
    _wordlist(
        """
        a about above after again against ago all also am an and any anything are as at back be because
        been before being below between both but by can could d did do does doing don done down during each
        either else ever few for from further get gets getting got had has have having he her here hers him
        happen happened happens his how i if in into is it its itself just kind know let lets like likes ll m many me
        mention mentioned more most much
        my myself need no nor not now of off on once one only or other our ours out over own please re
        recall remember s said same say says she should so some something sort still such t talk talked tell
        than thanks that the their them then there these they thing things think this those through to
        told too under until up us use used using ve very want was way we were what whats when where which
        while who whom why will with would yes yet you your yours earlier previously discussed discuss last
        time likely probably possibly perhaps maybe usually actually really generally typically
        """
    )
)
# Longest first, so that 我们的 goes before 我们.
_ZH_STOP_WORDS = tuple(
    sorted(
        _wordlist(
            """
            我们的 有没有 为什么 什么样 我们 你们 他们 她们 它们 什么 怎么 怎样 如何 哪个 哪些 哪里 这个
            那个 这些 那些 一个 一下 之前 以前 上次 时候 没有 可以 应该 是否 关于 还是 曾经 记得 讨论 提到
            说过 当时 那次 那时 使用
            """
        ),
        key=len,
        reverse=True,
    )
)
_ZH_STOP_CHARS = "的了吗呢吧啊呀么是在和与及也都就还我你他她它这那哪把被给让从对跟很请过用"


@record(frozen=True)
class QueryTerm:
    """One term of a query: `text` is an index term; `prefix` for a lone CJK character."""

    text: str
    prefix: bool
    group: int  # terms of one CJK word share a group and split its weight


def _strip_zh_stops(run: str) -> list[str]:
    for word in _ZH_STOP_WORDS:
        run = run.replace(word, " ")
    for char in _ZH_STOP_CHARS:
        run = run.replace(char, " ")
    return run.split()


def query_terms(query: str) -> list[QueryTerm]:
    """The distinct terms of a query, stop words removed (all kept if nothing else is left)."""

    def build(drop_stops: bool) -> list[QueryTerm]:
        out: list[QueryTerm] = []
        seen: set[tuple[str, bool]] = set()
        group = 0
        for piece, is_cjk in _pieces(_norm(query)):
            if is_cjk:
                parts = _strip_zh_stops(piece) if drop_stops else [piece]
                pieces = [(t, len(part) == 1) for part in parts for t in _cjk_terms(part)[:-1] or [part]]
                pieces += [(n, False) for n in cjk_numbers(piece)]
            else:
                if drop_stops and piece in _EN_STOP:
                    continue
                pieces = [(stem(piece), False)]
            added = False
            for text, prefix in pieces:
                if (text, prefix) not in seen:
                    seen.add((text, prefix))
                    out.append(QueryTerm(text, prefix, group))
                    added = True
            group += added
        return out[:MAX_QUERY_TERMS]

    return build(True) or build(False)


def match_expression(terms: Iterable[QueryTerm]) -> str:
    """An FTS5 MATCH expression OR-ing the terms, each quoted (a lone CJK character as a prefix)."""
    parts = []
    for term in terms:
        quoted = '"' + term.text.replace('"', '""') + '"'
        parts.append(quoted + "*" if term.prefix else quoted)
    return " OR ".join(parts)


def snippet(text: str, terms: Collection[QueryTerm], width: int = SNIPPET_CHARS) -> str:
    """The part of text around its densest cluster of query terms, one line, redacted.

    The text comes from the index, which holds text redacted with the current secret patterns (see
    `index_version` in schema.py), so the snippet is redacted and no cut can leave half a secret behind."""
    flat = " ".join(text.split())
    if len(flat) <= width:
        return flat
    lowered = flat.lower()
    if len(lowered) != len(flat):  # a few characters change length when lowered: keep the offsets
        lowered = flat
    anchor = _densest(_term_positions(lowered, terms), width)
    return _window(flat, anchor, width)


_MAX_POSITIONS = 400  # term occurrences looked at for a snippet (a long pasted log has many)


def _term_positions(lowered: str, terms: Collection[QueryTerm]) -> list[tuple[int, str]]:
    """(offset, term) of each occurrence of a query term in lowered text, in text order.

    Where each term may start is found with str.find (a stem minus its last letter is a prefix of every
    word it stems from), then a word is confirmed by stemming it."""
    hits: list[tuple[int, str]] = []
    for term in terms:
        cjk = has_cjk(term.text)
        needle = term.text if cjk else term.text[:-1] or term.text
        pos = lowered.find(needle)
        while pos != -1 and len(hits) < _MAX_POSITIONS:
            if cjk or _word_at(lowered, pos) == term.text:
                hits.append((pos, term.text))
            pos = lowered.find(needle, pos + 1)
    hits.sort()
    return hits


def _word_at(lowered: str, pos: int) -> str | None:
    """The stem of the word starting at pos (None if pos is inside a word)."""
    if pos > 0 and (lowered[pos - 1].isalnum() or lowered[pos - 1] == "_"):
        return None
    word = _WORD.match(lowered, pos)
    if word is None:
        return None
    found = word.group()
    return stem(_norm(found if found.isascii() else _cjk_regex().split(found, maxsplit=1)[0]))


def _densest(hits: list[tuple[int, str]], width: int) -> int:
    """The offset of the occurrence that starts the window covering the most distinct terms (0 if none)."""
    anchor = 0
    best = -1
    for i, (pos, _term) in enumerate(hits):
        covered = {t for p, t in hits[i:] if p < pos + width * 2 // 3}
        if len(covered) > best:
            best, anchor = len(covered), pos
    return anchor


def _window(flat: str, anchor: int, width: int) -> str:
    """About width characters of flat around anchor, cut at spaces, an ellipsis for each cut side."""
    start = max(0, anchor - width // 4)
    end = min(len(flat), start + width)
    start = max(0, end - width)
    if start > 0:
        space = flat.find(" ", start, start + 20)
        start = space + 1 if space != -1 else start
    if end < len(flat):
        space = flat.rfind(" ", end - 20, end)
        end = space if space > start else end
    return ("…" if start > 0 else "") + flat[start:end].strip() + ("…" if end < len(flat) else "")


# Words that carry no content of their own in a chat turn ("So cute! I love that!"): with the stop words,
# what an echo of a query is made of besides the query's own words.
_FILLER_WORDS = _wordlist(
    """
    yeah yes yep yup nope wow oh ooh aww aw haha hahaha lol omg ok okay cool nice great awesome amazing
    wonderful sure totally true right really hey hi hello bye thanks thank congrats congratulations love
    cute sweet fun lovely glad happy sorry so such literally honestly definitely absolutely agreed exactly
    indeed well hmm um uh ah ha good wait way omg seriously
    """
)
_ZH_FILLER_CHARS = _ZH_STOP_CHARS + "哇哈嗯哦噢耶嘛啦喔呀好对真太"


class Filler:
    """Tells how much a document says beyond a query's words (see novelty)."""

    def __init__(self) -> None:
        self.stems = frozenset(stem(w) for w in (*_EN_STOP, *_FILLER_WORDS)) | frozenset((*_EN_STOP, *_FILLER_WORDS))

    def novelty(self, terms: str, matched: Collection[str]) -> float:
        """The words of a document's terms that are neither query terms (matched) nor filler: English
        words count one each, CJK characters half each (a Chinese word is about two)."""
        seen = set(matched)
        cjk_seen = "".join(m for m in matched if has_cjk(m))
        words = 0
        chars: set[str] = set()
        for term in set(terms.split(" ")):
            if term in seen or term in self.stems:
                continue
            if has_cjk(term):
                chars.update(c for c in term if c not in cjk_seen and c not in _ZH_FILLER_CHARS)
            else:
                words += 1
        return words + len(chars) / 2


_FILLER: list[Filler] = []


def filler_terms() -> Filler:
    """The one Filler (built on first use)."""
    if not _FILLER:
        _FILLER.append(Filler())
    return _FILLER[0]
