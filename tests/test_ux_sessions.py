"""Failed and empty runs are not archived; --resume picks among real sessions; transcripts can be re-read."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

from ux_helpers import PtyRun, env_for, make_repl, replying, run_palace, scripted

from palace.app import App
from palace.config import Settings
from palace.testing.server import ScriptedServer, Step
from palace.ui.console import Console
from palace.ui.repl import Repl


def _files(home: Path, pattern: str) -> list[Path]:
    return sorted((home / "sessions").glob(pattern))


def test_a_refused_connection_or_no_key_keeps_the_session_as_failed(palace_home: Path) -> None:
    refused = env_for(palace_home, OPENAI_BASE_URL="http://127.0.0.1:9/v1", OPENAI_API_KEY="k")
    done = run_palace(["chat"], refused, "hello\nare you there?\n/exit\n")
    assert done.returncode == 0 and "Error:" in done.stderr
    assert "Session kept as failed (no model answered; what you typed is in it): " in done.stdout
    done = run_palace(["chat"], env_for(palace_home), "hello\n/exit\n")  # no key, no endpoint
    assert done.returncode == 0 and "OPENAI_API_KEY" in done.stderr
    done = run_palace(["chat"], env_for(palace_home), "/help\n/usage\n/exit\n")  # only slash commands: nothing
    assert done.returncode == 0
    assert len(_files(palace_home, "*.jsonl")) == 2 and len(_files(palace_home, "*.md")) == 2
    journals = "".join(path.read_text() for path in _files(palace_home, "*.jsonl"))
    assert "are you there?" in journals  # what the user typed is kept
    listed = run_palace(["sessions", "list"], env_for(palace_home)).stdout.splitlines()
    assert len(listed) == 2 and all("(failed: no model answered)" in line for line in listed), listed


def test_a_session_with_a_reply_or_a_memory_change_is_kept(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for()
    repl, _ = make_repl(settings, scripted(Step(status=500, text="down")))
    repl.run(["hello", "/remember Preferences/editor Uses helix"])  # the model failed, but memory changed
    repl, _ = make_repl(settings, scripted(Step(text="Hi there.")))
    repl.run(["hello"])
    assert len(_files(settings.home, "*.md")) == 2


def _real_session(settings: Settings, first: str, turns: int) -> str:
    repl, _ = make_repl(settings, scripted(*[Step(text=f"answer {n}") for n in range(turns)]))
    repl.run([first, *[f"and {n}" for n in range(1, turns)]])
    assert repl.session.journal is not None
    return repl.session.journal.id


def test_resume_in_a_pipe_takes_the_latest_real_session_and_says_so(palace_home: Path) -> None:
    server = ScriptedServer(responder=replying("ok")).start()
    try:
        env = env_for(palace_home, server)
        assert run_palace(["chat"], env, "the real conversation\nsecond\nthird\n/exit\n").returncode == 0
        real = _files(palace_home, "*.md")[0].stem
        failed = env_for(palace_home, OPENAI_BASE_URL="http://127.0.0.1:9/v1", OPENAI_API_KEY="k")
        assert run_palace(["chat"], failed, "this one fails\n/exit\n").returncode == 0
        done = run_palace(["chat", "--resume"], env, "what did I say?\n/exit\n")
    finally:
        server.stop()
    assert done.returncode == 0, done.stderr
    assert f"Resuming the latest session {real} (" in done.stdout and "3 turns" in done.stdout
    assert f"Resumed session {real} (3 turns)." in done.stdout
    contents = [m.get("content") for m in server.requests[-2]["messages"]]
    assert "the real conversation" in contents and "this one fails" not in contents


def test_resume_on_a_terminal_offers_a_picker(settings_for: Callable[..., Settings]) -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    settings = settings_for()
    older = _real_session(settings, "Set up the Postgres database", 2)
    _real_session(settings, "Write the release notes", 1)
    make_repl(settings, scripted(Step(status=500)))[0].run(["a failed try"])
    out = io.StringIO()
    console = Console(out, out, color=False)
    with create_pipe_input() as pipe:
        pipe.send_text("7\r")  # out of range: refused, the number stays to be corrected
        pipe.send_text("\x7f2\r")
        pipe.send_text("\x04")
        repl = Repl(
            App(settings, warn=console.warn, client=scripted()),
            console,
            interactive=True,
            resume=True,
            pt_input=pipe,
            pt_output=DummyOutput(),
        )
        repl.run()
    text = out.getvalue()
    menu = text[text.index("Resume which session?") :].splitlines()[1:3]
    assert menu[0].startswith("   1  20") and menu[0].endswith('   1 turn  "Write the release notes"')
    assert menu[1].startswith("   2  20") and menu[1].endswith('  2 turns  "Set up the Postgres database"')
    assert "a failed try" not in text
    assert f"Resumed session {older} (2 turns)." in text


def test_cancelling_the_picker_starts_nothing(settings_for: Callable[..., Settings]) -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    settings = settings_for()
    _real_session(settings, "Something real", 1)
    before = sorted(p.name for p in settings.sessions_dir.iterdir())
    out = io.StringIO()
    console = Console(out, out, color=False)
    with create_pipe_input() as pipe:
        pipe.send_text("\x03")
        try:
            Repl(
                App(settings, warn=console.warn, client=scripted()),
                console,
                interactive=True,
                resume=True,
                pt_input=pipe,
                pt_output=DummyOutput(),
            )
        except KeyboardInterrupt:
            pass
        else:
            raise AssertionError("the picker did not stop")
    assert sorted(p.name for p in settings.sessions_dir.iterdir()) == before


SECRET = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def test_sessions_show_transcript_reads_back_the_conversation_redacted(
    settings_for: Callable[..., Settings], palace_home: Path
) -> None:
    settings = settings_for()
    model = scripted(
        Step(
            text="Saving that. ",
            tool_calls=[("MemorySave", json.dumps({"path": "Preferences/shell", "content": "Uses fish"}))],
        ),
        Step(text="Done: **fish** it is."),
    )
    repl, _ = make_repl(settings, model)
    repl.run([f"I use fish; my key is {SECRET}"])
    sid = _files(palace_home, "*.md")[0].stem
    shown = run_palace(["sessions", "show", sid[11:15], "--transcript"], env_for(palace_home))
    assert shown.returncode == 0, shown.stderr
    out = shown.stdout
    assert out.startswith(f"# Session {sid}\n")
    assert "**You**: I use fish; my key is" in out and SECRET not in out
    assert "**Assistant**: Saving that." in out and "→ MemorySave" in out and "← Saved to Preferences/shell" in out
    assert "**Assistant**: Done: **fish** it is." in out
    summary = run_palace(["sessions", "show", sid], env_for(palace_home)).stdout
    assert "## Summary" in summary and "**You**" not in summary


def test_a_long_transcript_is_paged_on_a_terminal_only(settings_for: Callable[..., Settings], tmp_path: Path) -> None:
    settings = settings_for()
    _real_session(settings, "a long talk", 30)
    sid = _files(settings.home, "*.md")[0].stem
    pager = tmp_path / "pager.sh"
    seen = tmp_path / "paged.txt"
    pager.write_text(f'#!/bin/sh\necho "args: $*" > {seen}\ncat >> {seen}\n')
    pager.chmod(0o755)
    env = env_for(settings.home, PAGER=f"{pager} --flag")
    piped = run_palace(["sessions", "show", sid, "--transcript"], env)
    assert "**You**: and 29" in piped.stdout and not seen.exists()  # a pipe: never a pager
    run = PtyRun(["sessions", "show", sid, "--transcript"], env, height=24)
    assert run.finish() == 0
    paged = seen.read_text()
    assert paged.startswith("args: --flag\n# Session ") and "**You**: and 29" in paged
    assert "**You**" not in run.text  # it went to the pager, not the terminal
    seen.unlink()
    short = PtyRun(["sessions", "show", sid], env, height=100)  # fits the screen: printed
    assert short.finish() == 0 and "## Summary" in short.text and not seen.exists()
