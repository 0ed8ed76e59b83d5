"""A palace from before the live registry: the one-time look for the sessions it resumed and left unfinished,
a slice of the archived sessions a start (palace/sessions/live.py), still finds and archives every one."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from extraction_env import Env, turn

from palace.config import Settings
from palace.sessions import live
from palace.sessions.catalog import find_orphans
from palace.sessions.journal import Journal
from palace.sessions.lifecycle import finish
from palace.testing.server import ScriptedServer


@pytest.fixture
def env(fake_server: ScriptedServer, settings_for: Callable[..., Settings]) -> Env:
    return Env(settings_for(fake_server), fake_server)


def _finished(env: Env, words: str) -> Journal:
    journal = env.journal()
    turn(journal, words, "ok")
    assert finish(env.extractor(), journal) is not None  # archived, its end mark written, unregistered
    return journal


def _resumed_by_an_old_palace(journal: Journal) -> None:
    """What a palace from before the registry leaves when a resumed session dies: a "resumed" mark and more
    conversation after the end, written a while after the archive, and no registry entry."""
    with journal.path.open("a", encoding="utf-8") as handle:
        for record in (
            {"type": "resumed", "ts": "2026-11-30T10:00:00+00:00", "pid": 1, "host": "old"},
            {"type": "message", "message": {"role": "user", "content": "the part after the resume"}},
        ):
            handle.write(json.dumps(record) + "\n")
    later = (journal.path.with_suffix(".md")).stat().st_mtime_ns + 60 * 10**9
    os.utime(journal.path, ns=(later, later))


def _as_before_the_registry(home: Path) -> Path:
    folder = home / "sessions" / ".live"
    for name in os.listdir(folder):
        (folder / name).unlink()
    for state in ("unarchived-sessions", "sessions.notes"):
        (home / ".index" / state).unlink(missing_ok=True)
    return folder


def test_an_old_palaces_unfinished_resume_is_archived_by_a_later_start(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live, "CHECK_SLICE", 2)
    sessions = sorted((_finished(env, f"session {n}") for n in range(5)), key=lambda j: j.id)
    oldest = sessions[0]  # looked at last: the newest come first
    _resumed_by_an_old_palace(oldest)
    folder = _as_before_the_registry(env.home)
    starts = []
    while not (folder / live.SCANNED).exists():
        starts.append(env.orphans())
        assert len(starts) <= 3
    assert starts[:2] == [[], []]  # two starts of two sessions each, then the last one
    assert starts[2] == [f"Archived the unfinished session {oldest.id} (2 turns)"]
    assert "- Turns: 2\n" in oldest.path.with_suffix(".md").read_text(encoding="utf-8")  # the resumed part too
    assert json.loads(oldest.path.read_text(encoding="utf-8").splitlines()[-1])["type"] == "end"
    assert not (folder / live.UNCHECKED).exists() and not (folder / oldest.id).exists()
    assert env.orphans() == [] and find_orphans(env.home) == []


def test_a_session_the_look_found_stays_an_orphan_until_it_is_archived(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live, "CHECK_SLICE", 1)
    first, second = sorted((_finished(env, f"session {n}") for n in range(2)), key=lambda j: j.id)
    _resumed_by_an_old_palace(second)  # the newest: found by the first start
    folder = _as_before_the_registry(env.home)
    assert find_orphans(env.home) == [second.path]
    assert (folder / second.id).exists()  # registered: a start that dies before archiving it finds it again
    assert (folder / live.UNCHECKED).read_text(encoding="utf-8").split("\n")[1:] == [first.id, ""]
    assert find_orphans(env.home) == [second.path]  # the registry names it; the look has done the rest
    assert (folder / live.SCANNED).exists() and not (folder / live.UNCHECKED).exists()


def test_the_whole_look_is_done_at_once_when_its_progress_cannot_be_kept(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live, "CHECK_SLICE", 1)
    monkeypatch.setattr(live, "_keep_unchecked", lambda folder, ids: False)
    sessions = sorted((_finished(env, f"session {n}") for n in range(3)), key=lambda j: j.id)
    _resumed_by_an_old_palace(sessions[0])
    folder = _as_before_the_registry(env.home)
    assert find_orphans(env.home) == [sessions[0].path]
    assert (folder / live.SCANNED).exists()


def test_a_lost_or_damaged_list_starts_the_look_again(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "CHECK_SLICE", 1)
    sessions = sorted((_finished(env, f"session {n}") for n in range(2)), key=lambda j: j.id)
    _resumed_by_an_old_palace(sessions[0])
    folder = _as_before_the_registry(env.home)
    assert find_orphans(env.home) == []
    (folder / live.UNCHECKED).write_text("not a list\n" + sessions[1].id + "\n", encoding="utf-8")
    assert find_orphans(env.home) == []  # the newest again, from a listing
    assert find_orphans(env.home) == [sessions[0].path]
