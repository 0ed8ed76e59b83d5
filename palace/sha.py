"""sha256 of palace's files, without loading OpenSSL for a small one in a short process.

`import hashlib` loads OpenSSL (~5 ms), most of what a digest costs in `palace memory save`; CPython's own
sha256 gives the same digest, ~8x slower (0.4 ms for 80 KB), which a short process gains from. A long-lived
one (the REPL) calls long_lived() first; once hashlib is loaded (there, or for a big file) it is used.
The digests of the last few big texts are remembered: each save hashes the file before and after it, and
the file before is the last save's after.
"""

from __future__ import annotations

import importlib
import sys
import threading
from collections.abc import Callable
from typing import Any

_builtin_sha256: Callable[[bytes], Any] | None
try:
    _builtin_sha256 = importlib.import_module("_sha256").sha256  # CPython's built-in implementation
except (ImportError, AttributeError):  # a build without it
    _builtin_sha256 = None

_SMALL = 256 * 1024
_REMEMBERED = 16 * 1024  # texts at least this big have their digest remembered
_RECENT = 4  # digests of big texts kept: a save hashes the file before (the last save's after) and after
_recent: list[tuple[bytes, str]] = []
_recent_lock = threading.Lock()


def sha256_hex(data: bytes) -> str:
    """The sha256 of data, as 64 hex digits."""
    if _builtin_sha256 is not None and len(data) < _SMALL and "hashlib" not in sys.modules:
        return str(_builtin_sha256(data).hexdigest())
    if len(data) < _REMEMBERED:
        import hashlib

        return hashlib.sha256(data).hexdigest()
    return _big(data)


def _big(data: bytes) -> str:
    """The digest of a big text, remembered: comparing bytes (memcmp) costs a fraction of hashing them."""
    with _recent_lock:
        for seen, digest in reversed(_recent):
            if seen is data or (len(seen) == len(data) and seen == data):
                return digest
    import hashlib

    digest = hashlib.sha256(data).hexdigest()
    with _recent_lock:
        _recent.append((data, digest))
        del _recent[:-_RECENT]
    return digest


def long_lived() -> None:
    """This process will hash many times: load OpenSSL's sha256 now."""
    import hashlib  # noqa: F401
