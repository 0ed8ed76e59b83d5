"""Quick add's corpus: a year-old palace's rooms and sentences a user would type with `/remember TEXT`.

Each sentence names the rooms that fit it. TUNE is what the room suggester was written against; HELD_OUT was
written apart and is only reported (bench/bench_quickadd.py), never tuned on.
"""

from __future__ import annotations

PALACE = """\
# Memories

## Preferences

### editors
- [2026-01-10] The user edits code in helix with vim keybindings
- [2026-02-02] The user keeps VS Code for notebooks only

### shells
- [2026-01-11] The user's login shell is fish
- [2026-03-01] The user aliases ls to eza

### programming-languages
- [2026-01-12] The user writes backends in Rust
- [2026-04-20] The user writes scripts in Python 3.12

### testing
- [2026-02-10] The user runs tests with pytest and hypothesis
- [2026-05-01] The user wants one assertion idea per test

### tone
- [2026-01-15] The user wants short answers without preamble
- [2026-06-01] The user dislikes emoji in replies

### fonts
- [2026-02-20] The user codes in JetBrains Mono at size 13

## Decisions

### database
- [2026-02-01] The orders service stores data in PostgreSQL 16
- [2026-03-12] Migrations are written with sqlx

### hosting
- [2026-03-03] Services are deployed on fly.io
- [2026-07-01] Static sites are hosted on Cloudflare Pages

### architecture
- [2026-04-04] The sync engine is event-driven with an outbox table

## Workflow Patterns

### commits
- [2026-01-20] The user squashes commits before merging to main
- [2026-02-22] Commit messages follow conventional commits

### reviews
- [2026-03-30] Every pull request gets one reviewer before merge

### releases
- [2026-05-05] Releases are tagged with semver and a changelog entry

## Project Knowledge

### frontend-stack
- [2026-01-25] The front end is Vue 3 inside Tauri

### ci
- [2026-02-14] CI runs on GitHub Actions with a matrix of Python versions

### api
- [2026-04-10] The public API is REST with OpenAPI 3.1 docs
"""

# (what the user types, the rooms that fit)
TUNE: list[tuple[str, set[str]]] = [
    ("I switched my editor to zed", {"Preferences/editors"}),
    ("I use neovim over ssh", {"Preferences/editors"}),
    ("helix themes: I like gruvbox in the editor", {"Preferences/editors"}),
    ("my shell prompt is starship", {"Preferences/shells"}),
    ("I use zsh on the work laptop", {"Preferences/shells"}),
    ("fish abbreviations instead of aliases", {"Preferences/shells"}),
    ("I write frontends in TypeScript", {"Preferences/programming-languages"}),
    ("learning Go for small CLI tools and scripts", {"Preferences/programming-languages"}),
    ("Rust edition 2024 for new crates", {"Preferences/programming-languages"}),
    ("tests should use fixtures instead of setup methods", {"Preferences/testing"}),
    ("I prefer vitest for the TypeScript tests", {"Preferences/testing"}),
    ("no mocking of the database in tests", {"Preferences/testing"}),
    ("answers in plain prose, no bullet lists unless asked", {"Preferences/tone"}),
    ("keep replies short and skip the preamble", {"Preferences/tone"}),
    ("the font for the terminal is Iosevka", {"Preferences/fonts"}),
    ("the orders database gets a read replica", {"Decisions/database"}),
    ("we use Redis for the session cache next to PostgreSQL", {"Decisions/database"}),
    ("the staging services are deployed on fly.io too", {"Decisions/hosting"}),
    ("docs site moves to Cloudflare Pages hosting", {"Decisions/hosting"}),
    ("the sync engine keeps its outbox table per tenant", {"Decisions/architecture"}),
    ("events are published from the outbox by a worker", {"Decisions/architecture"}),
    ("squash merge is the default for pull requests", {"Workflow Patterns/commits", "Workflow Patterns/reviews"}),
    ("commit messages are written in the imperative", {"Workflow Patterns/commits"}),
    ("a pull request needs a green CI run and one reviewer", {"Workflow Patterns/reviews", "Project Knowledge/ci"}),
    ("releases get a GitHub release with the changelog", {"Workflow Patterns/releases"}),
    ("the front end uses Pinia for state", {"Project Knowledge/frontend-stack"}),
    ("Tauri 2 for the desktop build of the front end", {"Project Knowledge/frontend-stack"}),
    ("CI caches the cargo registry between runs", {"Project Knowledge/ci"}),
    ("the API returns problem+json errors", {"Project Knowledge/api"}),
    ("API docs are generated from the OpenAPI file", {"Project Knowledge/api"}),
]

HELD_OUT: list[tuple[str, set[str]]] = [
    ("I'm trying out the kakoune editor", {"Preferences/editors"}),
    ("bash only for portable scripts, fish for the shell", {"Preferences/shells"}),
    ("Python type hints everywhere in the scripts", {"Preferences/programming-languages"}),
    ("property tests for the parsers", {"Preferences/testing"}),
    ("no emoji and no exclamation marks in answers", {"Preferences/tone"}),
    ("PostgreSQL 17 upgrade planned for the orders database", {"Decisions/database"}),
    ("the admin dashboard is hosted on fly.io as well", {"Decisions/hosting"}),
    ("commands and events are split in the architecture", {"Decisions/architecture"}),
    ("never force-push after a review started", {"Workflow Patterns/reviews", "Workflow Patterns/commits"}),
    ("release notes are written before the tag", {"Workflow Patterns/releases"}),
    ("the front end talks to the backend over Tauri commands", {"Project Knowledge/frontend-stack"}),
    ("CI runs the end-to-end tests nightly", {"Project Knowledge/ci"}),
    ("the API paginates with cursors", {"Project Knowledge/api"}),
    ("ligatures off in the terminal font", {"Preferences/fonts"}),
    ("commits are signed with an ssh key", {"Workflow Patterns/commits"}),
]
