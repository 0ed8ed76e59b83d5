"""Shared pytest fixtures. Keep each fixture small and generic; add new ones below their section."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from palace.fakeserver import ScriptedServer

# --- fake model endpoint (palace/fakeserver.py) ----------------------------------------------------


@pytest.fixture
def fake_server() -> Iterator[ScriptedServer]:
    """A started ScriptedServer with an empty script; add steps with `fake_server.add(Step(...))`."""
    server = ScriptedServer().start()
    try:
        yield server
    finally:
        server.stop()
