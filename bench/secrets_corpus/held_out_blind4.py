"""The sixth held-out part (issue 22), written before that round's rules and run through the detector once
before and once after them, to be reported: formats and contexts no other part has (network gear and
daemons, backup tools, mail and remote-desktop clients, code that logs in, CI and deploy commands, more
languages), and look-alikes (digests, public keys, references, settings whose names hold a secret word but
whose values are not secrets). Never tuned on; its figure is the round's unseen measure.

Every value is random in its documented shape; none is a real credential."""

from __future__ import annotations

import base64
import json
import re

from .gen import ALNUM, B64, B64URL, DIGITS, HEX, LOWER, UPPER, Case, Gen

_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def _passwords(g: Gen) -> list[str]:
    """Random passwords of 10 to 18 characters."""
    return [g.password(g.rng.randint(10, 18)) for _ in range(44)]


def _connections(g: Gen, pw: list[str]) -> list[Case]:
    """Passwords in daemon configs, code and connection layouts."""
    return [
        Case(f"username admin privilege 15 password 0 {pw[0]}", "password assignment", "Cisco IOS user", pw[0]),
        Case(f"vrrp_instance VI_1 {{\n  authentication {{\n    auth_type PASS\n    auth_pass {pw[1]}\n  }}\n}}",
             "password assignment", "keepalived auth_pass", pw[1]),
        Case(f"client office {{\n    ipaddr = 10.20.0.0/16\n    secret = {pw[2]}\n}}", "password assignment",
             "FreeRADIUS client", pw[2]),
        Case(f"[security]\nadmin_user = admin\nadmin_password = {pw[3]}", "password assignment", "grafana.ini",
             pw[3]),
        Case(f"binddn cn=reader,dc=acme,dc=io\nbindpw {pw[4]}", "password assignment", "nslcd bindpw", pw[4]),
        Case(f"olcRootDN: cn=admin,dc=acme,dc=io\nolcRootPW: {pw[5]}", "password assignment", "OpenLDAP olcRootPW",
             pw[5]),
        Case(f"ldap_default_bind_dn = cn=sssd,dc=acme,dc=io\nldap_default_authtok = {pw[6]}",
             "password assignment", "sssd authtok", pw[6]),
        Case(f"[office]\ntype=friend\nhost=dynamic\nsecret={pw[7]}", "password assignment", "Asterisk sip.conf",
             pw[7]),
        Case(f"<authentication>\n  <source-password>{pw[8]}</source-password>\n</authentication>",
             "password assignment", "Icecast source-password", pw[8]),
        Case(f"signing.keyId=24875D73\nsigning.password={pw[9]}", "password assignment", "Gradle signing.password",
             pw[9]),
        Case(f"quarkus.datasource.username=shop\nquarkus.datasource.password={pw[10]}", "password assignment",
             "Quarkus datasource", pw[10]),
        Case(f"flyway.url=jdbc:postgresql://db/shop\nflyway.user=shop\nflyway.password={pw[11]}",
             "password assignment", "flyway.conf", pw[11]),
        Case(f'db, err := sql.Open("mysql", "shop:{pw[12]}@tcp(db:3306)/shop")', "password assignment",
             "Go sql.Open DSN", pw[12]),
        Case(f'server = smtplib.SMTP_SSL("smtp.acme.io")\nserver.login("ada@acme.io", "{pw[13]}")',
             "password assignment", "Python smtplib login", pw[13]),
        Case(f"ftp = FTP('ftp.acme.io')\nftp.login('ada', '{pw[14]}')", "password assignment", "Python ftplib",
             pw[14]),
        Case(f"Net::SMTP.start('smtp.acme.io', 587, 'acme.io', 'ada', '{pw[15]}', :login)",
             "password assignment", "Ruby Net::SMTP", pw[15]),
        Case(f'nodemailer.createTransport({{ host: "smtp.acme.io", auth: {{ user: "ada", pass: "{pw[16]}" }} }})',
             "password assignment", "nodemailer auth", pw[16]),
        Case(f'$cred = New-Object PSCredential("ada", (Read-Host))\n# the one it wants is {pw[17]}',
             "password assignment", "PowerShell comment", pw[17]),
        Case(f"Set-Secret -Name SqlAdmin -Secret '{pw[18]}'", "password on a command line", "PowerShell Set-Secret",
             pw[18]),
        Case(f"0 3 * * * /usr/bin/mysqldump --user=backup --password={pw[19]} shop | gzip > /srv/shop.sql.gz",
             "password on a command line", "crontab mysqldump", pw[19]),
        Case(f"register => ada:{pw[20]}@sip.acme.io/100", "password assignment", "Asterisk register", pw[20]),
        Case(f"[default]\naccess_key = AKIA{g.chars(UPPER + DIGITS, 16)}\nsecret_key = {g.mixed(B64, 40)}",
             "secret assignment", ".s3cfg", ""),
        Case(f"c.NotebookApp.token = '{g.chars(HEX, 48)}'", "secret assignment", "Jupyter token", ""),
        Case(f"production:\n  secret_key_base: {g.chars(HEX, 128)}", "secret assignment", "Rails secret_key_base",
             ""),
    ]  # fmt: skip


def _commands(g: Gen, pw: list[str]) -> list[Case]:
    """Passwords and tokens on command lines."""
    tskey = f"tskey-auth-{g.mixed(ALNUM, 12)}CNTRL-{g.mixed(ALNUM, 32)}"
    return [
        Case(f"snmpwalk -v3 -l authPriv -u monitor -a SHA -A '{pw[21]}' -x AES -X '{pw[22]}' 10.0.0.1",
             "password on a command line", "snmpwalk -A", pw[21]),
        Case(f"keytool -genkeypair -alias upload -keystore up.jks -keypass {pw[23]} -storepass {pw[23]}",
             "password on a command line", "keytool -keypass", pw[23]),
        Case(f"az login --service-principal -u {g.uuid()} -p '{pw[24]}' --tenant acme.onmicrosoft.com",
             "password on a command line", "az login -p", pw[24]),
        Case(f'gh secret set DEPLOY_TOKEN --body "{g.mixed(ALNUM, 40)}"', "password on a command line",
             "gh secret set", ""),
        Case(f"flyctl secrets set DATABASE_PASSWORD='{pw[25]}' -a shop", "password on a command line",
             "flyctl secrets set", pw[25]),
        Case(f"git config --global sendemail.smtppass '{pw[26]}'", "password on a command line",
             "git sendemail.smtppass", pw[26]),
        Case(f"export RESTIC_PASSWORD='{pw[27]}'\nrestic -r s3:s3.amazonaws.com/bk backup ~/docs",
             "password assignment", "restic password", pw[27]),
        Case(f"BORG_PASSPHRASE='{pw[28]}' borg create ::'{{now}}' ~/docs", "password assignment",
             "borg passphrase", pw[28]),
        Case(f"x11vnc -display :0 -passwd {pw[29]} -forever", "password on a command line", "x11vnc -passwd",
             pw[29]),
        Case(f"xfreerdp /v:10.0.0.7 /u:ada /p:{pw[30]} /cert:ignore", "password on a command line", "xfreerdp /p:",
             pw[30]),
        Case(f"rdesktop -u ada -p '{pw[31]}' 10.0.0.8", "password on a command line", "rdesktop -p", pw[31]),
        Case(f"ipmitool -I lanplus -H 10.0.0.9 -U ADMIN -P '{pw[32]}' chassis power status",
             "password on a command line", "ipmitool -P", pw[32]),
        Case(f"mc alias set store https://minio.acme.io ci {g.mixed(ALNUM, 40)}", "password on a command line",
             "minio mc alias", ""),
        Case(f"s3cmd --access_key=ci --secret_key={g.mixed(B64, 40)} ls s3://bk", "password on a command line",
             "s3cmd --secret_key", ""),
        Case(f"ngrok config add-authtoken {g.mixed(ALNUM, 27)}_{g.mixed(ALNUM, 21)}", "password on a command line",
             "ngrok authtoken", ""),
        Case(f"tailscale up --authkey {tskey}", "password on a command line", "tailscale authkey", tskey),
        Case(f"gitlab-runner register --url https://gitlab.acme.io --registration-token GR1348941{g.mixed(ALNUM, 20)}",
             "password on a command line", "gitlab-runner register", ""),
        Case(f"influx -host db -username ada -password '{pw[33]}' -execute 'SHOW DATABASES'",
             "password on a command line", "influx -password", pw[33]),
        Case(f"wget --user=ada --password='{pw[34]}' https://files.acme.io/a.tar", "password on a command line",
             "wget --password", pw[34]),
        Case(f"fastlane match appstore\n# MATCH_PASSWORD={pw[35]}", "password assignment", "fastlane MATCH_PASSWORD",
             pw[35]),
    ]  # fmt: skip


def _prose_and_keys(g: Gen, pw: list[str]) -> list[Case]:
    """Passwords in prose of several languages, and key bodies."""
    monero = g.chars(HEX, 64)
    solana = json.dumps([g.rng.randint(0, 255) for _ in range(64)])
    ppk_body = base64.b64encode(g.rng.randbytes(48)).decode()
    nostr = "nsec1" + g.chars("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58)
    return [
        Case(f"la password del router è {pw[36]}, non cambiarla", "password assignment", "password è (Italian)",
             pw[36]),
        Case(f"ルーターのパスワードを {pw[37]} に変えました", "password assignment", "changed to (Japanese)", pw[37]),
        Case(f"le mot de passe du NAS est maintenant {pw[38]}.", "password assignment", "mot de passe (French)",
             pw[38]),
        Case(f"creds for the staging db → shop / {pw[39]}", "password assignment", "creds arrow (English)", pw[39]),
        Case(f"het wachtwoord van de kluis: {pw[40]}", "password assignment", "wachtwoord van (Dutch)", pw[40]),
        Case(f"Zugangsdaten: Benutzer ada, Passwort {pw[41]}", "password assignment", "Zugangsdaten (German)", pw[41]),
        Case(f"the wifi passphrase got rotated, it is {pw[42]} until friday", "password assignment",
             "passphrase rotated (English)", pw[42]),
        Case(f"root's pwd on the bastion is {pw[43]} fyi", "password assignment", "pwd on (English)", pw[43]),
        Case(f"monero wallet spend key (private): {monero}", "wallet private key", "Monero spend key", monero),
        Case(f"~/.config/solana/id.json\n{solana}", "wallet private key", "Solana keypair array", solana),
        Case(f"nostr private key {nostr}", "wallet private key", "Nostr nsec", nostr),
        Case(f"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\n{ppk_body}",
             "private key", "PuTTY ppk private lines", ppk_body),
        Case(f"X-Internal-Auth-Key: {g.mixed(B64URL, 43)}", "secret assignment", "internal auth header", ""),
        Case(f"webhook signing secret (rotate quarterly): {g.mixed(ALNUM, 32)}", "secret assignment",
             "signing secret prose", ""),
        Case(f"SENTRY_AUTH_TOKEN: {g.chars(HEX, 64)}", "secret assignment", "Sentry auth token hex", ""),
        Case(f"session.cookie_secret = \"{g.mixed(B64, 44)}\"", "secret assignment", "cookie secret", ""),
        Case(f"privateKeyHex := \"{g.chars(HEX, 64)}\"", "wallet private key", "Go private key hex", ""),
        Case(f"CLIENT_CREDENTIALS={g.mixed(ALNUM, 24)}:{g.mixed(B64URL, 40)}", "secret assignment",
             "client credentials pair", ""),
    ]  # fmt: skip


def blind4_secrets(g: Gen) -> list[Case]:
    """Secrets of the sixth held-out part (a case whose secret is '' has it as the longest token of its text)."""
    pw = _passwords(g)
    cases = [*_connections(g, pw), *_commands(g, pw), *_prose_and_keys(g, pw)]
    return [Case(c.text, c.kind, c.vendor, c.secret or _longest(c.text)) for c in cases]


def _longest(text: str) -> str:
    """The longest token of text, split at quotes, '=', ':' and spaces (the generated value)."""
    return max(re.split(r"[\s\"'=:]+", text), key=len)


def blind4_lookalikes(g: Gen) -> list[Case]:
    """Look-alikes of the sixth held-out part."""
    texts = [
        f"github.com/acme/lib v1.4.2 h1:{g.b64_bytes(32)}",
        f'<script src="/app.js" integrity="sha512-{g.b64_bytes(64)}"></script>',
        f'checksum = "{g.chars(HEX, 64)}"',
        f"commit {g.chars(HEX, 40)}\nAuthor: Ada <ada@acme.io>",
        f'ETag: W/"{g.chars(HEX, 32)}"',
        f"traceparent: 00-{g.chars(HEX, 32)}-{g.chars(HEX, 16)}-01",
        f'nonce="{g.chars(HEX, 32)}", opaque="{g.chars(HEX, 32)}"',
        f"PublicKey = {g.b64_bytes(32)}",
        f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ{g.mixed(B64, 60)} ada@laptop",
        f'gpg: key {g.chars(HEX.upper(), 16)}: public key "Ada <ada@acme.io>" imported',
        f"recipient age1{g.chars('qpzry9x8gf2tvdw0s3jn54khce6mua7l', 58)}",
        f"request_id={g.uuid()} status=200 duration=31ms",
        "PasswordAuthentication no\nPubkeyAuthentication yes",
        "PASS_MAX_DAYS   90\nPASS_MIN_LEN    12",
        "credential_process = aws-vault exec prod --json",
        "git config --global credential.helper 'cache --timeout=3600'",
        'auth_basic "Restricted area";\nauth_basic_user_file /etc/nginx/.htpasswd;',
        "dk = hashlib.pbkdf2_hmac('sha256', password.encode(), salt, 600_000)",
        "docker login --username ci --password-stdin < /run/secrets/registry",
        "gpg --list-secret-keys --keyid-format=long",
        "aws secretsmanager get-secret-value --secret-id prod/shop/db --query SecretString",
        "kubectl get secret shop-db -o jsonpath='{.data.password}' | base64 -d",
        'ssh-keygen -t ed25519 -C "ada@acme.io" -f ~/.ssh/id_deploy',
        'private_key_path = "~/.ssh/id_ed25519"',
        "password_min_length = 12\npassword_require_symbol = true",
        'password_reset_url = "https://acme.io/account/reset"',
        "token_ttl_seconds: 3600\nauth_timeout: 30s",
        'api_key_header = "X-Api-Key"',
        'secret_name: "shop-db-credentials"',
        "credentials_file: /etc/gcp/service-account.json",
        "TOKEN_TYPE=Bearer",
        "PASSWORD_HASHERS = ['django.contrib.auth.hashers.Argon2PasswordHasher']",
        "snowsql --authenticator externalbrowser -a acme",
        "keytool -genkeypair -keyalg RSA -keysize 4096 -storetype PKCS12",
        'password: "{{ vault_db_password }}"',
        "DB_PASSWORD=${DB_PASSWORD:?must be set}",
        'db_pass = os.environ["DB_PASS"]',
        "authToken: process.env.AUTH_TOKEN,",
        "smtp_password: <your SMTP password>",
        'api_secret = "xxxxxxxxxxxxxxxxxxxxxxxx"',
        "SECRET_KEY=changeme",
        f"np.random.seed({g.digits(8)}); torch.manual_seed(0)",
        "Cache-Control: private, max-age=0, no-store",
        '"private": true,\n"packageManager": "pnpm@9.1.0"',
        "passwordless sudo for the deploy group (NOPASSWD: ALL)",
        f'tokenizer = AutoTokenizer.from_pretrained("{g.chars(LOWER, 5)}-base-uncased")',
        f"keyring: fingerprint {' '.join(g.chars(HEX.upper(), 4) for _ in range(10))}",
        f"Solana pubkey {g.chars(_BASE58, 44)}",
        f"order #{g.digits(9)} paid, auth code {g.digits(6)}",
        f"build-{g.digits(5)}-{g.chars(LOWER + DIGITS, 7)} passed in {g.digits(3)}s",
    ]
    return [Case(text, None, "blind4 look-alike") for text in texts]
