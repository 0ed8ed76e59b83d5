"""Every consumer of memories.md (lint, render, recall, history, completion, save) reads it as document.py does.

The same tricky files go to each: entries inside an HTML comment (the starter file's kind), halls and entries
inside a code fence, CRLF with a BOM, undated `*`/`+` bullets, a byte that is not UTF-8. What document.py
calls an entry is an entry everywhere; what it calls the user's text (a comment, a fence) is nowhere an entry.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from palace.app import init_palace
from palace.history.autocommit import GitHistory
from palace.history.log import history_log
from palace.memory.document import Document
from palace.memory.lint import lint_document
from palace.memory.render import render_document
from palace.memory.store import MemoryStore
from palace.recall.index import RecallIndex
from palace.ui.completion import memory_paths

# Each file: (bytes, words only the real entries hold, words only text that is not an entry holds)
TRICKY: dict[str, tuple[bytes, list[str], list[str]]] = {
    "comment": (
        b"# Memories\n\n<!--\n## Preferences\n\n### programming-languages\n"
        b"- [2026-11-30] The user writes backends in Zanzibarlang\n-->\n\n"
        b"## Preferences\n\n### editors\n- [2026-11-01] The user edits with Quixoticvim\n",
        ["quixoticvim"],
        ["zanzibarlang"],
    ),
    "fence": (
        b"## Decisions\n\n### database\n- [2026-10-02] Postgres chosen over Marmalade\n\n"
        b"```markdown\n## Preferences\n\n### shells\n- [2026-10-03] The user uses Wobblesh\n```\n",
        ["marmalade"],
        ["wobblesh"],
    ),
    "crlf-bom": (
        b"\xef\xbb\xbf# Memories\r\n\r\n## ifai\r\n\r\n### Project Knowledge\r\n\r\n#### stack\r\n"
        b"- [2026-09-09] The front end is Vue in Tauri with Kumquatcss\r\n",
        ["kumquatcss"],
        [],
    ),
    "undated": (
        b"## Workflow Patterns\n\n### testing\n* The user runs Pineapplest before pushing\n"
        b"+ Mutation testing with Dragonfruitmut monthly\n\nA note about Lycheeword, not an entry.\n",
        ["pineapplest", "dragonfruitmut"],
        ["lycheeword"],
    ),
    "not-utf8": (
        b"## Preferences\n\n### naming\n- [2026-08-08] Files are named caf\xe9 Gooseberryname style\n",
        ["gooseberryname"],
        [],
    ),
}


def _entries(data: bytes) -> set[tuple[str, str]]:
    """What document.py calls entries: (path, content) of every list item in a room."""
    return {(str(e.path), e.content) for e in Document.parse(data).entries if e.path is not None}


def _palace(tmp_path: Path, data: bytes) -> tuple[Path, MemoryStore]:
    home = tmp_path / "palace"
    home.mkdir(mode=0o700)
    (home / "memories.md").write_bytes(data)
    return home, MemoryStore(home)


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_lint_render_and_completion_see_the_entries_document_sees(name: str, tmp_path: Path) -> None:
    data, _real, _not_entries = TRICKY[name]
    expected = _entries(data)
    assert expected, "each tricky file has real entries"
    doc = Document.parse(data)
    assert lint_document(doc).entries == len(expected)
    assert render_document(doc, "ifai", 8192).total_entries == len(expected)
    _home, store = _palace(tmp_path, data)
    paths = {p for p in memory_paths(store) if not p.endswith("/")}
    assert paths == {path for path, _ in expected}


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_recall_indexes_exactly_the_entries(name: str, tmp_path: Path) -> None:
    data, real, not_entries = TRICKY[name]
    expected = _entries(data)
    home, _store = _palace(tmp_path, data)
    with RecallIndex(home) as index:
        for word in real:
            hits = [h for h in index.search(word) if h.where.startswith("memory ")]
            assert len(hits) == 1, word
            path = hits[0].where.removeprefix("memory ")
            assert any(p == path and word in content.lower() for p, content in expected)
        for word in not_entries:
            assert [h for h in index.search(word) if h.where.startswith("memory ")] == [], word


def test_recall_never_finds_the_starter_comment(tmp_path: Path) -> None:
    """The bug this issue found: a line inside the starter file's comment came back as a memory."""
    home = tmp_path / "palace"
    init_palace(home, git=False)
    with RecallIndex(home) as index:
        assert [h for h in index.search("rust backends") if h.where.startswith("memory ")] == []


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_history_log_lists_exactly_the_entries(name: str, tmp_path: Path) -> None:
    data, _real, not_entries = TRICKY[name]
    expected = _entries(data)
    home = tmp_path / "palace"
    init_palace(home, git=True)
    (home / "memories.md").write_bytes(data)
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    subprocess.run(["git", "commit", "-qam", "my notes"], cwd=home, check=True, env={**env, "PATH": "/usr/bin:/bin"})
    log = history_log(home)
    added = {line.strip()[2:] for line in log.splitlines() if line.strip().startswith("+ ")}
    assert added >= {f"{path}: {content}" for path, content in expected}
    newest = log.split("\n\n", 2)[1]  # the first commit shown: the hand-written file
    shown = {line.strip()[2:] for line in newest.splitlines() if line.strip().startswith("+ ")}
    assert shown == {f"{path}: {content}" for path, content in expected}
    for word in not_entries:
        assert word not in "\n".join(shown).lower()


def test_a_save_never_treats_a_commented_line_as_an_entry(tmp_path: Path) -> None:
    data = TRICKY["comment"][0]
    home, _ = _palace(tmp_path, data)
    store = MemoryStore(home, hooks=[GitHistory(home)])
    result = store.save("Preferences/programming-languages", "The user writes backends in Zanzibarlang")
    assert result.action == "saved"  # not "refreshed": the commented line is the user's text
    after = store.read_bytes()
    assert after.startswith(data.split(b"\n\n## Preferences")[0])  # the comment is untouched
    assert ("Preferences/programming-languages", "The user writes backends in Zanzibarlang") in _entries(after)
