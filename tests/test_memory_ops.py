"""save / forget / replaces exactly as DESIGN section 2, through real files in a temporary palace."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

import pytest

from palace.errors import ContentError, EntryNotFoundError, PalaceError, SecretError, StoreError
from palace.memory import MemoryStore
from palace.memory.document import Document
from palace.memory.ops import normalise, validate_content


class Clock:
    """An injectable `today` that a test can move forward."""

    def __init__(self, day: date) -> None:
        self.day = day

    def __call__(self) -> date:
        return self.day


@pytest.fixture
def clock() -> Clock:
    return Clock(date(2026, 11, 30))


@pytest.fixture
def store(tmp_path: Path, clock: Clock) -> MemoryStore:
    return MemoryStore(tmp_path / "palace", today=clock)


def write(store: MemoryStore, text: str | bytes) -> bytes:
    store.home.mkdir(mode=0o700, parents=True, exist_ok=True)
    data = text.encode() if isinstance(text, str) else text
    store.file.write_bytes(data)
    return data


def read(store: MemoryStore) -> str:
    return store.file.read_text(encoding="utf-8", errors="surrogateescape")


def entries(store: MemoryStore) -> list[tuple[str | None, str, str | None]]:
    doc = Document.parse(store.file.read_bytes())
    return [(str(e.path) if e.path else None, e.content, e.date) for e in doc.entries]


# ---------------------------------------------------------------------- placement
def test_first_save_creates_the_file_with_hall_and_room(store: MemoryStore) -> None:
    result = store.save("Preferences/programming-languages", "The user writes backends in Rust")
    assert result.action == "saved"
    assert result.message == "Saved to Preferences/programming-languages: The user writes backends in Rust"
    assert read(store) == (
        "## Preferences\n\n### programming-languages\n- [2026-11-30] The user writes backends in Rust\n"
    )


def test_new_entry_goes_after_the_last_entry_of_its_room(store: MemoryStore) -> None:
    write(
        store,
        """\
# Memories

## Preferences

### programming-languages
- [2026-11-01] Rust for backends
- [2026-11-02] TypeScript for front ends

Some note the user wrote after the list.

### editors
- [2026-11-03] Helix
""",
    )
    store.save("Preferences/programming-languages", "Python for scripts")
    assert (
        read(store)
        == """\
# Memories

## Preferences

### programming-languages
- [2026-11-01] Rust for backends
- [2026-11-02] TypeScript for front ends
- [2026-11-30] Python for scripts

Some note the user wrote after the list.

### editors
- [2026-11-03] Helix
"""
    )


def test_new_room_goes_at_the_end_of_its_hall_never_a_second_hall_heading(store: MemoryStore) -> None:
    write(
        store,
        """\
## Preferences

### editors
- [2026-11-03] Helix

## Decisions

### db
- [2026-11-04] Postgres
""",
    )
    store.save("Preferences/terminals", "WezTerm")
    store.save("preferences/Shells", "fish")
    assert (
        read(store)
        == """\
## Preferences

### editors
- [2026-11-03] Helix

### terminals
- [2026-11-30] WezTerm

### shells
- [2026-11-30] fish

## Decisions

### db
- [2026-11-04] Postgres
"""
    )


def test_new_hall_and_new_wing_go_at_the_end_of_the_file(store: MemoryStore) -> None:
    write(store, "# Memories\n\n## Preferences\n\n### editors\n- [2026-11-03] Helix\n")
    store.save("Workflow Patterns/reviews", "Small PRs")
    store.save("ifai/Decisions/architecture", "Event-driven sync engine")
    store.save("ifai/Project Knowledge/frontend-stack", "Vue 3 inside Tauri")
    store.save("ifai/Decisions/database", "SQLite")
    assert (
        read(store)
        == """\
# Memories

## Preferences

### editors
- [2026-11-03] Helix

## Workflow Patterns

### reviews
- [2026-11-30] Small PRs

## ifai

### Decisions

#### architecture
- [2026-11-30] Event-driven sync engine

#### database
- [2026-11-30] SQLite

### Project Knowledge

#### frontend-stack
- [2026-11-30] Vue 3 inside Tauri
"""
    )


def test_a_wing_hall_is_not_confused_with_a_wingless_hall(store: MemoryStore) -> None:
    write(store, "## ifai\n\n### Decisions\n\n#### db\n- [2026-11-01] SQLite\n")
    store.save("Decisions/db", "Postgres by default")
    text = read(store)
    assert text.endswith("## Decisions\n\n### db\n- [2026-11-30] Postgres by default\n")
    assert entries(store) == [
        ("ifai/Decisions/db", "SQLite", "2026-11-01"),
        ("Decisions/db", "Postgres by default", "2026-11-30"),
    ]


def test_wing_heading_matches_case_insensitively(store: MemoryStore) -> None:
    write(store, "## IFAI\n\n### Decisions\n\n#### db\n- [2026-11-01] SQLite\n")
    store.save("ifai/Decisions/db", "WAL mode")
    assert read(store).count("## IFAI") == 1
    assert read(store).count("## ifai") == 0
    assert [e[1] for e in entries(store)] == ["SQLite", "WAL mode"]


def test_room_heading_written_as_free_text_receives_entries(store: MemoryStore) -> None:
    write(store, "## Preferences\n\n### Programming Languages\n- [2026-11-01] Rust\n")
    store.save("Preferences/programming-languages", "Go for CLIs")
    assert read(store) == (
        "## Preferences\n\n### Programming Languages\n- [2026-11-01] Rust\n- [2026-11-30] Go for CLIs\n"
    )


def test_room_with_only_notes_gets_its_first_entry_after_them(store: MemoryStore) -> None:
    write(store, "## Preferences\n\n### editors\nThe user's own note.\n\n### shells\n- [2026-11-01] fish\n")
    store.save("Preferences/editors", "Helix")
    assert read(store) == (
        "## Preferences\n\n### editors\nThe user's own note.\n- [2026-11-30] Helix\n\n### shells\n- [2026-11-01] fish\n"
    )


def test_entry_is_not_swallowed_by_an_html_block(store: MemoryStore) -> None:
    write(store, "## Preferences\n\n### editors\n<div>\nraw html\n")
    store.save("Preferences/editors", "Helix")
    assert ("Preferences/editors", "Helix", "2026-11-30") in entries(store)
    assert read(store).startswith("## Preferences\n\n### editors\n<div>\nraw html\n")


def test_new_room_is_not_swallowed_by_an_unclosed_code_fence(store: MemoryStore) -> None:
    original = "## Preferences\n\n### editors\n- [2026-11-01] Helix\n\n```\nunclosed code\n"
    write(store, original)
    store.save("Preferences/terminals", "WezTerm")
    assert ("Preferences/terminals", "WezTerm", "2026-11-30") in entries(store)
    assert "```\nunclosed code\n" in read(store)


def test_no_place_at_all_is_an_error_that_writes_nothing(store: MemoryStore) -> None:
    data = write(store, "## Preferences\n\n### editors\n- [2026-11-01] Helix\n\n```\n## everything after is code\n")
    with pytest.raises(StoreError, match=r"a code block that starts at line 6 .* is not closed"):
        store.save("Decisions/db", "Postgres")
    assert store.file.read_bytes() == data


# ---------------------------------------------------------------------- dedup and refresh
def test_equal_entry_refreshes_its_date_in_place(store: MemoryStore) -> None:
    original = "## Preferences\n\n### editors\n- [2026-10-01] The user edits with Helix\n- [2026-10-02] Zed\n"
    write(store, original)
    result = store.save("Preferences/editors", "  the USER   edits with helix!! ")
    assert result.action == "refreshed"
    assert "Preferences/editors" in result.message
    assert read(store) == original.replace("2026-10-01", "2026-11-30")


@pytest.mark.parametrize(
    ("stored", "saved"),
    [
        ("The user prefers Rust", "the user prefers rust."),
        ("The user prefers Rust", "The  user\tprefers Rust ..."),
        ("用户喜欢 Rust", "用户喜欢 Rust。"),
        ("用户喜欢 Rust！", "用户喜欢 Rust"),
        ("Ｆｕｌｌｗｉｄｔｈ text", "fullwidth TEXT"),  # NFKC
        ("Is it fast?", "is it fast"),
        ("Ends with semicolon;", "ends with semicolon"),
    ],
)
def test_dedup_ignores_date_case_whitespace_width_and_trailing_punctuation(
    store: MemoryStore, stored: str, saved: str
) -> None:
    write(store, f"## Preferences\n\n### x\n- [2026-10-01] {stored}\n")
    assert store.save("Preferences/x", saved).action == "refreshed"
    assert entries(store) == [("Preferences/x", stored, "2026-11-30")]


def test_normalise() -> None:
    assert normalise("  Hello,   WORLD!!。 ") == "hello, world"
    assert normalise("ＡＢＣ") == "abc"


def test_repeat_on_the_same_day_writes_nothing(store: MemoryStore) -> None:
    store.save("Preferences/editors", "Helix")
    before = store.file.read_bytes()
    stat = store.file.stat()
    result = store.save("Preferences/editors", "helix")
    assert result.action == "unchanged"
    assert not result.changed
    assert "Preferences/editors" in result.message
    assert store.file.read_bytes() == before
    after = store.file.stat()
    assert (after.st_mtime_ns, after.st_ino) == (stat.st_mtime_ns, stat.st_ino)


def test_repeat_on_a_later_day_refreshes(store: MemoryStore, clock: Clock) -> None:
    store.save("Preferences/editors", "Helix")
    clock.day = date(2026, 12, 5)
    assert store.save("Preferences/editors", "Helix").action == "refreshed"
    assert entries(store) == [("Preferences/editors", "Helix", "2026-12-05")]


def test_equal_entry_in_another_room_of_the_scope_is_refreshed_and_named(store: MemoryStore) -> None:
    write(store, "## Preferences\n\n### editors\n- [2026-10-01] Helix\n")
    result = store.save("Preferences/tools", "Helix")
    assert result.action == "refreshed"
    assert result.where is not None and str(result.where) == "Preferences/editors"
    assert "Preferences/editors" in result.message
    assert entries(store) == [("Preferences/editors", "Helix", "2026-11-30")]


def test_dedup_is_scoped_to_the_wing(store: MemoryStore) -> None:
    store.save("Decisions/db", "Postgres was chosen")
    assert store.save("ifai/Decisions/db", "Postgres was chosen").action == "saved"
    assert store.save("alice/Decisions/db", "Postgres was chosen").action == "saved"
    assert store.save("IFAI/Decisions/db", "postgres was chosen").action == "unchanged"
    assert [(e[0], e[1]) for e in entries(store)] == [
        ("Decisions/db", "Postgres was chosen"),
        ("ifai/Decisions/db", "Postgres was chosen"),
        ("alice/Decisions/db", "Postgres was chosen"),
    ]


def test_wingless_halls_are_one_scope_across_halls(store: MemoryStore) -> None:
    store.save("Preferences/db", "Postgres was chosen")
    result = store.save("Decisions/db", "Postgres was chosen")
    assert result.action == "unchanged"
    assert str(result.where) == "Preferences/db"


def test_undated_hand_written_item_is_dated_when_confirmed(store: MemoryStore) -> None:
    write(store, "## Preferences\n\n### editors\n* Helix, mostly\n+ [someday] Zed\n")
    assert store.save("Preferences/editors", "helix, mostly.").action == "refreshed"
    assert store.save("Preferences/editors", "Zed").action == "refreshed"
    assert read(store) == "## Preferences\n\n### editors\n* [2026-11-30] Helix, mostly\n+ [2026-11-30] Zed\n"


def test_near_duplicates_are_saved_but_named(store: MemoryStore) -> None:
    store.save("Preferences/programming-languages", "The user writes backends in Rust")
    result = store.save("Preferences/programming-languages", "The user writes all backends in Rust now")
    assert result.action == "saved"
    assert result.similar == ["Preferences/programming-languages: The user writes backends in Rust"]
    assert "similar entries exist" in result.message and "replaces" in result.message
    assert len(entries(store)) == 2
    unrelated = store.save("Preferences/programming-languages", "Dark mode everywhere")
    assert unrelated.similar == []


def test_near_duplicates_in_chinese(store: MemoryStore) -> None:
    store.save("Preferences/语言", "项目使用 TypeScript 和 Rust")
    result = store.save("Preferences/语言", "项目主要使用 TypeScript 和 Rust")
    assert result.action == "saved"
    assert result.similar


# ---------------------------------------------------------------------- replaces
def test_replaces_rewrites_in_place_with_today(store: MemoryStore) -> None:
    write(store, "## Preferences\n\n### editors\n- [2026-10-01] Vim\n- [2026-10-02] VS Code for notebooks\n")
    result = store.save("Preferences/editors", "Helix", replaces="vim")
    assert result.action == "replaced"
    assert result.replaced == "Vim"
    assert result.message == "Replaced in Preferences/editors: Vim -> Helix"
    assert read(store) == "## Preferences\n\n### editors\n- [2026-11-30] Helix\n- [2026-10-02] VS Code for notebooks\n"


def test_replaces_keeps_the_bullet_of_the_replaced_entry(store: MemoryStore) -> None:
    write(store, "## Preferences\n\n### editors\n* [2026-10-01] Vim\n")
    store.save("Preferences/editors", "Helix", replaces="[2026-10-01] Vim")
    assert read(store) == "## Preferences\n\n### editors\n* [2026-11-30] Helix\n"


def test_replaces_that_is_missing_writes_nothing_and_lists_the_room(store: MemoryStore) -> None:
    data = write(store, "## Preferences\n\n### editors\n- [2026-10-01] Vim\n- [2026-10-02] Zed\n")
    with pytest.raises(EntryNotFoundError) as caught:
        store.save("Preferences/editors", "Helix", replaces="Emacs")
    message = str(caught.value)
    assert 'no entry "Emacs" in Preferences/editors' in message
    assert "nothing written" in message
    assert "Vim; Zed" in message
    assert store.file.read_bytes() == data


def test_replaces_in_an_empty_room_says_so(store: MemoryStore) -> None:
    data = write(store, "## Preferences\n")
    with pytest.raises(EntryNotFoundError, match="room Preferences/editors has no entries"):
        store.save("Preferences/editors", "Helix", replaces="Vim")
    assert store.file.read_bytes() == data


def test_replaces_only_looks_in_the_named_room(store: MemoryStore) -> None:
    data = write(store, "## Preferences\n\n### editors\n- [2026-10-01] Vim\n\n### shells\n- [2026-10-01] bash\n")
    with pytest.raises(EntryNotFoundError):
        store.save("Preferences/editors", "fish", replaces="bash")
    assert store.file.read_bytes() == data


# ---------------------------------------------------------------------- forget
def test_forget_removes_one_entry(store: MemoryStore) -> None:
    write(store, "## Preferences\n\n### editors\n- [2026-10-01] Vim\n- [2026-10-02] Zed\n")
    result = store.forget("Preferences/editors", "vim")
    assert result.action == "forgotten"
    assert result.message == "Forgot from Preferences/editors: Vim"
    assert read(store) == "## Preferences\n\n### editors\n- [2026-10-02] Zed\n"


def test_forget_accepts_the_line_as_shown_with_its_date(store: MemoryStore) -> None:
    write(store, "## Preferences\n\n### editors\n- [2026-10-01] Vim\n- [2026-10-02] Zed\n")
    store.forget("Preferences/editors", "[2026-10-02] Zed")
    assert read(store) == "## Preferences\n\n### editors\n- [2026-10-01] Vim\n"


def test_forget_the_last_entry_removes_the_room_heading(store: MemoryStore) -> None:
    write(store, "## Preferences\n\n### editors\n- [2026-10-01] Vim\n\n### shells\n- [2026-10-01] fish\n")
    store.forget("Preferences/editors", "Vim")
    assert read(store) == "## Preferences\n\n### shells\n- [2026-10-01] fish\n"


def test_forget_keeps_a_room_heading_that_still_holds_user_text(store: MemoryStore) -> None:
    write(store, "## Preferences\n\n### editors\nMy own note.\n\n- [2026-10-01] Vim\n")
    store.forget("Preferences/editors", "Vim")
    assert read(store) == "## Preferences\n\n### editors\nMy own note.\n\n"


def test_forget_a_multi_line_entry_removes_all_its_lines(store: MemoryStore) -> None:
    write(store, "## Decisions\n\n### db\n- [2026-10-01] Postgres\n  because of JSONB\n- [2026-10-02] WAL\n")
    store.forget("Decisions/db", "Postgres because of JSONB")
    assert read(store) == "## Decisions\n\n### db\n- [2026-10-02] WAL\n"


def test_forget_the_last_line_of_a_file_without_final_newline(store: MemoryStore) -> None:
    write(store, "## Preferences\n\n### editors\nA note.\n\n- [2026-10-01] Vim\n- [2026-10-02] Zed")
    store.forget("Preferences/editors", "Zed")
    assert read(store) == "## Preferences\n\n### editors\nA note.\n\n- [2026-10-01] Vim"
    store.forget("Preferences/editors", "Vim")
    # the blank line before it is the user's and stays; a blank last line keeps its ending
    assert read(store) == "## Preferences\n\n### editors\nA note.\n\n"


def test_forget_only_in_the_named_wing(store: MemoryStore) -> None:
    store.save("Decisions/db", "Postgres")
    store.save("ifai/Decisions/db", "Postgres")
    store.forget("ifai/Decisions/db", "Postgres")
    assert [(e[0], e[1]) for e in entries(store)] == [("Decisions/db", "Postgres")]


def test_forget_missing_entry_writes_nothing_and_lists_the_room(store: MemoryStore) -> None:
    data = write(store, "## Preferences\n\n### editors\n- [2026-10-01] Vim\n")
    with pytest.raises(EntryNotFoundError, match=r'no entry "Emacs" in Preferences/editors .*Its entries: Vim'):
        store.forget("Preferences/editors", "Emacs")
    with pytest.raises(ContentError):
        store.forget("Preferences/editors", "   ")
    with pytest.raises(EntryNotFoundError, match="has no entries"):
        store.forget("Decisions/none", "x")
    assert store.file.read_bytes() == data


# ---------------------------------------------------------------------- validation
@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("", "content is empty"),
        ("   \t ", "content is empty"),
        ("line one\nline two", "must be one line"),
        ("line one\r\nline two", "must be one line"),
        ("x" * 201, "201 characters; the limit is 200"),
        ("# A heading", "may not start with '#'"),
        ("[2026-11-30] dated already", "may not start with a date"),
        ("2026-11-30 dated already", "may not start with a date"),
        ("bell \x07 inside", "control characters"),
    ],
)
def test_invalid_content_is_rejected_with_the_reason(store: MemoryStore, content: str, says: str) -> None:
    data = write(store, "## Preferences\n\n### editors\n- [2026-10-01] Vim\n")
    with pytest.raises(ContentError, match=says.replace("(", r"\(").replace("[", r"\[")):
        store.save("Preferences/editors", content)
    with pytest.raises(ContentError):
        store.save("Preferences/editors", content, replaces="Vim")
    assert store.file.read_bytes() == data


def test_length_limits(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path / "palace")
    assert store.save("Preferences/x", "y" * 200).action == "saved"
    assert store.save("Preferences/x", "z").action == "saved"
    with pytest.raises(ContentError, match="201 characters"):
        store.save("Preferences/x", "w" * 201)
    short = MemoryStore(tmp_path / "other", entry_limit=20)
    with pytest.raises(ContentError, match="the limit is 20"):
        short.save("Preferences/x", "this sentence is longer than twenty")
    assert short.save("Preferences/x", "short enough").action == "saved"
    assert validate_content("  padded  ", 200) == "padded"
    assert store.save("Preferences/x", "汉" * 200).action == "saved"  # characters, not bytes


SECRETS = [
    ("OpenAI API key", "my key is sk-proj-Ab3dEfGh1jKlMnOpQrStUvWxYz0123456789"),
    ("OpenAI API key", "sk-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefghij"),
    ("Anthropic API key", "use sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789"),
    ("AWS access key", "AWS key AKIAZ3K7Q2WP9XJ4LM6T for the bucket"),
    ("GitHub token", "token ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
    ("GitHub token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnop"),
    ("GitLab token", "glpat-abcdefghij0123456789"),
    ("Slack token", "bot xoxb-123456789012-abcdefghijkl"),
    ("Google API key", "maps key AIzaSyA1234567890abcdefghijklmnopqrstuv"),
    ("JSON Web Token", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"),
    ("PEM private key", "-----BEGIN RSA PRIVATE KEY----- MIIEowIBAAKCAQEA"),
    ("PEM private key", "key: -----BEGIN OPENSSH PRIVATE KEY-----"),
    ("password assignment", "the db password=hunter2"),
    ("password assignment", "passwd: s3cret!"),
    ("password assignment", "数据库密码：hunter2"),
    ("password assignment", "my password is Tr0ub4dor&3"),
    ("password assignment", "MY_API_KEY=abc123def456"),
    ("URL with a password", "connect to postgres://admin:hunter2@db.internal:5432/app"),
]


@pytest.mark.parametrize(("kind", "content"), SECRETS)
def test_secrets_are_refused_naming_the_kind_never_the_secret(store: MemoryStore, kind: str, content: str) -> None:
    data = write(store, "## Preferences\n\n### editors\n- [2026-10-01] Vim\n")
    with pytest.raises(SecretError) as caught:
        store.save("Preferences/editors", content)
    message = str(caught.value)
    assert kind in message
    for word in content.split():
        if len(word) >= 8 and any(ch.isdigit() for ch in word):
            assert word not in message
    assert "hunter2" not in message and "s3cret" not in message
    with pytest.raises(SecretError):
        store.save("Preferences/editors", content, replaces="Vim")
    assert store.file.read_bytes() == data


@pytest.mark.parametrize(
    "content",
    [
        "The token budget is 8 KB",
        "I use 1Password",
        "The password is rotated monthly",
        "Password policy: at least 12 characters",
        "API keys live in the macOS keychain",
        "The access token expires after an hour",
        "The repo is sk-dashboard-frontend-service",
        "Prefers https://github.com/org/repo links",
        "ssh user@host for deploys",
        "密码管理用 1Password",
        "Use pwd to print the working directory",
    ],
)
def test_ordinary_sentences_are_not_secrets(store: MemoryStore, content: str) -> None:
    assert store.save("Preferences/misc", content).action == "saved"


def test_every_rejected_write_leaves_the_file_byte_identical(store: MemoryStore) -> None:
    data = write(store, b"\xef\xbb\xbf## Preferences\r\n\r\n### editors\r\n- [2026-10-01] Vim\xff")
    stat = store.file.stat()
    attempts = [
        lambda: store.save("Prefernces/editors", "Helix"),
        lambda: store.save("Preferences/editors", "# heading"),
        lambda: store.save("Preferences/editors", "a\nb"),
        lambda: store.save("Preferences/editors", "password=hunter2"),
        lambda: store.save("Preferences/editors", "Helix", replaces="Emacs"),
        lambda: store.forget("Preferences/editors", "Emacs"),
        lambda: store.forget("Preferences/../editors", "Vim"),
        lambda: store.save("Preferences/editors", "x" * 500),
    ]
    for attempt in attempts:
        with pytest.raises(PalaceError):
            attempt()
        assert store.file.read_bytes() == data
    after = store.file.stat()
    assert (after.st_mtime_ns, after.st_ino) == (stat.st_mtime_ns, stat.st_ino)
    assert sorted(os.listdir(store.home)) == [".lock", "memories.md"]
