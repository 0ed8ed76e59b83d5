"""The REPL through its real inputs.

End to end (`python -m palace` over loopback HTTP): piped chat, Ctrl-C then SIGTERM, `palace ask`'s exit status,
the demo, a git palace, resume, recall through the tool. In this process: `palace chat` and `palace ask` via
cli.main, and the Repl itself with the scripted model (prompt_toolkit input, slash commands, undo, hand edits).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from ux_helpers import run_palace

from palace.app import App
from palace.config import Settings
from palace.testing.scripted import ScriptedModel
from palace.testing.server import ScriptedServer, Step
from palace.ui.console import Console
from palace.ui.repl import Repl

ESC = "\x1b"
Run = Callable[..., Any]  # conftest.run_cli: run(*args, stdin=, env=) -> CliRun


def _summary(body: dict[str, Any]) -> Step:
    """The extraction call at a session's end: a summary, nothing to remember."""
    return Step(text=json.dumps({"summary": "s", "memories": []}))


def _env(home: Path, server: ScriptedServer | None, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "PALACE_"))}
    env["PALACE_HOME"] = str(home)
    if server is not None:
        env["OPENAI_BASE_URL"] = server.base_url
        env["OPENAI_API_KEY"] = "test-key"
    env.update(extra)
    return env


def _cwd(env: dict[str, str]) -> Path:
    """Outside any git repository (the wing would come from it), and not the palace's parent: `python -m`
    puts the cwd on sys.path, and a folder named palace would shadow the package."""
    cwd = Path(env["PALACE_HOME"]).parent / "cwd"
    cwd.mkdir(exist_ok=True)
    return cwd


def _spawn(args: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    """`palace ARGS` running, with pipes to talk to it."""
    return subprocess.Popen(
        [sys.executable, "-m", "palace", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=_cwd(env),
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
    done = run_palace(
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


def test_chat_without_an_endpoint_starts_and_says_what_to_set(run_cli: Run, palace_home: Path) -> None:
    done = run_cli("chat", stdin="hello\n/remember Preferences/editor Uses helix\n/exit\n")
    assert done.returncode == 0, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and "OPENAI_API_KEY" in errors[0] and "OPENAI_BASE_URL" in errors[0]
    assert "Uses helix" in (palace_home / "memories.md").read_text()


def test_ctrl_c_mid_reply_keeps_the_repl_and_sigterm_later_archives(
    fake_server: ScriptedServer, palace_home: Path
) -> None:
    asked = threading.Event()

    def answer(body: dict[str, Any]) -> Step:
        if not body.get("stream"):
            return _summary(body)
        if not asked.is_set():  # the first question: the client waits for an answer that takes a minute
            asked.set()
            return Step(text="this reply takes far too long", delay=60)
        return Step(text="second answer")

    fake_server.responder = answer
    proc = _spawn(["chat"], _env(palace_home, fake_server))
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("first question\n")
    proc.stdin.flush()
    # The server has the whole request: the client has sent it and is waiting for the answer.
    assert asked.wait(60), "the REPL never called the model"
    # Every thread but the main one blocks Ctrl-C: the kernel gives the signal to a thread that takes it,
    # and only the main thread's blocked read is interrupted by it (any other would sit on it).
    assert _threads_taking_sigint(proc.pid) == [proc.pid]
    proc.send_signal(signal.SIGINT)
    proc.stdin.write("second question\n")
    proc.stdin.flush()
    shown = []
    for line in proc.stdout:  # until the second reply is on screen (or the process has ended)
        shown.append(line)
        if "second answer" in line:
            break
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    out = "".join(shown)
    assert "stopped" in out + err
    assert "second answer" in out and "far too long" not in out
    assert len(list((palace_home / "sessions").glob("*.md"))) == 1  # SIGTERM archived the session


def test_ask_runs_one_turn_and_archives(run_cli: Run, fake_server: ScriptedServer, palace_home: Path) -> None:
    fake_server.add(Step(text="42."))
    fake_server.responder = lambda body: Step(text=json.dumps({"summary": "One question.", "memories": []}))
    endpoint = {"OPENAI_BASE_URL": fake_server.base_url, "OPENAI_API_KEY": "test-key"}
    done = run_cli("ask", "What is six times seven?", env=endpoint)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().startswith("42.")
    assert len(list((palace_home / "sessions").glob("*.md"))) == 1


def test_ask_reports_endpoint_errors_with_exit_1(palace_home: Path) -> None:
    env = _env(palace_home, None, OPENAI_BASE_URL="http://127.0.0.1:9/v1")
    done = run_palace(["ask", "hi"], env)
    assert done.returncode == 1
    assert "Error:" in done.stderr and "127.0.0.1:9" in done.stderr


def test_demo_runs_to_the_end_offline(palace_home: Path) -> None:
    done = run_palace(["demo"], _env(palace_home, None), timeout=120)
    assert done.returncode == 0, done.stderr
    assert "✓ Saved to Preferences/testing" in done.stdout
    assert "Since you write your tests with pytest" in done.stdout
    assert "## Memories Extracted" in done.stdout and "OPENAI_BASE_URL" in done.stdout


def _repl(settings: Settings, model: ScriptedModel | None = None, **kwargs: Any) -> tuple[Repl, io.StringIO]:
    """A Repl on the scripted model (in this process), writing plain text to the returned buffer."""
    out = io.StringIO()
    console = Console(out, out, color=False)
    app = App(settings, warn=console.warn, client=model or ScriptedModel(responder=_summary))
    return Repl(app, console, **{"interactive": False, **kwargs}), out


def test_prompt_toolkit_session_reads_commands_and_ctrl_d_exits(settings_for: Callable[..., Settings]) -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    settings = settings_for()
    with create_pipe_input() as pipe:
        repl, out = _repl(settings, interactive=True, pt_input=pipe, pt_output=DummyOutput())
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


def test_slash_commands_explain_mistakes(settings_for: Callable[..., Settings]) -> None:
    repl, out = _repl(settings_for())
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
    assert "/re is ambiguous: /remember, /review, /recall" in text
    assert 'did you mean "Preferences"' in text
    assert "usage: /remember PATH CONTENT" in text
    assert "nothing to forget" in text
    assert "Commands:" not in text  # nothing runs after /exit


def test_undo_reverts_the_last_change_and_refuses_after_a_hand_edit(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for()
    repl, out = _repl(settings)
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


def test_a_turn_in_process_saves_streams_and_archives(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for(extract_min=10)
    model = ScriptedModel(
        [
            Step(
                text="Sure. ", tool_calls=[("MemorySave", json.dumps({"path": "Preferences/shell", "content": "Fish"}))]
            ),
            Step(text="Noted: fish it is.", chunk_size=3),
        ],
        responder=lambda body: Step(text=json.dumps({"summary": "Talked about shells.", "memories": []})),
    )
    repl, out = _repl(settings, model)
    repl.run(["I use fish as my shell", "/usage", "/exit"])
    text = out.getvalue()
    assert "Sure. " in text and "✓ Saved to Preferences/shell: Fish" in text and "Noted: fish it is." in text
    assert "Tokens this session" in text
    assert model.requests[1]["messages"][-1]["role"] == "tool"  # the tool's answer went back to the model
    (archive,) = settings.sessions_dir.glob("*.md")
    assert "Talked about shells." in archive.read_text()
    assert "**Preferences/shell**: Fish (saved by the model)" in archive.read_text()


@pytest.mark.parametrize("style", ["rename", "in-place", "sed"])
def test_the_repl_notices_hand_edits_from_each_editor_style(style: str, settings_for: Callable[..., Settings]) -> None:
    from palace.ui.watch import MemoryWatcher

    settings = settings_for()
    repl, out = _repl(settings)
    noticed = threading.Event()  # the REPL told the user
    original = repl.notify

    def notify(text: str) -> None:
        original(text)
        noticed.set()

    repl.notify = notify  # type: ignore[method-assign]
    looked = threading.Event()  # the watcher saw memories.md change and the REPL looked at it

    def on_change() -> None:
        repl._on_file_changed()
        looked.set()

    watcher = MemoryWatcher(settings.memories_file, on_change, debounce=0.1)
    assert watcher.start()
    try:
        repl.handle("/remember Preferences/editor Uses neovim")
        assert looked.wait(30), "the watcher never saw palace's own write"
        assert not noticed.is_set(), "palace's own write must not count as a hand edit"
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
        assert noticed.wait(30), f"no notice for a {style} edit"
    finally:
        watcher.stop()
    repl.flush_notices()
    assert "memories.md changed on disk" in out.getvalue()
    assert repl.session.hand_edited()
    repl.run([])


def test_a_git_palace_records_each_change_and_the_archive(
    run_cli: Run, fake_server: ScriptedServer, palace_home: Path
) -> None:
    identity = {
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }
    env = _env(palace_home, fake_server, **identity)
    assert run_cli("init", "--git", env=identity).returncode == 0
    fake_server.add(
        Step(tool_calls=[("MemorySave", json.dumps({"path": "Preferences/shell", "content": "Uses fish"}))]),
        Step(text="Noted."),
    )
    fake_server.responder = lambda body: Step(
        text=json.dumps(
            {
                "summary": "Shell talk.",
                "memories": [{"path": "Preferences/editor", "content": "Uses helix", "confidence": "high"}],
            }
        )
    )
    (palace_home / "config.toml").write_text("[extraction]\nmin_chars = 1\n")
    done = run_palace(["chat"], env, "I use fish\n/exit\n")
    assert done.returncode == 0, done.stderr
    log = subprocess.run(["git", "log", "--format=%s"], cwd=palace_home, capture_output=True, text=True).stdout
    subjects = log.splitlines()
    assert subjects[0].startswith("session: archive ")
    assert subjects[1].startswith("memory: extract 1 from session ")
    assert subjects[2] == "memory: save Preferences/shell"
    tracked = subprocess.run(["git", "ls-files"], cwd=palace_home, capture_output=True, text=True).stdout
    assert ".jsonl" not in tracked and "history.txt" not in tracked and ".md" in tracked


def test_resume_restores_the_conversation_under_the_same_id(
    run_cli: Run, fake_server: ScriptedServer, palace_home: Path
) -> None:
    fake_server.responder = _summary
    fake_server.add(Step(text="Your favourite colour is teal."), Step(text="You told me: teal."))
    env = _env(palace_home, fake_server)
    endpoint = {"OPENAI_BASE_URL": fake_server.base_url, "OPENAI_API_KEY": "test-key"}
    assert run_cli("chat", stdin="My favourite colour is teal\n/exit\n", env=endpoint).returncode == 0
    first_id = next((palace_home / "sessions").glob("*.jsonl")).stem
    done = run_palace(["chat", "--resume"], env, "What is my favourite colour?\n/exit\n")
    assert done.returncode == 0, done.stderr
    assert f"Resumed session {first_id}" in done.stdout
    chat_requests = [r for r in fake_server.requests if r.get("stream")]
    contents = [m.get("content") for m in chat_requests[-1]["messages"]]
    assert "My favourite colour is teal" in contents and "Your favourite colour is teal." in contents
    assert contents[0] == chat_requests[0]["messages"][0]["content"]  # a fresh, identical system prompt
    assert len(list((palace_home / "sessions").glob("*.jsonl"))) == 1


def test_the_model_recalls_an_earlier_session_through_the_tool(
    run_cli: Run, fake_server: ScriptedServer, palace_home: Path
) -> None:
    fake_server.responder = lambda body: Step(text=json.dumps({"summary": "Chose the database.", "memories": []}))
    env = _env(palace_home, fake_server)
    endpoint = {"OPENAI_BASE_URL": fake_server.base_url, "OPENAI_API_KEY": "test-key"}
    fake_server.add(Step(text="PostgreSQL 16 it is, with the outbox pattern."))
    first = run_cli("chat", stdin="我们的数据库用 PostgreSQL 16, decided today\n/exit\n", env=endpoint)
    assert first.returncode == 0, first.stderr
    first_id = next((palace_home / "sessions").glob("*.md")).stem
    fake_server.add(
        Step(tool_calls=[("MemoryRecall", json.dumps({"query": "数据库"}))]),
        Step(text="We chose PostgreSQL 16."),
    )
    done = run_palace(["chat"], env, "Which database did we pick last time?\n/recall PostgreSQL\n/exit\n")
    assert done.returncode == 0, done.stderr
    tool_result = [m for m in fake_server.requests[-1]["messages"] if m["role"] == "tool"][-1]["content"]
    assert "PostgreSQL 16" in tool_result and len(tool_result.encode()) <= 2048
    assert "Which database did we pick" not in tool_result  # the live session is not recalled
    recall_output = done.stdout.split("Session archived:")[0]
    assert first_id in recall_output  # /recall printed the earlier session as a hit


def _threads_taking_sigint(pid: int) -> list[int]:
    """The threads of process pid that do not block SIGINT (from /proc: Linux)."""
    taking = []
    for tid in sorted(int(t) for t in os.listdir(f"/proc/{pid}/task")):
        with contextlib.suppress(FileNotFoundError):  # a thread that ended meanwhile
            status = Path(f"/proc/{pid}/task/{tid}/status").read_text()
            blocked = int(next(line.split()[1] for line in status.splitlines() if line.startswith("SigBlk")), 16)
            if not blocked & (1 << (signal.SIGINT - 1)):
                taking.append(tid)
    return taking


def test_background_threads_leave_ctrl_c_to_the_main_thread() -> None:
    # A Ctrl-C the kernel gave to a spinner or committer thread would wait until the main thread's streamed
    # read returned (Python runs handlers in the main thread only): palace's threads must block it.
    from palace.threads import start_thread

    masks: list[set[signal.Signals]] = []
    thread = start_thread(lambda: masks.append(signal.pthread_sigmask(signal.SIG_BLOCK, [])), name="probe")
    thread.join(30)
    assert masks and {signal.SIGINT, signal.SIGTERM, signal.SIGHUP} <= masks[0]
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])  # the main thread still takes it
