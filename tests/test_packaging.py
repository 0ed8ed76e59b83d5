"""The layout the design card names: a top-level prompts/ shipped as palace.prompts; every package installed."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from palace.model.prompts import load_prompt, packaged_prompts
from tests.conftest import CliRun

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_under_palace_is_listed_for_installation() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "palace").rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    assert found | {"palace.prompts"} == set(config["packages"])
    assert config["package-dir"] == {"palace.prompts": "prompts"}


def test_the_packaged_prompts_are_the_top_level_folder() -> None:
    assert not (ROOT / "palace" / "prompts").exists()
    shipped = sorted(p.name for p in (ROOT / "prompts").glob("*.md"))
    assert packaged_prompts() == shipped and "system.md" in shipped
    assert (
        resources.files("palace.prompts").joinpath("system.md").read_text()
        == (ROOT / "prompts" / "system.md").read_text()
    )


def test_palace_prompts_lists_and_copies_one_for_editing(run_cli: Callable[..., CliRun], palace_home: Path) -> None:
    listed = run_cli("prompts")
    assert listed.returncode == 0 and "system.md          packaged" in listed.stdout
    copied = run_cli("prompts", "copy", "extract.md")
    assert copied.returncode == 0, copied.stderr
    mine = palace_home / "prompts" / "extract.md"
    assert mine.read_text() == (ROOT / "prompts" / "extract.md").read_text()
    assert f"overridden by {mine}" in run_cli("prompts").stdout
    mine.write_text("my own extraction prompt")
    assert load_prompt("extract.md", palace_home) == "my own extraction prompt"  # the override is used
    again = run_cli("prompts", "copy", "extract.md")
    assert again.returncode == 1 and "--force" in again.stderr and mine.read_text() == "my own extraction prompt"
    typo = run_cli("prompts", "copy", "extrat.md")
    assert typo.returncode == 1 and 'did you mean "extract.md"' in typo.stderr
