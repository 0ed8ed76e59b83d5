"""The recall evaluation's shared parts: the corpus written as a palace, the rankings and their score.

Used by run.py (the report) and tests/test_recall_eval.py (the guard). Import it as `recall_eval.harness`
with bench/ on sys.path.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any, NamedTuple

import palace.recall as recall
from palace.paths import MEMORIES
from palace.recall import RecallIndex
from palace.recall.tuning import DEFAULT, Tuning
from recall_eval.questions import QUESTIONS
from recall_eval.sessions import SESSIONS

ZH = re.compile(r"[\u4e00-\u9fff]")


def session_source(session: dict[str, Any]) -> str:
    """The recall source (session id) of an evaluation session."""
    return f"{session['date']}-{session['id']}"


def answers() -> dict[str, str]:
    """Session key -> the source that answers the questions naming it."""
    by_key = {s["key"]: session_source(s) for s in SESSIONS}
    unknown = sorted({key for _q, key in QUESTIONS if key not in by_key})
    assert not unknown, f"questions name unknown sessions: {unknown}"
    return by_key


def _journal(session: dict[str, Any]) -> str:
    day = session["date"]
    turns: list[str] = session["turns"]
    lines: list[dict[str, object]] = [
        {
            "type": "session",
            "id": session["id"],
            "started": f"{day}T10:00:00+00:00",
            "model": "gpt-4.1-mini",
            "wing": session["wing"],
            "pid": 4242,
            "host": "devbox",
        }
    ]
    for i, text in enumerate(turns):
        role = "user" if i % 2 == 0 else "assistant"
        ts = f"{day}T10:{i:02d}:00+00:00"
        lines.append({"type": "message", "ts": ts, "message": {"role": role, "content": text}})
        if role == "assistant":
            lines.append({"type": "usage", "ts": ts, "input": 1200 + i, "output": 300})
    lines.append({"type": "end", "ts": f"{day}T10:59:00+00:00"})
    return "".join(json.dumps(obj, ensure_ascii=False) + "\n" for obj in lines)


def _archive(session: dict[str, Any]) -> str:
    day = session["date"]
    memories = "\n".join(
        f"- **{item.split(': ', 1)[0]}**: {item.split(': ', 1)[1]} (extracted)" for item in session["memories"]
    )
    return (
        f"# Session {day} · {session['id']}\n\n"
        f"- Started: {day} 10:00 +00:00\n- Ended: {day} 10:59 +00:00\n- Model: gpt-4.1-mini\n"
        f"- Wing: {session['wing'] or '-'}\n- Turns: {len(session['turns']) // 2}\n\n"
        f"## Summary\n{session['summary']}\n\n"
        "## Token Usage\n- Input: 12,345\n- Output: 2,345\n- Total: 14,690\n\n"
        f"## Memories Extracted\n{memories or '- (none)'}\n"
    )


def write_palace(home: Path) -> None:
    """The evaluation sessions as journals and archives in the formats the agent writes."""
    folder = home / "sessions"
    folder.mkdir(parents=True, exist_ok=True)
    for session in SESSIONS:
        source = session_source(session)
        if session["files"] in ("both", "journal"):
            (folder / f"{source}.jsonl").write_text(_journal(session), encoding="utf-8")
        if session["files"] in ("both", "archive"):
            (folder / f"{source}.md").write_text(_archive(session), encoding="utf-8")


def baseline_ranking(home: Path, palace_tokens: bool = False) -> dict[str, list[str]]:
    """Plain BM25 over whole sessions (FTS5 default tokenizer): question -> ranked sources.

    With palace_tokens, the documents and questions go through palace.recall's tokenizer first (stems,
    CJK bigrams, stop words dropped from questions): whole-session BM25 with the same terms, which
    separates what the tokenizer gains from what message-level ranking gains."""
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE s USING fts5(source UNINDEXED, body)")
    for source in sorted({path.name.split(".")[0] for path in (home / "sessions").iterdir()}):
        body = _session_text(home, source)
        if palace_tokens:
            body = " ".join(recall.tokenize(body))
        conn.execute("INSERT INTO s VALUES (?, ?)", (source, body))
    out: dict[str, list[str]] = {}
    for question, _key in QUESTIONS:
        words = [t.text for t in recall.query_terms(question)] if palace_tokens else re.findall(r"\w+", question)
        expression = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
        rows = conn.execute("SELECT source FROM s WHERE s MATCH ? ORDER BY bm25(s) LIMIT 20", (expression,)).fetchall()
        out[question] = [r[0] for r in rows]
    conn.close()
    return out


def _session_text(home: Path, source: str) -> str:
    """One session as one document: its archive, then every message of its journal."""
    parts: list[str] = []
    journal = home / "sessions" / f"{source}.jsonl"
    archive = home / "sessions" / f"{source}.md"
    if archive.exists():
        parts.append(archive.read_text(encoding="utf-8"))
    if journal.exists():
        for line in journal.read_text(encoding="utf-8").splitlines():
            obj = json.loads(line)
            if obj.get("type") == "message" and obj["message"].get("content"):
                parts.append(obj["message"]["content"])
    return "\n".join(parts)


def palace_ranking(home: Path, limit: int = 20, tuning: Tuning = DEFAULT) -> dict[str, list[str]]:
    """palace.recall's ranking: question -> ranked sources (at most limit)."""
    index = RecallIndex(home, tuning=tuning)
    try:
        index.refresh()
        return {q: [h.source for h in index.search(q, limit=limit)] for q, _key in QUESTIONS}
    finally:
        index.close()


class Score(NamedTuple):
    """How a ranking did on the questions asked."""

    at1: int  # questions whose answer was ranked first
    at5: int  # ... ranked in the top five
    asked: int
    misses: list[str]  # a line per question not ranked first

    @property
    def recall_at_1(self) -> float:
        return self.at1 / max(self.asked, 1)

    @property
    def recall_at_5(self) -> float:
        return self.at5 / max(self.asked, 1)


def score(rankings: dict[str, list[str]], chinese: bool | None = None) -> Score:
    """Count the answers ranked first / in the top five; `chinese` picks one language's questions."""
    by_key = answers()
    at1 = at5 = 0
    misses: list[str] = []
    asked = [(q, k) for q, k in QUESTIONS if chinese is None or bool(ZH.search(q)) == chinese]
    for question, key in asked:
        ranked = [s for s in rankings[question] if s != MEMORIES]
        want = by_key[key]
        at1 += ranked[:1] == [want]
        at5 += want in ranked[:5]
        if ranked[:1] != [want]:
            rank = ranked.index(want) + 1 if want in ranked else None
            misses.append(f"  rank {rank or '-':>2}  {question}")
    return Score(at1, at5, len(asked), misses)
