"""Phrasings written after palace's pattern table, as a check that it was not fitted to credentials.py and
lookalikes.py. palace misses a few of these (a password with no keyword or separator next to it); they stay
in the corpus so that the figures show it."""

from __future__ import annotations

from .gen import ALNUM, B64, B64URL, DIGITS, HEX, LETTERS, LOWER, Case, Gen


def _keys(g: Gen) -> list[Case]:
    ghp, ghs, ghx = ("ghp_" + g.mixed(ALNUM, 36) for _ in range(3))
    ghs = ghs.replace("ghp_", "ghs_")
    gldt, hf = "gldt-" + g.mixed(ALNUM, 20), "hf_" + g.mixed(LETTERS, 34)
    project = "sk-proj-" + g.mixed(B64URL, 120)
    legacy = "sk-" + g.mixed(ALNUM, 48)
    deepseek, router = "sk-" + g.chars(HEX, 32), "sk-or-v1-" + g.chars(HEX, 64)
    xoxp = f"xoxp-{g.digits(11)}-{g.digits(11)}-{g.digits(12)}-{g.chars(HEX, 32)}"
    jwt = f"eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJ{g.mixed(ALNUM, 30)}.{g.mixed(B64URL, 86)}"
    sendgrid = f"SG.{g.mixed(ALNUM, 22)}.{g.mixed(ALNUM, 43)}"
    return [
        Case(f"use this key: {project}", "OpenAI API key", "OpenAI", project),
        Case(f"OPENAI_API_KEY: {legacy}", "OpenAI API key", "OpenAI", legacy),
        Case(f"my deepseek key {deepseek}", "OpenAI API key", "OpenAI-compatible (DeepSeek)", deepseek),
        Case(f"openrouter {router}", "OpenAI API key", "OpenAI-compatible (OpenRouter)", router),
        Case(f"{ghs} is the app installation token", "GitHub token", "GitHub classic token", ghs),
        Case(
            f"git remote set-url origin https://x-access-token:{ghp}@github.com/o/r.git",
            "GitHub token",
            "https URL",
            ghp,
        ),
        Case(f"我的 GitHub token 是 {ghx}", "GitHub token", "GitHub classic token", ghx),
        Case(f"gitlab deploy token {gldt}", "GitLab token", "GitLab token", gldt),
        Case(xoxp, "Slack token", "Slack token", xoxp),
        Case(f"jwt: {jwt}", "JSON Web Token", "JWT", jwt),
        Case(f"my sendgrid api key is {sendgrid}", "SendGrid API key", "SendGrid", sendgrid),
        Case(f"hf token {hf}", "Hugging Face token", "Hugging Face", hf),
    ]


def _assignments(g: Gen) -> list[Case]:
    pw = [g.mixed(ALNUM, 12) for _ in range(9)]
    wifi, zh = g.chars(LOWER, 6) + g.digits(4), g.mixed(ALNUM, 8) + "123"
    header, hexkey, client, prose = g.mixed(ALNUM, 40), g.chars(HEX, 32), g.mixed(B64URL, 32), g.mixed(ALNUM, 50)
    aws_session, heroku = g.mixed(B64, 300), g.uuid()
    words = "-".join(g.chars(LOWER, 5) for _ in range(3))
    return [
        Case(f"POSTGRES_PASSWORD={pw[0]}", "password assignment", "password (English)", pw[0]),
        Case(f"docker run -e MYSQL_ROOT_PASSWORD={pw[1]} mysql", "password assignment", "password (English)", pw[1]),
        Case(f"the wifi password is {wifi}", "password assignment", "password (English)", wifi),
        Case(
            f"Server=db;Database=app;User Id=sa;Password={pw[2]}!;", "password assignment", "password (English)", pw[2]
        ),
        Case(f'{{"password": "{pw[3]}"}}', "password assignment", "password (English)", pw[3]),
        Case(f"数据库密码是{zh}", "password assignment", "password (Chinese)", zh),
        Case(f"smtp password {pw[4]}#x", "password assignment", "password (English)", pw[4]),
        Case(f"pgpass line: db:5432:app:app:{pw[5]}", "password assignment", "password (English)", pw[5]),
        Case(f"passphrase for the key is {words}", "password assignment", "password (English)", words),
        Case(f"x-api-key: {header}", "password assignment", "api key header", header),
        Case(f"api-key: {hexkey}", "password assignment", "api key header", hexkey),
        Case(f"client_secret={client}", "password assignment", "client secret", client),
        Case(f"the secret key is {prose}", "password assignment", "secret key (prose)", prose),
        Case(f"AWS_SESSION_TOKEN={aws_session}", "secret assignment", "AWS session token", aws_session),
        Case(f"HEROKU_API_KEY={heroku}", "password assignment", "Heroku API key", heroku),
    ]


def _blocks(g: Gen) -> list[Case]:
    dsa = [g.chars(B64, 64), g.chars(B64, 40)]
    pkcs8 = [g.chars(B64, 64), g.chars(B64, 64)]
    json_key = "\\n".join(pkcs8)
    return [
        Case(
            "-----BEGIN DSA PRIVATE KEY-----\n" + "\n".join(dsa) + "\n-----END DSA PRIVATE KEY-----",
            "PEM private key",
            "PEM DSA",
            "\n".join(dsa),
        ),
        Case(
            f'private_key: "-----BEGIN PRIVATE KEY-----\\n{json_key}\\n-----END PRIVATE KEY-----\\n"',
            "PEM private key",
            "PEM in a JSON string",
            json_key,
        ),
    ]


def held_out_secrets(g: Gen) -> list[Case]:
    """Secrets in phrasings the table was not written against."""
    return [*_keys(g), *_assignments(g), *_blocks(g)]


def held_out_lookalikes(g: Gen) -> list[Case]:
    """Look-alikes the table was not written against."""
    texts = [
        "the password reset link expires in 24 hours", "Use a token bucket for rate limiting",
        "secret management is handled by Vault", "api_key_header = 'X-API-Key'",
        "set token_ttl=3600 and refresh_token_ttl=86400", "key: value pairs are stored in redis",
        "keycloak client id: web-frontend", f"build id {g.chars(HEX, 40)}", "passport number is required for the visa",
        "the auth flow: login, callback, token exchange", "密码错误时会提示用户重新输入", "令牌桶算法用于限流",
        "password_hash = bcrypt.hashpw(pw, salt)", "secret: db-credentials", "export GPG_TTY=$(tty)",
        "http://localhost:8000/api/v1/token", "the commit message said 'remove hardcoded password'",
        f"sha1 {g.chars(HEX, 40)}", "the token is invalid or expired", "access key rotation is due next week",
        f"pip install foo=={g.chars(DIGITS, 1)}.{g.chars(DIGITS, 2)}", f"ticket OPS-{g.digits(4)}",
    ]  # fmt: skip
    return [Case(text, None, "held-out look-alike") for text in texts]
