"""A generated corpus of secrets in documented vendor formats and of look-alikes that are not secrets.

    from bench.secrets_corpus import SECRETS, LOOKALIKES

The same seed gives the same corpus; nothing in it is a real credential (see credentials.py). held_out.py
holds phrasings written after palace's pattern table, to check that the table was not fitted to the rest."""

from __future__ import annotations

from .credentials import secret_cases
from .gen import Case, Gen
from .held_out import held_out_lookalikes, held_out_secrets
from .lookalikes import lookalike_cases

SEED = 20240501

SECRETS: tuple[Case, ...] = (*secret_cases(Gen(SEED)), *held_out_secrets(Gen(SEED + 2)))
LOOKALIKES: tuple[Case, ...] = (*lookalike_cases(Gen(SEED + 1)), *held_out_lookalikes(Gen(SEED + 3)))
FORMATS: tuple[str, ...] = tuple(dict.fromkeys(case.vendor for case in SECRETS))

__all__ = ["FORMATS", "LOOKALIKES", "SECRETS", "Case"]
