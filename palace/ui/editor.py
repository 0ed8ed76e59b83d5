"""Opening memories.md in the user's editor."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

from palace.errors import PalaceError


def open_editor(file: Path, *, env: Mapping[str, str] | None = None) -> int:
    """Open $VISUAL, $EDITOR (may carry arguments), else nano, else vi on file; the editor's exit code."""
    env = dict(os.environ if env is None else env)
    search_path = env.get("PATH", os.defpath)
    candidates: list[list[str]] = []
    for var in ("VISUAL", "EDITOR"):
        value = env.get(var, "").strip()
        if not value:
            continue
        try:
            argv = shlex.split(value)
        except ValueError as exc:
            raise PalaceError(f"${var} is not a usable command ({exc}): {value}") from exc
        if argv:
            candidates.append(argv)
    candidates += [["nano"], ["vi"]]
    for argv in candidates:
        exe = shutil.which(argv[0], path=search_path)
        if exe is None:
            continue
        try:
            return subprocess.run([exe, *argv[1:], str(file)], env=env, check=False).returncode
        except OSError as exc:
            raise PalaceError(f"cannot start the editor {argv[0]}: {exc.strerror or exc}") from exc
    tried = ", ".join(argv[0] for argv in candidates)
    raise PalaceError(f"no editor found (tried {tried}); set $EDITOR, e.g. `export EDITOR=nano`")
