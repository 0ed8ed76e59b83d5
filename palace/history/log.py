"""`palace log`: the history of memories.md in plain words, read from git and parsed by memory/document.py."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from palace.history.git import HAND_EDIT_MESSAGE, GitTrouble, first_line, is_own_repo, run_git
from palace.memory.document import Document, Entry, Kind
from palace.memory.ops import normalise
from palace.paths import MEMORIES
from palace.record import field, record

_ENABLE = (
    "Run `palace init --git` to keep one: every memory change (by palace or by hand) becomes a "
    "git commit, and `palace log` shows them."
)
_LEGEND = "History of memories.md, newest first (+ added, - forgotten, ~ refreshed):\n\n"


@record
class _Sides:
    """Both versions of the file in one whole-file diff, and which of their lines the diff changed."""

    old: list[str] = field(default_factory=list)
    new: list[str] = field(default_factory=list)
    removed: set[int] = field(default_factory=set)  # line numbers in old
    added: set[int] = field(default_factory=set)  # line numbers in new
    created: bool = False
    deleted: bool = False


def _sides(diff_lines: list[str]) -> _Sides:
    """The old and new text of a diff made with unlimited context (one hunk spans the whole file)."""
    sides = _Sides()
    in_hunk = False
    for raw in diff_lines:
        if not in_hunk:
            sides.created = sides.created or raw.startswith("new file mode")
            sides.deleted = sides.deleted or raw.startswith("deleted file mode")
            in_hunk = raw.startswith("@@")
            continue
        if not raw or raw[0] not in " +-":
            continue  # "\ No newline at end of file" and the like
        sign, line = raw[0], raw[1:]
        if sign in " -":
            if sign == "-":
                sides.removed.add(len(sides.old))
            sides.old.append(line)
        if sign in " +":
            if sign == "+":
                sides.added.add(len(sides.new))
            sides.new.append(line)
    return sides


def _document(lines: list[str]) -> Document:
    return Document.parse("\n".join(lines).encode("utf-8", "surrogateescape") + (b"\n" if lines else b""))


def _keyed(doc: Document) -> dict[tuple[str, str], Entry]:
    return {(str(e.path).casefold(), normalise(e.content)): e for e in doc.entries if e.path is not None}


def _structure_lines(doc: Document) -> set[int]:
    """Lines that are entries in rooms or structural headings (everything else is the user's own text)."""
    lines: set[int] = set()
    for entry in doc.entries:
        if entry.path is not None:
            lines.update(range(entry.start, entry.end))
    for section in doc.sections:
        if section.kind != Kind.OTHER:
            lines.update(range(section.heading.line, section.heading.end))
    return lines


def _other_changes(doc: Document, changed: set[int]) -> int:
    structure = _structure_lines(doc)
    return sum(1 for n in changed if n not in structure and doc.lines[n].strip())


def describe_change(diff_lines: list[str]) -> list[str]:
    """The lines `palace log` shows for one commit's whole-file diff of memories.md."""
    sides = _sides(diff_lines)
    old, new = _document(sides.old), _document(sides.new)
    before, after = _keyed(old), _keyed(new)
    body = [f"    - {e.path}: {e.content}" for key, e in before.items() if key not in after]
    for key, entry in after.items():
        if key not in before:
            body.append(f"    + {entry.path}: {entry.content}")
        elif before[key].date != entry.date:
            body.append(f"    ~ {entry.path}: {entry.content}  (date refreshed)")
    if sides.created or sides.deleted:
        body.insert(0, f"    {'created' if sides.created else 'deleted'} memories.md")
        return body
    other = _other_changes(old, sides.removed) + _other_changes(new, sides.added)
    if other:
        body.append(f"    ({other} other line{'s' if other != 1 else ''} changed)")
    return body


def _who(subject: str, author: str) -> str:
    if subject == HAND_EDIT_MESSAGE:
        return "hand edit"
    if subject.startswith(("memory: ", "session: ", "palace: ")):
        return "palace: " + subject.split(": ", 1)[1]
    return f"commit by {author}: {subject}"


def _git_log(home: Path, since: date | None) -> tuple[str | None, str]:
    """(the raw log, None) or (None, a message saying why there is none)."""
    args = [
        "log",
        "-p",
        "--no-color",
        "--no-ext-diff",
        "--no-textconv",
        "--text",
        "--no-renames",
        "--unified=1000000",
        "--format=%x1e%H%x1f%ad%x1f%an%x1f%s",
        "--date=format:%Y-%m-%d %H:%M",
    ]
    if since is not None:
        args.append(f"--since={since.isoformat()} 00:00:00")
    try:
        proc = run_git(home, *args, "--", MEMORIES, check=False)
    except GitTrouble as exc:
        return None, f"Cannot read the history of {home}: {exc}.\n"
    if proc.returncode != 0:
        if "does not have any commits" in proc.stderr.decode("utf-8", "replace"):
            return None, "memories.md has no history yet.\n"
        return None, f"Cannot read the history of {home}: git log: {first_line(proc.stderr)}\n"
    return proc.stdout.decode("utf-8", "surrogateescape"), ""


def history_log(home: Path, *, since: date | None = None) -> str:
    """The history of memories.md, readable without knowing git."""
    home = Path(home).expanduser()
    try:
        if not is_own_repo(home):
            return f"{home} is not a git repository, so memories.md has no history yet.\n{_ENABLE}\n"
    except GitTrouble as exc:
        return f"Cannot read the history of {home}: {exc}.\n"
    raw, why = _git_log(home, since)
    if raw is None:
        return why
    out: list[str] = []
    for chunk in raw.split("\x1e")[1:]:
        header, _, diff = chunk.partition("\n")
        parts = header.split("\x1f")
        if len(parts) < 4:
            continue
        when, author, subject = parts[1], parts[2], "\x1f".join(parts[3:])
        out.append(f"{when}  {_who(subject, author)}")
        out.extend(describe_change(diff.split("\n")) or ["    (no visible change)"])
        out.append("")
    if not out:
        return f"No changes to memories.md since {since}.\n" if since else "memories.md has no history yet.\n"
    return _LEGEND + "\n".join(out)
