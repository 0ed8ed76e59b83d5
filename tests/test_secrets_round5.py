"""The fifth round's rules (issue 22): `secret`/`token`/`seed` as stems, a type number between a keyword and its
value, subcommands that set a secret, Windows-style options, login-like callees, a URL then a user then a
secret, byte-array keypairs, SQL's IDENTIFIED BY, a user added with its password, "is now" / "changed to" in
several languages, CJK particles, "creds for X → u / p"; and the look-alikes they must leave alone."""

from __future__ import annotations

import json

import pytest

from palace.memory.secrets import find_secret, redact

PW = "Qv7#mT2kLp9x"
KEY = "Zr4Nq8Vb2Lm6Xc1Tw9Hs5Jd3Kf7Pg0Ya"
BYTES = json.dumps([(i * 97 + 31) % 256 for i in range(64)])


@pytest.mark.parametrize(
    "text",
    [
        f"secret = {PW}",
        f"secret={PW}",
        f"[peer]\ntoken: {PW}",
        f'seed = "{PW}"',
        f"username admin privilege 15 password 0 {PW}",
        f"enable password 7 {PW}",
        f"ldap_default_authtok = %{PW}",
        f"tool config add-authtoken {KEY}",
        f"tool set-password {PW}",
        f"store alias set prod https://objects.acme.io ci {KEY}",
        f"rdp /v:10.0.0.7 /u:ada /p:{PW} /cert:ignore",
        f"cmdkey /generic:srv /user:ada /pass:{PW}",
        f"Net::SMTP.start('smtp.acme.io', 587, 'acme.io', 'ada', '{PW}', :login)",
        f"auth = session('ada', '{PW}')",
        f"~/.config/wallet/id.json\n{BYTES}",
        f"const signer = Keypair.fromSecretKey(new Uint8Array({BYTES}))",
        f'ALTER USER app IDENTIFIED BY "{PW}";',
        f"queuectl add_user billing '{PW}'",
        f"le mot de passe du NAS est maintenant {PW}.",
        f"la contraseña ahora es {PW}",
        f"a senha foi alterada para {PW}",
        f"das Passwort wurde geändert auf {PW}",
        f"la password è stata cambiata in {PW}",
        f"пароль теперь {PW}",
        f"the wifi passphrase got rotated, it is {PW} until friday",
        f"the password was changed to {PW}",
        f"ルーターのパスワードを {PW} に変えました",
        f"비밀번호를 {PW}로 바꿨어요",
        f"creds for the staging db → shop / {PW}",
        "a senha do banco é LdVhHzzXZkEr#",
    ],
)
def test_round5_rule_finds_the_secret(text: str) -> None:
    assert find_secret(text) is not None, text
    redacted = redact(text)
    assert PW not in redacted and KEY not in redacted and BYTES not in redacted, redacted


@pytest.mark.parametrize(
    "text",
    [
        "DB_PASSWORD=${DB_PASSWORD:?must be set}",
        'API_TOKEN="${API_TOKEN:-}"',
        "passwordless sudo for the deploy group (NOPASSWD: ALL)",
        "%wheel ALL=(ALL) NOPASSWD: /usr/bin/systemctl restart shop",
        "xfreerdp /v:10.0.0.7 /u:ada /p:$RDP_PASS",
        "dir /p:off",
        "token = tokenizer.encode(text)",
        "seed = 42",
        "random seed: 1234",
        "token count 4096",
        "the secret sauce is 42% sugar",
        "password 0 changeme",
        "the password is now stored in 1Password",
        "the password was changed to something stronger",
        "le mot de passe a été changé hier",
        "пароль теперь другой",
        "Passwort vergessen?",
        "パスワードを忘れました",
        "open('data.csv', 'w+b')",
        "f = open('in-2024.txt', 'out-2025.txt')",
        "start('worker', 'queue-1')",
        "bind('0.0.0.0', 'eth0:1')",
        "git remote add origin https://github.com/acme/shop.git main",
        "set token_endpoint=https://auth.acme.io/oauth/token and key_id=signing-2025",
        "mc alias set store https://minio.acme.io ci $MINIO_SECRET",
        "palette = " + BYTES,
        "CREATE USER ada IDENTIFIED BY '<password>'",
        "ALTER USER ada IDENTIFIED BY 'changeme'",
        "adduser ada docker_group",
        "useradd -m -s /bin/bash ada",
    ],
)
def test_round5_rule_leaves_lookalikes(text: str) -> None:
    assert find_secret(text) is None, (text, redact(text))


def test_a_stem_inside_a_long_value_is_not_judged_again() -> None:
    text = "token: " + "token=" * 4000
    assert redact(text).startswith("token: ")
