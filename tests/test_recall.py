"""Cold-memory recall: real journals, archives and memories.md in a temporary PALACE_HOME."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import threading
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import palace.recall as recall
from palace.errors import PalaceError, RecallError
from palace.memory.secrets import find_secret
from palace.recall import RecallHit, RecallIndex, format_hits, query_terms, rank, stem, tokenize

SECRET = "sk-proj-Zx81Qw3Er5Ty7Ui9Op2As4Df6Gh8Jk0L"


def write_journal(
    home: Path,
    day: str,
    ident: str,
    messages: list[tuple[str, str | None]],
    *,
    tail: str = "",
) -> Path:
    folder = home / "sessions"
    folder.mkdir(parents=True, exist_ok=True)
    lines: list[dict[str, object]] = [
        {
            "type": "session",
            "id": ident,
            "started": f"{day}T14:35:00+00:00",
            "model": "m",
            "wing": None,
            "pid": 1,
            "host": "h",
        }
    ]
    for role, content in messages:
        lines.append({"type": "message", "ts": f"{day}T14:36:00+00:00", "message": {"role": role, "content": content}})
        lines.append({"type": "usage", "ts": f"{day}T14:36:01+00:00", "input": 10, "output": 5})
    path = folder / f"{day}-{ident}.jsonl"
    path.write_text("".join(json.dumps(o, ensure_ascii=False) + "\n" for o in lines) + tail, encoding="utf-8")
    return path


def write_archive(home: Path, day: str, ident: str, summary: str, memories: tuple[str, ...] = ()) -> Path:
    folder = home / "sessions"
    folder.mkdir(parents=True, exist_ok=True)
    items = "\n".join(f"- **Decisions/architecture**: {m} (extracted)" for m in memories)
    text = (
        f"# Session {day} · {ident}\n\n- Started: {day} 14:35 +00:00\n- Ended: {day} 15:02 +00:00\n"
        f"- Model: gpt-4.1-mini\n- Wing: ifai\n- Turns: 3\n\n## Summary\n{summary}\n\n"
        "## Token Usage\n- Input: 12,345\n- Output: 2,345\n- Total: 14,690\n\n"
        f"## Memories Extracted\n{items}\n"
    )
    path = folder / f"{day}-{ident}.md"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "palace"


@pytest.fixture
def index(home: Path) -> Iterator[RecallIndex]:
    home.mkdir(exist_ok=True)
    idx = RecallIndex(home)
    yield idx
    idx.close()


def sources(hits: list[RecallHit]) -> list[str]:
    return [h.source for h in hits]


def _age(path: Path) -> None:
    os.utime(path, (1_600_000_000, 1_600_000_000))  # written in 2020: not a file that is still changing


# -- tokenising --------------------------------------------------------------------------------------


def test_stemmer_maps_variants_together() -> None:
    for a, b in [
        ("database", "databases"),
        ("query", "queries"),
        ("cache", "caching"),
        ("test", "testing"),
        ("migrate", "migrated"),
        ("index", "indexes"),
        ("run", "running"),
        ("deploy", "deployment"),
    ]:
        assert stem(a) == stem(b), (a, b)
    assert stem("test") != stem("text")


def test_cjk_runs_become_bigrams_and_english_is_stemmed() -> None:
    assert tokenize("我们的数据库用 PostgreSQL Databases") == [
        "我们",
        "们的",
        "的数",
        "数据",
        "据库",
        "库用",
        "用",
        "postgresql",
        stem("database"),
    ]
    texts = [t.text for t in query_terms("我们用的是什么数据库？")]
    assert texts == ["数据", "据库"]  # particles and question words dropped
    assert [t.text for t in query_terms("what did we decide about the database")] == ["decid", stem("database")]
    # A query of stop words only still searches them rather than nothing.
    assert [t.text for t in query_terms("what is this")] == ["what", "is", "this"]


# -- recall ------------------------------------------------------------------------------------------


def test_english_recall_with_plural_and_case_variants(home: Path, index: RecallIndex) -> None:
    write_journal(home, "2026-11-01", "aaaa0001", [("user", "The Databases keep running out of connections")])
    write_journal(home, "2026-11-02", "aaaa0002", [("user", "The frontend bundle is too large")])
    write_journal(home, "2026-11-03", "aaaa0003", [("assistant", "I added QUERIES for caching")])
    assert sources(index.search("database")) == ["2026-11-01-aaaa0001"]
    assert sources(index.search("DATABASE connection")) == ["2026-11-01-aaaa0001"]
    assert sources(index.search("query cache")) == ["2026-11-03-aaaa0003"]
    hit = index.search("query")[0]
    assert hit.where == "message (assistant)" and hit.date == "2026-11-03"


def test_chinese_two_character_word_finds_session(home: Path, index: RecallIndex) -> None:
    write_journal(home, "2026-11-30", "a1b2c3d4", [("user", "我们的数据库用 PostgreSQL")])
    write_journal(home, "2026-11-29", "a1b2c3d5", [("user", "前端用 Vue 3，数据来自接口")])
    hits = index.search("数据库")
    assert hits[0].source == "2026-11-30-a1b2c3d4" and "数据库" in hits[0].snippet
    assert all(h.score < hits[0].score / 2 for h in hits[1:])  # only half the word: far behind
    assert sources(index.search("我们用的是什么数据库？"))[0] == "2026-11-30-a1b2c3d4"
    # A two-character word shared by both sessions finds both.
    assert set(sources(index.search("数据"))) == {"2026-11-30-a1b2c3d4", "2026-11-29-a1b2c3d5"}
    assert sources(index.search("库")) == ["2026-11-30-a1b2c3d4"]  # a lone character still works


def test_results_grouped_one_hit_per_session_summary_preferred(home: Path, index: RecallIndex) -> None:
    write_journal(home, "2026-10-01", "bbbb0001", [("user", f"redis eviction problem number {i}") for i in range(8)])
    write_archive(home, "2026-10-01", "bbbb0001", "We tuned redis eviction to allkeys-lru.")
    write_journal(home, "2026-10-05", "bbbb0002", [("user", "redis eviction again")])
    hits = index.search("redis eviction", limit=10)
    assert sources(hits) == ["2026-10-01-bbbb0001", "2026-10-05-bbbb0002"]
    assert hits[0].where == "summary"
    assert hits[0].score > hits[1].score


def test_coverage_beats_repetition(home: Path, index: RecallIndex) -> None:
    # One session repeats a single query word; another mentions every word once.
    write_journal(home, "2026-09-01", "cccc0001", [("user", "timeout " * 30)])
    write_journal(home, "2026-09-02", "cccc0002", [("user", "the nginx websocket proxy has a timeout")])
    assert sources(index.search("nginx websocket timeout"))[0] == "2026-09-02-cccc0002"


def test_sessions_ranked_by_how_much_of_the_query_they_cover(home: Path, index: RecallIndex) -> None:
    # The answer spreads the query's words over two messages; the other session says one word often.
    write_journal(
        home,
        "2026-09-03",
        "cccc0003",
        [("user", "which kafka consumer group"), ("assistant", "the lag alert fires at ten thousand messages")],
    )
    write_journal(home, "2026-09-04", "cccc0004", [("user", f"kafka {topic}") for topic in "abcde"])
    for i in range(20):
        write_journal(home, "2026-08-01", f"f111{i:04d}", [("user", f"unrelated filler {i} about tomatoes")])
    hits = index.search("kafka consumer lag alert")
    assert sources(hits) == ["2026-09-03-cccc0003", "2026-09-04-cccc0004"]
    assert hits[1].score < hits[0].score / 4  # one word of four: far behind, not just behind


def test_newer_session_first_among_equal_scores(home: Path, index: RecallIndex) -> None:
    write_journal(home, "2026-01-01", "dddd0001", [("user", "kafka consumer lag")])
    write_journal(home, "2026-06-01", "dddd0002", [("user", "kafka consumer lag")])
    assert sources(index.search("kafka lag")) == ["2026-06-01-dddd0002", "2026-01-01-dddd0001"]


def test_a_session_that_returns_to_a_topic_ranks_above_a_single_mention(home: Path, index: RecallIndex) -> None:
    # Both hold the same best message; the older one comes back to the topic, which outweighs recency.
    write_journal(
        home,
        "2026-03-01",
        "0dec0001",
        [("user", "the vitess resharding plan"), ("assistant", "vitess resharding runs online while reads go on")],
    )
    write_journal(home, "2026-03-09", "0dec0002", [("user", "the vitess resharding plan")])
    assert sources(index.search("vitess resharding")) == ["2026-03-01-0dec0001", "2026-03-09-0dec0002"]


def test_a_word_repeated_back_to_back_counts_each_time(home: Path, index: RecallIndex) -> None:
    # "tests testing" is the stem "test" twice in a row; the newer session says it once.
    write_journal(home, "2026-02-04", "7f000001", [("user", "flaky tests testing")])
    write_journal(home, "2026-02-05", "7f000002", [("user", "flaky test suite")])
    assert sources(index.search("tests")) == ["2026-02-04-7f000001", "2026-02-05-7f000002"]


def test_a_rare_query_word_counts_more_than_a_common_one(home: Path, index: RecallIndex) -> None:
    for i in range(12):
        write_journal(home, "2026-02-01", f"1df0{i:04d}", [("user", f"we deploy service {i} on fridays")])
    write_journal(home, "2026-02-02", "1df10001", [("user", "the canary rollout")])
    write_journal(home, "2026-02-03", "1df10002", [("user", "deploy deploy deploy again")])
    assert sources(index.search("deploy canary"))[0] == "2026-02-02-1df10001"


@pytest.mark.parametrize("limit", [1, 10])
def test_the_best_of_a_full_shortlist_of_equal_candidates_is_found(home: Path, index: RecallIndex, limit: int) -> None:
    # Every session holds the query word, so the shortlist's estimate ties them all, and ties go to the
    # most recently indexed: the best session, indexed first, is the last one to make the shortlist.
    width = max(recall.MIN_SHORTLIST, rank.SHORTLIST * limit)
    write_journal(home, "2026-04-01", "5e1e0000", [("user", "nomad nomad job spec")])
    index.refresh()
    for i in range(1, width):
        write_journal(home, "2026-04-01", f"5e1e{i:04d}", [("user", "nomad job spec")])
    hits = index.search("nomad", limit=limit)
    assert hits[0].source == "2026-04-01-5e1e0000"
    assert len(hits) == limit


def test_the_newest_of_many_equal_sessions_is_found_first(home: Path, index: RecallIndex) -> None:
    # More equal sessions than the shortlist holds, all indexed at once: the newest is still found.
    first = date(2025, 1, 1)
    topics = ("flyway baseline", "etcd snapshot", "istio mtls")
    count = 8 * recall.MIN_SHORTLIST
    for i in range(count):
        day = (first + timedelta(days=i)).isoformat()
        for t, topic in enumerate(topics):
            write_journal(home, day, f"ab{t}{i:05d}", [("user", f"{topic} again")])
    newest = (first + timedelta(days=count - 1)).isoformat()
    for t, topic in enumerate(topics):
        assert sources(index.search(topic, limit=1)) == [f"{newest}-ab{t}{count - 1:05d}"]


def test_since_and_until_filter_by_session_date(home: Path, index: RecallIndex) -> None:
    for day, ident in [("2026-01-10", "eeee0001"), ("2026-02-10", "eeee0002"), ("2026-03-10", "eeee0003")]:
        write_journal(home, day, ident, [("user", "terraform state lock")])
    assert len(index.search("terraform")) == 3
    assert sources(index.search("terraform", since=date(2026, 2, 1))) == ["2026-03-10-eeee0003", "2026-02-10-eeee0002"]
    assert sources(index.search("terraform", until=date(2026, 2, 10))) == ["2026-02-10-eeee0002", "2026-01-10-eeee0001"]
    assert sources(index.search("terraform", since=date(2026, 2, 1), until=date(2026, 2, 28))) == [
        "2026-02-10-eeee0002"
    ]
    # Both ends are inclusive: a session on the first or the last day of the range is in it.
    assert sources(index.search("terraform", since=date(2026, 2, 10))) == ["2026-03-10-eeee0003", "2026-02-10-eeee0002"]
    assert sources(index.search("terraform", since=date(2026, 2, 10), until=date(2026, 2, 10))) == [
        "2026-02-10-eeee0002"
    ]


def test_date_filter_applies_before_the_shortlist(home: Path, index: RecallIndex) -> None:
    # Many older sessions match better than the one inside the range; the range must still find it.
    for i in range(3 * recall.MIN_SHORTLIST):
        write_journal(home, "2025-01-01", f"0ee{i:05d}", [("user", "consul acl token policy bootstrap")])
    write_journal(home, "2026-03-01", "0eef0001", [("user", "consul upgrade")])
    assert "2026-03-01-0eef0001" not in sources(index.search("consul acl token policy", limit=5))
    assert sources(index.search("consul acl token policy", since=date(2026, 1, 1))) == ["2026-03-01-0eef0001"]
    assert sources(
        index.search(
            "consul acl token policy", exclude={f"2025-01-01-0ee{i:05d}" for i in range(3 * recall.MIN_SHORTLIST)}
        )
    ) == ["2026-03-01-0eef0001"]


def test_exclude_leaves_out_the_live_session(home: Path, index: RecallIndex) -> None:
    write_journal(home, "2026-05-01", "ffff0001", [("user", "grafana dashboard panels")])
    write_journal(home, "2026-05-02", "ffff0002", [("user", "what did we say about grafana?")])
    assert "2026-05-02-ffff0002" in sources(index.search("grafana"))
    assert sources(index.search("grafana", exclude={"2026-05-02-ffff0002"})) == ["2026-05-01-ffff0001"]


def test_memory_entries_are_their_own_sources(home: Path, index: RecallIndex) -> None:
    home.mkdir(exist_ok=True)
    (home / "memories.md").write_text(
        "# Memories\n\n## Preferences\n\n### programming-languages\n- [2026-11-30] The user writes backends in Rust\n"
        "\n```\n- [2026-01-01] rust inside a code fence is not an entry\n```\n"
        "## ifai\n\n### Project Knowledge\n\n#### frontend-stack\n- [2026-11-29] The front end is Vue 3 inside Tauri\n",
        encoding="utf-8",
    )
    write_journal(home, "2026-11-02", "abab0001", [("user", "rust lifetimes again")])
    hits = index.search("rust", limit=10)
    memory = [h for h in hits if h.source == "memories.md"]
    assert [(h.where, h.date) for h in memory] == [("memory Preferences/programming-languages", "2026-11-30")]
    assert "2026-11-02-abab0001" in sources(hits)
    vue = index.search("vue tauri")[0]
    assert (vue.source, vue.where) == ("memories.md", "memory ifai/Project Knowledge/frontend-stack")


MEMORIES_BY_ROOM = (
    "# Memories\n\n## Preferences\n\n### programming-languages\n"
    "- [2026-01-05] The user writes backends in Rust\n- [2026-03-05] Rust error handling uses anyhow\n"
    "\n### editor\n- [2026-03-06] Helix with the rust-analyzer language server\n"
    "\n### shell\n- [2026-03-07] fish with starship\n"
)


def test_memory_entries_rank_as_one_source_per_room(home: Path, index: RecallIndex) -> None:
    home.mkdir(exist_ok=True)
    (home / "memories.md").write_text(MEMORIES_BY_ROOM, encoding="utf-8")
    write_journal(home, "2026-11-02", "abab0002", [("user", "rust lifetimes again")])
    hits = index.search("rust", limit=10)
    memory = sorted(h.where for h in hits if h.source == "memories.md")
    assert memory == ["memory Preferences/editor", "memory Preferences/programming-languages"]
    assert "2026-11-02-abab0002" in sources(hits)


def test_date_range_applies_to_memory_entries_by_their_own_date(home: Path, index: RecallIndex) -> None:
    home.mkdir(exist_ok=True)
    (home / "memories.md").write_text(MEMORIES_BY_ROOM, encoding="utf-8")
    early = index.search("rust backends", until=date(2026, 2, 1))
    assert [(h.where, h.date) for h in early] == [("memory Preferences/programming-languages", "2026-01-05")]
    late = index.search("rust", since=date(2026, 3, 6))
    assert [(h.where, h.date) for h in late] == [("memory Preferences/editor", "2026-03-06")]
    assert index.search("backends", since=date(2026, 3, 6)) == []


def test_exclude_can_leave_out_the_memories_file(home: Path, index: RecallIndex) -> None:
    home.mkdir(exist_ok=True)
    (home / "memories.md").write_text(MEMORIES_BY_ROOM, encoding="utf-8")
    write_journal(home, "2026-11-02", "abab0003", [("user", "rust lifetimes again")])
    assert "memories.md" in sources(index.search("rust", limit=10))
    assert sources(index.search("rust", limit=10, exclude={"memories.md"})) == ["2026-11-02-abab0003"]


def test_archive_only_and_journal_only_sessions(home: Path, index: RecallIndex) -> None:
    write_archive(home, "2026-04-01", "0a0a0001", "Chose Litestream for replicating sqlite to S3.", ("Use Litestream",))
    write_journal(home, "2026-04-02", "0a0a0002", [("user", "litestream restore failed"), ("assistant", None)])
    hits = index.search("litestream")
    assert sources(hits) == ["2026-04-02-0a0a0002", "2026-04-01-0a0a0001"] or sources(hits) == [
        "2026-04-01-0a0a0001",
        "2026-04-02-0a0a0002",
    ]
    assert {h.where for h in hits} == {"summary", "message (user)"}


def test_secret_redacted_in_snippet_and_never_stored(home: Path, index: RecallIndex) -> None:
    assert find_secret(SECRET) is not None
    write_journal(home, "2026-07-01", "5ec00001", [("user", f"the staging openai key is {SECRET} for the billing bot")])
    hits = index.search("staging billing bot key")
    assert hits and SECRET not in hits[0].snippet and "[redacted" in hits[0].snippet
    assert SECRET not in format_hits(hits)
    index.close()
    for path in (home / ".index").iterdir():
        assert SECRET.encode() not in path.read_bytes()


def test_snippet_is_shortened_around_the_match(home: Path, index: RecallIndex) -> None:
    filler = " ".join(f"word{i}" for i in range(400))
    text = f"{filler} the flamegraph showed regex compile {filler}"
    write_journal(home, "2026-07-02", "5ec00002", [("assistant", text)])
    snippet = index.search("flamegraph")[0].snippet
    assert "flamegraph" in snippet and len(snippet) < 260
    assert snippet.startswith("…") and snippet.endswith("…")


# -- catching up -------------------------------------------------------------------------------------


def test_incremental_refresh_new_changed_deleted(home: Path, index: RecallIndex) -> None:
    first = write_journal(home, "2026-08-01", "1c0c0001", [("user", "pgbouncer transaction pooling")])
    stats = index.refresh()
    assert (stats.added, stats.changed, stats.removed) == (1, 0, 0)
    stats = index.refresh()
    assert (stats.added, stats.changed, stats.removed, stats.unchanged) == (0, 0, 0, 1)

    write_journal(home, "2026-08-02", "1c0c0002", [("user", "pgbouncer prepared statements")])
    stats = index.refresh()
    assert (stats.added, stats.changed, stats.unchanged) == (1, 0, 1)

    write_journal(home, "2026-08-01", "1c0c0001", [("user", "switched to session pooling, odyssey rejected")])
    stats = index.refresh()
    assert (stats.added, stats.changed) == (0, 1)
    assert sources(index.search("odyssey")) == ["2026-08-01-1c0c0001"]
    assert sources(index.search("pgbouncer")) == ["2026-08-02-1c0c0002"]

    first.unlink()
    stats = index.refresh()
    assert stats.removed == 1
    assert index.search("odyssey") == []


def test_deleted_sessions_leave_nothing_behind(home: Path, index: RecallIndex) -> None:
    # Deleted sessions that matched better than the one left must not crowd it out of the shortlist.
    deleted = [
        write_journal(home, "2026-06-01", f"de1e{i:04d}", [("user", "kafka consumer lag alert")])
        for i in range(recall.MIN_SHORTLIST)
    ]
    write_journal(home, "2026-05-01", "de1f0001", [("user", "kafka topics")])
    assert sources(index.search("kafka consumer lag", limit=1))[0].startswith("2026-06-01-de1e")
    for path in deleted:
        path.unlink()
    assert sources(index.search("kafka consumer lag", limit=1)) == ["2026-05-01-de1f0001"]
    stats = index.refresh()  # the deletions were caught up once, for good
    assert (stats.added, stats.changed, stats.removed) == (0, 0, 0)


def test_old_session_deleted_between_full_scans_is_dropped(home: Path, index: RecallIndex) -> None:
    old = write_archive(home, "2020-09-15", "01d00004", "Moved the wiki to bookstack.")
    _age(old)
    write_journal(home, "2026-08-11", "01d00005", [("user", "a newer session about bookstack")])
    assert set(sources(index.search("bookstack", limit=5))) == {"2026-08-11-01d00005", "2020-09-15-01d00004"}
    old.unlink()  # not a file that may change in place: seen through the directory listing
    assert sources(index.search("bookstack", limit=5)) == ["2026-08-11-01d00005"]
    assert not index.refresh().full_scan


def test_live_journal_appended_without_directory_change(home: Path, index: RecallIndex) -> None:
    path = write_journal(home, "2026-08-03", "11fe0001", [("user", "start of a live session")])
    assert index.search("zookeeper") == []
    with path.open("a", encoding="utf-8") as handle:  # no new file: the directory's mtime stays
        message = {"role": "user", "content": "we still run zookeeper for kafka"}
        handle.write(json.dumps({"type": "message", "ts": "2026-08-03T15:00:00+00:00", "message": message}) + "\n")
    assert sources(index.search("zookeeper")) == ["2026-08-03-11fe0001"]


def test_old_archive_replaced_by_rename_is_seen(home: Path, index: RecallIndex) -> None:
    _age(write_journal(home, "2020-09-13", "01d00001", [("user", "sentry alerts")]))
    archive = write_archive(home, "2020-09-13", "01d00001", "Routed sentry alerts to the on-call channel.")
    _age(archive)
    write_journal(home, "2026-08-10", "01d00002", [("user", "a newer session")])
    assert sources(index.search("sentry")) == ["2020-09-13-01d00001"]
    assert index.search("pagerduty") == []
    temp = archive.with_suffix(".md.tmp")
    temp.write_text(archive.read_text(encoding="utf-8").replace("on-call channel", "pagerduty"), encoding="utf-8")
    _age(temp)
    os.replace(temp, archive)  # how an archive is rewritten: a new file renamed into place
    assert sources(index.search("pagerduty")) == ["2020-09-13-01d00001"]


def test_old_file_rewritten_in_place_is_seen_by_the_periodic_full_scan(
    home: Path, index: RecallIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_journal(home, "2020-09-14", "01d00003", [("user", "jaeger tracing")])
    _age(path)
    assert sources(index.search("jaeger")) == ["2020-09-14-01d00003"]
    write_journal(home, "2020-09-14", "01d00003", [("user", "tempo tracing instead")])  # same inode
    _age(path)
    monkeypatch.setattr("palace.recall.index.FULL_SCAN_SECONDS", 0.0)
    stats = index.refresh()
    assert stats.full_scan and stats.changed == 1
    assert sources(index.search("tempo")) == ["2020-09-14-01d00003"]


def test_truncated_last_line_is_tolerated_then_read_when_complete(home: Path, index: RecallIndex) -> None:
    line = json.dumps({"type": "message", "ts": "x", "message": {"role": "user", "content": "consul service mesh"}})
    path = write_journal(home, "2026-08-04", "7a110001", [("user", "envoy sidecar")], tail=line[:40])
    assert sources(index.search("envoy")) == ["2026-08-04-7a110001"]
    assert index.search("consul") == []
    with path.open("a", encoding="utf-8") as handle:
        handle.write(line[40:] + "\n")
    assert sources(index.search("consul")) == ["2026-08-04-7a110001"]


def test_deleting_the_index_folder_rebuilds_it(home: Path, index: RecallIndex) -> None:
    write_journal(home, "2026-08-05", "de1e0001", [("user", "vault approle login")])
    assert sources(index.search("vault")) == ["2026-08-05-de1e0001"]
    index.close()
    for path in (home / ".index").iterdir():
        path.unlink()
    (home / ".index").rmdir()
    again = RecallIndex(home)
    try:
        assert sources(again.search("vault")) == ["2026-08-05-de1e0001"]
    finally:
        again.close()


@pytest.mark.parametrize("damage", ["header", "pages"])
def test_corrupted_index_file_is_rebuilt(home: Path, index: RecallIndex, damage: str) -> None:
    write_journal(home, "2026-08-06", "c0de0001", [("user", "helm chart values override")])
    for i in range(40):
        write_journal(home, "2026-08-07", f"c0de1{i:03d}", [("user", f"unrelated note {i} " + "lorem " * 50)])
    assert sources(index.search("helm")) == ["2026-08-06-c0de0001"]
    index.close()
    path = home / ".index" / "recall.sqlite3"
    size = path.stat().st_size
    with path.open("r+b") as handle:
        if damage == "header":  # not a database at all
            handle.write(b"this is not a database at all" * 200)
        else:  # the schema page survives, every table page after it is garbage
            handle.seek(4096)
            handle.write(b"\xff" * (size - 4096))
    again = RecallIndex(home)
    try:
        stats = again.refresh()
        assert stats.rebuilt and stats.added == 41
        assert sources(again.search("helm")) == ["2026-08-06-c0de0001"]
    finally:
        again.close()


def test_index_of_another_format_is_rebuilt(home: Path, index: RecallIndex) -> None:
    # An index written by another schema version, or redacted with other secret patterns.
    write_journal(home, "2026-08-06", "0ed00001", [("user", "argocd sync waves")])
    assert sources(index.search("argocd")) == ["2026-08-06-0ed00001"]
    index.close()
    conn = sqlite3.connect(home / ".index" / "recall.sqlite3")
    conn.execute("DELETE FROM doc")  # so that only a rebuild can find the session again
    conn.execute("PRAGMA user_version = 12345")
    conn.commit()
    conn.close()
    again = RecallIndex(home)
    try:
        assert sources(again.search("argocd")) == ["2026-08-06-0ed00001"]
    finally:
        again.close()


def test_index_permissions(home: Path, index: RecallIndex) -> None:
    write_journal(home, "2026-08-08", "9e9e0001", [("user", "umask check")])
    index.refresh()
    assert stat.S_IMODE((home / ".index").stat().st_mode) == 0o700
    assert stat.S_IMODE((home / ".index" / "recall.sqlite3").stat().st_mode) == 0o600


def test_two_indexes_refreshing_at_once(home: Path) -> None:
    for i in range(60):
        write_journal(home, "2026-08-09", f"2b2b{i:04d}", [("user", f"shared topic number{i} memcached")])
    errors: list[BaseException] = []
    results: list[int] = []

    def work() -> None:
        idx = RecallIndex(home)
        try:
            results.append(len(idx.search("memcached", limit=20)))
        except BaseException as exc:  # pragma: no cover - the assertion below reports it
            errors.append(exc)
        finally:
            idx.close()

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert results == [20, 20, 20]
    idx = RecallIndex(home)
    try:
        conn = sqlite3.connect(idx.path)
        assert conn.execute("SELECT count(*) FROM file").fetchone()[0] == 60
        assert conn.execute("SELECT count(*) FROM doc").fetchone()[0] == 60
        conn.close()
        assert len(idx.search("memcached", limit=20)) == 20
    finally:
        idx.close()


def test_a_new_index_opened_by_several_at_once_opens_for_each(tmp_path: Path) -> None:
    # SQLite fails the switch to WAL at once, without waiting, while another connection holds a lock: a
    # first use of recall by two palaces at once then failed one, which searched a half-built index.
    failures: list[BaseException] = []
    for round_number in range(12):
        home = tmp_path / f"palace{round_number}"
        write_journal(home, "2026-08-10", f"3c3c{round_number:04d}", [("user", "kafka partitions")])
        indexes = [RecallIndex(home) for _ in range(3)]
        start = threading.Barrier(len(indexes))

        def catch_up(idx: RecallIndex, start: threading.Barrier = start) -> None:
            start.wait()
            try:
                idx.refresh()
            except BaseException as exc:  # pragma: no cover - the assertion below reports it
                failures.append(exc)

        threads = [threading.Thread(target=catch_up, args=(idx,)) for idx in indexes]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        hits = [sources(idx.search("kafka")) for idx in indexes]
        for idx in indexes:
            idx.close()
        assert not failures, failures
        assert hits == [[f"2026-08-10-3c3c{round_number:04d}"]] * 3


# -- validation and formatting -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"query": ""}, "empty"),
        ({"query": "   \n\t"}, "empty"),
        ({"query": "x", "limit": 0}, "limit"),
        ({"query": "x", "limit": 21}, "limit"),
        ({"query": "x", "limit": True}, "limit"),
        ({"query": "x", "since": date(2026, 3, 1), "until": date(2026, 2, 1)}, "after"),
        ({"query": '"*() -:'}, "no words"),
        ({"query": "x" * 5000}, "too long"),
    ],
)
def test_bad_queries_rejected_with_clear_messages(index: RecallIndex, kwargs: dict[str, object], message: str) -> None:
    query = kwargs.pop("query")
    with pytest.raises(RecallError, match=message):
        index.search(query, **kwargs)  # type: ignore[arg-type]
    assert issubclass(RecallError, PalaceError)


def test_format_hits_groups_limits_and_redacts() -> None:
    hits = [
        RecallHit("2026-11-30-a1b2c3d4", "2026-11-30", "数据库" * 300, 2.0, "summary"),
        RecallHit("2026-11-28-00000001", "2026-11-28", f"key {SECRET} " + "x" * 900, 1.0, "message (user)"),
        RecallHit("2026-11-30-a1b2c3d4", "2026-11-30", "second snippet of the same session", 1.5, "message (user)"),
        RecallHit("2026-11-29-00000002", "2026-11-29", "equal score, newer", 1.0, "message (assistant)"),
    ] + [RecallHit(f"2026-10-{i:02d}-0000aaaa", f"2026-10-{i:02d}", "y " * 200, 0.5, "summary") for i in range(1, 20)]
    text = format_hits(hits)
    assert len(text.encode("utf-8")) <= 2048
    assert SECRET not in text
    assert text.count("session 2026-11-30-a1b2c3d4") == 1  # grouped
    assert text.index("2026-11-29-00000002") < text.index("2026-11-28-00000001")  # newer first among equals
    assert "more not shown" in text
    small = format_hits(hits, max_bytes=300)
    assert len(small.encode("utf-8")) <= 300
    assert format_hits([], query="kafka  lag") == 'no matches for "kafka lag" in archived sessions or memories'


@pytest.fixture(scope="module")
def fuzz_index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RecallIndex]:
    home = tmp_path_factory.mktemp("fuzz")
    write_journal(
        home,
        "2026-01-01",
        "f0220001",
        [("user", 'SELECT * FROM t WHERE a = "b" AND NOT c; 数据库 -x:y ２３ ÉCOLE straße ǅ 𠀀𠀁 한국어 カタカナ')],
    )
    write_archive(home, "2026-01-02", "f0220002", 'NEAR(a b) OR c* ^d "quoted" {col}: AND NOT')
    idx = RecallIndex(home)
    yield idx
    idx.close()


FTS_ALPHABET = st.sampled_from(list("\"*-:()^{}+,.;'\\ ANDORNEAR and or not near 数据库é\u0000\u200b\U0001f600\t\n"))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    query=st.one_of(
        st.text(FTS_ALPHABET, min_size=1, max_size=40),
        st.text(min_size=1, max_size=60),
        st.text(st.characters(min_codepoint=0x2000, max_codepoint=0x3FFFF), min_size=1, max_size=10),
    )
)
def test_fuzzed_queries_never_raise_sqlite_errors(fuzz_index: RecallIndex, query: str) -> None:
    try:
        hits = fuzz_index.search(query, limit=3)
    except RecallError as exc:
        assert "failed" not in str(exc)  # a refusal of the query, not a database failure
        return
    assert len(hits) <= 3
    format_hits(hits, query=query)
