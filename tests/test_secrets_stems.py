"""The structural rules (palace/memory/secrets/stems.py): a secret word's stem in an identifier, credentials
beside `@` or as an option's value, a key body under a line naming it; and what they must leave alone."""

from __future__ import annotations

import pytest

from palace.memory.secrets import find_secret, redact

PW = "Qv7#mT2kLp9x"


@pytest.mark.parametrize(
    "text",
    [
        f"masterauth {PW}",
        f"bindpw {PW}",
        f"olcRootPW: {PW}",
        f"sssd_default_authtok = {PW}",
        f"tool -storepass {PW} app.bin",
        f"export ADMIN_PASSWD='{PW}'",
        f"app.enckey = '{PW}'",
        f"dsn = 'ada:{PW}@tcp(db:3306)/shop'",
        f"[mail.acme.io]:25 ada@acme.io:{PW}",
        f"tool -a ada:{PW} https://acme.io",
        f"archiver -p{PW} out.bin",
        f'mydb_connect(h, "db", "root", "{PW}", 0);',
    ],
)
def test_structure_names_a_secret(text: str) -> None:
    assert find_secret(text) is not None, text
    assert PW not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "bypass = cache-v2",
        "cache key: user:549672:profile:v2",
        "publishableKey: 'pk_live_BB3LX9wlGo29BrDYALa92ImQ'",
        "password_min_length = 12",
        "db_pass = os.environ['DB_PASS']",
        "authToken: process.env.AUTH_TOKEN,",
        "api_secret = 'xxxxxxxxxxxxxxxxxxxxxxxx'",
        "OPENAI_API_KEY=sk-proj-XXXXXXXXXXXXXXXXXXXXXXXX",
        "vault kv get -field=password secret/db",
        "pip install requests==2.31.0 --hash=sha256:" + "ab12" * 16,
        "docker pull acme/api:1.2.3@sha256:" + "cd34" * 16,
        "java -Xmx512m -jar app.jar",
        "grep -E '^[A-Z][a-z]+[0-9]{2}$' names.txt",
        "git@github.com:acme/repo.git",
        "random_seed = 20240501",
    ],
)
def test_structure_leaves_lookalikes(text: str) -> None:
    assert find_secret(text) is None, (text, find_secret(text))
