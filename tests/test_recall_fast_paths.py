"""The index build's fast paths give what the plain definitions give: a journal's messages redacted in one
pass (the text redact() gives each message, secret or not), its lines read as json.loads reads each, ASCII
and mixed text tokenised without the per-word regexes, terms packed so that each reads back alone, and a
screened secret kind run only where its screen finds something."""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.secrets_corpus import LOOKALIKES, SECRETS
from bench.secrets_corpus.ordinary import transcript
from palace.memory.secrets import SECRET_KINDS, redact
from palace.recall import text
from palace.recall.records import journal_records
from palace.recall.redaction import _SCREENED, _regexes, redact_all
from palace.recall.schema import PACKED_CHARS, pack_all, unpack_terms
from palace.recall.text import stem, tokenize


def _files(seed: int) -> list[list[str]]:
    """Files of ordinary messages with secrets and look-alikes mixed in, alone, at the edges and glued on."""
    rng = random.Random(seed)
    cases = [case.text for case in (*SECRETS, *LOOKALIKES)]
    ordinary = transcript(60_000, seed=seed)
    files = []
    for _ in range(120):
        messages = rng.sample(ordinary, rng.randint(1, 12))
        for _ in range(rng.randint(0, 4)):
            case = rng.choice(cases)
            at = rng.randrange(len(messages) + 1)
            where = rng.choice(["alone", "before", "after"])
            if where == "alone" or at == len(messages):
                messages.insert(at, case)
            elif where == "before":
                messages[at] = case + rng.choice(["", " ", "\n"]) + messages[at]
            else:
                messages[at] = messages[at] + rng.choice(["", " ", "\n"]) + case
        files.append(messages)
    return files


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_redacting_a_file_at_once_gives_what_each_message_gives(seed: int) -> None:
    files = _files(seed)
    changed = 0
    for messages in files:
        expected = [redact(text) for text in messages]
        assert redact_all(messages) == expected
        changed += expected != messages
    assert changed > len(files) // 3  # the files do hold secrets the redaction removes


def test_secrets_split_at_a_message_edge_are_each_judged_alone() -> None:
    # A message ending in `password is` and the next starting with a value: not a password in either.
    messages = ["the db password is", "hunter2!x and more", "token: 4096", "AKIA" + "Q" * 16]
    assert redact_all(messages) == [redact(text) for text in messages]
    assert redact_all(messages)[3].startswith("[redacted")


def test_every_message_of_a_file_with_a_secret_in_each_is_redacted() -> None:
    messages = [case.text for case in SECRETS[:200]]
    assert redact_all(messages) == [redact(text) for text in messages]


def _plain_terms(value: str) -> list[str]:
    """tokenize's definition for text without CJK or number words: NFKC, casefold, `[^\\W_]+` runs, stemmed."""
    return [stem(word) for word in text._WORD.findall(text._norm(value))]


def test_ascii_text_is_tokenised_as_the_regex_would() -> None:
    rng = random.Random(5)
    alphabet = "abcXYZ019_-'.:/@#\t\n "  # ASCII: letters, digits, punctuation, underscores, tabs, newlines
    samples = [*transcript(20_000, seed=4), *(case.text for case in LOOKALIKES)]
    samples += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 80))) for _ in range(500)]
    ascii_samples = [s for s in samples if s.isascii() and text._NUMBER_WORD.search(s.lower()) is None]
    assert len(ascii_samples) > 300
    for sample in ascii_samples:
        assert tokenize(sample) == _plain_terms(sample), sample


# -- a journal's lines: read as json.loads reads each ---------------------------------------------------------

_RECORD = {"type": "message", "message": {"role": "user", "content": 'café 数据库 😀 \\ " tab\t'}}
_LINES = [
    json.dumps(_RECORD),
    json.dumps(_RECORD, ensure_ascii=False),  # raw UTF-8 (the emoji as four bytes)
    json.dumps({"type": "session", "started": "2026-01-02T03:04:05+00:00", "wings": ["alpha"]}),
    json.dumps({"type": "usage", "input": 3}),
    '{"type": "\\u006dessage", "\\u006dessage": {"role": "assistant", "content": "spelt with escapes"}}',
    '{"type": "\\u0073ession", "started": "2026-01-02T03:04:05+00:00"}',
    '{"type": "message", "message": {"role": "user", "content": "\\ud83d\\ude00 and a lone \\udc80"}}',
    '{"type": "message", "type": "usage"}',  # the last key wins
    json.dumps(_RECORD) + " " + json.dumps(_RECORD),  # two records: not one JSON value
    json.dumps(_RECORD)[:30],  # truncated
    '["message", "session"]',
    '"message"',
    "",
    " \t\r",
    "\x0b\x0c",
]
_BYTES = [line.encode("utf-8") for line in _LINES] + [
    b"\xef\xbb\xbf" + json.dumps(_RECORD).encode(),  # a byte-order mark: json.loads reads bytes as utf-8-sig
    json.dumps(_RECORD).encode().replace(b"caf", b"c\xffa"),  # not UTF-8
    b'{"type": "message", "message": {"role": "user", "content": "\xed\xa0\x80"}}',  # a surrogate, as UTF-8
    b'{"type": "session"}\x00',
    b"\x00\x00\x00{",
    b" \t" + json.dumps(_RECORD).encode() + b"\r",
]


def _wanted(records: Iterable[object]) -> list[object]:
    """The records _parse_journal looks at."""
    return [r for r in records if isinstance(r, dict) and r.get("type") in ("message", "session")]


def _loaded(data: bytes) -> list[object]:
    out = []
    for line in data.split(b"\n"):
        if line.strip():
            with contextlib.suppress(ValueError):
                out.append(json.loads(line))
    return out


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_BYTES), max_size=10), st.sampled_from([b"\n", b"\r\n"]))
def test_journal_records_are_what_json_loads_reads_from_each_line(lines: list[bytes], end: bytes) -> None:
    data = end.join(lines)
    assert _wanted(journal_records(data)) == _wanted(_loaded(data))


# -- CJK and mixed text: tokenised as the plain definition -------------------------------------------------


def _defined_pieces(normed: str) -> list[tuple[str, bool]]:
    """Each `[^\\W_]+` word, split into its CJK runs and the rest."""
    pieces = []
    for word in text._WORD.findall(normed):
        at = 0
        for run in text._cjk_regex().finditer(word):
            if run.start() > at:
                pieces.append((word[at : run.start()], False))
            pieces.append((run.group(), True))
            at = run.end()
        if at < len(word):
            pieces.append((word[at:], False))
    return pieces


def _defined_terms(value: str) -> list[str]:
    """tokenize's definition: NFKC and casefold, the pieces, numbers as digits, CJK bigrams (and the last
    character) and Chinese numerals, the other words stemmed."""
    normed = text._norm(value)
    pieces: Iterable[tuple[str, bool]] = _defined_pieces(normed)
    if text._NUMBER_WORD.search(normed):
        pieces = text._words_as_numbers(pieces)
    terms = []
    for piece, is_cjk in pieces:
        if is_cjk:
            terms += [piece[i : i + 2] for i in range(len(piece) - 1)] + [piece[-1]]
            terms += text.cjk_numbers(piece)
        else:
            terms.append(stem(piece))
    return terms


_MIXED = st.lists(
    st.sampled_from(
        [
            *"abcXYZ019_-.,'!? \t\n",
            *"我们数据库一二三十百千两零",
            *"日本語テキスト・ー゛한국어",
            *"ＡＢ１，？éÉßǅİﬁ",
            "twenty",
            "five",
            "three",
            "running",
            "databases",
            "𠀀",
        ]
    ),
    max_size=40,
).map("".join)


@settings(max_examples=500, deadline=None)
@given(_MIXED)
def test_mixed_text_is_tokenised_as_defined(value: str) -> None:
    assert tokenize(value) == _defined_terms(value)
    assert text._mixed_pieces(text._norm(value)) == _defined_pieces(text._norm(value))


def test_transcripts_are_tokenised_as_defined() -> None:
    samples = [*transcript(30_000, seed=8), *(case.text for case in (*SECRETS, *LOOKALIKES))]
    assert any(not s.isascii() for s in samples)
    for sample in samples:
        assert tokenize(sample) == _defined_terms(sample), sample


# -- stored terms, screened kinds ------------------------------------------------------------------------------


def test_packed_terms_read_back_each_alone() -> None:
    terms = ["", "a", "数据 据库 库", "x" * (PACKED_CHARS - 1), "y " * PACKED_CHARS, " ".join(map(str, range(3000)))]
    packed = pack_all(terms)
    assert [unpack_terms(blob) for blob in reversed(packed)] == list(reversed(terms))
    assert all(isinstance(blob, bytes) == (len(t) >= PACKED_CHARS) for t, blob in zip(terms, packed, strict=True))


def test_a_screened_kind_is_found_only_where_its_screen_is() -> None:
    screened = {kind.source: position for position, kind in enumerate(SECRET_KINDS) if kind.source in _SCREENED}
    assert len(screened) == len(_SCREENED)  # each screen still belongs to a kind of the table
    rng = random.Random(3)
    cases = [case.text for case in (*SECRETS, *LOOKALIKES)] + transcript(20_000, seed=2)
    alphabet = "0123456789abcdefABCDEFMNOxyz_-.:"
    cases += ["".join(rng.choice(alphabet) for _ in range(rng.randint(20, 120))) for _ in range(3000)]
    for position in screened.values():
        regexes = _regexes(position, SECRET_KINDS[position])
        assert regexes.screen is not None
        pattern = re.compile(regexes.source, re.ASCII | re.MULTILINE)
        texts = [case.lower() for case in cases] if regexes.folded else cases  # a folded kind runs over lowered text
        found = [text for text in texts if pattern.search(text) is not None]
        assert found or regexes.folded  # the corpus holds the kind (the folded ones: see the test below)
        assert all(regexes.screen.search(case) is not None for case in found), SECRET_KINDS[position].name


def _without_lookaheads(source: str) -> str:
    """A regex's source with its positive lookaheads `(?=...)` taken out (escapes and classes respected)."""
    out, at = [], 0
    while at < len(source):
        if source.startswith("(?=", at):
            depth, at, in_class = 1, at + 3, False
            while depth:
                char = source[at]
                if char == "\\":
                    at += 1
                elif char == "[" and not in_class:
                    in_class = True
                elif char == "]" and in_class:
                    in_class = False
                elif not in_class:
                    depth += {"(": 1, ")": -1}.get(char, 0)
                at += 1
            continue
        if source[at] == "\\":
            out.append(source[at : at + 2])
            at += 2
            continue
        out.append(source[at])
        at += 1
    return "".join(out)


def test_lookaheads_are_taken_out_of_a_regex_and_nothing_else() -> None:
    assert _without_lookaheads(r"key:(?=(?:[a-z ]*[2-7]){2})[a-z]{4}(?![0-9])") == r"key:[a-z]{4}(?![0-9])"
    assert _without_lookaheads(r"a\(?=b)(?=[)(])c") == r"a\(?=b)c"


FOLDED_SCREENED = [n for n, kind in enumerate(SECRET_KINDS) if kind.screen is not None and kind.folded is not None]


@pytest.mark.parametrize("position", FOLDED_SCREENED)
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_a_case_insensitive_kinds_screen_finds_every_match(position: int, data: st.DataObject) -> None:
    kind = SECRET_KINDS[position]
    pattern = re.compile(kind.source, re.ASCII | re.MULTILINE)
    # Drawn from the kind without its lookaheads (hypothesis can only filter for one: every draw was thrown
    # away); a draw that the whole pattern does not match is skipped below.
    drawn = re.compile(_without_lookaheads(kind.source), re.ASCII | re.MULTILINE)
    text = data.draw(st.from_regex(drawn)).lower()  # what a folded kind runs over: the lowered text
    if pattern.search(text) is None:
        return  # lowering changed what the generated text says (a non-ASCII letter): not a match to screen
    assert not kind.screened_out(text, lowered=True), kind.name
