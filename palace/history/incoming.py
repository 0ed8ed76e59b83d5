"""What a fetch brings in, screened before `git merge` lets it into the palace folder.

The palace folder is the user's home for memory: palace reads memories.md, review.md, superseded.md and the
session archives there, and writes memories.md through its link when the user made one (memory/files.py). A
remote is someone else's (a teammate, a server): what it brings is read from git's objects (ls-tree, cat-file)
before anything reaches the work tree, and the merge is refused, naming the file, when the tree it would check
out holds a symbolic link at any path (never followed when it comes from a remote), a submodule (a gitlink has no
place in a palace), a folder where palace keeps a file, or a memories.md with conflict markers committed
unresolved. Only the remote tip's tree is screened, since only it reaches the work tree (a link committed and
removed again in the commits between would, if screened, stop every sync for good); an entry this palace
already holds as is (in HEAD, or unchanged since the merge base) is no news and passes, so the user's own
dotfiles link, committed here, does not stop the next sync.
"""

from __future__ import annotations

from pathlib import Path

from palace.history.git import run_git
from palace.memory.document import Document
from palace.memory.lint import conflict_spans
from palace.paths import MEMORIES, REVIEW, SESSIONS, SUPERSEDED
from palace.record import record

FILES = (MEMORIES, REVIEW, SUPERSEDED)  # the top-level files palace reads
LINK, GITLINK = "120000", "160000"
_SHOWN = 120  # a name or link target shown to the user is cut at this many characters


@record(frozen=True)
class Entry:
    """One entry of a git tree: its mode, its type (blob, tree, commit) and its object id."""

    mode: str
    kind: str
    oid: str


def has_markers(data: bytes) -> bool:
    """Whether a file still holds conflict markers (`<<<<<<<` ... `=======` ... `>>>>>>>`)."""
    return bool(conflict_spans(Document.parse(data).lines))


def shown(text: str) -> str:
    """Text from a remote made fit for one terminal line: printable characters only, cut when long."""
    clean = "".join(ch if ch.isprintable() else "?" for ch in text).strip()
    return clean if len(clean) <= _SHOWN else clean[: _SHOWN - 3] + "..."


def entries(home: Path, rev: str) -> dict[str, Entry]:
    """Every entry of rev's tree, folders included, by path; empty when rev names no commit."""
    proc = run_git(home, "ls-tree", "-r", "-t", "-z", "--full-tree", rev, check=False)
    if proc.returncode != 0:
        return {}
    found: dict[str, Entry] = {}
    for item in proc.stdout.split(b"\0"):
        meta, tab, name = item.partition(b"\t")
        fields = meta.decode("ascii", "replace").split()
        if tab and len(fields) == 3:
            found[name.decode("utf-8", "surrogateescape")] = Entry(*fields)
    return found


def _merge_bases(home: Path, ref: str) -> list[str]:
    proc = run_git(home, "merge-base", "--all", "HEAD", ref, check=False)
    return proc.stdout.decode("ascii", "replace").split() if proc.returncode == 0 else []


def _read_blob(home: Path, oid: str) -> bytes:
    return run_git(home, "cat-file", "blob", oid).stdout


def _is_read_file(path: str) -> bool:
    """A file palace reads: memories.md, review.md, superseded.md, a session archive (sessions/<id>.md)."""
    folder, _, name = path.rpartition("/")
    return path in FILES or (folder == SESSIONS and name.endswith(".md"))


def _reason(home: Path, path: str, entry: Entry, *, first: bool) -> str | None:
    """Why this entry of the incoming tree may not reach the palace folder; None when it may."""
    # Only the first refused link has its target read: a remote with many links costs no git run for each.
    name = shown(path)
    if entry.mode == LINK:
        target = f" (to {shown(_read_blob(home, entry.oid).decode('utf-8', 'replace'))})" if first else ""
        return f"{name} is a symbolic link{target}, and palace follows no link that comes from a remote"
    if entry.mode == GITLINK:
        return f"{name} is a submodule (a gitlink), which has no place in a palace"
    if entry.kind == "tree" and _is_read_file(path):
        return f"{name} is a folder where palace keeps a file"
    if path == SESSIONS and entry.kind != "tree":
        return f"{name} is a file where palace keeps its session archives"
    if path == MEMORIES and entry.kind == "blob" and has_markers(_read_blob(home, entry.oid)):
        return f"{name} holds conflict markers committed unresolved (<<<<<<< ... >>>>>>>)"
    return None


def refusal(home: Path, ref: str) -> str | None:
    """Why ref's tree may not be merged (the first file, and how many more); None when it may."""
    # Git's objects only (ls-tree, cat-file): HEAD, the index and the work tree are not touched.
    ours = entries(home, "HEAD")
    bases = [entries(home, base) for base in _merge_bases(home, ref)]
    reasons: list[str] = []
    for path, entry in sorted(entries(home, ref).items()):
        if ours.get(path) == entry or (bases and all(base.get(path) == entry for base in bases)):
            continue  # already here as is, or the remote did not change it: the merge keeps this side's
        reason = _reason(home, path, entry, first=not reasons)
        if reason is not None:
            reasons.append(reason)
    if not reasons:
        return None
    more = len(reasons) - 1
    return reasons[0] + (f" (and {more} more file(s) palace refuses)" if more else "")
