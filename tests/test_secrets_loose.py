"""The sixth round's rules (issue 22): a random password found by its shape wherever it stands, a password as a
call's last argument, the word for password in more languages (and its endings), SNMP's community string; and
the look-alikes with the same characters that must stay: arithmetic, versions, locales, e-mail addresses,
format strings, regex ranges, base64 digests, references and YAML tags."""

from __future__ import annotations

import pytest

from palace.memory.secrets import find_secret, redact

PW = "Vn7&qK2#xBw9"  # capitals, small letters, digits and symbols mixed at random
KEY = "Zr4Nq8Vb2Lm6Xc1T"


@pytest.mark.parametrize(
    "text",
    [
        f"router ospf 1\n area 0 authentication message-digest\n ip ospf md5-key 3 {PW}",
        f"CREATE LOGIN svc WITH PASSWORD_HASH = 0x0, CHECK_POLICY = OFF; -- then {PW}",
        f"echo '{PW}' | kinit ada@ACME.IO",
        f"fyi I moved the staging box over to {PW} yesterday",
        f"<Credential>\n  <Value>{PW}</Value>\n</Credential>",
        f"RUN htpasswd -bc /etc/nginx/.htpasswd ada {PW}",
        f'new Client("db.acme.io", 5432, "shop", "{PW}")',
        f"mount -t cifs //nas/share /mnt -o user=ada,pass={PW}",
        f"vault kv put secret/app db={PW}",
        f"wifi at the cabin: {PW} (the long one)",
        f"{PW}",
    ],
)
def test_a_random_password_is_found_wherever_it_stands(text: str) -> None:
    assert find_secret(text) is not None
    assert PW not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        'auth := []ssh.AuthMethod{ssh.Password("k9_mq4zt")}',
        'keyring.set_password("smtp", "ada", "hunter42")',
        "heslo k serveru je Kq8_vz4mpl",
        "salasanani on Kq8_vz4mpl",
        "lösenordet till routern är Kq8_vz4mpl",
        "kata sandi server sekarang Kq8_vz4mpl",
        "la contrasenya del wifi és Kq8_vz4mpl",
        "parola noua este Kq8_vz4mpl",
        f"snmp-server community {KEY} RO",
    ],
)
def test_a_password_named_in_more_forms_and_languages(text: str) -> None:
    assert find_secret(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        "the solution is 519750*C1*x**8 + 2*I*pi/n",
        "bump the range to ^1.2.3-Beta.4 in package.json",
        "set LANG=sr_RS.UTF-8@latin on the build box",
        "write to 4FD05F05-F98B-44DC-8111-C6009C925F0C@gmail.com about it",
        "git log --format=%x1e%H%x1f%ad%x1f%an%x1f%s",
        "the regex is [A-Za-z0-9%+]{8,} for that field",
        "go.sum: github.com/acme/lib v1.4.2 h1:gaJBds+LJ/vq09tvGdhVCrFkRUu2jOxF5Pc9jUYyyEQ=",
        "the host key is SHA256:PbByt7pT0tUVmiWK+X5KFX16NqX+JGbiSYt8QTqusPI",
        "https://www.youtube.com/watch?v=vUR8l8JfuRD&t=42s",
        "password = %(db_password)s",
        "password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256",
        "DbPassword: !Ref DbPass",
        "I reset my password with HelloWorld2024! as the hint, it is in 1Password now",
        "use ~Options.OP_NO_SSLv3 when building the context",
        "the IPv6 route ff02::1de:c0:face:8D% is link-local",
        "print(f'{x:>10}') then 2>&1 | tee log.txt",
        "tag the release #Q3Goals2024 and $HOME2 for the mirror",
    ],
)
def test_look_alikes_with_a_passwords_characters_stay(text: str) -> None:
    assert find_secret(text) is None
    assert redact(text) == text
