"""The session archive's markdown (DESIGN 1.3): written by format_archive, read by read_archive, here only.

The catalog (`palace sessions list`), the context card and recall all read an archive through read_archive,
so they agree on what it says: its header lines, its sections (a `## ` line inside fenced code is text, not a
section), its summary and whether the summary is a stand-in for one the model never wrote.
"""

from __future__ import annotations

import re
from datetime import date, datetime

from palace.record import field, record

NO_SUMMARY = "(no summary)"  # what an archive says when it has none
STAND_IN = "(no summary:"  # ... and how a stand-in begins: "(no summary: extraction failed) It began with: ..."
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FIELD = re.compile(r"^- (Started|Ended|Model|Wings?|Turns):[ \t]*(.*?)[ \t]*$")
_TIME = re.compile(r"^(\d{4}-\d{2}-\d{2})(?: (\d{2}:\d{2})(?: ([+-]\d{2}:\d{2}))?)?")
_ITEM = re.compile(r"^\s{0,3}[-*+]\s+(.*\S)\s*$")
_MEMORY = re.compile(r"^\*\*(.+?)\*\*:?\s*(.*?)(?: \(([^()]*)\))?$")
_COUNT = re.compile(r"^- (Input|Output|Total):\s*([\d,]+)")
_SINCE = re.compile(r" \(since \d{4}-\d{2}-\d{2}\)$")


@record(frozen=True)
class MemoryLine:
    """One line of `## Memories Extracted`: the path, the text, and how it came (`saved by the model`)."""

    path: str
    content: str
    how: str


@record
class Archive:
    """What an archive says."""

    session_id: str = ""  # from its title line `# Session 2026-11-30 · a1b2c3d4` ("" when it has none)
    started: datetime | None = None
    ended: datetime | None = None
    model: str = ""
    wings: list[str] = field(default_factory=list)
    turns: int = 0
    summary: str = ""  # "" when the archive has none; a stand-in is kept (see stand_in)
    stand_in: bool = False  # the summary is palace's note that the model wrote none
    working: dict[str, list[str]] = field(default_factory=dict)  # "Goals" -> lines
    usage: tuple[int, int] = (0, 0)  # input and output tokens
    memories: list[MemoryLine] = field(default_factory=list)
    sections: dict[str, list[str]] = field(default_factory=dict)  # every section's lines, by case-folded name

    @property
    def day(self) -> str | None:
        """The day the session started (its own time zone)."""
        return self.started.date().isoformat() if self.started is not None else None


# ---------------------------------------------------------------------- writing


def format_time(moment: datetime) -> str:
    """`2026-11-30 14:35 +00:00`, as in the archive header."""
    delta = moment.utcoffset()
    minutes = int(delta.total_seconds() // 60) if delta is not None else 0
    sign = "-" if minutes < 0 else "+"
    minutes = abs(minutes)
    return f"{moment:%Y-%m-%d %H:%M} {sign}{minutes // 60:02d}:{minutes % 60:02d}"


def _summary_block(summary: str) -> str:
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", summary)]
    paragraphs = [("\\" + p if p.startswith("#") else p) for p in paragraphs if p]
    return "\n\n".join(paragraphs) or NO_SUMMARY


def format_archive(archive: Archive, *, day: str, short: str, working_lines: list[str], memory_lines: list[str]) -> str:
    """The archive markdown of a session (its text already redacted by the caller)."""
    started, ended = archive.started, archive.ended or archive.started
    assert started is not None and ended is not None
    input_tokens, output_tokens = archive.usage
    working = working_lines
    parts = [
        f"# Session {day} · {short}",
        "",
        f"- Started: {format_time(started)}",
        f"- Ended: {format_time(ended)}",
        f"- Model: {archive.model}",
        f"- Wing: {', '.join(archive.wings) or '(none)'}",
        f"- Turns: {archive.turns}",
        "",
        "## Summary",
        _summary_block(archive.summary or NO_SUMMARY),
        "",
        *(["## Working Context", *working, ""] if working else []),
        "## Token Usage",
        f"- Input: {input_tokens:,}",
        f"- Output: {output_tokens:,}",
        f"- Total: {input_tokens + output_tokens:,}",
        "",
        "## Memories Extracted",
        *(memory_lines or ["- (none)"]),
    ]
    return "\n".join(parts) + "\n"


# ---------------------------------------------------------------------- reading


def parse_time(text: str) -> datetime | None:
    """The moment of a header value (`2026-11-30 14:35 +00:00`, or a date alone), None when unreadable."""
    match = _TIME.match(text)
    if match is None:
        return None
    day, clock, zone = match.groups()
    try:
        if clock is None:
            return datetime.combine(date.fromisoformat(day), datetime.min.time())
        return datetime.fromisoformat(f"{day}T{clock}{zone or ''}")
    except ValueError:
        return None


def _split(text: str) -> tuple[list[str], dict[str, list[str]], str]:
    """(the header's lines, each level-2 section's lines, the title), fenced code kept whole."""
    head: list[str] = []
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    fence: str | None = None
    title = ""
    for line in text.splitlines():
        marker = _FENCE.match(line)
        if marker and (fence is None or marker.group(1)[0] == fence):
            fence = None if fence else marker.group(1)[0]
        heading = _HEADING.match(line) if fence is None else None
        if heading and len(heading.group(1)) == 2:
            current = sections.setdefault(heading.group(2).strip().casefold(), [])
        elif heading and len(heading.group(1)) == 1:
            title = title or heading.group(2).strip()
        elif current is not None:
            current.append(line)
        else:
            head.append(line)
    return head, sections, title


def _header(archive: Archive, lines: list[str]) -> None:
    for line in lines:
        match = _FIELD.match(line)
        if match is None:
            continue
        name, value = match.groups()
        if name == "Started":
            archive.started = parse_time(value)
        elif name == "Ended":
            archive.ended = parse_time(value)
        elif name == "Model":
            archive.model = value
        elif name.startswith("Wing"):
            archive.wings = [] if value.startswith("(") else [w.strip() for w in value.split(",") if w.strip()]
        elif value.isdigit():
            archive.turns = int(value)


def _working(lines: list[str]) -> dict[str, list[str]]:
    working: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in lines:
        if line.endswith(":") and not line.startswith("- "):
            current = working.setdefault(line[:-1].strip(), [])
        elif line.startswith("- ") and current is not None:
            current.append(_SINCE.sub("", line[2:].strip()))
    return working


def _memories(lines: list[str]) -> list[MemoryLine]:
    found = []
    for line in lines:
        item = _ITEM.match(line)
        if item is None or item.group(1) == "(none)":
            continue
        memory = _MEMORY.match(item.group(1))
        if memory is not None:
            found.append(MemoryLine(memory.group(1), memory.group(2), memory.group(3) or ""))
        else:
            found.append(MemoryLine("", item.group(1), ""))
    return found


def _usage(lines: list[str]) -> tuple[int, int]:
    counts = {m.group(1): int(m.group(2).replace(",", "")) for line in lines if (m := _COUNT.match(line))}
    return counts.get("Input", 0), counts.get("Output", 0)


def read_archive(text: str) -> Archive:
    """What an archive's markdown says; never fails (a hand-written or cut-off archive gives what it has)."""
    head, sections, title = _split(text)
    archive = Archive(sections=sections)
    title_match = re.match(r"^Session (\d{4}-\d{2}-\d{2}) · ([0-9a-f]{8})$", title)
    if title_match is not None:
        archive.session_id = f"{title_match.group(1)}-{title_match.group(2)}"
    _header(archive, head)
    summary = "\n".join(sections.get("summary", [])).strip()
    archive.stand_in = summary.startswith(STAND_IN)
    archive.summary = "" if summary == NO_SUMMARY else summary
    archive.working = _working(sections.get("working context", []))
    archive.usage = _usage(sections.get("token usage", []))
    archive.memories = _memories(sections.get("memories extracted", []))
    return archive
