"""The last few parsed documents: parsing bytes seen a moment ago is free, and parsing an edited version of
one of them re-parses only around the edit."""

from __future__ import annotations

import threading
from typing import Generic, Protocol, TypeVar


class _Parsed(Protocol):
    _raw: bytes | None  # the bytes it was parsed from


T = TypeVar("T", bound=_Parsed)


class Recent(Generic[T]):
    """Documents most recently parsed or used, the most recent last (shared between threads)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._docs: list[T] = []
        self._lock = threading.Lock()

    def clear(self) -> None:
        """Forget them (the next parse starts from nothing)."""
        with self._lock:
            self._docs.clear()

    def remember(self, doc: T) -> None:
        with self._lock:
            if doc in self._docs:
                self._docs.remove(doc)
            self._docs.append(doc)
            del self._docs[: -self.size]

    def find(self, data: bytes) -> tuple[T | None, T | None]:
        """(a remembered document of exactly these bytes, the most recent remembered document)."""
        with self._lock:
            for doc in reversed(self._docs):
                raw = doc._raw
                if raw is not None and (raw is data or (len(raw) == len(data) and raw == data)):
                    return doc, doc
            return None, (self._docs[-1] if self._docs else None)
