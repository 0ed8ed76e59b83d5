"""Extraction: lasting facts and a summary from a session, in the background after turns or at its end.

One non-streaming model call per extraction, with the packaged `prompts/extract.md` (a user's
`$PALACE_HOME/prompts/extract.md` overrides it; see extract_prompt). Every item goes through
`MemoryStore.save_many` (validation, dedup, secret guard) in one write; invalid items are dropped and
counted. The journal's bookkeeping (`extracted_upto`) advances only when all of that succeeded, so a
failure is retried later and a restart never extracts the same messages twice.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from palace.config import Settings
from palace.errors import MemoryPathError, PalaceError, SecretError
from palace.memory.halls import parse_path, wing_key
from palace.memory.ops import ChangeResult, check_path_secret, normalise, validate_content
from palace.memory.review import CONFIDENCES, Proposal, ReviewQueue, Waiting, instruction_flag
from palace.memory.secrets import find_secret, redact
from palace.memory.store import MemoryStore
from palace.record import field, record
from palace.sessions.extract_prompt import (
    MAX_MESSAGE_CHARS,
    build_messages,
    clean_content,
    load_extract_prompt,
    message_chars,
    parse_answer,
)
from palace.sessions.journal import Journal
from palace.threads import start_thread

if TYPE_CHECKING:
    from palace.memory.document import Document
    from palace.model.chat import ChatModel

MAX_CONVERSATION_CHARS = 48_000  # per call; a longer backlog is extracted in several calls
MAX_ITEMS = 30  # items beyond this in one answer are dropped
MAX_SUMMARY_CHARS = 2_000
MAX_FINAL_ROUNDS = 6  # extraction calls at session end (each covers up to MAX_CONVERSATION_CHARS)

_Snapshot = tuple[int, list[dict[str, Any]], str | None]  # (extracted_upto, messages, summary)


def _stderr_warn(message: str) -> None:
    print(f"palace: {message}", file=sys.stderr)


@record
class ExtractionOutcome:
    summary: str
    results: list[ChangeResult]  # what was saved (or refreshed, or replaced) in memories.md
    dropped: int
    upto: int
    proposed: list[Proposal] = field(default_factory=list)  # what went to review.md instead
    model: str = ""  # the model that extracted, and the tokens (input, output) its call used
    usage: tuple[int, int] = (0, 0)


@record(frozen=True)
class Candidate:
    """An item of the model's answer that may be saved: where, what, how sure, and what it replaces."""

    path: str
    content: str
    confidence: str = "medium"
    replaces: str | None = None


class ExtractionFailed(PalaceError):
    """The extraction call failed or its answer was unusable (nothing was written, nothing advanced)."""


# ---------------------------------------------------------------------- extractor


class Extractor:
    """Runs extractions for a session: in the background after turns, synchronously at the end."""

    def __init__(
        self,
        settings: Settings,
        store: MemoryStore,
        *,
        client: ChatModel | None = None,
        commit: Callable[[list[Path], str], object] | None = None,
        warn: Callable[[str], None] = _stderr_warn,
        on_extracted: Callable[[ExtractionOutcome], None] | None = None,
        retry_delay: float = 30.0,
    ) -> None:
        self.settings = settings
        self.store = store
        self.queue = ReviewQueue(settings.home)
        self.commit = commit
        self.warn = warn
        self.on_extracted = on_extracted  # told of every successful extraction (from the background thread too)
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
    def client(self) -> ChatModel:
        with self._client_lock:
            if self._client is None:
                from palace.model.client import client_from_settings

                self._client = client_from_settings(
                    self.settings, model=self.settings.extract_model, timeout=self.settings.extract_timeout
                )
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
        return sum(message_chars(m) for m in messages[upto:])

    @property
    def in_flight(self) -> bool:
        thread = self._thread
        return thread is not None and thread.is_alive()

    # ------------------------------------------------------------------ background
    def maybe_start(self, journal: Journal) -> bool:
        """After a completed turn: start a background extraction when enough is pending. Never waits."""
        if not self.settings.extracting:
            return False
        with self._state_lock:
            if self.in_flight or time.monotonic() < self._retry_at:
                return False
            snapshot = journal.snapshot()  # exactly what this turn end has; later messages wait their turn
            upto, messages, _ = snapshot
            if sum(message_chars(m) for m in messages[upto:]) < self.settings.extract_trigger:
                return False
            self._thread = start_thread(self._background, name="palace-extract", args=(journal, snapshot))
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
        self._tell(outcome)

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
                outcome = self._extract(journal, force=force)
            except ExtractionFailed as exc:
                self._failed(str(exc))
                return None
        self._tell(outcome)
        return outcome

    def _tell(self, outcome: ExtractionOutcome | None) -> None:
        """Show what an extraction changed (every change to memories.md is one line to the user)."""
        if outcome is None or self.on_extracted is None:
            return
        try:
            self.on_extracted(outcome)
        except Exception as exc:
            self.warn(f"could not show the extracted memories: {exc}")

    def _failed(self, reason: str) -> None:
        self.last_error = reason
        self._retry_at = time.monotonic() + self.retry_delay
        self.warn(f"memory extraction failed: {reason} (it will be retried; the conversation is kept)")

    def _batch(self, messages: list[dict[str, Any]], start: int) -> int:
        """The end index of the next extraction batch (at most MAX_CONVERSATION_CHARS of text)."""
        total = 0
        end = start
        while end < len(messages):
            size = min(message_chars(messages[end]), MAX_MESSAGE_CHARS)
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
        if force and not any(message_chars(m) for m in messages[start:]):
            start, previous = 0, None
        if not any(message_chars(m) for m in messages[start:]):
            return None
        end = self._batch(messages, start)
        batch = messages[start:end]
        try:
            memories = self.store.render(journal.wings, self.settings.memory_budget).text
            template = load_extract_prompt(self.settings.home)
        except (OSError, PalaceError) as exc:
            raise ExtractionFailed(f"cannot prepare the request: {exc}") from exc
        request = build_messages(
            template,
            session_id=journal.id,
            wings=journal.wings,
            memories=memories,
            previous_summary=previous,
            conversation=batch,
            first_index=start,
            entry_limit=self.store.entry_limit,
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
        candidates, dropped = self._valid_items(raw_items, journal.wings)
        plan = route(candidates, self.store, self.queue, journal.id, self.settings.auto_save)
        results, refused = self._save_plan(plan, journal)
        dropped += plan.secrets + refused
        self._queue_proposals(plan, journal)
        summary = redact(" ".join(summary.split()) if "\n\n" not in summary else summary.strip())
        if len(summary) > MAX_SUMMARY_CHARS:
            summary = summary[: MAX_SUMMARY_CHARS - 1] + "…"
        journal.record_extraction(end, summary, results, dropped, [(str(p.path), p.content) for p in plan.propose])
        self.last_error = None
        self._retry_at = 0.0
        used = (reply.usage.input_tokens, reply.usage.output_tokens) if reply.usage is not None else (0, 0)
        model = self.settings.extract_model or self.settings.model
        return ExtractionOutcome(journal.summary or "", results, dropped, end, plan.propose, model, used)

    def _save_plan(self, plan: Plan, journal: Journal) -> tuple[list[ChangeResult], int]:
        """Save what the plan saves, in one change: the results, and how many items the store refused."""
        if not plan.save:
            return [], 0
        try:
            answers = self.store.save_many(
                plan.save, message=f"memory: extract {len(plan.save)} from session {journal.id}", by="extracted"
            )
        except PalaceError as exc:
            raise ExtractionFailed(str(exc)) from exc
        results = [answer for answer in answers if isinstance(answer, ChangeResult)]
        return results, len(answers) - len(results)

    def _queue_proposals(self, plan: Plan, journal: Journal) -> None:
        """Write what goes to review.md (and take out what was promoted), then commit it."""
        if not plan.propose and not plan.promoted:
            return
        try:
            with self.store.lock():
                self.queue.take(plan.promoted)
                self.queue.propose(plan.propose, self.store.today().isoformat())
        except (OSError, PalaceError) as exc:
            raise ExtractionFailed(f"cannot write the review queue: {exc}") from exc
        if self.commit is not None:
            with contextlib.suppress(Exception):  # git trouble is warned about by the commit itself
                self.commit([self.queue.file], f"memory: {len(plan.propose)} proposed for review from {journal.id}")

    def _valid_items(self, raw_items: list[Any], wings: list[str]) -> tuple[list[Candidate], int]:
        """Items worth routing to memories.md or review; the rest is counted as dropped."""
        spelling = {wing_key(w): w for w in wings}  # the session's own spelling of its wings
        known_wings = set(spelling)
        with contextlib.suppress(PalaceError):
            known_wings.update(wing_key(w) for w in self.store.document().wings())
        items: list[Candidate] = []
        seen: set[tuple[str, str]] = set()
        dropped = 0
        for raw in raw_items:
            item = _candidate(raw, spelling, known_wings, self.store.entry_limit) if len(items) < MAX_ITEMS else None
            key = (str(parse_path(item.path)).casefold(), normalise(item.content)) if item else None
            if item is None or key is None or key in seen:
                dropped += 1
                continue
            seen.add(key)
            items.append(item)
        return items, dropped


def _candidate(raw: object, spelling: dict[str, str], known_wings: set[str], limit: int) -> Candidate | None:
    """One item of the answer checked and cleaned, or None (dropped)."""
    if not isinstance(raw, dict):
        return None
    path, content = raw.get("path"), raw.get("content")
    if not isinstance(path, str) or not isinstance(content, str):
        return None
    try:
        parsed = parse_path(path)
    except MemoryPathError:
        return None
    if parsed.wing is not None and wing_key(parsed.wing) not in known_wings:
        return None  # a wing the model made up: not this session's, not in the file
    if parsed.wing is not None and wing_key(parsed.wing) in spelling:
        path = f"{spelling[wing_key(parsed.wing)]}/{parsed.hall.value}/{parsed.room}"
    try:  # what may not be saved may not be proposed either
        content = validate_content(clean_content(content), limit)
        check_path_secret(path)
    except PalaceError:
        return None
    confidence = raw.get("confidence")
    confidence = confidence.strip().lower() if isinstance(confidence, str) else "medium"
    replaces = raw.get("replaces")
    replaces = clean_content(replaces) if isinstance(replaces, str) and replaces.strip() else None
    return Candidate(path, content, confidence if confidence in CONFIDENCES else "medium", replaces)


@record
class Plan:
    """Where each candidate goes: saved now, proposed for review, or promoted out of review."""

    save: list[tuple[str, str, str | None]] = field(default_factory=list)
    propose: list[Proposal] = field(default_factory=list)
    promoted: list[Proposal] = field(default_factory=list)
    secrets: int = 0  # candidates dropped because their text or path looks like a secret (written nowhere)


def route(candidates: list[Candidate], store: MemoryStore, queue: ReviewQueue, session: str, auto: str) -> Plan:
    """Decide for each candidate (seed 003: high is published, medium is promoted when reused, low waits).

    A confirmation of an entry is saved (it only refreshes the date), and with `auto` = "all" everything;
    with "none" nothing new is saved without review. A candidate that another session already proposed is
    promoted unless it is low; one this session's user rejected is not proposed again. One that reads as an
    instruction to the model is only ever proposed (flagged); one that looks like a secret is dropped (counted).
    review.md and memories.md are read once, and each candidate is looked up by its key.
    """
    plan = Plan()
    try:
        doc = store.document()
    except PalaceError:
        doc = None
    waiting = queue.waiting()
    for item in candidates:
        if find_secret(item.content) is not None or _path_secret(item.path):
            plan.secrets += 1
            continue
        parsed = parse_path(item.path)
        proposal = Proposal(parsed, item.content, session, item.confidence, flag=instruction_flag(item.content))
        found = waiting.find(proposal)
        if found is not None and found.item is None:
            continue  # the same fact twice in this batch: planned already
        _route_one(plan, item, proposal, found, _Seen(doc, waiting, session, auto))
        waiting.add(proposal)
    return plan


@record(frozen=True)
class _Seen:
    """What route read once for all candidates, and how it was asked to decide."""

    doc: Document | None
    waiting: Waiting
    session: str
    auto: str


def _route_one(plan: Plan, item: Candidate, proposal: Proposal, found: Proposal | None, seen: _Seen) -> None:
    """Plan one candidate: saved, promoted, proposed, or left out (rejected, flagged and waiting)."""
    doc, parsed = seen.doc, proposal.path
    replaces = item.replaces
    if replaces is not None and doc is not None and not _has(doc.room_entries(parsed), replaces):
        replaces = None  # it names no entry of that room: save it beside the others instead
    confirmation = doc is not None and doc.equal_entry(parsed.wing, item.content) is not None
    sure = not proposal.flag and (seen.auto == "all" or (seen.auto == "high" and item.confidence == "high"))
    if confirmation or sure:
        plan.save.append((item.path, item.content, replaces))
        plan.promoted += [found] if found is not None else []
    elif seen.waiting.was_rejected(proposal):
        return
    elif found is not None and found.session != seen.session and item.confidence != "low" and seen.auto != "none":
        if not proposal.flag:  # already waiting, flagged: the user decides, a second session does not
            plan.save.append((item.path, item.content, replaces))
            plan.promoted.append(found)
    elif found is None:
        plan.propose.append(proposal)


def _path_secret(path: str) -> bool:
    """Does the path as written (before it became a slug) look like it holds a secret?"""
    try:
        check_path_secret(path)
    except SecretError:
        return True
    return False


def _has(entries: list[Any], content: str) -> bool:
    return any(normalise(e.content) == normalise(content) for e in entries)
