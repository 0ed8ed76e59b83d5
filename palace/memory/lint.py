"""`palace memory lint`: structural problems in memories.md, as errors (exit 1) and warnings."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Literal

from palace.errors import StoreError
from palace.memory.document import Document, Kind, Section
from palace.memory.files import read_regular
from palace.memory.halls import MemoryPath, is_valid_wing, suggest_hall, unknown_hall_message
from palace.memory.ops import normalise
from palace.memory.secrets import find_secret
from palace.record import field, record

Severity = Literal["error", "warning"]


@record
class Problem:
    line: int  # 1-based; 0 for the whole file
    severity: Severity
    message: str
    file: str = "memories.md"

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.severity}: {self.message}"


@record
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


# A check yields (0-based line, severity, message) for each problem it finds.
_Found = Iterator[tuple[int, Severity, str]]


def _heading_problems(doc: Document) -> _Found:
    """Misspelt halls that read as wings, wing names that are not slugs, unknown halls inside a wing."""
    for section in doc.sections:
        heading = section.heading
        if section.kind == Kind.WING:
            subs = [s for s in doc.sections if s.heading.level == 3 and heading.line < s.heading.line < section.end]
            hint = suggest_hall(heading.text)
            if hint is not None and any(s.kind != Kind.WING_HALL for s in subs):
                yield (
                    heading.line,
                    "error",
                    f'"## {heading.text}" reads as a wing, not a hall, so its "###" '
                    f'subsections are not halls — did you mean the hall "{hint.value}"?',
                )
            elif not is_valid_wing(heading.text) and (subs or hint is not None):
                yield (
                    heading.line,
                    "warning",
                    f'wing name "{heading.text}" is not a slug (letters, digits, ".", "_", "-")',
                )
        elif section.kind == Kind.OTHER and heading.level == 3 and section.wing:
            yield heading.line, "error", f"in wing {section.wing}: {unknown_hall_message(heading.text)}"


def _room_problems(doc: Document) -> _Found:
    """A room heading written twice in one hall."""
    seen: dict[str, int] = {}
    for section in doc.sections:
        if section.kind != Kind.ROOM or section.hall is None:
            continue
        key = f"{(section.wing or '').casefold()}/{section.hall.value}/{section.room}"
        if key in seen:
            message = f"room {section.room} appears twice in {section.hall.value} (first at line {seen[key]})"
            yield section.heading.line, "warning", message
        else:
            seen[key] = section.heading.line + 1


def _entry_problems(doc: Document, entry_limit: int) -> _Found:
    """Malformed dates, over-long entries, duplicates in one wing, dated items outside rooms."""
    seen: dict[tuple[str, str], int] = {}
    for entry in doc.entries:
        if entry.path is None:
            if entry.raw_date is not None:
                yield entry.start, "warning", "dated entry outside a room: put it under a ### room heading"
            continue
        if entry.raw_date is not None and entry.date is None:
            yield entry.start, "error", f'malformed date "[{entry.raw_date}]"; write [YYYY-MM-DD]'
        if len(entry.content) > entry_limit:
            yield entry.start, "error", f"entry is {len(entry.content)} characters; the limit is {entry_limit}"
        key = ((entry.path.wing_key or ""), normalise(entry.content))
        if key in seen:
            yield entry.start, "warning", f"duplicate entry (same as line {seen[key]}): {entry.content[:60]}"
        else:
            seen[key] = entry.start + 1


def _text_problems(doc: Document) -> _Found:
    """Secrets on any line, and lists kept opaque because of their layout."""
    for number, line in enumerate(doc.lines):
        kind = find_secret(line)
        if kind:
            yield number, "error", f"line looks like it contains a secret ({kind}); remove it"
    for start, _ in doc.unparsed_lists:
        yield start, "warning", "list with an unusual layout is kept as plain text, not read as entries"


def _budget_problems(doc: Document, budget: int) -> _Found:
    """The user's own text that cannot reach the prompt: too long for the budget even with no entries."""
    from palace.memory.render import render_document

    for wing in [None, *doc.wings()]:
        rendered = render_document(doc, wing, budget)
        if rendered.cut_lines:
            view = f"with the wing {wing}" if wing else "outside any wing"
            yield (
                rendered.cut_from - 1,
                "warning",
                f"the text {view} does not fit the {budget:,}-byte memory budget even with every entry left out: "
                f"{rendered.cut_lines} line(s) from here never reach the prompt (shorten it or raise "
                "memory.budget_bytes)",
            )
            return


def _is_marker(line: str, char: str) -> bool:
    return line.startswith(char * 7) and (len(line) == 7 or line[7] in " \t")


def conflict_spans(lines: list[str]) -> list[tuple[int, int]]:
    """The merge conflicts git (or `palace sync`) left: (first, last) line of each `<<<<<<<` ... `>>>>>>>`."""
    spans: list[tuple[int, int]] = []
    start: int | None = None
    middle = False
    for number, line in enumerate(lines):
        if _is_marker(line, "<"):
            start, middle = number, False
        elif start is not None and line.rstrip() == "=" * 7:
            middle = True
        elif start is not None and middle and _is_marker(line, ">"):
            spans.append((start, number))
            start = None
    return spans


def section_label(section: Section) -> str:
    """Where a section is, in words: "Preferences/editors", "ifai/Decisions", "Decisions", "ifai"."""
    if section.kind == Kind.ROOM and section.hall is not None and section.room is not None:
        return str(MemoryPath(section.wing, section.hall, section.room))
    if section.kind == Kind.WING_HALL and section.hall is not None:
        return f"{section.wing}/{section.hall.value}"
    if section.kind == Kind.HALL and section.hall is not None:
        return section.hall.value
    return section.wing if section.kind == Kind.WING and section.wing else section.heading.text


def _conflict_problems(doc: Document) -> _Found:
    """Merge conflict markers: which room they are in and what to do."""
    for start, end in conflict_spans(doc.lines):
        # The markers may read as a heading themselves ("=======" under a line), which ends the room there.
        around = [s for s in doc.sections if s.heading.line < start <= s.end]
        where = f"in {section_label(around[-1])}" if around else "at the top of the file"
        yield (
            start,
            "error",
            f"an unresolved merge conflict {where} (lines {start + 1}-{end + 1}): keep one side "
            "(or write what both should say), delete the markers",
        )


def lint_document(
    doc: Document, *, entry_limit: int = 200, soft_limit: int = 100, name: str = "memories.md", budget: int = 8192
) -> LintReport:
    """Every problem in doc, in line order."""
    report = LintReport(entries=sum(1 for e in doc.entries if e.path is not None))
    checks = (
        _conflict_problems(doc),
        _heading_problems(doc),
        _room_problems(doc),
        _entry_problems(doc, entry_limit),
        _text_problems(doc),
        _budget_problems(doc, budget),
    )
    for found in checks:
        report.problems.extend(Problem(line + 1, severity, message, name) for line, severity, message in found)
    if report.entries > soft_limit:
        message = (
            f"{report.entries} entries, more than the soft limit of {soft_limit}; "
            "consider forgetting stale ones (nothing is deleted automatically)"
        )
        report.problems.append(Problem(0, "warning", message, name))
    report.problems.sort(key=lambda p: p.line)
    return report


def lint_file(path: Path, *, entry_limit: int = 200, soft_limit: int = 100, budget: int = 8192) -> LintReport:
    """Lint a memories file on disk; StoreError when it cannot be read."""
    data = read_regular(path)
    if data is None:
        raise StoreError(f"cannot read {path}: No such file or directory")
    doc = Document.parse(data)
    return lint_document(doc, entry_limit=entry_limit, soft_limit=soft_limit, name=str(path), budget=budget)
