"""What palace needs of a chat model: the openai client (client.py) and the scripted one (testing/) both are one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from palace.model.stream import Reply


class ChatModel(Protocol):
    """A chat-completions endpoint with tools; failures raise palace.errors.LLMError."""

    model: str

    @property
    def url(self) -> str:
        """The endpoint, as shown in messages."""
        ...

    def stream_chat(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        on_text: Callable[[str], None] | None = None,
        *,
        on_notice: Callable[[str], None] | None = None,  # what the user should hear meanwhile: a retry wait
    ) -> Reply:
        """One streamed reply; a broken or unfinished stream, or Ctrl-C, returns what arrived, `interrupted` set."""
        ...

    def complete(self, messages: list[dict[str, Any]], *, json_mode: bool = False) -> Reply:
        """One whole reply (extraction, compaction)."""
        ...

    def list_models(self) -> list[str]:
        """The model names the endpoint offers."""
        ...

    def close(self) -> None:
        """Release connections."""
        ...
