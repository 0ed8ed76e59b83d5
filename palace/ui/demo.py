"""`palace demo`: two sessions through the real client and REPL, against a bundled scripted model."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from palace.config import load_settings
from palace.testing.server import ScriptedServer, Step
from palace.ui.console import Console

SESSION_ONE = [
    "Hi! Quick note before we start: I always write my tests with pytest, never unittest.",
    "/memory",
    "/exit",
]
SESSION_TWO = [
    "Can you write a test for my slugify() function?",
    "/exit",
]
_SAVE = {"path": "Preferences/testing", "content": "The user writes tests with pytest, never unittest"}
_EXTRACTED = {**_SAVE, "confidence": "high"}


def _text(message: dict[str, Any]) -> str:
    content = message.get("content")
    return content if isinstance(content, str) else ""


def demo_responder(body: dict[str, Any]) -> Step:
    """The scripted model: saves the stated preference, later uses it from the system prompt."""
    messages: list[dict[str, Any]] = body.get("messages", [])
    system = _text(messages[0]) if messages and messages[0].get("role") == "system" else ""
    last = messages[-1] if messages else {}
    if not body.get("stream"):  # the end-of-session extraction call
        said = " ".join(_text(m) for m in messages)
        memories = [_EXTRACTED] if "pytest" in said and "slugify" not in said else []
        summary = (
            "The user said they write tests with pytest; the preference was saved."
            if memories
            else "The user asked for a test of slugify(); the reply used their pytest preference from memory."
        )
        return Step(text=json.dumps({"summary": summary, "memories": memories}))
    if last.get("role") == "tool":
        return Step(text="Noted — I'll use pytest for any tests I write for you from now on.", chunk_size=6)
    question = _text(last)
    if "pytest" in question:
        return Step(text="Got it. ", tool_calls=[("MemorySave", json.dumps(_SAVE))], chunk_size=8)
    if "pytest" in system:
        code = (
            "Since you write your tests with pytest, here is a parametrised one:\n\n"
            "```python\nimport pytest\n\nfrom myproject.text import slugify\n\n\n"
            '@pytest.mark.parametrize("raw, slug", [\n'
            '    ("Hello World", "hello-world"),\n'
            '    ("  many   spaces ", "many-spaces"),\n'
            '    ("Ünïcödé", "unicode"),\n'
            "])\ndef test_slugify(raw, slug):\n    assert slugify(raw) == slug\n```"
        )
        return Step(text=code, chunk_size=12)
    return Step(text="Here is a unittest-style test (I don't know your preferences yet).", chunk_size=12)


def run_demo(console: Console, *, keep: bool = False) -> int:
    """Play both sessions in a temporary palace and show what was remembered and archived; with keep, the
    palace stays for a look afterwards (its path is printed)."""
    tmp = tempfile.mkdtemp(prefix="palace-demo-")
    try:
        home = Path(tmp) / "palace"
        _play(console, home)
    finally:
        if not keep:
            shutil.rmtree(tmp, ignore_errors=True)
    console.print("")
    if keep:
        console.print(f"The demo palace is kept at {home}; look around with:", "bold")
        console.print(f"  PALACE_HOME={home} palace memory show")
        console.print(f"  PALACE_HOME={home} palace sessions list")
        console.print(f"  rm -r {tmp}   (when done)")
        console.print("")
    console.print("To use palace with a real model:", "bold")
    console.print("  OpenAI:     export OPENAI_API_KEY=sk-...  (optional: export PALACE_MODEL=gpt-4.1-mini)")
    console.print("  Ollama:     export OPENAI_BASE_URL=http://localhost:11434/v1 PALACE_MODEL=llama3.1")
    console.print("  vLLM:       export OPENAI_BASE_URL=http://localhost:8000/v1 PALACE_MODEL=<served model>")
    console.print("  llama.cpp:  export OPENAI_BASE_URL=http://localhost:8080/v1")
    console.print("then run `palace` (or `palace doctor` to check the connection).")
    return 0


def _play(console: Console, home: Path) -> None:
    """Both sessions against the scripted model, then memories.md and the first archive."""
    from palace.app import App
    from palace.ui.repl import Repl

    with ScriptedServer(responder=demo_responder) as server:
        settings = load_settings(
            {"home": home, "base_url": server.base_url, "api_key": "demo-no-key", "model": "palace-demo"},
            env={},
        )
        settings.git_autocommit = False
        settings.extract_min = 0  # even these short sessions get a summary
        console.print(f"palace demo — a scripted model at {server.base_url}, a temporary palace at {home}", "bold")
        session_ids: list[str] = []
        for number, lines in enumerate((SESSION_ONE, SESSION_TWO), start=1):
            console.print("")
            console.print(f"── Session {number} " + "─" * 50, "cyan")
            repl = Repl(App(settings, warn=console.warn), console, interactive=False)
            if repl.session.journal is not None:
                session_ids.append(repl.session.journal.id)
            repl.run(_echo(console, lines))
        console.print("")
        console.print("── memories.md after both sessions " + "─" * 30, "cyan")
        console.print(settings.memories_file.read_text(encoding="utf-8").rstrip())
        archive = settings.sessions_dir / f"{session_ids[0]}.md" if session_ids else None
        if archive is not None and archive.exists():
            console.print("")
            console.print(f"── the archive of session 1 ({archive.name}) " + "─" * 10, "cyan")
            console.print(archive.read_text(encoding="utf-8").rstrip())


def _echo(console: Console, lines: list[str]) -> Any:
    for line in lines:
        console.print(f"› {line}", "bold")
        yield line
