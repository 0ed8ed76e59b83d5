"""The code stays readable and portable: no module over 500 lines, no private CPython module, one way into the
parse engine."""

from __future__ import annotations

import ast
from pathlib import Path

import palace

PACKAGE = Path(palace.__file__).parent
MODULES = sorted(PACKAGE.rglob("*.py"))


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append(node.module)
    return names


def test_no_module_is_over_500_lines() -> None:
    long = {str(p.relative_to(PACKAGE)): n for p in MODULES if (n := len(p.read_text().splitlines())) > 500}
    assert long == {}


def test_no_private_cpython_module_is_imported() -> None:
    private = {
        str(p.relative_to(PACKAGE)): name
        for p in MODULES
        for name in _imports(p)
        if name.split(".")[0].startswith("_") and name != "__future__"
    }
    assert private == {}  # e.g. _sha256 is gone from CPython 3.12: a fast path that silently disappears


def test_only_the_parse_engine_imports_its_modules() -> None:
    inside = PACKAGE / "memory" / "parse"
    reaching_in = {
        str(p.relative_to(PACKAGE)): name
        for p in MODULES
        if inside not in p.parents
        for name in _imports(p)
        if name.startswith("palace.memory.parse.")
    }
    assert reaching_in == {}  # everything else goes through palace.memory.parse (its one entry point)
