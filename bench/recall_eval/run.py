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

import palace.recall as recall  # noqa: E402
from palace.recall import RecallIndex  # noqa: E402

ZH = re.compile(r"[\u4e00-\u9fff]")


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
                f"- **{item.split(': ', 1)[0]}**: {item.split(': ', 1)[1]} (extracted)" for item in session["memories"]
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


def baseline_ranking(home: Path, palace_tokens: bool = False) -> dict[str, list[str]]:
    """Plain BM25 over whole sessions (FTS5 default tokenizer): question -> ranked sources.

    With palace_tokens, the documents and questions go through palace.recall's tokenizer first (stems,
    CJK bigrams, stop words dropped from questions): whole-session BM25 with the same terms, which
    separates what the tokenizer gains from what message-level ranking gains."""
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE s USING fts5(source UNINDEXED, body)")
    for source in sorted({path.name.split(".")[0] for path in (home / "sessions").iterdir()}):
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
        body = "\n".join(parts)
        if palace_tokens:
            body = " ".join(recall.tokenize(body))
        conn.execute("INSERT INTO s VALUES (?, ?)", (source, body))
    out: dict[str, list[str]] = {}
    for question, _key in QUESTIONS:
        words = [t.text for t in recall.query_terms(question)] if palace_tokens else re.findall(r"\w+", question)
        expression = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
        rows = conn.execute("SELECT source FROM s WHERE s MATCH ? ORDER BY bm25(s) LIMIT 20", (expression,)).fetchall()
        out[question] = [r[0] for r in rows]
    return out


def palace_ranking(home: Path, limit: int = 20) -> dict[str, list[str]]:
    index = RecallIndex(home)
    try:
        index.refresh()
        return {q: [h.source for h in index.search(q, limit=limit)] for q, _key in QUESTIONS}
    finally:
        index.close()


def score(
    rankings: dict[str, list[str]], by_key: dict[str, str], chinese: bool | None = None
) -> tuple[float, float, list[str]]:
    """recall@1, recall@5 and the questions not ranked first; `chinese` picks one language's questions."""
    at1 = at5 = 0
    misses: list[str] = []
    asked = [(q, k) for q, k in QUESTIONS if chinese is None or bool(ZH.search(q)) == chinese]
    for question, key in asked:
        ranked = [s for s in rankings[question] if s != "memories.md"]
        want = by_key[key]
        at1 += bool(ranked[:1] == [want])
        at5 += want in ranked[:5]
        if ranked[:1] != [want]:
            rank = ranked.index(want) + 1 if want in ranked else None
            misses.append(f"  rank {rank or '-':>2}  {question}")
    n = max(len(asked), 1)
    return at1 / n, at5 / n, misses


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--verbose", action="store_true", help="list the questions not ranked first")
    parser.add_argument("--ablate", action="store_true", help="also score palace.recall without parts of its ranking")
    parser.add_argument(
        "--distractors",
        type=int,
        default=0,
        metavar="N",
        help="also hide the sessions among N synthetic ones (bench_recall's generator) and ask again with limit=5",
    )
    args = parser.parse_args()
    by_key = {s["key"]: session_source(s) for s in SESSIONS}
    assert all(key in by_key for _q, key in QUESTIONS), "a question names an unknown session"
    with tempfile.TemporaryDirectory(prefix="palace-recall-eval-") as tmp:
        home = Path(tmp)
        write_palace(home)
        ours_ranked = palace_ranking(home)
        base_ranked = baseline_ranking(home)
        base_tok_ranked = baseline_ranking(home, palace_tokens=True)
        ablations = []
        if args.ablate:
            for name, attr, value in [
                ("no summary weight", "_KIND_WEIGHT", {"summary": 1.0, "user": 1.0, "assistant": 1.0}),
                ("best document only", "_DECAY", 0.0),
                ("no coverage factor", "_COVERAGE_FLOOR", 1.0),
            ]:
                saved = getattr(recall, attr)
                setattr(recall, attr, value)
                try:
                    ablations.append((name, score(palace_ranking(home), by_key)))
                finally:
                    setattr(recall, attr, saved)
        crowd = None
        if args.distractors:
            sys.path.insert(0, str(HERE.parent))
            from bench_recall import Generator, day_of

            generator = Generator(11)
            for i in range(args.distractors):
                generator.session(home / "sessions", day_of(738000 + i * 1500 // args.distractors), f"d{i:07x}")
            crowd = (
                score(palace_ranking(home, limit=5), by_key),
                score(baseline_ranking(home), by_key),
            )
    ours = score(ours_ranked, by_key)
    base = score(base_ranked, by_key)
    zh = sum(1 for q, _k in QUESTIONS if ZH.search(q))
    print(f"recall eval: {len(SESSIONS)} sessions, {len(QUESTIONS)} questions ({zh} in Chinese)")
    print(f"{'':44}recall@1  recall@5")
    rows = [
        ("palace.recall", ours_ranked),
        ("baseline: BM25 whole sessions", base_ranked),
        ("BM25 whole sessions, palace terms", base_tok_ranked),
    ]
    for name, ranked in rows:
        for label, chinese in (("all", None), ("English", False), ("Chinese", True)):
            at1, at5, _misses = score(ranked, by_key, chinese)
            print(f"{name + ', ' + label:44}{at1:8.1%}  {at5:8.1%}")
    for name, result in ablations:
        print(f"{'palace.recall, ' + name:44}{result[0]:8.1%}  {result[1]:8.1%}")
    if crowd is not None:
        print(f"among {args.distractors} synthetic distractor sessions:")
        print(f"{'palace.recall (limit=5)':44}{crowd[0][0]:8.1%}  {crowd[0][1]:8.1%}")
        print(f"{'baseline: BM25 whole sessions':44}{crowd[1][0]:8.1%}  {crowd[1][1]:8.1%}")
    if args.verbose:
        for name, result in (("palace.recall", ours), ("baseline", base)):
            print(f"{name}: not first ({len(result[2])})")
            print("\n".join(result[2]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
