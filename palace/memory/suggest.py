"""Quick add: the rooms a fact could go to, without the path grammar and without a model call.

`/remember I use fish` and a `# ...` line in the REPL ask for a room: the existing rooms come first, ranked by
the words the fact shares with each room's name and entries (a word that many rooms hold counts little, a
word of the room's own name counts more), then a new room in the hall the fact's wording suggests.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from palace.memory.document import Document
from palace.memory.halls import Hall, MemoryPath, room_slug, wing_key
from palace.memory.keys import words_of

MAX_PROPOSALS = 5
_NAME_WEIGHT = 2.0  # a word of the room's own name says more than one of its entries
_STOP = frozenset(
    "a an the i we our my me you it its is are was be been to of in on at for with and or but not no so that "
    "this these those use uses using used always never prefer prefers like likes want wants user users do does "
    "should must will would can could just very than then there here have has had about into from by as all any "
    "every each more most also our us".split()
)
# Words that say which hall a new fact belongs to, the first hall that matches winning.
_HALL_CUES: tuple[tuple[Hall, tuple[str, ...]], ...] = (
    (Hall.DECISIONS, ("decided", "decide", "chose", "chosen", "agreed", "picked", "settled", "went with", "决定")),
    (Hall.WORKFLOW_PATTERNS, ("always run", "before ", "after ", "every time", "workflow", "habit", "routine",
                              "each morning", "first thing", "commit", "deploy", "release", "review")),
    (Hall.PREFERENCES, ("prefer", "like", "love", "hate", "dislike", "favourite", "favorite", "i use", "my ",
                        "喜欢", "习惯")),
)  # fmt: skip


# Tools people name instead of their kind: a fact about `neovim` fits a room about editors.
_KINDS = {
    "editor": "vim neovim nvim emacs helix zed vscode code kakoune nano sublime intellij pycharm xcode cursor",
    "shell": "bash zsh fish nushell pwsh powershell ksh tcsh dash starship",
    "language": "rust go golang python typescript javascript java kotlin swift ruby elixir haskell ocaml zig c++ "
    "scala clojure php lua julia nim dart",
    "test": "pytest vitest jest mocha junit rspec hypothesis unittest cypress playwright",
    "database": "postgres postgresql mysql mariadb sqlite redis mongodb dynamodb cassandra clickhouse",
    "font": "iosevka jetbrains fira hack menlo consolas",
}
_KIND_OF = {tool: kind for kind, tools in _KINDS.items() for tool in tools.split()}


def _stem(word: str) -> str:
    """A crude English stem, enough to let `editor` meet `editors` and `testing` meet `tests`."""
    for suffix in ("ing", "ers", "es", "er", "s"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def _terms(text: str) -> set[str]:
    words = [w for w in words_of(text) if w not in _STOP and not w.isdigit()]
    return {_stem(w) for w in words} | {_stem(_KIND_OF[w]) for w in words if w in _KIND_OF}


def _room_terms(room: str) -> set[str]:
    return _terms(room.replace("-", " "))


def propose_rooms(doc: Document, text: str, wings: Sequence[str] = ()) -> list[MemoryPath]:
    """Rooms for a fact, best first: fitting existing rooms of the shared halls and the active wings, then a
    new room in the hall the fact's words suggest."""
    keys = {wing_key(w) for w in wings}
    rooms: dict[MemoryPath, set[str]] = {}
    names: dict[MemoryPath, set[str]] = {}
    for entry in doc.entries:
        path = entry.path
        if path is None or (path.wing is not None and wing_key(path.wing) not in keys):
            continue
        rooms.setdefault(path, set()).update(_terms(entry.content))
        names.setdefault(path, _room_terms(path.room))
    wanted = _terms(text)
    scored = _score(wanted, rooms, names)
    proposals = [path for score, path in scored if score > 0][:MAX_PROPOSALS]
    fresh = new_room(text, wings[0] if wings and _is_about_project(text) else None)
    if fresh not in proposals:
        proposals.append(fresh)
    return proposals


def _score(
    wanted: set[str], rooms: dict[MemoryPath, set[str]], names: dict[MemoryPath, set[str]]
) -> list[tuple[float, MemoryPath]]:
    count = len(rooms) or 1
    df: dict[str, int] = {}
    for path, terms in rooms.items():
        for term in terms | names[path]:
            df[term] = df.get(term, 0) + 1
    scored = []
    for path, terms in rooms.items():
        score = 0.0
        for term in wanted:
            weight = math.log(1 + count / df.get(term, count))
            if term in names[path]:
                score += _NAME_WEIGHT * weight
            elif term in terms:
                score += weight
        scored.append((score, path))
    scored.sort(key=lambda pair: (-pair[0], str(pair[1])))
    return scored


def _is_about_project(text: str) -> bool:
    lowered = text.casefold()
    return not lowered.startswith(("i ", "my ", "i'm", "i am")) and " i " not in f" {lowered} "


def guess_hall(text: str) -> Hall:
    """The hall a fact's words suggest (Project Knowledge when none does)."""
    lowered = f" {text.casefold()} "
    for hall, cues in _HALL_CUES:
        if any(cue in lowered for cue in cues):
            return hall
    return Hall.PROJECT_KNOWLEDGE


def new_room(text: str, wing: str | None = None) -> MemoryPath:
    """A new room for the fact: its hall guessed, named after its longest word that says something."""
    words = [w for w in re.findall(r"[^\W\d_][\w-]*", text.casefold()) if w not in _STOP]
    name = max(words, key=len) if words else "notes"
    return MemoryPath(wing, guess_hall(text), room_slug(name) or "notes")
