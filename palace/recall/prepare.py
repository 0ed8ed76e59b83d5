"""Files made ready for the index: read, redacted, tokenised and packed (the build's CPU work, which a big
catch-up does in worker processes: see pool.py)."""

from __future__ import annotations

from collections import Counter
from itertools import chain
from pathlib import Path
from typing import NamedTuple

from palace.recall.schema import ANY_TERM, DOC_BITS, pack_all, unpack_terms
from palace.recall.sources import FileKind, FileMeta, read_file
from palace.recall.text import tokenize
from palace.record import field, record

# The files whose documents are entries, found through the document-level index `fts`; a session's
# documents are found through its file in `ffts` and read whole, so they are not in `fts`.
ENTRY_FILES = frozenset({FileKind.MEMORIES, FileKind.SUPERSEDED})

# One document with at least one term: (number in the file, date, kind, text, terms as stored, its terms
# space-separated when it is an entry (for `fts`) else ""). A plain tuple: a worker sends thousands.
PreparedDoc = tuple[int, str, str, str, bytes | str, str]


class Prepared(NamedTuple):
    """One file's documents and terms, and the stamp and header of the version read."""

    size: int
    mtime_ns: int
    day: str
    wings: str  # space-separated
    docs: list[PreparedDoc]
    held: str  # its distinct terms, space-separated in no particular order (the file-level index keeps none)


@record
class PreparedFiles:
    """Files made ready (None: vanished or unreadable), with the vocabulary's counts for all of them."""

    files: dict[str, Prepared | None] = field(default_factory=dict)
    doc_counts: Counter[str] = field(default_factory=Counter)  # term -> documents holding it
    file_counts: Counter[str] = field(default_factory=Counter)  # term -> files holding it

    def merge(self, other: PreparedFiles) -> None:
        self.files.update(other.files)
        self.doc_counts.update(other.doc_counts)
        self.file_counts.update(other.file_counts)


def prepare_many(home: Path, work: list[tuple[str, FileMeta]]) -> PreparedFiles:
    """The files of work made ready for the index (a worker process's task)."""
    ready = PreparedFiles()
    doc_terms: list[str] = []  # each term once for every document holding it
    held_terms: list[str] = []  # each term once for every file holding it
    for rel, meta in work:
        ready.files[rel] = _prepare(home, rel, meta, doc_terms, held_terms)
    ready.doc_counts.update(doc_terms)  # an iterable, not a mapping: counted in C
    ready.file_counts.update(held_terms)
    return ready


def _prepare(home: Path, rel: str, meta: FileMeta, doc_terms: list[str], held_terms: list[str]) -> Prepared | None:
    parsed = read_file(home / rel, meta.kind, meta.day)
    if parsed is None:
        return None
    docs = parsed.docs[: 1 << DOC_BITS]
    terms = [tokenize(doc.text if doc.indexed is None else doc.indexed) for doc in docs]
    numbers = [number for number, held in enumerate(terms) if held]
    joined = [" ".join(terms[number]) for number in numbers]
    entries = meta.kind in ENTRY_FILES
    prepared = [
        (number, docs[number].date, docs[number].kind, docs[number].text, blob, text if entries else "")
        for number, text, blob in zip(numbers, joined, pack_all(joined), strict=True)
    ]
    sets = [set(terms[number]) for number in numbers]
    held = set().union(*sets)
    doc_terms += chain.from_iterable(sets)
    held_terms += held
    if numbers:  # the documents and files that hold a term: what a term's share of them is taken of
        doc_terms += [ANY_TERM] * len(numbers)
        held_terms.append(ANY_TERM)
    return Prepared(parsed.size, parsed.mtime_ns, parsed.day, " ".join(parsed.wings), prepared, " ".join(held))


def counts(ready: Prepared) -> Counter[str]:
    """term -> how many documents of a prepared file hold it (what it adds to the vocabulary)."""
    return held_counts([unpack_terms(doc[4]) for doc in ready.docs])


def held_counts(terms: list[str]) -> Counter[str]:
    """term -> how many of these documents (each a space-separated terms string) hold it, and ANY_TERM -> how
    many hold a term."""
    held = Counter(chain.from_iterable(set(text.split(" ")) for text in terms))
    held.pop("", None)
    holding = sum(1 for text in terms if text.strip())
    if holding:
        held[ANY_TERM] = holding
    return held
