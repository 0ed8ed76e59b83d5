"""The AGENTS.md / CLAUDE.md bridge through the command line: `palace export agents-md` and `palace import`.

The block is written, regenerated and found again while every byte around it stays; broken markers are refused
without a write; imported bullets reach review.md (mapped to halls and rooms, secrets and the palace block
skipped), never memories.md, until the user accepts them.
"""

from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., Any]
SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


@pytest.fixture
def project(palace_home: Path, run_cli: Run) -> Path:
    """A git repository named ifai (the wing) with memories in ifai, another wing and the shared halls."""
    folder = palace_home.parent / "ifai"
    folder.mkdir()
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    for path, content in [
        ("ifai/Decisions/database", "The event store uses SQLite in WAL mode"),
        ("other/Decisions/database", "Another project uses Postgres"),
        ("Preferences/editor", "Prefers helix"),
    ]:
        assert run_cli("memory", "save", path, content).returncode == 0
    return folder


def _block(data: bytes) -> bytes:
    start = data.index(b"<!-- palace:begin")
    end = data.index(b"<!-- palace:end -->") + len(b"<!-- palace:end -->")
    return data[start:end]


def test_export_creates_the_file_with_the_wing_s_memory(run_cli: Run, project: Path) -> None:
    file = project / "AGENTS.md"
    done = run_cli("export", "agents-md", str(file))
    assert done.returncode == 0 and f"Created {file}" in done.stdout, done.stderr
    text = file.read_text()
    assert text.startswith("<!-- palace:begin") and text.endswith("<!-- palace:end -->\n")
    assert "The event store uses SQLite in WAL mode" in text and "Postgres" not in text and "other" not in text
    assert "Prefers helix" not in text  # the shared halls are personal: only --include-personal adds them
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(file.stat().st_mode) == 0o666 & ~umask  # a project file, not a private palace file


def test_export_regenerates_the_block_and_keeps_every_other_byte(run_cli: Run, project: Path) -> None:
    file = project / "CLAUDE.md"
    before = "# ifai\r\n\r\nRead the README first. Ünïcode stays.\r\n\r\n".encode()
    after = b"\r\n## Commands\r\n\r\n- `make test`\r\n(no newline at the end)"
    file.write_bytes(before + b"<!-- palace:begin -->\r\nold stuff\r\n<!-- palace:end -->" + after)
    assert run_cli("export", "agents-md", str(file)).returncode == 0
    first = file.read_bytes()
    assert first.startswith(before) and first.endswith(after)
    assert b"old stuff" not in first and b"WAL mode" in _block(first)
    assert b"\r\n" in _block(first) and b"\n" not in _block(first).replace(b"\r\n", b"")  # the file's line endings
    assert "up to date" in run_cli("export", "agents-md", str(file)).stdout
    assert file.read_bytes() == first
    run_cli("memory", "save", "ifai/Decisions/queue", "Jobs run on a SQLite-backed queue")
    assert "Updated" in run_cli("export", "agents-md", str(file)).stdout
    second = file.read_bytes()
    assert second.startswith(before) and second.endswith(after) and b"SQLite-backed queue" in _block(second)


def test_export_appends_a_block_to_a_file_without_one(run_cli: Run, project: Path) -> None:
    file = project / "AGENTS.md"
    original = b"# Agents\n\nA marker in a code sample is not a block:\n\n```\n<!-- palace:begin -->\n```\nlast line"
    file.write_bytes(original)
    assert run_cli("export", "agents-md", str(file)).returncode == 0
    data = file.read_bytes()
    assert data.startswith(original + b"\n\n<!-- palace:begin") and data.endswith(b"<!-- palace:end -->\n")
    assert run_cli("export", "agents-md", str(file)).stdout.strip().endswith("is up to date")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("intro\n<!-- palace:begin -->\nno end\n", "without its end marker"),
        ("<!-- palace:end -->\nintro\n", "without its begin marker"),
        ("<!-- palace:begin -->\n<!-- palace:end -->\n<!-- palace:begin -->\n<!-- palace:end -->\n", "more than one"),
        ("<!-- palace:end -->\n<!-- palace:begin -->\n", "end marker comes before"),
    ],
)
def test_export_refuses_broken_markers_and_writes_nothing(run_cli: Run, project: Path, text: str, said: str) -> None:
    file = project / "AGENTS.md"
    file.write_text(text)
    done = run_cli("export", "agents-md", str(file))
    assert done.returncode == 1 and said in done.stderr and "AGENTS.md" in done.stderr
    assert file.read_text() == text


CLAUDE_MD = f"""\
# CLAUDE.md

This file guides Claude Code in this repository.

## Build & test commands

- Run the tests with `pytest -q`
- Lint with `ruff check .` before every commit
  (the CI runs it too)
* Run the tests with `pytest -q`

## Code style

1. Use type hints everywhere
2. The deploy token is {SECRET}
- {"A bullet that goes on and on " * 10}

## Architecture

- The event store uses SQLite in WAL mode
- Jobs are queued in SQLite, not Redis
  - Workers poll every second

```sh
- not a bullet: inside a code fence
```

<!-- palace:begin (written by `palace export agents-md`) -->
- [2025-01-01] An exported entry is not proposed again
<!-- palace:end -->
"""


def test_import_proposes_bullets_for_review_and_writes_no_memory(
    run_cli: Run, project: Path, palace_home: Path
) -> None:
    file = project / "CLAUDE.md"
    file.write_text(CLAUDE_MD)
    memories = (palace_home / "memories.md").read_bytes()
    done = run_cli("import", str(file))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:5] == [
        "? ifai/Workflow Patterns/build-test-commands: Run the tests with `pytest -q`",
        "? ifai/Workflow Patterns/build-test-commands: Lint with `ruff check .` before every commit "
        "(the CI runs it too)",
        "? ifai/Preferences/code-style: Use type hints everywhere",
        "? ifai/Project Knowledge/architecture: Jobs are queued in SQLite, not Redis",
        "? ifai/Project Knowledge/architecture: Workers poll every second",
    ]
    summary = lines[5]
    assert summary.startswith("5 proposed for review from CLAUDE.md")
    assert "1 already remembered" in summary and "1 skipped as a secret" in summary
    assert "1 skipped as not one short sentence" in summary
    assert lines[6] == "Run `palace memory review` to accept, edit or reject them."
    assert (palace_home / "memories.md").read_bytes() == memories
    review = (palace_home / "review.md").read_text()
    assert "Jobs are queued in SQLite, not Redis · session import-CLAUDE.md, medium" in review
    assert SECRET not in review and "exported entry" not in review and "not a bullet" not in review

    again = run_cli("import", str(file))
    assert again.stdout.startswith("0 proposed for review from CLAUDE.md (1 already remembered; 5 already waiting")

    assert run_cli("memory", "review", "accept", "all").returncode == 0
    assert "Jobs are queued in SQLite, not Redis" in (palace_home / "memories.md").read_text()


def test_an_exported_file_imports_as_nothing_new(run_cli: Run, project: Path, palace_home: Path) -> None:
    file = project / ".cursorrules"
    file.write_text("- Prefer small pull requests\n- Prefers helix\n")
    assert run_cli("export", "agents-md", str(file)).returncode == 0
    done = run_cli("import", str(file))
    assert done.stdout.splitlines() == [
        "? ifai/Project Knowledge/general: Prefer small pull requests",
        "1 proposed for review from .cursorrules (1 already remembered).",
        "Run `palace memory review` to accept, edit or reject them.",
    ]
