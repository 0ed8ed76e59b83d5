"""mistune's block parser, taught to note where each top-level block starts (imported on the first parse)."""

from __future__ import annotations

import functools
import re
from typing import Any

from mistune.block_parser import BlockParser
from mistune.core import BlockState


class TrackingState(BlockState):
    """Block state that notes where each top-level token starts in the source."""

    def add_paragraph(self, text: str) -> None:
        last = self.last_token()
        super().add_paragraph(text)
        if self.parent is None and self.tokens[-1] is not last:
            self.tokens[-1].setdefault("_start", self.cursor)

    def append_token(self, token: dict[str, Any]) -> None:
        if self.parent is None:
            token.setdefault("_start", self.cursor)
        super().append_token(token)

    def append_paragraph(self) -> int | None:
        # Only the paragraph that ends right here can go on. mistune also asks while it is inside a list
        # (a quote that interrupts a list, lazily continued into an empty `*` item), when the last token
        # is a paragraph from before the list: continuing that one would scramble the token stream.
        last = self.last_token()
        if self.parent is None and last and last["type"] == "paragraph":
            start = last.get("_start")
            if start is not None and start + len(last["text"]) != self.cursor:
                return None
        return super().append_paragraph()


class _TrackingParser(BlockParser):
    """Block parser that stamps top-level tokens with the offset where their block began.

    Only the top level is structure, so the insides of lists and block quotes are not parsed: their
    extent is found by the top-level parse, their content never matters (and skipping it makes the
    parse several times faster).
    """

    state_cls = TrackingState

    def parse(self, state: BlockState, rules: list[str] | None = None) -> None:
        if state.parent is not None:
            return  # the inside of a list item or a block quote: opaque to palace
        super().parse(state, rules)

    def parse_ref_link(self, m: re.Match[str], state: BlockState) -> int | None:
        # A link reference definition makes no token; give it one so that the lines it spans are not
        # counted into the block before it (an entry would otherwise swallow a `[x]: url` line).
        last = state.last_token()
        continues_paragraph = bool(last) and last["type"] == "paragraph"
        end: int | None = super().parse_ref_link(m, state)
        if end and not continues_paragraph and state.parent is None:
            state.append_token({"type": "ref_link"})
        return end

    def parse_method(self, m: re.Match[str], state: BlockState) -> int | None:
        if state.parent is not None:
            return super().parse_method(m, state)
        before = len(state.tokens)
        end: int | None = super().parse_method(m, state)
        # A list or quote appends its token only when it ends; the match start is where it began.
        for token in state.tokens[before:]:
            if not token.get("_stamped"):
                token["_start"] = m.start()
                token["_stamped"] = True
        return end


@functools.cache
def parser() -> _TrackingParser:
    return _TrackingParser()  # built on first use: compiling mistune's rules costs ~20 ms at import
