"""Evaluation corpus: realistic developer sessions (English and Chinese) that share vocabulary.

Each session: key, date, id (8 hex), wing, files ("both" | "journal" | "archive"), summary, memories
(path: content, as the archive's Memories Extracted list) and turns (user, assistant, user, ...).
"""

from __future__ import annotations

from typing import Any

SESSIONS: list[dict[str, Any]] = [
    {
        "key": "billing-mysql-to-postgres",
        "date": "2026-02-03",
        "id": "0b1a9c01",
        "wing": "billing",
        "files": "both",
        "summary": "Planned moving the billing service from MySQL 5.7 to PostgreSQL 15 with pgloader. The dry run "
        "hit duplicate primary keys because sequences started at 1; fixed with setval per table. Cutover "
        "planned for a Sunday night window with maintenance mode, row-count checks and MySQL kept "
        "read-only for a week as fallback.",
        "memories": ["billing/Decisions/database: Billing moves from MySQL to PostgreSQL 15 using pgloader"],
        "turns": [
            "We need to move the billing service off MySQL 5.7 onto PostgreSQL 15. About 40 GB of data, "
            "mostly the invoices and payments tables. What's the least painful way?",
            "For a one-shot move of that size pgloader is the usual tool: it reads the MySQL schema, converts "
            "types, copies data in parallel and recreates indexes and foreign keys. Do a dry run against a "
            "staging copy first. Watch for zero dates ('0000-00-00') which Postgres rejects, tinyint(1) "
            "columns that should become boolean, and AUTO_INCREMENT counters.",
            "Dry run done. The invoices copied fine but inserting a new invoice fails with: duplicate key "
            'value violates unique constraint "invoices_pkey".',
            "That's the sequence: it still starts at 1. Run SELECT setval('invoices_id_seq', (SELECT max(id) "
            "FROM invoices)); for every table with a serial id. pgloader has a 'reset sequences' option; it "
            "was probably disabled in your load file.",
            "Fixed with setval. For the cutover we can afford maybe 30 minutes of downtime on Sunday night.",
            "Then: put billing in maintenance mode, final pgloader run (about 20 minutes for 40 GB judging by "
            "the dry run), run the sequence fix script, compare row counts per table, switch DATABASE_URL, "
            "smoke test creating an invoice. Keep MySQL read-only for a week as a fallback.",
        ],
    },
    {
        "key": "slow-orders-query",
        "date": "2026-02-10",
        "id": "0b1a9c02",
        "wing": "shop",
        "files": "both",
        "summary": "The admin orders page took 9 s because of a sequential scan on orders (only a primary key "
        "index). Added a composite index (customer_id, status, created_at DESC) created CONCURRENTLY, "
        "bringing it to 12 ms; suggested a partial index for open orders and dropping SELECT *.",
        "memories": [],
        "turns": [
            "The /admin/orders page takes 9 seconds. The query is SELECT * FROM orders WHERE customer_id = $1 "
            "AND status = 'open' ORDER BY created_at DESC LIMIT 50.",
            "Run EXPLAIN (ANALYZE, BUFFERS) on it. My guess is a sequential scan over orders, or an index on "
            "customer_id only followed by a sort.",
            "Seq Scan on orders, rows removed by filter: 4.2 million. There's only the primary key index.",
            "Add a composite index matching the filter and the sort: CREATE INDEX CONCURRENTLY "
            "orders_customer_status_created_idx ON orders (customer_id, status, created_at DESC); "
            "CONCURRENTLY avoids blocking writes on a big table. Then the planner reads the 50 newest rows "
            "straight from the index.",
            "Down to 12 ms. Should I also index status alone? The dashboard counts open orders.",
            "A partial index is cheaper: CREATE INDEX ... ON orders (created_at) WHERE status = 'open'; open "
            "orders are a small fraction so it stays tiny. Also stop using SELECT * on the admin page, it "
            "pulls the large notes jsonb column.",
        ],
    },
    {
        "key": "sqlite-locked",
        "date": "2026-02-17",
        "id": "0b1a9c03",
        "wing": "notes-app",
        "files": "both",
        "summary": 'Fixed intermittent "database is locked" errors in the Tauri notes app: switched SQLite to '
        "WAL, set busy_timeout on every connection, kept a single writer connection and split the sync "
        "worker's big transaction into batches of 100 rows.",
        "memories": ["notes-app/Project Knowledge/storage: SQLite in WAL mode with one writer connection"],
        "turns": [
            'Our Tauri notes app sometimes shows "database is locked" when the sync worker runs while the '
            "user is typing. We use SQLite through rusqlite.",
            "By default SQLite uses a rollback journal, so a writer blocks readers and a second writer gets "
            "SQLITE_BUSY immediately unless a busy timeout is set. Two changes: enable WAL mode (PRAGMA "
            "journal_mode=WAL) so readers never block the writer, and set busy_timeout (say 5000 ms) so a "
            "second writer waits instead of failing.",
            "We open a new connection for every command, does that matter?",
            "Yes: busy_timeout is per connection (WAL is persistent in the file), so every new connection "
            "needs it again. Better to keep one writer connection behind a mutex and a small pool of "
            "read-only connections. Also keep write transactions short: the sync worker wraps the whole "
            "download in one transaction.",
            "After WAL, busy_timeout and batching the sync writes in chunks of 100 rows the error is gone.",
        ],
    },
    {
        "key": "cache-stampede",
        "date": "2026-02-24",
        "id": "0b1a9c04",
        "wing": "shop",
        "files": "both",
        "summary": "Catalog cache expiry caused a stampede of 2k requests onto Postgres. Decided on per-product "
        "invalidation instead of flushing the whole catalog, 10% TTL jitter and a Redis SET NX lock so "
        "one worker rebuilds while others serve stale data.",
        "memories": ["shop/Decisions/caching: per-key cache invalidation with TTL jitter and an NX lock"],
        "turns": [
            "When the product catalog cache expires we get a spike of 2k requests hitting Postgres at the "
            "same moment and p99 latency goes to 4 seconds.",
            "That's a cache stampede (thundering herd): many requests miss together and all recompute. "
            "Options: add jitter to TTLs so keys don't expire together; a lock per key, where the first miss "
            "takes SET key:lock NX PX 5000 and recomputes while others serve the stale value; or "
            "probabilistic early refresh.",
            "We also invalidate the whole catalog on every product edit, which I think makes it worse.",
            "Yes. Invalidate per product key and per category listing instead of flushing everything, and "
            "keep serving the stale value while one worker rebuilds it (stale-while-revalidate).",
            "Going with per-key invalidation, a 10% TTL jitter and the NX lock.",
        ],
    },
    {
        "key": "zh-connection-pool",
        "date": "2026-03-03",
        "id": "0b1a9c05",
        "wing": "crm",
        "files": "both",
        "summary": "订单服务高峰期 HikariCP 连接池耗尽（默认 10 个连接，30 秒超时）。通过 leakDetectionThreshold "
        "找到导出报表接口在事务中调用外部 HTTP 服务、长期占用连接；把外部调用移出事务，并把 maximumPoolSize "
        "调到 20。",
        "memories": ["crm/Project Knowledge/order-service: 订单服务使用 Spring Boot 和 HikariCP，连接池大小 20"],
        "turns": [
            '我们的订单服务在高峰期报错 "Connection is not available, request timed out after 30000ms"，'
            "用的是 Spring Boot + HikariCP。",
            "这是连接池耗尽了。先看两点：maximumPoolSize 现在是多少（默认 10），以及有没有长事务或者连接泄漏。"
            "可以打开 leakDetectionThreshold，比如设成 20000 毫秒，日志里会打印持有连接太久的调用栈。",
            "池大小是默认的 10。泄漏检测打出来的是一个导出报表的接口，它在事务里调用了外部 HTTP 服务。",
            "问题就在这里：事务期间一直占着数据库连接，外部接口慢的时候连接就被占满了。把外部调用移到事务外面，"
            "事务只包住真正的数据库写入。池大小可以调到 20，但不要盲目加大，数据库端的 max_connections 也有限制。",
            "好，改了之后高峰期没有再超时。",
        ],
    },
    {
        "key": "pg-backups",
        "date": "2026-03-09",
        "id": "0b1a9c06",
        "wing": "billing",
        "files": "archive",
        "summary": "Set up nightly pg_dump -Fc backups of the billing PostgreSQL to S3 with lifecycle retention, "
        "using pipefail in the cron script, plus a monthly restore drill with pg_restore -j 4 (first "
        "drill: 14 minutes, counts matched). WAL archiving (wal-g or pgBackRest) noted as a later step.",
        "memories": ["billing/Workflow Patterns/backups: monthly restore drill of the billing dump"],
        "turns": [
            "We have no tested backups for the billing Postgres. What's a sane setup for a single 40GB instance?",
            "Nightly logical dumps with pg_dump -Fc (custom format, compressed, allows parallel restore) "
            "uploaded to S3 with a lifecycle rule (30 daily, 12 monthly). For point-in-time recovery add WAL "
            "archiving with pgBackRest or wal-g. And the important part: a scheduled restore drill.",
            "Let's start with pg_dump to S3 from a cron job on the db host, and a monthly restore test.",
            "Script: pg_dump -Fc -d billing | aws s3 cp - s3://acme-backups/billing/$(date +%F).dump and check "
            "both sides with set -o pipefail. For the drill: restore into a scratch instance with pg_restore "
            "-j 4, then compare row counts and a checksum query on invoices.",
            "First restore drill took 14 minutes and the counts matched.",
        ],
    },
    {
        "key": "flaky-timezone-test",
        "date": "2026-03-16",
        "id": "0b1a9c07",
        "wing": "shop",
        "files": "both",
        "summary": "A flaky test (test_invoice_due_date) failed in CI after midnight UTC because the code used "
        "date.today() and the developer works in UTC+8. Decided to inject a clock into the invoice code "
        "instead of relying on the real time, with freezegun as a stopgap, and to add an end-of-month case.",
        "memories": ["shop/Workflow Patterns/testing: inject a clock instead of calling date.today() in code"],
        "turns": [
            "test_invoice_due_date fails about once a week in CI and never locally.",
            "Intermittent failures that depend on the day usually mean the test uses the real clock. Does "
            "the code call datetime.now() or date.today()? And what timezone does CI run in?",
            "It calls date.today(), CI runs in UTC, I'm in UTC+8. It fails when CI runs shortly after midnight UTC.",
            'Freeze time in the test: with freezegun, @freeze_time("2026-03-16 23:30:00") and an explicit '
            "timezone. Better still, inject a clock into the invoice code so tests pass a fixed date instead "
            "of patching globals.",
            "I'll inject a clock function, and add a test for the end-of-month case too.",
        ],
    },
    {
        "key": "pytest-fixtures",
        "date": "2026-03-20",
        "id": "0b1a9c08",
        "wing": "md-parser",
        "files": "both",
        "summary": "Refactored the markdown parser tests: a shared parser fixture (function scope where tests "
        "mutate options, copied from a session-scoped config), parametrize with ids for input/output "
        "cases. 60 test functions became 12, runtime dropped from 40 s to 6 s.",
        "memories": [],
        "turns": [
            "Our parser tests have 60 functions that each build the same Parser with the same config. Slow "
            "and repetitive.",
            "Make a fixture: @pytest.fixture def parser(): return Parser(Config(strict=True)). If building it "
            'is expensive and it is immutable, use scope="module" or "session". For the many input/output '
            "pairs use @pytest.mark.parametrize with ids so a failure names the case.",
            "Some tests mutate the parser's options.",
            "Then keep function scope for those, or have a session-scoped base config and a function-scoped "
            "fixture that returns a copy. Mutating a shared session fixture leaks state between tests and "
            "makes their order matter.",
            "Done: 60 tests became 12 parametrized ones, runtime went from 40s to 6s.",
        ],
    },
    {
        "key": "hypothesis-slugify",
        "date": "2026-03-25",
        "id": "0b1a9c09",
        "wing": "md-parser",
        "files": "both",
        "summary": "A Hypothesis property test on slugify found that 'İ' lowercases to i plus a combining dot; "
        "fixed by NFKD-normalising and dropping combining marks. Also decided that slugify of only "
        "punctuation returns 'untitled', and pinned both cases with @example.",
        "memories": [],
        "turns": [
            "I added a property-based test with Hypothesis for slugify: the output should only contain "
            "[a-z0-9-]. It found a failing example: 'İ'.",
            "That's the Turkish dotted capital I. 'İ'.lower() gives an i followed by a combining dot above "
            "(U+0307), two code points, and the mark slips through. Normalise first with "
            "unicodedata.normalize('NFKD', s), drop combining marks, then lowercase and encode to ascii with "
            "errors='ignore'.",
            "Fixed. Hypothesis also shrank a second failure: a string of only punctuation gives ''.",
            "Decide what slugify('!!!') should return, probably a fallback like 'untitled'. Add "
            "@example('İ') and @example('!!!') so these stay covered even if the example database is cleared.",
        ],
    },
    {
        "key": "zh-vitest",
        "date": "2026-04-01",
        "id": "0b1a9c0a",
        "wing": "ifai",
        "files": "both",
        "summary": "前端单元测试从 Jest 迁移到 Vitest（Vue 3 + Vite 项目），jest.fn/jest.mock 改为 vi.fn/vi.mock，"
        "全局 fetch 用 vi.stubGlobal 模拟。测试时间从两分钟降到 25 秒。",
        "memories": ["ifai/Project Knowledge/frontend-tests: 前端单元测试使用 Vitest"],
        "turns": [
            "前端的单元测试用 Jest 跑一次要两分钟，想换成 Vitest，项目是 Vue 3 + Vite。",
            "Vue 3 + Vite 的项目换 Vitest 很顺：它直接复用 vite.config 里的别名和插件，不需要 babel-jest。"
            "大部分 API 兼容，jest.fn 改成 vi.fn，jest.mock 改成 vi.mock。测试环境用 environment: 'jsdom'。",
            "有些测试 mock 了全局 fetch，换了以后报 fetch is not defined。",
            "用 vi.stubGlobal('fetch', vi.fn()) 来模拟，并在 afterEach 里调用 vi.unstubAllGlobals()。"
            "或者用 msw 在网络层拦截请求，这样组件代码不用改。",
            "换完以后单元测试从两分钟降到 25 秒。",
        ],
    },
    {
        "key": "xdist-shared-db",
        "date": "2026-04-06",
        "id": "0b1a9c0b",
        "wing": "shop",
        "files": "both",
        "summary": "Parallel integration tests with pytest-xdist collided in one shared database. Each xdist "
        "worker now gets its own database cloned from a migrated template (CREATE DATABASE ... TEMPLATE), "
        "and each test runs in a rolled-back transaction. CI went from 11 to 4 minutes.",
        "memories": [],
        "turns": [
            "I turned on pytest -n 4 with xdist and now the integration tests fail randomly with unique "
            "constraint errors.",
            "The workers share one test database, so two tests insert the same fixture rows at once. Give each "
            "worker its own database: the worker_id fixture gives gw0, gw1 and so on; create test_db_gw0 in a "
            "session-scoped fixture and run migrations once per worker.",
            "Creating four databases and migrating each takes 30 seconds.",
            "Create one template database, migrate it once, then CREATE DATABASE test_db_gw0 TEMPLATE "
            "test_template for each worker; copying a template takes under a second. Wrap each test in a "
            "transaction that is rolled back at the end so data doesn't leak between tests.",
            "CI time went from 11 minutes to 4.",
        ],
    },
    {
        "key": "cli-snapshot-tests",
        "date": "2026-04-11",
        "id": "0b1a9c0c",
        "wing": "md-parser",
        "files": "both",
        "summary": "Added snapshot (golden file) tests for CLI output with syrupy, normalising terminal width, "
        "colour, dates and paths; fixed Windows failures by normalising CRLF and a .gitattributes eol=lf "
        "rule for the snapshot folder.",
        "memories": [],
        "turns": [
            "I want to test the CLI's help and table output without writing expected strings by hand.",
            "Snapshot tests: run the command, compare stdout with tests/snapshots/<name>.txt, and add an "
            "--update-snapshots flag to rewrite them. syrupy is a pytest plugin that does this. Normalise what "
            "varies: terminal width (COLUMNS=80), colours (NO_COLOR=1), dates and temp paths.",
            "The snapshots break on the Windows runner in CI because of line endings.",
            "Compare after normalising \\r\\n to \\n, and add a .gitattributes rule `tests/snapshots/* text "
            "eol=lf` so git doesn't convert them on checkout.",
        ],
    },
    {
        "key": "docker-image-size",
        "date": "2026-04-15",
        "id": "0b1a9c0d",
        "wing": "shop",
        "files": "both",
        "summary": "Shrunk the API Docker image from 1.9 GB to 310 MB with a multi-stage build (wheels built in "
        "a builder stage, python:3.11-slim final stage, --no-cache-dir, .dockerignore). Decided against "
        "alpine because musl breaks numpy wheels.",
        "memories": ["shop/Decisions/containers: python slim base images, not alpine (numpy wheels)"],
        "turns": [
            "Our API docker image is 1.9 GB. Python 3.11, FastAPI, some numpy.",
            "Typical culprits: a full python:3.11 base (about 1 GB), build tools left in the image, the pip "
            "cache. Use a multi-stage build: a builder stage with gcc that builds wheels, and a final "
            "python:3.11-slim stage that installs only the wheels with --no-cache-dir. Add a .dockerignore "
            "for .git, tests and node_modules.",
            "With multi-stage and slim it's 310 MB. Could alpine get it smaller?",
            "Not worth it for numpy: alpine uses musl, so manylinux wheels don't install and you'd compile "
            "numpy from source, with slower builds and sometimes slower runtime. Stay on slim; distroless is "
            "an option later.",
        ],
    },
    {
        "key": "k8s-oomkilled",
        "date": "2026-04-20",
        "id": "0b1a9c0e",
        "wing": "crm",
        "files": "both",
        "summary": "crm-api pods were OOMKilled (exit 137) because -Xmx1g equalled the 1Gi container limit, "
        "leaving no room for non-heap memory. Replaced with -XX:MaxRAMPercentage=75 and heap dumps on "
        "OOM; pods stable since.",
        "memories": [],
        "turns": [
            "The crm-api pods restart every few hours, kubectl describe shows OOMKilled, exit code 137. Memory "
            "limit is 1Gi, Java 17.",
            "The JVM sizes its heap from the container limit (MaxRAMPercentage, 25% by default), but the heap "
            "is not everything: metaspace, thread stacks, direct buffers and the code cache live outside it. "
            "Check -Xmx: with -Xmx1g under a 1Gi limit, the non-heap memory pushes it over.",
            "Yes, JAVA_OPTS has -Xmx1g.",
            "Remove -Xmx and set -XX:MaxRAMPercentage=75 so the heap is 750 MiB and the rest has room. Raise "
            "the limit to 1.5Gi if you really need the heap. Enable -XX:+HeapDumpOnOutOfMemoryError to a "
            "volume to check for a genuine leak.",
            "Pods have been up for three days now.",
        ],
    },
    {
        "key": "gha-pip-cache",
        "date": "2026-04-24",
        "id": "0b1a9c0f",
        "wing": None,
        "files": "both",
        "summary": "Cut GitHub Actions PR runs from 20 to 6 minutes: setup-python's pip cache keyed on the "
        "requirements files, the full OS x Python matrix only on main and nightly, and concurrency groups "
        "with cancel-in-progress.",
        "memories": [],
        "turns": [
            "Our GitHub Actions workflow takes 20 minutes and most of it is pip install.",
            "Use actions/setup-python with cache: 'pip' and cache-dependency-path pointing at "
            "requirements*.txt; it restores ~/.cache/pip keyed on the hash of those files. Also look at the "
            "matrix: do you need 3 OS x 4 Python versions on every push?",
            "We test 3.10, 3.11 and 3.12 on ubuntu and macos.",
            "Run the full matrix on main and nightly, and only ubuntu with 3.11 on pull requests. Add a "
            "concurrency group per branch with cancel-in-progress so stale runs stop.",
            "PR runs now take 6 minutes.",
        ],
    },
    {
        "key": "zh-nginx-websocket",
        "date": "2026-05-02",
        "id": "0b1a9c10",
        "wing": "ifai",
        "files": "both",
        "summary": "WebSocket 经过 Nginx 反向代理每 60 秒断开，原因是 proxy_read_timeout 默认 60 秒。将该 location "
        "的超时调到 3600 秒，并让客户端每 30 秒发送心跳。",
        "memories": [],
        "turns": [
            "通过 Nginx 反向代理以后，WebSocket 连接每隔一分钟就断开一次，直连后端就没问题。",
            "Nginx 默认 proxy_read_timeout 是 60 秒，连接空闲超过 60 秒就会被关闭。另外要确认转发了升级头："
            'proxy_http_version 1.1; proxy_set_header Upgrade $http_upgrade; proxy_set_header Connection "upgrade";',
            "升级头已经有了，应该就是超时。",
            "把这个 location 的 proxy_read_timeout 调到 3600s，同时在客户端每 30 秒发一次心跳 ping，"
            "这样即使中间还有负载均衡器的空闲超时也不会断。",
            "加了心跳和超时配置，连接稳定了。",
        ],
    },
    {
        "key": "certbot-renewal",
        "date": "2026-05-08",
        "id": "0b1a9c11",
        "wing": None,
        "files": "both",
        "summary": "Automatic certbot renewal for api.acme.dev was failing because the HTTP-01 challenge was "
        "redirected to HTTPS and got a 404. Served /.well-known/acme-challenge from the port-80 block, "
        "renewed, and added a deploy hook reloading nginx.",
        "memories": [],
        "turns": [
            "Got an email that the TLS certificate for api.acme.dev expires in 5 days. certbot was supposed to "
            "renew it automatically.",
            "Check the output of certbot renew --dry-run and the timer (systemctl list-timers | grep certbot). "
            "A common cause: the HTTP-01 challenge can't reach /.well-known/acme-challenge because a redirect "
            "or a firewall blocks port 80.",
            "The dry run fails: the challenge gets a 301 to https and then a 404.",
            "Add location /.well-known/acme-challenge/ { root /var/www/certbot; } to the port-80 server block "
            "before the redirect, or switch to the DNS-01 challenge with your DNS provider's plugin. Also add "
            '--deploy-hook "systemctl reload nginx" so nginx picks up the new certificate.',
            "Renewed. Added the deploy hook.",
        ],
    },
    {
        "key": "pinia-settings",
        "date": "2026-05-12",
        "id": "0b1a9c12",
        "wing": "ifai",
        "files": "both",
        "summary": "Refactored the ifai settings page from deep props/emits to a Pinia store (storeToRefs in "
        "components, Tauri invoke wrapped in an api module for testability, loaded at startup, saves "
        "debounced by 500 ms).",
        "memories": ["ifai/Project Knowledge/frontend-stack: settings state lives in a Pinia store"],
        "turns": [
            "The settings page in ifai passes props down four levels and emits events back up. It's a mess.",
            "Move the settings state into a Pinia store: defineStore('settings', { state, getters, actions }). "
            "Components read it with storeToRefs so destructuring keeps reactivity. Persist through an action "
            "that calls the Tauri command, not from components.",
            "Should the store call Tauri invoke directly?",
            "Wrap invoke in a small api module so the store can be tested with a mocked api. Load once at "
            "startup in App.vue and debounce saves by 500 ms.",
        ],
    },
    {
        "key": "react-effect-loop",
        "date": "2026-05-15",
        "id": "0b1a9c13",
        "wing": "dashboard",
        "files": "journal",
        "summary": "",
        "memories": [],
        "turns": [
            "My React component re-renders forever and the network tab shows /api/stats called hundreds of times.",
            "Probably a useEffect whose dependency array holds an object or function created during render: "
            "useEffect(() => fetchStats(filters), [filters]) where filters = { range, team } is a new object "
            "every render, so the effect runs, sets state, renders again, and so on.",
            "Exactly, filters is built inline.",
            "Depend on the primitive values ([range, team]) or memoize the object with useMemo. For fetching, "
            "consider TanStack Query, which dedupes requests and caches by key.",
        ],
    },
    {
        "key": "zh-tauri-signing",
        "date": "2026-05-20",
        "id": "0b1a9c14",
        "wing": "ifai",
        "files": "both",
        "summary": "ifai 的 Windows 安装包被 SmartScreen 标为未知发布者。在 tauri.conf.json 配置代码签名（证书指纹、"
        "sha256、时间戳服务器），证书以 base64 存入 GitHub Secrets 并在工作流中导入；msi 已显示公司名称。",
        "memories": [],
        "turns": [
            "ifai 的 Windows 安装包下载以后 SmartScreen 提示“未知发布者”，用户不敢装。",
            "需要代码签名证书。Tauri 在 tauri.conf.json 的 bundle.windows 里配置 certificateThumbprint、"
            "digestAlgorithm（sha256）和 timestampUrl。OV 证书需要积累信誉，EV 证书可以立刻消除 SmartScreen 警告。",
            "我们在 GitHub Actions 上打包，证书怎么放？",
            "把 pfx 证书 base64 编码后存到仓库的 Secrets，在工作流里解码并用 certutil 导入证书存储，再执行 "
            "tauri build。注意不要把证书密码写进日志。",
            "已经配置好了，打出来的 msi 显示了公司名。",
        ],
    },
    {
        "key": "css-sticky-header",
        "date": "2026-05-27",
        "id": "0b1a9c15",
        "wing": "dashboard",
        "files": "both",
        "summary": "The dashboard's sticky header failed because a wrapper had overflow-x: hidden (switched to "
        "overflow-x: clip); dropdowns appeared behind charts because of the chart's stacking context, "
        "fixed by rendering them in a portal.",
        "memories": [],
        "turns": [
            "The sticky header on the dashboard scrolls away in Safari, and in Chrome the dropdown menus "
            "appear behind the charts.",
            "position: sticky stops working if an ancestor has overflow hidden or auto, so check the layout "
            "wrapper. For the dropdowns, the chart library creates its own stacking context (a transform on "
            "the canvas container), so z-index on the dropdown alone doesn't help; render dropdowns in a "
            "portal.",
            "The wrapper had overflow-x: hidden for a horizontal scrollbar bug. Switched to overflow-x: clip "
            "and the header sticks.",
        ],
    },
    {
        "key": "rust-borrow",
        "date": "2026-06-02",
        "id": "0b1a9c16",
        "wing": "sync-engine",
        "files": "both",
        "summary": "Resolved a Rust borrow checker error in the sync engine (iterating self.peers while calling "
        "a &mut self method) by splitting borrows: send became a function taking only &mut Outbox. "
        "Rc<RefCell> rejected because it moves the check to runtime.",
        "memories": [],
        "turns": [
            "cannot borrow `self.peers` as mutable because it is also borrowed as immutable. I iterate over "
            "self.peers and call self.send(peer), which needs &mut self.",
            "The loop holds an immutable borrow of self.peers while send takes &mut self, the whole struct. "
            "Either collect the ids first (let ids: Vec<_> = self.peers.keys().cloned().collect()) and loop "
            "over them, or make send take only the fields it needs (&mut self.outbox) so the borrows are "
            "disjoint.",
            "Would Rc<RefCell<>> be simpler?",
            "It moves the check to runtime and can panic with BorrowMutError; splitting the borrows keeps it "
            "at compile time. The split is natural here: send only needs the outbox.",
            "Changed send into a free function taking &mut Outbox. It compiles.",
        ],
    },
    {
        "key": "asyncio-pdf",
        "date": "2026-06-08",
        "id": "0b1a9c17",
        "wing": "shop",
        "files": "both",
        "summary": "PDF invoice generation blocked the FastAPI event loop because a synchronous CPU-bound "
        "library ran inside async def. Moved rendering to run_in_executor with a process pool of 2 workers.",
        "memories": [],
        "turns": [
            "Our FastAPI endpoint that generates PDF invoices blocks the whole server; other requests stall for "
            "seconds.",
            "The PDF library is synchronous and CPU-bound; called inside an async def handler it blocks the "
            "event loop. Either declare the endpoint as plain def (FastAPI runs it in a threadpool) or await "
            "loop.run_in_executor for the rendering. For heavy CPU work a ProcessPoolExecutor avoids the GIL.",
            "Moved rendering to run_in_executor with a process pool of 2.",
        ],
    },
    {
        "key": "git-reflog",
        "date": "2026-06-12",
        "id": "0b1a9c18",
        "wing": None,
        "files": "both",
        "summary": "Recovered commits lost after a bad interactive rebase and force push by finding the "
        "pre-rebase state in git reflog (HEAD@{7}) and branching from it; advised --force-with-lease.",
        "memories": ["Workflow Patterns/git: push with --force-with-lease, never plain --force"],
        "turns": [
            "I did git rebase -i, squashed the wrong commits and then force-pushed. Two days of work seem gone "
            "from my branch.",
            "They're not gone locally: git reflog lists where HEAD was before the rebase (look for 'rebase "
            "(start)' and the entry just before it). git branch rescue HEAD@{5} (whatever the number is) "
            "creates a branch there. Then compare and push with --force-with-lease.",
            "Found it at HEAD@{7}. Restored.",
            "Next time use --force-with-lease instead of --force, and git rebase --abort if the todo list looks wrong.",
        ],
    },
    {
        "key": "zh-go-goroutine-leak",
        "date": "2026-06-18",
        "id": "0b1a9c19",
        "wing": "gateway",
        "files": "both",
        "summary": "网关（Go）内存持续上涨，pprof 显示 goroutine 从两千涨到八万，卡在 persistConn.readLoop。"
        "原因是重试逻辑没有关闭响应 Body；修复并给 http.Client 设置超时后 goroutine 数量稳定。",
        "memories": [],
        "turns": [
            "网关服务内存一直涨，重启后又慢慢涨上去，是 Go 写的。",
            "先用 pprof 看 goroutine 数量：导入 net/http/pprof，访问 /debug/pprof/goroutine?debug=1。"
            "如果 goroutine 数量一直增长，多半是泄漏，比如阻塞在没人读的 channel 上，或者 HTTP 请求没有设置超时。",
            "goroutine 从两千涨到了八万，大部分卡在 http.(*persistConn).readLoop。",
            "这是响应体没有关闭或者 http.Client 没有超时。检查每个调用是否 defer resp.Body.Close()，"
            "并给 Client 设置 Timeout；另外不要每次请求都新建 http.Client。",
            "找到了一个没关闭 Body 的重试逻辑，修好后 goroutine 稳定在两千左右。",
        ],
    },
    {
        "key": "json-logging-pii",
        "date": "2026-06-23",
        "id": "0b1a9c1a",
        "wing": "shop",
        "files": "both",
        "summary": "Switched the API to JSON logging with structlog (request_id bound via contextvars) for Loki; "
        "added a PII-masking processor for emails, phones and cards; noisy libraries set to WARNING, level "
        "via LOG_LEVEL.",
        "memories": [],
        "turns": [
            "We want JSON logs for the API so we can query them in Loki, and we must stop logging customer emails.",
            "Use structlog with a JSON renderer and the stdlib logging integration; bind request_id per request "
            "with contextvars. For PII add a processor before the renderer that masks keys like email, phone "
            "and card, plus a regex for email addresses inside messages.",
            "Which level for third-party libs? urllib3 spams debug.",
            "Root at INFO, noisy loggers (urllib3, botocore) at WARNING. Make the level configurable with a "
            "LOG_LEVEL environment variable.",
        ],
    },
    {
        "key": "cursor-pagination",
        "date": "2026-06-29",
        "id": "0b1a9c1b",
        "wing": "shop",
        "files": "both",
        "summary": "Replaced OFFSET pagination on the public /orders API with keyset cursor pagination on "
        "(created_at, id), cursor base64-encoded; the admin UI keeps page numbers.",
        "memories": ["shop/Decisions/api: public API uses cursor pagination, admin keeps offsets"],
        "turns": [
            "Clients paging through /orders with ?page=500 get slow responses and sometimes see the same order twice.",
            "OFFSET pagination reads and discards all the previous rows, and inserts between requests shift "
            "the pages, hence duplicates and skips. Use keyset (cursor) pagination: order by (created_at, id) "
            "and pass the last seen pair as an opaque cursor: WHERE (created_at, id) < ($1, $2) ORDER BY "
            "created_at DESC, id DESC LIMIT 50.",
            "Do we keep page numbers for the admin UI?",
            "Keep offsets for the admin table (small, needs jump-to-page), cursors for the public API. Encode "
            "the cursor as base64 JSON so clients don't parse it.",
        ],
    },
    {
        "key": "jwt-refresh",
        "date": "2026-07-03",
        "id": "0b1a9c1c",
        "wing": "auth",
        "files": "both",
        "summary": "To stop hourly logouts on mobile, added rotating refresh tokens (30 days, opaque, stored "
        "hashed, reuse revokes the family), kept in Keychain/Keystore; access tokens shortened to 15 minutes.",
        "memories": [],
        "turns": [
            "Mobile users get logged out every hour. Access tokens are JWTs valid for 1 hour and there are no "
            "refresh tokens.",
            "Add refresh tokens: long-lived (30 days), opaque, stored hashed in the database, sent only to "
            "/auth/refresh. Rotate on every use: issue a new refresh token and invalidate the old one; if an "
            "old one is reused, revoke the whole family, which detects token theft.",
            "Where should the app store them?",
            "iOS Keychain or Android Keystore through secure storage, never plain shared preferences. Shorten "
            "the access token lifetime to 15 minutes once refresh works.",
        ],
    },
    {
        "key": "pyspy-csv-import",
        "date": "2026-07-08",
        "id": "0b1a9c1d",
        "wing": "crm",
        "files": "both",
        "summary": "Profiled the contacts CSV import (40 min for 2M rows) with py-spy flame graphs: 70% in phone "
        "normalisation recompiling a regex per row, plus per-row INSERTs. Compiled the regex once, added "
        "lru_cache, batched inserts with COPY: now 3 minutes.",
        "memories": [],
        "turns": [
            "The CSV import of contacts takes 40 minutes for 2 million rows. I don't know where the time goes.",
            "Attach py-spy to the running process: py-spy top --pid <pid>, or record a flame graph with py-spy "
            "record -o import.svg --pid <pid>. It needs no code changes and is safe in production.",
            "The flame graph shows 70% in phone number normalisation, called per row with a regex compiled "
            "each time, and one INSERT per row.",
            "Compile the regex once at module level, cache the normalisation with lru_cache (many duplicates), "
            "and batch the inserts with executemany or COPY in chunks of 5,000 rows.",
            "Now 3 minutes.",
        ],
    },
    {
        "key": "zh-commit-conventions",
        "date": "2026-07-14",
        "id": "0b1a9c1e",
        "wing": "ifai",
        "files": "both",
        "summary": "团队统一规范：提交信息采用 Conventional Commits，由 commitlint + husky 检查并自动生成变更日志；"
        "代码评审规则为每个合并请求不超过 400 行、至少一人批准、区分必须修改与建议、24 小时内首轮反馈，写入贡献指南。",
        "memories": ["ifai/Workflow Patterns/commits: 提交信息采用 Conventional Commits"],
        "turns": [
            "团队想统一代码评审规范和提交信息格式，现在大家的提交信息五花八门。",
            "提交信息可以采用 Conventional Commits：feat、fix、docs、refactor、test、chore 加可选范围，"
            "比如 feat(editor): 支持拖拽。配合 commitlint 和 husky 的 commit-msg 钩子自动检查，"
            "发布时还能自动生成变更日志。",
            "代码评审有什么规则？",
            "建议：每个合并请求不超过 400 行改动；至少一人批准才能合并；评审意见区分“必须修改”和“建议”；"
            "24 小时内给出第一轮反馈。",
            "好的，就按这个写进贡献指南。",
        ],
    },
    {
        "key": "postgres-fulltext",
        "date": "2026-07-20",
        "id": "0b1a9c1f",
        "wing": "shop",
        "files": "both",
        "summary": "Chose PostgreSQL full-text search (weighted generated tsvector, GIN index, "
        "websearch_to_tsquery) plus pg_trgm for typo tolerance over Elasticsearch for 80k products; facets "
        "by brand via GROUP BY.",
        "memories": ["shop/Decisions/search: product search on Postgres tsvector and pg_trgm, no Elasticsearch"],
        "turns": [
            "Product search is a LIKE '%term%' query. Should we set up Elasticsearch?",
            "For 80k products PostgreSQL full-text search is likely enough: a generated tsvector column "
            "(title weighted A, description B), a GIN index, and websearch_to_tsquery for user input. pg_trgm "
            "handles misspellings with similarity(). Elasticsearch adds a cluster to run and a sync pipeline.",
            "We need typo tolerance and facets by brand.",
            "Typos: pg_trgm. Facets: GROUP BY brand over the matched set is fine at this size. Revisit "
            "Elasticsearch or OpenSearch if you need per-language analyzers or many millions of documents.",
            "Going with Postgres tsvector plus pg_trgm.",
        ],
    },
    {
        "key": "rate-limiting",
        "date": "2026-07-25",
        "id": "0b1a9c20",
        "wing": "shop",
        "files": "both",
        "summary": "Added rate limiting to the public API after a 300 req/s scraper: a Redis token bucket per API "
        "key (100 burst, 10/s) in an atomic Lua script, 429 with Retry-After, plus nginx limit_req per IP.",
        "memories": [],
        "turns": [
            "A scraper hammered the public API with 300 requests per second last night. We need rate limiting.",
            "A token bucket per API key in Redis: each key gets a bucket of, say, 100 tokens refilled at 10 per "
            "second, with the check-and-decrement done atomically in a Lua script. Answer 429 with a "
            "Retry-After header. Put a coarse per-IP limit in nginx too (limit_req).",
            "Redis is already there for the cache. Would a fixed window be simpler?",
            "Fixed windows allow bursts of double the limit at the window edges; the token bucket is smoother "
            "and not much harder with Lua.",
        ],
    },
    {
        "key": "zh-utf8mb4",
        "date": "2026-08-02",
        "id": "0b1a9c21",
        "wing": "crm",
        "files": "both",
        "summary": "CRM 从 MySQL 迁移到 PostgreSQL 时表情符号和生僻字变成问号，原因是 mysqldump 导出时没有指定"
        "字符集；加上 --default-character-set=utf8mb4 重新导出后恢复正常。",
        "memories": [],
        "turns": [
            "CRM 从 MySQL 迁移到 PostgreSQL 的时候，客户备注里的表情符号和一些生僻字变成了问号。",
            "这通常不是 PostgreSQL 的问题，而是源库 MySQL 的字符集是 utf8（最多三字节），四字节字符写入 MySQL "
            "时就已经丢了，或者导出时连接字符集不对。检查表的 CHARSET 和导出命令的 --default-character-set。",
            "表是 utf8mb4 的，但 mysqldump 没有指定字符集。",
            "导出时加 --default-character-set=utf8mb4 重新导出这些表，PostgreSQL 那边的数据库编码用 UTF8。"
            "导完以后抽查含表情的备注。",
            "重新导出后表情符号正常了。",
        ],
    },
    {
        "key": "report-timezones",
        "date": "2026-08-09",
        "id": "0b1a9c22",
        "wing": "crm",
        "files": "both",
        "summary": "Weekly sales reports went out at the wrong local time (Sydney got them on Sunday evening) "
        "because 8:00 was computed in UTC. Each account now stores an IANA timezone; the next run is "
        "computed in local time with zoneinfo and converted to UTC, recomputed after each run for DST.",
        "memories": [],
        "turns": [
            "The weekly sales report email should go out Monday 8:00 for each customer in their own timezone, "
            "but Sydney customers get it on Sunday evening.",
            "The scheduler computes 8:00 in UTC. Store each account's IANA timezone (Australia/Sydney), compute "
            "the next run as a local time with zoneinfo, then convert to UTC for the queue. Recompute after "
            "each run so DST changes are handled.",
            "What about DST gaps, like a 2:30 that doesn't exist?",
            "At 8:00 you won't hit a gap, but to be safe round-trip through UTC with zoneinfo and, if a local "
            "time doesn't exist, move forward to the next valid one.",
        ],
    },
    {
        "key": "zh-go-coverage",
        "date": "2026-08-15",
        "id": "0b1a9c23",
        "wing": "gateway",
        "files": "both",
        "summary": "网关在 CI 增加测试覆盖率门槛：go test -coverprofile 生成报告，先以当前 45% 为基线只允许上升，"
        "新代码要求 80%，统计时排除生成代码和 mock 包。",
        "memories": [],
        "turns": [
            "网关项目想在 CI 里加测试覆盖率门槛，现在 go test 的覆盖率只有 45%。",
            "用 go test -coverprofile=coverage.out ./... 生成报告，go tool cover -func 看每个函数。门槛不要一下子"
            "定太高，先定在当前值，之后只允许上升（棘轮），新代码要求 80%。",
            "有些生成的代码拉低了覆盖率。",
            "在统计前把 *_gen.go 和 mock 包排除掉，比如用 grep -v 过滤 coverage.out 里的这些文件。",
        ],
    },
    {
        "key": "stale-bundles",
        "date": "2026-08-20",
        "id": "0b1a9c24",
        "wing": "dashboard",
        "files": "both",
        "summary": "Fixed stale dashboard bundles after deploys: hashed asset filenames with year-long immutable "
        "caching, index.html served with no-cache and excluded from CDN caching (or purged on deploy).",
        "memories": [],
        "turns": [
            "Our dashboard's JS bundles are re-downloaded on every deploy even when unchanged, and sometimes "
            "users get a stale bundle after a deploy.",
            "Use content-hashed filenames (Vite does this: app.3f9a1c.js) with Cache-Control: public, "
            "max-age=31536000, immutable, and serve index.html with Cache-Control: no-cache so it is "
            "revalidated every time. Stale bundles come from a cached index.html.",
            "The CDN caches index.html for an hour.",
            "Add a CDN rule not to cache index.html, or purge it from the deploy pipeline.",
        ],
    },
    {
        "key": "grab-bag-quick-questions",
        "date": "2026-08-25",
        "id": "0b1a9c25",
        "wing": None,
        "files": "both",
        "summary": "A run of quick questions: renaming a git branch, listing Postgres tables and indexes in psql, "
        "skipping a pytest test, pruning Docker images, tailing Kubernetes pod logs, a cron expression for "
        "weekdays and checking a certificate's expiry date with openssl.",
        "memories": [],
        "turns": [
            "Quick ones today. How do I rename a local git branch and the remote one?",
            "git branch -m old new, then git push origin -u new and git push origin --delete old.",
            "In psql, how do I list the tables and the indexes of the orders table?",
            "\\dt lists tables, \\d orders shows its columns and indexes, \\di lists all indexes.",
            "How do I skip one pytest test on Windows only?",
            '@pytest.mark.skipif(sys.platform == "win32", reason="...") on the test.',
            "My disk is full of old docker images.",
            "docker image prune -a removes unused images; docker system df shows what uses the space.",
            "How do I follow the logs of all pods of a deployment?",
            "kubectl logs -f deployment/crm-api --all-containers, or stern for several pods at once.",
            "Cron expression for 7:30 on weekdays?",
            "30 7 * * 1-5.",
            "And how do I see when a site's certificate expires from the shell?",
            "echo | openssl s_client -connect host:443 2>/dev/null | openssl x509 -noout -enddate",
        ],
    },
    {
        "key": "zh-grab-bag",
        "date": "2026-08-28",
        "id": "0b1a9c26",
        "wing": None,
        "files": "both",
        "summary": "零散问题：PostgreSQL 查看慢查询、Redis 查看内存占用、Nginx 重新加载配置、Go 交叉编译、"
        "前端打包体积分析。",
        "memories": [],
        "turns": [
            "PostgreSQL 怎么看最慢的查询？",
            "开启 pg_stat_statements 扩展，按 total_exec_time 排序查询 pg_stat_statements 视图。",
            "Redis 怎么看哪些 key 占内存最多？",
            "redis-cli --bigkeys 或者 MEMORY USAGE key 查看单个 key。",
            "Nginx 改了配置怎么不重启就生效？",
            "先 nginx -t 检查配置，再 nginx -s reload 平滑重新加载。",
            "Go 怎么编译 Windows 的可执行文件？",
            "GOOS=windows GOARCH=amd64 go build，生成 .exe 文件。",
            "前端打包以后体积太大，怎么分析？",
            "用 rollup-plugin-visualizer 生成报告，看哪些依赖最大，再考虑按需引入或者懒加载。",
        ],
    },
]
