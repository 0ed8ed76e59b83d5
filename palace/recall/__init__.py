"""Cold-memory recall: a full-text index over archived sessions, journals and memory entries (current, superseded).

The index lives in `$PALACE_HOME/.index/recall.sqlite3` (SQLite FTS5 from the standard library). It is
derived data: deleting it loses nothing, a corrupted file is rebuilt, and every use first catches up with
the files (new, changed and deleted ones; a file is re-read only when its size or mtime changed).

Text is tokenised by palace (`text`), not by SQLite, so the index and the query side agree exactly:

- words are NFKC-normalised, case-folded and lightly stemmed (`Databases` -> `databas` <- `database`,
  `bought` -> `buy`), numbers written as words become digits (`three` -> `3`, `twenty-five` -> `25`,
  `三只` -> `3`);
- runs of CJK characters (Chinese, Japanese kana, Hangul) become overlapping bigrams plus the run's last
  character, so the two-character query `数据` and the word `数据库` both find `我们的数据库用 PostgreSQL`.

Every message, summary and memory entry (read by `sources`; a journal's messages redacted in one pass,
`redaction`) is its own document, stored with its text and its terms (space-separated, the longer ones
compressed: they are read back to score candidates); a document's rowid is its file's id << DOC_BITS | its
number. A big catch-up (a first build) reads its files in worker processes (`pool`). FTS5
queries are OR-ed terms built by palace (the user's text never reaches FTS5 syntax), stop words (English,
Chinese particles) dropped. A contentless FTS5 index holds each file's distinct terms (which files hold a
term: how sessions are found), another the terms of each entry of memories.md and superseded.md, and a
vocabulary table how many documents and files hold each term.

Dates: a session is dated by its conversation's own start (the journal header's `started`, the archive's
`- Started:`), not by when its file was written, so imported or replayed sessions (`palace.sessions.
importer`) filter and rank by when they happened. A time named in the query ("in June", "on 3 June
2023", "6月", "last week"; `dates`) boosts the sessions of that time; since/until filter.

A search (`rank`) (1) weighs the query's terms (`weights`): idf, less for a term most sessions hold (a name
both speakers use in every greeting says nothing about which session); a word no document holds is corrected
to the vocabulary term one edit away, or else to the term that spells it longer (postgres / postgresql), and
every word also finds its synonyms from a small table of everyday words, tech names and Chinese words
(`expand`: workmate / colleague, bike / bicycle, postgres / PostgreSQL, k8s / Kubernetes, 单车 / 自行车), and a
general word the specific words of its concept, one way (`concepts`: pets / greyhound, instrument / piano,
computers / JavaScript, 乐器 / 钢琴), each at a lower weight; (2) shortlists session files from the file-level index, by
the idf-weighted share of the query each covers; (3) reads every document of the shortlisted sessions; (4)
scores them with BM25 over all query terms (`score`), summaries weighted up, very short messages ("Bye
Maya!") down, and ranks each session by its best documents (a steeply diminishing sum) times its coverage of
the query, a boost for the time the query names and a mild recency tie-break. Memory entries that hold a query
term rank as their own sources, one per room, a little higher the more they were reused (recalled, confirmed:
memory/reuse.py); entries of superseded.md (replaced or forgotten) rank at half weight and never above a
current entry of their room. Every knob of this is a field of `tuning.Tuning` (defaults: what palace uses),
which the bench passes in to measure a part: `RecallIndex(home, tuning=...)`.

Scopes (`scope`): each file stores its session's wings (journal header, archive `- Wing:`), an entry has the
wing of its path; a search covers some wings plus everything wing-less, or every wing. Every hit carries its
wings, and `format` labels it with them.

What a hit shows (`passages`): a turn-level choice among all the session's messages, each valued by its
score's share of the best one's, and when no message covers much of the query (a session found by a date or a
name: "what did Maya do in May?"), partly by how much it says of its own (`salience`: the weight of its rare
terms), so that the message that answers is shown rather than a greeting; then the turns around the chosen
ones (the answer after a question, the statement before a short echo), each valued. `format` packs the most
valuable of all hits into the byte budget, shown per session in conversation order with the date and role
on each passage.

Secrets: text is redacted with `palace.memory.secrets.redact` before it is stored, so snippets are too;
the index is rebuilt when the secret patterns change; format_hits (`format`) redacts once more. Nothing
here logs.

Modules: `text` (tokenising, query terms, snippets), `dates`, `sources` (reading the files into
documents; `records`: a journal's lines), `redaction` (a file's messages redacted at once), `schema` (the
tables, the format version, document rowids, stored terms), `index` (`RecallIndex`: the connection,
corruption and busy handling, catching up with the files), `prepare` (a file read, redacted, tokenised and
packed), `pool` (that, in worker processes), `build` (a batch of files written in one transaction),
`scope` (which wings a search covers), `tuning` (the knobs), `query` (a request checked), `weights`,
`expand`, `concepts`, `rank` (search and ranking: `RecallHit`), `score` (BM25 per document, per source), `salience`,
`passages` (excerpts), `format` (`format_hits`, and `format_result` with the memory entries shown, whose
reuse is counted).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from palace.recall.format import format_hits
    from palace.recall.index import RecallIndex
    from palace.recall.rank import MAX_LIMIT, MAX_QUERY_CHARS, MIN_SHORTLIST, RecallHit
    from palace.recall.scan_state import RefreshStats
    from palace.recall.text import query_terms, stem, tokenize
    from palace.recall.tuning import Tuning

# Imported when first asked for: a first query in a new process needs the index, not the formatting.
_HOMES = {
    "RefreshStats": "scan_state",
    "format_hits": "format",
    "RecallIndex": "index",
    "MAX_LIMIT": "rank",
    "MAX_QUERY_CHARS": "rank",
    "MIN_SHORTLIST": "rank",
    "RecallHit": "rank",
    "query_terms": "text",
    "stem": "text",
    "tokenize": "text",
    "Tuning": "tuning",
}

__all__ = [
    "MAX_LIMIT",
    "MAX_QUERY_CHARS",
    "MIN_SHORTLIST",
    "RecallHit",
    "RecallIndex",
    "RefreshStats",
    "Tuning",
    "format_hits",
    "query_terms",
    "stem",
    "tokenize",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is not None:
        return getattr(importlib.import_module(f"palace.recall.{home}"), name)
    try:  # a submodule, as `palace.recall.rank` was when this package imported them all
        return importlib.import_module(f"palace.recall.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"palace.recall.{name}":
            raise
        raise AttributeError(f"module 'palace.recall' has no attribute {name!r}") from None
