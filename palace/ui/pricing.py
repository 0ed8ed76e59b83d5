"""What a session cost: tokens per model, priced from palace's table (prices.py) or config.toml's `pricing`."""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping

from palace.record import field, record
from palace.ui.prices import PRICES

_SNAPSHOT = re.compile(r"-(?:\d{4}-\d{2}-\d{2}|\d{8}|latest)$")


@record(frozen=True)
class Price:
    """US dollars per million tokens."""

    input: float
    output: float
    source: str  # "config.toml" or "palace's price table"

    def of(self, input_tokens: int, output_tokens: int) -> float:
        return (input_tokens * self.input + output_tokens * self.output) / 1_000_000

    def __str__(self) -> str:
        return f"${self.input:.2f} in / ${self.output:.2f} out per million tokens, from {self.source}"


def _names(model: str) -> list[str]:
    """The names to look model up by: as given, without a provider prefix, without a snapshot suffix."""
    name = model.strip().casefold()
    bare = name.rsplit("/", 1)[-1]
    names = [name, bare, _SNAPSHOT.sub("", bare)]
    return list(dict.fromkeys(names))


def price_for(model: str, overrides: Mapping[str, Mapping[str, float]] | None = None) -> Price | None:
    """The model's price: config.toml's first, then palace's table; None when neither knows it."""
    own = {name.casefold(): value for name, value in (overrides or {}).items()}
    for name in _names(model):
        if name in own:
            return Price(float(own[name]["input"]), float(own[name]["output"]), "config.toml")
    for name in _names(model):
        if name in PRICES:
            return Price(*PRICES[name], "palace's price table")
    return None


def dollars(amount: float) -> str:
    """`$1.23`; below a cent `$0.0042`, and `<$0.0001` for less than that (but not nothing)."""
    if 0 < amount < 0.0001:
        return "<$0.0001"
    return f"${amount:.4f}" if amount < 0.01 else f"${amount:,.2f}"


@record
class Cost:
    dollars: float = 0.0
    priced: dict[str, Price] = field(default_factory=dict)
    unpriced: list[str] = field(default_factory=list)  # models that used tokens without a known price


class CostMeter:
    """The tokens a session used, by model (a /model switch prices later turns at the new model's price)."""

    def __init__(self, overrides: Mapping[str, Mapping[str, float]] | None = None) -> None:
        self.overrides = dict(overrides or {})
        self.tokens: dict[str, list[int]] = {}
        self._lock = threading.Lock()  # background extraction adds its tokens from its own thread

    def add(self, model: str, input_tokens: int, output_tokens: int) -> None:
        if input_tokens <= 0 and output_tokens <= 0:
            return
        with self._lock:
            counts = self.tokens.setdefault(model, [0, 0])
            counts[0] += input_tokens
            counts[1] += output_tokens

    def totals(self) -> tuple[int, int]:
        """All tokens used (input, output), every model's."""
        with self._lock:
            return sum(c[0] for c in self.tokens.values()), sum(c[1] for c in self.tokens.values())

    def cost(self) -> Cost:
        cost = Cost()
        for model, (inp, out) in self.tokens.items():
            price = price_for(model, self.overrides)
            if price is None:
                cost.unpriced.append(model)
                continue
            cost.priced[model] = price
            cost.dollars += price.of(inp, out)
        return cost

    def short(self) -> str:
        """For the toolbar: `$0.0042`, `≥$0.01` when a model's price is unknown, "" when none is known."""
        cost = self.cost()
        if not cost.priced:
            return ""
        return ("≥" if cost.unpriced else "") + dollars(cost.dollars)

    def lines(self) -> list[str]:
        """For /usage: the cost, each price used and where it came from, and how to price an unknown model."""
        cost = self.cost()
        if not self.tokens:
            return []
        lines = []
        if cost.priced:
            lines.append(f"Cost: {'at least ' if cost.unpriced else ''}{dollars(cost.dollars)}")
            lines += [f"  {model}: {price}" for model, price in cost.priced.items()]
        for model in cost.unpriced:
            lines.append(
                f'Cost of {model}: unknown (no price for it; add [pricing."{model}"] input = … output = … '
                "in dollars per million tokens to config.toml)"
            )
        return lines
