"""Cold-memory recall: a full-text index over archived sessions, journals and memory entries.

The index lives in `$PALACE_HOME/.index/recall.sqlite3` (SQLite FTS5 from the standard library). It is
derived data: deleting it loses nothing, a corrupted file is rebuilt, and every use first catches up with
the files (new, changed and deleted ones; a file is re-read only when its size or mtime changed).

Text is tokenised by palace (`text`), not by SQLite, so the index and the query side agree exactly:

- words are NFKC-normalised, case-folded and lightly stemmed (`Databases` -> `databas` <- `database`);
- runs of CJK characters (Chinese, Japanese kana, Hangul) become overlapping bigrams plus the run's last
  character, so the two-character query `数据` and the word `数据库` both find `我们的数据库用 PostgreSQL`.

The terms are stored space-separated in an FTS5 column; queries are OR-ed terms built by palace (the
user's text never reaches FTS5 syntax), stop words (English, Chinese particles) dropped. Every message,
summary and memory entry (read by `sources`) is its own document; a document's rowid is its file's id
<< DOC_BITS | its number.

A search (`rank`) (1) shortlists session files inside SQLite from the posting lists alone, by the
idf-weighted share of the query each covers; (2) reads every document of the shortlisted sessions; (3)
scores them with BM25 over all query terms, summaries weighted up, and ranks each session by its best
documents (a steeply diminishing sum) times its coverage of the query, with a mild recency tie-break.
Memory entries that hold a query term are scored the same way and rank as their own sources, one per room.

Secrets: text is redacted with `palace.memory.secrets.redact` before it is stored, so snippets are too;
the index is rebuilt when the secret patterns change; format_hits (`format`) redacts once more. Nothing
here logs.

Modules: `text` (tokenising, query terms, snippets), `sources` (reading the files into documents),
`schema` (the tables, the format version, document rowids), `index` (`RecallIndex`: the connection,
corruption and busy handling, catching up with the files), `rank` (search and ranking: `RecallHit`),
`format` (`format_hits`).
"""

from palace.recall.format import format_hits
from palace.recall.index import RecallIndex, RefreshStats
from palace.recall.rank import MAX_LIMIT, MAX_QUERY_CHARS, MIN_SHORTLIST, RecallHit
from palace.recall.text import query_terms, stem, tokenize

__all__ = [
    "MAX_LIMIT",
    "MAX_QUERY_CHARS",
    "MIN_SHORTLIST",
    "RecallHit",
    "RecallIndex",
    "RefreshStats",
    "format_hits",
    "query_terms",
    "stem",
    "tokenize",
]
