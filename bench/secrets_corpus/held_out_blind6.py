"""The eighth held-out part (issue 22), written blind in the sixth round (without looking at the detector) and
only reported, never tuned on: formats and contexts no other part has (more clouds' keys and signed URLs,
hosting, database and CI platforms, chat and automation webhooks, payment providers, keys inside config files
of many kinds, database, VPN, FTP, HTTP and Windows command lines, key files and wallet keys in odd layouts,
passwords in prose of more languages, in code and connection calls, secrets cut over two lines and base64 of
user:password in new places), and look-alikes (references and placeholders in settings named after secrets,
public keys, fingerprints, digests and random-looking ids, code full of symbols, and sentences about passwords
that give none, in several languages). Its figure measures how the detector generalises.

Every value is random in its documented shape; none is a real credential."""

from __future__ import annotations

import base64
import json
from urllib.parse import quote

from .gen import ALNUM, B64, B64URL, DIGITS, HEX, LOWER, UPPER, Case, Gen

_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_XRP58 = "rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz"
_BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_UPPER_ALNUM = UPPER + DIGITS
_LOWER_ALNUM = LOWER + DIGITS
# Words of the BIP39 English list (the checksum of a phrase drawn from them is not computed).
_SEED_WORDS = (
    "abandon ability able about above absent absorb abstract absurd access accident account achieve acid across "
    "action actor adapt address adjust admit adult advance advice afford afraid again agent agree ahead airport "
    "alarm album alcohol alert alien alley allow almost alone alpha already alter always amateur amazing among "
    "amount anchor ancient anger angle animal ankle announce annual another answer antique anxiety apart appear "
    "apple approve april arctic arena argue armor army arrange arrest arrive arrow artist aspect asset assist "
    "athlete atom attack attend auction audit august aunt author autumn average avocado avoid awake aware "
    "bacon badge balance balcony bamboo banana banner barrel basket battle beach beauty become before begin "
    "behave believe below bench benefit betray better beyond bicycle biology birth bitter blanket blossom bonus "
    "border borrow bottom bounce bracket brain brave bread breeze brick bridge brief bright broccoli bronze "
    "brother bubble budget buffalo bullet bundle burger butter cabbage cabin cactus camera canal cancel candy "
    "canvas canyon captain carbon cargo carpet castle casual catalog cattle ceiling celery cement census cereal "
    "chair chalk champion chaos chapter cherry chicken chimney cinnamon citizen clarify clever cliff clinic "
    "cluster coconut coffee column comfort company concert connect copper coral cotton cousin coyote cradle "
    "crater cricket crystal culture cupboard curtain cushion"
).split()
_WORDS = ["Harbor", "Sunflower", "Marmalade", "Pistachio", "Lighthouse", "Tangerine", "Falcon", "Meadow",
          "Juniper", "Orchid", "Thunder", "Saffron", "Walnut", "Cobalt", "Pelican", "Biscuit"]  # fmt: skip


def _passwords(g: Gen) -> list[str]:
    """Random passwords of 10 to 20 characters, with symbols."""
    return [g.password(g.rng.randint(10, 20)) for _ in range(64)]


def _human(g: Gen) -> list[str]:
    """Human-ish passwords of moderate strength: words, digits and a symbol."""
    out = []
    for i in range(16):
        word, other = g.rng.sample(_WORDS, 2)
        sym = g.pick(list("!#$%&*?@+"))
        shape = i % 4
        if shape == 0:
            out.append(f"{word}{g.chars(DIGITS, 4)}{sym}")
        elif shape == 1:
            out.append(f"{word.lower()}-{other.lower()}-{g.chars(DIGITS, 2)}")
        elif shape == 2:
            out.append(f"{word}{sym}{g.chars(DIGITS, 3)}")
        else:
            out.append(f"{word}{other}{g.chars(DIGITS, 2)}{sym}")
    return out


def _b64(text: str) -> str:
    """Standard base64 of a UTF-8 text."""
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def _lines(body: str, width: int = 64) -> str:
    """body cut into lines of width characters."""
    return "\n".join(body[i : i + width] for i in range(0, len(body), width))


def _jwt(g: Gen, header: dict[str, str], payload: dict[str, object], sig_bytes: int = 32) -> str:
    """A JWT with the given header and payload and a random signature."""
    part = [g.b64url(json.dumps(x, separators=(",", ":")).encode()) for x in (header, payload)]
    return f"{part[0]}.{part[1]}.{g.b64url(g.rng.randbytes(sig_bytes))}"


def _cloud(g: Gen, pw: list[str]) -> list[Case]:
    """Cloud providers' keys and signed URLs."""
    cosmos = g.b64_bytes(64)
    bus = g.b64_bytes(32)
    hub_sig = quote(g.b64_bytes(32), safe="")
    fb = g.mixed(ALNUM, 40)
    r2 = g.chars(HEX, 64)
    tunnel = _b64(json.dumps({"a": g.chars(HEX, 32), "t": g.uuid(), "s": g.b64_bytes(32)}, separators=(",", ":")))
    ses = "B" + g.mixed(B64.replace("/", ""), 43)
    mws = f"amzn.mws.{g.uuid()}"
    huawei = g.mixed(ALNUM, 40)
    vultr = g.mixed(_UPPER_ALNUM, 36)
    ovh = g.mixed(ALNUM, 32)
    exo = g.mixed(B64URL, 43)
    cdn_sig = base64.urlsafe_b64encode(g.rng.randbytes(20)).decode()
    b2 = f"4_003{g.chars(HEX, 25)}_01{g.chars(HEX, 6)}_{g.chars(HEX, 6)}_dwnl_{g.mixed(B64URL, 27)}="
    flow_sig = g.b64url(g.rng.randbytes(32))
    return [
        Case(f"AccountEndpoint=https://shop-db.documents.azure.com:443/;AccountKey={cosmos};",
             "secret assignment", "Azure Cosmos DB connection string", cosmos),
        Case(f"Endpoint=sb://acme-bus.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;"
             f"SharedAccessKey={bus}", "secret assignment", "Azure Service Bus connection string", bus),
        Case(f"Authorization: SharedAccessSignature sr=https%3A%2F%2Facme-hub.servicebus.windows.net%2Ftelemetry"
             f"&sig={hub_sig}&se=1767225600&skn=send", "secret assignment", "Azure Event Hubs SAS header", hub_sig),
        Case(f"[DEFAULT]\nuser=ocid1.user.oc1..aaaaaaaa{g.chars(_LOWER_ALNUM, 52)}\n"
             f"fingerprint={':'.join(g.chars(HEX, 2) for _ in range(16))}\n"
             f"tenancy=ocid1.tenancy.oc1..aaaaaaaa{g.chars(_LOWER_ALNUM, 52)}\nregion=eu-frankfurt-1\n"
             f"key_file=~/.oci/oci_api_key.pem\npass_phrase={pw[0]}", "password assignment",
             "OCI config pass_phrase", pw[0]),
        Case(f"curl 'https://acme-shop-default-rtdb.europe-west1.firebasedatabase.app/orders.json?auth={fb}'",
             "URL with a token", "Firebase RTDB legacy secret", fb),
        Case(f"R2_ACCOUNT_ID={g.chars(HEX, 32)}\nR2_ACCESS_KEY_ID={g.chars(HEX, 32)}\nR2_SECRET_ACCESS_KEY={r2}",
             "secret assignment", "Cloudflare R2 key pair", r2),
        Case(f"cloudflared tunnel --no-autoupdate run --token {tunnel}", "password on a command line",
             "cloudflared tunnel token", tunnel),
        Case(f'EMAIL_HOST = "email-smtp.eu-west-1.amazonaws.com"\nEMAIL_HOST_USER = "AKIA{g.chars(_UPPER_ALNUM, 16)}"'
             f'\nEMAIL_HOST_PASSWORD = "{ses}"', "password assignment", "AWS SES SMTP password", ses),
        Case(f"MWS_SELLER_ID=A{g.chars(_UPPER_ALNUM, 13)}\nMWS_AUTH_TOKEN={mws}", "secret assignment",
             "Amazon MWS auth token", mws),
        Case(f"export HUAWEICLOUD_SDK_AK={g.chars(_UPPER_ALNUM, 20)}\nexport HUAWEICLOUD_SDK_SK={huawei}",
             "secret assignment", "Huawei Cloud AK/SK", huawei),
        Case(f"VULTR_API_KEY={vultr} vultr-cli instance list", "secret assignment", "Vultr API key", vultr),
        Case(f"[default]\nendpoint=ovh-eu\n\n[ovh-eu]\napplication_key={g.mixed(ALNUM, 16)}\n"
             f"application_secret={ovh}\nconsumer_key={g.mixed(ALNUM, 32)}", "secret assignment",
             "OVH ovh.conf", ovh),
        Case(f'[[accounts]]\n  name = "acme"\n  key = "EXO{g.chars(HEX, 24)}"\n  secret = "{exo}"\n'
             '  defaultZone = "ch-gva-2"', "secret assignment", "Exoscale CLI config", exo),
        Case(f"https://media.acme.io/films/trailer.mp4?Expires=1767225600&KeyName=cdn-key-2&Signature={cdn_sig}",
             "URL with a token", "Google Cloud CDN signed URL", cdn_sig),
        Case(f"https://f003.backblazeb2.com/file/acme-media/report.pdf?Authorization={b2}", "URL with a token",
             "Backblaze B2 download authorization", b2),
        Case(f"POST https://prod-27.westeurope.logic.azure.com:443/workflows/{g.chars(HEX, 32)}/triggers/manual/"
             f"paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig={flow_sig}",
             "webhook URL", "Azure Logic Apps trigger URL", flow_sig),
    ]  # fmt: skip


def _platforms(g: Gen) -> list[Case]:
    """Hosting, database, CI and developer platforms' tokens."""
    deno = "ddp_" + g.mixed(ALNUM, 36)
    turso = _jwt(g, {"alg": "EdDSA", "typ": "JWT"}, {"a": "rw", "iat": 1736000000, "id": g.uuid()}, 64)
    xata = "xau_" + g.mixed(ALNUM, 32)
    convex = "prod:happy-otter-123|" + _b64(json.dumps({"v2": g.chars(HEX, 32)}))
    travis = g.mixed(ALNUM, 22)
    drone = g.mixed(ALNUM, 32)
    codecov = g.uuid()
    teamcity = f"eyJ0eXAiOiAiVENWMiJ9.{g.b64url(g.rng.randbytes(27))}.{g.b64url(g.rng.randbytes(36))}"
    cloudsmith = g.chars(HEX, 40)
    gldt = "gldt-" + g.mixed(ALNUM + "_-", 20)
    wandb = g.chars(HEX, 40)
    nvidia = "nvapi-" + g.mixed(B64URL, 64)
    jina = "jina_" + g.chars(HEX, 32) + g.mixed(ALNUM, 28)
    neptune = _b64(json.dumps({"api_address": "https://app.neptune.ai", "api_url": "https://app.neptune.ai",
                               "api_key": g.uuid()}))  # fmt: skip
    sanity = "sk" + g.mixed(ALNUM, 80)
    return [
        Case(f"DENO_DEPLOY_TOKEN={deno} deployctl deploy --project=shop main.ts", "secret assignment",
             "Deno Deploy token", deno),
        Case(f'TURSO_DATABASE_URL="libsql://shop-ada.turso.io?authToken={turso}"', "URL with a token",
             "Turso libsql URL", turso),
        Case(f"XATA_BRANCH=main\nXATA_API_KEY={xata}", "secret assignment", "Xata API key", xata),
        Case(f'CONVEX_DEPLOY_KEY="{convex}" npx convex deploy', "secret assignment", "Convex deploy key", convex),
        Case(f"# ~/.travis/config.yml\nendpoints:\n  https://api.travis-ci.com/:\n    access_token: {travis}",
             "secret assignment", "Travis CI config token", travis),
        Case(f"export DRONE_SERVER=https://drone.acme.io\nexport DRONE_TOKEN={drone}\ndrone build ls acme/shop",
             "secret assignment", "Drone CI token", drone),
        Case(f"codecov upload-process -t {codecov} -f coverage.xml", "password on a command line",
             "Codecov upload token", codecov),
        Case(f"TEAMCITY_TOKEN={teamcity}", "secret assignment", "TeamCity access token", teamcity),
        Case(f"cloudsmith push python acme/pkgs dist/shop-1.4.2.whl -k {cloudsmith}", "password on a command line",
             "Cloudsmith API key", cloudsmith),
        Case(f"docker login registry.gitlab.com -u gitlab+deploy-token-42 --password-stdin <<< {gldt}",
             "password on a command line", "GitLab deploy token (here-string)", gldt),
        Case(f"wandb login {wandb}", "password on a command line", "Weights & Biases login", wandb),
        Case(f"NVIDIA_API_KEY={nvidia}", "secret assignment", "NVIDIA API key", nvidia),
        Case(f"JINA_API_KEY={jina}", "secret assignment", "Jina AI key", jina),
        Case(f'NEPTUNE_API_TOKEN="{neptune}"', "secret assignment", "Neptune API token", neptune),
        Case(f"SANITY_API_WRITE_TOKEN={sanity}", "secret assignment", "Sanity API token", sanity),
    ]  # fmt: skip


def _chat_and_payments(g: Gen) -> list[Case]:
    """Chat, notification and automation tokens and webhooks; payment providers' keys; other SaaS keys."""
    webex = f"{g.mixed(ALNUM, 64)}_PF84_{g.uuid()}"
    pushbullet = "o." + g.mixed(ALNUM, 32)
    ntfy = "tk_" + g.chars(_LOWER_ALNUM, 29)
    matrix = f"syt_{g.b64url(b'alertbot')}_{g.mixed(ALNUM, 20)}_{g.mixed(ALNUM, 6)}"
    cliq = f"1001.{g.chars(HEX, 32)}.{g.chars(HEX, 32)}"
    chatwork = g.chars(HEX, 32)
    cko = "sk_sbox_" + g.chars(_LOWER_ALNUM, 26)
    gocardless = "live_" + g.mixed(B64URL, 40)
    authnet = g.mixed(ALNUM, 16)
    xendit = "xnd_production_" + g.mixed(ALNUM, 60)
    midtrans = "Mid-server-" + g.mixed(B64URL, 24)
    klarna = g.mixed(ALNUM, 16)
    plivo = g.mixed(ALNUM, 40)
    messagebird = g.mixed(ALNUM, 25)
    sparkpost = g.chars(HEX, 40)
    mailersend = "mlsn." + g.chars(HEX, 64)
    es_key = _b64(f"{g.mixed(B64URL, 20)}:{g.mixed(B64URL, 22)}")
    trello = "ATTA" + g.chars(HEX, 64) + g.chars(HEX.upper(), 8)
    logtail = g.mixed(ALNUM, 24)
    axiom = "xaat-" + g.uuid()
    mixpanel = g.chars(HEX, 32)
    intercom = _b64(f"tok:{g.uuid()}:1:0")
    freshdesk = g.mixed(ALNUM, 20)
    woo = "cs_" + g.chars(HEX, 40)
    return [
        Case(f"WEBEX_BOT_TOKEN={webex}", "secret assignment", "Webex bot token", webex),
        Case(f"curl -H 'Access-Token: {pushbullet}' -d type=note -d title=deploy https://api.pushbullet.com/v2/pushes",
             "secret assignment", "Pushbullet access token", pushbullet),
        Case(f'ntfy publish --token {ntfy} alerts "disk full on db1"', "password on a command line",
             "ntfy access token", ntfy),
        Case(f'{{"homeserver": "https://matrix.acme.io", "user_id": "@alertbot:acme.io", "device_id": '
             f'"{g.chars(UPPER, 10)}", "access_token": "{matrix}"}}', "secret assignment", "Matrix access token",
             matrix),
        Case(f"https://cliq.zoho.eu/api/v2/channelsbyname/deploys/message?zapikey={cliq}", "webhook URL",
             "Zoho Cliq webhook", cliq),
        Case(f"curl -X GET -H 'X-ChatWorkToken: {chatwork}' https://api.chatwork.com/v2/rooms", "secret assignment",
             "Chatwork API token", chatwork),
        Case(f"CKO_PUBLIC_KEY=pk_sbox_{g.chars(_LOWER_ALNUM, 26)}\nCKO_SECRET_KEY={cko}", "secret assignment",
             "Checkout.com secret key", cko),
        Case(f"GOCARDLESS_ENVIRONMENT=live\nGOCARDLESS_ACCESS_TOKEN={gocardless}", "secret assignment",
             "GoCardless access token", gocardless),
        Case(f"AUTHORIZE_NET_API_LOGIN_ID={g.mixed(ALNUM, 9)}\nAUTHORIZE_NET_TRANSACTION_KEY={authnet}",
             "secret assignment", "Authorize.net transaction key", authnet),
        Case(f"const x = new Xendit({{ secretKey: '{xendit}' }});", "secret assignment", "Xendit secret key",
             xendit),
        Case(f"MIDTRANS_IS_PRODUCTION=true\nMIDTRANS_SERVER_KEY={midtrans}", "secret assignment",
             "Midtrans server key", midtrans),
        Case(f"klarna:\n  api_url: https://api.klarna.com\n  username: K{g.digits(6)}_{g.chars(HEX, 12)}\n"
             f"  password: {klarna}", "password assignment", "Klarna API credentials", klarna),
        Case(f"PLIVO_AUTH_ID=MA{g.chars(_UPPER_ALNUM, 18)}\nPLIVO_AUTH_TOKEN={plivo}", "secret assignment",
             "Plivo auth token", plivo),
        Case(f"const messagebird = require('messagebird').initClient('{messagebird}');", "secret assignment",
             "MessageBird initClient", messagebird),
        Case(f"SPARKPOST_API_KEY={sparkpost}", "secret assignment", "SparkPost API key", sparkpost),
        Case(f"MAILERSEND_API_KEY={mailersend}", "secret assignment", "MailerSend API key", mailersend),
        Case(f'curl -H "Authorization: ApiKey {es_key}" https://es.acme.io:9200/_cat/indices', "secret assignment",
             "Elasticsearch ApiKey header", es_key),
        Case(f"https://api.trello.com/1/members/me/boards?key={g.chars(HEX, 32)}&token={trello}",
             "URL with a token", "Trello key and token URL", trello),
        Case(f"[SOURCES.app]\ntype = \"file\"\n[SINKS.betterstack]\ntype = \"http\"\n"
             f"auth.strategy = \"bearer\"\nauth.token = \"{logtail}\"", "secret assignment",
             "Better Stack source token (Vector)", logtail),
        Case(f"AXIOM_DATASET=logs\nAXIOM_TOKEN={axiom}", "secret assignment", "Axiom API token", axiom),
        Case(f"MIXPANEL_PROJECT_ID={g.digits(7)}\nMIXPANEL_API_SECRET={mixpanel}", "secret assignment",
             "Mixpanel API secret", mixpanel),
        Case(f"INTERCOM_ACCESS_TOKEN={intercom}", "secret assignment", "Intercom access token", intercom),
        Case(f"curl -u {freshdesk}:X -H 'Content-Type: application/json' https://acme.freshdesk.com/api/v2/tickets",
             "password on a command line", "Freshdesk key as curl user", freshdesk),
        Case(f"GET https://shop.acme.io/wp-json/wc/v3/orders?consumer_key=ck_{g.chars(HEX, 40)}&consumer_secret={woo}",
             "URL with a token", "WooCommerce consumer secret URL", woo),
    ]  # fmt: skip


def _configs(g: Gen, pw: list[str], hu: list[str]) -> list[Case]:
    """Passwords and keys inside config files of many kinds."""
    dockercfg = _b64(json.dumps({"auths": {"registry.acme.io": {"username": "ci", "password": pw[1],
                                                                "auth": _b64(f"ci:{pw[1]}")}}}))  # fmt: skip
    secure_link = g.mixed(ALNUM, 24)
    prom = g.mixed(ALNUM, 40)
    return [
        Case(f'[connections.snowflake]\naccount = "acme-xy{g.digits(5)}"\nuser = "ada"\npassword = "{pw[2]}"\n'
             'warehouse = "COMPUTE_WH"', "password assignment", "Streamlit secrets.toml", pw[2]),
        Case(f"[MySQLi]\nmysqli.default_host = db\nmysqli.default_user = shop\nmysqli.default_pw = {pw[3]}",
             "password assignment", "php.ini mysqli.default_pw", pw[3]),
        Case(f"[inet_http_server]\nport = 127.0.0.1:9001\nusername = admin\npassword = {hu[0]}",
             "password assignment", "supervisord inet_http_server", hu[0]),
        Case(f'"shop" "{pw[4]}"\n"report" "md5{g.chars(HEX, 32)}"', "password assignment", "pgbouncer userlist.txt",
             pw[4]),
        Case(f'{{\n  "name": "prod",\n  "host": "10.0.0.5",\n  "protocol": "sftp",\n  "username": "ada",\n'
             f'  "password": "{pw[5]}",\n  "remotePath": "/var/www/shop"\n}}', "password assignment",
             "VS Code sftp.json", pw[5]),
        Case(f'<tomcat-users>\n  <user username="admin" password="{pw[6]}" roles="manager-gui,admin-gui"/>\n'
             "</tomcat-users>", "password assignment", "Tomcat tomcat-users.xml", pw[6]),
        Case(f'<Server>\n  <Host>ftp.acme.io</Host>\n  <Port>21</Port>\n  <User>ada</User>\n'
             f'  <Pass encoding="base64">{_b64(pw[7])}</Pass>\n</Server>', "password assignment",
             "FileZilla sitemanager.xml", _b64(pw[7])),
        Case(f'<property name="hibernate.connection.username">shop</property>\n'
             f'<property name="hibernate.connection.password">{pw[8]}</property>', "password assignment",
             "Hibernate cfg.xml", pw[8]),
        Case(f'source "vsphere-iso" "win2022" {{\n  communicator   = "winrm"\n  winrm_username = "Administrator"\n'
             f'  winrm_password = "{pw[9]}"\n}}', "password assignment", "Packer winrm_password", pw[9]),
        Case(f"security.protocol=SSL\nssl.keystore.location=/etc/kafka/client.jks\nssl.keystore.password={pw[10]}",
             "password assignment", "Kafka ssl.keystore.password", pw[10]),
        Case(f"[Mount]\nWhat=//nas/share\nWhere=/mnt/nas\nType=cifs\nOptions=username=ada,password={pw[11]},uid=1000",
             "password assignment", "systemd mount unit Options", pw[11]),
        Case(f"  redis:\n    image: redis:7\n    command: redis-server --requirepass {pw[12]} --appendonly yes",
             "password assignment", "compose command --requirepass", pw[12]),
        Case(f'  db:\n    healthcheck:\n      test: ["CMD", "mysqladmin", "ping", "-h", "localhost", "-uroot", '
             f'"-p{pw[13]}"]', "password assignment", "compose healthcheck -p", pw[13]),
        Case(f"apiVersion: v1\nkind: Secret\ntype: kubernetes.io/dockerconfigjson\nmetadata:\n  name: regcred\n"
             f"data:\n  .dockerconfigjson: {dockercfg}", "secret assignment", "Kubernetes dockerconfigjson",
             dockercfg),
        Case(f'<Location /wiki>\n  AuthType Basic\n  AuthBasicProvider ldap\n  AuthLDAPBindDN "cn=apache,dc=acme,dc=io"'
             f'\n  AuthLDAPBindPassword "{pw[14]}"\n</Location>', "password assignment", "Apache AuthLDAPBindPassword",
             pw[14]),
        Case(f"0 2 * * * PASSPHRASE='{pw[15]}' duplicity /home sftp://backup@nas//backups/home",
             "password assignment", "crontab duplicity PASSPHRASE", pw[15]),
        Case(f'location /dl/ {{\n    secure_link $arg_md5,$arg_expires;\n'
             f'    secure_link_md5 "$secure_link_expires$uri$remote_addr {secure_link}";\n}}', "secret assignment",
             "nginx secure_link_md5 secret", secure_link),
        Case(f'<appSettings>\n  <add key="SmtpUser" value="noreply@acme.io" />\n'
             f'  <add key="SmtpPassword" value="{pw[16]}" />\n</appSettings>', "password assignment",
             "web.config appSettings", pw[16]),
        Case(f"scrape_configs:\n  - job_name: shop\n    authorization:\n      type: Bearer\n"
             f"      credentials: {prom}", "secret assignment", "Prometheus authorization credentials", prom),
        Case(f"[OUTPUT]\n    Name       es\n    Host       es.acme.io\n    HTTP_User  fluent\n    HTTP_Passwd {pw[17]}",
             "password assignment", "Fluent Bit HTTP_Passwd", pw[17]),
        Case(f'output {{\n  elasticsearch {{\n    hosts => ["https://es:9200"]\n    user => "logstash"\n'
             f'    password => "{pw[18]}"\n  }}\n}}', "password assignment", "Logstash password =>", pw[18]),
        Case(f"datasources:\n  - name: Postgres\n    type: postgres\n    user: grafana\n    secureJsonData:\n"
             f"      password: '{pw[19]}'", "password assignment", "Grafana datasource secureJsonData", pw[19]),
        Case(f"[connection]\nid=office\ntype=wifi\n\n[wifi-security]\nkey-mgmt=wpa-psk\npsk={hu[1]}",
             "password assignment", "NetworkManager keyfile psk", hu[1]),
        Case(f"# /var/lib/iwd/acme-guest.psk\n[Security]\nPassphrase={hu[2]}", "password assignment",
             "iwd .psk file", hu[2]),
    ]  # fmt: skip


def _commands(g: Gen, pw: list[str], hu: list[str]) -> list[Case]:
    """Passwords and tokens on database, VPN, FTP, HTTP, Windows and admin command lines."""
    bearer = g.mixed(ALNUM, 40)
    sigv4 = g.mixed(B64.replace("+", ""), 40)
    httpie = g.mixed(B64URL, 43)
    url_pw = [g.url_password(g.rng.randint(12, 18)) for _ in range(3)]
    return [
        Case(f"db2 connect to SHOP user ada using {pw[20]}", "password on a command line", "DB2 connect using",
             pw[20]),
        Case(f'vsql -h vertica.acme.io -U dbadmin -w {pw[21]} -c "select version()"', "password on a command line",
             "Vertica vsql -w", pw[21]),
        Case(f'hdbsql -n hana:30015 -u SYSTEM -p {pw[22]} "SELECT * FROM DUMMY"', "password on a command line",
             "SAP HANA hdbsql -p", pw[22]),
        Case(f"SNOWSQL_PWD='{pw[23]}' snowsql -a acme-xy12345 -u ada -q 'select 1'", "password on a command line",
             "SNOWSQL_PWD", pw[23]),
        Case(f"echo '{pw[24]}' | sudo openconnect --user=ada --passwd-on-stdin vpn.acme.io",
             "password on a command line", "openconnect --passwd-on-stdin", pw[24]),
        Case(f"IPSec gateway vpn.acme.io\nIPSec ID acme-staff\nIPSec secret {pw[25]}\nXauth username ada\n"
             f"Xauth password {pw[26]}", "password assignment", "vpnc.conf", pw[25]),
        Case(f"sudo openfortivpn vpn.acme.io:443 -u ada -p '{pw[27]}' --trusted-cert {g.chars(HEX, 64)}",
             "password on a command line", "openfortivpn -p", pw[27]),
        Case(f'nmcli connection modify acme-vpn vpn.secrets "password={pw[28]}"', "password on a command line",
             "nmcli vpn.secrets", pw[28]),
        Case(f"ncftpput -u ada -p '{pw[29]}' ftp.acme.io /incoming backup.tgz", "password on a command line",
             "ncftpput -p", pw[29]),
        Case(f"echo '{pw[30]}' | sshfs ada@nas.local:/data /mnt/nas -o password_stdin", "password on a command line",
             "sshfs password_stdin", pw[30]),
        Case(f"curl --oauth2-bearer {bearer} https://api.acme.io/v2/me", "password on a command line",
             "curl --oauth2-bearer", bearer),
        Case(f'curl --aws-sigv4 "aws:amz:eu-west-1:execute-api" --user "AKIA{g.chars(_UPPER_ALNUM, 16)}:{sigv4}" '
             "https://api.acme.io/prod/orders", "password on a command line", "curl --aws-sigv4 --user", sigv4),
        Case(f"http -A bearer -a {httpie} GET https://api.acme.io/orders", "password on a command line",
             "httpie bearer auth", httpie),
        Case(f"aria2c --http-user=ada --http-passwd='{pw[31]}' https://files.acme.io/iso/base.iso",
             "password on a command line", "aria2c --http-passwd", pw[31]),
        Case(f"wmic /node:srv02 /user:ACME\\ada /password:{pw[32]} process list brief", "password on a command line",
             "wmic /password:", pw[32]),
        Case(f"winrs -r:srv03 -u:ACME\\ada -p:{pw[33]} ipconfig /all", "password on a command line", "winrs -p:",
             pw[33]),
        Case(f'sc.exe config ShopSvc obj= "ACME\\svc_shop" password= "{pw[34]}"', "password on a command line",
             "sc.exe config password=", pw[34]),
        Case(f"ssh-keygen -t ed25519 -f ~/.ssh/deploy -N '{pw[35]}' -C deploy@ci", "password on a command line",
             "ssh-keygen -N", pw[35]),
        Case(f"pdftk payslip.pdf output payslip-locked.pdf user_pw {hu[3]}", "password on a command line",
             "pdftk user_pw", hu[3]),
        Case(f"echo 'ada:{hu[4]}' | sudo chpasswd", "password on a command line", "chpasswd pipe", hu[4]),
        Case(f"etcdctl --endpoints=https://etcd:2379 --user root:{pw[36]} get /config --prefix",
             "password on a command line", "etcdctl --user", pw[36]),
        Case(f"mysqlsh ada:{url_pw[0]}@db.acme.io:3306 --sql", "password on a command line", "mysqlsh user:pw@host",
             url_pw[0]),
        Case(f"p4 -p ssl:perforce.acme.io:1666 -u ada -P {pw[37]} sync //depot/main/...",
             "password on a command line", "Perforce p4 -P", pw[37]),
        Case(f"cvs -d :pserver:ada:{url_pw[1]}@cvs.acme.io:/var/cvs checkout shop", "password on a command line",
             "CVS pserver root", url_pw[1]),
        Case(f"wp user create editor ed@acme.io --role=editor --user_pass='{pw[38]}'", "password on a command line",
             "WP-CLI --user_pass", pw[38]),
        Case(f"drush user:password admin '{hu[5]}'", "password on a command line", "drush user:password", hu[5]),
        Case(f"helm upgrade --install pg bitnami/postgresql --set auth.postgresPassword={pw[39]}",
             "password on a command line", "helm --set password", pw[39]),
        Case(f'ansible-playbook site.yml -i prod -e "db_password={pw[40]} env=prod"', "password on a command line",
             "ansible-playbook --extra-vars", pw[40]),
        Case(f'sp_addlinkedsrvlogin @rmtsrvname = N\'LEGACY\', @useself = N\'False\', @rmtuser = N\'sa\', '
             f"@rmtpassword = N'{url_pw[2]}';", "password assignment", "SQL Server sp_addlinkedsrvlogin", url_pw[2]),
    ]  # fmt: skip


def _urls(g: Gen) -> list[Case]:
    """Passwords in URLs of schemes no other part has."""
    pw = [g.url_password(g.rng.randint(10, 16)) for _ in range(5)]
    return [
        Case(f"rtsp://admin:{pw[0]}@192.168.1.64:554/Streaming/Channels/101", "URL with a password",
             "RTSP camera URL", pw[0]),
        Case(f"ALL_PROXY=socks5h://ada:{pw[1]}@proxy.acme.io:1080", "URL with a password", "SOCKS5 proxy URL",
             pw[1]),
        Case(f'<source>\n  <name>NAS films</name>\n  <path pathversion="1">smb://kodi:{pw[2]}@nas.local/films/</path>'
             "\n</source>", "URL with a password", "SMB URL (Kodi sources.xml)", pw[2]),
        Case(f"open vnc://:{pw[3]}@10.0.0.9:5901", "URL with a password", "VNC URL password only", pw[3]),
        Case(f"davs://ada:{pw[4]}@cloud.acme.io/remote.php/dav/files/ada/", "URL with a password", "davs URL",
             pw[4]),
    ]  # fmt: skip


def _keys_and_wallets(g: Gen) -> list[Case]:
    """Key files in odd layouts and wallet keys and seeds."""
    oct_k = g.b64url(g.rng.randbytes(32))
    der = bytes.fromhex("308204bd020100300d06092a864886f70d0101010500048204a7") + g.rng.randbytes(1191)
    pem = "-----BEGIN PRIVATE KEY-----\n" + _lines(base64.b64encode(der).decode()) + "\n-----END PRIVATE KEY-----\n"
    pem_b64 = _b64(pem)
    signify = base64.b64encode(b"EdBK" + (42).to_bytes(4, "big") + g.rng.randbytes(96)).decode()
    nebula = g.b64_bytes(32)
    ygg = g.chars(HEX, 128)
    legacy = _lines(g.b64_bytes(1192))
    jks = base64.b64encode(bytes.fromhex("feedfeed0000000200000001") + g.rng.randbytes(900)).decode()
    validator = g.b64_bytes(64)
    xrpl = "s" + g.chars(_XRP58, 28)
    hedera = "302e020100300506032b657004220420" + g.chars(HEX, 64)
    aptos = "ed25519-priv-0x" + g.chars(HEX, 64)
    sui = "suiprivkey1" + g.chars(_BECH32, 59)
    avax = "PrivateKey-" + g.chars(_BASE58, 50)
    near = "ed25519:" + g.chars(_BASE58, 88)
    seed12 = " ".join(g.rng.choice(_SEED_WORDS) for _ in range(12))
    seed_es = ", ".join(g.rng.choice(_SEED_WORDS) for _ in range(12))
    return [
        Case(f'{{"kty": "oct", "kid": "hmac-2025-01", "alg": "HS256", "k": "{oct_k}"}}', "private key",
             "JWK oct symmetric key", oct_k),
        Case(f"PRIVATE_KEY_B64={pem_b64}", "private key", "base64 of a PEM key", pem_b64),
        Case(f"untrusted comment: signify secret key\n{signify}", "private key", "signify secret key", signify),
        Case(f"-----BEGIN NEBULA X25519 PRIVATE KEY-----\n{nebula}\n-----END NEBULA X25519 PRIVATE KEY-----",
             "PEM private key", "Nebula X25519 private key", nebula),
        Case(f"{{\n  Peers: [\"tls://ygg.acme.io:443\"]\n  PrivateKey: {ygg}\n  IfName: auto\n}}", "private key",
             "Yggdrasil PrivateKey", ygg),
        Case(f"-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,"
             f"{g.chars(HEX.upper(), 32)}\n\n{legacy}\n-----END RSA PRIVATE KEY-----", "PEM private key",
             "PEM RSA legacy encrypted (DEK-Info)", legacy),
        Case(f'echo "{jks}" | base64 -d > app/release.jks', "private key", "JKS keystore base64", jks),
        Case(f'{{\n  "address": "{g.chars(HEX.upper(), 40)}",\n  "pub_key": {{"type": "tendermint/PubKeyEd25519", '
             f'"value": "{g.b64_bytes(32)}"}},\n  "priv_key": {{"type": "tendermint/PrivKeyEd25519", "value": '
             f'"{validator}"}}\n}}', "wallet private key", "Tendermint priv_validator_key.json", validator),
        Case(f"XRPL_WALLET_SEED={xrpl}", "wallet private key", "XRPL family seed", xrpl),
        Case(f"HEDERA_OPERATOR_ID=0.0.{g.digits(7)}\nHEDERA_OPERATOR_KEY={hedera}", "wallet private key",
             "Hedera DER private key hex", hedera),
        Case(f'profiles:\n  default:\n    network: Mainnet\n    private_key: "{aptos}"\n'
             f'    account: {g.chars(HEX, 64)}', "wallet private key", "Aptos CLI private_key", aptos),
        Case(f"sui keytool import {sui} ed25519", "wallet private key", "Sui suiprivkey", sui),
        Case(f"AVAX_PRIVATE_KEY={avax}", "wallet private key", "Avalanche PrivateKey-", avax),
        Case(f'{{"account_id": "ada.near", "public_key": "ed25519:{g.chars(_BASE58, 44)}", '
             f'"private_key": "{near}"}}', "wallet private key", "NEAR credentials JSON", near),
        Case(f'{{"version": 1, "mnemonic": "{seed12}", "derivationPath": "m/44\'/60\'/0\'/0/0"}}', "seed phrase",
             "seed phrase in a wallet export JSON", seed12),
        Case(f"mi frase de recuperación de la cartera: {seed_es}", "seed phrase", "seed phrase with commas (Spanish)",
             seed_es),
    ]  # fmt: skip


def _prose(g: Gen, pw: list[str], hu: list[str]) -> list[Case]:
    """Passwords in prose of more languages, and new English phrasings."""
    return [
        Case(f"ο κωδικός του wifi είναι {hu[6]}", "password assignment", "password in prose (Greek)", hu[6]),
        Case(f"सर्वर का पासवर्ड {pw[41]} है", "password assignment", "password in prose (Hindi)", pw[41]),
        Case(f"a szerver jelszava: {pw[42]}", "password assignment", "password in prose (Hungarian)", pw[42]),
        Case(f"adgangskoden til routeren er {hu[7]}", "password assignment", "password in prose (Danish)", hu[7]),
        Case(f"passordet til wifi-en er {pw[43]}", "password assignment", "password in prose (Norwegian)", pw[43]),
        Case(f"новий пароль від пошти — {pw[44]}", "password assignment", "password in prose (Ukrainian)", pw[44]),
        Case(f"הסיסמה לשרת היא {pw[45]}", "password assignment", "password in prose (Hebrew)", pw[45]),
        Case(f"كلمة المرور الجديدة هي {pw[46]}", "password assignment", "password in prose (Arabic)", pw[46]),
        Case(f"รหัสผ่าน wifi คือ {hu[8]}", "password assignment", "password in prose (Thai)", hu[8]),
        Case(f"lozinka za bazu je {pw[47]}", "password assignment", "password in prose (Croatian)", pw[47]),
        Case(f"ang password ng admin ay {pw[48]}", "password assignment", "password in prose (Tagalog)", pw[48]),
        Case(f"nenosiri la wifi ni {hu[9]}", "password assignment", "password in prose (Swahili)", hu[9]),
        Case(f"паролата за рутера е {pw[49]}", "password assignment", "password in prose (Bulgarian)", pw[49]),
        Case(f"serveri parool on {pw[50]}", "password assignment", "password in prose (Estonian)", pw[50]),
        Case(f"Username: ada.l\nTemporary password: {hu[10]}\nYou will be asked to change it at first login.",
             "password assignment", "temporary password email (English)", hu[10]),
        Case(f"we're using {hu[11]} for the staging admin until Monday, then I'll rotate it", "password assignment",
             "using X for the admin (English)", hu[11]),
    ]  # fmt: skip


def _code(g: Gen, pw: list[str], hu: list[str]) -> list[Case]:
    """Passwords in function arguments, constructor calls and SQL."""
    return [
        Case(f'Session session = jsch.getSession("ada", "10.0.0.5", 22);\nsession.setPassword("{pw[51]}");',
             "password assignment", "JSch setPassword", pw[51]),
        Case(f'val ds = HikariDataSource(HikariConfig().apply {{ jdbcUrl = "jdbc:postgresql://db/shop"; '
             f'username = "shop"; password = "{pw[52]}" }})', "password assignment", "HikariCP Kotlin apply",
             pw[52]),
        Case(f'let cred = URLCredential(user: "ada", password: "{pw[53]}", persistence: .forSession)',
             "password assignment", "Swift URLCredential", pw[53]),
        Case(f'let opts = PgConnectOptions::new().host("db").username("shop").password("{pw[54]}");',
             "password assignment", "Rust sqlx PgConnectOptions", pw[54]),
        Case(f'cfg := mysql.Config{{User: "shop", Passwd: "{pw[55]}", Net: "tcp", Addr: "db:3306", DBName: "shop"}}',
             "password assignment", "go-sql-driver Config Passwd", pw[55]),
        Case(f"const pool = new Pool({{ host: 'db', user: 'shop', password: '{pw[56]}', database: 'shop' }});",
             "password assignment", "node-postgres Pool", pw[56]),
        Case(f'conn = psycopg2.connect(host="db", dbname="shop", user="shop", password="{pw[57]}")',
             "password assignment", "psycopg2.connect kwargs", pw[57]),
        Case(f'client.connect("10.0.0.5", username="ada", password="{hu[12]}", look_for_keys=False)',
             "password assignment", "paramiko connect", hu[12]),
        Case(f'$db = mysqli_connect("db", "shop", "{pw[58]}", "shop");', "password assignment", "PHP mysqli_connect",
             pw[58]),
        Case(f'client = Mysql2::Client.new(host: "db", username: "shop", password: "{pw[59]}")',
             "password assignment", "Ruby Mysql2::Client", pw[59]),
        Case(f'con <- dbConnect(RPostgres::Postgres(), host = "db", user = "shop", password = "{pw[60]}")',
             "password assignment", "R dbConnect", pw[60]),
        Case(f'local ok, err = red:auth("{pw[61]}")', "password assignment", "OpenResty redis auth", pw[61]),
        Case(f'return new PasswordAuthentication("noreply@acme.io", "{hu[13]}".toCharArray());',
             "password assignment", "Java PasswordAuthentication", hu[13]),
        Case(f'imaplib.IMAP4_SSL("imap.acme.io").login("ada@acme.io", "{pw[62]}")', "password assignment",
             "Python imaplib login", pw[62]),
        Case(f"CREATE USER MAPPING FOR shop SERVER legacy OPTIONS (user 'legacy', password '{pw[63]}');",
             "password assignment", "PostgreSQL USER MAPPING", pw[63]),
        Case(f"CHANGE REPLICATION SOURCE TO SOURCE_HOST='db1', SOURCE_USER='repl', SOURCE_PASSWORD='{hu[14]}';",
             "password assignment", "MySQL CHANGE REPLICATION SOURCE", hu[14]),
    ]  # fmt: skip


def _split_and_basic(g: Gen, pw: list[str], hu: list[str]) -> list[Case]:
    """Secrets cut over two lines, and base64 of user:password (or a password) in new places."""
    t1, t2, t3 = (g.mixed(ALNUM, 48) for _ in range(3))
    basic = [_b64(f"{user}:{p}") for user, p in (("ci", pw[0][::-1]), ("ada", hu[15]), ("deploy", pw[1][::-1]),
                                                 ("ada", pw[2][::-1]))]  # fmt: skip
    confluent = g.mixed(B64.replace("/", ""), 64)
    return [
        Case(f'export ACME_API_TOKEN="{t1[:24]}\\\n{t1[24:]}"', "secret assignment", "shell line continuation token",
             f"{t1[:24]}\n{t1[24:]}"),
        Case(f'API_KEY = (\n    "{t2[:24]}"\n    "{t2[24:]}"\n)', "secret assignment",
             "Python implicit string concatenation", f"{t2[:24]}\n{t2[24:]}"),
        Case(f"const secret = '{t3[:24]}' +\n  '{t3[24:]}';", "secret assignment", "JS string concatenation",
             f"{t3[:24]}\n{t3[24:]}"),
        Case(f'git -c http.extraHeader="Authorization: Basic {basic[0]}" clone https://git.acme.io/shop.git',
             "basic auth credentials", "git -c http.extraHeader Basic", basic[0]),
        Case(f"CONNECT api.acme.io:443 HTTP/1.1\nHost: api.acme.io:443\nProxy-Authorization: Basic {basic[1]}",
             "basic auth credentials", "Proxy-Authorization Basic", basic[1]),
        Case(f"<server>\n  <id>nexus</id>\n  <configuration>\n    <httpHeaders>\n      <property>\n"
             f"        <name>Authorization</name>\n        <value>Basic {basic[2]}</value>\n      </property>\n"
             "    </httpHeaders>\n  </configuration>\n</server>", "basic auth credentials",
             "Maven httpHeaders Basic", basic[2]),
        Case(f'"headers": [\n  {{"name": "accept", "value": "application/json"}},\n'
             f'  {{"name": "authorization", "value": "Basic {basic[3]}"}}\n]', "basic auth credentials",
             "HAR request header", basic[3]),
        Case(f'"auth": {{"type": "basic", "basic": [{{"key": "password", "value": "{pw[3][::-1]}", "type": "string"}}, '
             '{"key": "username", "value": "ada", "type": "string"}]}', "password assignment",
             "Postman collection basic auth", pw[3][::-1]),
        Case(f"basic.auth.credentials.source=USER_INFO\nbasic.auth.user.info={g.chars(_UPPER_ALNUM, 16)}:{confluent}",
             "secret assignment", "Schema Registry basic.auth.user.info", confluent),
    ]  # fmt: skip


def blind6_secrets(g: Gen) -> list[Case]:
    """Secrets of the eighth held-out part."""
    pw = _passwords(g)
    hu = _human(g)
    return [
        *_cloud(g, pw),
        *_platforms(g),
        *_chat_and_payments(g),
        *_configs(g, pw, hu),
        *_commands(g, pw, hu),
        *_urls(g),
        *_keys_and_wallets(g),
        *_prose(g, pw, hu),
        *_code(g, pw, hu),
        *_split_and_basic(g, pw, hu),
    ]


def _ssh_public(g: Gen) -> str:
    """The base64 body of a random ssh-ed25519 public key."""
    blob = len(b"ssh-ed25519").to_bytes(4, "big") + b"ssh-ed25519" + (32).to_bytes(4, "big") + g.rng.randbytes(32)
    return base64.b64encode(blob).decode()


def blind6_lookalikes(g: Gen) -> list[Case]:
    """Look-alikes of the eighth held-out part."""
    spki = bytes.fromhex("30820122300d06092a864886f70d01010105000382010f003082010a0282010100")
    public_pem = _lines(base64.b64encode(spki + g.rng.randbytes(256) + bytes.fromhex("0203010001")).decode())
    texts = [
        "      DB_PASSWORD: ${{ secrets.DB_PASSWORD }}",
        "ansible_become_password: \"{{ lookup('community.general.passwordstore', 'prod/root') }}\"",
        "spring.datasource.password=${DB_PASSWORD:}",
        '"smtp": {"user": "noreply@acme.io", "password": "env:SMTP_PASSWORD"}',
        "password: <your-password-here>",
        "MYSQL_ROOT_PASSWORD=changeme  # the documented default, override it in .env.local",
        "admin_password: ********",
        'token = "REPLACE_ME"',
        'SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]',
        "DB_PASS=$(openssl rand -base64 24)",
        "client_secret: '{{ .Env.OAUTH_CLIENT_SECRET }}'",
        "passwordSecretRef:\n  name: pg-app\n  key: password",
        "valueFrom:\n  secretKeyRef:\n    name: shop-db\n    key: password",
        'password = var.db_password\ntoken    = data.vault_generic_secret.ci.data["token"]',
        "smtp_password: !ENV ${SMTP_PASSWORD}",
        "<password>${env.NEXUS_PASSWORD}</password>",
        "$sec = ConvertTo-SecureString -String $env:SVC_PASS -AsPlainText -Force",
        "$cred = Get-Credential -UserName 'ACME\\ada' -Message 'VPN login'",
        'curl -u "$CI_USER:$CI_API_TOKEN" https://git.acme.io/api/v4/projects',
        "openssl enc -aes-256-cbc -pbkdf2 -pass env:BACKUP_PASS -in db.sql -out db.sql.enc",
        "restic -r s3:s3.amazonaws.com/acme-backup --password-file /etc/restic/pass backup /srv",
        "ssh -o PasswordAuthentication=no -o PubkeyAuthentication=yes ada@10.0.0.5",
        "wg genkey | tee privatekey | wg pubkey > publickey",
        f"ssh-ed25519 {_ssh_public(g)} ada@laptop",
        f"256 SHA256:{g.b64url(g.rng.randbytes(32)).replace('-', '+').replace('_', '/')} ada@laptop (ED25519)",
        f"pub   ed25519 2024-03-01 [SC]\n      {g.chars(HEX.upper(), 40)}\nuid   Ada Lovelace <ada@acme.io>",
        f"-----BEGIN PUBLIC KEY-----\n{public_pem}\n-----END PUBLIC KEY-----",
        f"[Peer]\nPublicKey = {g.b64_bytes(32)}\nAllowedIPs = 10.8.0.2/32\nEndpoint = vpn.acme.io:51820",
        f"age -r age1{g.chars(_BECH32, 58)} -o secrets.env.age secrets.env",
        f"send the refund to 0x{g.chars(HEX, 40)} (our payout address)",
        f"donations: bc1q{g.chars(_BECH32, 38)}",
        f"git revert {g.chars(HEX, 40)}",
        f"image: ghcr.io/acme/shop@sha256:{g.chars(HEX, 64)}",
        f'<script src="https://cdn.jsdelivr.net/npm/htmx.org@2.0.4" integrity="sha384-{g.b64_bytes(48)}" '
        'crossorigin="anonymous"></script>',
        f'"integrity": "sha512-{g.b64_bytes(64)}"',
        f"version https://git-lfs.github.com/spec/v1\noid sha256:{g.chars(HEX, 64)}\nsize 1048576",
        f'hash = "sha256-{g.b64_bytes(32)}";',
        f"golang.org/x/crypto v0.31.0 h1:{g.b64_bytes(32)}",
        f"X-Request-Id: {g.uuid()}",
        f"traceparent: 00-{g.chars(HEX, 32)}-{g.chars(HEX, 16)}-01",
        f'{{"id": "01{g.chars(_CROCKFORD, 24)}", "status": "paid", "total": 4200}}',
        f'clientReference="{g.mixed(B64URL, 21)}" queued',
        f"s3://acme-uploads/2025/01/07/{g.chars(HEX, 32)}/IMG_2041.jpg",
        f"dist/assets/index-{g.mixed(B64URL, 8)}.js   142.31 kB │ gzip: 45.02 kB",
        f'"lineage": "{g.uuid()}", "serial": 42',
        "arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-AbCdEf",
        f"$argon2id$v=19$m=65536,t=3,p=4${g.b64_bytes(16).rstrip('=')}${g.b64_bytes(32).rstrip('=')}",
        'PASSWORD_RE = r"^(?=.*[A-Z])(?=.*\\d)(?=.*[!@#$%^&*]).{12,}$"',
        "find . -name '*.log' -mtime +7 -exec rm {} \\; 2>&1 | tee -a /var/log/cleanup.log",
        "std::unique_ptr<Node<T>> next = std::make_unique<Node<T>>(std::move(v));",
        "fn parse<'a>(s: &'a str) -> Result<Vec<&'a str>, Box<dyn Error>> { Ok(s.split(',').collect()) }",
        "perl -pe 's/^\\s+|\\s+$//g; $_ = lc' input.txt",
        'printf("%-12s|%08.3f|%#x\\n", name, ratio, flags);',
        "∫_0^∞ e^{-x^2} dx = √π/2, and (a+b)^2 = a^2 + 2ab + b^2",
        ":root { --brand: #1e90ff; --accent: #ff6f61; background: linear-gradient(90deg, #0f2027, #2c5364); }",
        '"react": "^18.2.0 || ~19.0.0-rc.1", "typescript": ">=5.4 <6"',
        "*/15 2-5 * * 1-5 /usr/local/bin/rotate-logs --keep 14",
        "echo SGVsbG8sIHdvcmxkIQ== | base64 -d",
        "token_type: Bearer\nexpires_in: 3600\npassword_reset_token_ttl: 900",
        "max_password_age_days = 90\nmin_password_length = 14",
        "reset your password at https://acme.io/account/reset — the link expires in an hour",
        "the wifi password is on the sticky note in the server room, ask Ada",
        "je wachtwoord is verlopen, stel een nieuw wachtwoord in via het portaal",
        "hasło musi mieć co najmniej 12 znaków",
        "a senha está no cofre do Bitwarden, não no repositório",
        "la password è scaduta, reimpostala dal link nella mail",
        "şifrenizi mi unuttunuz? Sıfırlamak için tıklayın",
        "mật khẩu đã được gửi qua tin nhắn riêng",
        "ο κωδικός πρόσβασης πρέπει να έχει τουλάχιστον 8 χαρακτήρες",
        "पासवर्ड भूल गए? नया पासवर्ड सेट करें",
        "a jelszót a jelszókezelőben találod",
        "adgangskoden er udløbet, vælg en ny",
        "passordet må inneholde minst ett tall",
        "نسيت كلمة المرور؟ اضغط هنا لإعادة تعيينها",
    ]
    return [Case(text, None, "blind6 look-alike") for text in texts]
