"""Ordinary transcript messages with no secret in them: the text redact() runs over on every indexed message."""

from __future__ import annotations

from .gen import HEX, Gen

_EN_SENTENCES = (
    """the build failed again after the rebase so I reverted the migration and reran the tests on the staging box
    can you check why the cache hit rate dropped the dashboard shows latency spikes every hour around the cron job
    we rotate the API key every 90 days and the password policy asks for at least 12 characters
    the access token expires after an hour so the worker refreshes it before each batch upload
    I moved the config to settings.toml and the token budget is 8 KB per request with a 4096 max_tokens cap
    let's keep the secret sauce in the ranking function and document the tokenizer choice in the README
    pytest shows two flaky tests in test_recall.py when the machine is loaded; add a retry in CI only
    the key insight is that the index is rebuilt when the schema changes so we never keep stale rows""",
)
_EN = [word for sentence in _EN_SENTENCES for word in sentence.split()]
_ZH_SENTENCES = (
    """我们 明天 上线 新版本 数据库 迁移 已经 完成 密码 管理 用 1Password 请 不要 把 密钥 发到 群里
    部署 脚本 在 服务器 上 运行 缓存 命中率 下降 了 需要 排查 日志 里 的 错误 和 超时""",
)
_ZH = [word for sentence in _ZH_SENTENCES for word in sentence.split()]


def _code_line(g: Gen) -> str:
    sha, uuid = g.chars(HEX, 40), g.uuid()
    return g.pick(
        [
            f"$ git log --oneline -3\n{sha[:7]} fix flaky test\n{g.chars(HEX, 7)} bump version to 2.{g.digits(2)}.0",
            f'Traceback (most recent call last):\n  File "/srv/app/palace/recall/index.py", line {g.digits(3)}',
            f"request {uuid} took {g.digits(3)} ms; see https://grafana.internal/d/{g.chars(HEX, 8)}?from=now-6h",
            f"pwd: /srv/app\n$ ls -la /var/log/palace/\ncommit {sha}",
            f"docker pull ghcr.io/acme/api@sha256:{g.chars(HEX, 64)}",
            "export PATH=$HOME/.local/bin:$PATH && pip install -e '.[dev]'",
            "connect to postgres://localhost:5432/app as the app user (password from the keychain)",
        ]
    )


def _prose(g: Gen, words: list[str], n: int, sep: str) -> str:
    return sep.join(g.pick(words) for _ in range(n))


def message(g: Gen) -> str:
    """One user or assistant message: prose, code output, or Chinese prose."""
    roll = g.rng.random()
    if roll < 0.55:
        return _prose(g, _EN, g.rng.randint(20, 300), " ").capitalize() + "."
    if roll < 0.8:
        return "\n".join(_code_line(g) for _ in range(g.rng.randint(1, 6)))
    return _prose(g, _ZH, g.rng.randint(20, 200), "") + "。"


def transcript(size: int, seed: int = 7) -> list[str]:
    """Messages adding up to about size characters."""
    g = Gen(seed)
    messages: list[str] = []
    total = 0
    while total < size:
        messages.append(message(g))
        total += len(messages[-1])
    return messages
