"""The save path's shortcuts in the parse engine give what the plain computation gives.

A splice tells the byte comparison where its edit is (`lines.note_splice`), so that the re-parse that follows
compares only around it; the bytes two texts share are found by galloping from what is known; the sections
open at a line are found by walking back over the pieces' lists. Each is checked against the obvious
computation, and a save's splice + re-parse against a whole parse of the same bytes.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_memory_property import describe, documents, findings

from palace.memory.document import Document
from palace.memory.parse import lines, shifted
from palace.memory.parse.sections import Section, _open_at, _open_later

EXAMPLES = int(os.environ.get("PALACE_PROPERTY_EXAMPLES", "300"))


def _naive_prefix(a: bytes, b: bytes) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def _naive_suffix(a: bytes, b: bytes, limit: int) -> int:
    n = 0
    while n < limit and a[len(a) - 1 - n] == b[len(b) - 1 - n]:
        n += 1
    return n


texts = st.binary(max_size=40).map(lambda b: b * 300)  # long runs, so that the galloping takes many steps


@settings(max_examples=EXAMPLES, deadline=None)
@given(a=texts, head=st.integers(0, 20_000), cut=st.integers(0, 20), inserted=st.binary(max_size=30))
def test_what_a_splice_and_its_text_share_is_what_comparing_them_finds(
    a: bytes, head: int, cut: int, inserted: bytes
) -> None:
    head = min(head, len(a))
    end = min(head + cut, len(a))
    b = a[:head] + inserted + a[end:]
    lines.note_splice(a, b, head, len(a) - end)
    prefix = lines.common_prefix(a, b)
    assert prefix == _naive_prefix(a, b)
    limit = min(len(a), len(b)) - prefix
    assert lines.common_suffix(a, b, limit) == _naive_suffix(a, b, limit)
    assert lines.common_suffix(a, b, 0) == 0
    # Without the note (another pair compared in between), the same answers.
    lines.common_prefix(b"x", b"y")
    assert lines.common_prefix(a, b) == prefix
    assert lines.common_suffix(a, b, limit) == _naive_suffix(a, b, limit)


def _naive_open_at(sections: list[Section], line: int) -> list[int]:
    count = sum(1 for s in sections if s.heading.line < line)
    found: list[int] = []
    for index in range(count - 1, -1, -1):
        if sections[index].end >= line:
            found.append(index)
        if sections[index].heading.level == 2:
            break
    return found[::-1]


@settings(max_examples=max(EXAMPLES // 3, 30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=documents(),
    edits=st.lists(
        st.tuples(
            st.integers(0, 60),
            st.sampled_from(["## ifai", "### Decisions", "#### db", "## Decisions", "- x", "", "# T"]),
        ),
        max_size=8,
    ),
    chunk=st.sampled_from([1, 2, shifted.CHUNK]),
)
@example(  # a wing's hall's room open under its hall under its wing, after closed rooms of every level
    data=b"## ifai\n### Decisions\n#### db\n#### x\n### Preferences\n#### editors\n- a\n## Decisions\n### db\n- b\n",
    edits=[(7, "#### db"), (3, "")],
    chunk=1,
)
def test_the_sections_open_at_a_line_are_those_a_walk_over_every_section_finds(
    data: bytes, edits: list[tuple[int, str]], chunk: int
) -> None:
    kept = shifted.CHUNK
    shifted.CHUNK = chunk  # small pieces: the walk back crosses many, each moved by its own delta
    try:
        doc = Document._parse_all(data)
        for at, text in edits:
            at = min(at, len(doc.lines))
            doc = doc.reparse(doc.splice(at, at, [text]))
            flat = doc.sections
            for line in range(len(doc.lines) + 2):
                assert _open_at(doc._sections, line) == _naive_open_at(flat, line)
                for first in range(max(line - 6, 0), line + 1):  # from what is open a few lines before
                    opened = _open_at(doc._sections, first)
                    assert _open_later(doc._sections, opened, first, line) == _naive_open_at(flat, line)
    finally:
        shifted.CHUNK = kept


@settings(max_examples=max(EXAMPLES // 3, 30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=documents(),
    splices=st.lists(
        st.tuples(
            st.integers(0, 80),
            st.integers(0, 3),
            st.lists(st.sampled_from(["- [2026-12-01] x é", "", "## Decisions", "### editors", "text"]), max_size=3),
        ),
        min_size=1,
        max_size=12,
    ),
)
def test_a_chain_of_spliced_saves_reads_as_parsed_afresh(
    data: bytes, splices: list[tuple[int, int, list[str]]]
) -> None:
    # As the save path does: splice new lines into the bytes (which notes where the edit is), then re-parse
    # the result from the document it came from (which then compares only around the edit).
    doc = Document._parse_all(data)
    for start, length, new_lines in splices:
        start = min(start, len(doc.lines))
        end = min(start + length, len(doc.lines))
        new = doc.splice(start, end, new_lines)
        assert new == doc._splice_lines(start, end, new_lines)
        derived = doc.reparse(new)
        fresh = Document._parse_all(new)
        assert describe(derived) == describe(fresh)
        doc = derived
    assert findings(doc) == findings(Document._parse_all(doc.to_bytes()))


@st.composite
def _endings_and_edit(draw: st.DrawFn) -> tuple[list[str], int, int, list[str]]:
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    size = draw(st.integers(0, 8))
    eols = [draw(st.sampled_from([ending, ending, ending, "\n", "\r\n"])) for _ in range(size)]
    if eols and draw(st.booleans()):
        eols[-1] = ""  # a last line without an ending
    first = draw(st.integers(0, size))
    count = draw(st.integers(0, size - first))
    region = [draw(st.sampled_from([ending, ending, "\n", "\r\n"])) for _ in range(draw(st.integers(0, 4)))]
    if region and first + count == size and draw(st.booleans()):
        region[-1] = ""  # the edit reaches the end: its last line may go without an ending
    return eols, first, count, region


@settings(max_examples=EXAMPLES * 3, deadline=None)
@given(case=_endings_and_edit())
def test_endings_counted_instead_of_listed_follow_an_edit_as_the_list_would(
    case: tuple[list[str], int, int, list[str]],
) -> None:
    eols, first, count, region = case
    expected = lines.replaced_run(eols, first, first + count, region)
    tally = lines.endings(eols)
    for given_list in (eols, None) if lines.uniform(eols, tally, len(eols)) else (eols,):
        new, new_tally = lines.derived_endings(given_list, tally, len(eols), first, count, region)
        assert new_tally == lines.endings(expected)
        if new is None:  # uniform: the list built from the count is the one an edit of the list gives
            assert lines.uniform(expected, new_tally, len(expected))
            assert lines.uniform_endings(new_tally, len(expected)) == expected
        else:
            assert new == expected


def test_a_file_with_one_ending_keeps_no_list_of_endings_across_saves() -> None:
    data = b"## Preferences\n\n### editors\n\n- [2026-11-30] Helix\n"
    doc = Document.parse(data)
    assert doc._eols is None and doc.eols == ["\n"] * 5
    doc = Document.parse(data)
    for text in ("- [2026-12-01] Vim", "- [2026-12-02] Zed"):
        doc = doc.reparse(doc.splice(len(doc.lines), len(doc.lines), [text]))
        assert doc._eols is None
    assert doc.eols == ["\n"] * 7
    unended = Document.parse(b"## Preferences\r\n- x")
    assert unended._eols is None and unended.eols == ["\r\n", ""]
    mixed = Document.parse(b"a\r\nb\n")
    assert mixed._eols == ["\r\n", "\n"]
