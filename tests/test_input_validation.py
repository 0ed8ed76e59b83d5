"""Bad input at the tool boundary and on the command line: a specific message, and nothing written.

Through ToolBox.call (what the model's calls go through), the store, parse_path, the settings and
`palace.ui.cli.main`, against real files in a temp PALACE_HOME.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from palace.errors import ConfigError, ContentError, MemoryPathError
from palace.memory.halls import MAX_NAME, parse_path
from palace.memory.store import MemoryStore
from palace.model.tools import Tool, ToolBox, ToolOutcome, memory_tools
from palace.ui.cli import main

BROKEN = "content has a broken character (an unpaired surrogate, e.g. half an emoji)"


@pytest.fixture
def store(palace_home: Path) -> MemoryStore:
    return MemoryStore(palace_home)


def save(store: MemoryStore, content: str, path: str = "Preferences/editor") -> ToolOutcome:
    return memory_tools(store).call("MemorySave", json.dumps({"path": path, "content": content}))


def seeded(store: MemoryStore) -> bytes:
    store.save("Preferences/editor", "Uses neovim")
    return store.file.read_bytes()


# --- the tool boundary: any failure is an error text for the model ----------------------------------------


@pytest.mark.parametrize(
    "content", ["half an emoji \ud83e", "a raw byte \udcff", "\udc80\udc80", "\udd14 reversed \ud83e"]
)
def test_content_with_an_unpaired_surrogate_is_refused(store: MemoryStore, content: str) -> None:
    before = seeded(store)
    outcome = save(store, content)
    assert outcome.error == f"{BROKEN}; send the character whole or leave it out"
    assert outcome.text.endswith("Nothing was written.")
    assert outcome.text.encode("utf-8")  # the text for the model is itself sendable
    assert store.file.read_bytes() == before
    before.decode("utf-8")


def test_a_pair_escaped_in_json_is_one_emoji_but_two_surrogate_code_points_are_refused(store: MemoryStore) -> None:
    assert save(store, "thinks \ud83e\udd14 often").text == "Saved to Preferences/editor: thinks 🤔 often"
    before = store.file.read_bytes()
    with pytest.raises(ContentError, match="broken character"):
        store.save("Preferences/editor", "thinks \ud83e\udd14 twice")  # a Python str of two halves, not one emoji
    assert store.file.read_bytes() == before


def test_forgetting_or_replacing_with_half_an_emoji_writes_nothing(store: MemoryStore) -> None:
    before = seeded(store)
    tools = memory_tools(store)
    replaced = tools.call(
        "MemorySave", json.dumps({"path": "Preferences/editor", "content": "Uses \ud83e", "replaces": "Uses neovim"})
    )
    forgot = tools.call("MemoryForget", json.dumps({"path": "Preferences/editor", "content": "Uses \ud83e"}))
    assert replaced.error is not None and BROKEN in replaced.error
    assert forgot.error is not None and "nothing to forget" in forgot.error
    assert store.file.read_bytes() == before


def test_arguments_nested_too_deep_are_a_tool_error(store: MemoryStore) -> None:
    outcome = memory_tools(store).call("MemorySave", "[" * 100_000 + "]" * 100_000)
    assert outcome.error == "the arguments for MemorySave are nested too deeply to read; send a flat JSON object"
    deep_value = '{"path": "Preferences/x", "content": ' + "[" * 100_000
    assert memory_tools(store).call("MemorySave", deep_value).error is not None
    assert not store.file.exists()


def test_an_integer_too_long_to_convert_is_a_tool_error(store: MemoryStore) -> None:
    outcome = memory_tools(store).call("MemorySave", '{"path": "Preferences/x", "content": ' + "9" * 5000 + "}")
    assert outcome.error is not None and outcome.error.startswith("the arguments for MemorySave are not valid JSON")


def test_any_exception_from_a_tool_becomes_an_error_for_the_model() -> None:
    class Args(BaseModel):
        pass

    def explode(args: Any) -> ToolOutcome:
        raise KeyError("the index is gone")

    outcome = ToolBox([Tool("Broken", Args, explode)]).call("Broken", "{}")
    assert outcome.error == "Broken failed unexpectedly (KeyError: 'the index is gone')"
    assert outcome.change is None


# --- content: bullets, dates, invisible characters ---------------------------------------------------------


@pytest.mark.parametrize(
    "content", ["- Uses helix", "- - Uses helix", "* Uses helix", "+ Uses helix", "  -\tUses helix"]
)
def test_a_leading_bullet_is_dropped(store: MemoryStore, content: str) -> None:
    outcome = save(store, content)
    assert outcome.error is None and outcome.text == "Saved to Preferences/editor: Uses helix"
    lines = store.file.read_text().splitlines()
    assert lines[-1].endswith("] Uses helix") and lines[-1].count("- ") == 1


@pytest.mark.parametrize("content", ["- [2026-01-01] Uses helix", "- 2026-01-01 Uses helix", "-  [2026/1/1] x"])
def test_a_leading_date_after_a_bullet_is_refused_like_a_leading_date(store: MemoryStore, content: str) -> None:
    before = seeded(store)
    with pytest.raises(ContentError, match=r"may not start with a date \(\"\[?2026") as info:
        store.save("Preferences/editor", content)
    assert "palace dates each entry itself" in str(info.value)
    assert store.file.read_bytes() == before


def test_a_lone_bullet_is_empty_content(store: MemoryStore) -> None:
    with pytest.raises(ContentError, match="content is empty"):
        store.save("Preferences/editor", "-  ")


@pytest.mark.parametrize(
    ("char", "named"),
    [
        ("\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE, an invisible formatting character"),
        ("\u202a", "U+202A LEFT-TO-RIGHT EMBEDDING"),
        ("\u2066", "U+2066 LEFT-TO-RIGHT ISOLATE"),
        ("\u2069", "U+2069 POP DIRECTIONAL ISOLATE"),
        ("\u200b", "U+200B ZERO WIDTH SPACE"),
        ("\u2060", "U+2060 WORD JOINER"),
        ("\ufeff", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
        ("\u00ad", "U+00AD SOFT HYPHEN"),
        ("\U000e0041", "U+E0041 TAG LATIN CAPITAL LETTER A"),
        ("\x07", "U+0007, a control character"),
        ("\x85", "U+0085, a control character"),
        ("\x1b", "U+001B, a control character"),
    ],
)
def test_invisible_and_control_characters_are_refused_by_name(store: MemoryStore, char: str, named: str) -> None:
    before = seeded(store)
    outcome = save(store, f"Uses {char}helix")
    assert outcome.error is not None and f"content contains {named}" in outcome.error
    assert "remove it" in outcome.error
    assert store.file.read_bytes() == before


@pytest.mark.parametrize(("char", "name"), [("\u2028", "LINE SEPARATOR"), ("\u2029", "PARAGRAPH SEPARATOR")])
def test_unicode_line_separators_are_refused_as_line_breaks(store: MemoryStore, char: str, name: str) -> None:
    before = seeded(store)
    with pytest.raises(ContentError) as info:
        store.save("Preferences/editor", f"one{char}two")
    assert str(info.value) == (
        f"content must be one line, but it contains U+{ord(char):04X} {name}, a line separator; "
        "save several entries instead"
    )
    assert store.file.read_bytes() == before


@pytest.mark.parametrize(
    "content",
    [
        "Pairs with 👩\u200d💻 emoji sequences",  # ZWJ inside an emoji sequence
        "Writes می\u200cخواهم in Persian",  # ZWNJ inside a Persian word
        "Uses tabs\tin notes",
        "Uses a non\u00a0breaking space",
    ],
)
def test_joiners_inside_words_and_emoji_are_kept(store: MemoryStore, content: str) -> None:
    outcome = save(store, content)
    assert outcome.error is None
    assert content in store.file.read_text(encoding="utf-8")


def test_a_joiner_between_latin_letters_is_refused(store: MemoryStore) -> None:
    outcome = save(store, "Uses ru\u200dff")
    assert outcome.error is not None and "U+200D ZERO WIDTH JOINER" in outcome.error


# --- rooms and wings ----------------------------------------------------------------------------------------


def test_a_room_of_up_to_the_limit_is_fine_and_longer_is_refused(store: MemoryStore) -> None:
    assert parse_path("Preferences/" + "a" * MAX_NAME).room == "a" * MAX_NAME
    long_room = "Preferences/" + "word " * 20  # 99 characters as a slug
    with pytest.raises(MemoryPathError) as info:
        parse_path(long_room)
    assert f"characters as a slug; the limit is {MAX_NAME}" in str(info.value)
    assert save(store, "Uses helix", path=long_room).error == str(info.value)
    assert not store.file.exists()


def test_a_wing_longer_than_the_limit_is_refused() -> None:
    with pytest.raises(MemoryPathError, match=f"is {MAX_NAME + 1} characters; the limit is {MAX_NAME}"):
        parse_path("w" * (MAX_NAME + 1) + "/Decisions/db")
    assert parse_path("w" * MAX_NAME + "/Decisions/db").wing == "w" * MAX_NAME


@pytest.mark.parametrize(
    "path",
    ["Preferences/edi\u200btor", "Prefer\u202eences/editor", "if\u2066ai/Decisions/db", "Preferences/a\x00b"],
)
def test_invisible_characters_in_a_path_are_refused_by_name(store: MemoryStore, path: str) -> None:
    outcome = save(store, "Uses helix", path=path)
    char = next(ch for ch in path if not ch.isprintable())
    assert outcome.error is not None and f"the memory path contains U+{ord(char):04X}" in outcome.error
    assert not store.file.exists()


def test_half_an_emoji_in_a_path_is_refused(store: MemoryStore) -> None:
    outcome = save(store, "Uses helix", path="Preferences/edit\ud83eor")
    assert outcome.error is not None and "the memory path has a broken character" in outcome.error
    assert not store.file.exists()


# --- the wing setting: flag, environment, config.toml -------------------------------------------------------


@pytest.mark.parametrize(
    ("wing", "says"),
    [
        ("my project", 'wing "my project" must be a slug (letters, digits, ".", "_", "-"); try "my-project"'),
        ("Preferences", '"Preferences" is a hall, so it cannot be a wing; a wing names a project or person'),
        ("project-knowledge", '"project-knowledge" is a hall'),
        ("x" * 65, "is 65 characters; the limit is 64"),
        ("my\u202eproject", "the wing contains U+202E RIGHT-TO-LEFT OVERRIDE"),
    ],
)
def test_a_wing_flag_that_no_path_accepts_is_refused_before_anything_runs(
    palace_home: Path, capsys: pytest.CaptureFixture[str], wing: str, says: str
) -> None:
    assert main(["memory", "save", "Preferences/editor", "Uses neovim"]) == 0
    before = (palace_home / "memories.md").read_bytes()
    capsys.readouterr()
    for argv in (["ask", "--wing", wing, "hello"], ["--wing", wing], ["memory", "show", "--wing", wing]):
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert err.startswith("Error: invalid settings: wing (flag): ") and says in err
        assert err.count("\n") == 1
    assert (palace_home / "memories.md").read_bytes() == before
    assert not (palace_home / "sessions").exists() or not any((palace_home / "sessions").iterdir())


def test_a_wing_from_the_environment_or_config_is_checked_too(
    palace_home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PALACE_WING", "Decisions")
    assert main(["memory", "show"]) == 1
    assert 'wing (PALACE_WING): "Decisions" is a hall' in capsys.readouterr().err
    monkeypatch.delenv("PALACE_WING")
    palace_home.mkdir(parents=True, exist_ok=True)
    (palace_home / "config.toml").write_text('wing = "my project"\n')
    assert main(["memory", "show"]) == 1
    assert 'wing (config.toml): wing "my project" must be a slug' in capsys.readouterr().err
    (palace_home / "config.toml").write_text('wing = "my-project"\n')
    assert main(["memory", "show"]) == 0


def test_a_valid_wing_is_kept_as_given(palace_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["memory", "save", "IFAI/Decisions/db", "Uses Postgres"]) == 0
    assert main(["memory", "show", "--wing", "IFAI"]) == 0
    assert "Uses Postgres" in capsys.readouterr().out


def test_a_wing_set_on_settings_is_checked_when_the_palace_is_assembled(tmp_path: Path) -> None:
    from palace.app import App
    from palace.config import load_settings

    with pytest.raises(ConfigError, match="must be a slug"):
        App(load_settings({"wing": "a b", "home": tmp_path}, env={}), warn=print)
    assert App(load_settings({"wing": "", "home": tmp_path}, env={}), warn=print).settings.wing == ""


# --- non-UTF-8 command-line arguments ------------------------------------------------------------------------


def test_a_non_utf8_argument_is_refused_and_nothing_is_written(
    palace_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["memory", "save", "Preferences/editor", "Uses neovim"]) == 0
    before = (palace_home / "memories.md").read_bytes()
    capsys.readouterr()
    bad = b"caf\xe9 au lait".decode("utf-8", "surrogateescape")  # what Python puts in sys.argv
    assert main(["memory", "save", "Preferences/drinks", bad]) == 2
    err = capsys.readouterr().err
    assert err == (
        'Error: argument 4 ("caf\\xe9 au lait") is not valid UTF-8, so it cannot be saved or sent; nothing was '
        "done — pass it as UTF-8 (check the encoding of your terminal or script)\n"
    )
    assert (palace_home / "memories.md").read_bytes() == before
    assert main(["memory", "lint"]) == 0
    assert "is clean" in capsys.readouterr().out
    before.decode("utf-8")


def test_a_non_utf8_message_is_not_sent(palace_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from palace.testing.server import ScriptedServer

    with ScriptedServer() as server:
        code = main(["ask", "--base-url", server.base_url, b"hi \xff".decode("utf-8", "surrogateescape")])
    assert code == 2 and server.requests == []
    assert "is not valid UTF-8" in capsys.readouterr().err


def test_a_non_utf8_argument_through_a_real_process(palace_home: Path, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "PALACE_"))}
    env["PALACE_HOME"] = str(palace_home)
    args = [sys.executable.encode(), b"-m", b"palace", b"memory", b"save", b"Preferences/drinks", b"caf\xe9"]
    done = subprocess.run(args, env=env, capture_output=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 2
    assert b'argument 4 ("caf\\xe9") is not valid UTF-8' in done.stderr
    assert not (palace_home / "memories.md").exists()
