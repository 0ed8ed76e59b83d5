"""The palace folder's file names, spelled in one place."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final, NamedTuple

MEMORIES = "memories.md"
REVIEW = "review.md"  # proposals from extraction waiting for the user (palace memory review)
SUPERSEDED = "superseded.md"  # entries palace removed or replaced, kept with why
SESSIONS = "sessions"
INDEX = ".index"
CONFIG = "config.toml"
PROMPTS = "prompts"
INPUT_HISTORY = "history.txt"
LOCK = ".lock"
ARCHIVE_SUFFIX = ".md"  # sessions/<id>.md: a finished session's archive
JOURNAL_SUFFIX = ".jsonl"  # sessions/<id>.jsonl: its journal
# A session's id, and so its files' names: the day it started and 8 hex digits (DESIGN 1.3). A file in
# sessions/ named otherwise is no session for any command (`palace doctor` names it).
SESSION_ID = re.compile(r"^(\d{4}-\d{2}-\d{2})-([0-9a-f]{8})$")
PROJECT_DIR = ".palace"  # a project's shared memory lives in <repository>/.palace/memories.md


# The small immutable records of this module and of the write path are NamedTuples (tuples where a tuple is
# what callers unpack); the others are palace.record classes, which compile their __init__ on first use. A frozen
# dataclass compiled five methods when its module was imported (~0.6 ms each class on CPython 3.11).
class SessionFile(NamedTuple):
    """A file of sessions/ that is a session's: its id, the day in its name, and which file it is."""

    session_id: str
    day: str
    kind: str  # "archive" or "journal"


def session_file(name: str) -> SessionFile | None:
    """What a file name in sessions/ is, or None when it is no session's file."""
    stem, dot, ext = name.rpartition(".")
    kind = {"md": "archive", "jsonl": "journal"}.get(ext) if dot else None
    match = SESSION_ID.match(stem) if kind else None
    if match is None or kind is None or not _real_day(match.group(1)):
        return None
    return SessionFile(stem, match.group(1), kind)


def _real_day(day: str) -> bool:
    from datetime import date

    try:
        date.fromisoformat(day)
    except ValueError:
        return False
    return True


class PalacePaths:
    """Where each palace file lives under one home folder."""

    # Written out rather than a frozen dataclass (see SessionFile); not a NamedTuple, whose index() it would hide.
    __slots__ = ("home",)

    def __init__(self, home: Path) -> None:
        self.home: Final = home

    def __eq__(self, other: object) -> bool:
        return other.__class__ is PalacePaths and self.home == other.home

    def __hash__(self) -> int:
        return hash((PalacePaths, self.home))

    def __repr__(self) -> str:
        return f"PalacePaths(home={self.home!r})"

    @property
    def memories(self) -> Path:
        return self.home / MEMORIES

    @property
    def review(self) -> Path:
        return self.home / REVIEW

    @property
    def superseded(self) -> Path:
        return self.home / SUPERSEDED

    @property
    def sessions(self) -> Path:
        return self.home / SESSIONS

    @property
    def index(self) -> Path:
        """Derived data (search index, caches, undo log): deletable, rebuilt from the files."""
        return self.home / INDEX

    @property
    def config(self) -> Path:
        return self.home / CONFIG

    @property
    def prompts(self) -> Path:
        return self.home / PROMPTS

    @property
    def input_history(self) -> Path:
        return self.home / INPUT_HISTORY

    @property
    def lock(self) -> Path:
        return self.home / LOCK


def project_state(home: Path, root: Path) -> Path:
    """Where a project memory's lock and derived data live: in the user's palace, one folder per repository
    (its name and a hash of its resolved path), never in the repository, which is another's."""
    import hashlib  # only for a project memory

    try:
        resolved = str(root.resolve())
    except OSError:
        resolved = str(root)
    digest = hashlib.sha256(resolved.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    name = re.sub(r"[^\w.-]+", "-", root.name)[:40] or "project"
    return home / INDEX / "projects" / f"{name}-{digest}"
