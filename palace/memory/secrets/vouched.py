"""Values that say what they are, and are no secret to keep: encrypted (SOPS, Ansible Vault, sealed secrets,
Jasypt, Spring's `{cipher}`), a password's hash (LDAP `{SSHA}`, SCRAM, MySQL's `*<hex>`, crypt(3), GRUB's
PBKDF2), a reference to where the secret lives (CloudFormation `{{resolve:...}}`, Key Vault, `--set-secrets`),
a template slot (`#{Name}`, `__NAME__`), a masked value (`****`, `[FILTERED]`), a CSP nonce or a request's
signature. A generic hit on such a value is dropped: the rules judge how random a value looks, and ciphertext
and hashes look as random as keys."""

from __future__ import annotations

import re

from palace.memory.secrets.scan import regex as _re

# A marker at the value or glued before it (no space between the marker and the hit's end).
_VALUE_MARKERS = (
    r"ENC\[[A-Z0-9_]+[,\]]|ENC\(|\{cipher\}|vault:v[0-9]+:|\$ANSIBLE_VAULT;"  # encrypted
    # (dotenvx's `encrypted:`, ejson's `EJ[1:`, Jenkins' `{AQAAAB...}`, Laravel's base64 of `{"iv":`, a DPAPI blob,
    # Rails' `<data>--<iv>--<tag>`)
    r"|\bencrypted:|\bEJ\[[0-9]:|\{AQAAAB|\beyJpdiI6|\b01000000d08c9ddf0115d111"
    r"|(?<![A-Za-z0-9+/=])(?=[A-Za-z0-9+/=]{16,}--[A-Za-z0-9+/=]{8,}--[A-Za-z0-9+/=]{8,})"
    r"|\{(?:S?SHA(?:256|384|512)?|S?MD5|CRYPT|PBKDF2[A-Z0-9\-]*|ARGON2|BCRYPT|SSHA)\}"  # LDAP password hashes
    r"|SCRAM-SHA-(?:1|256|512)\$|grub\.pbkdf2\.|pbkdf2_sha(?:1|256|512)\$"
    r"|\$(?:2[abxy]?|1|5|6|y|7|argon2(?:id|i|d)|scrypt|pbkdf2(?:-sha\d+)?)\$"  # crypt(3) and kin
    r"|'\*(?=[0-9A-F]{40}')|\bmd5(?=[0-9a-f]{32}\b)"  # MySQL's native hash, PostgreSQL's md5 one
    r"|\{\{resolve:|@Microsoft\.KeyVault\(|--set-secrets=|\bsecretKeyRef\b"  # references
    r"|#\{[A-Za-z_][\w.]*\}|\b__[A-Z][A-Z0-9_]*__\b|\$\(\([A-Za-z_]|@@[A-Z_]+@@"  # template slots
    r"|\*{3,}|\[(?:FILTERED|MASKED|REDACTED|HIDDEN|SENSITIVE)\]"  # masked
    r"|'nonce-|\b(?i:signature)(?:-256)?[\"']?:[ \t]*(?:t=[0-9]+,)?v[0-9]="  # a nonce, a request's signature
)
# Anywhere on the line before the value: the keys a server publishes to verify its signatures (Matrix).
# (and a value the line names as ciphertext, `"encryptedPassword": ...`, `"encrypted_data": ...`; a key the line
# names public by design, Supabase's `..._ANON_KEY`; an HTTP message signature's header, signed per request)
_LINE_MARKERS = (
    r"\bverify_keys\b|\bold_verify_keys\b|(?i:\bencrypted_?(?:data|password|value|secret|key)?\b)[\"']?[ \t]*[:=]"
    r"|\b[A-Z0-9_]*ANON_KEY\b|\bkeyId=\""
)
# A line above the value (within a few, the value indented under it) that makes the block ciphertext.
_BLOCK_MARKERS = r"!vault[ \t]*\||\$ANSIBLE_VAULT;|^[ \t]*encryptedData:[ \t]*$|BEGIN PGP MESSAGE|age-encryption\.org"
_BLOCK_LINES = 12


def _marked(text: str, line: int, start: int, end: int) -> bool:
    """A value marker on the hit's line, with no space between it and the hit's end (a marker may run on past
    the hit: `ENC[AES256_GCM,`); or a line marker before it."""
    for match in _re(_VALUE_MARKERS).finditer(text, line, min(len(text), end + 48)):
        if match.start() < end and not _re(r"\s").search(text, match.end(), end):
            return True
    marker = _re(_LINE_MARKERS).search(text, line, end)  # (it may hold the hit's start: `encryptedPassword": "`)
    return marker is not None and marker.start() < start


def _in_block(text: str, line: int) -> bool:
    """A block marker on a line above the hit's, every line between indented as much as the hit's line at least."""
    indent = _indent(_line_at(text, line))
    top = line
    for _ in range(_BLOCK_LINES):
        if top == 0:
            return False
        top = text.rfind("\n", 0, top - 1) + 1
        above = _line_at(text, top)
        if not above.strip():
            continue
        if _re(_BLOCK_MARKERS, re.MULTILINE).search(above):
            return True
        if _indent(above) < indent or not indent:  # the value's parent, and no marker
            return False
    return False


def _line_at(text: str, start: int) -> str:
    end = text.find("\n", start)
    return text[start : end if end >= 0 else len(text)]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


# Prose that calls the value a documentation sample: "... as the sample key", "(the docs' example token)", or
# "example key: ..." right before it.
_SAMPLE = r"(?:sample|example|dummy|placeholder|fake|documented|documentation)"
_SAMPLE_AFTER = (
    rf"[\"'`]?[ \t]+(?:as|is)[ \t]+(?:(?:the|an?|their|its|our)[ \t]+)?{_SAMPLE}[ \t]+"
    r"(?:api[ \t]+)?(?:key|token|secret|value|password|credential)s?\b"
)
_SAMPLE_BEFORE = (
    rf"\b{_SAMPLE}[ \t]+(?:api[ \t]+)?(?:key|token|secret|value|password)s?[ \t]*(?:[:=]|is)?[ \t]*[\"'`]?$"
)
# A JSON Web Key's public members (`n`, `e`, `x`, `y`, its id and certificate's thumbprint): published to verify.
_JWK_PUBLIC = r"\"(?:n|e|x|y|kid|x5t|x5t#S256|x5c|crv|alg)\"[ \t]*:[ \t]*\[?[ \t]*\"$"


# Values published in the documentation that introduced them (jwt.io's token, RFC 7617's `Aladdin:open sesame`,
# Stripe's test key, AWS's example secret): samples wherever they appear.
_KNOWN_SAMPLES = (
    "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c", "QWxhZGRpbjpvcGVuIHNlc2FtZQ", "4eC39HqLyjWDarjtT1zdp7dc",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "AKIAIOSFODNN7EXAMPLE",
)  # fmt: skip


def _vouched_in_words(text: str, start: int, end: int) -> bool:
    """Words around the value call it a sample, it is a known sample, or a public member of a JSON Web Key."""
    value = text[start:end]
    if any(sample in value for sample in _KNOWN_SAMPLES):
        return True
    if '"kty"' in text and _re(_JWK_PUBLIC).search(text, max(0, start - 16), start):
        return True
    if _re(_SAMPLE_AFTER, re.ASCII | re.IGNORECASE).match(text, end) is not None:
        return True
    return _re(_SAMPLE_BEFORE, re.ASCII | re.IGNORECASE).search(text, max(0, start - 40), start) is not None


def cleared(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is a value that says it is encrypted, hashed, a reference, a slot, masked or a
    documentation sample."""
    line = text.rfind("\n", 0, start) + 1
    if _marked(text, max(line, start - 80), start, end) or _vouched_in_words(text, start, end):
        return True
    return line > 0 and _in_block(text, line)
