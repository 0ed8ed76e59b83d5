"""A palace that stays sharp for a year: entries that end, a budget by value, a room opened on demand."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from palace.config import Settings
from palace.memory.document import Document
from palace.memory.expiry import expiring
from palace.memory.reuse import ReuseCounts
from palace.memory.store import MemoryStore
from palace.model.tools import memory_tools
from tests.conftest import CliRun

TRIAL = "- [2026-12-01 → 2027-03-31] The team is on the trial plan\n"


def _store(home: Path, text: str, today: str) -> MemoryStore:
    home.mkdir(parents=True, exist_ok=True)
    (home / "memories.md").write_text(text)
    return MemoryStore(home, today=lambda: date.fromisoformat(today))


def test_an_end_date_reads_and_survives_a_refresh(tmp_path: Path) -> None:
    store = _store(tmp_path, f"## Decisions\n\n### billing\n{TRIAL}", "2027-01-10")
    entry = store.document().entries[0]
    assert (entry.date, entry.until, entry.content) == ("2026-12-01", "2027-03-31", "The team is on the trial plan")
    again = store.save("Decisions/billing", "the team is on the trial plan")
    assert again.action == "refreshed"
    assert "- [2027-01-10 → 2027-03-31] The team is on the trial plan" in store.read_bytes().decode()
    ascii_form = Document.parse(b"## Decisions\n\n### x\n- [2026-12-01 -> 2027-03-31] Trial\n").entries[0]
    assert ascii_form.until == "2027-03-31"


def test_a_save_with_until_writes_the_span_and_refuses_a_past_one(tmp_path: Path) -> None:
    store = _store(tmp_path, "", "2026-12-01")
    saved = store.save("Decisions/billing", "The team is on the trial plan", until="2027-03-31")
    assert saved.message.endswith("(until 2027-03-31)")
    assert TRIAL in store.read_bytes().decode()
    box = memory_tools(store)
    past = box.call("MemorySave", json.dumps({"path": "Decisions/x", "content": "Old plan", "until": "2020-01-01"}))
    assert past.error is not None and "in the past" in past.text


def test_past_its_end_an_entry_leaves_the_prompt_and_moves_to_superseded_undoably(tmp_path: Path) -> None:
    text = f"## Decisions\n\n### billing\n{TRIAL}- [2026-11-01] Invoices go out monthly\n"
    store = _store(tmp_path, text, "2027-04-01")
    rendered = store.render(None)
    assert "trial plan" not in rendered.text and "Invoices go out monthly" in rendered.text
    gone = store.expire()
    assert [e.content for e in gone.entries] == ["The team is on the trial plan"]
    assert "trial plan" not in store.read_bytes().decode()
    superseded = (tmp_path / "superseded.md").read_text()
    assert "The team is on the trial plan · expired 2027-04-01 past its end date" in superseded
    assert store.expire().entries == []  # nothing twice
    from palace.history.undo import UndoRecorder, undo_last

    store2 = _store(tmp_path / "u", text, "2027-04-01")
    store2.hooks.append(UndoRecorder(store2.home))
    store2.expire()
    undo_last(store2, store2.home)
    assert store2.read_bytes().decode() == text


def test_expiring_lists_what_ends_within_thirty_days() -> None:
    text = "## Decisions\n\n### x\n- [2026-12-01 → 2027-01-05] Soon\n- [2026-12-01 → 2027-06-01] Later\n"
    doc = Document.parse(text.encode())
    assert [e.content for e in expiring(doc, "2026-12-20")] == ["Soon"]


def test_over_budget_the_most_used_entries_stay_and_the_closing_line_names_the_rooms(tmp_path: Path) -> None:
    lines = ["## Preferences", "", "### editors"]
    lines += [f"- [2025-01-{n + 1:02d}] Well used fact number {n} about the editors" for n in range(5)]
    lines += ["", "### trivia"]
    lines += [f"- [2026-11-30] Yesterday's trivia number {n} of no lasting use at all" for n in range(30)]
    text = "\n".join(lines) + "\n"
    store = _store(tmp_path, text, "2026-12-01")
    counts = ReuseCounts(tmp_path)
    for n in range(5):
        counts.bump([("Preferences/editors", f"Well used fact number {n} about the editors")] * 20, "recalled")
    rendered = store.render(None, budget_bytes=1200)
    assert rendered.left_out > 0
    assert all(f"Well used fact number {n}" in rendered.text for n in range(5))  # old, but used: kept
    note = rendered.text.splitlines()[-1]
    assert "the least used first, from Preferences/trivia" in note and "editors" not in note
    assert store.read_bytes().decode() == text  # the file is never reordered
    opened = store.room_text("Preferences/trivia")
    assert opened.count("Yesterday's trivia") == 30 and opened.startswith("Room Preferences/trivia (30 entries)")


# ---------------------------------------------------------------------- the generated year-old palace


def _year(tmp_path: Path) -> tuple[Path, object]:
    from bench.yearpalace import generate, write

    palace = generate()
    home = tmp_path / "palace"
    write(home, palace)
    return home, palace


def test_a_year_old_palace_keeps_its_20_most_used_entries_and_none_that_ended(tmp_path: Path) -> None:
    from bench.yearpalace import TODAY

    home, palace = _year(tmp_path)
    store = MemoryStore(home, today=lambda: TODAY)
    rendered = store.render(None, 8192)
    assert rendered.left_out > 400 and rendered.size <= 8192
    assert all(content in rendered.text for content in palace.most_used(20))  # type: ignore[attr-defined]
    assert not any(content in rendered.text for content in palace.expired)  # type: ignore[attr-defined]
    gone = store.expire()
    assert len(gone.entries) == 40
    superseded = (home / "superseded.md").read_text()
    assert all(content in superseded for content in palace.expired)  # type: ignore[attr-defined]


def test_tidy_proposes_the_seeded_pairs_writes_nothing_and_each_is_one_undoable_change(
    tmp_path: Path, run_cli: Callable[..., CliRun], monkeypatch: pytest.MonkeyPatch
) -> None:
    home, palace = _year(tmp_path)
    monkeypatch.setenv("PALACE_HOME", str(home))
    assert run_cli("init", "--git").returncode == 0
    before = (home / "memories.md").read_bytes()
    done = run_cli("memory", "tidy")
    assert done.returncode == 0, done.stderr
    assert (home / "memories.md").read_bytes() == before  # nothing written before review
    review = (home / "review.md").read_text()
    pairs = palace.pairs  # type: ignore[attr-defined]
    assert sum(a in review or b in review for a, b in pairs) >= 8
    listed = run_cli("memory", "review", "list").stdout
    merge = next(line for line in listed.splitlines() if "[merge]" in line)
    number = merge.strip().split(".")[0]
    accepted = run_cli("memory", "review", "accept", number)
    assert accepted.returncode == 0, accepted.stderr
    after = (home / "memories.md").read_bytes()
    assert len(after.splitlines()) == len(before.splitlines()) - 1  # one entry went: one change
    assert run_cli("memory", "undo").returncode == 0
    assert (home / "memories.md").read_bytes() == before
    again = run_cli("memory", "tidy")  # what waits is not proposed twice
    assert "new tidy proposal" in again.stdout and (home / "review.md").read_text().count("[merge]") == 0


def test_tidy_with_a_model_adds_only_proposals_that_name_real_entries(
    settings_for: Callable[..., Settings],
) -> None:
    from palace.app import App
    from palace.testing.scripted import ScriptedModel
    from palace.testing.server import Step
    from palace.ui.console import Console
    from palace.ui.tidy import tidy_command

    settings = settings_for()
    settings.home.mkdir(parents=True, exist_ok=True)
    settings.memories_file.write_text(
        "## Decisions\n\n### hosting\n- [2026-10-01] The beta runs on Heroku until the move\n"
        "- [2026-11-01] Everything runs on fly.io\n"
    )
    answer = {
        "proposals": [
            {"kind": "remove", "path": "Decisions/hosting", "content": "The beta runs on Heroku until the move",
             "reason": "the move to fly.io is done"},
            {"kind": "remove", "path": "Decisions/hosting", "content": "An entry the file does not have"},
            {"kind": "delete-everything", "path": "Decisions/hosting", "content": "Everything runs on fly.io"},
        ]
    }  # fmt: skip
    model = ScriptedModel([Step(text=json.dumps(answer))])
    out = io.StringIO()
    app = App(settings, warn=lambda text: None, client=model)
    assert tidy_command(app, Console(out, out, color=False), use_model=True, stale_days=None) == 0
    review = (settings.home / "review.md").read_text()
    assert "The beta runs on Heroku until the move" in review and "(the model)" in review
    assert "does not have" not in review and "Everything runs on fly.io" not in review
    assert "Everything runs on fly.io" in settings.memories_file.read_text()
