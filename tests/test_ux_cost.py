"""Tokens and, when the model's price is known, the session's cost in /usage and the toolbar."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from ux_helpers import make_repl, scripted

from palace.config import Settings, load_settings
from palace.errors import ConfigError
from palace.testing.server import Step
from palace.ui.pricing import CostMeter, dollars, price_for


def test_prices_come_from_the_table_and_config_overrides_them() -> None:
    price = price_for("gpt-4.1-mini")
    assert price is not None and (price.input, price.output) == (0.40, 1.60)
    assert price_for("openai/GPT-4.1-mini-2025-04-14") == price  # provider prefix and snapshot date
    assert price_for("llama3.1") is None
    own = price_for("llama3.1:latest", {"llama3.1:latest": {"input": 0.0, "output": 0.0}})
    assert own is not None and own.source == "config.toml"
    cheaper = price_for("gpt-4.1-mini", {"gpt-4.1-mini": {"input": 0.2, "output": 0.8}})
    assert cheaper is not None and cheaper.input == 0.2


def test_the_meter_prices_each_model_for_its_own_tokens() -> None:
    meter = CostMeter()
    meter.add("gpt-4.1-mini", 1_000_000, 100_000)  # $0.40 + $0.16
    meter.add("gpt-4.1", 500_000, 0)  # $1.00 after a /model switch
    assert meter.cost().dollars == pytest.approx(1.56)
    assert meter.short() == "$1.56"
    meter.add("llama3.1", 10, 10)
    assert meter.short() == "≥$1.56"
    assert any('[pricing."llama3.1"]' in line for line in meter.lines())
    assert (dollars(0.00001), dollars(0.0042), dollars(12.3456)) == ("<$0.0001", "$0.0042", "$12.35")


def test_usage_and_the_toolbar_show_tokens_and_cost(settings_for: Callable[..., Settings]) -> None:
    model = scripted(Step(text="Hi.", usage=(12_000, 3_000)), Step(text="Again.", usage=(20_000, 1_000)))
    repl, out = make_repl(settings_for(), model)
    repl.run(["hello", "/model gpt-4.1 --yes", "more", "/usage", "/exit"])  # (the endpoint does not list it)
    text = out.getvalue()
    usage = text[text.index("Tokens this session") :].splitlines()[:4]
    assert usage == [
        "Tokens this session: input 32,000, output 4,000, total 36,000",
        "Cost: $0.06",  # $0.0608: 12k*0.40 + 3k*1.60 (mini) + 20k*2.00 + 1k*8.00 (4.1), per million
        "  gpt-4.1-mini: $0.40 in / $1.60 out per million tokens, from palace's price table",
        "  gpt-4.1: $2.00 in / $8.00 out per million tokens, from palace's price table",
    ]
    assert repl._toolbar().endswith(" · tokens 36,000 · $0.06 ")


def test_an_unknown_model_shows_tokens_and_how_to_price_it(
    settings_for: Callable[..., Settings], palace_home: Path
) -> None:
    palace_home.mkdir()
    (palace_home / "config.toml").write_text('[pricing."my-local"]\ninput = 0\noutput = 0\n')
    model = scripted(Step(text="Hi.", usage=(100, 50)), Step(text="Hi.", usage=(100, 50)))
    repl, out = make_repl(settings_for(model="qwen2.5"), model)
    repl.run(["hello", "/usage", "/model my-local --yes", "hello", "/usage"])
    text = out.getvalue()
    assert 'Cost of qwen2.5: unknown (no price for it; add [pricing."qwen2.5"]' in text
    assert "Cost: at least $0.0000" in text and "my-local: $0.00 in / $0.00 out" in text


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ('[pricing."m"]\ninput = 1\n', "needs exactly input = and output ="),
        ('[pricing."m"]\ninput = "cheap"\noutput = 1\n', "input must be a number"),
        ('[pricing."m"]\ninput = -1\noutput = 1\n', "input must be a number of dollars, 0 or more"),
        ("pricing = 3\n", "must be a table of models"),
    ],
)
def test_a_bad_pricing_table_is_a_clear_error(tmp_path: Path, toml: str, message: str) -> None:
    (tmp_path / "config.toml").write_text(toml)
    with pytest.raises(ConfigError, match=message):
        load_settings({"home": tmp_path}, env={})


def test_pricing_names_with_dots_are_read_whole(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text('model = "x"\n[pricing."gpt-4.1-mini"]\ninput = 0.40\noutput = 1.60\n')
    settings = load_settings({"home": tmp_path}, env={})
    assert settings.pricing == {"gpt-4.1-mini": {"input": 0.40, "output": 1.60}}
    assert settings.source("pricing") == "config.toml"


def test_compaction_and_extraction_calls_count_in_usage_and_cost(settings_for: Callable[..., Settings]) -> None:
    import json

    from palace.testing.scripted import ScriptedModel

    def endpoint(body: dict[str, object]) -> Step:
        if body["stream"]:
            return Step(text="A reply of some length about the build. " * 5, usage=(1_000, 100))
        system = str(body["messages"][0]["content"])  # type: ignore[index]
        if "memories" in system:  # the extraction call
            return Step(text=json.dumps({"summary": "Talked about the build.", "memories": []}), usage=(7_000, 300))
        return Step(text=json.dumps({"summary": "The build was discussed."}), usage=(5_000, 200))  # compaction

    settings = settings_for(extract_min=10)
    model = ScriptedModel(responder=endpoint)
    repl, out = make_repl(settings, model)
    talk = [f"Turn {n}: tell me more about the build and its tests, please." for n in range(8)]
    repl.run([*talk, "/compact", "/usage"])
    shown = out.getvalue()
    assert "folded turns" in shown
    # eight chat replies and one compaction so far; /usage says so
    assert "Tokens this session: input 13,000, output 1,000, total 14,000" in shown
    assert repl.meter.totals() == (20_000, 1_300)  # and the extraction at the end of the session too
