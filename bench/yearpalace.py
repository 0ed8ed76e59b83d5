"""A generated year-old palace: 600 entries with known use counts, 40 past their end, 10 seeded duplicate pairs.

Used by bench/bench_year_palace.py and tests/test_year_palace.py (the issue's measures). Seeded, never random
between runs; the subjects are made up from word lists, so no entry repeats another by accident.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

from palace.memory.reuse import ReuseCounts

TODAY = date(2026, 12, 1)
ROOMS = ("editors", "shells", "languages", "testing", "tone", "hosting", "database", "commits", "reviews", "ci")
HALLS = {
    "editors": "Preferences", "shells": "Preferences", "languages": "Preferences", "testing": "Preferences",
    "tone": "Preferences", "hosting": "Decisions", "database": "Decisions", "commits": "Workflow Patterns",
    "reviews": "Workflow Patterns", "ci": "Project Knowledge",
}  # fmt: skip
_NOUNS = (
    "gateway ledger beacon harbor quartz meadow falcon lantern cobalt willow summit ember prism canyon orbit "
    "juniper nimbus tundra vertex saffron glacier pixel raven cedar delta fjord garnet helios ivory jasper "
    "kestrel lotus marble nebula opal pioneer quasar relic sierra topaz umber vortex walnut xenon yonder zephyr"
).split()
_VERBS = ("keeps", "tracks", "stores", "sends", "checks", "builds", "signs", "caches", "rotates", "mirrors")
_OBJECTS = ("the nightly exports", "its audit trail", "every release tag", "the staging secrets list",
            "the weekly report", "its config snapshots", "the build artefacts", "the access logs",
            "the onboarding notes", "the invoice batches")  # fmt: skip
# Ten facts said twice in other words, in another room of the same scope: what `tidy` must find.
PAIRS = (
    (("shells", "The user prefers zsh as the login shell"), ("editors", "The user likes zsh as login shell")),
    (("editors", "The user edits Markdown in Obsidian"), ("tone", "The user edits markdown notes in Obsidian")),
    (
        ("languages", "The user writes data pipelines in Rust"),
        ("testing", "The user writes the data pipelines in Rust"),
    ),
    (("testing", "Snapshot tests use insta for Rust crates"), ("ci", "Snapshot tests use insta in the Rust crates")),
    (("hosting", "Preview apps are deployed on Render"), ("ci", "Preview apps get deployed on Render")),
    (("database", "Analytics queries run on DuckDB"), ("languages", "The analytics queries run on DuckDB")),
    (
        ("commits", "Commit subjects stay under 50 characters"),
        ("reviews", "Commit subjects stay under 50 characters long"),
    ),
    (
        ("reviews", "Reviews wait for a green pipeline before approval"),
        ("ci", "Reviews wait for the green pipeline before approval"),
    ),
    (
        ("tone", "The user wants answers in British English"),
        ("editors", "The user wants the answers in British English"),
    ),
    (
        ("ci", "Nightly builds publish to the internal registry"),
        ("hosting", "Nightly builds publish into the internal registry"),
    ),
)


@dataclass
class YearPalace:
    """The generated file and what the measures need to know of it."""

    text: str
    uses: dict[tuple[str, str], int] = field(default_factory=dict)  # (path, content) -> uses
    expired: list[str] = field(default_factory=list)  # contents past their end
    pairs: list[tuple[str, str]] = field(default_factory=list)  # (content, content) said twice

    def most_used(self, count: int = 20) -> list[str]:
        ranked = sorted(self.uses.items(), key=lambda kv: -kv[1])
        return [content for (_, content), _ in ranked[:count]]


def generate(seed: int = 7, entries: int = 600, expired: int = 40) -> YearPalace:
    """The palace's memories.md text and its known facts (entries: the plain ones, besides the pairs)."""
    rng = random.Random(seed)
    rooms: dict[str, list[str]] = {room: [] for room in ROOMS}
    palace = YearPalace("")
    for n in range(entries):
        room = ROOMS[n % len(ROOMS)]
        subject = f"{rng.choice(_NOUNS).capitalize()} {n}"
        content = f"The {subject} service {rng.choice(_VERBS)} {rng.choice(_OBJECTS)}"
        day = TODAY - timedelta(days=rng.randrange(1, 360))
        if n < expired:
            end = TODAY - timedelta(days=rng.randrange(1, 60))
            line = f"- [{day - timedelta(days=90)} → {end}] {content}"
            palace.expired.append(content)
        else:
            line = f"- [{day}] {content}"
            palace.uses[(f"{HALLS[room]}/{room}", content)] = int(rng.paretovariate(1.2)) - 1
        rooms[room].append(line)
    for (room_a, a), (room_b, b) in PAIRS:
        rooms[room_a].append(f"- [{TODAY - timedelta(days=200)}] {a}")
        rooms[room_b].append(f"- [{TODAY - timedelta(days=20)}] {b}")
        palace.pairs.append((a, b))
    text = ["# Memories", ""]
    for hall in dict.fromkeys(HALLS.values()):
        text += [f"## {hall}", ""]
        for room in (r for r in ROOMS if HALLS[r] == hall):
            text += [f"### {room}", *rooms[room], ""]
    palace.text = "\n".join(text)
    return palace


def write(home: Path, palace: YearPalace) -> None:
    """The palace's memories.md and its reuse counts, in home."""
    home.mkdir(parents=True, exist_ok=True)
    (home / "memories.md").write_text(palace.text, encoding="utf-8")
    counts = ReuseCounts(home)
    for (path, content), uses in palace.uses.items():
        if uses:
            counts.bump([(path, content)] * uses, "recalled", TODAY.isoformat())
