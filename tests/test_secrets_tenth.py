"""The tenth round's rules (issue 22): more names for a secret (a PAT, a salt, a keystore, an `sk` beside its `ak`,
identifiers in capitals or after an acronym), passwords as a spaced option or sent by expect, a key as curl's user,
capability URLs (shares, snapshots, private feeds, a key after `/api/`), seed phrases quoted or joined by dashes,
what a command that reveals a secret printed, a key pair as a call's two arguments, a Tor key file, more
languages; and the look-alikes they must leave alone (placeholders, masks, documentation samples, ciphertext,
public JWK members, digests a hashing command printed). Then: the first redact() of ordinary text compiles only
what it needs."""

from __future__ import annotations

import base64
import subprocess
import sys

import pytest

from palace.memory.secrets import find_secret, redact

MIXED_20 = "Jvu1ObOOwP8VC4aqA3jP"
MIXED_24 = "1MU3sjT5Y32nwBfLERDZAtHp"
MIXED_32 = "9VQIynjwkUUdeV5JXKkO5c1DM3ImsfSP"
MIXED_40 = "XMpBKYoB9YwKTE4exzCIV8PRHREQkbfOMblneBES"
HEX_32 = "fc58ba24f23ac0f6633412a3b5d142b5"
HEX_40 = "7b13bb5cc10a8dbe75ece3cc3fe6e74aa03b8444"
WG_KEY = "7qnlYcquKl4StBoggmWJU0St8UzlDh3oOvjpUAe0B+8="
LOWER_26 = "ualii2hhrt7l7cj8ag7c3hl7h2"
PASSWORD = "Tq7-vRm2xLw9Kp"
SEED = "harvest canyon magnet elbow jungle gesture absorb island fabric kitchen divert ladder"


def _refused(text: str, secret: str) -> None:
    assert find_secret(text) is not None, text
    assert secret not in redact(text), redact(text)


def _allowed(text: str) -> None:
    assert find_secret(text) is None, (find_secret(text), text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (f"ACME_PAT={HEX_40}", HEX_40),
        (f"$settings['hash_salt'] = '{MIXED_40}';", MIXED_40),
        (f"ANDROID_KEYSTORE_BASE64={MIXED_40}{MIXED_32}", MIXED_40),
        (f"cloud:\n  ak: {HEX_32[::-1]}\n  sk: {HEX_32}\n", HEX_32),
        (f"WEIXIN_APPSECRET={HEX_32}", HEX_32),
        (f'static NSString *const kAPISecret = @"{MIXED_40}";', MIXED_40),
        (f"agent.exe -key=eu_{HEX_32} -quiet", HEX_32),
        (f"mvn sonar:sonar -Dsonar.token={HEX_40}", HEX_40),
        (f"'encryptionKey' => '{HEX_40}',", HEX_40),
        (f"define('SHOP_KEY', '{HEX_40}');", HEX_40),
        ("ACME_API_TOKEN=hHAseVeELxugeBJdro0s", "hHAseVeELxugeBJdro0s"),
        ("ACME_APP_SECRET=xZbREu7mK2", "xZbREu7mK2"),
    ],
)
def test_more_names_for_a_secret(text: str, secret: str) -> None:
    _refused(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        # base64 of random bytes holding a keyword by chance (`...GMdP3...`: no `mdp` there)
        "db_password: ENC[AES256_GCM,data:Xq1,iv:Qw8rT2vLx9bN4kHs7ZpY3mGMdP35nZk4aB7cE1fH6jU=,tag:" + MIXED_24 + "]",
        f"Solana transaction signature {MIXED_40}{MIXED_40}",
        "auth examples in the RFC use " + base64.b64encode(b"ada:the open door").decode(),
        "JWT header alone, no signature: " + base64.b64encode(b'{"alg": "ES256", "typ": "JWT"}').decode(),
        f'{{"keys": [{{"kty": "RSA", "kid": "{HEX_32[:16]}", "use": "sig", "n": "{MIXED_40 * 3}", "e": "AQAB"}}]}}',
        "ocid1.bucket.oc1.us-ashburn-1.aaaaaaaaq7kz3rdm5xw2tjv6hp4yn8c1fglbuoe9sia0",
        "token: sk_live_••••••••••••3f9a",
        "API_SECRET=REPLACE_ME",
        "secretKey: 'INSERT_SECRET_KEY'",
        "DB_PASSWORD=CHANGE_ME_IN_PROD",
        "vault kv put secret/app password=@pw.txt",
        "app_secret: '%env(APP_SECRET)%'",
        "curl -u USER:PASSWORD https://api.example.test/ping",
        "mysql://admin:password@db.internal:3306/shop",
        "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----",
        "ERROR 1045 (28000): Access denied for user 'ops'@'10.1.2.3' (using password: YES)",
        f"the docs show {MIXED_32} as the example key",
        "SUPABASE_ANON_KEY=eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoiYW5vbiJ9." + MIXED_40,
        '{"encryptedPassword": "' + MIXED_40 + MIXED_24 + '", "version": 2}',
        "SECRET=encrypted:" + MIXED_40 + MIXED_40,
        f"ACME account key thumbprint: {MIXED_40[:43]}",
        "$ sha256sum release.tar.gz\n" + HEX_40 + HEX_40[:24] + "  release.tar.gz",
        "$ cat app.jar.sha1\n" + HEX_40,
        "MSI product code: {A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D}",
        "vercel logs dpl_4Hq7Zr2Kv9Xm4Lp8Wn3Tb6Yc1Df5",
    ],
)
def test_look_alikes_are_left_alone(text: str) -> None:
    _allowed(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (f"curl -u {MIXED_20}:X https://acme.example.test/api/v2/tickets", MIXED_20),
        (f"curl -u {HEX_40}: https://shop.example.test/api", HEX_40),
        (f"curl -u {MIXED_32}:token https://logs.example.test/api", MIXED_32),
        (f"signtool sign /f app.pfx /p {PASSWORD} /tr http://ts.example.test app.exe", PASSWORD),
        (f"steghide embed -cf a.jpg -ef b.txt -p {PASSWORD}", PASSWORD),
        (f"security add-generic-password -a ada -s api -w {PASSWORD}", PASSWORD),
        ("xcrun notarytool submit App.zip --password abcd-efgh-ijkl-mnop", "abcd-efgh-ijkl-mnop"),
        (f'test: ["CMD", "mysqladmin", "ping", "-uroot", "-p{PASSWORD}"]', PASSWORD),
        (f'expect "Enter passphrase:"\nsend "{PASSWORD}\\r"', PASSWORD),
        (f"CREATE USER 'etl'@'%' IDENTIFIED WITH caching_sha2_password BY '{PASSWORD}';", PASSWORD),
        (f"url=jdbc:oracle:thin:shop/{PASSWORD}@//db.example.test:1521/SHOP", PASSWORD),
        (f"conda-tool -t r7-{HEX_32} upload pkg.tar.bz2", HEX_32),
    ],
)
def test_command_lines(text: str, secret: str) -> None:
    _refused(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "docker run -p 8080:80 -p MyProject2 -w Workdir12 app",
        "mkdir -p build/Release1 && pytest -p no:cacheprovider",
        "ssh -p 2222 ada@host.example.test",
    ],
)
def test_command_line_look_alikes(text: str) -> None:
    _allowed(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (f"https://files.example.test/s/{MIXED_32}", MIXED_32),
        (f"https://cloud.example.test/s/{MIXED_20[:15]}", MIXED_20[:15]),
        (f"https://acme.sharepoint.example/:w:/s/sales/{MIXED_40}?e=abc", MIXED_40),
        (f"https://grafana.example.test/dashboard/snapshot/{MIXED_32}", MIXED_32),
        (f"https://chat.example.test/hooks/{LOWER_26}", LOWER_26),
        (f"https://ci.example.test/deliver/{HEX_40}", HEX_40),
        (f"webcal://cal.example.test/feeds/ada/private-{HEX_32}.ics", HEX_32),
        (f"curl http://10.0.0.9/api/{MIXED_40}/lights", MIXED_40),
        (f"https://tracker.example.test/rss?passkey={HEX_32}", HEX_32),
        (f"https://docs.example.test/d/abc/edit?resourcekey=0-{MIXED_24}", MIXED_24),
    ],
)
def test_capability_urls(text: str, secret: str) -> None:
    _refused(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        f"https://cdn.example.test/s/{HEX_40}",  # a file's digest
        f"https://api.example.test/api/{HEX_32}/status",  # a resource's id
        "https://example.test/s/about-our-company-history",
    ],
)
def test_capability_url_look_alikes(text: str) -> None:
    _allowed(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (f'chain-cli keys import "{SEED}" --name ops', SEED),
        ("backup: " + SEED.replace(" ", "-"), SEED.replace(" ", "-")),
        (f"$ pulumi config get dbPassword --show-secrets\n{PASSWORD}", PASSWORD),
        (f"$ wg genkey | tee peer.key\n{WG_KEY}", WG_KEY),
        (f"$ openssl rand -hex 16\n{HEX_32}", HEX_32),
    ],
)
def test_seeds_and_printed_secrets(text: str, secret: str) -> None:
    _refused(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        f"$ wg pubkey < peer.key\n{WG_KEY}",
        f"$ git rev-parse HEAD\n{HEX_40}",
        "see the guide: install-the-package-then-read-the-docs-and-run-the-tests-again",
    ],
)
def test_printed_and_seed_look_alikes(text: str) -> None:
    _allowed(text)


def test_a_key_pair_as_two_arguments() -> None:
    _refused(f'm := sdk.NewMac("{MIXED_40}", "{MIXED_32}")', MIXED_32)
    _allowed(f'assertEqual("{HEX_40}", "{HEX_40[::-1]}")')  # two digests compared


def test_key_files_and_byte_keys() -> None:
    body = base64.b64encode(b"== ed25519v1-secret: type0 ==\x00\x00\x00" + bytes(range(7, 71))).decode()
    _refused(f"# hs_ed25519_secret_key (base64)\n{body}", body[:40])
    numbers = "[17, 142, 230, 138, 24, 194, 25, 77, 92, 110, 38, 34, 138, 30, 225, 152]"
    _refused(f"zigbee:\n  network_key: {numbers}\n", numbers)
    _allowed(f"zigbee:\n  channels: {numbers}\n")


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (f"共有フォルダのパスワードは「{PASSWORD}」です。", PASSWORD),
        (f"รหัสผ่านเซิร์ฟเวอร์คือ {PASSWORD}", PASSWORD),
        (f"O contrasinal do servidor é {PASSWORD}", PASSWORD),
        (f"Y cyfrinair newydd yw {PASSWORD}", PASSWORD),
        (f"Kata laluan pelayan ialah {PASSWORD}", PASSWORD),
    ],
)
def test_more_languages(text: str, secret: str) -> None:
    _refused(text, secret)


# A fresh interpreter: the package's regexes are compiled on first use, so its lazy state shows what ran.
_FIRST_USE = r"""
import palace.memory.secrets as S
from palace.memory.secrets import words
S.redact("I use postgres for the cache; ping the host, add the user to the group and pin the version.\n"
         "The odd dd address is fine, and mapping typing is done. Password reset is in the docs.")
def compiled(prefix):
    kinds = [k for k in S.SECRET_KINDS if k.source.startswith(prefix)]
    assert kinds, prefix
    return any(k._pattern is not None or k._folded is not None for k in kinds)
for prefix in ("us(?<![a-z0-9]us)", "pin(?<![a-z0-9]pin)", "dd(?<![A-Za-z0-9_]dd)", "user(?:(?<=adduser)",
               "(?:user:password|set"):
    assert not compiled(prefix), prefix
assert words._pattern.cache_info().currsize <= 2, words._pattern.cache_info()  # a line's run and its words
print("ok")
"""


def test_first_redact_compiles_only_what_it_needs() -> None:
    done = subprocess.run([sys.executable, "-c", _FIRST_USE], capture_output=True, text=True, check=False)
    assert done.stdout.strip() == "ok", done.stderr
