"""A keyword naming a value: before it in an assignment, an option, a header or a sentence ("password", "token",
"clé", "密钥", "トークン"), after it ("... as the API token"), in a custom request header's name, or in the label
of the field that holds it (fields.py)."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterator

from palace.memory.secrets import fields, shape
from palace.memory.secrets.scan import PASSWORD, SECRET, Hit
from palace.memory.secrets.scan import Text as _Text
from palace.memory.secrets.scan import regex as _re

# Words that name a secret, lower-cased; ASCII ones must stand as a word or an identifier's part (`db_password`,
# `apiKey`, `X-Auth-Token`), the others anywhere. A weak one (`key`, `auth`, `sig`) names a random value only;
# the others also a hex one (`token: <40 hex>`).
_PASSWORD_WORDS = (
    "password", "passwd", "passwort", "passphrase", "pass phrase", "passcode", "pass", "pwd", "kennwort",
    "mot de passe", "mdp", "contraseña", "senha", "пароль", "密码", "口令", "パスワード", "暗証番号", "비밀번호",
    "암호",
)  # fmt: skip
_SECRET_WORDS = (
    "secret", "token", "api key", "api_key", "api-key", "apikey", "credentials", "credential", "creds", "bearer",
    "private key", "privkey", "seed", "mnemonic", "schlüssel", "schluessel", "zugangsdaten", "clé", "jeton",
    "identifiants", "clave", "credenciales", "llave", "chave", "credenciais", "chiave", "credenziali", "segreto",
    "ключ", "токен", "секрет", "密钥", "秘钥", "令牌", "凭证", "凭据", "私钥", "トークン", "秘密鍵", "認証情報",
    "キー", "鍵", "토큰", "키", "macaroon",
    # a personal access token (`GANDI_PAT`), a keystore's bytes (`ANDROID_KEYSTORE_BASE64`), the secret of an
    # `ak`/`sk` pair (`sk: ...` under `ak: ...`, as CTyun, Qiniu and Baidu name it)
    "pat", "keystore", "sk",
    # "key" and "token" in more languages, with the inflected forms an ASCII word must spell out (it stands as a
    # whole word): Dutch, Polish, Turkish, Swedish, Norwegian, Danish, Finnish, Hungarian, Romanian, Greek,
    # Arabic, Persian, Hebrew, Hindi, Vietnamese, Indonesian, Catalan, Swahili, South Slavic, Czech, Slovak,
    # Portuguese, Spanish, Chinese (traditional), Thai
    "sleutel", "klucz", "klucza", "anahtar", "anahtarı", "nyckel", "nyckeln", "nøkkel", "nøgle", "avain",
    "avaimen", "kulcs", "kulcsa", "cheia", "cheie", "κλειδί", "κλειδι", "مفتاح", "کلید", "توکن", "מפתח", "טוקן",
    "कुंजी", "टोकन", "khóa", "khoá", "kunci", "clau", "ufunguo", "ključ", "kljuc", "klíč", "kľúč", "segredo",
    "secreto", "金鑰", "密鑰", "秘鑰", "คีย์", "โทเค็น", "api की", "mã api", "mã truy cập", "mã bí mật",
)  # fmt: skip
# (SNMP's community string; a salt kept in a config, `hash_salt`, `MERCHANT_SALT`, keys what it hashes)
_WEAK_WORDS = ("key", "auth", "sig", "signature", "cle", "session", "community", "salt")
# Words around a keyword that make it name something else: `public key`, `key_id`, `token budget`.
NOT_BEFORE = frozenset(
    (
        "public", "pub", "publishable", "primary", "foreign", "sort", "partition", "idempotency", "cache", "hot",
        "host", "page", "next", "continuation", "sync", "csrf", "license", "composite", "unique", "anon", "verify",
        "verifying", "verification", "publieke", "offentlig", "offentlige", "julkinen",
        # a signature published on a chain or with a commit
        "transaction", "tx", "txn", "solana", "ethereum", "bitcoin", "onchain", "commit",
    )
)  # fmt: skip
_NOT_AFTER = frozenset(
    (
        "id", "ids", "name", "names", "type", "url", "uri", "endpoint", "file", "path", "length", "len", "size", "ttl",
        "expiry", "expires", "expiration", "count", "limit", "prefix", "hash", "hashes", "policy", "ref", "version",
        "header", "format", "usage", "field", "env", "var", "dir", "location", "arn", "fingerprint", "min", "max",
        "rotation", "manager", "store", "vault", "provider", "kind", "source", "alias", "label", "index", "budget",
        "bucket", "exchange", "lifetime", "timeout", "scope", "scopes", "reset", "hint", "strength", "rules", "rule",
        "validator", "generator", "mode", "window", "cost", "pair", "pairs", "thumbprint", "tag"
    )
)  # fmt: skip
_GLUED_DIGEST = r"(?:hash|digest)[_\-.]?$"
_DIGESTS = ("sha1", "sha256", "sha512", "sha384", "md5", "checksum", "digest", "integrity", "hash", "fingerprint")


@functools.cache
def keywords() -> re.Pattern[str]:
    every = sorted({*_PASSWORD_WORDS, *_SECRET_WORDS, *_WEAK_WORDS}, key=len, reverse=True)
    # `private key` also as `private_key`, `private-key`, `privateKey`; a short word ending its identifier only, so
    # that it does not hide the keyword it overlaps (`aesKey`: `sk`, then `key`)
    return re.compile(
        "|".join(re.escape(word).replace(r"\ ", r"[ _\-]?") + ("(?![a-z])" * (word in _ENDING_ONLY)) for word in every)
    )


_ENDING_ONLY = frozenset(("sk", "pat", "salt"))


def strength(word: str) -> str:
    """PASSWORD, SECRET or "" (weak) for a keyword."""
    word = _re(r"[ _\-]").sub(" ", word)
    if word in _PASSWORD_WORDS:
        return PASSWORD
    return SECRET if word in _SECRET_WORDS else ""


# -- a keyword naming the value ----------------------------------------------------------------------------------


def _is_letter(c: str) -> bool:
    return c.isalpha()


def word_bounded(text: str, start: int, end: int) -> bool:
    """A keyword at text[start:end] stands as a word or as a part of an identifier (`db_password`, `apiKey`,
    `SecretKey`, `X-Auth-Token`), and is not part of a longer word (`monkey`, `tokenizer`, `passport`)."""
    before = text[start - 1] if start > 0 else " "
    left = not _is_letter(before) or (before.islower() and text[start].isupper()) or _after_acronym(text, start, end)
    after = text[end] if end < len(text) else " "
    if after in "sS" and (end + 1 >= len(text) or not _is_letter(text[end + 1])):
        after = text[end + 1] if end + 1 < len(text) else " "
    right = not _is_letter(after) or (after.isupper() and text[end - 1].islower())
    return left and right


def _after_acronym(text: str, start: int, end: int) -> bool:
    """A capitalised word right after an acronym (`kAPISecret`, `OAuthToken` aside), or a strong keyword ending an
    identifier in capitals (`WECHAT_APPSECRET`, `CLIENTTOKEN`): its left edge is a word's."""
    if start < 2 or not text[start - 2 : start + 1].isupper() or not text[start - 2 : start + 1].isalpha():
        return False
    word = _re(r"[A-Z][a-z]+").match(text, start)  # `APISecret`: the keyword spelt as a word (not `GMdP3` in base64)
    if word is not None:
        return word.end() >= end
    match = _re(r"(?:SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|APIKEY)(?![A-Za-z])").match(text, start)
    return match is not None and text[text.rfind("_", 0, start) + 1 : start].isupper()


def qualified_away(text: str, start: int, end: int) -> bool:
    """A word beside the keyword makes it name something else (`public key`, `key_id`, `token budget`)."""
    before = _re(r"([A-Za-z]+)[ _\-.]?$").search(text, max(0, start - 24), start)
    if before and before.group(1).lower() in NOT_BEFORE:
        return True
    after = _re(r"(?:[_\-.]?([A-Za-z][a-z]*|[A-Z]+(?![a-z])))+").match(text, end)
    secret = text[start:end].lower() == "secret"  # a `secret_id` is one (Vault's), a `key_id` is not
    if after:
        parts = _re(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])").findall(after.group())
        if any(part.lower() in _NOT_AFTER and not (secret and part.lower() == "id") for part in parts):
            return True
    following = _re(r"[ \t]+([A-Za-z]+)").match(text, end)
    return bool(following and following.group(1).lower() in _NOT_AFTER)


_GAP = (
    r"[A-Za-z0-9_\-.]*[\"'`\])]*[ \t]*(?:,[ \t]*)?"  # the rest of the identifier, closing quotes, `', '`
    r"(?:(?:[:=：]|:=|=>|->|—|-|\||is|are|was|lautet|ist|est|es|é|è|será|sarà|是|为|為|は|が|는|은|: )[ \t]*)?"
    r"(?:[\"'`(\[{][ \t]*)*"
)


_VERB = r"[ \t]+(?:get|list|show|describe|delete|rm|read|fetch|inspect|view|cat|remove|edit|rotate|versions?)[ \t]+"


def _gap_ok(text: str, end: int, value_start: int) -> bool:
    """Between a keyword and its value: a separator, a copula, or a few words ("for the NAS is"), on one line
    (or a line break right after `:`), with no sentence ending in between."""
    gap = text[end:value_start]
    if "\n" in gap and not _re(r"[^\n]*[:=：][ \t]*\r?\n[ \t]*$").fullmatch(gap):
        return False
    if _re(_GAP).fullmatch(gap):
        return True
    if _re(_VERB).fullmatch(gap):  # `secret get <id>`: a secret manager's command names the secret by its id
        return False
    if len(gap) > 40 or gap.count(",") > 1 or _re(r"[.!?。！？;](?:\s|$)").search(gap):
        return False
    # "bearer for the partner API is ...": an elided article is part of its word (`l'API`, `d'accès`)
    return len(_re(r"[^\W\d_]+(?:'[^\W\d_]+)?", re.UNICODE).findall(gap)) <= 5


def keyword_before(scan: _Text, value_start: int) -> str | None:
    """PASSWORD, SECRET or "" (weak) if a keyword names the value at value_start, else None."""
    text = scan.text
    start = window_start(scan, value_start)
    window = text[start:value_start]
    lower = window.lower()
    if len(lower) != len(window):
        return None
    for match in reversed(list(keywords().finditer(lower))):
        a, b = start + match.start(), start + match.end()
        if match.group().isascii() and (not word_bounded(text, a, b) or qualified_away(text, a, b)):
            continue
        # "the sha256 of the token is ...": a digest, named (not a digest's word glued before: `hash_salt`)
        near = _re(_GLUED_DIGEST).sub("", lower[max(0, match.start() - 16) : match.start()]) + lower[match.start() :]
        if not _gap_ok(text, b, value_start) or any(digest in near for digest in _DIGESTS):
            return None
        return strength(match.group())
    return None


def window_start(scan: _Text, value_start: int) -> int:
    """Where keyword_before looks from: 64 characters back, within the value's line (or the line before, if the
    value opens its line: the keyword may end that line)."""
    start = scan.line_start(value_start)
    if not scan.text[start:value_start].strip():
        start = scan.line_start(max(0, start - 1))
    return max(start, value_start - 64)


def keyword_after(text: str, value_end: int) -> bool:
    """ "<value> as the API token", "<value> is my password": a keyword right after the value names it."""
    tail = text[value_end : value_end + 48].lower()
    copula = r"[\"'`]?[ \t]+(?:as|is)[ \t]+(?:(?:the|my|our|your|a|an|new|prod|staging|dev)[ \t]+){0,2}"
    comment = r"[\"'`)\];,]*[ \t]*(?:#|//|--)[ \t]*(?:[a-z0-9]+[ \t]+){0,2}"  # `...')  # cohere api key`
    match = _re(f"{copula}|{comment}").match(tail)
    if match is None:
        return False
    for at in (match.end(), tail.find(" ", match.end()) + 1):  # "as the token", "as the api token"
        rest = keywords().match(tail, at) if at > 0 else None
        if rest is not None:
            after = rest.end()
            bounded = after >= len(tail) or not tail[after].isalpha() or tail[after] == "s"
            return bounded and tail[match.end() : at].strip() not in NOT_BEFORE  # "is the publishable key"
    return False


def password_like(value: str) -> bool:
    """A password named as one need not be very random: a digit or a symbol and a letter, not a path or words."""
    return (
        not shape.is_placeholder(value)
        and _re(r"[A-Za-z]").search(value) is not None
        and _re(r"[0-9!#$%&*+=?@^~]").search(value) is not None
        and shape.words_share(value) <= shape.WORDS
    )


# A custom request header (`-H 'X-Honeycomb-Team: ...'`, under `headers:`) with a random value: the header is
# how the service is told who calls, and its value is the caller's key.
_HEADER = r"(?<![A-Za-z0-9_\-])[Xx]-[A-Za-z0-9\-]{2,40}[\"']?[ \t]*[:=][ \t]*[\"']?$"
_REQUEST = r"(?:^|\s)(?:-H|--header)\b|headers?\b"


def header_named(scan: _Text, value_start: int, value: str) -> bool:
    """Whether a random value is a custom request header's, in a request (`-H`, `headers:` above)."""
    text = scan.text
    line = scan.line_start(value_start)
    if "-" not in text[line:value_start] or _re(_HEADER).search(text, line, value_start) is None:
        return False
    if not shape.looks_random(value, hex_ok=False):
        return False
    return _re(_REQUEST, re.ASCII | re.IGNORECASE).search(text, max(0, line - 200), value_start) is not None


# -- a value named by its label ---------------------------------------------------------------------------------


def _label_strength(text: str, start: int, end: int) -> str | None:
    """The strongest keyword standing in a label (PASSWORD, SECRET, "" for a weak one), or None."""
    found: str | None = None
    lower = text[start:end].lower()
    if len(lower) != end - start:
        return None
    for match in keywords().finditer(lower):
        a, b = start + match.start(), start + match.end()
        if match.group().isascii() and (not word_bounded(text, a, b) or qualified_away(text, a, b)):
            continue
        level = strength(match.group())
        if level == PASSWORD:
            return PASSWORD
        found = level if found is None or level == SECRET else found
    return found


def labelled(scan: _Text) -> Iterator[Hit]:
    """Values whose field's label names them a secret, judged as a value named so directly would be."""
    text = scan.text
    found = fields.fields(scan)
    if "</" in text:
        found = itertools.chain(found, fields.tagged(scan))
    tabled = text.count(",") >= 3 or "\t" in text or "|" in text
    if tabled and "\n" in text and _re(fields.SECRET_COLUMN_WORDS).search(scan.lower()):
        found = itertools.chain(found, fields.columns(scan))
    for field in found:
        value = text[field.start : field.end]
        strength = SECRET if field.field in fields.SECRET_FIELDS else None
        strength = _label_strength(text, field.label_start, field.label_end) if strength is None else strength
        if strength is None:
            continue
        if strength == "":
            ok = len(value) >= 16 and shape.looks_random(value, hex_ok=True)
        else:
            ok = shape.looks_random(value, hex_ok=True) or (
                password_like(value) and len(value) >= 8 - 2 * (strength == PASSWORD)
            )
        if ok:
            yield Hit(field.start, field.end, strength or SECRET)
