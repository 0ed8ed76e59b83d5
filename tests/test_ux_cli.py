"""The command line as scripts and new users meet it: ask with pipes and --json, `palace "question"`,
did-you-mean, shell completion, doctor's notes, quiet broken pipes, demo --keep, and small REPL commands."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from ux_helpers import REPO, PtyRun, env_for, make_repl, replying, run_palace, scripted

from palace.config import Settings
from palace.testing.scripted import ScriptedModel
from palace.testing.server import ScriptedServer, Step
from palace.ui.editor import choose_editor

# ---------------------------------------------------------------------- palace ask


def test_ask_reads_piped_stdin_and_keeps_stdout_for_the_answer(fake_server: ScriptedServer, palace_home: Path) -> None:
    fake_server.responder = replying("Looks fine; rename `x`.")
    diff = "--- a/app.py\n+++ b/app.py\n+x = 1\n"
    done = run_palace(["ask", "review", "this"], env_for(palace_home, fake_server), diff)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Looks fine; rename `x`.\n"  # what $(palace ask ...) captures: the answer only
    assert "Session archived:" in done.stderr
    sent = next(r for r in fake_server.requests if r.get("stream"))["messages"][-1]["content"]
    assert sent == "review this\n\n" + diff.rstrip("\n")


def test_ask_json_for_scripts(fake_server: ScriptedServer, palace_home: Path) -> None:
    fake_server.add(
        Step(
            text="Noted. ", tool_calls=[("MemorySave", json.dumps({"path": "Preferences/vcs", "content": "Uses jj"}))]
        ),
        Step(text="You use jj.", usage=(30, 7)),
    )
    fake_server.responder = replying("unused")
    done = run_palace(["ask", "--json", "I use jj for version control"], env_for(palace_home, fake_server), None)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    sid = next((palace_home / "sessions").glob("*.md")).stem
    assert report["answer"] == "Noted. You use jj."
    assert report["session"] == sid and report["archive"].endswith(f"{sid}.md")
    assert report["tokens"] == {"input": 40, "output": 12, "total": 52}
    assert report["cost_usd"] == pytest.approx((40 * 0.40 + 12 * 1.60) / 1e6)
    assert report["memory_changes"] == [
        {"action": "saved", "path": "Preferences/vcs", "content": "Uses jj", "by": "model"}
    ]
    assert report["error"] is None


def test_ask_json_reports_a_failure_with_exit_1(palace_home: Path) -> None:
    env = env_for(palace_home, OPENAI_BASE_URL="http://127.0.0.1:9/v1", OPENAI_API_KEY="k")
    done = run_palace(["ask", "--json", "hi"], env, None)
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert "127.0.0.1:9" in report["error"] and report["answer"] == ""
    assert report["session"] is not None and report["archive"] is not None  # the question is kept, as failed
    assert "(failed: no model answered)" in Path(report["archive"]).read_text()


def test_ask_needs_something_to_ask(palace_home: Path) -> None:
    done = run_palace(["ask"], env_for(palace_home), None)
    assert done.returncode == 1 and 'palace ask "QUESTION"' in done.stderr


def test_a_question_is_ask_and_no_words_is_chat(fake_server: ScriptedServer, palace_home: Path) -> None:
    fake_server.responder = replying("Forty-two.")
    env = env_for(palace_home, fake_server)
    question = run_palace(["what is six times seven?"], env, None)
    assert question.returncode == 0, question.stderr
    assert question.stdout == "Forty-two.\n"
    words = run_palace(["--model", "palace-demo", "why", "is", "the", "sky", "blue"], env, None)
    assert words.returncode == 0 and words.stdout == "Forty-two.\n"
    asked = [r for r in fake_server.requests if r.get("stream")]
    assert asked[-1]["model"] == "palace-demo" and asked[-1]["messages"][-1]["content"] == "why is the sky blue"
    chat = run_palace([], env, "/model\n/exit\n")
    assert chat.returncode == 0 and "Model: gpt-4.1-mini" in chat.stdout
    flags = run_palace(["--model", "palace-demo"], env, "/exit\n")
    assert flags.returncode == 0 and "Error" not in flags.stderr


@pytest.mark.parametrize(
    ("args", "hint"),
    [
        (["memroy"], "did you mean `memory`?"),
        (["sesions", "list"], "did you mean `sessions`?"),
        (["memory", "shwo"], "did you mean `show`?"),
        (["sessions", "lsit"], "did you mean `list`?"),
    ],
)
def test_a_mistyped_command_gets_a_did_you_mean(palace_home: Path, args: list[str], hint: str) -> None:
    done = run_palace(args, env_for(palace_home), None)
    assert done.returncode == 2 and hint in done.stderr and done.stdout == ""


# ---------------------------------------------------------------------- doctor


def test_doctor_accepts_ollama_names_and_says_where_config_is(tmp_path: Path) -> None:
    home = tmp_path / "palace"
    server = ScriptedServer(models=["llama3.1:latest", "qwen2.5-coder:7b"]).start()
    try:
        env = env_for(home, server, PALACE_MODEL="llama3.1")
        done = run_palace(["doctor"], env, None)
    finally:
        server.stop()
    assert done.returncode == 0, done.stdout
    assert "✓ model llama3.1 is listed" in done.stdout
    assert f"config file {home / 'config.toml'} (not present" in done.stdout


def test_doctor_after_the_readme_copy_recipe_is_a_yellow_note(tmp_path: Path, fake_server: ScriptedServer) -> None:
    home = tmp_path / "example"
    subprocess.run(["cp", "-r", str(REPO / "sessions_example"), str(home)], check=True)
    home.chmod(0o755)
    run = PtyRun(["doctor"], env_for(home, fake_server))
    assert run.finish() == 0, run.text
    line = next(line for line in run.text.splitlines() if "mode 755" in line)
    assert "\x1b[33m" in line and "palace makes it 700 at its next write" in line and "✗" not in line


# ---------------------------------------------------------------------- shell completion


def _bash_complete(script: str, words: list[str]) -> list[str]:
    line = " ".join(f"'{w}'" for w in words)
    program = (
        f"{script}\nCOMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; _palace_complete; "
        'printf "%s\\n" "${COMPREPLY[@]}"'
    )
    done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, check=True)
    return [w for w in done.stdout.splitlines() if w]


def test_bash_completion_completes_commands_actions_and_options(palace_home: Path) -> None:
    script = run_palace(["completion", "bash"], env_for(palace_home), None).stdout
    assert "complete -o default -F _palace_complete palace" in script
    assert _bash_complete(script, ["palace", "me"]) == ["memory"]
    assert _bash_complete(script, ["palace", "memory", "s"]) == ["show", "save", "scrub"]
    assert _bash_complete(script, ["palace", "sessions", "show", "--t"]) == ["--transcript"]
    assert _bash_complete(script, ["palace", "memory", "show", "--"]) == [
        "--help",
        "--wing",
        "--raw",
        "--stats",
        "--expiring",
    ]
    assert _bash_complete(script, ["palace", "completion", ""]) == ["bash", "zsh", "fish"]
    assert _bash_complete(script, ["palace", "memory", "lint", ""]) == []  # files: bash's default
    assert _bash_complete(script, ["palace", "--model", "x", "ch"]) == ["chat"]


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_scripts_cover_every_command(shell: str, palace_home: Path) -> None:
    script = run_palace(["completion", shell], env_for(palace_home), None).stdout
    for word in ("chat", "ask", "memory", "sessions", "doctor", "completion", "transcript", "lint"):
        assert word in script
    if shutil.which(shell) is None:
        return  # the script's text is all that can be checked here; with the shell, it is also parsed
    check = ["zsh", "-n", "-c", script] if shell == "zsh" else ["fish", "--no-execute", "-c", script]
    subprocess.run(check, check=True)


# ---------------------------------------------------------------------- broken pipes and the demo


def test_a_closed_pipe_ends_quietly(palace_home: Path) -> None:
    sessions = palace_home / "sessions"
    sessions.mkdir(parents=True)
    for n in range(1500):  # more than a pipe holds, so the writer meets the closed end
        day = f"2026-01-{n % 28 + 1:02d}"
        (sessions / f"{day}-{n:08x}.md").write_text(f"# Session\n\n- Turns: 2\n\n## Summary\nTalk {n}\n")
    shell = f"{sys.executable} -m palace sessions list 2>{palace_home.parent / 'err'} | head -1"
    cwd = palace_home.parent / "cwd"  # not the palace's parent: `python -m palace` would import that folder
    cwd.mkdir()
    done = subprocess.run(["bash", "-c", shell], env=env_for(palace_home), capture_output=True, text=True, cwd=cwd)
    assert done.stdout.count("\n") == 1 and "Talk" in done.stdout
    assert (palace_home.parent / "err").read_text() == ""


def test_an_answer_piped_to_head_is_cut_without_a_traceback(fake_server: ScriptedServer, palace_home: Path) -> None:
    fake_server.responder = replying("word " * 40_000, chunk_size=4000)
    shell = f"{sys.executable} -m palace ask 'say a lot' 2>{palace_home.parent / 'err'} </dev/null | head -c 20"
    cwd = palace_home.parent / "cwd"
    cwd.mkdir()
    env = env_for(palace_home, fake_server)
    done = subprocess.run(["bash", "-c", shell], env=env, capture_output=True, text=True, cwd=cwd)
    assert done.stdout == "word " * 4
    err = (palace_home.parent / "err").read_text()
    assert "Traceback" not in err and "Broken" not in err and "Session archived" in err


def test_demo_keep_leaves_the_palace_and_says_where(palace_home: Path) -> None:
    done = run_palace(["demo", "--keep"], env_for(palace_home), None, timeout=120)
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stdout.splitlines() if line.startswith("The demo palace is kept at "))
    kept = Path(line.removeprefix("The demo palace is kept at ").split(";")[0])
    try:
        assert "pytest" in (kept / "memories.md").read_text()
        assert list((kept / "sessions").glob("*.md"))
        assert f"PALACE_HOME={kept} palace memory show" in done.stdout
    finally:
        shutil.rmtree(kept.parent)
    plain = run_palace(["demo"], env_for(palace_home), None, timeout=120)
    assert "kept at" not in plain.stdout


# ---------------------------------------------------------------------- small REPL commands


def test_quit_and_clear(settings_for: Callable[..., Settings]) -> None:
    repl, out = make_repl(settings_for(), color=True)
    repl.run(["/clear", "/quit", "/help"])
    text = out.getvalue()
    assert "\x1b[2J" in text and "Commands:" not in text
    plain, plain_out = make_repl(settings_for())
    plain.run(["/clear", "/exit"])
    assert "\x1b" not in plain_out.getvalue()


def test_model_lists_the_endpoints_models_and_marks_the_current_one(settings_for: Callable[..., Settings]) -> None:
    model = ScriptedModel(models=["llama3.1:latest", "qwen2.5-coder:7b"])
    repl, out = make_repl(settings_for(model="llama3.1"), model)
    repl.run(["/model", "/model qwen2.5-coder:7b", "/model"])
    lines = out.getvalue().splitlines()
    first = lines.index("The endpoint's models (2); /model NAME switches:")
    assert lines[first + 1 : first + 3] == ["  * llama3.1:latest  (current)", "    qwen2.5-coder:7b"]
    last = len(lines) - 1 - lines[::-1].index("The endpoint's models (2); /model NAME switches:")
    assert lines[last + 1 : last + 3] == ["    llama3.1:latest", "  * qwen2.5-coder:7b  (current)"]


def test_model_without_an_endpoint_says_why_it_cannot_list(palace_home: Path) -> None:
    done = run_palace(["chat"], env_for(palace_home), "/model\n/exit\n")
    assert "Model: gpt-4.1-mini at the OpenAI API" in done.stdout
    assert "cannot list the endpoint's models" in done.stdout and "OPENAI_API_KEY" in done.stdout


def test_the_editor_used_and_why(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("nano", "hx"):
        (bin_dir / name).write_text("#!/bin/sh\n")
        (bin_dir / name).chmod(0o755)
    path = str(bin_dir)
    assert choose_editor({"PATH": path, "EDITOR": "hx"}).why == "from $EDITOR"
    empty = choose_editor({"PATH": path, "EDITOR": "", "VISUAL": ""})
    assert empty.argv == [str(bin_dir / "nano")] and empty.why.startswith("$VISUAL is empty; $EDITOR is empty")
    missing = choose_editor({"PATH": path, "EDITOR": "vim"})
    assert missing.why == "$EDITOR (vim) is not found; $VISUAL is not set; set EDITOR to choose"
    unset = choose_editor({"PATH": path})
    assert unset.why == "$VISUAL and $EDITOR are not set; set EDITOR to choose"


def test_memory_edit_says_which_editor(tmp_path: Path) -> None:
    home = tmp_path / "palace"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "nano").write_text("#!/bin/sh\nexit 0\n")
    (bin_dir / "nano").chmod(0o755)
    env = env_for(home, EDITOR="", PATH=f"{bin_dir}:/usr/bin:/bin")
    done = run_palace(["memory", "edit"], env, None)
    assert done.returncode == 0, done.stderr
    assert f"Editing {home / 'memories.md'} with nano ($EDITOR is empty; $VISUAL is not set" in done.stdout


def test_a_forget_is_not_shown_as_a_failure(palace_home: Path) -> None:
    env = env_for(palace_home)
    run_palace(["memory", "save", "Preferences/editor", "Uses vim"], env, None)
    done = run_palace(["memory", "forget", "Preferences/editor", "Uses vim"], env, None)
    assert done.stdout == "− Forgot from Preferences/editor: Uses vim\n"


def test_one_hand_edit_is_told_once(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for()
    model = scripted(Step(text="First."), Step(text="Second."))
    repl, out = make_repl(settings, model)
    file = settings.memories_file

    def lines() -> Iterator[str]:
        yield "/remember Preferences/editor Uses vim"
        yield "hello"
        file.write_text(file.read_text().replace("Uses vim", "Uses helix"))
        deadline = time.monotonic() + 30
        while not repl._notices and time.monotonic() < deadline:  # the watcher's notice, whenever it comes
            time.sleep(0.02)
        yield "and now?"

    repl.run(lines())
    text = out.getvalue()
    assert text.count("memories.md") == 1, text
    assert "! memories.md changed on disk; the next turn uses the new version" in text
    turns = [r for r in model.requests if r.get("stream")]
    assert "Uses helix" in turns[-1]["messages"][0]["content"]  # that turn had the new version


def test_usage_screen_text(settings_for: Callable[..., Settings]) -> None:
    repl, out = make_repl(settings_for(), scripted(Step(text="Hi.", usage=(1_000, 200))))
    repl.run(["hello", "/usage"])
    screen = out.getvalue().split("Hi.\n", 1)[1].splitlines()[:3]
    assert screen == [
        "Tokens this session: input 1,000, output 200, total 1,200",
        "Cost: $0.0007",
        "  gpt-4.1-mini: $0.40 in / $1.60 out per million tokens, from palace's price table",
    ]
