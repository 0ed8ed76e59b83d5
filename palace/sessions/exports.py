"""What people already have: a ChatGPT or Claude.ai data export's `conversations.json`, as dated sessions.

ChatGPT's export is a list of conversations, each a `mapping` of message nodes linked by `parent` (the thread
shown is the one ending at `current_node`), with `create_time` in Unix seconds. Claude.ai's is a list of
conversations with `chat_messages` (`sender` human or assistant, `text` or text `content` parts, ISO
`created_at`). Each conversation becomes one session dated by its first message, so recall's dates are the
conversation's own; importing the export again adds nothing (a session's id is the hash of its messages).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from palace.memory.secrets import redact
from palace.sessions.dated import Message, TranscriptSession

CHATGPT = "ChatGPT"
CLAUDE_AI = "Claude.ai"


def export_kind(data: object) -> str | None:
    """Which export a parsed conversations.json is (CHATGPT, CLAUDE_AI), or None for neither."""
    if not isinstance(data, list) or not data or not isinstance(data[0], dict):
        return None
    first = data[0]
    if isinstance(first.get("mapping"), dict):
        return CHATGPT
    if isinstance(first.get("chat_messages"), list):
        return CLAUDE_AI
    return None


def parse_export(data: list[Any]) -> list[TranscriptSession]:
    """The sessions of an export (see export_kind): one per conversation that holds a message."""
    kind = export_kind(data)
    conversations = [c for c in data if isinstance(c, dict)]
    parse = _chatgpt if kind == CHATGPT else _claude
    return [session for conversation in conversations if (session := parse(conversation)) is not None]


def _session(messages: list[Message]) -> TranscriptSession | None:
    dated = [m.when for m in messages if m.when is not None]
    if not messages or not dated:
        return None
    return TranscriptSession(min(dated), messages)


def _text(parts: object) -> str:
    if isinstance(parts, str):
        return parts
    if isinstance(parts, list):
        texts = [p if isinstance(p, str) else p.get("text") for p in parts if isinstance(p, (str, dict))]
        return "\n".join(t for t in texts if isinstance(t, str) and t.strip())
    return ""


def _unix(value: object) -> datetime | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        try:
            return datetime.fromtimestamp(float(value), tz=UTC).astimezone()
        except (OverflowError, OSError, ValueError):
            return None
    return None


def _chatgpt(conversation: dict[str, Any]) -> TranscriptSession | None:
    """One ChatGPT conversation: the thread from the root to `current_node` (edits left on other branches)."""
    mapping = conversation.get("mapping")
    if not isinstance(mapping, dict):
        return None
    node_id = conversation.get("current_node")
    thread: list[dict[str, Any]] = []
    seen: set[str] = set()
    while isinstance(node_id, str) and node_id in mapping and node_id not in seen:
        seen.add(node_id)
        node = mapping[node_id]
        if not isinstance(node, dict):
            break
        thread.append(node)
        node_id = node.get("parent")
    messages = []
    for node in reversed(thread):
        message = node.get("message")
        if not isinstance(message, dict):
            continue
        author = message.get("author")
        role = author.get("role") if isinstance(author, dict) else None
        content = message.get("content")
        text = _text(content.get("parts")) if isinstance(content, dict) else ""
        if role in ("user", "assistant") and text.strip():
            when = _unix(message.get("create_time")) or _unix(conversation.get("create_time"))
            messages.append(Message(str(role), redact(text.strip()), when))
    return _session(messages)


def _iso(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.astimezone()


def _claude(conversation: dict[str, Any]) -> TranscriptSession | None:
    """One Claude.ai conversation."""
    messages = []
    for item in conversation.get("chat_messages") or ():
        if not isinstance(item, dict):
            continue
        role = {"human": "user", "assistant": "assistant"}.get(str(item.get("sender")))
        text = (
            item.get("text") if isinstance(item.get("text"), str) and item.get("text") else _text(item.get("content"))
        )
        if role is not None and isinstance(text, str) and text.strip():
            when = _iso(item.get("created_at")) or _iso(conversation.get("created_at"))
            messages.append(Message(role, redact(text.strip()), when))
    return _session(messages)
