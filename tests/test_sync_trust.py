"""`palace sync` against remotes that say no, and remotes that bring what palace must not follow: real git, bare
repositories with hooks as the remote, a teammate's plain clone committing links, submodules and markers.

A push the remote rejects is an error with git's reason, the commits kept; "up to date" is said only when both
heads are the same commit. An incoming tree that would put a link (any path), a gitlink, a folder where palace
keeps a file, or a memories.md with markers into the palace stops before `git merge`: HEAD, index and work tree
as they were, no MERGE_HEAD, the link's target never read.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from test_sync import Palace, git, palace_cli
from test_sync import hermetic_git as hermetic_git  # autouse: the same hermetic git as test_sync

from palace.errors import HistoryError
from palace.history.sync import sync

pytestmark = pytest.mark.e2e

MARKER = "OUTSIDE-MARKER-7f3a9c: this text lives outside the palace"
KEPT = "your 1 local commit(s) are kept here and go up at a later `palace sync`, once origin accepts them"
FIX = (
    "your palace is unchanged (commit a regular file there from the clone that pushed it, then run `palace sync` again)"
)


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    path = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(path))
    return path


@pytest.fixture
def laptop(tmp_path: Path, remote: Path) -> Palace:
    """A palace that has pushed its first commits to the remote."""
    machine = Palace(tmp_path / "laptop")
    assert sync(machine.home, str(remote)).code == 0
    return machine


@pytest.fixture
def teammate(tmp_path: Path, remote: Path, laptop: Palace) -> Path:
    """A plain git clone of the remote: whatever it commits and pushes is what the laptop's next sync fetches."""
    clone = tmp_path / "teammate"
    git(tmp_path, "clone", "-q", "--branch", "main", str(remote), str(clone))
    return clone


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A file outside every palace, with a marker text that must never show up anywhere."""
    folder = tmp_path / "outside"
    folder.mkdir()
    target = folder / "secret.txt"
    target.write_text(MARKER + "\n")
    return target


def hook(remote: Path, name: str, script: str) -> Path:
    path = remote / "hooks" / name
    path.write_text("#!/bin/sh\n" + script)
    path.chmod(0o755)
    return path


def remote_head(remote: Path) -> str:
    return git(remote, "rev-parse", "-q", "--verify", "refs/heads/main", check=False).strip()


def head(home: Path) -> str:
    return git(home, "rev-parse", "HEAD").strip()


def push(clone: Path, message: str) -> None:
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "--allow-empty", "-m", message)  # a maker that committed itself adds nothing here
    git(clone, "push", "-q", "origin", "HEAD:main")


def state(home: Path) -> tuple[str, str, str, bool, dict[str, tuple[str, bytes]]]:
    """HEAD, the index, `git status`, whether a merge is half done, and every file of the work tree."""
    files: dict[str, tuple[str, bytes]] = {}
    for path in sorted(home.rglob("*")):
        rel = path.relative_to(home).as_posix()
        if rel == ".git" or rel.startswith(".git/"):
            continue
        if path.is_symlink():
            files[rel] = ("link", os.readlink(path).encode())
        elif path.is_file():
            files[rel] = ("file", path.read_bytes())
        else:
            files[rel] = ("folder", b"")
    merging = (home / ".git" / "MERGE_HEAD").exists()
    return head(home), git(home, "ls-files", "-s"), git(home, "status", "--porcelain"), merging, files


def refused(home: Path) -> subprocess.CompletedProcess[str]:
    """`palace sync` that must stop before the merge: exit 1, the palace exactly as it was."""
    before = state(home)
    proc = palace_cli(home, "sync")
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    assert state(home) == before
    assert not before[3]
    assert "up to date" not in proc.stdout and MARKER not in proc.stdout + proc.stderr
    return proc


# --------------------------------------------------------------------------- a push the remote rejects


def test_a_push_a_pre_receive_hook_declines_is_an_error_every_time_and_goes_up_once_it_accepts(
    laptop: Palace, remote: Path
) -> None:
    script = 'echo "main is protected: push through a review" >&2\necho "ask the admin" >&2\nexit 1\n'
    declining = hook(remote, "pre-receive", script)
    laptop.save("Preferences/editors", "The user edits with vim")
    before = remote_head(remote)
    for _ in range(2):  # every time, not once
        proc = palace_cli(laptop.home, "sync")
        assert proc.returncode == 1, proc.stdout
        assert proc.stdout == ""
        assert proc.stderr.splitlines() == [
            "Error: palace sync: origin rejected the push to main (pre-receive hook declined)",
            "  remote: main is protected: push through a review",
            "  remote: ask the admin",
            f"  {KEPT}",
        ]
        assert "The user edits with vim" not in proc.stderr
        assert remote_head(remote) == before
    local = head(laptop.home)
    declining.unlink()
    proc = palace_cli(laptop.home, "sync")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["palace sync: pushed to origin/main"]
    assert remote_head(remote) == local == head(laptop.home)


def test_an_update_hook_that_declines_the_branch_is_an_error_with_its_reason(laptop: Palace, remote: Path) -> None:
    hook(remote, "update", 'if [ "$1" = refs/heads/main ]; then echo "update: $1 is frozen" >&2; exit 1; fi\n')
    laptop.save("Preferences/editors", "The user edits with vim")
    with pytest.raises(HistoryError) as caught:
        sync(laptop.home)
    assert str(caught.value).splitlines() == [
        "palace sync: origin rejected the push to main (hook declined)",
        "  remote: update: refs/heads/main is frozen",
        "  remote: error: hook declined to update refs/heads/main",
        f"  {KEPT}",
    ]
    git(laptop.home, "push", "-q", "origin", "HEAD:refs/heads/other")  # the hook lets other branches through


def test_a_remote_with_the_branch_checked_out_rejects_with_its_reason_trimmed(
    laptop: Palace, teammate: Path, remote: Path
) -> None:
    laptop.save("Preferences/editors", "The user edits with vim")
    with pytest.raises(HistoryError) as caught:
        sync(laptop.home, str(teammate))  # a non-bare clone: git refuses to move its checked-out branch
    lines = str(caught.value).splitlines()
    assert lines[0] == "palace sync: origin rejected the push to main (branch is currently checked out)"
    assert lines[-2:] == [f"  {KEPT}", f"  before that, this sync: remote origin: {teammate} (was {remote})"]
    remote_lines = lines[1:-2]
    assert 1 <= len(remote_lines) <= 4 and all(line.startswith("  remote: ") for line in remote_lines)
    assert remote_lines[-1].endswith("more line(s))")  # git says ten lines about it: a few are shown


def test_an_unrelated_history_forced_onto_the_remote_is_merged_and_pushed_as_before(
    tmp_path: Path, laptop: Palace, remote: Path
) -> None:
    other = Palace(tmp_path / "other")
    other.save("Decisions/database", "Postgres chosen")
    git(other.home, "push", "-q", "--force", str(remote), "HEAD:refs/heads/main")
    git(remote, "config", "receive.denyNonFastForwards", "true")  # palace never forces: its merge is ahead
    laptop.save("Preferences/editors", "The user edits with vim")
    outcome = sync(laptop.home)
    assert outcome.code == 0 and "pushed to origin/main" in outcome.lines
    assert remote_head(remote) == head(laptop.home)
    shared = git(remote, "show", "main:memories.md")
    assert "Postgres chosen" in shared and "The user edits with vim" in shared


def test_up_to_date_only_when_both_heads_are_the_same_commit(laptop: Palace, remote: Path) -> None:
    laptop.save("Preferences/editors", "The user edits with vim")
    assert sync(laptop.home).lines == ["pushed to origin/main"]
    assert remote_head(remote) == head(laptop.home)
    assert sync(laptop.home).lines == [f"up to date with origin ({remote})"]
    # A remote that accepts a push and does not keep it: its post-receive hook puts the branch back.
    hook(remote, "post-receive", 'while read old new ref; do git update-ref "$ref" "$old"; done\n')
    before = remote_head(remote)
    laptop.save("Preferences/shells", "The user uses fish")
    proc = palace_cli(laptop.home, "sync")
    assert proc.returncode == 1 and "up to date" not in proc.stdout
    assert proc.stderr.splitlines() == [
        f"Error: palace sync: origin/main and this palace still differ after 3 attempts (origin/main is at "
        f"{before[:12]}, this palace at {head(laptop.home)[:12]}); {KEPT}"
    ]
    assert remote_head(remote) == before


# --------------------------------------------------------------------------- what an incoming tree may not bring


@pytest.mark.parametrize("kind", ["relative", "absolute"])
@pytest.mark.parametrize("path", ["fast-forward", "merge"])
def test_a_memories_link_from_a_teammate_is_refused_and_its_target_never_read(
    laptop: Palace, teammate: Path, outside: Path, kind: str, path: str
) -> None:
    link = os.path.relpath(outside, laptop.home) if kind == "relative" else str(outside)
    (teammate / "memories.md").unlink()
    (teammate / "memories.md").symlink_to(link)
    push(teammate, "memory: a link")
    if path == "merge":  # the laptop has a commit of its own: a true merge, not a fast-forward
        laptop.save("Preferences/editors", "The user edits with vim")
    outcome_before = (outside.read_bytes(), outside.stat().st_mtime_ns)
    proc = refused(laptop.home)
    assert proc.stderr == (
        f"Error: palace sync: did not merge origin/main: memories.md is a symbolic link (to {link}), and palace "
        f"follows no link that comes from a remote; {FIX}\n"
    )
    mine = laptop.home / "memories.md"
    assert not mine.is_symlink() and MARKER not in mine.read_text()
    save = palace_cli(laptop.home, "memory", "save", "Preferences/shells", "The user uses fish")
    assert save.returncode == 0, save.stderr
    assert MARKER not in save.stdout + save.stderr
    assert not mine.is_symlink() and "The user uses fish" in mine.read_text()
    assert (outside.read_bytes(), outside.stat().st_mtime_ns) == outcome_before
    refused(laptop.home)  # every sync, until the remote holds a file again
    (teammate / "memories.md").unlink()
    git(teammate, "checkout", "HEAD~1", "--", "memories.md")
    push(teammate, "memory: a file again")
    outcome = sync(laptop.home)
    assert outcome.code == 0 and "pushed to origin/main" in outcome.lines
    assert not mine.is_symlink() and "The user uses fish" in mine.read_text()
    assert (outside.read_bytes(), outside.stat().st_mtime_ns) == outcome_before


def _gitlink(clone: Path) -> str:
    git(clone, "rm", "-q", "memories.md")
    commit = head(clone)
    git(clone, "update-index", "--add", "--cacheinfo", f"160000,{commit},memories.md")
    git(clone, "commit", "-qm", "memories.md as a submodule")
    (clone / "memories.md").mkdir()  # as a clone shows a submodule not checked out: an empty folder
    return "memories.md is a submodule (a gitlink), which has no place in a palace"


def _markers(clone: Path) -> str:
    file = clone / "memories.md"
    file.write_text(file.read_text() + "\n<<<<<<< ours\n- mine\n=======\n- theirs\n>>>>>>> theirs\n")
    return "memories.md holds conflict markers committed unresolved (<<<<<<< ... >>>>>>>)"


def _folder(clone: Path) -> str:
    (clone / "review.md").mkdir()
    (clone / "review.md" / "x").write_text("a file inside a folder named review.md\n")
    return "review.md is a folder where palace keeps a file"


def _session_link(clone: Path) -> str:
    (clone / "sessions").mkdir(exist_ok=True)
    (clone / "sessions" / "x.md").symlink_to("../../.bashrc")
    return "sessions/x.md is a symbolic link (to ../../.bashrc), and palace follows no link that comes from a remote"


def _any_link(clone: Path) -> str:
    (clone / "notes").mkdir()
    (clone / "notes" / "passwd").symlink_to("/etc/passwd")
    return "notes/passwd is a symbolic link (to /etc/passwd), and palace follows no link that comes from a remote"


@pytest.mark.parametrize("make", [_gitlink, _markers, _folder, _session_link, _any_link])
def test_what_a_teammate_commits_that_palace_must_not_read_stops_the_merge_before_the_work_tree(
    laptop: Palace, teammate: Path, make: object
) -> None:
    assert callable(make)
    reason = make(teammate)
    push(teammate, "a commit palace refuses")
    proc = refused(laptop.home)
    assert proc.stderr == f"Error: palace sync: did not merge origin/main: {reason}; {FIX}\n"


def test_several_refused_files_are_named_once_with_a_count(laptop: Palace, teammate: Path, outside: Path) -> None:
    _markers(teammate)
    _session_link(teammate)
    (teammate / "prompts").mkdir()
    (teammate / "prompts" / "agent.md").symlink_to(str(outside))
    push(teammate, "three refused files")
    proc = refused(laptop.home)
    assert proc.stderr.startswith("Error: palace sync: did not merge origin/main: memories.md holds conflict markers")
    assert "(and 2 more file(s) palace refuses)" in proc.stderr


# --------------------------------------------------------------------------- the user's own link still works


def test_the_users_own_memories_link_is_no_news_to_its_own_sync(
    tmp_path: Path, laptop: Palace, teammate: Path, remote: Path
) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    target = dotfiles / "palace-memories.md"
    target.write_bytes(laptop.data)
    (laptop.home / "memories.md").unlink()
    (laptop.home / "memories.md").symlink_to(target)
    save = palace_cli(laptop.home, "memory", "save", "Preferences/editors", "The user edits with vim")
    assert save.returncode == 0, save.stderr
    assert "The user edits with vim" in target.read_text()
    assert "pushed to origin/main" in sync(laptop.home).lines
    assert sync(laptop.home).lines == [f"up to date with origin ({remote})"]
    git(teammate, "pull", "-q", "origin", "main")  # plain git takes the link as a link, follows nothing
    (teammate / "sessions").mkdir(exist_ok=True)
    (teammate / "sessions" / "2026-01-05-abcdef12.md").write_text("# Session archive\n")
    push(teammate, "a session archive")
    outcome = sync(laptop.home)  # the link in the remote's tree is the one this palace committed: it merges
    assert outcome.code == 0 and "brought in 1 commit(s) from origin/main" in outcome.lines
    assert (laptop.home / "memories.md").is_symlink() and "The user edits with vim" in target.read_text()
    assert (laptop.home / "sessions" / "2026-01-05-abcdef12.md").is_file()
    # Another machine gets that link as it is committed (palace commits a link as git does: the link): refused.
    desktop = Palace(tmp_path / "desktop")
    with pytest.raises(HistoryError, match=r"memories\.md is a symbolic link \(to .*palace-memories\.md\)"):
        sync(desktop.home, str(remote))
