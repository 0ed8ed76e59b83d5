"""The second held-out part, written before the generic rules and never tuned on: formats and phrasings of
real-world credentials that the tuning part (formats.py) does not use, and look-alikes of the same sorts.

Every value is random in the documented shape (prefix, alphabet, length); none is a real credential. The
bench reports this part on its own line; keep it out of tests/ so that the figure stays a fair one."""

from __future__ import annotations

import base64
import json

from .gen import ALNUM, B64, B64URL, DIGITS, HEX, LOWER, UPPER, Case, Gen
from .keyfiles import der_private_key, openssh_private_key, pem_lines, pgp_private_block, ppk_file

_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def _cloud(g: Gen) -> list[Case]:
    ya29 = "ya29.a0" + g.mixed(B64URL, 150)
    sas = g.b64_bytes(32).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    amz = g.chars(HEX, 64)
    goog = g.chars(HEX, 256)
    cf_sig = g.mixed(B64URL, 160)
    alikey, alisecret = "LTAI5t" + g.mixed(ALNUM, 18), g.mixed(ALNUM, 30)
    tckey, tcsecret = "AKID" + g.mixed(ALNUM, 32), g.mixed(ALNUM, 32)
    session = "IQoJb3JpZ2luX2VjE" + g.mixed(B64, 360)
    ibm = g.mixed(B64URL, 44)
    azure_ad = g.mixed(ALNUM, 3) + g.chars(DIGITS, 1) + "Q~" + g.mixed(ALNUM + "_-.~", 34)
    return [
        Case(f"curl -H 'Authorization: Bearer {ya29}' https://www.googleapis.com/drive/v3/files", "bearer token",
             "GCP OAuth access token", ya29),
        Case(f"download it from https://acmelogs.blob.core.windows.net/exports/q3.csv?sv=2022-11-02&ss=b&srt=o"
             f"&sp=r&se=2026-01-01T00:00:00Z&st=2025-01-01T00:00:00Z&spr=https&sig={sas}", "URL with a token",
             "Azure SAS URL", sas),
        Case(f"presigned: https://acme-exports.s3.amazonaws.com/r.zip?X-Amz-Algorithm=AWS4-HMAC-SHA256"
             f"&X-Amz-Credential=AKIA{g.chars(UPPER + '234567', 16)}%2F20250101%2Fus-east-1%2Fs3%2Faws4_request"
             f"&X-Amz-Date=20250101T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature={amz}",
             "URL with a token", "S3 presigned URL", amz),
        Case(f"https://storage.googleapis.com/acme-bkt/dump.sql?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential="
             f"svc%40acme.iam.gserviceaccount.com%2F20250101%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date="
             f"20250101T000000Z&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature={goog}",
             "URL with a token", "GCS signed URL", goog),
        Case(f"https://d111111abcdef8.cloudfront.net/video.mp4?Expires=1767225600&Signature={cf_sig}"
             f"&Key-Pair-Id=K{g.chars(UPPER + DIGITS, 13)}", "URL with a token", "CloudFront signed URL", cf_sig),
        Case(f"alibaba:\n  access_key_id: {alikey}\n  access_key_secret: {alisecret}", "secret assignment",
             "Alibaba access key pair", alisecret),
        Case(f"tencent SecretId={tckey} SecretKey={tcsecret}", "secret assignment", "Tencent key pair", tcsecret),
        Case(f"[default]\naws_access_key_id = ASIA{g.chars(UPPER + '234567', 16)}\naws_secret_access_key = "
             f"{g.mixed(B64, 40)}\naws_session_token = {session}", "secret assignment", "AWS session token (INI)",
             session),
        Case(f'{{"apikey": "{ibm}", "iam_apikey_description": "Auto-generated for key crn:v1:bluemix"}}',
             "secret assignment", "IBM Cloud API key", ibm),
        Case(f"the app registration's client secret value is {azure_ad}", "secret assignment", "Azure AD client secret",
             azure_ad),
    ]  # fmt: skip


def _hosting(g: Gen) -> list[Case]:
    vercel = g.mixed(ALNUM, 24)
    netlify = "nfp_" + g.mixed(ALNUM, 36)
    heroku = "HRKU-AA" + g.mixed(B64URL, 58)
    supa = "sbp_" + g.chars(HEX, 40)
    pscale = "pscale_pw_" + g.mixed(B64URL, 43)
    neon = "napi_" + g.chars(LOWER + DIGITS, 64)
    fly = "FlyV1 fm2_" + g.mixed(B64, 180)
    render = "rnd_" + g.mixed(ALNUM, 32)
    dapi = "dapi" + g.chars(HEX, 32)
    redis_pw = g.mixed(ALNUM, 32)
    return [
        Case(f"vercel deploy --prod --token {vercel}", "secret assignment", "Vercel token", vercel),
        Case(f"NETLIFY_AUTH_TOKEN: {netlify}", "secret assignment", "Netlify token", netlify),
        Case(f"heroku auth:token printed {heroku}", "secret assignment", "Heroku API key (v2)", heroku),
        Case(f"supabase login --token {supa}", "secret assignment", "Supabase access token", supa),
        Case(f"DATABASE_PASSWORD='{pscale}'", "password assignment", "PlanetScale password", pscale),
        Case(f"neonctl --api-key {neon} projects list", "secret assignment", "Neon API key", neon),
        Case(f'FLY_API_TOKEN="{fly}"', "secret assignment", "Fly.io token", fly.split(" ")[1]),
        Case(f"render's api key is {render}", "secret assignment", "Render API key", render),
        Case(f"databricks configure: host=https://adb-{g.digits(16)}.2.azuredatabricks.net token={dapi}",
             "secret assignment", "Databricks token", dapi),
        Case(f"REDIS_URL=rediss://default:{redis_pw}@eu1-tough-bee-3312.upstash.io:6379", "URL with a password",
             "Upstash Redis URL", redis_pw),
    ]  # fmt: skip


def _webhooks(g: Gen) -> list[Case]:
    discord = g.mixed(B64URL, 68)
    teams = g.chars(HEX, 32)
    gchat_key, gchat_token = "AIza" + g.mixed(B64URL, 35), g.mixed(B64URL, 43)
    mattermost = g.chars(LOWER + DIGITS, 26)
    feishu = g.uuid()
    dingtalk = g.chars(HEX, 64)
    return [
        Case(f"alerts go to https://discord.com/api/webhooks/{g.digits(19)}/{discord}", "webhook URL",
             "Discord webhook", discord),
        Case(f"Teams connector: https://acme.webhook.office.com/webhookb2/{g.uuid()}@{g.uuid()}/IncomingWebhook/"
             f"{teams}/{g.uuid()}", "webhook URL", "Teams webhook", teams),
        Case(f"https://chat.googleapis.com/v1/spaces/AAAA{g.mixed(ALNUM, 7)}/messages?key={gchat_key}"
             f"&token={gchat_token}", "URL with a token", "Google Chat webhook", gchat_token),
        Case(f"mattermost incoming hook https://chat.acme.io/hooks/{mattermost}", "webhook URL",
             "Mattermost webhook", mattermost),
        Case(f"飞书机器人 https://open.feishu.cn/open-apis/bot/v2/hook/{feishu}", "webhook URL", "Feishu webhook",
             feishu),
        Case(f"https://oapi.dingtalk.com/robot/send?access_token={dingtalk}", "URL with a token", "DingTalk webhook",
             dingtalk),
    ]  # fmt: skip


def _payments(g: Gen) -> list[Case]:
    square = "EAAA" + g.mixed(B64URL, 60)
    braintree = f"access_token$production${g.chars(LOWER + DIGITS, 16)}${g.chars(HEX, 32)}"
    paystack = "sk_live_" + g.chars(HEX, 40)
    flutter = f"FLWSECK-{g.chars(HEX, 32)}-X"
    adyen = "AQE" + g.mixed(ALNUM, 30) + "+" + g.mixed(B64, 60)
    razor_id, razor_secret = "rzp_live_" + g.mixed(ALNUM, 14), g.mixed(ALNUM, 24)
    return [
        Case(f"SQUARE_ACCESS_TOKEN={square}", "secret assignment", "Square access token", square),
        Case(f"braintree gateway = {braintree}", "secret assignment", "Braintree access token", braintree),
        Case(f"paystack secret {paystack}", "Stripe key", "Paystack secret key", paystack),
        Case(f"FLUTTERWAVE_SECRET_KEY={flutter}", "secret assignment", "Flutterwave secret key", flutter),
        Case(f"X-API-Key: {adyen}", "secret assignment", "Adyen API key", adyen),
        Case(f"razorpay key_id={razor_id} key_secret={razor_secret}", "secret assignment", "Razorpay key secret",
             razor_secret),
    ]  # fmt: skip


def _config_formats(g: Gen) -> list[Case]:
    docker_auth = base64.b64encode(f"ci-bot:{g.mixed(ALNUM, 20)}".encode()).decode()
    pem = "\n".join(
        ["-----BEGIN RSA PRIVATE KEY-----", *pem_lines(der_private_key(g, 600)), "-----END RSA PRIVATE KEY-----"]
    )
    client_key = base64.b64encode((pem + "\n").encode()).decode()
    netrc_pw = g.password(16)
    laravel = "base64:" + g.b64_bytes(32)
    rails = g.chars(HEX, 128)
    django = "django-insecure-" + g.chars(LOWER + DIGITS + "!@#$%^&*(-_=+)", 50)
    npm_auth = base64.b64encode(f"deploy:{g.mixed(ALNUM, 18)}".encode()).decode()
    maven = g.password(14)
    nuget = g.password(18)
    wp = g.password(20)
    spring = g.password(12)
    return [
        Case(json.dumps({"auths": {"registry.acme.io": {"auth": docker_auth}}}), "basic auth credentials",
             "Docker config auth", docker_auth),
        Case(f"users:\n- name: admin\n  user:\n    client-certificate-data: LS0tLS1CRUdJTiBDRVJU\n"
             f"    client-key-data: {client_key}", "private key", "kubeconfig client-key-data", client_key),
        Case(f"machine api.heroku.com\n  login ops@acme.io\n  password {netrc_pw}", "password assignment",
             ".netrc password", netrc_pw),
        Case(f"APP_KEY={laravel}", "secret assignment", "Laravel APP_KEY", laravel.split(":")[1]),
        Case(f"SECRET_KEY_BASE={rails}", "secret assignment", "Rails SECRET_KEY_BASE", rails),
        Case(f"SECRET_KEY = '{django}'", "secret assignment", "Django SECRET_KEY", django),
        Case(f"//registry.acme.io/:_auth={npm_auth}", "secret assignment", ".npmrc _auth", npm_auth),
        Case(f"<server>\n  <id>releases</id>\n  <username>deployer</username>\n  <password>{maven}</password>\n"
             "</server>", "password assignment", "Maven settings.xml password", maven),
        Case(f'<add key="ClearTextPassword" value="{nuget}" />', "password assignment", "NuGet config password",
             nuget),
        Case(f"define( 'DB_PASSWORD', '{wp}' );", "password assignment", "wp-config DB_PASSWORD", wp),
        Case(f"spring.datasource.password={spring}", "password assignment", "Spring datasource password", spring),
    ]  # fmt: skip


def _key_files(g: Gen) -> list[Case]:
    ppk, ppk_private = ppk_file(g)
    openssh = openssh_private_key(g)
    pgp, pgp_body = pgp_private_block(g)
    d = g.b64url(g.rng.randbytes(256))
    jwk = json.dumps({"kty": "RSA", "kid": g.uuid(), "n": g.b64url(g.rng.randbytes(256)), "e": "AQAB", "d": d,
                      "p": g.b64url(g.rng.randbytes(128))})  # fmt: skip
    p12 = base64.b64encode(b"\x30\x82\x09\x9f\x02\x01\x03\x30\x82\x09\x65" + g.rng.randbytes(2400)).decode()
    headerless = pem_lines(der_private_key(g, 1190, pkcs8=True))
    return [
        Case(ppk, "PuTTY private key", "PuTTY PPK", ppk_private),
        Case(f"my id_ed25519:\n{openssh}", "PEM private key", "OpenSSH private key", openssh.splitlines()[2]),
        Case(pgp, "PEM private key", "PGP private key block", pgp_body),
        Case(f"signing jwk: {jwk}", "JSON Web Key", "JWK private key", d),
        Case(f"P12_BASE64={p12}", "private key", "PKCS#12 base64", p12[:200]),
        Case(
            "here is the key body (I lost the first line):\n" + "\n".join(headerless),
            "private key",
            "private key body without header",
            "\n".join(headerless[1:4]),
        ),
    ]


def _wallets(g: Gen) -> list[Case]:
    from .keyfiles import seed_words

    eth = g.chars(HEX, 64)
    wif = "5" + g.pick(["H", "J", "K"]) + g.chars(_BASE58, 49)
    xprv = "xprv9s21ZrQH143K" + g.chars(_BASE58, 95)
    twelve = seed_words(g, 12)
    numbered = " ".join(f"{i}. {w}" for i, w in enumerate(seed_words(g, 24).split(), 1))
    return [
        Case(f"metamask export, private key 0x{eth}", "wallet private key", "Ethereum private key", eth),
        Case(f"paper wallet WIF: {wif}", "wallet private key", "Bitcoin WIF", wif),
        Case(f"electrum master key {xprv}", "wallet private key", "BIP32 xprv", xprv),
        Case(f"recovery words: {twelve}", "seed phrase", "BIP39 seed (12)", twelve),
        Case(numbered, "seed phrase", "BIP39 seed (24, numbered)", numbered),
    ]


def _prose(g: Gen) -> list[Case]:
    pw = [g.password(g.rng.randint(10, 16)) for _ in range(11)]
    pin = g.digits(4)
    return [
        Case(f"the password for the NAS is {pw[0]}", "password assignment", "password in prose (English)", pw[0]),
        Case(f"log in as admin with {pw[1]}", "password assignment", "login in prose (English)", pw[1]),
        Case(f"fyi the guest wifi pass is {pw[2]} until friday", "password assignment", "password in prose (English)",
             pw[2]),
        Case(f"Das Passwort für den Router lautet {pw[3]}", "password assignment", "password in prose (German)",
             pw[3]),
        Case(f"Le mot de passe du compte est {pw[4]}", "password assignment", "password in prose (French)", pw[4]),
        Case(f"la contraseña del servidor es {pw[5]}", "password assignment", "password in prose (Spanish)", pw[5]),
        Case(f"服务器密码是{pw[6]}", "password assignment", "password in prose (Chinese)", pw[6]),
        Case(f"管理画面のパスワードは{pw[7]}です", "password assignment", "password in prose (Japanese)", pw[7]),
        Case(f"a senha do banco é {pw[8]}", "password assignment", "password in prose (Portuguese)", pw[8]),
        Case(f"пароль от сервера: {pw[9]}", "password assignment", "password in prose (Russian)", pw[9]),
        Case(f"Kennwort: {pw[10]}", "password assignment", "password in prose (German)", pw[10]),
        Case(f"my bank card pin is {pin}", "password assignment", "PIN in prose", pin),
    ]  # fmt: skip


def _dev_tokens(g: Gen) -> list[Case]:
    tokens = {
        "Perplexity API key": "pplx-" + g.mixed(ALNUM, 48),
        "xAI API key": "xai-" + g.mixed(ALNUM, 80),
        "Replicate token": "r8_" + g.mixed(ALNUM, 37),
        "LangSmith key": f"lsv2_pt_{g.chars(HEX, 32)}_{g.chars(HEX, 10)}",
        "Pinecone key": "pcsk_" + g.mixed(ALNUM, 6) + "_" + g.mixed(ALNUM, 63),
        "Notion token": "ntn_" + g.digits(11) + g.mixed(ALNUM, 35),
        "Linear API key": "lin_api_" + g.mixed(ALNUM, 40),
        "Figma token": "figd_" + g.mixed(B64URL, 40),
        "Sentry user token": "sntryu_" + g.chars(HEX, 64),
        "Grafana service account token": f"glsa_{g.mixed(ALNUM, 32)}_{g.chars(HEX, 8)}",
        "New Relic user key": "NRAK-" + g.chars(UPPER + DIGITS, 27),
        "Postman API key": f"PMAK-{g.chars(HEX, 24)}-{g.chars(HEX, 34)}",
        "Doppler token": "dp.pt." + g.mixed(ALNUM, 43),
        "Tailscale auth key": f"tskey-auth-{g.mixed(ALNUM, 12)}-{g.mixed(ALNUM, 32)}",
        "Docker Hub token": "dckr_pat_" + g.mixed(B64URL, 27),
        "Dynatrace token": f"dt0c01.{g.chars(UPPER + DIGITS, 24)}.{g.chars(UPPER + DIGITS, 64)}",
    }
    phrasings = [
        "here you go: {t}", "{t}", "token={t}", "use {t} for now", "cli printed: {t}", "creds -> {t}",
        "ok so it's {t} right?", "`{t}`",
    ]  # fmt: skip
    return [
        Case(phrasings[i % len(phrasings)].format(t=token), "secret assignment", vendor, token)
        for i, (vendor, token) in enumerate(tokens.items())
    ]


def _recall_shapes(g: Gen) -> list[Case]:
    """Cases for recall: a key split over lines, a redacted key id beside its secret."""
    openai = "sk-proj-" + g.mixed(B64URL, 100)
    half = len(openai) // 2
    aws_secret = g.mixed(B64, 40)
    gh = "ghp_" + g.mixed(ALNUM, 36)
    return [
        Case(
            f"the key wrapped in my terminal:\n{openai[:half]}\n{openai[half:]}\nworks now",
            "OpenAI API key",
            "key split over two lines",
            openai[half:],
        ),
        Case(
            f"aws_access_key_id = [redacted AWS access key]\naws_secret_access_key={aws_secret}",
            "AWS secret access key",
            "secret beside a redacted key id",
            aws_secret,
        ),
        Case(
            f"id [redacted AWS access key] / {aws_secret[::-1]}",
            "AWS secret access key",
            "secret beside a redacted key id",
            aws_secret[::-1],
        ),
        Case(f"GITHUB_TOKEN={gh[:20]}\\\n{gh[20:]}", "GitHub token", "key split over two lines", gh[20:]),
    ]


def held_out_format_secrets(g: Gen) -> list[Case]:
    """Secrets of the second held-out part."""
    return [
        *_cloud(g), *_hosting(g), *_webhooks(g), *_payments(g), *_config_formats(g), *_key_files(g), *_wallets(g),
        *_prose(g), *_dev_tokens(g), *_recall_shapes(g),
    ]  # fmt: skip


def held_out_format_lookalikes(g: Gen) -> list[Case]:
    """Look-alikes of the second held-out part."""
    texts = [
        f"merged as {g.chars(HEX, 40)} on main",
        f'"id": "{g.uuid()}", "parent": "{g.uuid()}"',
        f'  resolved "https://registry.yarnpkg.com/lodash/-/lodash-4.17.21.tgz#{g.chars(HEX, 40)}"',
        f"  integrity sha512-{g.b64_bytes(64)}",
        f'checksum = "{g.chars(HEX, 64)}"',
        f"github.com/stretchr/testify v1.9.0 h1:{g.b64_bytes(32)}",
        f"image: ghcr.io/acme/worker@sha256:{g.chars(HEX, 64)}",
        ".btn-primary { color: #1a2b3c; background: #ffcc00; border-color: #0d6efd; }",
        "AbstractSingletonProxyFactoryBeanDefinitionRegistryPostProcessor is a real Spring class name",
        f"echo {base64.b64encode(b'deploy finished without errors on all hosts').decode()} | base64 -d",
        "https://www.google.com/search?q=rotate+api+token&hl=en&source=hp&ei=abcdef",
        "https://example.com/reset?lang=en&step=2&next=%2Fdashboard",
        "upgrade to 3.12.0b4 or 2024.10.31-rc2+build.7788",
        f"webpack emitted main.{g.chars(HEX, 20)}.js and vendor.{g.chars(HEX, 20)}.css",
        f"{g.chars(HEX, 64)}  palace-0.1.0-py3-none-any.whl",
        "the password must contain at least one digit and one symbol",
        "Passwort vergessen? Klicken Sie auf den Link.",
        "le mot de passe doit contenir 12 caractères",
        "la contraseña es obligatoria",
        "密码不能为空",
        "パスワードを忘れた場合はリセットしてください",
        "we were able to build a better world for every child around here",
        "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ" + g.chars(B64, 300) + " ci@runner",
        f"traceparent: 00-{g.chars(HEX, 32)}-{g.chars(HEX, 16)}-01",
        "-----BEGIN CERTIFICATE-----\n" + "\n".join(g.chars(B64, 64) for _ in range(6)) + "\n-----END CERTIFICATE-----",
        f"pk_live_{g.mixed(ALNUM, 24)} is the publishable key, safe for the browser",
        "set token_endpoint=https://auth.acme.io/oauth/token and key_id=signing-2025",
        "export NODE_OPTIONS=--max-old-space-size=4096",
        f"the file's md5 is {g.chars(HEX, 32)} and sha1 {g.chars(HEX, 40)}",
        "arn:aws:iam::123456789012:role/service-role/AWSCodePipelineServiceRole-us-east-1-pipeline",
    ]
    return [Case(text, None, "held-out look-alike (formats)") for text in texts]
