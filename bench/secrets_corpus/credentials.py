"""Secrets in documented vendor formats, each in a sentence a user might type or a transcript line.

Every key is built from random characters in the vendor's documented shape (prefix, alphabet, length);
none is a real credential."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable

from .gen import ALNUM, B64, B64URL, BASE32, BECH32, DIGITS, HEX, LETTERS, UPPER, Case, Gen


def _ai_vendors(g: Gen) -> list[Case]:
    legacy, legacy2 = (f"sk-{g.mixed(ALNUM, 20)}T3BlbkFJ{g.mixed(ALNUM, 20)}" for _ in range(2))
    project = f"sk-proj-{g.mixed(B64URL, 74)}T3BlbkFJ{g.mixed(B64URL, 74)}"
    service = f"sk-svcacct-{g.mixed(B64URL, 64)}T3BlbkFJ{g.mixed(B64URL, 64)}"
    ant = f"sk-ant-api03-{g.mixed(B64URL, 93)}AA"
    admin = f"sk-ant-admin01-{g.mixed(B64URL, 93)}AA"
    groq, groq2 = (f"gsk_{g.mixed(ALNUM, 52)}" for _ in range(2))
    hf, hf2 = (f"hf_{g.mixed(LETTERS, 34)}" for _ in range(2))
    return [
        Case(f"Here's my OpenAI key {legacy}, can you see why it returns 401?", "OpenAI API key", "OpenAI", legacy),
        Case(f"export OPENAI_API_KEY={project}", "OpenAI API key", "OpenAI", project),
        Case(f"assistant: I set OPENAI_API_KEY to {service} in the CI secrets", "OpenAI API key", "OpenAI", service),
        Case(f"my anthropic key is {ant} — use it for the eval", "Anthropic API key", "Anthropic", ant),
        Case(f'ANTHROPIC_ADMIN_KEY="{admin}"', "Anthropic API key", "Anthropic", admin),
        Case(f"我的 key 是{g.pick(['', ' '])}{legacy2}，先别提交", "OpenAI API key", "OpenAI", legacy2),
        Case(f"Groq works with {groq} if you set the base url", "Groq API key", "Groq", groq),
        Case(f"GROQ_API_KEY={groq2}", "Groq API key", "Groq", groq2),
        Case(f"log in with huggingface-cli login --token {hf}", "Hugging Face token", "Hugging Face", hf),
        Case(f"my HF token is {hf2} (read scope)", "Hugging Face token", "Hugging Face", hf2),
    ]


def _aws(g: Gen) -> list[Case]:
    key_id = "AKIA" + g.chars(BASE32, 16)
    temp_id = "ASIA" + g.chars(BASE32, 16)
    secrets = [g.mixed(B64, 40) for _ in range(4)]
    return [
        Case(f"the access key id is {key_id} for the backup bucket", "AWS access key", "AWS access key id", key_id),
        Case(f"aws_access_key_id = {temp_id}", "AWS access key", "AWS access key id", temp_id),
        Case(
            f"and the AWS secret key is {secrets[0]} — it's the prod account",
            "AWS secret access key",
            "AWS secret key (prose)",
            secrets[0],
        ),
        Case(f"my aws secret access key: {secrets[1]}", "AWS secret access key", "AWS secret key (prose)", secrets[1]),
        Case(
            f"aws_secret_access_key = {secrets[2]}",
            "AWS secret access key",
            "AWS secret key (assignment)",
            secrets[2],
        ),
        Case(
            f"export AWS_SECRET_ACCESS_KEY='{secrets[3]}'",
            "AWS secret access key",
            "AWS secret key (assignment)",
            secrets[3],
        ),
    ]


def _code_hosts(g: Gen) -> list[Case]:
    classic = "ghp_" + g.mixed(ALNUM, 36)
    oauth = "gho_" + g.mixed(ALNUM, 36)
    fine = f"github_pat_11{g.chars(UPPER + DIGITS, 20)}_{g.mixed(ALNUM, 59)}"
    gitlab = "glpat-" + g.mixed(B64URL, 20)
    runner = "glrt-" + g.mixed(B64URL, 20)
    return [
        Case(f"push with git using {classic} as the password", "GitHub token", "GitHub classic token", classic),
        Case(f"user: the gh CLI printed {oauth}", "GitHub token", "GitHub classic token", oauth),
        Case(f"GITHUB_TOKEN={fine}", "GitHub token", "GitHub fine-grained token", fine),
        Case(f"the GitLab PAT {gitlab} expires in May", "GitLab token", "GitLab token", gitlab),
        Case(f"gitlab-runner register --token {runner}", "GitLab token", "GitLab token", runner),
    ]


def _chat_ops(g: Gen) -> list[Case]:
    bot = f"xoxb-{g.digits(12)}-{g.digits(13)}-{g.mixed(ALNUM, 24)}"
    user = f"xoxp-{g.digits(12)}-{g.digits(12)}-{g.digits(13)}-{g.chars(HEX, 32)}"
    hook = f"https://hooks.slack.com/services/T{g.chars(UPPER + DIGITS, 8)}/B{g.chars(UPPER + DIGITS, 10)}/"
    hook_secret = g.mixed(ALNUM, 24)
    telegram, telegram2 = (f"{g.digits(10)}:{g.mixed(B64URL, 35)}" for _ in range(2))
    user_id = g.digits(18)
    discord = f"{g.b64url(user_id.encode())}.{g.mixed(B64URL, 6)}.{g.mixed(B64URL, 38)}"
    return [
        Case(f"the bot token is {bot}", "Slack token", "Slack token", bot),
        Case(f"SLACK_USER_TOKEN={user}", "Slack token", "Slack token", user),
        Case(f"post alerts to {hook}{hook_secret}", "Slack webhook URL", "Slack webhook", hook_secret),
        Case(f"my telegram bot token is {telegram}", "Telegram bot token", "Telegram bot token", telegram),
        Case(
            f"curl https://api.telegram.org/bot{telegram2}/getMe", "Telegram bot token", "Telegram bot token", telegram2
        ),
        Case(f"Discord bot token: {discord}", "Discord bot token", "Discord bot token", discord),
    ]


def _payments_mail(g: Gen) -> list[Case]:
    stripe = "sk_live_51" + g.mixed(ALNUM, 97)
    restricted = "rk_live_" + g.mixed(ALNUM, 24)
    webhook = "whsec_" + g.mixed(ALNUM, 32)
    sendgrid = f"SG.{g.mixed(B64URL, 22)}.{g.mixed(B64URL, 43)}"
    mailgun = "key-" + g.chars(HEX, 32)
    mailgun_new = f"{g.chars(HEX, 32)}-{g.chars(HEX, 8)}-{g.chars(HEX, 8)}"
    chimp = f"{g.chars(HEX, 32)}-us{g.pick(['6', '14', '21'])}"
    shopify = "shpat_" + g.chars(HEX, 32)
    shop_secret = "shpss_" + g.chars(HEX, 32)
    square = "sq0csp-" + g.mixed(B64URL, 43)
    return [
        Case(f"stripe live key {stripe} — careful", "Stripe key", "Stripe", stripe),
        Case(f"STRIPE_RESTRICTED_KEY={restricted}", "Stripe key", "Stripe", restricted),
        Case(f"the webhook signing secret is {webhook}", "Stripe key", "Stripe", webhook),
        Case(f"SendGrid key for the newsletter: {sendgrid}", "SendGrid API key", "SendGrid", sendgrid),
        Case(f"mailgun api key {mailgun}", "Mailgun API key", "Mailgun", mailgun),
        Case(f"Mailgun private API key: {mailgun_new}", "Mailgun API key", "Mailgun", mailgun_new),
        Case(f"mailchimp key {chimp} for the list sync", "Mailchimp API key", "Mailchimp", chimp),
        Case(f"Shopify admin token {shopify}", "Shopify token", "Shopify", shopify),
        Case(f"SHOPIFY_API_SECRET={shop_secret}", "Shopify token", "Shopify", shop_secret),
        Case(f"square application secret {square}", "Square token", "Square", square),
    ]


def _clouds(g: Gen) -> list[Case]:
    google = "AIza" + g.mixed(B64URL, 35)
    oauth, oauth2 = ("GOCSPX-" + g.mixed(B64URL, 28) for _ in range(2))
    do = "dop_v1_" + g.chars(HEX, 64)
    account_key = g.b64_bytes(64)
    azure = (
        f"DefaultEndpointsProtocol=https;AccountName=acmelogs{g.digits(3)};AccountKey={account_key};"
        "EndpointSuffix=core.windows.net"
    )
    twilio = [g.chars(HEX, 32) for _ in range(3)]
    dd_api, dd_app = g.chars(HEX, 32), g.chars(HEX, 40)
    vault = "hvs." + g.mixed(B64URL, 90)
    age = "AGE-SECRET-KEY-1" + g.chars(BECH32, 58)
    return [
        Case(f"the maps key is {google}", "Google API key", "Google API key", google),
        Case(f'"client_secret": "{oauth}"', "Google OAuth client secret", "Google OAuth client secret", oauth),
        Case(
            f"Google OAuth client secret {oauth2}", "Google OAuth client secret", "Google OAuth client secret", oauth2
        ),
        Case(f"doctl auth init -t {do}", "DigitalOcean token", "DigitalOcean", do),
        Case(
            f"AZURE_STORAGE_CONNECTION_STRING={azure}",
            "Azure storage key",
            "Azure storage connection string",
            account_key,
        ),
        Case(f"Twilio auth token: {twilio[0]}", "Twilio auth token", "Twilio auth token", twilio[0]),
        Case(f"TWILIO_AUTH_TOKEN={twilio[1]}", "Twilio auth token", "Twilio auth token", twilio[1]),
        Case(f"the twilio token is {twilio[2]} for the SMS bot", "Twilio auth token", "Twilio auth token", twilio[2]),
        Case(f"DD_API_KEY={dd_api}", "Datadog API key", "Datadog", dd_api),
        Case(f"datadog app key is {dd_app}", "Datadog API key", "Datadog", dd_app),
        Case(f"VAULT_TOKEN={vault}", "HashiCorp Vault token", "HashiCorp Vault", vault),
        Case(f"the age identity is {age}", "age secret key", "age", age),
    ]


def _registries(g: Gen) -> list[Case]:
    npm = "npm_" + g.mixed(ALNUM, 36)
    npm2 = "npm_" + g.mixed(ALNUM, 36)
    pypi = "pypi-AgEIcHlwaS5vcmc" + g.mixed(B64URL, 160)
    pypi2 = "pypi-AgEIcHlwaS5vcmc" + g.mixed(B64URL, 120)
    return [
        Case(f"//registry.npmjs.org/:_authToken={npm}", "npm token", "npm", npm),
        Case(f"publish with the npm token {npm2}", "npm token", "npm", npm2),
        Case(f"twine upload -u __token__ -p {pypi} dist/*", "PyPI token", "PyPI", pypi),
        Case(f"my PyPI token is {pypi2}", "PyPI token", "PyPI", pypi2),
    ]


def _jwt(g: Gen) -> list[Case]:
    def part(obj: object) -> str:
        return g.b64url(json.dumps(obj, separators=(",", ":")).encode())

    head = part({"alg": "HS256", "typ": "JWT"})
    body = part({"sub": g.digits(10), "name": "Ada", "iat": int(g.digits(10))})
    token = f"{head}.{body}.{g.b64url(g.rng.randbytes(32))}"
    return [Case(f"the session cookie holds {token}", "JSON Web Token", "JWT", token)]


def _pem_body(g: Gen, head: str, n: int) -> list[str]:
    body = head + g.b64_bytes(n)
    return [body[i : i + 64] for i in range(0, len(body), 64)]


def _pem(g: Gen) -> list[Case]:
    rsa = _pem_body(g, "MIIEpAIBAAKCAQEA", 900)
    ec = _pem_body(g, "MHcCAQEEI", 90)
    ssh = _pem_body(g, "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ", 300)
    cut = _pem_body(g, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 400)
    flat = _pem_body(g, "MIIEogIBAAKCAQEA", 120)

    def block(label: str, lines: list[str], end: bool = True) -> str:
        tail = [f"-----END {label}-----"] if end else []
        return "\n".join([f"-----BEGIN {label}-----", *lines, *tail])

    return [
        Case(
            f"here is the deploy key:\n{block('RSA PRIVATE KEY', rsa)}\nthanks",
            "PEM private key",
            "PEM RSA",
            "\n".join(rsa),
        ),
        Case(block("EC PRIVATE KEY", ec), "PEM private key", "PEM EC", "\n".join(ec)),
        Case(f"user: {block('OPENSSH PRIVATE KEY', ssh)}", "PEM private key", "PEM OPENSSH", "\n".join(ssh)),
        Case(
            f"I pasted only the start:\n{block('PRIVATE KEY', cut, end=False)}",
            "PEM private key",
            "PEM (no END line)",
            "\n".join(cut),
        ),
        Case("key: " + block("RSA PRIVATE KEY", flat).replace("\n", " "), "PEM private key", "PEM RSA", " ".join(flat)),
    ]


def _urls(g: Gen) -> list[Case]:
    pw = [g.url_password() for _ in range(5)]
    return [
        Case(
            f"connect with postgresql://app:{pw[0]}@db.internal:5432/app", "URL with a password", "postgres URL", pw[0]
        ),
        Case(f"REDIS_URL=redis://:{pw[1]}@cache.internal:6379/0", "URL with a password", "redis URL", pw[1]),
        Case(f"the broker is amqp://worker:{pw[2]}@rabbit.internal:5672/", "URL with a password", "amqp URL", pw[2]),
        Case(
            f"mongodb+srv://admin:{pw[3]}@cluster0.ab1cd.mongodb.net/test?retryWrites=true",
            "URL with a password",
            "mongodb+srv URL",
            pw[3],
        ),
        Case(
            f"git clone https://deploy:{pw[4]}@git.example.com/team/app.git", "URL with a password", "https URL", pw[4]
        ),
    ]


def _headers(g: Gen) -> list[Case]:
    basic = base64.b64encode(f"admin:{g.password()}".encode()).decode()
    bearer = g.mixed(B64URL, 40)
    curl_pw = g.password(12)
    return [
        Case(f"Authorization: Basic {basic}", "basic auth credentials", "Authorization Basic", basic),
        Case(
            f"curl -H 'Authorization: Bearer {bearer}' https://api.internal/v1/jobs",
            "bearer token",
            "Authorization Bearer",
            bearer,
        ),
        Case(
            f"curl -u admin:{curl_pw} https://jenkins.internal/api/json",
            "basic auth credentials",
            "curl -u user:password",
            curl_pw,
        ),
    ]


def _passwords(g: Gen) -> list[Case]:
    pw = [g.password() for _ in range(10)]
    hex40 = g.chars(HEX, 40)
    deploy = g.mixed(ALNUM, 32)
    jwt_secret = g.mixed(ALNUM, 32)
    app_secret = g.mixed(B64URL, 40)
    return [
        Case(f"the root password is {pw[0]}", "password assignment", "password (English)", pw[0]),
        Case(f'db_password = "{pw[1]}"', "password assignment", "password (English)", pw[1]),
        Case(f"wifi password: {pw[2]}", "password assignment", "password (English)", pw[2]),
        Case(f"数据库密码：{pw[3]}", "password assignment", "password (Chinese)", pw[3]),
        Case(f"服务器的密码是 {pw[4]}，别外传", "password assignment", "password (Chinese)", pw[4]),
        Case(f"sshpass -p '{pw[5]}' ssh deploy@10.0.0.5", "password on a command line", "sshpass -p", pw[5]),
        Case(f"mysql -u root -p{pw[6]} -h db.local shop", "password on a command line", "mysql -p", pw[6]),
        Case(f"PGPASSWORD={pw[7]} psql -h db.local -U app", "password assignment", "password (English)", pw[7]),
        Case(f"token: {hex40}", "secret assignment", "token: <40 hex>", hex40),
        Case(f"the deploy secret is {deploy}", "secret assignment", "deploy secret (prose)", deploy),
        Case(f"export JWT_SECRET={jwt_secret}", "secret assignment", "export X_SECRET=", jwt_secret),
        Case(f"export APP_SECRET_KEY='{app_secret}'", "password assignment", "export X_SECRET=", app_secret),
    ]


GROUPS: tuple[Callable[[Gen], list[Case]], ...] = (
    _ai_vendors,
    _aws,
    _code_hosts,
    _chat_ops,
    _payments_mail,
    _clouds,
    _registries,
    _jwt,
    _pem,
    _urls,
    _headers,
    _passwords,
)


def secret_cases(g: Gen) -> list[Case]:
    """Every secret case, in a fixed order."""
    return [case for group in GROUPS for case in group(g)]
