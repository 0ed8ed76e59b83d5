"""A generated corpus of secrets in documented vendor formats and of look-alikes that are not secrets.

    from bench.secrets_corpus import SECRETS, LOOKALIKES, TUNING_SECRETS, HELD_OUT_SECRETS

The same seed gives the same corpus; nothing in it is a real credential (see credentials.py). It has two
parts. The tuning part (credentials.py, lookalikes.py, formats.py) is what palace's rules and tests were
written against. The held-out part (held_out.py from the first round, held_out_formats.py from the second,
each written before that round's rules) is only measured: keep it out of tests/ and do not tune on it. The
blind part (held_out_blind.py) was written in the second round after two of held_out_formats.py's look-alikes
were seen by accident, so that one measure stayed blind. held_out_blind2.py (issue 22) was written blind in the
third round and then tuned on; held_out_blind3.py was written after that round's rules, its unseen measure;
held_out_blind4.py was written before the fourth round's rules and reported, then tuned on in the fifth;
held_out_blind5.py was written before the fifth round's rules and reported, then tuned on in the sixth;
held_out_blind6.py was written blind in the sixth round and reported, then tuned on in the seventh;
held_out_blind7.py was written blind in the seventh round and reported, then tuned on in the eighth;
held_out_blind8.py was written blind in the eighth round and reported, then tuned on in the ninth;
held_out_blind9.py was written blind in the ninth round and reported, then tuned on in the tenth;
held_out_blind10.py was written blind in the tenth round and reported, then tuned on at the end of it."""

from __future__ import annotations

from .credentials import secret_cases
from .formats import format_lookalikes, format_secrets
from .gen import Case, Gen
from .held_out import held_out_lookalikes, held_out_secrets
from .held_out_blind import blind_lookalikes, blind_secrets
from .held_out_blind2 import blind2_lookalikes, blind2_secrets
from .held_out_blind3 import blind3_lookalikes, blind3_secrets
from .held_out_blind4 import blind4_lookalikes, blind4_secrets
from .held_out_blind5 import blind5_lookalikes, blind5_secrets
from .held_out_blind6 import blind6_lookalikes, blind6_secrets
from .held_out_blind7 import blind7_lookalikes, blind7_secrets
from .held_out_blind8 import blind8_lookalikes, blind8_secrets
from .held_out_blind9 import blind9_lookalikes, blind9_secrets
from .held_out_blind10 import blind10_lookalikes, blind10_secrets
from .held_out_formats import held_out_format_lookalikes, held_out_format_secrets
from .lookalikes import lookalike_cases

SEED = 20240501

TUNING_SECRETS: tuple[Case, ...] = (*secret_cases(Gen(SEED)), *format_secrets(Gen(SEED + 4)))
TUNING_LOOKALIKES: tuple[Case, ...] = (*lookalike_cases(Gen(SEED + 1)), *format_lookalikes(Gen(SEED + 5)))
HELD_OUT_SECRETS: tuple[Case, ...] = (*held_out_secrets(Gen(SEED + 2)), *held_out_format_secrets(Gen(SEED + 6)))
HELD_OUT_LOOKALIKES: tuple[Case, ...] = (
    *held_out_lookalikes(Gen(SEED + 3)),
    *held_out_format_lookalikes(Gen(SEED + 7)),
)
BLIND_SECRETS: tuple[Case, ...] = tuple(blind_secrets(Gen(SEED + 8)))
BLIND_LOOKALIKES: tuple[Case, ...] = tuple(blind_lookalikes(Gen(SEED + 9)))
BLIND2_SECRETS: tuple[Case, ...] = tuple(blind2_secrets(Gen(SEED + 10)))
BLIND2_LOOKALIKES: tuple[Case, ...] = tuple(blind2_lookalikes(Gen(SEED + 11)))
BLIND3_SECRETS: tuple[Case, ...] = tuple(blind3_secrets(Gen(SEED + 12)))
BLIND3_LOOKALIKES: tuple[Case, ...] = tuple(blind3_lookalikes(Gen(SEED + 13)))
BLIND4_SECRETS: tuple[Case, ...] = tuple(blind4_secrets(Gen(SEED + 14)))
BLIND4_LOOKALIKES: tuple[Case, ...] = tuple(blind4_lookalikes(Gen(SEED + 15)))
BLIND5_SECRETS: tuple[Case, ...] = tuple(blind5_secrets(Gen(SEED + 16)))
BLIND5_LOOKALIKES: tuple[Case, ...] = tuple(blind5_lookalikes(Gen(SEED + 17)))
BLIND6_SECRETS: tuple[Case, ...] = tuple(blind6_secrets(Gen(SEED + 18)))
BLIND6_LOOKALIKES: tuple[Case, ...] = tuple(blind6_lookalikes(Gen(SEED + 19)))
BLIND7_SECRETS: tuple[Case, ...] = tuple(blind7_secrets(Gen(SEED + 20)))
BLIND7_LOOKALIKES: tuple[Case, ...] = tuple(blind7_lookalikes(Gen(SEED + 21)))
BLIND8_SECRETS: tuple[Case, ...] = tuple(blind8_secrets(Gen(SEED + 22)))
BLIND8_LOOKALIKES: tuple[Case, ...] = tuple(blind8_lookalikes(Gen(SEED + 23)))
BLIND9_SECRETS: tuple[Case, ...] = tuple(blind9_secrets(Gen(SEED + 24)))
BLIND9_LOOKALIKES: tuple[Case, ...] = tuple(blind9_lookalikes(Gen(SEED + 25)))
BLIND10_SECRETS: tuple[Case, ...] = tuple(blind10_secrets(Gen(SEED + 26)))
BLIND10_LOOKALIKES: tuple[Case, ...] = tuple(blind10_lookalikes(Gen(SEED + 27)))
SECRETS: tuple[Case, ...] = (
    *TUNING_SECRETS,
    *HELD_OUT_SECRETS,
    *BLIND_SECRETS,
    *BLIND2_SECRETS,
    *BLIND3_SECRETS,
    *BLIND4_SECRETS,
    *BLIND5_SECRETS,
    *BLIND6_SECRETS,
    *BLIND7_SECRETS,
    *BLIND8_SECRETS,
    *BLIND9_SECRETS,
    *BLIND10_SECRETS,
)
LOOKALIKES: tuple[Case, ...] = (
    *TUNING_LOOKALIKES,
    *HELD_OUT_LOOKALIKES,
    *BLIND_LOOKALIKES,
    *BLIND2_LOOKALIKES,
    *BLIND3_LOOKALIKES,
    *BLIND4_LOOKALIKES,
    *BLIND5_LOOKALIKES,
    *BLIND6_LOOKALIKES,
    *BLIND7_LOOKALIKES,
    *BLIND8_LOOKALIKES,
    *BLIND9_LOOKALIKES,
    *BLIND10_LOOKALIKES,
)
FORMATS: tuple[str, ...] = tuple(dict.fromkeys(case.vendor for case in SECRETS))

__all__ = [
    "BLIND2_LOOKALIKES",
    "BLIND2_SECRETS",
    "BLIND3_LOOKALIKES",
    "BLIND3_SECRETS",
    "BLIND4_LOOKALIKES",
    "BLIND4_SECRETS",
    "BLIND5_LOOKALIKES",
    "BLIND5_SECRETS",
    "BLIND6_LOOKALIKES",
    "BLIND6_SECRETS",
    "BLIND7_LOOKALIKES",
    "BLIND7_SECRETS",
    "BLIND8_LOOKALIKES",
    "BLIND8_SECRETS",
    "BLIND9_LOOKALIKES",
    "BLIND9_SECRETS",
    "BLIND10_LOOKALIKES",
    "BLIND10_SECRETS",
    "BLIND_LOOKALIKES",
    "BLIND_SECRETS",
    "FORMATS",
    "HELD_OUT_LOOKALIKES",
    "HELD_OUT_SECRETS",
    "LOOKALIKES",
    "SECRETS",
    "TUNING_LOOKALIKES",
    "TUNING_SECRETS",
    "Case",
]
