"""Undo takes a whole change back: memories.md, superseded.md, review.md and the reuse counts move together.

Recall reads superseded.md; if undo left a change's record there, the model would be told that a fact it can
see in memories.md is "no longer true". An undone review accept must put the proposal back in review.md.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from palace.errors import PalaceError, UndoError
from palace.history.undo import UNDO_DEPTH, UndoRecorder, undo_last
from palace.memory import MemoryStore, parse_path
from palace.memory.review import Proposal, ReviewQueue
from palace.paths import PalacePaths

START = b"""# Memories

## Preferences

### editors
- [2026-01-02] Uses neovim with lazy.nvim
- [2026-01-03] Prefers a dark theme

## Decisions

### database
- [2026-01-04] PostgreSQL 16 for the main service
"""
PROPOSALS = [
    ("Preferences/shells", "Uses fish as the login shell"),
    ("Decisions/testing", "vitest for the web client"),
    ("Preferences/editors", "Prefers a dark theme"),  # already in memories.md: an accept changes only review.md
]
FACTS = ["Uses helix sometimes", "Runs tests with pytest -x", "Deploys on Fridays never"]
ROOMS = ["Preferences/editors", "Decisions/database", "Preferences/shells"]


class Day:
    def __init__(self) -> None:
        self.value = date(2026, 3, 1)

    def __call__(self) -> date:
        return self.value


def _palace(root: Path) -> tuple[Path, Day, MemoryStore, ReviewQueue]:
    home = root / "palace"
    home.mkdir(mode=0o700)
    (home / "memories.md").write_bytes(START)
    day = Day()
    store = MemoryStore(home, hooks=[UndoRecorder(home)], today=day)
    queue = ReviewQueue(home)
    with store.lock():
        queue.propose([Proposal(parse_path(p), c, "s1", "medium") for p, c in PROPOSALS], "2026-02-27")
    store.reuse.bump([("Preferences/editors", "Uses neovim with lazy.nvim")], "recalled", "2026-02-28")
    return home, day, store, queue


def _files(home: Path) -> dict[str, bytes | None]:
    """Every file a memory change may write, as bytes (None: absent)."""
    paths = PalacePaths(home)
    files = [paths.memories, paths.superseded, paths.review, paths.index / "reuse.json"]
    files.append(paths.index / "review-rejected.json")
    return {f.name: f.read_bytes() if f.exists() else None for f in files}


def _step(kind: str, pick: int, store: MemoryStore, queue: ReviewQueue) -> None:
    """One change of the given kind (nothing happens when there is nothing to act on)."""
    entries = [e for e in store.document().entries if e.path is not None]
    entry = entries[pick % len(entries)] if entries else None
    pending = queue.pending()
    if kind == "save":
        store.save(ROOMS[pick % len(ROOMS)], FACTS[pick % len(FACTS)])
    elif kind == "refresh" and entry is not None:
        store.save(str(entry.path), entry.content)
    elif kind == "replace" and entry is not None:
        store.save(str(entry.path), f"{entry.content} (changed {pick})", replaces=entry.content)
    elif kind == "forget" and entry is not None:
        store.forget(str(entry.path), entry.content)
    elif kind == "clear":
        store.clear()
    elif kind == "accept" and pending:
        queue.accept(store, [pending[pick % len(pending)]])
    elif kind == "reject" and pending:
        queue.reject([pending[pick % len(pending)]], store)


KINDS = ["save", "refresh", "replace", "forget", "clear", "accept", "reject"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(st.tuples(st.sampled_from(KINDS), st.integers(0, 50)), min_size=1, max_size=UNDO_DEPTH))
def test_undo_back_to_the_start_leaves_every_file_as_it_was(steps: list[tuple[str, int]]) -> None:
    root = Path(tempfile.mkdtemp())
    try:
        home, day, store, queue = _palace(root)
        start = _files(home)
        for kind, pick in steps:
            day.value += timedelta(days=1)  # a fact saved again is refreshed (a new date), not "unchanged"
            with contextlib.suppress(PalaceError):  # refused (a duplicate replace, say): it changed nothing
                _step(kind, pick, store, queue)
        undone = 0
        while True:
            try:
                message = undo_last(store, home)
            except UndoError:
                break
            assert "changed since" not in message, message
            undone += 1
        assert undone <= len(steps)
        assert _files(home) == start
    finally:
        shutil.rmtree(root)


@pytest.fixture
def palace(tmp_path: Path) -> tuple[Path, Day, MemoryStore, ReviewQueue]:
    return _palace(tmp_path)


def test_an_undone_replace_leaves_no_superseded_record_for_recall(
    palace: tuple[Path, Day, MemoryStore, ReviewQueue],
) -> None:
    home, _day, store, _queue = palace
    store.save("Preferences/editors", "Uses helix", replaces="Uses neovim with lazy.nvim")
    superseded = PalacePaths(home).superseded
    assert "Uses neovim with lazy.nvim" in superseded.read_text()
    assert undo_last(store, home).startswith("Undone:")
    assert not superseded.exists()  # it did not exist before the replace
    assert b"Uses neovim with lazy.nvim" in (home / "memories.md").read_bytes()


def test_an_undone_review_accept_puts_the_proposal_back(palace: tuple[Path, Day, MemoryStore, ReviewQueue]) -> None:
    home, _day, store, queue = palace
    (first,) = [p for p in queue.pending() if p.content == "Uses fish as the login shell"]
    queue.accept(store, [first])
    assert "Uses fish" in (home / "memories.md").read_text()
    assert "Uses fish" not in PalacePaths(home).review.read_text()
    undo_last(store, home)
    assert "Uses fish" not in (home / "memories.md").read_text()
    assert [p.content for p in queue.pending()].count("Uses fish as the login shell") == 1  # the fact is not lost


def test_an_undone_reject_lets_the_session_propose_it_again(palace: tuple[Path, Day, MemoryStore, ReviewQueue]) -> None:
    home, _day, store, queue = palace
    (first,) = [p for p in queue.pending() if p.content == "vitest for the web client"]
    queue.reject([first], store)
    assert queue.was_rejected(first)
    assert undo_last(store, home).startswith("Undone: review reject Decisions/testing")
    assert not queue.was_rejected(first)
    assert "vitest for the web client" in [p.content for p in queue.pending()]


def test_a_superseded_record_edited_since_is_still_taken_back(
    palace: tuple[Path, Day, MemoryStore, ReviewQueue],
) -> None:
    home, _day, store, _queue = palace
    store.forget("Decisions/database", "PostgreSQL 16 for the main service")
    superseded = PalacePaths(home).superseded
    superseded.write_text(superseded.read_text() + "\nA note the user wrote here by hand.\n")
    undo_last(store, home)
    text = superseded.read_text()
    assert "PostgreSQL 16" not in text and "A note the user wrote here by hand." in text


def test_a_side_file_rewritten_by_hand_keeps_its_text_and_undo_says_so(
    palace: tuple[Path, Day, MemoryStore, ReviewQueue],
) -> None:
    home, _day, store, _queue = palace
    store.forget("Decisions/database", "PostgreSQL 16 for the main service")
    superseded = PalacePaths(home).superseded
    superseded.write_text("# My own notes\n")  # the record is gone: nothing of the change to take back there
    message = undo_last(store, home)
    assert "superseded.md changed since" in message
    assert superseded.read_text() == "# My own notes\n"
    assert b"PostgreSQL 16" in (home / "memories.md").read_bytes()


def test_an_undone_refresh_takes_back_its_use(palace: tuple[Path, Day, MemoryStore, ReviewQueue]) -> None:
    home, day, store, _queue = palace
    before = store.reuse.get("Preferences/editors", "Prefers a dark theme")
    day.value += timedelta(days=3)
    assert store.save("Preferences/editors", "Prefers a dark theme").action == "refreshed"
    assert store.reuse.get("Preferences/editors", "Prefers a dark theme").confirmed == before.confirmed + 1
    undo_last(store, home)
    assert store.reuse.get("Preferences/editors", "Prefers a dark theme") == before


def test_review_accept_then_undo_from_the_command_line_keeps_the_fact_in_a_git_palace(
    palace_home: Path, run_cli: Any
) -> None:
    assert run_cli("init", "--git").returncode == 0
    queue = ReviewQueue(palace_home)
    store = MemoryStore(palace_home)
    with store.lock():
        queue.propose(
            [Proposal(parse_path("Preferences/shells"), "Uses fish as the login shell", "s1", "medium")], "2026-02-27"
        )
    assert run_cli("memory", "review", "accept", "1").returncode == 0
    undone = run_cli("memory", "undo")
    assert undone.returncode == 0 and "Undone:" in undone.stdout
    assert "Uses fish" not in (palace_home / "memories.md").read_text()
    assert [p.content for p in queue.pending()] == ["Uses fish as the login shell"]
    log = run_cli("log").stdout
    assert "undo" in log


def test_an_undo_record_from_before_fingerprints_still_undoes(
    palace: tuple[Path, Day, MemoryStore, ReviewQueue],
) -> None:
    # Records written by an older palace name the file's versions by 32 hex digits of their sha256.
    import hashlib
    import json

    home, _day, store, _queue = palace
    before = store.read_bytes()
    store.save("Preferences/editors", "Uses helix")
    after = store.read_bytes()
    log = PalacePaths(home).index / "undo.jsonl"
    records = [json.loads(line) for line in log.read_text().splitlines()]
    for record in records:
        if record.get("after", "").startswith("c"):
            record.update(before=hashlib.sha256(before).hexdigest()[:32], after=hashlib.sha256(after).hexdigest()[:32])
            del record["change"]
    log.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert undo_last(store, home).startswith("Undone:")
    assert store.read_bytes() == before
