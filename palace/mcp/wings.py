"""Which wings an MCP client works in: --wing (or the settings), else its workspace roots, else the working directory.

A wing is a git repository's name, as in the REPL; a root that is no repository names none.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from urllib.parse import unquote, urlsplit

from palace.app import detect_wings
from palace.config import Settings


def configured_wings(settings: Settings) -> list[str]:
    """The wings named by --wing, PALACE_WING or config.toml (empty when none is)."""
    return [wing for wing in [settings.wing, *settings.wings] if wing]


def root_path(uri: str) -> Path | None:
    """The folder of a `file://` root, or None (another scheme, or no such folder)."""
    parts = urlsplit(uri)
    if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
        return None
    path = Path(unquote(parts.path))
    return path if path.is_dir() else None


def wings_for(settings: Settings, roots: Sequence[str] | None, cwd: Path | None = None) -> list[str]:
    """The active wings: the configured ones, else the repositories of the roots, else that of cwd."""
    if configured_wings(settings):
        return detect_wings(settings)
    found: dict[str, str] = {}
    for uri in roots or ():
        path = root_path(uri)
        for wing in detect_wings(settings, path) if path is not None else ():
            found.setdefault(wing.casefold(), wing)
    return list(found.values()) or detect_wings(settings, cwd)


def first_root(roots: Sequence[str] | None) -> Path | None:
    """The client's first workspace folder (where its project memory is looked for), or None."""
    return next((path for path in map(root_path, roots or ()) if path is not None), None)
