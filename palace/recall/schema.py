"""The recall index's tables, its format version, how a document's rowid is made and its terms stored."""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator, Sequence
from typing import TypeVar

from palace.memory.secrets import SECRET_KINDS

SCHEMA_VERSION = 12  # bump when the tables or the tokenizer change: older index files are rebuilt
DOC_BITS = 20  # a document's rowid is its file's id << DOC_BITS | its number in the file
TABLES = ("vocab", "ffts", "fts_vocab", "fts", "doc", "file")  # in the order they are dropped
IN_LIST = 500  # values per `IN (?, ...)` list, well under SQLite's limit on bound parameters
ANY_TERM = ""  # the vocabulary row that counts every document and file holding a term (no real term is empty)

_T = TypeVar("_T")

SCHEMA = """
CREATE TABLE IF NOT EXISTS file (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    path TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    source TEXT NOT NULL,
    day TEXT NOT NULL DEFAULT '',
    wings TEXT NOT NULL DEFAULT '',
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS file_source ON file(source);
CREATE TABLE IF NOT EXISTS doc (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL,
    date TEXT NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    terms BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS doc_file ON doc(file_id);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
    terms, content = '', detail = none, columnsize = 0, tokenize = 'unicode61 remove_diacritics 0'
);
CREATE VIRTUAL TABLE IF NOT EXISTS ffts USING fts5(
    terms, content = '', detail = none, columnsize = 0, tokenize = 'unicode61 remove_diacritics 0'
);
CREATE TABLE IF NOT EXISTS vocab (
    term TEXT PRIMARY KEY,
    docs INTEGER NOT NULL,
    files INTEGER NOT NULL
) WITHOUT ROWID;
"""


def index_version() -> int:
    """The index format: the schema version and the secret patterns its text was redacted with. When
    either changes, the index is rebuilt, so it never keeps a secret that redact() now recognises."""
    fingerprint = f"{SCHEMA_VERSION}|" + "|".join(kind.source for kind in SECRET_KINDS)
    return zlib.crc32(fingerprint.encode("utf-8")) & 0x7FFFFFFF or 1


PACKED_CHARS = 400  # a document's terms from this long on are stored compressed


def pack_all(terms: Iterable[str]) -> list[bytes | str]:
    """Documents' space-separated index terms as stored. From PACKED_CHARS on, compressed (terms repeat, and
    are read back in bulk only to score candidates): each alone (raw deflate, a full flush after each, so that
    it decompresses without the others), by one compressor (setting one up costs more than compressing a
    message). Shorter ones as they are (text, not a blob): compressing them would save little and cost most
    of the compressing time."""
    stored: list[bytes | str] = []
    packer = None
    for text in terms:
        if len(text) < PACKED_CHARS:
            stored.append(text)
            continue
        packer = packer or zlib.compressobj(1, zlib.DEFLATED, -zlib.MAX_WBITS)
        stored.append(packer.compress(text.encode("utf-8")) + packer.flush(zlib.Z_FULL_FLUSH))
    return stored


def unpack_terms(stored: bytes | str) -> str:
    """The space-separated index terms of a document as pack_all stored them."""
    if isinstance(stored, str):
        return stored
    return zlib.decompressobj(-zlib.MAX_WBITS).decompress(stored).decode("utf-8")


def chunks(items: Sequence[_T]) -> Iterator[tuple[Sequence[_T], str]]:
    """items in slices of at most IN_LIST, each with its placeholders ("?,?,?") for an IN list."""
    for start in range(0, len(items), IN_LIST):
        chunk = items[start : start + IN_LIST]
        yield chunk, ",".join("?" * len(chunk))
