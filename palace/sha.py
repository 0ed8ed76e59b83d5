"""sha256 of palace's files, without loading OpenSSL for a small one in a short process.

`import hashlib` loads OpenSSL (~5 ms), most of what a digest costs in `palace memory save`; CPython's own
sha256 gives the same digest, ~8x slower (0.4 ms for 80 KB), which a short process gains from. A long-lived
one (the REPL) calls long_lived() first; once hashlib is loaded (there, or for a big file) it is used.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any

_builtin_sha256: Callable[[bytes], Any] | None
try:
    _builtin_sha256 = importlib.import_module("_sha256").sha256  # CPython's built-in implementation
except (ImportError, AttributeError):  # a build without it
    _builtin_sha256 = None

_SMALL = 256 * 1024


def sha256_hex(data: bytes) -> str:
    """The sha256 of data, as 64 hex digits."""
    if _builtin_sha256 is not None and len(data) < _SMALL and "hashlib" not in sys.modules:
        return str(_builtin_sha256(data).hexdigest())
    import hashlib

    return hashlib.sha256(data).hexdigest()


def long_lived() -> None:
    """This process will hash many times: load OpenSSL's sha256 now."""
    import hashlib  # noqa: F401
