"""The index build: what it stores is what the plain definitions give (each message read as json.loads reads
its line, redacted as redact() redacts it, tokenised as tokenize() does; the vocabulary a recount of the
documents), a build in worker processes stores and finds exactly what a build in this process does, and a
broken pool leaves the work to this process."""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import sys
import threading
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import palacegen
from prose import Prose

from bench.secrets_corpus import LOOKALIKES, SECRETS
from bench.secrets_corpus.ordinary import transcript
from palace.memory.secrets import redact
from palace.memory.store import MemoryStore
from palace.recall import pool
from palace.recall.index import RecallIndex
from palace.recall.rank import RecallHit
from palace.recall.schema import ANY_TERM, unpack_terms
from palace.recall.sources import MAX_DOC_CHARS
from palace.recall.text import tokenize

# Messages that take the tokenizer's and the redaction's other paths: CJK (and Chinese numerals), number
# words, compatibility forms, case changes that change length, a NUL, a long pasted log.
AWKWARD = [
    "twenty five cats and three dogs, forty-two fish",
    "我们有三只猫和二十五条鱼，数据库在迁移的时候报错？",
    "mixed 中文english words 日本語テキスト한국어 and ＡＢＣ１２ ﬁle",
    "Crème brûlée naïve café İstanbul straße ǅ",
    "\x00nul\x00 byte and under_score snake_case v2.3.4",
    "emoji 😀 text \u2028 line separator",
    "the deploy token: 9f8e7d6c5b4a39281706f5e4d3c2b1a0 and three more",
    "log line\n" * 2500,
]


def _message_line(rng: random.Random, text: object, role: str) -> str:
    line = json.dumps({"type": "message", "message": {"role": role, "content": text}}, ensure_ascii=rng.random() < 0.5)
    damage = rng.random()
    if damage < 0.04:
        return line[: len(line) // 2]  # a damaged (or a live journal's last) line
    if damage < 0.07:
        return line.replace('"message"', '"\\u006dessage"', 1)  # the type spelt with an escape
    if damage < 0.09:
        return line + " " + line  # two records on one line: not JSON
    if damage < 0.11:
        return " \t" + line + "\r"
    return line


def _awkward_journal(rng: random.Random, messages: list[str]) -> bytes:
    wings = rng.choice([[], ["alpha"], ["beta", "Alpha"]])
    lines = [json.dumps({"type": "session", "started": "2026-03-04T10:00:00+02:00", "wings": wings})]
    for _ in range(rng.randint(1, 12)):
        text: object = rng.choice(messages)
        if rng.random() < 0.15:
            text = [{"type": "text", "text": text}, {"type": "text", "text": "and a second part"}]
        lines.append(_message_line(rng, text, rng.choice(["user", "assistant", "assistant", "tool"])))
        if rng.random() < 0.3:
            lines.append(json.dumps({"type": "usage", "input": 5, "output": 2}))
        if rng.random() < 0.05:
            lines.append(rng.choice(["", " \x0b ", "[1, 2]", '"message"']))
    data = "\n".join(lines).encode("utf-8")
    mark = rng.random()
    if mark < 0.06:
        data = b"\xef\xbb\xbf" + data  # a byte-order mark: the first line is read as utf-8-sig
    elif mark < 0.12:
        data = data.replace(b"e", b"\xff", 1)  # a byte that is no UTF-8: that line is unreadable
    return data


def _palace(home: Path) -> Path:
    """A palace of generated sessions, awkward journals (secrets, CJK, damaged lines), memories and superseded
    entries."""
    palacegen.write_sessions(home / "sessions", 30, seed=3)
    (home / "memories.md").write_text(palacegen.memories(25, seed=3).text, encoding="utf-8")
    rng = random.Random(5)
    messages = [*transcript(40_000, seed=6), *(case.text for case in (*SECRETS, *LOOKALIKES)), *AWKWARD]
    for number in range(24):
        path = home / "sessions" / f"2026-03-{1 + number % 28:02d}-{0xA0C0_0000 + number:08x}.jsonl"
        path.write_bytes(_awkward_journal(rng, messages))
    store = MemoryStore(home)
    store.save("Decisions/database", "Uses MySQL for the main database")
    store.save("Decisions/database", "Uses PostgreSQL for the main database", "Uses MySQL for the main database")
    store.save("alpha/Preferences/editor", "Prefers helix over vim")
    return home


QUERIES = [
    *(Prose(random.Random(9)).query() for _ in range(40)),
    "twenty five cats",
    "三只猫",
    "数据库 迁移",
    "crème brûlée",
    "straße",
    "database postgres",
    "helix editor",
    "fesetival",  # a typo, corrected against the vocabulary
    "deploy token",
]


def _dump(home: Path) -> dict[str, object]:
    """Everything the index holds, by file path (file ids differ from one build to another)."""
    conn = sqlite3.connect(home / ".index" / "recall.sqlite3")
    try:
        paths = dict(conn.execute("SELECT id, path FROM file"))
        conn.execute("CREATE VIRTUAL TABLE temp.files_vocab USING fts5vocab(main, 'ffts', 'instance')")
        conn.execute("CREATE VIRTUAL TABLE temp.entries_vocab USING fts5vocab(main, 'fts', 'instance')")
        return {
            "files": sorted(conn.execute("SELECT path, kind, source, day, wings, size, mtime_ns FROM file")),
            "docs": sorted(
                (paths[rowid >> 20], rowid & 0xFFFFF, day, kind, text, unpack_terms(terms))
                for rowid, day, kind, text, terms in conn.execute("SELECT id, date, kind, text, terms FROM doc")
            ),
            "vocab": sorted(conn.execute("SELECT term, docs, files FROM vocab")),
            "file terms": sorted((t, paths[d]) for t, d in conn.execute("SELECT term, doc FROM temp.files_vocab")),
            "entry terms": sorted(
                (t, paths[d >> 20], d & 0xFFFFF) for t, d in conn.execute("SELECT term, doc FROM temp.entries_vocab")
            ),
        }
    finally:
        conn.close()


def _shown(hit: RecallHit) -> tuple[object, ...]:
    """What a hit shows (its excerpts without their rowids: file ids differ from one build to another)."""
    excerpts = [(e.role, e.text, e.value, e.side, e.entry) for e in hit.excerpts]
    return (hit.source, hit.date, hit.snippet, hit.score, hit.where, hit.wings, excerpts)


def _answers(index: RecallIndex) -> list[object]:
    return [[_shown(h) for h in index.search(q, limit=5, wings=w)] for q in QUERIES for w in (None, ["alpha"])]


def _build(home: Path) -> tuple[dict[str, object], list[object]]:
    with RecallIndex(home) as index:
        stats = index.refresh()
        assert stats.added == sum(1 for _ in (home / "sessions").iterdir()) + 2  # and memories.md, superseded.md
        return _dump(home), _answers(index)


@pytest.fixture
def palace(tmp_path: Path) -> Path:
    return _palace(tmp_path / "palace")


@pytest.fixture
def pooled(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Catch-ups read their files in two worker processes; the list grows by one for each batch they read."""
    monkeypatch.setenv("PALACE_RECALL_WORKERS", "2")
    monkeypatch.setattr(pool, "FORK_FILES", 1)
    monkeypatch.setattr(pool, "SPAWN_FILES", 1)
    monkeypatch.setattr(pool, "TASK_FILES", 7)
    read: list[int] = []
    collect = pool._collect

    def counted(tasks: pool.Tasks) -> object:
        ready = collect(tasks)
        if ready is not None:
            read.append(len(ready.files))
        return ready

    monkeypatch.setattr(pool, "_collect", counted)
    return read


def _copy(home: Path, name: str) -> Path:
    copy = home.parent / name
    shutil.copytree(home, copy, ignore=shutil.ignore_patterns(".index"))
    return copy


def _recount(dump: dict[str, object]) -> list[tuple[str, int, int]]:
    """The vocabulary as the stored documents make it: how many documents and files hold each term."""
    docs: Counter[str] = Counter()
    files: dict[str, set[str]] = {}
    for path, _number, _day, _kind, _text, terms in dump["docs"]:  # type: ignore[attr-defined]
        for term in {*terms.split(" "), ANY_TERM}:  # ANY_TERM: every document and file holding a term
            docs[term] += 1
            files.setdefault(term, set()).add(path)
    return sorted((term, count, len(files[term])) for term, count in docs.items())


def test_a_build_in_worker_processes_stores_and_finds_what_a_build_here_does(
    palace: Path, pooled: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    other = _copy(palace, "serial")
    in_workers = _build(palace)
    assert sum(pooled) == len(in_workers[0]["files"])  # type: ignore[arg-type]  # every file read there
    monkeypatch.setenv("PALACE_RECALL_WORKERS", "0")
    here = _build(other)
    assert in_workers[0] == here[0]
    assert in_workers[1] == here[1]
    assert any(hits for hits in here[1])


def _defined_messages(data: bytes) -> list[str]:
    """A journal's user and assistant messages by the plain definition: each line read by json.loads, the
    content (or its text parts) stripped, clipped and redacted."""
    out = []
    for line in data.split(b"\n"):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            continue
        message = record.get("message") if isinstance(record, dict) and record.get("type") == "message" else None
        if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
            continue
        content = message.get("content")
        if isinstance(content, list):
            content = "\n".join(p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
        text = content.strip()[:MAX_DOC_CHARS] if isinstance(content, str) else ""
        if text:
            out.append(redact(text))
    return out


def test_each_message_is_stored_redacted_and_tokenised_as_defined(palace: Path, pooled: list[int]) -> None:
    dump, _answers = _build(palace)
    assert pooled
    stored: dict[str, list[tuple[int, str, str]]] = {}
    for path, number, _day, _kind, text, terms in dump["docs"]:  # type: ignore[attr-defined]
        stored.setdefault(path, []).append((number, text, terms))
    journals = sorted((palace / "sessions").glob("*.jsonl"))
    redacted = 0
    for journal in journals:
        messages = _defined_messages(journal.read_bytes())
        expected = [(n, text, " ".join(tokenize(text))) for n, text in enumerate(messages) if tokenize(text)]
        assert stored.get(f"sessions/{journal.name}", []) == expected, journal.name
        redacted += sum("[redacted " in text for text in messages)
    assert redacted > 10  # the secrets are there, and redacted
    assert dump["vocab"] == _recount(dump)
    file_terms = sorted({(t, path) for path, *_rest, terms in dump["docs"] for t in terms.split(" ")})  # type: ignore[attr-defined]
    assert dump["file terms"] == file_terms


def test_the_vocabulary_stays_a_recount_as_files_change(
    palace: Path, pooled: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    _build(palace)
    # Journals that already have their archive are looked at again by a full scan (palace only appends to
    # live ones); this catch-up is one, so the hand-appended journals below are re-indexed.
    monkeypatch.setattr("palace.recall.index.FULL_SCAN_SECONDS", 0.0)
    sessions = sorted((palace / "sessions").iterdir())
    for path in sessions[:5]:
        path.unlink()
    for path in [p for p in sessions[5:] if p.suffix == ".jsonl"][:4]:
        with path.open("a", encoding="utf-8") as out:
            out.write(
                "\n" + json.dumps({"type": "message", "message": {"role": "user", "content": "三只猫 and a cat"}})
            )
        os.utime(path, ns=(path.stat().st_mtime_ns + 10**9, path.stat().st_mtime_ns + 10**9))
    palacegen.write_sessions(palace / "sessions", 6, seed=11)
    MemoryStore(palace).save("Decisions/queue", "Runs jobs on Celery")
    with RecallIndex(palace) as index:
        stats = index.refresh()
        assert stats.removed == 5 and stats.changed >= 5 and stats.added == 12
    changed = _dump(palace)
    assert changed["vocab"] == _recount(changed)
    # What a build of the same files from nothing holds. (Not all the same answers: a file added later has a
    # higher id, which breaks ties in the shortlist differently.)
    assert changed == _build(_copy(palace, "fresh"))[0]


def test_a_build_beside_another_thread_spawns_its_workers(
    palace: Path, pooled: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A thread (the REPL has a few) may hold a lock a forked child would need: the workers are spawned.
    other = _copy(palace, "serial")
    plans: list[pool._Plan | None] = []
    plan = pool._plan
    monkeypatch.setattr(pool, "_plan", lambda files: plans.append(plan(files)) or plans[-1])
    done = threading.Event()
    thread = threading.Thread(target=done.wait)
    thread.start()
    try:
        in_workers = _build(palace)
    finally:
        done.set()
        thread.join()
    assert plans[0] is not None and plans[0].start == "spawn"  # the build (then the searches: no pool)
    assert sum(pooled) == len(in_workers[0]["files"])  # type: ignore[arg-type]
    monkeypatch.setenv("PALACE_RECALL_WORKERS", "0")
    assert in_workers == _build(other)


def _die(*_args: object) -> object:
    os._exit(3)  # a worker killed (out of memory, say) in the middle of its task


def test_a_broken_pool_leaves_the_reading_to_this_process(
    palace: Path, pooled: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    other = _copy(palace, "serial")
    monkeypatch.setattr(pool, "prepare_many", _die)
    broken = _build(palace)
    assert not pooled  # no batch came from the workers
    monkeypatch.setenv("PALACE_RECALL_WORKERS", "0")
    assert broken == _build(other)


def test_a_small_catch_up_does_not_start_workers(palace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[object] = []
    monkeypatch.setattr(pool, "_start", lambda plan: started.append(plan))
    with RecallIndex(palace) as index:
        assert index.refresh().added > 0
        assert index.search("database")
    assert not started
