"""A new palace: its folder (0700), a starter memories.md (0600) and the sessions folder."""

from __future__ import annotations

import os
from pathlib import Path

from palace.errors import StoreError
from palace.paths import PalacePaths

# Only a pointer to the docs: what a new palace puts in the prompt is nothing (HTML comments stay out of it,
# palace/memory/render.py), and an example line here would read to the model as a fact about the user.
STARTER_MEMORIES = """\
<!-- palace's memory. Halls are ## Preferences, Project Knowledge, Decisions, Workflow Patterns;
     rooms are ### headings; entries are "- [YYYY-MM-DD] fact" lines; a Wing is a ## heading that is not
     a hall. The README's "The memory file" has the rest. Comments like this never reach the model. -->
"""


def create_palace(home: Path) -> list[str]:
    """Create the palace folder, a starter memories.md and sessions/ where missing; the lines to show."""
    paths = PalacePaths(home)
    lines: list[str] = []
    try:
        if home.exists():
            if not home.is_dir():
                raise StoreError(f"{home} exists and is not a folder")
            lines.append(f"palace folder: {home} (already there)")
        else:
            home.mkdir(mode=0o700, parents=True)
            os.chmod(home, 0o700)
            lines.append(f"created the palace folder {home}")
        if paths.memories.exists():
            lines.append(f"kept your {paths.memories}")
        else:
            fd = os.open(paths.memories, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as handle:
                handle.write(STARTER_MEMORIES.encode("utf-8"))
            lines.append(f"wrote {paths.memories}: empty but for a comment that points to the format")
        if not paths.sessions.exists():
            paths.sessions.mkdir(mode=0o700)
    except OSError as exc:
        raise StoreError(f"cannot create the palace at {home}: {exc.strerror or exc}") from exc
    return lines
