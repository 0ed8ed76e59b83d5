"""A new palace: its folder (0700), a starter memories.md (0600) and the sessions folder."""

from __future__ import annotations

import os
from pathlib import Path

from palace.errors import StoreError
from palace.paths import PalacePaths

STARTER_MEMORIES = """\
# Memories

<!--
This file is palace's long-term memory. It is plain markdown: read it, edit it, diff it.
It is organised as a memory palace: Wing / Hall / Room.

Halls are a fixed set: Preferences, Project Knowledge, Decisions, Workflow Patterns.
Rooms are topics, named in kebab-case (programming-languages, frontend-stack).
Wings are scopes, a project or a person (ifai, alice). Halls outside any wing apply everywhere.

  ## Preferences                     a hall: applies everywhere
  ### programming-languages          a room in that hall
  - [2026-11-30] The user writes backends in Rust

  ## ifai                            a wing: any level-2 heading that is not a hall
  ### Project Knowledge              a hall inside the wing
  #### frontend-stack                a room
  - [2026-11-29] The front end is Vue 3 inside Tauri

An entry is one list item on one line: "- [YYYY-MM-DD] what to remember", dated when it was
last saved or confirmed, short (200 characters at most by default), and never a credential.
Everything else (paragraphs, comments like this one, tables, code blocks) is yours: palace keeps
it byte for byte and never reorders it.

Check the file with `palace memory lint`; see its history with `palace log`.
-->
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
            lines.append(f"wrote a starter {paths.memories} (the comment at its top explains the format)")
        if not paths.sessions.exists():
            paths.sessions.mkdir(mode=0o700)
    except OSError as exc:
        raise StoreError(f"cannot create the palace at {home}: {exc.strerror or exc}") from exc
    return lines
