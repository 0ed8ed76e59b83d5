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

import re
from collections.abc import Callable, Iterator

from palace.memory.secrets import blocks, loose, named, piped, printed, shape, stems, typed, urls, vouched, words
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

# -- candidate tokens --------------------------------------------------------------------------------------------


def _interesting(token: str) -> bool:
    """Cheap: can a rule take this token for a secret? It has a digit, a capital or `+`/`/` in it, and is not
    only words between separators (`Decisions/general`, `src/parser/token_cache.py`: a room, a path)."""
    if _re(r"[0-9A-Z+/]").search(token) is None:
        return False
    return _re(_WORDS_ONLY).fullmatch(token) is None or shape.words_share(token) < _PLAIN_WORDS


# Letters between separators, most of them words one can say: no rule takes it for a secret (a random key of
# 16+ characters has a digit, or letters no one can say).
_WORDS_ONLY = r"[A-Za-z]+(?:[/_.\-][A-Za-z]+)*"
_PLAIN_WORDS = 0.75


def _value_of(token: str) -> int:
    """Where the value starts in a `name=value` token (0 if it is not one)."""
    match = _re(r"-{0,2}[A-Za-z_][A-Za-z0-9_.\-]{0,60}=+(?=[^=])").match(token)  # (an option: `-key=`)
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
    if words.wallet_key(value) or ("/" in value and words.wallet_key(value.partition("/")[0])):  # `xprv.../84h/0h`
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
    if _wallet_call(text, named_at, start, value):
        return Hit(start, end, WALLET)
    strength = named.keyword_before(scan, named_at)
    if strength is None and (named.keyword_after(text, end) or named.header_named(scan, named_at, value)):
        strength = SECRET
    if strength is None or (strength == "" and (_re(_NAMED_DIGEST).fullmatch(value) or _encoded_prose(value))):
        return None
    # (a weak keyword names hex after `:`/`=`, as a call's argument: `Account.from_key("0x...")`, or decoded from
    # hex into the key's bytes: `KEY = bytes.fromhex("...")`, `hex.DecodeString("...")`)
    hex_ok = (
        strength != ""
        or _assigned(text, named_at)
        or _re(_HEX_CALL).search(text, max(0, named_at - 14), named_at) is not None
    )
    if shape.looks_random(value, hex_ok) or (strength == PASSWORD and named.password_like(value)):
        return Hit(start, end, strength or SECRET)
    if strength == SECRET and shape.looks_random(value, hex_ok, words=_NAMED_WORDS):
        return Hit(start, end, SECRET)
    return None


# A short random key splits into runs that read like syllables (`hHAseVeELxuge...`): named by a strong keyword,
# a token may be more of such runs than an unnamed one.
_NAMED_WORDS = 0.7


def _encoded_prose(value: str) -> bool:
    """Base64 of ordinary text (`QWxhZGRpbjpvcGVuIHNlc2FtZQ==`, a JWT's header alone): words with spaces, or JSON."""
    if len(value) < 16 or shape.is_hex(value):
        return False
    data = shape.b64decode(value)
    text = shape.printable(data) if data is not None else None
    if text is None or not (" " in text or text.startswith("{")):
        return False
    return len(_re(r"[A-Za-z]{3,}").findall(text)) >= 2  # (words: not bytes that happen to print, from digits)


def _assigned(text: str, at: int) -> bool:
    """The value at `at` follows `:`, `=`, `=>` or a quoted name and `,` (quotes, spaces or a line break between)."""
    before = text[max(0, at - 5) : at].rstrip("\"' \t\r\n")  # (or on the line after)
    if before.endswith((":", "=", "：", "=>")):
        return True
    return before.endswith(",") and before[:-1].rstrip(" \t").endswith(("'", '"'))


# An Ethereum private key (0x and 64 hex digits) handed to what makes a wallet or an account of it:
# `new ethers.Wallet("0x...")`, `privateKeyToAccount('0x...')`, `accounts.add('0x...')` (a 64-digit hash is
# handed to other calls).
_WALLET_CALL = r"(?i)(?:wallet|account|signer)s?(?:\.add)?\([ \t]*[\"']$"
_HEX_CALL = r"(?i)(?:key|fromhex|unhexlify|decodestring|hex2bin|hexdecode|decodehex)\([\"']$"


def _wallet_call(text: str, named_at: int, start: int, value: str) -> bool:
    """0x and 64 hex digits handed to what makes a wallet or an account of them: a private key."""
    if len(value) != 64 or start != named_at + 2:
        return False
    return _re(_WALLET_CALL).search(text, max(0, named_at - 40), named_at) is not None


# A name of words before a hex digest (`key: npm-linux-x64-<sha256>`, a cache key or a build id): named by a
# weak keyword, it is no secret.
_NAMED_DIGEST = r"(?:[a-z][a-z0-9]*[_.\-])+[0-9a-f]{16,}"


def _may_be_named(scan: _Text, start: int, end: int) -> bool:
    """Whether a candidate token could be a secret named by a keyword (for the screen: a keyword within reach,
    a value that could pass)."""
    text = scan.text
    named_at, start = _token_value(text, start, end)
    value = text[start:end]
    if len(value) < 16:
        return False
    if _alone(value) is not None or _wallet_call(text, named_at, start, value):
        return True
    if not (shape.looks_random(value, hex_ok=True) or named.password_like(value)):
        return False
    if named.header_named(scan, named_at, value):
        return True
    # keyword_before looks from named.window_start, keyword_after 48 ahead on the line; a keyword stands as a word
    window = named.window_start(scan, named_at)
    line_end = text.find("\n", end)
    piece = text[window : min(end + 48, len(text) if line_end < 0 else line_end)]
    lower = piece.lower()
    if len(lower) != len(piece):
        return True  # lower-casing changed the length: offsets differ, so say yes
    for match in named.keywords().finditer(lower):
        if not match.group().isascii() or named.word_bounded(text, window + match.start(), window + match.end()):
            return True
    return False


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
    yield from _screened_tokens(scan)
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
    yield from ((hit.start, hit.end) for hit in named.labelled(scan))
    yield from ((hit.start, hit.end) for hit in stems.hits(scan))
    yield from ((hit.start, hit.end) for hit in piped.hits(text))
    yield from ((hit.start, hit.end) for hit in typed.hits(text))
    yield from ((hit.start, hit.end) for hit in printed.hits(scan))
    yield from loose.spans(text)
    yield from words.candidate_runs(scan.lower())


def _screened_tokens(scan: _Text) -> Iterator[tuple[int, int]]:
    """The candidate tokens a rule may take for a secret (for screen)."""
    text = scan.text
    for span in candidates(text):
        start, end = span[0], _trimmed(text, *span)
        token = text[start:end]
        if not _interesting(token):
            continue
        is_named = not token.startswith("//") and _may_be_named(scan, start, end)
        if (
            is_named
            or blocks.base64_line(scan, start, end)
            or _encoded_text(token) is not None
            or (_pair_anchor(text, start, end, token) and _pair_follows(scan, start, end, token))
        ):
            yield start, end


# Words one of which text encoded in base64 must hold to be judged (a registry's auth JSON, a config file).
_ENCODED_WORDS = ("pass", "secret", "token", "auth", "key", "private", "credential")


def _encoded_text(token: str) -> str | None:
    """The text a base64 token of 24+ characters encodes, when printable and holding a word that names a secret."""
    if len(token) < 24:
        return None
    if shape.is_hex(token):  # hex of text (`lotus wallet export`: hex of a JSON key)
        data = bytes.fromhex(token) if _re(r"(?:[0-9a-fA-F]{2}){24,}").fullmatch(token) else None
    else:
        data = shape.b64decode(token)
    text = shape.printable(data) if data is not None and len(data) >= 16 else None
    if text is None:
        return None
    lower = text.lower()
    return text if any(word in lower for word in _ENCODED_WORDS) else None


def _encoded_secret(token: str, start: int, end: int, detect: Detector) -> Hit | None:
    """A base64 token whose text holds a secret (`.dockerconfigjson: eyJhdXRocyI6...`), judged by the detector."""
    text = _encoded_text(token)
    return Hit(start, start + len(token), SECRET) if text is not None and detect(text) else None


def _pair_anchor(text: str, start: int, end: int, token: str) -> bool:
    """A key id, or a random first argument of a call with another after it: what a pair's secret may follow."""
    return _id_like(token) or _first_argument(text, start, end, token)


def _first_argument(text: str, start: int, end: int, token: str) -> bool:
    """A random literal as a call's first argument with another literal after it (`NewMac("<id>", "<secret>")`,
    `Initialize("<key>", "<secret>")`): the id of a pair whose secret follows (a non-hex one: two digests are
    compared so)."""
    if start < 2 or text[start - 1] not in "\"'" or end >= len(text) or text[end] != text[start - 1]:
        return False
    if _re(r"\([ \t]*$").search(text, max(0, start - 4), start - 1) is None:
        return False
    return _re(r"[\"'][ \t]*,[ \t]*[\"']").match(text, end) is not None and shape.looks_random(token, hex_ok=True)


def _pair_follows(scan: _Text, start: int, end: int, token: str) -> bool:
    """Whether a pair's secret follows a key id."""
    return bool(_pairs(scan, [(start, end, not shape.is_hex(token))], lambda a, b: False))


def _joinable(match: re.Match[str]) -> bool:
    """Two halves worth joining: each has a digit, a `+` or `/`, or a capital after its first character (prose
    wrapped at a long word has none of these, nor a line of code ending in a hash before a command); not a file's
    name and the digest a hashing command prints for it."""
    halves = (match.group(1), match.group(3))
    mixed = _re(r"[0-9+/]|.[A-Z]")
    if _value_of(halves[1]) or any("---" in half for half in halves):  # the next line assigns something else
        return False
    if _re(r"\.[a-z][a-z0-9]{1,3}").search(halves[0][-5:]) and shape.is_hex(halves[1]):  # a file, then its digest
        return False
    return all(mixed.search(half) for half in halves)


def find(
    text: str,
    table: list[tuple[int, int, str]],
    detect: Detector | None = None,
    spans: list[tuple[int, int]] | None = None,
    lower: str | None = None,
) -> list[Hit]:
    """Every generic hit in text. table: the table's hits (start, end, kind name), which a pair's secret may
    follow; detect: the whole detector, to judge two lines joined (None: this is such a join, so neither join
    lines again nor look for base64 blocks, whose header may be above the two lines); spans: candidates(text);
    lower: text.lower() if it is as long as text."""
    scan = _Text(text, lower)
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
        elif _first_argument(text, start, end, token):
            ids.append((start, end, False))
        if token.startswith("//"):
            continue
        hit = _judge_token(scan, start, end)
        if hit is None and detect is not None:
            hit = _encoded_secret(token, start, end, detect)
        if hit is not None:
            hits.append(hit)
    hits += blocks.blocks(scan, lines) if lines and detect is not None else []
    if "\\n" in text:
        hits += blocks.escaped_blocks(scan)
    if "://" in text:
        hits += urls.url_hits(scan)
    hits += named.labelled(scan)
    hits += stems.hits(scan)
    hits += piped.hits(text)
    hits += typed.hits(text)
    hits += printed.hits(scan)
    hits += loose.hits(scan)
    if '"kty"' in text:
        hits += (Hit(*m.span(1), JWK) for m in _re(_JWK_MEMBER).finditer(text))
    hits += (Hit(a, b, SEED) for a, b in words.seed_runs(scan.lower()))
    hits = [hit for hit in hits if not vouched.cleared(text, hit.start, hit.end)]
    anchors = _anchors(text, table, hits) + ids
    if anchors:
        hits += _pairs(scan, anchors, _covered([*((a, b) for a, b, _ in table), *((h.start, h.end) for h in hits)]))
    if detect is not None and "\n" in text:
        hits += (hit for hit in _joined(scan, detect) if not vouched.cleared(text, hit.start, hit.end))
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
