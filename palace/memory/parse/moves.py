"""How a document's items follow an edit: blocks, headings, sections and list spans as Shifted sequences
(moved only when read), and the section index patched rather than rebuilt."""

from __future__ import annotations

from palace.memory.parse.blocks import Block, Entry, Heading
from palace.memory.parse.sections import Section, SectionKey, move_section, section_key, section_line
from palace.memory.parse.shifted import Shifted


def patched_sections(
    index: dict[SectionKey, list[Section]], removed: list[Section], added: list[Section]
) -> dict[SectionKey, list[Section]]:
    """The section index without the removed sections (by identity) and with the added ones.

    Patched in place: the document it belonged to gives it up (copying it would cost as much as the file).
    Its lists may be held by a reader: they are replaced, never changed.
    """
    patched = index
    for section in removed:
        key = section_key(section)
        kept = [s for s in patched.get(key, ()) if s is not section]
        if kept:
            patched[key] = kept
        else:
            patched.pop(key, None)
    for section in added:
        key = section_key(section)
        patched[key] = [*patched.get(key, ()), section]
    return patched


def _move_block(block: Block, delta: int) -> Block:
    return Block(block.first + delta, block.end + delta, block.kind)


def _block_line(block: Block) -> int:
    return block.first


def _move_heading(heading: Heading, delta: int) -> Heading:
    return Heading(heading.line + delta, heading.end + delta, heading.level, heading.text)


def _heading_line(heading: Heading) -> int:
    return heading.line


def _move_span(span: tuple[int, int], delta: int) -> tuple[int, int]:
    return (span[0] + delta, span[1] + delta)


def _span_line(span: tuple[int, int]) -> int:
    return span[0]


def _move_entry(entry: Entry, delta: int) -> Entry:
    return entry._moved(delta)


def _entry_line(entry: Entry) -> int:
    return entry.start


def shifted_entries(entries: list[Entry]) -> Shifted[Entry]:
    return Shifted.of(entries, _move_entry, _entry_line)


def shifted_blocks(blocks: list[Block]) -> Shifted[Block]:
    return Shifted.of(blocks, _move_block, _block_line)


def shifted_headings(headings: list[Heading]) -> Shifted[Heading]:
    return Shifted.of(headings, _move_heading, _heading_line)


def shifted_sections(sections: list[Section]) -> Shifted[Section]:
    return Shifted.of(sections, move_section, section_line)


def shifted_spans(spans: list[tuple[int, int]]) -> Shifted[tuple[int, int]]:
    return Shifted.of(spans, _move_span, _span_line)
