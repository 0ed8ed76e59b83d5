"""Credential detection: refuse secrets on save, redact them on recall.

One table of kinds, the more specific first so the message names the right one. Every kind has anchors:
lower-case literals, one of which occurs in every match once the text is lower-cased, so a kind whose anchors
are all absent is skipped without running its regex. redact() runs over every indexed message, and the anchors
keep it cheap on ordinary text; bench/bench_secrets.py measures it and the table against a generated corpus of
vendor formats and look-alikes (bench/secrets_corpus/)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import NamedTuple


class SecretKind:
    """A kind of secret: the name a refusal or a redaction marker shows, and how to find it.

    Its regexes are compiled on first use: most texts admit only a few kinds by their anchors, and compiling
    the whole table would cost every `palace memory ...` process most of its start-up."""

    __slots__ = ("_folded", "_ignore_case", "_pattern", "anchors", "name", "source")

    def __init__(self, name: str, source: str, anchors: tuple[str, ...], *, ignore_case: bool = False) -> None:
        self.name = name
        self.source = source
        self.anchors = anchors  # lower-case literals; every match contains one, case-folded; () = always run
        self._ignore_case = ignore_case
        self._pattern: re.Pattern[str] | None = None
        self._folded: re.Pattern[str] | None = None

    @property
    def pattern(self) -> re.Pattern[str]:
        """The regex, matched against the text as given."""
        if self._pattern is None:
            self._pattern = re.compile(self.source, re.ASCII | (re.IGNORECASE if self._ignore_case else 0))
        return self._pattern

    @property
    def folded(self) -> re.Pattern[str] | None:
        """For a case-insensitive kind, the same regex without IGNORECASE, run over text.lower() (same length, so
        the same spans): sre searches for a literal prefix only in case-sensitive patterns, and the keyword
        kinds run on most messages."""
        if not self._ignore_case:
            return None
        if self._folded is None:
            self._folded = re.compile(self.source, re.ASCII)
        return self._folded


def _kind(name: str, pattern: str, *anchors: str) -> SecretKind:
    # ASCII mode: `\b` must see a boundary between `是` and `sk-`, as between a space and `sk-`.
    return SecretKind(name, pattern, anchors)


def _folded_kind(name: str, pattern: str, *anchors: str) -> SecretKind:
    """A case-insensitive kind; its pattern is written in lower case so that it also runs over lowered text."""
    return SecretKind(name, pattern, anchors, ignore_case=True)


def _at(prefix: str) -> str:
    """prefix at the start of a word, written so that the regex starts with the literal (sre then searches for
    it instead of trying every position, as it does for a leading `\\b`)."""
    return rf"{prefix}(?<![A-Za-z0-9_]{prefix})"


# A value that is a placeholder, a reference or a path rather than a secret: `<your-key>`, `${VAR}`, `$VAR`,
# `%VAR%`, `****`, `xxxx`, `sk-...`, `YOUR_TOKEN_HERE`, `changeme`, `os.environ[...]`, `/run/secrets/x`, and the
# marker redact() writes (so that redacting twice changes nothing).
_PLACEHOLDER = (
    r"(?![\"'`]?(?:[<$%{\[*/~]|\.?/|(?:[a-z0-9]{1,8}[_\-]){0,3}\.\.|x{4,}(?![a-z0-9])|(?:your|my)[_\- ]"
    r"|changeme(?![a-z0-9])|redacted(?![a-z0-9])|(?:os\.)?(?:environ|getenv)(?![a-z0-9])|process\.env"
    r"|(?:none|null)(?![a-z0-9])))"
)
# Filler in a documentation example (`ghp_xxxx...`, `sk_live_XXXX...`, `AKIA0000...`) is not a key.
_F = r"(?![xX]{6}|\*{4}|0{8})"
_Q = r"[\"'`]?"
_SEP = rf"{_Q}[ \t]*(?:[:=：]|is\b|是|为)[ \t]*{_Q}"  # `: `, `=`, ` is `, `是`, with optional quotes


# Keyword assignments, one kind per keyword so that each regex starts with its keyword as a literal.
class _Keyword(NamedTuple):
    pattern: str
    anchors: tuple[str, ...]


def _keyword(first: str, rest: str = "", glued: str = "") -> _Keyword:
    """A keyword starting with the literal first: at the start of a word (`db_password`, `MY_API_KEY`), or
    glued to a word when glued follows (`PGPASSWORD=`), but not starting one (`password_min_length`)."""
    left = rf"(?<![a-z0-9]{first})" + (rf"|(?={glued})" if glued else "")
    return _Keyword(rf"{first}(?:{left}){rest}(?![a-z0-9_])", (first,))


# Passwords: `password=...` takes any value; after `:`/`is`/`是` the value must look like a password (a digit
# or a symbol in it, quoted, or the last word) so that "the password is rotated monthly" is not one.
_V = r"[!-+\--:<-~]"  # printable ASCII but space, `,` and `;`
_SECRETISH = rf"(?={_V}{{3}}){_V}*[\d!#$%&*+/<=>?@^_|~\-]{_V}*"
_QUOTED = r"[\"'`][^\"'`\s]{3,}[\"'`]"
_LAST = rf"{_V}{{3,}}(?=[\s.!?。！？]*$)"
_EQ = rf"[ \t]*=[ \t]*{_Q}{_PLACEHOLDER}{_V}{{3,}}"
_PASSWORD = rf"(?:{_Q}{_EQ}|{_Q}[ \t]*(?:[:：]|is\b|是|为)[ \t]*{_PLACEHOLDER}(?:{_QUOTED}|{_SECRETISH}|{_LAST}))"
_PASSWORD_KEYWORDS = (
    _keyword("pass", "(?:word|wd|phrase)", glued=r"(?:word|wd)[ \t]*="),
    _keyword("pwd", glued=r"[ \t]*="),
    _keyword("api", r"[_\-]?key"),
    _keyword("secret", r"[_\- ]?key"),
    _keyword("access", r"[_\-]?token"),
    _keyword("auth", r"[_\-]?token"),
    _keyword("client", r"[_\-]?secret"),
    _Keyword("(?:密码|口令)", ("密码", "口令")),
)
# Other secrets named by a keyword (`token: <40 hex>`, "the deploy secret is ...", `export JWT_SECRET=...`):
# the value must look random (16+ token characters with a letter and a digit), as `token: 4096`,
# `max_token=4096` and `secret: db-credentials` do not.
_TOKEN_CH = r"[a-z0-9_\-+/=.~]"
_STRONG = rf"{_SEP}{_PLACEHOLDER}(?={_TOKEN_CH}{{0,255}}[0-9])(?={_TOKEN_CH}{{0,255}}[a-z]){_TOKEN_CH}{{16,}}+"
_SECRET_KEYWORDS = (
    _keyword("secret"),
    _keyword("token"),
    _keyword("credential", "s?"),
    _keyword("private", r"[_\- ]key"),
    _keyword("access", r"[_\- ]key"),
    _keyword("signing", r"[_\- ]key"),
    _keyword("encryption", r"[_\- ]key"),
    _Keyword("(?:密钥|秘钥|令牌)", ("密钥", "秘钥", "令牌")),
)


# Keys named by their vendor (`AWS secret key is ...`, `TWILIO_AUTH_TOKEN=...`, `DD_API_KEY=...`), whose value
# alone (40 base64 characters, 32 or 40 hex digits) would look like any digest.
_IS = rf"{_Q}[ \t]*(?:[:=：]|is\b|是|为)?[ \t]*{_Q}"
_AWS_SECRET = rf"{_at('aws')}[\w \-]{{0,20}}?secret[\w \-]{{0,12}}?key\b{_IS}[a-z0-9/+]{{40}}(?![a-z0-9/+=])"
_TWILIO = rf"{_at('twilio')}[\w \-]{{0,24}}?(?:token|secret)\b{_IS}[0-9a-f]{{32}}\b"
_DATADOG = rf"[\w \-]{{0,16}}?(?:api|app(?:lication)?)[_\- ]?key\b{_IS}[0-9a-f]{{32}}(?:[0-9a-f]{{8}})?\b"

# The whole block, BEGIN through END; without an END line, through the end of the base64 body: its lines (or
# space-separated runs, or `\n`-separated inside a JSON string) and `Proc-Type:`-style headers. A short run
# must have a digit or `+/=` in it, so that prose after a truncated key ("thanks") is not taken for its tail.
_PEM_GAP = r"(?:\s|\\[nr])"
_PEM = (
    r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
    rf"(?:{_PEM_GAP}+(?:(?:Proc-Type|DEK-Info|Comment|Version):[^\n\\]*|[A-Za-z0-9+/=]{{16,}}"
    r"|[A-Za-z0-9+/=]{0,15}[0-9+/=][A-Za-z0-9+/=]{0,15}(?![A-Za-z0-9+/=])))*"
    rf"(?:{_PEM_GAP}*-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)?"
)

# Real keys are random: capitals and digits in them, or (`sk-<32 hex>`, `sk-or-v1-<64 hex>`) a run of 20+
# lower-case letters and digits with a digit in it; unlike a kebab-case name such as `sk-web-app-frontend-v2`.
_OPENAI = (
    rf"{_at('sk-')}(?:(?=[A-Za-z0-9_\-]{{0,255}}[A-Z])(?=[A-Za-z0-9_\-]{{0,255}}[0-9])"
    r"|(?:[a-z0-9]{1,8}-){0,3}(?=[a-z0-9]{20})(?=[a-z0-9]{0,40}[0-9]))[A-Za-z0-9_\-]{20,}+"
)
_HUGGING_FACE = rf"{_at('hf_')}(?=[A-Za-z0-9]{{0,255}}[A-Z])(?=[A-Za-z0-9]{{0,255}}[a-z])[A-Za-z0-9]{{30,}}+"
# Starting with a character class (not `\b`) lets sre skip positions that cannot start a match.
_TELEGRAM = r"[0-9](?<![0-9][0-9])[0-9]{4,11}:(?=[A-Za-z0-9_\-]{0,34}[A-Z])[A-Za-z0-9_\-]{35}(?![A-Za-z0-9_\-])"
_DISCORD = (
    r"[MNO](?<![A-Za-z0-9_][MNO])(?=[A-Za-z]{0,26}[0-9])[A-Za-z0-9]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,}"
)
_MAILGUN = r"[0-9a-f](?<![A-Za-z0-9_][0-9a-f])[0-9a-f]{31}-[0-9a-f]{8}-[0-9a-f]{8}\b"
_ARGUMENT = r"(?:'[^'\n]+'|\"[^\"\n$]+\"|[^\s'\"$]\S*)"  # quoted or bare, not a `$VARIABLE`
_SSHPASS = rf"{_at('sshpass')}\b[^\n]{{0,200}}?\s-p\s*{_ARGUMENT}"
_MYSQL = rf"{_at('mysql')}(?:dump|admin|sh)?\b[^\n]{{0,200}}?\s(?:-p(?=\S)|--password=){_ARGUMENT}"
_BASIC = rf"{_at('authorization')}[\"']?\s*[:=]\s*[\"']?basic\s+(?=[a-z0-9+/]{{0,255}}[0-9+/=])[a-z0-9+/]{{6,}}={{0,2}}"
_CURL = rf"{_at('curl')}\b[^\n]{{0,200}}?\s(?:-u|--user)[\s=]+[\"']?[^\s:\"'$<]+:(?![$<{{])[^\s\"']{{3,}}"

SECRET_KINDS: tuple[SecretKind, ...] = (
    _kind("PEM private key", _PEM, "private key-----"),
    _kind("Anthropic API key", rf"{_at('sk-ant-')}[A-Za-z0-9_\-]{{20,}}", "sk-ant-"),
    _kind("OpenAI API key", _OPENAI, "sk-"),
    _kind("AWS access key", rf"\b(?:AKIA|ASIA|ABIA|ACCA){_F}[0-9A-Z]{{16}}\b", "akia", "asia", "abia", "acca"),
    _folded_kind("AWS secret access key", _AWS_SECRET, "aws"),
    _kind("GitHub token", rf"{_at('gh')}[pousr]_{_F}[A-Za-z0-9]{{30,}}", "gh"),
    _kind("GitHub token", rf"{_at('github_pat_')}{_F}[A-Za-z0-9_]{{22,}}", "github_pat_"),
    _kind("GitLab token", rf"{_at('gl')}(?:pat|dt|ptt|rt|cbt|soat|ft|imt|agent)-[A-Za-z0-9_\-]{{20,}}", "gl"),
    _kind("Slack token", rf"(?:{_at('xox')}[abposre]|{_at('xapp')})-[A-Za-z0-9\-]{{10,}}", "xox", "xapp-"),
    _kind("Slack webhook URL", r"hooks\.slack\.com/services/T[A-Za-z0-9]+/B[A-Za-z0-9]+/[A-Za-z0-9]+", "hooks.slack"),
    _kind("Google API key", rf"{_at('AIza')}[0-9A-Za-z_\-]{{35,}}", "aiza"),
    _kind("Google OAuth client secret", rf"{_at('GOCSPX-')}[A-Za-z0-9_\-]{{20,}}", "gocspx-"),
    _kind("Stripe key", rf"[sr]k_(?<![A-Za-z0-9_][sr]k_)(?:live|test)_{_F}[A-Za-z0-9]{{16,}}", "_live_", "_test_"),
    _kind("Stripe key", rf"{_at('whsec_')}{_F}[A-Za-z0-9+/=]{{24,}}", "whsec_"),
    _kind("JSON Web Token", rf"{_at('eyJ')}[A-Za-z0-9_\-]{{8,}}\.eyJ[A-Za-z0-9_\-]{{8,}}\.[A-Za-z0-9_\-]{{8,}}", "eyj"),
    _kind("npm token", rf"{_at('npm_')}[A-Za-z0-9]{{36,}}", "npm_"),
    _kind("PyPI token", rf"{_at('pypi-')}AgE[A-Za-z0-9_\-]{{50,}}", "pypi-"),
    _kind("Hugging Face token", _HUGGING_FACE, "hf_"),
    _kind("SendGrid API key", rf"{_at('SG')}\.[A-Za-z0-9_\-]{{20,24}}\.[A-Za-z0-9_\-]{{40,}}", "sg."),
    _kind("Groq API key", rf"{_at('gsk_')}[A-Za-z0-9]{{48,}}", "gsk_"),
    _kind("DigitalOcean token", rf"{_at('do')}[opr]_v1_[a-f0-9]{{64}}\b", "_v1_"),
    _kind("Shopify token", rf"{_at('shp')}(?:at|ca|pa|ss)_[a-fA-F0-9]{{32}}\b", "shp"),
    _kind("Square token", rf"{_at('sq0')}(?:atp|csp)-[A-Za-z0-9_\-]{{22,}}", "sq0"),
    _kind("HashiCorp Vault token", rf"{_at('hv')}[sbr]\.[A-Za-z0-9_\-]{{24,}}", "hvs.", "hvb.", "hvr."),
    _kind("age secret key", rf"{_at('AGE-SECRET-KEY-1')}[0-9A-Z]{{58}}\b", "age-secret-key-"),
    _folded_kind("Azure storage key", r"(?:account|sharedaccess)key=[a-z0-9+/]{40,}={0,2}", "key="),
    _kind("Mailgun API key", rf"{_at('key-')}[0-9a-f]{{32}}\b", "key-"),
    _kind("Mailgun API key", _MAILGUN, "-"),
    _kind("Mailchimp API key", r"[0-9a-f](?<![A-Za-z0-9_][0-9a-f])[0-9a-f]{31}-us[0-9]{1,2}\b", "-us"),
    _kind("Telegram bot token", _TELEGRAM, ":"),
    _kind("Discord bot token", _DISCORD, "."),
    _folded_kind("Twilio auth token", _TWILIO, "twilio"),
    _folded_kind("Datadog API key", _at("datadog") + _DATADOG, "datadog"),
    _folded_kind("Datadog API key", _at("dd") + _DATADOG, "dd"),
    _kind("URL with a password", r"\b[a-zA-Z][a-zA-Z0-9+.\-]{0,30}://[^/\s:@]*:(?![<$%{\[*])[^/\s@]{2,}@", "://"),
    _folded_kind("basic auth credentials", _BASIC, "basic"),
    _folded_kind("basic auth credentials", _CURL, "curl"),
    _folded_kind("bearer token", rf"{_at('bearer')}\s+(?![<$])[a-z0-9_\-.~+/]{{20,}}=*", "bearer"),
    _kind("password on a command line", _SSHPASS, "sshpass"),
    _kind("password on a command line", _MYSQL, "mysql"),
    *(_folded_kind("password assignment", k.pattern + _PASSWORD, *k.anchors) for k in _PASSWORD_KEYWORDS),
    *(_folded_kind("secret assignment", k.pattern + _STRONG, *k.anchors) for k in _SECRET_KEYWORDS),
)  # fmt: skip


def _by_anchor() -> dict[str, list[int]]:
    """Each anchor, looked up once per text, with the table positions of the kinds it admits (recall's bulk
    redaction uses the same table)."""
    index: dict[str, list[int]] = {}
    for position, kind in enumerate(SECRET_KINDS):
        for anchor in kind.anchors:
            index.setdefault(anchor, []).append(position)
    return index


KINDS_BY_ANCHOR = _by_anchor()
UNANCHORED_KINDS = [position for position, kind in enumerate(SECRET_KINDS) if not kind.anchors]


def _matches(text: str) -> Iterator[tuple[int, re.Match[str]]]:
    """(table position, match) for every match of every kind in text, kind by kind in table order."""
    lower = text.lower()
    folded = lower if len(lower) == len(text) else None
    admitted = set(UNANCHORED_KINDS)
    for anchor, positions in KINDS_BY_ANCHOR.items():
        if anchor in lower:
            admitted.update(positions)
    for position in sorted(admitted):
        kind = SECRET_KINDS[position]
        if kind.folded is not None and folded is not None:
            yield from ((position, match) for match in kind.folded.finditer(folded))
        else:
            yield from ((position, match) for match in kind.pattern.finditer(text))


@functools.lru_cache(maxsize=512)  # a save checks its path and content at each layer it passes through
def find_secret(text: str) -> str | None:
    """The name of the first kind of secret in text, or None."""
    for index, _ in _matches(text):
        return SECRET_KINDS[index].name
    return None


def _redact_once(text: str) -> str:
    """Text with each run of overlapping matches replaced by one marker naming the most specific kind."""
    spans: list[list[int]] = []  # [start, end, table position of the most specific kind]
    for position, match in sorted(_matches(text), key=lambda hit: hit[1].start()):
        start, end = match.span()
        if spans and start < spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], end)
            spans[-1][2] = min(spans[-1][2], position)
        elif end > start:
            spans.append([start, end, position])
    if not spans:
        return text
    parts: list[str] = []
    done = 0
    for start, end, position in spans:
        parts += [text[done:start], f"[redacted {SECRET_KINDS[position].name}]"]
        done = end
    return "".join(parts) + text[done:]


def redact(text: str) -> str:
    """Text with every recognised secret replaced, whole, by a `[redacted <kind>]` marker."""
    # A marker can give a neighbour the word boundary it lacked (`AIza...ghp_...`): redact until nothing changes.
    for _ in range(4):
        redacted = _redact_once(text)
        if redacted == text:
            break
        text = redacted
    return text
