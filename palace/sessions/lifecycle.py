"""A session's life: resume an earlier one, finish one (final extraction, archive), archive the orphans."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from palace.errors import PalaceError
from palace.memory.secrets import redact
from palace.session_notes import noted_archive, noting
from palace.sessions.archive import archive_path
from palace.sessions.archive import write_archive as _write_archive
from palace.sessions.catalog import find_journal, find_orphans, had_reply, list_sessions
from palace.sessions.extract import MAX_FINAL_ROUNDS, Extractor
from palace.sessions.journal import Journal, content_text, now, sessions_dir
from palace.sessions.live import is_live, register

FAILED = "(failed: no model answered)"  # the summary of a session whose every request failed
write_archive = noted_archive(_write_archive)  # noted, so that the next look at sessions/ needs no listing


def _discard(journal: Journal) -> None:
    """Remove the journal of a session with nothing in it, noted as write_archive's archives are."""
    with noting(journal.path.parent, journal.path.name):
        journal.discard()


def resume(home: Path, session_id: str | None = None) -> Journal:
    """Take over an earlier session: the one named by id or prefix, else the latest of palace's own not in use
    (an imported one, a Claude Code session or a transcript, only when named)."""
    if session_id is not None and session_id.strip():
        return Journal.take_over(find_journal(home, session_id))
    for info in list_sessions(home):
        if info.journal is not None and not is_live(info.journal) and Journal.load(info.journal).imported is None:
            return Journal.take_over(info.journal)
    raise PalaceError(f"no session to resume in {sessions_dir(home)} (imported ones only by id)")


def said_anything(journal: Journal) -> bool:
    """Did the user say anything in the session (a message with text, not only slash commands)?"""
    return any(m.get("role") == "user" and content_text(m.get("content")).strip() for m in journal.messages)


def finish(
    extractor: Extractor, journal: Journal, *, keep_unanswered: bool = False, archive_first: bool = False
) -> Path | None:
    """End a session: wait for a background extraction, run the final one, write and commit the archive,
    mark the journal ended and release it.

    A session in which nothing was said and no memory changed (only slash commands) leaves nothing: None, its
    journal removed. One the model never answered (every request failed) is archived as failed, without an
    extraction, so that what the user typed is kept and listed, unless keep_unanswered (a session that died
    waiting for its reply: extracted as usual). `archive_first` writes the archive before the extraction, so
    that a process killed during it (a closed terminal) still leaves one; the extraction then rewrites it.
    """
    extractor.wait()
    journal.claim()
    unanswered = not journal.memory_events and not had_reply(journal.messages)
    if unanswered and not said_anything(journal):
        _discard(journal)
        return None
    ended: datetime = now() if journal.live_here else (journal.ended or journal.last_activity)
    if unanswered and not keep_unanswered:
        return _close(extractor, journal, ended, None if journal.summary else _first_words(journal, FAILED))
    if archive_first:
        write_archive(journal, ended=ended, summary=None if journal.summary else "(no summary yet)")
    note = _final_extraction(extractor, journal)
    if journal.summary is None and note is None:
        note = _fallback_summary(extractor, journal)
    return _close(extractor, journal, ended, note)


def _close(extractor: Extractor, journal: Journal, ended: datetime, note: str | None) -> Path:
    """Write and commit the archive, mark the journal ended and release it."""
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
    return _first_words(journal, f"(no summary: {reason})")


def _first_words(journal: Journal, note: str) -> str:
    """The note, and what the user said first: `(...) It began with: "..."`."""
    first = next((content_text(m.get("content")) for m in journal.messages if m.get("role") == "user"), "")
    first = " ".join(redact(first).split())
    if not first:
        return note
    if len(first) > 120:
        first = first[:119] + "…"
    return f'{note} It began with: "{first}"'


def archive_orphans(extractor: Extractor, *, later: list[Journal] | None = None, keep: str | None = None) -> list[str]:
    """Archive the journals of sessions that died (no archive, no live owner); one notice line each.

    Extraction runs when it is on; when it fails the session is archived anyway with a note in place of
    the summary, its bookkeeping left as it was so that `palace sessions extract ID` can retry, and the
    remaining orphans are archived without waiting for the failing endpoint again. With `later`, an orphan with
    something to extract is archived at once instead and put there, still claimed, for extract_orphans. The
    session `keep` (an id) is left as it is: it is about to be resumed.
    """
    notices: list[str] = []
    failure: str | None = None
    for path in find_orphans(extractor.settings.home):
        if path.stem == keep:
            continue
        try:
            journal = Journal.load(path)
            journal.claim()
        except PalaceError:
            continue  # another palace took it (or it vanished) meanwhile
        deferred = False
        try:
            if later is not None and _extracts(extractor, journal):
                notice, error, deferred = _archive_now(journal), None, True
                later.append(journal)
            else:
                notice, error = _archive_one(extractor, journal, failure)
        except PalaceError as exc:
            notice, error = f"could not archive the unfinished session {journal.id}: {exc}", None
        finally:
            if not deferred:
                journal.close()
        failure = failure or error
        if notice:
            notices.append(notice)
    return notices


def _extracts(extractor: Extractor, journal: Journal) -> bool:
    """Has the orphan enough new conversation for its final extraction?"""
    settings = extractor.settings
    return settings.extracting and extractor.pending_chars(journal) >= max(1, settings.extract_min)


def _archive_now(journal: Journal) -> str:
    """An orphan archived before its extraction (which extract_orphans runs): findable and listed at once, and
    still registered, so that the next start finishes it when this process dies first."""
    write_archive(journal, ended=journal.last_activity, summary=None if journal.summary else "(no summary yet)")
    register(journal.path)
    turns = f"{journal.turns} turn{'' if journal.turns == 1 else 's'}"
    return f"Archived the unfinished session {journal.id} ({turns}); its extraction runs in the background"


def extract_orphans(extractor: Extractor, journals: list[Journal]) -> list[str]:
    """The final extraction of the orphans archive_orphans(later=...) archived at once, one after the other (the
    rest wait for no endpoint that failed once); a line for each, and the journals released."""
    notices: list[str] = []
    failure: str | None = None
    for journal in journals:
        try:
            notice, error = _archive_one(extractor, journal, failure, background=True)
        except PalaceError as exc:
            notice, error = f"could not finish the unfinished session {journal.id}: {exc}", None
        finally:
            journal.close()
        failure = failure or error
        notices.append(notice)
    return notices


def _archive_one(
    extractor: Extractor, journal: Journal, failure: str | None, *, background: bool = False
) -> tuple[str, str | None]:
    """(notice, extraction error) for one orphan; `background`: it was archived already, this extracts it."""
    if not journal.messages and not journal.memory_events:
        _discard(journal)
        return f"Removed the empty journal of the unfinished session {journal.id}", None
    before = len(journal.memory_events)
    error: str | None = None
    failed = False  # archived as failed: every request of it failed, and it has nothing to extract
    if failure is not None and extractor.settings.extracting and extractor.pending_chars(journal):
        note = None if journal.summary else f"(no summary: extraction failed: {failure})"
        write_archive(journal, ended=journal.last_activity, summary=note)
        commit_archive(extractor, journal)
        journal.end()
        error = failure
    else:
        extractor.last_error = None
        said = _extracts(extractor, journal)
        failed = not said and not journal.memory_events and not had_reply(journal.messages)
        if finish(extractor, journal, keep_unanswered=said) is None:
            return f"Removed the unfinished session {journal.id}: nothing was said in it and nothing changed", None
        error = extractor.last_error
    return _orphan_notice(journal, journal.memory_events[before:], error, background=background, failed=failed), error


def _orphan_notice(
    journal: Journal, events: list[dict[str, object]], error: str | None, *, background: bool, failed: bool
) -> str:
    """What became of an orphan, in one line (`background`: the second line of one archived before)."""
    retry = f"retry with `palace sessions extract {journal.id}`"
    if error is not None and background:
        return f"The extraction of the unfinished session {journal.id} failed ({error}); {retry}"
    if error is not None:
        partial = "with the summary of its first part only" if journal.summary else "without a summary"
        return f"Archived the unfinished session {journal.id} {partial} (extraction failed: {error}); {retry}"
    if background:
        return f"Extracted the unfinished session {journal.id}: {_named(events)[2:] or 'nothing new to remember'}"
    turns = f"{journal.turns} turn{'' if journal.turns == 1 else 's'}"
    if failed:
        return f"Archived the unfinished session {journal.id} as failed ({turns}; no model answered)"
    return f"Archived the unfinished session {journal.id} ({turns}{_named(events)})"


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
