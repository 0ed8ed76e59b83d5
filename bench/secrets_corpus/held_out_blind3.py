"""The fifth held-out part (issue 22), written after that round's rules were done and run through the detector
only once, to be reported: formats and contexts no other part has (SQL and server config, mail and chat
clients, more commands and languages, more wallets and signing keys), and look-alikes (content ids, share
links, public site keys, references). Never tuned on; its figure is the round's unseen measure.

Every value is random in its documented shape; none is a real credential."""

from __future__ import annotations

import base64
import json

from .gen import ALNUM, B64, B64URL, BASE32, DIGITS, HEX, LOWER, UPPER, Case, Gen
from .keyfiles import seed_words

_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def blind3_secrets(g: Gen) -> list[Case]:
    """Secrets of the fifth held-out part."""
    pw = [g.password(g.rng.randint(11, 16)) for _ in range(30)]
    v = [g.mixed(ALNUM, g.rng.randint(32, 48)) for _ in range(8)]
    mercado = f"APP_USR-{g.digits(16)}-{g.digits(6)}-{g.chars(HEX, 32)}-{g.digits(9)}"
    quick, akamai, steam = g.chars(HEX, 40), g.chars(HEX, 64), base64.b64encode(g.rng.randbytes(20)).decode()
    minisign = "RWQ" + g.mixed(B64, 209)
    zerotier = f"{g.chars(HEX, 10)}:0:{g.chars(HEX, 128)}:{g.chars(HEX, 128)}"
    tezos = "edsk" + g.chars(_BASE58, 50)
    cardano = "5820" + g.chars(HEX, 64)
    algorand = seed_words(g, 25)
    oath = g.chars(BASE32, 32)
    sumo, infura = g.mixed(ALNUM, 64), g.chars(HEX, 32)
    svc = g.mixed(B64URL, 40)
    return [
        Case(f"CREATE USER reporting WITH PASSWORD '{pw[0]}';", "password assignment", "SQL CREATE USER", pw[0]),
        Case(f"ALTER USER app IDENTIFIED BY \"{pw[1]}\";", "password assignment", "SQL IDENTIFIED BY", pw[1]),
        Case(f"# redis.conf\nbind 127.0.0.1\nrequirepass {pw[2]}", "password assignment", "redis requirepass", pw[2]),
        Case(f"listen stats\n    bind :8404\n    stats auth admin:{pw[3]}", "password assignment", "HAProxy stats auth",
             pw[3]),
        Case(f"# /etc/postfix/sasl_passwd\n[smtp.gmail.com]:587 ada.l@gmail.com:{pw[4]}", "password assignment",
             "postfix sasl_passwd", pw[4]),
        Case(f'poll imap.fastmail.com protocol IMAP user "ada" password "{pw[5]}"', "password assignment",
             ".fetchmailrc", pw[5]),
        Case(f'set imap_user = "ada@acme.io"\nset imap_pass = "{pw[6]}"', "password assignment", "muttrc imap_pass",
             pw[6]),
        Case(f"[Repository acme]\nremotehost = imap.acme.io\nremoteuser = ada\nremotepass = {pw[7]}",
             "password assignment", "offlineimap remotepass", pw[7]),
        Case(f"account default\nhost smtp.acme.io\nuser ada\npassword {pw[8]}", "password assignment", "msmtprc",
             pw[8]),
        Case(f"config :shop, Shop.Repo,\n  username: \"shop\",\n  password: \"{pw[9]}\",\n  hostname: \"db\"",
             "password assignment", "Elixir repo config", pw[9]),
        Case(f'db.default.password = "{pw[10]}"', "password assignment", "HOCON password", pw[10]),
        Case(f"'mysql' => ['host' => 'db', 'username' => 'shop', 'password' => '{pw[11]}'],",
             "password assignment", "PHP config array", pw[11]),
        Case(f'my $dbh = DBI->connect("dbi:Pg:dbname=shop", "shop", "{pw[12]}");', "password assignment",
             "Perl DBI connect", pw[12]),
        Case(f'mysql_real_connect(conn, "db", "root", "{pw[13]}", "shop", 0, NULL, 0);', "password assignment",
             "C mysql_real_connect", pw[13]),
        Case(f'const val API_SECRET = "{v[0]}"', "secret assignment", "Kotlin const", v[0]),
        Case(f"final String apiKey = '{v[1]}';", "secret assignment", "Dart literal", v[1]),
        Case(f'Sys.setenv(WEATHER_API_KEY = "{v[2]}")', "secret assignment", "R Sys.setenv", v[2]),
        Case(f"[build.environment]\n  CONTENT_API_TOKEN = \"{v[3]}\"", "secret assignment", "netlify.toml", v[3]),
        Case(f"pulumi config set --secret dbPassword '{pw[14]}'", "password on a command line", "pulumi --secret",
             pw[14]),
        Case(f"helm repo add acme https://charts.acme.io --username ci --password '{pw[15]}'",
             "password on a command line", "helm repo add", pw[15]),
        Case(f"jarsigner -keystore release.jks -storepass {pw[16]} app.apk upload", "password on a command line",
             "jarsigner -storepass", pw[16]),
        Case(f"rar a -p{pw[17]} backup.rar docs/", "password on a command line", "rar -p", pw[17]),
        Case(f"svn checkout https://svn.acme.io/repo --username ada --password '{pw[18]}'",
             "password on a command line", "svn --password", pw[18]),
        Case(f"http -a ada:{pw[19]} https://api.acme.io/v1/me", "basic auth credentials", "httpie -a", pw[19]),
        Case(f"nmcli dev wifi connect Office password '{pw[20]}'", "password on a command line", "nmcli wifi",
             pw[20]),
        Case(f"iwctl --passphrase '{pw[21]}' station wlan0 connect HomeNet", "password on a command line",
             "iwctl --passphrase", pw[21]),
        Case(f"openssl enc -aes-256-cbc -salt -in db.sql -out db.enc -k '{pw[22]}'", "password on a command line",
             "openssl enc -k", pw[22]),
        Case(f'expect "password:"\nsend "{pw[23]}\\r"', "password assignment", "expect send", pw[23]),
        Case(f"管理员账户的密码我改成 {pw[24]} 了", "password assignment", "password changed to (Chinese)", pw[24]),
        Case(f"你的初始密码是：{pw[25]}，登录后请修改", "password assignment", "initial password (Chinese)", pw[25]),
        Case(f"pw for the staging box: {pw[26]}", "password assignment", "pw for (English)", pw[26]),
        Case(f"my password? it's {pw[27]}", "password assignment", "it's X (English)", pw[27]),
        Case(f"la clave del wifi es {pw[28]}", "password assignment", "clave (Spanish)", pw[28]),
        Case(f"пароль от почты: {pw[29]}", "password assignment", "пароль от (Russian)", pw[29]),
        Case(f"MP_ACCESS_TOKEN={mercado}", "secret assignment", "Mercado Pago token", mercado),
        Case(f"RPC=https://frosty-wild-sun.quiknode.pro/{quick}/", "URL with a token", "QuickNode URL", quick),
        Case(f"https://media.acme.io/v/clip.mp4?hdnts=exp=1717003600~acl=/v/*~hmac={akamai}", "URL with a token",
             "Akamai token URL", akamai),
        Case(f'{{"account_name": "ada", "shared_secret": "{steam}", "revocation_code": "R{g.digits(5)}"}}',
             "secret assignment", "Steam Guard maFile", steam),
        Case(f"untrusted comment: minisign encrypted secret key\n{minisign}", "private key", "minisign secret key",
             minisign),
        Case(f"/var/lib/zerotier-one/identity.secret:\n{zerotier}", "private key", "ZeroTier identity.secret",
             zerotier),
        Case(f"octez-client import secret key deployer unencrypted:{tezos}", "wallet private key",
             "Tezos secret key", tezos),
        Case(json.dumps({"type": "PaymentSigningKeyShelley_ed25519", "description": "Payment Signing Key",
                         "cborHex": cardano}), "wallet private key", "Cardano signing key", cardano),
        Case(f"algorand account mnemonic: {algorand}", "seed phrase", "Algorand 25-word mnemonic", algorand),
        Case(f"oathtool --totp -b {oath}", "secret assignment", "oathtool seed", oath),
        Case(f"SUMO_ACCESS_ID=su{g.chars(ALNUM, 12)}\nSUMO_ACCESS_KEY={sumo}", "secret assignment", "Sumo Logic key",
             sumo),
        Case(f"INFURA_PROJECT_SECRET={infura}", "secret assignment", "Infura project secret", infura),
        Case(f"the service account's key is {svc} — don't paste it in slack", "secret assignment",
             "key in prose", svc),
        Case(f"Kennwort für den Drucker: {v[4][:14]}!",
             "password assignment", "Kennwort (German)", v[4][:14] + "!"),
        Case(f"a senha do banco é {v[5][:12]}#", "password assignment", "senha (Portuguese)", v[5][:12] + "#"),
        Case(f"비밀번호는 {v[6][:12]}% 입니다", "password assignment", "비밀번호는 (Korean)", v[6][:12] + "%"),
    ]  # fmt: skip


def blind3_lookalikes(g: Gen) -> list[Case]:
    """Look-alikes of the fifth held-out part."""
    texts = [
        f"pinned to ipfs://bafybei{g.chars('abcdefghijklmnopqrstuvwxyz234567', 52)}",
        f"tx 0x{g.chars(HEX, 64)} confirmed in block {g.digits(8)}",
        f"https://explorer.solana.com/tx/{g.chars(_BASE58, 88)}",
        f'ObjectId("{g.chars(HEX, 24)}") and ulid 01{g.chars("0123456789ABCDEFGHJKMNPQRSTVWXYZ", 24)}',
        f"ksuid {g.mixed(ALNUM, 27)} created",
        "Authorization header looks like: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9 (the header part only)",
        f"Host key fingerprint is SHA256:{g.b64_bytes(32).rstrip('=')}",
        f"oid sha256:{g.chars(HEX, 64)}\nsize {g.digits(6)}",
        f"https://drive.google.com/file/d/1{g.mixed(B64URL, 32)}/view?usp=sharing",
        f"https://www.dropbox.com/scl/fi/{g.chars(LOWER + DIGITS, 21)}/report.pdf?rlkey={g.chars(LOWER + DIGITS, 25)}"
        "&dl=0",
        f'<div class="g-recaptcha" data-sitekey="6Lc{g.mixed(B64URL, 37)}"></div>',
        "password: <redacted>",
        "PASSWORD=******",
        'mysqldump -u root -p"$MYSQL_ROOT_PASSWORD" shop > shop.sql',
        "openssl rand -hex 32 > secret.key",
        "pwgen -s 16 1",
        '{{ with secret "database/creds/app" }}{{ .Data.password }}{{ end }}',
        "vault kv get -field=password secret/db",
        "OPENAI_API_KEY=sk-proj-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
        'api_key: "YOUR_API_KEY"',
        "请输入密码",
        "密码错误次数过多，账户已锁定 30 分钟",
        "The password field is required.",
        'WWW-Authenticate: Basic realm="Restricted"',
        f'terraform.tfstate lineage = "{g.uuid()}", serial = {g.digits(2)}',
        f"image {g.chars(LOWER, 6)}/api@sha256:{g.chars(HEX, 64)}",
        f"build {UPPER[g.rng.randint(0, 25)]}{g.digits(4)} on runner-{g.chars(LOWER + DIGITS, 8)}",
    ]
    return [Case(text, None, "blind3 look-alike") for text in texts]
