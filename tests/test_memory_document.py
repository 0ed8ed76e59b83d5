"""memories.md as a document: what is structure, what is the user's, and that every byte survives an edit."""

from __future__ import annotations

from pathlib import Path

import pytest

from palace.errors import ContentError
from palace.memory import Hall, MemoryPath, MemoryStore
from palace.memory.document import Document

DAY = "2026-11-30"


def parse(text: str | bytes) -> Document:
    return Document.parse(text.encode() if isinstance(text, str) else text)


def entries(doc: Document) -> list[tuple[str | None, str]]:
    return [(str(e.path) if e.path else None, e.content) for e in doc.entries]


def store_at(tmp_path: Path, data: bytes) -> MemoryStore:
    home = tmp_path / "palace"
    home.mkdir(mode=0o700, exist_ok=True)
    (home / "memories.md").write_bytes(data)
    return MemoryStore(home, today=lambda: __import__("datetime").date(2026, 11, 30))


# ---------------------------------------------------------------------- structure
DESIGN_EXAMPLE = """\
# Memories

## Preferences

### programming-languages
- [2026-11-30] The user writes backends in Rust
- [2026-11-28] 项目使用 TypeScript 和 Rust

## Decisions

### architecture
- [2026-11-20] Event-driven architecture was chosen for the sync engine

## ifai

### Project Knowledge

#### frontend-stack
- [2026-11-29] The front end is Vue 3 inside Tauri
"""


def test_design_example_structure() -> None:
    doc = parse(DESIGN_EXAMPLE)
    assert entries(doc) == [
        ("Preferences/programming-languages", "The user writes backends in Rust"),
        ("Preferences/programming-languages", "项目使用 TypeScript 和 Rust"),
        ("Decisions/architecture", "Event-driven architecture was chosen for the sync engine"),
        ("ifai/Project Knowledge/frontend-stack", "The front end is Vue 3 inside Tauri"),
    ]
    assert [e.date for e in doc.entries] == ["2026-11-30", "2026-11-28", "2026-11-20", "2026-11-29"]
    kinds = [(s.kind, s.heading.text) for s in doc.sections]
    assert kinds == [
        ("hall", "Preferences"),
        ("room", "programming-languages"),
        ("hall", "Decisions"),
        ("room", "architecture"),
        ("wing", "ifai"),
        ("wing-hall", "Project Knowledge"),
        ("room", "frontend-stack"),
    ]
    assert doc.wings() == ["ifai"]


def test_headings_inside_code_and_html_are_not_structure() -> None:
    text = """\
## Preferences

### editors
- [2026-11-01] The user edits with Helix

```markdown
## Decisions
### fake-room
- [2026-11-02] not an entry (fenced)
```

~~~
## ifai
~~~

    ## Decisions
    - [2026-11-03] not an entry (indented code)

<div>
## Workflow Patterns
- [2026-11-04] not an entry (html)
</div>

<!--
## Project Knowledge
- [2026-11-05] not an entry (comment)
-->
"""
    doc = parse(text)
    assert entries(doc) == [("Preferences/editors", "The user edits with Helix")]
    assert [(s.kind, s.heading.text) for s in doc.sections] == [("hall", "Preferences"), ("room", "editors")]
    assert doc.wings() == []


def test_entries_in_every_bullet_style_and_undated_are_read() -> None:
    text = """\
## Preferences

### shell
- [2026-11-01] Dash bullet
* [2026-11-02] Star bullet
+ [2026-11-03] Plus bullet
- Undated hand-written item
- [not a date] Bracketed but not a date
- [2026-02-30] Impossible date
"""
    doc = parse(text)
    got = [(e.bullet, e.date, e.raw_date, e.content) for e in doc.entries]
    assert got == [
        ("-", "2026-11-01", "2026-11-01", "Dash bullet"),
        ("*", "2026-11-02", "2026-11-02", "Star bullet"),
        ("+", "2026-11-03", "2026-11-03", "Plus bullet"),
        ("-", None, None, "Undated hand-written item"),
        ("-", None, None, "[not a date] Bracketed but not a date"),
        ("-", None, "2026-02-30", "Impossible date"),
    ]
    assert all(e.path == MemoryPath(None, Hall.PREFERENCES, "shell") for e in doc.entries)


def test_multi_line_item_is_one_entry() -> None:
    text = "## Decisions\n\n### db\n- [2026-11-01] Postgres was chosen\n  because of JSONB\n- [2026-11-02] Next\n"
    doc = parse(text)
    assert entries(doc) == [("Decisions/db", "Postgres was chosen because of JSONB"), ("Decisions/db", "Next")]
    assert (doc.entries[0].start, doc.entries[0].end) == (3, 5)


def test_everything_else_is_opaque_user_text() -> None:
    text = """\
# My memory palace

Some intro paragraph.

## Preferences

A note the user wrote under the hall.

| tool | why |
|------|-----|
| Helix | modal |

### editors
- [2026-11-01] The user edits with Helix

> a quote
> - [2026-11-09] not an entry (in a quote)

1. ordered items are not entries
2. neither is this

#### the user's own sub-heading
- [2026-11-02] Still in the editors room

## Notes-for-me
- [2026-11-03] an item under a wing with no hall is not an entry
"""
    doc = parse(text)
    assert entries(doc) == [
        ("Preferences/editors", "The user edits with Helix"),
        ("Preferences/editors", "Still in the editors room"),
        (None, "an item under a wing with no hall is not an entry"),
    ]


def test_level_one_heading_is_a_title_that_closes_sections() -> None:
    text = "## Preferences\n\n### a\n- [2026-11-01] x\n\n# Another title\n\n### b\n- [2026-11-02] y\n"
    doc = parse(text)
    assert entries(doc) == [("Preferences/a", "x"), (None, "y")]


def test_setext_headings_are_headings() -> None:
    text = "Preferences\n-----------\n\n### editors\n- [2026-11-01] x\n"
    assert entries(parse(text)) == [("Preferences/editors", "x")]


def test_room_heading_text_is_normalised_to_a_slug() -> None:
    text = "## Preferences\n\n### Programming Languages\n- [2026-11-01] Rust\n\n### 编程语言\n- [2026-11-02] Go\n"
    assert entries(parse(text)) == [("Preferences/programming-languages", "Rust"), ("Preferences/编程语言", "Go")]


def test_link_reference_definition_is_not_part_of_an_entry() -> None:
    text = "## Preferences\n\n### a\n- [2026-11-01] x\n\n[docs]: https://example.com\n"
    doc = parse(text)
    assert entries(doc) == [("Preferences/a", "x")]
    assert (doc.entries[0].start, doc.entries[0].end) == (3, 4)


def test_a_quote_interrupting_a_list_does_not_scramble_the_blocks() -> None:
    # mistune, inside the list, lazily continues the quote into the empty `*` item and asks to continue "the
    # last paragraph", which is the one before the list: palace refuses, so the blocks stay in order.
    text = "Some text\n- Helix\n- Zed\n> ## Decisions\n> quoted\n*\n## Preferences\n\n### x\n- [2026-11-01] y\n"
    doc = parse(text)
    assert [kind for _, _, kind in doc.blocks] == [
        "paragraph",
        "list",
        "block_quote",
        "list",
        "heading",
        "blank_line",
        "heading",
        "list",
    ]
    assert [b[0] for b in doc.blocks] == sorted(b[0] for b in doc.blocks)
    assert entries(doc) == [(None, "Helix"), (None, "Zed"), (None, ""), ("Preferences/x", "y")]


def test_parse_never_fails() -> None:
    samples = [
        b"",
        b"\xef\xbb\xbf",
        b"\n\n\n",
        b"\r\n",
        b"\xff\xfe\x00",
        b"#",
        b"- ",
        b"```",
        b"<div>",
        b"## \r",
        b"\r",
        b"\t- x",
        b"- [2026-11-01]",
        b"\x00\x01",
        b"## ifai\n### Decisions\n#### x\n",
    ]
    for data in samples:
        doc = Document.parse(data)
        assert doc.to_bytes() == data


# ---------------------------------------------------------------------- round trip
SAMPLES = {
    "lf": b"# Memories\n\n## Preferences\n\n### editors\n- [2026-11-01] Helix\n",
    "crlf": b"# Memories\r\n\r\n## Preferences\r\n\r\n### editors\r\n- [2026-11-01] Helix\r\n",
    "bom": b"\xef\xbb\xbf# Memories\n\n## Preferences\n\n### editors\n- [2026-11-01] Helix\n",
    "no-final-newline": b"# Memories\n\n## Preferences\n\n### editors\n- [2026-11-01] Helix",
    "crlf-bom-no-final": b"\xef\xbb\xbf## Preferences\r\n\r\n### editors\r\n- [2026-11-01] Helix",
    "latin1-bytes": (
        b"# Notes caf\xe9\n\n## Preferences\n\n### editors\n- [2026-11-01] Helix\n- [2026-11-02] \xff\xfe\n\nna\xefve\n"
    ),
    "mixed-endings": b"# Memories\r\n\n## Preferences\r\n\r\n### editors\r\n- [2026-11-01] Helix\r\n",
    "lone-cr": b"# Memo\rries\n\n## Preferences\n\n### editors\n- [2026-11-01] Helix\n",
}


@pytest.mark.parametrize("name", list(SAMPLES))
def test_parse_and_serialise_is_the_identity(name: str) -> None:
    assert Document.parse(SAMPLES[name]).to_bytes() == SAMPLES[name]


def _eol(data: bytes) -> bytes:
    return b"\r\n" if data.count(b"\r\n") * 2 >= data.count(b"\n") else b"\n"


@pytest.mark.parametrize("name", list(SAMPLES))
def test_every_edit_keeps_the_encoding_endings_and_untouched_lines(tmp_path: Path, name: str) -> None:
    data = SAMPLES[name]
    store = store_at(tmp_path, data)
    eol = _eol(data)
    bom = data.startswith(b"\xef\xbb\xbf")
    final = data.endswith(b"\n")

    def check(new: bytes, added: list[bytes]) -> None:
        assert new.startswith(b"\xef\xbb\xbf") == bom
        assert new.endswith(b"\n") == final
        old_lines = data.removeprefix(b"\xef\xbb\xbf").split(b"\n")
        new_lines = new.removeprefix(b"\xef\xbb\xbf").split(b"\n")
        for line in added:
            assert line in new_lines or line + b"\r" in new_lines
        # every old line is still there, byte for byte, in order (the old last line may gain an ending)
        it = iter(new_lines)
        for old in old_lines[:-1]:
            assert any(old == candidate for candidate in it), old
        for line in added:
            assert (line + eol) in new or (not final and new.endswith(line))

    store.save("Preferences/editors", "Zed for pairing")
    after_save = store.file.read_bytes()
    check(after_save, [b"- [2026-11-30] Zed for pairing"])
    store.save("Decisions/db", "Postgres was chosen")
    check(store.file.read_bytes(), [b"## Decisions", b"### db", b"- [2026-11-30] Postgres was chosen"])
    store.forget("Decisions/db", "Postgres was chosen")
    store.forget("Preferences/editors", "Zed for pairing")
    after = store.file.read_bytes()
    # back to the original, but a hall heading palace added stays
    assert after.startswith(data.rstrip(b"\r\n")) if not final else after.startswith(data)
    assert b"Zed" not in after and b"Postgres" not in after


@pytest.mark.parametrize("name", list(SAMPLES))
def test_save_then_forget_of_a_new_room_gives_back_the_original_bytes(tmp_path: Path, name: str) -> None:
    data = SAMPLES[name]
    store = store_at(tmp_path, data)
    store.save("Preferences/terminals", "The user prefers WezTerm")
    assert store.file.read_bytes() != data
    store.forget("Preferences/terminals", "The user prefers WezTerm")
    assert store.file.read_bytes() == data


@pytest.mark.parametrize("name", list(SAMPLES))
def test_a_refresh_touches_one_line(tmp_path: Path, name: str) -> None:
    data = SAMPLES[name]
    store = store_at(tmp_path, data)
    result = store.save("Preferences/editors", "helix.")  # same entry after normalising
    assert result.action == "refreshed"
    new = store.file.read_bytes()
    assert new == data.replace(b"- [2026-11-01] Helix", b"- [2026-11-30] Helix")


def test_non_utf8_bytes_survive_in_every_line(tmp_path: Path) -> None:
    data = b"## Preferences\n\n### caf\xe9\n- [2026-11-01] na\xefve \x80\x81 bytes\n\n\xc3\x28 broken\n"
    store = store_at(tmp_path, data)
    store.save("Preferences/editors", "Helix")
    new = store.file.read_bytes()
    assert b"### caf\xe9\n- [2026-11-01] na\xefve \x80\x81 bytes\n" in new
    assert b"\xc3\x28 broken\n" in new
    doc = Document.parse(new)
    assert ("Preferences/editors", "Helix") in entries(doc)


def test_entry_with_invalid_bytes_keeps_them_and_palace_never_writes_more(tmp_path: Path) -> None:
    data = b"## Preferences\n\n### x\n- [2026-11-01] caf\xe9 au lait\n"
    store = store_at(tmp_path, data)
    doc = Document.parse(data)
    content = doc.entries[0].content  # carries the undecodable byte as a surrogate escape
    with pytest.raises(ContentError, match="broken character"):
        store.save("Preferences/x", content)  # nothing that is not UTF-8 is ever written by palace
    assert store.file.read_bytes() == data
    store.save("Preferences/x", "Tea with milk")
    assert store.file.read_bytes() == data + b"- [2026-11-30] Tea with milk\n"  # the hand-written byte stays


def test_crlf_file_gets_crlf_lines(tmp_path: Path) -> None:
    store = store_at(tmp_path, SAMPLES["crlf"])
    store.save("ifai/Decisions/architecture", "Event-driven sync engine")
    new = store.file.read_bytes()
    assert b"\n" not in new.replace(b"\r\n", b"")
    assert new.endswith(b"#### architecture\r\n- [2026-11-30] Event-driven sync engine\r\n")


def test_file_without_final_newline_keeps_it_missing(tmp_path: Path) -> None:
    store = store_at(tmp_path, SAMPLES["no-final-newline"])
    store.save("Preferences/editors", "Zed")
    new = store.file.read_bytes()
    assert new.endswith(b"- [2026-11-01] Helix\n- [2026-11-30] Zed")
    store.forget("Preferences/editors", "Zed")
    assert store.file.read_bytes() == SAMPLES["no-final-newline"]


# ---------------------------------------------------------------------- the example palace
EXAMPLE_HOME = Path(__file__).resolve().parent.parent / "sessions_example"


def test_the_example_palace_reads_as_intended() -> None:
    store = MemoryStore(EXAMPLE_HOME)
    data = store.read_bytes()
    doc = store.document()
    assert doc.to_bytes() == data
    assert [(s.kind, s.heading.text) for s in doc.sections if s.kind != "room"] == [
        ("hall", "Preferences"),
        ("hall", "Decisions"),
        ("hall", "Workflow Patterns"),
        ("wing", "ifai"),
        ("wing-hall", "Project Knowledge"),
        ("wing-hall", "Decisions"),
        ("wing-hall", "Workflow Patterns"),
    ]
    assert entries(doc) == [
        ("Preferences/programming-languages", "The user writes backends in Rust"),
        ("Preferences/programming-languages", "项目使用 TypeScript 和 Rust"),
        ("Preferences/communication-style", "用户希望回答简洁，先给代码再解释"),
        ("Preferences/communication-style", "Prefers British spelling in prose"),
        ("Preferences/编辑器", "The user edits code in Helix and notes in Obsidian"),
        ("Decisions/architecture", "Event-driven architecture was chosen for the sync engine"),
        ("Workflow Patterns/git", "Squash work-in-progress commits with an interactive rebase before pushing"),
        ("Workflow Patterns/git", "Commit messages follow Conventional Commits"),
        ("ifai/Project Knowledge/frontend-stack", "The front end is Vue 3 inside Tauri"),
        ("ifai/Project Knowledge/backend-stack", "The sync API server is built with axum, sqlx and tokio"),
        ("ifai/Project Knowledge/database", "The sync server runs on PostgreSQL 16"),
        ("ifai/Project Knowledge/ipc", "Tauri 命令返回的结构体用 serde camelCase 序列化"),
        (
            "ifai/Decisions/sync-engine",
            "Sync changes go through an outbox table woken by LISTEN/NOTIFY instead of polling",
        ),
        (
            "ifai/Decisions/sync-engine",
            "Clients replay missed outbox events by last event id, then switch to the live stream",
        ),
        ("ifai/Decisions/type-sharing", "Rust 与 TypeScript 之间的类型用 specta 生成到 src/bindings.ts，不再手写"),
        ("ifai/Workflow Patterns/testing", "Front-end unit tests run with vitest"),
        ("ifai/Workflow Patterns/testing", "Rust database code is tested with #[sqlx::test]"),
    ]
    assert [e.date for e in doc.entries].count(None) == 1  # the hand-written undated item
    assert any(e.bullet == "*" for e in doc.entries)
    # the code block's "## Decisions" is text; the table is text; both are kept in the rendered memory
    rendered = store.render("ifai")
    assert "```sql\n## Decisions\n" in rendered.text
    assert "| just | task runner         |" in rendered.text
    assert rendered.other_wings == [] and rendered.left_out == 0
    assert rendered.text == data.decode().rstrip("\n")
    elsewhere = store.render("some-other-project")
    assert "sync_outbox" not in elsewhere.text
    assert elsewhere.text.endswith("(Other wings, not shown: ifai.)")
    assert "The user writes backends in Rust" in elsewhere.text


def test_saving_into_a_copy_of_the_example_changes_only_what_it_must(tmp_path: Path) -> None:
    data = (EXAMPLE_HOME / "memories.md").read_bytes()
    store = store_at(tmp_path, data)
    store.save("ifai/Decisions/sync-engine", "Events carry a monotonically increasing id per user")
    confirmed = "rust 与 typescript 之间的类型用 specta 生成到 src/bindings.ts，不再手写。"
    store.save("ifai/Decisions/type-sharing", confirmed)
    new = store.file.read_bytes()
    last = "- [2026-11-30] Clients replay missed outbox events by last event id, then switch to the live stream\n"
    added = "- [2026-11-30] Events carry a monotonically increasing id per user\n"
    expected = data.decode().replace(last, last + added)
    expected = expected.replace("- [2026-11-28] Rust 与 TypeScript", "- [2026-11-30] Rust 与 TypeScript")
    assert new == expected.encode()


def test_a_byte_that_is_not_utf8_in_a_link_definition_parses() -> None:
    # mistune quotes a reference link's URL, which raised on the lone surrogate such a byte decodes to.
    data = b"# Memories\n\n[ref]: https://example.co\x80\n\n## Preferences\n\n### editors\n- [2026-11-30] Helix\n"
    doc = Document.parse(data)
    assert doc.to_bytes() == data
    assert [e.content for e in doc.entries] == ["Helix"]
    assert Document._parse_all(data + b"- [2026-11-30] Zed\n").entries[-1].content == "Zed"
