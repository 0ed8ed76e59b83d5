"""`palace sync`: the palace shared through a git remote; commit what is pending, fetch, merge, push.

memories.md is merged by palace's merge driver (history/merge.py), session archives as git merges text; what
.gitignore keeps out (journals, .index/, the live registry, config.toml) never leaves the machine. A remote that
cannot be reached costs one warning: everything stays committed here and goes up at the next sync. A sync
stopped anywhere leaves a state the next one finishes: an index.lock left by a killed git is removed, a merge
left half done is completed, or, when conflicts are left in it, explained.

What the remote brings is screened before it is merged (history/incoming.py): a link, a submodule, a folder
where palace keeps a file, or a memories.md with conflict markers stops the sync with the palace as it was. A
push the remote rejects (a hook, a protected branch) is an error with git's reason; "up to date" is said only
when this palace's HEAD and the remote's branch are the same commit.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

from palace.errors import HistoryError
from palace.filelock import exclusive
from palace.history.autocommit import GitHistory
from palace.history.changelog import entry_events
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
from palace.history.incoming import has_markers, refusal, shown
from palace.history.merge import merge_memories, take_notes
from palace.history.repo import prepare_sync
from palace.history.scrub import forget_scrubbed, scrubbed_commits
from palace.history.undo import UndoStack
from palace.memory.document import Document
from palace.memory.lint import lint_document
from palace.memory.races import Ledger
from palace.memory.secrets import redact
from palace.paths import LOCK, MEMORIES, SESSIONS
from palace.record import field, record

REMOTE = "origin"
MERGE_MESSAGE = f"palace: sync (merge from {REMOTE})"
ARCHIVES_MESSAGE = "palace: session archives"
_ATTEMPTS = 3  # a push refused because the remote moved on is fetched, merged and pushed again this often
_MOVED_ON = ("fetch first", "non-fast-forward")  # `git push --porcelain` reasons that a fetch and merge answer
_REMOTE_LINES = 4  # of the remote's own lines (a hook's message), a rejection shows this many
_REASON = re.compile(r"\((.*)\)\s*$")
_NAMED_CHANGES = 10  # entries a merge changed that are named one by one; more are counted

__all__ = ["SyncOutcome", "has_markers", "sync"]


@record
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


@record(frozen=True)
class _Status:
    """`git push --porcelain`'s line for the pushed ref: its flag (`!` rejected) and the reason git gave."""

    flag: str
    summary: str
    reason: str


def _push_status(stdout: bytes, dst: str) -> _Status | None:
    """The porcelain status line of the ref pushed to dst (`<flag> TAB <src>:<dst> TAB <summary>`)."""
    for line in stdout.decode("utf-8", "replace").splitlines():
        fields = line.split("\t")
        if len(fields) == 3 and len(fields[0]) == 1 and fields[1].endswith(f":{dst}"):
            match = _REASON.search(fields[2])
            return _Status(fields[0], fields[2], match.group(1) if match else "")
    return None


def _remote_lines(stderr: bytes) -> list[str]:
    """The remote's own lines (`remote: ...`, a hook's message), made printable, at most a few."""
    said = [shown(ln) for ln in stderr.decode("utf-8", "replace").splitlines() if ln.startswith("remote:")]
    said = [ln for ln in said if ln != "remote:"]
    if len(said) > _REMOTE_LINES:
        said = [*said[: _REMOTE_LINES - 1], f"remote: ... ({len(said) - _REMOTE_LINES + 1} more line(s))"]
    return said


class _Sync:
    def __init__(self, home: Path, *, force: bool = False) -> None:
        self.home = home
        self.force = force  # replace the remote's history from before a scrub (palace memory scrub)
        self.out = SyncOutcome()
        self.changed = False  # something was committed, merged or pushed (else: "up to date")
        self.pushed = False  # this attempt pushed: whether the remote kept it is asked of the remote itself
        self.why = ""  # why the last attempt did not leave both sides at the same commit

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
                if self._scrubbed_there(target):
                    break
                with self.locked(), commit_lock(self.home):
                    if not self._merge(target):
                        return self.out
                if self._push(target) and self._agreed(target):
                    if self.pushed:  # said only once the remote holds it
                        self.out.lines.append(f"pushed to {REMOTE}/{target}")
                        self.changed = True
                    break
                self._fetch()  # the remote moved on (or did not keep the push): bring it in, try again
            else:
                raise HistoryError(
                    f"palace sync: {REMOTE}/{target} and this palace still differ after {_ATTEMPTS} attempts "
                    f"({self.why}); {self._kept(target)}"
                )
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
        refused = refusal(self.home, ref)
        if refused is not None:  # before git merge: HEAD, the index and the work tree are as they were
            raise HistoryError(
                f"palace sync: did not merge {REMOTE}/{target}: {refused}; your palace is unchanged (commit a "
                f"regular file there from the clone that pushed it, then run `palace sync` again)"
            )
        count = self.git("rev-list", "--count", f"HEAD..{ref}")
        before = _read(self.home / MEMORIES)
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
        self._note_memory_change(before, _read(self.home / MEMORIES))
        self.changed = True
        return True

    def _note_memory_change(self, before: bytes, after: bytes) -> None:
        """A merge that changed memories.md is a palace change too: each entry it brought in or took out is one
        line here, goes to the change log (session archives list it), and to the ledger (so that no palace
        process takes an entry the merge removed for one an editor dropped)."""
        if before == after:
            return
        events = entry_events(before, after, "sync")
        for event in events[:_NAMED_CHANGES]:
            self.out.lines.append(f"memory: {event['action']} {event['path']}: {redact(shown(event['content']))}")
        if len(events) > _NAMED_CHANGES:
            self.out.lines.append(f"memory: and {len(events) - _NAMED_CHANGES} more change(s) to memories.md")
        with contextlib.suppress(OSError):  # derived data: the merge is done either way
            stack = UndoStack(self.home)
            with stack.locked():
                stack.changes.add(os.urandom(16).hex(), events, time.time())
        with contextlib.suppress(OSError):
            Ledger(self.home / LOCK).note(before, after, None)

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
        """Push what the remote lacks; False when it moved on meanwhile, an error when it rejects the push."""
        # --porcelain gives one status line per ref (`!` rejected, the reason in parentheses): a hook's decline
        # is told from "fetch first" by git's own field, never by English words; no line at all: not reached.
        ref = f"refs/remotes/{REMOTE}/{target}"
        known = self.ok("rev-parse", "-q", "--verify", ref)
        self.pushed = False
        if known and self.git("rev-list", "--count", f"{ref}..HEAD") == "0":
            return True
        self.pushed = True
        proc = run_git(self.home, "push", "--porcelain", REMOTE, f"HEAD:refs/heads/{target}", check=False)
        status = _push_status(proc.stdout, f"refs/heads/{target}")
        if status is None and proc.returncode != 0:
            raise _Unreachable(first_line(proc.stderr) or f"git push: exit status {proc.returncode}")
        if status is not None and status.flag == "!":
            if status.reason in _MOVED_ON:
                self.why = f"the push was rejected: {status.reason}, {REMOTE} kept moving on"
                return False
            reason = shown(status.reason or status.summary)
            lines = [f"palace sync: {REMOTE} rejected the push to {target} ({reason})"]
            lines += [f"  {line}" for line in _remote_lines(proc.stderr)]
            lines.append(f"  {self._kept(target)}")
            raise HistoryError("\n".join(lines))
        branch = self.git("symbolic-ref", "-q", "--short", "HEAD")
        if not self.git("config", "--get", f"branch.{branch}.merge", check=False):
            self.git("branch", "-q", f"--set-upstream-to={REMOTE}/{target}")
        return True

    def _scrubbed_there(self, target: str) -> bool:
        """The remote still holds commits a scrub replaced: merging them would bring the secret back. An error,
        or with --force a forced push of this history over them (True: done)."""
        replaced = scrubbed_commits(self.home)
        ref = f"refs/remotes/{REMOTE}/{target}"
        if not replaced or not self.ok("rev-parse", "-q", "--verify", ref):
            return False
        held = replaced & set(self.git("rev-list", ref).split())
        if not held:
            forget_scrubbed(self.home)  # the remote never had them, or no longer has
            return False
        if not self.force:
            self._drop_fetched(ref)
            raise HistoryError(
                f"palace sync: {REMOTE}/{target} still holds {len(held)} commit(s) from before `palace memory scrub`; "
                "merging them would bring the scrubbed text back, so nothing was merged or pushed. `palace sync "
                f"--force` replaces {REMOTE}/{target} with this palace's history (clones made from {REMOTE} keep "
                "their own copies: scrub there too)"
            )
        there = self.git("rev-parse", ref)
        lease = f"--force-with-lease=refs/heads/{target}:{there}"
        proc = run_git(self.home, "push", "--porcelain", lease, REMOTE, f"HEAD:refs/heads/{target}", check=False)
        if proc.returncode != 0:
            detail = first_line(proc.stderr) or first_line(proc.stdout) or f"exit status {proc.returncode}"
            raise HistoryError(f"palace sync: the forced push to {REMOTE}/{target} failed: {detail}")
        self._fetch()
        forget_scrubbed(self.home)
        run_git(self.home, "reflog", "expire", "--expire=now", "--all", check=False)
        run_git(self.home, "gc", "--prune=now", "--quiet", check=False)  # the fetched old objects go too
        self.out.lines.append(f"replaced {REMOTE}/{target}'s history with this palace's, scrubbed (a forced push)")
        self.changed = True
        return True

    def _drop_fetched(self, ref: str) -> None:
        """The remote's old commits just fetched are not kept here either: the scrub's promise holds locally."""
        run_git(self.home, "update-ref", "-d", ref, check=False)
        run_git(self.home, "reflog", "expire", "--expire=now", "--all", check=False)
        run_git(self.home, "gc", "--prune=now", "--quiet", check=False)

    def _kept(self, target: str) -> str:
        """What becomes of the commits the remote did not take."""
        ref = f"refs/remotes/{REMOTE}/{target}"
        span = f"{ref}..HEAD" if self.ok("rev-parse", "-q", "--verify", ref) else "HEAD"
        count = self.git("rev-list", "--count", span, check=False) or "?"
        return (
            f"your {count} local commit(s) are kept here and go up at a later `palace sync`, once {REMOTE} accepts them"
        )

    def _agreed(self, target: str) -> bool:
        """HEAD and the remote's branch are the same commit (after a push, as `git ls-remote` says)."""
        # A remote may accept a push and not keep it (a hook that moves the branch back): only it can tell.
        head = self.git("rev-parse", "HEAD")
        there = self.git("rev-parse", "-q", "--verify", f"refs/remotes/{REMOTE}/{target}", check=False)
        if self.pushed:
            proc = run_git(self.home, "ls-remote", REMOTE, f"refs/heads/{target}", check=False)
            if proc.returncode != 0:
                raise _Unreachable(first_line(proc.stderr) or f"git ls-remote: exit status {proc.returncode}")
            there = (_text(proc.stdout).split() or [""])[0]
        if there == head:
            return True
        where = f"is at {there[:12]}" if there else "does not exist"
        self.why = f"{REMOTE}/{target} {where}, this palace at {head[:12]}"
        return False

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


def sync(home: Path, remote: str | None = None, *, force: bool = False) -> SyncOutcome:
    """`palace sync [--remote URL] [--force]`: share the palace through git's remote `origin`."""
    home = Path(home)
    try:
        if not is_own_repo(home):
            raise HistoryError(f"{home} has no git history yet: run `palace init --git` first, then `palace sync`")
        runner = _Sync(home, force=force)
        try:
            return runner.run(remote)
        except HistoryError as exc:
            if not runner.out.lines:
                raise
            done = "; ".join(runner.out.lines)  # the steps done before the error stay done: the user hears of them
            raise HistoryError(f"{exc}\n  before that, this sync: {done}") from exc
    except GitTrouble as exc:
        raise HistoryError(f"palace sync: {exc}") from exc
    except OSError as exc:
        raise HistoryError(f"palace sync: {exc.strerror or exc}") from exc
