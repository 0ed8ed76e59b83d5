"""The eighth round's rules (issue 22): values that say they are no secret (ciphertext, password hashes,
references, template slots, masked values, ids, nonces, request signatures), and the forms found since: secrets
piped or written into something that names them, XML and plist values named by the element above, CSV columns,
passwords in more languages, passphrases of words, app passwords, PINs and codes, recovery keys, webhook paths,
key options, clients made with a key, char arrays, Wi-Fi QR codes, hex of a key file's text, seed phrases as
lists, extended keys with a derivation path."""

from __future__ import annotations

import pytest

from palace.memory.secrets import find_secret, redact

PW = "Tq8vRm3Lx7Wz"  # both cases and digits
HEX = "9d3e7a1c5b8f2046e1d9c3a7b5f80246"
UUID = "1f6b3c8e-4d2a-4e7f-8b1c-9a0d3e5f7c24"
TOKEN = "Wd5Kp9Rt2Zm7Qx4Nv8Bj3Lc6"


@pytest.mark.parametrize(
    "text",
    [
        "api_token: ENC[AES256_GCM,data:Zk3Vq9Lm2Rt7Wx4Pb8Nc6Yd1Hf5Gs0Ja,iv:Qm7pLx2Rv9TzNq4Vb8Lm2Xc6Tz1=,type:str]",
        "spec:\n  encryptedData:\n    api_key: AgBz3Kq9Vm2Lx7Rt4Wp8Nc6Yd1Hf5Gs0JaQeUiOyWtZk3Vq9Lm2Rt7Wx4Pb8Nc6",
        "smtp_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  6132396438633565313637626133353863613933\n"
        "  3466633064633039383736353433323130616263",
        "ldap_password: {SSHA}Zk3Vq9Lm2Rt7Wx4Pb8Nc6Yd1Hf5Gs0Ja",
        "ALTER USER 'app'@'%' IDENTIFIED WITH mysql_native_password AS '*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19';",
        "stored: SCRAM-SHA-256$4096:Qm7pLx2Rv9TzNq4V==$Zk3Vq9Lm2Rt7Wx4Pb8Nc6Yd1Hf5Gs0Ja=:Wd5Kp9Rt2Zm7Qx4Nv8Bj3Lc6=",
        "DbPassword: '{{resolve:secretsmanager:prod/app/db:SecretString:password}}'",
        "ApiKey: '@Microsoft.KeyVault(SecretUri=https://kv-app.vault.azure.net/secrets/api-key/)'",
        "gcloud run deploy api --set-secrets=API_TOKEN=api-token:latest",
        '<add key="DbPassword" value="#{DbPassword}" />',
        '"api_token": "__API_TOKEN__"',
        "+ curl -u deploy:**** https://ci.example.io/job/api",
        'Parameters: {"session"=>{"password"=>"[FILTERED]"}}',
        "aws secretsmanager get-secret-value --secret-id prod/api; bws secret get " + UUID,
        '{"projectId": "prj_Zk3Vq9Lm2Rt7Wx4Pb8Nc6Yd1", "orgId": "team_Hf5Gs0JaQeUiOyWtZk3Vq9Lm"}',
        "user_01h2xcejqtf2nbrexx3vqjhp41 signed in",
        "Content-Security-Policy: script-src 'self' 'nonce-Zk3Vq9Lm2Rt7Wx4Pb8Nc6Q=='",
        "X-Signature: t=1736000000,v1=" + "a1" * 32,
        "APP_CLIENT_ID=" + UUID + "\nAPP_TENANT_ID=2a7c4e9b-6d1f-4b3a-8e2c-5f0d9a7b3c61",
    ],
)
def test_values_that_say_they_are_no_secret_pass(text: str) -> None:
    assert find_secret(text) is None, text
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (f"echo {TOKEN} | acme-cli token add https://registry.example.io", TOKEN),
        (f"printf '%s' '{PW}!' | sudo cryptsetup open /dev/sdc1 vault --key-file=-", f"{PW}!"),
        (f"echo '{PW}*' > ~/.backup_pass && chmod 600 ~/.backup_pass", f"{PW}*"),
        (f"x11passwd -f <<< '{PW}'", PW),
        ('echo "ops:Harbor42x" | chpasswd', "ops:Harbor42x"),
        (f"<property>\n  <name>store.secret.key</name>\n  <value>{TOKEN}</value>\n</property>", TOKEN),
        (f"<key>ServerSecret</key>\n<string>{TOKEN}</string>", TOKEN),
        (f"title,login,password,url\nRouter,admin,{PW}#,http://192.168.1.1\n", f"{PW}#"),
        ("d'Passwuert vum Router ass falcon.cedar.852", "falcon.cedar.852"),
        ("la pasvorto de la retkonto estas Meadow4471!", "Meadow4471!"),
        ("the master password is walnut.heron.plum.gravel — keep it offline", "walnut.heron.plum.gravel"),
        ("disk passphrase (five words): quartz-ember-lotus-fjord-pepper", "quartz-ember-lotus-fjord-pepper"),
        (
            "the backup passphrase for the NAS is: cobalt fennel otter mosaic tundra",
            "cobalt fennel otter mosaic tundra",
        ),
        ("the mail app password for the printer is vkqe brtz mxpl ohwd", "vkqe brtz mxpl ohwd"),
        ("the PUK for my phone SIM is 48213377", "48213377"),
        ("garage door code: 902114#", "902114#"),
        ("recovery key (work laptop): K3PD-7QWN-R2HX-9MBT-L4VC-8ZJF", "K3PD-7QWN-R2HX-9MBT-L4VC-8ZJF"),
        (f"curl -X POST https://api.example.io/build_hooks/{HEX}", HEX),
        (f"https://alerts.example.io/integrations/v1/alertmanager/{TOKEN}/", TOKEN),
        ("curl 'https://push.example.io/message?token=Ak.Zq7Vn2Lm4Rt'", "Ak.Zq7Vn2Lm4Rt"),
        (f"meshctl up --setup-key {UUID}", UUID),
        (f'client = billing.Client("{HEX}")', HEX),
        (f'store.load(in, "{PW}".toCharArray());', PW),
        ("WIFI:T:WPA;S:Cafe-Guest;P:Sparrow2207+;H:false;;", "Sparrow2207+"),
        (f'signer = Account.from_key("0x{HEX}{HEX}")', f"{HEX}{HEX}"),
        (
            "WORDS = ["
            + ", ".join(
                f'"{w}"'
                for w in "tomato gravity basket cousin lunar switch hotel manual ripple window toward vessel".split()
            )
            + "]",
            '"tomato", "gravity"',
        ),
    ],
)
def test_a_secret_in_these_forms_is_refused_and_redacted(text: str, secret: str) -> None:
    assert find_secret(text) is not None, text
    assert secret not in redact(text)


def test_hex_of_a_key_files_text_is_refused() -> None:
    text = '{"Type":"secp256k1","PrivateKey":"' + TOKEN + 'Zk3Vq9Lm2Rt7Wx4="}'
    assert find_secret(f"echo {text.encode().hex()} | wallet import") is not None


def test_an_extended_private_key_with_its_derivation_path_is_refused() -> None:
    xprv = (
        "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33y"
        "uGBxrMPHi"
    )
    text = f'importdescriptors \'[{{"desc": "wpkh({xprv}/84h/0h/0h/0/*)"}}]\''
    assert find_secret(text) is not None
    assert xprv not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "Password: must be at least twelve characters long",
        "WIFI:S:Home;T:WPA;P:${WIFI_PASSWORD};;",
        "the door code changes every month; ask facilities",
        "echo hello | grep token",
        "gpg --recv-keys " + HEX.upper() + HEX[:8].upper(),
        "name,role,team\nada,admin,infra\n",
    ],
)
def test_sentences_and_references_near_these_rules_pass(text: str) -> None:
    assert find_secret(text) is None, text
