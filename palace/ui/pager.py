"""Long text on a terminal goes through a pager ($PAGER, else `less -R`); on a pipe it is printed as it is."""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import subprocess
import sys
from collections.abc import Mapping
from typing import Any, TextIO


def pager_command(env: Mapping[str, str]) -> list[str] | None:
    """$PAGER (which may carry arguments), else `less -R`; None when neither can run."""
    value = env.get("PAGER", "").strip()
    if value:
        with contextlib.suppress(ValueError):
            argv = shlex.split(value)
            if argv and shutil.which(argv[0], path=env.get("PATH", os.defpath)):
                return argv
    if shutil.which("less", path=env.get("PATH", os.defpath)):
        return ["less", "-R"]
    return None


def page(text: str, out: TextIO | None = None, *, env: Mapping[str, str] | None = None) -> None:
    """Show text: through the pager when out is a terminal and text is taller than it, else printed."""
    out = out or sys.stdout
    env = os.environ if env is None else env
    text = text if text.endswith("\n") else text + "\n"
    argv = pager_command(env) if _tall_for(out, text) else None
    if argv is not None:
        out.flush()
        previous = _ignore_interrupts()  # Ctrl-C belongs to the pager (less uses it to stop a search)
        try:
            subprocess.run(argv, input=text, text=True, env={**env, "LESS": env.get("LESS", "FRX")}, check=False)
            return
        except OSError:
            pass  # the pager would not start: print instead
        finally:
            if previous is not None:
                signal.signal(signal.SIGINT, previous)
    out.write(text)
    out.flush()


def _ignore_interrupts() -> Any:
    try:
        return signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread
        return None


def _tall_for(out: TextIO, text: str) -> bool:
    try:
        if not out.isatty():
            return False
        rows = os.get_terminal_size(out.fileno()).lines
    except (AttributeError, OSError, ValueError):
        return False
    return text.count("\n") >= rows - 1
