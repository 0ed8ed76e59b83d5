"""Halls, wings, rooms and the memory path grammar: `Hall/Room` or `Wing/Hall/Room`."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from enum import StrEnum
from typing import Any, NamedTuple

from palace.errors import MemoryPathError
from palace.record import record


class Hall(StrEnum):
    """The closed set of halls; the value is the display form written to the file."""

    PREFERENCES = "Preferences"
    PROJECT_KNOWLEDGE = "Project Knowledge"
    DECISIONS = "Decisions"
    WORKFLOW_PATTERNS = "Workflow Patterns"


def _hall_key(text: str) -> str:
    return re.sub(r"[\s_\-]+", "", text).casefold()


_HALL_KEYS = {_hall_key(hall.value): hall for hall in Hall}
HALL_LIST = ", ".join(hall.value for hall in Hall)
_WING_RE = re.compile(r"^[A-Za-z0-9._\-]+$")
MAX_NAME = 64  # characters in a wing, or in a room after slugging: a heading, not a sentence
WING_RULE = f'a wing names a project or person: letters, digits, ".", "_", "-" (at most {MAX_NAME}), not a hall name'
BROKEN_CHARACTER = "a broken character (an unpaired surrogate, e.g. half an emoji)"
_SURROGATE = re.compile("[\ud800-\udfff]")
_HIDDEN_CATEGORIES = {"Cc": "a control character", "Cf": "an invisible formatting character"}
_LINE_CATEGORIES = {"Zl", "Zp"}
_JOINERS = {"\u200c", "\u200d"}  # ZWNJ and ZWJ: needed inside Persian and Indic words and emoji sequences


def has_broken_character(text: str) -> bool:
    """Does text hold a lone surrogate, which cannot be written as UTF-8?"""
    return _SURROGATE.search(text) is not None


def _joins(text: str, at: int) -> bool:
    """Is the joiner at text[at] between two visible non-ASCII characters, where scripts and emoji need it?"""
    if at == 0 or at + 1 >= len(text):
        return False
    return all(
        ord(ch) > 127 and not ch.isspace() and unicodedata.category(ch) not in {"Cc", "Cf", "Zl", "Zp"}
        for ch in (text[at - 1], text[at + 1])
    )


class OddCharacter(NamedTuple):  # not a frozen dataclass: no methods compiled at import (paths.py)
    """A character text may not hold, named: `U+202E RIGHT-TO-LEFT OVERRIDE`."""

    char: str
    kind: str  # "a control character", "an invisible formatting character", "a line separator"

    @property
    def name(self) -> str:
        name = unicodedata.name(self.char, "")
        return f"U+{ord(self.char):04X}" + (f" {name}" if name else "")

    @property
    def line_break(self) -> bool:
        return self.kind == "a line separator"

    def __str__(self) -> str:
        return f"{self.name}, {self.kind}"


def odd_character(text: str) -> OddCharacter | None:
    """The first control, invisible formatting (bidi, zero-width, tag) or line-separator character, if any."""
    for at, ch in enumerate(text):
        if ch == "\t" or ch.isprintable():
            continue
        category = unicodedata.category(ch)
        if category in _LINE_CATEGORIES:
            return OddCharacter(ch, "a line separator")
        kind = _HIDDEN_CATEGORIES.get(category)
        if kind is not None and not (ch in _JOINERS and _joins(text, at)):
            return OddCharacter(ch, kind)
    return None


@functools.lru_cache(maxsize=4096)
def parse_hall(text: str) -> Hall | None:
    """The hall named by text in display, PascalCase or kebab form (any case), else None."""
    return _HALL_KEYS.get(_hall_key(text.strip()))


def suggest_hall(text: str) -> Hall | None:
    """The hall closest to a misspelling, if any is close enough."""
    import difflib  # only for a hall name that is not one

    close = difflib.get_close_matches(_hall_key(text), list(_HALL_KEYS), n=1, cutoff=0.6)
    return _HALL_KEYS[close[0]] if close else None


def unknown_hall_message(text: str) -> str:
    """`unknown hall "X" (did you mean "Y"?); halls are: ...`."""
    hint = suggest_hall(text)
    did_you_mean = f' (did you mean "{hint.value}"?)' if hint else ""
    return f'unknown hall "{text}"{did_you_mean}; halls are: {HALL_LIST}'


@functools.lru_cache(maxsize=4096)
def room_slug(text: str) -> str:
    """Normalise free text to a kebab-case room slug; Unicode letters are kept."""
    text = unicodedata.normalize("NFKC", text).strip().casefold()
    kept = "".join(ch if ch.isalnum() or ch in "-." else "-" for ch in text)
    return re.sub(r"-{2,}", "-", kept).strip("-.")


def wing_key(wing: str) -> str:
    """Wings compare case-insensitively."""
    return wing.casefold()


def wing_problem(text: str) -> str | None:
    """Why text cannot be a wing (a slug of letters, digits, `.`, `_`, `-`, not a hall name), or None."""
    if has_broken_character(text):
        return f"the wing has {BROKEN_CHARACTER}"
    odd = odd_character(text)
    if odd is not None:
        return f"the wing contains {odd}"
    if parse_hall(text) is not None:
        return f'"{text}" is a hall, so it cannot be a wing'
    if not _WING_RE.match(text) or text in {".", ".."}:
        return f'wing "{text}" must be a slug (letters, digits, ".", "_", "-")'
    if len(text) > MAX_NAME:
        return f'wing "{text[:24]}…" is {len(text)} characters; the limit is {MAX_NAME}'
    return None


def is_valid_wing(text: str) -> bool:
    """A wing is a slug (letters, digits, `.`, `_`, `-`) of at most MAX_NAME characters, not a hall name."""
    return wing_problem(text) is None


def wing_advice(text: str) -> str:
    """What to write instead of an invalid wing: its slug when that is plainly what was meant, else the rule."""
    slug = room_slug(text)
    plain = not has_broken_character(text) and odd_character(text) is None and parse_hall(text) is None
    return f'try "{slug}"' if plain and slug != text and is_valid_wing(slug) else WING_RULE


class computed_once:  # lower case: it is used as a decorator, like functools.cached_property
    """functools.cached_property without its lock (Python 3.11 takes one at every first access, a few µs;
    a parse reads the key of every entry once): the value is stored in the instance on first access."""

    def __init__(self, func: Callable[[Any], Any]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.func(instance)
        return value


@record(frozen=True)
class MemoryPath:
    """Where an entry lives: an optional wing, a hall and a room slug."""

    wing: str | None
    hall: Hall
    room: str

    def __str__(self) -> str:
        parts = [self.wing] if self.wing else []
        return "/".join([*parts, self.hall.value, self.room])

    @computed_once
    def wing_key(self) -> str | None:
        return wing_key(self.wing) if self.wing else None


_EXPECTED = (
    "expected Hall/Room or Wing/Hall/Room, e.g. Preferences/programming-languages or ifai/Decisions/architecture"
)


def parse_path(text: str) -> MemoryPath:
    """Parse `Hall/Room` or `Wing/Hall/Room`; MemoryPathError says what form is expected."""
    if not isinstance(text, str) or not text.strip():
        raise MemoryPathError(f"empty memory path; {_EXPECTED}")
    if has_broken_character(text):
        raise MemoryPathError(f"the memory path has {BROKEN_CHARACTER}; send the character whole or leave it out")
    odd = odd_character(text)
    if odd is not None:  # not quoted: a bidi override would garble the message itself
        raise MemoryPathError(f"the memory path contains {odd}; remove it (wings and rooms are plain names)")
    raw = text.strip()
    parts = [part.strip() for part in raw.split("/")]
    if len(parts) == 1:
        raise MemoryPathError(f'memory path "{raw}" has one part; {_EXPECTED}')
    if len(parts) > 3:
        raise MemoryPathError(f'memory path "{raw}" has {len(parts)} parts; {_EXPECTED}')
    if any(not part for part in parts):
        raise MemoryPathError(f'memory path "{raw}" has an empty part; {_EXPECTED}')
    if any(part in {".", ".."} for part in parts):
        raise MemoryPathError(f'memory path "{raw}" may not contain "." or ".." parts; {_EXPECTED}')
    wing: str | None = None
    if len(parts) == 3:
        wing, hall_text, room_text = parts
        problem = wing_problem(wing)
        if problem is not None:
            raise MemoryPathError(f'{problem} in "{raw}"; {_EXPECTED}')
    else:
        hall_text, room_text = parts
        if parse_hall(hall_text) is None and parse_hall(room_text) is not None:
            raise MemoryPathError(f'"{raw}" looks like Wing/Hall without a room; {_EXPECTED}')
    hall = parse_hall(hall_text)
    if hall is None:
        raise MemoryPathError(f'{unknown_hall_message(hall_text)} (in "{raw}")')
    room = room_slug(room_text)
    if not room:
        raise MemoryPathError(f'room "{room_text}" in "{raw}" has no letters or digits; {_EXPECTED}')
    if len(room) > MAX_NAME:
        raise MemoryPathError(
            f'room "{room[:24]}…" is {len(room)} characters as a slug; the limit is {MAX_NAME} — '
            "name the topic in a few words"
        )
    return MemoryPath(wing, hall, room)
