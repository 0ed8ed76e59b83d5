"""The extraction tests' shared set-up: a temp palace, an Extractor on a scripted endpoint, journals, answers.

The endpoint is a ScriptedServer (the real openai client over loopback HTTP: the e2e tests) or a ScriptedModel (the
same script in process, behind the ChatModel seam).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from palace.config import Settings
from palace.memory.store import MemoryStore
from palace.sessions.extract import Extractor
from palace.sessions.journal import Journal
from palace.sessions.lifecycle import archive_orphans
from palace.testing.scripted import ScriptedModel
from palace.testing.server import ScriptedServer, Step

NO_RETRY = {"x-should-retry": "false"}  # the openai client must not retry the scripted 500s


def answer(
    summary: str = "They talked about the ifai stack.", *items: tuple[str, str], confidence: str = "high"
) -> Step:
    """The model's extraction answer: a summary and (path, content) items, all rated `confidence`."""
    memories = [{"path": p, "content": c, "confidence": confidence} for p, c in items]
    body = {"summary": summary, "memories": memories}
    return Step(text=json.dumps(body, ensure_ascii=False), usage=(300, 40))


class Gate:
    """A scripted endpoint's responder that holds its answer back until the test opens it (nothing sleeps)."""

    def __init__(self, step: Step) -> None:
        self.step = step
        self.asked = threading.Event()  # a request is waiting at the gate
        self.opened = threading.Event()

    def __call__(self, body: dict[str, Any]) -> Step:
        self.asked.set()
        if not self.opened.wait(30):
            return Step(status=500, text="the test never opened the gate", headers=NO_RETRY)
        return self.step


class Env:
    """One temp palace with its store, the scripted endpoint its extractors ask, and what they warned and committed.

    `server` is that endpoint: a ScriptedServer, reached through the client palace makes from the settings, or a
    ScriptedModel, handed to each extractor as its client.
    """

    def __init__(self, settings: Settings, server: ScriptedServer | ScriptedModel) -> None:
        self.settings = settings
        self.server = server
        self.client = server if isinstance(server, ScriptedModel) else None
        self.home = settings.home
        self.store = MemoryStore(settings.home)
        self.warnings: list[str] = []
        self.commits: list[tuple[list[Path], str]] = []

    def extractor(self, **kwargs: Any) -> Extractor:
        kwargs.setdefault("retry_delay", 0.0)
        kwargs.setdefault("client", self.client)
        return Extractor(
            self.settings,
            self.store,
            commit=lambda paths, message: self.commits.append((paths, message)),
            warn=self.warnings.append,
            **kwargs,
        )

    def orphans(
        self, commit: Callable[[list[Path], str], object] | None = None, warn: Callable[[str], None] | None = None
    ) -> list[str]:
        """archive_orphans as the App runs it: extraction warnings are in the notices, commit trouble warns."""
        extractor = Extractor(self.settings, self.store, client=self.client, commit=commit, warn=lambda _: None)
        extractor.commit_warn = warn
        try:
            return archive_orphans(extractor)
        finally:
            extractor.close()

    def journal(self, wing: str | None = "ifai") -> Journal:
        return Journal.start(self.home, model=self.settings.model, wing=wing)

    def memories(self) -> str:
        return self.store.read_bytes().decode()

    def request_text(self, n: int = -1) -> str:
        return "\n".join(str(m.get("content")) for m in self.server.requests[n]["messages"])


def turn(journal: Journal, user: str, assistant: str) -> None:
    """One exchange: the user's message and the reply."""
    journal.add_message({"role": "user", "content": user})
    journal.add_message({"role": "assistant", "content": assistant})
