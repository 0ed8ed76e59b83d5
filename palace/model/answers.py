"""Reading JSON out of a model's answer, tolerantly: think tags, code fences, prose around the object."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

_FENCE_BLOCK = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\n(.*?)```", re.S)
_THINK = re.compile(r"<think>.*?</think>", re.S | re.I)


def json_values(text: str) -> Iterator[Any]:
    """Every JSON value the answer may mean, most likely first (lazily); ValueError when it is empty."""
    text = _THINK.sub("", text or "").strip()
    if not text:
        raise ValueError("the answer was empty")
    return _values(text)


def _values(text: str) -> Iterator[Any]:
    for candidate in [text, *(m.group(1).strip() for m in _FENCE_BLOCK.finditer(text))]:
        try:
            yield json.loads(candidate)
        except (ValueError, RecursionError):
            continue
    decoder = json.JSONDecoder()
    for start in [i for i, ch in enumerate(text) if ch in "{["][:200]:
        try:
            yield decoder.raw_decode(text, start)[0]
        except (ValueError, RecursionError):
            continue
