"""A project's shared memory: `.palace/memories.md` in its git repository (`palace init --project`).

The team commits it with the code; palace reads it beside the user's own palace, as the project's wing, and
(with `project.saves = "project"`) writes what the model or the user saves about the project there instead.
It is a memories.md like any other (the same reader, the same store, the same merge driver), without a wing
level: the whole file is the project's. palace never commits in a project's repository.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from palace.errors import PalaceError, UntrustedFileError
from palace.memory.contained import open_inside
from palace.memory.halls import MemoryPath, parse_path, wing_key
from palace.memory.store import MemoryStore
from palace.paths import MEMORIES, PROJECT_DIR, project_state
from palace.record import record, replace

if TYPE_CHECKING:
    from palace.memory.ops import ChangeResult

# What stays out of the repository: a save's temporary file (superseded.md is shared). The lock and derived
# files of a project memory live in the user's own palace (paths.project_state), never in the repository;
# `.index/` and `.lock` are still named for clones made by older palace versions.
PROJECT_GITIGNORE = (
    "# palace's temporary and derived files for this project memory: not committed\n.index/\n.lock\n*.tmp\n"
)


class Project(NamedTuple):  # not a frozen dataclass: no methods compiled at import (palace/paths.py)
    """A repository with a project memory."""

    root: Path
    name: str  # the project's wing: the repository's folder name
    refused: str | None = None  # why its memory file is not used (a link, a FIFO, ...): then it has none

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
            return _probe(folder)
    return None


def _probe(root: Path) -> Project | None:
    """The project of a repository root when `.palace/memories.md` is there, refused when it is not a regular
    file inside the repository (a link to ~/.aws/credentials, a FIFO...): the repository is another's."""
    try:
        fd = open_inside(root, f"{PROJECT_DIR}/{MEMORIES}")
    except UntrustedFileError as exc:
        return Project(root, root.name, refused=str(exc))
    if fd is None:
        return None
    os.close(fd)
    return Project(root, root.name)


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def project_store(project: Project, home: Path, *, entry_limit: int = 200) -> MemoryStore:
    """The store of a project memory (no git hook: the team commits it with the code). Nothing in the
    repository is followed outside it, and its lock and derived data live in the user's palace at home."""
    state = project_state(home, project.root)
    return MemoryStore(project.folder, entry_limit=entry_limit, inside=project.root, state=state)


@record
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

    def save(
        self, path: str, content: str, replaces: str | None = None, *, by: str = "user", until: str | None = None
    ) -> ChangeResult:
        store, inner = self.route(path)
        return self.shown(store.save(inner, content, replaces, by=by, until=until), path)

    def room_text(self, path: str) -> str:
        store, inner = self.route(path)
        return store.room_text(inner)

    def forget(self, path: str, content: str, *, by: str = "user", secret: bool = False) -> ChangeResult:
        store, inner = self.route(path)
        return self.shown(store.forget(inner, content, by=by, secret=secret), path)
