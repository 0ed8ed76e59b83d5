"""What the command line, the settings and the MCP server promise, through the real CLI.

A missing MCP SDK names the command that fits this install (and tells the client, not only stderr); a search in
an implicit wing says what the other wings hold; an unknown config key warns with a did-you-mean and palace
goes on, while a bad value stays an error naming the key as config.toml spells it; `palace export agents-md`
writes the repository's wing and project memory, never another wing, and the shared halls only when asked; the
MCP tools' errors say "Nothing was written." only where something could have been, once, and an unknown wing
or a string for `wings` is refused.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from palace.ui.cli import install_command

Run = Callable[..., Any]
REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "sessions_example"


def _repo(path: Path) -> Path:
    """A folder that is a git repository (its name is the implicit wing)."""
    path.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


def _example_palace(home: Path) -> None:
    """The README's example palace (its sessions are in wing ifai), without its config.toml."""
    shutil.copytree(EXAMPLE, home, ignore=shutil.ignore_patterns(".index", "config.toml"))


# ---------------------------------------------------------------------- 5: the MCP SDK's install hint


def test_the_install_command_fits_how_palace_was_installed(tmp_path: Path) -> None:
    clone = tmp_path / "src" / "palace"
    clone.mkdir(parents=True)
    venv = tmp_path / "venv"
    venv.mkdir()
    python = str(venv / "bin" / "python")
    req = "mcp<3,>=2.3"
    editable = {"url": clone.as_uri(), "dir_info": {"editable": True}}
    assert install_command(editable, venv, python, req) == (
        f"{python} -m pip install -e '{clone}[mcp]' (or only the SDK: {python} -m pip install '{req}')"
    )
    built = {"url": clone.as_uri(), "dir_info": {}}
    assert install_command(built, venv, python, req).startswith(f"{python} -m pip install '{clone}[mcp]'")
    vcs = {"url": "https://example.com/palace.git", "vcs_info": {"vcs": "git", "commit_id": "abc"}}
    assert install_command(vcs, venv, python, req) == (
        f"{python} -m pip install 'palace[mcp] @ git+https://example.com/palace.git'"
    )
    gone = {"url": (tmp_path / "deleted").as_uri(), "dir_info": {}}  # built from a folder that is gone
    assert install_command(gone, venv, python, req) == f"{python} -m pip install '{req}'"
    pipx = tmp_path / "pipx" / "venvs" / "palace"
    pipx.mkdir(parents=True)
    (pipx / "pipx_metadata.json").write_text("{}")
    again = f"(or: pipx install --force '{clone}[mcp]')"
    assert install_command(built, pipx, python, req) == f"pipx inject palace '{req}' {again}"
    for origin in (editable, built, vcs, gone, {}):
        assert "install 'palace[mcp]'" not in install_command(origin, venv, python, req)  # PyPI's other palace


def _hide_the_sdk(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m.split(".")[0] in ("mcp", "mcp_types")] + ["mcp", "mcp_types"]:
        monkeypatch.setitem(sys.modules, name, None)  # as if it were not installed
    monkeypatch.delitem(sys.modules, "palace.mcp.server", raising=False)


def test_without_the_sdk_the_client_gets_the_hint_as_its_initialize_error(
    run_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    _hide_the_sdk(monkeypatch)
    initialize = {"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": {"protocolVersion": "2025-06-18"}}
    done = run_cli("mcp", stdin=json.dumps(initialize) + "\n")
    assert done.returncode == 1
    said = done.stderr.strip().removeprefix("Error: ")
    assert said.startswith("`palace mcp` needs the MCP SDK") and "install 'palace[mcp]'" not in said
    assert sys.executable in said or "pipx inject palace" in said  # this environment's own installer
    answer = json.loads(done.stdout)
    assert answer["id"] == 7 and answer["error"]["message"] == said and answer["error"]["code"] == -32603


def test_without_the_sdk_and_without_a_client_only_stderr_says_it(
    run_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    _hide_the_sdk(monkeypatch)
    done = run_cli("mcp", stdin="not json\n")
    assert done.returncode == 1 and done.stdout == "" and "needs the MCP SDK" in done.stderr


@pytest.mark.e2e
def test_a_real_process_without_the_sdk_answers_the_inspector(tmp_path: Path) -> None:
    blocked = tmp_path / "blocked"
    blocked.mkdir()
    for name in ("mcp", "mcp_types"):  # importing them fails as a missing package does
        (blocked / f"{name}.py").write_text(
            f"raise ModuleNotFoundError({f'No module named {name}'!r}, name={name!r})\n"
        )
    env = {"PATH": "/usr/bin:/bin", "PALACE_HOME": str(tmp_path / "home"), "PYTHONPATH": f"{blocked}:{REPO}"}
    request = json.dumps({"jsonrpc": "2.0", "id": "init-1", "method": "initialize", "params": {}}) + "\n"
    command = [sys.executable, "-m", "palace", "mcp"]
    done = subprocess.run(command, input=request, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert done.returncode == 1, done.stderr
    answer = json.loads(done.stdout)
    assert answer["id"] == "init-1" and "needs the MCP SDK" in answer["error"]["message"]
    assert "needs the MCP SDK" in done.stderr and "install 'palace[mcp]'" not in done.stderr


# ---------------------------------------------------------------------- 8: an implicit wing says what it hides


def test_a_search_in_the_folders_wing_says_what_other_wings_hold(
    run_cli: Run, palace_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _example_palace(palace_home)
    monkeypatch.chdir(_repo(tmp_path / "checkout"))  # the wing is `checkout`: the palace has nothing there
    done = run_cli("sessions", "search", "how do clients catch up after a disconnect")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("no matches") and "wing checkout" in lines[0]
    note = lines[-1]
    assert note.startswith("(") and "more match" in note and "another wing: ifai " in note
    assert note.endswith("— add --all-wings, or --wing ifai)")
    count = int(note.split()[0].strip("("))
    everywhere = run_cli(
        "sessions", "search", "--all-wings", "--limit", "20", "how do clients catch up after a disconnect"
    )
    assert f"{count} match" in everywhere.stdout.splitlines()[0] and "more match" not in everywhere.stdout
    by_wing = run_cli("sessions", "search", "--wing", "ifai", "how do clients catch up after a disconnect")
    assert "wing ifai" in by_wing.stdout and "more match" not in by_wing.stdout


def test_a_search_that_misses_nothing_adds_no_note(
    run_cli: Run, palace_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _example_palace(palace_home)
    monkeypatch.chdir(_repo(tmp_path / "ifai"))
    done = run_cli("sessions", "search", "outbox")
    assert done.returncode == 0 and "wing ifai" in done.stdout and "more match" not in done.stdout


@pytest.mark.e2e
def test_the_readme_walkthrough_finds_its_sessions_from_the_checkout(tmp_path: Path) -> None:
    home = tmp_path / "example"
    subprocess.run(["cp", "-r", str(EXAMPLE), str(home)], check=True)  # as the README says
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PALACE_HOME": str(home)}
    for query, said in [("数据库", "sqlx migrate"), ("how do clients catch up after a disconnect", "outbox")]:
        done = subprocess.run(
            [sys.executable, "-m", "palace", "sessions", "search", query],
            capture_output=True, text=True, env=env, cwd=REPO, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert not done.stdout.startswith("no matches") and "wing ifai" in done.stdout and said in done.stdout


# ---------------------------------------------------------------------- 13: settings


def test_an_unknown_key_warns_with_a_did_you_mean_and_palace_goes_on(run_cli: Run, palace_home: Path) -> None:
    palace_home.mkdir()
    config = palace_home / "config.toml"
    config.write_text('memory_budget = 4096\n[memory]\nbudget = 10\n[extraction]\nauto_sav = "all"\n')
    done = run_cli("memory", "save", "Preferences/editor", "Uses helix")
    assert done.returncode == 0 and "Saved to Preferences/editor" in done.stdout
    warned = done.stderr.splitlines()
    assert f"! {config}: unknown setting 'memory.budget' (did you mean 'memory.budget_bytes'?); it is ignored" in warned
    assert f"! {config}: unknown setting 'memory_budget' (did you mean 'memory.budget_bytes'?); it is ignored" in warned
    assert any("'extraction.auto_sav' (did you mean 'extraction.auto_save'?)" in line for line in warned)
    assert run_cli("memory", "path").stdout.strip() == str(palace_home / "memories.md")  # stdout: the answer only
    doctor = run_cli("doctor", env={"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}).stdout
    assert "memory.budget_bytes" in doctor and "unknown setting 'memory.budget'" in doctor


def test_a_bad_value_of_a_known_key_stays_an_error_named_as_written(run_cli: Run, palace_home: Path) -> None:
    palace_home.mkdir()
    config = palace_home / "config.toml"
    config.write_text("[memory]\nbudget_bytes = 100\n[context]\ncompact_at = 2\n")
    done = run_cli("memory", "show")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip() == (
        "Error: invalid settings: memory.budget_bytes (config.toml): must be at least 256; "
        f"context.compact_at (config.toml): must be at most 0.95 (config.toml is {config})"
    )
    config.unlink()
    env = run_cli("memory", "show", env={"PALACE_MEMORY": "maybe"})
    assert env.returncode == 1 and "memory.enabled (PALACE_MEMORY): must be true or false" in env.stderr


# ---------------------------------------------------------------------- 15: export agents-md


@pytest.fixture
def acme(run_cli: Run, palace_home: Path, tmp_path: Path) -> Path:
    """A repository named acme with a project memory; the palace holds acme, another wing and shared halls."""
    folder = _repo(tmp_path / "acme")
    (folder / ".palace").mkdir()
    (folder / ".palace" / "memories.md").write_text("## Decisions\n\n### queue\n- [2026-11-20] Jobs run on Redis\n")
    for path, content in [
        ("acme/Decisions/database", "The event store uses SQLite in WAL mode"),
        ("rival/Decisions/database", "The other client's project uses Oracle"),
        ("alice/Preferences/diet", "Alice is vegetarian"),
        ("Preferences/editor", "Prefers helix"),
    ]:
        assert run_cli("memory", "save", path, content).returncode == 0
    return folder


def test_export_writes_the_repositorys_wing_and_project_memory_only(
    run_cli: Run, acme: Path, palace_home: Path
) -> None:
    file = acme / "AGENTS.md"
    (palace_home / "config.toml").write_text('wing = "alice"\n')  # a person's wing: not the repo's
    done = run_cli("export", "agents-md", str(file))
    assert done.returncode == 0, done.stderr
    text = file.read_text()
    assert "The event store uses SQLite in WAL mode" in text and "Jobs run on Redis" in text
    assert "Project memory of `acme`" in text and "## acme" in text
    for private in ("Prefers helix", "Oracle", "rival", "vegetarian", "alice", "Other wings"):
        assert private not in text, private
    assert "not your shared halls: --include-personal adds them" in done.stdout


def test_include_personal_adds_the_shared_halls_with_a_warning_and_never_another_wing(run_cli: Run, acme: Path) -> None:
    file = acme / "CLAUDE.md"
    done = run_cli("export", "agents-md", str(file), "--include-personal")
    assert done.returncode == 0, done.stderr
    text = file.read_text()
    assert "Prefers helix" in text and "WAL mode" in text and "Oracle" not in text and "rival" not in text
    assert "CLAUDE.md is usually committed" in done.stdout and "your shared halls" in done.stdout
    named = run_cli("export", "agents-md", str(file), "--wing", "rival")  # asked by name: that wing, not acme's
    assert "Oracle" in file.read_text() and "WAL mode" not in file.read_text() and named.returncode == 0


def test_export_outside_a_repository_without_a_wing_says_what_to_do(run_cli: Run, palace_home: Path) -> None:
    assert run_cli("memory", "save", "Preferences/editor", "Prefers helix").returncode == 0
    done = run_cli("export", "agents-md", "AGENTS.md")
    assert done.returncode == 1 and "--wing W" in done.stderr and not Path("AGENTS.md").exists()


# ---------------------------------------------------------------------- 16: the MCP tools' texts


@pytest.fixture
def server(run_cli: Run, palace_home: Path) -> Any:
    pytest.importorskip("mcp")
    from palace.app import App
    from palace.config import load_settings
    from palace.mcp.server import PalaceServer

    for path, content in [("ifai/Decisions/database", "Uses Postgres"), ("alice/Preferences/tea", "Likes oolong")]:
        assert run_cli("memory", "save", path, content).returncode == 0
    app = App(load_settings(env={"PALACE_HOME": str(palace_home)}), warn=print)
    yield PalaceServer(app)
    app.close()


def test_read_only_tools_do_not_say_nothing_was_written_and_forget_says_it_once(server: Any) -> None:
    recall = server.call("memory_recall", {"query": "x", "limit": 99}, [])
    show = server.call("memory_show", {"wings": ["no such/wing"]}, [])
    for outcome in (recall, show):
        assert outcome.error and outcome.text.startswith("Error: ") and "written" not in outcome.text.casefold()
    forget = server.call("memory_forget", {"path": "ifai/Decisions/database", "content": "Uses MySQL"}, [])
    assert forget.error and forget.text.endswith("Its entries: Uses Postgres. Nothing was written.")
    assert forget.text.casefold().count("nothing written") + forget.text.casefold().count("nothing was written") == 1
    save = server.call("memory_save", {"path": "Prefs/editor", "content": "Uses vim"}, [])
    assert save.error and save.text.endswith("Nothing was written.")


def test_memory_show_refuses_a_wing_the_palace_has_not_and_a_string_for_wings(server: Any) -> None:
    unknown = server.call("memory_show", {"wings": ["ifia"]}, [])
    assert unknown.error and "the palace has no wing `ifia` (did you mean `ifai`?)" in unknown.text
    assert "its wings are `alice` and `ifai`" in unknown.text
    string = server.call("memory_show", {"wings": "ifai"}, [])
    assert string.error and "Input should be a valid list (a string was given" in string.text
    shown = server.call("memory_show", {"wings": ["IFAI"]}, [])  # any case: the palace's own spelling
    assert shown.error is None and shown.text.startswith("Active wings: `ifai`.") and "Uses Postgres" in shown.text
    assert "Likes oolong" not in shown.text
