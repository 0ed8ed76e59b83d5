"""Several palace writers and an editor that ignores the lock: nothing palace acknowledged is lost.

An editor that read memories.md before a save and writes its copy back after it (renamed over the file, or
in place) drops the new entry: that is the editor's doing, and the one case palace repairs, for RECENT_SECONDS
after the save (README: Limits). The promise tested here: every save acknowledged by any palace process (the
call returned) is in the file once some palace process looks again within that window (its next write, or
the REPL's watcher), unless its writer forgot it; every hand-written line is there; nothing no one removed is
gone. The deterministic tests force each interleaving that lost entries; the stress test runs them all at once.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from palace.errors import EntryNotFoundError
from palace.memory import MemoryStore
from palace.memory import files as files_module
from palace.memory.document import Document
from palace.memory.races import rebase

TODAY = date(2026, 11, 30)
START = """\
# Memories

A hand-written introduction.

## Preferences

### editors
- [2026-11-01] Helix

## Decisions

### db
- [2026-11-02] Postgres by default
"""


def entries(file: Path) -> list[str]:
    return [e.content for e in Document.parse(file.read_bytes()).entries if e.path is not None]


def editor_saves(file: Path, copy: bytes, line: str) -> None:
    """An editor writes its buffer (`copy`, read earlier) back with a line of its own: a temp file renamed over."""
    tmp = file.with_name(".memories.md.swp")
    tmp.write_bytes(copy + f"\n{line}\n".encode())
    os.replace(tmp, file)


def after_the_last_look(monkeypatch: pytest.MonkeyPatch, then: list[Callable[[], None]]) -> None:
    """Run each callable of `then` just after palace's last look before one of its swaps (the next ones in
    turn): the file it then swaps out is not the one it read, so it puts it back and redoes its edit on it."""
    real = files_module._stamp_or_none
    pending = list(then)

    def look(file: Path) -> files_module.Stamp | None:
        stamp = real(file)
        if pending:
            pending.pop(0)()
        return stamp

    if files_module._renameat2() is None:
        pytest.skip("no renameat2 here: the fallback has no exchange to find the editor's file with")
    monkeypatch.setattr(files_module, "_stamp_or_none", look)


# ---------------------------------------------------------------------- each interleaving, forced
def test_the_entry_saved_before_a_forget_survives_an_editor_saving_over_the_forget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The review's "neighbour of a forgotten entry vanishes right after the forget": the editor's buffer
    # predates the save of Zed, and it lands while palace forgets Helix, so the forget is redone on it. The
    # write of that redo lacked Zed and palace stopped checking Zed; the text around Zed had changed too (Helix
    # went), so its check took the drop for a hand edit.
    store = MemoryStore(tmp_path / "palace", today=lambda: TODAY)
    store.save("Preferences/editors", "Helix")
    buffer = store.file.read_bytes()
    assert store.save("Preferences/editors", "Zed").action == "saved"
    after_the_last_look(monkeypatch, [lambda: editor_saves(store.file, buffer, "A hand-written line.")])
    assert store.forget("Preferences/editors", "Helix").action == "forgotten"
    assert "Zed" not in entries(store.file)  # the editor dropped it: palace's to repair
    [again] = store.repair_recent()  # the REPL's watcher, or the next write
    assert again.content == "Zed"
    assert entries(store.file) == ["Zed"]
    assert "A hand-written line.\n" in store.file.read_text()


def test_a_dropped_save_is_saved_again_though_another_process_saved_where_it_was(tmp_path: Path) -> None:
    # Two palace processes (a REPL and an MCP server): the editor's stale buffer drops the REPL's Zed, then the
    # server saves Kakoune into the same room, right where Zed was. The REPL must still see Zed as dropped.
    home = tmp_path / "palace"
    home.mkdir(mode=0o700)
    (home / "memories.md").write_text(START)
    repl, server = MemoryStore(home, today=lambda: TODAY), MemoryStore(home, today=lambda: TODAY)
    buffer = repl.file.read_bytes()
    assert repl.save("Preferences/editors", "Zed").action == "saved"
    editor_saves(repl.file, buffer, "A hand-written line.")
    assert server.save("Preferences/editors", "Kakoune").action == "saved"
    repl.repair_recent()
    found = Counter(entries(repl.file))
    assert found == Counter(["Helix", "Zed", "Kakoune", "Postgres by default"])
    assert "A hand-written introduction.\n" in repl.file.read_text()
    assert "A hand-written line.\n" in repl.file.read_text()


def test_an_editors_change_redone_on_palace_text_keeps_the_lines_both_versions_have() -> None:
    # An editor's stale copy drops palace's Zed in the middle and appends a line at the end; palace redoes
    # that change on the text it finds next, which holds both Zed and the new line. The change is the drop and
    # the line, nothing else: taken as one block from the first difference to the end, it took Helix and the
    # first hand line with it (what a stress run showed: a whole tail of the file gone, hand lines too).
    palace = b"## Preferences\n\n### editors\n- [2026-11-30] Zed\n- [2026-11-01] Helix\n\nHand line 1.\n"
    editor = b"## Preferences\n\n### editors\n- [2026-11-01] Helix\n\nHand line 1.\n\nHand line 2.\n"
    found = palace + b"\nHand line 2.\n"
    redone = rebase(palace, editor, found)
    assert redone == b"## Preferences\n\n### editors\n- [2026-11-01] Helix\n\nHand line 1.\n\nHand line 2.\n"


def _palace(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`palace ARGS` as a process of its own (the real CLI), on the palace at home."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "PALACE_"))}
    env["PALACE_HOME"] = str(home)
    cwd = home.parent / "cwd"
    cwd.mkdir(exist_ok=True)
    return subprocess.run(
        [sys.executable, "-m", "palace", *args], env=env, capture_output=True, text=True, timeout=120, cwd=cwd
    )


def test_a_cli_save_an_editor_dropped_after_the_cli_ended_is_saved_again_by_the_repl(tmp_path: Path) -> None:
    # `palace memory save` ends right after its write: it cannot look again. The REPL (or the next palace
    # write of any process) must repair the CLI's save as it repairs its own.
    home = tmp_path / "palace"
    home.mkdir(mode=0o700)
    (home / "memories.md").write_text(START)
    repl = MemoryStore(home)
    assert repl.render().text  # the REPL is running
    buffer = repl.file.read_bytes()
    done = _palace(home, "memory", "save", "Preferences/editors", "The user tries Zed")
    assert done.returncode == 0, done.stderr
    assert "The user tries Zed" in entries(repl.file)
    editor_saves(repl.file, buffer, "A hand-written line.")
    [again] = repl.repair_recent()  # the REPL's watcher saw the file change
    assert again.content == "The user tries Zed" and again.action == "saved"
    assert Counter(entries(repl.file)) == Counter(["Helix", "The user tries Zed", "Postgres by default"])
    assert "A hand-written line.\n" in repl.file.read_text()


class Hook:
    """A write hook that keeps what it is told (git and undo see each write palace put in place)."""

    def __init__(self) -> None:
        self.writes: list[tuple[bytes, bytes, str]] = []

    def before_write(self, file: Path) -> None:
        pass

    def after_write(self, file: Path, before: bytes, after: bytes, message: str, change: object = None) -> None:
        self.writes.append((before, after, message))


def _editor_copies_palace_file_at_once(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Right after palace's file goes in (once), an editor reads it and saves it back with a line of its own."""
    real = files_module._exchange_in
    done: list[bool] = []

    def exchange_then_the_editor_copies(
        file: Path, tmp: str, data: bytes, expect: bytes, existed: bool, read: files_module.Stamp | None
    ) -> files_module.Swapped:
        outcome = real(file, tmp, data, expect, existed, read)
        if outcome.found is None and not done:
            done.append(True)
            editor_saves(file, file.read_bytes(), "A hand-written line.")
        return outcome

    monkeypatch.setattr(files_module, "_exchange_in", exchange_then_the_editor_copies)
    return done


def test_a_forget_an_editor_copied_at_once_is_done_and_kept_in_superseded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # palace sees its file replaced right after its swap and redoes the forget on what replaced it; that copy
    # already lacks the entry (it is palace's own file): the forget is done, not "nothing to forget".
    hook = Hook()
    store = MemoryStore(tmp_path / "palace", today=lambda: TODAY, hooks=[hook])
    store.save("Preferences/editors", "Helix")
    store.save("Preferences/editors", "Zed")
    done = _editor_copies_palace_file_at_once(monkeypatch)
    try:
        result = store.forget("Preferences/editors", "Helix")
    except EntryNotFoundError as exc:
        pytest.fail(f"the forget was done, yet palace said: {exc}")
    assert done and result.action == "forgotten"
    assert entries(store.file) == ["Zed"] and "A hand-written line.\n" in store.file.read_text()
    assert "Helix" in (store.home / "superseded.md").read_text()  # what a forget removes is kept
    assert hook.writes[-1][2] == "memory: forget Preferences/editors"


def test_a_save_an_editor_copied_at_once_is_told_to_the_hooks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hook = Hook()
    store = MemoryStore(tmp_path / "palace", today=lambda: TODAY, hooks=[hook])
    store.save("Preferences/editors", "Helix")
    done = _editor_copies_palace_file_at_once(monkeypatch)
    assert store.save("Preferences/editors", "Zed").action == "saved"
    assert done and entries(store.file) == ["Helix", "Zed"]
    assert [message for _, _, message in hook.writes] == ["memory: save Preferences/editors"] * 2
    assert b"Zed" in hook.writes[-1][1] and b"Zed" not in hook.writes[-1][0]


# ---------------------------------------------------------------------- all at once, for real
# A palace writer in its own interpreter: `python -c WRITER home worker count kind seed` saves `count` entries
# once it reads a line, forgetting one of its own earlier ones every fourth save. kind "repl" is one store for
# the whole run (a REPL or an MCP server) that, once done, keeps looking (the REPL's watcher) until the editor
# has stopped; kind "cli" makes a new store for each save and forget, as `palace memory save` does (a process
# of its own each time: nothing carries over), and never looks again. It prints what was acknowledged.
WRITER = """
import json, random, sys, time
from pathlib import Path
from palace.errors import PalaceError
from palace.memory import MemoryStore

home, worker, count, kind, seed = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
rng = random.Random(seed)
rooms = ["Preferences/editors", "Decisions/db", "ifai/Decisions/architecture", "Preferences/shells"]
stopped, edits = home.parent / "editor-stopped", home.parent / "editor-edits"


def editor_made() -> int:
    try:
        return int(edits.read_text() or 0)
    except (FileNotFoundError, ValueError):
        return 0


store = MemoryStore(home)
print("ready", flush=True)
sys.stdin.readline()
saved, forgotten, refused = [], [], 0
for n in range(count):
    # Paced by the editor's count, not by time: on a loaded machine the two still meet all the way through.
    waited = 0
    while editor_made() < (n + 1) // 3 and waited < 6000:
        time.sleep(0.005)
        waited += 1
    if kind == "cli":
        store = MemoryStore(home)
    room, content = rooms[rng.randrange(len(rooms))], f"Writer {worker} saved entry {n}"
    try:
        store.save(room, content)
        saved.append([room, content])
    except PalaceError:  # the file kept changing for seconds: refused, so nothing was promised
        refused += 1
    if n % 4 == 3 and len(saved) >= 2:
        room, content = saved[-2]
        try:
            if kind == "cli":
                store = MemoryStore(home)
            store.forget(room, content)
            forgotten.append(content)
        except PalaceError:
            pass
    time.sleep(rng.uniform(0, 0.004))
print("done", flush=True)
while kind == "repl" and not stopped.exists():
    store.repair_recent()
    time.sleep(0.01)
if kind == "repl":
    store.repair_recent()
print(json.dumps({"saved": [c for _, c in saved], "forgotten": forgotten, "refused": refused}), flush=True)
"""

# An editor that ignores the lock: `python -c EDITOR file stop stopped seed` reads memories.md, takes a moment,
# and writes it back with a hand-written line of its own appended, by renaming a temp file over it and in place
# by turns; every 20-40 ms (the editors of bench/bench_editor_race.py), until `stop` exists. It publishes how
# many edits it has made, and a writer waits for edit k before its save 3k - 1, so they meet all the way through.
EDITOR = """
import os, random, sys, time
from pathlib import Path

file, stop, stopped = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
rng = random.Random(sys.argv[4])
n = 0
while not stop.exists():
    time.sleep(rng.uniform(0.02, 0.04))
    data = file.read_bytes()
    style = ("rename", "in place")[n % 2]
    new = data + f"\\nHand-written line {n} ({style})\\n".encode()
    time.sleep(rng.uniform(0, 0.003))  # the buffer is stale from here on
    if style == "rename":
        tmp = file.with_name(".memories.md.swp")
        tmp.write_bytes(new)
        os.replace(tmp, file)
    else:  # rewritten in place, never empty on the way (vim's backupcopy=yes truncates first: not modelled)
        fd = os.open(file, os.O_WRONLY)
        os.write(fd, new)
        os.ftruncate(fd, len(new))
        os.close(fd)
    n += 1
    (file.parent.parent / "editor-edits.tmp").write_text(str(n))
    os.replace(file.parent.parent / "editor-edits.tmp", file.parent.parent / "editor-edits")
stopped.touch()
print(n, flush=True)
"""


def _python(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.Popen(
        [sys.executable, "-c", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


KINDS = ["repl", "repl", "cli"]  # e.g. the REPL, an MCP server and `palace memory save` calls
SAVES = 60


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
def test_several_palace_writers_and_an_editor_lose_nothing_acknowledged(tmp_path: Path, seed: int) -> None:
    home = tmp_path / "palace"
    home.mkdir(mode=0o700)
    file = home / "memories.md"
    file.write_text(START)
    stop, stopped = tmp_path / "stop", tmp_path / "editor-stopped"
    writers = [_python(WRITER, str(home), str(w), str(SAVES), kind, f"{seed}-{w}") for w, kind in enumerate(KINDS)]
    editor: subprocess.Popen[str] | None = None
    try:
        for writer in writers:  # all started and imported: they begin together
            assert writer.stdout is not None and writer.stdout.readline() == "ready\n", writer.communicate()[1]
        editor = _python(EDITOR, str(file), str(stop), str(stopped), str(seed))
        time.sleep(random.Random(seed).uniform(0.05, 0.1))
        for writer in writers:
            assert writer.stdin is not None
            writer.stdin.write("go\n")
            writer.stdin.flush()
        for writer in writers:
            assert writer.stdout is not None and writer.stdout.readline() == "done\n", writer.communicate()[1]
        stop.touch()
        out, err = editor.communicate(timeout=120)
        assert editor.returncode == 0, err
        edits = int(out)
        reports = []
        for writer in writers:  # (what readline() buffered is not seen by communicate())
            assert writer.stdout is not None and writer.stderr is not None
            out, err = writer.stdout.read(), writer.stderr.read()
            assert writer.wait(120) == 0, err
            reports.append(json.loads(out))
    finally:
        for process in [*writers, editor]:
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()
    data = file.read_bytes()
    found = Counter(entries(file))
    kept = [c for r in reports for c in r["saved"] if c not in r["forgotten"]]
    lost = [c for c in kept if found[c] == 0]
    twice = [c for c in kept if found[c] > 1]
    acknowledged = sum(len(r["saved"]) for r in reports)
    hand = [f"Hand-written line {n} ({('rename', 'in place')[n % 2]})\n" for n in range(edits)]
    hand_lost = [line for line in hand if line.encode() not in data]
    assert not lost and not twice and not hand_lost, (
        f"{len(lost)} of {acknowledged} acknowledged saves lost (e.g. {lost[:4]}), {len(twice)} twice, "
        f"{len(hand_lost)} of {edits} hand-written lines lost"
    )
    assert all(found[c] == 1 for c in ("Helix", "Postgres by default"))  # nothing no one removed is gone
    assert data.startswith(b"# Memories\n\nA hand-written introduction.\n")
    assert Document.parse(data).to_bytes() == data
    assert edits >= 20 and acknowledged >= len(KINDS) * SAVES * 0.9  # the editor and the writers met
