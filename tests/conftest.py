"""Shared pytest fixtures. Keep each fixture small and generic; add new ones below their section."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from palace.config import Settings, load_settings
from palace.testing.server import ScriptedServer

# --- fake model endpoint (palace/fakeserver.py) ----------------------------------------------------


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
def palace_home(tmp_path: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty palace folder in tmp, selected by PALACE_HOME; no real endpoint variables leak in."""
    home = Path(str(tmp_path)) / "palace"
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
