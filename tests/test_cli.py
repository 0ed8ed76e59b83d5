"""The command line as `palace ARGS` runs it (cli.main in this process) against a temp PALACE_HOME.

The end-to-end runs through `python -m palace` are in test_repl.py; only what needs a fresh interpreter
runs one here.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from palace.testing.server import ScriptedServer

REPO = Path(__file__).resolve().parent.parent
Run = Callable[..., Any]  # conftest.run_cli: run(*args, stdin=, env=) -> CliRun


def test_save_show_forget_round_trip(run_cli: Run, palace_home: Path) -> None:
    home = palace_home
    saved = run_cli("memory", "save", "Preferences/Programming Languages", "The user writes backends in Rust")
    assert saved.returncode == 0, saved.stderr
    assert saved.stdout.strip() == "✓ Saved to Preferences/programming-languages: The user writes backends in Rust"
    again = run_cli("memory", "save", "preferences/programming-languages", "the user writes backends in rust.")
    assert "Already remembered in Preferences/programming-languages" in again.stdout
    wing = run_cli("memory", "save", "ifai/project-knowledge/frontend", "Vue 3 inside Tauri")
    assert "ifai/Project Knowledge/frontend" in wing.stdout
    shown = run_cli("memory", "show")
    assert "The user writes backends in Rust" in shown.stdout and "Vue 3" not in shown.stdout
    assert "ifai" in shown.stdout
    assert "Vue 3 inside Tauri" in run_cli("memory", "show", "--wing", "IFAI").stdout
    raw = run_cli("memory", "show", "--raw")
    assert raw.stdout == (home / "memories.md").read_text()
    assert run_cli("memory", "path").stdout.strip() == str(home / "memories.md")
    forgot = run_cli("memory", "forget", "ifai/Project Knowledge/frontend", "Vue 3 inside Tauri")
    assert forgot.returncode == 0 and "Forgot from" in forgot.stdout
    assert "#### frontend" not in (home / "memories.md").read_text()
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    assert stat.S_IMODE((home / "memories.md").stat().st_mode) == 0o600


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["Prefernces/x", "hello"], 'did you mean "Preferences"'),
        (["Preferences", "hello"], "has one part"),
        (["a/b/c/d", "hello"], "has 4 parts"),
        (["Decisions/Preferences/x", "hello"], "is a hall, so it cannot be a wing"),
        (["Preferences/x", "my key is sk-abcdefghijklmnopqrstuvwxyz123456"], "OpenAI API key"),
        (["Preferences/x", "x" * 201], "the limit is 200"),
        (["Preferences/x", "# heading"], "may not start with '#'"),
        (["Preferences/x", "[2026-01-01] dated"], "may not start with a date"),
        (["Preferences/!!!", "hello"], "has no letters or digits"),
    ],
)
def test_bad_saves_say_why_exit_1_and_change_nothing(
    run_cli: Run, palace_home: Path, args: list[str], message: str
) -> None:
    home = palace_home
    assert run_cli("memory", "save", "Preferences/editor", "Uses neovim").returncode == 0
    before = (home / "memories.md").read_bytes()
    done = run_cli("memory", "save", *args)
    assert done.returncode == 1
    assert done.stderr.startswith("Error: ") and message in done.stderr
    assert "sk-abcdefghijklmnop" not in done.stderr
    assert (home / "memories.md").read_bytes() == before


def test_forget_of_a_missing_entry_lists_the_room(run_cli: Run) -> None:
    run_cli("memory", "save", "Preferences/editor", "Uses neovim")
    done = run_cli("memory", "forget", "Preferences/editor", "Uses emacs")
    assert done.returncode == 1 and "Uses neovim" in done.stderr and "nothing written" in done.stderr


def test_lint_exit_codes_for_errors_and_warnings(run_cli: Run, palace_home: Path) -> None:
    home = palace_home
    home.mkdir()
    bad = home / "bad.md"
    bad.write_text(
        "## Prefernces\n\n### languages\n- [2026-11-30] Rust\n\n## Decisions\n\n### db\n"
        "- [2026-13-45] Postgres\n- [2026-11-01] password=hunter22\n"
    )
    done = run_cli("memory", "lint", str(bad))
    assert done.returncode == 1
    assert 'did you mean the hall "Preferences"' in done.stderr
    assert "malformed date" in done.stderr and "password assignment" in done.stderr
    assert "hunter22" not in done.stderr + done.stdout
    warn_only = home / "warn.md"
    warn_only.write_text("## Decisions\n\n### db\n- [2026-11-01] Postgres\n- [2026-11-02] postgres.\n")
    done = run_cli("memory", "lint", str(warn_only))
    assert done.returncode == 0 and "duplicate entry" in done.stdout


def test_soft_limit_is_a_warning(run_cli: Run, palace_home: Path) -> None:
    home = palace_home
    home.mkdir()
    lines = "\n".join(f"- [2026-11-01] Fact {n}" for n in range(101))
    (home / "memories.md").write_text(f"## Preferences\n\n### facts\n{lines}\n")
    done = run_cli("memory", "lint")
    assert done.returncode == 0 and "soft limit of 100" in done.stdout


def test_sessions_example_lints_clean_and_has_its_structure() -> None:
    from palace.memory.document import Document
    from palace.memory.lint import lint_file

    example = REPO / "sessions_example" / "memories.md"
    report = lint_file(example)
    assert report.problems == [], [str(p) for p in report.problems]
    doc = Document.parse(example.read_bytes())
    halls = {e.path.hall.value for e in doc.entries if e.path}
    assert len(halls) >= 3
    assert any(e.path and e.path.wing for e in doc.entries)
    assert any(e.path and not e.path.room.isascii() for e in doc.entries)


def test_init_creates_a_starter_file_that_lints_clean(run_cli: Run, palace_home: Path) -> None:
    home = palace_home
    done = run_cli("init")
    assert done.returncode == 0, done.stderr
    assert (home / "memories.md").exists()
    assert run_cli("memory", "lint").returncode == 0
    assert run_cli("memory", "save", "Preferences/editor", "Uses neovim").returncode == 0
    assert run_cli("memory", "lint").returncode == 0


def test_help_does_not_import_heavy_modules() -> None:
    code = (
        "import sys, palace.ui.cli as c; c.build_parser().format_help();"
        "heavy = [m for m in ('openai', 'pydantic', 'mistune', 'prompt_toolkit', 'watchdog') if m in sys.modules];"
        "print(','.join(heavy))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""


def test_doctor_reports_sources_and_the_endpoint(run_cli: Run, palace_home: Path, fake_server: ScriptedServer) -> None:
    home = palace_home
    run_cli("memory", "save", "Preferences/editor", "Uses neovim")
    (home / "config.toml").write_text('model = "palace-demo"\n[memory]\nbudget_bytes = 4096\n')
    done = run_cli("doctor", env={"OPENAI_BASE_URL": fake_server.base_url, "OPENAI_API_KEY": "secret-key-1"})
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "palace-demo — config.toml" in out and "4096 — config.toml" in out
    assert f"{fake_server.base_url} — OPENAI_BASE_URL" in out
    assert "secret-key-1" not in out and "not shown" in out
    assert "model palace-demo is listed" in out and "1 entry," in out


def test_doctor_fails_when_the_endpoint_is_down(run_cli: Run) -> None:
    done = run_cli("doctor", env={"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"})
    assert done.returncode == 1 and "127.0.0.1:9" in done.stdout


def test_bad_config_is_a_clear_error(run_cli: Run, palace_home: Path) -> None:
    home = palace_home
    home.mkdir()
    (home / "config.toml").write_text("[memory]\nbudget = 10\n")
    done = run_cli("memory", "show")  # an unknown key warns, and the command goes on
    assert done.returncode == 0, done.stderr
    assert "unknown setting 'memory.budget' (did you mean 'memory.budget_bytes'?); it is ignored" in done.stderr
    (home / "config.toml").write_text("[memory]\nbudget_bytes = 10\n")
    done = run_cli("memory", "show")  # a bad value of a known key stays an error, named as config.toml has it
    assert done.returncode == 1 and "memory.budget_bytes (config.toml): must be at least 256" in done.stderr


def test_no_command_means_chat_and_takes_its_flags(run_cli: Run) -> None:
    done = run_cli("--model", "qwen2.5-coder", stdin="/model\n/exit\n")
    assert done.returncode == 0, done.stderr
    assert "Model: qwen2.5-coder" in done.stdout
    assert run_cli("--version").stdout.startswith("palace ")


def test_every_command_and_action_builds_alone_and_in_full(capsys: pytest.CaptureFixture[str]) -> None:
    """A command runs with only its own parser built: each one (and each memory/sessions action) must build
    that way and give the same help as the full parser."""
    from palace.ui.cli import build_parser, command_names

    full = build_parser()
    for name in command_names():
        sub = next(a for a in full._actions if a.dest == "command").choices[name]  # type: ignore[attr-defined]
        actions = next((a.choices for a in sub._actions if a.dest == "action"), {})
        for action in [None, *actions]:
            args = [name] + ([action] if action else []) + ["--help"]
            with pytest.raises(SystemExit) as alone:
                build_parser(name, action).parse_args(args)
            alone_help = capsys.readouterr().out
            with pytest.raises(SystemExit):
                full.parse_args(args)
            assert alone.value.code == 0 and alone_help == capsys.readouterr().out, args


def test_a_short_command_ends_quickly_yet_delivers_all_its_output_and_its_exit_code(tmp_path: Path) -> None:
    # Short commands end with os._exit (no interpreter teardown): what they print must still arrive in
    # full through a pipe, their exit code must be kept, and exit handlers must still run.
    home = tmp_path / "palace"
    home.mkdir(mode=0o700)
    padding = "x" * 120
    facts = [[f"- Fact {r}.{n} about the build, padded {padding}\n" for n in range(10)] for r in range(50)]
    rooms = [f"### area-{r}\n" + "".join(lines) for r, lines in enumerate(facts)]
    (home / "memories.md").write_text("# Memories\n\n## Project Knowledge\n\n" + "\n".join(rooms))
    mark = tmp_path / "mark"
    env = {**os.environ, "PALACE_HOME": str(home), "NO_COLOR": "1", "MARK": str(mark)}
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    hook = cwd / "with_exit_handler.py"
    hook.write_text(
        "import atexit, os\n"
        "from palace.ui import cli\n"
        "atexit.register(lambda: open(os.environ['MARK'], 'w').write('ran'))\n"
        "cli.entry()\n"
    )

    def palace(*args: str, program: list[str] | None = None) -> subprocess.CompletedProcess[bytes]:
        command = [*(program or [sys.executable, "-m", "palace"]), *args]
        return subprocess.run(command, env=env, cwd=cwd, capture_output=True, timeout=120)

    raw = palace("memory", "show", "--raw")
    assert raw.returncode == 0 and raw.stdout == (home / "memories.md").read_bytes()
    assert len(raw.stdout) > 65536  # more than a pipe's buffer
    saved = palace("memory", "save", "Project Knowledge/area-7", "The build runs on every push")
    assert saved.returncode == 0 and saved.stdout.startswith("✓ Saved".encode())
    missing = palace("memory", "forget", "Preferences/editors", "never saved")
    assert missing.returncode == 1 and b"Error:" in missing.stderr
    assert not mark.exists()
    shown = palace("memory", "path", program=[sys.executable, str(hook)])
    assert shown.returncode == 0 and shown.stdout.decode().strip() == str(home / "memories.md")
    assert mark.read_text() == "ran"
