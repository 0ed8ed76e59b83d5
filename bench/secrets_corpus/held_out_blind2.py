"""The fourth held-out part (issue 22), written before any of its cases was run through the detector and before
the misses of the other held-out parts were studied: formats and contexts no other part has (HCL, systemd,
.properties, Laravel and Rails files, compose and Kubernetes manifests, CI YAML, more brokers' and databases'
connection strings, signed URLs, OTP seeds, wallet and tunnel keys, prose in more languages), and look-alikes
from lock files, manifests, docs placeholders and public keys. The rules of the round that wrote it were then
tuned on its misses, so its figure is "seen"; held_out_blind3.py is that round's unseen measure.

Every value is random in its documented shape; none is a real credential."""

from __future__ import annotations

import base64
import json

from .gen import ALNUM, B64, B64URL, BASE32, DIGITS, HEX, LOWER, UPPER, Case, Gen
from .keyfiles import openssh_private_key, pem_lines, pgp_private_block


def _jwt(g: Gen, claims: dict[str, object]) -> str:
    """A JWT (HS256) with real JSON header and claims and a random signature."""
    head = g.b64url(b'{"alg":"HS256","typ":"JWT"}')
    return f"{head}.{g.b64url(json.dumps(claims, separators=(',', ':')).encode())}.{g.mixed(B64URL, 43)}"


def _configs(g: Gen) -> list[Case]:
    """Secrets in configuration files and manifests."""
    pw = [g.password(g.rng.randint(12, 18)) for _ in range(24)]
    aws_secret, cf_token, hmac = g.mixed(B64, 40), g.mixed(B64URL, 40), g.chars(HEX, 64)
    signing, jwt_secret, master = g.chars(HEX, 48), g.mixed(ALNUM, 48), g.chars(HEX, 32)
    pusher, fernet, codecov = g.chars(HEX, 20), g.b64url(g.rng.randbytes(32)) + "=", g.uuid()
    salt = g.chars(ALNUM + "!@#$%^&*()-_[]{}<>~`+=,.;:/?|", 64)
    yarn, composer, sidekiq = g.mixed(ALNUM, 36), g.mixed(ALNUM, 40), g.chars(HEX, 8)
    return [
        Case(f'provider "aws" {{\n  region     = "eu-west-1"\n  access_key = "AKIA{g.chars(UPPER + DIGITS, 16)}"\n'
             f'  secret_key = "{aws_secret}"\n}}', "AWS secret access key", "HCL aws provider", aws_secret),
        Case(f'variable "db_password" {{\n  type    = string\n  default = "{pw[0]}"\n}}', "password assignment",
             "HCL variable default", pw[0]),
        Case(f'provider "cloudflare" {{\n  api_token = "{cf_token}"\n}}', "secret assignment", "HCL api_token",
             cf_token),
        Case(f'resource "github_actions_secret" "deploy" {{\n  repository      = "app"\n  secret_name     = '
             f'"DEPLOY_KEY"\n  plaintext_value = "{pw[1]}"\n}}', "secret assignment", "HCL plaintext_value", pw[1]),
        Case(f"[Service]\nUser=app\nEnvironment=\"APP_SIGNING_KEY={signing}\"\nExecStart=/opt/app/bin/server",
             "secret assignment", "systemd Environment=", signing),
        Case(f"# /etc/default/billing (EnvironmentFile)\nDATABASE_PASS={pw[2]}\nLOG_LEVEL=info", "password assignment",
             "systemd EnvironmentFile", pw[2]),
        Case(f"spring.mail.host=smtp.acme.io\nspring.mail.username=noreply\nspring.mail.password={pw[3]}",
             "password assignment", "spring.mail.password", pw[3]),
        Case(f"app.jwt.secret={jwt_secret}\napp.jwt.expiry=3600", "secret assignment", ".properties jwt secret",
             jwt_secret),
        Case(f"-Djavax.net.ssl.keyStorePassword={pw[4]} -Djavax.net.ssl.keyStore=/etc/app/ks.jks",
             "password assignment", "JVM keyStorePassword", pw[4]),
        Case(f"MAIL_MAILER=smtp\nMAIL_HOST=mail.acme.io\nMAIL_USERNAME=app\nMAIL_PASSWORD={pw[5]}",
             "password assignment", "Laravel MAIL_PASSWORD", pw[5]),
        Case(f"PUSHER_APP_ID={g.digits(7)}\nPUSHER_APP_KEY={g.chars(HEX, 20)}\nPUSHER_APP_SECRET={pusher}",
             "secret assignment", "Laravel PUSHER_APP_SECRET", pusher),
        Case(f"REDIS_HOST=127.0.0.1\nREDIS_PASSWORD={pw[6]}\nREDIS_PORT=6379", "password assignment",
             "Laravel REDIS_PASSWORD", pw[6]),
        Case(f"# bin/rails credentials:edit\naws:\n  access_key_id: AKIA{g.chars(UPPER + DIGITS, 16)}\n"
             f"  secret_access_key: {aws_secret[::-1]}", "AWS secret access key", "Rails credentials.yml",
             aws_secret[::-1]),
        Case(f"RAILS_MASTER_KEY={master} bin/rails server", "secret assignment", "RAILS_MASTER_KEY", master),
        Case(f"printf '%s' '{pw[7]}' | docker secret create pg_password -", "password assignment",
             "docker secret create", pw[7]),
        Case(f"  minio:\n    image: minio/minio\n    environment:\n      - MINIO_ROOT_USER=admin\n"
             f"      - MINIO_ROOT_PASSWORD={pw[8]}", "password assignment", "compose env list", pw[8]),
        Case(f"  rabbitmq:\n    environment:\n      RABBITMQ_DEFAULT_USER: app\n      RABBITMQ_DEFAULT_PASS: {pw[9]}",
             "password assignment", "compose env map", pw[9]),
        Case(f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ntype: Opaque\nstringData:\n"
             f"  DATABASE_URL: postgres://app:{pw[10]}@db:5432/app", "URL with a password",
             "Kubernetes stringData URL", pw[10]),
        Case(f"stringData:\n  username: admin\n  password: {pw[11]}", "password assignment",
             "Kubernetes stringData password", pw[11]),
        Case(f"        env:\n        - name: HMAC_SECRET\n          value: \"{hmac}\"", "secret assignment",
             "Kubernetes env value", hmac),
        Case(f"auth:\n  rootPassword: {pw[12]}\n  replicationPassword: {pw[13]}", "password assignment",
             "Helm values passwords", pw[12]),
        Case(f"      - uses: docker/login-action@v3\n        with:\n          registry: ghcr.io\n"
             f"          username: acme\n          password: {pw[14]}", "password assignment",
             "GitHub Actions with: password", pw[14]),
        Case(f"env:\n  CODECOV_TOKEN: {codecov}\njobs:\n  test:\n    runs-on: ubuntu-latest", "secret assignment",
             "GitHub Actions env token", codecov),
        Case(f"variables:\n  DEPLOY_PASSWORD: \"{pw[15]}\"\nstages: [build, deploy]", "password assignment",
             "GitLab CI variables", pw[15]),
        Case(f"environment {{\n    API_KEY = '{yarn[::-1]}'\n}}", "secret assignment", "Jenkinsfile environment",
             yarn[::-1]),
        Case(f"web1 ansible_host=10.0.4.11 ansible_user=deploy ansible_ssh_pass={pw[16]}", "password assignment",
             "Ansible inventory ssh pass", pw[16]),
        Case(f"# group_vars/all.yml\nansible_become_password: {pw[17]}", "password assignment",
             "Ansible become password", pw[17]),
        Case(f'location /api/ {{\n  proxy_set_header X-Api-Key "{cf_token[::-1]}";\n  proxy_pass http://up;\n}}',
             "secret assignment", "nginx header", cf_token[::-1]),
        Case(f'network={{\n    ssid="HomeNet"\n    psk="{pw[18]}"\n}}', "password assignment", "wpa_supplicant psk",
             pw[18]),
        Case(f"interface=wlan0\nssid=Office\nwpa=2\nwpa_passphrase={pw[19]}", "password assignment",
             "hostapd passphrase", pw[19]),
        Case(f"signingConfigs {{\n    release {{\n        storePassword \"{pw[20]}\"\n        keyAlias \"upload\"\n"
             f"        keyPassword \"{pw[20]}\"\n    }}\n}}", "password assignment", "Gradle signing", pw[20]),
        Case(f"MATCH_PASSWORD={pw[21]} bundle exec fastlane ios beta", "password assignment", "fastlane match",
             pw[21]),
        Case(f'npmRegistryServer: "https://npm.acme.io"\nnpmAuthToken: "{yarn}"', "secret assignment",
             ".yarnrc.yml npmAuthToken", yarn),
        Case(f'{{"http-basic": {{"repo.packagist.com": {{"username": "token", "password": "{composer}"}}}}}}',
             "password assignment", "composer auth.json", composer),
        Case(f"export BUNDLE_ENTERPRISE__CONTRIBSYS__COM={sidekiq}:{g.chars(HEX, 8)}", "secret assignment",
             "Bundler credentials env", sidekiq),
        Case(f"define( 'AUTH_KEY', '{salt}' );", "secret assignment", "wp-config salt", salt),
        Case(f"DATABASES = {{'default': {{'ENGINE': 'django.db.backends.postgresql', 'NAME': 'shop', "
             f"'USER': 'shop', 'PASSWORD': '{pw[22]}'}}}}", "password assignment", "Django DATABASES", pw[22]),
        Case(f"AIRFLOW__CORE__FERNET_KEY={fernet}", "secret assignment", "Airflow fernet key", fernet),
        Case(f"GF_SECURITY_ADMIN_PASSWORD={pw[23]}", "password assignment", "Grafana admin password", pw[23]),
    ]  # fmt: skip


def _code_and_commands(g: Gen) -> list[Case]:
    """Secrets in source code and on command lines."""
    pw = [g.password(g.rng.randint(11, 16)) for _ in range(16)]
    key, rust, fallback = g.mixed(ALNUM, 32), g.mixed(B64URL, 40), g.mixed(ALNUM, 40)
    return [
        Case(f"const secret = process.env.JWT_SECRET || '{fallback}';", "secret assignment", "env fallback in JS",
             fallback),
        Case(f'\tapiKey := "{key}"\n\tclient := weather.New(apiKey)', "secret assignment", "Go literal", key),
        Case(f'let token = "{rust}";', "secret assignment", "Rust literal", rust),
        Case(f'var cred = new NetworkCredential("svc-report", "{pw[0]}");', "password assignment",
             "C# NetworkCredential", pw[0]),
        Case(f'Connection c = DriverManager.getConnection(url, "sa", "{pw[1]}");', "password assignment",
             "Java getConnection", pw[1]),
        Case(f'$sec = ConvertTo-SecureString "{pw[2]}" -AsPlainText -Force', "password assignment",
             "PowerShell SecureString", pw[2]),
        Case(f"net use Z: \\\\files01\\share {pw[3]} /user:ACME\\ada", "password on a command line", "net use",
             pw[3]),
        Case(f"cmdkey /generic:TERMSRV/jump01 /user:ada /pass:{pw[4]}", "password on a command line", "cmdkey /pass",
             pw[4]),
        Case(f"RSYNC_PASSWORD='{pw[5]}' rsync -av backup@nas::photos ./photos", "password assignment",
             "RSYNC_PASSWORD", pw[5]),
        Case(f"sudo mount -t cifs //nas/media /mnt/media -o username=ada,password={pw[6]},uid=1000",
             "password on a command line", "mount cifs", pw[6]),
        Case(f"lftp -u upload,{pw[7]} ftp.acme.io", "password on a command line", "lftp -u", pw[7]),
        Case(f"poetry config http-basic.private ada {pw[8]}", "password on a command line", "poetry http-basic",
             pw[8]),
        Case(f"ldapsearch -x -H ldap://dc1 -D 'cn=admin,dc=acme,dc=io' -w '{pw[9]}' '(uid=ada)'",
             "password on a command line", "ldapsearch -w", pw[9]),
        Case(f"PGPASSWORD={pw[10]} psql -h db.internal -U reporting analytics", "password assignment",
             "PGPASSWORD", pw[10]),
        Case(f"~/.pgpass:\ndb.internal:5432:analytics:reporting:{pw[11]}", "password assignment", ".pgpass line",
             pw[11]),
        Case(f"sqlplus scott/{pw[12]}@//db01:1521/ORCLPDB1", "password on a command line", "sqlplus", pw[12]),
        Case(f"cqlsh cass01 -u cassandra -p '{pw[13]}'", "password on a command line", "cqlsh -p", pw[13]),
        Case(f"mosquitto_pub -h broker -u sensor -P '{pw[14]}' -t home/temp -m 21", "password on a command line",
             "mosquitto_pub -P", pw[14]),
        Case(f"rabbitmqctl add_user billing '{pw[15]}'", "password on a command line", "rabbitmqctl add_user",
             pw[15]),
    ]  # fmt: skip


def _connections(g: Gen) -> list[Case]:
    """Connection strings of databases and brokers."""
    pw = [g.url_password(g.rng.randint(12, 18)) for _ in range(12)]
    confluent = g.mixed(B64, 64)
    return [
        Case(f"Driver={{ODBC Driver 18 for SQL Server}};Server=tcp:sql01,1433;Database=erp;Uid=erp_app;"
             f"Pwd={pw[0]};Encrypt=yes;", "password assignment", "ODBC Pwd=", pw[0]),
        Case(f"jdbc:oracle:thin:scott/{pw[1]}@db01:1521:ORCL", "URL with a password", "Oracle thin URL", pw[1]),
        Case(f"sasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule "
             f"required username=\"{g.chars(UPPER + DIGITS, 16)}\" password=\"{confluent}\";",
             "password assignment", "Kafka JAAS config", confluent),
        Case(f"nats://orders:{pw[2]}@nats01:4222", "URL with a password", "NATS URL", pw[2]),
        Case(f"CLICKHOUSE_URL=clickhouse://default:{pw[3]}@ch01:9000/events", "URL with a password",
             "ClickHouse URL", pw[3]),
        Case(f"snowflake://etl_user:{pw[4]}@xy12345.eu-central-1/ANALYTICS/PUBLIC?warehouse=ETL_WH",
             "URL with a password", "Snowflake URL", pw[4]),
        Case(f"NEO4J_AUTH=neo4j/{pw[5]}", "password assignment", "NEO4J_AUTH", pw[5]),
        Case(f"driver = GraphDatabase.driver('bolt://neo4j:{pw[6]}@graph01:7687')", "URL with a password",
             "bolt URL", pw[6]),
        Case(f"COUCHDB_URL=http://admin:{pw[7]}@couch01:5984/", "URL with a password", "CouchDB URL", pw[7]),
        Case(f"elasticsearch.hosts: [\"https://es01:9200\"]\nelasticsearch.username: kibana_system\n"
             f"elasticsearch.password: {pw[8]}", "password assignment", "kibana.yml", pw[8]),
        Case(f"mqtt://sensor:{pw[9]}@broker.acme.io:1883", "URL with a password", "MQTT URL", pw[9]),
        Case(f"SQLALCHEMY_DATABASE_URI = 'mysql+pymysql://shop:{pw[10]}@db01/shop?charset=utf8mb4'",
             "URL with a password", "SQLAlchemy URL", pw[10]),
        Case(f"mongosh 'mongodb://app:{pw[11]}@mongo1:27017,mongo2:27017/app?replicaSet=rs0&authSource=admin'",
             "URL with a password", "MongoDB replica set URL", pw[11]),
    ]  # fmt: skip


def _vendors(g: Gen) -> list[Case]:
    """Vendor tokens in shapes no other part has, in headers, env files and prose."""
    twilio, zendesk, pagerduty, genie, splunk = (
        g.mixed(ALNUM, 32),
        g.mixed(ALNUM, 40),
        g.mixed(B64URL, 20),
        g.uuid(),
        g.uuid(),
    )
    asana = f"2/{g.digits(16)}/{g.digits(16)}:{g.chars(HEX, 32)}"
    xapp = f"xapp-1-A0{g.chars(UPPER + DIGITS, 9)}-{g.digits(13)}-{g.chars(HEX, 64)}"
    ghu, phx, postmark = "ghu_" + g.mixed(ALNUM, 36), "phx_" + g.mixed(ALNUM, 43), g.uuid()
    nr_license, honeycomb = g.chars(HEX, 36) + "NRAL", g.mixed(ALNUM, 22)
    cloudinary = g.mixed(B64URL, 27)
    vonage, ably = g.mixed(ALNUM, 16), f"{g.mixed(ALNUM, 6)}.{g.mixed(ALNUM, 6)}:{g.mixed(B64URL, 43)}"
    launch, consul, auth0 = "sdk-" + g.uuid(), g.uuid(), g.mixed(B64URL, 64)
    binance, kraken = g.mixed(ALNUM, 64), g.b64_bytes(64)
    fastly, mux, expo = g.mixed(B64URL, 32), g.mixed(B64, 75), g.mixed(B64URL, 40)
    rollbar, recaptcha, hcaptcha = g.chars(HEX, 32), "6Lc" + g.mixed(B64URL, 37), "0x" + g.chars(HEX, 40)
    owm, vt, etherscan = g.chars(HEX, 32), g.chars(HEX, 64), g.chars(UPPER + DIGITS, 34)
    alchemy, meili, bw = g.mixed(B64URL, 32), g.mixed(B64URL, 44), g.b64_bytes(64)
    cypress, percy, browserstack = g.uuid(), g.chars(HEX, 64), g.mixed(ALNUM, 20)
    fb_secret, twitter, clerk = g.chars(HEX, 32), g.mixed(ALNUM, 50), "sk_live_" + g.mixed(ALNUM, 40)
    keycloak, loggly = g.mixed(ALNUM, 32), g.uuid()
    return [
        Case(f"twilio api:core:messages:create --api-key SK{g.chars(HEX, 32)} --api-secret {twilio}",
             "secret assignment", "Twilio API key secret", twilio),
        Case(f"curl https://acme.zendesk.com/api/v2/tickets.json -u ada@acme.io/token:{zendesk}",
             "secret assignment", "Zendesk API token", zendesk),
        Case(f"ASANA_PAT={asana}", "secret assignment", "Asana PAT", asana),
        Case(f"SLACK_APP_TOKEN={xapp}", "Slack token", "Slack app-level token", xapp),
        Case(f"gh auth status shows the token {ghu}", "GitHub token", "GitHub user-to-server token", ghu),
        Case(f"POSTHOG_PERSONAL_API_KEY={phx}", "secret assignment", "PostHog personal key", phx),
        Case(f"curl -X POST https://api.postmarkapp.com/email -H 'X-Postmark-Server-Token: {postmark}'",
             "secret assignment", "Postmark header", postmark),
        Case(f"curl -H 'Authorization: Token token={pagerduty}' https://api.pagerduty.com/incidents",
             "secret assignment", "PagerDuty header", pagerduty),
        Case(f"curl -H 'Authorization: GenieKey {genie}' https://api.opsgenie.com/v2/alerts",
             "secret assignment", "Opsgenie header", genie),
        Case(f"curl -k https://splunk01:8088/services/collector -H 'Authorization: Splunk {splunk}' -d @ev.json",
             "secret assignment", "Splunk HEC header", splunk),
        Case(f"NEW_RELIC_LICENSE_KEY={nr_license}", "secret assignment", "New Relic license key", nr_license),
        Case(f"exporters:\n  otlp:\n    endpoint: api.honeycomb.io:443\n    headers:\n"
             f"      x-honeycomb-team: {honeycomb}", "secret assignment", "Honeycomb key in OTel config", honeycomb),
        Case(f"CLOUDINARY_URL=cloudinary://{g.digits(15)}:{cloudinary}@acme-media", "URL with a password",
             "Cloudinary URL", cloudinary),
        Case(f"VONAGE_API_KEY={g.chars(HEX, 8)}\nVONAGE_API_SECRET={vonage}", "secret assignment", "Vonage secret",
             vonage),
        Case(f"const ably = new Ably.Realtime('{ably}');", "secret assignment", "Ably key in code", ably),
        Case(f"LAUNCHDARKLY_SDK_KEY={launch}", "secret assignment", "LaunchDarkly SDK key", launch),
        Case(f"export CONSUL_HTTP_TOKEN={consul}", "secret assignment", "Consul ACL token", consul),
        Case(f"AUTH0_CLIENT_SECRET={auth0}", "secret assignment", "Auth0 client secret", auth0),
        Case(f"exchange = ccxt.binance({{'apiKey': '{g.mixed(ALNUM, 64)}', 'secret': '{binance}'}})",
             "secret assignment", "ccxt exchange secret", binance),
        Case(f"KRAKEN_PRIVATE_KEY={kraken}", "secret assignment", "Kraken private key", kraken),
        Case(f"FASTLY_API_TOKEN={fastly} fastly compute publish", "secret assignment", "Fastly token", fastly),
        Case(f"MUX_TOKEN_ID={g.uuid()}\nMUX_TOKEN_SECRET={mux}", "secret assignment", "Mux token secret", mux),
        Case(f"- run: eas build --non-interactive\n  env:\n    EXPO_TOKEN: {expo}", "secret assignment",
             "Expo token in CI", expo),
        Case(f"Rollbar.init({{ accessToken: '{rollbar}', captureUncaught: true }});", "secret assignment",
             "Rollbar token in code", rollbar),
        Case(f"RECAPTCHA_SECRET_KEY={recaptcha}", "secret assignment", "reCAPTCHA secret", recaptcha),
        Case(f"HCAPTCHA_SECRET={hcaptcha}", "secret assignment", "hCaptcha secret", hcaptcha),
        Case(f"https://api.openweathermap.org/data/2.5/weather?q=Paris&appid={owm}", "URL with a token",
             "appid in URL", owm),
        Case(f"curl -H 'x-apikey: {vt}' https://www.virustotal.com/api/v3/files/{g.chars(HEX, 64)}",
             "secret assignment", "VirusTotal header", vt),
        Case(f"https://api.etherscan.io/api?module=account&action=balance&address=0x{g.chars(HEX, 40)}"
             f"&apikey={etherscan}", "URL with a token", "Etherscan apikey", etherscan),
        Case(f"ETH_RPC_URL=https://eth-mainnet.g.alchemy.com/v2/{alchemy}", "URL with a token", "Alchemy URL",
             alchemy),
        Case(f"docker run -e MEILI_MASTER_KEY='{meili}' getmeili/meilisearch", "secret assignment",
             "Meilisearch master key", meili),
        Case(f"export BW_SESSION=\"{bw}\"", "secret assignment", "Bitwarden session", bw),
        Case(f"npx cypress run --record --key {cypress}", "secret assignment", "Cypress record key", cypress),
        Case(f"PERCY_TOKEN={percy} npx percy exec -- npm test", "secret assignment", "Percy token", percy),
        Case(f"BROWSERSTACK_USERNAME=ada_x1\nBROWSERSTACK_ACCESS_KEY={browserstack}", "secret assignment",
             "BrowserStack key", browserstack),
        Case(f"FACEBOOK_APP_SECRET={fb_secret}", "secret assignment", "Facebook app secret", fb_secret),
        Case(f"consumer_key: {g.mixed(ALNUM, 25)}\nconsumer_secret: {twitter}", "secret assignment",
             "Twitter consumer secret", twitter),
        Case(f"CLERK_SECRET_KEY={clerk}", "Stripe key", "Clerk secret key", clerk),
        Case(f"keycloak client 'portal' credentials tab: secret {keycloak}", "secret assignment",
             "Keycloak client secret", keycloak),
        Case(f"curl -H 'content-type:text/plain' -d 'hi' https://logs-01.loggly.com/inputs/{loggly}/tag/http/",
             "URL with a token", "Loggly input URL", loggly),
    ]  # fmt: skip


def _urls_keys_prose(g: Gen) -> list[Case]:
    """Signed URLs and webhooks, OTP seeds, keys and wallets, tokens and passwords said in prose."""
    oss_sig, cos_sig, fire, ifttt = g.mixed(B64, 27) + "=", g.chars(HEX, 40), g.uuid(), g.mixed(B64URL, 22)
    zap = f"{g.digits(7)}/{g.chars(LOWER + DIGITS, 6)}"
    otp, totp = g.chars(BASE32, 32), g.chars(BASE32, 16)
    spaced = " ".join(totp[i : i + 4] for i in range(0, 16, 4))
    codes = " ".join(f"{g.chars(HEX, 5)}-{g.chars(HEX, 5)}" for _ in range(6))
    age = "AGE-SECRET-KEY-1" + g.chars("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)
    wg, monero, substrate = base64.b64encode(g.rng.randbytes(32)).decode(), g.chars(HEX, 64), g.chars(HEX, 64)
    macaroon, tor = "0201036c6e6402f801030a10" + g.chars(HEX, 200), g.b64_bytes(64)
    nkey = "SUA" + g.chars(BASE32, 55)
    ovpn = [g.chars(HEX, 32) for _ in range(16)]
    ed = pem_lines(bytes.fromhex("302e020100300506032b657004220420") + g.rng.randbytes(32))[0]
    openssh = openssh_private_key(g)
    ssh_body = [line for line in openssh.splitlines() if "-----" not in line]
    pgp, pgp_body = pgp_private_block(g)
    session = _jwt(g, {"sub": g.digits(6), "role": "admin", "iat": 1717000000 + int(g.digits(5))})
    service = _jwt(g, {"iss": "supabase", "ref": g.chars(LOWER, 20), "role": "service_role", "iat": 1716000000})
    refresh, bearer = g.mixed(B64URL, 64), g.mixed(ALNUM, 40)
    pw = [g.password(g.rng.randint(10, 15)) for _ in range(14)]
    return [
        Case(f"https://acme-reports.oss-cn-hangzhou.aliyuncs.com/q3.pdf?OSSAccessKeyId=LTAI5t{g.mixed(ALNUM, 18)}"
             f"&Expires=1735689600&Signature={oss_sig.replace('+', '%2B').replace('/', '%2F').replace('=', '%3D')}",
             "URL with a token", "Alibaba OSS signed URL",
             oss_sig.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")),
        Case(f"https://acme-1250000000.cos.ap-shanghai.myqcloud.com/a.zip?q-sign-algorithm=sha1&q-ak=AKID"
             f"{g.mixed(ALNUM, 32)}&q-sign-time=1717000000;1717003600&q-key-time=1717000000;1717003600"
             f"&q-header-list=host&q-url-param-list=&q-signature={cos_sig}", "URL with a token",
             "Tencent COS signed URL", cos_sig),
        Case(f"https://firebasestorage.googleapis.com/v0/b/acme.appspot.com/o/invoices%2F1042.pdf?alt=media"
             f"&token={fire}", "URL with a token", "Firebase storage token URL", fire),
        Case(f"curl -X POST https://maker.ifttt.com/trigger/door_open/with/key/{ifttt}", "webhook URL",
             "IFTTT webhook key", ifttt),
        Case(f"ZAPIER_HOOK=https://hooks.zapier.com/hooks/catch/{zap}/", "webhook URL", "Zapier catch hook", zap),
        Case(f"otpauth://totp/ACME:ada%40acme.io?secret={otp}&issuer=ACME&algorithm=SHA1&digits=6",
             "secret assignment", "otpauth URI", otp),
        Case(f"2FA setup key for the shared admin account: {spaced}", "secret assignment", "TOTP seed in prose",
             spaced),
        Case(f"GitHub recovery codes (store safely):\n{codes}", "secret assignment", "recovery codes", codes),
        Case(f"SOPS_AGE_KEY={age} sops -d secrets.enc.yaml", "age secret key", "age key in SOPS env", age),
        Case(f"[Interface]\nPrivateKey = {wg}\nAddress = 10.8.0.2/32\nDNS = 1.1.1.1", "private key",
             "WireGuard PrivateKey", wg),
        Case(f"monero-wallet-cli> spend_key\nsecret: {monero}\npublic: {g.chars(HEX, 64)}", "wallet private key",
             "Monero spend key", monero),
        Case(f"  Network ID:        substrate\n  Secret seed:       0x{substrate}\n"
             f"  Public key (hex):  0x{g.chars(HEX, 64)}", "wallet private key", "Substrate secret seed", substrate),
        Case(f"LND_ADMIN_MACAROON={macaroon}", "secret assignment", "Lightning macaroon", macaroon),
        Case(f"250-ServiceID={g.chars(LOWER + '234567', 56)}\n250-PrivateKey=ED25519-V3:{tor}\n250 OK",
             "private key", "Tor onion service key", tor),
        Case(f"-----BEGIN USER NKEY SEED-----\n{nkey}\n------END USER NKEY SEED------", "private key",
             "NATS nkey seed", nkey),
        Case("-----BEGIN OpenVPN Static key V1-----\n" + "\n".join(ovpn) + "\n-----END OpenVPN Static key V1-----",
             "private key", "OpenVPN static key", "\n".join(ovpn)),
        Case(f"-----BEGIN PRIVATE KEY-----\n{ed}\n-----END PRIVATE KEY-----", "PEM private key",
             "Ed25519 PKCS#8 PEM", ed),
        Case("deploy:\n  ssh_private_key: |\n" + "\n".join("    " + line for line in openssh.splitlines()),
             "PEM private key", "OpenSSH key indented in YAML", "\n".join("    " + line for line in ssh_body)),
        Case("GPG_PRIVATE_KEY: |\n" + "\n".join("  " + line for line in pgp.splitlines()), "PEM private key",
             "PGP key indented in CI YAML",
             "\n".join("  " + line for line in pgp_body.splitlines())),
        Case(f"if you want to try the API as me, my session jwt is {session} (expires tonight)",
             "JSON Web Token", "JWT in prose", session),
        Case(f"SUPABASE_SERVICE_ROLE_KEY={service}", "JSON Web Token", "Supabase service role JWT", service),
        Case(f"here's the refresh token from the login response: {refresh}", "secret assignment",
             "refresh token in prose", refresh),
        Case(f"the bearer for the partner API is {bearer}, it doesn't expire", "secret assignment",
             "bearer in prose", bearer),
        Case(f"我的邮箱密码是{pw[0]}，别告诉别人", "password assignment", "password (Chinese, mailbox)", pw[0]),
        Case(f"服务器 root 口令改成了 {pw[1]}", "password assignment", "口令 in prose (Chinese)", pw[1]),
        Case(f"登录用的账号 admin，密码 {pw[2]}", "password assignment", "account and password (Chinese)", pw[2]),
        Case(f"数据库连接密码已经设置为{pw[3]}了", "password assignment", "password set to (Chinese)", pw[3]),
        Case(f"the staging db password is now {pw[4]}", "password assignment", "password is now (English)", pw[4]),
        Case(f"use {pw[5]} as the passphrase when it asks", "password assignment", "use X as passphrase", pw[5]),
        Case(f"new pass for the vpn: {pw[6]}", "password assignment", "new pass (English)", pw[6]),
        Case(f"I changed the router admin password to {pw[7]} yesterday", "password assignment",
             "changed password to (English)", pw[7]),
        Case(f"my netflix login is ada.l@example.com and {pw[8]}", "password assignment", "login and value",
             pw[8]),
        Case(f"het wachtwoord van de NAS is {pw[9]}", "password assignment", "password in prose (Dutch)", pw[9]),
        Case(f"hasło do serwera to {pw[10]}", "password assignment", "password in prose (Polish)", pw[10]),
        Case(f"sunucu şifresi: {pw[11]}", "password assignment", "password in prose (Turkish)", pw[11]),
        Case(f"mật khẩu wifi là {pw[12]}", "password assignment", "password in prose (Vietnamese)", pw[12]),
        Case(f"کلمه عبور سرور {pw[13]} است", "password assignment", "password in prose (Persian)", pw[13]),
    ]  # fmt: skip


def blind2_secrets(g: Gen) -> list[Case]:
    """Secrets of the fourth held-out part."""
    return [*_configs(g), *_code_and_commands(g), *_connections(g), *_vendors(g), *_urls_keys_prose(g)]


def blind2_lookalikes(g: Gen) -> list[Case]:
    """Look-alikes of the fourth held-out part: ids, digests, public keys, placeholders, references."""
    pub = base64.b64encode(g.rng.randbytes(32)).decode()
    cert = base64.b64encode(b"-----BEGIN CERTIFICATE-----\nMIIC" + g.rng.randbytes(60)).decode()
    png = base64.b64encode(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + g.rng.randbytes(90)).decode()
    texts = [
        f"commit {g.chars(HEX, 40)}\nAuthor: Ada <ada@acme.io>\nDate:   Mon May 6 10:12:00 2024\n\n    fix login",
        f"$ git rev-parse HEAD\n{g.chars(HEX, 40)}",
        f"{g.chars(HEX, 64)}  dist/app-1.4.2-linux-amd64.tar.gz",
        f'<script src="https://cdn.acme.io/lib.min.js" integrity="sha384-{g.b64_bytes(48)}" '
        'crossorigin="anonymous"></script>',
        f"github.com/spf13/cobra v1.8.0 h1:{g.b64_bytes(32)}",
        f'[[package]]\nname = "serde"\nversion = "1.0.197"\nchecksum = "{g.chars(HEX, 64)}"',
        f"requests==2.31.0 --hash=sha256:{g.chars(HEX, 64)}",
        f"request_id={g.uuid()} status=200 duration_ms=41",
        f'<img src="data:image/png;base64,{png}" alt="logo">',
        "API_KEY=<your-api-key>",
        "export GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "SECRET_KEY=your-secret-key-here",
        "The default admin password is `changeme`; change it on first login.",
        "password: ********",
        "Authorization: Bearer <token>",
        'curl -H "Authorization: Bearer $API_TOKEN" https://api.acme.io/v1/me',
        "password: ${DB_PASSWORD}",
        "          password: ${{ secrets.REGISTRY_PASSWORD }}",
        "  password: {{ .Values.auth.password | quote }}",
        'ansible_become_password: "{{ vault_become_password }}"',
        "app_secret: '%env(APP_SECRET)%'",
        'Stripe.api_key = ENV["STRIPE_SECRET_KEY"]',
        'api_key = os.environ["OPENAI_API_KEY"]',
        "        env:\n        - name: DB_PASSWORD\n          valueFrom:\n            secretKeyRef:\n"
        "              name: db\n              key: password",
        "    secrets:\n      - db_password\n    environment:\n      POSTGRES_PASSWORD_FILE: /run/secrets/db_password",
        "aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "release v2.14.0-rc.3+build.20240506 is out",
        "Python 3.12.3 (main, Apr 10 2024, 05:33:47) [GCC 13.2.0] on linux",
        f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{g.chars(B64, 43)} ci@runner-{g.digits(3)}",
        f"# public key: age1{g.chars('qpzry9x8gf2tvdw0s3jn54khce6mua7l', 58)}",
        f"[Peer]\nPublicKey = {pub}\nAllowedIPs = 10.8.0.0/24\nEndpoint = vpn.acme.io:51820",
        "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n"
        + "\n".join(pem_lines(g.rng.randbytes(200)))
        + "\n-----END PGP PUBLIC KEY BLOCK-----",
        f"send it to bc1q{g.chars('qpzry9x8gf2tvdw0s3jn54khce6mua7l', 38)} or 0x{g.chars(HEX, 40)}",
        f"data:\n  ca.crt: {cert}",
        f"web-7d4b9c8f6d-{g.chars(LOWER + DIGITS, 5)}   1/1   Running   0   3d",
        f"security group sg-0{g.chars(HEX, 16)} attached to arn:aws:iam::{g.digits(12)}:role/deploy",
        f'provider "azurerm" {{\n  features {{}}\n  subscription_id = "{g.uuid()}"\n'
        f'  tenant_id       = "{g.uuid()}"\n}}',
        "gtag('config', 'G-" + g.chars(UPPER + DIGITS, 10) + "');",
        f"customer cus_{g.mixed(ALNUM, 14)} paid invoice in_{g.mixed(ALNUM, 24)} via pi_{g.mixed(ALNUM, 24)}",
        "密码长度至少为 8 位，必须包含字母和数字",
        "Your password must be at least 12 characters long and include a symbol.",
        "Enter the 6-digit code from your authenticator app to continue.",
        "the rate limiter uses a token bucket: 100 tokens per minute per key",
        f'ETag: W/"{g.chars(HEX, 8)}-{g.chars(LOWER + DIGITS, 27)}"',
        f"      - uses: actions/cache@v4\n        with:\n          key: npm-linux-x64-{g.chars(HEX, 64)}",
        f"https://www.youtube.com/watch?v={g.mixed(B64URL, 11)}&t=42s",
        "https://acme.io/pricing?utm_source=newsletter&utm_medium=email&utm_campaign=spring24",
        "ssh://git@github.com/acme/app.git and postgres://app@localhost:5432/app",
        f"binaryData:\n  motd.txt: {base64.b64encode(b'Welcome to the build server. Be nice.').decode()}",
        "TOKEN=xxxx-xxxx-xxxx-xxxx  # replace with the token from the dashboard",
    ]
    return [Case(text, None, "blind2 look-alike") for text in texts]
