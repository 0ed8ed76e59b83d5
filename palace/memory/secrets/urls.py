"""Secrets in URLs: a password in the userinfo (any scheme), a random userinfo without one, a query parameter
named like a signature or a token, the random path segments of a webhook."""

from __future__ import annotations

from collections.abc import Iterator

from palace.memory.secrets import shape
from palace.memory.secrets.scan import URL_PASSWORD, URL_TOKEN, WEBHOOK, Hit, Text
from palace.memory.secrets.scan import regex as _re

_SCHEME = r"[A-Za-z][A-Za-z0-9+.\-]{0,30}$"  # searched for backwards from `://`: sre finds `://` fast, a scheme not
_URL_REST = r"[^\s\"'<>`\\]+"
_USER_PASSWORD = r"[^/\s:@]*:(?![<$%{\[*])[^/\s@]{2,}@"
_SIGNATURE_PARAMS = frozenset(
    ("sig", "sign", "signature", "x-amz-signature", "x-goog-signature", "x-amz-security-token", "hmac")
)
_TOKEN_PARAMS = frozenset(
    (
        "token", "access_token", "refresh_token", "id_token", "auth", "auth_token", "authtoken", "apikey", "api_key",
        "api-key", "key", "secret", "client_secret", "password", "pass", "pwd", "passwd", "code", "private_token",
        "access_key", "secret_key", "subscription-key", "x-api-key", "jwt", "bearer", "session_token", "sas", "appid",
        "app_key", "appkey", "apitoken", "api_token", "private_key", "license_key", "session", "sessionid", "sid",
        "passkey", "resourcekey", "authkey", "tkn", "tok", "passcode", "pin", "wskey"
    )
)  # fmt: skip
_SHORT_TOKEN_PARAMS = frozenset(("token", "access_token", "apikey", "api_key", "secret", "auth_token"))
_HOOK_SEGMENTS = frozenset(
    (
        "hook", "hooks", "webhook", "webhooks", "webhookb2", "incomingwebhook", "robot", "bot", "triggers",
        "build_hooks", "deploy_hooks", "deploy", "integrations", "integration", "alert", "push", "deliver",
    )
)  # fmt: skip
# Segments after which a random segment (perhaps a few segments on) is a capability: whoever has the link has the
# share, the snapshot, the embedded dashboard (`/s/<token>`, `/:x:/s/<site>/<token>`, `/dashboard/snapshot/<key>`).
_SHARE_SEGMENTS = frozenset(("s", "share", "shared", "shares", "snapshot", "snapshots", "embed", "invite"))
_SHARE_SHORTEST = 15  # (Nextcloud's share tokens)
# A segment that says it is private (`private-<hex>.ics`, a calendar's feed), or a key right after `/api/` (a
# bridge's or a device's key in its REST path): 32+ random characters, not hex (a resource's id).
_PRIVATE_SEGMENT = r"(?:private|secret|token)-([A-Za-z0-9_\-]{16,})(?:\.[a-z]{2,4})?"
_HOOK_WORDS = 0.7  # (a hook's random part may read like syllables: `mo0m8noz4rci7...`)


def urls(text: str) -> Iterator[tuple[int, int, int]]:
    """(start, end, where `://` is) of each URL in text: a scheme, `://`, and what follows up to a space or a
    quote."""
    at = text.find("://")
    while at >= 0:
        scheme = _re(_SCHEME).search(text, max(0, at - 31), at)
        rest = _re(_URL_REST).match(text, at + 3)
        end = rest.end() if rest else at + 3
        if scheme is not None and rest is not None:
            yield scheme.start(), end, at
        at = text.find("://", end)


def url_hits(scan: Text) -> Iterator[Hit]:
    """Secrets in URLs: a password in the userinfo (any scheme), a random userinfo without one, a signature or
    token in the query, the random segments of a webhook's path."""
    text = scan.text
    for start, end, at in urls(text):
        authority = at + 3
        password = _re(_USER_PASSWORD).match(text, authority, end)
        if password is not None and _slot(text[authority : password.end() - 1]):
            password = None
        if password is not None:
            yield Hit(start, password.end(), URL_PASSWORD)
        value = text[start:end]
        authority -= start
        path_at = _re(r"[/?#]").search(value, authority)
        host_end = path_at.start() if path_at else len(value)
        user = value.rfind("@", authority, host_end)
        if user > 0 and password is None and shape.looks_random(value[authority:user], True):
            yield Hit(start + authority, start + user, URL_TOKEN)
        query = value.find("?", host_end)
        path_end = query if query >= 0 else len(value)
        yield from _path_hits(start + host_end, value[host_end:path_end], value[authority:host_end])
        if query >= 0:
            yield from _query_hits(start + query + 1, value[query + 1 :])


# The docs' userinfo (`user:password@`, `admin:secret@`): a password that is the word for one is a slot.
_SLOT_PASSWORDS = frozenset(("password", "passwd", "pass", "pwd", "pw", "secret", "mypassword", "yourpassword"))


def _slot(userinfo: str) -> bool:
    """Whether a URL's `user:password` gives a placeholder, not a password."""
    password = userinfo.partition(":")[2]
    return password.lower() in _SLOT_PASSWORDS or shape.is_placeholder(password)


def _path_hits(start: int, path: str, host: str) -> Iterator[Hit]:
    """Random path segments after a webhook's segment (`/hooks/`, `/webhooks/<id>/`) or a keyword segment."""
    hook = host.lower().startswith(("hooks.", "hook."))
    named = False
    segments = path.split("/")
    last = len(segments) - 1 - (segments[-1] == "")  # the last segment (a trailing `/` aside)
    at = start
    shared = after_api = False
    for index, segment in enumerate(segments):
        for piece in segment.split("@"):
            lower = piece.lower()
            if len(piece) >= 16 and (hook or named) and shape.looks_random(piece, True, words=_HOOK_WORDS):
                yield Hit(at, at + len(piece), WEBHOOK if hook else URL_TOKEN)
            elif _capability(piece, shared, after_api):
                yield Hit(at, at + len(piece), URL_TOKEN)
            at += len(piece) + 1
            shared = shared or lower in _SHARE_SEGMENTS
            after_api = lower == "api"
            hook = hook or lower in _HOOK_SEGMENTS
            named = lower in ("key", "token", "secret", "apikey", "api_key", "access_token")
            # an RPC endpoint's key is its last segment, right after the API version (`/v2/<key>`, `/v3/<key>`)
            named = named or (
                index + 1 == last and _re(r"v[0-9]{1,2}").fullmatch(lower) is not None and len(segments[last]) >= 24
            )
        # the `/` is counted in the loop above as the `@` would have been


def _capability(piece: str, shared: bool, after_api: bool) -> bool:
    """A path segment that is a capability: random after a share's segment, private by its name, or a key of
    32+ random characters right after `/api/`."""
    if shared and len(piece) >= _SHARE_SHORTEST and shape.looks_random(piece, hex_ok=False):  # (hex: a file's hash)
        return True
    if after_api and len(piece) >= 32 and not shape.is_hex(piece) and shape.looks_random(piece, hex_ok=False):
        return True
    private = _re(_PRIVATE_SEGMENT).fullmatch(piece) if "-" in piece else None
    return private is not None and shape.looks_random(private.group(1), hex_ok=True)


def _query_hits(start: int, query: str) -> Iterator[Hit]:
    """Query parameters named like a signature (any value of 16+), or a token or key (a random value)."""
    at = start
    for part in _re(r"[&;]").split(query.split("#", 1)[0]):
        name, equals, raw = part.partition("=")
        lower = name.lower()
        shortest = 12 if lower in _SHORT_TOKEN_PARAMS else 16  # (Gotify's app tokens are 15 characters)
        if equals and len(raw) >= shortest and not shape.is_placeholder(raw):
            decoded = _re(r"%[0-9A-Fa-f]{2}").sub("A", raw)
            # (a name that ends like one: `zapikey`, `upload_token`)
            token_named = lower in _TOKEN_PARAMS or lower.endswith(("apikey", "_key", "-key", "token", "secret"))
            if lower in _SIGNATURE_PARAMS or (token_named and shape.looks_random(decoded, hex_ok=True)):
                yield Hit(at + len(name) + 1, at + len(part), URL_TOKEN)
        at += len(part) + 1


def may_hold(value: str, at: int) -> bool:
    """Whether url_hits may find something in a URL (value, with `://` at at): a userinfo, a query value of
    16+ characters, a webhook's, a share's or a keyword's path segment, a long segment after an API version."""
    path = _re(r"[/?#]").search(value, at + 3)
    if "@" in value[at + 3 : path.start() if path else len(value)]:
        return True
    if _re(r"=[^&;#]{16}").search(value) or _re(r"/v[0-9]{1,2}/[^/?#]{24}").search(value):
        return True
    lower = value.lower()
    words = (
        "hook",
        "bot",
        "trigger",
        "key",
        "token",
        "secret",
        "deploy",
        "integration",
        "alert",
        "push",
        "deliver",
        "/s/",
        "share",
        "snapshot",
        "embed",
        "invite",
        "private-",
        "/api/",
    )
    return any(word in lower for word in words)
