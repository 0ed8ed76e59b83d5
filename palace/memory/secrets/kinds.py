"""The kind of a secret (a name and a lazily compiled regex gated by anchors), and the regex pieces the
tables share."""

from __future__ import annotations

import re


class SecretKind:
    """A kind of secret: the name a refusal or a redaction marker shows, and how to find it.

    Its regexes are compiled on first use: most texts admit only a few kinds by their anchors, and compiling
    the whole table would cost every `palace memory ...` process most of its start-up. A generic kind (found
    by code in generic.py, not by its regex) has a regex that never matches and no anchors; its source names
    the version of the rules, so that the recall index is rebuilt when they change."""

    __slots__ = (
        "_folded", "_ignore_case", "_pattern", "_screen", "_screen_ci", "anchors", "gate", "generic", "name", "screen",
        "source", "token",
    )  # fmt: skip

    def __init__(
        self,
        name: str,
        source: str,
        anchors: tuple[str, ...],
        *,
        ignore_case: bool = False,
        generic: bool = False,
        token: bool = False,
        gate: tuple[str, ...] = (),
        screen: str | None = None,
    ) -> None:
        self.name = name
        self.source = source
        self.anchors = anchors  # lower-case literals; every match contains one, case-folded; () = always run
        self.generic = generic
        # Every match is a run of 16+ token characters (generic.TOKEN_CHARS), so it lies inside one of the
        # text's candidate tokens: the kind runs over those alone, which for prose are few or none.
        self.token = token
        # Lower-case literals one of which every text with a match holds besides an anchor (` -` before a
        # command's option): checked once for all the kinds that share them, before their anchors.
        self.gate = gate
        # A kind whose regex starts with a character class is tried at every position of the text: for those a
        # screen, a regex starting with a literal (searched for quickly) that matches inside every match of the
        # kind, is searched first, and the kind runs only if it finds something. A case-insensitive kind's screen
        # (written in lower case, as its pattern is) spares the process compiling a long regex for a text that holds
        # its anchor but not the rest of its keyword (`log` in "blog", `api` without `key`).
        self.screen = screen
        self._screen: re.Pattern[str] | None = None
        self._screen_ci: re.Pattern[str] | None = None
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
    def ignore_case(self) -> bool:
        return self._ignore_case

    def screened_out(self, text: str, *, lowered: bool = False) -> bool:
        """Whether the kind's screen (if it has one) finds nothing in text, so that the kind cannot match. text is
        what the kind's regex runs over: for a case-insensitive kind, the lowered text its folded regex runs over
        (lowered), else the text as given, which its screen is then searched in ignoring case, as its regex is."""
        if self.screen is None:
            return False
        if self._ignore_case and not lowered:
            if self._screen_ci is None:
                self._screen_ci = re.compile(self.screen, re.ASCII | re.MULTILINE | re.IGNORECASE)
            return self._screen_ci.search(text) is None
        if self._screen is None:
            self._screen = re.compile(self.screen, re.ASCII | re.MULTILINE)
        return self._screen.search(text) is None

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


def kind(name: str, pattern: str, *anchors: str) -> SecretKind:
    """A case-sensitive kind."""
    # ASCII mode: `\b` must see a boundary between `是` and `sk-`, as between a space and `sk-`.
    return SecretKind(name, pattern, anchors)


def gated_kind(name: str, pattern: str, gate: tuple[str, ...], *anchors: str, ignore_case: bool = False) -> SecretKind:
    """A kind that runs only where one of the gate's literals occurs too."""
    return SecretKind(name, pattern, anchors, ignore_case=ignore_case, gate=gate)


def token_kind(name: str, pattern: str, *anchors: str, screen: str | None = None) -> SecretKind:
    """A case-sensitive kind whose every match is a run of 16+ token characters."""
    return SecretKind(name, pattern, anchors, token=True, screen=screen)


def folded_kind(name: str, pattern: str, *anchors: str, screen: str | None = None) -> SecretKind:
    """A case-insensitive kind; its pattern (and screen) is written in lower case so that it also runs over lowered
    text. Its screen is a part of the pattern (its lookbehinds left out), so that it matches in every match."""
    return SecretKind(name, pattern, anchors, ignore_case=True, screen=screen)


def at(prefix: str) -> str:
    """prefix at the start of a word, written so that the regex starts with the literal (sre then searches for
    it instead of trying every position, as it does for a leading `\\b`). prefix is a regex of fixed width."""
    return rf"{prefix}(?<![A-Za-z0-9_]{prefix})"


# A value that is a placeholder, a reference or a path rather than a secret: `<your-key>`, `${VAR}`, `$VAR`,
# `%VAR%`, `%(var)s`, `%env(NAME)%`, a YAML tag (`!vault |`, `!Ref X`), `****`, `xxxx`, `sk-...`, `sk-proj-XXXX`,
# `YOUR_TOKEN_HERE`, `REPLACE_ME`, `INSERT_API_KEY`, `CHANGE_ME_...`, `@file.txt` (read from a file), a value masked
# with bullets (`sk_live_••••4242`), `changeme`, `os.environ[...]`, `ENV["X"]`, `env('X')`, `secrets.X`,
# `/run/secrets/x`, a URL (`pass https://...` names a link), and the marker redact() writes (so that redacting twice
# changes nothing).
PLACEHOLDER = (
    r"(?![\"'`]?(?:[<$\[/(]|\{\{?|%[a-z_]+%|%\(|%[a-z_]+\(|![a-z][a-z_]{2,}(?:[ \t]|\r?\n|$)"
    r"|\*{3}|~/|\.?/|(?:[a-z0-9]{1,8}[_\-]){0,3}(?:\.\.|x{4,}(?![a-z0-9]))"
    r"|(?:your|my)[_\- ]|(?:replace|insert|enter|paste)(?:[_\- ]|me(?![a-z0-9]))|[a-z][a-z0-9+.\-]{1,20}://"
    r"|[^\s\"'`]{0,24}[\u2022\u25cf]"
    r"|change[_\-]?me(?![a-z0-9])|@(?=[a-z0-9_.\-/]{1,64}\.(?:txt|json|ya?ml|pem|key|env)(?![a-z0-9]))|redacted(?![a-z0-9])|(?:os\.)?(?:environ|getenv)(?![a-z0-9])|process\.env"
    r"|(?:env|secrets|vars?|config|settings|credentials|data|local|module)(?:\[|\.[a-z_]|\()|(?:env|file|fd):[a-z_]"
    r"|(?:none|null)(?![a-z0-9])))"
)
# Filler in a documentation example (`ghp_xxxx...`, `sk_live_XXXX...`, `AKIA0000...`, AWS's `...EXAMPLE`) is not
# a key.
FILLER = r"(?![xX]{6}|\*{4}|0{8}|[A-Z0-9]{0,32}EXAMPLE)"
QUOTE = r"[\"'`]?"
