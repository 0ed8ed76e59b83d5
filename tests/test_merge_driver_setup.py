"""The merge driver's registration: idempotent, whatever spelling the interpreter's path has."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

from palace.history.repo import driver_command, register_merge_driver


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


def test_an_interpreter_spelled_through_dot_dot_is_not_registered_again(tmp_path: Path) -> None:
    _git(tmp_path, "init", "-q")
    register_merge_driver(tmp_path)
    folder = Path(sys.executable).parent
    roundabout = os.path.join(str(folder), "..", folder.name, Path(sys.executable).name)
    assert roundabout != sys.executable and os.path.realpath(roundabout) == os.path.realpath(sys.executable)
    spelled = driver_command().replace(shlex.quote(sys.executable), shlex.quote(roundabout), 1)
    _git(tmp_path, "config", "--local", "merge.palace.driver", spelled)
    assert not any("registered" in line for line in register_merge_driver(tmp_path))
    assert _git(tmp_path, "config", "merge.palace.driver").strip() == spelled  # left as the user's


def test_another_interpreter_is_registered_over(tmp_path: Path) -> None:
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "config", "--local", "merge.palace.driver", "/nowhere/python3 -m palace merge-driver %O %A %B %P")
    assert any("registered" in line for line in register_merge_driver(tmp_path))
    assert _git(tmp_path, "config", "merge.palace.driver").strip() == driver_command()
