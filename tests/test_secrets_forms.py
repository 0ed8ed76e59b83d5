"""The seventh round's rules (issue 22): keys given to commands (`-k`, `-t`, `login`, `-u ... -p`, a command
that sets a user's password), clients made with a key, calls that pass a password on (`.toCharArray()`), base64
whose text holds a secret (a registry's auth JSON), Java key stores, bech32 private keys, an `_SK` suffix, query
parameters whose name ends in key or token, `pass_phrase`, "using ... for the admin"; and the references that
must stay (`env:NAME`, `var.x`, `-pass env:X`)."""

from __future__ import annotations

import base64
import json

import pytest

from palace.memory.secrets import find_secret, redact

PW = "Qm7pLx2Rv9Tz"  # both cases and digits
HEX = "5f0c9e2ab7d14836f0e9a2c4b6d81357e9f0a2c4"
UUID = "7c1e9a52-3b4d-4f6e-9a0b-2c8d7e6f5a41"
TOKEN = "Nq4Vb8Lm2Xc6Tz1Rw5Yp3Hk"
BASE64_KEY = "Kx7Vq2Lm9Nb4Tz6Rw1Yp8Hc3Gd5Fs0JaQeUiOyWt"


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


REGISTRY_AUTH = _b64(json.dumps({"auths": {"registry.example.io": {"username": "ci", "password": f"{PW}!x"}}}))
KEYSTORE = base64.b64encode(b"\xfe\xed\xfe\xed\x00\x00\x00\x02" + bytes(range(200))).decode()


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (f"artifact-cli publish dist/app.tar.gz -k {HEX}", HEX),
        (f"uploader send -t {UUID} -f report.xml", UUID),
        (f"mltrack login {HEX}", HEX),
        (f"sqltool -h db:30015 -u SYSTEM -p {PW} 'SELECT 1'", PW),
        (f"cms-admin user:password editor 'harbor-{PW}'", f"harbor-{PW}"),
        (f"const sms = require('sms').initClient('{TOKEN}');", TOKEN),
        (f'return new PasswordAuthentication("ops@example.io", "{PW}-x".toCharArray());', f"{PW}-x"),
        (f"data:\n  .dockerconfigjson: {REGISTRY_AUTH}", REGISTRY_AUTH),
        (f'echo "{KEYSTORE}" | base64 -d > release.jks', KEYSTORE),
        ("import suiprivkey1qgq3zvsyq5j3fh0ur9w3ltcmrzq9k5xvz8lyj5z3v4l7dwk8s2rqcw7y8gk", "suiprivkey1"),
        (f"export CLOUD_SDK_AK=2WRLCVAPXZ5HGI24EGBT\nexport CLOUD_SDK_SK={BASE64_KEY}", BASE64_KEY),
        (f"https://chat.example.eu/api/v2/post?zapikey=1001.{HEX}", HEX),
        (f"[DEFAULT]\nkey_file=~/.oci/key.pem\npass_phrase={PW}+", f"{PW}+"),
        (f"we're using Harbor{PW}& for the staging admin until Monday", f"Harbor{PW}&"),
        ("nenosiri la wifi ni falcon-biscuit-22", "falcon-biscuit-22"),
    ],
)
def test_a_secret_in_these_forms_is_refused_and_redacted(text: str, secret: str) -> None:
    assert find_secret(text) is not None
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        '"smtp": {"user": "noreply@example.io", "password": "env:SMTP_PASSWORD"}',
        'password = var.db_password\ntoken    = data.vault_generic_secret.ci.data["token"]',
        "openssl enc -aes-256-cbc -pbkdf2 -pass env:BACKUP_PASS -in db.sql -out db.sql.enc",
        "openssl enc -aes-256-cbc -pass file:/run/keys/backup -in db.sql",
        f"git show {HEX}",
        "docker build -t registry.example.io/shop/api:1.4.2 .",
        "ssh-keygen -t ed25519 -C ops@example.io",
        "docker run -p 8080:80 -u 1000 nginx",
        "mysql -u root -p shop < dump.sql",
        "we are using Python3.11 for the admin scripts",
        "use ops@example.io for the admin account",
        f'client = Client("{"shop_service_name_v2"}")',
        "echo " + _b64("hello there, this is only a note about the weather today") + " | base64 -d",
        "_SK_SSH_ED25519 = b'sk-ssh-ed25519@openssh.com'",
        "https://example.io/search?monkey=banana&sortkey=created_at_descending",
        "the passphrase policy: twelve characters at least",
    ],
)
def test_references_and_look_alikes_in_these_forms_stay(text: str) -> None:
    assert find_secret(text) is None
    assert redact(text) == text
