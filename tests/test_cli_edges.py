"""The command line's small edges, through the real CLI.

`palace memory` and `palace sessions` alone list their actions; `--since` takes relative dates; `memory forget`
takes a line copied with its date; shell completion completes memory paths, session ids and wings from the
palace; review hints name the command of where the user is (and an empty list has no numbers to give);
`palace ask` names no REPL-only command.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from ux_helpers import make_repl, replying

from palace.config import Settings
from palace.testing.server import ScriptedServer
from palace.ui.parser import relative_day

Run = Callable[..., Any]
REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "sessions_example"
# A REPL command where a user would read it as one to type (a path like /tmp/x/sessions is not).
REPL_COMMAND = re.compile(
    r"(?:^|[\s(`'\"])/(bring|review|context|compact|recall|memory|edit|undo|sessions|new|model|usage|help|"
    r"remember|forget|clear|clear-memory|exit|quit)\b",
    re.MULTILINE,
)


def _example_palace(home: Path) -> None:
    shutil.copytree(EXAMPLE, home, ignore=shutil.ignore_patterns(".index", "config.toml"))


# ---------------------------------------------------------------------- a command without its action


@pytest.mark.parametrize(
    ("command", "actions"),
    [("memory", ["show", "save", "forget", "review", "scrub"]), ("sessions", ["list", "show", "search", "extract"])],
)
def test_a_command_without_its_action_lists_the_actions(run_cli: Run, command: str, actions: list[str]) -> None:
    done = run_cli(command)
    assert done.returncode == 0 and done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0] == f"palace {command} ACTION:"
    listed = [line.split()[0] for line in lines[1:-1]]
    assert all(action in listed for action in actions), listed
    assert lines[-1] == f"(`palace {command} ACTION --help` tells more of one)"
    assert "the memory as the model sees it" in done.stdout or "sessions, newest first" in done.stdout


def test_export_without_a_format_lists_the_formats(run_cli: Run) -> None:
    done = run_cli("export")
    assert done.returncode == 0 and "agents-md" in done.stdout and done.stdout.startswith("palace export FORMAT:")


# ---------------------------------------------------------------------- relative dates


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("today", "2026-12-02"),
        ("yesterday", "2026-12-01"),
        ("2 days ago", "2026-11-30"),
        ("a week ago", "2026-11-25"),
        ("this week", "2026-11-30"),  # 2026-12-02 is a Wednesday: its week began on Monday
        ("last week", "2026-11-23"),
        ("3 months ago", "2026-09-02"),
        ("1 year ago", "2025-12-02"),
        ("last month", "2026-11-01"),
        ("this month", "2026-12-01"),
        ("last year", "2025-01-01"),
        ("june 2026", "2026-06-01"),
        ("3 june 2026", "2026-06-03"),
    ],
)
def test_relative_dates_are_counted_back_from_today(said: str, day: str) -> None:
    assert relative_day(said, date(2026, 12, 2)) == date.fromisoformat(day)


def test_the_last_day_of_a_shorter_month_stands_in() -> None:
    assert relative_day("1 month ago", date(2026, 3, 31)) == date(2026, 2, 28)
    assert relative_day("someday", date(2026, 3, 31)) is None and relative_day("in june", date(2026, 3, 31)) is None


def test_palace_log_takes_relative_dates(run_cli: Run) -> None:
    assert run_cli("init", "--git").returncode == 0
    assert run_cli("memory", "save", "Preferences/editor", "Uses helix").returncode == 0
    for since in ("yesterday", "2 days ago", "last week", "Last  Week", date.today().isoformat()):
        done = run_cli("log", "--since", since)
        assert done.returncode == 0 and "Uses helix" in done.stdout, (since, done.stdout, done.stderr)
    wrong = run_cli("log", "--since", "someday")
    assert wrong.returncode == 2 and "'someday' is not a date: give YYYY-MM-DD, or today, yesterday" in wrong.stderr
    searched = run_cli("sessions", "search", "helix", "--since", "yesterday")
    assert searched.returncode == 0 and "Uses helix" in searched.stdout


# ---------------------------------------------------------------------- forget a copied line


def test_forget_takes_a_line_copied_with_its_date(run_cli: Run, palace_home: Path) -> None:
    today = date.today().isoformat()
    assert run_cli("memory", "save", "Preferences/editor", "Uses helix").returncode == 0
    assert run_cli("memory", "save", "Preferences/shell", "Uses fish").returncode == 0
    line = next(line for line in (palace_home / "memories.md").read_text().splitlines() if "Uses helix" in line)
    assert line == f"- [{today}] Uses helix"
    done = run_cli("memory", "forget", "Preferences/editor", line)
    assert done.returncode == 0 and "Forgot from Preferences/editor: Uses helix" in done.stdout, done.stderr
    words = run_cli("memory", "forget", "Preferences/shell", "-", f"[{today}]", "Uses", "fish")  # unquoted
    assert words.returncode == 0 and "Forgot from Preferences/shell: Uses fish" in words.stdout, words.stderr
    assert "Uses" not in (palace_home / "memories.md").read_text()


# ---------------------------------------------------------------------- shell completion


def test_completion_words_come_from_the_palace(run_cli: Run, palace_home: Path) -> None:
    _example_palace(palace_home)
    paths = run_cli("completion", "--complete", "paths", "--word", "ifai/project-k").stdout.split()
    assert paths[0] == "ifai/ProjectKnowledge/" and "ifai/ProjectKnowledge/database" in paths
    assert all(p.startswith("ifai/ProjectKnowledge/") for p in paths)
    shared = run_cli("completion", "--complete", "paths", "--word", "pref").stdout.split()
    assert shared[0] == "Preferences/" and "Preferences/programming-languages" in shared
    ids = run_cli("completion", "--complete", "sessions", "--word", "a1b2").stdout.split()
    assert ids == ["2026-11-30-a1b2c3d4"]
    assert run_cli("completion", "--complete", "sessions", "--word", "").stdout.split()[0] == "2026-11-30-e4f19b06"
    assert run_cli("completion", "--complete", "wings", "--word", "i").stdout.split() == ["ifai"]
    assert run_cli("completion").returncode == 2  # a shell, or what to complete


def _bash_complete(script: str, words: list[str], home: Path) -> list[str]:
    line = " ".join(f"'{w}'" for w in words)
    program = (
        f'palace() {{ PALACE_HOME={home} "{sys.executable}" -m palace "$@"; }}\n{script}\n'
        f"COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; _palace_complete; "
        'printf "%s\\n" "${COMPREPLY[@]}"'
    )
    cwd = home.parent / "cwd"  # not the palace's parent: `python -m palace` would import the folder `palace`
    done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, check=True, cwd=cwd)
    return [w for w in done.stdout.splitlines() if w]


@pytest.mark.e2e
def test_bash_completes_paths_session_ids_and_wings(run_cli: Run, palace_home: Path) -> None:
    _example_palace(palace_home)
    script = run_cli("completion", "bash").stdout
    assert "Preferences/programming-languages" in _bash_complete(
        script, ["palace", "memory", "save", "Pref"], palace_home
    )
    forget = _bash_complete(script, ["palace", "memory", "forget", "--secret", "ifai/Dec"], palace_home)
    assert forget == ["ifai/Decisions/", "ifai/Decisions/sync-engine", "ifai/Decisions/type-sharing"]
    assert _bash_complete(script, ["palace", "memory", "save", "Preferences/x", ""], palace_home) == []  # content
    assert _bash_complete(script, ["palace", "sessions", "show", "a1b2"], palace_home) == ["2026-11-30-a1b2c3d4"]
    assert _bash_complete(script, ["palace", "chat", "--resume", "2026-11-2"], palace_home)[0] == "2026-11-29-5c0d8e92"
    assert _bash_complete(script, ["palace", "memory", "show", "--wing", ""], palace_home) == ["ifai"]
    assert _bash_complete(script, ["palace", "memory", "s"], palace_home) == ["show", "save", "scrub"]  # as before
    assert _bash_complete(script, ["palace", "memory", "show", "--"], palace_home) == [
        "--help",
        "--wing",
        "--raw",
        "--stats",
        "--expiring",
    ]


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_ask_the_palace_for_its_words(run_cli: Run, shell: str) -> None:
    script = run_cli("completion", shell).stdout
    assert "palace completion --complete" in script
    for kind in ("paths", "sessions", "wings"):  # where each is asked for: a first argument, an option's value
        assert re.search(rf"(=|--complete ){kind}\b", script), kind
    assert "--complete" not in script.replace("palace completion --complete", "")  # the option itself is hidden
    if shutil.which(shell) is None:
        return  # the text is all that can be checked here; with the shell, it is also parsed
    check = ["zsh", "-n", "-c", script] if shell == "zsh" else ["fish", "--no-execute", "-c", script]
    subprocess.run(check, check=True)


# ---------------------------------------------------------------------- review hints


@pytest.fixture
def proposals(run_cli: Run, palace_home: Path) -> Path:
    """Two proposals waiting in review.md (from `palace import`)."""
    file = palace_home.parent / "AGENTS.md"
    file.write_text("## Decisions\n\n- Releases are tagged from main\n- Staging deploys nightly\n")
    assert run_cli("import", str(file)).returncode == 0
    return file


def test_the_shell_review_names_the_shell_command(run_cli: Run, proposals: Path) -> None:
    listed = run_cli("memory", "review", "list").stdout
    assert "Accept with `palace memory review accept N` (or `palace memory review accept all`)" in listed
    assert "reject with `palace memory review reject N`" in listed and "`review accept N`" not in listed
    wrong = run_cli("memory", "review", "accept", "9")
    assert wrong.returncode == 1
    assert "no proposal '9': give a number from 1 to 2 (see `palace memory review list`)" in wrong.stderr
    edit = run_cli("memory", "review", "edit", "1")
    assert "usage: palace memory review edit N NEW TEXT" in edit.stderr


def test_the_repl_review_names_the_slash_command(settings_for: Callable[..., Settings], proposals: Path) -> None:
    repl, out = make_repl(settings_for())
    repl.run(["/review", "/review accept 9"])
    text = out.getvalue()
    assert "Accept with `/review accept N` (or `/review accept all`)" in text and "palace memory review" not in text
    assert "no proposal '9': give a number from 1 to 2 (see `/review list`)" in text


def test_an_empty_review_gives_no_numbers(run_cli: Run) -> None:
    done = run_cli("memory", "review", "accept", "1")
    assert done.returncode == 1 and "no proposal '1': nothing waits for review" in done.stderr
    assert "1 to 0" not in done.stderr
    assert run_cli("memory", "review", "accept", "all").stdout.strip() == "Nothing waits for review."


# ---------------------------------------------------------------------- palace ask


def test_ask_prints_no_repl_only_command(run_cli: Run, palace_home: Path, fake_server: ScriptedServer) -> None:
    _example_palace(palace_home)  # sessions of wing ifai: the REPL would show their card, offering /bring
    fake_server.responder = replying("Use the outbox.")  # (an orphan session's extraction gets a summary)
    env = {"OPENAI_BASE_URL": fake_server.base_url, "OPENAI_API_KEY": "test-key"}
    done = run_cli("ask", "--wing", "ifai", "how do clients catch up?", env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Use the outbox.\n"
    assert REPL_COMMAND.search(done.stderr) is None, done.stderr
    assert REPL_COMMAND.search("x (/bring ID puts one)") is not None  # the pattern finds one where it stands
