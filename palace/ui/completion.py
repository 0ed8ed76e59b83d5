"""Tab completion in the REPL: slash commands, then memory paths after /remember and /forget."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from palace.errors import PalaceError
from palace.memory.halls import Hall
from palace.memory.store import MemoryStore
from palace.ui import commands

if TYPE_CHECKING:
    from prompt_toolkit.completion import CompleteEvent, Completer, Completion
    from prompt_toolkit.document import Document as PTDocument


def memory_paths(store: MemoryStore) -> list[str]:
    """The rooms memories.md has (as paths), and each hall as a start."""
    try:
        doc = store.document()
    except PalaceError:
        return []
    paths = {str(entry.path) for entry in doc.entries if entry.path is not None}
    paths.update(f"{hall.value}/" for hall in Hall)
    return sorted(paths)


def completer(store: MemoryStore) -> Completer:
    """A prompt_toolkit completer for the REPL's input line."""
    from prompt_toolkit.completion import Completer, Completion

    class _PalaceCompleter(Completer):
        def get_completions(self, document: PTDocument, complete_event: CompleteEvent) -> Iterator[Completion]:
            text = document.text_before_cursor
            if not text.startswith("/"):
                return
            if " " not in text:
                for word in commands.words_for_completion():
                    if word.startswith(text):
                        yield Completion(word, start_position=-len(text))
                return
            word, _, rest = text.partition(" ")
            if word in {"/remember", "/forget"} and " " not in rest:
                for path in memory_paths(store):
                    if path.lower().startswith(rest.lower()):
                        yield Completion(path, start_position=-len(rest))

    return _PalaceCompleter()
