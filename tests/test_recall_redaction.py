"""Redaction of a journal's messages in one pass: the same text as redact() on each message, secret or not."""

from __future__ import annotations

import random

import pytest

from bench.secrets_corpus import LOOKALIKES, SECRETS
from bench.secrets_corpus.ordinary import transcript
from palace.memory.secrets import redact
from palace.recall.redaction import redact_all


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
