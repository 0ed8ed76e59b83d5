"""Shared pytest fixtures. Keep each fixture small and generic; add new ones below their section."""

from __future__ import annotations

import ast
import io
import os
import re
import signal
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from palace.config import Settings, load_settings
from palace.testing.server import ScriptedServer

# A suite started in the background by a script (`cmd &`) inherits SIGINT ignored, and so would every palace it
# starts (an ignored signal stays ignored across exec): the Ctrl-C tests send it and need it taken.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


# Property tests draw the same examples on every run, so that the suite is never flaky; a bug they can find is
# found on the first run. PALACE_EXPLORE=1 draws new ones each run, to look for more (then pin what it finds
# with @example).
settings.register_profile("fixed", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile("explore" if os.environ.get("PALACE_EXPLORE") == "1" else "fixed")


def pytest_configure(config: pytest.Config) -> None:
    """Markers (pyproject.toml is not ours to change): `-m "not slow"` for a quick local run; CI runs all."""
    config.addinivalue_line("markers", "slow: takes more than ~3 s (real processes doing real work); CI runs it")


# --- test tiers: `-m "not e2e"` is the in-process loop; CI runs everything ------------------------------------
#
# A test is end-to-end (marker `e2e`, declared in pyproject.toml) when it starts a palace or python process
# (run_palace, subprocess with sys.executable, a shell, the MCP SDK's stdio client, multiprocessing, a fork;
# also through git running palace's hooks, or palace's recall workers), talks to the loopback ScriptedServer
# (the `fake_server` fixture, `ScriptedServer(`), or drives real git over many steps (sync between clones).
# The git commands palace's own history code runs, small tools (`git init`, `sed`) that set a test up, and an
# editor that is a shell script stay in process. The hook marks them mechanically (several test files are
# not ours to mark by hand): whole modules, fixtures, a few tests by name, and whatever a test's own code
# calls that starts a process, followed through the module's helpers and fixtures (and the helper modules
# it imports from). An explicit `@pytest.mark.e2e` or `pytestmark` is kept as it is.

E2E_MODULES = frozenset(
    {
        "test_sync",  # palaces syncing through git remotes, merge driver and all
        "test_sync_trust",
        "test_memory_concurrency",  # writers in other processes
        "test_memory_writers",
        "test_recall_chatty",  # four generated palaces of hundreds of sessions, indexed by recall's worker processes
    }
)
# Fixtures whose tests start processes: everywhere, or ("module.py::fixture") in one module.
E2E_FIXTURES = frozenset({"fake_server", "test_recall_build.py::pooled"})  # pooled: recall's worker processes
# Tests that start a process only through git (a commit runs palace's pre-commit hook): by node name.
E2E_TESTS = frozenset(
    {
        "test_history.py::test_pre_commit_hook_blocks_a_bad_file",
        "test_background_commits.py::test_the_change_of_a_user_commit_is_built_on_not_committed_again",
        "test_background_commits.py::test_changes_queued_when_the_user_commits_them_are_not_committed_backwards",
        "test_one_reader.py::test_history_log_lists_exactly_the_entries",
    }
)
_CALLS = frozenset(
    {"run_palace", "Popen", "ScriptedServer", "StdioServerParameters", "fork", "forkpty", "posix_spawn", "execv"}
)
_SUBPROCESS = frozenset({"run", "call", "check_call", "check_output", "Popen"})
_TOOLS = frozenset({"git", "chattr", "cp", "sed"})  # small tools a test may run without being end-to-end
_HERE = Path(__file__).resolve().parent
_IMPORTED = re.compile(r"^from (\w+) import", re.MULTILINE)  # a helper module beside the tests
_TRIGGERS = re.compile(r"subprocess|Popen|ScriptedServer|StdioServerParameters|multiprocessing|fork|posix_spawn|execv")


def _starts_a_process(call: ast.Call) -> bool:
    """A call that starts a palace or python process, a shell, or the loopback server."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name in _CALLS:
        return True
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        owner = func.value.id
        if owner == "multiprocessing" or (owner == "subprocess" and name in _SUBPROCESS and not _a_tool(call)):
            return True
    return False


def _a_tool(call: ast.Call) -> bool:
    """`subprocess.run(["git", ...])`: a small tool, not a palace, python or shell process."""
    argv = call.args[0] if call.args else None
    if not isinstance(argv, ast.List | ast.Tuple) or not argv.elts:
        return False
    first = argv.elts[0]
    return isinstance(first, ast.Constant) and first.value in _TOOLS


@cache
def _spawners(path: Path) -> frozenset[str]:
    """The names of a test module's functions and classes that start processes, directly or through another
    one of its own or of a helper module it imports from (followed to a fixed point)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return frozenset()
    helpers = [_HERE / f"{name}.py" for name in _IMPORTED.findall(text) if (_HERE / f"{name}.py").is_file()]
    imported = set().union(*(_spawners(helper) for helper in helpers))
    if not _TRIGGERS.search(text) and not any(name in text for name in imported):
        return frozenset()  # most modules: nothing to parse
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return frozenset()
    found = {
        alias.asname or alias.name
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.name in imported
    }
    uses: dict[str, set[str]] = {}
    for top in tree.body:
        if not isinstance(top, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        names = uses[top.name] = set()
        for node in ast.walk(top):
            if isinstance(node, ast.Name):
                names.add(node.id)
            elif isinstance(node, ast.Call) and _starts_a_process(node):
                found.add(top.name)
    while True:
        more = {name for name, names in uses.items() if name not in found and names & found}
        if not more:
            return frozenset(found)
        found |= more


def _is_e2e(item: pytest.Item) -> bool:
    """Whether the test starts a process, talks loopback HTTP or drives git over many steps (see above)."""
    path = Path(str(item.fspath))
    name = getattr(item, "originalname", item.name)
    if path.stem in E2E_MODULES or f"{path.name}::{name}" in E2E_TESTS:
        return True
    fixtures = set(getattr(item, "fixturenames", ()))
    if fixtures & E2E_FIXTURES or {f"{path.name}::{fixture}" for fixture in fixtures} & E2E_FIXTURES:
        return True
    function = getattr(item, "function", None)
    if function is None:
        return False
    spawners = _spawners(path)
    return function.__qualname__.split(".")[0] in spawners or bool(fixtures & spawners)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the end-to-end tests `e2e` (see above)."""
    for item in items:
        if item.get_closest_marker("e2e") is None and _is_e2e(item):
            item.add_marker(pytest.mark.e2e)


# --- fake model endpoint (palace/testing/server.py) -------------------------------------------------


@pytest.fixture
def fake_server() -> Iterator[ScriptedServer]:
    """A started ScriptedServer with an empty script; add steps with `fake_server.add(Step(...))`."""
    server = ScriptedServer().start()
    try:
        yield server
    finally:
        server.stop()


# --- palace folders and settings --------------------------------------------------------------------


@pytest.fixture
def palace_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty palace folder in tmp, selected by PALACE_HOME; no real endpoint variables leak in."""
    home = tmp_path / "palace"
    monkeypatch.setenv("PALACE_HOME", str(home))
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "PALACE_MODEL", "PALACE_WING", "VISUAL", "EDITOR"):
        monkeypatch.delenv(var, raising=False)
    return home


@pytest.fixture
def settings_for(palace_home: Path) -> Callable[..., Settings]:
    """Settings for the temp palace pointed at a scripted server: settings_for(server, **overrides)."""

    def make(server: ScriptedServer | None = None, **overrides: Any) -> Settings:
        flags: dict[str, Any] = {"home": palace_home, "model": "gpt-4.1-mini", "api_key": "test-key"}
        if server is not None:
            flags["base_url"] = server.base_url
        flags.update(overrides)
        settings = load_settings(flags, env={})
        return settings

    return make


# --- the command line, in this process --------------------------------------------------------------


@dataclass
class CliRun:
    """What a `palace ...` run left: its exit status and its output."""

    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def run_cli(
    palace_home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Callable[..., CliRun]:
    """`palace ARGS` as cli.main runs it, in this process: run_cli(*args, stdin="", env={...}).

    Output is what the process would print; the working directory is outside any git repository (the
    wing would come from it) and `env` is set for the rest of the test.
    """
    cwd = palace_home.parent / "cwd"
    cwd.mkdir(exist_ok=True)
    monkeypatch.chdir(cwd)

    def run(*args: str, stdin: str = "", env: dict[str, str] | None = None) -> CliRun:
        from palace.ui import cli

        for name, value in (env or {}).items():
            monkeypatch.setenv(name, value)
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        capsys.readouterr()  # what came before is not this run's
        try:
            code = cli.main(list(args))
        except SystemExit as exc:  # argparse: --version, usage errors
            code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
        out, err = capsys.readouterr()
        return CliRun(code, out, err)

    return run
