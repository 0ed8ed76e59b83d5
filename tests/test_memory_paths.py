"""The path grammar (Hall/Room, Wing/Hall/Room): what is accepted, how it is normalised, every error message."""

from __future__ import annotations

from pathlib import Path

import pytest

from palace.errors import MemoryPathError
from palace.memory import HALL_LIST, Hall, MemoryPath, MemoryStore, parse_hall, parse_path, room_slug
from palace.memory.halls import is_valid_wing, suggest_hall, unknown_hall_message

EXPECTED_FORM = "expected Hall/Room or Wing/Hall/Room"


# ---------------------------------------------------------------------- halls
@pytest.mark.parametrize(
    ("text", "hall"),
    [
        ("Preferences", Hall.PREFERENCES),
        ("preferences", Hall.PREFERENCES),
        ("PREFERENCES", Hall.PREFERENCES),
        ("Project Knowledge", Hall.PROJECT_KNOWLEDGE),
        ("ProjectKnowledge", Hall.PROJECT_KNOWLEDGE),
        ("project-knowledge", Hall.PROJECT_KNOWLEDGE),
        ("PROJECT-KNOWLEDGE", Hall.PROJECT_KNOWLEDGE),
        ("project knowledge", Hall.PROJECT_KNOWLEDGE),
        ("projectKnowledge", Hall.PROJECT_KNOWLEDGE),
        ("Decisions", Hall.DECISIONS),
        ("decisions", Hall.DECISIONS),
        ("Workflow Patterns", Hall.WORKFLOW_PATTERNS),
        ("WorkflowPatterns", Hall.WORKFLOW_PATTERNS),
        ("workflow-patterns", Hall.WORKFLOW_PATTERNS),
        ("wOrKfLoW pAtTeRnS", Hall.WORKFLOW_PATTERNS),
    ],
)
def test_hall_spellings_are_accepted(text: str, hall: Hall) -> None:
    assert parse_hall(text) is hall


@pytest.mark.parametrize("text", ["Preference", "Prefs", "Knowledge", "ifai", "", "Decision s x"])
def test_other_words_are_not_halls(text: str) -> None:
    assert parse_hall(text) is None


def test_hall_list_is_the_closed_set_in_display_form() -> None:
    assert [hall.value for hall in Hall] == ["Preferences", "Project Knowledge", "Decisions", "Workflow Patterns"]
    assert HALL_LIST == "Preferences, Project Knowledge, Decisions, Workflow Patterns"


@pytest.mark.parametrize(
    ("typo", "meant"),
    [
        ("Prefernces", "Preferences"),
        ("preferenses", "Preferences"),
        ("Descisions", "Decisions"),
        ("Project Knowlege", "Project Knowledge"),
        ("workflow-patern", "Workflow Patterns"),
    ],
)
def test_misspelt_hall_gets_a_did_you_mean(typo: str, meant: str) -> None:
    assert suggest_hall(typo) == Hall(meant)
    message = unknown_hall_message(typo)
    assert f'unknown hall "{typo}"' in message
    assert f'did you mean "{meant}"?' in message
    assert HALL_LIST in message


def test_unrelated_word_gets_the_hall_list_but_no_guess() -> None:
    message = unknown_hall_message("Xylophone")
    assert "did you mean" not in message
    assert HALL_LIST in message


# ---------------------------------------------------------------------- rooms
@pytest.mark.parametrize(
    ("text", "slug"),
    [
        ("Programming Languages", "programming-languages"),
        ("programming-languages", "programming-languages"),
        ("Programming_Languages", "programming-languages"),
        ("  Programming   Languages!! ", "programming-languages"),
        ("编程语言", "编程语言"),
        ("前端 Stack", "前端-stack"),
        ("Ｆｕｌｌ Ｗｉｄｔｈ", "full-width"),  # NFKC
        ("C++ & Rust", "c-rust"),
        ("--edge--", "edge"),
        ("v1.2 notes", "v1.2-notes"),
    ],
)
def test_room_slugs(text: str, slug: str) -> None:
    assert room_slug(text) == slug


# ---------------------------------------------------------------------- paths: accepted
@pytest.mark.parametrize(
    ("text", "wing", "hall", "room", "shown"),
    [
        (
            "Preferences/programming-languages",
            None,
            Hall.PREFERENCES,
            "programming-languages",
            "Preferences/programming-languages",
        ),
        (
            "preferences/Programming Languages",
            None,
            Hall.PREFERENCES,
            "programming-languages",
            "Preferences/programming-languages",
        ),
        ("ProjectKnowledge/编程语言", None, Hall.PROJECT_KNOWLEDGE, "编程语言", "Project Knowledge/编程语言"),
        ("ifai/Decisions/architecture", "ifai", Hall.DECISIONS, "architecture", "ifai/Decisions/architecture"),
        (
            "ifai/project-knowledge/frontend-stack",
            "ifai",
            Hall.PROJECT_KNOWLEDGE,
            "frontend-stack",
            "ifai/Project Knowledge/frontend-stack",
        ),
        (
            "alice/workflow_patterns/Code Review",
            "alice",
            Hall.WORKFLOW_PATTERNS,
            "code-review",
            "alice/Workflow Patterns/code-review",
        ),
        (" my.proj_1 / Decisions / db ", "my.proj_1", Hall.DECISIONS, "db", "my.proj_1/Decisions/db"),
    ],
)
def test_paths_parse_and_display_in_canonical_form(
    text: str, wing: str | None, hall: Hall, room: str, shown: str
) -> None:
    path = parse_path(text)
    assert path == MemoryPath(wing, hall, room)
    assert str(path) == shown


def test_wings_compare_case_insensitively() -> None:
    assert parse_path("IFAI/Decisions/x").wing_key == parse_path("ifai/Decisions/x").wing_key == "ifai"
    assert parse_path("Decisions/x").wing_key is None


# ---------------------------------------------------------------------- paths: rejected, with the message
@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "empty memory path"),
        ("   ", "empty memory path"),
        ("Preferences", 'memory path "Preferences" has one part'),
        ("ifai/Decisions/architecture/extra", "has 4 parts"),
        ("a/b/c/d/e", "has 5 parts"),
        ("Preferences//languages", "has an empty part"),
        ("/Preferences/languages", "has an empty part"),
        ("Preferences/", "has an empty part"),
        ("Preferences/..", 'may not contain "." or ".." parts'),
        ("../Decisions/x", 'may not contain "." or ".." parts'),
        ("./Decisions/x", 'may not contain "." or ".." parts'),
        ("Preferences/Decisions/x", '"Preferences" is a hall, so it cannot be a wing'),
        ("project-knowledge/Decisions/x", '"project-knowledge" is a hall, so it cannot be a wing'),
        ("ifai/Decisions", "looks like Wing/Hall without a room"),
        ("my wing/Decisions/x", 'wing "my wing" must be a slug'),
        ("Preferences/???", 'room "???" in "Preferences/???" has no letters or digits'),
        ("ifai/Decisions/---", 'room "---"'),
    ],
)
def test_bad_paths_say_what_form_is_expected(text: str, says: str) -> None:
    with pytest.raises(MemoryPathError) as caught:
        parse_path(text)
    message = str(caught.value)
    assert says in message
    assert EXPECTED_FORM in message


def test_unknown_hall_in_a_path_lists_the_halls_and_the_closest_one() -> None:
    with pytest.raises(MemoryPathError) as caught:
        parse_path("Prefernces/programming-languages")
    message = str(caught.value)
    assert 'unknown hall "Prefernces"' in message
    assert 'did you mean "Preferences"?' in message
    assert HALL_LIST in message
    assert '"Prefernces/programming-languages"' in message


def test_unknown_hall_under_a_wing() -> None:
    with pytest.raises(MemoryPathError, match='did you mean "Decisions"'):
        parse_path("ifai/Decsions/architecture")


def test_non_text_path_is_rejected() -> None:
    with pytest.raises(MemoryPathError):
        parse_path(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("wing", "ok"),
    [
        ("ifai", True),
        ("my.proj_1-x", True),
        ("Decisions", False),
        ("project-knowledge", False),
        ("..", False),
        ("a b", False),
        ("项目", False),
    ],
)
def test_wing_names(wing: str, ok: bool) -> None:
    assert is_valid_wing(wing) is ok


# ---------------------------------------------------------------------- through the store: nothing written
@pytest.mark.parametrize(
    "path",
    [
        "Prefernces/x",
        "Preferences",
        "a/b/c/d",
        "Preferences//x",
        "Preferences/..",
        "Decisions/Preferences/x",
        "Preferences/!!!",
    ],
)
def test_a_bad_path_writes_nothing(tmp_path: Path, path: str) -> None:
    home = tmp_path / "palace"
    store = MemoryStore(home)
    store.save("Preferences/editors", "The user edits with Helix")
    before = store.file.read_bytes()
    mtime = store.file.stat().st_mtime_ns
    with pytest.raises(MemoryPathError):
        store.save(path, "Something worth keeping")
    with pytest.raises(MemoryPathError):
        store.forget(path, "The user edits with Helix")
    assert store.file.read_bytes() == before
    assert store.file.stat().st_mtime_ns == mtime


def test_hall_is_written_in_display_form_whatever_the_spelling(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path / "palace")
    store.save("project-knowledge/Build Tools", "The build uses Bazel")
    store.save("PROJECTKNOWLEDGE/build-tools", "CI runs on GitHub Actions")
    store.save("ifai/workflow_patterns/Reviews", "Reviews happen on Fridays")
    text = store.file.read_text()
    assert "## Project Knowledge\n" in text
    assert text.count("## Project Knowledge") == 1
    assert "### build-tools\n" in text
    assert "### Workflow Patterns\n" in text
    assert "#### reviews\n" in text
    assert "project-knowledge" not in text and "PROJECTKNOWLEDGE" not in text
