"""Long sessions: the context budget, compaction, the working context, resume from the snapshot, the card.

The endpoints here enforce a context window by their own token rule (palace/testing/server.py ContextLimit)
and answer over it the way OpenAI, vLLM, llama.cpp and Ollama do; palace only ever sees their usage figures
and their errors.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from palace.agent.conversation import Conversation, TurnEvents
from palace.agent.window import KEEP_TURNS
from palace.app import App
from palace.config import Settings
from palace.errors import LLMContextLengthError
from palace.memory.store import MemoryStore
from palace.model.client import LLMClient
from palace.model.failures import context_figures
from palace.sessions.journal import Journal
from palace.testing.scripted import ScriptedModel
from palace.testing.server import ContextLimit, ScriptedServer, Step, count_tokens
from palace.ui.console import Console
from palace.ui.repl import Repl

OLD_GOAL = "migrate the auth tests to vitest"
NEW_GOAL = "ship the login page by Friday"
_PROSE = (
    "We looked at the build again: the vitest run takes forty seconds, PostgreSQL starts in a container, "
    "and the fixtures load a thousand rows before each file. "
)


def _text(label: str, size: int = 1000) -> str:
    """About `size` characters of ordinary prose, starting with its label."""
    body = (_PROSE * (size // len(_PROSE) + 1))[: size - len(label) - 2]
    return f"{label}: {body}"


class Endpoint:
    """A model: replies of 1 KB, a summary for each compaction call, WorkingContext calls at chosen turns."""

    def __init__(self, tool_turns: dict[int, dict[str, Any]] | None = None, fold_answer: Step | None = None):
        self.tool_turns = tool_turns or {}
        self.fold_answer = fold_answer
        self.folds = 0

    def __call__(self, body: dict[str, Any]) -> Step:
        if not body["stream"]:  # the compaction call (or an extraction)
            self.folds += 1
            if self.fold_answer is not None:
                return self.fold_answer
            if "memories" in body["messages"][0]["content"]:
                return Step(text=json.dumps({"summary": "An extraction summary.", "memories": []}))
            return Step(text=json.dumps({"summary": f"Summary {self.folds}: the build and its tests were discussed."}))
        last = body["messages"][-1]
        if last["role"] == "tool":
            return Step(text="Noted.")
        turn = int(str(last["content"]).split(":")[0].removeprefix("Turn "))
        if turn in self.tool_turns:
            return Step(tool_calls=[("WorkingContext", json.dumps(self.tool_turns[turn]))])
        return Step(text=_text(f"Reply {turn}"))


def _conversation(settings: Settings, model: Any, journal: Journal | None = None) -> Conversation:
    store = MemoryStore(settings.home)
    journal = journal or Journal.start(settings.home, model="m")
    return Conversation(settings, store, client=model, journal=journal)


def _chat(conversation: Conversation, turns: range, notices: list[str] | None = None) -> None:
    events = TurnEvents(on_notice=(notices.append if notices is not None else lambda text: None))
    for n in turns:
        result = conversation.turn(_text(f"Turn {n}"), events)
        assert result.error is None, f"turn {n}: {result.error}"


# ---------------------------------------------------------------------- the budget under an enforcing endpoint


@pytest.mark.parametrize(("style", "window"), [("openai", 32_768), ("llamacpp", 8_192), ("vllm", 16_384)])
def test_300_turns_of_2kb_never_pass_the_window_and_the_journal_keeps_all_600_messages(
    style: str, window: int, settings_for: Callable[..., Settings]
) -> None:
    settings = settings_for(window_tokens=window)
    endpoint = Endpoint()
    model = ScriptedModel(responder=endpoint, context_limit=ContextLimit(window, style))
    conversation = _conversation(settings, model)
    notices: list[str] = []
    _chat(conversation, range(300), notices)

    sizes = [count_tokens(body) for body in model.requests]
    assert max(sizes) <= window  # the endpoint never refused one (it records refused requests too)
    chats = [body for body in model.requests if body["stream"]]
    assert len(chats) == 300 and endpoint.folds >= 3
    assert max(count_tokens(body) for body in chats) > window // 2  # the window was used, not left idle
    assert len({body["messages"][0]["content"] for body in chats}) == 1  # the system prompt never changed
    assert conversation.journal is not None
    journal = Journal.load(conversation.journal.path)
    assert len(journal.messages) == 600
    assert journal.messages[0]["content"] == _text("Turn 0")  # the originals, not the summary
    assert any("folding" in notice for notice in notices)


def test_a_long_conversation_sends_the_summary_then_the_recent_turns(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for(window_tokens=4096)
    model = ScriptedModel(responder=Endpoint(), context_limit=ContextLimit(4096))
    conversation = _conversation(settings, model)
    _chat(conversation, range(30))
    last = [body for body in model.requests if body["stream"]][-1]["messages"]
    assert last[0]["role"] == "system"
    assert last[1]["role"] == "user" and "Summary" in last[1]["content"] and "folded" in last[1]["content"]
    assert last[2]["role"] == "assistant"
    users = [m for m in last[3:] if m["role"] == "user"]
    assert 1 <= len(users) <= KEEP_TURNS + 8 and users[-1]["content"] == _text("Turn 29")
    folded = [body for body in model.requests if not body["stream"]]
    assert "Turn 0:" in folded[0]["messages"][1]["content"]  # the compaction call read the original turns


@pytest.mark.parametrize("style", ["openai", "vllm", "llamacpp"])
def test_an_endpoint_smaller_than_configured_costs_one_refusal_then_palace_keeps_under_it(
    style: str, settings_for: Callable[..., Settings]
) -> None:
    settings = settings_for()  # window_tokens 32,768 by default; this server has 4,096
    model = ScriptedModel(responder=Endpoint(), context_limit=ContextLimit(4096, style))
    conversation = _conversation(settings, model)
    notices: list[str] = []
    _chat(conversation, range(60), notices)
    refused = [body for body in model.requests if count_tokens(body) > 4096]
    assert len(refused) == 1  # the first overflow: compacted, retried, and the window learnt
    told = [n for n in notices if "the model's context is 4,096 tokens" in n]
    assert len(told) == 1 and "context.window_tokens" in told[0]


def test_an_endpoint_that_gives_no_figures_is_still_retried_after_compacting(
    settings_for: Callable[..., Settings],
) -> None:
    limit = ContextLimit(4096)
    settings = settings_for()
    model = ScriptedModel(responder=Endpoint(), context_limit=limit)
    original = limit.refusal

    def vague(body: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
        refused = original(body)
        return None if refused is None else (400, {"message": "Input is too long for this model.", "code": 400})

    limit.refusal = vague  # type: ignore[method-assign]
    conversation = _conversation(settings, model)
    _chat(conversation, range(60))
    assert sum(1 for body in model.requests if count_tokens(body) > 4096) <= 4


def test_ollama_cutting_silently_is_noticed_once(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for()
    model = ScriptedModel(responder=Endpoint(), context_limit=ContextLimit(2048, "ollama"))
    conversation = _conversation(settings, model)
    notices: list[str] = []
    _chat(conversation, range(30), notices)
    cut = [n for n in notices if "cutting the conversation" in n]
    assert len(cut) == 1 and "num_ctx" in cut[0]


@pytest.mark.parametrize(
    "answer", [Step(text="I would rather not."), Step(status=500, text="out of memory")], ids=["unusable", "error"]
)
def test_when_compaction_fails_the_oldest_turns_are_dropped_and_the_user_is_told(
    answer: Step, settings_for: Callable[..., Settings]
) -> None:
    settings = settings_for(window_tokens=4096)
    model = ScriptedModel(responder=Endpoint(fold_answer=answer), context_limit=ContextLimit(4096), max_retries=0)
    conversation = _conversation(settings, model)
    notices: list[str] = []
    _chat(conversation, range(40), notices)
    assert max(count_tokens(body) for body in model.requests if body["stream"]) <= 4096
    dropped = [n for n in notices if "could not fold" in n]
    assert dropped and "left out" in dropped[0] and "journal keeps every message" in dropped[0]
    assert conversation.journal is not None and len(conversation.journal.messages) == 80


def test_a_single_message_larger_than_the_window_is_a_clear_error_not_a_crash(
    settings_for: Callable[..., Settings],
) -> None:
    settings = settings_for(window_tokens=2048)
    model = ScriptedModel(responder=Endpoint(), context_limit=ContextLimit(2048))
    conversation = _conversation(settings, model)
    result = conversation.turn(_text("Turn 1", 40_000))
    assert result.error is not None and "longer than the model's context" in result.error
    assert "shorten the message" in result.error
    _chat(conversation, range(2, 4))  # and the session goes on


def test_the_real_client_over_http_learns_a_llama_cpp_window(settings_for: Callable[..., Settings]) -> None:
    server = ScriptedServer(responder=Endpoint(), context_limit=ContextLimit(4096, "llamacpp")).start()
    try:
        settings = settings_for(server)
        client = LLMClient(base_url=server.base_url, api_key="k", model="gpt-4.1-mini", max_retries=0)
        conversation = _conversation(settings, client)
        notices: list[str] = []
        _chat(conversation, range(40), notices)
        assert sum(1 for body in server.requests if count_tokens(body) > 4096) == 1
        assert any("4,096 tokens" in n for n in notices)
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("text", "window", "used"),
    [
        (
            "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. "
            "Please reduce the length of the messages.",
            8192,
            9000,
        ),
        (
            "This model's maximum context length is 16384 tokens. However, you requested 122946 tokens (112946 in "
            "the messages, 10000 in the completion).",
            16384,
            112946,
        ),
        ("The prompt (total length 25938) is too long to fit into the model (context length 4096).", 4096, 25938),
        ("Requested tokens (2285) exceed context window of 2048", 2048, 2285),
        ("Input prompt (2664 tokens) is too long and exceeds limit of 2048", 2048, 2664),
    ],
)
def test_context_figures_are_read_from_each_servers_words(text: str, window: int, used: int) -> None:
    from types import SimpleNamespace

    assert context_figures(SimpleNamespace(message=text, body=None)) == (window, used)


def test_llama_cpp_figures_come_from_its_error_fields() -> None:
    from types import SimpleNamespace

    body = {"message": "the request exceeds the available context size", "n_prompt_tokens": 14429, "n_ctx": 8192}
    assert context_figures(SimpleNamespace(message=body["message"], body=body)) == (8192, 14429)


# ---------------------------------------------------------------------- the working context and resume


def _long_session(settings: Settings, turns: int) -> Path:
    endpoint = Endpoint({50: {"goals": [OLD_GOAL], "decisions": ["keep PostgreSQL"]}, 200: {"goals": [NEW_GOAL]}})
    model = ScriptedModel(responder=endpoint, context_limit=ContextLimit(settings.window_tokens))
    conversation = _conversation(settings, model)
    _chat(conversation, range(turns))
    assert conversation.journal is not None
    conversation.close()
    conversation.journal.close()  # the process "ends" here: the next start resumes this journal
    return conversation.journal.path


def _first_request_after_resume(settings: Settings, path: Path) -> dict[str, Any]:
    model = ScriptedModel(responder=Endpoint(), context_limit=ContextLimit(settings.window_tokens))
    journal = Journal.take_over(path)
    try:
        conversation = _conversation(settings, model, journal)
        result = conversation.turn(_text(f"Turn {journal.turns}"))
        assert result.error is None
    finally:
        journal.close()
    return next(body for body in model.requests if body["stream"])


def test_resume_sends_the_snapshot_and_the_last_turns_whatever_the_length(
    settings_for: Callable[..., Settings], capsys: pytest.CaptureFixture[str]
) -> None:
    settings = settings_for()  # the default window: ten turns fit whole, a hundred do not
    sizes: dict[int, int] = {}
    for turns in (10, 100, 300):
        request = _first_request_after_resume(settings, _long_session(settings, turns))
        sizes[turns] = len(json.dumps(request["messages"]))
        if turns == 300:
            text = json.dumps(request)
            assert NEW_GOAL in text and OLD_GOAL not in text  # the replaced goal does not come back
            messages = request["messages"]
            assert "Summary" in messages[1]["content"] and "keep PostgreSQL" in messages[1]["content"]
            assert sum(1 for m in messages[3:] if m["role"] == "user") == KEEP_TURNS
    assert abs(sizes[300] - sizes[100]) < 0.25 * sizes[100]  # independent of how long the transcript is
    with capsys.disabled():
        print(f"\nfirst request after resume: 300 turns / 10 turns = {sizes[300] / sizes[10]:.2f} ({sizes})")


def test_an_old_journal_without_a_snapshot_is_compacted_on_resume_when_over_budget(
    settings_for: Callable[..., Settings],
) -> None:
    settings = settings_for(window_tokens=4096)
    path = _long_session(settings_for(window_tokens=100_000), 40)  # never compacted: no snapshot in it
    lines = [line for line in path.read_text().splitlines() if '"type": "context"' not in line]
    path.write_text("\n".join(lines) + "\n")
    request = _first_request_after_resume(settings, path)
    assert count_tokens(request) <= 4096
    assert "folded" in request["messages"][1]["content"]


def test_the_working_context_tool_replaces_lists_keeps_dates_and_refuses_secrets(
    settings_for: Callable[..., Settings],
) -> None:
    settings = settings_for()
    calls = {
        1: {"goals": ["a", "b"], "open_questions": ["which queue?"]},
        2: {"goals": ["b", "c"]},
        3: {"decisions": ["use the token ghp_" + "a1B2" * 9]},
    }
    model = ScriptedModel(responder=Endpoint(calls))
    conversation = _conversation(settings, model)
    _chat(conversation, range(1, 4))
    working = conversation.working
    assert [i.text for i in working.goals] == ["b", "c"] and [i.text for i in working.open_questions] == [
        "which queue?"
    ]
    assert working.decisions == []  # the secret was refused; nothing was stored
    tool_results = [m["content"] for m in conversation.messages if m["role"] == "tool"]
    assert tool_results[0] == "Working context updated: 2 goals, 0 decisions, 1 open question."
    assert "secret" in tool_results[2] and "ghp_" not in tool_results[2]
    assert conversation.journal is not None
    journal = Journal.load(conversation.journal.path)
    assert journal.context is not None and [g["text"] for g in journal.context["working"]["goals"]] == ["b", "c"]
    records = [json.loads(line) for line in conversation.journal.path.read_text().splitlines()]
    assert not any("ghp_" in json.dumps(r) for r in records if r["type"] == "context")
    conversation.journal.close()


# ---------------------------------------------------------------------- the REPL: card, /context, /compact, /bring


def _repl(settings: Settings, model: ScriptedModel, **kwargs: Any) -> tuple[Repl, io.StringIO]:
    out = io.StringIO()
    console = Console(out, out, color=False)
    app = App(settings, warn=console.warn, client=model)
    return Repl(app, console, interactive=False, **kwargs), out


class CardEndpoint(Endpoint):
    """Each session sets a goal at its first turn; its extraction summary names the session."""

    def __init__(self, name: str) -> None:
        super().__init__({1: {"goals": [f"goal of {name}"]}})
        self.name = name

    def __call__(self, body: dict[str, Any]) -> Step:
        if not body["stream"] and "memories" in body["messages"][0]["content"]:
            return Step(text=json.dumps({"summary": f"Worked on {self.name}. More detail.", "memories": []}))
        return super().__call__(body)


def test_the_context_card_shows_the_last_three_sessions_of_the_wing_and_stays_out_of_the_prompt(
    settings_for: Callable[..., Settings],
) -> None:
    settings = settings_for()
    for name, wing in [("s1", "ifai"), ("s2", "ifai"), ("elsewhere", "other"), ("s3", "ifai"), ("s4", "ifai")]:
        repl, _ = _repl(settings, ScriptedModel(responder=CardEndpoint(name)), wings=[wing])
        repl.run([_text("Turn 1"), _text("Turn 2")])
    model = ScriptedModel(responder=CardEndpoint("s5"))
    repl, out = _repl(settings, model, wings=["ifai"])
    repl.run([_text("Turn 3")])
    shown = out.getvalue()
    card = shown[shown.index("Recent sessions in ifai:") :]
    assert card.index("Worked on s4") < card.index("Worked on s3") < card.index("Worked on s2")
    assert "open goals: goal of s4" in card
    assert "Worked on s1" not in card and "elsewhere" not in card
    request = next(body for body in model.requests if body["stream"])
    assert "Worked on s" not in json.dumps(request)  # for the user, never for the model


def test_context_compact_and_bring_in_the_repl(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for()
    first, _ = _repl(settings, ScriptedModel(responder=CardEndpoint("earlier")), wings=["ifai"])
    first.run([_text("Turn 1")])
    earlier = first.session.journal
    assert earlier is not None
    model = ScriptedModel(responder=Endpoint(), context_limit=ContextLimit(100_000))  # (for its usage figures)
    repl, out = _repl(settings, model, wings=["ifai"])
    lines = [_text(f"Turn {n}") for n in range(2, 12)]
    repl.run([*lines, "/context", "/compact", "/context", f"/bring {earlier.id[11:]}", _text("Turn 12")])
    shown = out.getvalue()
    assert "Turns sent as they are: 10 (nothing folded yet)" in shown
    assert "cutting" not in shown
    assert "folded turns 1–6 into a summary; 4 recent turns are sent as they are" in shown
    assert "Turns sent as they are: 4; folded into the summary: 6" in shown
    assert "Summary: Summary " in shown and "the build and its tests were discussed" in shown
    assert "Worked on earlier" in shown and "goal of earlier" in shown  # /bring shows what it adds
    last = [body for body in model.requests if body["stream"]][-1]["messages"]
    assert any(m["role"] == "user" and "Worked on earlier" in m["content"] for m in last)


def test_resume_in_the_repl_tells_the_working_context(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for()
    path = _long_session(settings, 60)
    repl, out = _repl(settings, ScriptedModel(responder=Endpoint()), resume=path.stem)
    repl.run([])
    assert "Working context: 1 goal, 1 decision, 0 open questions — /context shows them." in out.getvalue()


def test_context_length_error_type_carries_its_figures() -> None:
    error = LLMContextLengthError("too long", window=4096, used=5000)
    assert (error.window, error.used) == (4096, 5000) and str(error) == "too long"
