"""Secrets found by the structure around them, not by a keyword list: an identifier that holds a secret word's
stem (`requirepass`, `olcRootPW`, `ldap_default_authtok`, `-storepass`, `SECRET_KEY_BASE`) before an
assignment, an option's value or a directive's argument; `user:password@host` and `user/password@db` outside
URLs, and `email:password`; `user:password` as an option's value; a quoted option value that looks like a
password; Windows-style `/p:` options; a URL, a user and a secret as a command's arguments; a byte-array keypair;
a key body on the line after a line that names it a secret.

Each is anchored on a literal (a stem, `@`, `-`) that sre or str.find finds quickly, and the value must look
like a password (three kinds of character among lower, upper, digit and symbol, not words, not a reference) or
be random: these run over every redacted message."""

from __future__ import annotations

from collections.abc import Iterator

from palace.memory.secrets import named, shape
from palace.memory.secrets.kinds import PLACEHOLDER
from palace.memory.secrets.scan import BASIC, PASSWORD, PRIVATE_KEY, SECRET, WALLET, Hit, Text
from palace.memory.secrets.scan import regex as _re

# A stem, what may complete it in its part of the identifier, and whether it names a password.
_STEMS = {
    "pass": (("", "word", "wd", "wort", "phrase", "code"), True),
    "pw": (("", "d"), True),
    "auth": (("", "tok", "token", "key", "secret"), False),
    "cred": (("", "s", "ential", "entials"), False),
    "priv": (("", "key"), False),
    "key": (("", "s"), False),
    "secret": (("", "s"), False),
    "token": (("", "s"), False),
    "seed": (("",), False),
}
# `secret`, `token` and `seed` are common in ordinary talk, but each regex starts with its stem as a literal, which
# sre finds as fast as str.find: a message that merely mentions them pays a match attempt where they stand (a
# screen alternating the three words would scan every position, and cost more than the three together).
_WEAK = ("auth", "key", "priv", "secret", "token", "seed")  # such a value must be longer, or random
# Parts that may follow the stem's part and still name the value (`SECRET_KEY_BASE`, `client-key-data`).
_TAIL = frozenset(("base", "value", "hex", "b64", "base64", "raw", "plain", "plaintext", "str", "string", "data"))
# Words that end in a stem but name no secret, and parts before a stem that make it name something else.
_NOT_GLUED = frozenset(
    (
        "bypass", "compass", "surpass", "trespass", "overpass", "underpass", "encompass", "monkey", "donkey",
        "turkey", "hockey", "jockey", "whiskey", "hotkey", "turnkey", "lackey", "passkey", "pubkey", "hashkey",
        "sortkey", "cachekey", "hotkeys", "monkeys", "turkeys",
    )
)  # fmt: skip
_NOT_BEFORE = named.NOT_BEFORE | frozenset(
    (
        "public", "pub", "primary", "foreign", "sort", "partition", "idempotency", "cache", "host", "page", "next",
        "continuation", "sync", "csrf", "license", "composite", "unique", "max", "min", "no", "without", "hash",
        "site", "publishable", "rl",
    )
)  # fmt: skip
# After the stem: the rest of the identifier, closing quotes, a separator (or spaces, maybe around a type number
# as routers write it: `password 0 <pw>`, `password 7 <pw>`), an opening quote, and a value with a digit or a
# symbol (three kinds of character among four hold one).
_SEPARATOR = (
    r"[\"'\]]?"
    r"(?:[ \t]*(?::=|=>|->|[:=])[ \t]*|[ \t]+(?:[0-9][ \t]+)?)[\"'(]?(?=[^\s\"'(]{6})"
    r"(?=[^\s\"'(]{0,80}[0-9!#$%&*+=?@^~|<>])"
)
_AFTER_STEM = r"[a-z0-9]{0,12}(?:[_.\-][a-z0-9]{1,12}){0,2}" + _SEPARATOR
# The stems common in ordinary talk take no letters glued after them (their completions are `s` at most), so
# `tokenizer` or `seedling` fails at once.
_AFTER_COMMON = r"s?[0-9]?(?:[_.\-][a-z0-9]{1,12}){0,2}" + _SEPARATOR
_COMMON = frozenset(("secret", "token", "seed"))
_SYMBOL = r"[!#$%&*+=?@^~|<>]"
_PARTS = r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])"


def password_value(value: str, weak: bool = False, hex_ok: bool = True) -> bool:
    """Whether value looks like a password or a key: three kinds of character among lower, upper, digit and
    symbol (`-`, `.`, `_` are an identifier's), not words, not a placeholder or a reference; or random."""
    if not 6 <= len(value) <= 200 or _re(r"[\s()\[\]{}\\$]|%[A-Za-z].*%[A-Za-z]|://").search(value):
        return False
    if shape.is_placeholder(value) or _re(PLACEHOLDER).match(value.lower()) is None:
        return False
    if len(value) >= 16 and shape.looks_random(value, hex_ok):
        return True
    kinds = sum(_re(pattern).search(value) is not None for pattern in (r"[a-z]", r"[A-Z]", r"[0-9]", _SYMBOL))
    if kinds < 3 or (weak and (len(value) < 10 or kinds < 4)):
        return False
    # (with all four kinds of character, a word may be most of it: `Marigold3387#`; no identifier has a symbol)
    wordy = kinds == 4 and _re(r"[!#$%&*+?@^~]").search(value) and not _re(r"[=:,<>/]").search(value)
    words = 0.75 if wordy else shape.WORDS
    return shape.words_share(value) <= words and len(_re(r"[0-9]\.[0-9]").findall(value)) < 2


def _value_at(text: str, start: int) -> tuple[int, int]:
    """The span of the value starting at start: up to its closing quote, or a bare word without the
    punctuation that ends a clause after it."""
    quote = text[start - 1] if start > 0 else ""
    if quote in "\"'":
        end = text.find(quote, start)
        line = text.find("\n", start)
        if end >= 0 and (line < 0 or end < line):
            return start, end
    match = _re(r"[^\s\"'`]{1,256}").match(text, start)  # (bounded: a value over 200 characters is none)
    end = match.end() if match else start
    while end > start and text[end - 1] in ",;)]}>":
        end -= 1
    return start, end


def _identifier(text: str, at: int, stem_end: int) -> tuple[int, int]:
    """The span of the identifier around a stem at `at` (its end found by the caller's regex at stem_end)."""
    match = _re(r"[A-Za-z0-9_.\-]{0,40}$").search(text, max(0, at - 40), at)
    start = match.start() if match else at
    while start < at and text[start] in "-.":
        start += 1
    end = _re(r"[A-Za-z0-9_.\-]*").match(text, stem_end)
    return start, end.end() if end else stem_end


def _names_secret(name: str, stem: str) -> bool:
    """Whether an identifier names a secret by a stem in it: the stem's part, completed as the stem may be,
    is its last part (or followed by a tail part only), and no part before it makes it name something else."""
    parts = [part.lower() for part in _re(_PARTS).findall(name)]
    completions, _ = _STEMS[stem]
    for index, part in enumerate(parts):
        at = part.rfind(stem)
        if at < 0 or part in _NOT_GLUED or part[at + len(stem) :].rstrip("0123456789") not in completions:
            continue
        rest, before = parts[index + 1 :], parts[:index]
        if (at and part[:at] in _NOT_BEFORE) or (before and before[-1] in _NOT_BEFORE):
            return False
        return all(tail in _TAIL for tail in rest)
    return False


def _qualified(text: str, start: int) -> bool:
    """A word before the identifier makes it name something else (`cache key:`, `# public key:`), or the
    identifier is a URL's query parameter (urls.py judges those)."""
    if text[start - 1 : start] in ("?", "&"):
        return True
    before = _re(r"([A-Za-z]+)[ \t]+$").search(text, max(0, start - 24), start)
    return before is not None and before.group(1).lower() in _NOT_BEFORE


def _spaced_ok(text: str, start: int, glued: bool) -> bool:
    """A value after spaces only is the identifier's if the identifier is an option (`-storepass`), glued to a
    word (`requirepass`), a subcommand that sets it (`add-authtoken`, `set_password`), or a directive opening
    its line (`auth_pass`, `stats auth`)."""
    if glued or text[start - 1 : start] in ("-", "/"):
        return True
    if _re(r"(?i)(?:add|set|update|change|rotate|put|save)[_\-]").match(text, start):
        return True
    line = text.rfind("\n", 0, start) + 1
    return _re(r"[ \t]*(?:[A-Za-z_][\w.\-]*[ \t]+)?").fullmatch(text, line, start) is not None


def _stem_hits(scan: Text) -> Iterator[Hit]:
    """Values after an identifier that holds a secret word's stem."""
    text, lower = scan.text, scan.lower()
    for stem, (_, is_password) in _STEMS.items():
        if stem not in lower:
            continue
        skip = 0  # the end of the last value judged: a stem inside it is part of it (`token=token=...`)
        for match in _re(stem + (_AFTER_COMMON if stem in _COMMON else _AFTER_STEM)).finditer(lower):
            if match.start() < skip:
                continue
            start, end = _identifier(text, match.start(), match.start() + len(stem))
            name = text[start:end]
            if not _names_secret(name, stem) or _qualified(text, start):
                continue
            separator = text[end : match.end()]
            if not _re(r"[\"'\]]?[ \t]*(?::=|=>|->|[:=])").match(separator):
                glued = _re(r"[A-Za-z0-9]").match(text, match.start() - 1) is not None if match.start() else False
                typed = _re(r"[ \t]+[0-9][ \t]+").fullmatch(separator) is not None
                if not typed and not _spaced_ok(text, start, glued):
                    continue
            a, b = _value_at(text, match.end())
            skip = b
            weak = stem in _WEAK and not _re(r"pass|pw").search(name.lower())
            value = text[a:b]
            if weak and _re(r"(?:[a-z][a-z0-9]*[_.\-])+[0-9a-f]{16,}").fullmatch(value):
                continue  # a name of words before a digest: a cache key, a build id
            if len(value) >= 16 and shape.decoded_secret(value) is not None:
                continue  # base64 of `user:password` or of a key: generic.py names it by what it decodes to
            if password_value(value, weak, hex_ok=not weak):
                yield Hit(a, b, PASSWORD if is_password else SECRET)


# `user:password@host` or `user/password@db` outside a URL (a DSN, a SIP register line, an Oracle connect
# string), and `email:password` (a mail client's or relay's credentials).
_BEFORE_AT = r"(?<![A-Za-z0-9._%+\-])([A-Za-z0-9._%+\-]{1,64})[:/]([^\s\"'`:/]{4,128})$"
_AFTER_AT = r"(?!sha|md5)[A-Za-z0-9\[][A-Za-z0-9.\-]*"
_EMAIL_PASSWORD = r"@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+:([^\s\"'`:]{6,128})"


def _at_hits(text: str) -> Iterator[Hit]:
    """Credentials beside an `@`."""
    at = text.find("@")
    while at >= 0:
        before = _re(_BEFORE_AT).search(text, max(0, at - 194), at)
        if (
            before is not None
            and "://" not in text[max(0, before.start() - 3) : before.start()]
            and _re(_AFTER_AT).match(text, at + 1)
            and password_value(before.group(2), hex_ok=False)
        ):
            yield Hit(before.start(2), at, BASIC)
        email = _re(_EMAIL_PASSWORD).match(text, at)
        if email is not None and password_value(email.group(1), hex_ok=False):
            yield Hit(*email.span(1), PASSWORD)
        at = text.find("@", at + 1)


# An option's value: `user:password` (`-a ada:...`, `--auth admin:...`), or quoted and looking like a password.
_OPTION = r"-(?<![^\s]-)-?[A-Za-z][A-Za-z0-9\-]{0,30}[ \t=]+"
_OPTION_PAIR = _OPTION + r"[\"']?[A-Za-z0-9._@+\-]{1,64}:([^\s\"':]{6,128})"
_OPTION_QUOTED = _OPTION + r"([\"'])([^\s\"']{10,128})\1"
# `-p<password>` (rar, 7z, mysql and the like; also an item of an exec-form command, `["mysqladmin", "-p..."]`)
_GLUED_P = r"-(?<![^\s\"'\[,]-)[pP]([^\s\"'-][^\s\"']{7,127})"
# A password option with a space (`signtool /p ...`, `steghide -p ...`, `smbpasswd -w ...`, `--password ...`): a
# value of 8+ characters of three kinds, not words (what one-letter options take besides: ports, names, paths),
# or an app-specific password (`abcd-efgh-ijkl-mnop`).
_SPACED_OPTION = (  # (starting with `-` or `/`, which sre looks for, not with the lookbehind)
    r"[\-/](?<![^\s\[\"',][\-/])(?:(?<=-)[pPw]|(?<=/)p|(?<=-)-?(?:password|passwd|pass|passphrase|pwd|pw))[ \t]+"
    r"([\"']?)([^\s\"'$<%{\-][^\s\"']{5,127})\1(?![^\s\]\"',;])"
)
_APP_PASSWORD = r"[a-z]{4}(?:-[a-z]{4}){3}"


def _option_hits(text: str) -> Iterator[Hit]:
    """Credentials as an option's value."""
    for match in _re(_OPTION_PAIR).finditer(text):
        if password_value(match.group(1), hex_ok=False):
            yield Hit(*match.span(1), BASIC)
    for match in _re(_OPTION_QUOTED).finditer(text):
        value = match.group(2)
        if password_value(value) and shape.entropy(value) >= 3.0 and shape.words_share(value) <= 0.4:
            yield Hit(*match.span(2), PASSWORD)
    for match in _re(_GLUED_P).finditer(text):
        if password_value(match.group(1), weak=True, hex_ok=False):
            yield Hit(*match.span(1), PASSWORD)
    spaced = "-p" in text or "-P" in text or "-w" in text or "/p" in text  # (every match holds one)
    for match in _re(_SPACED_OPTION).finditer(text) if spaced else ():
        value = match.group(2)
        if (password_value(value, hex_ok=False) and len(value) >= 8) or _re(_APP_PASSWORD).fullmatch(value):
            yield Hit(*match.span(2), PASSWORD)


# Windows-style options (`/p:<pw>`, `/pass:<pw>`, `/password=<pw>`) of RDP clients, `cmdkey`, `net use` and the like.
_SLASH_OPTION = r"/(?<![^\s]/)(?:p|pw|pwd|pass|passwd|password)[:=]([\"']?)([^\s\"']{4,128})\1(?![^\s])"


def _slash_hits(text: str) -> Iterator[Hit]:
    """Passwords as a Windows-style option's value."""
    for match in _re(r"(?i)" + _SLASH_OPTION).finditer(text):
        if password_value(match.group(2), hex_ok=False):
            yield Hit(*match.span(2), PASSWORD)


# A command that sets a remote's credentials: a URL, then a user or access key, then a random secret as
# positional arguments (`... alias set NAME URL ACCESS SECRET`, `... remote add URL USER SECRET`).
_URL_USER_SECRET = r"://[^\s\"']{1,300}+[ \t]+[A-Za-z0-9._@\-]{1,64}[ \t]+([A-Za-z0-9+/_.~\-]{16,128})(?![^\s])"
_SETS = r"(?i)(?<![a-z])(?:set|add|login|alias|config|register|remote|auth)(?![a-z])"


def _positional_hits(scan: Text) -> Iterator[Hit]:
    """A random secret after a URL and a user on a command line that sets or adds something."""
    text = scan.text
    for match in _re(_URL_USER_SECRET).finditer(text):
        line = text[scan.line_start(match.start()) : match.start()]
        if _re(_SETS).search(line) and shape.looks_random(match.group(1), hex_ok=False):
            yield Hit(*match.span(1), SECRET)


# A keypair as a JSON array of bytes (Solana's `id.json`, `Uint8Array([...])`): 32 or 64 numbers of 0-255,
# with a word that names a key or a wallet (not a public key) on its line or the line before; or 16 of them.
_BYTES = r"\[[ \t\n]*(?:[0-9]{1,3}[ \t\n]*,[ \t\n]*){15,63}[0-9]{1,3}[ \t\n]*\]"
_NAMES_KEY = r"(?i)key|secret|wallet|solana|id\.json|seed|signer"
_PUBLIC_NAME = r"(?i)pub(?:lic)?[ _\-]?key"


def _array_hits(scan: Text) -> Iterator[Hit]:
    """Byte arrays of key size named as a key."""
    text = scan.text
    for match in _re(_BYTES).finditer(text):
        numbers = [int(n) for n in _re(r"[0-9]+").findall(match.group(0))]
        if len(numbers) not in (16, 32, 64) or max(numbers) > 255 or len(set(numbers)) < len(numbers) // 2:
            continue
        start = scan.line_start(match.start())
        before = text[scan.line_start(max(0, start - 1)) : match.start()]
        if len(numbers) == 16:  # an AES-128 key (Zigbee's `network_key: [...]`), named on its own line
            before = text[start : match.start()]
        if _re(_NAMES_KEY).search(before) and not _re(_PUBLIC_NAME).search(before):
            yield Hit(*match.span(), WALLET)


# A key body alone on the line after a line that ends naming it (`... secret key`, `identity.secret:`):
# base64, base58 or hex, maybe in `:`-separated fields, of key size.
_NAMING_LINE = r"(?:secret|private)(?:[ _\-]?key)?|seed|priv(?:ate)?[ _\-]?key"
_BODY = r"[ \t]*([A-Za-z0-9+/=]{40,}|[0-9a-fA-F]{6,}(?::[0-9a-fA-F]{1,}){2,})[ \t]*(?:\r?\n|$)"


def _body_hits(scan: Text) -> Iterator[Hit]:
    """Key bodies on the line after a line that names a secret."""
    text, lower = scan.text, scan.lower()
    for match in _re(rf"(?:{_NAMING_LINE})(?![a-z])[ \t]*:?[ \t]*\r?\n").finditer(lower):
        line = text[scan.line_start(match.start()) : match.start()].lower()
        if _re(r"(?:public|pub)[ _\-]?$").search(line):
            continue
        body = _re(_BODY).match(text, match.end())
        if body is not None and (len(body.group(1)) >= 64 or shape.looks_random(body.group(1), hex_ok=True)):
            value = body.group(1)
            if shape.entropy(value.replace(":", "")) >= 3.0 and not shape.is_placeholder(value):
                yield Hit(*body.span(1), PRIVATE_KEY)


def hits(scan: Text) -> Iterator[Hit]:
    """Every hit of the structural rules in the scanned text."""
    text = scan.text
    yield from _stem_hits(scan)
    if "@" in text:
        yield from _at_hits(text)
    if "-" in text:
        yield from _option_hits(text)
    if "/" in text:
        yield from _slash_hits(text)
    if "://" in text:
        yield from _positional_hits(scan)
    if "[" in text:
        yield from _array_hits(scan)
    if "\n" in text and ("secret" in scan.lower() or "priv" in scan.lower() or "seed" in scan.lower()):
        yield from _body_hits(scan)
