"""Quick add: `/remember TEXT` and a `# TEXT` line propose a room, existing rooms first, without a model call."""

from __future__ import annotations

import io
import json
from collections.abc import Callable

from bench.quickadd_corpus import PALACE, TUNE  # the held-out part is only in bench/bench_quickadd.py
from palace.app import App
from palace.config import Settings
from palace.memory.document import Document
from palace.memory.suggest import propose_rooms
from palace.testing.scripted import ScriptedModel
from palace.testing.server import Step
from palace.ui.console import Console
from palace.ui.repl import Repl

NO_MEMORIES = Step(text=json.dumps({"summary": "s", "memories": []}))


def test_the_first_proposal_fits_for_at_least_24_of_30_sentences() -> None:
    doc = Document.parse(PALACE.encode())
    fitting = [text for text, rooms in TUNE if str(propose_rooms(doc, text)[0]) in rooms]
    assert len(TUNE) == 30 and len(fitting) >= 24, [t for t, _ in TUNE if t not in fitting]


def test_a_fact_no_room_fits_gets_a_new_room_in_a_guessed_hall() -> None:
    doc = Document.parse(PALACE.encode())
    proposals = propose_rooms(doc, "We decided to drop the monorepo")
    assert str(proposals[-1]) == "Decisions/monorepo"


def _repl(settings: Settings, **more: object) -> tuple[Repl, io.StringIO]:
    out = io.StringIO()
    console = Console(out, out, color=False)
    app = App(settings, warn=console.warn, client=ScriptedModel(responder=lambda body: NO_MEMORIES))
    return Repl(app, console, **more), out  # type: ignore[arg-type]


def test_remember_without_a_path_and_a_hash_line_save_to_the_proposed_rooms(
    settings_for: Callable[..., Settings],
) -> None:
    settings = settings_for()
    settings.home.mkdir(parents=True, exist_ok=True)
    settings.memories_file.write_text(PALACE)
    repl, out = _repl(settings, interactive=False)
    repl.run(["/remember I use zsh on the work laptop", "# the API returns problem+json errors"])
    text = settings.memories_file.read_text()
    shells = text.index("### shells")
    assert shells < text.index("I use zsh on the work laptop") < text.index("### programming-languages")
    assert text.index("### api") < text.index("the API returns problem+json errors")
    said = out.getvalue()
    assert "→ Preferences/shells (the best fitting room" in said and "✓ Saved to Preferences/shells" in said
    assert not repl.session.messages  # neither went to the model


def test_on_a_terminal_tab_takes_the_next_proposal_and_enter_saves(settings_for: Callable[..., Settings]) -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    settings = settings_for()
    settings.home.mkdir(parents=True, exist_ok=True)
    settings.memories_file.write_text(PALACE)
    doc = Document.parse(PALACE.encode())
    text = "the orders database gets a read replica"
    second = str(propose_rooms(doc, text)[1])
    with create_pipe_input() as pipe:
        repl, _ = _repl(settings, interactive=True, pt_input=pipe, pt_output=DummyOutput())
        pipe.send_text(f"/remember {text}\r\t\r\x04")
        repl.run()
    saved = settings.memories_file.read_text()
    room = second.split("/")[-1]
    assert saved.index(f"### {room}") < saved.index(text)
