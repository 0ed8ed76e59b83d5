"""The memory operations as pure functions: (document, request, today) -> (new bytes, result)."""

from __future__ import annotations

import re
from datetime import date
from typing import Literal

from palace.errors import ContentError, EntryNotFoundError, SecretError, StoreError
from palace.memory.document import Document, Entry, Kind, Section, SectionSig, date_mark, entry_line
from palace.memory.halls import BROKEN_CHARACTER, Hall, MemoryPath, has_broken_character, odd_character
from palace.memory.keys import normalise as normalise  # the comparison key, part of this module's API
from palace.memory.keys import words_of
from palace.memory.secrets import find_secret
from palace.record import field, record

Action = Literal["saved", "refreshed", "unchanged", "replaced", "forgotten"]
_LEADING_DATE = re.compile(r"^\s*\[?\s*\d{4}[-/.]\d{1,2}[-/.]\d{1,2}\s*\]?")
_LEADING_BULLET = re.compile(r"^(?:[-*+](?:[ \t]+|$))+")


@record
class ChangeResult:
    """What an operation did, in words fit for a user or a model."""

    action: Action
    path: MemoryPath
    content: str
    where: MemoryPath | None = None  # where an equal entry lives when it is not `path`
    similar: list[str] = field(default_factory=list)
    replaced: str | None = None
    by: str = "user"
    old_date: str | None = None  # the date of the entry a forget or a replace removed
    note: str = ""  # where the change was made, when not in the user's own memories.md
    secret: bool = False  # the entry removed was a secret (said by the user, or it looks like one): never echoed
    until: str | None = None  # the last day the entry holds, when it has one

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
            old = "[secret removed]" if self.replaced and find_secret(self.replaced) else self.replaced
            text = f"Replaced in {self.path}: {old} -> {self.content}"
        elif self.secret:
            text = f"Forgot from {self.path}: [secret removed] (superseded.md keeps only that)"
        else:
            text = f"Forgot from {self.path}: {self.content}"
        if self.until and self.action in ("saved", "refreshed", "replaced"):
            text += f" (until {self.until})"
        if self.similar:
            text += "; similar entries exist: " + " | ".join(self.similar) + " (use `replaces` to update one)"
        return f"{text} ({self.note})" if self.note else text

    @property
    def symbol(self) -> str:
        return {"saved": "✓", "refreshed": "↻", "unchanged": "=", "replaced": "✎", "forgotten": "✗"}[self.action]

    @property
    def commit_message(self) -> str:
        verb = {
            "saved": "save",
            "refreshed": "refresh",
            "unchanged": "confirm",
            "replaced": "replace",
            "forgotten": "forget",
        }[self.action]
        return f"memory: {verb} {self.path}"


def validate_content(content: object, limit: int) -> str:
    """The content as it will be written, or ContentError/SecretError saying why not."""
    if not isinstance(content, str):
        raise ContentError("content must be text")
    if has_broken_character(content):  # it would reach memories.md as a raw non-UTF-8 byte
        raise ContentError(f"content has {BROKEN_CHARACTER}; send the character whole or leave it out")
    text = _LEADING_BULLET.sub("", content.strip())  # "- fact" is the fact; palace writes the bullet
    if not text:
        raise ContentError("content is empty; write one short sentence")
    if "\n" in text or "\r" in text:
        raise ContentError("content must be one line; save several entries instead of one multi-line entry")
    if len(text) > limit:
        raise ContentError(f"content is {len(text)} characters; the limit is {limit} — shorten it to one sentence")
    if text.startswith("#"):
        raise ContentError("content may not start with '#' (it would read as a heading)")
    date = _LEADING_DATE.match(text)
    if date:
        raise ContentError(
            f'content may not start with a date ("{date.group().strip()}"); palace dates each entry itself — '
            "leave the date out, or put it later in the sentence if it is part of the fact"
        )
    odd = odd_character(text)
    if odd is not None and odd.line_break:
        raise ContentError(f"content must be one line, but it contains {odd}; save several entries instead")
    if odd is not None:
        raise ContentError(
            f"content contains {odd}; remove it (control characters and invisible formatting are never saved)"
        )
    kind = find_secret(text)
    if kind:
        raise SecretError(f"content looks like it contains a secret ({kind}); secrets are never saved")
    return text


def check_path_secret(path: MemoryPath | str) -> None:
    """A wing or room name becomes a heading in the file: it must not hold a secret either (checked on the
    path as given, before it is made a lower-case slug, and after)."""
    text = path if isinstance(path, str) else f"{path.wing or ''} {path.room}".replace("-", " ")
    whole = str(path)
    kind = find_secret(text) or (find_secret(whole) if whole != text else None)  # a str path is both: checked once
    if kind:
        raise SecretError(f"the memory path looks like it contains a secret ({kind}); secrets are never saved")


def similar_entries(entries: list[Entry], content: str, limit: int = 3) -> list[str]:
    """Entries that share most of their words with content (near-duplicates: Jaccard similarity >= 0.5)."""
    target = words_of(content)
    size = len(target)
    if not size:
        return []
    scored: list[tuple[float, str]] = []
    for entry in entries:
        words = entry.words
        count = len(words)
        if not count or count * 2 < size or size * 2 < count:  # too different in size to be half the same
            continue
        shared = len(target & words)
        overlap = shared / (size + count - shared)
        if overlap >= 0.5:
            scored.append((overlap, f"{entry.path}: {entry.content}"))
    scored.sort(key=lambda pair: -pair[0])
    return [text for _, text in scored[:limit]]


def _dated_line(doc: Document, entry: Entry, day: str, until: str | None = None) -> str:
    """The entry's first line with its date set to day (and its end kept, or set to `until`), everything else
    kept as written."""
    line = doc.lines[entry.start]
    head, sep, rest = line.partition(entry.bullet)
    body = rest.lstrip(" \t")
    gap = rest[: len(rest) - len(body)] or " "
    if entry.raw_date is not None:
        body = re.sub(r"^\[[^\]]*\][ \t]*", "", body, count=1)
    mark = date_mark(day, until or entry.until)
    return f"{head}{sep}{gap}{mark} {body}".rstrip() if body else f"{head}{sep}{gap}{mark}"


# ---------------------------------------------------------------------- checked edits
# Every edit is checked by parsing its result: the structure must be exactly the old structure plus
# (or minus) what the edit meant to change. Markdown is context-sensitive (an unclosed code fence or an
# HTML block swallows the lines after it), so a line written in the wrong place could vanish into the
# user's text or change how the user's own lines read; a checked edit never does.

_EntrySig = tuple[str | None, Hall | None, str | None, str]


def _entry_sig(entry: Entry) -> _EntrySig:
    if entry.path is None:
        return (None, None, None, entry.content)
    return (entry.path.wing_key, entry.path.hall, entry.path.room, entry.content)


def _path_entry_sig(path: MemoryPath, content: str) -> _EntrySig:
    return (path.wing_key, path.hall, path.room, content)


def _structure(doc: Document, first: int, end: int) -> tuple[list[SectionSig], list[_EntrySig]]:
    """What the headings and entries that start in lines [first, end) mean."""
    sections = [s.sig for s in doc.sections_between(first, end)]
    return sections, [_entry_sig(e) for e in doc.entries_between(first, end)]


def _checked(
    doc: Document,
    start: int,
    end: int,
    new_lines: list[str],
    added_sections: list[SectionSig],
    added_entries: list[_EntrySig],
) -> bytes | None:
    """doc's bytes with lines[start:end] replaced by new_lines, if that parses as intended: the sections and
    entries that started in [start, end) replaced by the added ones, and everything else as it was."""
    data = doc.splice(start, end, new_lines)
    new = doc.reparse(data)
    first, old_end, new_end = 0, len(doc.lines), len(new.lines)
    if new is not doc and new.derived is not None and new.derived.same_after:
        # Only a window around the change was parsed again, and what follows it still means the same:
        # comparing the window, up to the next heading after it, compares everything.
        window_start, window_old_end, window_new_end = new.derived.first, new.derived.old_end, new.derived.new_end
        if window_start <= start and end <= window_old_end:
            first = window_start
            old_end, new_end = doc.next_heading(window_old_end), new.next_heading(window_new_end)
    before_sections, before_entries = _structure(doc, first, start)
    after_sections, after_entries = _structure(doc, end, old_end)
    expected = (before_sections + added_sections + after_sections, before_entries + added_entries + after_entries)
    return data if _structure(new, first, new_end) == expected else None


def _blocked(doc: Document, at: int, path: MemoryPath) -> StoreError:
    """Why nothing could be placed near line `at` (0-based): name the block that swallows new lines."""
    for first, last, kind in doc.blocks:
        if first < at <= last and kind in {"block_code", "block_html", "list", "block_quote"}:
            what = {
                "block_code": "a code block",
                "block_html": "an HTML block",
                "list": "a list",
                "block_quote": "a block quote",
            }[kind]
            return StoreError(
                f"cannot write to {path}: {what} that starts at line {first + 1} of memories.md is not "
                "closed, so a new line after it would be read as part of it; close it (or edit the file by "
                "hand) and try again (nothing written)"
            )
    return StoreError(f"cannot write to {path}: no place in memories.md keeps its structure intact (nothing written)")


def _refresh(doc: Document, entry: Entry, day: str, until: str | None = None) -> bytes:
    line = _dated_line(doc, entry, day, until)
    data = _checked(doc, entry.start, entry.start + 1, [line], [], [_entry_sig(entry)])
    if data is None:
        raise _blocked(doc, entry.start, entry.path or MemoryPath(None, Hall.PREFERENCES, "?"))
    return data


def save(
    doc: Document,
    path: MemoryPath,
    content: str,
    day: str,
    *,
    replaces: str | None = None,
    limit: int = 200,
    by: str = "user",
    until: str | None = None,
) -> tuple[bytes | None, ChangeResult]:
    """Apply save (or save-with-replaces) to doc; bytes are None when nothing needs writing. `until`: the
    last day the fact holds (YYYY-MM-DD, checked by check_until)."""
    text = validate_content(content, limit)
    check_path_secret(path)
    if until is not None:
        check_until(until, day)
    if replaces is not None:
        return _replace(doc, path, text, replaces, day, by, until)
    entry = doc.equal_entry(path.wing, text)
    if entry is not None:
        where = entry.path if entry.path != path else None
        if entry.date == day and (until is None or until == entry.until):
            return None, ChangeResult("unchanged", path, entry.content, where=where, by=by)
        result = ChangeResult("refreshed", path, entry.content, where=where, by=by, until=until or entry.until)
        return _refresh(doc, entry, day, until), result
    # Only the room's own entries: `replaces` works within a room, so that is where a near-duplicate is actionable.
    similar = similar_entries(doc.room_entries(path), text)
    data = insert(doc, path, text, day, until)
    return data, ChangeResult("saved", path, text, similar=similar, by=by, until=until)


def check_until(until: str, day: str) -> None:
    """An end date must be a real day, today or later."""
    try:
        end = date.fromisoformat(until)
    except ValueError:
        raise ContentError(f'"until" must be a date written YYYY-MM-DD, not "{until}"') from None
    if end.isoformat() != until:
        raise ContentError(f'"until" must be a date written YYYY-MM-DD, not "{until}"')
    if until < day:
        raise ContentError(f"until {until} is in the past: a fact that no longer holds is not saved")


def _replace(
    doc: Document, path: MemoryPath, text: str, replaces: str, day: str, by: str, until: str | None = None
) -> tuple[bytes | None, ChangeResult]:
    old_key = normalise(re.sub(r"^\s*\[\d{4}-\d{2}-\d{2}\]\s*", "", replaces))
    room = doc.room_entries(path)
    for entry in room:
        if normalise(entry.content) == old_key:
            first = doc.lines[entry.start]
            indent = first[: len(first) - len(first.lstrip())]
            line = f"{indent}{entry.bullet} {date_mark(day, until)} {text}"
            new = _checked(doc, entry.start, entry.end, [line], [], [_path_entry_sig(path, text)])
            if new is None:
                raise _blocked(doc, entry.start, path)
            return new, ChangeResult(
                "replaced", path, text, replaced=entry.content, by=by, old_date=entry.date, until=until
            )
    raise EntryNotFoundError(_missing(path, replaces, room, "replace"))


_COPIED_DATE = re.compile(r"^\[\d{4}-\d{2}-\d{2}(?:[^\]\n]*)\][ \t]*")  # `[2026-12-01]`, `[... → 2027-03-31]`


def _copied_entry(content: str) -> str:
    """An entry's text as typed to forget it: a line copied whole (`- [2026-12-01] Uses helix`) is its text."""
    return _COPIED_DATE.sub("", _LEADING_BULLET.sub("", content.strip()), count=1)


def forget(doc: Document, path: MemoryPath, content: str, *, by: str = "user") -> tuple[bytes, ChangeResult]:
    """Remove the entry matching content from the room, and the room heading if nothing is left under it."""
    if not isinstance(content, str) or not content.strip():
        raise ContentError("say which entry to forget: its content is empty")
    key = normalise(_copied_entry(content))
    room = doc.room_entries(path)
    for entry in room:
        if normalise(entry.content) == key:
            starts: list[int] = []
            section = doc.room_of(entry)
            if section is not None and _only_entry(doc, section, entry):
                # The heading too, and the one blank line that palace puts before a new heading.
                heading = section.heading.line
                if heading > 0 and not doc.lines[heading - 1].strip():
                    starts.append(heading - 1)
                starts.append(heading)
            starts.append(entry.start)
            for start in starts:
                data = _checked(doc, start, entry.end, [], [], [])
                if data is not None:
                    secret = find_secret(entry.content) is not None
                    return data, ChangeResult(
                        "forgotten", path, entry.content, by=by, old_date=entry.date, secret=secret
                    )
            raise _blocked(doc, entry.start, path)
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
        return f"nothing to {verb}: room {path} has no entries (nothing written)"
    listing = "; ".join(entry.content for entry in room[:20])
    more = f" (and {len(room) - 20} more)" if len(room) > 20 else ""
    return f'nothing to {verb}: no entry "{content.strip()}" in {path} (nothing written). Its entries: {listing}{more}'


def insert(doc: Document, path: MemoryPath, text: str, day: str, until: str | None = None) -> bytes:
    """Bytes with the entry placed after the room's last entry, creating room/hall/wing headings as needed.

    Each placement is tried in order of preference and the first whose result parses as intended wins.
    """
    line = entry_line(text, day, until)
    room_level = 4 if path.wing else 3
    wing = path.wing or ""
    room_sig: SectionSig = (Kind.ROOM, room_level, path.wing_key, path.hall, path.room)
    hall_sig: SectionSig = (
        (Kind.WING_HALL, 3, path.wing_key, path.hall, None) if path.wing else (Kind.HALL, 2, None, path.hall, None)
    )
    wing_sig: SectionSig = (Kind.WING, 2, path.wing_key, None, None)
    room_head = f"{'#' * room_level} {path.room}"
    hall_head = f"{'###' if path.wing else '##'} {path.hall.value}"
    # (where, lines, new sections) in order of preference
    tries: list[tuple[int, list[str], list[SectionSig]]] = []
    entries = doc.room_entries(path)
    rooms = doc.room_sections(path)
    halls = doc.hall_sections(path.wing, path.hall)
    wings = doc.wing_sections(wing) if path.wing else []
    if entries:
        last = entries[-1]
        tries += [(last.end, [line], []), (last.end, ["", line], []), (last.start, [line], [])]
    elif rooms:
        section = rooms[-1]
        at = last_text_line(doc, section.heading.line, section.end)
        after = section.heading.end
        tries += [(at, [line], []), (at, ["", line], []), (after, [line], []), (after, [line, ""], [])]
    elif halls:
        section = halls[-1]
        at = last_text_line(doc, section.heading.line, section.end)
        after = section.heading.end
        tries += [
            (at, ["", room_head, line], [room_sig]),
            (after, ["", room_head, line], [room_sig]),
            (after, ["", room_head, line, ""], [room_sig]),
        ]
    elif wings:
        section = wings[-1]
        at = last_text_line(doc, section.heading.line, section.end)
        block = ["", hall_head, "", room_head, line]
        after = section.heading.end
        tries += [
            (at, block, [hall_sig, room_sig]),
            (after, block, [hall_sig, room_sig]),
            (after, [*block, ""], [hall_sig, room_sig]),
        ]
    else:
        at = len(doc.lines)
        if path.wing:
            block = [f"## {path.wing}", "", hall_head, "", room_head, line]
            added = [wing_sig, hall_sig, room_sig]
        else:
            block = [hall_head, "", room_head, line]
            added = [hall_sig, room_sig]
        tries.append((at, ["", *block] if at and doc.lines[-1].strip() else block, added))
    entry = _path_entry_sig(path, text)
    for at, lines, added in tries:
        data = _checked(doc, at, at, lines, added, [entry])
        if data is not None:
            return data
    raise _blocked(doc, tries[0][0], path)


def last_text_line(doc: Document, start: int, end: int) -> int:
    """The index just after the last non-blank line in [start, end)."""
    at = end
    while at > start + 1 and not doc.lines[at - 1].strip():
        at -= 1
    return at


@record
class Cleared:
    """What `clear` removed: each entry (for superseded.md), and whether the user's own text went too."""

    entries: list[Entry]
    everything: bool

    @property
    def counted(self) -> str:
        """ "1 entry", "3 entries"."""
        return f"{len(self.entries)} entr{'y' if len(self.entries) == 1 else 'ies'}"

    @property
    def message(self) -> str:
        return f"memory: clear {'everything' if self.everything else self.counted}"


def clear(doc: Document, *, everything: bool = False) -> tuple[bytes, Cleared]:
    """Remove every entry (and the rooms left empty); the user's own text stays unless `everything`."""
    entries = [e for e in doc.entries if e.path is not None]
    if everything:
        return doc.splice(0, len(doc.lines), []), Cleared(entries, True)
    return without_entries(doc, entries), Cleared(entries, False)


def without_entries(doc: Document, entries: list[Entry]) -> bytes:
    """The text without these entries and without the room headings they leave empty (the user's text stays)."""
    drop: set[int] = set()
    for entry in entries:
        drop.update(range(entry.start, entry.end))
    for section in doc.sections:
        body = [n for n in range(section.heading.end, section.end) if n not in drop and doc.lines[n].strip()]
        if section.kind == Kind.ROOM and not body:
            drop.update(range(section.heading.line, section.heading.end))
            if section.heading.line > 0 and not doc.lines[section.heading.line - 1].strip():
                drop.add(section.heading.line - 1)
    kept = [line for n, line in enumerate(doc.lines) if n not in drop]
    return doc.splice(0, len(doc.lines), kept)


def room_text(doc: Document, path: MemoryPath, today: str) -> tuple[str, list[Entry]]:
    """One room whole, as MemoryRoom shows it (entries past their end marked), and its entries."""
    entries = doc.room_entries(path)
    if not entries:
        rooms = sorted({str(e.path) for e in doc.entries if e.path is not None and e.path.hall == path.hall})
        known = f"; rooms of {path.hall.value} with entries: {', '.join(rooms[:30])}" if rooms else ""
        raise EntryNotFoundError(f"room {path} has no entries{known}")
    lines = [f"Room {path} ({len(entries)} entr{'y' if len(entries) == 1 else 'ies'}):"]
    for entry in entries:
        ended = " (ended: no longer true)" if entry.until is not None and entry.until < today else ""
        lines.append(f"- {date_mark(entry.date or '????-??-??', entry.until)} {entry.content}{ended}")
    return "\n".join(lines), entries
