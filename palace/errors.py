"""The project's one error tree. Every message is fit to show a user (or a model) as is."""

from __future__ import annotations


class PalaceError(Exception):
    """Base of every error palace raises on purpose."""


class MemoryPathError(PalaceError):
    """A memory path (Wing/Hall/Room) that does not follow the grammar."""


class ContentError(PalaceError):
    """Entry content that may not be saved (empty, too long, multi-line, ...)."""


class SecretError(ContentError):
    """Content that looks like a credential; the message names the kind, never the secret."""


class EntryNotFoundError(PalaceError):
    """A forget or replace that names an entry the room does not have."""


class StoreError(PalaceError):
    """The palace files could not be read or written."""


class ConfigError(PalaceError):
    """A setting or config.toml value that is not usable."""


class UndoError(PalaceError):
    """Nothing to undo, or the file changed since the change to undo."""


class LLMError(PalaceError):
    """A model call failed; the message is one line with a hint on what to do."""


class LLMConnectionError(LLMError):
    """The endpoint could not be reached."""


class LLMAuthError(LLMError):
    """The endpoint refused the API key (401/403)."""


class LLMNotFoundError(LLMError):
    """The model (or the endpoint path) does not exist (404)."""


class LLMRateLimitError(LLMError):
    """Still rate limited (429) after the retries."""


class LLMServerError(LLMError):
    """The endpoint failed (5xx) or answered something unusable."""


class LLMTimeoutError(LLMError):
    """The endpoint did not answer in time."""


class LLMContextLengthError(LLMError):
    """The request was longer than the model's context window (400 with a context/length message)."""

    def __init__(self, message: str, *, window: int | None = None, used: int | None = None) -> None:
        super().__init__(message)
        self.window = window  # the model's context in tokens, when the endpoint said
        self.used = used  # what the endpoint counted for the request, when it said


class LLMNotConfiguredError(LLMError):
    """No endpoint or key is configured."""


class HistoryError(PalaceError):
    """The palace's git history could not be set up or read (git missing, broken repository, ...)."""


class RecallError(PalaceError):
    """A recall query that cannot be run (empty, bad limit or dates) or an unusable search index."""


class UntrustedFileError(StoreError):
    """A file others control that palace will not open: a link, a FIFO or device, outside its folder, too big."""
