"""The three-way merge of memories.md (history/merge.py), driven by palace's own operations on both sides.

Base, ours and theirs are built with ops.save / ops.forget (what the store writes) and hand edits; the merge
must keep every entry either side kept or added, drop what one side forgot and the other left alone, keep
what one side forgot and the other refreshed (and say so), and leave conflict markers only for true
conflicts, inside their room.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from palace.history import merge as merge_module
from palace.history.merge import merge_memories, run_driver
from palace.history.tree import OURS_MARK, THEIRS_MARK
from palace.memory import ops
from palace.memory.document import Document
from palace.memory.halls import parse_path
from palace.memory.lint import lint_document

ROOMS = [
    "Preferences/editors",
    "Preferences/shells",
    "Decisions/database",
    "ifai/Project Knowledge/stack",
    "ifai/Decisions/api",
    "alice/Workflow Patterns/reviews",
]
START = b"# Memories\n\nIntro line one.\n\nIntro line two.\n"


def save(data: bytes, path: str, content: str, day: str, replaces: str | None = None) -> bytes:
    new, _ = ops.save(Document.parse(data), parse_path(path), content, day, replaces=replaces)
    return data if new is None else new


def forget(data: bytes, path: str, content: str) -> bytes:
    return ops.forget(Document.parse(data), parse_path(path), content)[0]


def entries(data: bytes) -> list[tuple[str, str, str | None]]:
    return sorted((str(e.path), e.content, e.date) for e in Document.parse(data).entries if e.path is not None)


def marker_lines(data: bytes) -> list[int]:
    lines = data.decode("utf-8", "surrogateescape").splitlines()
    return [n for n, line in enumerate(lines) if line.startswith(("<<<<<<<", "=======", ">>>>>>>"))]


# --------------------------------------------------------------------------- one machine's edits, modelled

Op = tuple[str, int, int]  # (kind, room, pick)


@dataclass
class Machine:
    """A version of memories.md and what it should hold: (path, content) -> date; plus its hand-written lines."""

    name: str
    data: bytes
    model: dict[tuple[str, str], str]
    prose: set[str] = field(default_factory=set)
    counter: int = 0

    def copy(self, name: str) -> Machine:
        return Machine(name, self.data, dict(self.model), set(self.prose))

    def apply(self, op: Op, day: str, *, parity: int) -> None:
        kind, room, pick = op
        self.counter += 1
        path = str(parse_path(ROOMS[room]))
        known = sorted(self.model)
        if kind == "save":
            content = f"{self.name}{self.counter} fact{self.name}{self.counter} detail{self.name}{self.counter}"
            self.data = save(self.data, path, content, day)
            self.model[(path, content)] = day
        elif kind == "shared":  # the same fact saved on several machines, perhaps to different rooms of a wing
            content = f"shared{pick} common{pick}"
            scope = parse_path(path).wing_key
            # palace's save refreshes an equal entry wherever it is in the wing
            path = next((p for p, c in known if c == content and parse_path(p).wing_key == scope), path)
            self.data = save(self.data, path, content, day)
            self.model[(path, content)] = day
        elif kind in {"refresh", "forget"} and known:
            path, content = known[pick % len(known)]
            if kind == "refresh":
                self.data = save(self.data, path, content, day)
                self.model[(path, content)] = day
            else:
                self.data = forget(self.data, path, content)
                del self.model[(path, content)]
        elif kind == "note" and room % 2 == parity:  # each machine hand-edits its own rooms
            self._note(path, f"Note {self.name}{self.counter} written by hand.")

    def _note(self, path: str, note: str) -> None:
        doc = Document.parse(self.data)
        rooms = doc.room_sections(parse_path(path))
        if rooms:
            at = rooms[0].heading.end
            self.data = doc.splice(at, at, [note, ""])
            self.prose.add(note)


def expected_merge(base: Machine, ours: Machine, theirs: Machine) -> tuple[list[tuple[str, str, str | None]], set[str]]:
    """The entries the merge must produce, and the contents it must say it kept."""
    result: list[tuple[str, str, str | None]] = []
    kept: set[str] = set()
    for key in sorted(set(base.model) | set(ours.model) | set(theirs.model)):
        z, a, b = base.model.get(key), ours.model.get(key), theirs.model.get(key)
        if a is None and b is None:
            continue
        if z is None:
            day = max(d for d in (a, b) if d is not None)
        elif a is None or b is None:
            present = a if a is not None else b
            if present == z:
                continue  # forgotten on one side, untouched on the other
            day = present
            kept.add(key[1])
        else:
            day = b if a == z else a if b == z else max(a, b)
        result.append((key[0], key[1], day))
    return _once_per_wing(result, ours, theirs), kept


def _once_per_wing(
    result: list[tuple[str, str, str | None]], ours: Machine, theirs: Machine
) -> list[tuple[str, str, str | None]]:
    """One fact that each side saved into another room of a wing: once, in ours' room, with the later date."""

    def wing(path: str) -> str | None:
        return parse_path(path).wing_key

    out: list[tuple[str, str, str | None]] = []
    groups: dict[tuple[str | None, str], list[tuple[str, str, str | None]]] = {}
    for item in result:
        groups.setdefault((wing(item[0]), item[1]), []).append(item)
    for (scope, content), items in groups.items():
        in_side = [[p for p, c in side.model if c == content and wing(p) == scope] for side in (ours, theirs)]
        if len(items) < 2 or len(in_side[0]) > 1 or len(in_side[1]) > 1:
            out += items
            continue
        path = in_side[0][0] if in_side[0] and any(i[0] == in_side[0][0] for i in items) else items[0][0]
        out.append((path, content, max(i[2] or "" for i in items) or None))
    return sorted(out)


def check_merge(base: Machine, ours: Machine, theirs: Machine) -> bytes:
    result = merge_memories(base.data, ours.data, theirs.data)
    merged = result.data
    assert result.conflicts == [] and marker_lines(merged) == []
    want, kept = expected_merge(base, ours, theirs)
    assert entries(merged) == want
    for content in kept:
        assert any(content in note for note in result.notes), (content, result.notes)
    texts = merged.decode("utf-8", "surrogateescape").splitlines()
    for line in ours.prose | theirs.prose:
        assert texts.count(line) == 1, line
    sources = set()
    for side in (base, ours, theirs):
        sources |= set(side.data.decode("utf-8", "surrogateescape").splitlines())
    assert all(line in sources for line in texts if line.strip()), "the merge wrote a line no side had"
    report = lint_document(Document.parse(merged))
    assert not report.has_errors, [str(p) for p in report.problems]
    assert not [p for p in report.problems if "twice" in p.message or "duplicate" in p.message]
    return merged


ops_strategy = st.lists(
    st.tuples(
        st.sampled_from(["save", "save", "shared", "refresh", "forget", "forget", "note"]),
        st.integers(0, len(ROOMS) - 1),
        st.integers(0, 11),
    ),
    max_size=12,
)


def build(base_ops: list[Op], ours_ops: list[Op], theirs_ops: list[Op]) -> tuple[Machine, Machine, Machine]:
    base = Machine("b", START, {})
    for number, op in enumerate(base_ops):
        base.apply(op, f"2026-01-{number + 1:02d}", parity=2)  # no hand notes in the base
    ours, theirs = base.copy("o"), base.copy("t")
    for side, side_ops, parity in ((ours, ours_ops, 0), (theirs, theirs_ops, 1)):
        for number, op in enumerate(side_ops):
            side.apply(op, f"2026-02-{number + 1:02d}", parity=parity)
    return base, ours, theirs


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base_ops=ops_strategy, ours_ops=ops_strategy, theirs_ops=ops_strategy, intro=st.booleans())
def test_concurrent_saves_refreshes_forgets_and_hand_edits_merge_cleanly(
    base_ops: list[Op], ours_ops: list[Op], theirs_ops: list[Op], intro: bool
) -> None:
    base, ours, theirs = build(base_ops, ours_ops, theirs_ops)
    if intro:  # a hand edit of the user's prose on each side, on different lines
        ours.data = ours.data.replace(b"Intro line one.", b"Intro line one, edited on the laptop.")
        theirs.data = theirs.data.replace(b"Intro line two.", b"Intro line two, edited on the desktop.")
        ours.prose.add("Intro line one, edited on the laptop.")
        theirs.prose.add("Intro line two, edited on the desktop.")
    check_merge(base, ours, theirs)
    check_merge(base, theirs, ours)  # and the other machine, merging the other way


@settings(max_examples=25, deadline=None)
@given(base_ops=ops_strategy, ours_ops=ops_strategy, theirs_ops=ops_strategy)
def test_the_current_sides_crlf_bom_and_missing_final_newline_are_kept(
    base_ops: list[Op], ours_ops: list[Op], theirs_ops: list[Op]
) -> None:
    base, ours, theirs = build(base_ops, ours_ops, theirs_ops)
    ours.data = b"\xef\xbb\xbf" + ours.data.replace(b"\n", b"\r\n").rstrip(b"\r\n")
    merged = check_merge(base, ours, theirs)
    assert merged.startswith(b"\xef\xbb\xbf") and not merged.endswith(b"\n")
    assert merged.count(b"\n") == merged.count(b"\r\n")


# --------------------------------------------------------------------------- the rules, one by one

DAY = "2026-03-01"


def _base() -> bytes:
    data = save(START, "Preferences/editors", "The user edits with vim every day", "2026-01-01")
    data = save(data, "Preferences/editors", "Tabs are four spaces", "2026-01-01")
    return save(data, "Decisions/database", "Postgres chosen over MySQL", "2026-01-01")


def test_the_same_entry_saved_on_both_sides_ends_once_with_the_later_date() -> None:
    base = _base()
    ours = save(base, "Decisions/api", "REST over gRPC", "2026-03-02")
    theirs = save(base, "Decisions/api", "rest over grpc.", "2026-03-05")
    result = merge_memories(base, ours, theirs)
    grpc = [e for e in entries(result.data) if "grpc" in e[1].lower()]
    assert grpc == [("Decisions/api", "rest over grpc.", "2026-03-05")]
    fact = "Postgres chosen over MySQL"
    later = save(base, "Decisions/database", fact, "2026-03-09")
    refreshed = merge_memories(base, later, save(base, "Decisions/database", fact, "2026-03-04"))
    assert ("Decisions/database", "Postgres chosen over MySQL", "2026-03-09") in entries(refreshed.data)


def test_a_forget_against_a_refresh_keeps_the_entry_and_says_so(tmp_path: Path) -> None:
    base = _base()
    ours = forget(base, "Decisions/database", "Postgres chosen over MySQL")  # the room goes with its last entry
    theirs = save(base, "Decisions/database", "Postgres chosen over MySQL", DAY)
    result = merge_memories(base, ours, theirs)
    assert ("Decisions/database", "Postgres chosen over MySQL", DAY) in entries(result.data)
    assert result.notes == [
        "kept Decisions/database: Postgres chosen over MySQL (forgotten on one side, refreshed or changed on the other)"
    ]
    untouched = merge_memories(base, ours, save(base, "Preferences/shells", "zsh with starship", DAY))
    assert "Postgres" not in untouched.data.decode() and untouched.notes == []


def test_new_rooms_halls_and_wings_from_both_sides_are_kept_at_the_end_of_their_parent() -> None:
    base = _base()
    ours = save(base, "Preferences/fonts", "Monospace fonts only", DAY)
    ours = save(ours, "ifai/Decisions/api", "REST over gRPC", DAY)
    theirs = save(base, "Preferences/themes", "Dark themes everywhere", DAY)
    theirs = save(theirs, "Workflow Patterns/testing", "pytest before every push", DAY)
    merged = merge_memories(base, ours, theirs).data
    doc = Document.parse(merged)
    rooms = [str(s.heading.text) for s in doc.sections]
    assert rooms == [
        "Preferences", "editors", "fonts", "themes", "Decisions", "database",
        "ifai", "Decisions", "api", "Workflow Patterns", "testing",
    ]  # fmt: skip
    assert len(entries(merged)) == 7 and marker_lines(merged) == []


def test_replaces_to_different_texts_conflict_in_that_room_only_and_lint_explains() -> None:
    base = _base()
    old = "The user edits with vim every day"
    ours = save(base, "Preferences/editors", "The user edits with neovim every day", DAY, replaces=old)
    ours = save(ours, "Decisions/database", "Postgres chosen over MySQL", "2026-03-02")
    theirs = save(base, "Preferences/editors", "The user edits with helix every day", DAY, replaces=old)
    theirs = save(theirs, "Preferences/shells", "zsh with starship", DAY)
    result = merge_memories(base, ours, theirs)
    text = result.data.decode()
    assert result.conflicts == ["Preferences/editors"]
    lines = text.splitlines()
    start, end = lines.index(OURS_MARK), lines.index(THEIRS_MARK)
    assert lines[start:end + 1] == [
        OURS_MARK, f"- [{DAY}] The user edits with neovim every day", "=======",
        f"- [{DAY}] The user edits with helix every day", THEIRS_MARK,
    ]  # fmt: skip
    assert lines[start - 1] == "### editors" and lines[end + 1] == "- [2026-01-01] Tabs are four spaces"
    # Everything else merged: the refresh and the new room.
    assert "- [2026-03-02] Postgres chosen over MySQL" in lines and f"- [{DAY}] zsh with starship" in lines
    problems = [p for p in lint_document(Document.parse(result.data)).problems if p.severity == "error"]
    assert [str(p) for p in problems] == [
        f"memories.md:{start + 1}: error: an unresolved merge conflict in Preferences/editors "
        f"(lines {start + 1}-{end + 1}): keep one side (or write what both should say), delete the markers"
    ]


def test_a_replace_against_a_refresh_or_a_forget_keeps_the_new_text() -> None:
    base = _base()
    old = "The user edits with vim every day"
    ours = save(base, "Preferences/editors", "The user edits with neovim every day", "2026-03-02", replaces=old)
    refreshed = save(base, "Preferences/editors", old, "2026-03-07")
    got = entries(merge_memories(base, ours, refreshed).data)
    assert ("Preferences/editors", "The user edits with neovim every day", "2026-03-07") in got
    assert not [e for e in got if e[1] == old]
    forgotten = merge_memories(base, ours, forget(base, "Preferences/editors", old))
    assert ("Preferences/editors", "The user edits with neovim every day", "2026-03-02") in entries(forgotten.data)
    assert len(forgotten.notes) == 1


def test_the_same_prose_line_changed_both_ways_is_a_conflict_around_that_line_only() -> None:
    base = _base()
    ours = save(base.replace(b"Intro line one.", b"Intro, the laptop's words."), "Preferences/shells", "fish", DAY)
    theirs = base.replace(b"Intro line one.", b"Intro, the desktop's words.")
    result = merge_memories(base, ours, theirs)
    lines = result.data.decode().splitlines()
    assert lines[:7] == [
        "# Memories", "", OURS_MARK, "Intro, the laptop's words.",
        "=======", "Intro, the desktop's words.", THEIRS_MARK,
    ]  # fmt: skip
    assert result.conflicts == ["the top of the file"] and f"- [{DAY}] fish" in lines
    problems = [str(p) for p in lint_document(Document.parse(result.data)).problems]
    assert problems == [
        "memories.md:3: error: an unresolved merge conflict at the top of the file (lines 3-7): keep one side "
        "(or write what both should say), delete the markers"
    ]


def test_entry_text_edited_on_one_side_and_refreshed_on_the_other_gets_both() -> None:
    base = _base()
    ours = base.replace(b"Tabs are four spaces", b"Tabs are four spaces (Python), two in YAML")
    theirs = save(base, "Preferences/editors", "Tabs are four spaces", "2026-03-08")
    got = entries(merge_memories(base, ours, theirs).data)
    assert ("Preferences/editors", "Tabs are four spaces (Python), two in YAML", "2026-03-08") in got


def test_two_palaces_with_no_common_base_are_joined() -> None:
    ours = save(START, "Preferences/editors", "vim everywhere", "2026-01-01")
    theirs = save(save(START, "Preferences/editors", "Dark themes", "2026-01-02"), "Decisions/x", "Chose y", DAY)
    result = merge_memories(b"", ours, theirs)
    assert result.conflicts == [] and result.data.startswith(START)
    assert [c for _, c, _ in entries(result.data)] == ["Chose y", "Dark themes", "vim everywhere"]


def test_bytes_that_are_not_utf8_survive() -> None:
    base = save(START + b"Caf\xe9 notes \xff.\n", "Preferences/editors", "vim", "2026-01-01")
    ours = save(base, "Preferences/editors", "Caf\u00e9 fonts", DAY)
    theirs = base.replace(b"\xff.", b"\xff and \xfe.")
    merged = merge_memories(base, ours, theirs).data
    assert b"Caf\xe9 notes \xff and \xfe.\n" in merged and "Caf\u00e9 fonts".encode() in merged


# --------------------------------------------------------------------------- the driver


def test_the_driver_merges_into_ours_and_exits_1_on_conflicts(tmp_path: Path) -> None:
    base = _base()
    old = "The user edits with vim every day"
    files = {name: tmp_path / name for name in ("O", "A", "B")}
    files["O"].write_bytes(base)
    files["A"].write_bytes(save(base, "Preferences/shells", "fish", DAY))
    files["B"].write_bytes(save(base, "Decisions/api", "REST", DAY))
    errors: list[str] = []

    class Err:
        def write(self, text: str) -> None:
            errors.append(text)

    assert run_driver(files["O"], files["A"], files["B"], "memories.md", err=Err()) == 0  # type: ignore[arg-type]
    assert {c for _, c, _ in entries(files["A"].read_bytes())} >= {"fish", "REST"}
    files["A"].write_bytes(save(base, "Preferences/editors", "The user edits with neovim every day", DAY, replaces=old))
    files["B"].write_bytes(save(base, "Preferences/editors", "The user edits with helix every day", DAY, replaces=old))
    assert run_driver(files["O"], files["A"], files["B"], "memories.md", err=Err()) == 1  # type: ignore[arg-type]
    assert len(marker_lines(files["A"].read_bytes())) == 3
    assert "memories.md: 1 conflict(s) left for you in Preferences/editors" in "".join(errors)


def test_the_driver_falls_back_on_gits_line_merge_if_the_structural_merge_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = _base()
    ours, theirs = save(base, "Preferences/shells", "fish", DAY), save(base, "Decisions/api", "REST", DAY)
    paths = [tmp_path / name for name in ("O", "A", "B")]
    for path, data in zip(paths, (base, ours, theirs), strict=True):
        path.write_bytes(data)
    expected = subprocess.run(
        ["git", "merge-file", "-p", str(paths[1]), str(paths[0]), str(paths[2])], capture_output=True, check=False
    )

    def broken(*args: bytes) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(merge_module, "merge_memories", broken)
    code = run_driver(*paths, "memories.md", err=open("/dev/null", "w"))  # noqa: SIM115
    assert code == (1 if expected.returncode else 0)
    assert paths[1].read_bytes() == expected.stdout


def test_one_fact_saved_on_each_side_in_another_room_of_a_wing_is_kept_once() -> None:
    base = _base()
    ours = save(base, "ifai/Decisions/api", "REST over gRPC", "2026-03-02")
    theirs = save(base, "ifai/Project Knowledge/protocols", "REST over gRPC", "2026-03-04")
    theirs = save(theirs, "ifai/Project Knowledge/stack", "Vue 3 in Tauri", "2026-03-04")
    result = merge_memories(base, ours, theirs)
    got = [e for e in entries(result.data) if e[0].startswith("ifai/")]
    assert got == [
        ("ifai/Decisions/api", "REST over gRPC", "2026-03-04"),
        ("ifai/Project Knowledge/stack", "Vue 3 in Tauri", "2026-03-04"),
    ]
    assert "protocols" not in result.data.decode()  # the room made only for it went with it
    assert result.notes == [
        "kept ifai/Decisions/api: REST over gRPC once (it was saved on the other side in "
        "ifai/Project Knowledge/protocols too)"
    ]
    other_wing = merge_memories(base, ours, save(base, "alice/Decisions/api", "REST over gRPC", DAY))
    assert len([e for e in entries(other_wing.data) if e[1] == "REST over gRPC"]) == 2  # two wings, two facts
