"""`palace memory scrub TEXT`: a secret taken out of the palace for real, not only out of memories.md.

Every file of the palace folder that holds the text (memories.md through the store, so the change is one line
and one commit like any other; superseded.md, review.md, session archives and journals, the input history) gets
`[secret removed]` in its place. Derived data that holds it (the recall index, the undo log, caches under
`.index/`) is deleted: it is rebuilt from the files. Then the palace's git history is rewritten with git's own
fast-export and fast-import, commit messages included, and what no longer has a name is pruned. What was
already pushed or pulled elsewhere is out of reach: the remote's old commits are recorded (in the git folder,
never pushed) so that `palace sync` refuses to merge them back and replaces them only when asked (`--force`).
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from palace.errors import HistoryError, PalaceError
from palace.history.git import GitTrouble, commit_files, commit_lock, git_env, is_own_repo, run_git
from palace.memory.files import atomic_write, read_regular
from palace.memory.store import MemoryStore
from palace.memory.superseded import SECRET_REMOVED
from palace.paths import INDEX, MEMORIES
from palace.record import field, record

MIN_CHARS = 6  # a shorter text would be found in too many ordinary words
SCRUBBED = "palace-scrubbed"  # in the git folder: commits a scrub replaced, one id a line (never pushed)
MESSAGE = "memory: scrub a secret"
_MARKER = SECRET_REMOVED.encode()


@record
class ScrubOutcome:
    """What a scrub changed, for the user."""

    files: list[str] = field(default_factory=list)  # files rewritten with the marker
    derived: list[str] = field(default_factory=list)  # derived files deleted (rebuilt on use)
    rewritten: int = 0  # commits of the history that held the text
    remote: str | None = None  # the remote that still holds the old commits

    def lines(self) -> list[str]:
        said = []
        if self.files:
            said.append(f"replaced it with {SECRET_REMOVED} in {len(self.files)} file(s): {', '.join(self.files)}")
        if self.derived:
            said.append(f"deleted {len(self.derived)} derived file(s) that held it (rebuilt when next needed)")
        if self.rewritten:
            said.append(f"rewrote the palace's git history: {self.rewritten} commit(s) replaced; the old ones pruned")
        if not said:
            said.append("the text is nowhere in the palace: nothing changed")
        if self.remote:
            said.append(
                f"{self.remote} still holds the old commits, and so may every clone made from it: `palace sync` "
                f"will not merge them back; `palace sync --force` replaces {self.remote}'s history with this one"
            )
        return said


def forms_of(text: str) -> list[bytes]:
    """The byte forms the text takes in palace's files: as written, and as JSON writes it (journals)."""
    forms = {text.encode("utf-8", "surrogateescape")}
    for ascii_only in (False, True):
        escaped = json.dumps(text, ensure_ascii=ascii_only)[1:-1]
        forms.add(escaped.encode("utf-8", "surrogateescape"))
    return sorted(forms, key=len, reverse=True)


def _replace(data: bytes, forms: list[bytes]) -> bytes:
    for form in forms:
        data = data.replace(form, _MARKER)
    return data


def _files(home: Path) -> Iterator[Path]:
    """Every regular file of the palace folder outside .git (links are not followed: memories.md's is the
    store's to write through)."""
    for folder, dirs, names in os.walk(home):
        dirs[:] = [d for d in dirs if not (folder == str(home) and d == ".git")]
        for name in names:
            path = Path(folder, name)
            if not path.is_symlink() and path.is_file():
                yield path


def scrub_files(store: MemoryStore, text: str) -> ScrubOutcome:
    """Replace the text in every file of the palace (the caller holds no lock); delete derived data holding it."""
    forms = forms_of(text)
    outcome = ScrubOutcome()
    home = store.home
    memories = store.read_bytes()
    if any(form in memories for form in forms):
        store.restore(memories, _replace(memories, forms), message=MESSAGE)
        outcome.files.append(MEMORIES)
    index = home / INDEX
    with store.lock():
        for path in _files(home):
            if path == store.file:
                continue
            data = read_regular(path) or b""
            if not any(form in data for form in forms):
                continue
            if index in path.parents:  # derived: rebuilt from the files
                path.unlink(missing_ok=True)
                outcome.derived.append(str(path.relative_to(home)))
            else:
                atomic_write(path, _replace(data, forms))
                outcome.files.append(str(path.relative_to(home)))
        if outcome.files or outcome.derived:  # FTS keeps tokens, and freed pages: the index is built anew
            for path in index.glob("recall.sqlite3*"):
                path.unlink(missing_ok=True)
                outcome.derived.append(str(path.relative_to(home)))
    return outcome


def scrub(store: MemoryStore, text: str, *, flush: Callable[[], None] = lambda: None) -> ScrubOutcome:
    """`palace memory scrub TEXT`: the files, the derived data, then the git history."""
    if len(text.strip()) < MIN_CHARS:
        raise PalaceError(f"give the secret itself (at least {MIN_CHARS} characters): a shorter text is in many words")
    home = store.home
    outcome = scrub_files(store, text)
    flush()  # palace's own commits of the change first
    if not is_own_repo(home):
        return outcome
    try:
        with store.lock(), commit_lock(home):
            tracked = set(run_git(home, "ls-files", "-z").stdout.decode("utf-8", "surrogateescape").split("\0"))
            changed = [name for name in outcome.files if name in tracked and name != MEMORIES]
        if changed:
            commit_files(home, changed, MESSAGE)
        with store.lock(), commit_lock(home):
            outcome.rewritten, outcome.remote = _rewrite_history(home, forms_of(text))
    except GitTrouble as exc:
        raise HistoryError(f"palace memory scrub: {exc} (the files are scrubbed; the history is not)") from exc
    return outcome


# ---------------------------------------------------------------------- the history
def _refs(home: Path) -> tuple[list[str], dict[str, str]]:
    """The local refs to rewrite, and the remote-tracking refs with the commits they name."""
    listing = run_git(home, "for-each-ref", "--format=%(objectname) %(refname)").stdout.decode("utf-8", "replace")
    local, remote = [], {}
    for line in listing.splitlines():
        sha, _, ref = line.partition(" ")
        if ref.startswith("refs/remotes/"):
            remote[ref] = sha
        elif ref and not ref.startswith("refs/original/"):
            local.append(ref)
    return local, remote


def _commits(home: Path) -> set[str]:
    out = run_git(home, "rev-list", "--all").stdout.decode("ascii", "replace")
    return set(out.split())


def _rewrite_history(home: Path, forms: list[bytes]) -> tuple[int, str | None]:
    """Rewrite every local ref's history without the text; (commits replaced, the remote still holding them)."""
    local, remote = _refs(home)
    if not local:
        return 0, None
    before = _commits(home)
    changed = _pipe(home, local, forms)
    if not changed:
        return 0, None
    run_git(home, "reset", "-q")  # the index from the rewritten HEAD (the same tree as the work tree's)
    for ref in remote:  # they name the old commits; the next fetch brings what the remote really has
        run_git(home, "update-ref", "-d", ref)
    run_git(home, "reflog", "expire", "--expire=now", "--all")
    run_git(home, "gc", "--prune=now", "--quiet")
    replaced = before - _commits(home)  # a commit after one that held the text has a new id too
    _record(home, replaced)
    held = sorted(ref for ref, sha in remote.items() if sha in replaced)
    return len(replaced), held[0].split("/")[2] if held else None


def _record(home: Path, replaced: set[str]) -> None:
    git_dir = Path(run_git(home, "rev-parse", "--absolute-git-dir").stdout.decode("utf-8", "surrogateescape").strip())
    file = git_dir / SCRUBBED
    known = set((read_regular(file) or b"").decode("ascii", "replace").split())
    atomic_write(file, ("\n".join(sorted(known | replaced)) + "\n").encode("ascii"))


def scrubbed_commits(home: Path) -> set[str]:
    """The commits a scrub replaced (palace sync refuses to merge them back)."""
    with contextlib.suppress(GitTrouble, OSError):
        git_dir = run_git(home, "rev-parse", "--absolute-git-dir").stdout.decode("utf-8", "surrogateescape").strip()
        return set((read_regular(Path(git_dir) / SCRUBBED) or b"").decode("ascii", "replace").split())
    return set()


def forget_scrubbed(home: Path) -> None:
    """The remote no longer holds the replaced commits (a forced push replaced them): stop refusing them."""
    with contextlib.suppress(GitTrouble, OSError):
        git_dir = run_git(home, "rev-parse", "--absolute-git-dir").stdout.decode("utf-8", "surrogateescape").strip()
        (Path(git_dir) / SCRUBBED).unlink(missing_ok=True)


def _pipe(home: Path, refs: list[str], forms: list[bytes]) -> int:
    """git fast-export of refs into git fast-import, every data block without the text; blocks changed."""
    export_args = ["git", "fast-export", "--signed-tags=strip", "--tag-of-filtered-object=rewrite", "--reencode=yes"]
    env = git_env()
    exporter = subprocess.Popen(
        [*export_args, *refs], cwd=home, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert exporter.stdout is not None
    stream = exporter.stdout
    chunks, changed = _filtered(stream, forms)
    if not changed:
        stream.close()
        exporter.wait()
        return 0
    importer = subprocess.run(
        ["git", "fast-import", "--force", "--quiet"], cwd=home, env=env, input=chunks, capture_output=True, check=False
    )
    stream.close()
    if exporter.wait() != 0:
        detail = exporter.stderr.read().decode("utf-8", "replace").strip() if exporter.stderr else ""
        raise GitTrouble(f"git fast-export: {detail or 'failed'}")
    if importer.returncode != 0:
        raise GitTrouble(f"git fast-import: {importer.stderr.decode('utf-8', 'replace').strip()}")
    return changed


def _filtered(stream: IO[bytes], forms: list[bytes]) -> tuple[bytes, int]:
    """The fast-export stream with the text replaced in every `data` block (blobs and messages), and how many
    blocks changed. Read whole: fast-import must not start on a stream that changes nothing."""
    out: list[bytes] = []
    changed = 0
    while line := stream.readline():
        if not line.startswith(b"data ") or line.startswith(b"data <<"):
            out.append(line)
            continue
        size = int(line[5:].strip())
        body = stream.read(size)
        new = _replace(body, forms)
        changed += new != body
        out += [b"data %d\n" % len(new), new]
    return b"".join(out), changed
