"""Opening memories.md in the user's editor, saying which one and why."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import NamedTuple

from palace.errors import PalaceError


class EditorChoice(NamedTuple):
    argv: list[str]  # the program found on PATH, then the arguments from the variable
    why: str  # "from $EDITOR", "$VISUAL and $EDITOR are not set", ...


def choose_editor(env: Mapping[str, str]) -> EditorChoice:
    """$VISUAL, else $EDITOR (either may carry arguments), else nano, else vi; PalaceError when none runs."""
    search_path = env.get("PATH", os.defpath)
    skipped: list[str] = []
    for var in ("VISUAL", "EDITOR"):
        value = env.get(var)
        if value is None:
            continue
        if not value.strip():
            skipped.append(f"${var} is empty")
            continue
        try:
            argv = shlex.split(value)
        except ValueError as exc:
            raise PalaceError(f"${var} is not a usable command ({exc}): {value}") from exc
        exe = shutil.which(argv[0], path=search_path) if argv else None
        if exe is None:
            skipped.append(f"${var} ({argv[0] if argv else value}) is not found")
            continue
        return EditorChoice([exe, *argv[1:]], f"from ${var}")
    unset = [f"${var}" for var in ("VISUAL", "EDITOR") if env.get(var) is None]
    reasons = skipped + ([f"{' and '.join(unset)} {'is' if len(unset) == 1 else 'are'} not set"] if unset else [])
    why = "; ".join(reasons) + "; set EDITOR to choose"
    for fallback in ("nano", "vi"):
        exe = shutil.which(fallback, path=search_path)
        if exe is not None:
            return EditorChoice([exe], why)
    raise PalaceError(f"no editor found ({'; '.join(reasons)}; nano and vi are not installed); set $EDITOR")


def open_editor(
    file: Path, *, env: Mapping[str, str] | None = None, notice: Callable[[str], None] | None = None
) -> int:
    """Open file in the chosen editor (told to `notice` first); the editor's exit code."""
    env = dict(os.environ if env is None else env)
    choice = choose_editor(env)
    if notice is not None:
        notice(f"Editing {file} with {Path(choice.argv[0]).name} ({choice.why})")
    try:
        return subprocess.run([*choice.argv, str(file)], env=env, check=False).returncode
    except OSError as exc:
        raise PalaceError(f"cannot start the editor {choice.argv[0]}: {exc.strerror or exc}") from exc
