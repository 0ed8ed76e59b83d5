"""Recall scoped to wings, superseded memories in recall, and reuse counts from recall (issue 12).

Sessions are real journals and archives (palace.sessions), memories go through the real store and CLI, and the
recall tool is driven by a scripted endpoint through `palace chat` or by the MCP server's tool code path.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from palace.memory.reuse import ReuseCounts
from palace.memory.store import MemoryStore
from palace.recall import RecallIndex, format_hits
from palace.recall.scope import Scope
from palace.sessions.archive import write_archive
from palace.sessions.journal import Journal
from palace.testing.server import ScriptedServer, Step

Run = Callable[..., Any]  # conftest.run_cli


def session(home: Path, wings: list[str], user: str, reply: str, summary: str) -> str:
    """A finished session in these wings: its journal and its archive, as palace writes them."""
    journal = Journal.start(home, model="m", wings=wings)
    journal.add_message({"role": "user", "content": user})
    journal.add_message({"role": "assistant", "content": reply})
    journal.end()
    write_archive(journal, summary=summary)
    journal.close()
    return journal.id


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "palace"
    path.mkdir()
    return path


@pytest.fixture
def index(home: Path) -> Iterator[RecallIndex]:
    idx = RecallIndex(home)
    yield idx
    idx.close()


@pytest.fixture
def three(home: Path) -> dict[str, str]:
    """Sessions of wing alpha, wing beta and no wing, all about the database."""
    return {
        "alpha": session(home, ["alpha"], "What database for alpha?", "PostgreSQL 16.", "Alpha chose PostgreSQL."),
        "beta": session(home, ["beta"], "What database for beta?", "SQLite with WAL.", "Beta chose SQLite."),
        "none": session(home, [], "How are database backups done?", "Nightly dumps.", "Database backups nightly."),
    }


QUESTION = "what did we decide about the database?"


# -- scopes ------------------------------------------------------------------------------------------------


def test_a_wing_sees_its_own_and_the_wingless_sessions_never_another_wings(
    index: RecallIndex, three: dict[str, str]
) -> None:
    found = {h.source: h.wings for h in index.search(QUESTION, limit=10, wings=["beta"])}
    assert found == {three["beta"]: ("beta",), three["none"]: ()}
    everywhere = {h.source: h.wings for h in index.search(QUESTION, limit=10)}
    assert everywhere == {three["alpha"]: ("alpha",), three["beta"]: ("beta",), three["none"]: ()}
    assert {h.source for h in index.search(QUESTION, limit=10, wings=["BETA", "alpha"])} == set(three.values())
    assert {h.source for h in index.search(QUESTION, limit=10, wings=[])} == {three["none"]}


def test_a_search_that_only_counts_finds_the_same_hits_with_their_wings(
    home: Path, index: RecallIndex, three: dict[str, str]
) -> None:
    MemoryStore(home).save("alpha/Decisions/database", "Alpha decided on PostgreSQL 16 for the database")
    full = index.search(QUESTION, limit=10)
    bare = index.search(QUESTION, limit=10, shown=False, catch_up=False)
    assert len(full) == 4 and any(h.source == "memories.md" for h in full)
    assert [(h.source, h.date, h.score, h.where, h.wings) for h in bare] == [
        (h.source, h.date, h.score, h.where, h.wings) for h in full
    ]
    assert all(h.snippet == "" and h.excerpts == [] for h in bare)


def test_every_hit_is_labelled_with_its_wing(index: RecallIndex, three: dict[str, str]) -> None:
    text = format_hits(index.search(QUESTION, limit=10), max_bytes=8192, scope=Scope.of(None))
    assert f"session {three['alpha']} · wing alpha\n" in text
    assert f"session {three['beta']} · wing beta\n" in text
    assert f"session {three['none']} · no wing\n" in text
    assert text.startswith("3 matches from 3 sources (every wing), best first:")
    scoped = format_hits(index.search("PostgreSQL", wings=["beta"]), query="PostgreSQL", scope=Scope.of(["beta"]))
    assert scoped == (
        'no matches for "PostgreSQL" in archived sessions or memories '
        "(searched: wing beta and wing-less; other wings were not)"
    )


def test_a_session_in_two_wings_is_found_from_either(home: Path, index: RecallIndex) -> None:
    both = session(home, ["alice", "ifai"], "Which editor for ifai?", "Helix.", "Alice uses helix for ifai.")
    for wing in ("alice", "ifai"):
        hits = index.search("helix editor", wings=[wing])
        assert [(h.source, h.wings) for h in hits] == [(both, ("alice", "ifai"))]
    assert not index.search("helix editor", wings=["beta"])
    assert "· wings alice, ifai\n" in format_hits(index.search("helix editor"))


def test_memory_entries_are_scoped_by_the_wing_in_their_path(home: Path, index: RecallIndex) -> None:
    store = MemoryStore(home)
    store.save("alpha/Decisions/database", "Alpha keeps its database on PostgreSQL")
    store.save("Preferences/database-tools", "Prefers pgcli for any database")
    beta = format_hits(index.search("database", wings=["beta"]), max_bytes=8192)
    assert "memory Preferences/database-tools [" in beta and "· no wing: Prefers pgcli" in beta
    assert "PostgreSQL" not in beta
    alpha = format_hits(index.search("database", wings=["alpha"]), max_bytes=8192)
    assert "memory alpha/Decisions/database [" in alpha and "· wing alpha: Alpha keeps its database" in alpha


def test_an_index_of_the_previous_format_is_rebuilt_with_the_wings(home: Path, three: dict[str, str]) -> None:
    with RecallIndex(home) as first:
        first.refresh()
    conn = sqlite3.connect(home / ".index" / "recall.sqlite3")
    conn.execute("ALTER TABLE file DROP COLUMN wings")  # as an index written before wings were kept
    conn.execute("PRAGMA user_version = 7")
    conn.commit()
    conn.close()
    with RecallIndex(home) as again:
        assert again.refresh().added == 6  # every journal and archive read again
        assert {h.source for h in again.search(QUESTION, limit=10, wings=["alpha"])} == {three["alpha"], three["none"]}


# -- superseded memories -----------------------------------------------------------------------------------


def test_a_replaced_entry_is_found_after_the_current_one_and_labelled_superseded(
    home: Path, index: RecallIndex
) -> None:
    store = MemoryStore(home)
    store.save("Decisions/database", "Uses MySQL for the main database")
    store.save("Decisions/database", "Uses PostgreSQL for the main database", "Uses MySQL for the main database")
    # The old entry holds both words of this query, the current one only one: it still comes second.
    hits = index.search("MySQL database")
    assert [h.source for h in hits[:2]] == ["memories.md", "superseded.md"]
    text = format_hits(hits)
    current, old = text.index("Uses PostgreSQL"), text.index("Uses MySQL for the main database (superseded")
    assert current < old
    day = store.document().entries[0].date
    assert (
        f'Uses MySQL for the main database (superseded {day}: replaced by the user, now: "Uses PostgreSQL for the '
        'main database")' in text
    )
    assert "\nsuperseded.md (replaced or forgotten: no longer true)\n" in text


def test_a_forgotten_entry_is_found_only_labelled_forgotten(home: Path, index: RecallIndex) -> None:
    store = MemoryStore(home)
    store.save("beta/Decisions/queue", "Runs jobs on Celery")
    assert "Runs jobs on Celery" in format_hits(index.search("celery jobs"))
    store.forget("beta/Decisions/queue", "Runs jobs on Celery")
    hits = index.search("celery jobs")
    assert [h.source for h in hits] == ["superseded.md"] and hits[0].wings == ("beta",)
    assert re.search(r"Runs jobs on Celery \(superseded \d{4}-\d{2}-\d{2}: forgotten by the user\)", format_hits(hits))
    assert not index.search("celery jobs", wings=["alpha"])  # a wing's old entries stay in that wing


# -- reuse -------------------------------------------------------------------------------------------------


def test_memory_entries_used_more_rank_a_little_higher(home: Path, index: RecallIndex) -> None:
    store = MemoryStore(home)
    store.save("Decisions/cache-one", "Caches sessions in Redis")
    store.save("Decisions/cache-two", "Caches sessions in Valkey")
    counts = ReuseCounts(home)

    def first() -> str:
        return index.search("caches sessions", limit=2)[0].where

    counts.bump([("Decisions/cache-two", "Caches sessions in Valkey")], "recalled")
    assert first() == "memory Decisions/cache-two"
    counts.bump([("Decisions/cache-one", "Caches sessions in Redis")] * 3, "confirmed")
    assert first() == "memory Decisions/cache-one"


def test_recall_through_the_cli_counts_the_entries_it_shows(run_cli: Run, palace_home: Path) -> None:
    assert run_cli("memory", "save", "Decisions/database", "Uses PostgreSQL for the database").returncode == 0
    assert run_cli("memory", "save", "Preferences/editor", "Uses helix").returncode == 0
    before = run_cli("memory", "show", "--stats").stdout
    assert re.search(r"^\s+0\s+0\s+\S+\s+Decisions/database: Uses PostgreSQL", before, re.M), before
    found = run_cli("sessions", "search", "database")
    assert found.returncode == 0 and "Uses PostgreSQL for the database" in found.stdout
    run_cli("sessions", "search", "postgresql")
    stats = run_cli("memory", "show", "--stats").stdout
    assert re.search(r"^\s+0\s+2\s+\d{4}-\d{2}-\d{2}\s+Decisions/database: Uses PostgreSQL", stats, re.M), stats
    assert re.search(r"^\s+0\s+0\s+—\s+Preferences/editor: Uses helix", stats, re.M), stats  # never shown


# -- through the real command line and the tool ------------------------------------------------------------


def _chat_script(server: ScriptedServer, *steps: Step) -> None:
    server.add(*steps)
    server.responder = lambda body: Step(text=json.dumps({"summary": "Talked about the database.", "memories": []}))


def _tool_results(server: ScriptedServer) -> list[str]:
    last = [r for r in server.requests if r.get("stream")][-1]
    return [m["content"] for m in last["messages"] if m["role"] == "tool"]


def _ids(home: Path) -> dict[str, str]:
    """Session id by its first wing ("" for none), from the journal headers."""
    ids = {}
    for path in (home / "sessions").glob("*.jsonl"):
        header = json.loads(path.read_text().splitlines()[0])
        ids[(header.get("wings") or [""])[0]] = header["id"]
    return ids


def test_from_wing_beta_the_tool_and_sessions_search_leave_alpha_out(
    run_cli: Run, fake_server: ScriptedServer, palace_home: Path
) -> None:
    endpoint = {"OPENAI_BASE_URL": fake_server.base_url, "OPENAI_API_KEY": "test-key"}
    for wing, said in (("alpha", "PostgreSQL"), ("beta", "SQLite"), ("", "nightly backups")):
        _chat_script(fake_server, Step(text="Noted."))
        flags = ["--wing", wing] if wing else []
        done = run_cli("chat", *flags, stdin=f"We decided on {said} for the database.\n/exit\n", env=endpoint)
        assert done.returncode == 0, done.stderr
    ids = _ids(palace_home)
    assert set(ids) == {"alpha", "beta", ""}

    _chat_script(
        fake_server,
        Step(tool_calls=[("MemoryRecall", json.dumps({"query": QUESTION}))]),
        Step(tool_calls=[("MemoryRecall", json.dumps({"query": QUESTION, "wing": "all"}))]),
        Step(tool_calls=[("MemoryRecall", json.dumps({"query": QUESTION, "wing": "no such wing"}))]),
        Step(text="Beta uses SQLite."),
    )
    done = run_cli("chat", "--wing", "beta", stdin=QUESTION + "\n/exit\n", env=endpoint)
    assert done.returncode == 0, done.stderr
    scoped, every, bad = _tool_results(fake_server)
    assert f"session {ids['beta']} · wing beta" in scoped and f"session {ids['']} · no wing" in scoped
    assert ids["alpha"] not in scoped and "PostgreSQL" not in scoped and "wing alpha" not in scoped
    assert "(wing beta and wing-less)" in scoped
    assert f"session {ids['alpha']} · wing alpha" in every and "PostgreSQL" in every
    assert bad.startswith("Error: invalid arguments for MemoryRecall: wing:") and '"all" for every wing' in bad

    beta = run_cli("sessions", "search", "--wing", "beta", "database").stdout
    assert ids["beta"] in beta and ids[""] in beta and ids["alpha"] not in beta
    everywhere = run_cli("sessions", "search", "--all-wings", "database").stdout
    assert f"session {ids['alpha']} · wing alpha" in everywhere and ids["beta"] in everywhere
    default = run_cli("sessions", "search", "database").stdout  # no wing here (no repository): every wing
    assert all(session_id in default for session_id in ids.values()) and "(every wing)" in default
    both = run_cli("sessions", "search", "--wing", "alpha", "--wing", "beta", "database").stdout
    assert all(session_id in both for session_id in ids.values()) and "(wings alpha, beta and wing-less)" in both
    clash = run_cli("sessions", "search", "--wing", "beta", "--all-wings", "database")
    assert clash.returncode == 2 and "not allowed with argument" in clash.stderr


def test_the_mcp_recall_tool_searches_the_clients_wing(home: Path, three: dict[str, str]) -> None:
    pytest.importorskip("mcp")
    from palace.app import App
    from palace.config import load_settings
    from palace.mcp.server import PalaceServer

    app = App(load_settings({"home": home}, env={}), warn=lambda text: None)
    server = PalaceServer(app)
    try:
        scoped = server.call("memory_recall", {"query": QUESTION}, ["beta"])
        every = server.call("memory_recall", {"query": QUESTION, "wing": "all"}, ["beta"])
        alpha = server.call("memory_recall", {"query": QUESTION, "wing": "alpha"}, ["beta"])
    finally:
        app.close()
    assert scoped.error is None and three["beta"] in scoped.text and three["alpha"] not in scoped.text
    assert all(session_id in every.text for session_id in three.values())
    assert three["alpha"] in alpha.text and three["beta"] not in alpha.text and three["none"] in alpha.text
    description = server.tool_list(["beta"])[2].description
    assert "labelled with its wing" in description and '"all" for every wing' in description


def test_slash_recall_takes_a_wing_or_every_wing(home: Path, three: dict[str, str]) -> None:
    import io

    from palace.app import App
    from palace.config import load_settings
    from palace.testing.scripted import ScriptedModel
    from palace.ui.console import Console
    from palace.ui.repl import Repl

    out = io.StringIO()
    console = Console(out, out, color=False)
    settings = load_settings({"home": home, "model": "m", "api_key": "k"}, env={})

    def recall(line: str) -> str:
        repl = Repl(
            App(settings, warn=console.warn, client=ScriptedModel()), console, interactive=False, wings=["beta"]
        )
        start = len(out.getvalue())
        repl.run([line])
        return out.getvalue()[start:]

    default = recall(f"/recall {QUESTION}")
    assert three["beta"] in default and three["none"] in default and three["alpha"] not in default
    alpha = recall(f"/recall --wing alpha {QUESTION}")
    assert three["alpha"] in alpha and three["none"] in alpha and three["beta"] not in alpha
    assert "(wing alpha and wing-less)" in alpha
    every = recall(f"/recall --all-wings {QUESTION}")
    assert all(sid in every for sid in three.values())
    for bad in ("/recall --wing", "/recall --wing a --all-wings db", "/recall --all-wings"):
        assert "usage: /recall [--wing NAME]... [--all-wings] QUERY" in recall(bad)
    assert "/recall --wing Decisions: " in recall("/recall --wing Decisions db")  # a hall is not a wing
