"""A hand edit made while the model's reply streams is merged into the model's save; the next turn's system
prompt must then carry it (and say so), instead of the model working from the old text all session."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from palace.agent.conversation import Conversation, TurnEvents
from palace.config import Settings
from palace.memory.store import MemoryStore
from palace.model.client import client_from_settings
from palace.testing.server import ScriptedServer, Step


def test_a_save_that_merged_a_hand_edit_rebuilds_the_next_prompt(
    fake_server: ScriptedServer, settings_for: Callable[..., Settings]
) -> None:
    settings = settings_for(fake_server)
    store = MemoryStore(settings.home)
    store.save("Preferences/shells", "The user uses fish")
    conversation = Conversation(settings, store, client=client_from_settings(settings))
    save = json.dumps({"path": "Preferences/editors", "content": "The user edits with helix"})
    answers = iter([Step(tool_calls=[("MemorySave", save)]), Step(text="Saved."), Step(text="Sure.")])

    def reply(body: dict[str, Any]) -> Step:
        if len(fake_server.requests) == 1:  # the user edits the file by hand while this reply streams
            with store.file.open("a") as handle:
                handle.write("\n## Decisions\n\n### database\n- [2026-11-01] Postgres was chosen by hand\n")
        return next(answers)

    fake_server.responder = reply
    notices: list[str] = []
    events = TurnEvents(on_notice=notices.append)
    conversation.turn("I use helix", events)
    text = store.file.read_text()
    assert "Postgres was chosen by hand" in text and "helix" in text  # the save kept the hand edit
    assert notices == []
    conversation.turn("What database do we use?", events)
    prompts = [r["messages"][0]["content"] for r in fake_server.requests if r.get("stream")]
    assert "Postgres was chosen by hand" not in prompts[0]
    assert "Postgres was chosen by hand" in prompts[-1]
    assert any("changed by someone else while palace saved" in n for n in notices)


def test_palace_own_saves_do_not_rebuild_the_prompt(
    fake_server: ScriptedServer, settings_for: Callable[..., Settings]
) -> None:
    settings = settings_for(fake_server)
    store = MemoryStore(settings.home)
    conversation = Conversation(settings, store, client=client_from_settings(settings))
    save = json.dumps({"path": "Preferences/editors", "content": "The user edits with helix"})
    fake_server.add(Step(tool_calls=[("MemorySave", save)]), Step(text="Saved."), Step(text="Fine."))
    notices: list[str] = []
    conversation.turn("I use helix", TurnEvents(on_notice=notices.append))
    store.save("Preferences/shells", "The user uses fish")  # a /remember by the user
    conversation.turn("ok", TurnEvents(on_notice=notices.append))
    prompts = [r["messages"][0]["content"] for r in fake_server.requests if r.get("stream")]
    assert prompts[0] == prompts[-1] and notices == []  # byte-identical: prefix caches keep hitting
