"""A session's life: resume an earlier one, finish one (final extraction, archive), archive the orphans."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from palace.errors import PalaceError
from palace.memory.secrets import redact
from palace.sessions.archive import archive_path, write_archive
from palace.sessions.catalog import find_journal, find_orphans, had_reply, list_sessions
from palace.sessions.extract import MAX_FINAL_ROUNDS, Extractor
from palace.sessions.journal import Journal, content_text, now, sessions_dir
from palace.sessions.live import is_live


def resume(home: Path, session_id: str | None = None) -> Journal:
    """Take over an earlier session: the latest one not in use, or the one named by id or prefix."""
    if session_id is not None and session_id.strip():
        return Journal.take_over(find_journal(home, session_id))
    for info in list_sessions(home):
        if info.journal is not None and not is_live(info.journal):
            return Journal.take_over(info.journal)
    raise PalaceError(f"no session to resume in {sessions_dir(home)}")


def finish(extractor: Extractor, journal: Journal, *, keep_unanswered: bool = False) -> Path | None:
    """End a session: wait for a background extraction, run the final one, write and commit the archive,
    mark the journal ended and release it. None (and no archive) for a session the model never answered and
    that changed no memory (an empty one, only slash commands, every call failed): its journal is removed,
    unless keep_unanswered (a session that died waiting for its reply: what the user said still counts)."""
    extractor.wait()
    journal.claim()
    if not keep_unanswered and not journal.memory_events and not had_reply(journal.messages):
        journal.discard()
        return None
    ended: datetime = now() if journal.live_here else (journal.ended or journal.last_activity)
    note = _final_extraction(extractor, journal)
    if journal.summary is None and note is None:
        note = _fallback_summary(extractor, journal)
    path = write_archive(journal, ended=ended, summary=note)
    commit_archive(extractor, journal)
    journal.end()
    journal.close()
    return path


def _final_extraction(extractor: Extractor, journal: Journal) -> str | None:
    """Extract what is pending (in up to MAX_FINAL_ROUNDS calls); a note for the archive when it failed."""
    settings = extractor.settings
    if not settings.extracting:
        return None
    minimum = max(1, settings.extract_min)
    for _ in range(MAX_FINAL_ROUNDS):
        if extractor.pending_chars(journal) < minimum:
            break
        extractor.last_error = None
        if extractor.extract(journal) is None:
            if extractor.last_error is not None and journal.summary is None:
                return f"(no summary: extraction failed: {extractor.last_error})"
            break
    return None


def commit_archive(extractor: Extractor, journal: Journal) -> None:
    """Commit the session's archive through the extractor's `commit` (git autocommit); trouble only warns."""
    if extractor.commit is None:
        return
    try:
        extractor.commit([archive_path(journal)], f"session: archive {journal.id}")
    except Exception as exc:
        warn = extractor.commit_warn or extractor.warn
        warn(f"the archive of session {journal.id} was written, not committed: {exc}")


def _fallback_summary(extractor: Extractor, journal: Journal) -> str:
    if not extractor.settings.memory_enabled:
        reason = "memory is off"
    else:
        reason = "extraction is off" if not extractor.settings.extraction else "a short session"
    first = next((content_text(m.get("content")) for m in journal.messages if m.get("role") == "user"), "")
    first = " ".join(redact(first).split())
    if not first:
        return f"(no summary: {reason})"
    if len(first) > 120:
        first = first[:119] + "…"
    return f'(no summary: {reason}) It began with: "{first}"'


def archive_orphans(extractor: Extractor) -> list[str]:
    """Archive the journals of sessions that died (no archive, no live owner); one notice line each.

    Extraction runs when it is on; when it fails the session is archived anyway with a note in place of
    the summary, its bookkeeping left as it was so that `palace sessions extract ID` can retry, and the
    remaining orphans are archived without waiting for the failing endpoint again.
    """
    notices: list[str] = []
    failure: str | None = None
    for path in find_orphans(extractor.settings.home):
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
    return notices


def _archive_one(extractor: Extractor, journal: Journal, failure: str | None) -> tuple[str, str | None]:
    """(notice, extraction error) for one orphan."""
    if not journal.messages and not journal.memory_events:
        journal.discard()
        return f"Removed the empty journal of the unfinished session {journal.id}", None
    before = len(journal.memory_events)
    error: str | None = None
    if failure is not None and extractor.settings.extracting and extractor.pending_chars(journal):
        note = None if journal.summary else f"(no summary: extraction failed: {failure})"
        write_archive(journal, ended=journal.last_activity, summary=note)
        commit_archive(extractor, journal)
        journal.end()
        error = failure
    else:
        extractor.last_error = None
        said = extractor.settings.extracting and extractor.pending_chars(journal) >= max(
            1, extractor.settings.extract_min
        )
        if finish(extractor, journal, keep_unanswered=said) is None:
            return f"Removed the unfinished session {journal.id}: the model never replied and nothing changed", None
        error = extractor.last_error
    if error is not None:
        partial = "with the summary of its first part only" if journal.summary else "without a summary"
        return (
            f"Archived the unfinished session {journal.id} {partial} (extraction failed: {error}); "
            f"retry with `palace sessions extract {journal.id}`"
        ), error
    turns = f"{journal.turns} turn{'' if journal.turns == 1 else 's'}"
    return f"Archived the unfinished session {journal.id} ({turns}{_named(journal.memory_events[before:])})", None


def _named(events: list[dict[str, object]]) -> str:
    """The memory changes an orphan's extraction made, named (a few, then how many more)."""
    if not events:
        return ""
    words = []
    for event in events[:3]:
        action = "proposed for review" if event.get("action") == "proposed" else event.get("action")
        words.append(f"{event.get('path')}: {event.get('content')} ({action})")
    more = f"; and {len(events) - 3} more" if len(events) > 3 else ""
    count = f"{len(events)} {'memory' if len(events) == 1 else 'memories'} extracted"
    return f", {count}: " + "; ".join(words) + more
