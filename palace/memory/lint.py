"""`palace memory lint`: structural problems in memories.md, as errors (exit 1) and warnings."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from palace.errors import StoreError
from palace.memory.document import Document
from palace.memory.halls import is_valid_wing, suggest_hall, unknown_hall_message
from palace.memory.ops import normalise
from palace.memory.secrets import find_secret


@dataclass
class Problem:
    line: int  # 1-based; 0 for the whole file
    severity: Literal["error", "warning"]
    message: str
    file: str = "memories.md"

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.severity}: {self.message}"


@dataclass
class LintReport:
    problems: list[Problem] = field(default_factory=list)
    entries: int = 0

    @property
    def has_errors(self) -> bool:
        return any(p.severity == "error" for p in self.problems)

    @property
    def summary(self) -> str:
        errors = sum(1 for p in self.problems if p.severity == "error")
        warnings = len(self.problems) - errors
        if not self.problems:
            return f"memories.md is clean ({self.entries} entries)"
        return f"{errors} error(s), {warnings} warning(s) in {self.entries} entries"


def lint_document(
    doc: Document, *, entry_limit: int = 200, soft_limit: int = 100, name: str = "memories.md"
) -> LintReport:
    """Every problem in doc, in line order."""
    report = LintReport(entries=sum(1 for e in doc.entries if e.path is not None))
    add = report.problems.append

    def problem(line: int, severity: Literal["error", "warning"], message: str) -> None:
        add(Problem(line + 1, severity, message, name))

    for section in doc.sections:
        heading = section.heading
        if section.kind == "wing":
            subs = [s for s in doc.sections if s.heading.level == 3 and heading.line < s.heading.line < section.end]
            bad = [s for s in subs if s.kind != "wing-hall"]
            hint = suggest_hall(heading.text)
            if bad and hint is not None:
                problem(
                    heading.line,
                    "error",
                    f'"## {heading.text}" reads as a wing, not a hall, so its "###" '
                    f'subsections are not halls — did you mean the hall "{hint.value}"?',
                )
            elif not is_valid_wing(heading.text) and (subs or hint is not None):
                problem(
                    heading.line,
                    "warning",
                    f'wing name "{heading.text}" is not a slug (letters, digits, ".", "_", "-")',
                )
        elif section.kind == "other" and section.heading.level == 3 and section.wing:
            problem(heading.line, "error", f"in wing {section.wing}: {unknown_hall_message(heading.text)}")
    seen_rooms: dict[str, int] = {}
    for section in doc.sections:
        if section.kind == "room" and section.hall is not None:
            key = f"{(section.wing or '').casefold()}/{section.hall.value}/{section.room}"
            if key in seen_rooms:
                problem(
                    section.heading.line,
                    "warning",
                    f"room {section.room} appears twice in {section.hall.value} (first at line {seen_rooms[key]})",
                )
            else:
                seen_rooms[key] = section.heading.line + 1
    seen_entries: dict[tuple[str, str], int] = {}
    for entry in doc.entries:
        if entry.path is None:
            continue
        if entry.raw_date is not None and entry.date is None:
            problem(entry.start, "error", f'malformed date "[{entry.raw_date}]"; write [YYYY-MM-DD]')
        if len(entry.content) > entry_limit:
            problem(entry.start, "error", f"entry is {len(entry.content)} characters; the limit is {entry_limit}")
        entry_key = ((entry.path.wing_key or ""), normalise(entry.content))
        if entry_key in seen_entries:
            problem(
                entry.start,
                "warning",
                f"duplicate entry (same as line {seen_entries[entry_key]}): {entry.content[:60]}",
            )
        else:
            seen_entries[entry_key] = entry.start + 1
    for number, line in enumerate(doc.lines):
        kind = find_secret(line)
        if kind:
            problem(number, "error", f"line looks like it contains a secret ({kind}); remove it")
    for entry in doc.entries:
        if entry.path is None and entry.raw_date is not None:
            problem(entry.start, "warning", "dated entry outside a room: put it under a ### room heading")
    for start, _ in doc.unparsed_lists:
        problem(start, "warning", "list with an unusual layout is kept as plain text, not read as entries")
    if report.entries > soft_limit:
        add(
            Problem(
                0,
                "warning",
                f"{report.entries} entries, more than the soft limit of {soft_limit}; "
                "consider forgetting stale ones (nothing is deleted automatically)",
                name,
            )
        )
    report.problems.sort(key=lambda p: p.line)
    return report


def lint_file(path: Path, *, entry_limit: int = 200, soft_limit: int = 100) -> LintReport:
    """Lint a memories file on disk; StoreError when it cannot be read."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror}") from exc
    return lint_document(Document.parse(data), entry_limit=entry_limit, soft_limit=soft_limit, name=str(path))
