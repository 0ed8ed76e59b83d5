"""The generic rules: secrets found by what they look like and where they stand, not by a vendor's format.

One regex finds candidate tokens (16+ characters of the base64/token alphabet), and each is judged by cheap
tests first: a vendor-style prefix before a random body; base64 that decodes to a key file or `user:password`;
a wallet key; a random value named by a keyword before it ("password", "token", "clé", "密钥", "トークン", in an
assignment, an option, a header or a sentence) or after it ("... as the API token"). Beside these: URLs
(credentials in the userinfo, a signature or token in the query, a webhook's path), base64 blocks of key
size without their header lines, JWK private members, BIP39 seed phrases, a random token right after a key id
or a redaction marker (the secret half of a pair), and a token split over two lines (the two lines are
joined and judged again)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator

from palace.memory.secrets import blocks, shape, urls, words
from palace.memory.secrets.scan import (
    API_TOKEN,
    BASIC,
    GENERIC_KINDS,
    JWK,
    PAIR,
    PASSWORD,
    PRIVATE_KEY,
    SECRET,
    SEED,
    WALLET,
    Hit,
)
from palace.memory.secrets.scan import Text as _Text
from palace.memory.secrets.scan import regex as _re

__all__ = ["GENERIC_KINDS", "Hit", "candidates", "find", "screen"]


_TOKEN = r"A-Za-z0-9+/=_\-.~"
TOKEN_CHARS = f"[{_TOKEN}]"
_CANDIDATE = rf"(?<![{_TOKEN}])[{_TOKEN}]{{16,}}"
# A token ending a line and one starting the next: perhaps one token cut in two.
_JOIN = rf"(?<![{_TOKEN}])([{_TOKEN}]{{8,}})(\\?[ \t]*\r?\n[ \t]*)([{_TOKEN}]{{6,}})"
_MARKER = r"\[redacted [A-Za-z ]+\]"
_JWK_MEMBER = r"\"(?:d|p|q|dp|dq|qi|k)\"[ \t]*:[ \t]*\"([A-Za-z0-9_\-]{16,})\""

# Words that name a secret, lower-cased; ASCII ones must stand as a word or an identifier's part (`db_password`,
# `apiKey`, `X-Auth-Token`), the others anywhere. A weak one (`key`, `auth`, `sig`) names a random value only;
# the others also a hex one (`token: <40 hex>`).
_PASSWORD_WORDS = (
    "password", "passwd", "passwort", "passphrase", "passcode", "pass", "pwd", "kennwort", "mot de passe", "mdp",
    "contraseña", "senha", "пароль", "密码", "口令", "パスワード", "暗証番号", "비밀번호", "암호",
)  # fmt: skip
_SECRET_WORDS = (
    "secret", "token", "api key", "api_key", "api-key", "apikey", "credentials", "credential", "creds", "bearer",
    "private key", "privkey", "seed", "mnemonic", "schlüssel", "schluessel", "zugangsdaten", "clé", "jeton",
    "identifiants", "clave", "credenciales", "llave", "chave", "credenciais", "chiave", "credenziali", "segreto",
    "ключ", "токен", "секрет", "密钥", "秘钥", "令牌", "凭证", "凭据", "私钥", "トークン", "秘密鍵", "認証情報",
    "キー", "鍵", "토큰", "키",
)  # fmt: skip
_WEAK_WORDS = ("key", "auth", "sig", "signature", "cle")
# Words around a keyword that make it name something else: `public key`, `key_id`, `token budget`.
_NOT_BEFORE = frozenset(
    (
        "public", "pub", "publishable", "primary", "foreign", "sort", "partition", "idempotency", "cache", "hot",
        "host", "page", "next", "continuation", "sync", "csrf", "license", "composite", "unique"
    )
)  # fmt: skip
_NOT_AFTER = frozenset(
    (
        "id", "ids", "name", "names", "type", "url", "uri", "endpoint", "file", "path", "length", "len", "size", "ttl",
        "expiry", "expires", "expiration", "count", "limit", "prefix", "hash", "hashes", "policy", "ref", "version",
        "header", "format", "usage", "field", "env", "var", "dir", "location", "arn", "fingerprint", "min", "max",
        "rotation", "manager", "store", "vault", "provider", "kind", "source", "alias", "label", "index", "budget",
        "bucket", "exchange", "lifetime", "timeout", "scope", "scopes", "reset", "hint", "strength", "rules", "rule",
        "validator", "generator", "mode", "window", "cost", "pair", "pairs"
    )
)  # fmt: skip
_DIGESTS = ("sha1", "sha256", "sha512", "sha384", "md5", "checksum", "digest", "integrity", "hash", "fingerprint")


@functools.cache
def _keywords() -> re.Pattern[str]:
    every = sorted({*_PASSWORD_WORDS, *_SECRET_WORDS, *_WEAK_WORDS}, key=len, reverse=True)
    # `private key` also as `private_key`, `private-key`, `privateKey`
    return re.compile("|".join(re.escape(word).replace(r"\ ", r"[ _\-]?") for word in every))


def _strength(word: str) -> str:
    """PASSWORD, SECRET or "" (weak) for a keyword."""
    word = _re(r"[ _\-]").sub(" ", word)
    if word in _PASSWORD_WORDS:
        return PASSWORD
    return SECRET if word in _SECRET_WORDS else ""


# -- a keyword naming the value ----------------------------------------------------------------------------------


def _is_letter(c: str) -> bool:
    return c.isalpha()


def _word_bounded(text: str, start: int, end: int) -> bool:
    """A keyword at text[start:end] stands as a word or as a part of an identifier (`db_password`, `apiKey`,
    `SecretKey`, `X-Auth-Token`), and is not part of a longer word (`monkey`, `tokenizer`, `passport`)."""
    before = text[start - 1] if start > 0 else " "
    left = not _is_letter(before) or (before.islower() and text[start].isupper())
    after = text[end] if end < len(text) else " "
    if after in "sS" and (end + 1 >= len(text) or not _is_letter(text[end + 1])):
        after = text[end + 1] if end + 1 < len(text) else " "
    right = not _is_letter(after) or (after.isupper() and text[end - 1].islower())
    return left and right


def _qualified_away(text: str, start: int, end: int) -> bool:
    """A word beside the keyword makes it name something else (`public key`, `key_id`, `token budget`)."""
    before = _re(r"([A-Za-z]+)[ _\-.]?$").search(text, max(0, start - 24), start)
    if before and before.group(1).lower() in _NOT_BEFORE:
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


def _gap_ok(text: str, end: int, value_start: int) -> bool:
    """Between a keyword and its value: a separator, a copula, or a few words ("for the NAS is"), on one line
    (or a line break right after `:`), with no sentence ending in between."""
    gap = text[end:value_start]
    if "\n" in gap and not _re(r"[^\n]*[:=：][ \t]*\r?\n[ \t]*$").fullmatch(gap):
        return False
    if _re(_GAP).fullmatch(gap):
        return True
    if len(gap) > 40 or gap.count(",") > 1 or _re(r"[.!?。！？;](?:\s|$)").search(gap):
        return False
    return len(_re(r"[^\W\d_]+", re.UNICODE).findall(gap)) <= 4


def keyword_before(scan: _Text, value_start: int) -> str | None:
    """PASSWORD, SECRET or "" (weak) if a keyword names the value at value_start, else None."""
    text = scan.text
    start = _window_start(scan, value_start)
    window = text[start:value_start]
    lower = window.lower()
    if len(lower) != len(window):
        return None
    for match in reversed(list(_keywords().finditer(lower))):
        a, b = start + match.start(), start + match.end()
        if match.group().isascii() and (not _word_bounded(text, a, b) or _qualified_away(text, a, b)):
            continue
        near = lower[max(0, match.start() - 16) :]  # "the sha256 of the token is ...": a digest, named
        if not _gap_ok(text, b, value_start) or any(digest in near for digest in _DIGESTS):
            return None
        return _strength(match.group())
    return None


def _window_start(scan: _Text, value_start: int) -> int:
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
        rest = _keywords().match(tail, at) if at > 0 else None
        if rest is not None:
            after = rest.end()
            bounded = after >= len(tail) or not tail[after].isalpha() or tail[after] == "s"
            return bounded and tail[match.end() : at].strip() not in _NOT_BEFORE  # "is the publishable key"
    return False


# -- candidate tokens --------------------------------------------------------------------------------------------


def _interesting(token: str) -> bool:
    """Cheap: can a rule take this token for a secret? It has a digit, a capital or `+`/`/` in it."""
    return _re(r"[0-9A-Z+/]").search(token) is not None


def _value_of(token: str) -> int:
    """Where the value starts in a `name=value` token (0 if it is not one)."""
    match = _re(r"[A-Za-z_][A-Za-z0-9_.\-]{0,60}=+(?=[^=])").match(token)
    return match.end() if match else 0


def _token_value(text: str, start: int, end: int) -> tuple[int, int]:
    """(where the name's value starts, where the value proper starts) in a candidate token: after `name=`, and
    after `0x` before hex digits."""
    named_at = start + _value_of(text[start:end])
    if text.startswith("0x", named_at) and shape.is_hex(text[named_at + 2 : end]):
        return named_at, named_at + 2
    return named_at, named_at


def _alone(value: str) -> str | None:
    """The kind a token is by itself, named or not: a wallet key, base64 of a key file or of `user:password`, a
    vendor-style prefix before a random body."""
    if words.wallet_key(value):
        return WALLET
    decoded = None if shape.is_hex(value) else shape.decoded_secret(value)
    if decoded is not None:
        return PRIVATE_KEY if decoded == "private key" else BASIC
    return API_TOKEN if shape.has_random_body(value) else None


def _judge_token(scan: _Text, start: int, end: int) -> Hit | None:
    """The kind of secret a candidate token (a value of one) is, if it is one."""
    text = scan.text
    named_at, start = _token_value(text, start, end)
    value = text[start:end]
    if len(value) < 16:
        return None
    alone = _alone(value)
    if alone is not None:
        return Hit(start, end, alone)
    strength = keyword_before(scan, named_at)
    if strength is None and keyword_after(text, end):
        strength = SECRET
    if strength is None:
        return None
    hex_ok = strength != "" or _re(r"[:=：][\"' \t]*$").search(text, max(0, named_at - 3), named_at) is not None
    if shape.looks_random(value, hex_ok) or (strength == PASSWORD and _password_like(value)):
        return Hit(start, end, strength or SECRET)
    return None


def _may_be_named(scan: _Text, start: int, end: int) -> bool:
    """Whether a candidate token could be a secret named by a keyword (for the screen: a keyword within reach,
    a value that could pass)."""
    text = scan.text
    named_at, start = _token_value(text, start, end)
    value = text[start:end]
    if len(value) < 16:
        return False
    if _alone(value) is not None:
        return True
    if not (shape.looks_random(value, hex_ok=True) or _password_like(value)):
        return False
    # keyword_before looks from _window_start, keyword_after 48 ahead on the line; a keyword stands as a word
    window = _window_start(scan, named_at)
    line_end = text.find("\n", end)
    piece = text[window : min(end + 48, len(text) if line_end < 0 else line_end)]
    lower = piece.lower()
    if len(lower) != len(piece):
        return True  # lower-casing changed the length: offsets differ, so say yes
    for match in _keywords().finditer(lower):
        if not match.group().isascii() or _word_bounded(text, window + match.start(), window + match.end()):
            return True
    return False


def _password_like(value: str) -> bool:
    """A password named as one need not be very random: a digit or a symbol and a letter, not a path or words."""
    return (
        not shape.is_placeholder(value)
        and _re(r"[A-Za-z]").search(value) is not None
        and _re(r"[0-9!#$%&*+=?@^~]").search(value) is not None
        and shape.words_share(value) <= shape.WORDS
    )


def _trimmed(text: str, start: int, end: int) -> int:
    """The end of a candidate without the punctuation that ends a sentence after it."""
    while end - start > 16 and text[end - 1] in ".-~_":
        end -= 1
    return end


# -- pairs and neighbours --------------------------------------------------------------------------------------

_PAIR_GAP = r"[ \t\"'`,;|:=/]*(?:\r?\n[ \t\"'`]*)?(?:(?:secret|and|key|/)[ \t\"'`:=/]*){0,2}"


def _id_like(token: str) -> bool:
    """A key id: capitals and digits (`AKIA...`, `SCW...`, `GOOG1...`), or 20+ hex digits (`00<hex>` at B2)."""
    if _re(r"[A-Z0-9]{16,64}").fullmatch(token):
        return any(c.isdigit() for c in token) and sum(c.isalpha() for c in token) >= 8
    return _re(r"[0-9a-f]{20,64}").fullmatch(token) is not None


def _pairs(scan: _Text, anchors: list[tuple[int, int, bool]], taken: Callable[[int, int], bool]) -> list[Hit]:
    """Random tokens right after an anchor (a secret found, a redaction marker, a key id): the secret half of a
    key pair. Each anchor is (start, end, whether it is a key id, so that a hex secret counts)."""
    text = scan.text
    found: list[Hit] = []
    pending = list(anchors)
    while pending:
        _, end, is_id = pending.pop()
        gap = _re(_PAIR_GAP).match(text, end)
        token = _re(rf"[{_TOKEN}]{{20,}}").match(text, gap.end() if gap else end)
        if token is None or taken(*token.span()) or (gap and gap.end() - end > 32):
            continue
        value = token.group().rstrip(".")
        if shape.looks_random(value, hex_ok=is_id):
            hit = Hit(token.start(), token.start() + len(value), PAIR)
            found.append(hit)
            pending.append((hit.start, hit.end, False))
    return found


# -- all of it -------------------------------------------------------------------------------------------------


def candidates(text: str) -> list[tuple[int, int]]:
    """The spans of text's candidate tokens: maximal runs of 16+ token characters."""
    return [m.span() for m in _re(_CANDIDATE).finditer(text)]


def screen(text: str) -> Iterator[tuple[int, int]]:
    """Spans where a generic rule may find something: every generic hit in a text overlaps one (or follows a
    table hit), so a text none of these overlap holds no generic secret (recall's bulk redaction relies on it)."""
    scan = _Text(text)
    for span in candidates(text):
        start, end = span[0], _trimmed(text, *span)
        token = text[start:end]
        if not _interesting(token):
            continue
        named = not token.startswith("//") and _may_be_named(scan, start, end)
        if (
            named
            or blocks.base64_line(scan, start, end)
            or (_id_like(token) and _pair_follows(scan, start, end, token))
        ):
            yield start, end
    if "\\n" in text:
        yield from (m.span() for m in _re(blocks.ESCAPED_BLOCK).finditer(text))
    if "://" in text:
        yield from (url[:2] for url in urls.urls(text) if urls.may_hold(text[url[0] : url[1]], url[2] - url[0]))
    if "\n" in text:
        yield from (m.span() for m in _re(_JOIN).finditer(text) if _joinable(m))
    if "[redacted " in text:
        yield from (m.span() for m in _re(_MARKER).finditer(text))
    if '"kty"' in text:
        yield from (m.span() for m in _re(_JWK_MEMBER).finditer(text))
    yield from words.candidate_runs(_same_length_lower(text))


def _pair_follows(scan: _Text, start: int, end: int, token: str) -> bool:
    """Whether a pair's secret follows a key id."""
    return bool(_pairs(scan, [(start, end, not shape.is_hex(token))], lambda a, b: False))


def _same_length_lower(text: str) -> str:
    """text lower-cased, character for character (a character whose lower case is longer is kept)."""
    lower = text.lower()
    if len(lower) == len(text):
        return lower
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


def _joinable(match: re.Match[str]) -> bool:
    """Two halves worth joining: each has a digit, a `+` or `/`, or a capital after its first character (prose
    wrapped at a long word has none of these, nor a line of code ending in a hash before a command)."""
    halves = (match.group(1), match.group(3))
    mixed = _re(r"[0-9+/]|.[A-Z]")
    return all(mixed.search(half) for half in halves) and not any("---" in half for half in halves)


def find(
    text: str,
    table: list[tuple[int, int, str]],
    detect: Detector | None = None,
    spans: list[tuple[int, int]] | None = None,
) -> list[Hit]:
    """Every generic hit in text. table: the table's hits (start, end, kind name), which a pair's secret may
    follow; detect: the whole detector, to judge two lines joined (None: this is such a join, so neither join
    lines again nor look for base64 blocks, whose header may be above the two lines); spans: candidates(text)."""
    scan = _Text(text)
    hits: list[Hit] = []
    lines: list[tuple[int, int]] = []
    ids: list[tuple[int, int, bool]] = []
    for span in candidates(text) if spans is None else spans:
        start, end = span[0], _trimmed(text, *span)
        token = text[start:end]
        if not _interesting(token):
            continue
        if blocks.base64_line(scan, start, end):
            lines.append((start, end))
        if _id_like(token):
            ids.append((start, end, not shape.is_hex(token)))
        if token.startswith("//"):
            continue
        hit = _judge_token(scan, start, end)
        if hit is not None:
            hits.append(hit)
    hits += blocks.blocks(scan, lines) if lines and detect is not None else []
    if "\\n" in text:
        hits += blocks.escaped_blocks(scan)
    if "://" in text:
        hits += urls.url_hits(scan)
    if '"kty"' in text:
        hits += (Hit(*m.span(1), JWK) for m in _re(_JWK_MEMBER).finditer(text))
    hits += (Hit(a, b, SEED) for a, b in words.seed_runs(_same_length_lower(text)))
    anchors = _anchors(text, table, hits) + ids
    if anchors:
        hits += _pairs(scan, anchors, _covered([*((a, b) for a, b, _ in table), *((h.start, h.end) for h in hits)]))
    if detect is not None and "\n" in text:
        hits += _joined(scan, detect)
    return hits


def _anchors(text: str, table: list[tuple[int, int, str]], hits: list[Hit]) -> list[tuple[int, int, bool]]:
    """What a pair's secret may follow: a hit, a redaction marker (each with whether it is a key id)."""
    anchors = [(a, b, "access key" in name or "HMAC" in name) for a, b, name in table]
    anchors += [(hit.start, hit.end, False) for hit in hits]
    if "[redacted " in text:
        anchors += [(m.start(), m.end(), "access key" in m.group()) for m in _re(_MARKER).finditer(text)]
    return anchors


def _covered(spans: list[tuple[int, int]]) -> Callable[[int, int], bool]:
    """Whether a span overlaps one of spans."""
    return lambda start, end: any(a < end and start < b for a, b in spans)


Detector = Callable[[str], list[tuple[int, int, str]]]


def _joined(scan: _Text, detect: Detector) -> Iterator[Hit]:
    """Secrets cut in two at a line break: the two lines judged as one (by detect, the whole detector without
    this step), and each hit across the cut kept."""
    text = scan.text
    for match in _re(_JOIN).finditer(text):
        if not _joinable(match):
            continue
        cut, resume = match.end(1), match.start(3)
        first = scan.line_start(match.start(1))
        line_end = text.find("\n", resume)
        last = len(text) if line_end < 0 else line_end
        if not text[first : match.start(1)].strip() and first > 0:  # T1 opens its line: its keyword may be above
            first = scan.line_start(first - 1)
        joined = text[first:cut] + text[resume:last]
        for a, b, name in detect(joined):
            if a < cut - first < b:
                yield Hit(first + a, first + b + (resume - cut), name)
