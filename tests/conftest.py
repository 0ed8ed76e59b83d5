"""Shared pytest fixtures. Keep each fixture small and generic; add new ones below their section."""

from __future__ import annotations

import io
import os
import signal
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
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
