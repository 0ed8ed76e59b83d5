"""sha256 of palace's files, with the digests of the last few big texts remembered.

Each save hashes the file before and after it, and the file before is the last save's after: comparing bytes
(memcmp) costs a fraction of hashing them. hashlib (and with it OpenSSL, ~2 ms) is imported on first use, so a
process that never hashes never pays for it.
"""

from __future__ import annotations

import threading

_REMEMBERED = 16 * 1024  # texts at least this big have their digest remembered
_RECENT = 4  # digests of big texts kept: a save hashes the file before (the last save's after) and after
_recent: list[tuple[bytes, str]] = []
_recent_lock = threading.Lock()


def sha256_hex(data: bytes) -> str:
    """The sha256 of data, as 64 hex digits."""
    import hashlib

    if len(data) < _REMEMBERED:
        return hashlib.sha256(data).hexdigest()
    return _big(data)


def _big(data: bytes) -> str:
    """The digest of a big text, remembered."""
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
    """This process will hash many times: load hashlib now, while the user types."""
    import hashlib  # noqa: F401
