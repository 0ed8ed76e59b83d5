"""Cold memory: extract lasting facts and a summary from a session, and archive finished sessions.

One non-streaming model call per extraction, with the packaged `prompts/extract.md` (a user's
`$PALACE_HOME/prompts/extract.md` overrides it). The answer is parsed tolerantly; every item goes through
`MemoryStore.save_many` (validation, dedup, secret guard) in one write; invalid items are dropped and
counted. The journal's bookkeeping (`extracted_upto`) advances only when all of that succeeded, so a
failure is retried later and a restart never extracts the same messages twice.
"""

from __future__ import annotations

import contextlib
import json
import re
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from palace.archive import archive_path, find_orphans, write_archive
from palace.config import Settings
from palace.errors import MemoryPathError, PalaceError
from palace.memory.halls import HALL_LIST, parse_path, wing_key
from palace.memory.ops import ChangeResult, normalise
from palace.memory.secrets import redact
from palace.memory.store import MemoryStore
from palace.prompting import load_prompt
from palace.sessions import Journal, content_text, now

if TYPE_CHECKING:
    from palace.llm import LLMClient

PROMPT_NAME = "extract.md"
MAX_CONVERSATION_CHARS = 48_000  # per call; a longer backlog is extracted in several calls
MAX_MESSAGE_CHARS = 12_000  # one huge message is cut (head and tail) in the extraction prompt
MAX_TOOL_CHARS = 300  # tool results are only summarised
MAX_ITEMS = 30  # items beyond this in one answer are dropped
MAX_SUMMARY_CHARS = 2_000
MAX_FINAL_ROUNDS = 6  # extraction calls at session end (each covers up to MAX_CONVERSATION_CHARS)

_Snapshot = tuple[int, list[dict[str, Any]], str | None]  # (extracted_upto, messages, summary)
_FENCE_BLOCK = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\n(.*?)```", re.S)
_THINK = re.compile(r"<think>.*?</think>", re.S | re.I)
_LEADING_DATE = re.compile(r"^\s*\[\d{4}-\d{2}-\d{2}\]\s*")
_LEADING_BULLET = re.compile(r"^\s*[-*+]\s+")


def _stderr_warn(message: str) -> None:
    print(f"palace: {message}", file=sys.stderr)


@dataclass
class ExtractionOutcome:
    summary: str
    results: list[ChangeResult]
    dropped: int
    upto: int


class ExtractionFailed(PalaceError):
    """The extraction call failed or its answer was unusable (nothing was written, nothing advanced)."""


# ---------------------------------------------------------------------- prompt


def load_extract_prompt(home: Path | None) -> str:
    """The user's $PALACE_HOME/prompts/extract.md if present, else the packaged one."""
    return load_prompt(PROMPT_NAME, home)


def _fence(body: str, label: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{label}\n{body}\n{fence}"


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}\n[... {len(text) - limit:,} characters left out ...]\n{text[-half:]}"


def _render_message(message: dict[str, Any]) -> str:
    role = message.get("role")
    text = content_text(message.get("content")).strip()
    if role == "user":
        return f"[user]\n{_cut(text, MAX_MESSAGE_CHARS)}"
    if role == "assistant":
        lines = [f"[assistant]\n{_cut(text, MAX_MESSAGE_CHARS)}"] if text else []
        for call in message.get("tool_calls") or ():
            function = call.get("function") if isinstance(call, dict) else None
            if isinstance(function, dict):
                arguments = " ".join(str(function.get("arguments") or "").split())
                lines.append(f"[assistant called {function.get('name')}] {_cut(arguments, MAX_TOOL_CHARS)}")
        return "\n".join(lines)
    if role == "tool":
        flat = " ".join(text.split())
        if len(flat) > MAX_TOOL_CHARS:
            flat = flat[:MAX_TOOL_CHARS] + f" [... {len(flat) - MAX_TOOL_CHARS:,} more characters]"
        return f"[tool result] {flat}"
    return ""


def _message_chars(message: dict[str, Any]) -> int:
    if message.get("role") not in ("user", "assistant"):
        return 0
    return len(content_text(message.get("content")))


def _wing_line(wing: str | None) -> str:
    if wing:
        return (
            f"- This session is in the wing `{wing}`: facts about this project go to `{wing}/Hall/room` "
            f"(for example `{wing}/Project Knowledge/database`); facts about the user that hold everywhere "
            "go to `Hall/room` without a wing. Do not invent other wings."
        )
    return (
        "- No project wing is active: use `Hall/room`. Use `wing/Hall/room` only for a wing that already "
        "appears in the current memories."
    )


def build_messages(
    template: str,
    *,
    session_id: str,
    wing: str | None,
    memories: str,
    previous_summary: str | None,
    conversation: list[dict[str, Any]],
    first_index: int,
    entry_limit: int = 200,
) -> list[dict[str, Any]]:
    """The extraction request: instructions as the system message, the data as one user message."""
    system = (
        template.replace("{{halls}}", HALL_LIST)
        .replace("{{wing_line}}", _wing_line(wing))
        .replace("{{limit}}", str(entry_limit))
    )
    rendered = "\n\n".join(part for part in (_render_message(m) for m in conversation) if part)
    last = first_index + len(conversation)
    parts = [
        "Current memories (memories.md as the assistant sees it):",
        _fence(memories.strip() or "(no memories yet)", "markdown"),
        "",
        f"Summary of the session so far: {previous_summary}" if previous_summary else
        "This is the first part of the session to be extracted.",
        "",
        f"The conversation to extract from (messages {first_index + 1}-{last} of session {session_id}):",
        _fence(rendered or "(no text)", "text"),
        "",
        'Answer with the JSON object {"summary": ..., "memories": [...]} only.',
    ]
    return [{"role": "system", "content": system}, {"role": "user", "content": "\n".join(parts)}]


# ---------------------------------------------------------------------- answer


def parse_answer(text: str) -> tuple[str, list[Any]]:
    """(summary, raw items) from the model's answer; ValueError when it holds no usable JSON."""
    text = _THINK.sub("", text or "").strip()
    if not text:
        raise ValueError("the answer was empty")
    candidates = [text, *(m.group(1).strip() for m in _FENCE_BLOCK.finditer(text))]
    for candidate in candidates:
        try:
            return _shape(json.loads(candidate))
        except ValueError:
            continue
    decoder = json.JSONDecoder()
    starts = [i for i, ch in enumerate(text) if ch in "{["][:200]
    for start in starts:
        try:
            value, _ = decoder.raw_decode(text, start)
            return _shape(value)
        except ValueError:
            continue
    raise ValueError("the answer held no JSON object")


def _shape(value: Any) -> tuple[str, list[Any]]:
    if isinstance(value, list):
        return "", value
    if not isinstance(value, dict):
        raise ValueError("the answer was JSON but not an object")
    summary = value.get("summary")
    summary_text = summary.strip() if isinstance(summary, str) else ""
    if "memories" in value:
        items = value["memories"]
        if items is None:
            return summary_text, []
        return summary_text, items if isinstance(items, list) else [items]
    if "path" in value and "content" in value:  # a single item on its own
        return summary_text, [value]
    if isinstance(summary, str):
        return summary_text, []
    raise ValueError('the answer was a JSON object without "summary" or "memories"')


def _clean_content(content: str) -> str:
    content = _LEADING_BULLET.sub("", content, count=1)
    return _LEADING_DATE.sub("", content, count=1).strip()


# ---------------------------------------------------------------------- extractor


class Extractor:
    """Runs extractions for a session: in the background after turns, synchronously at the end."""

    def __init__(
        self,
        settings: Settings,
        store: MemoryStore,
        *,
        client: LLMClient | None = None,
        commit: Callable[[list[Path], str], object] | None = None,
        warn: Callable[[str], None] = _stderr_warn,
        on_extracted: Callable[[ExtractionOutcome], None] | None = None,
        retry_delay: float = 30.0,
    ) -> None:
        self.settings = settings
        self.store = store
        self.commit = commit
        self.warn = warn
        self.on_extracted = on_extracted  # called from the background thread after a success
        self.retry_delay = retry_delay  # seconds a background retry waits after a failure
        self.last_error: str | None = None
        self.commit_warn: Callable[[str], None] | None = None  # where commit trouble goes (default: warn)
        self._client = client
        self._own_client = False  # True once this extractor made its own client (then close() closes it)
        self._client_lock = threading.Lock()
        self._run_lock = threading.Lock()  # one extraction at a time
        self._state_lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._retry_at = 0.0

    # ------------------------------------------------------------------ helpers
    def client(self) -> LLMClient:
        with self._client_lock:
            if self._client is None:
                from palace.llm import client_from_settings

                self._client = client_from_settings(self.settings, model=self.settings.extract_model)
                self._own_client = True
            return self._client

    def close(self) -> None:
        """Close the client this extractor created (after waiting for an extraction in flight)."""
        self.wait()
        with self._client_lock:
            client, self._client = self._client, None
        if client is not None and self._own_client:
            client.close()

    def pending_chars(self, journal: Journal) -> int:
        """Characters of user/assistant text not extracted yet."""
        upto, messages, _ = journal.snapshot()
        return sum(_message_chars(m) for m in messages[upto:])

    @property
    def in_flight(self) -> bool:
        thread = self._thread
        return thread is not None and thread.is_alive()

    # ------------------------------------------------------------------ background
    def maybe_start(self, journal: Journal) -> bool:
        """After a completed turn: start a background extraction when enough is pending. Never waits."""
        if not self.settings.extraction:
            return False
        with self._state_lock:
            if self.in_flight or time.monotonic() < self._retry_at:
                return False
            snapshot = journal.snapshot()  # exactly what this turn end has; later messages wait their turn
            upto, messages, _ = snapshot
            if sum(_message_chars(m) for m in messages[upto:]) < self.settings.extract_trigger:
                return False
            thread = threading.Thread(
                target=self._background, args=(journal, snapshot), name="palace-extract", daemon=True
            )
            self._thread = thread
            thread.start()
            return True

    def _background(self, journal: Journal, snapshot: _Snapshot) -> None:
        time.sleep(0)  # give the GIL straight back: the caller's prompt comes first
        try:
            with self._run_lock:
                outcome = self._extract(journal, snapshot=snapshot)
        except ExtractionFailed as exc:
            self._failed(str(exc))
            return
        except Exception as exc:  # the background must never raise into nowhere
            self._failed(f"{type(exc).__name__}: {exc}")
            return
        if outcome is not None and self.on_extracted is not None:
            try:
                self.on_extracted(outcome)
            except Exception as exc:
                self.warn(f"could not show the extracted memories: {exc}")

    def wait(self, timeout: float | None = None) -> None:
        """Wait for an extraction in flight (if any)."""
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    # ------------------------------------------------------------------ extraction
    def extract(self, journal: Journal, *, force: bool = False) -> ExtractionOutcome | None:
        """Extract the pending part now. None when nothing is pending, or on failure (one warning).

        `force` (`palace sessions extract ID`): when nothing is pending, extract the session again from
        its start (one call; the bookkeeping never moves back). Items already remembered are only refreshed.
        """
        if not force and not journal.owned and self.pending_chars(journal) == 0:
            return None  # a read-only view with nothing to do stays read-only
        journal.claim()  # a session another live palace owns is refused here, before any model call
        with self._run_lock:
            try:
                return self._extract(journal, force=force)
            except ExtractionFailed as exc:
                self._failed(str(exc))
                return None

    def _failed(self, reason: str) -> None:
        self.last_error = reason
        self._retry_at = time.monotonic() + self.retry_delay
        self.warn(f"memory extraction failed: {reason} (it will be retried; the conversation is kept)")

    def _batch(self, messages: list[dict[str, Any]], start: int) -> int:
        """The end index of the next extraction batch (at most MAX_CONVERSATION_CHARS of text)."""
        total = 0
        end = start
        while end < len(messages):
            size = min(_message_chars(messages[end]), MAX_MESSAGE_CHARS)
            if end > start and total + size > MAX_CONVERSATION_CHARS:
                break
            total += size
            end += 1
        return end

    def _extract(
        self, journal: Journal, *, force: bool = False, snapshot: _Snapshot | None = None
    ) -> ExtractionOutcome | None:
        start, messages, previous = snapshot or journal.snapshot()
        if start < journal.extracted_upto:  # another extraction got further meanwhile
            start, messages, previous = journal.snapshot()
        if force and not any(_message_chars(m) for m in messages[start:]):
            start, previous = 0, None
        if not any(_message_chars(m) for m in messages[start:]):
            return None
        end = self._batch(messages, start)
        batch = messages[start:end]
        try:
            memories = self.store.render(journal.wing, self.settings.memory_budget).text
            template = load_extract_prompt(self.settings.home)
        except (OSError, PalaceError) as exc:
            raise ExtractionFailed(f"cannot prepare the request: {exc}") from exc
        request = build_messages(
            template, session_id=journal.id, wing=journal.wing, memories=memories, previous_summary=previous,
            conversation=batch, first_index=start, entry_limit=self.store.entry_limit,
        )
        try:
            reply = self.client().complete(request, json_mode=True)
        except PalaceError as exc:
            raise ExtractionFailed(str(exc)) from exc
        try:
            summary, raw_items = parse_answer(reply.content)
        except ValueError as exc:
            raise ExtractionFailed(f"the model's answer was not usable JSON ({exc})") from exc
        if reply.usage is not None:
            journal.add_usage(reply.usage.input_tokens, reply.usage.output_tokens)
        items, dropped = self._valid_items(raw_items, journal.wing)
        results: list[ChangeResult] = []
        if items:
            try:
                answers = self.store.save_many(
                    items, message=f"memory: extract {len(items)} from session {journal.id}", by="extracted"
                )
            except PalaceError as exc:
                raise ExtractionFailed(str(exc)) from exc
            for answer in answers:
                if isinstance(answer, ChangeResult):
                    results.append(answer)
                else:
                    dropped += 1
        summary = redact(" ".join(summary.split()) if "\n\n" not in summary else summary.strip())
        if len(summary) > MAX_SUMMARY_CHARS:
            summary = summary[: MAX_SUMMARY_CHARS - 1] + "…"
        journal.record_extraction(end, summary, results, dropped)
        self.last_error = None
        self._retry_at = 0.0
        return ExtractionOutcome(summary=journal.summary or "", results=results, dropped=dropped, upto=end)

    def _valid_items(self, raw_items: list[Any], wing: str | None) -> tuple[list[tuple[str, str]], int]:
        """Items worth handing to save_many; the rest is counted as dropped (save_many drops more)."""
        known_wings = {wing_key(wing)} if wing else set()
        with contextlib.suppress(PalaceError):
            known_wings.update(wing_key(w) for w in self.store.document().wings())
        items: list[tuple[str, str]] = []
        seen: set[tuple[str, str]] = set()
        dropped = 0
        for raw in raw_items:
            if len(items) >= MAX_ITEMS or not isinstance(raw, dict):
                dropped += 1
                continue
            path, content = raw.get("path"), raw.get("content")
            if not isinstance(path, str) or not isinstance(content, str):
                dropped += 1
                continue
            try:
                parsed = parse_path(path)
            except MemoryPathError:
                dropped += 1
                continue
            if parsed.wing is not None and wing_key(parsed.wing) not in known_wings:
                dropped += 1  # a wing the model made up: not this session's, not in the file
                continue
            if parsed.wing is not None and wing and wing_key(parsed.wing) == wing_key(wing):
                path = f"{wing}/{parsed.hall.value}/{parsed.room}"  # the session's own spelling of its wing
            content = _clean_content(content)
            key = (str(parse_path(path)).casefold(), normalise(content))
            if key in seen:
                dropped += 1
                continue
            seen.add(key)
            items.append((path, content))
        return items, dropped

    # ------------------------------------------------------------------ session end
    def finish(self, journal: Journal) -> Path | None:
        """End a session: wait for a background extraction, run the final one, write and commit the
        archive, mark the journal ended and release it. None (and no archive) for an empty session."""
        self.wait()
        journal.claim()
        if not journal.messages and not journal.memory_events:
            journal.discard()
            return None
        ended: datetime = now() if journal.live_here else (journal.ended or journal.last_activity)
        note: str | None = None
        if self.settings.extraction:
            minimum = max(1, self.settings.extract_min)
            for _ in range(MAX_FINAL_ROUNDS):
                if self.pending_chars(journal) < minimum:
                    break
                self.last_error = None
                outcome = self.extract(journal)
                if outcome is None:
                    if self.last_error is not None and journal.summary is None:
                        note = f"(no summary: extraction failed: {self.last_error})"
                    break
        if journal.summary is None and note is None:
            note = self._fallback_summary(journal)
        path = write_archive(journal, ended=ended, summary=note)
        self.commit_archive(journal)
        journal.end()
        journal.close()
        return path

    def commit_archive(self, journal: Journal) -> None:
        """Commit the session's archive through `commit` (git autocommit), if any; a failure only warns."""
        if self.commit is None:
            return
        try:
            self.commit([archive_path(journal)], f"session: archive {journal.id}")
        except Exception as exc:
            (self.commit_warn or self.warn)(f"the archive of session {journal.id} was written, not committed: {exc}")

    def _fallback_summary(self, journal: Journal) -> str:
        reason = "extraction is off" if not self.settings.extraction else "a short session"
        first = next((content_text(m.get("content")) for m in journal.messages if m.get("role") == "user"), "")
        first = " ".join(redact(first).split())
        if not first:
            return f"(no summary: {reason})"
        if len(first) > 120:
            first = first[:119] + "…"
        return f'(no summary: {reason}) It began with: "{first}"'


# ---------------------------------------------------------------------- orphans


def archive_orphans(
    settings: Settings,
    store: MemoryStore,
    *,
    client: LLMClient | None = None,
    commit: Callable[[list[Path], str], object] | None = None,
    warn: Callable[[str], None] = _stderr_warn,
) -> list[str]:
    """Archive the journals of sessions that died (no archive, no live owner); one notice line each.

    Extraction runs when it is on; when it fails the session is archived anyway with a note in place of
    the summary, its bookkeeping left as it was so that `palace sessions extract ID` can retry, and the
    remaining orphans are archived without waiting for the failing endpoint again.
    """
    notices: list[str] = []
    failure: str | None = None
    extractor = Extractor(settings, store, client=client, commit=commit, warn=lambda _: None)
    extractor.commit_warn = warn  # extraction failures become the notice; commit trouble is a warning
    try:
        for path in find_orphans(settings.home):
            try:
                journal = Journal.load(path)
                journal.claim()
            except PalaceError:
                continue  # another palace took it (or it vanished) meanwhile
            try:
                notice, error = _archive_one(extractor, journal, failure)
            except PalaceError as exc:
                notice, error = f"could not archive the unfinished session {journal.id}: {exc}", None
            finally:
                journal.close()
            failure = failure or error
            if notice:
                notices.append(notice)
    finally:
        extractor.close()
    return notices


def _archive_one(extractor: Extractor, journal: Journal, failure: str | None) -> tuple[str, str | None]:
    """(notice, extraction error) for one orphan."""
    if not journal.messages and not journal.memory_events:
        journal.discard()
        return f"Removed the empty journal of the unfinished session {journal.id}", None
    before = len(journal.memory_events)
    error: str | None = None
    if failure is not None and extractor.settings.extraction and extractor.pending_chars(journal):
        note = None if journal.summary else f"(no summary: extraction failed: {failure})"
        write_archive(journal, ended=journal.last_activity, summary=note)
        extractor.commit_archive(journal)
        journal.end()
        error = failure
    else:
        extractor.last_error = None
        extractor.finish(journal)
        error = extractor.last_error
    if error is not None:
        partial = "with the summary of its first part only" if journal.summary else "without a summary"
        return (
            f"Archived the unfinished session {journal.id} {partial} (extraction failed: {error}); "
            f"retry with `palace sessions extract {journal.id}`"
        ), error
    extracted = len(journal.memory_events) - before
    turns = f"{journal.turns} turn{'' if journal.turns == 1 else 's'}"
    memories = f", {extracted} {'memory' if extracted == 1 else 'memories'} extracted" if extracted else ""
    return f"Archived the unfinished session {journal.id} ({turns}{memories})", None
