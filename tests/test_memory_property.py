"""Property: whatever markdown the user wrote, any sequence of saves and forgets keeps every other line.

Documents are built from the block kinds a real memories.md holds (headings that are halls, wings, rooms or
anything else; entries in every bullet style; code fences and indented code holding headings and list items;
tables; HTML; quotes; link definitions), with LF/CRLF/mixed endings, a BOM, Unicode, bytes that are not UTF-8
and an optional final newline. Each operation goes through the real MemoryStore on a real file.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from datetime import date
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from palace.errors import ContentError, EntryNotFoundError, StoreError
from palace.memory import MemoryPath, MemoryStore, parse_path
from palace.memory.document import Document
from palace.memory.halls import Hall
from palace.memory.ops import normalise
from palace.memory.parse import offsets, shifted
from palace.memory.parse.sections import section_key

# More examples for a bug hunt: PALACE_PROPERTY_EXAMPLES=5000 pytest tests/test_memory_property.py
EXAMPLES = int(os.environ.get("PALACE_PROPERTY_EXAMPLES", "300"))

HALLS = [
    "Preferences",
    "Project Knowledge",
    "Decisions",
    "Workflow Patterns",
    "project-knowledge",
    "WorkflowPatterns",
    "decisions",
]
WINGS = ["ifai", "alice", "IFAI"]
ROOMS = ["editors", "programming-languages", "Programming Languages", "编程语言", "db", "x"]
WORDS = [
    "Helix",
    "The user writes backends in Rust",
    "项目使用 TypeScript 和 Rust",
    "Postgres was chosen",
    "Small PRs",
    "café ☕ au lait",
    "Vue 3 inside Tauri",
    "uses `uv` for Python",
    "ends with a dot.",
    "mixed *emphasis* and [link](http://x)",
    "tabs\tinside",
    "Ünïcödé ελληνικά русский",
    "<b>html</b>",
]
DAYS = ["2026-11-01", "2026-11-29", "2026-11-30", "2026-02-30", "someday"]

text_line = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"), max_size=24).map(
    lambda s: s.encode()
)
raw_line = st.binary(max_size=12).filter(lambda b: b"\n" not in b and b"\r" not in b)


def lines(*items: str) -> list[bytes]:
    return [item.encode() for item in items]


heading = st.builds(
    lambda level, name: [("#" * level + " " + name).encode()],
    st.integers(1, 5),
    st.sampled_from(HALLS + WINGS + ROOMS + ["Notes", "Random heading", "Prefernces"]),
)
entry = st.builds(
    lambda bullet, day, words, indent: [
        f"{' ' * indent}{bullet} ".encode() + (f"[{day}] " if day else "").encode() + words.encode()
    ],
    st.sampled_from("-*+"),
    st.one_of(st.none(), st.sampled_from(DAYS)),
    st.sampled_from(WORDS),
    st.sampled_from([0, 0, 0, 1, 3]),
)
multi_line_entry = st.builds(lambda e, more: [*e, b"  " + more.encode()], entry, st.sampled_from(WORDS))
nested_entry = st.builds(lambda e, sub: [*e, b"  - " + sub.encode()], entry, st.sampled_from(WORDS))
inner = st.sampled_from(
    lines(
        "## Decisions",
        "### editors",
        "#### db",
        "- [2026-11-30] Helix",
        "* item",
        "text",
        "",
        "| a | b |",
        "<div>",
        "```",
    )
)
fence = st.builds(
    lambda marker, body, closed: (
        [marker + b"md"] + [line for line in body if not line.startswith(marker[:3])] + ([marker] if closed else [])
    ),
    st.sampled_from([b"```", b"~~~", b"````"]),
    st.lists(inner, max_size=4),
    st.booleans().map(lambda b: b or True),  # unclosed fences are rare: see the dedicated example below
)
unclosed_fence = st.builds(lambda body: [b"```", *body], st.lists(inner, max_size=3))
indented_code = st.builds(
    lambda body: [b"    " + line for line in body if line], st.lists(inner, min_size=1, max_size=3)
)
html = st.sampled_from(
    [
        lines("<div>", "## Preferences", "- [2026-11-30] in html", "</div>"),
        lines("<!--", "### editors", "-->"),
        lines("<details><summary>x</summary>", "", "- item", "</details>"),
        lines("<custom-tag>"),
    ]
)
table = st.sampled_from([lines("| tool | why |", "|------|-----|", "| Helix | modal |"), lines("a | b", "--|--")])
quote = st.sampled_from([lines("> ## Decisions", "> - [2026-11-30] quoted"), lines("> lazy", "continued")])
misc = st.sampled_from(
    [
        lines("1. ordered", "2. list"),
        lines("[ref]: https://example.com"),
        lines("---"),
        lines("***"),
        lines("Setext title", "------------"),
        lines("Setext title", "============"),
        lines("- [ ] todo", "- [x] done"),
        lines("-"),
        lines("-\tTabbed item"),
        lines("\t- tab-indented"),
        lines("     - five spaces"),
    ]
)
paragraph = st.lists(st.one_of(text_line, raw_line), min_size=1, max_size=2)
blank = st.just([b""])

block = st.one_of(
    heading,
    heading,
    heading,
    entry,
    entry,
    entry,
    multi_line_entry,
    nested_entry,
    fence,
    indented_code,
    html,
    table,
    quote,
    misc,
    paragraph,
    blank,
    blank,
)


@st.composite
def documents(draw: st.DrawFn) -> bytes:
    blocks = draw(st.lists(block, max_size=14))
    if draw(st.integers(0, 19)) == 0:
        blocks.append(draw(unclosed_fence))
    body = [line for chunk in blocks for line in chunk]
    style = draw(st.sampled_from(["lf", "lf", "crlf", "mixed"]))
    out: list[bytes] = []
    for line in body:
        crlf = style == "crlf" or (style == "mixed" and draw(st.booleans()))
        out.append(line + (b"\r\n" if crlf else b"\n"))
    data = b"".join(out)
    if data and not draw(st.booleans()):
        data = data[: -2 if data.endswith(b"\r\n") else -1]  # no final newline
    if draw(st.booleans()):
        data = b"\xef\xbb\xbf" + data
    return data


paths = st.builds(
    lambda wing, hall, room: "/".join(p for p in (wing, hall, room) if p),
    st.one_of(st.none(), st.sampled_from(WINGS)),
    st.sampled_from(HALLS),
    st.sampled_from(ROOMS),
)


def split(data: bytes) -> tuple[list[bytes], list[bytes]]:
    """(line contents, line endings) of a file, BOM dropped."""
    doc = Document.parse(data)
    enc = [line.encode("utf-8", "surrogateescape") for line in doc.lines]
    return enc, [eol.encode() for eol in doc.eols]


def check_kept(old: bytes, new: bytes, *, inserted: bool) -> tuple[int, list[bytes], list[bytes]]:
    """Untouched lines survive byte for byte and in order; returns (where, removed, added) of the one change."""
    assert new.startswith(b"\xef\xbb\xbf") == old.startswith(b"\xef\xbb\xbf")
    old_lines, old_eols = split(old)
    new_lines, new_eols = split(new)

    # Lines compare with their endings, but for the last line of a file (it may gain or lose one).
    def same(i: int, j: int) -> bool:
        if old_lines[i] != new_lines[j]:
            return False
        return old_eols[i] == new_eols[j] or i == len(old_lines) - 1 or j == len(new_lines) - 1

    prefix = 0
    while prefix < min(len(old_lines), len(new_lines)) and same(prefix, prefix):
        prefix += 1
    suffix = 0
    while suffix < min(len(old_lines), len(new_lines)) - prefix and same(
        len(old_lines) - 1 - suffix, len(new_lines) - 1 - suffix
    ):
        suffix += 1
    removed = old_lines[prefix : len(old_lines) - suffix]
    added = new_lines[prefix : len(new_lines) - suffix]
    final_old = not old_eols or old_eols[-1] != b""
    final_new = not new_eols or new_eols[-1] != b""
    # A missing final newline stays missing, unless the last line went (what ends the file now is an
    # untouched line with its own ending).
    last_removed = suffix == 0 and bool(removed)
    assert final_old == final_new or not new_lines or not old_lines or last_removed
    if inserted:
        assert not removed or len(removed) == 1, (removed, added)
    return prefix, removed, added


def count_in_room(doc: Document, path: MemoryPath, content: str) -> int:
    return sum(
        1
        for e in doc.entries
        if e.path is not None
        and e.path.wing_key == path.wing_key
        and e.path.hall == path.hall
        and e.path.room == path.room
        and normalise(e.content) == normalise(content)
    )


@settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(data=documents(), choices=st.data())
def test_saves_and_forgets_keep_every_untouched_line(data: bytes, choices: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "palace"
        home.mkdir(mode=0o700)
        (home / "memories.md").write_bytes(data)
        today = [date(2026, 11, 30)]
        store = MemoryStore(home, today=lambda: today[0])
        for _ in range(choices.draw(st.integers(1, 6), label="ops")):
            before = store.file.read_bytes()
            doc = Document.parse(before)
            assert doc.to_bytes() == before
            known = [e for e in doc.entries if e.path is not None]
            kind = choices.draw(st.sampled_from(["save", "save", "forget", "replace", "repeat"]), label="kind")
            today[0] = choices.draw(st.sampled_from([date(2026, 11, 29), date(2026, 11, 30)]), label="day")
            if kind in {"forget", "replace", "repeat"} and known:
                target = choices.draw(st.sampled_from(known), label="target")
                assert target.path is not None
                path, content = str(target.path), target.content
            else:
                path = choices.draw(paths, label="path")
                content = choices.draw(st.sampled_from(WORDS), label="content")
            try:
                if kind == "forget":
                    result = store.forget(path, content)
                elif kind == "replace":
                    result = store.save(path, choices.draw(st.sampled_from(WORDS), label="new"), replaces=content)
                else:
                    result = store.save(path, content)
            except (EntryNotFoundError, ContentError, StoreError):
                assert store.file.read_bytes() == before
                continue
            after = store.file.read_bytes()
            new_doc = Document.parse(after)
            assert new_doc.to_bytes() == after
            parsed = parse_path(path)
            where = result.where or parsed
            day = today[0].isoformat()
            if result.action == "unchanged" or after == before:
                assert after == before
                assert result.action in {"unchanged", "replaced"}  # replaced by the same text, same day
            elif result.action == "saved":
                _, removed, added = check_kept(before, after, inserted=True)
                assert removed == []
                assert f"- [{day}] {result.content}".encode("utf-8", "surrogateescape") in added
                assert all(not line.strip() or line.startswith(b"#") or line.startswith(b"- [") for line in added)
                assert len(added) <= 7
            elif result.action in {"refreshed", "replaced"}:
                _, removed, added = check_kept(before, after, inserted=False)
                assert len(added) == 1 and len(removed) >= 1
                assert f"[{day}]".encode() in added[0]
            else:
                _, removed, added = check_kept(before, after, inserted=False)
                assert added == []
                assert len(removed) >= 1
            if result.action in {"saved", "refreshed", "replaced", "unchanged"}:
                found = [
                    e
                    for e in new_doc.entries
                    if e.path is not None
                    and e.path.wing_key == where.wing_key
                    and e.path.hall == where.hall
                    and e.path.room == where.room
                    and normalise(e.content) == normalise(result.content)
                ]
                assert found, (result.message, after)
                assert any(e.date == day for e in found)
            if result.action == "forgotten":
                assert count_in_room(new_doc, parsed, content) == count_in_room(doc, parsed, content) - 1
            # nothing else changed its meaning: every other entry is still read the same way
            old_keys = sorted((str(e.path), e.content) for e in doc.entries if e.path is not None)
            new_keys = sorted((str(e.path), e.content) for e in new_doc.entries if e.path is not None)
            assert len(set(old_keys) ^ set(new_keys)) <= 2 or len(old_keys) != len(set(old_keys))


@settings(max_examples=max(EXAMPLES // 5, 20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=documents(), saves=st.lists(st.tuples(paths, st.sampled_from(WORDS)), min_size=1, max_size=4))
@example(data=b"## Project Knowledge\n- Helix\n- Helix\n- Helix\n### db", saves=[("Project Knowledge/db", "Helix")])
def test_save_then_forget_of_a_new_entry_restores_the_bytes(data: bytes, saves: list[tuple[str, str]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "palace"
        home.mkdir(mode=0o700)
        (home / "memories.md").write_bytes(data)
        store = MemoryStore(home, today=lambda: date(2026, 11, 30))
        for path, content in saves:
            before = store.file.read_bytes()
            try:
                result = store.save(path, content)
            except StoreError:
                assert store.file.read_bytes() == before
                continue
            if result.action != "saved":
                continue
            parsed = parse_path(path)
            doc = Document.parse(before)
            rooms = doc.room_sections(parsed)
            # DESIGN: a forget takes a room heading left with nothing under it, even one that was there
            # (empty) before the save; a room with text of its own keeps its heading.
            room_had_text = any(doc.lines[i].strip() for room in rooms for i in range(room.heading.end, room.end))
            hall_existed = bool(doc.hall_sections(parsed.wing, parsed.hall))
            saved = Document.parse(store.file.read_bytes())
            entry = next(
                e
                for e in saved.entries
                if e.path is not None
                and e.content == result.content
                and (e.path.wing_key, e.path.hall, e.path.room) == (parsed.wing_key, parsed.hall, parsed.room)
            )
            room = saved.room_of(entry)
            assert room is not None
            # When the end of the hall is an unclosed block, the new room goes first in the hall, and the
            # user's text after it then sits in the room: its heading stays when the entry goes.
            alone = all(not saved.lines[i].strip() for i in range(entry.end, room.end))
            store.forget(path, content)
            if (room_had_text or (hall_existed and not rooms)) and alone:
                assert store.file.read_bytes() == before
            elif rooms and not room_had_text and alone:  # the empty room's heading went with the entry
                after = store.file.read_bytes().splitlines()
                headings = {doc.lines[room.heading.line].encode("utf-8", "surrogateescape") for room in rooms}
                assert [line for line in before.splitlines() if line.strip() and line not in headings] == [
                    line for line in after if line.strip()
                ]


# ---------------------------------------------------------------------- incremental parse == full parse
def describe(doc: Document) -> tuple[object, ...]:
    """Everything a parse finds, in a comparable form."""
    return (
        doc.to_bytes(),
        doc.lines,
        doc.eols,
        doc.bom,
        doc.final_newline,
        doc.newline,
        doc.blocks,
        [(h.line, h.end, h.level, h.text) for h in doc.headings],
        [(s.kind, s.heading.line, s.end, s.wing, s.hall, s.room) for s in doc.sections],
        [(e.start, e.end, e.bullet, e.date, e.raw_date, e.content, e.path) for e in doc.entries],
        doc.lists,
        doc.unparsed_lists,
    )


edits = st.lists(
    st.tuples(
        st.integers(0, 60), st.integers(0, 4), st.lists(block, max_size=3), st.sampled_from([b"\n", b"\r\n", b""])
    ),
    min_size=1,
    max_size=4,
)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=documents(), changes=edits, cut=st.one_of(st.none(), st.tuples(st.integers(0, 2000), st.integers(0, 5))))
@example(  # mistune once continued the paragraph before a list from inside a quote that interrupted it
    data=b"| tool | why |\n|------|-----|\n| Helix | modal |\n- Helix\n- Helix\n> ## Decisions\n> - x\n*\n```",
    changes=[(0, 0, [], b"\n")],
    cut=None,
)
def test_reparsing_around_a_change_equals_parsing_everything(
    data: bytes, changes: list[tuple[int, int, list[list[bytes]], bytes]], cut: tuple[int, int] | None
) -> None:
    old = Document._parse_all(data)
    assert describe(old)[0] == data
    current = data
    for at, remove, chunks, eol in changes:
        body = current.split(b"\n")
        at = min(at, len(body))
        inserted = [line + (eol if eol else b"") for chunk in chunks for line in chunk]
        joined = [*(line + b"\n" for line in body[:-1]), body[-1]]
        pieces = [*joined[:at], b"\n".join(inserted) + (b"\n" if inserted else b""), *joined[at + remove :]]
        new = b"".join(pieces)
        if cut is not None and new:  # and a raw byte-level cut somewhere
            where = cut[0] % len(new)
            new = new[:where] + new[where + cut[1] :]
        derived = old._derive(new)
        cr_only = old.newline == "\r" or (b"\r" in new and b"\n" not in new)  # parsed whole: see _derive
        assert derived is not None or old.bom != new.startswith(b"\xef\xbb\xbf") or cr_only
        if derived is not None:
            assert describe(derived) == describe(Document._parse_all(new))
            old, current = derived, new


def _edited(current: bytes, at: int, remove: int, chunks: list[list[bytes]], eol: bytes) -> bytes:
    body = current.split(b"\n")
    at = min(at, len(body))
    inserted = [line + (eol if eol else b"") for chunk in chunks for line in chunk]
    joined = [*(line + b"\n" for line in body[:-1]), body[-1]]
    return b"".join([*joined[:at], b"\n".join(inserted) + (b"\n" if inserted else b""), *joined[at + remove :]])


def findings(doc: Document) -> tuple[object, ...]:
    """What the save path asks a document (rooms, halls, wings, the room of each entry, the next heading)."""
    every = [(s.kind, s.heading.line, s.end, s.wing, s.hall, s.room) for s in doc.sections]
    rooms = [MemoryPath(s.wing, s.hall, s.room) for s in doc.sections if s.kind == "room" and s.hall and s.room]
    return (
        [[(s.heading.line, s.end) for s in doc.room_sections(path)] for path in rooms],
        [[s.heading.line for s in doc.hall_sections(path.wing, path.hall)] for path in rooms],
        [[s.heading.line for s in doc.wing_sections(path.wing)] for path in rooms if path.wing],
        [(room.heading.line, room.end) if (room := doc.room_of(e)) else None for e in doc.entries],
        [(doc.next_section(line), doc.next_heading(line)) for line in range(0, len(doc.lines) + 1, 3)],
        [len(doc.sections_between(line, line + 5)) for line in range(0, len(doc.lines), 4)],
        [[(s.heading.line, s.end) for s in doc._matching(section_key(section))] for section in doc.sections],
        every,
    )


def edit_chains(most: int) -> st.SearchStrategy[list[tuple[int, int, list[list[bytes]], bytes]]]:
    """Chains of edits, each (line, lines removed, blocks inserted, their ending), as a REPL session makes."""
    edit = st.tuples(st.integers(0, 60), st.integers(0, 3), st.lists(block, max_size=2), st.sampled_from([b"\n", b""]))
    return st.lists(edit, min_size=1, max_size=most)


@settings(max_examples=max(EXAMPLES // 3, 30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=documents(),
    changes=edit_chains(40),
    most_pieces=st.sampled_from([1, 2, shifted.MAX_PIECES]),
    chunk=st.sampled_from([1, 3, shifted.CHUNK]),
)
def test_a_long_chain_of_reparses_read_only_at_its_end_equals_parsing_everything(
    data: bytes, changes: list[tuple[int, int, list[list[bytes]], bytes]], most_pieces: int, chunk: int
) -> None:
    # Each derived document shares its structure with the one before, moved lazily: reading nothing in between
    # lets the pieces pile up and be joined again (often, with a low limit), as a long REPL session's saves do;
    # with small chunks the pieces are cut, chunked and joined to their neighbours as in a big file.
    kept, kept_chunk = shifted.MAX_PIECES, shifted.CHUNK
    shifted.MAX_PIECES, shifted.CHUNK = most_pieces, chunk
    try:
        _chain(data, changes)
    finally:
        shifted.MAX_PIECES, shifted.CHUNK = kept, kept_chunk


def _chain(data: bytes, changes: list[tuple[int, int, list[list[bytes]], bytes]]) -> None:
    old = Document._parse_all(data)
    current = data
    for number, (at, remove, chunks, eol) in enumerate(changes):
        new = _edited(current, at, remove, chunks, eol)
        derived = old._derive(new)
        if derived is None:
            derived = Document._parse_all(new)
        if number % 2:  # what a save asks: its room (the index of sections is then patched, not built again)
            derived.room_sections(MemoryPath(None, Hall.PREFERENCES, "editors"))
        old, current = derived, new
    fresh = Document._parse_all(current)
    assert findings(old) == findings(fresh)
    assert describe(old) == describe(fresh)


@settings(max_examples=max(EXAMPLES // 3, 30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=documents(),
    changes=edit_chains(30),
    splices=st.lists(
        st.tuples(st.integers(0, 80), st.integers(0, 3), st.lists(st.sampled_from(["- [2026-12-01] x é", "", "## H"]))),
        min_size=1,
        max_size=3,
    ),
    depth=st.sampled_from([0, 2, 40]),
)
def test_splicing_the_bytes_of_an_edited_document_equals_joining_its_lines(
    data: bytes,
    changes: list[tuple[int, int, list[list[bytes]], bytes]],
    splices: list[tuple[int, int, list[str]]],
    depth: int,
) -> None:
    # A save splices the new lines into the file's bytes at offsets carried from document to document (not
    # computed again at each edit): after any chain of edits they must cut where joining the lines would.
    kept = offsets._MAX_DEPTH
    offsets._MAX_DEPTH = depth
    try:
        doc, current = Document._parse_all(data), data
        for number, (at, remove, chunks, eol) in enumerate(changes):
            current = _edited(current, at, remove, chunks, eol)
            doc = doc._derive(current) or Document._parse_all(current)
            if number % 3 == 0 or number == len(changes) - 1:
                for start, length, new_lines in splices:
                    start = min(start, len(doc.lines))
                    end = min(start + length, len(doc.lines))
                    assert doc.splice(start, end, new_lines) == doc._splice_lines(start, end, new_lines)
    finally:
        offsets._MAX_DEPTH = kept


def test_a_palace_edited_many_times_in_a_row_reads_as_parsed_afresh() -> None:
    # Many rooms and many edits, each derived from the last, with the pieces joined often: the index of
    # sections a save uses must follow the objects the join made.
    import random

    rng = random.Random(7)
    text = ["# Memory", ""]
    for hall in ("Preferences", "Decisions"):
        text += [f"## {hall}", ""]
        for room in range(20):
            text += [f"### room-{room}", *(f"- [2026-11-0{n + 1}] fact {room}.{n}" for n in range(3)), ""]
    text += ["## ifai", "", "### Decisions", "", "#### db", "- [2026-11-01] Postgres", ""]
    current = "\n".join(text).encode()
    old = Document._parse_all(current)
    kept, kept_chunk = shifted.MAX_PIECES, shifted.CHUNK
    shifted.MAX_PIECES, shifted.CHUNK = 1, 4  # joined often, in small chunks as in a big file
    try:
        for number in range(160):
            lines = current.split(b"\n")
            at = rng.randrange(len(lines))
            kind = rng.random()
            if kind < 0.5:
                lines.insert(at, b"- [2026-12-01] new fact %d" % number)
            elif kind < 0.65:
                lines.insert(at, b"### room-new-%d" % number)
            elif kind < 0.75:
                lines.insert(at, b"")
            else:
                del lines[at]
            current = b"\n".join(lines)
            old = old._derive(current) or Document._parse_all(current)
            old.room_sections(MemoryPath(None, Hall.PREFERENCES, "room-3"))
    finally:
        shifted.MAX_PIECES, shifted.CHUNK = kept, kept_chunk
    fresh = Document._parse_all(current)
    assert findings(old) == findings(fresh)
    assert describe(old) == describe(fresh)


@contextlib.contextmanager
def _full_parse() -> Iterator[None]:
    """PALACE_PARSE=full for the duration (the switch that turns the parse engine's speed layers off)."""
    saved = os.environ.get("PALACE_PARSE")
    os.environ["PALACE_PARSE"] = "full"
    try:
        yield
    finally:
        if saved is None:
            del os.environ["PALACE_PARSE"]
        else:
            os.environ["PALACE_PARSE"] = saved


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=documents(), changes=edit_chains(4))
def test_the_full_parse_switch_reads_every_version_as_the_speed_layers_do(
    data: bytes, changes: list[tuple[int, int, list[list[bytes]], bytes]]
) -> None:
    versions = [data]
    for at, remove, chunks, eol in changes:
        versions.append(_edited(versions[-1], at, remove, chunks, eol))
    fast = [describe(Document.parse(version)) for version in versions]  # derived from the one before
    with _full_parse():
        full = [Document.parse(version) for version in versions]
        assert all(doc.derived is None for doc in full)  # each parsed whole: nothing carried over
        assert Document.parse(data) is not full[0]  # and no cache of recent parses
    assert [describe(doc) for doc in full] == fast
