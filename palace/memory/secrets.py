"""Credential detection: refuse secrets on save, redact them on recall."""

from __future__ import annotations

import re
from typing import NamedTuple


class SecretKind(NamedTuple):
    name: str
    pattern: re.Pattern[str]


def _kind(name: str, pattern: str, flags: int = 0) -> SecretKind:
    return SecretKind(name, re.compile(pattern, flags))


# `password=...` is always an assignment; after `:`/`is`/`是` the value must look like a secret (a digit or a
# symbol in it, quoted, or the last word) so that "the password is rotated monthly" is not one.
_KEYWORD = (
    r"(?:(?<![A-Za-z0-9])(?:password|passwd|passphrase|pwd|secret[_ ]?key|api[_\-]?key|access[_\-]?token"
    r"|auth[_\-]?token|client[_\-]?secret)(?![A-Za-z0-9])|密码|口令)"
)
_V = r"[!-+\--:<-~]"  # printable ASCII but space, `,` and `;`
_NOT_MASKED = r"(?!\*+(?:\s|$))"
_SECRETISH = rf"(?={_V}{{3}}){_V}*[\d!#$%&*+/<=>?@^_|~\-]{_V}*"
_QUOTED = r"[\"'`][^\"'`\s]{3,}[\"'`]"
_LAST = rf"{_V}{{3,}}(?=[\s.!?。！？]*$)"
_ASSIGNMENT = (
    rf"(?i){_KEYWORD}\s*(?:=\s*{_NOT_MASKED}{_V}{{3,}}"
    rf"|(?:[:：]|\bis\b|是|为)\s*{_NOT_MASKED}(?:{_QUOTED}|{_SECRETISH}|{_LAST}))"
)

# Ordered: the more specific kinds come first so the message names the right one.
SECRET_KINDS: tuple[SecretKind, ...] = (
    _kind("PEM private key", r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"),
    _kind("Anthropic API key", r"\bsk-ant-[A-Za-z0-9_\-]{20,}"),
    # Real keys are random base62 with digits in them, unlike a kebab-case name such as `sk-web-app-frontend`.
    _kind("OpenAI API key", r"\bsk-(?:proj-|svcacct-|admin-)?(?=[A-Za-z0-9_\-]*\d)[A-Za-z0-9_\-]{20,}"),
    _kind("AWS access key", r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b"),
    _kind(
        "AWS secret access key",
        r"(?i)aws_?secret_?access_?key\s*[:=]\s*['\"]?[A-Za-z0-9/+=]{40}",
    ),
    _kind("GitHub token", r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})"),
    _kind("GitLab token", r"\bgl(?:pat|dt|ptt|rt)-[A-Za-z0-9_\-]{20,}"),
    _kind("Slack token", r"\bxox[abposr]-[A-Za-z0-9\-]{10,}"),
    _kind("Slack webhook URL", r"hooks\.slack\.com/services/T[A-Za-z0-9]+/B[A-Za-z0-9]+/[A-Za-z0-9]+"),
    _kind("Google API key", r"\bAIza[0-9A-Za-z_\-]{35}"),
    _kind("Stripe key", r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"),
    _kind("JSON Web Token", r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
    _kind("URL with a password", r"\b[a-zA-Z][a-zA-Z0-9+.\-]*://[^/\s:@]+:[^/\s@]{2,}@"),
    _kind("bearer token", r"(?i)\bbearer\s+[A-Za-z0-9_\-.=]{20,}"),
    _kind("password assignment", _ASSIGNMENT),
)


def find_secret(text: str) -> str | None:
    """The name of the first kind of secret in text, or None."""
    for kind in SECRET_KINDS:
        if kind.pattern.search(text):
            return kind.name
    return None


def redact(text: str) -> str:
    """Text with every recognised secret replaced by a `[redacted <kind>]` marker."""
    for kind in SECRET_KINDS:
        text = kind.pattern.sub(f"[redacted {kind.name}]", text)
    return text
