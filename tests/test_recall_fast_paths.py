"""The index build's fast paths give what the plain definitions give: a journal's messages redacted in one
pass (the text redact() gives each message, secret or not) and ASCII text tokenised without the regex."""

from __future__ import annotations

import random

import pytest

from bench.secrets_corpus import LOOKALIKES, SECRETS
from bench.secrets_corpus.ordinary import transcript
from palace.memory.secrets import redact
from palace.recall import text
from palace.recall.redaction import redact_all
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
