"""Text that looks like a credential but is not one: identifiers, digests, placeholders, ordinary sentences."""

from __future__ import annotations

import base64

from .gen import B64, HEX, Case, Gen


def _identifiers(g: Gen) -> list[Case]:
    sha, short, uuid = g.chars(HEX, 40), g.chars(HEX, 7), g.uuid()
    sha256, md5 = g.chars(HEX, 64), g.chars(HEX, 32)
    return [
        Case(f"fixed in commit {sha}, see the PR", None, "git commit SHA"),
        Case(f"git checkout {short} && git cherry-pick {g.chars(HEX, 40)}", None, "git commit SHA"),
        Case(f"the request id was {uuid}", None, "UUID"),
        Case(f"the tarball's sha256 is {sha256}", None, "sha256 digest"),
        Case(f"docker pull nginx@sha256:{g.chars(HEX, 64)}", None, "image digest"),
        Case(f"md5sum says {md5} for backup.tar", None, "md5 digest"),
        Case(f"Twilio account SID AC{g.chars(HEX, 32)} (not secret, it's in every URL)", None, "Twilio account SID"),
        Case("bump the version to 2.14.0-rc.3+build.20240501", None, "semantic version"),
        Case("the repo is sk-web-app-frontend", None, "kebab-case id"),
        Case("deploy sk-billing-service-v2 and sk-dashboard-frontend-service", None, "kebab-case id"),
        Case("ghcr.io/acme/api:sha-3f78685 is the image we run", None, "image tag"),
        Case("user_id=1234567890 and order 2024-05-01-000123", None, "numeric id"),
        Case("MAC 3c:22:fb:1a:2b:3c, ipv6 fe80::1ff:fe23:4567:890a", None, "addresses"),
        Case("the bucket is arn:aws:s3:::acme-logs-2024 in us-east-1", None, "ARN"),
    ]


def _encoded(g: Gen) -> list[Case]:
    short = base64.b64encode(b"hello world").decode()
    sentence = base64.b64encode(b"the quick brown fox jumps over the lazy dog").decode()
    public = g.chars(B64, 43)
    header = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
    pub_body = "\n".join(g.chars(B64, 64) for _ in range(5))
    return [
        Case(f"echo {short} | base64 -d", None, "base64 of text"),
        Case(f"the fixture is {sentence}", None, "base64 of text"),
        Case(f"my public key is ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{public} alice@laptop", None, "SSH public key"),
        Case(f"-----BEGIN PUBLIC KEY-----\n{pub_body}\n-----END PUBLIC KEY-----", None, "PEM public key"),
        Case(f'"integrity": "sha512-{g.b64_bytes(64)}"', None, "package-lock integrity"),
        Case(f"the JWT header {header} says HS256", None, "JWT header only"),
    ]


def _placeholders() -> list[Case]:
    return [
        Case("set OPENAI_API_KEY=sk-... in your shell first", None, "placeholder"),
        Case('api_key = "<your-api-key>"', None, "placeholder"),
        Case("TOKEN=xxxxxxxxxxxxxxxxxxxxxxxx", None, "placeholder"),
        Case("password: ********", None, "placeholder"),
        Case("GITHUB_TOKEN=YOUR_TOKEN_HERE", None, "placeholder"),
        Case("e.g. ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx or AKIAXXXXXXXXXXXXXXXX", None, "placeholder"),
        Case("STRIPE_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx", None, "placeholder"),
        Case("the default password is changeme, change it on first login", None, "placeholder"),
        Case("password: ${DB_PASSWORD}", None, "placeholder"),
        Case("api_key=os.environ['OPENAI_API_KEY']", None, "placeholder"),
        Case("Authorization: Bearer <token>", None, "placeholder"),
        Case('curl -H "Authorization: Bearer $TOKEN" https://api.internal', None, "placeholder"),
        Case('sshpass -p "$SSHPASS" ssh deploy@host', None, "placeholder"),
        Case("postgres://app:<password>@db.internal:5432/app", None, "placeholder"),
    ]


def _commands_and_config() -> list[Case]:
    return [
        Case("pwd: /srv/app", None, "pwd as working directory"),
        Case("$ pwd\n/home/deploy/app", None, "pwd as working directory"),
        Case("logs are under /var/log/palace/2024-05-01/app.log", None, "file path"),
        Case(r"C:\Users\alice\AppData\Local\Temp\tmp3f7a9b2c\build.log", None, "file path"),
        Case("SECRET_KEY_FILE=/run/secrets/django_key", None, "file path"),
        Case("mysql -u root -p shop", None, "password prompt"),
        Case("npm_config_registry=https://registry.npmjs.org/", None, "npm config"),
        Case("HF_HUB_ENABLE_HF_TRANSFER=1 and TOKENIZERS_PARALLELISM=false", None, "env config"),
        Case("max_tokens=4096, password_min_length=12", None, "config keys"),
        Case("connect to postgres://localhost:5432/app or https://alice@github.com/org/repo", None, "URL"),
        Case("clone git@github.com:org/repo.git, ssh user@host for deploys", None, "URL"),
        Case("export PATH=$HOME/.local/bin:$PATH", None, "env config"),
        Case("the meeting is at 12:34:56, the screen is 16:9", None, "times"),
    ]


def _sentences() -> list[Case]:
    return [
        Case("The password is rotated monthly", None, "sentence"),
        Case("rotate the API key every 90 days", None, "sentence"),
        Case("Password policy: at least 12 characters", None, "sentence"),
        Case("The access token expires after an hour", None, "sentence"),
        Case("the token budget is 8 KB", None, "sentence"),
        Case("The secret is patience", None, "sentence"),
        Case("the deploy secret is stored in Vault under secret/deploy", None, "sentence"),
        Case("API key: see the 1Password item 'Prod OpenAI'", None, "sentence"),
        Case("密码管理用 1Password", None, "Chinese sentence"),
        Case("我们每个季度都会轮换一次密钥，请提前通知大家。", None, "Chinese sentence"),
        Case("密码：请向运维同事索取", None, "Chinese sentence"),
        Case("密码长度至少 12 位，需要包含数字", None, "Chinese sentence"),
    ]


def lookalike_cases(g: Gen) -> list[Case]:
    """Every look-alike case, in a fixed order."""
    return [*_identifiers(g), *_encoded(g), *_placeholders(), *_commands_and_config(), *_sentences()]
