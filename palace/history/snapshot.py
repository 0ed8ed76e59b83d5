"""A commit of given file contents, made without the work tree: what the background committer uses.

The background committer (history/committer.py) commits each memory change with the exact bytes that change
wrote, after the file is in place, while the next change may be on disk already; so it cannot `git add` the
file. It writes the bytes as blobs (`git hash-object -w --path`, so attributes and filters apply as `git
add` would apply them), the palace's top-level tree with them in place of the old entries (`git mktree`), a
commit on HEAD (`git commit-tree`), and moves the branch only if HEAD is still the commit it built on (`git
update-ref HEAD NEW OLD`). Git's index is then told (`git reset -- PATHS`), so that `git status` agrees and
the user's own next commit does not carry an older memories.md. Other staged work is left alone.

Only top-level files are committed this way (memories.md and its side files are). A repository in the
middle of a merge, a cherry-pick, a revert or a rebase is left to the work-tree commit (history/git.py).
"""

from __future__ import annotations

import stat
from collections.abc import Mapping, Sequence
from pathlib import Path

from palace.history.git import Diverged, GitTrouble, retry_busy_index, run_git
from palace.record import record

__all__ = ["Content", "Diverged", "Head", "TreeEntry", "busy_elsewhere", "commit_contents", "read_head"]

_BLOB_MODES = ("100644", "100755")
_IN_PROGRESS = ("MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-merge", "rebase-apply", "BISECT_LOG")


@record(frozen=True)
class TreeEntry:
    """One entry of the top-level tree: `mode`, `kind` (blob, tree, commit) and object id."""

    mode: str
    kind: str
    oid: str


@record(frozen=True)
class Head:
    """The branch's last commit and its top-level tree."""

    commit: str
    tree: str
    entries: dict[str, TreeEntry]

    def blob(self, name: str) -> str | None:
        """The blob id of a top-level file (None when absent); Diverged when it is not a plain file."""
        entry = self.entries.get(name)
        if entry is None:
            return None
        if entry.kind != "blob" or entry.mode not in _BLOB_MODES:
            raise Diverged(f"{name} is not a plain file in HEAD")
        return entry.oid


def busy_elsewhere(home: Path) -> str | None:
    """What git is in the middle of in home (a merge...), or None; only for a `.git` folder."""
    git_dir = home / ".git"
    if not git_dir.is_dir():
        return "the repository's .git is not a folder"
    for name in _IN_PROGRESS:
        if (git_dir / name).exists():
            return f"git is in the middle of something ({name})"
    return None


def read_head(home: Path) -> Head:
    """HEAD's commit and top-level tree; GitTrouble when HEAD is detached or has no commit yet."""
    if run_git(home, "symbolic-ref", "-q", "HEAD", check=False).returncode != 0:
        raise GitTrouble("HEAD is detached (a commit is checked out, not a branch)")
    found = run_git(home, "rev-parse", "HEAD^{commit}", "HEAD^{tree}", check=False)
    ids = found.stdout.decode("ascii", "replace").split()
    if found.returncode != 0 or len(ids) != 2:
        raise Diverged("the branch has no commit yet")
    listing = run_git(home, "ls-tree", "-z", ids[0]).stdout
    entries: dict[str, TreeEntry] = {}
    for item in listing.split(b"\0"):
        if not item:
            continue
        info, _, name = item.partition(b"\t")
        mode, kind, oid = info.decode("ascii").split()
        entries[name.decode("utf-8", "surrogateescape")] = TreeEntry(mode, kind, oid)
    return Head(ids[0], ids[1], entries)


def write_blob(home: Path, name: str, data: bytes, *, store: bool = True) -> str:
    """Store data as the blob git would make of the file `name` holding it (only its id with store=False)."""
    found = run_git(home, "hash-object", *(["-w"] if store else []), f"--path={name}", "--stdin", stdin=data)
    return found.stdout.decode("ascii").strip()


@record(frozen=True)
class Content:
    """A top-level file's new content for a commit."""

    data: bytes
    mode: int = 0o600  # the file's permission bits: executable ones make a 100755 entry


def commit_contents(
    home: Path,
    head: Head,
    files: Mapping[str, Content],
    message: str,
    *,
    identity: Sequence[str] = (),
    blobs: Mapping[str, str] | None = None,
) -> tuple[Head, dict[str, str]]:
    """Commit these files' contents on head (under history/git.py's commit lock; git's index is left for
    sync_index): HEAD as it is then (head itself when the tree would not change), and the files' blob ids.
    Diverged when HEAD moved meanwhile."""
    ids = {name: (blobs or {}).get(name) or write_blob(home, name, content.data) for name, content in files.items()}
    entries = dict(head.entries)
    for name, oid in ids.items():
        old = entries.get(name)
        mode = old.mode if old is not None else ("100755" if files[name].mode & stat.S_IXUSR else "100644")
        entries[name] = TreeEntry(mode, "blob", oid)
    listing = b"".join(
        f"{e.mode} {e.kind} {e.oid}\t".encode("ascii") + name.encode("utf-8", "surrogateescape") + b"\0"
        for name, e in entries.items()
    )
    tree = run_git(home, "mktree", "-z", stdin=listing).stdout.decode("ascii").strip()
    if tree == head.tree:
        return head, ids
    text = message.rstrip("\n") + "\n"
    made = run_git(home, *identity, "commit-tree", tree, "-p", head.commit, stdin=text.encode("utf-8"))
    commit = made.stdout.decode("ascii").strip()
    moved = run_git(home, "update-ref", "-m", f"commit: {_subject(message)}", "HEAD", commit, head.commit, check=False)
    if moved.returncode != 0:
        raise Diverged("HEAD moved while the commit was made")
    return Head(commit, tree, entries), ids


def sync_index(home: Path, names: Sequence[str]) -> None:
    """Git's index entries of these files set to HEAD's (what was just committed); a busy index is retried."""
    retry_busy_index(home, lambda: run_git(home, "reset", "-q", "--", *names))


def _subject(message: str) -> str:
    return message.split("\n", 1)[0]
