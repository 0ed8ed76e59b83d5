"""Per-turn overhead of palace itself against the scripted server, vs the bare openai client.

Both make the same streaming request (system prompt with an 8 KB memory, tools, one user message) to the
same loopback server; the difference is what palace adds per turn (prompt checks, tool schemas, journal,
accounting). Run: python bench/bench_turn_overhead.py [--turns N]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from palace.agent.conversation import Conversation
from palace.config import load_settings
from palace.memory.store import MemoryStore
from palace.model.client import client_from_settings
from palace.sessions.journal import Journal
from palace.testing.server import ScriptedServer, Step


def _fill(store: MemoryStore) -> None:
    for n in range(70):
        store.save(f"Preferences/topic-{n % 7}", f"Remembered fact number {n} about how the user likes to work")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=200)
    args = parser.parse_args()
    reply = Step(text="A short reply of a few words, streamed in pieces.", chunk_size=8)
    with tempfile.TemporaryDirectory() as tmp, ScriptedServer(responder=lambda body: reply) as server:
        home = Path(tmp)
        settings = load_settings({"home": home, "base_url": server.base_url, "api_key": "k"}, env={})
        store = MemoryStore(home)
        _fill(store)
        journal = Journal.start(home, model=settings.model, wing=None)
        session = Conversation(settings, store, client=client_from_settings(settings), journal=journal)
        bare_client = client_from_settings(settings)
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": session.system},
            {"role": "user", "content": "hello there"},
        ]
        tools = session.tools.schemas()
        for _ in range(10):  # warm both paths (connections, imports)
            bare_client.stream_chat(messages, tools)
            session.turn("hello there")
        bare, full = [], []
        for _ in range(args.turns):
            start = time.perf_counter()
            bare_client.stream_chat(messages, tools)
            bare.append(time.perf_counter() - start)
            session.messages.clear()  # keep the request the same size as the bare one
            start = time.perf_counter()
            session.turn("hello there")
            full.append(time.perf_counter() - start)
        journal.close()
    b, f = statistics.median(bare), statistics.median(full)
    print(f"bare openai client turn:  {b * 1000:7.2f} ms (median of {args.turns})")
    print(f"palace Conversation.turn:     {f * 1000:7.2f} ms")
    print(f"palace overhead per turn: {(f - b) * 1000:7.2f} ms   ratio {f / b:.2f}x the bare client")


if __name__ == "__main__":
    main()
