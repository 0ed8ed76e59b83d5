"""A conversation and its turn loop: the model talks, calls memory tools, and the journal records it all."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from palace.agent.window import ContextWindow, WindowStatus
from palace.config import Settings
from palace.errors import LLMContextLengthError, LLMError, LLMNotConfiguredError
from palace.memory.change import Change
from palace.memory.ops import ChangeResult
from palace.memory.render import Rendered
from palace.memory.store import MemoryStore
from palace.model.failures import one_line
from palace.model.prompts import ProjectBlock, load_prompt, system_prompt
from palace.model.stream import valid_text
from palace.record import field, record
from palace.sessions.context import Snapshot, WorkingContext

if TYPE_CHECKING:
    from palace.memory.project import Targets
    from palace.model.chat import ChatModel
    from palace.model.stream import Reply
    from palace.model.tools import MemoryRecall, ToolBox, ToolOutcome, WorkingContextArgs
    from palace.sessions.extract import Extractor
    from palace.sessions.journal import Journal

log = logging.getLogger(__name__)


@record
class TurnEvents:
    """Callbacks through which a turn reports to the UI."""

    on_text: Callable[[str], None] = lambda text: None
    on_change: Callable[[ChangeResult], None] = lambda change: None
    on_tool_error: Callable[[str, str], None] = lambda tool, message: None
    on_tool: Callable[[str, ToolOutcome], None] = lambda tool, outcome: None  # a call that changed no memory
    on_notice: Callable[[str], None] = lambda text: None
    on_waiting: Callable[[bool], None] = lambda waiting: None


@record
class TurnResult:
    text: str = ""
    interrupted: str | None = None
    error: str | None = None
    tool_rounds: int = 0
    changes: list[ChangeResult] = field(default_factory=list)


class _OwnWrites:
    """Store hook remembering the bytes palace itself last wrote, to tell them from hand edits.

    A save applies its edit to the file as it is under the lock; when that text is neither what the prompt
    was built from nor what palace last wrote, someone else changed the file meanwhile (an editor while the
    reply streamed, another palace): the saved bytes hold that change, so the prompt must be rebuilt.
    """

    def __init__(self) -> None:
        self.digest: str | None = None
        self.known: set[str | None] = set()  # digests the prompt already reflects
        self.merged = False

    def before_write(self, file: Path) -> None:
        return None

    def after_write(self, file: Path, before: bytes, after: bytes, message: str, change: Change | None = None) -> None:
        if hashlib.sha256(before).hexdigest() not in self.known | {self.digest}:
            self.merged = True
        self.digest = hashlib.sha256(after).hexdigest()


class Conversation:
    """One conversation: a fixed system prompt, the message history, tools, usage, journal."""

    def __init__(
        self,
        settings: Settings,
        store: MemoryStore,
        *,
        client: ChatModel | None,
        wings: Sequence[str] = (),
        journal: Journal | None = None,
        extractor: Extractor | None = None,
        recall: Callable[[MemoryRecall], str] | None = None,
        targets: Targets | None = None,
    ) -> None:
        self.settings = settings
        self.store = store
        self.targets = targets  # the project memory beside the user's own, when there is one
        self.client = client
        self.wings = list(wings)
        self.journal = journal
        self.extractor = extractor
        self.messages: list[dict[str, Any]] = list(journal.messages) if journal else []
        self._recall = recall
        self._tools: ToolBox | None = None
        self.usage = [0, 0]
        if journal is not None:
            self.usage = [journal.usage[0], journal.usage[1]]
        self._own = _OwnWrites()
        store.hooks.append(self._own)
        self._project_own = _OwnWrites()
        if self.project_store is not None:
            self.project_store.hooks.append(self._project_own)
        self._project_digest = ""
        self._budget_told: set[str] = set()  # what the budget notices already said this session
        self.window = ContextWindow(
            window=settings.window_tokens,
            compact_at=settings.compact_at,
            home=settings.home,
            snapshot=Snapshot.from_json(journal.context if journal else None),
            messages=self.messages,
            record=self._record_context,
            resumed=bool(self.messages),
        )
        self.rendered: Rendered = Rendered("")
        self.system = ""
        self._prompt_digest = ""
        self.notices: list[str] = self.rebuild_prompt()  # for the user at the start (the REPL shows them)

    @property
    def tools(self) -> ToolBox:
        """The memory tools, built at the first model call (pydantic's schemas cost an import at start)."""
        if self._tools is None:
            from palace.model.tools import memory_tools

            self._tools = memory_tools(
                self.targets or self.store,
                by="model",
                recall=self._recall,
                working=self._set_working,
                limit=self.settings.entry_limit,
            )
        return self._tools

    @property
    def project_store(self) -> MemoryStore | None:
        return self.targets.project_memory if self.targets is not None else None

    @property
    def working(self) -> WorkingContext:
        return self.window.snapshot.working

    def _set_working(self, args: WorkingContextArgs) -> str:
        from palace.model.tools import Shown

        working = self.window.set_working(
            goals=args.goals, decisions=args.decisions, open_questions=args.open_questions
        )
        given = [
            (len(items), word)
            for items, word in zip(
                (args.goals, args.decisions, args.open_questions), ("goal", "decision", "open question"), strict=True
            )
            if items is not None
        ]
        told = ", ".join(f"{n} {word}{'s' * (n != 1)}" for n, word in given) or "unchanged"
        return Shown(f"Working context updated: {working.counts()}.", f"working context: {told}")  # what was set

    def _record_context(self, snapshot: Snapshot) -> None:
        if self.journal is not None:
            self.journal.add_context(snapshot.to_json())

    def context_status(self) -> WindowStatus:
        """The budget in use, the summary and how many turns are sent verbatim (for /context)."""
        return self.window.status(self.system, self.messages, self._schemas())

    def compact(self) -> str:
        """/compact: fold the older turns into the summary now."""
        if self.client is None:
            return str(LLMNotConfiguredError(_NOT_CONFIGURED))
        try:
            return self.window.compact(self.client, self.system, self.messages, self._schemas())
        finally:
            self._count_compaction()

    def _schemas(self) -> list[dict[str, Any]] | None:
        return self.tools.schemas() if self.settings.memory_enabled else None

    def bring(self, text: str) -> None:
        """/bring: an earlier session's context, as a visible exchange in this conversation."""
        self._add({"role": "user", "content": valid_text(text)})
        self._add({"role": "assistant", "content": "Noted: I have that earlier session's context."})

    # ------------------------------------------------------------------ the prompt
    def rebuild_prompt(self) -> list[str]:
        """Build the system prompt from the file as it is now; returns notices for the user."""
        notices: list[str] = []
        data = self._read_quietly()
        self._prompt_digest = hashlib.sha256(data).hexdigest()
        self._own.digest = self._prompt_digest
        self._own.known = {self._prompt_digest}
        self._own.merged = False
        template = load_prompt("system.md", self.settings.home)
        if not self.settings.memory_enabled:
            self.rendered = Rendered("")
            self.system = system_prompt(template, None, self.wings)
            return notices
        self.rendered = self.store.render(self.wings, self.settings.memory_budget)
        if self.rendered.warning and (data.strip() or self.rendered.unreadable):
            notices.append(self.rendered.warning)
        notices += self._budget_notices()
        section = load_prompt("system-memory.md", self.settings.home)
        project = self._project_block()
        for rendered in (self.rendered, project.rendered if project is not None else None):
            notices += _screened_notice(rendered)
        self.system = system_prompt(template, self.rendered, self.wings, memory_section=section, project=project)
        return notices

    def _project_block(self) -> ProjectBlock | None:
        """The project memory for the prompt, built from its file as it is now."""
        targets, store = self.targets, self.project_store
        if targets is None or targets.project is None or store is None:
            return None
        data = self._read_quietly(store)
        self._project_digest = hashlib.sha256(data).hexdigest()
        self._project_own.digest = self._project_digest
        self._project_own.known = {self._project_digest}
        self._project_own.merged = False
        rendered = store.render(None, self.settings.memory_budget)
        return ProjectBlock(targets.project.name, rendered, targets.to_project)

    def _budget_notices(self) -> list[str]:
        """What the budget left out of the prompt, said once per session."""
        budget, rendered = self.settings.memory_budget, self.rendered
        notices: list[str] = []
        if rendered.left_out and "entries" not in self._budget_told:
            self._budget_told.add("entries")
            notices.append(
                f"memory is over its {budget:,}-byte budget: {rendered.left_out} entries, the least used and "
                f"oldest, are left out of the prompt this session (from {_rooms(rendered.left_rooms)}; "
                "MemoryRecall can still find them, MemoryRoom shows a room whole)"
            )
        if rendered.cut_lines and "text" not in self._budget_told:
            self._budget_told.add("text")
            notices.append(
                f"your own text in memories.md does not fit the {budget:,}-byte memory budget even with every "
                f"entry left out: its last {rendered.cut_lines} line(s), from line {rendered.cut_from}, are not in "
                "the prompt this session; shorten it or raise memory.budget_bytes in config.toml"
            )
        return notices

    def _read_quietly(self, store: MemoryStore | None = None) -> bytes:
        try:
            return (store or self.store).read_bytes()
        except Exception:  # an unreadable file renders empty with a warning; never a crash
            return b""

    def hand_edited(self) -> bool:
        """True when memories.md (or the project memory) differs from what the prompt was built from and from
        palace's own writes."""
        digest = hashlib.sha256(self._read_quietly()).hexdigest()
        if digest not in {self._prompt_digest, self._own.digest}:
            return True
        store = self.project_store
        if store is None:
            return False
        project = hashlib.sha256(self._read_quietly(store)).hexdigest()
        return project not in {self._project_digest, self._project_own.digest}

    # ------------------------------------------------------------------ the turn
    def turn(self, text: str, events: TurnEvents | None = None) -> TurnResult:
        """One user message, then model calls and tool rounds until a plain reply (at most N rounds)."""
        events = events or TurnEvents()
        result = TurnResult()
        self._catch_up(events)
        if self.client is None:
            result.error = str(LLMNotConfiguredError(_NOT_CONFIGURED))
            return result
        self._add({"role": "user", "content": valid_text(text)})
        call = _Call(events)
        texts: list[str] = []
        while True:
            reply = self._call_model(call, result)
            if reply is None:
                break
            texts.append(reply.content)
            if not self._take(reply, result, events):
                break
        result.text = "".join(texts)
        if result.error is None and result.interrupted is None and self.extractor and self.journal:
            self.extractor.maybe_start(self.journal)
        return result

    def _catch_up(self, events: TurnEvents) -> None:
        """A hand edit or a merged change since the last turn: the prompt is built again, and the user told."""
        if not (self._own.merged or self._project_own.merged or self.hand_edited()):
            return
        merged = self._own.merged or self._project_own.merged
        for notice in self.rebuild_prompt():
            events.on_notice(notice)
        events.on_notice(
            "memories.md was changed by someone else while palace saved to it; this turn uses the new version"
            if merged
            else "memories.md was edited; this turn uses the new version"
        )

    def _call_model(self, call: _Call, result: TurnResult) -> Reply | None:
        """One model call (and, after a context-length error, one compaction and one retry); None when the
        turn ends on an error, which result then holds."""
        assert self.client is not None
        events = call.events
        while True:
            call.streaming = False
            events.on_waiting(True)
            tools = self._schemas()  # memory off: a plain chat, no tools
            try:
                request = self.window.prepare(self.client, self.system, self.messages, tools, call.notice)
                reply = self.client.stream_chat(request, tools, on_text=call.text, on_notice=call.notice)
            except LLMContextLengthError as exc:
                events.on_waiting(False)
                if not call.retried and self.window.overflowed(
                    exc, self.client, self.system, self.messages, tools, call.notice
                ):
                    call.retried = True
                    continue
                result.error = f"{exc} — even the last turn alone does not fit; shorten the message"
                return None
            except LLMError as exc:
                result.error = str(exc)
                return None
            except Exception as exc:  # a bug below the model seam must end the turn, not the REPL
                log.debug("the model call failed", exc_info=True)
                result.error = f"the model call failed unexpectedly: {type(exc).__name__}: {one_line(str(exc))}"
                return None
            finally:
                events.on_waiting(False)
                self._count_compaction()
            for notice in self.window.observe(reply.usage.input_tokens if reply.usage else 0):
                events.on_notice(notice)
            self._count(reply)
            return reply

    def _take(self, reply: Reply, result: TurnResult, events: TurnEvents) -> bool:
        """The reply into the history, its tool calls run; True when another model call follows."""
        if reply.interrupted:
            message = reply.to_message()
            message.pop("tool_calls", None)  # half-received calls must not reach the history
            message["content"] = (reply.content or "") + f"\n[reply interrupted: {reply.interrupted}]"
            self._add(message)
            result.interrupted = reply.interrupted
            return False
        self._add(reply.to_message())
        if not reply.tool_calls:
            return False
        result.tool_rounds += 1
        for call in reply.tool_calls:
            outcome = self.tools.call(call.name, call.arguments)
            if outcome.change is not None:
                result.changes.append(outcome.change)
                events.on_change(outcome.change)
                if self.journal is not None:
                    self.journal.add_memory(outcome.change)
            elif outcome.error is not None:
                events.on_tool_error(call.name, outcome.error)
            else:
                events.on_tool(call.name, outcome)
            self._add({"role": "tool", "tool_call_id": call.id, "content": outcome.text})
        if result.tool_rounds >= self.settings.tool_rounds:
            events.on_notice(
                f"stopped after {self.settings.tool_rounds} tool rounds in one turn; ask again to continue"
            )
            return False
        return True

    def _add(self, message: dict[str, Any]) -> None:
        self.messages.append(message)
        if self.journal is not None:
            self.journal.add_message(message)

    def _count(self, reply: Reply) -> None:
        if reply.usage is not None:
            self._add_usage(reply.usage.input_tokens, reply.usage.output_tokens)

    def _count_compaction(self) -> None:
        """The compaction calls' tokens count as the chat model's (they are its calls)."""
        (inp, out), self.window.spent = self.window.spent, [0, 0]
        if inp or out:
            self._add_usage(inp, out)

    def _add_usage(self, input_tokens: int, output_tokens: int) -> None:
        self.usage[0] += input_tokens
        self.usage[1] += output_tokens
        if self.journal is not None:
            self.journal.add_usage(input_tokens, output_tokens)

    def record_user_change(self, change: ChangeResult) -> None:
        """A /remember or /forget by the user, for the archive."""
        if self.journal is not None:
            self.journal.add_memory(change)

    def close(self) -> None:
        if self._own in self.store.hooks:
            self.store.hooks.remove(self._own)
        store = self.project_store
        if store is not None and self._project_own in store.hooks:
            store.hooks.remove(self._project_own)


class _Call:
    """One turn's model calls as the user sees them: whether text is streaming yet, and the one retry."""

    def __init__(self, events: TurnEvents) -> None:
        self.events = events
        self.streaming = False  # has this model call shown text yet?
        self.retried = False  # one compaction and one retry after a context-length error

    def text(self, piece: str) -> None:
        self.streaming = True
        self.events.on_waiting(False)
        self.events.on_text(piece)

    def notice(self, notice: str) -> None:
        self.events.on_waiting(False)  # the spinner would write over the notice
        self.events.on_notice(notice)
        self.events.on_waiting(not self.streaming)


_NOT_CONFIGURED = (
    "no model endpoint configured: set OPENAI_API_KEY (for OpenAI), or OPENAI_BASE_URL for a local server "
    "such as Ollama (http://localhost:11434/v1), and PALACE_MODEL to choose the model; slash commands work meanwhile"
)


def _rooms(rooms: list[str]) -> str:
    shown = ", ".join(rooms[:4])
    return shown + (f" and {len(rooms) - 4} more rooms" if len(rooms) > 4 else "") if rooms else "its rooms"


def _screened_notice(rendered: Rendered | None) -> list[str]:
    """The user's line for secret-looking lines left out of the prompt (the closing line names them)."""
    if rendered is None or not rendered.screened:
        return []
    return [f"{rendered.screened} Nothing of it goes to the model; edit the file to remove it."]
