"""Importing what people already have: ChatGPT and Claude.ai data exports, as dated, recallable sessions."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from palace.sessions.dated import TranscriptSession
from palace.sessions.exports import CHATGPT, CLAUDE_AI, export_kind, parse_export
from palace.testing.server import ScriptedServer, Step
from tests.conftest import CliRun

JUNE = 1_717_243_200  # 2024-06-01 12:00 UTC


def _node(ident: str, parent: str | None, role: str, text: str, when: float) -> dict[str, object]:
    message = {"author": {"role": role}, "content": {"content_type": "text", "parts": [text]}, "create_time": when}
    return {"id": ident, "parent": parent, "children": [], "message": message}


def chatgpt_export() -> list[dict[str, object]]:
    """Two conversations; the first has an edited question (a branch the thread shown left behind)."""
    first = {
        "root": {"id": "root", "parent": None, "children": ["a"], "message": None},
        "a": _node("a", "root", "user", "We are moving the blog to Hugo", JUNE),
        "a2": _node("a2", "root", "user", "We are moving the blog to Jekyll (old draft)", JUNE),
        "b": _node("b", "a", "assistant", "Hugo builds fast; keep the content in Markdown.", JUNE + 60),
        "s": _node("s", "b", "system", "internal", JUNE + 61),
    }
    second = {
        "x": _node("x", None, "user", "My cat is called Miso", JUNE + 86_400 * 30),
        "y": _node("y", "x", "assistant", "Miso is a lovely name.", JUNE + 86_400 * 30 + 5),
    }
    return [
        {"title": "Blog", "create_time": JUNE, "mapping": first, "current_node": "s"},
        {"title": "Cat", "create_time": JUNE + 86_400 * 30, "mapping": second, "current_node": "y"},
    ]


def claude_export() -> list[dict[str, object]]:
    messages = [
        {"sender": "human", "text": "I run the half marathon in October", "created_at": "2024-03-05T08:00:00Z"},
        {"sender": "assistant", "text": "", "content": [{"type": "text", "text": "Good luck with the training!"}],
         "created_at": "2024-03-05T08:00:09Z"},
    ]  # fmt: skip
    return [{"uuid": "u1", "name": "Running", "created_at": "2024-03-05T08:00:00Z", "chat_messages": messages}]


def test_a_chatgpt_export_becomes_one_session_per_conversation_dated_by_its_messages() -> None:
    data = chatgpt_export()
    assert export_kind(data) == CHATGPT
    sessions = parse_export(data)
    assert [s.started.date().isoformat() for s in sessions if s.started] == ["2024-06-01", "2024-07-01"]
    blog = sessions[0]
    assert [(m.role, m.content) for m in blog.messages] == [
        ("user", "We are moving the blog to Hugo"),
        ("assistant", "Hugo builds fast; keep the content in Markdown."),
    ]  # the edited-away branch and the system message are not the conversation


def test_a_claude_export_reads_text_and_content_parts() -> None:
    data = claude_export()
    assert export_kind(data) == CLAUDE_AI
    (session,) = parse_export(data)
    assert isinstance(session, TranscriptSession) and session.started is not None
    assert session.started.date().isoformat() == "2024-03-05"
    assert [m.content for m in session.messages] == [
        "I run the half marathon in October",
        "Good luck with the training!",
    ]


@pytest.mark.e2e
def test_an_export_imports_once_is_recallable_and_its_facts_wait_in_review(
    run_cli: Callable[..., CliRun], fake_server: ScriptedServer, palace_home: Path, tmp_path: Path
) -> None:
    file = tmp_path / "conversations.json"
    file.write_text(json.dumps(chatgpt_export()))
    fact = {"path": "Preferences/pets", "content": "The user's cat is called Miso", "confidence": "high"}
    fake_server.responder = lambda body: Step(text=json.dumps({"summary": "A chat.", "memories": [fact]}))
    endpoint = {"OPENAI_BASE_URL": fake_server.base_url, "OPENAI_API_KEY": "k"}
    done = run_cli("import-transcript", str(file), env=endpoint)
    assert done.returncode == 0, done.stderr
    assert "2 session(s) imported" in done.stderr + done.stdout
    assert "proposed for review" in done.stderr + done.stdout
    assert "The user's cat is called Miso" in (palace_home / "review.md").read_text()  # auto_save: none
    assert not (palace_home / "memories.md").exists() or "Miso" not in (palace_home / "memories.md").read_text()
    again = run_cli("import-transcript", str(file), env=endpoint)
    assert "0 session(s) imported, 2 already there" in again.stderr + again.stdout
    found = run_cli("sessions", "search", "blog Hugo", "--since", "2024-06-01", "--until", "2024-06-02")
    assert "2024-06-01" in found.stdout and "Hugo" in found.stdout
