"""Synthetic text for the generated palaces: vocabulary, sentence templates and `Prose`, seeded.

English with a technical vocabulary, a long tail of rare names (services, people, identifiers) and
Zipf-like word frequencies; Chinese sentences; code blocks; recall queries.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence


def words(text: str) -> list[str]:
    return text.split()


HALLS = ["Preferences", "Project Knowledge", "Decisions", "Workflow Patterns"]
WINGS = ["ifai", "palace", "billing-api", "dotfiles", "homelab", "alice", "bob"]


TECH = words(
    """
    postgres sqlite redis kafka nginx docker kubernetes helm terraform ansible grafana prometheus sentry
    rust python typescript golang kotlin swift vue react svelte tauri electron vite webpack axum tokio sqlx
    fastapi django pydantic pytest ruff mypy cargo poetry uv nix tmux helix neovim vscode zed fish zsh git
    github gitlab jenkins buildkite s3 minio clickhouse duckdb elasticsearch meilisearch openai ollama llama
    """
)
NOUNS = words(
    """
    database cache index query migration schema table column transaction deadlock timeout latency
    throughput connection pool replica backup snapshot fixture mock coverage assertion deploy container
    image registry pipeline workflow runner build release version branch merge rebase commit review
    compiler lifetime trait thread process queue worker scheduler retry backoff gateway proxy certificate
    session cookie login config variable logging metric trace alert dashboard
    component store router state layout form validation error exception stack leak profile socket request
    response header endpoint pagination cursor filter search tokenizer parser plugin terminal script
    bundle asset upload storage bucket folder invoice customer subscription webhook outbox event payload
    notification email template locale timezone report export import sync conflict
    """
)
VERBS = words(
    """
    migrate refactor cache deploy index retry split rename pin upgrade profile benchmark lint squash rebase
    document remove add fix debug rewrite batch shard throttle validate serialize parse bundle vendor
    """
)
ADJS = words("slow flaky stale large async blocking idempotent noisy brittle fast cheap expensive stable")
REASONS = [
    "it keeps the hot path free of locks",
    "the old one fell over at peak load",
    "it is easier to test in isolation",
    "the team already knows it",
    "it halves the cloud bill",
    "the vendor dropped support for the old version",
    "nobody could reproduce the bug otherwise",
]
ZH_NOUNS = words(
    """
    数据库 连接池 索引 查询 迁移 缓存 测试 部署 容器 镜像 网关 日志 监控 告警 前端 组件 状态 路由 渲染
    性能 内存 线程 队列 调度 任务 证书 令牌 会话 配置 接口 分页 搜索 分词 插件 脚本 版本 分支 备份 事务
    """
)
ZH_PROBLEMS = words("超时 很慢 内存泄漏 死锁 报错 丢数据 重复提交 卡住 崩溃 不稳定")
ZH_ASKS = ["怎么解决", "该怎么排查", "有没有更好的方案", "是不是配置的问题", "你怎么看"]

USER_TEMPLATES = [
    "Can you help me {verb} the {noun} in {ident}?",
    "The {noun} is {adj} when the {noun2} is under load, any idea why?",
    "I tried to {verb} {ident} but it still fails with `{err}`.",
    "We should {verb} the {noun} before the next release of {wing}.",
    "Let's use {tech} for the {noun} instead of {tech2}.",
    "Here is the error from {path}: {err}",
    "How do I {verb} a {noun} with {tech} without breaking the {noun2}?",
    "Why does {ident} take {num} ms on every {noun}?",
    "OK, go with {tech} {version} then, and keep the {noun} {adj}.",
    "Remember that I prefer {tech} over {tech2} for anything touching the {noun}.",
]
ASSISTANT_TEMPLATES = [
    "The {noun} is {adj} because {ident} holds the {noun2} while it waits for the {noun3}.",
    "You can {verb} it with `{cmd}`, which keeps the {noun} {adj} and the {noun2} untouched.",
    "First {verb} the {noun}, then {verb2} {ident} so the {noun2} stops retrying.",
    "With {tech} {version} the {noun} is handled by {ident}; the {noun2} only sees the result.",
    "A {adj} {noun} usually means the {noun2} is shared; give each worker its own {noun3}.",
    "I would {verb} the {noun} rather than the {noun2}: {reason}.",
    "In {path} the {noun} is created on every request, so move it into {ident}.",
    "That error comes from {ident}: the {noun} was closed before the {noun2} finished.",
    "Measure it first: {num} ms per {noun} is fine, but the {noun2} should stay under {num2} ms.",
    "Both work; {tech} is simpler here, {tech2} only pays off with a {adj} {noun}.",
]
SUMMARY_TEMPLATES = [
    "The user worked on the {noun} of {wing} and decided to {verb} it with {tech}.",
    "A {adj} {noun} in {ident} was traced to the {noun2}; the fix was to {verb} the {noun3}.",
    "The session compared {tech} and {tech2} for the {noun}; {tech} was chosen because {reason}.",
    "The user asked how to {verb} the {noun} and got a migration plan for {path}.",
]
ENTRY_TEMPLATES = {
    "Preferences": [
        "The user prefers {tech} over {tech2} for the {noun}",
        "Prefers short answers with the code first, then the {noun}",
        "The user edits code in {tech} and writes notes in markdown",
        "Wants {tech} examples rather than {tech2} ones when asking about the {noun}",
        "Likes a {adj} {noun} to be called out in reviews, with a link to {path}",
        "Uses {tech} for every new {noun} since {version}",
        "Dislikes {adj} abstractions around the {noun}; plain functions in {ident} are fine",
        "用户喜欢简洁的回答，先给{zh}的代码",
    ],
    "Project Knowledge": [
        "{wing} uses {tech} {version} for the {noun}",
        "The {noun} of {wing} lives in {path}",
        "CI runs on {tech}; a full pipeline takes about {num} minutes",
        "The {noun} talks to the {noun2} through {ident}",
        "{ident} owns the {noun}; nothing else may write to it",
        "The staging {noun} is reset every night by `{cmd}`",
        "{wing} keeps its {noun} in {tech}, with backups of the {noun2} every {num} minutes",
        "项目的{zh}使用 {tech}",
    ],
    "Decisions": [
        "Decided to {verb} the {noun} with {tech} because {reason}",
        "The {noun} moves from {tech2} to {tech} in {version}",
        "Chose {tech} for the {noun} of {wing}: {reason}",
        "No more {adj} {noun} in {path}; {ident} replaces it",
        "The {noun} stays on {tech2} until the {noun2} is migrated",
        "决定把{zh}迁移到 {tech}",
    ],
    "Workflow Patterns": [
        "Run `{cmd}` before pushing",
        "Squash work-in-progress commits before a {noun} review",
        "Releases of {wing} are tagged {version} and deployed with {tech}",
        "A {adj} test of the {noun} is quarantined, not retried",
        "Every change to the {noun} gets a note in {path}",
        "先在本地跑 `{cmd}`，再提交{zh}的改动",
    ],
}


class _Zipf:
    """Draws from items with Zipf-like weights: a few are everywhere, most are rare."""

    def __init__(self, items: Sequence[str], offset: int = 4) -> None:
        self.items = list(items)
        total, self.cum = 0.0, []
        for rank in range(len(self.items)):
            total += 1.0 / (rank + offset)
            self.cum.append(total)

    def __call__(self, rng: random.Random) -> str:
        return rng.choices(self.items, cum_weights=self.cum)[0]


class _Slots(dict[str, str]):
    """Template slots drawn on first use."""

    def __init__(self, draw: Callable[[str], str]) -> None:
        super().__init__()
        self.draw = draw

    def __missing__(self, key: str) -> str:
        value = self[key] = self.draw(key)
        return value


class Prose:
    """English and Chinese sentences, code blocks and queries from one seeded random source."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        syllables = words("ka ro mi zu te na shi vo le pa qu an el or um fi go be da ty ne ru so")
        jargon: list[str] = []  # the long tail of a year's vocabulary: internal names, services, people
        seen: set[str] = set()
        while len(jargon) < 3000:
            word = "".join(rng.choice(syllables) for _ in range(rng.randint(2, 4)))
            if word not in seen:
                seen.add(word)
                jargon.append(word)
        self.jargon = jargon
        idents = [f"{rng.choice(VERBS)}_{rng.choice(NOUNS)}" for _ in range(800)]
        idents += [
            f"{n.capitalize()}{m.capitalize()}"
            for n, m in zip(rng.sample(NOUNS, 60), rng.sample(NOUNS, 60), strict=True)
        ]
        idents += [f"{rng.choice(jargon)}_{rng.choice(NOUNS)}" for _ in range(1500)]
        self.ident = _Zipf(idents, offset=20)
        self._common, self._rare = _Zipf(NOUNS, offset=10), _Zipf(jargon, offset=30)
        self.tech = _Zipf(TECH)
        self.zh = _Zipf(ZH_NOUNS)

    def noun(self, rng: random.Random) -> str:
        """A noun: mostly everyday technical words, one in eight from the long tail."""
        return (self._rare if rng.random() < 0.125 else self._common)(rng)

    def _slot(self, name: str) -> str:
        rng = self.rng
        kind = name.rstrip("23")
        if kind == "noun":
            return self.noun(rng)
        if kind == "verb":
            return rng.choice(VERBS)
        if kind == "tech":
            return self.tech(rng)
        if kind == "path":
            return f"src/{self.noun(rng)}/{self.ident(rng)}.{rng.choice(['rs', 'py', 'ts', 'go'])}"
        if kind == "err":
            error = rng.choice(["TimeoutError", "ConnectionReset", "E0502", "EPIPE", "KeyError"])
            return f"{error}: {self.noun(rng)} {rng.choice(['closed', 'not found', 'locked', 'expired'])}"
        if kind == "cmd":
            return f"{rng.choice(['cargo', 'uv run', 'npm run', 'make', 'just'])} {rng.choice(VERBS)}"
        if kind == "version":
            return f"{rng.randint(0, 18)}.{rng.randint(0, 30)}"
        if kind == "num":
            return str(rng.choice([3, 12, 40, 85, 120, 300, 950]))
        simple: dict[str, Callable[[], str]] = {
            "adj": lambda: rng.choice(ADJS),
            "ident": lambda: self.ident(rng),
            "wing": lambda: rng.choice(WINGS[:5]),
            "reason": lambda: rng.choice(REASONS),
            "zh": lambda: self.zh(rng),
        }
        return simple[kind]()

    def fill(self, templates: Sequence[str]) -> str:
        """One template with its slots filled (each slot drawn once, when the template names it)."""
        return self.rng.choice(templates).format_map(_Slots(self._slot))

    def english(self, templates: Sequence[str], sentences: int) -> str:
        return " ".join(self.fill(templates) for _ in range(sentences))

    def chinese(self, sentences: int, *, question: bool) -> str:
        rng, parts = self.rng, []
        for _ in range(sentences):
            noun, other = self.zh(rng), self.zh(rng)
            if question:
                parts.append(f"我们的{noun}在{other}的时候{rng.choice(ZH_PROBLEMS)}，{rng.choice(ZH_ASKS)}？")
            else:
                fix = f"再把{other}改成 {self.tech(rng)}，这样就不会{rng.choice(ZH_PROBLEMS)}了。"
                parts.append(f"先检查{noun}和 {self.ident(rng)}，{fix}")
        return "".join(parts)

    def code(self) -> str:
        rng, lines = self.rng, []
        lang = rng.choice(["python", "rust", "sql", "sh"])
        for _ in range(rng.randint(3, 14)):
            a, b = self.ident(rng), self.noun(rng)
            lines.append(
                {
                    "python": f"    {b} = {a}({b}, timeout={rng.randint(1, 60)})",
                    "rust": f"    let {b} = {a}(&{b}).await?;",
                    "sql": f"SELECT {b}_id, count(*) FROM {b}s WHERE {a} IS NOT NULL GROUP BY 1;",
                    "sh": f"{rng.choice(['cargo', 'uv', 'docker', 'kubectl', 'git'])} {rng.choice(VERBS)} {a}",
                }[lang]
            )
        return f"```{lang}\n" + "\n".join(lines) + "\n```"

    def query(self) -> str:
        """A recall query: a few content words, sometimes a question, one in ten in Chinese."""
        rng = self.rng
        if rng.random() < 0.1:
            return self.zh(rng) + rng.choice(["", "的问题", " 怎么解决", self.zh(rng)])
        picked = [rng.choice([self.noun, self.ident, self.tech])(rng) for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.3:
            return f"how did we {rng.choice(VERBS)} the " + " ".join(picked)
        return " ".join(picked)
