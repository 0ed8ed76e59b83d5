"""Halls, wings, rooms and the memory path grammar: `Hall/Room` or `Wing/Hall/Room`."""

from __future__ import annotations

import difflib
import functools
import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

from palace.errors import MemoryPathError


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


@functools.lru_cache(maxsize=4096)
def parse_hall(text: str) -> Hall | None:
    """The hall named by text in display, PascalCase or kebab form (any case), else None."""
    return _HALL_KEYS.get(_hall_key(text.strip()))


def suggest_hall(text: str) -> Hall | None:
    """The hall closest to a misspelling, if any is close enough."""
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


def is_valid_wing(text: str) -> bool:
    """A wing is a slug (letters, digits, `.`, `_`, `-`) that is not a hall name."""
    return bool(_WING_RE.match(text)) and text not in {".", ".."} and parse_hall(text) is None


@dataclass(frozen=True)
class MemoryPath:
    """Where an entry lives: an optional wing, a hall and a room slug."""

    wing: str | None
    hall: Hall
    room: str

    def __str__(self) -> str:
        parts = [self.wing] if self.wing else []
        return "/".join([*parts, self.hall.value, self.room])

    @functools.cached_property
    def wing_key(self) -> str | None:
        return wing_key(self.wing) if self.wing else None


_EXPECTED = (
    "expected Hall/Room or Wing/Hall/Room, e.g. Preferences/programming-languages or ifai/Decisions/architecture"
)


def parse_path(text: str) -> MemoryPath:
    """Parse `Hall/Room` or `Wing/Hall/Room`; MemoryPathError says what form is expected."""
    if not isinstance(text, str) or not text.strip():
        raise MemoryPathError(f"empty memory path; {_EXPECTED}")
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
        if parse_hall(wing) is not None:
            raise MemoryPathError(f'"{wing}" is a hall, so it cannot be a wing in "{raw}"; {_EXPECTED}')
        if not _WING_RE.match(wing):
            raise MemoryPathError(f'wing "{wing}" must be a slug (letters, digits, ".", "_", "-"); {_EXPECTED}')
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
    return MemoryPath(wing, hall, room)
