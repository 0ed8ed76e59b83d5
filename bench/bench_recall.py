"""Benchmark of palace.recall on a large synthetic palace.

    python bench/bench_recall.py [--sessions 10000] [--queries 200] [--scan-queries 5] [--seed 7]

Generates N synthetic sessions (a journal and an archive each, about one in ten in Chinese) in a
temporary PALACE_HOME and reports: the index build time, the catch-up time after one new session, the
p50/p95 latency of RecallIndex.search (which includes its catch-up check) over the queries, and the
ratio to a linear scan of the same files in Python (read + lowercase + substring test per query),
measured in the same run on the first --scan-queries queries.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from palace.recall import RecallIndex


def _words(text: str) -> list[str]:
    return text.split()


TECH = _words(
    """
    database postgres mysql sqlite redis cache index query migration schema table column transaction
    deadlock timeout latency throughput connection pool replica backup restore snapshot test fixture
    mock pytest coverage flaky assertion integration unit deploy docker kubernetes pod container image
    registry pipeline workflow runner build release version tag branch merge rebase commit review lint
    format type compiler borrow lifetime trait async await thread process queue worker scheduler cron
    retry backoff circuit breaker gateway proxy nginx certificate tls token session cookie login logout
    password hash encrypt secret config environment variable logging metrics tracing alert dashboard
    frontend component store router state props render hook effect layout css grid flex header modal
    form validation error exception stack trace memory leak profile flame graph cpu disk network socket
    websocket http request response header status endpoint api pagination cursor offset limit filter
    sort search ranking tokenizer stemmer parser lexer grammar syntax editor plugin extension terminal
    shell script python rust typescript javascript golang java kotlin swift vue react svelte tauri
    electron webpack vite bundle chunk asset upload download storage bucket object file folder path
    """
)
SYLLABLES = _words(
    """
    ka ro mi zu te na shi vo le pa qu ix an el or um fi go be da ty ne ru so
    """
)
ZH_WORDS = _words(
    """
    数据库 连接池 索引 查询 迁移 缓存 测试 覆盖率 部署 容器 镜像 网关 超时 重试 日志 监控 告警 前端
    组件 状态 路由 渲染 性能 内存 泄漏 线程 进程 队列 调度 任务 证书 令牌 会话 登录 密码 配置
    环境 变量 接口 分页 排序 搜索 分词 解析 编辑器 插件 终端 脚本 提交 合并 评审 发布 版本 分支
    备份 恢复 快照 事务 死锁 延迟 吞吐 我们 需要 已经 应该 可以 因为 所以 但是 然后 问题 方案
    修复 优化 调整 检查 发现 原因 结果 用户 服务
    """
)
ZH_GLUE = "的了是在和也就都把被给让从对".replace("", " ").split()


def make_vocabulary(rng: random.Random, size: int = 6000) -> list[str]:
    words = list(TECH)
    seen = set(words)
    while len(words) < size:
        word = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


class Generator:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.vocab = make_vocabulary(self.rng)
        # Zipf-like weights: a few words are everywhere, most are rare.
        self.weights = [1.0 / (rank + 8) for rank in range(len(self.vocab))]
        self.cum = []
        total = 0.0
        for w in self.weights:
            total += w
            self.cum.append(total)

    def words(self, n: int) -> list[str]:
        return self.rng.choices(self.vocab, cum_weights=self.cum, k=n)

    def english(self, n: int) -> str:
        words = self.words(n)
        out = []
        for i in range(0, len(words), 12):
            chunk = words[i : i + 12]
            out.append(" ".join(chunk).capitalize() + ".")
        return " ".join(out)

    def chinese(self, n: int) -> str:
        parts = []
        for _ in range(n):
            parts.append(self.rng.choice(ZH_WORDS))
            if self.rng.random() < 0.4:
                parts.append(self.rng.choice(ZH_GLUE))
        if self.rng.random() < 0.5:
            parts.append(" " + " ".join(self.words(3)) + " ")
        return "".join(parts) + "。"

    def session(self, folder: Path, day: str, ident: str, fresh: bool = False) -> None:
        rng = self.rng
        zh = rng.random() < 0.1
        turns = rng.randint(4, 12)
        lines: list[dict[str, object]] = [
            {
                "type": "session",
                "id": ident,
                "started": f"{day}T09:00:00+00:00",
                "model": "m",
                "wing": None,
                "pid": 1,
                "host": "bench",
            }
        ]
        for i in range(turns):
            role = "user" if i % 2 == 0 else "assistant"
            size = rng.randint(8, 40) if role == "user" else rng.randint(30, 140)
            text = self.chinese(size // 2) if zh else self.english(size)
            lines.append(
                {"type": "message", "ts": f"{day}T09:{i:02d}:00+00:00", "message": {"role": role, "content": text}}
            )
        lines.append({"type": "end", "ts": f"{day}T09:59:00+00:00"})
        (folder / f"{day}-{ident}.jsonl").write_text(
            "".join(json.dumps(o, ensure_ascii=False) + "\n" for o in lines), encoding="utf-8"
        )
        summary = self.chinese(20) if zh else self.english(45)
        archive = (
            f"# Session {day} · {ident}\n\n- Started: {day} 09:00 +00:00\n- Model: m\n- Turns: {turns // 2}\n\n"
            f"## Summary\n{summary}\n\n## Memories Extracted\n- **Decisions/general**: {self.english(10)}\n"
        )
        (folder / f"{day}-{ident}.md").write_text(archive, encoding="utf-8")
        if not fresh:  # an old session: its files were last written on its day
            stamp = time.mktime(time.strptime(day + " 18:00", "%Y-%m-%d %H:%M"))
            for ext in ("jsonl", "md"):
                os.utime(folder / f"{day}-{ident}.{ext}", (stamp, stamp))

    def query(self) -> str:
        rng = self.rng
        if rng.random() < 0.1:
            return rng.choice(ZH_WORDS) + rng.choice(["", "的问题", " 怎么解决"])
        # Mid-frequency words, like a real question's content words.
        lo = 40
        return " ".join(rng.choice(self.vocab[lo:3000]) for _ in range(rng.randint(1, 4)))


def linear_scan(files: list[Path], query: str) -> int:
    words = query.lower().split()
    found = 0
    for path in files:
        text = path.read_text(encoding="utf-8").lower()
        if any(w in text for w in words):
            found += 1
    return found


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--scan-queries", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    gen = Generator(args.seed)
    with tempfile.TemporaryDirectory(prefix="palace-recall-bench-") as tmp:
        home = Path(tmp)
        folder = home / "sessions"
        folder.mkdir()
        started = time.perf_counter()
        base = 738000  # ordinal of a date in 2021
        for i in range(args.sessions):
            day = day_of(base + i * 1500 // max(args.sessions, 1))
            gen.session(folder, day, f"{i:08x}")
        gen_seconds = time.perf_counter() - started
        files = sorted(folder.iterdir())
        size_mb = sum(f.stat().st_size for f in files) / 1e6
        print(f"generated {args.sessions} sessions ({len(files)} files, {size_mb:.1f} MB) in {gen_seconds:.1f} s")

        index = RecallIndex(home)
        started = time.perf_counter()
        stats = index.refresh()
        build = time.perf_counter() - started
        db_mb = sum(p.stat().st_size for p in index.path.parent.glob(index.path.name + "*")) / 1e6
        print(f"index build: {build:.1f} s ({stats.added} files; index {db_mb:.1f} MB)")

        gen.session(folder, day_of(base + 1501), "ffffffff", fresh=True)
        started = time.perf_counter()
        stats = index.refresh()
        catch_up = time.perf_counter() - started
        print(f"catch-up after one new session: {catch_up * 1000:.1f} ms ({stats.added} files added)")
        started = time.perf_counter()
        index.refresh()
        print(f"catch-up with nothing new: {(time.perf_counter() - started) * 1000:.2f} ms")

        queries = [gen.query() for _ in range(args.queries)]
        for q in queries[:5]:  # warm the page cache and the statement cache
            index.search(q)
        latencies = []
        results = 0
        for q in queries:
            started = time.perf_counter()
            hits = index.search(q, limit=5)
            latencies.append(time.perf_counter() - started)
            results += bool(hits)
        p50, p95 = percentile(latencies, 50), percentile(latencies, 95)
        print(
            f"query latency over {len(queries)} queries (search() incl. its catch-up check): "
            f"p50 {p50 * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms; "
            f"{results} with results"
        )
        index.close()
        fresh = RecallIndex(home)
        started = time.perf_counter()
        fresh.search(queries[0])
        print(
            f"first search of a new process (a full stat scan of {len(files) + 2} files): "
            f"{(time.perf_counter() - started) * 1000:.0f} ms"
        )
        fresh.close()

        scan_times = []
        for q in queries[: args.scan_queries]:
            started = time.perf_counter()
            linear_scan(files, q)
            scan_times.append(time.perf_counter() - started)
        scan = statistics.median(scan_times)
        ours = statistics.median(latencies[: args.scan_queries])
        print(f"linear scan (read + lowercase + substring) median over {len(scan_times)} queries: {scan * 1000:.0f} ms")
        print(
            f"ratio: linear scan / index p50 = {scan / p50:.0f}x "
            f"(same {len(scan_times)} queries: {scan / ours:.0f}x); goal p50 <= 20 ms and >= 100x"
        )
    return 0


def day_of(ordinal: int) -> str:
    return date.fromordinal(ordinal).isoformat()


if __name__ == "__main__":
    raise SystemExit(main())
