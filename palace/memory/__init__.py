"""The memory palace: halls and paths, the markdown document, the store."""

from palace.memory.halls import HALL_LIST, Hall, MemoryPath, parse_hall, parse_path, room_slug
from palace.memory.ops import ChangeResult
from palace.memory.store import MemoryStore, WriteHook

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
