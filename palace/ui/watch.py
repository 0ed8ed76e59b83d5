"""Notice hand edits of memories.md (in-place writes and rename-over saves alike), debounced."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from palace.threads import signals_for_main

DEBOUNCE_SECONDS = 0.25


class MemoryWatcher:
    """A watchdog observer on the palace folder that calls on_change once per burst of edits."""

    def __init__(self, file: Path, on_change: Callable[[], None], *, debounce: float = DEBOUNCE_SECONDS) -> None:
        self.file = file
        self.on_change = on_change
        self.debounce = debounce
        self._timer: threading.Timer | None = None
        self._lock = threading.Lock()
        self._observer: Any = None

    def _is_target(self, path: bytes | str | None) -> bool:
        if not path:
            return False
        return os.path.basename(os.fsdecode(path)) == self.file.name

    def _event(self, event: Any) -> None:
        if event.is_directory:
            return
        paths = (getattr(event, "src_path", None), getattr(event, "dest_path", None))
        if event.event_type in {"opened", "closed_no_write"} or not any(self._is_target(p) for p in paths):
            return
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = threading.Timer(self.debounce, self.on_change)
            self._timer.daemon = True
            with signals_for_main():
                self._timer.start()

    def start(self) -> bool:
        """Start watching; False (and no watching) when the platform cannot watch the folder."""
        from watchdog.events import FileSystemEventHandler
        from watchdog.observers import Observer

        watcher = self

        class _Handler(FileSystemEventHandler):
            def on_any_event(self, event: Any) -> None:
                watcher._event(event)

        try:
            self.file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            with signals_for_main():  # its threads (the inotify reader starts at schedule) inherit the mask
                observer = Observer()
                observer.daemon = True
                observer.schedule(_Handler(), str(self.file.parent), recursive=False)
                observer.start()
        except OSError:
            return False
        self._observer = observer
        return True

    def stop(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=2)
            self._observer = None
