"""The seventh held-out part (issue 22), written before the fifth round's rules and run through the detector
once before and once after them, to be reported: formats and contexts no other part has (routers and
daemons, Windows tools, SQL and client libraries, secret stores' command lines, more languages, wallet
seeds), and look-alikes (shell and template references, sudoers and nsswitch keywords, digests, number
arrays, settings whose names hold a secret word but whose values are not secrets). Never tuned on; its figure
is the round's unseen measure.

Every value is random in its documented shape; none is a real credential."""

from __future__ import annotations

import json
import re

from .gen import ALNUM, B64, B64URL, BASE32, HEX, LOWER, UPPER, Case, Gen

_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def _passwords(g: Gen) -> list[str]:
    """Random passwords of 10 to 18 characters."""
    return [g.password(g.rng.randint(10, 18)) for _ in range(48)]


def _configs(g: Gen, pw: list[str]) -> list[Case]:
    """Passwords in router, daemon and service configs."""
    return [
        Case(f"userlist admins\n    user ada insecure-password {pw[0]}", "password assignment", "HAProxy userlist",
             pw[0]),
        Case(f"router bgp 65001\n neighbor 10.0.0.2 remote-as 65002\n neighbor 10.0.0.2 password {pw[1]}",
             "password assignment", "BGP neighbor password", pw[1]),
        Case(f"interface Gi0/1\n ip ospf message-digest-key 1 md5 {pw[2]}", "password assignment",
             "OSPF md5 key", pw[2]),
        Case(f"snmp-server community {g.mixed(ALNUM, 16)} RW", "secret assignment", "SNMP community", ""),
        Case(f'# /etc/ipsec.secrets\n10.0.0.1 10.0.0.2 : PSK "{pw[3]}"', "password assignment",
             "strongSwan PSK", pw[3]),
        Case(f'key "xfr-key" {{\n    algorithm hmac-sha256;\n    secret "{g.b64_bytes(32)}";\n}};',
             "secret assignment", "BIND TSIG key", ""),
        Case(f"nsupdate -y hmac-sha256:xfr-key:{g.b64_bytes(32)} update.txt", "secret assignment",
             "nsupdate -y", ""),
        Case(f"ada:{{PLAIN}}{pw[4]}::::::", "password assignment", "Dovecot passwd-file", pw[4]),
        Case(f"[nas]\ntype = webdav\nurl = https://nas.acme.io/dav\nuser = ada\npass = {pw[5]}",
             "password assignment", "rclone remote", pw[5]),
        Case(f"registration_shared_secret: \"{g.mixed(ALNUM, 32)}\"", "secret assignment", "Synapse shared secret",
             ""),
        Case(f'"DefaultUserName"="ada"\n"DefaultPassword"="{pw[6]}"', "password assignment",
             "Winlogon autologon", pw[6]),
        Case(f"<AdministratorPassword>\n  <Value>{pw[7]}</Value>\n  <PlainText>true</PlainText>\n"
             "</AdministratorPassword>", "password assignment", "unattend.xml", pw[7]),
        Case(f"ENV ADMIN_PASS {pw[8]}", "password assignment", "Dockerfile ENV spaced", pw[8]),
        Case(f"DB_PASS ?= {pw[9]}\nmigrate:\n\t./migrate -p $(DB_PASS)", "password assignment", "Makefile ?=",
             pw[9]),
        Case(f'administrator_login_password = "{pw[10]}"', "password assignment", "Terraform azurerm sql",
             pw[10]),
        Case(f"Driver={{ODBC Driver 18}};Server=db;DSN=shop;UID=ada;PWD={pw[11]};", "password assignment",
             "ODBC connection string", pw[11]),
        Case(f"[client]\nuser = backup\nSecret Word = {pw[12]}", "password assignment", "spaced setting name",
             pw[12]),
        Case(f"interface=wlan0\nssid=acme\nwpa_key_mgmt=WPA-PSK\nwpa_psk_file=/etc/x\nsae_password={pw[13]}",
             "password assignment", "hostapd sae_password", pw[13]),
    ]  # fmt: skip


def _code(g: Gen, pw: list[str]) -> list[Case]:
    """Passwords in SQL and in client-library calls."""
    keypair = json.dumps([g.rng.randint(0, 255) for _ in range(64)])
    return [
        Case(f"CREATE USER 'ada'@'%' IDENTIFIED WITH caching_sha2_password BY '{pw[14]}';", "password assignment",
             "MySQL IDENTIFIED WITH", pw[14]),
        Case(f"CREATE LOGIN shop WITH PASSWORD = N'{pw[15]}', CHECK_POLICY = OFF;", "password assignment",
             "SQL Server CREATE LOGIN", pw[15]),
        Case(f"ALTER ROLE shop LOGIN ENCRYPTED '{pw[16]}';", "password assignment", "PostgreSQL ENCRYPTED", pw[16]),
        Case(f'db.createUser({{ user: "shop", pwd: "{pw[17]}", roles: ["readWrite"] }})', "password assignment",
             "MongoDB createUser", pw[17]),
        Case(f"ACL SETUSER ada on >{pw[18]} ~cache:* +get", "password assignment", "Redis ACL", pw[18]),
        Case(f"$pdo = new PDO('mysql:host=db;dbname=shop', 'shop', '{pw[19]}');", "password assignment",
             "PHP PDO", pw[19]),
        Case(f'rdb := redis.NewClient(&redis.Options{{Addr: "cache:6379", Password: "{pw[20]}"}})',
             "password assignment", "go-redis Options", pw[20]),
        Case(f'auth := []ssh.AuthMethod{{ssh.Password("{pw[21]}")}}', "password assignment", "Go ssh.Password",
             pw[21]),
        Case(f'keyring.set_password("smtp", "ada", "{pw[22]}")', "password assignment", "Python keyring", pw[22]),
        Case(f'r = requests.get(url, auth=HTTPBasicAuth("ada", "{pw[23]}"))', "password assignment",
             "requests HTTPBasicAuth", pw[23]),
        Case(f'conn.simple_bind_s("cn=admin,dc=acme,dc=io", "{pw[24]}")', "password assignment",
             "python-ldap bind", pw[24]),
        Case(f"Net::FTP.open('ftp.acme.io', 'ada', '{pw[25]}') do |ftp|", "password assignment", "Ruby Net::FTP",
             pw[25]),
        Case(f'props.put("mail.smtp.password", "{pw[26]}");', "password assignment", "Java mail props", pw[26]),
        Case(f"with pysftp.Connection('sftp.acme.io', username='ada', password='{pw[27]}') as sftp:",
             "password assignment", "pysftp Connection", pw[27]),
        Case(f"const kp = Keypair.fromSecretKey(new Uint8Array({keypair}))", "wallet private key",
             "JS Uint8Array keypair", keypair),
    ]  # fmt: skip


def _commands(g: Gen, pw: list[str]) -> list[Case]:
    """Passwords and keys on command lines, Windows ones included."""
    return [
        Case(f"echo '{pw[28]}' | sudo -S apt-get upgrade -y", "password on a command line", "sudo -S pipe", pw[28]),
        Case(f"plink -ssh -pw {pw[29]} ada@10.0.0.5", "password on a command line", "plink -pw", pw[29]),
        Case(f"psexec \\\\srv01 -u ACME\\ada -p {pw[30]} cmd.exe", "password on a command line", "psexec -p",
             pw[30]),
        Case(f"net user svc_backup {pw[31]} /add /domain", "password on a command line", "net user add", pw[31]),
        Case(f'schtasks /create /tn nightly /tr backup.cmd /sc daily /ru ACME\\svc /rp "{pw[32]}"',
             "password on a command line", "schtasks /rp", pw[32]),
        Case(f"rabbitmqctl change_password ada '{pw[33]}'", "password on a command line", "rabbitmqctl change",
             pw[33]),
        Case(f'dotnet user-secrets set "Smtp:Password" "{pw[34]}"', "password on a command line",
             "dotnet user-secrets", pw[34]),
        Case(f"mysqladmin -u root password '{pw[35]}'", "password on a command line", "mysqladmin password", pw[35]),
        Case(f"ldappasswd -x -D cn=admin,dc=acme,dc=io -w x -s {pw[36]} uid=ada,dc=acme,dc=io",
             "password on a command line", "ldappasswd -s", pw[36]),
        Case(f"smbclient //nas/share -U ada%{pw[37]}", "password on a command line", "smbclient -U user%pw", pw[37]),
        Case(f"op item create --category login --title vpn 'password={pw[38]}'", "password on a command line",
             "1Password op item create", pw[38]),
        Case(f"vault kv put secret/shop db_password='{pw[39]}'", "password on a command line", "vault kv put",
             pw[39]),
        Case(f"dokku config:set shop SESSION_SECRET={g.mixed(ALNUM, 40)}", "password on a command line",
             "dokku config:set", ""),
        Case(f"git config --global url.\"https://ci:{g.mixed(ALNUM, 40)}@git.acme.io/\".insteadOf "
             "https://git.acme.io/", "password on a command line", "git insteadOf token", ""),
    ]  # fmt: skip


def _prose_and_keys(g: Gen, pw: list[str]) -> list[Case]:
    """Passwords in prose of more languages, and wallet seeds."""
    stellar = "S" + g.chars(BASE32, 55)
    tink = g.b64_bytes(34)
    return [
        Case(f"heslo k wifi je {pw[40]}", "password assignment", "heslo je (Czech)", pw[40]),
        Case(f"wlanin salasana on {pw[41]}", "password assignment", "salasana on (Finnish)", pw[41]),
        Case(f"parola noua este {pw[42]}, nu o da nimanui", "password assignment", "parola este (Romanian)",
             pw[42]),
        Case(f"kata sandi server sekarang {pw[43]}", "password assignment", "kata sandi (Indonesian)", pw[43]),
        Case(f"路由器的密碼已改為 {pw[44]}", "password assignment", "密碼 (Traditional Chinese)", pw[44]),
        Case(f"la contrasenya del wifi és {pw[45]}", "password assignment", "contrasenya (Catalan)", pw[45]),
        Case(f"lösenordet till routern är {pw[46]}", "password assignment", "lösenord (Swedish, definite)", pw[46]),
        Case(f"fyi I set the bastion one to {pw[47]} for now", "password assignment", "set it to (English)", pw[47]),
        Case(f"stellar secret seed: {stellar}", "wallet private key", "Stellar secret seed", stellar),
        Case(f'{{"primaryKeyId": 1937, "key": [{{"keyData": {{"typeUrl": "type.googleapis.com/google.crypto.tink.'
             f'AesGcmKey", "value": "{tink}"}}}}]}}', "secret assignment", "Tink keyset", tink),
        Case(f"seed phrase backup (Stellar): {stellar[::-1]}", "wallet private key", "seed after a colon",
             stellar[::-1]),
        Case(f'"signingSecret": "{g.chars(HEX, 32)}"', "secret assignment", "signing secret hex", ""),
        Case(f"SESSION_SEED={g.mixed(B64URL, 43)}", "secret assignment", "session seed", ""),
        Case(f"auth-token-for-ci: {g.mixed(ALNUM, 36)}", "secret assignment", "dashed auth token name", ""),
        Case(f"upsd.users\n[monuser]\n    password = {pw[0][::-1]}\n    upsmon primary", "password assignment",
             "NUT upsd.users", pw[0][::-1]),
    ]  # fmt: skip


def blind5_secrets(g: Gen) -> list[Case]:
    """Secrets of the seventh held-out part (a case whose secret is '' has it as the longest token of its text)."""
    pw = _passwords(g)
    cases = [*_configs(g, pw), *_code(g, pw), *_commands(g, pw), *_prose_and_keys(g, pw)]
    return [Case(c.text, c.kind, c.vendor, c.secret or _longest(c.text)) for c in cases]


def _longest(text: str) -> str:
    """The longest token of text, split at quotes, '=', ':' and spaces (the generated value)."""
    return max(re.split(r"[\s\"'=:;]+", text), key=len)


def blind5_lookalikes(g: Gen) -> list[Case]:
    """Look-alikes of the seventh held-out part."""
    palette = json.dumps([g.rng.randint(0, 255) for _ in range(64)])
    texts = [
        'API_TOKEN="${API_TOKEN:-}"',
        "export DB_PASS=${DB_PASS:=$(cat /run/secrets/db)}",
        "PGPASSWORD=$(pass show shop/db) psql -h db -U shop",
        "password = %(db_password)s",
        "password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256",
        "password: '{{resolve:secretsmanager:prod/db:SecretString:password}}'",
        "secret: !Ref DbSecretArn",
        "token: {{ .Values.ingress.token | quote }}",
        "xfreerdp /v:10.0.0.7 /u:ada /p:$RDP_PASS",
        "net use Z: \\\\nas\\share /user:ada *",
        "htpasswd -B -c /etc/nginx/.htpasswd ada",
        "mysql -u root -p shop < dump.sql",
        "psql -h db -U shop -W",
        "%wheel ALL=(ALL) NOPASSWD: /usr/bin/systemctl restart shop",
        "passwd:         files systemd\nshadow:         files",
        "PermitEmptyPasswords no\nKbdInteractiveAuthentication no",
        "password_file: /etc/shop/db.pass",
        "PGPASSFILE=~/.pgpass",
        "token_endpoint: https://auth.acme.io/oauth2/token",
        "secret_ref: projects/acme/secrets/db/versions/latest",
        '"passwordPolicy": {"minLength": 12, "requireSymbols": true}',
        "random_seed: 1234\nseed_ratio = 2.0",
        "max_tokens=2048, temperature=0.2",
        "auth_method: scram-sha-256",
        f"password_hash: $2b$12${g.chars(B64.replace('+', '.'), 53)}",
        "Enter password for ada@acme.io:",
        "sudo: a password is required",
        'git commit -m "rotate the db password before friday"',
        "the password must be at least 12 characters long and not reuse the last 5",
        "the password is now stored in 1Password, not in the repo",
        "le mot de passe est maintenant dans le coffre",
        "パスワードを忘れました",
        "das Passwort wurde geändert, bitte neu anmelden",
        "la contraseña debe tener al menos 8 caracteres",
        "비밀번호를 변경했습니다",
        "пароль неверный, попробуйте ещё раз",
        "heslo je příliš krátké",
        f"histogram = {palette}",
        "enable password-encryption\nservice password-encryption",
        "ssh-copy-id -i ~/.ssh/id_ed25519.pub ada@10.0.0.5",
        f"sha256  {g.chars(HEX, 64)}  shop-1.4.2.tar.gz",
        f"Set-Cookie: theme=dark; Max-Age={g.digits(7)}; SameSite=Lax",
        f"user_id={g.uuid()} plan=pro seats=12",
        "keytool -list -v -keystore ~/.android/debug.keystore -alias androiddebugkey",
        "git config --global credential.https://git.acme.io.username ada",
        f"stellar public key G{g.chars(BASE32, 55)}",
        f"builder {g.chars(LOWER, 6)}-{g.chars(UPPER + LOWER, 4)} finished",
    ]
    return [Case(text, None, "blind5 look-alike") for text in texts]
