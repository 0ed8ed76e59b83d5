"""The session archive has one writer and one reader (palace/archives.py); a session's file name one pattern."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from palace.archives import Archive, format_archive, read_archive
from palace.paths import session_file
from tests.conftest import CliRun

_words = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1)
_line = _words.map(lambda t: " ".join(t.split())).filter(lambda t: bool(t) and not t.startswith(("#", "-", "(")))
_wing = st.from_regex(r"[a-z][a-z0-9_-]{0,12}", fullmatch=True)
_moment = st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2099, 1, 1)).map(
    lambda d: d.replace(second=0, microsecond=0, tzinfo=timezone(timedelta(hours=2)))
)


@given(
    started=_moment,
    minutes=st.integers(0, 10_000),
    model=_line,
    wings=st.lists(_wing, max_size=3, unique=True),
    turns=st.integers(0, 10_000),
    summary=st.lists(_line, max_size=3).map(lambda ps: "\n\n".join(ps)),
    goals=st.lists(_line, max_size=3),
    usage=st.tuples(st.integers(0, 10**9), st.integers(0, 10**9)),
    memories=st.lists(st.tuples(_wing, _line), max_size=4),
)
def test_what_format_archive_writes_read_archive_reads_back(
    started: datetime,
    minutes: int,
    model: str,
    wings: list[str],
    turns: int,
    summary: str,
    goals: list[str],
    usage: tuple[int, int],
    memories: list[tuple[str, str]],
) -> None:
    facts = Archive(
        started=started,
        ended=started + timedelta(minutes=minutes),
        model=model,
        wings=wings,
        turns=turns,
        summary=summary,
        usage=usage,
    )
    working = ["Goals:", *(f"- {goal}" for goal in goals)] if goals else []
    lines = [f"- **{path}/Decisions/x**: {text} (saved by the model)" for path, text in memories]
    text = format_archive(facts, day=f"{started:%Y-%m-%d}", short="a1b2c3d4", working_lines=working, memory_lines=lines)
    back = read_archive(text)
    assert back.session_id == f"{started:%Y-%m-%d}-a1b2c3d4"
    assert (back.started, back.ended, back.model, back.wings, back.turns) == (
        facts.started,
        facts.ended,
        model,
        wings,
        turns,
    )
    assert back.summary == summary and not back.stand_in
    assert back.working == ({"Goals": goals} if goals else {})
    assert back.usage == usage
    assert [(m.path, m.content, m.how) for m in back.memories] == [
        (f"{path}/Decisions/x", text, "saved by the model") for path, text in memories
    ]


def test_a_heading_inside_fenced_code_is_no_section() -> None:
    text = "# Session 2026-01-02 · 0123abcd\n\n- Wing: acme\n\n## Summary\nWe wrote:\n```md\n## Token Usage\n```\n"
    archive = read_archive(text)
    assert archive.summary == "We wrote:\n```md\n## Token Usage\n```" and archive.wings == ["acme"]


def test_a_stand_in_summary_is_told_apart() -> None:
    archive = read_archive('## Summary\n(no summary: extraction failed) It began with: "hi"\n')
    assert archive.stand_in and archive.summary.startswith("(no summary:")
    assert read_archive("## Summary\n(no summary)\n").summary == ""


def test_one_pattern_decides_what_is_a_session_file() -> None:
    assert session_file("2026-01-01-0123abcd.md") is not None
    assert session_file("2026-01-01-0123abcd.jsonl") is not None
    for name in ("2026-01-01-notes.md", "2026-13-01-0123abcd.md", "2026-01-01-0123ABCD.md", "2026-01-01-0123abcd.txt"):
        assert session_file(name) is None, name


def test_a_file_that_is_no_session_is_ignored_by_every_command_and_named_by_doctor(
    run_cli: Callable[..., CliRun], palace_home: Path
) -> None:
    sessions = palace_home / "sessions"
    sessions.mkdir(parents=True)
    body = "- Started: 2026-01-01 10:00 +00:00\n- Wing: (none)\n- Turns: 1\n\n## Summary\nWe planned the zeppelin.\n"
    (sessions / "2026-01-01-notes.md").write_text("# Notes\n\n" + body)
    (sessions / "2026-01-02-0123abcd.md").write_text("# Session 2026-01-02 · 0123abcd\n\n" + body)
    listed = run_cli("sessions", "list").stdout
    assert "0123abcd" in listed and "notes" not in listed
    found = run_cli("sessions", "search", "zeppelin").stdout
    assert "0123abcd" in found and "notes" not in found
    shown = run_cli("sessions", "show", "2026-01-01-notes")
    assert shown.returncode != 0
    doctor = run_cli("doctor").stdout
    assert "sessions: 1 archived, 0 journals" in doctor
    assert "1 file(s) that no command reads" in doctor and "2026-01-01-notes.md" in doctor
