"""The hot short commands' plain forms are read without argparse, into exactly what the parser gives them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from palace.ui.argv import plain_args
from palace.ui.parser import build_parser

PLAIN = [
    ["memory", "save", "Preferences/editor", "uses", "vim"],
    ["memory", "save", "ifai/Decisions/db", "Postgres, not MySQL"],
    ["memory", "save", "", ""],
    ["sessions", "search", "database", "migration"],
    ["sessions", "search", "why is the cache slow?"],
    ["hook", "session-start"],
    ["hook", "session-end"],
    ["hook", "no-such-event"],
]

NOT_PLAIN = [
    [],
    ["memory"],
    ["memory", "save"],
    ["memory", "save", "Preferences/editor"],
    ["memory", "save", "Preferences/editor", "vim", "--until", "March"],
    ["memory", "save", "--help"],
    ["memory", "forget", "Preferences/editor", "vim"],
    ["memory", "show"],
    ["sessions", "search"],
    ["sessions", "search", "x", "--limit", "3"],
    ["sessions", "search", "-5 degrees"],
    ["sessions", "list"],
    ["hook"],
    ["hook", "session-start", "--wing", "ifai"],
    ["hook", "session-start", "extra"],
    ["chat", "now"],
    ["search", "database"],
]


@pytest.mark.parametrize("words", PLAIN, ids=" ".join)
def test_a_plain_form_reads_as_the_parser_reads_it(words: list[str]) -> None:
    plain = plain_args(words)
    assert plain is not None
    parsed = build_parser(words[0], words[1]).parse_args(words)
    assert vars(plain) == vars(parsed)


@pytest.mark.parametrize("words", NOT_PLAIN, ids=lambda w: " ".join(w) or "nothing")
def test_anything_else_is_left_to_the_parser(words: list[str]) -> None:
    assert plain_args(words) is None


def test_a_plain_save_imports_no_argparse_and_a_flagged_one_does(tmp_path: Path) -> None:
    script = (
        "import sys, io, contextlib\n"
        "from palace.ui.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    code = main(sys.argv[1:])\n"
        "print(code, 'argparse' in sys.modules)\n"
    )
    env = {"PALACE_HOME": str(tmp_path / "palace"), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}

    def run(*words: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", script, *words], capture_output=True, text=True, env=env, check=False
        )
        return done.stdout.strip()

    assert run("memory", "save", "Preferences/editor", "uses vim") == "0 False"
    assert run("memory", "save", "Preferences/shell", "uses fish", "--until", "2999-01-01") == "0 True"
    assert (tmp_path / "palace" / "memories.md").read_text(encoding="utf-8").count("uses") == 2
