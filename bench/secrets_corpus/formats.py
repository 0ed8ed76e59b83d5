"""The second round's tuning part: credentials in many more real-world formats (providers' tokens, config
files, key files, wallets, passwords in prose and on command lines), and look-alikes of the same sorts.

Every value is random in its documented shape; none is a real credential."""

from __future__ import annotations

import base64
import json

from .gen import ALNUM, B64, B64URL, BASE32, DIGITS, HEX, LOWER, UPPER, Case, Gen
from .keyfiles import der_private_key, openssh_private_key, pem_lines, ppk_file, seed_words

_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_SECRET = "secret assignment"
_PASSWORD = "password assignment"


def _tokens(g: Gen) -> list[Case]:
    """Provider tokens with a prefix of their own, each in a different everyday phrasing."""
    tokens = [
        ("Fireworks API key", "fw_" + g.mixed(ALNUM, 24)),
        ("Voyage API key", "pa-" + g.mixed(B64URL, 43)),
        ("Cerebras API key", "csk-" + g.chars(LOWER + DIGITS, 48)),
        ("Langfuse secret key", f"sk-lf-{g.uuid()}"),
        ("Tavily API key", "tvly-" + g.mixed(ALNUM, 32)),
        ("ElevenLabs API key", "sk_" + g.chars(HEX, 48)),
        ("Bitbucket app password", "ATBB" + g.mixed(ALNUM, 32)),
        ("GitLab runner registration token", "GR1348941" + g.mixed(B64URL, 20)),
        ("GitHub refresh token", "ghr_" + g.mixed(ALNUM, 76)),
        ("GitLab CI job token", "glcbt-64_" + g.mixed(B64URL, 20)),
        ("Atlassian API token", "ATATT3xFfGF0" + g.mixed(B64URL, 170) + "=" + g.chars(HEX, 8).upper()),
        ("GCP refresh token", "1//0" + g.mixed(B64URL, 100)),
        ("AWS Bedrock API key", "ABSKQmVkcm9ja0FQSUtleS" + g.mixed(B64, 110)),
        ("Cloudflare origin CA key", f"v1.0-{g.chars(HEX, 24)}-{g.chars(HEX, 146)}"),
        ("Yandex IAM token", "t1.9euelZ" + g.mixed(B64URL, 150)),
        ("Yandex API key", "AQVN" + g.mixed(B64URL, 36)),
        ("Supabase secret key", "sb_secret_" + g.mixed(B64URL, 31)),
        ("PlanetScale token", "pscale_tkn_" + g.mixed(B64URL, 43)),
        ("Pulumi token", "pul-" + g.chars(HEX, 40)),
        ("Terraform Cloud token", f"{g.mixed(ALNUM, 14)}.atlasv1.{g.mixed(ALNUM, 67)}"),
        ("Doppler service token", "dp.st.prd." + g.mixed(ALNUM, 43)),
        ("1Password service account token", "ops_eyJzaWduSW5BZGRyZXNzIjoi" + g.mixed(B64, 300)),
        ("Firebase Cloud Messaging key", f"AAAA{g.mixed(B64URL, 7)}:APA91b{g.mixed(B64URL, 134)}"),
        ("Slack config token", "xoxe.xoxp-1-" + g.mixed(ALNUM, 164)),
        ("Twitch OAuth token", "oauth:" + g.chars(LOWER + DIGITS, 30)),
        ("Stripe test key", "sk_test_51" + g.mixed(ALNUM, 97)),
        ("Square OAuth token", "sq0atp-" + g.mixed(B64URL, 22)),
        ("Mollie API key", "live_" + g.mixed(ALNUM, 30)),
        ("Plaid access token", f"access-production-{g.uuid()}"),
        (
            "Paddle API key",
            "pdl_live_apikey_" + g.mixed(ALNUM, 26) + "_" + g.mixed(ALNUM, 22) + "_" + g.mixed(ALNUM, 3),
        ),
        ("RubyGems API key", "rubygems_" + g.chars(HEX, 48)),
        ("NuGet API key", "oy2" + g.chars(LOWER + DIGITS, 43)),
        ("crates.io token", "cio" + g.mixed(ALNUM, 32)),
        ("JFrog API key", "AKCp" + g.mixed(ALNUM, 69)),
        ("Clojars token", "CLOJARS_" + g.chars(LOWER + DIGITS, 60)),
        ("Shippo token", "shippo_live_" + g.chars(HEX, 40)),
        ("Mapbox secret token", f"sk.eyJ1Ijoi{g.mixed(ALNUM, 20)}.{g.mixed(B64URL, 22)}"),
        ("Contentful token", "CFPAT-" + g.mixed(B64URL, 43)),
        ("Airtable token", f"pat{g.mixed(ALNUM, 14)}.{g.chars(HEX, 64)}"),
        ("Typeform token", f"tfp_{g.mixed(B64URL, 44)}_{g.mixed(B64URL, 14)}"),
        ("Facebook access token", "EAAG" + g.mixed(ALNUM, 180)),
        ("Twitter bearer token", "AAAAAAAAAAAAAAAAAAAAA" + g.mixed(ALNUM, 30) + "%3D" + g.mixed(ALNUM, 50)),
        ("Sendinblue key", f"xkeysib-{g.chars(HEX, 64)}-{g.mixed(ALNUM, 16)}"),
        ("Resend API key", f"re_{g.mixed(ALNUM, 8)}_{g.mixed(ALNUM, 24)}"),
        ("EasyPost key", "EZAK" + g.chars(HEX, 54)),
        ("Dropbox token", "sl." + g.mixed(B64URL, 136)),
        ("Sourcegraph token", f"sgp_{g.chars(HEX, 16)}_{g.chars(HEX, 40)}"),
        ("Buildkite token", "bkua_" + g.chars(LOWER + DIGITS, 40)),
        ("CircleCI token", f"CCIPAT_{g.mixed(ALNUM, 22)}_{g.chars(HEX, 40)}"),
        ("SonarQube token", "squ_" + g.chars(HEX, 40)),
        ("Prefect key", "pnu_" + g.mixed(ALNUM, 36)),
        ("Octopus Deploy key", "API-" + g.chars(UPPER + DIGITS, 26)),
        ("Harness token", f"pat.{g.mixed(B64URL, 22)}.{g.mixed(ALNUM, 24)}.{g.mixed(ALNUM, 20)}"),
        ("Grafana Cloud token", "glc_" + g.mixed(B64, 80) + "=="),
        ("Sentry org token", "sntrys_eyJpYXQiOjE3" + g.mixed(B64, 150)),
        ("New Relic insert key", "NRII-" + g.mixed(B64URL, 32)),
        ("PostHog personal key", "phx_" + g.mixed(ALNUM, 43)),
        ("Segment token", "sgp_" + g.mixed(ALNUM, 64)),
        ("HubSpot private app token", f"pat-na1-{g.uuid()}"),
        ("Salesforce session token", f"00D{g.mixed(ALNUM, 12)}!{g.mixed(ALNUM + '._', 96)}"),
        ("Adafruit IO key", "aio_" + g.mixed(ALNUM, 28)),
        ("Lichess token", "lip_" + g.mixed(ALNUM, 20)),
        ("ClickUp token", f"pk_{g.digits(8)}_{g.chars(UPPER + DIGITS, 32)}"),
        ("Databricks token", "dapi" + g.chars(HEX, 32) + "-2"),
        ("Render deploy hook key", "rnd_" + g.mixed(ALNUM, 32)),
        ("Heroku OAuth token", "HRKU-" + g.mixed(B64URL, 60)),
        ("DigitalOcean OAuth token", "doo_v1_" + g.chars(HEX, 64)),
        ("Linear OAuth token", "lin_oauth_" + g.chars(HEX, 64)),
        ("Modal token secret", "as-" + g.mixed(ALNUM, 22)),
        ("Vault batch token", "hvb." + g.mixed(B64URL, 150)),
        ("Infracost key", "ico-" + g.mixed(ALNUM, 32)),
        ("Scalingo token", "tk-us-" + g.mixed(B64URL, 48)),
        ("Duffel token", "duffel_live_" + g.mixed(B64URL, 43)),
        ("Frame.io token", "fio-u-" + g.mixed(B64URL, 64)),
        ("Readme key", "rdme_" + g.chars(LOWER + DIGITS, 70)),
        ("Nightfall key", "NF-" + g.mixed(ALNUM, 32)),
        ("OpenShift token", "sha256~" + g.mixed(B64URL, 43)),
        ("Azure DevOps PAT", g.chars(LOWER + "234567", 52)),
        ("Azure container registry password", g.mixed(ALNUM + "+/", 42) + "+ACR" + g.mixed(ALNUM, 6)),
    ]
    phrasings = [
        "{t}", "the key is {t}", "token: {t}", "here: {t}", "I pasted {t} into the settings page",
        "export API_TOKEN={t}", "`{t}` is the one for prod", "credentials = \"{t}\"", "it printed {t} once",
        "{t} <- this one expires monday", "use `{t}`", "new key {t}", "auth {t}", "API_KEY='{t}'",
        "config.set('token', '{t}')", "\"key\": \"{t}\"",
    ]  # fmt: skip
    return [
        Case(phrasings[i % len(phrasings)].format(t=token), _SECRET, vendor, token)
        for i, (vendor, token) in enumerate(tokens)
    ]


def _keyword_values(g: Gen) -> list[Case]:
    """Values with no prefix of their own, named by a keyword (in several languages and syntaxes)."""
    cases = [
        ("MISTRAL_API_KEY={v}", "Mistral API key", g.mixed(ALNUM, 32)),
        ("co = cohere.Client('{v}')  # cohere api key", "Cohere API key", g.mixed(ALNUM, 40)),
        ("together api key {v}", "Together API key", g.chars(HEX, 64)),
        ("DEEPGRAM_API_KEY: {v}", "Deepgram API key", g.chars(HEX, 40)),
        ('assemblyai.settings.api_key = "{v}"', "AssemblyAI API key", g.chars(HEX, 32)),
        ("CLOUDFLARE_API_TOKEN={v}", "Cloudflare API token", g.mixed(B64URL, 40)),
        ("linode-cli --token {v}", "Linode token", g.chars(HEX, 64)),
        ("HCLOUD_TOKEN={v}", "Hetzner token", g.mixed(ALNUM, 64)),
        ("RAILWAY_TOKEN={v}", "Railway token", g.uuid()),
        ("atlas private key: {v}", "MongoDB Atlas key", g.uuid()),
        ("zulip api_key={v}", "Zulip API key", g.mixed(ALNUM, 32)),
        ("pushover app token {v}", "Pushover token", g.chars(LOWER + DIGITS, 30)),
        ("LINE_CHANNEL_ACCESS_TOKEN={v}", "LINE channel token", g.mixed(B64, 172)),
        ("PAYPAL_CLIENT_SECRET={v}", "PayPal client secret", g.mixed(B64URL, 80)),
        ("wise api token: {v}", "Wise token", g.uuid()),
        ("gitea access token {v}", "Gitea token", g.chars(HEX, 40)),
        ("AZURE_OPENAI_KEY={v}", "Azure OpenAI key", g.chars(HEX, 32)),
        ("Ocp-Apim-Subscription-Key: {v}", "Azure APIM key", g.chars(HEX, 32)),
        ("X-Auth-Token: {v}", "auth token header", g.mixed(B64URL, 48)),
        ("PRIVATE-TOKEN: {v}", "GitLab private token header", g.mixed(B64URL, 26)),
        ("-H 'X-Api-Key: {v}'", "API key header", g.mixed(ALNUM, 36)),
        ('curl -H "Authorization: Token {v}" https://api.acme.io/v2/', "Authorization token header", g.chars(HEX, 40)),
        ("Authorization: Bot {v}", "Authorization bot header", g.mixed(B64URL, 59)),
        ("apiKey: '{v}',", "apiKey in JS", g.mixed(B64URL, 39)),
        ('"clientSecret": "{v}"', "clientSecret in JSON", g.mixed(B64URL, 34)),
        ("signing_key = {v}", "signing key", g.b64_bytes(32)),
        ("ENCRYPTION_KEY={v}", "encryption key", g.chars(HEX, 64)),
        ("MASTER_KEY={v}", "master key", g.b64_bytes(32)),
        ("webhook secret: {v}", "webhook secret", g.mixed(ALNUM, 40)),
        ("SESSION_SECRET={v}", "session secret", g.mixed(B64URL, 48)),
        ("der Schlüssel lautet {v}", "key (German)", g.mixed(ALNUM, 32)),
        ("Zugangsdaten: {v}", "credentials (German)", g.mixed(B64URL, 40)),
        ("la clé API : {v}", "API key (French)", g.mixed(ALNUM, 40)),
        ("mon jeton est {v}", "token (French)", g.mixed(B64URL, 36)),
        ("identifiants : {v}", "credentials (French)", g.mixed(ALNUM, 32)),
        ("la clave de la API es {v}", "API key (Spanish)", g.mixed(ALNUM, 32)),
        ("mis credenciales: {v}", "credentials (Spanish)", g.mixed(B64URL, 40)),
        ("el token es {v}", "token (Spanish)", g.mixed(ALNUM, 40)),
        ("接口密钥：{v}", "key (Chinese)", g.mixed(ALNUM, 32)),
        ("访问令牌是 {v}", "token (Chinese)", g.mixed(B64URL, 40)),
        ("秘钥为{v}", "key (Chinese)", g.chars(HEX, 32)),
        ("凭证：{v}", "credentials (Chinese)", g.mixed(ALNUM, 36)),
        ("APIトークンは {v} です", "token (Japanese)", g.mixed(ALNUM, 40)),
        ("秘密鍵: {v}", "private key (Japanese)", g.mixed(B64, 44)),
        ("認証情報は{v}", "credentials (Japanese)", g.mixed(ALNUM, 32)),
        ("APIキー：{v}", "API key (Japanese)", g.mixed(ALNUM, 32)),
        ("ключ API: {v}", "API key (Russian)", g.mixed(ALNUM, 32)),
        ("la chiave è {v}", "key (Italian)", g.mixed(ALNUM, 32)),
        ("a chave de acesso é {v}", "access key (Portuguese)", g.mixed(ALNUM, 32)),
        ("use {v} as the api token for staging", "token named after the value", g.mixed(ALNUM, 40)),
    ]
    return [Case(text.format(v=value), _SECRET, vendor, value) for text, vendor, value in cases]


def _pairs(g: Gen) -> list[Case]:
    """Key ids beside their secret keys, with no keyword on the secret."""
    aws, aws2 = g.mixed(B64, 40), g.mixed(B64, 40)
    goog = g.mixed(B64, 40)
    scw = g.uuid()
    do_secret = g.mixed(B64, 43)
    b2 = "K00" + g.mixed(B64, 28)
    return [
        Case(f"AKIA{g.chars(BASE32, 16)} {aws}", "AWS secret access key", "AWS key pair (bare)", aws),
        Case(f"keys: AKIA{g.chars(BASE32, 16)} / {aws2}", "AWS secret access key", "AWS key pair (bare)", aws2),
        Case(f"GOOG1E{g.chars(UPPER + DIGITS, 55)}:{goog}", "secret assignment", "GCP HMAC key pair", goog),
        Case(f"SCW{g.chars(UPPER + DIGITS, 17)} {scw}", "secret assignment", "Scaleway key pair", scw),
        Case(f"spaces key DO00{g.chars(UPPER + DIGITS, 16)} secret {do_secret}", "secret assignment",
             "DigitalOcean Spaces pair", do_secret),
        Case(f"b2 authorize-account 00{g.chars(HEX, 23)} {b2}", "secret assignment", "Backblaze B2 pair", b2),
    ]  # fmt: skip


def _urls(g: Gen) -> list[Case]:
    pw = [g.url_password() for _ in range(8)]
    sig = g.b64_bytes(32).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    token, apikey, access, secret = g.mixed(ALNUM, 32), g.mixed(ALNUM, 32), g.mixed(B64URL, 64), g.mixed(ALNUM, 40)
    code = g.mixed(B64URL, 40)
    hook, wecom, rocket = g.mixed(ALNUM, 24), g.uuid(), g.mixed(ALNUM, 24) + "/" + g.mixed(ALNUM, 48)
    return [
        Case(f"ftp://backup:{pw[0]}@ftp.acme.io/dumps/", "URL with a password", "ftp URL", pw[0]),
        Case(f"sftp://deploy:{pw[1]}@10.0.0.7:22/srv", "URL with a password", "sftp URL", pw[1]),
        Case(f"SMTP_URL=smtps://mailer:{pw[2]}@smtp.acme.io:465", "URL with a password", "smtp URL", pw[2]),
        Case(f"jdbc:postgresql://db.acme.io:5432/shop?user=app&password={pw[3]}", "URL with a password",
             "JDBC URL", pw[3]),
        Case(f"pip install -i https://__token__:{pw[4]}@pypi.acme.io/simple acme-sdk", "URL with a password",
             "pip index URL", pw[4]),
        Case(f"https://oauth2:{pw[5]}@gitlab.acme.io/team/app.git", "URL with a password", "git https URL", pw[5]),
        Case(f"amqps://svc:{pw[6]}@b-1234.mq.us-east-1.amazonaws.com:5671", "URL with a password", "amqps URL",
             pw[6]),
        Case(f"ldaps://cn=admin:{pw[7]}@ldap.acme.io", "URL with a password", "ldap URL", pw[7]),
        Case(f"https://acme.queue.core.windows.net/jobs?sig={sig}&sv=2021-08-06&se=2026-01-01&sp=raup",
             "URL with a token", "Azure SAS URL (sig first)", sig),
        Case(f"GET https://api.acme.io/v1/report?token={token}&fmt=csv", "URL with a token", "token in URL", token),
        Case(f"https://maps.acme.io/tiles/3/4/2.png?apikey={apikey}", "URL with a token", "apikey in URL", apikey),
        Case(f"https://graph.acme.io/me?access_token={access}", "URL with a token", "access_token in URL", access),
        Case(f"https://acme.io/api?client_id=web&client_secret={secret}", "URL with a token", "client_secret in URL",
             secret),
        Case(f"https://acme-fn.azurewebsites.net/api/ingest?code={code}", "URL with a token", "Azure Function key",
             code),
        Case(f"https://hooks.slack.com/workflows/T{g.chars(UPPER + DIGITS, 9)}/A{g.chars(UPPER + DIGITS, 10)}/"
             f"{g.digits(18)}/{hook}", "webhook URL", "Slack workflow webhook", hook),
        Case(f"https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key={wecom}", "URL with a token", "WeCom webhook",
             wecom),
        Case(f"https://chat.acme.io/hooks/{rocket}", "webhook URL", "Rocket.Chat webhook", rocket),
    ]  # fmt: skip


def _config(g: Gen) -> list[Case]:
    docker = base64.b64encode(f"robot$ci:{g.mixed(ALNUM, 32)}".encode()).decode()
    k8s_pw = g.password(16)
    k8s_secret = base64.b64encode(k8s_pw.encode()).decode()
    kube_token = g.chars(HEX, 32)
    sa_key = "\n".join(["-----BEGIN PRIVATE KEY-----", *pem_lines(der_private_key(g, 300, pkcs8=True)),
                        "-----END PRIVATE KEY-----"])  # fmt: skip
    service_account = json.dumps({"type": "service_account", "project_id": "acme-prod", "private_key_id":
                                  g.chars(HEX, 40), "private_key": sa_key + "\n", "client_email":
                                  "ci@acme-prod.iam.gserviceaccount.com"})  # fmt: skip
    pw = [g.password(g.rng.randint(10, 18)) for _ in range(12)]
    symfony = g.chars(HEX, 32)
    flask = g.mixed(B64URL, 40)
    nextauth = g.b64_bytes(32)
    xml = g.mixed(ALNUM, 32)
    return [
        Case(f'{{"auths": {{"https://index.docker.io/v1/": {{"auth": "{docker}"}}}}}}', "basic auth credentials",
             "Docker config auth", docker),
        Case(f"apiVersion: v1\nkind: Secret\ndata:\n  password: {k8s_secret}", _SECRET, "Kubernetes Secret data",
             k8s_secret),
        Case(f"- name: ci\n  user:\n    token: {kube_token}", _SECRET, "kubeconfig token", kube_token),
        Case(service_account, "PEM private key", "GCP service account JSON", sa_key.splitlines()[2]),
        Case(f"machine github.com login octocat password {pw[0]}", _PASSWORD, ".netrc one line", pw[0]),
        Case(f"[pypi]\nusername = __token__\npassword = {pw[1]}", _PASSWORD, ".pypirc password", pw[1]),
        Case(f'db_password = "{pw[2]}"\ndb_user = "app"', _PASSWORD, "terraform.tfvars", pw[2]),
        Case(f'"ConnectionStrings": {{"Db": "Server=sql1;Database=shop;User Id=app;Password={pw[3]};"}}', _PASSWORD,
             "appsettings connection string", pw[3]),
        Case(f"$db_pass = '{pw[4]}';", _PASSWORD, "PHP variable", pw[4]),
        Case(f"jdbc.password={pw[5]}", _PASSWORD, "Java properties", pw[5]),
        Case(f"<apiKey>{xml}</apiKey>", _SECRET, "XML element", xml),
        Case(f"mysql:\n  host: db\n  password: {pw[6]}\n  user: app", _PASSWORD, "YAML password", pw[6]),
        Case(f"[database]\npass = {pw[7]}", _PASSWORD, "INI pass", pw[7]),
        Case(f"environment:\n  - POSTGRES_PASSWORD={pw[8]}", _PASSWORD, "docker-compose env", pw[8]),
        Case(f"APP_SECRET={symfony}", _SECRET, "Symfony APP_SECRET", symfony),
        Case(f"app.config['SECRET_KEY'] = '{flask}'", _SECRET, "Flask SECRET_KEY", flask),
        Case(f"NEXTAUTH_SECRET={nextauth}", _SECRET, "NextAuth secret", nextauth),
        Case(f"  password: '{pw[9]}'  # prod", _PASSWORD, "YAML password", pw[9]),
        Case(f"psql 'host=db.acme.io dbname=shop user=app password={pw[10]}'", _PASSWORD, "libpq DSN", pw[10]),
        Case(f"RABBITMQ_DEFAULT_PASS={pw[11]}", _PASSWORD, "env PASS", pw[11]),
    ]  # fmt: skip


def _command_lines(g: Gen) -> list[Case]:
    pw = [g.password(g.rng.randint(10, 16)) for _ in range(14)]
    return [
        Case(f"mariadb -uroot -p{pw[0]} shop", "password on a command line", "mariadb -p", pw[0]),
        Case(f"mysqldump --user=root --password={pw[1]} shop > shop.sql", _PASSWORD, "--password=", pw[1]),
        Case(f"redis-cli -h cache.acme.io -a {pw[2]} ping", "password on a command line", "redis-cli -a", pw[2]),
        Case(f"docker login -u ci -p {pw[3]} registry.acme.io", "password on a command line", "docker login -p",
             pw[3]),
        Case(f"sqlcmd -S db1 -U sa -P {pw[4]} -Q 'select 1'", "password on a command line", "sqlcmd -P", pw[4]),
        Case(f"openssl pkcs12 -export -in c.pem -out c.p12 -passout pass:{pw[5]}", "password on a command line",
             "openssl pass:", pw[5]),
        Case(f"zip -P {pw[6]} backup.zip db.sql", "password on a command line", "zip -P", pw[6]),
        Case(f"7z a -p{pw[7]} archive.7z docs/", "password on a command line", "7z -p", pw[7]),
        Case(f"smbclient //nas/share -U alice%{pw[8]}", "password on a command line", "smbclient -U user%pass",
             pw[8]),
        Case(f"keytool -importcert -keystore ks.jks -storepass {pw[9]} -file ca.crt", "password on a command line",
             "keytool -storepass", pw[9]),
        Case(f"htpasswd -b -c .htpasswd admin {pw[10]}", "password on a command line", "htpasswd -b", pw[10]),
        Case(f"wget --http-user=ci --http-password={pw[11]} https://ci.acme.io/a.tgz", _PASSWORD,
             "wget --http-password", pw[11]),
        Case(f"mongosh 'mongodb://db:27017' -u admin --password {pw[12]}", _PASSWORD, "--password value", pw[12]),
        Case(f"gpg --batch --passphrase {pw[13]} -d secrets.gpg", _PASSWORD, "gpg --passphrase", pw[13]),
    ]  # fmt: skip


def _prose(g: Gen) -> list[Case]:
    pw = [g.password(g.rng.randint(9, 15)) for _ in range(20)]
    mixed = g.mixed(ALNUM, 12)
    pin = g.digits(6)
    cases = [
        ("my password is {p}", "password in prose (English)"),
        ("pw: {p}", "password in prose (English)"),
        ("the vpn pass is {p} btw", "password in prose (English)"),
        ("login: deploy / {p}", "login in prose (English)"),
        ("creds are admin:{p}", "login in prose (English)"),
        ("sign in with user ops and password {p}", "login in prose (English)"),
        ("you can ssh in as root using {p}", "login in prose (English)"),
        ("mein Passwort ist {p}", "password in prose (German)"),
        ("Passwort: {p}", "password in prose (German)"),
        ("mon mot de passe : {p}", "password in prose (French)"),
        ("mdp = {p}", "password in prose (French)"),
        ("mi contraseña es {p}", "password in prose (Spanish)"),
        ("contraseña: {p}", "password in prose (Spanish)"),
        ("登录密码：{p}", "password in prose (Chinese)"),
        ("口令为 {p}", "password in prose (Chinese)"),
        ("パスワード：{p}", "password in prose (Japanese)"),
        ("Wi-Fiのパスワードは{p}", "password in prose (Japanese)"),
        ("la password è {p}", "password in prose (Italian)"),
        ("пароль {p}", "password in prose (Russian)"),
        ("비밀번호는 {p} 입니다", "password in prose (Korean)"),
    ]
    out = [Case(text.format(p=pw[i]), _PASSWORD, vendor, pw[i]) for i, (text, vendor) in enumerate(cases)]
    return [
        *out,
        Case(f"the admin password is {mixed}", _PASSWORD, "password in prose (English)", mixed),
        Case(f"暗証番号は{pin}です", _PASSWORD, "PIN in prose (Japanese)", pin),
        Case(f"PIN code: {pin[::-1]}", _PASSWORD, "PIN in prose", pin[::-1]),
    ]


def _key_files(g: Gen) -> list[Case]:
    ec = pem_lines(b"\x30\x81\x87\x02\x01\x00\x30\x13\x06\x07\x2a\x86\x48\xce\x3d\x02\x01" + g.rng.randbytes(120))
    algorithm = bytes.fromhex("305006092a864886f70d01050d3043") + g.rng.randbytes(0x43)  # PBES2 and its parameters
    encrypted = b"\x04\x82\x04\xd0" + g.rng.randbytes(0x4D0)
    enc = pem_lines(b"\x30\x82" + (len(algorithm) + len(encrypted)).to_bytes(2, "big") + algorithm + encrypted)
    ssh2 = [g.chars(B64, 70) for _ in range(8)]
    ppk, ppk_private = ppk_file(g)
    ppk = ppk.replace("PuTTY-User-Key-File-3", "PuTTY-User-Key-File-2")
    openssh_body = openssh_private_key(g).splitlines()[1:-1]
    pkcs1_body = pem_lines(der_private_key(g, 1180))
    one_line = base64.b64encode(der_private_key(g, 600, pkcs8=True)).decode()
    d = g.b64url(g.rng.randbytes(32))
    jwk = json.dumps({"kty": "EC", "crv": "P-256", "x": g.b64url(g.rng.randbytes(32)),
                      "y": g.b64url(g.rng.randbytes(32)), "d": d})  # fmt: skip
    escaped = "\\n".join(pem_lines(der_private_key(g, 500)))
    return [
        Case("-----BEGIN PRIVATE KEY-----\n" + "\n".join(ec) + "\n-----END PRIVATE KEY-----", "PEM private key",
             "PEM PKCS#8 EC", "\n".join(ec)),
        Case("-----BEGIN ENCRYPTED PRIVATE KEY-----\n" + "\n".join(enc) + "\n-----END ENCRYPTED PRIVATE KEY-----",
             "PEM private key", "PEM encrypted PKCS#8", "\n".join(enc)),
        Case('---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: "rsa-key-20250101"\n' + "\n".join(ssh2)
             + "\n---- END SSH2 ENCRYPTED PRIVATE KEY ----", "PEM private key", "SSH2 private key", "\n".join(ssh2)),
        Case(ppk, "PuTTY private key", "PuTTY PPK v2", ppk_private),
        Case("pasting the middle of id_rsa:\n" + "\n".join(openssh_body), "private key", "OpenSSH body without header",
             "\n".join(openssh_body[:3])),
        Case("\n".join(pkcs1_body), "private key", "PKCS#1 body without header", "\n".join(pkcs1_body[2:5])),
        Case(f"TLS_KEY={one_line}", "private key", "DER key on one line", one_line[:120]),
        Case(f"jwk = {jwk}", "JSON Web Key", "JWK EC private key", d),
        Case(f'"key": "{escaped}"', "private key", "key body in a JSON string", escaped[:120]),
    ]  # fmt: skip


def _wallets(g: Gen) -> list[Case]:
    hexkey = g.chars(HEX, 64)
    wif = g.pick(["K", "L"]) + g.chars(_BASE58, 51)
    ext = [p + g.chars(_BASE58, 111 - len(p)) for p in ("tprv8ZgxMBicQKsPd", "zprvAWgYBBk7JR8Gj")]
    sol = g.chars(_BASE58, 88)
    seeds = [seed_words(g, n) for n in (12, 15, 18, 24)]
    return [
        Case(f"PRIVATE_KEY=0x{hexkey}", "wallet private key", "Ethereum private key", hexkey),
        Case(f"importprivkey {wif}", "wallet private key", "Bitcoin WIF (compressed)", wif),
        Case(f"testnet key {ext[0]}", "wallet private key", "BIP32 tprv", ext[0]),
        Case(ext[1], "wallet private key", "BIP32 zprv", ext[1]),
        Case(f"solana private key: {sol}", _SECRET, "Solana secret key", sol),
        Case(f"my seed phrase is {seeds[0]}", "seed phrase", "BIP39 seed (12)", seeds[0]),
        Case(seeds[1], "seed phrase", "BIP39 seed (15)", seeds[1]),
        Case(
            "mnemonic:\n" + seeds[2].replace(" ", "\n"),
            "seed phrase",
            "BIP39 seed (18, one a line)",
            seeds[2].replace(" ", "\n"),
        ),
        Case(f'MNEMONIC="{seeds[3]}"', "seed phrase", "BIP39 seed (24)", seeds[3]),
    ]


def _recall_shapes(g: Gen) -> list[Case]:
    slack = f"xoxb-{g.digits(12)}-{g.digits(13)}-{g.mixed(ALNUM, 24)}"
    aws = g.mixed(B64, 40)
    secret = g.mixed(ALNUM, 48)
    return [
        Case(f"SLACK_TOKEN={slack[:25]}\n{slack[25:]}", "Slack token", "key split over two lines", slack[25:]),
        Case(f"[redacted AWS access key]\n{aws}", "AWS secret access key", "secret beside a redacted key id", aws),
        Case(f"client_secret:\n  {secret[:30]}\n  {secret[30:]}", _SECRET, "key split over two lines", secret[30:]),
    ]


def format_secrets(g: Gen) -> list[Case]:
    """Secrets of the second round's tuning part."""
    cases = [
        *_tokens(g), *_keyword_values(g), *_pairs(g), *_urls(g), *_config(g), *_command_lines(g), *_prose(g),
        *_key_files(g), *_wallets(g), *_recall_shapes(g), *_everyday(g),
    ]  # fmt: skip
    return [case for case in cases if case.secret is not None]


def format_lookalikes(g: Gen) -> list[Case]:
    """Look-alikes of the second round's tuning part."""
    text_b64 = [base64.b64encode(s.encode()).decode() for s in ("ordinary text, nothing secret here", "key:value")]
    texts = [
        f'    "node_modules/jsonwebtoken": {{"version": "9.0.2", "integrity": "sha512-{g.b64_bytes(64)}"}}',
        f'name = "serde"\nversion = "1.0.210"\nchecksum = "{g.chars(HEX, 64)}"',
        f'{{file = "requests-2.32.3-py3-none-any.whl", hash = "sha256:{g.chars(HEX, 64)}"}}',
        f"golang.org/x/crypto v0.28.0/go.mod h1:{g.b64_bytes(32)}",
        f"  integrity: sha512-{g.b64_bytes(64)}",
        f"FROM python:3.12-slim@sha256:{g.chars(HEX, 64)}",
        f"commit {g.chars(HEX, 40)}\nAuthor: Ada <ada@acme.io>\n\n    fix the token refresh race",
        f"* {g.chars(HEX, 7)} (HEAD -> main) bump pydantic to 2.9.2",
        f"{g.chars(HEX, 64)}  dist/palace-0.1.0.tar.gz",
        f'uid: {g.uuid()}\nresourceVersion: "{g.digits(8)}"',
        f"request_id={g.uuid()} trace_id={g.chars(HEX, 32)} span_id={g.chars(HEX, 16)}",
        "a { color: #3b82f6 } .x { background: #0f172a; border: 1px solid #e2e8f0aa }",
        "org.springframework.boot.autoconfigure.security.oauth2.resource.servlet.OAuth2ResourceServerAutoConfiguration",
        "ThisIsAVeryLongCamelCaseIdentifierForTheTokenRefreshHandlerFactory",
        "test_secret_redaction_keeps_the_marker_and_drops_the_value_when_split",
        f"the fixture is {text_b64[0]}",
        f"cache entry {text_b64[1]}",
        "https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG&index=3",
        "https://example.com/search?q=how+to+rotate+an+api+key&page=2&utm_source=newsletter&utm_campaign=q3",
        f"https://github.com/acme/app/commit/{g.chars(HEX, 40)}?diff=split",
        f"https://docs.google.com/document/d/1{g.mixed(B64URL, 43)}/edit#heading=h.abc",
        "pip install 'django>=4.2.16,<5' numpy==2.1.2 torch==2.5.0+cu124",
        "version 1.2.3-beta.4+exp.sha.5114f85 released",
        f"chunk-vendors.{g.chars(HEX, 8)}.js  app.{g.chars(HEX, 8)}.css",
        "${{ secrets.DEPLOY_TOKEN }} and ${{ secrets.AWS_SECRET_ACCESS_KEY }}",
        "password: '{{ vault_db_password }}'",
        "export GITHUB_TOKEN=$(gh auth token)",
        "DB_PASSWORD_FILE=/run/secrets/db_password",
        "secret_name = prod/db/credentials",
        "token_type: Bearer, expires_in: 3600",
        "the api key header is X-API-Key and the token header is Authorization",
        "Das Passwort muss mindestens 12 Zeichen lang sein.",
        "Le mot de passe a expiré, veuillez le changer.",
        "La contraseña debe tener al menos ocho caracteres.",
        "请输入密码后再登录",
        "パスワードが正しくありません",
        "the secret to good tests is small fixtures",
        "this is a token of our appreciation",
        "about above absent absorb abstract absurd abuse access accident account accuse achieve acid",
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + g.chars(B64, 43) + " deploy@ci",
        "-----BEGIN PUBLIC KEY-----\n" + "\n".join(g.chars(B64, 64) for _ in range(4)) + "\n-----END PUBLIC KEY-----",
        "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n"
        + "\n".join(g.chars(B64, 64) for _ in range(5))
        + "\n="
        + g.chars(B64, 4)
        + "\n-----END PGP PUBLIC KEY BLOCK-----",
        "xpub661MyMwAqRbcF" + g.chars(_BASE58, 94),
        "0x" + g.chars(HEX, 40) + " is the contract address",
        "tx 0x" + g.chars(HEX, 64) + " confirmed in block 19000000",
        "bc1q" + g.chars("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 38) + " is my donation address",
        "ipfs://bafybei" + g.chars("abcdefghijklmnopqrstuvwxyz234567", 52),
        "magnet:?xt=urn:btih:" + g.chars(HEX, 40) + "&dn=ubuntu-24.04.iso",
        "the client_id is 1234567890-" + g.chars(LOWER + DIGITS, 32) + ".apps.googleusercontent.com",
        "AWS account 123456789012, role arn:aws:iam::123456789012:role/deploy",
        "pk_test_" + g.mixed(ALNUM, 24) + " goes in the frontend",
        "the sha256 of the token is " + g.chars(HEX, 64),
        "data:image/png;base64," + g.b64_bytes(60),
        "PGPASSWORD is read by psql from the environment",
        "set max_password_length=128 and token_ttl_seconds=900",
        "my pin is in the safe",
        "ssh -p 2222 deploy@10.0.0.5",
        "mysql -u root -p -h db.local",
        "the NAS password is stored in 1Password under 'NAS'",
        f"Kubernetes secret {g.chars(LOWER, 8)}-token-{g.chars(LOWER + DIGITS, 5)} mounted at /var/run/secrets",
        "https://user@example.com/path is a URL with a user but no password",
        f"the build id is {g.chars(UPPER + DIGITS, 20)}",
    ]
    texts += _everyday_lookalikes(g)
    return [Case(text, None, "look-alike (formats)") for text in texts]


def _everyday(g: Gen) -> list[Case]:
    """Secrets as people paste them: tables, shells, CI files, code, chat."""
    v = [g.mixed(ALNUM, 40) for _ in range(12)]
    pw = [g.password(g.rng.randint(10, 16)) for _ in range(8)]
    hexes = [g.chars(HEX, 32) for _ in range(3)]
    return [
        Case(f"| OPENAI_API_KEY | {v[0]} |", _SECRET, "markdown table row", v[0]),
        Case(f"$env:API_TOKEN = \"{v[1]}\"", _SECRET, "PowerShell env", v[1]),
        Case(f"set SECRET_KEY={v[2]}", _SECRET, "cmd set", v[2]),
        Case(f"heroku config:set STRIPE_SECRET={v[3]} -a shop", _SECRET, "heroku config:set", v[3]),
        Case(f"kubectl create secret generic db --from-literal=password={pw[0]}", _PASSWORD, "kubectl literal",
             pw[0]),
        Case(f"oc login -u dev -p {pw[1]} https://api.ocp.acme.io:6443", "password on a command line",
             "oc login -p", pw[1]),
        Case(f'headers = {{"X-Api-Key": "{v[4]}", "Accept": "application/json"}}', _SECRET, "headers dict", v[4]),
        Case(f'fetch(url, {{ headers: {{ Authorization: `Bearer {v[5]}` }} }})', "bearer token", "JS fetch", v[5]),
        Case(f"requests.get(url, auth=('api', '{v[6]}'))", _SECRET, "requests auth tuple", v[6]),
        Case(f"client = Client(api_key=\"{v[7]}\")", _SECRET, "SDK constructor", v[7]),
        Case(f"  env:\n    DEPLOY_KEY: {v[8]}", _SECRET, "CI env block", v[8]),
        Case(f"token {v[9]} expires tomorrow", _SECRET, "token in chat", v[9]),
        Case(f"ok the new secret: {v[10]}", _SECRET, "secret in chat", v[10]),
        Case(f"@bob here's the key for staging {v[11]}", _SECRET, "key in chat", v[11]),
        Case(f"api key for the weather service → {hexes[0]}", _SECRET, "hex key in chat", hexes[0]),
        Case(f"[api]\nkey = {hexes[1]}", _SECRET, "INI key", hexes[1]),
        Case(f"WEATHER_KEY={hexes[2]}", _SECRET, "env hex key", hexes[2]),
        Case(f"user: admin\npass: {pw[2]}", _PASSWORD, "user/pass lines", pw[2]),
        Case(f"username=svc_backup password={pw[3]}", _PASSWORD, "key=value pair", pw[3]),
        Case(f"the new wifi code is {pw[4]}", _PASSWORD, "wifi code", pw[4]),
        Case(f"db pwd is {pw[5]}", _PASSWORD, "pwd in chat", pw[5]),
        Case(f"Passphrase: {pw[6]}", _PASSWORD, "passphrase", pw[6]),
        Case(f"jdbc:mysql://db:3306/shop?user=root&password={pw[7]}&useSSL=true", "URL with a password",
             "JDBC query password", pw[7]),
    ]  # fmt: skip


def _everyday_lookalikes(g: Gen) -> list[str]:
    return [
        f"csrf_token={g.mixed(ALNUM, 32)} is set by the form", f'"next_page_token": "{g.mixed(B64URL, 40)}"',
        f"key fingerprint SHA256:{g.mixed(B64, 43)}", f"signing key id: {g.chars(HEX, 16).upper()}",
        f"sessionId={g.chars(HEX, 32)}; Path=/; HttpOnly", f"x-request-id: {g.uuid()}",
        f'etag: W/"{g.chars(HEX, 32)}"', "Authorization header missing or malformed", "Bearer token required",
        f'the API key you provided (ending in {g.mixed(ALNUM, 4)}) is invalid', "token_count=123456789012345678",
        f"resource \"aws_instance\" \"web\" {{ id = \"i-0{g.chars(HEX, 16)}\" }}",
        f"Successfully built {g.chars(HEX, 12)}\nSuccessfully tagged acme/api:latest",
        f"the idempotency key {g.uuid()} was reused", f"cache key: user:{g.digits(6)}:profile:v2",
        f"serviceAccountName: default-token-{g.chars(LOWER + DIGITS, 5)}",
        "Set the `PASSWORD` environment variable before running the tests",
        "the secret word in the game was 'banana'", "Enter your password:", "password: (hidden)",
        f"public_key = \"{g.b64_bytes(32)}\"", f"publishableKey: 'pk_live_{g.mixed(ALNUM, 24)}'",
        "a token ring network from 1989", "key points: latency, cost, safety",
        f"the md5 checksum of the key file is {g.chars(HEX, 32)}",
        f"git commit -m 'rotate key' && git push  # {g.chars(HEX, 7)}",
        "Secret Santa list: alice -> bob, bob -> carol",
        f"AUTH_URL=https://auth.acme.io/realms/prod/protocol/openid-connect/token?client_id=web-{g.digits(4)}",
    ]  # fmt: skip
