"""The extraction request (instructions, current memories, the conversation) and its answer, read tolerantly."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from palace.memory.halls import HALL_LIST
from palace.model.answers import json_values
from palace.model.prompts import fence, load_prompt, names
from palace.sessions.journal import content_text

PROMPT_NAME = "extract.md"
MAX_MESSAGE_CHARS = 12_000  # one huge message is cut (head and tail) in the extraction prompt
MAX_TOOL_CHARS = 300  # tool results are only summarised

_LEADING_DATE = re.compile(r"^\s*\[\d{4}-\d{2}-\d{2}\]\s*")
_LEADING_BULLET = re.compile(r"^\s*[-*+]\s+")


# ---------------------------------------------------------------------- prompt


def load_extract_prompt(home: Path | None) -> str:
    """The user's $PALACE_HOME/prompts/extract.md if present, else the packaged one."""
    return load_prompt(PROMPT_NAME, home)


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}\n[... {len(text) - limit:,} characters left out ...]\n{text[-half:]}"


def render_message(message: dict[str, Any]) -> str:
    role = message.get("role")
    text = content_text(message.get("content")).strip()
    if role == "user":
        return f"[user]\n{_cut(text, MAX_MESSAGE_CHARS)}"
    if role == "assistant":
        lines = [f"[assistant]\n{_cut(text, MAX_MESSAGE_CHARS)}"] if text else []
        for call in message.get("tool_calls") or ():
            function = call.get("function") if isinstance(call, dict) else None
            if isinstance(function, dict):
                arguments = " ".join(str(function.get("arguments") or "").split())
                lines.append(f"[assistant called {function.get('name')}] {_cut(arguments, MAX_TOOL_CHARS)}")
        return "\n".join(lines)
    if role == "tool":
        flat = " ".join(text.split())
        if len(flat) > MAX_TOOL_CHARS:
            flat = flat[:MAX_TOOL_CHARS] + f" [... {len(flat) - MAX_TOOL_CHARS:,} more characters]"
        return f"[tool result] {flat}"
    return ""


def message_chars(message: dict[str, Any]) -> int:
    if message.get("role") not in ("user", "assistant"):
        return 0
    return len(content_text(message.get("content")))


def _wing_line(wings: Sequence[str]) -> str:
    if len(wings) > 1:
        return (
            f"- This session has the wings {names(wings)} active: a fact about one of them goes to "
            "`wing/Hall/room` with that wing named explicitly; facts about the user that hold everywhere go to "
            "`Hall/room` without a wing. Do not invent other wings."
        )
    if wings:
        wing = wings[0]
        return (
            f"- This session is in the wing `{wing}`: facts about this project go to `{wing}/Hall/room` "
            f"(for example `{wing}/Project Knowledge/database`); facts about the user that hold everywhere "
            "go to `Hall/room` without a wing. Do not invent other wings."
        )
    return (
        "- No project wing is active: use `Hall/room`. Use `wing/Hall/room` only for a wing that already "
        "appears in the current memories."
    )


def build_messages(
    template: str,
    *,
    session_id: str,
    wings: Sequence[str],
    memories: str,
    previous_summary: str | None,
    conversation: list[dict[str, Any]],
    first_index: int,
    entry_limit: int = 200,
) -> list[dict[str, Any]]:
    """The extraction request: instructions as the system message, the data as one user message."""
    system = (
        template.replace("{{halls}}", HALL_LIST)
        .replace("{{wing_line}}", _wing_line(wings))
        .replace("{{limit}}", str(entry_limit))
    )
    rendered = "\n\n".join(part for part in (render_message(m) for m in conversation) if part)
    last = first_index + len(conversation)
    parts = [
        "Current memories (memories.md as the assistant sees it):",
        fence(memories.strip() or "(no memories yet)", "markdown"),
        "",
        f"Summary of the session so far: {previous_summary}"
        if previous_summary
        else "This is the first part of the session to be extracted.",
        "",
        f"The conversation to extract from (messages {first_index + 1}-{last} of session {session_id}):",
        fence(rendered or "(no text)", "text"),
        "",
        'Answer with the JSON object {"summary": ..., "memories": [...]} only.',
    ]
    return [{"role": "system", "content": system}, {"role": "user", "content": "\n".join(parts)}]


# ---------------------------------------------------------------------- answer


def parse_answer(text: str) -> tuple[str, list[Any]]:
    """(summary, raw items) from the model's answer; ValueError when it holds no usable JSON."""
    for value in json_values(text):
        try:
            return _shape(value)
        except ValueError:
            continue
    raise ValueError("the answer held no JSON object")


def _shape(value: Any) -> tuple[str, list[Any]]:
    if isinstance(value, list):
        return "", value
    if not isinstance(value, dict):
        raise ValueError("the answer was JSON but not an object")
    summary = value.get("summary")
    summary_text = summary.strip() if isinstance(summary, str) else ""
    if "memories" in value:
        items = value["memories"]
        if items is None:
            return summary_text, []
        return summary_text, items if isinstance(items, list) else [items]
    if "path" in value and "content" in value:  # a single item on its own
        return summary_text, [value]
    if isinstance(summary, str):
        return summary_text, []
    raise ValueError('the answer was a JSON object without "summary" or "memories"')


def clean_content(content: str) -> str:
    content = _LEADING_BULLET.sub("", content, count=1)
    return _LEADING_DATE.sub("", content, count=1).strip()
