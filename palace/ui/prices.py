"""Model prices in US dollars per million tokens (input, output), as the providers list them; checked 2025-09.

Data, not code: edit it freely. A `[pricing."MODEL"]` table in config.toml overrides an entry or adds one
(e.g. `input = 0` and `output = 0` for a local model). Names are matched without case, without a provider
prefix (`openai/gpt-4.1`) and without a dated snapshot suffix (`gpt-4.1-2025-04-14`).
"""

from __future__ import annotations

CHECKED = "2025-09"

PRICES: dict[str, tuple[float, float]] = {
    # OpenAI
    "gpt-5": (1.25, 10.00),
    "gpt-5-mini": (0.25, 2.00),
    "gpt-5-nano": (0.05, 0.40),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-mini": (0.15, 0.60),
    "o3": (2.00, 8.00),
    "o3-mini": (1.10, 4.40),
    "o4-mini": (1.10, 4.40),
    # Anthropic (its OpenAI-compatible endpoint)
    "claude-opus-4-1": (15.00, 75.00),
    "claude-sonnet-4-5": (3.00, 15.00),
    "claude-sonnet-4": (3.00, 15.00),
    "claude-3-5-haiku": (0.80, 4.00),
    # Google (its OpenAI-compatible endpoint; prompts up to 200k tokens)
    "gemini-2.5-pro": (1.25, 10.00),
    "gemini-2.5-flash": (0.30, 2.50),
}
