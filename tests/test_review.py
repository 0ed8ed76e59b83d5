"""What extraction guesses does not slip in unseen: confidence, the review queue, promotion, rejection, what is
superseded, clear and undo, and every change shown as a line (through the REPL and the CLI)."""

from __future__ import annotations

import io
import json
import subprocess
from collections.abc import Callable, Iterator
from typing import Any

from palace.app import App, init_palace
from palace.config import Settings
from palace.history.undo import undo_last
from palace.memory.halls import parse_path
from palace.memory.review import Proposal, ReviewQueue
from palace.testing.scripted import ScriptedModel
from palace.testing.server import Step
from palace.ui.console import Console
from palace.ui.repl import Repl

TALK = "I have moved from vim to helix for all my editing, and I deploy with fly.io these days. " * 6


def extraction(*items: dict[str, Any], summary: str = "Editors and deploys.") -> Step:
    return Step(text=json.dumps({"summary": summary, "memories": list(items)}))


def item(path: str, content: str, confidence: str = "medium", **more: str) -> dict[str, Any]:
    return {"path": path, "content": content, "confidence": confidence, **more}


def chat(settings: Settings, answers: list[Step], lines: list[str]) -> tuple[str, ScriptedModel]:
    """One REPL session on the scripted model: its chat replies, then the extraction answers."""
    model = ScriptedModel([Step(text="Noted.") for line in lines if not line.startswith("/")] + answers)
    out = io.StringIO()
    console = Console(out, out, color=False)
    Repl(App(settings, warn=console.warn, client=model), console, interactive=False).run(lines)
    return out.getvalue(), model


def archive_text(settings: Settings) -> str:
    return "\n".join(p.read_text() for p in sorted(settings.sessions_dir.glob("*.md")))


def test_high_is_saved_medium_waits_and_both_are_shown(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for(extract_min=10)
    out, _ = chat(
        settings,
        [
            extraction(
                item("Preferences/editors", "The user edits with helix", "high"),
                item("Workflow Patterns/deploys", "The user deploys with fly.io"),
            )
        ],
        [TALK],
    )
    assert "✓ (extracted) Saved to Preferences/editors: The user edits with helix" in out
    assert "? Proposed for review (medium): Workflow Patterns/deploys: The user deploys with fly.io — /review" in out
    memories = settings.memories_file.read_text()
    assert "helix" in memories and "fly.io" not in memories
    review = (settings.home / "review.md").read_text()
    assert "The user deploys with fly.io · session 2026-" in review and ", medium" in review
    assert "**Workflow Patterns/deploys**: The user deploys with fly.io (extracted, proposed for review)" in (
        archive_text(settings)
    )
    out, _ = chat(settings, [], ["/exit"])
    assert "1 proposed memory waits for review: /review" in out


def test_palace_ask_points_at_the_review_command_it_can_use(fake_server: Any, run_cli: Any, palace_home: Any) -> None:
    palace_home.mkdir()
    (palace_home / "config.toml").write_text("[extraction]\nmin_chars = 10\n")
    fake_server.add(Step(text="Noted."))
    fake_server.add(extraction(item("Workflow Patterns/deploys", "The user deploys with fly.io")))
    done = run_cli("ask", TALK, env={"OPENAI_BASE_URL": fake_server.base_url, "OPENAI_API_KEY": "k"})
    assert done.returncode == 0, done.stderr
    told = done.stdout + done.stderr
    assert "The user deploys with fly.io — palace memory review" in told and "— /review" not in told


def test_a_medium_item_proposed_again_by_another_session_is_promoted(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for(extract_min=10)
    deploys = item("Workflow Patterns/deploys", "The user deploys with fly.io")
    chat(settings, [extraction(deploys)], [TALK])
    assert "fly.io" not in settings.memories_file.read_text() if settings.memories_file.exists() else True
    out, _ = chat(settings, [extraction(deploys)], [TALK])
    assert "✓ (extracted) Saved to Workflow Patterns/deploys: The user deploys with fly.io" in out
    assert "fly.io" in settings.memories_file.read_text()
    assert ReviewQueue(settings.home).pending() == []


def test_a_low_item_is_never_promoted_and_auto_save_all_or_none(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for(extract_min=10)
    guess = item("Preferences/food", "The user probably likes coffee", "low")
    chat(settings, [extraction(guess)], [TALK])
    chat(settings, [extraction(guess)], [TALK])
    assert [p.confidence for p in ReviewQueue(settings.home).pending()] == ["low"]  # waits, once
    everything = settings_for(extract_min=10, auto_save="all")
    chat(everything, [extraction(item("Preferences/tea", "The user drinks tea", "low"))], [TALK])
    assert "The user drinks tea" in everything.memories_file.read_text()
    nothing = settings_for(extract_min=10, auto_save="none")
    chat(nothing, [extraction(item("Preferences/tabs", "The user indents with tabs", "high"))], [TALK])
    assert "tabs" not in nothing.memories_file.read_text()
    assert any(p.content == "The user indents with tabs" for p in ReviewQueue(nothing.home).pending())


def test_a_rejected_item_is_not_proposed_again_from_the_same_session(
    settings_for: Callable[..., Settings], run_cli: Any
) -> None:
    settings = settings_for(extract_min=10)
    deploys = item("Workflow Patterns/deploys", "The user deploys with fly.io")
    chat(settings, [extraction(deploys)], [TALK])
    [session] = [p.stem for p in settings.sessions_dir.glob("*.md")]
    done = run_cli("memory", "review", "reject", "1")
    assert done.returncode == 0 and "⊘ Rejected" in done.stdout
    assert ReviewQueue(settings.home).pending() == []
    model = ScriptedModel([extraction(deploys)])
    app = App(settings, warn=print, client=model)
    from palace.sessions.catalog import find_journal
    from palace.sessions.journal import Journal

    outcome = app.extractor().extract(Journal.load(find_journal(settings.home, session)), force=True)
    assert outcome is not None and outcome.proposed == [] and outcome.results == []
    assert ReviewQueue(settings.home).pending() == []
    assert "fly.io" not in (settings.memories_file.read_text() if settings.memories_file.exists() else "")


def test_review_accept_edit_and_list_from_the_command_line(settings_for: Callable[..., Settings], run_cli: Any) -> None:
    settings = settings_for(extract_min=10)
    chat(
        settings,
        [
            extraction(
                item("Workflow Patterns/deploys", "The user deploys with fly.io"),
                item("Preferences/shell", "The user uses zsh"),
                item("Decisions/db", "Postgres was chosen"),
            )
        ],
        [TALK],
    )
    listed = run_cli("memory", "review").stdout
    assert "3 proposal(s) from extraction wait for review" in listed and "2. Preferences/shell" in listed
    done = run_cli("memory", "review", "edit", "2", "The user uses fish, not zsh")
    assert "✓ Saved to Preferences/shell: The user uses fish, not zsh" in done.stdout
    done = run_cli("memory", "review", "accept", "all")
    assert done.stdout.count("✓ Saved to") == 2
    assert ReviewQueue(settings.home).pending() == []
    text = settings.memories_file.read_text()
    assert all(fact in text for fact in ("fish, not zsh", "fly.io", "Postgres was chosen")) and "uses zsh" not in text
    bad = run_cli("memory", "review", "accept", "7")
    assert bad.returncode == 1 and "no proposal '7'" in bad.stderr


def test_a_changed_fact_replaces_the_old_one_which_is_kept_as_superseded(
    settings_for: Callable[..., Settings],
) -> None:
    settings = settings_for(extract_min=10)
    settings.home.mkdir(parents=True, exist_ok=True)
    settings.memories_file.write_text("## Preferences\n\n### editors\n- [2026-10-01] The user edits with vim\n")
    replaces = item("Preferences/editors", "The user edits with helix", "high", replaces="The user edits with vim")
    out, _ = chat(settings, [extraction(replaces)], [TALK])
    assert "✎ (extracted) Replaced in Preferences/editors: The user edits with vim -> The user edits with helix" in out
    text = settings.memories_file.read_text()
    assert "helix" in text and "vim" not in text
    superseded = (settings.home / "superseded.md").read_text()
    assert "- [2026-10-01] The user edits with vim · replaced 2026-" in superseded
    assert 'by extraction, now: "The user edits with helix"' in superseded
    out, _ = chat(settings, [], ["/forget Preferences/editors The user edits with helix", "/exit"])
    assert "The user edits with helix · forgotten 2026-" in (settings.home / "superseded.md").read_text()


def test_clear_then_undo_restores_the_file_byte_for_byte(settings_for: Callable[..., Settings], run_cli: Any) -> None:
    settings = settings_for()
    settings.home.mkdir(parents=True, exist_ok=True)
    original = (
        b"# Memories\r\n\r\nMy own notes stay.\r\n\r\n## Preferences\r\n\r\n### editors\r\n"
        b"- [2026-10-01] The user edits with helix\r\n\r\n## ifai\r\n\r\n### Decisions\r\n\r\n#### db\r\n"
        b"- [2026-10-02] Postgres was chosen\r\n"
    )
    settings.memories_file.write_bytes(original)
    refused = run_cli("memory", "clear")
    assert refused.returncode == 1 and "say --yes" in refused.stderr and settings.memories_file.read_bytes() == original
    done = run_cli("memory", "clear", "--yes")
    assert done.returncode == 0 and "Cleared 2 entries" in done.stdout
    cleared = settings.memories_file.read_text()
    assert "My own notes stay." in cleared and "helix" not in cleared and "Postgres" not in cleared
    assert "Postgres was chosen · cleared" in (settings.home / "superseded.md").read_text()
    assert run_cli("memory", "undo").returncode == 0
    assert settings.memories_file.read_bytes() == original


def test_clear_memory_in_the_repl_asks_first_and_is_one_commit(
    settings_for: Callable[..., Settings], monkeypatch: Any
) -> None:
    for var in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"):
        monkeypatch.setenv(var, "t@t" if "EMAIL" in var else "t")
    settings = settings_for()
    init_palace(settings.home, git=True)
    out, _ = chat(
        settings,
        [],
        ["/remember Preferences/editors The user edits with helix", "/clear-memory", "/clear-memory yes", "/exit"],
    )
    assert "Type `/clear-memory yes` to do it." in out and "⌫ Cleared 1 entry" in out
    subjects = subprocess.run(["git", "log", "--format=%s"], cwd=settings.home, capture_output=True, text=True).stdout
    assert subjects.splitlines()[1:3] == ["memory: clear 1 entry", "memory: save Preferences/editors"]


def test_an_undone_change_is_marked_undone_in_the_archive(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for()
    chat(settings, [], ["/remember Preferences/editors The user edits with helix", "/undo", "/exit"])
    assert "**Preferences/editors**: The user edits with helix (saved by the user, undone)" in archive_text(settings)


def test_orphan_archiving_names_what_it_extracted(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for(extract_min=10)
    from palace.sessions.journal import Journal

    journal = Journal.start(settings.home, model="m", wings=[])
    journal.add_message({"role": "user", "content": TALK})
    journal.close()  # it died
    model = ScriptedModel([extraction(item("Preferences/editors", "The user edits with helix", "high"))])
    out = io.StringIO()
    console = Console(out, out, color=False)
    Repl(App(settings, warn=console.warn, client=model), console, interactive=False).run([])
    assert "1 memory extracted: Preferences/editors: The user edits with helix (saved)" in out.getvalue()


def test_the_final_extraction_of_a_finished_session_is_shown(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for(extract_min=10)
    model = ScriptedModel(
        [Step(text="ok"), extraction(item("Preferences/editors", "The user edits with helix", "high"))]
    )
    out = io.StringIO()
    console = Console(out, out, color=False)
    repl = Repl(App(settings, warn=console.warn, client=model), console, interactive=False)
    repl.run([TALK])
    text = out.getvalue()
    assert text.index("✓ (extracted) Saved to Preferences/editors") < text.index("Session archived:")


def test_confirmations_are_counted_and_shown_by_stats(settings_for: Callable[..., Settings], run_cli: Any) -> None:
    settings = settings_for(extract_min=10)
    facts = [item("Preferences/editors", "The user edits with helix", "high")]
    chat(settings, [extraction(*facts)], [TALK])
    chat(settings, [extraction(*facts)], [TALK])  # the same fact again: confirmed
    run_cli("memory", "save", "Preferences/editors", "the user edits with Helix.")  # and by hand
    shown = run_cli("memory", "show", "--stats").stdout
    [row] = [line for line in shown.splitlines() if "helix" in line]
    assert row.split()[:2] == ["2", "0"] and "Preferences/editors: The user edits with helix" in row


def test_interactive_review_enter_skips_and_q_quits(settings_for: Callable[..., Settings], monkeypatch: Any) -> None:
    from palace.memory.halls import parse_path
    from palace.memory.review import Proposal
    from palace.memory.store import MemoryStore
    from palace.ui import review

    settings = settings_for()
    store = MemoryStore(settings.home)
    queue = ReviewQueue(settings.home)
    facts = [("Preferences/editors", "The user edits with helix"), ("Workflow Patterns/deploys", "Deploys with fly")]
    facts.append(("Decisions/db", "The app stores data in SQLite"))
    with store.lock():
        queue.propose([Proposal(parse_path(p), c, "s1", "medium") for p, c in facts], "2026-11-30")
    monkeypatch.setattr("sys.stdin", io.StringIO("\nr\nq\n"))  # Enter, reject, quit
    out = io.StringIO()
    review.interactive(store, queue, Console(out, out, color=False), lambda result: None)
    left = [p.content for p in queue.pending()]
    assert left == ["The user edits with helix", "The app stores data in SQLite"]  # skipped, and not reached
    assert "Rejected: Workflow Patterns/deploys" in out.getvalue()


def test_the_archive_lists_the_changes_made_outside_the_session_while_it_ran(
    settings_for: Callable[..., Settings],
) -> None:
    settings = settings_for()

    def lines() -> Iterator[str]:
        yield "/remember Preferences/editors The user edits with helix"
        cli = App(settings, warn=lambda _: None).store  # another palace process: the command line, an MCP client
        cli.save("Decisions/db", "Postgres for everything", by="user")
        cli.forget("Preferences/editors", "The user edits with helix", by="user")
        cli.save("Decisions/db", "SQLite for the tests", by="model")
        undo_last(cli, settings.home)
        yield "/exit"

    out = io.StringIO()
    console = Console(out, out, color=False)
    Repl(App(settings, warn=console.warn, client=ScriptedModel([])), console, interactive=False).run(lines())
    text = archive_text(settings)
    assert text.count("The user edits with helix") == 2  # saved here, forgotten outside: once each
    assert "**Preferences/editors**: The user edits with helix (saved by the user)" in text
    assert "**Preferences/editors**: The user edits with helix (forgotten by the user, outside this session)" in text
    assert "**Decisions/db**: Postgres for everything (saved by the user, outside this session)" in text
    assert "**Decisions/db**: SQLite for the tests (saved by the model, outside this session, undone)" in text


def test_the_archive_lists_the_sessions_own_review_accepts_and_clears(settings_for: Callable[..., Settings]) -> None:
    settings = settings_for()
    store = App(settings, warn=lambda _: None).store
    with store.lock():
        ReviewQueue(settings.home).propose(
            [Proposal(parse_path("Preferences/shells"), "Uses fish", "s1", "medium")], "2026-11-30"
        )
    chat(settings, [], ["/remember Preferences/editors Uses helix", "/review accept 1", "/clear-memory yes", "/exit"])
    text = archive_text(settings)
    assert "**Preferences/shells**: Uses fish (saved in review)" in text
    assert "**Preferences/editors**: Uses helix (cleared by the user)" in text
    assert "**Preferences/shells**: Uses fish (cleared by the user)" in text
    assert "outside this session" not in text  # all of it made in this chat
