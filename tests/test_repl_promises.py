"""What the REPL promises a new user in their first week, through the real REPL (piped input, scripted model).

The context card's ids and /bring's completion, /new starting the count again, --resume showing where the
conversation was and keeping to palace's own sessions, one line per recall and working-context call, /model
checking the name, crashed sessions extracted in the background, extraction's own timeout, and a session whose
every request failed kept with what the user typed.
"""

from __future__ import annotations

import io
import json
import re
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from extraction_env import Gate, answer
from ux_helpers import make_repl, scripted

from palace.app import App
from palace.config import Settings, load_settings
from palace.errors import ConfigError, LLMServerError
from palace.sessions.catalog import list_sessions
from palace.sessions.importer import parse_transcript, write_sessions
from palace.sessions.journal import Journal
from palace.testing.scripted import ScriptedModel
from palace.testing.server import Step
from palace.ui.console import Console
from palace.ui.repl import Repl

DIM = "\x1b[2m"


def _summary(name: str) -> Step:
    return Step(text=json.dumps({"summary": f"Worked on {name}. More.", "memories": []}))


def _responder(name: str, reply: str = "ok") -> Callable[[dict[str, Any]], Step]:
    """Chat turns get `reply`; extraction gets a summary naming the session."""

    def respond(body: dict[str, Any]) -> Step:
        return Step(text=reply) if body.get("stream") else _summary(name)

    return respond


def _session(settings: Settings, name: str, lines: list[str], wings: list[str] | None = None, reply: str = "ok") -> str:
    """A finished session of palace's own (archived); its id."""
    repl, _ = make_repl(settings, ScriptedModel(responder=_responder(name, reply)), wings=wings or [])
    repl.run(lines)
    assert repl.session.journal is not None and repl.archive is not None
    return repl.session.journal.id


LONG = "a sentence long enough to be worth extracting, about the ifai build and its tests. " * 4


# ---------------------------------------------------------------------- 2: the card's ids, /bring and its Tab


def test_the_card_shows_ids_that_bring_takes_and_tab_completes(settings_for: Callable[..., Settings]) -> None:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from palace.ui.completion import completer

    settings = settings_for()
    first = _session(settings, "the parser", [LONG], wings=["ifai"])
    second = _session(settings, "the release", [LONG], wings=["ifai"])
    repl, out = make_repl(settings, ScriptedModel(responder=_responder("now")), wings=["ifai"])
    shown = out.getvalue()
    card = shown[shown.index("Recent sessions in ifai:") :].splitlines()
    short = {sid: sid[11:] for sid in (first, second)}
    assert any(line.startswith(f"  {short[first]}  {first[:10]}  Worked on the parser") for line in card), card
    assert any(line.startswith(f"  {short[second]}  {second[:10]}  Worked on the release") for line in card), card
    assert "/bring ID, e.g. /bring " in shown

    tab = completer(repl.store, home=settings.home, current=repl._session_id)
    offered = {c.text: c.display_meta_text for c in tab.get_completions(Document("/bring "), CompleteEvent())}
    assert set(offered) == set(short.values())  # both earlier sessions; not the one running
    assert "Worked on the parser" in offered[short[first]]
    narrowed = [c.text for c in tab.get_completions(Document(f"/br {short[first][:5]}"), CompleteEvent())]
    assert narrowed == [short[first]]

    repl.run([f"/bring {short[first]}"])
    assert "Context from an earlier session" in out.getvalue() and "Worked on the parser" in out.getvalue()


# ---------------------------------------------------------------------- 3: /new counts again


def test_new_starts_the_usage_and_the_toolbar_from_nothing(settings_for: Callable[..., Settings]) -> None:
    model = scripted(Step(text="Hi.", usage=(12_000, 3_000)), Step(text="Again.", usage=(100, 20)))
    repl, out = make_repl(settings_for(), model)
    repl.run(["hello", "/usage", "/new", "/usage", "more"])
    usage = [line for line in out.getvalue().splitlines() if line.startswith("Tokens this session")]
    assert usage == [
        "Tokens this session: input 12,000, output 3,000, total 15,000",
        "Tokens this session: input 0, output 0, total 0",
    ]
    assert " · tokens 120 · " in repl._toolbar()  # the second session's one turn only
    assert repl.meter.totals() == (100, 20)


# ---------------------------------------------------------------------- 4: --resume


def test_resume_shows_the_last_exchanges_dimmed_and_clipped(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for()
    long_reply = "\n".join(f"reply line {n}" for n in range(1, 10))
    model = ScriptedModel(
        [Step(text=f"answer {n}") for n in range(1, 5)] + [Step(text=long_reply)], responder=_responder("x")
    )
    repl, _ = make_repl(settings, model)
    repl.run([f"question {n}" for n in range(1, 6)])
    assert repl.session.journal is not None
    sid = repl.session.journal.id
    out = io.StringIO()
    resumed = Repl(App(settings, warn=lambda _: None, client=scripted()), Console(out, out, color=True), resume=sid)
    resumed.run([])
    lines = out.getvalue().splitlines()
    start = next(n for n, line in enumerate(lines) if f"Resumed session {sid} (5 turns)." in line)
    shown = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in lines[start : start + 11]]
    assert shown[1:] == [
        f"… 2 earlier exchanges (palace sessions show {sid[11:]} --transcript)",
        "› question 3",
        "  answer 3",
        "› question 4",
        "  answer 4",
        "› question 5",
        "  reply line 1",
        "  reply line 2",
        "  reply line 3",
        "  reply line 4  … (5 more lines)",
    ]
    assert all(line.startswith(DIM) for line in lines[start : start + 11])  # dimmed: the past, not the present
    assert "question 2" not in "\n".join(shown)


def _import_transcript(settings: Settings) -> str:
    """A conversation held elsewhere, imported as a session dated a minute from now (newer than any earlier one)."""
    text = '{"role": "user", "content": "imported question"}\n{"role": "assistant", "content": "imported answer"}\n'
    when = datetime.now().astimezone() + timedelta(minutes=1)
    (written,) = write_sessions(settings.home, parse_transcript(text, when), origin="notes.jsonl")
    return written.id


def test_resume_unasked_takes_palaces_own_session_and_the_picker_marks_imported_ones(
    settings_for: Callable[..., Settings],
) -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    settings = settings_for()
    own = _session(settings, "own", ["my own question"])
    imported = _import_transcript(settings)
    repl, out = make_repl(settings, scripted(Step(text="on we go")), resume=True)
    repl.run(["next"])
    assert f"Resuming the latest session {own} (" in out.getvalue()
    assert f"Resumed session {own} (1 turn)." in out.getvalue()
    assert "on we go" not in (settings.sessions_dir / f"{imported}.jsonl").read_text()  # left as it was

    shown = io.StringIO()
    with create_pipe_input() as pipe:
        pipe.send_text("\r\x04")  # Enter takes the default: palace's own, not the imported one listed first
        picked = Repl(
            App(settings, warn=lambda _: None, client=scripted()),
            Console(shown, shown, color=False),
            interactive=True,
            resume=True,
            pt_input=pipe,
            pt_output=DummyOutput(),
        )
        picked.run()
    text = shown.getvalue()
    menu = text[text.index("Resume which session?") :].splitlines()[1:3]
    assert menu[0].startswith("   1  ") and '1 turn  [imported from notes.jsonl] "imported' in menu[0]
    assert menu[1].startswith("   2  ") and "[imported" not in menu[1]
    assert f"Resumed session {own} (" in text  # (the prompt, "Enter for 2", went to the terminal)

    by_id, out = make_repl(settings, scripted(), resume=imported[11:])  # named: an imported one is resumed too
    by_id.run([])
    assert f"Resumed session {imported} (1 turn), imported from notes.jsonl." in out.getvalue()


def test_a_claude_code_session_is_dated_by_its_messages_and_marked_imported(
    run_cli: Callable[..., Any], palace_home: Path, tmp_path: Path
) -> None:
    palace_home.mkdir()
    (palace_home / "config.toml").write_text("[extraction]\nenabled = false\n")
    transcript = tmp_path / "claude.jsonl"
    records = [
        {"type": "user", "uuid": "u1", "timestamp": "2025-03-04T09:15:00.123Z", "message": {"content": "Set up CI"}},
        {"type": "assistant", "uuid": "a1", "timestamp": "2025-03-04T09:16:00Z", "message": {"content": "Done."}},
    ]
    transcript.write_text("".join(json.dumps(r) + "\n" for r in records))
    hook = {"session_id": "abc-123", "transcript_path": str(transcript), "cwd": str(tmp_path)}
    done = run_cli("hook", "session-end", stdin=json.dumps(hook))
    assert done.returncode == 0 and "imported 2 messages" in done.stderr, done.stderr
    (path,) = (palace_home / "sessions").glob("*.jsonl")
    header = json.loads(path.read_text().splitlines()[0])
    began = datetime.fromisoformat("2025-03-04T09:15:00+00:00")
    assert datetime.fromisoformat(header["started"]) == began.replace(microsecond=0)
    assert path.name.startswith(f"{began.astimezone():%Y-%m-%d}-") and header["imported"] == "claude-code"
    journal = Journal.load(path)
    assert journal.imported == "claude-code"
    assert "Started: 2025-03-04" in path.with_suffix(".md").read_text()


# ---------------------------------------------------------------------- 6: recall and working context, one line each


def test_recall_and_working_context_calls_each_print_one_line(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for()
    _session(settings, "the database", ["The ifai backend stores its orders in postgres, version 16."])
    recall = json.dumps({"query": "postgres"})
    working = json.dumps({"goals": ["ship the release"], "decisions": ["keep postgres"]})
    model = scripted(
        Step(tool_calls=[("MemoryRecall", recall), ("WorkingContext", working)]),
        Step(text="You use postgres."),
    )
    repl, out = make_repl(settings, model)
    repl.run(["what database do we use?"])
    assert repl.session.journal is not None
    results = [m["content"] for m in repl.session.journal.messages if m.get("role") == "tool"]
    count = int(results[0].split()[0])  # the tool's own answer: "N matches from M sources ..."
    shown = out.getvalue().splitlines()
    assert f'· recalled {count} match{"es" * (count != 1)} for "postgres"' in shown, shown
    assert "· working context: 1 goal, 1 decision" in shown
    assert results[1].startswith("Working context updated: 1 goal, 1 decision, 0 open questions")


def test_a_recall_that_finds_nothing_says_so(settings_for: Callable[..., Settings]) -> None:
    model = scripted(Step(tool_calls=[("MemoryRecall", json.dumps({"query": "kubernetes", "wing": "all"}))]))
    repl, out = make_repl(settings_for(), model)
    repl.run(["did we talk about kubernetes?"])
    assert '· recalled nothing for "kubernetes" in every wing' in out.getvalue().splitlines()


# ---------------------------------------------------------------------- 7: /model checks the name


def test_model_switches_to_a_listed_name_and_asks_about_another(settings_for: Callable[..., Settings]) -> None:
    repl, out = make_repl(settings_for(), scripted())
    repl.run(["/model gpt-4.1", "/model", "/model palace-demo"])
    text = out.getvalue()
    assert 'Error: gpt-4.1 is not among the endpoint\'s 2 models (did you mean "gpt-4.1-mini"?)' in text
    assert "`/model gpt-4.1 --yes` uses it anyway" in text
    assert "Model: gpt-4.1-mini at" in text  # the refused name changed nothing
    assert "Model: palace-demo (from now on in this session)" in text and repl.settings.model == "palace-demo"
    repl, out = make_repl(settings_for(), scripted())
    repl.run(["/model my-own-finetune --yes"])
    assert "the endpoint does not list it" in out.getvalue() and repl.app.client.model == "my-own-finetune"


def test_model_on_a_terminal_asks_y_or_n(settings_for: Callable[..., Settings]) -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    out = io.StringIO()
    with create_pipe_input() as pipe:
        repl = Repl(
            App(settings_for(), warn=lambda _: None, client=scripted()),
            Console(out, out, color=False),
            interactive=True,
            pt_input=pipe,
            pt_output=DummyOutput(),
        )
        pipe.send_text("/model gpt-4.1\r")
        pipe.send_text("n\r")
        pipe.send_text("/model gpt-4.1\r")
        pipe.send_text("y\r")
        pipe.send_text("\x04")
        repl.run()
    text = out.getvalue()
    assert text.count("is not among the endpoint's 2 models") == 1  # asked twice, refused once: the "n"
    assert "Model: gpt-4.1 (from now on in this session; the endpoint does not list it)" in text
    assert repl.settings.model == "gpt-4.1"


def test_model_when_the_list_cannot_be_fetched_says_so_and_switches(settings_for: Callable[..., Settings]) -> None:
    class Unlisted(ScriptedModel):
        def list_models(self) -> list[str]:
            raise LLMServerError("the endpoint answered 500 to /models")

    repl, out = make_repl(settings_for(), Unlisted(responder=_responder("x")))
    repl.run(["/model llama3.1:8b"])
    assert "! cannot list the endpoint's models (the endpoint answered 500 to /models); using llama3.1:8b" in (
        out.getvalue()
    )
    assert repl.settings.model == "llama3.1:8b"


# ---------------------------------------------------------------------- 10: a crashed session, extracted meanwhile


def test_a_crashed_sessions_extraction_does_not_hold_up_the_start(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for()
    crashed = Journal.start(settings.home, model=settings.model)
    crashed.add_message({"role": "user", "content": "ORPHAN: the ifai repo uses pnpm workspaces. " * 8})
    crashed.add_message({"role": "assistant", "content": "Noted."})
    crashed.close()  # the process died here
    gate = Gate(answer("Pnpm.", ("Project Knowledge/packages", "The ifai repo uses pnpm workspaces")))

    def respond(body: dict[str, Any]) -> Step:
        if body.get("stream"):
            return Step(text="meanwhile, an answer")
        return gate(body) if "ORPHAN" in json.dumps(body) else _summary("this one")

    repl, out = make_repl(settings, ScriptedModel(responder=respond))  # returns while the extraction waits
    started = out.getvalue()
    assert f"Archived the unfinished session {crashed.id} (1 turn); its extraction runs in the background" in started
    assert (settings.sessions_dir / f"{crashed.id}.md").exists()  # listed and findable already
    assert gate.asked.wait(30), "the background extraction never asked"
    repl.handle("a question while it runs")
    assert "meanwhile, an answer" in out.getvalue()
    gate.opened.set()
    repl.run(["/exit"])
    text = out.getvalue()
    assert (
        f"Extracted the unfinished session {crashed.id}: 1 memory extracted: Project Knowledge/packages: "
        "The ifai repo uses pnpm workspaces (saved)"
    ) in text
    assert "The ifai repo uses pnpm workspaces" in (settings.home / "memories.md").read_text()
    assert "## Summary\nPnpm." in (settings.sessions_dir / f"{crashed.id}.md").read_text()
    again, out = make_repl(settings, ScriptedModel(responder=respond))
    again.run([])
    assert "unfinished session" not in out.getvalue()  # done once, not again


# ---------------------------------------------------------------------- 11: extraction's own timeout


def test_extraction_has_its_own_timeout(palace_home: Path) -> None:
    settings = load_settings({"home": palace_home, "base_url": "http://127.0.0.1:9/v1", "api_key": "k"}, env={})
    assert settings.extract_timeout == 180.0
    app = App(settings, warn=lambda _: None)
    assert app.client.timeout == 60.0 and app.extractor().client().timeout == 180.0
    palace_home.mkdir()
    (palace_home / "config.toml").write_text('[extraction]\ntimeout = 300\nmodel = "small"\n')
    settings = load_settings({"home": palace_home, "base_url": "http://127.0.0.1:9/v1"}, env={})
    extractor = App(settings, warn=lambda _: None).extractor()
    assert extractor.client().timeout == 300.0 and extractor.client().model == "small"
    (palace_home / "config.toml").write_text("[extraction]\ntimeout = 0\n")
    with pytest.raises(ConfigError, match=r"extraction\.timeout.*greater than 0"):
        load_settings({"home": palace_home}, env={})


# ---------------------------------------------------------------------- 12: every request failed: kept, as failed


def test_a_session_whose_every_request_failed_keeps_what_was_typed(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for()
    model = scripted(Step(status=500, text="down"), Step(status=500, text="down"))
    model.max_retries = 0
    repl, out = make_repl(settings, model)
    repl.run(["I moved the ifai CI to GitHub Actions", "/exit"])
    assert repl.archive is not None and repl.session.journal is not None
    assert f"Session kept as failed (no model answered; what you typed is in it): {repl.archive}" in out.getvalue()
    assert "moved the ifai CI" in repl.session.journal.path.read_text()
    (info,) = list_sessions(settings.home)
    assert info.summary.startswith('(failed: no model answered) It began with: "I moved the ifai CI')
    extraction = [body for body in model.requests if not body.get("stream")]
    assert extraction == []  # nothing asked of an endpoint that answered nothing

    only_commands, out = make_repl(settings, scripted())
    only_commands.run(["/help", "/usage"])
    assert len(list(settings.sessions_dir.glob("*.jsonl"))) == 1  # nothing typed: nothing kept


def test_a_crashed_session_no_model_answered_is_archived_as_failed(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for()
    crashed = Journal.start(settings.home, model=settings.model)
    crashed.add_message({"role": "user", "content": "short"})
    crashed.close()
    repl, out = make_repl(settings, scripted())
    assert f"Archived the unfinished session {crashed.id} as failed (1 turn; no model answered)" in out.getvalue()
    assert "(failed: no model answered)" in (settings.sessions_dir / f"{crashed.id}.md").read_text()
    repl.run([])


def test_notices_from_the_background_wait_for_the_next_line(settings_for: Callable[..., Settings]) -> None:
    """(The REPL's notices from other threads, as the orphans' extraction sends them: dim, before the next turn.)"""
    repl, out = make_repl(settings_for(), scripted(Step(text="ok")), color=True)
    done = threading.Event()

    def later() -> None:
        repl.notify("done in the background", info=True)
        done.set()

    threading.Thread(target=later).start()
    assert done.wait(10)
    repl.run(["hello"])
    assert f"{DIM}done in the background" in out.getvalue()
