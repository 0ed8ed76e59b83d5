"""Recall evaluation: session-level recall@1 and recall@5 of palace.recall against a plain BM25 baseline.

    python bench/recall_eval/run.py [--verbose]

Writes the evaluation sessions (sessions.py) as journals and archives into a temporary PALACE_HOME, asks
every question (questions.py) and counts how often the one session holding the answer is ranked first /
in the top five. The baseline is FTS5 bm25 with the default tokenizer over one document per session
(summary, extracted memories and every message), queried with the question's words OR-ed together.
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent))

from questions import QUESTIONS  # noqa: E402
from sessions import SESSIONS  # noqa: E402

from palace.recall import RecallIndex  # noqa: E402


def session_source(session: dict[str, object]) -> str:
    return f"{session['date']}-{session['id']}"


def write_palace(home: Path) -> None:
    """The evaluation sessions as journals and archives in the formats the agent writes."""
    folder = home / "sessions"
    folder.mkdir(parents=True, exist_ok=True)
    for session in SESSIONS:
        source = session_source(session)
        day = session["date"]
        turns: list[str] = session["turns"]
        if session["files"] in ("both", "journal"):
            lines = [
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
            body = "".join(json.dumps(obj, ensure_ascii=False) + "\n" for obj in lines)
            (folder / f"{source}.jsonl").write_text(body, encoding="utf-8")
        if session["files"] in ("both", "archive"):
            memories = "\n".join(
                f"- **{item.split(': ', 1)[0]}**: {item.split(': ', 1)[1]} (extracted)"
                for item in session["memories"]
            )
            archive = (
                f"# Session {day} · {session['id']}\n\n"
                f"- Started: {day} 10:00 +00:00\n- Ended: {day} 10:59 +00:00\n- Model: gpt-4.1-mini\n"
                f"- Wing: {session['wing'] or '-'}\n- Turns: {len(turns) // 2}\n\n"
                f"## Summary\n{session['summary']}\n\n"
                "## Token Usage\n- Input: 12,345\n- Output: 2,345\n- Total: 14,690\n\n"
                f"## Memories Extracted\n{memories or '- (none)'}\n"
            )
            (folder / f"{source}.md").write_text(archive, encoding="utf-8")


def baseline_ranking(home: Path) -> dict[str, list[str]]:
    """Plain BM25 over whole sessions (FTS5 default tokenizer): question -> ranked sources."""
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE s USING fts5(source UNINDEXED, body)")
    for session in SESSIONS:
        source = session_source(session)
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
        conn.execute("INSERT INTO s VALUES (?, ?)", (source, "\n".join(parts)))
    out: dict[str, list[str]] = {}
    for question, _key in QUESTIONS:
        words = re.findall(r"\w+", question)
        expression = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
        rows = conn.execute(
            "SELECT source FROM s WHERE s MATCH ? ORDER BY bm25(s) LIMIT 20", (expression,)
        ).fetchall()
        out[question] = [r[0] for r in rows]
    return out


def palace_ranking(home: Path) -> dict[str, list[str]]:
    index = RecallIndex(home)
    try:
        index.refresh()
        return {q: [h.source for h in index.search(q, limit=20)] for q, _key in QUESTIONS}
    finally:
        index.close()


def score(rankings: dict[str, list[str]], by_key: dict[str, str]) -> tuple[float, float, list[str]]:
    at1 = at5 = 0
    misses: list[str] = []
    for question, key in QUESTIONS:
        ranked = [s for s in rankings[question] if s != "memories.md"]
        want = by_key[key]
        at1 += bool(ranked[:1] == [want])
        at5 += want in ranked[:5]
        if ranked[:1] != [want]:
            rank = ranked.index(want) + 1 if want in ranked else None
            misses.append(f"  rank {rank or '-':>2}  {question}")
    n = len(QUESTIONS)
    return at1 / n, at5 / n, misses


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--verbose", action="store_true", help="list the questions not ranked first")
    args = parser.parse_args()
    by_key = {s["key"]: session_source(s) for s in SESSIONS}
    assert all(key in by_key for _q, key in QUESTIONS), "a question names an unknown session"
    with tempfile.TemporaryDirectory(prefix="palace-recall-eval-") as tmp:
        home = Path(tmp)
        write_palace(home)
        ours = score(palace_ranking(home), by_key)
        base = score(baseline_ranking(home), by_key)
    zh = sum(1 for q, _k in QUESTIONS if re.search(r"[\u4e00-\u9fff]", q))
    print(f"recall eval: {len(SESSIONS)} sessions, {len(QUESTIONS)} questions ({zh} in Chinese)")
    print(f"palace.recall        recall@1 {ours[0]:6.1%}   recall@5 {ours[1]:6.1%}")
    print(f"BM25 whole sessions  recall@1 {base[0]:6.1%}   recall@5 {base[1]:6.1%}")
    if args.verbose:
        for name, result in (("palace.recall", ours), ("baseline", base)):
            print(f"{name}: not first ({len(result[2])})")
            print("\n".join(result[2]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
