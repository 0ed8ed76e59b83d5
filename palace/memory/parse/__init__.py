"""The parse engine beneath memory/document.py: mistune's blocks, a fast path for plain text, and the
machinery that re-parses only around an edit (entries and sections carried over from the last parse).

This package is the one way in: document.py (and the few modules that compare bytes) import from here. The
speed layers can be switched off to bisect a parse bug: with `PALACE_PARSE=full` in the environment every
parse is a whole parse by mistune (no fast path, no re-parse around an edit, no cache of recent parses), and
must give the same document.
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from palace.memory.parse.blocks import Block as Block
    from palace.memory.parse.blocks import Entry as Entry
    from palace.memory.parse.blocks import Heading as Heading
    from palace.memory.parse.blocks import Scan as Scan
    from palace.memory.parse.blocks import date_mark as date_mark
    from palace.memory.parse.blocks import entry_line as entry_line
    from palace.memory.parse.blocks import scan as scan
    from palace.memory.parse.derive import derive_document as derive_document
    from palace.memory.parse.lines import BOM as BOM
    from palace.memory.parse.lines import BOM_BYTES as BOM_BYTES
    from palace.memory.parse.lines import Derived as Derived
    from palace.memory.parse.lines import at_line_start as at_line_start
    from palace.memory.parse.lines import common_prefix as common_prefix
    from palace.memory.parse.lines import common_suffix as common_suffix
    from palace.memory.parse.lines import endings as endings
    from palace.memory.parse.lines import note_splice as note_splice
    from palace.memory.parse.lines import patched_index as patched_index
    from palace.memory.parse.lines import replaced_run as replaced_run
    from palace.memory.parse.lines import split_lines as split_lines
    from palace.memory.parse.lines import uniform as uniform
    from palace.memory.parse.lines import uniform_endings as uniform_endings
    from palace.memory.parse.moves import patched_sections as patched_sections
    from palace.memory.parse.moves import shifted_blocks as shifted_blocks
    from palace.memory.parse.moves import shifted_entries as shifted_entries
    from palace.memory.parse.moves import shifted_headings as shifted_headings
    from palace.memory.parse.moves import shifted_sections as shifted_sections
    from palace.memory.parse.moves import shifted_spans as shifted_spans
    from palace.memory.parse.offsets import LineOffsets as LineOffsets
    from palace.memory.parse.recent import Recent as Recent
    from palace.memory.parse.sections import Kind as Kind
    from palace.memory.parse.sections import Section as Section
    from palace.memory.parse.sections import SectionKey as SectionKey
    from palace.memory.parse.sections import SectionSig as SectionSig
    from palace.memory.parse.sections import build_sections as build_sections
    from palace.memory.parse.sections import move_section as move_section
    from palace.memory.parse.sections import rebuild_sections as rebuild_sections
    from palace.memory.parse.sections import section_key as section_key
    from palace.memory.parse.sections import section_line as section_line
    from palace.memory.parse.shifted import Shifted as Shifted

FULL_PARSE_VARIABLE = "PALACE_PARSE"

_WHERE = {
    **dict.fromkeys(["Block", "Entry", "Heading", "Scan", "date_mark", "entry_line", "scan"], "blocks"),
    **dict.fromkeys(
        [
            "BOM",
            "BOM_BYTES",
            "Derived",
            "at_line_start",
            "common_prefix",
            "common_suffix",
            "endings",
            "note_splice",
            "patched_index",
            "replaced_run",
            "split_lines",
            "uniform",
            "uniform_endings",
        ],
        "lines",
    ),
    **dict.fromkeys(
        [
            "patched_sections",
            "shifted_blocks",
            "shifted_entries",
            "shifted_headings",
            "shifted_sections",
            "shifted_spans",
        ],
        "moves",
    ),
    "derive_document": "derive",  # not "derive": the name of the module, set on the package when imported
    "LineOffsets": "offsets",
    "Recent": "recent",
    **dict.fromkeys(
        [
            "Kind",
            "Section",
            "SectionKey",
            "SectionSig",
            "build_sections",
            "move_section",
            "rebuild_sections",
            "section_key",
            "section_line",
        ],
        "sections",
    ),
    "Shifted": "shifted",
}


def speed_layers() -> bool:
    """False when `PALACE_PARSE=full` asks for whole parses by mistune only (to bisect a parse bug)."""
    return os.environ.get(FULL_PARSE_VARIABLE, "").strip().lower() != "full"


def __getattr__(name: str) -> Any:
    """The engine's names, each module imported on first use (a command that only compares bytes loads no parser)."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'palace.memory.parse' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"palace.memory.parse.{module}"), name)
    globals()[name] = value
    return value
