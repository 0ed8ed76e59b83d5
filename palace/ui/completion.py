"""Tab completion in the REPL: slash commands, memory paths after /remember and /forget, session ids after /bring.

Paths are completed in their display form (`Project Knowledge/db`), which the commands accept as typed
(palace/ui/pathargs.py); after an opening quote they are completed inside the quotes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from palace.errors import PalaceError
from palace.memory.halls import Hall
from palace.memory.store import MemoryStore
from palace.ui import commands
from palace.ui.pathargs import completion_text, typed_path

if TYPE_CHECKING:
    from prompt_toolkit.completion import CompleteEvent, Completer
    from prompt_toolkit.document import Document as PTDocument

_PATH_COMMANDS = frozenset({"remember", "forget"})


def _command(word: str) -> str | None:
    """The name of the command a (possibly abbreviated) word names; None for none."""
    try:
        return commands.resolve(word).name
    except PalaceError:
        return None


def _takes_a_path(word: str) -> bool:
    """Is word /remember or /forget, or a short form of one?"""
    return _command(word) in _PATH_COMMANDS


def memory_paths(store: MemoryStore) -> list[str]:
    """The rooms memories.md has (as paths), and each hall as a start, for the shared halls and each wing."""
    try:
        doc = store.document()
    except PalaceError:
        return []
    paths = {str(entry.path) for entry in doc.entries if entry.path is not None}
    for wing in (None, *doc.wings()):
        paths.update(f"{wing + '/' if wing else ''}{hall.value}/" for hall in Hall)
    return sorted(paths)


def path_completions(store: MemoryStore, typed: str) -> list[tuple[str, str]]:
    """(text to insert, what to show) for each memory path that what was typed begins."""
    prefix = " ".join(typed_path(typed).split()).casefold()  # `Project  Kn` still means `Project Kn`
    if typed_path(typed).endswith(" ") and prefix:
        prefix += " "
    return [(completion_text(path, typed), path) for path in memory_paths(store) if path.casefold().startswith(prefix)]


def completer(
    store: MemoryStore, *, home: Path | None = None, current: Callable[[], str | None] = lambda: None
) -> Completer:
    """A prompt_toolkit completer for the REPL's input line (`home`: the palace whose sessions /bring completes,
    but the `current` one)."""
    from prompt_toolkit.completion import Completer, Completion

    class _PalaceCompleter(Completer):
        def get_completions(self, document: PTDocument, complete_event: CompleteEvent) -> Iterator[Completion]:
            text = document.text_before_cursor
            if not text.startswith("/") or "\n" in text:
                return
            if " " not in text:
                for word in commands.words_for_completion():
                    if word.startswith(text.lower()):
                        yield Completion(word, start_position=-len(text))
                return
            word, _, rest = text.partition(" ")
            rest = rest.lstrip()
            if _takes_a_path(word):
                for insert, shown in path_completions(store, rest):
                    yield Completion(insert, start_position=-len(rest), display=shown)
            elif home is not None and " " not in rest and _command(word) == "bring":
                from palace.sessions.card import bring_choices

                for short, about in bring_choices(home, rest, exclude=current()):
                    yield Completion(short, start_position=-len(rest), display_meta=about)

    return _PalaceCompleter()
