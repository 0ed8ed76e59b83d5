"""The memory palace: halls and paths, the markdown document, the store.

The names below are imported on first use, so that importing one module of the package (recall reads
memory.secrets and memory.files) does not load the store, the parser and the operations with it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from palace.memory.halls import HALL_LIST as HALL_LIST
    from palace.memory.halls import Hall as Hall
    from palace.memory.halls import MemoryPath as MemoryPath
    from palace.memory.halls import parse_hall as parse_hall
    from palace.memory.halls import parse_path as parse_path
    from palace.memory.halls import room_slug as room_slug
    from palace.memory.ops import ChangeResult as ChangeResult
    from palace.memory.store import MemoryStore as MemoryStore
    from palace.memory.store import WriteHook as WriteHook

_WHERE = {
    "HALL_LIST": "halls",
    "Hall": "halls",
    "MemoryPath": "halls",
    "parse_hall": "halls",
    "parse_path": "halls",
    "room_slug": "halls",
    "ChangeResult": "ops",
    "MemoryStore": "store",
    "WriteHook": "store",
}

__all__ = [
    "HALL_LIST",
    "ChangeResult",
    "Hall",
    "MemoryPath",
    "MemoryStore",
    "WriteHook",
    "parse_hall",
    "parse_path",
    "room_slug",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'palace.memory' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"palace.memory.{module}"), name)
    globals()[name] = value
    return value
