"""The REPL through its real inputs: piped stdin in a subprocess, prompt_toolkit pipe input, signals."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from palace.app import App
from palace.config import Settings
from palace.testing.server import ScriptedServer, Step
from palace.ui.console import Console
from palace.ui.repl import Repl

ESC = "\x1b"


def _env(home: Path, server: ScriptedServer | None, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "PALACE_"))}
    env["PALACE_HOME"] = str(home)
    if server is not None:
        env["OPENAI_BASE_URL"] = server.base_url
        env["OPENAI_API_KEY"] = "test-key"
    env.update(extra)
    return env


def _palace(
    args: list[str], env: dict[str, str], stdin: str = "", timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    # Not the palace's parent: `python -m` puts the cwd on sys.path, and a folder named palace would shadow us.
    cwd = Path(env["PALACE_HOME"]).parent / "cwd"
    cwd.mkdir(exist_ok=True)
    return subprocess.run(
        [sys.executable, "-m", "palace", *args],
        input=stdin,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
    )


def test_piped_chat_saves_prints_plain_text_and_archives(fake_server: ScriptedServer, palace_home: Path) -> None:
    fake_server.add(
        Step(
            text="Sure. ",
            tool_calls=[("MemorySave", json.dumps({"path": "Preferences/shell", "content": "Uses fish"}))],
        ),
        Step(text="Noted: fish it is.", chunk_size=3),
    )
    fake_server.responder = lambda body: Step(text=json.dumps({"summary": "Talked about shells.", "memories": []}))
    palace_home.mkdir()
    (palace_home / "config.toml").write_text("[extraction]\nmin_chars = 10\n")
    done = _palace(
        ["chat"],
        _env(palace_home, fake_server),
        "I use fish as my shell\n/remember Preferences/editor Uses neovim\n/usage\n/exit\n",
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert ESC not in out
    assert "✓ Saved to Preferences/shell: Uses fish" in out and "Noted: fish it is." in out
    assert "✓ Saved to Preferences/editor: Uses neovim" in out
    assert "Tokens this session" in out
    memories = (palace_home / "memories.md").read_text()
    assert "Uses fish" in memories and "Uses neovim" in memories
    archives = list((palace_home / "sessions").glob("*.md"))
    assert len(archives) == 1
    archive = archives[0].read_text()
    assert "Talked about shells." in archive
    assert "**Preferences/shell**: Uses fish (saved by the model)" in archive
    assert "**Preferences/editor**: Uses neovim" in archive


def test_chat_without_an_endpoint_starts_and_says_what_to_set(palace_home: Path) -> None:
    done = _palace(["chat"], _env(palace_home, None), "hello\n/remember Preferences/editor Uses helix\n/exit\n")
    assert done.returncode == 0, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and "OPENAI_API_KEY" in errors[0] and "OPENAI_BASE_URL" in errors[0]
    assert "Uses helix" in (palace_home / "memories.md").read_text()


def test_ctrl_c_mid_reply_stops_it_and_keeps_the_repl(fake_server: ScriptedServer, palace_home: Path) -> None:
    fake_server.add(Step(text="this reply takes far too long", delay=20), Step(text="second answer"))
    fake_server.responder = lambda body: Step(text=json.dumps({"summary": "s", "memories": []}))
    proc = subprocess.Popen(
        [sys.executable, "-m", "palace", "chat"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(palace_home, fake_server),
    )
    assert proc.stdin is not None
    proc.stdin.write("first question\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 20
    while not fake_server.requests and time.monotonic() < deadline:
        time.sleep(0.05)
    assert fake_server.requests, "the REPL never called the model"
    time.sleep(0.5)  # the client is now blocked reading the (delayed) response
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate("second question\n/exit\n", timeout=90)
    assert proc.returncode == 0, err
    assert "stopped" in out + err
    assert "second answer" in out


def test_sigterm_archives_the_session(fake_server: ScriptedServer, palace_home: Path) -> None:
    fake_server.add(Step(text="hello back"))
    fake_server.responder = lambda body: Step(text=json.dumps({"summary": "Greetings only.", "memories": []}))
    proc = subprocess.Popen(
        [sys.executable, "-m", "palace", "chat"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(palace_home, fake_server, PALACE_MODEL="gpt-4.1-mini"),
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("hello\n")
    proc.stdin.flush()
    assert "hello back" in proc.stdout.readline()
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=30)
    assert len(list((palace_home / "sessions").glob("*.md"))) == 1


def test_ask_runs_one_turn_and_archives(fake_server: ScriptedServer, palace_home: Path) -> None:
    fake_server.add(Step(text="42."))
    fake_server.responder = lambda body: Step(text=json.dumps({"summary": "One question.", "memories": []}))
    done = _palace(["ask", "What is six times seven?"], _env(palace_home, fake_server))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().startswith("42.")
    assert len(list((palace_home / "sessions").glob("*.md"))) == 1


def test_ask_reports_endpoint_errors_with_exit_1(palace_home: Path) -> None:
    env = _env(palace_home, None, OPENAI_BASE_URL="http://127.0.0.1:9/v1")
    done = _palace(["ask", "hi"], env)
    assert done.returncode == 1
    assert "Error:" in done.stderr and "127.0.0.1:9" in done.stderr


def test_demo_runs_to_the_end_offline(palace_home: Path) -> None:
    done = _palace(["demo"], _env(palace_home, None), timeout=120)
    assert done.returncode == 0, done.stderr
    assert "✓ Saved to Preferences/testing" in done.stdout
    assert "Since you write your tests with pytest" in done.stdout
    assert "## Memories Extracted" in done.stdout and "OPENAI_BASE_URL" in done.stdout


def _repl(settings: Settings, **kwargs: object) -> tuple[Repl, list[str]]:
    import io

    out = io.StringIO()
    console = Console(out, out, color=False)
    repl = Repl(App(settings, warn=console.warn), console, interactive=False, **kwargs)  # type: ignore[arg-type]
    return repl, [out]  # type: ignore[list-item]


def test_prompt_toolkit_session_reads_commands_and_ctrl_d_exits(
    fake_server: ScriptedServer, settings_for: Callable[..., Settings]
) -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    fake_server.responder = lambda body: Step(text=json.dumps({"summary": "s", "memories": []}))
    settings = settings_for(fake_server)
    import io

    out = io.StringIO()
    with create_pipe_input() as pipe:
        repl = Repl(
            App(settings, warn=(console := Console(out, out, color=False)).warn),
            console,
            interactive=True,
            pt_input=pipe,
            pt_output=DummyOutput(),
        )
        pipe.send_text("/remember Preferences/editor Uses neovim\r")
        pipe.send_text("\x03")  # Ctrl-C at the prompt: nothing happens, the REPL stays
        pipe.send_text("/mod\r")
        pipe.send_text("\x04")  # Ctrl-D leaves
        repl.run()
    text = out.getvalue()
    assert "✓ Saved to Preferences/editor: Uses neovim" in text
    assert "Model: gpt-4.1-mini" in text
    assert list(settings.sessions_dir.glob("*.md")), "the session was not archived on Ctrl-D"
    history = settings.home / "history.txt"
    assert "/remember Preferences/editor Uses neovim" in history.read_text()
    assert (history.stat().st_mode & 0o777) == 0o600


def test_slash_commands_explain_mistakes(fake_server: ScriptedServer, settings_for: Callable[..., Settings]) -> None:
    import io

    fake_server.responder = lambda body: Step(text=json.dumps({"summary": "s", "memories": []}))
    out = io.StringIO()
    repl = Repl(
        App(settings_for(fake_server), warn=(console := Console(out, out, color=False)).warn),
        console,
        interactive=False,
    )
    repl.run(
        [
            "/frobnicate",
            "/re",
            "/remember Prefernces/x Something",
            "/remember Preferences/x",
            "/forget Preferences/x Nothing",
            "/exit",
            "/help",
        ]
    )
    text = out.getvalue()
    assert "unknown command /frobnicate" in text
    assert "/re is ambiguous: /remember, /recall" in text
    assert 'did you mean "Preferences"' in text
    assert "usage: /remember PATH CONTENT" in text
    assert "nothing to forget" in text
    assert "Commands:" not in text  # nothing runs after /exit


def test_undo_reverts_the_last_change_and_refuses_after_a_hand_edit(
    fake_server: ScriptedServer, settings_for: Callable[..., Settings]
) -> None:
    import io

    fake_server.responder = lambda body: Step(text=json.dumps({"summary": "s", "memories": []}))
    settings = settings_for(fake_server)
    out = io.StringIO()
    repl = Repl(App(settings, warn=(console := Console(out, out, color=False)).warn), console, interactive=False)
    file = settings.memories_file
    repl.handle("/remember Preferences/editor Uses neovim")
    before = file.read_bytes()
    repl.handle("/remember Preferences/editor Uses helix too")
    repl.handle("/undo")
    assert file.read_bytes() == before
    repl.handle("/remember Preferences/shell Uses fish")
    file.write_text(file.read_text() + "\nA hand-written note.\n")
    repl.handle("/undo")
    assert "A hand-written note." in file.read_text() and "Uses fish" in file.read_text()
    assert "changed since" in out.getvalue()
    repl.run([])


@pytest.mark.parametrize("style", ["rename", "in-place", "sed"])
def test_the_repl_notices_hand_edits_from_each_editor_style(
    style: str, fake_server: ScriptedServer, settings_for: Callable[..., Settings]
) -> None:
    import io

    from palace.ui.watch import MemoryWatcher

    fake_server.responder = lambda body: Step(text=json.dumps({"summary": "s", "memories": []}))
    settings = settings_for(fake_server)
    out = io.StringIO()
    repl = Repl(App(settings, warn=(console := Console(out, out, color=False)).warn), console, interactive=False)
    repl.handle("/remember Preferences/editor Uses neovim")
    seen = threading.Event()
    original = repl.notify

    def notify(text: str) -> None:
        original(text)
        seen.set()

    repl.notify = notify  # type: ignore[method-assign]
    watcher = MemoryWatcher(settings.memories_file, repl._on_file_changed, debounce=0.1)
    assert watcher.start()
    try:
        time.sleep(0.2)
        assert not seen.is_set(), "palace's own write must not count as a hand edit"
        file = settings.memories_file
        if style == "rename":
            tmp = file.with_name(".memories.md.swp")
            tmp.write_text(file.read_text().replace("neovim", "helix"))
            os.replace(tmp, file)
        elif style == "in-place":
            with file.open("r+") as handle:
                text = handle.read().replace("neovim", "helix")
                handle.seek(0)
                handle.write(text)
                handle.truncate()
        else:
            subprocess.run(["sed", "-i", "s/neovim/helix/", str(file)], check=True)
        assert seen.wait(5), f"no notice for a {style} edit"
    finally:
        watcher.stop()
    repl.flush_notices()
    assert "memories.md changed on disk" in out.getvalue()
    assert repl.session.hand_edited()
    repl.run([])


def test_a_git_palace_records_each_change_and_the_archive(fake_server: ScriptedServer, palace_home: Path) -> None:
    env = _env(
        palace_home,
        fake_server,
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@t",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@t",
    )
    assert _palace(["init", "--git"], env).returncode == 0
    fake_server.add(
        Step(tool_calls=[("MemorySave", json.dumps({"path": "Preferences/shell", "content": "Uses fish"}))]),
        Step(text="Noted."),
    )
    fake_server.responder = lambda body: Step(
        text=json.dumps(
            {"summary": "Shell talk.", "memories": [{"path": "Preferences/editor", "content": "Uses helix"}]}
        )
    )
    (palace_home / "config.toml").write_text("[extraction]\nmin_chars = 1\n")
    done = _palace(["chat"], env, "I use fish\n/exit\n")
    assert done.returncode == 0, done.stderr
    log = subprocess.run(["git", "log", "--format=%s"], cwd=palace_home, capture_output=True, text=True).stdout
    subjects = log.splitlines()
    assert subjects[0].startswith("session: archive ")
    assert subjects[1].startswith("memory: extract 1 from session ")
    assert subjects[2] == "memory: save Preferences/shell"
    tracked = subprocess.run(["git", "ls-files"], cwd=palace_home, capture_output=True, text=True).stdout
    assert ".jsonl" not in tracked and "history.txt" not in tracked and ".md" in tracked


def test_resume_restores_the_conversation_under_the_same_id(fake_server: ScriptedServer, palace_home: Path) -> None:
    fake_server.responder = lambda body: Step(text=json.dumps({"summary": "s", "memories": []}))
    fake_server.add(Step(text="Your favourite colour is teal."), Step(text="You told me: teal."))
    env = _env(palace_home, fake_server)
    assert _palace(["chat"], env, "My favourite colour is teal\n/exit\n").returncode == 0
    first_id = next((palace_home / "sessions").glob("*.jsonl")).stem
    done = _palace(["chat", "--resume"], env, "What is my favourite colour?\n/exit\n")
    assert done.returncode == 0, done.stderr
    assert f"Resumed session {first_id}" in done.stdout
    chat_requests = [r for r in fake_server.requests if r.get("stream")]
    contents = [m.get("content") for m in chat_requests[-1]["messages"]]
    assert "My favourite colour is teal" in contents and "Your favourite colour is teal." in contents
    assert contents[0] == chat_requests[0]["messages"][0]["content"]  # a fresh, identical system prompt
    assert len(list((palace_home / "sessions").glob("*.jsonl"))) == 1


def test_the_model_recalls_an_earlier_session_through_the_tool(fake_server: ScriptedServer, palace_home: Path) -> None:
    fake_server.responder = lambda body: Step(text=json.dumps({"summary": "Chose the database.", "memories": []}))
    env = _env(palace_home, fake_server)
    fake_server.add(Step(text="PostgreSQL 16 it is, with the outbox pattern."))
    assert _palace(["chat"], env, "我们的数据库用 PostgreSQL 16, decided today\n/exit\n").returncode == 0
    first_id = next((palace_home / "sessions").glob("*.md")).stem
    fake_server.add(
        Step(tool_calls=[("MemoryRecall", json.dumps({"query": "数据库"}))]),
        Step(text="We chose PostgreSQL 16."),
    )
    done = _palace(["chat"], env, "Which database did we pick last time?\n/recall PostgreSQL\n/exit\n")
    assert done.returncode == 0, done.stderr
    tool_result = [m for m in fake_server.requests[-1]["messages"] if m["role"] == "tool"][-1]["content"]
    assert "PostgreSQL 16" in tool_result and len(tool_result.encode()) <= 2048
    assert "Which database did we pick" not in tool_result  # the live session is not recalled
    recall_output = done.stdout.split("Session archived:")[0]
    assert first_id in recall_output  # /recall printed the earlier session as a hit
