"""What a token looks like: random or made of words, hex, a UUID, a placeholder; base64 and what it decodes
to (text, `user:password`, a DER private key, an OpenSSH or PGP secret key). Cheap tests first: these run
on every candidate token of every redacted message."""

from __future__ import annotations

import base64
import binascii
import functools
import itertools
import math
import re
from collections import Counter

# The entropy (bits per character) below which a token is not random, for tokens of 16+ characters. Measured on
# the look-alikes (bench/secrets_corpus): identifiers, paths and versions with a digit in them stay under 3.3
# when their words are left out; random keys of 16 characters from a 62-letter alphabet are at 3.5 or more
# (a 16-hex key at 3.0 or more, hence the hex threshold).
ENTROPY = 3.3
HEX_ENTROPY = 2.9
WORDS = 0.55  # a token more than this much made of words (`TokenRefreshHandler`, `/var/log/app`) is not random


@functools.cache
def _re(source: str) -> re.Pattern[str]:
    return re.compile(source, re.ASCII)


def entropy(text: str) -> float:
    """Shannon entropy of text, in bits per character."""
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in Counter(text).values()) if n else 0.0


def is_hex(token: str) -> bool:
    """Hex digits, optionally in UUID-style groups, optionally after 0x."""
    return _re(r"(?:0x)?[0-9a-fA-F]+(?:-[0-9a-fA-F]+)*").fullmatch(token) is not None


def words_share(token: str) -> float:
    """The share of token made of word-like runs: a capital and lower-case letters, or lower-case letters, with
    a vowel in them, 3+ letters (`Token`, `refresh`), and all-capital runs of 3-8 (`API`, `HTTP`) in an
    identifier that also has such lower-case words."""
    runs = _re(r"[A-Z]?[a-z]{2,}|[A-Z]{3,}(?![a-z])").findall(token)
    vowel = _re(r"[aeiouyAEIOUY]")
    wordy = [run for run in runs if len(run) >= 3 and vowel.search(run) and pronounceable(run)]
    if not any(run[-1].islower() for run in wordy):  # capitals alone (`QSBNOCUFV...`) are no words
        return 0.0
    return sum(map(len, wordy)) / len(token) if token else 0.0


def pronounceable(run: str) -> bool:
    """No more than 4 consonants in a row and a vowel for every 4 letters: `strength` is, `xkcdqz` is not."""
    return _re(r"[^aeiouyAEIOUY]{5}").search(run) is None and sum(c in "aeiouyAEIOUY" for c in run) * 4 >= len(run)


_PLACEHOLDER_WORDS = (
    "example", "sample", "placeholder", "changeme", "your", "redacted", "dummy", "insert", "replace", "xxxx", "****",
    "todo", "fixme", "secret_here", "token_here", "key_here",
)  # fmt: skip


def is_placeholder(token: str) -> bool:
    """A documentation value (`YOUR_API_KEY`, `sk_live_xxxx`, `<token>`, `${TOKEN}`, `0000...`), not a key."""
    lower = token.lower()
    if any(word in lower for word in _PLACEHOLDER_WORDS) or token[:1] in "<${[*":
        return True
    if _re(r"(?:env|file|fd):[A-Za-z_]|(?:vars?|data|local|module)\.[a-z_]").match(token):  # `env:PW`, `var.db_pw`
        return True
    if token[:1] == "%" and _re(r"%(?:[A-Za-z_][A-Za-z0-9_]*%|\(|[sd]$)").match(token):  # `%DB_PASS%`, `%(pw)s`
        return True
    return len(set(lower)) <= 3 or _re(r"(.)\1{7}").search(token) is not None


def looks_random(token: str, hex_ok: bool, words: float = WORDS) -> bool:
    """Whether a token of 16+ characters is random enough to be a key: not a placeholder, not made of words,
    with a digit in it or both cases, above the entropy threshold. hex_ok: hex digits count (a key named as one
    may be hex; unnamed, hex is a digest); words: the share of words above which it is not random."""
    if is_placeholder(token) or token.isdigit():
        return False
    if is_hex(token):
        return hex_ok and len(token) >= 16 and entropy(token) >= HEX_ENTROPY
    has_digit = any(c.isdigit() for c in token)
    if not has_digit and (token.islower() or token.isupper()):
        return False
    if words_share(token) > words or _named(token) or _alphabet(token):
        return False
    return entropy(token) >= ENTROPY


def _alphabet(token: str) -> bool:
    """An alphabet spelt out (`ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef...`, a base64 or URL-safe set in code): 8 characters
    in a row each one after the other, which a random key never has."""
    run = 1
    for left, right in itertools.pairwise(token):
        run = run + 1 if ord(right) - ord(left) == 1 else 1
        if run >= 8:
            return True
    return False


def _named(token: str) -> bool:
    """A version, a file name or a kebab/snake/dotted name: `2.32.3`, `palace-0.1.0.tar.gz`, `py3-none-any`;
    separators are rare in a random key (3% of base64url)."""
    if len(_re(r"[0-9]\.[0-9]").findall(token)) >= 2 or _re(r"\.[a-z]{2,4}$").search(token):
        return True
    return len(_re(r"[_.\-/]").findall(token)) * 7 > len(token)


def has_random_body(token: str) -> bool:
    """A token with a vendor prefix (`lsv2_pt_...`, `NRAK-...`, `dp.pt....`): the prefix, then 20+ random
    characters; its body may be hex after `_` (`sntryu_<hex>`) or after an upper-case prefix (`PMAK-<hex>`),
    not after a lower-case one and `-` (`build-3f7a9b2c...` is a build id)."""
    match = _re(r"((?:[A-Za-z][A-Za-z0-9]{0,9}[_.\-]){1,3})([A-Za-z0-9_\-.+/=~]{20,})").fullmatch(token)
    if match is None:
        return False
    prefix, body = match.groups()
    if prefix.lower().startswith(_PUBLIC_PREFIXES) or prefix.lower() in _DIGEST_PREFIXES:
        return False
    if is_hex(body):  # (not a UUID in capitals, nor a file name's `README.` before a digest)
        upper = prefix[:-1].isupper() and prefix.endswith("-") and not is_hex(token)
        return (prefix.endswith("_") or upper) and len(body) >= 24 and entropy(body) >= HEX_ENTROPY
    return looks_random(body, hex_ok=False) and words_share(token) <= WORDS


# Publishable keys, public ids and digests carry a prefix too; so do the ids of an API's objects (Stripe's
# customers, invoices and payments, OpenAI's files and runs), which are shown in dashboards and logs.
_PUBLIC_PREFIXES = (
    "pk_", "pk.", "pub", "phc_", "sb_publishable", "xpub", "tpub", "ypub", "zpub", "npub", "cus_", "in_", "pi_", "ch_",
    "sub_", "price_", "prod_", "evt_", "txn_", "pm_", "seti_", "acct_", "po_", "py_", "src_", "ii_", "il_", "cs_",
    "card_", "plan_", "inv_", "req_", "msg_", "run_", "thread_", "asst_", "batch_", "call_", "file-", "chatcmpl-",
    "user_", "usr_", "team_", "org_", "org-", "prj_", "proj_", "project_", "ord_", "order_", "item_", "conv_",
    "node_", "job_", "task_", "doc_", "img_", "evt-", "nonce-", "trace_", "span_", "sess_id", "ocid1.",
    "dpl_", "deploy_", "build_",
)  # fmt: skip
_DIGEST_PREFIXES = ("sha1-", "sha256-", "sha384-", "sha512-", "md5-", "sha-", "sha256~")


def b64decode(token: str) -> bytes | None:
    """token decoded as standard or URL-safe base64 (padding optional, a cut-off last character dropped), or
    None."""
    body = token.rstrip("=")
    if _re(r"[A-Za-z0-9+/\-_]+").fullmatch(body) is None:
        return None
    body = body[:-1] if len(body) % 4 == 1 else body
    try:
        if "-" in body or "_" in body:
            return base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        return base64.b64decode(body + "=" * (-len(body) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None


def printable(data: bytes) -> str | None:
    """data as text if it is printable UTF-8 (base64 of text, not of a key), else None."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text if text and all(c.isprintable() or c in "\n\r\t" for c in text) else None


def _der_item(data: bytes, at: int) -> tuple[int, int, int] | None:
    """(tag, start of content, end of content) of the DER item at `at`, or None."""
    if at + 2 > len(data):
        return None
    tag, size = data[at], data[at + 1]
    start = at + 2
    if size & 0x80:
        count = size & 0x7F
        if count == 0 or count > 3 or start + count > len(data):
            return None
        size = int.from_bytes(data[start : start + count], "big")
        start += count
    return tag, start, start + size


def der_private(data: bytes) -> bool:
    """Whether data starts as a DER private key: SEQUENCE { INTEGER version, ... } (PKCS#1, PKCS#8, SEC1,
    PKCS#12) or SEQUENCE { SEQUENCE algorithm, OCTET STRING } (an encrypted PKCS#8 key); not a public key
    (SEQUENCE { SEQUENCE, BIT STRING }) or a certificate (SEQUENCE { SEQUENCE { [0] ... } })."""
    outer = _der_item(data, 0)
    if outer is None or outer[0] != 0x30:
        return False
    first = _der_item(data, outer[1])
    if first is None:
        return False
    if first[0] == 0x02:  # INTEGER: a version (0, 1 or 3) starts a private key or a PFX
        return first[2] - first[1] == 1 and data[first[1]] in (0, 1, 3)
    if first[0] != 0x30:
        return False
    second = _der_item(data, first[2])
    return second is not None and second[0] == 0x04


def binary_key(data: bytes) -> bool:
    """Whether decoded base64 is a private key file's body: DER, `openssh-key-v1`, or a PGP secret-key packet
    (old format tag 5 or new format tag 5, version 3 to 6)."""
    # (and JKS, JCEKS, a Tor onion service's `hs_ed25519_secret_key`)
    if data.startswith((b"openssh-key-v1\x00", b"\xfe\xed\xfe\xed", b"\xce\xce\xce\xce", b"== ed25519v1-secret")):
        return True
    if data[0] in (0x94, 0x95, 0x96):  # the length takes 1, 2 or 4 bytes
        offset = 1 + (1, 2, 4)[data[0] & 3]
        return data[offset] in (3, 4, 5, 6)
    if data[0] == 0xC5:
        offset = 1 + (1 if data[1] < 192 else 2 if data[1] < 224 else 5)
        return data[offset] in (3, 4, 5, 6)
    return der_private(data)


USER_PASSWORD = r"[A-Za-z0-9._%+@$\-]{1,64}:[^\s:]{4,128}"


def decoded_secret(token: str) -> str | None:
    """What a base64 token hides, if a secret: "private key" (a key file's body, or text with a PEM private key),
    "basic auth credentials" (`user:password`), else None."""
    data = b64decode(token)
    if data is None or len(data) < 8:
        return None
    text = printable(data)
    if text is None:  # an Ed25519 key in PKCS#8 is 48 bytes of DER
        return (
            "private key" if (len(data) >= 64 and binary_key(data)) or (len(data) >= 40 and der_private(data)) else None
        )
    if "PRIVATE KEY-----" in text or "PRIVATE KEY BLOCK-----" in text or '"private_key"' in text:
        return "private key"
    if _re(USER_PASSWORD).fullmatch(text) and not _re(r"[a-z][a-z0-9+.\-]*://").match(text):
        password = text.partition(":")[2]
        if not password.isdigit() or len(password) >= 6:
            return "basic auth credentials"
    return None
