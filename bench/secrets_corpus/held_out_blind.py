"""The third held-out part, written after two look-alikes of held_out_formats.py were seen by accident (a test
asserted on every look-alike) and before the rules were changed for them: a blind measure again. Never tuned
on; the bench reports it on its own line.

Every value is random in its documented shape; none is a real credential."""

from __future__ import annotations

import base64

from .gen import ALNUM, B64URL, DIGITS, HEX, LOWER, UPPER, Case, Gen
from .keyfiles import der_private_key, pem_lines, seed_words


def blind_secrets(g: Gen) -> list[Case]:
    """Secrets of the blind part."""
    pw = [g.password(g.rng.randint(10, 16)) for _ in range(10)]
    v = [g.mixed(ALNUM, g.rng.randint(32, 48)) for _ in range(10)]
    b64 = [g.mixed(B64URL, 43) for _ in range(3)]
    hexes = [g.chars(HEX, 40) for _ in range(3)]
    basic = base64.b64encode(f"deploy-bot:{g.mixed(ALNUM, 16)}".encode()).decode()
    body = pem_lines(der_private_key(g, 640))
    okta, spotify, rotated = "00" + g.mixed(B64URL, 40), g.chars(HEX, 32), b64[0]
    seed, telegram = seed_words(g, 12), f"{g.digits(9)}:AA{g.mixed(B64URL, 33)}"
    snyk, influx, secret_id, kaggle = g.uuid(), g.mixed(B64URL, 86) + "==", g.uuid(), g.chars(HEX, 32)
    return [
        Case(f"Mailjet: MJ_APIKEY_PRIVATE={hexes[0][:32]}", "secret assignment", "Mailjet private key", hexes[0][:32]),
        Case(f"algolia admin key {v[0]}", "secret assignment", "Algolia admin key", v[0]),
        Case(f"REPLICATE_API_TOKEN: {v[1]}", "secret assignment", "token in YAML", v[1]),
        Case(f"--header 'X-Auth-Key: {hexes[1][:37]}'", "secret assignment", "Cloudflare global key header",
             hexes[1][:37]),
        Case(f"sentry: dsn=https://{hexes[2][:32]}@o{g.digits(6)}.ingest.sentry.io/{g.digits(7)}", "URL with a token",
             "Sentry DSN", hexes[2][:32]),
        Case(f"-e OKTA_API_TOKEN={okta}", "secret assignment", "Okta token", okta),
        Case(f"spotify client secret is {spotify}", "secret assignment", "Spotify client secret", spotify),
        Case(f"bitly access token {v[2]}", "secret assignment", "Bitly token", v[2]),
        Case(f"const stripe = require('stripe')('rk_live_{v[3]}');", "Stripe key", "Stripe in code", "rk_live_" + v[3]),
        Case(f"I rotated it, new one is {rotated} (keep it safe)", "secret assignment", "rotated value in prose",
             rotated),
        Case(f"auth_token: \"{b64[1]}\"", "secret assignment", "auth_token YAML", b64[1]),
        Case(f"Authorization: Basic {basic}", "basic auth credentials", "Basic header", basic),
        Case("-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(body[:4]) + "\n[... trimmed ...]", "PEM private key",
             "PEM cut short", "\n".join(body[:4])),
        Case("\n".join(body[5:12]), "private key", "key body lines only", "\n".join(body[5:12])),
        Case(f"seed words (keep offline): {seed}", "seed phrase", "seed in prose", seed),
        Case(f"la contraseña de la red es {pw[0]}", "password assignment", "password prose (Spanish)", pw[0]),
        Case(f"Le mot de passe Wi-Fi : {pw[1]}", "password assignment", "password prose (French)", pw[1]),
        Case(f"Zugangspasswort ist {pw[2]}", "password assignment", "password prose (German)", pw[2]),
        Case(f"数据库的密码为 {pw[3]}", "password assignment", "password prose (Chinese)", pw[3]),
        Case(f"ルーターのパスワード: {pw[4]}", "password assignment", "password prose (Japanese)", pw[4]),
        Case(f"the admin login is root / {pw[5]}", "password assignment", "login prose", pw[5]),
        Case(f"I set the root pw to {pw[6]}", "password assignment", "pw prose", pw[6]),
        Case(f"ssh deploy@10.1.2.3 (password: {pw[7]})", "password assignment", "password in parentheses", pw[7]),
        Case(f"ftp credentials: user ftp1, pass {pw[8]}", "password assignment", "pass in prose", pw[8]),
        Case(f"MYSQL_PWD={pw[9]}", "password assignment", "MYSQL_PWD", pw[9]),
        Case(f"token for the bot: {telegram}", "Telegram bot token", "Telegram prose", telegram),
        Case(f"our snyk token is {snyk}", "secret assignment", "Snyk token", snyk),
        Case(f"INFLUX_TOKEN={influx}", "secret assignment", "InfluxDB token", influx),
        Case(f"vault write auth/approle/login role_id=x secret_id={secret_id}", "secret assignment", "Vault secret_id",
             secret_id),
        Case(f"kaggle.json: {{\"username\":\"ada\",\"key\":\"{kaggle}\"}}", "secret assignment", "Kaggle key", kaggle),
    ]  # fmt: skip


def blind_lookalikes(g: Gen) -> list[Case]:
    """Look-alikes of the blind part."""
    texts = [
        f"Merge pull request #{g.digits(4)} from acme/fix-{g.chars(LOWER, 6)} ({g.chars(HEX, 7)})",
        f'  "lockfileVersion": 3, "integrity": "sha1-{g.b64_bytes(20)}"',
        f"digest: sha256:{g.chars(HEX, 64)} size: 1573",
        f"Your order number is {g.chars(UPPER + DIGITS, 16)}. Thanks for shopping!",
        f"tracking id {g.chars(UPPER, 2)}{g.digits(9)}{g.chars(UPPER, 2)}",
        "color palette: #FF5733, #33FF57, #3357FF, #F1C40F",
        "The KeyboardInterrupt was raised while the tokenizer loaded the vocab",
        "forgot your password? we'll email you a reset link",
        "password123 is the most common password, never use it",
        "Geben Sie Ihr Passwort ein",
        "Mot de passe oublié ?",
        "¿Olvidaste tu contraseña?",
        "忘记密码？点击这里",
        "パスワードをお忘れですか？",
        f"https://cdn.acme.io/assets/app-{g.chars(HEX, 8)}.js?v={g.digits(10)}",
        f"https://api.github.com/repos/acme/app/git/blobs/{g.chars(HEX, 40)}",
        f"uuid4: {g.uuid()}, uuid4: {g.uuid()}",
        f"base64 of the logo: {base64.b64encode(b'PNG image of the company logo, 32x32').decode()}",
        "the key to success is consistency",
        "Token economy: each user gets 100 tokens per day",
        "secret-scanning is enabled for all repos",
        f"PR title: bump cryptography from 42.0.5 to 43.0.1 ({g.chars(HEX, 7)})",
        "curl -u $USER:$PASS https://ci.acme.io/api",
        'mysql -h db -u app -p"$MYSQL_PASSWORD" shop',
        f"apiVersion: v1\nkind: ConfigMap\ndata:\n  checksum: {g.chars(HEX, 64)}",
        f"build {g.digits(5)} passed in 4m12s, artifact sha {g.chars(HEX, 40)}",
        "Use a passphrase of at least five random words",
        f"fixture token: {g.chars('x', 1)}{'0' * 31}",
        "log in as admin with the password from the vault",
        f"{g.mixed(ALNUM, 22)}: No such file or directory",
        f"access key rotation job id {g.digits(8)} finished",
        "example: TOKEN=<paste your token here>",
    ]
    return [Case(text, None, "blind look-alike") for text in texts]
