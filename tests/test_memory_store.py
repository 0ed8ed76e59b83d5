"""MemoryStore: file modes, the locked write path (re-read, redo, hooks, undo) and the rendered hot memory."""

from __future__ import annotations

import contextlib
import os
import stat
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from palace.errors import ContentError, EntryNotFoundError, MemoryPathError, StoreError, UndoError
from palace.memory import MemoryStore
from palace.memory import files as files_module
from palace.memory.document import Document
from palace.memory.races import rebase

TODAY = date(2026, 11, 30)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "palace"


@pytest.fixture
def store(home: Path) -> MemoryStore:
    return MemoryStore(home, today=lambda: TODAY)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def put(store: MemoryStore, text: str) -> None:
    store.home.mkdir(mode=0o700, parents=True, exist_ok=True)
    store.file.write_text(text)


# ---------------------------------------------------------------------- modes
def test_palace_folder_is_0700_and_files_0600(store: MemoryStore, home: Path) -> None:
    old = os.umask(0o022)
    try:
        store.save("Preferences/editors", "Helix")
    finally:
        os.umask(old)
    assert mode(home) == 0o700
    assert mode(store.file) == 0o600
    assert mode(home / ".lock") == 0o600


def test_a_loose_folder_is_tightened_and_a_loose_file_replaced_by_a_0600_one(store: MemoryStore, home: Path) -> None:
    home.mkdir(mode=0o755)
    home.chmod(0o755)
    store.file.write_text("## Preferences\n")
    store.file.chmod(0o644)
    store.save("Preferences/editors", "Helix")
    assert mode(home) == 0o700
    assert mode(store.file) == 0o600


# ---------------------------------------------------------------------- the write path
def test_store_never_writes_from_a_stale_copy(store: MemoryStore) -> None:
    store.save("Preferences/editors", "Helix")
    assert "Helix" in store.render().text  # the store now holds a cached parse
    with store.file.open("a") as handle:
        handle.write("\nA hand-written note.\n")
    store.save("Preferences/editors", "Zed")
    text = store.file.read_text()
    assert "A hand-written note.\n" in text
    assert "- [2026-11-30] Zed" in text


class EditorStrikes:
    """A `today` for the store that, the first times it is asked (while palace holds the text it read and
    is computing its edit), lets an editor that ignores the palace lock save the file."""

    def __init__(self, file: Path, style: str, times: int = 1) -> None:
        self.file, self.style, self.times, self.calls = file, style, times, 0

    def __call__(self) -> date:
        self.calls += 1
        if self.calls <= self.times:
            hand_edit(self.file, self.style, f"Hand edit {self.calls} made while palace was writing.")
        return TODAY


def hand_edit(file: Path, style: str, line: str) -> None:
    if style == "append":  # in place, O_APPEND
        with file.open("a") as handle:
            handle.write(f"\n{line}\n")
    elif style == "truncate":  # in place: truncate, then write everything (many editors)
        data = file.read_bytes()
        with file.open("r+b") as handle:
            handle.truncate(0)
            handle.write(data + f"\n{line}\n".encode())
    else:  # write a temp file and rename it over the original (vim, sed -i, most IDEs)
        tmp = file.with_name(".editor-tmp")
        tmp.write_bytes(file.read_bytes() + f"\n{line}\n".encode())
        os.replace(tmp, file)


@pytest.fixture(params=["exchange", "check-then-rename"])
def swap(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways of putting the new file in place: Linux's atomic exchange, and the portable fallback."""
    if request.param == "check-then-rename":
        monkeypatch.setattr(files_module, "_renameat2", lambda: None)
    elif files_module._renameat2() is None:
        pytest.skip("no renameat2 here")
    return str(request.param)


@pytest.mark.parametrize("style", ["append", "truncate", "rename"])
def test_an_editor_saving_while_palace_writes_loses_nothing(home: Path, style: str, swap: str) -> None:
    MemoryStore(home, today=lambda: TODAY).save("Preferences/editors", "Helix")
    editor = EditorStrikes(home / "memories.md", style)
    store = MemoryStore(home, today=editor)
    assert store.save("Preferences/editors", "Zed").action == "saved"
    assert editor.calls == 2  # the edit was made twice: on the text read, then on the editor's
    text = store.file.read_text()
    assert "Hand edit 1 made while palace was writing.\n" in text
    assert "- [2026-11-30] Helix\n- [2026-11-30] Zed\n" in text
    assert sorted(os.listdir(home)) == [".lock", "memories.md"]


def test_an_editor_saving_between_the_last_look_and_the_swap_is_put_back(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if files_module._renameat2() is None:
        pytest.skip("no renameat2 here: the fallback has this microsecond window (see the docstring)")
    store = MemoryStore(home, today=lambda: TODAY)
    store.save("Preferences/editors", "Helix")
    real = files_module._stamp_or_none  # the look: the file's stamp, compared with the one read
    looks: list[files_module.Stamp | None] = []

    def editor_saves_right_after_the_look(file: Path) -> files_module.Stamp | None:
        seen = real(file)
        if not looks:  # the editor renames its file in place just after palace looked
            hand_edit(file, "rename", "Hand edit made in the last microsecond.")
        looks.append(seen)
        return seen

    monkeypatch.setattr(files_module, "_stamp_or_none", editor_saves_right_after_the_look)
    assert store.save("Preferences/editors", "Zed").action == "saved"
    text = store.file.read_text()
    assert "Hand edit made in the last microsecond.\n" in text  # swapped out, seen, put back, redone
    assert "- [2026-11-30] Zed" in text
    assert len(looks) == 2
    assert sorted(os.listdir(home)) == [".lock", "memories.md"]


def _descriptors_on(folder: Path) -> list[str]:
    """What this process's open descriptors point at inside folder (Linux: /proc/self/fd)."""
    found = []
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):
            target = os.readlink(f"/proc/self/fd/{fd}")
            if target.startswith(str(folder)):
                found.append(target)
    return found


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="descriptors are counted through /proc")
@pytest.mark.parametrize("style", ["append", "rename"])
def test_a_save_redone_on_an_editors_text_leaves_no_descriptor_open(home: Path, style: str) -> None:
    MemoryStore(home, today=lambda: TODAY).save("Preferences/editors", "Helix")
    editor = EditorStrikes(home / "memories.md", style, times=2)
    store = MemoryStore(home, today=editor)
    for content in ("Zed", "Kakoune"):
        assert store.save("Preferences/editors", content).action == "saved"
    assert editor.calls >= 3  # redone on the editor's text
    # Descriptors are closed in the background (freeing a replaced file's blocks is not a save's to wait
    # for): wait until they are, with a deadline long enough for a loaded machine.
    deadline = time.monotonic() + 60
    while _descriptors_on(home) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _descriptors_on(home) == []


@pytest.mark.parametrize("style", ["append", "truncate", "rename"])
def test_a_file_changed_before_the_swap_is_never_replaced_even_briefly(
    home: Path, monkeypatch: pytest.MonkeyPatch, style: str
) -> None:
    # The first look compares the file's stamp with the one taken as it was read: an editor's save since
    # (in place or renamed over it) is seen there, before anything is exchanged.
    exchange = files_module._renameat2()
    if exchange is None:
        pytest.skip("no renameat2 here")
    store = MemoryStore(home, today=lambda: TODAY)
    store.save("Preferences/editors", "Helix")
    exchanged: list[str] = []

    def counted(src: str, dst: str, flags: int) -> bool:
        exchanged.append(Path(dst).read_text())  # what is about to be swapped out
        return exchange(src, dst, flags)

    real_copy = files_module.temp_copy
    edits: list[int] = []

    def editor_saves_while_palace_writes(file: Path, data: bytes, mode: int = 0o600) -> str:
        if not edits:
            edits.append(1)
            hand_edit(store.file, style, "Hand edit made while palace wrote its copy.")
        return real_copy(file, data, mode)

    monkeypatch.setattr(files_module, "_renameat2", lambda: counted)
    monkeypatch.setattr(files_module, "temp_copy", editor_saves_while_palace_writes)
    assert store.save("Preferences/editors", "Zed").action == "saved"
    text = store.file.read_text()
    assert "Hand edit made while palace wrote its copy.\n" in text and "- [2026-11-30] Zed\n" in text
    assert len(exchanged) == 1 and "Hand edit made while palace wrote its copy." in exchanged[0]


def _editor_races_the_put_back(
    home: Path, monkeypatch: pytest.MonkeyPatch, after_exchange: Callable[[int, Path], None]
) -> MemoryStore:
    """A store whose next save meets an editor: it saves "First hand line." just after palace's last look,
    so palace's exchange swaps the editor's file out and puts it back; after_exchange(n, file) runs after
    the n-th exchange (0: palace's file has just gone in, for an instant)."""
    exchange = files_module._renameat2()
    if exchange is None:
        pytest.skip("no renameat2 here")
    store = MemoryStore(home, today=lambda: TODAY)
    store.save("Preferences/editors", "Helix")
    real_look = files_module._stamp_or_none
    looks: list[bool] = []
    exchanges: list[bool] = []

    def editor_saves_after_the_look(file: Path) -> files_module.Stamp | None:
        stamp = real_look(file)
        if not looks:
            looks.append(True)
            hand_edit(file, "rename", "First hand line.")
        return stamp

    def exchange_then(src: str, dst: str, flags: int) -> bool:
        done = exchange(src, dst, flags)
        exchanges.append(done)
        after_exchange(len(exchanges) - 1, Path(dst))
        return done

    monkeypatch.setattr(files_module, "_stamp_or_none", editor_saves_after_the_look)
    monkeypatch.setattr(files_module, "_renameat2", lambda: exchange_then)
    return store


def test_an_editor_saving_over_palace_in_the_instant_before_it_puts_a_file_back_loses_nothing(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Palace exchanged its file in, found the file it replaced changed after its last look, and puts that
    # back; in between, the editor read palace's file and saved over it. Both hand edits must survive.
    saved_over: list[int] = []

    def editor_saves_again(n: int, file: Path) -> None:
        if n == 0:  # palace's file is in place for an instant: the editor reads it, saves over it
            saved_over.append(n)
            hand_edit(file, "rename", "Second hand line.")

    store = _editor_races_the_put_back(home, monkeypatch, editor_saves_again)
    assert store.save("Preferences/editors", "Zed").action == "saved"
    assert saved_over == [0]
    text = store.file.read_text()
    assert "First hand line.\n" in text and "Second hand line.\n" in text
    assert text.count("- [2026-11-30] Zed\n") == 1 and "- [2026-11-30] Helix\n" in text
    assert sorted(os.listdir(home)) == [".lock", "memories.md"]


def test_an_editor_that_read_palace_file_in_that_instant_and_saves_later_loses_nothing(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As above, but the editor saves what it read (palace's file, without the first hand line) only after
    # palace put the editor's file back: palace finds that save when it reads the file again.
    seen_by_editor: list[bytes] = []

    def editor_reads_then_saves_late(n: int, file: Path) -> None:
        if n == 0:  # palace's file is in place for an instant: the editor reads it
            seen_by_editor.append(file.read_bytes())
        elif n == 1:  # palace put the editor's file back: the editor saves what it read
            temp = file.with_name(".editor-late")
            temp.write_bytes(seen_by_editor[0] + b"\nSecond hand line.\n")
            os.replace(temp, file)

    store = _editor_races_the_put_back(home, monkeypatch, editor_reads_then_saves_late)
    store.save("Preferences/editors", "Zed")
    assert len(seen_by_editor) == 1 and b"First hand line." not in seen_by_editor[0]
    text = store.file.read_text()
    assert "First hand line.\n" in text and "Second hand line.\n" in text
    assert text.count("- [2026-11-30] Zed\n") == 1 and "- [2026-11-30] Helix\n" in text


def test_an_in_place_write_into_the_replaced_file_is_redone(
    home: Path, monkeypatch: pytest.MonkeyPatch, swap: str
) -> None:
    store = MemoryStore(home, today=lambda: TODAY)
    store.save("Preferences/editors", "Helix")
    editor = os.open(store.file, os.O_WRONLY | os.O_APPEND)  # opened before palace replaces the file
    real = files_module.fsync_dir
    writes: list[int] = []

    def late_write(folder: Path) -> None:
        real(folder)
        if not writes:  # lands in the old file, after palace swapped in its new one
            writes.append(os.write(editor, b"\nA late hand edit.\n"))

    monkeypatch.setattr(files_module, "fsync_dir", late_write)
    try:
        store.save("Preferences/editors", "Zed")
    finally:
        os.close(editor)
    text = store.file.read_text()
    assert writes and "A late hand edit.\n" in text
    assert "- [2026-11-30] Zed" in text


def test_a_failing_redo_gives_the_editor_its_text_back(home: Path, monkeypatch: pytest.MonkeyPatch, swap: str) -> None:
    store = MemoryStore(home, today=lambda: TODAY)
    store.save("Preferences/editors", "Helix")
    store.save("Preferences/editors", "Zed")
    edited = store.file.read_bytes().replace(b"- [2026-11-30] Zed\n", b"A hand note instead of Zed.\n")
    editor = os.open(store.file, os.O_WRONLY)  # an editor with the file open, writing in place
    real = files_module.fsync_dir

    def editor_removes_zed(folder: Path) -> None:
        real(folder)
        os.ftruncate(editor, 0)
        os.pwrite(editor, edited, 0)  # lands in the file palace just replaced

    monkeypatch.setattr(files_module, "fsync_dir", editor_removes_zed)
    try:
        with pytest.raises(EntryNotFoundError):
            store.forget("Preferences/editors", "Zed")  # redone on the editor's text, where Zed is gone
    finally:
        os.close(editor)
    assert store.file.read_bytes() == edited


def test_a_file_that_never_stops_changing_is_not_written(
    home: Path, swap: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from palace.memory import races

    monkeypatch.setattr(races, "RETRY_SECONDS", 0.5)  # the give-up is the same after half a second as after five
    MemoryStore(home, today=lambda: TODAY).save("Preferences/editors", "Helix")
    editor = EditorStrikes(home / "memories.md", "rename", times=1000)
    store = MemoryStore(home, today=editor)
    with pytest.raises(StoreError, match="keeps changing"):
        store.save("Preferences/editors", "Zed")
    text = store.file.read_text()
    assert "Zed" not in text
    assert f"Hand edit {editor.calls} made" in text
    assert sorted(os.listdir(home)) == [".lock", "memories.md"]


@pytest.mark.parametrize(
    ("before", "after", "onto", "result"),
    [
        # an appended line goes at the end of the newer text
        (b"a\nb\n", b"a\nb\nhand\n", b"a\nb\nours\n", b"a\nb\nours\nhand\n"),
        # a line inserted after `a` goes after `a`
        (b"a\nb\n", b"a\nhand\nb\n", b"a\nours\nb\n", b"a\nhand\nours\nb\n"),
        # already there (the editor saved again since): not added twice
        (b"a\n", b"a\nhand\n", b"a\nhand\nours\n", b"a\nhand\nours\n"),
        # a changed line is changed where it is found
        (b"a\nold\nb\n", b"a\nnew\nb\n", b"ours\na\nold\nb\n", b"ours\na\nnew\nb\n"),
        # a removed line that is not found any more: nothing to do
        (b"a\nold\n", b"a\n", b"a\nours\n", b"a\nours\n"),
        # no final newline on the text it goes onto
        (b"a\n", b"a\nhand\n", b"a\nours", b"a\nours\nhand\n"),
    ],
)
def test_rebase_keeps_an_editors_change(before: bytes, after: bytes, onto: bytes, result: bytes) -> None:
    assert rebase(before, after, onto) == result


def test_no_temp_files_are_left_behind(store: MemoryStore, home: Path) -> None:
    for n in range(20):
        store.save("Preferences/editors", f"Editor number {n}")
    store.forget("Preferences/editors", "Editor number 3")
    with pytest.raises(ContentError):
        store.save("Preferences/editors", "")
    assert sorted(os.listdir(home)) == [".lock", "memories.md", "superseded.md"]  # the forgotten entry is kept there


def test_write_failure_is_a_store_error_and_keeps_the_file(store: MemoryStore, home: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root ignores directory permissions")
    store.save("Preferences/editors", "Helix")
    before = store.file.read_bytes()
    home.chmod(0o500)
    try:
        with pytest.raises(StoreError, match="cannot write"):
            store.save("Preferences/editors", "Zed")
    finally:
        home.chmod(0o700)
    assert store.file.read_bytes() == before


class RecordingHook:
    def __init__(self) -> None:
        self.events: list[tuple[str, object, ...]] = []

    def before_write(self, file: Path) -> None:
        self.events.append(("before", file.name))

    def after_write(self, file: Path, before: bytes, after: bytes, message: str, change: object = None) -> None:
        assert file.read_bytes() == after  # called once the new bytes are in place
        self.events.append(("after", before, after, message))


def test_hooks_see_every_write_with_its_bytes_and_message(home: Path) -> None:
    hook = RecordingHook()
    store = MemoryStore(home, hooks=[hook], today=lambda: TODAY)
    store.save("Preferences/editors", "Helix")
    first = store.file.read_bytes()
    store.save("Preferences/editors", "Zed")
    store.forget("Preferences/editors", "Helix")
    assert [e[0] for e in hook.events] == ["before", "after"] * 3
    assert hook.events[1] == ("after", b"", first, "memory: save Preferences/editors")
    assert hook.events[3][1] == first
    assert hook.events[5][3] == "memory: forget Preferences/editors"


def test_hooks_are_not_told_about_writes_that_did_not_happen(home: Path) -> None:
    hook = RecordingHook()
    store = MemoryStore(home, hooks=[hook], today=lambda: TODAY)
    store.save("Preferences/editors", "Helix")
    hook.events.clear()
    store.save("Preferences/editors", "helix")  # already today: nothing written
    with pytest.raises(ContentError):
        store.save("Preferences/editors", "")
    with pytest.raises(MemoryPathError):
        store.save("Prefernces/editors", "Zed")
    assert not [e for e in hook.events if e[0] == "after"]


def test_save_many_is_one_write_and_reports_each_item(home: Path) -> None:
    hook = RecordingHook()
    store = MemoryStore(home, hooks=[hook], today=lambda: TODAY)
    store.save("Preferences/editors", "Helix")
    hook.events.clear()
    results = store.save_many(
        [
            ("Preferences/editors", "helix"),
            ("Decisions/db", "Postgres"),
            ("Prefernces/x", "typo hall"),
            ("ifai/Decisions/db", "SQLite"),
            ("Decisions/db", "password=hunter2"),
            ("Decisions/db", "Postgres"),
        ],
        message="memory: extract session a1b2c3d4",
    )
    kinds = [r.action if not isinstance(r, Exception) else type(r).__name__ for r in results]
    assert kinds == ["unchanged", "saved", "MemoryPathError", "saved", "SecretError", "unchanged"]
    assert [e[0] for e in hook.events] == ["before", "after"]
    assert hook.events[1][3] == "memory: extract session a1b2c3d4"
    text = store.file.read_text()
    assert "- [2026-11-30] Postgres" in text and "- [2026-11-30] SQLite" in text
    assert "hunter2" not in text


def test_save_many_with_nothing_to_do_writes_nothing(store: MemoryStore) -> None:
    store.save("Preferences/editors", "Helix")
    mtime = store.file.stat().st_mtime_ns
    results = store.save_many([("Preferences/editors", "Helix"), ("Nope/x", "y")], message="m")
    assert len(results) == 2
    assert store.file.stat().st_mtime_ns == mtime


def test_restore_undoes_a_change_when_the_file_did_not_change_since(home: Path) -> None:
    hook = RecordingHook()
    store = MemoryStore(home, hooks=[hook], today=lambda: TODAY)
    store.save("Preferences/editors", "Helix")
    store.save("Preferences/editors", "Zed")
    _, before, after, _ = hook.events[-1]
    store.restore(after, before, message="memory: undo")  # type: ignore[arg-type]
    assert store.file.read_bytes() == before
    assert hook.events[-1][3] == "memory: undo"


def test_restore_refuses_when_the_file_changed_since(store: MemoryStore) -> None:
    store.save("Preferences/editors", "Helix")
    before = store.file.read_bytes()
    store.save("Preferences/editors", "Zed")
    after = store.file.read_bytes()
    with store.file.open("a") as handle:
        handle.write("hand edit\n")
    edited = store.file.read_bytes()
    with pytest.raises(UndoError, match="changed since"):
        store.restore(after, before, message="memory: undo")
    assert store.file.read_bytes() == edited


# ---------------------------------------------------------------------- render
PALACE = """\
# Memories

## Preferences

### editors
- [2026-11-01] Helix

## ifai

### Decisions

#### architecture
- [2026-11-02] Event-driven sync engine

## alice

### Preferences

#### food
- [2026-11-03] Likes ramen

## Decisions

### db
- [2026-11-04] Postgres by default
"""


def test_render_shows_wingless_halls_and_the_wing_verbatim_and_names_the_others(store: MemoryStore) -> None:
    put(store, PALACE)
    rendered = store.render("ifai")
    assert (
        rendered.text
        == """\
# Memories

## Preferences

### editors
- [2026-11-01] Helix

## ifai

### Decisions

#### architecture
- [2026-11-02] Event-driven sync engine

## Decisions

### db
- [2026-11-04] Postgres by default

(Other wings, not shown: alice.)"""
    )
    assert rendered.other_wings == ["alice"]
    assert rendered.left_out == 0
    assert rendered.warning is None


def test_render_without_a_wing_names_every_wing(store: MemoryStore) -> None:
    put(store, PALACE)
    rendered = store.render(None)
    assert "Event-driven" not in rendered.text and "ramen" not in rendered.text
    assert rendered.text.endswith("(Other wings, not shown: ifai, alice.)")
    assert "- [2026-11-04] Postgres by default" in rendered.text


def test_render_wing_is_case_insensitive(store: MemoryStore) -> None:
    put(store, PALACE)
    assert "Likes ramen" in store.render("ALICE").text


def test_render_over_budget_leaves_out_the_oldest_entries_whole(store: MemoryStore) -> None:
    lines = ["## Preferences", "", "### misc", "- An undated hand-written entry that counts as oldest"]
    for day in range(1, 29):
        lines.append(f"- [2026-10-{day:02d}] Entry written on day {day:02d} with some padding text")
    put(store, "\n".join(lines) + "\n")
    full = store.render(None, budget_bytes=100_000)
    assert full.left_out == 0
    rendered = store.render(None, budget_bytes=1024)
    assert rendered.size <= 1024
    assert rendered.left_out > 0
    assert "undated hand-written" not in rendered.text
    note = rendered.text.splitlines()[-1]
    assert note.startswith(f"({rendered.left_out} entries left out to fit the 1024-byte memory budget, the least used")
    assert note.endswith("; MemoryRecall finds them.)")
    kept = [line for line in rendered.text.splitlines() if line.startswith("- [")]
    assert len(kept) == 29 - rendered.left_out
    # exactly the newest entries survive, each whole
    assert kept == [line for line in lines if line.startswith("- [")][-len(kept) :]
    assert rendered.text.startswith("## Preferences\n\n### misc\n")


def test_render_of_non_utf8_bytes_is_valid_text(store: MemoryStore) -> None:
    store.home.mkdir(mode=0o700)
    store.file.write_bytes(b"\xef\xbb\xbf## Preferences\r\n\r\n### x\r\n- [2026-11-01] caf\xe9\r\n")
    text = store.render().text
    text.encode("utf-8")  # no lone surrogates
    assert text == "## Preferences\n\n### x\n- [2026-11-01] caf\ufffd"


def test_render_of_a_missing_file_is_empty_with_a_warning(store: MemoryStore) -> None:
    rendered = store.render("ifai")
    assert rendered.text == ""
    assert rendered.warning and "does not exist" in rendered.warning


def test_render_of_an_empty_file_is_empty_with_a_warning(store: MemoryStore) -> None:
    put(store, "")
    rendered = store.render()
    assert rendered.text == ""
    assert rendered.warning and "empty" in rendered.warning
    put(store, "\n\n  \n")
    assert store.render().warning


def test_render_of_an_unreadable_file_is_empty_with_a_warning(store: MemoryStore) -> None:
    if os.geteuid() == 0:
        pytest.skip("root can read a chmod 000 file")
    put(store, PALACE)
    store.file.chmod(0o000)
    try:
        rendered = store.render()
    finally:
        store.file.chmod(0o600)
    assert rendered.text == ""
    assert rendered.warning and "could not be read" in rendered.warning


def test_render_of_a_memories_path_that_is_a_folder_is_empty_with_a_warning(store: MemoryStore) -> None:
    store.file.mkdir(parents=True)
    rendered = store.render()
    assert rendered.text == ""
    assert rendered.warning and "could not be read" in rendered.warning


def test_render_of_an_unchanged_file_is_not_parsed_again(store: MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    put(store, PALACE)
    parses: list[int] = []
    real = Document.parse.__func__  # type: ignore[attr-defined]

    def counting(cls: type[Document], data: bytes) -> Document:
        parses.append(len(data))
        return real(cls, data)  # type: ignore[no-any-return]

    monkeypatch.setattr(Document, "parse", classmethod(counting))
    first = store.render("ifai")
    assert len(parses) == 1
    for _ in range(5):
        assert store.render("ifai") is first
    assert len(parses) == 1
    # a hand edit (new size, new mtime) is noticed at the next render
    with store.file.open("a") as handle:
        handle.write("\n## Workflow Patterns\n\n### reviews\n- [2026-11-05] Small PRs\n")
    second = store.render("ifai")
    assert "Small PRs" in second.text
    assert len(parses) == 2


def test_render_after_a_save_shows_the_save(store: MemoryStore) -> None:
    put(store, PALACE)
    assert "Zed" not in store.render().text
    store.save("Preferences/editors", "Zed")
    assert "- [2026-11-30] Zed" in store.render().text
    store.forget("Preferences/editors", "Zed")
    assert "Zed" not in store.render().text


def test_render_after_an_in_place_rewrite_of_the_same_size(store: MemoryStore) -> None:
    put(store, PALACE)
    assert "Helix" in store.render().text
    data = store.file.read_bytes().replace(b"Helix", b"Emacs")
    stat_before = store.file.stat()
    with store.file.open("r+b") as handle:  # same inode, same size
        handle.write(data)
    os.utime(store.file, ns=(stat_before.st_atime_ns, stat_before.st_mtime_ns + 1_000_000))
    assert "Emacs" in store.render().text


def test_a_fact_just_saved_and_refreshed_by_another_machine_is_not_saved_again(store: MemoryStore) -> None:
    # A sync brings in the laptop's refresh of a fact this machine saved a moment ago: the line changed (its
    # date), it was not dropped by an editor's stale copy, so the next save must not put the old line back.
    store.save("Preferences/editors", "Uses helix")
    data = store.read_bytes()
    store.file.write_bytes(data.replace(b"[2026-11-30] Uses helix", b"[2026-12-04] Uses helix"))
    store.save("Preferences/shells", "Uses fish")
    text = store.file.read_text()
    assert text.count("Uses helix") == 1 and "[2026-12-04] Uses helix" in text
