"""The palace folder's file names, spelled in one place."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

MEMORIES = "memories.md"
REVIEW = "review.md"  # proposals from extraction waiting for the user (palace memory review)
SUPERSEDED = "superseded.md"  # entries palace removed or replaced, kept with why
SESSIONS = "sessions"
INDEX = ".index"
CONFIG = "config.toml"
PROMPTS = "prompts"
INPUT_HISTORY = "history.txt"
LOCK = ".lock"
PROJECT_DIR = ".palace"  # a project's shared memory lives in <repository>/.palace/memories.md


@dataclass(frozen=True)
class PalacePaths:
    """Where each palace file lives under one home folder."""

    home: Path

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
