"""A secret a command printed: the line right after a shell prompt's command that shows or makes one
(`pulumi config get dbPassword --show-secrets`, `wg genkey`, `openssl rand -base64 32`, `vault kv get -field=...`,
`aws secretsmanager get-secret-value`, `op read ...`).

The command says what its output is, so the value needs only look like a password or be random."""

from __future__ import annotations

import re
from collections.abc import Iterator

from palace.memory.secrets import shape
from palace.memory.secrets.scan import SECRET, Hit, Text
from palace.memory.secrets.scan import regex as _re
from palace.memory.secrets.stems import password_value

# Literals one of which the lower-cased text must hold before any regex runs (most text holds none).
_PROMPTS = ("$ ", "> ", "# ")
_LITERALS = ("secret", "genkey", "genpsk", "rand ", "reveal", "field", "decrypt", "pwgen", "op read", "pass")
# A prompt (`$`, `#`, `%`, `>`, PowerShell's `PS C:\>`), the command, and the output: one token on its own line.
_PROMPTED = r"^[ \t]*(?:[$#%>]|PS [^>\n]{0,60}>)[ \t]+([^\n]{3,300})\r?\n[ \t]*([^\s]{8,200})[ \t]*$"
_REVEALS = (
    r"--show-secrets?\b|\bgen(?:key|psk)\b|\brand\b[^\n]*-(?:base64|hex)\b|--reveal\b|-field[= ]|get-secret-value"
    r"|--with-decryption|\bdecrypt\b|\bpwgen\b|\bop[ \t]+read\b|find-generic-password\b[^\n]*[ \t]-w\b"
    r"|\bsecrets?[ \t]+(?:get|show)\b|\bpass(?:word)?[ \t]+show\b"
)


def hits(scan: Text) -> Iterator[Hit]:
    """Each value printed, alone on its line, right after a command that reveals or makes a secret."""
    text = scan.text
    if "\n" not in text or not any(prompt in text for prompt in _PROMPTS):
        return
    lower = scan.lower()
    if not any(literal in lower for literal in _LITERALS):
        return
    for match in _re(_PROMPTED, re.ASCII | re.MULTILINE).finditer(text):
        if _re(_REVEALS, re.ASCII | re.IGNORECASE).search(match.group(1)) is None:
            continue
        value = match.group(2)
        if shape.is_placeholder(value) or value.startswith(("$", "/", "-")):
            continue
        if password_value(value, hex_ok=True) or shape.looks_random(value, hex_ok=True):
            yield Hit(*match.span(2), SECRET)
