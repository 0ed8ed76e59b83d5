"""`palace sync`: the palace shared through a git remote; commit what is pending, fetch, merge, push.

memories.md is merged by palace's merge driver (history/merge.py), session archives as git merges text; what
.gitignore keeps out (journals, .index/, the live registry, config.toml) never leaves the machine. A remote that
cannot be reached costs one warning: everything stays committed here and goes up at the next sync. A sync
stopped anywhere leaves a state the next one finishes: an index.lock left by a killed git is removed, a merge
left half done is completed, or, when conflicts are left in it, explained.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from palace.errors import HistoryError
from palace.filelock import exclusive
from palace.history.autocommit import GitHistory
from palace.history.git import (
    GitTrouble,
    commit_files,
    commit_lock,
    first_line,
    identity_args,
    is_own_repo,
    run_git,
    stale_index_lock,
)
from palace.history.merge import merge_memories, take_notes
from palace.history.repo import prepare_sync
from palace.memory.document import Document
from palace.memory.lint import conflict_spans, lint_document
from palace.paths import LOCK, MEMORIES, SESSIONS

REMOTE = "origin"
MERGE_MESSAGE = f"palace: sync (merge from {REMOTE})"
ARCHIVES_MESSAGE = "palace: session archives"
_ATTEMPTS = 3  # a push refused because the remote moved on is fetched, merged and pushed again this often
_REFUSED = ("rejected", "fetch first", "non-fast-forward")


@dataclass
class SyncOutcome:
    """What a sync did, for the user: info lines, warnings, and the conflicts left (then exit 1)."""

    lines: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)

    @property
    def code(self) -> int:
        return 1 if self.conflicts else 0


class _Unreachable(Exception):
    """The remote could not be reached (offline, a wrong URL, refused credentials)."""


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape").strip()


def has_markers(data: bytes) -> bool:
    """Whether a file still holds conflict markers (`<<<<<<<` ... `=======` ... `>>>>>>>`)."""
    return bool(conflict_spans(Document.parse(data).lines))


class _Sync:
    def __init__(self, home: Path) -> None:
        self.home = home
        self.out = SyncOutcome()
        self.changed = False  # something was committed, merged or pushed (else: "up to date")

    def git(self, *args: str, check: bool = True) -> str:
        return _text(run_git(self.home, *args, check=check).stdout)

    def ok(self, *args: str) -> bool:
        return run_git(self.home, *args, check=False).returncode == 0

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """The palace's store lock: no save lands in memories.md while it is committed or merged."""
        with exclusive(self.home / LOCK):
            yield

    # ------------------------------------------------------------------ the steps
    def run(self, remote: str | None) -> SyncOutcome:
        lock = stale_index_lock(self.home)
        if lock is not None:  # no process holds it: a git that was stopped left it (and, mid-merge, its temp files)
            lock.unlink(missing_ok=True)
            for temp in self.home.glob(".merge_file_*"):
                temp.unlink(missing_ok=True)
            self.out.lines.append(f"removed {lock}, left by a git command that was stopped")
        url = self._remote(remote)
        with self.locked():
            with commit_lock(self.home):  # a running palace's background commits wait (history/committer.py)
                if self.ok("rev-parse", "-q", "--verify", "MERGE_HEAD") and not self._finish_merge():
                    return self.out
            self.out.lines += prepare_sync(self.home)
            self._commit_pending()
        try:
            self._fetch()
            for _ in range(_ATTEMPTS):
                target = self._target()
                with self.locked(), commit_lock(self.home):
                    if not self._merge(target):
                        return self.out
                if self._push(target):
                    break
                self._fetch()
        except _Unreachable as exc:
            self.out.warnings.append(
                f"cannot reach {REMOTE} ({exc}): your changes are committed locally and will go up at the next sync"
            )
            return self.out
        if not self.changed:
            self.out.lines.append(f"up to date with {REMOTE} ({url})")
        return self.out

    def _remote(self, remote: str | None) -> str:
        current = self.git("remote", "get-url", REMOTE, check=False)
        if remote is None:
            if not current:
                raise HistoryError(
                    "no remote yet: run `palace sync --remote URL` once (a bare repository's path or any URL git "
                    "accepts; `git init --bare` makes one)"
                )
            return current
        if not current:
            self.git("remote", "add", REMOTE, remote)
            self.out.lines.append(f"remote {REMOTE}: {remote}")
        elif current != remote:
            self.git("remote", "set-url", REMOTE, remote)
            self.out.lines.append(f"remote {REMOTE}: {remote} (was {current})")
        return remote

    def _finish_merge(self) -> bool:
        """Complete the merge an earlier sync (or the user) left; False when conflicts are still in it."""
        unmerged = self._unmerged()
        left = [p for p in unmerged if has_markers(_read(self.home / p))]
        if left:
            self._explain(left)
            return False
        if unmerged:
            self.git("add", "--", *unmerged)
        self.git(*identity_args(self.home), "commit", "--no-edit", "--no-verify", "-q")
        self.out.lines.append("finished the merge the last sync left")
        self.changed = True
        return True

    def _commit_pending(self) -> None:
        """A hand edit of memories.md (as palace's autocommits would commit it) and session archives."""
        before = self.git("rev-parse", "-q", "--verify", "HEAD", check=False)
        GitHistory(self.home, warn=self.out.warnings.append).commit_pending(self.home / MEMORIES)
        status = self.git("status", "--porcelain=v1", "-z", "--untracked-files=all", "--", SESSIONS)
        archives = sorted(
            {entry[3:] for entry in status.split("\0") if entry[3:].endswith(".md") and entry[3:].count("/") == 1}
        )
        if archives:
            commit_files(self.home, archives, ARCHIVES_MESSAGE)
        if self.git("rev-parse", "-q", "--verify", "HEAD", check=False) != before:
            self.out.lines.append("committed what was pending (hand edits, session archives)")
            self.changed = True

    def _fetch(self) -> None:
        proc = run_git(self.home, "fetch", "-q", "--prune", REMOTE, check=False)
        if proc.returncode != 0:
            raise _Unreachable(first_line(proc.stderr) or f"git fetch: exit status {proc.returncode}")

    def _target(self) -> str:
        """The remote branch to merge and push: the upstream, else the same name, else the remote's only one."""
        branch = self.git("symbolic-ref", "-q", "--short", "HEAD", check=False)
        if not branch:
            raise GitTrouble("HEAD is detached (a commit is checked out, not a branch): check out a branch first")
        upstream = self.git("config", "--get", f"branch.{branch}.merge", check=False)
        if (
            upstream.startswith("refs/heads/")
            and self.git("config", "--get", f"branch.{branch}.remote", check=False) == REMOTE
        ):
            return upstream.removeprefix("refs/heads/")
        names = self.git("for-each-ref", "--format=%(refname:lstrip=3)", f"refs/remotes/{REMOTE}/").split("\n")
        names = [name for name in names if name and name != "HEAD"]
        return names[0] if len(names) == 1 and branch not in names else branch

    def _merge(self, target: str) -> bool:
        """Bring the remote branch in; False when conflicts are left for the user."""
        ref = f"refs/remotes/{REMOTE}/{target}"
        if not self.ok("rev-parse", "-q", "--verify", ref) or self.ok("merge-base", "--is-ancestor", ref, "HEAD"):
            return True
        count = self.git("rev-list", "--count", f"HEAD..{ref}")
        if self.ok("merge-base", "--is-ancestor", "HEAD", ref):
            self.git("merge", "--ff-only", "-q", ref)
        else:
            unrelated = [] if self.ok("merge-base", "HEAD", ref) else ["--allow-unrelated-histories"]
            args = ["merge", "--no-edit", "--no-verify", "-q", *unrelated, "-m", MERGE_MESSAGE, ref]
            proc = run_git(self.home, *identity_args(self.home), *args, check=False)
            if proc.returncode != 0 and not self.ok("rev-parse", "-q", "--verify", "MERGE_HEAD"):
                detail = first_line(proc.stderr) or first_line(proc.stdout) or f"exit status {proc.returncode}"
                raise GitTrouble(f"git merge: {detail}")
        self.out.lines += [f"merge: {note}" for note in take_notes(self.home)]
        if self.ok("rev-parse", "-q", "--verify", "MERGE_HEAD"):
            unmerged = self._merge_unmerged_memories()
            if unmerged:
                self._explain(unmerged)
                return False
            self.git(*identity_args(self.home), "commit", "--no-edit", "--no-verify", "-q")
        self.out.lines.append(f"brought in {count} commit(s) from {REMOTE}/{target}")
        self.changed = True
        return True

    def _unmerged(self) -> list[str]:
        return [p for p in self.git("diff", "--name-only", "--diff-filter=U", "-z").split("\0") if p]

    def _merge_unmerged_memories(self) -> list[str]:
        """memories.md left unmerged without markers means the merge driver did not run (a clone whose driver
        points at a palace that moved...): merge it here, from git's three stages. The paths still unmerged."""
        unmerged = self._unmerged()
        if MEMORIES in unmerged and not has_markers(_read(self.home / MEMORIES)):
            stages = [run_git(self.home, "show", f":{n}:{MEMORIES}", check=False) for n in (1, 2, 3)]
            result = merge_memories(*(p.stdout if p.returncode == 0 else b"" for p in stages))
            (self.home / MEMORIES).write_bytes(result.data)
            self.out.lines += [f"merge: {MEMORIES}: {note}" for note in result.notes]
            self.out.lines.append(f"merged {MEMORIES} here (git's merge driver did not run)")
            if not result.conflicts:
                self.git("add", "--", MEMORIES)
        return self._unmerged()

    def _push(self, target: str) -> bool:
        """Push what the remote lacks; False when the remote moved on meanwhile (fetch and merge again)."""
        ref = f"refs/remotes/{REMOTE}/{target}"
        known = self.ok("rev-parse", "-q", "--verify", ref)
        if known and self.git("rev-list", "--count", f"{ref}..HEAD") == "0":
            return True
        proc = run_git(self.home, "push", "-q", REMOTE, f"HEAD:refs/heads/{target}", check=False)
        if proc.returncode != 0:
            detail = first_line(proc.stderr) or f"git push: exit status {proc.returncode}"
            if any(word in proc.stderr.decode("utf-8", "replace") for word in _REFUSED):
                return False
            raise _Unreachable(detail)
        branch = self.git("symbolic-ref", "-q", "--short", "HEAD")
        if not self.git("config", "--get", f"branch.{branch}.merge", check=False):
            self.git("branch", "-q", f"--set-upstream-to={REMOTE}/{target}")
        self.out.lines.append(f"pushed to {REMOTE}/{target}")
        self.changed = True
        return True

    def _explain(self, unmerged: list[str]) -> None:
        """The conflicts left, with lint's words for those in memories.md."""
        for name in unmerged:
            data = _read(self.home / name)
            if name == MEMORIES:
                report = lint_document(Document.parse(data), name=name)
                self.out.conflicts += [str(p) for p in report.problems if "merge conflict" in p.message]
            elif has_markers(data):
                self.out.conflicts.append(f"{name}: an unresolved merge conflict: keep one side, delete the markers")
        self.out.conflicts.append(
            "conflicts are left for you (the rest is merged): edit them, then run `palace sync` again "
            "(or `git merge --abort` to undo the merge)"
        )


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""


def sync(home: Path, remote: str | None = None) -> SyncOutcome:
    """`palace sync [--remote URL]`: share the palace through git's remote `origin`."""
    home = Path(home)
    try:
        if not is_own_repo(home):
            raise HistoryError(f"{home} has no git history yet: run `palace init --git` first, then `palace sync`")
        return _Sync(home).run(remote)
    except GitTrouble as exc:
        raise HistoryError(f"palace sync: {exc}") from exc
    except OSError as exc:
        raise HistoryError(f"palace sync: {exc.strerror or exc}") from exc
