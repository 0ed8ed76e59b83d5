"""Realistic synthetic palaces for the benchmarks: a memories.md of N entries and a year of archived sessions.

Deterministic for a seed. The files are written in palace's own on-disk formats (DESIGN 1.1 and 1.3; the
journal records of palace/sessions/journal.py), not through palace's code, so that the benchmarks keep
working while palace's internals change. Generated palaces are cached under /tmp/palace-bench-cache
(PALACE_BENCH_CACHE), keyed by their parameters and GEN_VERSION; `copy_palace` gives a private copy.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from prose import ASSISTANT_TEMPLATES, ENTRY_TEMPLATES, HALLS, NOUNS, SUMMARY_TEMPLATES, USER_TEMPLATES, WINGS, Prose

GEN_VERSION = 1  # bump when a generated shape changes: cached palaces are then regenerated
CACHE = Path(os.environ.get("PALACE_BENCH_CACHE", "/tmp/palace-bench-cache"))
LAST_DAY = date(2026, 11, 27)  # sessions end here (in the past: no generated file counts as recently written)

# ---------------------------------------------------------------------- memories.md


@dataclass
class Memories:
    """A generated memories.md and the room paths it holds (`Hall/room`, `wing/Hall/room`)."""

    text: str
    rooms: list[str]
    entries: int


_PREAMBLE = [
    "# Memories",
    "",
    "Hand-written notes live here too; palace keeps them as they are.",
    "",
    "| tool | used for |",
    "|------|----------|",
    "| just | task runner |",
    "",
]


def _heads(wing: str | None, hall: str | None) -> list[str]:
    """The heading lines that open a wing (hall None) or a hall."""
    if hall is None:
        return [f"## {wing}", "", f"The {wing} wing: what palace learnt about it.", ""] if wing else []
    return [f"{'###' if wing else '##'} {hall}", ""]


def _size(lines: list[str]) -> int:
    return sum(len(line.encode()) + 1 for line in lines)


def memories(entries: int = 0, *, target_bytes: int = 0, seed: int = 1) -> Memories:
    """About target_bytes of memories.md (or `entries` entries): shared halls and wings, rooms of dated
    entries (some Chinese), hand-written paragraphs, a table and code fences holding heading-like lines."""
    rng = random.Random(seed)
    prose = Prose(rng)
    scopes: dict[str | None, dict[str, list[list[str]]]] = {}
    names: set[tuple[str | None, str, str]] = set()
    rooms: list[str] = []
    count, size = 0, _size(_PREAMBLE)

    def full() -> bool:
        return count >= entries if entries else size >= target_bytes

    while not full():
        wing = rng.choice([None, None, None, *WINGS])
        hall = rng.choice(HALLS)
        name = f"{prose.noun(rng)}-{rng.choice(NOUNS)}"
        while (wing, hall, name) in names:
            name += f"-{rng.randint(2, 99)}"
        names.add((wing, hall, name))
        rooms.append(f"{wing}/{hall}/{name}" if wing else f"{hall}/{name}")
        if wing not in scopes:
            size += _size(_heads(wing, None))
        if hall not in scopes.setdefault(wing, {}):
            size += _size(_heads(wing, hall))
        block = [f"{'####' if wing else '###'} {name}"]
        size += _size(block) + 1
        for _ in range(rng.choice([1, 2, 3, 5, 8, 12, 20])):
            if full():
                break
            day = LAST_DAY - timedelta(days=rng.randint(0, 364))
            block.append(f"- [{day.isoformat()}] {prose.fill(ENTRY_TEMPLATES[hall])}"[:215].rstrip())
            count += 1
            size += _size(block[-1:])
        extra: list[str] = []
        if rng.random() < 0.08:
            extra += ["", prose.english(ASSISTANT_TEMPLATES, 2)]
        if rng.random() < 0.04:
            extra += ["", "```sh", "## not a heading", "- not an entry", f"{prose.fill(['{cmd}'])}", "```"]
        if extra and not full():
            block += extra
            size += _size(extra)
        scopes[wing].setdefault(hall, []).append(block)
    out = list(_PREAMBLE)
    for wing in sorted(scopes, key=lambda w: (w is not None, w or "")):
        out += _heads(wing, None)
        for hall in HALLS:
            for n, block in enumerate(scopes[wing].get(hall, ())):
                out += [*(_heads(wing, hall) if n == 0 else []), *block, ""]
    return Memories("\n".join(out).rstrip("\n") + "\n", rooms, count)


def fresh_entry(prose: Prose, hall: str, serial: int) -> str:
    """A new entry's content for a save (the serial keeps it from equalling an existing entry)."""
    return f"{prose.fill(ENTRY_TEMPLATES[hall])} (note {serial})"[:200]


# ---------------------------------------------------------------------- sessions


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")


def _line(record: dict[str, object]) -> str:
    return json.dumps(record, ensure_ascii=False) + "\n"


@dataclass
class _Session:
    """One generated session's journal lines and what its archive says."""

    id: str
    start: datetime
    wing: str | None
    lines: list[str] = field(default_factory=list)
    turns: int = 0
    tokens: tuple[int, int] = (0, 0)
    saved: list[str] = field(default_factory=list)  # archive lines of the memories extracted
    summary: str = ""


def _tool_call(prose: Prose, s: _Session, moment: datetime, call_id: str) -> None:
    """The model saving a memory: its tool call, the tool's answer and the journal's memory record."""
    hall = prose.rng.choice(list(ENTRY_TEMPLATES))
    path, content = f"{hall}/general", prose.fill(ENTRY_TEMPLATES[hall])[:200]
    arguments = json.dumps({"path": path, "content": content}, ensure_ascii=False)
    call = {"id": call_id, "type": "function", "function": {"name": "MemorySave", "arguments": arguments}}
    ts = _iso(moment)
    s.lines.append(
        _line({"type": "message", "ts": ts, "message": {"role": "assistant", "content": "", "tool_calls": [call]}})
    )
    answer = {"role": "tool", "tool_call_id": call_id, "content": f"Saved to {path}: {content}"}
    s.lines.append(_line({"type": "message", "ts": ts, "message": answer}))
    memory = {"path": path, "content": content, "action": "saved", "by": "model"}
    s.lines.append(_line({"type": "memory", "ts": ts, **memory}))
    s.saved.append(f"- **{path}**: {content} (saved by the model)")


def _conversation(prose: Prose, s: _Session, zh: bool) -> datetime:
    """Append the messages (with tool calls now and then) and usage records; the time of the last one."""
    rng, moment = prose.rng, s.start
    inp = out = 0
    for turn in range(rng.choice([1, 2, 3, 4, 5, 6, 8, 10, 14, 20])):
        moment += timedelta(seconds=rng.randint(20, 600))
        user = prose.chinese(rng.randint(1, 3), question=True) if zh or rng.random() < 0.03 else ""
        user = user or prose.english(USER_TEMPLATES, rng.randint(1, 4))
        if rng.random() < 0.08:
            user += "\n\n" + prose.code()
        s.lines.append(_line({"type": "message", "ts": _iso(moment), "message": {"role": "user", "content": user}}))
        if rng.random() < 0.15:
            _tool_call(prose, s, moment, f"call_{turn}")
        moment += timedelta(seconds=rng.randint(5, 90))
        reply = prose.chinese(rng.randint(2, 6), question=False) if zh else ""
        reply = reply or prose.english(ASSISTANT_TEMPLATES, rng.randint(2, 9))
        if rng.random() < 0.3:
            reply += "\n\n" + prose.code() + "\n\n" + prose.english(ASSISTANT_TEMPLATES, 1)
        message = {"role": "assistant", "content": reply}
        s.lines.append(_line({"type": "message", "ts": _iso(moment), "message": message}))
        inp, out = inp + 1500 + 300 * turn + len(user) // 3, out + len(reply) // 3
        s.lines.append(
            _line({"type": "usage", "ts": _iso(moment), "input": 1500 + 300 * turn, "output": len(reply) // 3})
        )
        s.turns += 1
    s.tokens = (inp, out)
    return moment


def _session(prose: Prose, ident: str, start: datetime) -> tuple[str, str, datetime]:
    """(journal text, archive markdown, end time) of one finished, archived session."""
    rng = prose.rng
    wing = rng.choice([None, None, *WINGS[:5]])
    zh = rng.random() < 0.1
    s = _Session(ident, start, wing)
    header = {"type": "session", "id": ident, "started": _iso(start), "model": "gpt-4.1-mini", "wing": wing}
    s.lines.append(_line({**header, "pid": rng.randint(1000, 99999), "host": "laptop"}))
    last = _conversation(prose, s, zh)
    s.summary = prose.chinese(2, question=False) if zh else prose.english(SUMMARY_TEMPLATES, rng.randint(1, 3))
    extracted = []
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        hall = rng.choice(list(ENTRY_TEMPLATES))
        path = f"{wing}/{hall}/{prose.noun(rng)}" if wing else f"{hall}/{prose.noun(rng)}"
        content = prose.fill(ENTRY_TEMPLATES[hall])[:200]
        extracted.append({"path": path, "content": content, "action": "saved", "by": "extracted"})
        s.saved.append(f"- **{path}**: {content} (extracted, saved)")
    messages = sum(1 for line in s.lines if '"type": "message"' in line)
    end = last + timedelta(seconds=rng.randint(10, 300))
    extraction = {"type": "extracted", "ts": _iso(end), "upto": messages, "summary": s.summary}
    s.lines.append(_line({**extraction, "saved": extracted, "dropped": 0}))
    s.lines.append(_line({"type": "end", "ts": _iso(end)}))
    inp, out = s.tokens
    archive = [
        f"# Session {start:%Y-%m-%d} · {ident[11:]}",
        "",
        f"- Started: {start:%Y-%m-%d %H:%M} +00:00",
        f"- Ended: {end:%Y-%m-%d %H:%M} +00:00",
        "- Model: gpt-4.1-mini",
        f"- Wing: {wing or '(none)'}",
        f"- Turns: {s.turns}",
        "",
        "## Summary",
        s.summary,
        "",
        "## Token Usage",
        f"- Input: {inp:,}",
        f"- Output: {out:,}",
        f"- Total: {inp + out:,}",
        "",
        "## Memories Extracted",
        *(s.saved or ["- (none)"]),
    ]
    return "".join(s.lines), "\n".join(archive) + "\n", end


def write_sessions(folder: Path, count: int, *, seed: int = 7) -> None:
    """`count` finished, archived sessions (journal + archive each) spread over the year up to LAST_DAY;
    each file's mtime is its session's end, as if written then."""
    rng = random.Random(seed)
    prose = Prose(rng)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    first = datetime.combine(LAST_DAY - timedelta(days=364), datetime.min.time(), UTC)
    starts = sorted(first + timedelta(seconds=rng.randint(8 * 3600, 365 * 86400 - 3 * 3600)) for _ in range(count))
    used: set[str] = set()
    for start in starts:
        ident = f"{start:%Y-%m-%d}-{rng.getrandbits(32):08x}"
        while ident in used:
            ident = f"{start:%Y-%m-%d}-{rng.getrandbits(32):08x}"
        used.add(ident)
        journal, archive, end = _session(prose, ident, start)
        stamp = end.timestamp()
        for suffix, text in ((".jsonl", journal), (".md", archive)):
            path = folder / f"{ident}{suffix}"
            path.write_text(text, encoding="utf-8")
            os.chmod(path, 0o600)
            os.utime(path, (stamp, stamp))


# ---------------------------------------------------------------------- the cache


def cached(name: str, build: Callable[[Path], None], **params: object) -> Path:
    """A palace folder built once by build(home) and kept under CACHE, keyed by name and params."""
    key = "-".join([name, f"v{GEN_VERSION}", *(f"{k}{v}" for k, v in sorted(params.items()))])
    done = CACHE / key / "home"
    if done.is_dir():
        return done
    CACHE.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{key}.", dir=CACHE))
    started = time.perf_counter()
    home = work / "home"
    home.mkdir(mode=0o700)
    build(home)
    try:
        (CACHE / key).mkdir()
    except FileExistsError:  # another run made it meanwhile
        shutil.rmtree(work)
        return done
    home.rename(done)
    shutil.rmtree(work)
    print(f"  (generated {key} in {time.perf_counter() - started:.1f} s, cached in {CACHE})", flush=True)
    return done


def sessions_palace(count: int, *, seed: int = 7, memory_entries: int = 20) -> Path:
    """A cached palace of `count` archived sessions and a small memories.md."""

    def build(home: Path) -> None:
        (home / "memories.md").write_text(memories(memory_entries, seed=seed).text, encoding="utf-8")
        write_sessions(home / "sessions", count, seed=seed)

    return cached("sessions", build, n=count, seed=seed, mem=memory_entries)


def copy_palace(source: Path, dest: Path) -> Path:
    """A private copy of a cached palace (file mtimes kept), so that a benchmark never changes the cache."""
    shutil.copytree(source, dest, symlinks=True)
    os.chmod(dest, 0o700)
    return dest


def corpus_bytes(home: Path) -> int:
    """Bytes of the session files (the text recall indexes)."""
    return sum(entry.stat().st_size for entry in os.scandir(home / "sessions") if entry.is_file())
