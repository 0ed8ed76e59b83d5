"""Recall results as compact text for the model."""

from __future__ import annotations

from collections.abc import Iterator

from palace.memory.secrets import redact
from palace.paths import MEMORIES
from palace.recall.rank import RecallHit, neg_date


def _utf8_len(text: str) -> int:
    return len(text.encode("utf-8", "replace"))


def _cut_utf8(text: str, max_bytes: int, ellipsis: str = "…") -> str:
    """Text shortened to at most max_bytes UTF-8 bytes, with an ellipsis when shortened."""
    if _utf8_len(text) <= max_bytes:
        return text
    room = max_bytes - _utf8_len(ellipsis)
    if room <= 0:
        return ""
    cut = text.encode("utf-8", "replace")[:room].decode("utf-8", "ignore")
    return cut.rstrip() + ellipsis


def _entries(groups: dict[str, list[RecallHit]]) -> Iterator[tuple[str, str, RecallHit]]:
    """(head, prefix, hit) per hit: head starts a source (on its first hit), prefix says where the snippet is from."""
    for source, group in groups.items():
        memories = source == MEMORIES
        header = "memories.md" if memories else f"[{group[0].date}] session {redact(source)}"
        for i, hit in enumerate(group):
            dated = f" [{hit.date}]" if memories else ""  # entries of one file carry their own dates
            yield ("\n" + header) if i == 0 else "", f"  - {redact(hit.where)}{dated}: ", hit


def format_hits(hits: list[RecallHit], *, max_bytes: int = 2048, query: str | None = None) -> str:
    """Compact text for the model: hits grouped by session (best first, newer first among equal
    scores), at most max_bytes UTF-8 bytes, secrets redacted. `query` only words the empty answer."""
    if not hits:
        what = f' for "{" ".join(query.split())}"' if query and query.strip() else ""
        return _cut_utf8(redact(f"no matches{what} in archived sessions or memories"), max_bytes)
    groups: dict[str, list[RecallHit]] = {}
    for hit in sorted(hits, key=lambda h: (-h.score, neg_date(h.date))):
        groups.setdefault(hit.source, []).append(hit)
    total = len(hits)
    lines = [
        f"{total} match{'es' if total != 1 else ''} from {len(groups)} source"
        f"{'s' if len(groups) != 1 else ''}, best first:"
    ]
    used = _utf8_len(lines[0])
    shown = 0
    # Each snippet gets a fair share of the room, so that one long snippet cannot crowd out the rest.
    share = max(120, (max_bytes - used) // min(total, 6) - 60)
    for head, prefix, hit in _entries(groups):
        left = total - shown
        reserve = _utf8_len(f"\n({left} more not shown)") if left > 1 else 0
        budget = max_bytes - used - reserve - _utf8_len(head) - 1 - _utf8_len(prefix)
        if budget < 24:
            break
        budget = min(budget, share)
        snippet = _cut_utf8(redact(" ".join(hit.snippet.split())), budget)
        line = head + "\n" + prefix + snippet
        lines.append(line)
        used += _utf8_len(line)
        shown += 1
    if shown < total:
        lines.append(f"\n({total - shown} more not shown)")
    return _cut_utf8("".join(lines), max_bytes)
