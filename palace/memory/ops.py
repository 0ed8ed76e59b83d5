"""The memory operations as pure functions: (document, request, today) -> (new bytes, result)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Literal

from palace.errors import ContentError, EntryNotFoundError, SecretError
from palace.memory.document import Document, Entry, Section, entry_line
from palace.memory.halls import MemoryPath
from palace.memory.secrets import find_secret

Action = Literal["saved", "refreshed", "unchanged", "replaced", "forgotten"]
_TRAILING_PUNCT = ".。!！?？;；,，:：、…"
_LEADING_DATE = re.compile(r"^\s*\[?\s*\d{4}[-/.]\d{1,2}[-/.]\d{1,2}\s*\]?")


@dataclass
class ChangeResult:
    """What an operation did, in words fit for a user or a model."""

    action: Action
    path: MemoryPath
    content: str
    where: MemoryPath | None = None  # where an equal entry lives when it is not `path`
    similar: list[str] = field(default_factory=list)
    replaced: str | None = None
    by: str = "user"

    @property
    def changed(self) -> bool:
        return self.action != "unchanged"

    @property
    def message(self) -> str:
        where = self.where or self.path
        if self.action == "saved":
            text = f"Saved to {self.path}: {self.content}"
        elif self.action == "refreshed":
            text = f"Refreshed {where}: {self.content} (already remembered; date updated)"
        elif self.action == "unchanged":
            text = f"Already remembered in {where}, confirmed today: {self.content}"
        elif self.action == "replaced":
            text = f"Replaced in {self.path}: {self.replaced} -> {self.content}"
        else:
            text = f"Forgot from {self.path}: {self.content}"
        if self.similar:
            text += "; similar entries exist: " + " | ".join(self.similar) + " (use `replaces` to update one)"
        return text

    @property
    def symbol(self) -> str:
        return {"saved": "✓", "refreshed": "↻", "unchanged": "=", "replaced": "✎", "forgotten": "✗"}[self.action]

    @property
    def commit_message(self) -> str:
        verb = {"saved": "save", "refreshed": "refresh", "unchanged": "confirm", "replaced": "replace",
                "forgotten": "forget"}[self.action]
        return f"memory: {verb} {self.path}"


def normalise(text: str) -> str:
    """The comparison key of an entry: NFKC, case-folded, whitespace folded, trailing punctuation dropped."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = " ".join(text.split())
    return text.rstrip(_TRAILING_PUNCT + " ").strip()


def validate_content(content: object, limit: int) -> str:
    """The content as it will be written, or ContentError/SecretError saying why not."""
    if not isinstance(content, str):
        raise ContentError("content must be text")
    text = content.strip()
    if not text:
        raise ContentError("content is empty; write one short sentence")
    if "\n" in text or "\r" in text:
        raise ContentError("content must be one line; save several entries instead of one multi-line entry")
    if len(text) > limit:
        raise ContentError(f"content is {len(text)} characters; the limit is {limit} — shorten it to one sentence")
    if text.startswith("#"):
        raise ContentError("content may not start with '#' (it would read as a heading)")
    if _LEADING_DATE.match(text):
        raise ContentError("content may not start with a date; palace adds the date itself")
    if any(unicodedata.category(ch) == "Cc" and ch != "\t" for ch in text):
        raise ContentError("content contains control characters")
    kind = find_secret(text)
    if kind:
        raise SecretError(f"content looks like it contains a secret ({kind}); secrets are never saved")
    return text


def _words(text: str) -> set[str]:
    key = normalise(text)
    words = set(re.findall(r"[^\W_]+", key))
    cjk = re.sub(r"[^\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]", "", key)
    words.update(cjk[i : i + 2] for i in range(len(cjk) - 1))
    return words


def similar_entries(entries: list[Entry], content: str, limit: int = 3) -> list[str]:
    """Entries that share most of their words with content (near-duplicates)."""
    target = _words(content)
    if not target:
        return []
    scored: list[tuple[float, str]] = []
    for entry in entries:
        words = _words(entry.content)
        if not words:
            continue
        overlap = len(target & words) / len(target | words)
        if overlap >= 0.5:
            scored.append((overlap, f"{entry.path}: {entry.content}"))
    scored.sort(key=lambda pair: -pair[0])
    return [text for _, text in scored[:limit]]


def _dated_line(doc: Document, entry: Entry, day: str) -> str:
    """The entry's first line with its date set to day, everything else kept as written."""
    line = doc.lines[entry.start]
    head, sep, rest = line.partition(entry.bullet)
    body = rest.lstrip(" \t")
    gap = rest[: len(rest) - len(body)] or " "
    if entry.raw_date is not None:
        body = re.sub(r"^\[[^\]]*\][ \t]*", "", body, count=1)
    return f"{head}{sep}{gap}[{day}] {body}".rstrip() if body else f"{head}{sep}{gap}[{day}]"


def save(
    doc: Document, path: MemoryPath, content: str, day: str, *, replaces: str | None = None, limit: int = 200,
    by: str = "user",
) -> tuple[bytes | None, ChangeResult]:
    """Apply save (or save-with-replaces) to doc; bytes are None when nothing needs writing."""
    text = validate_content(content, limit)
    key = normalise(text)
    if replaces is not None:
        return _replace(doc, path, text, replaces, day, by)
    scope = doc.scope_entries(path.wing)
    for entry in scope:
        if normalise(entry.content) == key:
            where = entry.path if entry.path != path else None
            if entry.date == day:
                return None, ChangeResult("unchanged", path, entry.content, where=where, by=by)
            new = doc.splice(entry.start, entry.start + 1, [_dated_line(doc, entry, day)])
            return new, ChangeResult("refreshed", path, entry.content, where=where, by=by)
    similar = similar_entries(scope, text)
    return _insert(doc, path, entry_line(text, day)), ChangeResult("saved", path, text, similar=similar, by=by)


def _replace(
    doc: Document, path: MemoryPath, text: str, replaces: str, day: str, by: str
) -> tuple[bytes | None, ChangeResult]:
    old_key = normalise(replaces)
    room = doc.room_entries(path)
    for entry in room:
        if normalise(entry.content) == old_key:
            indent = doc.lines[entry.start][: len(doc.lines[entry.start]) - len(doc.lines[entry.start].lstrip())]
            line = f"{indent}{entry.bullet} [{day}] {text}"
            new = doc.splice(entry.start, entry.end, [line])
            return new, ChangeResult("replaced", path, text, replaced=entry.content, by=by)
    raise EntryNotFoundError(_missing(path, replaces, room, "replace"))


def forget(doc: Document, path: MemoryPath, content: str, *, by: str = "user") -> tuple[bytes, ChangeResult]:
    """Remove the entry matching content from the room, and the room heading if nothing is left under it."""
    if not isinstance(content, str) or not content.strip():
        raise ContentError("say which entry to forget: its content is empty")
    key = normalise(re.sub(r"^\s*\[\d{4}-\d{2}-\d{2}\]\s*", "", content))
    room = doc.room_entries(path)
    for entry in room:
        if normalise(entry.content) == key:
            start, end = entry.start, entry.end
            section = entry.section
            if section is not None and _only_entry(doc, section, entry):
                # The heading, and the one blank line that palace puts before a new heading.
                start = section.heading.line
                if start > 0 and not doc.lines[start - 1].strip():
                    start -= 1
            return doc.splice(start, end, []), ChangeResult("forgotten", path, entry.content, by=by)
    raise EntryNotFoundError(_missing(path, content, room, "forget"))


def _only_entry(doc: Document, section: Section, entry: Entry) -> bool:
    for index in range(section.heading.end, section.end):
        if entry.start <= index < entry.end:
            continue
        if doc.lines[index].strip():
            return False
    return True


def _missing(path: MemoryPath, content: str, room: list[Entry], verb: str) -> str:
    if not room:
        return f'nothing to {verb}: room {path} has no entries (nothing written)'
    listing = "; ".join(entry.content for entry in room[:20])
    return f'nothing to {verb}: no entry "{content.strip()}" in {path} (nothing written). Its entries: {listing}'


def _insert(doc: Document, path: MemoryPath, line: str) -> bytes:
    """Bytes with line placed after the room's last entry, creating room/hall/wing headings as needed."""
    entries = doc.room_entries(path)
    if entries:
        last = entries[-1]
        return doc.splice(last.end, last.end, [line])
    rooms = doc.room_sections(path)
    if rooms:
        section = rooms[-1]
        at = _last_text_line(doc, section.heading.line, section.end)
        return doc.splice(at, at, [line])
    room_level = "####" if path.wing else "###"
    room_block = ["", f"{room_level} {path.room}", line]
    halls = doc.hall_sections(path.wing, path.hall)
    if halls:
        section = halls[-1]
        at = _last_text_line(doc, section.heading.line, section.end)
        return doc.splice(at, at, room_block)
    if path.wing:
        wings = doc.wing_sections(path.wing)
        if wings:
            section = wings[-1]
            at = _last_text_line(doc, section.heading.line, section.end)
            return doc.splice(at, at, ["", f"### {path.hall.value}", *room_block])
        block = [f"## {path.wing}", "", f"### {path.hall.value}", *room_block]
    else:
        block = [f"## {path.hall.value}", *room_block]
    at = len(doc.lines)
    if at and doc.lines[-1].strip():
        block = ["", *block]
    return doc.splice(at, at, block)


def _last_text_line(doc: Document, start: int, end: int) -> int:
    """The index just after the last non-blank line in [start, end)."""
    at = end
    while at > start + 1 and not doc.lines[at - 1].strip():
        at -= 1
    return at
