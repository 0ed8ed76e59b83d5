"""The change notes (palace/session_notes.py): a session palace archived is found by the next search, and the
next orphan check, from its note alone; a change nobody noted (a hand edit, a deletion, a file brought by
sync, the notes themselves gone) still makes the next look list sessions/ and see it."""

from __future__ import annotations

import json
import os
from pathlib import Path

from palace import session_notes as changes
from palace.recall import RecallIndex
from palace.sessions.catalog import find_orphans
from palace.sessions.journal import Journal
from palace.sessions.lifecycle import write_archive

OLD_NS = 1_600_000_000 * 10**9  # 2020: a folder that is no longer changing


def finished(home: Path, text: str) -> Journal:
    """A session palace ran and archived (its writers note what they changed)."""
    journal = Journal.start(home, model="m")
    journal.add_message({"role": "user", "content": text})
    journal.add_message({"role": "assistant", "content": f"noted: {text}"})
    write_archive(journal, summary=f"talked about {text}")
    journal.end()
    journal.close()
    return journal


def settle(home: Path, *, files: bool = False) -> None:
    """sessions/ last changed long ago, so that a listing of it is final (see changes.settled); with `files`,
    its files were written long ago too (none is hot)."""
    folder = home / "sessions"
    for name in os.listdir(folder) if files else ():
        if not name.startswith("."):
            os.utime(folder / name, ns=(OLD_NS, OLD_NS))
    os.utime(folder, ns=(OLD_NS, OLD_NS))


def sources(home: Path, query: str) -> set[str]:
    with RecallIndex(home) as index:
        return {hit.source for hit in index.search(query, limit=10)}


def caught_up(home: Path) -> None:
    """A search in a process of its own: it lists sessions/ (settled) and leaves its state."""
    settle(home)
    with RecallIndex(home) as index:
        assert index.refresh().full_scan
        index.search("anything")


def test_a_noted_archive_is_found_without_a_listing(palace_home: Path) -> None:
    for n in range(5):
        finished(palace_home, f"topic{n} filler")
    settle(palace_home, files=True)
    caught_up(palace_home)
    new = finished(palace_home, "zeppelin maintenance")
    with RecallIndex(palace_home) as index:
        stats = index.refresh()
        assert not stats.full_scan and stats.added == 2  # the journal and the archive, from their notes
        assert stats.unchanged == 0  # the other sessions' files were not looked at
        assert new.id in {hit.source for hit in index.search("zeppelin", limit=5)}


def test_a_hand_deleted_archive_is_seen_by_the_next_search(palace_home: Path) -> None:
    old = finished(palace_home, "walrus migration")
    caught_up(palace_home)
    finished(palace_home, "unrelated words")  # a noted change: the deletion below breaks the chain
    (palace_home / "sessions" / f"{old.id}.md").unlink()
    old.path.unlink()
    assert old.id not in sources(palace_home, "walrus")


def test_a_file_brought_by_sync_is_seen_by_the_next_search(palace_home: Path) -> None:
    finished(palace_home, "first session")
    caught_up(palace_home)
    finished(palace_home, "second session")
    header = {"type": "session", "id": "2026-11-30-0badf00d", "started": "2026-11-30T10:00:00+00:00", "model": "m"}
    said = {"type": "message", "message": {"role": "user", "content": "quokka census from the laptop"}}
    synced = palace_home / "sessions" / "2026-11-30-0badf00d.jsonl"
    synced.write_text(json.dumps(header) + "\n" + json.dumps(said) + "\n", encoding="utf-8")
    assert "2026-11-30-0badf00d" in sources(palace_home, "quokka")


def test_an_archive_edited_by_hand_is_seen_by_the_next_search(palace_home: Path) -> None:
    old = finished(palace_home, "original words")
    caught_up(palace_home)
    finished(palace_home, "another one")
    archive = palace_home / "sessions" / f"{old.id}.md"
    edited = archive.read_text(encoding="utf-8").replace("talked about original words", "talked about axolotls")
    temp = archive.with_name(".edit.tmp")  # an editor's save: a new file renamed over the old
    temp.write_text(edited, encoding="utf-8")
    os.replace(temp, archive)
    assert old.id in sources(palace_home, "axolotls")


def test_a_noted_archive_edited_later_in_place_is_seen(palace_home: Path) -> None:
    finished(palace_home, "earlier")
    caught_up(palace_home)
    new = finished(palace_home, "first draft")
    assert new.id in sources(palace_home, "draft")
    archive = palace_home / "sessions" / f"{new.id}.md"
    text = archive.read_text(encoding="utf-8").replace("first draft", "platypus")
    with archive.open("r+", encoding="utf-8") as handle:  # in place: sessions/ does not change; the file is hot
        handle.truncate()
        handle.write(text)
    assert new.id in sources(palace_home, "platypus")


def test_without_the_notes_the_next_search_lists(palace_home: Path) -> None:
    finished(palace_home, "before")
    caught_up(palace_home)
    new = finished(palace_home, "pangolin")
    changes.notes_file(palace_home).unlink()
    with RecallIndex(palace_home) as index:
        assert index.refresh().full_scan is False
        assert new.id in {hit.source for hit in index.search("pangolin", limit=5)}


def test_a_broken_chain_is_not_followed(palace_home: Path) -> None:
    finished(palace_home, "one")
    folder = palace_home / "sessions"
    mtime = changes.dir_mtime(folder)
    assert mtime is not None
    start = changes.position(palace_home, mtime)
    assert changes.follow(palace_home, start, mtime) == changes.Followed([], start)
    finished(palace_home, "two")
    now = changes.dir_mtime(folder)
    assert now is not None
    followed = changes.follow(palace_home, start, now)
    assert followed is not None and len(followed.names) == 2  # its journal and its archive
    (folder / "by-hand.txt").write_text("x", encoding="utf-8")
    after = changes.dir_mtime(folder)
    assert after is not None and changes.follow(palace_home, start, after) is None


def test_orphans_are_found_from_the_notes_and_after_unnoted_changes(palace_home: Path) -> None:
    finished(palace_home, "done")
    assert find_orphans(palace_home) == []  # lists once, and keeps the unarchived list
    settle(palace_home)
    assert find_orphans(palace_home) == []
    crashed = Journal.start(palace_home, model="m")  # noted; it dies without an archive
    crashed.add_message({"role": "user", "content": "cut off"})
    crashed.close()
    (palace_home / "sessions" / ".live" / crashed.id).unlink()  # even with its registry entry gone
    assert find_orphans(palace_home) == [crashed.path]
    settle(palace_home)
    synced = palace_home / "sessions" / "2026-11-30-0badf00d.jsonl"  # a journal sync brought, not noted
    synced.write_text(json.dumps({"type": "session", "id": synced.stem, "model": "m"}) + "\n", encoding="utf-8")
    assert find_orphans(palace_home) == sorted([crashed.path, synced])
    synced.unlink()  # and removed by hand
    assert find_orphans(palace_home) == [crashed.path]
