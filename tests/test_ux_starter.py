"""A new palace puts nothing in the prompt but the user's facts: no starter text, no example lines."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from ux_helpers import env_for, make_repl, run_palace, scripted

from palace.agent.conversation import Conversation
from palace.app import init_palace
from palace.config import Settings
from palace.memory.starter import STARTER_MEMORIES
from palace.memory.store import MemoryStore
from palace.testing.server import Step


def _system(settings: Settings) -> str:
    return Conversation(settings, MemoryStore(settings.home), client=None).system


def _example_and_starter_words() -> list[str]:
    return [line.strip() for line in STARTER_MEMORIES.splitlines() if line.strip()] + [
        "The user writes backends in Rust",
        "Vue 3 inside Tauri",
        "<!--",
    ]


def test_a_fresh_palace_prompt_is_the_prompt_of_no_palace(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for()
    without = _system(settings)
    init_palace(settings.home, git=False)
    assert settings.memories_file.read_text() == STARTER_MEMORIES
    fresh = _system(settings)
    assert fresh == without
    assert "(no memories yet)" in fresh
    for text in _example_and_starter_words():
        assert text not in fresh


def test_the_starter_holds_no_example_facts_and_stays_private() -> None:
    assert "- [20" not in STARTER_MEMORIES  # no dated example entry a model could read as a fact
    assert STARTER_MEMORIES.startswith("<!--") and STARTER_MEMORIES.rstrip().endswith("-->")
    assert len(STARTER_MEMORIES.splitlines()) <= 3


def test_comments_are_left_out_of_the_prompt_and_kept_in_the_file(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for()
    settings.home.mkdir(parents=True)
    mine = (
        "# Memories\n\n<!-- to self: ask Bob about the VPN -->\n\n## Preferences\n\n### shell\n"
        "- [2026-11-30] Uses fish <!-- since 2019 -->\n\n<!--\nA long private note\nover lines\n-->\n\n"
        "Plain notes stay in the prompt.\n"
    )
    settings.memories_file.write_text(mine)
    system = _system(settings)
    assert "ask Bob" not in system and "A long private note" not in system
    assert "- [2026-11-30] Uses fish <!-- since 2019 -->" in system  # an entry is kept whole
    assert "# Memories\n\n## Preferences\n\n### shell\n" in system  # no doubled blank line where a note was
    assert "Plain notes stay in the prompt." in system
    repl, _ = make_repl(settings)
    repl.handle("/remember Preferences/editor Uses helix")
    repl.run([])
    after = settings.memories_file.read_text()
    assert "ask Bob about the VPN" in after and "A long private note\nover lines" in after


def test_init_memory_edit_and_slash_edit_on_a_new_palace_inject_nothing(
    palace_home: Path, settings_for: Callable[..., Settings], tmp_path: Path
) -> None:
    editor = tmp_path / "look.sh"
    editor.write_text("#!/bin/sh\nexit 0\n")  # the user opens the file and closes it without a change
    editor.chmod(0o755)
    env = env_for(palace_home, EDITOR=str(editor))
    assert run_palace(["init"], env).returncode == 0
    shown = run_palace(["memory", "show"], env)
    assert shown.returncode == 0 and shown.stdout.strip() == "! memories.md holds no memories yet"
    os.remove(palace_home / "memories.md")
    edited = run_palace(["memory", "edit"], env)
    assert edited.returncode == 0, edited.stderr
    assert (palace_home / "memories.md").read_text() == STARTER_MEMORIES
    os.remove(palace_home / "memories.md")
    os.environ["EDITOR"] = str(editor)  # the REPL's /edit runs in this process
    try:
        model = scripted(Step(text="Hello."))
        repl, out = make_repl(settings_for(), model)
        repl.run(["/edit", "hi"])
    finally:
        del os.environ["EDITOR"]
    assert "!" not in out.getvalue()  # no warning about a memory that is merely empty
    system = model.requests[0]["messages"][0]["content"]
    assert "(no memories yet)" in system
    for text in _example_and_starter_words():
        assert text not in system
    assert f"Editing {palace_home / 'memories.md'} with look.sh (from $EDITOR)" in out.getvalue()
