"""Cold-memory recall: a full-text index over archived sessions, journals and memory entries.

The index lives in `$PALACE_HOME/.index/recall.sqlite3` (SQLite FTS5 from the standard library). It is
derived data: deleting it loses nothing, a corrupted file is rebuilt, and every use first catches up with
the files (new, changed and deleted ones; a file is re-read only when its size or mtime changed).

Text is tokenised here, not by SQLite, so the index and the query side agree exactly:

- words are NFKC-normalised, case-folded and lightly stemmed (`Databases` -> `databas` <- `database`);
- runs of CJK characters (Chinese, Japanese kana, Hangul) become overlapping bigrams plus the run's last
  character, so the two-character query `数据` and the word `数据库` both find `我们的数据库用 PostgreSQL`.

The terms are stored space-separated in an FTS5 column; queries are OR-ed terms built here (the user's
text never reaches FTS5 syntax), stop words (English, Chinese particles) dropped. Every message, summary
and memory entry is its own document; a document's rowid is its file's id << DOC_BITS | its number.

A search (1) shortlists session files inside SQLite from the posting lists alone, by the idf-weighted
share of the query each covers; (2) reads every document of the shortlisted sessions; (3) scores them
with BM25 over all query terms, summaries weighted up, and ranks each session by its best documents (a
steeply diminishing sum) times its coverage of the query, with a mild recency tie-break. Memory entries
that hold a query term are scored the same way and rank as their own sources, one per room.

Secrets: text is redacted with `palace.memory.secrets.redact` before it is stored, so snippets are too;
the index is rebuilt when the secret patterns change; format_hits redacts once more. Nothing here logs.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import sqlite3
import stat
import threading
import time
import unicodedata
import zlib
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import TypeVar

from palace.errors import RecallError
from palace.memory.halls import parse_hall
from palace.memory.secrets import SECRET_KINDS, redact

__all__ = [
    "MAX_LIMIT",
    "MAX_QUERY_CHARS",
    "RecallHit",
    "RecallIndex",
    "RefreshStats",
    "format_hits",
    "query_terms",
    "stem",
    "tokenize",
]

SCHEMA_VERSION = 3  # bump when the tables or the tokenizer change: older index files are rebuilt
MAX_LIMIT = 20
MAX_QUERY_CHARS = 1000
MAX_QUERY_TERMS = 32
MAX_DOC_CHARS = 20_000  # a pasted log is indexed (and shown) up to this many characters
SNIPPET_CHARS = 220
TERM_ROW_LIMIT = 30_000  # a term in more documents than this only counts for the shortlisted ones
SHORTLIST = 2  # sessions scored exactly per requested result (at least MIN_SHORTLIST)
MIN_SHORTLIST = 10
DOC_BITS = 20  # a document's rowid is its file's id << DOC_BITS | its number in the file
BATCH_FILES = 200  # files re-indexed per write transaction (keeps the write lock short)
FULL_SCAN_SECONDS = 600.0  # every session file is re-stat'ed at least this often (in-place edits)
HOT_SECONDS = 2 * 86400  # session files written this recently are stat'ed at every use

_SESSION_FILE = re.compile(r"^(\d{4}-\d{2}-\d{2})-([0-9A-Za-z]{1,32})\.(jsonl|md)$")
MEMORIES_FILE = "memories.md"

# Relative weight of a document by kind before aggregation.
_KIND_WEIGHT = {"summary": 1.6, "user": 1.0, "assistant": 0.9}
_MEMORY_WEIGHT = 1.0
_DECAY = 0.15  # weight of the n-th best document of a session: _DECAY ** n (0.5 and 0.3 ranked worse)
_MAX_DOCS_PER_SOURCE = 6
_K1, _B = 1.2, 0.75  # BM25 term-frequency saturation and length normalisation
_COVERAGE_FLOOR = 0.2  # score factor (squared) of a source covering almost none of the query
_RECENCY = 0.02  # at most +2% for today's sessions, fading over months


# --------------------------------------------------------------------------------------------------
# Tokenising


_CJK_CLASS = (
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3400-\u4dbf"  # CJK extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\uac00-\ud7af"  # hangul syllables
    "\uf900-\ufaff"  # CJK compatibility ideographs
    "\U00020000-\U0002ffff"  # CJK extensions B..
)
_WORD = re.compile(r"[^\W_]+")
_CJK_RUN = re.compile(f"[{_CJK_CLASS}]+")
_HAS_CJK = re.compile(f"[{_CJK_CLASS}]")
_VOWEL = re.compile(r"[aeiouy]")

_T = TypeVar("_T")
_Found = dict[str, tuple[str, str, str, int, int]]
_STEM_CACHE: dict[str, str] = {}


def stem(word: str) -> str:
    """A light, deterministic English stemmer (plural, -ing/-ed, -ment, -ation/-ion, -ly, final e).

    It only has to map variants of a word to the same key on both the index and the query side;
    the key need not be a real word (`database`, `Databases` -> `databas`).
    """
    cached = _STEM_CACHE.get(word)
    if cached is not None:
        return cached
    w = word
    if len(w) > 3 and w.isascii() and w.isalpha():
        if w.endswith("ies") and len(w) > 4:
            w = w[:-3] + "y"
        elif w.endswith("sses") or w.endswith(("xes", "ches", "shes", "zzes")):
            w = w[:-2]
        elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
            w = w[:-1]
        for suffix in ("ing", "ed"):
            base = w[: -len(suffix)]
            if w.endswith(suffix) and len(base) >= 3 and _VOWEL.search(base):
                w = base
                if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "lsz" and w[-1] not in "aeiou":
                    w = w[:-1]
                break
        if w.endswith("ment") and len(w) > 7:
            w = w[:-4]
        elif (w.endswith("ation") and len(w) > 7) or (w.endswith(("tion", "sion")) and len(w) > 6):
            w = w[:-3]
        elif w.endswith("ly") and len(w) > 5:
            w = w[:-2]
        if w.endswith("e") and len(w) > 4:
            w = w[:-1]
    if len(_STEM_CACHE) < 200_000:
        _STEM_CACHE[word] = w
    return w


def _norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _cjk_terms(run: str) -> list[str]:
    """Overlapping bigrams of a CJK run, plus its last character (so any character starts a term)."""
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)] + [run[-1]]


def _pieces(text: str) -> Iterator[tuple[str, bool]]:
    """(piece, is_cjk) for each word or CJK run of already normalised text."""
    for word in _WORD.findall(text):
        if _HAS_CJK.search(word) is None:
            yield word, False
            continue
        pos = 0
        for run in _CJK_RUN.finditer(word):
            if run.start() > pos:
                yield word[pos : run.start()], False
            yield run.group(), True
            pos = run.end()
        if pos < len(word):
            yield word[pos:], False


def tokenize(text: str) -> list[str]:
    """Index terms of text: stemmed words and CJK bigrams, in order."""
    terms: list[str] = []
    for piece, is_cjk in _pieces(_norm(text)):
        if is_cjk:
            terms.extend(_cjk_terms(piece))
        else:
            terms.append(stem(piece))
    return terms


def _wordlist(text: str) -> list[str]:
    return text.split()


_EN_STOP = frozenset(
    _wordlist(
        """
        a about above after again against ago all also am an and any anything are as at back be because
        been before being below between both but by can could d did do does doing don done down during each
        either else ever few for from further get gets getting got had has have having he her here hers him
        his how i if in into is it its itself just know let lets ll m me mention mentioned more most much
        my myself need no nor not now of off on once one only or other our ours out over own please re
        recall remember s said same say says she should so some something still such t talk talked tell
        than thanks that the their them then there these they thing things think this those through to
        told too under until up us use used using ve very want was way we were what whats when where which
        while who whom why will with would yes yet you your yours earlier previously discussed discuss last
        time
        """
    )
)
# Longest first, so that 我们的 goes before 我们.
_ZH_STOP_WORDS = tuple(
    sorted(
        _wordlist(
            """
            我们的 有没有 为什么 什么样 我们 你们 他们 她们 它们 什么 怎么 怎样 如何 哪个 哪些 哪里 这个
            那个 这些 那些 一个 一下 之前 以前 上次 时候 没有 可以 应该 是否 关于 还是 曾经 记得 讨论 提到
            说过 当时 那次 那时 使用
            """
        ),
        key=len,
        reverse=True,
    )
)
_ZH_STOP_CHARS = "的了吗呢吧啊呀么是在和与及也都就还我你他她它这那哪把被给让从对跟很请过用"


@dataclass(frozen=True)
class QueryTerm:
    """One term of a query: `text` is an index term; `prefix` for a lone CJK character."""

    text: str
    prefix: bool
    group: int  # terms of one CJK word share a group and split its weight


def _strip_zh_stops(run: str) -> list[str]:
    for word in _ZH_STOP_WORDS:
        run = run.replace(word, " ")
    for char in _ZH_STOP_CHARS:
        run = run.replace(char, " ")
    return run.split()


def query_terms(query: str) -> list[QueryTerm]:
    """The distinct terms of a query, stop words removed (all kept if nothing else is left)."""

    def build(drop_stops: bool) -> list[QueryTerm]:
        out: list[QueryTerm] = []
        seen: set[tuple[str, bool]] = set()
        group = 0
        for piece, is_cjk in _pieces(_norm(query)):
            if is_cjk:
                parts = _strip_zh_stops(piece) if drop_stops else [piece]
                pieces = [(t, len(part) == 1) for part in parts for t in _cjk_terms(part)[:-1] or [part]]
            else:
                if drop_stops and piece in _EN_STOP:
                    continue
                pieces = [(stem(piece), False)]
            added = False
            for text, prefix in pieces:
                if (text, prefix) not in seen:
                    seen.add((text, prefix))
                    out.append(QueryTerm(text, prefix, group))
                    added = True
            group += added
        return out[:MAX_QUERY_TERMS]

    return build(True) or build(False)


def _match_expression(terms: Iterable[QueryTerm]) -> str:
    parts = []
    for term in terms:
        quoted = '"' + term.text.replace('"', '""') + '"'
        parts.append(quoted + "*" if term.prefix else quoted)
    return " OR ".join(parts)


# --------------------------------------------------------------------------------------------------
# Reading the palace files


@dataclass
class _Doc:
    kind: str  # "summary" | "user" | "assistant" | "memory:<path>"
    date: str
    text: str


def _clip(text: str) -> str:
    text = text.strip()
    return text[:MAX_DOC_CHARS]


def _content_text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # OpenAI content parts
        parts = [p.get("text") for p in content if isinstance(p, dict)]
        return "\n".join(p for p in parts if isinstance(p, str))
    return ""


def _parse_journal(data: bytes, day: str) -> list[_Doc]:
    docs: list[_Doc] = []
    for line in data.split(b"\n"):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError:  # a truncated last line of a live journal, or a damaged line
            continue
        if not isinstance(obj, dict) or obj.get("type") != "message":
            continue
        message = obj.get("message")
        if not isinstance(message, dict):
            continue
        role = message.get("role")
        if role not in ("user", "assistant"):
            continue
        text = _clip(_content_text(message.get("content")))
        if text:
            docs.append(_Doc(str(role), day, redact(text)))
    return docs


_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_ITEM = re.compile(r"^\s{0,3}[-*+]\s+(?:\[(\d{4}-\d{2}-\d{2})\]\s*)?(.*\S)\s*$")
_BOLD_PATH = re.compile(r"^\*\*(.+?)\*\*:?\s*")


def _parse_archive(text: str, day: str) -> list[_Doc]:
    sections: dict[str, list[str]] = {}
    current: str | None = None
    fence: str | None = None
    for line in text.splitlines():
        marker = _FENCE.match(line)
        if marker and (fence is None or marker.group(1)[0] == fence):
            fence = None if fence else marker.group(1)[0]
        heading = _HEADING.match(line) if fence is None else None
        if heading and len(heading.group(1)) == 2:
            current = heading.group(2).strip().casefold()
            sections.setdefault(current, [])
        elif heading and len(heading.group(1)) == 1:
            continue
        elif current is not None:
            sections[current].append(line)
    parts: list[str] = []
    summary = "\n".join(sections.get("summary", [])).strip()
    if summary:
        parts.append(summary)
    for line in sections.get("memories extracted", []):
        item = _ITEM.match(line)
        if item:
            parts.append(_BOLD_PATH.sub(lambda m: m.group(1) + ": ", item.group(2)))
    if not parts:  # a hand-written or unusual archive: index what it says, minus the header list
        known = {"token usage"}
        body = [ln for name, lines in sections.items() if name not in known for ln in lines]
        parts = [ln for ln in body if ln.strip()]
    text = _clip("\n".join(parts))
    return [_Doc("summary", day, redact(text))] if text else []


def _parse_memories(text: str, default_day: str) -> list[_Doc]:
    docs: list[_Doc] = []
    wing: str | None = None
    hall: str | None = None
    room: str | None = None
    fence: str | None = None
    for line in text.splitlines():
        marker = _FENCE.match(line)
        if marker and (fence is None or marker.group(1)[0] == fence):
            fence = None if fence else marker.group(1)[0]
            continue
        if fence is not None:
            continue
        heading = _HEADING.match(line)
        if heading:
            level, name = len(heading.group(1)), heading.group(2).strip()
            parsed = parse_hall(name)
            if level == 1:
                wing = hall = room = None
            elif level == 2:
                wing, hall, room = (None, parsed.value, None) if parsed else (name, None, None)
            elif level == 3:
                if wing is not None:  # ## wing / ### Hall
                    hall, room = (parsed.value if parsed else name), None
                else:  # ## Hall / ### room
                    room = name
            elif level == 4 and wing is not None:
                room = name
            continue
        item = _ITEM.match(line)
        if item is None:
            continue
        content = _clip(item.group(2))
        path = "/".join(p for p in (wing, hall, room) if p) or "memories"
        docs.append(_Doc("memory:" + path, item.group(1) or default_day, redact(content)))
    return docs


def _read_file(path: Path, kind: str, day: str) -> tuple[list[_Doc], int, int] | None:
    """(documents, size, mtime_ns) from one file, or None if it vanished or cannot be read."""
    try:
        with path.open("rb") as handle:
            st = os.fstat(handle.fileno())
            data = handle.read()
    except OSError:
        return None
    if kind == "journal":
        docs = _parse_journal(data, day)
    elif kind == "archive":
        docs = _parse_archive(data.decode("utf-8", "replace"), day)
    else:
        if not day:
            day = datetime.fromtimestamp(st.st_mtime).date().isoformat()
        docs = _parse_memories(data.decode("utf-8", "replace").lstrip("\ufeff"), day)
    return docs, st.st_size, st.st_mtime_ns


def _hot_files(found: _Found, now: float) -> list[str]:
    """Files that may still change in place: journals without an archive or newer than it (a live or
    resumed session), and any session file written in the last HOT_SECONDS."""
    recent = int((now - HOT_SECONDS) * 1e9)
    archives = {meta[1]: meta[4] for meta in found.values() if meta[0] == "archive"}
    hot = []
    for rel, (kind, source, _day, _size, mtime) in found.items():
        if mtime > recent or (kind == "journal" and mtime > archives.get(source, -1)):
            hot.append(rel)
    return hot


_CLASSIFIED: dict[str, tuple[str, str, str] | None] = {}


def _classify(name: str) -> tuple[str, str, str] | None:
    """(kind, source, date) of a file name under sessions/, or None for files recall ignores."""
    if name in _CLASSIFIED:
        return _CLASSIFIED[name]
    result = None
    match = _SESSION_FILE.match(name)
    if match is not None:
        day, ident, ext = match.groups()
        with contextlib.suppress(ValueError):
            date.fromisoformat(day)
            result = ("journal" if ext == "jsonl" else "archive"), f"{day}-{ident}", day
    if len(_CLASSIFIED) < 1_000_000:
        _CLASSIFIED[name] = result
    return result


# --------------------------------------------------------------------------------------------------
# Results


@dataclass
class RecallHit:
    """One result: the best matching text of one session (or one memory room)."""

    source: str  # session id like "2026-11-30-a1b2c3d4", or "memories.md"
    date: str  # "YYYY-MM-DD"
    snippet: str  # best matching text, secrets redacted, shortened around the match
    score: float
    where: str  # "summary" | "message (user)" | "message (assistant)" | "memory Preferences/x"


@dataclass
class RefreshStats:
    """What one catch-up did. `busy`: another process held the index; the search used it as it was."""

    added: int = 0
    changed: int = 0
    removed: int = 0
    unchanged: int = 0
    full_scan: bool = False
    busy: bool = False
    rebuilt: bool = False
    seconds: float = 0.0


def _where(kind: str) -> str:
    if kind.startswith("memory:"):
        return "memory " + kind[len("memory:") :]
    if kind == "summary":
        return "summary"
    return f"message ({kind})"


def _snippet(text: str, terms: Collection[QueryTerm], width: int = SNIPPET_CHARS) -> str:
    """The part of text around its densest cluster of query terms, one line, redacted.

    The text comes from the index, which holds text redacted with the current secret patterns (see
    `_index_version`), so the snippet is redacted and no cut can leave half a secret behind."""
    flat = " ".join(text.split())
    if len(flat) <= width:
        return flat
    # Find where each term may start with str.find (a stem minus its last letter is a prefix of every
    # word it stems from), then confirm a word by stemming it.
    lowered = flat.lower()
    if len(lowered) != len(flat):  # a few characters change length when lowered: keep the offsets
        lowered = flat
    hits: list[tuple[int, str]] = []
    for term in terms:
        cjk = _HAS_CJK.search(term.text) is not None
        needle = term.text if cjk else term.text[:-1] or term.text
        pos = lowered.find(needle)
        while pos != -1 and len(hits) < 400:
            if cjk:
                hits.append((pos, term.text))
            elif pos == 0 or not (lowered[pos - 1].isalnum() or lowered[pos - 1] == "_"):
                word = _WORD.match(lowered, pos)
                if word is not None:
                    text_word = _CJK_RUN.split(word.group(), maxsplit=1)[0]
                    if stem(_norm(text_word)) == term.text:
                        hits.append((pos, term.text))
            pos = lowered.find(needle, pos + 1)
    hits.sort()
    anchor = 0
    if hits:
        best = -1
        for i, (pos, _term) in enumerate(hits):
            covered = {t for p, t in hits[i:] if p < pos + width * 2 // 3}
            if len(covered) > best:
                best, anchor = len(covered), pos
    start = max(0, anchor - width // 4)
    end = min(len(flat), start + width)
    start = max(0, end - width)
    if start > 0:
        space = flat.find(" ", start, start + 20)
        start = space + 1 if space != -1 else start
    if end < len(flat):
        space = flat.rfind(" ", end - 20, end)
        end = space if space > start else end
    return ("…" if start > 0 else "") + flat[start:end].strip() + ("…" if end < len(flat) else "")


def _utf8_len(text: str) -> int:
    return len(text.encode("utf-8", "replace"))


def _cut_utf8(text: str, max_bytes: int, ellipsis: str = "…") -> str:
    """Text shortened to at most max_bytes UTF-8 bytes, with an ellipsis when shortened."""
    if _utf8_len(text) <= max_bytes:
        return text
    room = max_bytes - _utf8_len(ellipsis)
    if room <= 0:
        return ""
    cut = text.encode("utf-8", "replace")[:room].decode("utf-8", "ignore")
    return cut.rstrip() + ellipsis


def format_hits(hits: list[RecallHit], *, max_bytes: int = 2048, query: str | None = None) -> str:
    """Compact text for the model: hits grouped by session (best first, newer first among equal
    scores), at most max_bytes UTF-8 bytes, secrets redacted. `query` only words the empty answer."""
    if not hits:
        what = f' for "{" ".join(query.split())}"' if query and query.strip() else ""
        return _cut_utf8(redact(f"no matches{what} in archived sessions or memories"), max_bytes)
    groups: dict[str, list[RecallHit]] = {}
    for hit in sorted(hits, key=lambda h: (-h.score, _neg_date(h.date))):
        groups.setdefault(hit.source, []).append(hit)
    total = len(hits)
    lines = [
        f"{total} match{'es' if total != 1 else ''} from {len(groups)} source"
        f"{'s' if len(groups) != 1 else ''}, best first:"
    ]
    used = _utf8_len(lines[0])
    shown = 0
    # Each snippet gets a fair share of the room, so that one long snippet cannot crowd out the rest.
    share = max(120, (max_bytes - used) // min(total, 6) - 60)
    for source, group in groups.items():
        memories = source == MEMORIES_FILE
        header = "memories.md" if memories else f"[{group[0].date}] session {redact(source)}"
        for i, hit in enumerate(group):
            left = total - shown
            reserve = _utf8_len(f"\n({left} more not shown)") if left > 1 else 0
            dated = f" [{hit.date}]" if memories else ""  # entries of one file carry their own dates
            prefix = f"  - {redact(hit.where)}{dated}: "
            head = ("\n" + header) if i == 0 else ""
            budget = max_bytes - used - reserve - _utf8_len(head) - 1 - _utf8_len(prefix)
            if budget < 24:
                break
            budget = min(budget, share)
            snippet = _cut_utf8(redact(" ".join(hit.snippet.split())), budget)
            line = head + "\n" + prefix + snippet
            lines.append(line)
            used += _utf8_len(line)
            shown += 1
        else:
            continue
        break
    if shown < total:
        lines.append(f"\n({total - shown} more not shown)")
    return _cut_utf8("".join(lines), max_bytes)


def _neg_date(day: str) -> int:
    try:
        return -date.fromisoformat(day).toordinal()
    except ValueError:
        return 0


# --------------------------------------------------------------------------------------------------
# The index


_SCHEMA = """
CREATE TABLE IF NOT EXISTS file (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    path TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    source TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS file_source ON file(source);
CREATE TABLE IF NOT EXISTS doc (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL,
    source TEXT NOT NULL,
    date TEXT NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    terms TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS doc_file ON doc(file_id);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
    terms, content = 'doc', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 0'
);
CREATE VIRTUAL TABLE IF NOT EXISTS fts_vocab USING fts5vocab(fts, row);
"""


def _index_version() -> int:
    """The index format: the schema version and the secret patterns its text was redacted with. When
    either changes, the index is rebuilt, so it never keeps a secret that redact() now recognises."""
    fingerprint = f"{SCHEMA_VERSION}|" + "|".join(kind.pattern.pattern for kind in SECRET_KINDS)
    return zlib.crc32(fingerprint.encode("utf-8")) & 0x7FFFFFFF or 1


_CORRUPT_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB (primary result codes)


def _is_corruption(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and (code & 0xFF) in _CORRUPT_CODES:
        return True
    text = str(exc).lower()
    return "malformed" in text or "not a database" in text or "vtable constructor failed" in text


def _is_busy(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and (code & 0xFF) in {5, 6}:  # SQLITE_BUSY, SQLITE_LOCKED
        return True
    return "locked" in str(exc).lower() or "busy" in str(exc).lower()


@dataclass
class _Group:
    """The candidate documents of one source (a session, or one memory room) during a search."""

    source: str
    scores: list[float]
    mask: int  # bit i: the query's i-th term occurs in some document of the source
    best: float
    rowid: int  # the best document
    kind: str
    date: str
    best_mask: int


class RecallIndex:
    """Search over `home`'s archives, journals and memories.md; index in home/.index/recall.sqlite3."""

    def __init__(self, home: Path) -> None:
        self.home = Path(home)
        self.path = self.home / ".index" / "recall.sqlite3"
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self._dir_mtime: int | None = None
        self._hot: list[str] = []
        self._names: dict[str, int] = {}
        self._files: dict[int, tuple[str, str]] = {}  # file id -> (source, kind)
        self._last_full = 0.0
        self._doc_count: int | None = None
        self._rebuilt = False

    # -- connection ------------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        if self._conn is not None:
            return self._conn
        try:
            return self._open()
        except sqlite3.Error as exc:
            if not _is_corruption(exc):
                raise RecallError(f"the recall index at {self.path} cannot be opened: {exc}") from exc
        self._discard()
        try:
            return self._open()
        except sqlite3.Error as exc:
            raise RecallError(f"the recall index at {self.path} cannot be rebuilt: {exc}") from exc

    def _open(self) -> sqlite3.Connection:
        folder = self.path.parent
        try:
            if not self.home.exists():
                self.home.mkdir(mode=0o700, parents=True, exist_ok=True)
            folder.mkdir(mode=0o700, exist_ok=True)
            with contextlib.suppress(OSError):
                os.chmod(folder, 0o700)
            fd = os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600)
            os.close(fd)
        except OSError as exc:
            raise RecallError(f"cannot create the recall index at {self.path}: {exc.strerror}") from exc
        conn = sqlite3.connect(self.path, timeout=15.0, isolation_level=None, check_same_thread=False)
        try:
            conn.execute("PRAGMA busy_timeout = 15000")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            expected = _index_version()
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version != expected:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    version = conn.execute("PRAGMA user_version").fetchone()[0]
                    if version != expected:
                        for table in ("fts_vocab", "fts", "doc", "file"):
                            conn.execute(f"DROP TABLE IF EXISTS {table}")
                        for statement in _SCHEMA.split(";"):
                            if statement.strip():
                                conn.execute(statement)
                        # File ids (and so document rowids) of a rebuilt index never repeat earlier ones,
                        # so that an id cached by a process that still has the old index open stays unique.
                        conn.execute("DELETE FROM sqlite_sequence WHERE name = 'file'")
                        conn.execute(
                            "INSERT INTO sqlite_sequence (name, seq) VALUES ('file', ?)", (int(time.time() * 1000),)
                        )
                        conn.execute(f"PRAGMA user_version = {expected}")
                    conn.execute("COMMIT")
                except BaseException:
                    with contextlib.suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                    raise
            conn.execute("SELECT count(*) FROM file").fetchone()
            conn.execute("SELECT rowid FROM fts WHERE fts MATCH '\"x\"' LIMIT 1").fetchall()
        except BaseException:
            conn.close()
            raise
        self._conn = conn
        return conn

    def _discard(self) -> None:
        """Drop the index file (it is derived data) so that the next use rebuilds it."""
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
            self._conn = None
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(f"{self.path}{suffix}")
        self._dir_mtime = None
        self._doc_count = None
        self._files.clear()
        self._rebuilt = True

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                with contextlib.suppress(sqlite3.Error):
                    self._conn.close()
                self._conn = None

    def __enter__(self) -> RecallIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _guard(self, action: str, fn: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run fn(conn); a corrupted index is discarded, rebuilt and the action retried once."""
        for attempt in (0, 1):
            try:
                conn = self._connect()
                if attempt == 1 and action != "refresh":
                    self._refresh(conn)
                return fn(conn)
            except sqlite3.Error as exc:
                if attempt == 0 and _is_corruption(exc):
                    self._discard()
                    continue
                raise RecallError(f"recall {action} failed: {exc}") from exc
        raise AssertionError("unreachable")  # pragma: no cover

    # -- catching up -----------------------------------------------------------------------------

    def refresh(self) -> RefreshStats:
        """Catch the index up with the files: index new and changed ones, drop deleted ones."""
        with self._lock:
            started = time.perf_counter()
            stats = self._guard("refresh", self._refresh)
            stats.rebuilt, self._rebuilt = self._rebuilt, False
            stats.seconds = time.perf_counter() - started
            return stats

    def _scan(self, conn: sqlite3.Connection) -> tuple[_Found, set[str] | None]:
        """The files to compare with the table: rel path -> (kind, source, date, size, mtime_ns), and
        the set of paths looked at (None: a full scan, every indexed file was looked at).

        A full scan stats every session file (first use, then every FULL_SCAN_SECONDS). Otherwise a
        changed directory mtime (a file added, removed or renamed into place) costs a listing of names
        and inodes and a stat of the new or replaced ones, and the files that may change in place (see
        _hot_files) are stat'ed at every use. An old, not hot file rewritten in place (same inode) is
        seen at the next full scan."""
        del conn  # the scan looks at the files only; _refresh compares with the table
        sessions = self.home / "sessions"
        try:
            dir_mtime: int | None = sessions.stat().st_mtime_ns
        except OSError:
            dir_mtime = None
        now = time.time()
        full = self._dir_mtime is None or now - self._last_full > FULL_SCAN_SECONDS
        found: _Found = {}
        checked: set[str] | None = None
        if full or dir_mtime != self._dir_mtime:
            # Read the directory's mtime before listing it: a file added meanwhile changes it again.
            self._dir_mtime = dir_mtime
            names: dict[str, int] = {}  # rel path -> inode (from the directory entry: no stat needed)
            with contextlib.suppress(OSError), os.scandir(sessions) as entries:
                for entry in entries:
                    if _classify(entry.name) is not None:
                        names["sessions/" + entry.name] = entry.inode()
            if full:
                self._last_full = now
                to_stat = set(names)
            else:
                # Added, removed, and replaced (renamed into place: a new inode) files, and the hot ones.
                changed = {rel for rel, inode in names.items() if self._names.get(rel) != inode}
                checked = changed | (self._names.keys() - names.keys()) | set(self._hot)
                to_stat = checked & names.keys()
            self._names = names
        else:
            checked = set(self._hot)
            to_stat = checked
        for rel in to_stat:
            kind = _classify(rel[len("sessions/") :])
            if kind is None:
                continue
            try:
                st = os.stat(self.home / rel)
            except OSError:
                continue  # gone meanwhile
            if stat.S_ISREG(st.st_mode):
                found[rel] = (*kind, st.st_size, st.st_mtime_ns)
        if full:
            self._hot = _hot_files(found, now)
            self._files.clear()  # cheap to refill; keeps the cache honest after another process's rebuild
        elif checked:
            self._hot = sorted(set(self._hot) | {rel for rel in checked if rel in found})
        if checked is not None:
            checked.add(MEMORIES_FILE)
        try:
            st = os.stat(self.home / MEMORIES_FILE)
            found[MEMORIES_FILE] = ("memories", MEMORIES_FILE, "", st.st_size, st.st_mtime_ns)
        except OSError:
            pass
        return found, checked

    def _refresh(self, conn: sqlite3.Connection) -> RefreshStats:
        stats = RefreshStats()
        found, checked = self._scan(conn)
        stats.full_scan = checked is None
        if checked is None:
            rows = conn.execute("SELECT path, size, mtime_ns FROM file").fetchall()
        else:
            rows = []
            wanted = sorted(checked)
            for start in range(0, len(wanted), 500):
                chunk = wanted[start : start + 500]
                marks = ",".join("?" * len(chunk))
                rows += conn.execute(f"SELECT path, size, mtime_ns FROM file WHERE path IN ({marks})", chunk).fetchall()
        known = {rel: (size, mtime) for rel, size, mtime in rows}
        gone = [rel for rel in known if rel not in found]
        todo = [rel for rel, meta in found.items() if known.get(rel) != (meta[3], meta[4])]
        stats.unchanged = len(found) - len(todo)
        work = [(rel, False) for rel in todo] + [(rel, True) for rel in gone]
        for i in range(0, len(work), BATCH_FILES):
            batch = work[i : i + BATCH_FILES]
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                if _is_busy(exc):  # another process is catching up: search what is there
                    stats.busy = True
                    self._dir_mtime = None
                    break
                raise
            try:
                for rel, deleted in batch:
                    self._apply(conn, rel, None if deleted else found[rel], stats)
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                self._dir_mtime = None
                raise
        if work:
            self._doc_count = None
        return stats

    def _apply(
        self,
        conn: sqlite3.Connection,
        rel: str,
        meta: tuple[str, str, str, int, int] | None,
        stats: RefreshStats,
    ) -> None:
        """Re-index (or drop) one file inside a write transaction, re-checking it against the table."""
        row = conn.execute("SELECT id, size, mtime_ns FROM file WHERE path = ?", (rel,)).fetchone()
        if meta is not None and row is not None and (row[1], row[2]) == (meta[3], meta[4]):
            return  # another process indexed this version meanwhile
        parsed = None
        if meta is not None:
            kind, source, day, _size, _mtime = meta
            parsed = _read_file(self.home / rel, kind, day)
        if parsed is not None and row is not None and (row[1], row[2]) == (parsed[1], parsed[2]):
            return  # another process indexed this version meanwhile
        if row is not None:
            file_id = row[0]
            conn.execute(
                "INSERT INTO fts (fts, rowid, terms) SELECT 'delete', id, terms FROM doc WHERE file_id = ?", (file_id,)
            )
            conn.execute("DELETE FROM doc WHERE file_id = ?", (file_id,))
        if parsed is None or meta is None:
            if row is not None:
                conn.execute("DELETE FROM file WHERE id = ?", (row[0],))
                stats.removed += 1
            return
        docs, size, mtime = parsed
        kind, source, _day, _size, _mtime = meta
        if row is None:
            cur = conn.execute(
                "INSERT INTO file (path, kind, source, size, mtime_ns) VALUES (?, ?, ?, ?, ?)",
                (rel, kind, source, size, mtime),
            )
            file_id = int(cur.lastrowid or 0)
            stats.added += 1
        else:
            conn.execute("UPDATE file SET size = ?, mtime_ns = ? WHERE id = ?", (size, mtime, file_id))
            stats.changed += 1
        self._files[file_id] = (source, kind)
        for number, doc in enumerate(docs[: 1 << DOC_BITS]):
            terms = " ".join(tokenize(doc.text))
            if not terms:
                continue
            rowid = file_id << DOC_BITS | number
            conn.execute(
                "INSERT INTO doc (id, file_id, source, date, kind, text, terms) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (rowid, file_id, source, doc.date, doc.kind, doc.text, terms),
            )
            conn.execute("INSERT INTO fts (rowid, terms) VALUES (?, ?)", (rowid, terms))

    # -- searching -------------------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        limit: int = 5,
        since: date | None = None,
        until: date | None = None,
        exclude: Collection[str] = (),
    ) -> list[RecallHit]:
        """The best `limit` sources (sessions, memory rooms) for query; refreshes the index first.

        `exclude` names sources to leave out (e.g. the live session, whose words the model has)."""
        terms = _validate(query, limit, since, until)
        if isinstance(exclude, str):
            exclude = (exclude,)
        with self._lock:
            with contextlib.suppress(RecallError):  # a failed catch-up still leaves a usable index
                self.refresh()
            return self._guard("search", lambda conn: self._search(conn, terms, limit, since, until, set(exclude)))

    def _frequencies(self, conn: sqlite3.Connection, terms: list[QueryTerm]) -> tuple[dict[QueryTerm, int], int]:
        """How many documents hold each term (from the FTS5 vocabulary), and how many there are."""
        if self._doc_count is None:
            self._doc_count = int(conn.execute("SELECT count(*) FROM doc").fetchone()[0])
        total = max(self._doc_count, 1)
        freqs: dict[QueryTerm, int] = {}
        for term in terms:
            if term.prefix:
                row = conn.execute(
                    "SELECT sum(doc) FROM fts_vocab WHERE term >= ? AND term < ?", (term.text, term.text + "\U0010ffff")
                ).fetchone()
            else:
                row = conn.execute("SELECT doc FROM fts_vocab WHERE term = ?", (term.text,)).fetchone()
            freqs[term] = min(int(row[0] or 0), total) if row else 0
        return freqs, total

    def _file_info(self, conn: sqlite3.Connection, ids: Iterable[int]) -> dict[int, tuple[str, str]]:
        """file id -> (source, kind), cached (ids are never reused: the table is AUTOINCREMENT)."""
        missing = [i for i in ids if i not in self._files]
        for start in range(0, len(missing), 500):
            chunk = missing[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for file_id, source, kind in conn.execute(
                f"SELECT id, source, kind FROM file WHERE id IN ({marks})", chunk
            ):
                self._files[file_id] = (source, kind)
        return self._files

    def _search(
        self,
        conn: sqlite3.Connection,
        terms: list[QueryTerm],
        limit: int,
        since: date | None,
        until: date | None,
        exclude: set[str],
    ) -> list[RecallHit]:
        freqs, total = self._frequencies(conn, terms)
        present = [t for t in terms if freqs[t] > 0]
        if not present:
            return []
        # idf weights; a CJK word of n bigrams weighs about as much as one English word.
        sizes: dict[int, int] = {}
        for term in terms:
            sizes[term.group] = sizes.get(term.group, 0) + 1
        weights = {
            t: math.log(1 + (total - freqs[t] + 0.5) / (freqs[t] + 0.5)) / math.sqrt(sizes[t.group]) for t in terms
        }
        bits = {t: 1 << i for i, t in enumerate(present)}
        total_weight = sum(weights.values()) or 1.0
        row = conn.execute("SELECT id FROM file WHERE path = ?", (MEMORIES_FILE,)).fetchone()
        memories_id = int(row[0]) if row else None

        # 1. Shortlist session files inside SQLite from the FTS5 posting lists alone (ranking each
        #    matching document with bm25 costs a lookup per document): the idf-weighted share of the
        #    query a file covers; among equals, the most recently indexed. A term in very many documents
        #    is not listed (unless it is the rarest); it still counts when the shortlist is scored.
        listed: list[QueryTerm] = []
        for term in sorted(present, key=lambda t: freqs[t]):
            if listed and freqs[term] > TERM_ROW_LIMIT:
                break
            listed.append(term)
        postings = " UNION ALL ".join(
            "SELECT DISTINCT rowid >> ? AS fid, ? AS w FROM fts WHERE fts MATCH ?" for _t in listed
        )
        params: list[object] = []
        for term in listed:
            params += [DOC_BITS, weights[term], _match_expression([term])]
        sql = f"SELECT g.fid, g.cov AS e FROM (SELECT fid, sum(w) AS cov FROM ({postings}) GROUP BY fid) AS g"
        conditions = ["g.fid IS NOT ?"]
        params.append(memories_id)
        if since is not None or until is not None or exclude:
            sql += " JOIN file AS f ON f.id = g.fid"
            if since is not None:
                conditions.append("substr(f.source, 1, 10) >= ?")
                params.append(_day(since).isoformat())
            if until is not None:
                conditions.append("substr(f.source, 1, 10) <= ?")
                params.append(_day(until).isoformat())
            if exclude:
                conditions.append(f"f.source NOT IN ({','.join('?' * len(exclude))})")
                params.extend(sorted(exclude))
        sql += " WHERE " + " AND ".join(conditions) + " ORDER BY e DESC, g.fid DESC LIMIT ?"
        params.append(max(MIN_SHORTLIST, SHORTLIST * limit))
        shortlisted = [file_id for file_id, _estimate in conn.execute(sql, params)]

        # 2. Read every document of the shortlisted sessions (journal and archive), and the memory
        #    entries that hold a query term.
        files = self._file_info(conn, shortlisted)
        names = sorted({files[i][0] for i in shortlisted if i in files})
        rows: list[tuple[int, str, str, str]] = []
        for start in range(0, len(names), 500):
            chunk = names[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows += conn.execute(
                "SELECT d.id, d.date, d.kind, d.terms FROM file AS f JOIN doc AS d ON d.file_id = f.id "
                f"WHERE f.source IN ({marks})",
                chunk,
            ).fetchall()
        if memories_id is not None and MEMORIES_FILE not in exclude:
            rows += conn.execute(
                "SELECT id, date, kind, terms FROM doc WHERE id IN "
                "(SELECT rowid FROM fts WHERE fts MATCH ? AND rowid >= ? AND rowid < ?)",
                (_match_expression(present), memories_id << DOC_BITS, (memories_id + 1) << DOC_BITS),
            ).fetchall()
        files = self._file_info(conn, {rowid >> DOC_BITS for rowid, *_rest in rows})
        low = _day(since).isoformat() if since is not None else ""
        high = _day(until).isoformat() if until is not None else "9999"

        # 3. Score them exactly: BM25 over every query term (term frequency, length), summaries weighted
        #    up, then per source a diminishing sum of its best documents times its coverage of the query.
        coverage_of: dict[int, float] = {}

        def coverage(mask: int) -> float:
            value = coverage_of.get(mask)
            if value is None:
                covered = sum(weights[t] for t in present if mask & bits[t])
                value = coverage_of[mask] = covered / total_weight
            return value

        needles = [(bits[t], f" {t.text}" if t.prefix else f" {t.text} ", weights[t]) for t in present]
        lengths = [doc_terms.count(" ") + 1 for *_rest, doc_terms in rows]
        average = sum(lengths) / len(lengths) if lengths else 1.0
        groups: dict[str, _Group] = {}
        for (rowid, day, kind, doc_terms), length in zip(rows, lengths, strict=True):
            info = files.get(rowid >> DOC_BITS)
            if info is None or not low <= day <= high:
                continue
            source = info[0]
            padded = f" {doc_terms} "
            norm = _K1 * (1 - _B + _B * length / average)
            mask = 0
            score = 0.0
            for bit, needle, weight in needles:
                tf = padded.count(needle)
                if tf:
                    mask |= bit
                    score += weight * tf * (_K1 + 1) / (tf + norm)
            if not mask:
                continue
            score *= _KIND_WEIGHT.get(kind, _MEMORY_WEIGHT)
            name = f"{source}\0{kind}" if kind.startswith("memory:") else source  # one result per memory room
            group = groups.get(name)
            if group is None:
                groups[name] = _Group(source, [score], mask, score, rowid, kind, day, mask)
            else:
                group.scores.append(score)
                group.mask |= mask
                if score > group.best:
                    group.best, group.rowid, group.kind, group.date, group.best_mask = score, rowid, kind, day, mask
        today = date.today().toordinal()
        ranked: list[tuple[float, int, _Group]] = []
        for group in groups.values():
            scores = sorted(group.scores, reverse=True)[:_MAX_DOCS_PER_SOURCE]
            aggregate = sum(value * _DECAY**i for i, value in enumerate(scores))
            score = aggregate * (_COVERAGE_FLOOR + (1 - _COVERAGE_FLOOR) * coverage(group.mask)) ** 2
            ordinal = -_neg_date(group.date)
            age = max(0, today - ordinal) if ordinal else 3650
            score *= 1.0 + _RECENCY / (1.0 + age / 90.0)  # a mild preference for recent sessions
            ranked.append((score, ordinal, group))
        ranked.sort(key=lambda r: (-r[0], -r[1]))
        hits: list[RecallHit] = []
        for score, _ordinal, group in ranked[:limit]:
            row = conn.execute("SELECT text FROM doc WHERE id = ?", (group.rowid,)).fetchone()
            text = row[0] if row else ""
            shown = [t for t in present if group.best_mask & bits[t]]
            hits.append(
                RecallHit(
                    source=group.source,
                    date=group.date,
                    snippet=_snippet(text, shown or present),
                    score=round(score, 4),
                    where=_where(group.kind),
                )
            )
        return hits


def _validate(query: object, limit: object, since: object, until: object) -> list[QueryTerm]:
    if not isinstance(query, str) or not query.strip():
        raise RecallError("recall query is empty: give a few words to search for")
    if len(query) > MAX_QUERY_CHARS:
        raise RecallError(f"recall query is too long ({len(query)} characters; at most {MAX_QUERY_CHARS})")
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise RecallError(f"recall limit must be a whole number from 1 to {MAX_LIMIT}, not {limit!r}")
    for name, value in (("since", since), ("until", until)):
        if value is not None and not isinstance(value, date):
            raise RecallError(f"recall {name} must be a date (YYYY-MM-DD), not {value!r}")
    if isinstance(since, date) and isinstance(until, date) and _day(since) > _day(until):
        raise RecallError(f"recall since ({_day(since)}) is after until ({_day(until)})")
    terms = query_terms(query)
    if not terms:
        shown = " ".join(query.split())[:80]
        raise RecallError(f"recall query has no words to search for, only punctuation or symbols: {shown}")
    return terms


def _day(value: date) -> date:
    return value.date() if isinstance(value, datetime) else value
