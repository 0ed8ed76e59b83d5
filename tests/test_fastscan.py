"""The fast path (palace/memory/fastscan.py) finds exactly the blocks mistune finds, or stands aside.

Documents are drawn from the lines a memories.md holds, plain ones the fast path reads and near-misses it
must leave to mistune (indented lines, quotes, setext underlines, ordered lists, link definitions, closing
hashes, emphasis, odd whitespace, HTML that is not a comment, fences inside lists): every scan through the
fast path must equal mistune's scan of the same lines, and a file palace writes must not need mistune.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from palace.memory.parse.blocks import scan
from palace.memory.parse.fastscan import simple_tokens
from palace.memory.store import MemoryStore

EXAMPLES = int(os.environ.get("PALACE_PROPERTY_EXAMPLES", "400"))

PLAIN = [
    "",
    "   ",
    "\t",
    "# Memories",
    "## Preferences",
    "### editors",
    "#### deep heading",
    "## ifai",
    "##\tTabbed",
    "- [2026-11-30] The user edits with helix",
    "- [2026-02-30] a bad date",
    "- [ ] a task",
    "- plain item with `code` and <b>html</b>",
    "- item ending with two spaces  ",
    "- 项目使用 TypeScript",
    "Some prose the user wrote.",
    "more prose (with parentheses)",
    "| tool | used for |",
    "|------|----------|",
    '"quoted" words',
    "[docs](http://example.com) for later",
    "42 is the answer",
    "café ☕",
    "```",
    "```sh",
    "```python extra",
    "~~~",
    "~~~~ info",
    "````",
    "<!-- a comment -->",
    "<!-- a comment that goes on",
    "and ends here -->",
    "## not a heading inside a fence",
    "- not an item inside a fence",
]
NEAR_MISSES = [
    "-->",  # (closes a comment; alone, it is not a line the fast path reads)
    "  indented two",
    "    indented code",
    "> a quote",
    "===",
    "---",
    "- - -",
    "1. ordered",
    "2) ordered",
    "[ref]: http://example.com",
    "## closed ##",
    "#",
    "#no space",
    "*emphasis* first",
    "_under_",
    "+ plus item",
    "* star item",
    "-\ttab item",
    "-  two spaces",
    "- ```",
    "- # heading item",
    "- > quote item",
    "- 1. nested ordered",
    "<div>html</div>",
    "<!-->",
    "   ```",
    "text\rwith a CR",
    "form\x0cfeed",
    "\u2028separator",
    "- [ref]: url",
    "- [unclosed",
    ": colon",
    "=== under",
]

documents = st.lists(st.sampled_from(PLAIN + NEAR_MISSES), max_size=40)
plain_documents = st.lists(st.sampled_from(PLAIN), max_size=60)


def _both(lines: list[str]) -> None:
    fast = scan(lines, 0, len(lines))
    slow = scan(lines, 0, len(lines), fast=False)
    assert fast == slow, "\n".join(lines)


@settings(max_examples=EXAMPLES, deadline=None)
@given(documents)
def test_the_fast_path_agrees_with_mistune_or_stands_aside(lines: list[str]) -> None:
    _both(lines)


@settings(max_examples=EXAMPLES, deadline=None)
@given(plain_documents, st.integers(min_value=0, max_value=60), st.integers(min_value=0, max_value=60))
def test_plain_documents_take_the_fast_path_in_any_window(lines: list[str], a: int, b: int) -> None:
    first, last = sorted((min(a, len(lines)), min(b, len(lines))))
    assert simple_tokens(lines, first, last) is not None
    fast = scan(lines, first, last)
    assert fast == scan(lines, first, last, fast=False)


def test_a_palace_file_is_read_without_importing_mistune(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path)
    for n in range(30):
        store.save(f"ifai/Project Knowledge/topic-{n % 4}", f"Fact number {n} about the project")
        store.save(f"Preferences/editor-{n % 3}", f"Preference number {n}")
    text = store.file.read_text() + "\n```sh\nmake test\n```\n\n| a | b |\n|---|---|\n\n<!-- a note -->\n"
    store.file.write_text(text)
    code = (
        "import sys; from pathlib import Path; from palace.memory.document import Document; "
        f"doc = Document.parse(Path({str(store.file)!r}).read_bytes()); "
        "print(len(doc.entries), 'mistune' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["60", "False"]
