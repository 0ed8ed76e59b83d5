"""A project's shared memory: `.palace/memories.md` in its git repository (`palace init --project`).

The team commits it with the code; palace reads it beside the user's own palace, as the project's wing, and
(with `project.saves = "project"`) writes what the model or the user saves about the project there instead.
It is a memories.md like any other (the same reader, the same store, the same merge driver), without a wing
level: the whole file is the project's. palace never commits in a project's repository.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, replace
from pathlib import Path

from palace.errors import PalaceError
from palace.memory.halls import MemoryPath, parse_path, wing_key
from palace.memory.ops import ChangeResult
from palace.memory.store import MemoryStore
from palace.paths import MEMORIES, PROJECT_DIR

# What stays out of the repository: palace's derived files and its lock (superseded.md is shared).
PROJECT_GITIGNORE = "# palace's derived files and lock for this project memory: not committed\n.index/\n.lock\n*.tmp\n"


@dataclass(frozen=True)
class Project:
    """A repository with a project memory."""

    root: Path
    name: str  # the project's wing: the repository's folder name

    @property
    def folder(self) -> Path:
        return self.root / PROJECT_DIR

    @property
    def file(self) -> Path:
        return self.folder / MEMORIES


def find_project(cwd: Path, home: Path | None = None) -> Project | None:
    """The repository around cwd when it has a project memory (never the palace's own repository)."""
    try:
        here = cwd.resolve()
    except OSError:
        return None
    for folder in (here, *here.parents):
        if (folder / ".git").exists():
            if home is not None and _same(folder, home):
                return None
            memories = folder / PROJECT_DIR / MEMORIES
            return Project(folder, folder.name) if memories.is_file() else None
    return None


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def project_store(project: Project, *, entry_limit: int = 200) -> MemoryStore:
    """The store of a project memory (no git hook: the team commits it with the code)."""
    ignore = project.folder / ".gitignore"
    if not ignore.exists():  # a project memory made by hand, or before palace wrote one
        with contextlib.suppress(OSError):  # a read-only checkout: then there is nothing to keep out either
            ignore.write_text(PROJECT_GITIGNORE, encoding="utf-8")
    return MemoryStore(project.folder, entry_limit=entry_limit)


@dataclass
class Targets:
    """Where a memory path is saved: the user's palace, or the project memory for the project's wing."""

    personal: MemoryStore
    project: Project | None = None
    project_memory: MemoryStore | None = None
    to_project: bool = False  # project.saves = "project"

    def route(self, path: str) -> tuple[MemoryStore, str]:
        """The store for a path and the path within it (the project's wing left out in the project file)."""
        if not self.to_project or self.project is None or self.project_memory is None:
            return self.personal, path
        try:
            parsed = parse_path(path)
        except PalaceError:  # the store itself says what is wrong with the path
            return self.personal, path
        if parsed.wing is None or wing_key(parsed.wing) != wing_key(self.project.name):
            return self.personal, path
        return self.project_memory, str(MemoryPath(None, parsed.hall, parsed.room))

    def shown(self, result: ChangeResult, asked: str) -> ChangeResult:
        """A change made in the project memory, labelled with the project's wing as the path was asked."""
        if self.project is None or result.path.wing is not None or asked == str(result.path):
            return result
        wing = self.project.name
        label = MemoryPath(wing, result.path.hall, result.path.room)
        where = MemoryPath(wing, result.where.hall, result.where.room) if result.where is not None else None
        return replace(result, path=label, where=where, note=f"in the project memory {self.project.file}")

    def save(self, path: str, content: str, replaces: str | None = None, *, by: str = "user") -> ChangeResult:
        store, inner = self.route(path)
        return self.shown(store.save(inner, content, replaces, by=by), path)

    def forget(self, path: str, content: str, *, by: str = "user") -> ChangeResult:
        store, inner = self.route(path)
        return self.shown(store.forget(inner, content, by=by), path)
