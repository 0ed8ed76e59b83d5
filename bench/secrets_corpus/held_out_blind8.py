"""The tenth held-out part (issue 22), written blind in the eighth round (without looking at the detector, its
tests or its benchmark) and only reported, never tuned on: formats and contexts no other part has (observability,
feature-flag, analytics, payment, AI, CI and package-registry services' keys; cloud, IaC and CI configs of more
kinds; database client configs, replication settings and SQL of more engines; homelab, IoT, media-server and
game-server configs; mail clients, VPN and proxy configs and network devices; mobile and desktop signing
configs; passwords typed at shell prompts, process listings, traces, logs, stack traces and the output of
secret managers; chat messages handing over keys, PINs and logins in about forty languages; URLs of more
schemes, signed and capability URLs, heartbeat and automation webhooks; key files in new layouts; wallet keys of
more chains and tools, and seed phrases in seven more BIP39 wordlists and new layouts (SeedQR digits, steel-plate
four-letter stems, LND cipher seeds); secrets in more languages, notebooks, test tools and text expanders;
tokens hard-wrapped over lines; base64 of user:password in more headers and clients), and look-alikes (hashes
and checksums named as such, commit SHAs, ids, build ids and asset hashes, public keys and addresses, encrypted
blobs, references to secret stores and environment variables, placeholders, masked values, documented test
values, colours, policies, docs and log lines that give no secret, in many languages, and some arguable
ones). Its figure measures how the detector generalises.

    from bench.secrets_corpus.held_out_blind8 import BLIND8_SECRETS, BLIND8_LOOKALIKES

Every value is random in its documented shape (from a fixed seed); none is a real credential. The few
documented, published test values among the look-alikes (a test card number, an SDK's example key, a
development chain's well-known account) are public by design."""

from __future__ import annotations

import base64
import json

from .gen import (
    ALNUM,
    B64,
    B64URL,
    BASE58,
    DIGITS,
    HEX,
    LOWER,
    SHELL_SAFE,
    UPPER,
    XML_SAFE_PASSWORD,
    Case,
    Gen,
    b64_text,
    json_b64url,
    jwt,
    pem_lines,
    shell_safe_password,
    strong_password,
    url_safe_password,
)

__all__ = ["BLIND8_LOOKALIKES", "BLIND8_SECRETS", "blind8_lookalikes", "blind8_secrets"]

_BASE58 = BASE58
_BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
_UPPER_ALNUM = UPPER + DIGITS
_LOWER_ALNUM = LOWER + DIGITS
_HEX_UPPER = HEX.upper()
_PW = XML_SAFE_PASSWORD
_SAFE = SHELL_SAFE
_SHORT = ALNUM + "!#%*+-.?@_"  # for passwords that must stay short (PHP cuts trace arguments at 15 characters)
# Words from the end of the BIP39 English list (no checksum is computed), so no other part's words are reused.
_BIP39 = (
    "pulse pumpkin punch pupil puppy purchase purity purpose purse push puzzle pyramid quality quantum quarter "
    "question quick quit quiz quote rabbit raccoon race rack radar radio rail rain raise rally ramp ranch random "
    "range rapid rare rate rather raven razor ready real reason rebel rebuild recall receive recipe record "
    "recycle reduce reflect reform refuse region regret regular reject relax release relief rely remain "
    "remember remind remove render renew rent reopen repair repeat replace report require rescue resemble "
    "resist resource response result retire retreat return reunion reveal review reward rhythm ribbon rice "
    "rich ride ridge rifle right rigid riot ripple risk ritual rival river road roast robot robust rocket "
    "romance roof rookie room rose rotate rough round route royal rubber rude rug rule runway rural saddle "
    "sadness safe sail salad salmon salt salute same sample sand satisfy sauce sausage save scale scan scare "
    "scatter scene scheme school science scissors scorpion scout scrap screen script scrub search season seat "
    "second section security seed seek segment select sell seminar senior sense sentence series service "
    "session settle setup seven shadow shaft shallow share shed shell sheriff shield shift shine ship shiver "
    "shock shoe shoot shop short shoulder shove shrimp shrug shuffle sibling sick side siege sight sign silent "
    "silk silly silver similar simple since sing siren sister situate size skate sketch skill skin skirt skull "
    "slab slam sleep slender slice slide slight slim slogan slot slow slush small smart smile smoke smooth "
    "snack snake snap sniff snow soap soccer social sock soda soft solar soldier solid solution solve someone "
    "song soon sorry sort soul sound soup source south space spare spatial spawn speak special speed spell "
    "spend sphere spice spider spike spin spirit split spoil sponsor spoon sport spot spray spread spring "
    "square squeeze squirrel stable stadium staff stage stairs stamp stand start state stay steak steel stem "
    "step stereo stick still sting stock stomach stone stool story stove strategy street strike strong "
    "struggle student stuff stumble style subject submit subway success such sudden suffer sugar suggest suit "
    "summer sunny sunset super supply supreme sure surface surge surprise surround survey suspect sustain "
    "swallow swamp swap swarm swear sweet swift swim swing switch sword symbol symptom syrup system table "
    "tackle tail talent tank tape target task taste tattoo taxi teach team tenant tennis tent term text thank "
    "theme theory thing thought three thrive throw thumb thunder ticket tide tiger tilt timber tiny tired "
    "tissue title toast tobacco today toddler together toilet token tomato tomorrow tone tongue tonight tool "
    "tooth topic topple torch tornado tortoise toss total tourist toward tower town track trade traffic tragic "
    "train transfer trap trash travel tray treat trend trial tribe trick trigger trim trophy trouble truck "
    "truly trumpet trust truth tube tuition tumble tuna tunnel turkey turtle twelve twenty twice twin twist "
    "type typical ugly umbrella unable unaware uncle uncover under undo unfair unfold unhappy uniform unique "
    "universe unknown unlock until unusual unveil update upgrade uphold upon upper upset urban usage useful "
    "useless usual utility vacant vacuum vague valid valley valve vanish vapor various vast vault vehicle "
    "velvet vendor venture venue verb verify version vessel veteran viable vibrant vicious victory video view "
    "village vintage violin virtual virus visa visit visual vital vivid vocal voice void volcano volume vote "
    "voyage wage wagon walnut warfare warm warrior wash wasp waste water wave wealth weapon weasel weather "
    "wedding weekend weird welcome whale wheat wheel whip whisper width wild window wine wing wink winner "
    "winter wire wisdom witness wolf woman wonder wood wool world worry worth wrap wreck wrestle wrist wrong "
    "yard year yellow young youth zebra zero zone"
).split()
# Words of the BIP39 Spanish list.
_BIP39_ES = (
    "ábaco abdomen abeja abierto abogado abono aborto abrazo abrir abuelo abuso acabar academia acceso acción "
    "aceite acelga acento aceptar ácido aclarar acné acoger acoso activo acto actriz actuar acudir acuerdo "
    "acusar adicto admitir adoptar adorno aduana adulto aéreo afectar afición afinar afirmar ágil agitar agonía "
    "agosto agotar agregar agrio agua agudo águila aguja ahogo ahorro aire aislar ajedrez ajeno ajuste alacrán "
    "alambre alarma alba álbum alcalde aldea alegre alejar alerta aleta alfiler alga algodón aliado aliento "
    "alivio alma almeja almíbar altar alteza altivo alto altura alumno alzar amable amante amapola amargo "
    "amasar ámbar ámbito ameno amigo amistad amor amparo amplio ancho anciano ancla andar andén anemia ángulo"
).split()
# Words of the BIP39 Italian list.
_BIP39_IT = (
    "abaco abbaglio abbinato abete abisso abolire abrasivo abrogato accadere accenno accusato acetone achille "
    "acido acqua acre acrilico acrobata acuto adagio addebito addome adeguato aderire adipe adottare adulare "
    "affabile affetto affisso affranto aforisma afoso africano agave agente agevole aggancio agire agitare "
    "agonismo agricolo agrumeto aguzzo alabarda alato albatro alberato albo albume alce alcolico alettone alfa "
    "algebra aliante alibi alimento allagato allegro allievo allodola allusivo almeno alogeno alpaca alpestre "
    "altalena alterno alticcio altrove alunno alveolo alzare amalgama amanita amarena ambito ambrato ameba"
).split()
# Words of the BIP39 Portuguese list.
_BIP39_PT = (
    "abacate abaixo abalar abater abduzir abelha aberto abismo abotoar abranger abreviar abrigar abrupto "
    "absinto absoluto absurdo abutre acabado acalmar acampar acanhar acaso aceitar acelerar acenar acervo "
    "acessar acetona achatar acidez acima acionado acirrar aclamar aclive acolhida acomodar acoplar acordar "
    "acumular acusador adaptar adega adentro adepto adequar aderente adesivo adeus adiante aditivo adjetivo "
    "adjunto admirar adorar adquirir adubo adverso advogado aeronave afastar aferir afetivo afinador afivelar "
    "aflito afluente afrontar agachar agarrar agasalho agenciar agilizar agiota agitado agora agradar agreste"
).split()
# Words of the BIP39 Czech list.
_BIP39_CS = (
    "abdikace abeceda adresa agrese akce aktovka alej alkohol amputace ananas andulka anekdota anketa antika "
    "anulovat archa arogance asfalt asistent aspirace astma astronom atlas atletika atol autobus azyl babka "
    "bachor bacil baculka badatel bageta bagr bahno bakterie balada baletka balkon balonek balvan balza bambus "
    "bankomat barbar baret barman baroko barva baterka batoh bavlna bazalka bazilika bazuka bedna beran beseda "
    "bestie beton bezinka bezmoc beztak bicykl bidlo biftek bikiny bilance biograf biolog bitva bizon blahobyt"
).split()
# Words of the BIP39 Japanese list (a mnemonic in it is joined with ideographic spaces).
_BIP39_JA = (
    "あいこくしん あいさつ あいだ あおぞら あかちゃん あきる あけがた あける あこがれる あさい あさひ あしあと "
    "あじわう あずかる あずき あそぶ あたえる あたためる あたりまえ あたる あつい あつかう あっしゅく あつまり "
    "あつめる あてな あてはまる あひる あぶら あぶる あふれる あまい あまど あまやかす あまり あみもの あめりか "
    "あやまる あゆむ あらいぐま あらし あらすじ あらためる あらゆる あらわす ありがとう あわせる あわてる あんい "
    "あんがい あんこ あんぜん あんてい あんない あんまり いいだす いおん いがい いがく いきおい いきなり いきもの"
).split()
# Characters of the BIP39 Chinese (simplified) list.
_BIP39_ZH = list(
    "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定"
    "行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由"
)
# Words of the BIP39 Korean list.
_BIP39_KO = (
    "가격 가끔 가난 가능 가득 가르침 가뭄 가방 가상 가슴 가운데 가을 가이드 가입 가장 가정 가족 가죽 각오 각자 "
    "간격 간부 간섭 간장 간접 간판 갈등 갈비 갈색 갈증 감각 감기 감소 감수성 감자 감정 갑자기 강남 강당 강도 "
    "강력히 강변 강북 강사 강수량 강아지 강원도 강의 강제 강조 같이 개구리 개나리 개방 개별 개선 개성 개인"
).split()
_WORDS = ["Heron", "Juniper", "Cobalt", "Saffron", "Meridian", "Pelican", "Fennel", "Granite", "Lagoon", "Walrus",
          "Sorrel", "Tangerine", "Orchid", "Bramble", "Ember", "Quartz"]  # fmt: skip


_pw = strong_password
_sp = shell_safe_password
_up = url_safe_password
_b64 = b64_text
_lines = pem_lines
_json_b64url = json_b64url
_jwt = jwt


def _hu(g: Gen) -> str:
    """A human-ish password of moderate strength: words, digits and a symbol."""
    word, other = g.rng.sample(_WORDS, 2)
    sym = g.pick(list("!#$%*?@+"))
    shape = g.rng.randrange(4)
    if shape == 0:
        return f"{word}{g.chars(DIGITS, 4)}{sym}"
    if shape == 1:
        return f"{word.lower()}-{other.lower()}-{g.chars(DIGITS, 3)}"
    if shape == 2:
        return f"{other}{sym}{word}{g.chars(DIGITS, 2)}"
    return f"{g.chars(DIGITS, 2)}{word}{sym}{other}"


def _words(g: Gen, wordlist: list[str], n: int, sep: str = " ") -> str:
    """n random words of wordlist joined by sep."""
    return sep.join(g.rng.choice(wordlist) for _ in range(n))


def _hs(g: Gen, payload: dict[str, object]) -> str:
    """An HS256 JWT with the given payload."""
    return _jwt(g, {"alg": "HS256", "typ": "JWT"}, payload)


def _ec_pkcs8(g: Gen) -> bytes:
    """DER of a random PKCS#8 P-256 private key (with its public point)."""
    head = bytes.fromhex("308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420")
    return head + g.rng.randbytes(32) + bytes.fromhex("a14403420004") + g.rng.randbytes(64)


def _sec1(g: Gen, curve_oid: str = "2a8648ce3d030107") -> bytes:
    """DER of a random SEC1 EC private key on the curve of curve_oid (P-256 unless told)."""
    oid = bytes.fromhex(curve_oid)
    params = bytes([0xA0, len(oid) + 2, 0x06, len(oid)]) + oid
    body = bytes.fromhex("0201010420") + g.rng.randbytes(32) + params + bytes.fromhex("a1440342000004")
    body += g.rng.randbytes(64)
    return bytes([0x30, len(body)]) + body


def _observability_and_flags(g: Gen) -> list[Case]:
    """Observability, incident, analytics and feature-flag services' keys and tokens."""
    rootly = "rootly_" + g.chars(HEX, 64)
    instana = g.mixed(B64URL, 22)
    appd = g.chars(_LOWER_ALNUM, 12)
    apm = g.mixed(ALNUM, 24)
    mezmo = g.chars(HEX, 32)
    raygun = g.mixed(ALNUM, 22)
    blackfire = g.chars(HEX, 64)
    amplitude = g.chars(HEX, 32)
    plausible = g.mixed(B64URL, 64)
    statsig = "secret-" + g.mixed(ALNUM, 43)
    flagsmith = "ser." + g.mixed(ALNUM, 22)
    unleash = "default:production." + g.chars(HEX, 64)
    unleash_admin = "*:*." + g.chars(HEX, 64)
    airbrake = g.chars(HEX, 32)
    scout = g.mixed(ALNUM, 20)
    incident = g.chars(HEX, 64)
    cf_access = g.chars(HEX, 64)
    sentry_props = g.mixed(ALNUM, 20)
    lightstep = g.mixed(B64, 84)
    honeybadger_ins = "hbi_" + g.mixed(ALNUM, 36)
    return [
        Case(f"ROOTLY_API_TOKEN={rootly}\nrootly-cli pulse --label service=shop 'deploy finished'", "secret assignment",
             "Rootly API token", rootly),
        Case(f"agent:\n  key: {instana}\n  endpointHost: ingress-red-saas.instana.io\n  endpointPort: 443\n"
             "zone:\n  name: eu-prod", "secret assignment", "Instana agent key in Helm values", instana),
        Case(f"APPDYNAMICS_CONTROLLER_HOST_NAME=acme.saas.appdynamics.com\nAPPDYNAMICS_AGENT_ACCOUNT_NAME=acme\n"
             f"APPDYNAMICS_AGENT_ACCOUNT_ACCESS_KEY={appd}", "secret assignment", "AppDynamics account access key",
             appd),
        Case(f"ELASTIC_APM_SERVER_URL=https://apm.acme.io:8200\nELASTIC_APM_SECRET_TOKEN={apm}\n"
             "ELASTIC_APM_SERVICE_NAME=shop", "secret assignment", "Elastic APM secret token", apm),
        Case(f"MZ_INGESTION_KEY={mezmo}\nMZ_HOST=logs.mezmo.com\nMZ_TAGS=prod,shop", "secret assignment",
             "Mezmo ingestion key", mezmo),
        Case(f'var raygunClient = new raygun.Client().init({{ apiKey: "{raygun}", batch: true }});',
             "secret assignment", "Raygun Node client apiKey", raygun),
        Case(f"blackfire agent:config --server-id={g.uuid()} --server-token={blackfire}", "password on a command line",
             "blackfire agent:config --server-token", blackfire),
        Case(f"AMPLITUDE_API_KEY={g.chars(HEX, 32)}\nAMPLITUDE_SECRET_KEY={amplitude}", "secret assignment",
             "Amplitude secret key", amplitude),
        Case(f"curl https://plausible.io/api/v2/query -H 'Authorization: Bearer {plausible}' "
             "-d '{\"site_id\": \"acme.io\", \"metrics\": [\"visitors\"], \"date_range\": \"7d\"}'",
             "secret assignment", "Plausible Stats API key", plausible),
        Case(f'Statsig.initialize("{statsig}", {{ environment: {{ tier: "production" }} }});', "secret assignment",
             "Statsig server secret key", statsig),
        Case(f'flagsmith = Flagsmith(environment_key="{flagsmith}", enable_local_evaluation=True)',
             "secret assignment", "Flagsmith server-side environment key (ser.)", flagsmith),
        Case(f"UNLEASH_URL=https://unleash.acme.io/api\nUNLEASH_API_TOKEN={unleash}\nUNLEASH_APP_NAME=shop",
             "secret assignment", "Unleash client token (project:env.hex)", unleash),
        Case(f"curl -H 'Authorization: {unleash_admin}' https://unleash.acme.io/api/admin/projects",
             "secret assignment", "Unleash admin token (*:*.)", unleash_admin),
        Case(f"Airbrake.configure do |c|\n  c.project_id = {g.digits(6)}\n  c.project_key = '{airbrake}'\n"
             "  c.environment = Rails.env\nend", "secret assignment", "Airbrake project_key (Ruby block)", airbrake),
        Case(f"# config/scout_apm.yml\nproduction:\n  key: {scout}\n  name: shop\n  monitor: true", "secret assignment",
             "Scout APM config key", scout),
        Case(f"curl -X POST 'https://api.incident.io/v2/alert_events/http/01J{g.chars(_UPPER_ALNUM, 23)}"
             f"?token={incident}' -d @alert.json", "URL with a token", "incident.io HTTP alert source token URL",
             incident),
        Case(f"curl -H 'CF-Access-Client-Id: {g.chars(HEX, 32)}.access' -H 'CF-Access-Client-Secret: {cf_access}' "
             "https://grafana.acme.io/api/health", "secret assignment", "Cloudflare Access service token secret",
             cf_access),
        Case(f"# android/sentry.properties\ndefaults.url=https://sentry.acme.io/\ndefaults.org=acme\n"
             f"defaults.project=shop-android\nauth.token.suffix={sentry_props}", "secret assignment",
             "sentry.properties token suffix", sentry_props),
        Case(f"exporters:\n  otlp/lightstep:\n    endpoint: ingest.lightstep.com:443\n    headers:\n"
             f'      "lightstep-access-token": "{lightstep}"', "secret assignment", "Lightstep access token in OTel",
             lightstep),
        Case(f"HONEYBADGER_INSIGHTS_KEY={honeybadger_ins} vector --config vector.toml", "secret assignment",
             "Honeybadger Insights ingest key", honeybadger_ins),
    ]  # fmt: skip


def _payments_and_saas(g: Gen) -> list[Case]:
    """Payment, finance, marketing, productivity, media and data services' keys no other part has."""
    cashfree = f"cfsk_ma_prod_{g.chars(HEX, 32)}_{g.chars(HEX, 8)}"
    mercury = f"secret-token:mercury_production_rma_{g.mixed(ALNUM, 40)}_yrucrem"
    daraja = g.mixed(ALNUM, 64)
    dwolla = g.mixed(ALNUM, 50)
    modern = "live-" + g.mixed(ALNUM, 48)
    truelayer = g.uuid()
    commerce = g.uuid()
    gumroad = g.mixed(B64URL, 43)
    chargebee = "test_" + g.mixed(ALNUM, 34)
    lob = "live_" + g.chars(HEX, 35)
    kucoin = g.uuid()
    klaviyo = "pk_" + g.chars(HEX, 34)
    sendbird = g.chars(HEX, 40)
    rapid = f"{g.chars(HEX, 10)}msh{g.chars(HEX, 17)}p1{g.chars(HEX, 6)}jsn{g.chars(HEX, 12)}"
    flickr = g.chars(HEX, 16)
    coda = g.uuid()
    clockify = g.mixed(ALNUM, 48)
    buttondown = g.uuid()
    beamer = "b_" + g.mixed(B64URL, 44)
    apify = "apify_api_" + g.mixed(ALNUM, 36)
    deepl = g.uuid() + ":fx"
    waka = "waka_" + g.uuid()
    zuplo = f"zpka_{g.chars(HEX, 32)}_{g.chars(HEX, 8)}"
    maxmind = f"{g.mixed(ALNUM, 6)}_{g.mixed(ALNUM, 29)}_mmk"
    looker = g.mixed(ALNUM, 24)
    authress = (f"sc_{g.chars(_LOWER_ALNUM, 20)}.{g.chars(_LOWER_ALNUM, 5)}.acc_{g.chars(_LOWER_ALNUM, 16)}."
                f"{g.mixed(B64URL, 64)}")  # fmt: skip
    adobe = "p8e-" + g.mixed(ALNUM, 32)
    intra = "s-s4t2ud-" + g.chars(HEX, 64)
    chief = "ctp_" + g.mixed(ALNUM, 36)
    settlemint_pat = "sm_pat_" + g.mixed(ALNUM, 16)
    settlemint_aat = "sm_aat_" + g.mixed(ALNUM, 16)
    shir = f"IR@{g.uuid()}@adf-shop-prod@we@{g.b64_bytes(32)}"
    dnkey = f"dnkey-{g.chars(_UPPER_ALNUM, 26)}-{g.chars(_UPPER_ALNUM, 52)}"
    mailtrap = g.chars(HEX, 32)
    mailcow = "-".join(g.chars(_HEX_UPPER, 6) for _ in range(5))
    miro = "eyJtaXJvLm9yaWdpbiI6ImV1MDEifQ_" + g.mixed(B64URL, 27)
    calendly = _hs(g, {"iss": "https://auth.calendly.com", "iat": 1736000000, "jti": g.uuid(),
                       "user_uuid": g.uuid()})  # fmt: skip
    docusign = g.uuid()
    lokalise = g.chars(HEX, 40)
    crowdin = g.chars(HEX, 80)
    storyblok = f"{g.mixed(ALNUM, 22)}tt-{g.digits(6)}-{g.mixed(ALNUM, 20)}"
    unsplash = g.mixed(B64URL, 43)
    vimeo = g.chars(HEX, 32)
    return [
        Case(f"curl https://api.cashfree.com/pg/orders -H 'x-api-version: 2023-08-01' -H 'x-client-id: "
             f"{g.digits(8)}{g.chars(HEX, 24)}' -H 'x-client-secret: {cashfree}' -d @order.json", "secret assignment",
             "Cashfree client secret (cfsk_)", cashfree),
        Case(f"curl -H 'Authorization: Bearer {mercury}' https://api.mercury.com/api/v1/accounts", "secret assignment",
             "Mercury API token (secret-token:)", mercury),
        Case(f"MPESA_CONSUMER_KEY={g.mixed(ALNUM, 48)}\nMPESA_CONSUMER_SECRET={daraja}\nMPESA_SHORTCODE=174379",
             "secret assignment", "Safaricom Daraja consumer secret", daraja),
        Case(f"client = dwollav2.Client(key='{g.mixed(ALNUM, 50)}', secret='{dwolla}', environment='sandbox')",
             "secret assignment", "Dwolla client secret", dwolla),
        Case(f"client = ModernTreasury(organization_id='{g.uuid()}', api_key='{modern}')", "secret assignment",
             "Modern Treasury API key (live-)", modern),
        Case(f'"TrueLayer": {{\n  "ClientId": "acme-{g.chars(_LOWER_ALNUM, 6)}",\n  "ClientSecret": "{truelayer}",\n'
             '  "UseSandbox": false\n}', "secret assignment", "TrueLayer ClientSecret in appsettings.json", truelayer),
        Case(f"curl https://api.commerce.coinbase.com/charges -H 'X-CC-Api-Key: {commerce}' "
             "-H 'X-CC-Version: 2018-03-22' -d @charge.json", "secret assignment", "Coinbase Commerce X-CC-Api-Key",
             commerce),
        Case(f"curl https://api.gumroad.com/v2/products -d access_token={gumroad} -X GET", "secret assignment",
             "Gumroad access_token form field", gumroad),
        Case(f'chargebee.configure("{chargebee}", "acme-test")', "secret assignment", "Chargebee site API key",
             chargebee),
        Case(f"const lob = new Lob({{ apiKey: '{lob}' }});\nawait lob.postcards.create(card);", "secret assignment",
             "Lob live API key", lob),
        Case(f"KUCOIN_API_KEY={g.chars(HEX, 24)}\nKUCOIN_API_SECRET={kucoin}\nKUCOIN_API_PASSPHRASE={_sp(g)}",
             "secret assignment", "KuCoin API secret (UUID)", kucoin),
        Case(f"curl https://a.klaviyo.com/api/profiles/ -H 'Authorization: Klaviyo-API-Key {klaviyo}' "
             "-H 'revision: 2024-10-15'", "secret assignment", "Klaviyo private API key header", klaviyo),
        Case(f"curl -H 'Api-Token: {sendbird}' https://api-{g.uuid().upper()}.sendbird.com/v3/users?limit=10",
             "secret assignment", "Sendbird Api-Token header", sendbird),
        Case(f"headers = {{'X-RapidAPI-Key': '{rapid}', 'X-RapidAPI-Host': 'weatherbit-v1-mashape.p.rapidapi.com'}}",
             "secret assignment", "RapidAPI X-RapidAPI-Key", rapid),
        Case(f"flickr = flickrapi.FlickrAPI('{g.chars(HEX, 32)}', '{flickr}', format='parsed-json')",
             "secret assignment", "Flickr API secret", flickr),
        Case(f'coda = Coda("{coda}")\ndoc = coda.get_doc("{g.mixed(B64URL, 10)}")', "secret assignment",
             "Coda API token (codaio)", coda),
        Case(f"curl -H 'X-Api-Key: {clockify}' https://api.clockify.me/api/v1/user", "secret assignment",
             "Clockify X-Api-Key", clockify),
        Case(f"curl -H 'Authorization: Token {buttondown}' https://api.buttondown.com/v1/subscribers",
             "secret assignment", "Buttondown Token header (UUID)", buttondown),
        Case(f"curl -H 'Beamer-Api-Key: {beamer}' https://api.getbeamer.com/v0/posts", "secret assignment",
             "Beamer-Api-Key header", beamer),
        Case(f"APIFY_TOKEN={apify} apify run --purge", "secret assignment", "Apify API token", apify),
        Case(f'translator = deepl.Translator("{deepl}")\n'
             'print(translator.translate_text("Hallo", target_lang="EN-GB"))',
             "secret assignment", "DeepL auth key (:fx free-tier suffix)", deepl),
        Case(f"$ cat ~/.wakatime.cfg\n[settings]\napi_key = {waka}\nhide_file_names = true", "secret assignment",
             "WakaTime ~/.wakatime.cfg api_key", waka),
        Case(f"curl https://shop-api-main-{g.chars(HEX, 7)}.zuplo.app/v1/orders -H 'Authorization: Bearer {zuplo}'",
             "secret assignment", "Zuplo API key (zpka_)", zuplo),
        Case(f"# /etc/GeoIP.conf\nAccountID {g.digits(6)}\nLicenseKey {maxmind}\nEditionIDs GeoLite2-City GeoLite2-ASN",
             "secret assignment", "MaxMind GeoIP.conf LicenseKey", maxmind),
        Case(f"[Looker]\nbase_url=https://acme.cloud.looker.com\nclient_id={g.mixed(ALNUM, 20)}\n"
             f"client_secret={looker}\nverify_ssl=True", "secret assignment", "looker.ini client_secret", looker),
        Case(f"const client = new AuthressClient({{ authressApiUrl: 'https://login.acme.io' }}, '{authress}');",
             "secret assignment", "Authress service client access key", authress),
        Case(f"PDF_SERVICES_CLIENT_ID={g.chars(HEX, 32)}\nPDF_SERVICES_CLIENT_SECRET={adobe}", "secret assignment",
             "Adobe client secret (p8e-)", adobe),
        Case(f"FT_UID=u-s4t2ud-{g.chars(HEX, 64)}\nFT_SECRET={intra}", "secret assignment",
             "42 Intra API client secret (s-s4t2ud-)", intra),
        Case(f"curl -H 'Authorization: Bearer {chief}' https://account.chief.tools/api/v1/me", "secret assignment",
             "Chief Tools personal access token (ctp_)", chief),
        Case(f"settlemint login --accept-defaults --personal-access-token {settlemint_pat}",
             "password on a command line", "SettleMint personal access token (sm_pat_)", settlemint_pat),
        Case(f"SETTLEMINT_ACCESS_TOKEN={settlemint_aat}\nSETTLEMINT_INSTANCE=https://console.settlemint.com",
             "secret assignment", "SettleMint application access token (sm_aat_)", settlemint_aat),
        Case(f'& "C:\\Program Files\\Microsoft Integration Runtime\\5.0\\Shared\\dmgcmd.exe" -RegisterNewNode "{shir}"',
             "password on a command line", "Data Factory self-hosted integration runtime key (IR@)", shir),
        Case(f"export DN_API_KEY={dnkey}\nterraform apply -target=definednet_host.lighthouse", "secret assignment",
             "Defined Networking API key (dnkey-)", dnkey),
        Case(f"curl https://send.api.mailtrap.io/api/send -H 'Api-Token: {mailtrap}' -d @mail.json",
             "secret assignment", "Mailtrap Api-Token header", mailtrap),
        Case(f"curl -H 'X-API-Key: {mailcow}' https://mail.acme.io/api/v1/get/domain/all", "secret assignment",
             "mailcow X-API-Key", mailcow),
        Case(f"MIRO_ACCESS_TOKEN={miro}", "secret assignment", "Miro REST access token", miro),
        Case(f"curl -H 'Authorization: Bearer {calendly}' https://api.calendly.com/users/me", "secret assignment",
             "Calendly personal access token (JWT)", calendly),
        Case(f'"DocuSign": {{\n  "IntegrationKey": "{g.uuid()}",\n  "SecretKey": "{docusign}",\n'
             '  "AuthServer": "account-d.docusign.com"\n}', "secret assignment", "DocuSign integration SecretKey",
             docusign),
        Case(f"lokalise2 --token {lokalise} --project-id {g.digits(9)}.{g.chars(HEX, 8)} file download "
             "--format json --unzip-to ./locales", "password on a command line", "lokalise2 --token", lokalise),
        Case(f"# crowdin.yml\nproject_id: {g.digits(6)}\napi_token: {crowdin}\nfiles:\n  - source: /locales/en.json\n"
             "    translation: /locales/%two_letters_code%.json", "secret assignment", "crowdin.yml api_token",
             crowdin),
        Case(f"STORYBLOK_MANAGEMENT_TOKEN={storyblok}", "secret assignment", "Storyblok management token", storyblok),
        Case(f"curl 'https://api.unsplash.com/photos/random?query=coffee' -H 'Authorization: Client-ID {unsplash}'",
             "secret assignment", "Unsplash Client-ID header", unsplash),
        Case(f"curl -H 'Authorization: bearer {vimeo}' https://api.vimeo.com/me/videos", "secret assignment",
             "Vimeo personal access token", vimeo),
    ]  # fmt: skip


def _ai_and_ml(g: Gen) -> list[Case]:
    """AI, ML-ops and GPU-cloud keys no other part has."""
    openai_admin = "sk-admin-" + g.mixed(B64URL, 64)
    hf_org = "api_org_" + g.chars(UPPER + LOWER, 34)
    fal = f"{g.uuid()}:{g.chars(HEX, 32)}"
    stability = "sk-" + g.mixed(ALNUM, 48)
    cartesia = "sk_car_" + g.mixed(ALNUM, 24)
    clearml = g.mixed(ALNUM, 50)
    mlflow = _pw(g)
    label_studio = g.chars(HEX, 40)
    roboflow = g.mixed(ALNUM, 20)
    vast = g.chars(HEX, 64)
    baseten = f"{g.mixed(ALNUM, 8)}.{g.mixed(ALNUM, 32)}"
    ai21 = g.mixed(ALNUM, 32)
    ideogram = g.mixed(B64URL, 86)
    sambanova = g.uuid()
    hyperbolic = _hs(g, {"sub": "ada@acme.io", "iat": 1736000000})
    novita = "sk_" + g.mixed(B64URL, 43)
    comet = g.mixed(ALNUM, 25)
    dagshub = g.chars(HEX, 40)
    lightning = g.uuid()
    castai = f"castai_v1_{g.chars(HEX, 64)}_{g.chars(HEX, 8)}"
    return [
        Case(f"OPENAI_ADMIN_KEY={openai_admin}\ncurl https://api.openai.com/v1/organization/users "
             '-H "Authorization: Bearer $OPENAI_ADMIN_KEY"', "secret assignment", "OpenAI admin key (sk-admin-)",
             openai_admin),
        Case(f"HUGGINGFACE_HUB_TOKEN={hf_org} python push_dataset.py", "secret assignment",
             "Hugging Face organization token (api_org_)", hf_org),
        Case(f"FAL_KEY={fal}\npython -c 'import fal_client; print(fal_client.run(\"fal-ai/flux/dev\", "
             "arguments={\"prompt\": \"a fox\"}))'", "secret assignment", "fal.ai FAL_KEY (id:secret)", fal),
        Case(f"curl https://api.stability.ai/v2beta/stable-image/generate/core -H 'authorization: Bearer {stability}' "
             "-F prompt='a lighthouse' -F output_format=webp -o out.webp", "secret assignment", "Stability AI API key",
             stability),
        Case(f'client = Cartesia(api_key="{cartesia}")', "secret assignment", "Cartesia API key (sk_car_)", cartesia),
        Case(f'api {{\n  web_server: https://app.clear.ml\n  credentials {{\n    "access_key" = "'
             f'{g.chars(_UPPER_ALNUM, 30)}"\n    "secret_key" = "{clearml}"\n  }}\n}}', "secret assignment",
             "clearml.conf credentials secret_key", clearml),
        Case(f"MLFLOW_TRACKING_URI=https://mlflow.acme.io\nMLFLOW_TRACKING_USERNAME=ada\n"
             f"MLFLOW_TRACKING_PASSWORD={mlflow}", "password assignment", "MLflow MLFLOW_TRACKING_PASSWORD", mlflow),
        Case(f"curl -H 'Authorization: Token {label_studio}' https://label.acme.io/api/projects",
             "secret assignment", "Label Studio Token header", label_studio),
        Case(f'rf = Roboflow(api_key="{roboflow}")\nproject = rf.workspace("acme").project("pallets")',
             "secret assignment", "Roboflow api_key", roboflow),
        Case(f"vastai set api-key {vast}\nvastai search offers 'gpu_name=RTX_4090 num_gpus=1'",
             "password on a command line", "vastai set api-key", vast),
        Case(f"curl -X POST https://model-{g.chars(_LOWER_ALNUM, 8)}.api.baseten.co/production/predict "
             f"-H 'Authorization: Api-Key {baseten}' -d @in.json", "secret assignment", "Baseten Api-Key header",
             baseten),
        Case(f'from ai21 import AI21Client\nclient = AI21Client(api_key="{ai21}")', "secret assignment",
             "AI21 API key", ai21),
        Case(f"curl https://api.ideogram.ai/v1/ideogram-v3/generate -H 'Api-Key: {ideogram}' -F prompt='a poster'",
             "secret assignment", "Ideogram Api-Key header", ideogram),
        Case(f"SAMBANOVA_API_KEY={sambanova}\nSAMBANOVA_BASE_URL=https://api.sambanova.ai/v1", "secret assignment",
             "SambaNova Cloud API key (UUID)", sambanova),
        Case(f"HYPERBOLIC_API_KEY={hyperbolic}", "secret assignment", "Hyperbolic API key (JWT)", hyperbolic),
        Case(f'client = OpenAI(base_url="https://api.novita.ai/v3/openai", api_key="{novita}")', "secret assignment",
             "OpenAI-compatible (Novita)", novita),
        Case(f"$ cat ~/.comet.config\n[comet]\napi_key = {comet}\nworkspace = acme", "secret assignment",
             "Comet ~/.comet.config api_key", comet),
        Case(f"dvc remote modify origin --local auth basic\ndvc remote modify origin --local user ada\n"
             f"dvc remote modify origin --local password {dagshub}", "password on a command line",
             "dvc remote modify --local password (DagsHub token)", dagshub),
        Case(f"LIGHTNING_USER_ID={g.uuid()}\nLIGHTNING_API_KEY={lightning}\nlightning run app app.py --cloud",
             "secret assignment", "Lightning AI API key", lightning),
        Case(f'provider "castai" {{\n  api_url   = "https://api.cast.ai"\n  api_token = "{castai}"\n}}',
             "secret assignment", "Cast AI api_token (castai_v1_) in HCL", castai),
    ]  # fmt: skip


def _ci_and_registries(g: Gen) -> list[Case]:
    """CI systems, code-quality services, package registries and publishing tools no other part has."""
    gg = g.mixed(ALNUM, 71)
    fossa = g.chars(HEX, 32)
    codacy = g.chars(HEX, 32)
    coveralls = g.mixed(ALNUM, 33)
    cc = g.chars(HEX, 64)
    graphite = g.mixed(ALNUM, 40)
    qovery = "qov_" + g.mixed(ALNUM, 64)
    bitrise = g.mixed(B64URL, 86)
    codemagic = g.mixed(ALNUM, 43)
    appveyor = "v2." + g.mixed(ALNUM, 20)
    semaphore = g.mixed(ALNUM, 20)
    woodpecker = _hs(g, {"text": "ada", "type": "user"})
    dagger = f"dag_acme_{g.mixed(ALNUM, 40)}"
    cachix = _hs(g, {"jti": g.uuid(), "sub": g.digits(5), "scopes": "cache"})
    ovsx = g.uuid()
    amo = g.chars(HEX, 64)
    jb_token = f"perm:{_b64('ada').rstrip('=')}.{_b64('92-' + g.digits(5)).rstrip('=')}.{g.mixed(ALNUM, 30)}"
    gradle_secret = g.mixed(ALNUM, 32)
    choco = g.uuid()
    snap_payload = {"t": "u1", "v": g.b64url(g.rng.randbytes(180))}
    snapcraft = _b64(json.dumps(snap_payload, separators=(",", ":")))
    luarocks = g.mixed(ALNUM, 40)
    galaxy = g.chars(HEX, 40)
    reftkn = _b64(f"reftkn:01:{g.digits(10)}:{g.mixed(ALNUM, 32)}").rstrip("=")
    cocoapods = g.chars(HEX, 32)
    glft = "glft-" + g.mixed(B64URL, 20)
    glimt = "glimt-" + g.chars(_LOWER_ALNUM, 25)
    glagent = "glagent-" + g.mixed(B64URL, 50)
    dp_ct = "dp.ct." + g.mixed(ALNUM, 40)
    dp_sa = "dp.sa." + g.mixed(ALNUM, 40)
    dp_scim = "dp.scim." + g.mixed(ALNUM, 40)
    equinix = g.mixed(ALNUM, 32)
    quay = g.chars(_UPPER_ALNUM, 64)
    harbor = g.mixed(ALNUM, 32)
    teamcity_pw, concourse_pw = _sp(g), _sp(g)
    act_runner = g.mixed(ALNUM, 40)
    return [
        Case(f"GITGUARDIAN_API_KEY={gg} ggshield secret scan ci", "secret assignment", "GitGuardian ggshield API key",
             gg),
        Case(f"FOSSA_API_KEY={fossa} fossa analyze && fossa test", "secret assignment", "FOSSA API key", fossa),
        Case(f"bash <(curl -Ls https://coverage.codacy.com/get.sh) report -t {codacy} -r coverage.xml",
             "password on a command line", "Codacy coverage reporter -t project token", codacy),
        Case(f"# .coveralls.yml\nservice_name: github-actions\nrepo_token: {coveralls}", "secret assignment",
             ".coveralls.yml repo_token", coveralls),
        Case(f"CC_TEST_REPORTER_ID={cc} ./cc-test-reporter after-build --exit-code 0", "secret assignment",
             "Code Climate test reporter id", cc),
        Case(f"gt auth --token {graphite}", "password on a command line", "Graphite gt auth --token", graphite),
        Case(f"QOVERY_CLI_ACCESS_TOKEN={qovery} qovery application deploy --application shop", "secret assignment",
             "Qovery API token (qov_)", qovery),
        Case(f"curl -H 'Authorization: {bitrise}' https://api.bitrise.io/v0.1/apps", "secret assignment",
             "Bitrise personal access token header", bitrise),
        Case(f"curl -H 'x-auth-token: {codemagic}' -H 'Content-Type: application/json' "
             "-d '{\"appId\": \"shop\", \"workflowId\": \"release\", \"branch\": \"main\"}' "
             "https://api.codemagic.io/builds", "secret assignment", "Codemagic x-auth-token", codemagic),
        Case(f"curl -H 'Authorization: Bearer {appveyor}' https://ci.appveyor.com/api/projects", "secret assignment",
             "AppVeyor API key (v2.)", appveyor),
        Case(f"sem connect acme.semaphoreci.com {semaphore}", "password on a command line", "Semaphore sem connect",
             semaphore),
        Case(f"WOODPECKER_SERVER=https://ci.acme.io\nWOODPECKER_TOKEN={woodpecker}\n"
             "woodpecker-cli pipeline ls acme/shop",
             "secret assignment", "Woodpecker CLI token", woodpecker),
        Case(f"DAGGER_CLOUD_TOKEN={dagger} dagger call test --source=.", "secret assignment", "Dagger Cloud token",
             dagger),
        Case(f"cachix authtoken {cachix}\ncachix push acme ./result", "password on a command line",
             "cachix authtoken", cachix),
        Case(f"npx ovsx publish shop-theme-1.4.2.vsix -p {ovsx}", "password on a command line", "ovsx publish -p",
             ovsx),
        Case(f"web-ext sign --channel=listed --api-key=user:{g.digits(8)}:{g.digits(3)} --api-secret={amo}",
             "password on a command line", "web-ext sign --api-secret", amo),
        Case(f"PUBLISH_TOKEN={jb_token} ./gradlew publishPlugin", "secret assignment",
             "JetBrains Marketplace token (perm:)", jb_token),
        Case(f"# ~/.gradle/gradle.properties\ngradle.publish.key={g.mixed(ALNUM, 32)}\n"
             f"gradle.publish.secret={gradle_secret}", "secret assignment", "Gradle Plugin Portal publish secret",
             gradle_secret),
        Case(f"choco apikey --key {choco} --source https://push.chocolatey.org/", "password on a command line",
             "choco apikey --key", choco),
        Case(f"SNAPCRAFT_STORE_CREDENTIALS={snapcraft} snapcraft upload --release=stable shop_1.4_amd64.snap",
             "secret assignment", "SNAPCRAFT_STORE_CREDENTIALS export", snapcraft),
        Case(f"luarocks upload shop-1.4-1.rockspec --api-key={luarocks}", "password on a command line",
             "luarocks upload --api-key", luarocks),
        Case(f"ansible-galaxy collection publish acme-shop-1.4.2.tar.gz --api-key {galaxy}",
             "password on a command line", "ansible-galaxy publish --api-key", galaxy),
        Case(f"jf config add acme --url=https://acme.jfrog.io --access-token={reftkn} --interactive=false",
             "password on a command line", "JFrog reference token (jf config add)", reftkn),
        Case(f"COCOAPODS_TRUNK_TOKEN={cocoapods} pod trunk push Shop.podspec --allow-warnings", "secret assignment",
             "CocoaPods trunk token", cocoapods),
        Case(f"https://git.acme.io/acme/shop.atom?feed_token={glft}", "URL with a token",
             "GitLab feed token (glft-) in an Atom URL", glft),
        Case(f"reply to incoming+acme-shop-42-{glimt}-issue@git.acme.io to comment on the issue", "secret assignment",
             "GitLab incoming email token (glimt-)", glimt),
        Case(f"helm upgrade --install shop-agent gitlab/gitlab-agent -n gitlab-agent --set config.token={glagent} "
             "--set config.kasAddress=wss://kas.acme.io", "password on a command line", "GitLab agent token (glagent-)",
             glagent),
        Case(f"$ cat ~/.doppler/.doppler.yaml\nscoped:\n    /:\n        token: {dp_ct}\n"
             "        api-host: https://api.doppler.com", "secret assignment", "Doppler CLI token (dp.ct.)", dp_ct),
        Case(f"DOPPLER_TOKEN={dp_sa} doppler secrets download --no-file --format env", "secret assignment",
             "Doppler service account token (dp.sa.)", dp_sa),
        Case(f"SCIM base URL: https://api.doppler.com/scim/v2\nBearer token: {dp_scim}", "secret assignment",
             "Doppler SCIM token (dp.scim.)", dp_scim),
        Case(f"$ metal init\nMetal API Tokens can be obtained through the portal at https://console.equinix.com/.\n"
             f"Token (hidden): {equinix}", "secret assignment", "Equinix Metal token pasted at a prompt", equinix),
        Case(f"buildah login -u 'acme+ci' -p {quay} quay.io", "password on a command line",
             "buildah login -p (Quay robot token)", quay),
        Case(f"nerdctl login -u 'robot$ci' -p {harbor} harbor.acme.io", "password on a command line",
             "nerdctl login -p (Harbor robot secret)", harbor),
        Case(f'params {{\n    password("env.DEPLOY_PASSWORD", "{teamcity_pw}", display = ParameterDisplay.HIDDEN)\n}}',
             "password assignment", "TeamCity Kotlin DSL password() parameter", teamcity_pw),
        Case(f"fly -t main set-pipeline -p shop -c ci/pipeline.yml -v registry_password={concourse_pw}",
             "password on a command line", "Concourse fly set-pipeline -v", concourse_pw),
        Case(f"act_runner register --instance https://git.acme.io --token {act_runner} --no-interactive",
             "password on a command line", "Gitea act_runner register --token", act_runner),
    ]  # fmt: skip


def _cloud_and_iac(g: Gen) -> list[Case]:
    """Passwords and keys in cloud, IaC, deploy-tool and CI-pipeline configs and commands no other part has."""
    p = [_pw(g) for _ in range(24)]
    s = [_sp(g) for _ in range(14)]
    bce = g.chars(HEX, 32)
    volc = g.mixed(B64, 60)
    chef = _lines(g.b64_bytes(384), 76)
    teleport = g.chars(HEX, 32)
    teleport_invite = g.chars(HEX, 32)
    wrangler = g.mixed(ALNUM, 40)
    pages_secret = g.mixed(ALNUM, 32)
    return [
        Case(f'inputs = {{\n  db_username = "shop"\n  db_password = "{p[0]}"\n  instance    = "db.t4g.medium"\n}}',
             "password assignment", "Terragrunt inputs block", p[0]),
        Case(f"export TF_VAR_admin_password='{p[1]}'\nterraform plan -out=tfplan", "password assignment",
             "TF_VAR_ export", p[1]),
        Case(f"provider:\n  name: aws\n  runtime: nodejs20.x\n  environment:\n    DB_HOST: db.acme.io\n"
             f"    DB_PASSWORD: '{p[2]}'", "password assignment", "Serverless Framework serverless.yml environment",
             p[2]),
        Case(f'{{\n  "production": {{\n    "app_function": "shop.app",\n    "aws_environment_variables": {{\n'
             f'      "DB_PASSWORD": "{p[3]}"\n    }}\n  }}\n}}', "password assignment",
             "Zappa zappa_settings.json aws_environment_variables", p[3]),
        Case(f'{{\n  "version": "2.0",\n  "app_name": "shop",\n  "stages": {{\n    "prod": {{\n'
             f'      "environment_variables": {{"SMTP_PASSWORD": "{p[4]}"}}\n    }}\n  }}\n}}',
             "password assignment", "Chalice .chalice/config.json environment_variables", p[4]),
        Case(f'firebase functions:config:set smtp.user="noreply@acme.io" smtp.password="{p[5]}"',
             "password on a command line", "firebase functions:config:set", p[5]),
        Case(f"npx sst secret set DbPassword '{p[6]}' --stage production", "password on a command line",
             "sst secret set", p[6]),
        Case(f"echo '{wrangler}' | npx wrangler secret put UPSTREAM_API_TOKEN --env production",
             "password on a command line", "wrangler secret put on stdin", wrangler),
        Case(f'name = "shop-edge"\nmain = "src/index.ts"\n\n[vars]\nSIGNING_SECRET = "{pages_secret}"',
             "secret assignment", "wrangler.toml [vars] secret", pages_secret),
        Case(f"caprover login -u https://captain.acme.io -p '{p[7]}' -n prod", "password on a command line",
             "caprover login -p", p[7]),
        Case(f"# .kamal/secrets\nKAMAL_REGISTRY_PASSWORD={s[0]}\nRAILS_MASTER_KEY=$(cat config/master.key)",
             "password assignment", "Kamal .kamal/secrets registry password", s[0]),
        Case(f"BOUNDARY_PASSWORD='{p[8]}' boundary authenticate password -auth-method-id ampw_{g.mixed(ALNUM, 10)} "
             "-login-name ada -password env://BOUNDARY_PASSWORD", "password on a command line",
             "BOUNDARY_PASSWORD prefix", p[8]),
        Case(f"teleport:\n  nodename: web1\n  auth_token: {teleport}\n  proxy_server: teleport.acme.io:443\n"
             "ssh_service:\n  enabled: true", "secret assignment", "teleport.yaml auth_token", teleport),
        Case(f"$ tctl tokens add --type=node --ttl=1h\nThe invite token: {teleport_invite}\n"
             "This token will expire in 60 minutes.", "secret assignment", "tctl tokens add output", teleport_invite),
        Case(f"$ sudo cat /etc/chef/encrypted_data_bag_secret\n{chef}", "secret assignment",
             "Chef encrypted_data_bag_secret file", chef),
        Case(f"[defaults]\nak = {g.chars(HEX, 32)}\nsk = {bce}\nregion = bj", "secret assignment",
             "Baidu Cloud bce.conf sk", bce),
        Case(f"VOLC_ACCESSKEY=AKLT{g.mixed(B64URL, 40)}\nVOLC_SECRETKEY={volc}", "secret assignment",
             "Volcengine VOLC_SECRETKEY", volc),
        Case(f"export OS_AUTH_URL=https://cloud.api.selcloud.ru/identity/v3\nexport OS_USERNAME=ada\n"
             f"export OS_PASSWORD='{p[9]}'\nexport OS_PROJECT_NAME=shop", "password assignment",
             "OpenStack openrc OS_PASSWORD export", p[9]),
        Case(f"pulumi config set dbPassword '{p[10]}' --plaintext", "password on a command line",
             "pulumi config set --plaintext", p[10]),
        Case(f'provider "proxmox" {{\n  endpoint = "https://pve.acme.lan:8006/"\n  username = "root@pam"\n'
             f'  password = "{p[11]}"\n  insecure = true\n}}', "password assignment",
             "Terraform proxmox provider password", p[11]),
        Case(f'source "qemu" "debian" {{\n  iso_url      = "debian-12.8.0-amd64-netinst.iso"\n'
             f'  ssh_username = "packer"\n  ssh_password = "{p[12]}"\n}}', "password assignment",
             "Packer HCL ssh_password", p[12]),
        Case(f"vars_prompt:\n  - name: db_password\n    prompt: Database password\n    private: true\n"
             f'    default: "{p[13]}"', "password assignment", "Ansible vars_prompt default", p[13]),
        Case(f"releases:\n- name: shop\n  chart: bitnami/postgresql\n  set:\n  - name: auth.password\n"
             f"    value: {s[1]}", "password assignment", "helmfile set value", s[1]),
        Case(f"nomad var put nomad/jobs/shop db_password='{p[14]}'", "password on a command line", "nomad var put",
             p[14]),
        Case(f"consul kv put shop/config/db_password '{p[15]}'", "password on a command line", "consul kv put", p[15]),
        Case(f"etcdctl put /shop/db/password '{p[16]}'", "password on a command line", "etcdctl put", p[16]),
        Case(f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shop-env\ndata:\n  DB_PASSWORD: \"{p[17]}\"",
             "password assignment", "password in a Kubernetes ConfigMap", p[17]),
        Case(f"kubectl set env deployment/shop DB_PASSWORD='{p[18]}'", "password on a command line",
             "kubectl set env", p[18]),
        Case(f"kubectl patch secret shop-db -p '{{\"stringData\":{{\"password\":\"{p[19]}\"}}}}'",
             "password on a command line", "kubectl patch secret stringData", p[19]),
        Case(f"oc create secret docker-registry acme-pull --docker-server=registry.acme.io --docker-username=ci "
             f"--docker-password={s[2]}", "password on a command line", "oc create secret docker-registry", s[2]),
        Case(f"credentials:\n  system:\n    domainCredentials:\n      - credentials:\n          - usernamePassword:\n"
             f"              id: nexus\n              username: ci\n              password: \"{p[20]}\"",
             "password assignment", "Jenkins Configuration as Code usernamePassword", p[20]),
        Case(f"variables:\n  - name: sqlAdminPassword\n    value: '{p[21]}'\nsteps:\n  - script: ./deploy.sh",
             "password assignment", "Azure Pipelines variables list", p[21]),
        Case(f"- pipe: atlassian/sftp-deploy:0.5.11\n  variables:\n    USER: deploy\n    SERVER: 10.0.0.5\n"
             f"    PASSWORD: '{p[22]}'\n    REMOTE_PATH: /var/www/shop", "password assignment",
             "Bitbucket Pipelines pipe variables", p[22]),
        Case(f"jobs:\n  deploy:\n    docker:\n      - image: cimg/base:2024.12\n        auth:\n"
             f"          username: ci\n          password: {s[3]}", "password assignment",
             "CircleCI docker image auth", s[3]),
        Case(f"[[runners]]\n  name = \"web1\"\n  url = \"https://git.acme.io\"\n  executor = \"docker\"\n"
             f"  [runners.cache.s3]\n    AccessKey = \"{g.chars(_UPPER_ALNUM, 20)}\"\n    SecretKey = \"{s[4]}\"",
             "secret assignment", "gitlab-runner config.toml cache SecretKey", s[4]),
        Case(f"<hudson.plugins.sshslaves.SSHLauncher>\n  <host>10.0.0.21</host>\n  <port>22</port>\n"
             f"</hudson.plugins.sshslaves.SSHLauncher>\n<password>{p[23]}</password>", "password assignment",
             "Jenkins node config.xml plain <password>", p[23]),
        Case(f"hal config provider docker-registry account add acme --address registry.acme.io "
             f"--username ci --password-command 'echo {s[5]}'", "password on a command line",
             "hal --password-command echo", s[5]),
    ]  # fmt: skip


def _databases(g: Gen) -> list[Case]:
    """Database client configs, replication settings, CLIs and admin tools of engines no other part has."""
    p = [_pw(g) for _ in range(30)]
    s = [_sp(g) for _ in range(12)]
    pgbr = g.mixed(ALNUM, 40)
    influx_pw, redis_pw = _pw(g), _pw(g)
    return [
        Case(f"# ~/.my.cnf\n[client]\nuser=root\npassword=\"{p[0]}\"\nhost=127.0.0.1", "password assignment",
             "~/.my.cnf [client] password", p[0]),
        Case(f"# ~/.pg_service.conf\n[shop-prod]\nhost=db.acme.io\nport=5432\ndbname=shop\nuser=shop\npassword={s[0]}",
             "password assignment", "pg_service.conf password", s[0]),
        Case(f"# ~/.cassandra/cqlshrc\n[authentication]\nusername = cassandra\npassword = {s[1]}\n\n[connection]\n"
             "hostname = cass01", "password assignment", "cqlshrc [authentication] password", s[1]),
        Case(f"nodetool -h 10.0.0.11 -u cassandra -pw '{p[1]}' status", "password on a command line", "nodetool -pw",
             p[1]),
        Case(f"cypher-shell -a neo4j+s://{g.chars(HEX, 8)}.databases.neo4j.io -u neo4j -p '{p[2]}' 'MATCH (n) RETURN "
             "count(n)'", "password on a command line", "cypher-shell -p", p[2]),
        Case(f"couchbase-cli bucket-list -c localhost:8091 -u Administrator -p '{p[3]}'", "password on a command line",
             "couchbase-cli -p", p[3]),
        Case(f"arangosh --server.endpoint ssl://arango.acme.io:8529 --server.username root --server.password "
             f"'{p[4]}'", "password on a command line", "arangosh --server.password", p[4]),
        Case(f"isql-fb -user SYSDBA -password '{p[5]}' /var/lib/firebird/data/shop.fdb", "password on a command line",
             "Firebird isql -password", p[5]),
        Case(f"bteq <<EOF\n.LOGON tdprod/dbc,{s[2]};\nSELECT COUNT(*) FROM shop.orders;\n.LOGOFF;\nEOF",
             "password on a command line", "Teradata BTEQ .LOGON", s[2]),
        Case(f"isql -S SYB01 -U sa -P '{p[6]}' -D shop", "password on a command line", "Sybase isql -P", p[6]),
        Case(f"exaplus -c exa01:8563 -u sys -p '{p[7]}' -sql 'SELECT 1;'", "password on a command line",
             "Exasol exaplus -p", p[7]),
        Case(f"TRINO_PASSWORD='{p[8]}' trino --server https://trino.acme.io --user ada --password --catalog hive",
             "password on a command line", "TRINO_PASSWORD prefix", p[8]),
        Case(f"curl -X POST https://dremio.acme.io/apiv2/login -H 'Content-Type: application/json' "
             f"-d '{{\"userName\": \"ada\", \"password\": \"{p[9]}\"}}'", "password assignment",
             "Dremio login JSON body", p[9]),
        Case(f"asadm -h 10.0.0.9 -U admin -P '{p[10]}' -e 'info'", "password on a command line", "Aerospike asadm -P",
             p[10]),
        Case(f"surreal start --user root --pass '{p[11]}' --bind 0.0.0.0:8000 rocksdb:/data/shop.db",
             "password on a command line", "surreal start --pass", p[11]),
        Case(f"./pocketbase superuser upsert ada@acme.io '{p[12]}'", "password on a command line",
             "PocketBase superuser upsert", p[12]),
        Case(f"# conf/server.conf\npg.user=admin\npg.password={s[3]}\nhttp.bind.to=0.0.0.0:9000", "password assignment",
             "QuestDB server.conf pg.password", s[3]),
        Case(f"<clickhouse>\n  <users>\n    <shop>\n      <password>{p[13]}</password>\n      <networks><ip>::/0</ip>"
             "</networks>\n    </shop>\n  </users>\n</clickhouse>", "password assignment",
             "ClickHouse users.xml password",
             p[13]),
        Case(f"orapki wallet create -wallet /u01/app/oracle/wallet -pwd '{p[14]}' -auto_login",
             "password on a command line", "orapki wallet create -pwd", p[14]),
        Case(f"expdp system/{s[4]}@PRODDB schemas=SHOP directory=DP_DIR dumpfile=shop_%U.dmp parallel=4",
             "password on a command line", "Oracle expdp user/password@tns", s[4]),
        Case(f"primary_conninfo = 'host=10.0.0.5 port=5432 user=replicator password={s[5]} application_name=standby1'",
             "password assignment", "PostgreSQL primary_conninfo password", s[5]),
        Case(f"SELECT dblink_connect('dw', 'host=dw.acme.io dbname=dw user=etl password={s[6]}');",
             "password assignment", "PostgreSQL dblink_connect password", s[6]),
        Case(f"CREATE SUBSCRIPTION shop_sub\n  CONNECTION 'host=10.0.0.5 dbname=shop user=repl password={s[7]}'\n"
             "  PUBLICATION shop_pub;", "password assignment", "PostgreSQL CREATE SUBSCRIPTION CONNECTION", s[7]),
        Case(f"postgresql:\n  authentication:\n    superuser:\n      username: postgres\n      password: '{p[15]}'\n"
             "    replication:\n      username: replicator\n      password: !!null", "password assignment",
             "Patroni patroni.yml superuser password", p[15]),
        Case(f"[global]\nrepo1-type=s3\nrepo1-s3-bucket=acme-pgbackrest\nrepo1-s3-key={g.chars(_UPPER_ALNUM, 20)}\n"
             f"repo1-s3-key-secret={pgbr}\nrepo1-s3-region=eu-west-1", "secret assignment",
             "pgBackRest repo1-s3-key-secret", pgbr),
        Case(f"START GROUP_REPLICATION USER='rpl_user', PASSWORD='{p[16]}';", "password assignment",
             "MySQL START GROUP_REPLICATION PASSWORD", p[16]),
        Case(f"[galera]\nwsrep_on = ON\nwsrep_sst_method = mariabackup\nwsrep_sst_auth = \"sst:{s[8]}\"",
             "password assignment", "MariaDB Galera wsrep_sst_auth", s[8]),
        Case(f'admin_variables=\n{{\n    admin_credentials="admin:{s[9]};radmin:{_sp(g)}"\n'
             '    mysql_ifaces="0.0.0.0:6032"\n}',
             "password assignment", "ProxySQL admin_credentials", s[9]),
        Case(f"# /etc/redis/replica.conf\nreplicaof 10.0.0.5 6379\nmasterauth {s[10]}", "password assignment",
             "Redis masterauth", s[10]),
        Case(f"echo '{p[17]}' | bin/elasticsearch-keystore add -x xpack.security.http.ssl.keystore.secure_password",
             "password on a command line", "elasticsearch-keystore add from stdin", p[17]),
        Case(f"opensearch.hosts: [https://localhost:9200]\nopensearch.username: kibanaserver\n"
             f"opensearch.password: {s[11]}", "password assignment", "opensearch_dashboards.yml password", s[11]),
        Case(f'SOLR_AUTH_TYPE="basic"\nSOLR_AUTHENTICATION_OPTS="-Dbasicauth=solr:{p[18]}"', "password assignment",
             "solr.in.sh SOLR_AUTHENTICATION_OPTS basicauth", p[18]),
        Case(f"shop:\n  target: prod\n  outputs:\n    prod:\n      type: postgres\n      host: dw.acme.io\n"
             f"      user: dbt\n      password: '{p[19]}'\n      dbname: analytics\n      schema: marts",
             "password assignment", "dbt profiles.yml password", p[19]),
        Case(f"MB_DB_TYPE=postgres\nMB_DB_HOST=db.acme.io\nMB_DB_USER=metabase\nMB_DB_PASS={p[20]}",
             "password assignment", "Metabase MB_DB_PASS", p[20]),
        Case(f"changelogFile=db/changelog/db.changelog-master.yaml\nurl=jdbc:postgresql://db.acme.io:5432/shop\n"
             f"username=liquibase\npassword={p[21]}", "password assignment", "liquibase.properties password", p[21]),
        Case(f'{{\n  "production": {{\n    "username": "shop",\n    "password": "{p[22]}",\n    "database": "shop",\n'
             '    "host": "db.acme.io",\n    "dialect": "postgres"\n  }\n}', "password assignment",
             "Sequelize config.json password", p[22]),
        Case(f'"config": {{\n  "connector.class": "io.debezium.connector.postgresql.PostgresConnector",\n'
             f'  "database.hostname": "db.acme.io",\n  "database.user": "debezium",\n'
             f'  "database.password": "{p[23]}"\n}}',
             "password assignment", "Debezium connector database.password", p[23]),
        Case(f"CREATE SERVER dw FOREIGN DATA WRAPPER mysql OPTIONS (HOST 'dw.acme.io', DATABASE 'dw', USER 'etl', "
             f"PASSWORD '{p[24]}', PORT 3306);", "password assignment", "MySQL FEDERATED CREATE SERVER PASSWORD",
             p[24]),
        Case(f"OPEN SYMMETRIC KEY CardKey DECRYPTION BY PASSWORD = '{p[25]}';", "password assignment",
             "T-SQL OPEN SYMMETRIC KEY DECRYPTION BY PASSWORD", p[25]),
        Case(f"CREATE MASTER KEY ENCRYPTION BY PASSWORD = '{p[26]}';", "password assignment",
             "T-SQL CREATE MASTER KEY ENCRYPTION BY PASSWORD", p[26]),
        Case(f"CREATE USER ada SET PASSWORD '{p[27]}' CHANGE NOT REQUIRED;", "password assignment",
             "Cypher CREATE USER SET PASSWORD", p[27]),
        Case(f'db.changeUserPassword("shop", "{p[28]}")', "password assignment", "MongoDB db.changeUserPassword",
             p[28]),
        Case(f"CREATE ROLE ada WITH PASSWORD = '{p[29]}' AND LOGIN = true AND SUPERUSER = false;",
             "password assignment", "CQL CREATE ROLE WITH PASSWORD", p[29]),
        Case(f"CREATE USER ada WITH PASSWORD '{influx_pw}' WITH ALL PRIVILEGES", "password assignment",
             "InfluxQL CREATE USER WITH PASSWORD", influx_pw),
        Case(f'127.0.0.1:6379> CONFIG SET requirepass "{redis_pw}"\nOK', "password assignment",
             "redis CONFIG SET requirepass", redis_pw),
    ]  # fmt: skip


def _homelab_and_iot(g: Gen) -> list[Case]:
    """Home automation, IoT, 3D-printing, camera, media-server and self-hosted apps' secrets."""
    p = [_pw(g) for _ in range(14)]
    s = [_sp(g) for _ in range(8)]
    h = [_hu(g) for _ in range(3)]
    node_red = g.mixed(ALNUM, 32)
    hue = g.mixed(ALNUM + "-", 40)
    tuya = g.chars(ALNUM + "!#$%&()*+-:;<=>?@[]^_{|}~", 16).replace("'", "")
    octo = g.chars(_HEX_UPPER, 32)
    bambu = g.chars(DIGITS, 8)
    thingsboard = g.mixed(ALNUM, 20)
    iothub = g.b64_bytes(32)
    particle = g.chars(HEX, 40)
    thingspeak = g.chars(_UPPER_ALNUM, 16)
    arduino = g.mixed(ALNUM, 20)
    ubidots = "BBFF-" + g.mixed(ALNUM, 30)
    balena = g.mixed(ALNUM, 32)
    ttn = f"NNSXS.{g.chars(_UPPER_ALNUM, 39)}.{g.chars(_UPPER_ALNUM, 52)}"
    appkey = g.chars(_HEX_UPPER, 32)
    chirpstack = _hs(g, {"aud": "chirpstack", "iss": "chirpstack", "sub": g.uuid(), "typ": "key"})
    mesh = g.b64_bytes(32)
    zwave = g.chars(_HEX_UPPER, 32)
    homekit = f"{g.chars(DIGITS, 3)}-{g.chars(DIGITS, 2)}-{g.chars(DIGITS, 3)}"
    esphome_ota = g.chars(HEX, 32)
    protect = g.mixed(ALNUM, 16)
    ring = "eyJybiI6" + g.mixed(B64URL, 180)
    smartthings = g.uuid()
    hubitat = g.uuid()
    vaultwarden = g.b64url(g.rng.randbytes(48))
    sabnzbd = g.chars(HEX, 32)
    overseerr = _b64(g.digits(13) + g.uuid()).rstrip("=")
    nc_secret = g.mixed(B64.replace("/", "").replace("+", ""), 48)
    return [
        Case(f"module.exports = {{\n    flowFile: 'flows.json',\n    credentialSecret: \"{node_red}\",\n"
             "    uiPort: process.env.PORT || 1880,\n}", "secret assignment", "Node-RED settings.js credentialSecret",
             node_red),
        Case(f'Bridge mqtt:broker:mosquitto "Mosquitto" [ host="10.0.0.7", secure=false, username="openhab", '
             f'password="{p[0]}" ]', "password assignment", "openHAB MQTT broker Thing password", p[0]),
        Case(f'"platforms": [\n  {{\n    "platform": "UniFi Protect",\n    "controllers": [\n      {{ "address": '
             f'"10.0.0.1", "username": "homebridge", "password": "{p[1]}" }}\n    ]\n  }}\n]', "password assignment",
             "Homebridge config.json platform password", p[1]),
        Case(f"curl -X PUT http://10.0.0.40/api/{hue}/lights/3/state -d '{{\"on\": true, \"bri\": 200}}'",
             "URL with a token", "Philips Hue bridge username in the API path", hue),
        Case(f'[{{"name": "Desk lamp", "id": "bf{g.chars(_LOWER_ALNUM, 20)}", "key": "{tuya}", '
             '"ip": "10.0.0.61", "version": "3.4"}]', "secret assignment", "tinytuya devices.json local key", tuya),
        Case(f"mqtt:\n  host: 10.0.0.7\n  user: frigate\n  password: '{p[2]}'\ncameras:\n  driveway:\n    ffmpeg:\n"
             "      inputs: []", "password assignment", "Frigate config.yml mqtt password", p[2]),
        Case(f"curl -H 'X-Api-Key: {octo}' http://octopi.local/api/job", "secret assignment", "OctoPrint X-Api-Key",
             octo),
        Case(f"Bambu X1C in LAN-only mode: IP 10.0.0.55, serial 00M09A{g.chars(_UPPER_ALNUM, 9)}, access code "
             f"{bambu}", "password assignment", "Bambu Lab LAN access code", bambu),
        Case(f"mosquitto_pub -d -q 1 -h tb.acme.io -p 1883 -t v1/devices/me/telemetry -u \"{thingsboard}\" "
             "-m '{\"temperature\": 21.5}'", "password on a command line", "ThingsBoard device token as MQTT username",
             thingsboard),
        Case(f"HostName=acme-hub.azure-devices.net;DeviceId=therm-01;SharedAccessKey={iothub}", "secret assignment",
             "Azure IoT Hub device connection string", iothub),
        Case(f"$ particle token create --expires-in 0\nNew access token never expires\n    {particle}",
             "secret assignment", "particle token create output", particle),
        Case(f"https://api.thingspeak.com/update?api_key={thingspeak}&field1=21.5&field2=48", "URL with a token",
             "ThingSpeak write API key URL", thingspeak),
        Case(f'// arduino_secrets.h\n#define SECRET_SSID "Acme-IoT"\n#define SECRET_OPTIONAL_PASS "{h[0]}"\n'
             f'#define SECRET_DEVICE_KEY "{arduino}"', "secret assignment", "Arduino IoT Cloud SECRET_DEVICE_KEY",
             arduino),
        Case(f"curl -H 'X-Auth-Token: {ubidots}' https://industrial.api.ubidots.com/api/v1.6/devices/",
             "secret assignment", "Ubidots token (BBFF-)", ubidots),
        Case(f"balena login --token {balena}\nbalena push acme/sensors", "password on a command line",
             "balena login --token", balena),
        Case(f"mosquitto_sub -h eu1.cloud.thethings.network -p 8883 -u shop-sensors@ttn -P '{ttn}' -t '#' -v",
             "password on a command line", "The Things Stack API key (NNSXS.)", ttn),
        Case(f"JoinEUI: 70B3D57ED00{g.chars(_HEX_UPPER, 5)}\nDevEUI:  A84041{g.chars(_HEX_UPPER, 10)}\n"
             f"AppKey:  {appkey}", "secret assignment", "LoRaWAN OTAA AppKey", appkey),
        Case(f"CHIRPSTACK_API_TOKEN={chirpstack} ./provision-devices.sh", "secret assignment",
             "ChirpStack API token (JWT)", chirpstack),
        Case(f"meshtastic --ch-index 1 --ch-set psk base64:{mesh} --ch-set name acme-ops", "password on a command line",
             "Meshtastic channel PSK", mesh),
        Case(f'"securityKeys": {{\n  "S2_Unauthenticated": "{g.chars(_HEX_UPPER, 32)}",\n  "S2_Authenticated": '
             f'"{zwave}",\n  "S0_Legacy": "{g.chars(_HEX_UPPER, 32)}"\n}}', "secret assignment",
             "Z-Wave JS S2 security keys", zwave),
        Case(f"HomeKit setup code for the garage bridge: {homekit} (sticker is on the back)", "password assignment",
             "HomeKit setup code", homekit),
        Case(f"mqtt:\n  base_topic: zigbee2mqtt\n  server: mqtt://10.0.0.7\n  user: z2m\n  password: '{p[3]}'",
             "password assignment", "Zigbee2MQTT configuration.yaml mqtt password", p[3]),
        Case(f"wifi:\n  ssid: !secret wifi_ssid\n  password: !secret wifi_password\n  ap:\n"
             f'    ssid: "Thermostat Fallback"\n    password: "{h[1]}"', "password assignment",
             "ESPHome fallback AP password (literal beside !secret)", h[1]),
        Case(f'ota:\n  - platform: esphome\n    password: "{esphome_ota}"', "password assignment",
             "ESPHome OTA password literal", esphome_ota),
        Case(f"rtsps://10.0.0.1:7441/{protect}?enableSrtp", "URL with a token", "UniFi Protect RTSPS stream token",
             protect),
        Case(f"RING_REFRESH_TOKEN={ring}", "secret assignment", "ring-client-api refresh token", ring),
        Case(f"curl -H 'Authorization: Bearer {smartthings}' https://api.smartthings.com/v1/devices",
             "secret assignment", "SmartThings personal access token (UUID)", smartthings),
        Case(f"http://10.0.0.20/apps/api/42/devices/all?access_token={hubitat}", "URL with a token",
             "Hubitat Maker API access_token URL", hubitat),
        Case(f"sudo pihole setpassword '{p[4]}'", "password on a command line", "pihole setpassword", p[4]),
        Case(f"PAPERLESS_ADMIN_USER=ada\nPAPERLESS_ADMIN_PASSWORD={s[0]}\nPAPERLESS_URL=https://docs.acme.io",
             "password assignment", "Paperless-ngx PAPERLESS_ADMIN_PASSWORD", s[0]),
        Case(f"ADMIN_TOKEN={vaultwarden}\nSIGNUPS_ALLOWED=false\nDOMAIN=https://vault.acme.io", "secret assignment",
             "Vaultwarden plain ADMIN_TOKEN", vaultwarden),
        Case(f"[misc]\nhost = 0.0.0.0\nport = 8080\napi_key = {sabnzbd}\nnzb_key = {g.chars(HEX, 32)}",
             "secret assignment", "sabnzbd.ini api_key", sabnzbd),
        Case(f'{{\n  "main": {{\n    "apiKey": "{overseerr}",\n    "applicationTitle": "Acme Requests"\n  }}\n}}',
             "secret assignment", "Overseerr settings.json apiKey", overseerr),
        Case(f'"rpc-authentication-required": true,\n"rpc-username": "ada",\n"rpc-password": "{p[5]}",\n'
             '"rpc-whitelist-enabled": false', "password assignment", "Transmission settings.json rpc-password", p[5]),
        Case(f"$CONFIG = array (\n  'instanceid' => 'oc{g.chars(_LOWER_ALNUM, 10)}',\n  'passwordsalt' => "
             f"'{g.mixed(ALNUM, 30)}',\n  'secret' => '{nc_secret}',\n  'trusted_domains' => ['cloud.acme.io'],\n);",
             "secret assignment", "Nextcloud config.php secret", nc_secret),
        Case(f"<advancedsettings>\n  <videodatabase>\n    <type>mysql</type>\n    <host>10.0.0.5</host>\n"
             f"    <user>kodi</user>\n    <pass>{p[6]}</pass>\n  </videodatabase>\n</advancedsettings>",
             "password assignment", "Kodi advancedsettings.xml database pass", p[6]),
        Case(f"PBS_PASSWORD='{p[7]}' proxmox-backup-client backup root.pxar:/ "
             "--repository ada@pbs@10.0.0.30:store1", "password on a command line", "PBS_PASSWORD prefix", p[7]),
        Case(f'Director {{\n  Name = backup-dir\n  Password = "{p[8]}"\n}}', "password assignment",
             "Bacula Director Password", p[8]),
        Case(f'duplicati-cli backup "ssh://10.0.0.30/backups/web1" /srv --passphrase="{p[9]}"',
             "password on a command line", "duplicati-cli --passphrase", p[9]),
        Case(f"# /etc/rsyncd.secrets\nbackup:{s[1]}", "password assignment", "rsyncd.secrets file", s[1]),
    ]  # fmt: skip


def _game_servers(g: Gen) -> list[Case]:
    """Game servers' admin, RCON and join passwords, panels' and platforms' keys."""
    p = [_pw(g) for _ in range(14)]
    s = [_sp(g) for _ in range(6)]
    factorio_token = g.chars(HEX, 30)
    ts_key = g.mixed(B64.replace("/", ""), 40)
    ptlc = "ptlc_" + g.mixed(ALNUM, 43)
    ptla = "ptla_" + g.mixed(ALNUM, 43)
    playfab = g.chars(_UPPER_ALNUM, 52)
    nakama = g.mixed(ALNUM, 32)
    roblox = g.mixed(B64, 88)
    roblosec = ("_|WARNING:-DO-NOT-SHARE-THIS.--Sharing-this-will-allow-someone-to-log-in-as-you-and-to-steal-your-"
                "ROBUX-and-items.|_" + g.chars(_HEX_UPPER, 600))  # fmt: skip
    butler = g.mixed(ALNUM, 40)
    eos = g.mixed(B64URL, 43)
    ugs = g.mixed(B64URL, 32)
    klei = f"pds-g^KU_{g.mixed(ALNUM, 8)}^{g.mixed(B64, 43)}="
    return [
        Case(f'{{\n  "name": "Acme Factory",\n  "visibility": {{"public": false, "lan": true}},\n'
             f'  "game_password": "{p[0]}",\n  "require_user_verification": true\n}}', "password assignment",
             "Factorio server-settings.json game_password", p[0]),
        Case(f'{{\n  "username": "ada_builds",\n  "token": "{factorio_token}",\n  "max_players": 8\n}}',
             "secret assignment", "Factorio server-settings.json service token", factorio_token),
        Case(f'./valheim_server.x86_64 -name "Acme Vikings" -port 2456 -world Dedicated -password "{p[1]}" -public 0',
             "password on a command line", "Valheim server -password", p[1]),
        Case(f"[ServerSettings]\nServerPassword=\nServerAdminPassword={s[0]}\nRCONEnabled=True\nRCONPort=27020",
             "password assignment", "ARK GameUserSettings.ini ServerAdminPassword", s[0]),
        Case(f'./RustDedicated -batchmode +server.port 28015 +rcon.port 28016 +rcon.password "{p[2]}" +rcon.web 1',
             "password on a command line", "Rust dedicated +rcon.password", p[2]),
        Case(f"world=/srv/terraria/worlds/Acme.wld\nmaxplayers=8\nport=7777\npassword={s[1]}\nmotd=hi",
             "password assignment", "Terraria serverconfig.txt password", s[1]),
        Case(f'[/Script/Pal.PalGameWorldSettings]\nOptionSettings=(Difficulty=None,ServerName="Acme",'
             f'AdminPassword="{s[2]}",ServerPassword="",PublicPort=8211,RCONEnabled=True)', "password assignment",
             "Palworld PalWorldSettings.ini AdminPassword", s[2]),
        Case(f'<property name="TelnetEnabled" value="true" />\n<property name="TelnetPassword" value="{p[3]}" />',
             "password assignment", "7 Days to Die serverconfig.xml TelnetPassword", p[3]),
        Case(f'hostname = "Acme DayZ";\npassword = "";\npasswordAdmin = "{p[4]}";\nmaxPlayers = 40;',
             "password assignment", "DayZ serverDZ.cfg passwordAdmin", p[4]),
        Case(f"PVP=true\nPauseEmpty=true\nRCONPort=27015\nRCONPassword={s[3]}", "password assignment",
             "Project Zomboid servertest.ini RCONPassword", s[3]),
        Case(f"Port=21114\nPassword={s[4]}", "password assignment", "Squad Rcon.cfg Password", s[4]),
        Case(f'seta sv_hostname "Acme Q3"\nseta rcon_password "{p[5]}"\nmap q3dm17', "password assignment",
             "Quake III seta rcon_password", p[5]),
        Case(f"[network]\nserver_password = {s[5]}\nrcon_password = {_sp(g)}", "password assignment",
             "OpenTTD secrets.cfg server_password", s[5]),
        Case(f"------------------------------------------------------------------\n                      I M P O R T A "
             f"N T\n------------------------------------------------------------------\n               Server Query "
             f'Admin Account created\n         loginname= "serveradmin", password= "{p[6]}"',
             "password assignment", "TeamSpeak 3 first-start serveradmin password", p[6]),
        Case(f"      ServerAdmin privilege key created, please use it to gain\n      serveradmin rights for your "
             f"virtualserver. please\n      also check the doc/privilegekey_guide.txt for details.\n\n"
             f'       token={ts_key}', "secret assignment", "TeamSpeak ServerAdmin privilege key", ts_key),
        Case(f"curl -H 'Authorization: Bearer {ptlc}' -H 'Accept: application/json' https://panel.acme.io/api/client",
             "secret assignment", "Pterodactyl client API key (ptlc_)", ptlc),
        Case(f"PTERODACTYL_APPLICATION_KEY={ptla}", "secret assignment", "Pterodactyl application API key (ptla_)",
             ptla),
        Case(f"steamcmd +login acme_server '{p[7]}' +force_install_dir /srv/cs2 +app_update 730 validate +quit",
             "password on a command line", "steamcmd +login user password", p[7]),
        Case(f'## lgsm/config-lgsm/arkserver/arkserver.cfg\nsteamuser="acme_server"\nsteampass=\'{p[8]}\'',
             "password assignment", "LinuxGSM steampass", p[8]),
        Case(f"curl -X POST https://{g.chars(_HEX_UPPER, 5)}.playfabapi.com/Server/GetUserData "
             f"-H 'X-SecretKey: {playfab}' -d '{{\"PlayFabId\": \"{g.chars(_HEX_UPPER, 16)}\"}}'",
             "secret assignment", "PlayFab X-SecretKey", playfab),
        Case(f'socket:\n  server_key: "defaultkey"\nruntime:\n  http_key: "{nakama}"\nconsole:\n  username: admin\n'
             f'  password: "{p[9]}"', "secret assignment", "Nakama runtime http_key", nakama),
        Case(f"curl -H 'x-api-key: {roblox}' https://apis.roblox.com/datastores/v1/universes/{g.digits(10)}/"
             "standard-datastores", "secret assignment", "Roblox Open Cloud x-api-key", roblox),
        Case(f".ROBLOSECURITY={roblosec}", "secret assignment", "Roblox .ROBLOSECURITY cookie", roblosec),
        Case(f"BUTLER_API_KEY={butler} butler push build/linux acme/lantern-keeper:linux --userversion 1.4.2",
             "secret assignment", "itch.io BUTLER_API_KEY", butler),
        Case(f"EOS_PRODUCT_ID={g.chars(HEX, 32)}\nEOS_CLIENT_ID=xyza7891{g.mixed(ALNUM, 24)}\n"
             f"EOS_CLIENT_SECRET={eos}", "secret assignment", "Epic Online Services client secret", eos),
        Case(f"echo '{ugs}' | ugs login --service-key-id {g.uuid()} --secret-key-stdin", "password on a command line",
             "Unity Gaming Services secret key on stdin", ugs),
        Case(f"$ cat ~/.klei/DoNotStarveTogether/MyDediServer/cluster_token.txt\n{klei}", "secret assignment",
             "Don't Starve Together cluster_token.txt", klei),
        Case(f'"serverUsers": {{\n  "ada": {{ "admin": true, "password": "{p[10]}" }}\n}}', "password assignment",
             "Starbound starbound_server.config serverUsers password", p[10]),
    ]  # fmt: skip


def _mail_vpn_and_network(g: Gen) -> list[Case]:
    """Mail clients and servers, chat clients, VPN and proxy configs, and network devices."""
    p = [_pw(g) for _ in range(22)]
    s = [_sp(g) for _ in range(12)]
    u = [_up(g) for _ in range(3)]
    des = g.mixed(ALNUM + "!#%*+-.?@_", 24)
    ss_userinfo = _b64(f"chacha20-ietf-poly1305:{g.mixed(ALNUM, 22)}").rstrip("=")
    vless = g.uuid()
    warp = g.uuid()
    mullvad = " ".join(g.chars(DIGITS, 4) for _ in range(4))
    nord_pw = g.mixed(ALNUM, 24)
    express = g.chars(_UPPER_ALNUM, 23)
    headscale = g.chars(HEX, 48)
    netmaker = _b64(json.dumps({"server": "api.nm.acme.io", "value": g.mixed(ALNUM, 20)}, separators=(",", ":")))
    panos = "LUFRPT" + g.mixed(B64, 74) + "=="
    opnsense = g.mixed(B64.replace("/", ""), 80)
    return [
        Case(f"IMAPAccount acme\nHost imap.acme.io\nUser ada@acme.io\nPass {s[0]}\nSSLType IMAPS",
             "password assignment", ".mbsyncrc Pass", s[0]),
        Case(f'[accounts.acme]\nemail = "ada@acme.io"\nbackend.type = "imap"\nbackend.host = "imap.acme.io"\n'
             f'backend.login = "ada@acme.io"\nbackend.auth.type = "password"\nbackend.auth.raw = "{p[0]}"',
             "password assignment", "himalaya config.toml backend.auth.raw", p[0]),
        Case(f"[retriever]\ntype = SimpleIMAPSSLRetriever\nserver = imap.acme.io\nusername = ada\npassword = {s[1]}",
             "password assignment", "getmailrc password", s[1]),
        Case(f'AuthInfo:smtp.acme.io "U:ada" "I:ada@acme.io" "P:{p[1]}" "M:PLAIN"', "password assignment",
             "sendmail authinfo P: field", p[1]),
        Case(f"# /etc/ssmtp/ssmtp.conf\nmailhub=smtp.acme.io:587\nAuthUser=alerts@acme.io\nAuthPass={s[2]}\n"
             "UseSTARTTLS=YES", "password assignment", "ssmtp.conf AuthPass", s[2]),
        Case(f"# /etc/nullmailer/remotes\nsmtp.acme.io smtp --port=587 --starttls --user=alerts@acme.io --pass={s[3]}",
             "password assignment", "nullmailer remotes --pass", s[3]),
        Case(f"# /etc/mail/secrets\nacme alerts@acme.io:{s[4]}", "password assignment", "OpenSMTPD secrets table",
             s[4]),
        Case(f"# /etc/exim4/passwd.client\nsmtp.acme.io:alerts@acme.io:{s[5]}", "password assignment",
             "Exim passwd.client", s[5]),
        Case(f"$config['des_key'] = '{des}';\n$config['plugins'] = ['archive', 'zipdownload'];", "secret assignment",
             "Roundcube config.inc.php des_key", des),
        Case(f'[app]\naddress = "0.0.0.0:9000"\nadmin_username = "listmonk"\nadmin_password = "{p[2]}"',
             "password assignment", "Listmonk config.toml admin_password", p[2]),
        Case(f'[storage acme_contacts_remote]\ntype = "carddav"\nurl = "https://dav.acme.io/"\nusername = "ada"\n'
             f'password = "{p[3]}"', "password assignment", "vdirsyncer config password", p[3]),
        Case(f'servers = (\n  {{ address = "irc.libera.chat"; chatnet = "liberachat"; port = "6697"; use_tls = "yes"; '
             f'}}\n);\nchatnets = {{ liberachat = {{ type = "IRC"; sasl_mechanism = "PLAIN"; sasl_username = "ada";'
             f' sasl_password = "{p[4]}"; }}; }};', "password assignment", "irssi config sasl_password", p[4]),
        Case(f"/secure set libera_pass {s[6]}\n/set irc.server.libera.sasl_password \"${{sec.data.libera_pass}}\"",
             "password on a command line", "WeeChat /secure set", s[6]),
        Case(f'[global]\nusername = "ada"\npassword = "{p[5]}"\nbackend = "pulseaudio"\ndevice_name = "living-room"',
             "password assignment", "spotifyd.conf password", p[5]),
        Case(f"vpncmd localhost /SERVER /PASSWORD:{s[7]} /CMD HubList", "password on a command line",
             "SoftEther vpncmd /PASSWORD:", s[7]),
        Case(f"ss://{ss_userinfo}@203.0.113.9:24813/?outline=1#Acme%20Office", "URL with a password",
             "Outline ss:// access key", ss_userinfo),
        Case(f'{{\n  "server": "0.0.0.0",\n  "server_port": 8388,\n  "password": "{p[6]}",\n'
             '  "method": "chacha20-ietf-poly1305"\n}', "password assignment", "shadowsocks config.json password",
             p[6]),
        Case(f"vless://{vless}@vpn.acme.io:443?encryption=none&security=reality&sni=www.example.com&fp=chrome"
             f"&pbk={g.mixed(B64URL, 43)}&sid={g.chars(HEX, 8)}&type=tcp#acme", "URL with a password",
             "VLESS share link user id", vless),
        Case(f"trojan://{u[0]}@vpn.acme.io:443?security=tls&sni=vpn.acme.io#acme-office", "URL with a password",
             "trojan:// share link", u[0]),
        Case(f"listen: :443\nauth:\n  type: password\n  password: {s[8]}\nmasquerade:\n  type: proxy",
             "password assignment",
             "Hysteria 2 server auth password", s[8]),
        Case(f"access_token = '{warp}'\ndevice_id = '{g.uuid()}'\nlicense_key = '{g.mixed(ALNUM, 8)}-"
             f"{g.mixed(ALNUM, 8)}-{g.mixed(ALNUM, 8)}'", "secret assignment", "wgcf-account.toml access_token", warp),
        Case(f"Mullvad account number (it is the only login): {mullvad}", "password assignment",
             "Mullvad account number", mullvad),
        Case(f"$ sudo cat /etc/openvpn/client/auth.txt\n{g.mixed(ALNUM, 24)}\n{nord_pw}", "password assignment",
             "OpenVPN auth-user-pass file (service credentials)", nord_pw),
        Case(f"$ expressvpn activate\nEnter activation code: {express}\nActivated.", "secret assignment",
             "ExpressVPN activation code at a prompt", express),
        Case(f"tunnel-group 203.0.113.50 type ipsec-l2l\ntunnel-group 203.0.113.50 ipsec-attributes\n"
             f" ikev2 remote-authentication pre-shared-key {s[9]}", "password assignment",
             "Cisco ASA tunnel-group pre-shared-key", s[9]),
        Case(f"# /etc/ppp/options.l2tpd.client\nipcp-accept-local\nrefuse-eap\nrequire-mschap-v2\nname ada\n"
             f"password {s[10]}", "password assignment", "pppd options file password", s[10]),
        Case(f"tailscale up --login-server https://hs.acme.io --authkey {headscale}", "password on a command line",
             "Headscale pre-auth key (tailscale up --authkey)", headscale),
        Case(f"netclient join -t {netmaker}", "password on a command line", "netclient join -t enrollment token",
             netmaker),
        Case(f'set system radius-server 10.0.0.9 secret "{p[7]}"\nset system authentication-order [ radius password ]',
             "password assignment", "Junos radius-server secret", p[7]),
        Case(f"aaa\n local-user admin password irreversible-cipher {p[8]}\n local-user admin service-type ssh",
             "password assignment", "Huawei VRP local-user password", p[8]),
        Case(f"curl -k 'https://fw.acme.lan/api/?type=op&cmd=<show><system><info/></system></show>&key={panos}'",
             "URL with a token", "PAN-OS API key (LUFRPT) in the URL", panos),
        Case(f"tmsh modify auth user admin password '{p[9]}'", "password on a command line", "F5 tmsh modify auth user",
             p[9]),
        Case(f"$ cat ~/Downloads/apikey.txt\nkey={g.mixed(B64.replace('/', ''), 80)}\nsecret={opnsense}",
             "secret assignment", "OPNsense apikey.txt secret", opnsense),
        Case(f"tacacs server ISE\n address ipv4 10.0.0.9\n key 0 {s[11]}\n!", "password assignment",
             "Cisco IOS tacacs server key 0", s[11]),
        Case(f"/ppp secret add name=ada password=\"{p[10]}\" service=l2tp profile=vpn", "password on a command line",
             "RouterOS /ppp secret add", p[10]),
        Case(f'createUser monitor SHA "{p[11]}" AES "{p[12]}"\nrouser monitor priv', "password assignment",
             "snmpd.conf createUser", p[11]),
        Case(f"interface Vlan10\n standby 1 ip 10.0.10.1\n standby 1 authentication md5 key-string {p[13]}",
             "password assignment", "HSRP md5 key-string", p[13]),
        Case(f'ada  Cleartext-Password := "{p[14]}"\n     Reply-Message := "Hello, %{{User-Name}}"',
             "password assignment",
             "FreeRADIUS users Cleartext-Password", p[14]),
        Case(f"mqtts://ada:{u[1]}@{g.chars(HEX, 32)}.s1.eu.hivemq.cloud:8883", "URL with a password",
             "mqtts:// URL (HiveMQ Cloud)", u[1]),
        Case(f"nntps://ada:{u[2]}@news.acme.io:563/", "URL with a password", "nntps:// URL", u[2]),
    ]  # fmt: skip


def _mobile_and_desktop(g: Gen) -> list[Case]:
    """Mobile build, signing and notarisation configs, and desktop app release tooling."""
    p = [_pw(g) for _ in range(12)]
    s = [_sp(g) for _ in range(6)]
    asp = "-".join(g.chars(LOWER, 4) for _ in range(4))
    asp2 = "-".join(g.chars(LOWER, 4) for _ in range(4))
    appcenter = g.chars(HEX, 40)
    pod_key = g.mixed(ALNUM, 40)
    sparkle = g.b64_bytes(32)
    return [
        Case(f"# android/key.properties\nstorePassword={s[0]}\nkeyPassword={s[1]}\nkeyAlias=upload\n"
             "storeFile=/home/ada/upload-keystore.jks", "password assignment", "Flutter android/key.properties",
             s[0]),
        Case(f'{{\n  "android": {{\n    "release": {{\n      "keystore": "release.keystore",\n'
             f'      "storePassword": "{p[0]}",\n      "alias": "shop",\n      "password": "{p[1]}"\n    }}\n  }}\n}}',
             "password assignment", "Cordova build.json keystore passwords", p[0]),
        Case(f'[preset.0.options]\n\nkeystore/release="/home/ada/keys/release.keystore"\nkeystore/release_user="shop"\n'
             f'keystore/release_password="{p[2]}"', "password assignment",
             "Godot export_credentials.cfg release_password", p[2]),
        Case(f"[/Script/AndroidRuntimeSettings.AndroidRuntimeSettings]\nKeyStore=release.keystore\nKeyAlias=shop\n"
             f"KeyStorePassword={s[2]}\nKeyPassword=", "password assignment",
             "Unreal DefaultEngine.ini KeyStorePassword",
             s[2]),
        Case(f"<AndroidKeyStore>true</AndroidKeyStore>\n<AndroidSigningKeyStore>release.keystore"
             f"</AndroidSigningKeyStore>\n<AndroidSigningStorePass>{p[3]}</AndroidSigningStorePass>",
             "password assignment", ".csproj AndroidSigningStorePass", p[3]),
        Case(f"CSC_LINK=./certs/acme-codesign.p12\nCSC_KEY_PASSWORD={s[3]}\n"
             "npx electron-builder --win --publish always",
             "password assignment", "electron-builder CSC_KEY_PASSWORD", s[3]),
        Case(f"xcrun notarytool store-credentials acme-notary --apple-id ada@acme.io --team-id "
             f"{g.chars(_UPPER_ALNUM, 10)} --password {asp}", "password on a command line",
             "notarytool store-credentials --password", asp),
        Case(f"FASTLANE_USER=ada@acme.io\nFASTLANE_APPLE_APPLICATION_SPECIFIC_PASSWORD={asp2}", "password assignment",
             "fastlane FASTLANE_APPLE_APPLICATION_SPECIFIC_PASSWORD", asp2),
        Case(f"appcenter login --token {appcenter}", "password on a command line", "appcenter login --token",
             appcenter),
        Case(f"bundle exec pod keys set AnalyticsIngestSecret {pod_key} Shop", "password on a command line",
             "cocoapods-keys pod keys set", pod_key),
        Case(f"TAURI_SIGNING_PRIVATE_KEY_PASSWORD='{p[4]}' npm run tauri build", "password assignment",
             "TAURI_SIGNING_PRIVATE_KEY_PASSWORD", p[4]),
        Case(f"MYAPP_UPLOAD_STORE_FILE=my-upload-key.keystore\nMYAPP_UPLOAD_KEY_ALIAS=my-key-alias\n"
             f"MYAPP_UPLOAD_STORE_PASSWORD={s[4]}\nMYAPP_UPLOAD_KEY_PASSWORD={s[4]}", "password assignment",
             "React Native gradle.properties MYAPP_UPLOAD_STORE_PASSWORD", s[4]),
        Case(f"osslsigncode sign -pkcs12 acme.pfx -pass '{p[5]}' -n Shop -t http://timestamp.sectigo.com "
             "-in shop.exe -out shop-signed.exe", "password on a command line", "osslsigncode -pass", p[5]),
        Case(f"<plugin>\n  <artifactId>maven-jarsigner-plugin</artifactId>\n  <configuration>\n"
             f"    <keystore>release.jks</keystore>\n    <alias>shop</alias>\n    <storepass>{p[6]}</storepass>\n"
             "  </configuration>\n</plugin>", "password assignment", "maven-jarsigner-plugin storepass", p[6]),
        Case(f"./bin/sign_update Shop-1.4.2.zip -s {sparkle}", "private key", "Sparkle sign_update -s EdDSA key",
             sparkle),
        Case(f"productsign --sign 'Developer ID Installer: Acme' --keychain build.keychain Shop.pkg Shop-signed.pkg\n"
             f"security unlock-keychain -p '{p[8]}' build.keychain", "password on a command line",
             "security unlock-keychain -p", p[8]),
    ]  # fmt: skip


def _terminal_and_logs(g: Gen) -> list[Case]:
    """Passwords typed at the wrong prompt, process listings, traces, logs, stack traces and the output of
    secret managers."""
    p = [_pw(g) for _ in range(30)]
    s = [_sp(g) for _ in range(10)]
    u = _up(g)
    short = _pw(g, _SHORT, 10, 14)
    q = g.mixed(ALNUM, 32)
    xkey = g.mixed(ALNUM, 40)
    tf = g.chars(HEX, 40)
    gsecret = g.mixed(B64URL, 43)
    heroku = g.chars(HEX, 64)
    return [
        Case(f"ada@web1:~$ sudo systemctl restart shop\n[sudo] password for ada:\nada@web1:~$ {s[0]}\n"
             f"{s[0]}: command not found", "password assignment", "password typed at the bash prompt", s[0]),
        Case(f"➜  ~ {s[1]}\nzsh: command not found: {s[1]}", "password assignment", "password typed at the zsh prompt",
             s[1]),
        Case(f"ada@laptop ~> {s[2]}\nfish: Unknown command: {s[2]}", "password assignment",
             "password typed at the fish prompt", s[2]),
        Case(f"PS C:\\Users\\ada> {s[3]}\n{s[3]} : The term '{s[3]}' is not recognized as the name of a cmdlet, "
             "function, script file, or operable program.", "password assignment",
             "password typed at the PowerShell prompt", s[3]),
        Case(f"C:\\Users\\ada>{s[4]}\n'{s[4]}' is not recognized as an internal or external command,\n"
             "operable program or batch file.", "password assignment", "password typed at the cmd.exe prompt", s[4]),
        Case(f"$ git push origin main\nUsername for 'https://git.acme.io': {u}\nPassword for 'https://{u}@git.acme.io':",
             "password assignment", "password typed into git's Username prompt", u),
        Case(f"login as: {s[5]}\n{s[5]}@10.0.0.5's password:\nAccess denied", "password assignment",
             "password typed at PuTTY's login as: prompt", s[5]),
        Case(f"$ read -p 'DB password: ' DBPW\nDB password: {p[0]}\n$ export DBPW", "password assignment",
             "read without -s echoes the password", p[0]),
        Case(f"$ tail -5 ~/.bash_history\nsudo -i\n{s[6]}\nsystemctl status shop\nexit", "password assignment",
             ".bash_history with a password on its own line", s[6]),
        Case(f"$ ps aux | grep [m]ongodump\nroot  4121  0.3  1.2 912344 48812 ?  Sl  03:00  0:04 /usr/bin/mongodump "
             f"--username backup --password {s[7]} --out /backup/nightly", "password on a command line",
             "ps aux line with --password", s[7]),
        Case(f"$ cat /proc/812/cmdline | tr '\\0' ' '\n"
             f"/usr/bin/redis-server *:6379 --requirepass {s[8]} --appendonly yes",
             "password on a command line", "/proc/PID/cmdline dump", s[8]),
        Case(f"+ curl -fsS --user deploy:{s[9]} -T shop-1.4.2.tgz https://nexus.acme.io/repository/raw/shop/",
             "password on a command line", "set -x trace of curl --user", s[9]),
        Case(f"$ printenv | grep -i pass\nSMTP_PASSWORD={p[1]}\nPASSWORD_MIN_LENGTH=12", "password assignment",
             "printenv output", p[1]),
        Case(f"$ systemctl show shop -p Environment\nEnvironment=DB_HOST=db.acme.io DB_USER=shop DB_PASSWORD={p[2]}",
             "password assignment", "systemctl show Environment=", p[2]),
        Case(f"Jan 12 03:14:07 web1 shop[812]: connecting with host=db.acme.io user=shop password={p[3]} "
             "dbname=shop sslmode=require", "password assignment", "journal line with a libpq password", p[3]),
        Case(f"PHP Fatal error:  Uncaught PDOException: SQLSTATE[HY000] [2002] Connection refused in "
             f"/var/www/shop/src/Db.php:14\nStack trace:\n#0 /var/www/shop/src/Db.php(14): PDO->__construct('mysql:"
             f"host=db;d...', 'shop', '{short}')\n#1 {{main}}", "password assignment",
             "PHP stack trace PDO->__construct arguments", short),
        Case(f'Traceback (most recent call last):\n  File "/srv/etl/load.py", line 12, in <module>\n'
             f'    conn = pymysql.connect(host="db", user="etl", password="{p[4]}", database="dw")\n'
             "pymysql.err.OperationalError: (2003, \"Can't connect to MySQL server on 'db'\")",
             "password assignment", "Python traceback source line", p[4]),
        Case(f"java.sql.SQLException: Cannot create PoolableConnectionFactory (jdbc:sqlserver://db.acme.io;"
             f"user=shop;password={p[5]};databaseName=shop)\n\tat org.apache.commons.dbcp2.BasicDataSource."
             "createPoolableConnectionFactory(BasicDataSource.java:653)", "password assignment",
             "JDBC URL in a Java exception message", p[5]),
        Case(f"2025/01/12 03:14:07 loaded config: {{Host:db.acme.io Port:5432 User:shop Password:{p[6]} "
             "SSLMode:require}", "password assignment", "Go %+v struct dump with a Password field", p[6]),
        Case(f"Error: connect ECONNREFUSED 10.0.0.5:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] "
             f"(node:net:1555:16) {{\n  errno: -111,\n"
             f"  config: {{ host: '10.0.0.5', user: 'shop', password: '{p[7]}' }}"
             "\n}", "password assignment", "Node.js util.inspect error dump", p[7]),
        Case(f'Started POST "/users/sign_in" for 10.0.0.7\nProcessing by SessionsController#create as HTML\n'
             f'  Parameters: {{"user"=>{{"email"=>"ada@acme.io", "password"=>"{p[8]}"}}, "commit"=>"Log in"}}',
             "password assignment", "Rails log with an unfiltered password param", p[8]),
        Case(f'10.0.0.7 - - [12/Jan/2025:03:14:07 +0000] "GET /api/export?format=csv&access_key={q} HTTP/1.1" '
             '200 5120 "-" "python-requests/2.32.3"', "URL with a token", "nginx access log query token", q),
        Case(f"> GET /v2/orders HTTP/2\n> Host: api.acme.io\n> user-agent: curl/8.5.0\n> x-api-key: {xkey}\n"
             "> accept: */*\n>\n< HTTP/2 200", "secret assignment", "curl -v request dump x-api-key", xkey),
        Case(f"2025-01-12T03:14:07.123Z [DEBUG] provider.terraform-provider-acme_v1.4.2: HTTP Request: "
             f"GET /v1/zones HTTP/1.1\nAuthorization: Token {tf}", "secret assignment", "TF_LOG=DEBUG header dump", tf),
        Case(f'TASK [debug] ****\nok: [web1] => {{\n    "msg": "db password is {p[9]}"\n}}', "password assignment",
             "Ansible debug task output", p[9]),
        Case(f"$ vault kv get secret/shop/db\n====== Data ======\nKey         Value\n---         -----\n"
             f"password    {p[10]}\nusername    shop", "password assignment", "vault kv get table output", p[10]),
        Case(f'{{\n    "ARN": "arn:aws:secretsmanager:eu-west-1:{g.digits(12)}:secret:prod/shop/db-'
             f'{g.mixed(ALNUM, 6)}",\n'
             f'    "Name": "prod/shop/db",\n    "SecretString": "{{\\"username\\":\\"shop\\",\\"password\\":\\"{p[11]}'
             '\\"}",\n    "VersionStages": ["AWSCURRENT"]\n}', "password assignment",
             "aws secretsmanager get-secret-value output", p[11]),
        Case(f"$ gcloud secrets versions access latest --secret=stripe-webhook-signing\n{gsecret}",
             "secret assignment", "gcloud secrets versions access output", gsecret),
        Case(f'{{\n  "contentType": null,\n  "id": "https://acme-kv.vault.azure.net/secrets/db-password/'
             f'{g.chars(HEX, 32)}",\n  "name": "db-password",\n  "value": "{p[12]}"\n}}', "password assignment",
             "az keyvault secret show output", p[12]),
        Case(f'$ op item get "Shop DB" --fields password --reveal\n{p[13]}', "password assignment",
             "op item get --reveal output", p[13]),
        Case(f"$ bw get password shop-db\n{p[14]}", "password assignment", "bw get password output", p[14]),
        Case(f"$ kubectl get secret shop-db -o jsonpath='{{.data.password}}' | base64 -d\n{p[15]}",
             "password assignment", "kubectl jsonpath | base64 -d output", p[15]),
        Case(f"$ sops -d secrets/prod.yaml\ndb:\n    user: shop\n    password: {p[16]}", "password assignment",
             "sops -d decrypted output", p[16]),
        Case(f"$ ansible-vault view group_vars/prod/vault.yml\nVault password:\nvault_db_password: {p[17]}",
             "password assignment", "ansible-vault view output", p[17]),
        Case(f"┌─────────────┬──────────────────────┐\n│ NAME        │ VALUE                │\n├─────────────┼"
             f"──────────────────────┤\n│ DB_PASSWORD │ {p[18]:<20} │\n└─────────────┴──────────────────────┘",
             "password assignment", "doppler secrets table", p[18]),
        Case(f"$ heroku config -a shop\n=== shop Config Vars\nRAILS_ENV:      production\nSESSION_SECRET: {heroku}",
             "secret assignment", "heroku config output", heroku),
        Case(f"Environment:\nDjango Version: 5.1.4\n...\nSettings:\nDEBUG = True\nSMTP_LOGIN_PW = '{p[19]}'\n"
             "SECRET_KEY = '********************'", "password assignment",
             "Django debug page setting outside the masking filter", p[19]),
        Case(f"╭──────────── locals ────────────╮\n│ password = '{p[20]}' │\n│     user = 'ada' │\n"
             "╰────────────────────────────────╯", "password assignment", "rich traceback locals panel", p[20]),
        Case(f"$ tail -3 ~/.mysql_history\nuse shop;\nSET PASSWORD FOR 'report'@'%' = '{p[21]}';\nexit",
             "password assignment", "~/.mysql_history SET PASSWORD", p[21]),
    ]  # fmt: skip


def _chat(g: Gen) -> list[Case]:
    """Keys, tokens, PINs and logins handed over in chat messages, in about forty languages."""
    keys = [g.mixed(ALNUM, g.rng.randint(32, 44)) for _ in range(24)]
    pins = [g.chars(DIGITS, g.rng.choice([4, 6, 8])) for _ in range(8)]
    p = [_pw(g) for _ in range(16)]
    h = [_hu(g) for _ in range(6)]
    hexkey = g.chars(HEX, 40)
    psk = g.mixed(ALNUM, 24)
    ali = g.mixed(ALNUM, 30)
    codes_es = " ".join(f"{g.chars(DIGITS, 4)}-{g.chars(DIGITS, 4)}" for _ in range(5))
    codes_ja = " ".join(g.chars(_LOWER_ALNUM, 10) for _ in range(4))
    texts: list[tuple[str, str, str]] = [
        (
            "Kannst du dich kurz auf dem Build-Server einloggen? User ist deploy, Passwort {}",
            p[0],
            "server login handed over in chat (German)",
        ),
        (
            "Hier der API-Schlüssel fürs Staging: {} – bitte nicht ins Repo committen!",
            keys[0],
            "API-Schlüssel in chat (German)",
        ),
        ("Der WLAN-Schlüssel fürs Gästenetz ist jetzt {}", h[0], "WLAN-Schlüssel in chat (German)"),
        (
            "Salut ! Le jeton d'accès pour l'API de facturation : {} (il expire dans 30 jours)",
            keys[1],
            "jeton d'accès in chat (French)",
        ),
        ("je t'envoie les identifiants du NAS : admin / {}", p[1], "identifiants with a slash (French)"),
        ("le code PIN de la carte SIM du routeur 4G est {}", pins[0], "code PIN in chat (French)"),
        ("oye, la contraseña del panel de Grafana la cambié a {}", p[2], "contraseña cambiada in chat (Spanish)"),
        ("te paso el secret del cliente OAuth: {}", keys[2], "secret del cliente OAuth in chat (Spanish)"),
        ("códigos de respaldo del 2FA, guárdalos: {}", codes_es, "2FA backup codes in chat (Spanish)"),
        ("mano, a senha do banco de produção é {}, não espalha", p[3], "senha do banco in chat (Brazilian Portuguese)"),
        ("a palavra-passe do router lá de casa é {}", h[1], "palavra-passe (European Portuguese)"),
        ("segue o segredo do webhook: {}", hexkey, "segredo do webhook in chat (Portuguese)"),
        ("la password di root del server di posta è {}", p[4], "password di root in chat (Italian)"),
        ("il PIN del badge per il magazzino è {}", pins[1], "PIN del badge (Italian)"),
        ("de pincode van de kluis is {}", pins[2], "pincode in chat (Dutch)"),
        ("hier is de API-sleutel voor de testomgeving: {}", keys[3], "API-sleutel in chat (Dutch)"),
        ("inloggegevens: gebruikersnaam ada, wachtwoord {}", p[5], "inloggegevens (Dutch)"),
        ("klucz API do sklepu: {}", keys[4], "klucz API in chat (Polish)"),
        ("PIN do alarmu w biurze to {}", pins[3], "PIN do alarmu (Polish)"),
        ("服务器 root 密码改成 {} 了，记得更新到密码库", p[6], "root密码 in chat (Chinese)"),
        ("阿里云 AccessKey Secret 发你：{}", ali, "AccessKey Secret in chat (Chinese)"),
        ("堡垒机账号 ada，密码 {}", p[7], "堡垒机 login in chat (Chinese)"),
        ("VPN 的預共享金鑰是 {}", psk, "預共享金鑰 in chat (Traditional Chinese)"),
        ("ステージングのBasic認証は ada / {} です", p[8], "Basic認証 user / password (Japanese)"),
        ("VPNの事前共有キーは {} です", h[2], "事前共有キー (Japanese)"),
        ("2段階認証のリカバリーコード：{}", codes_ja, "recovery codes (Japanese)"),
        ("DB 접속 정보: 호스트 db.acme.io / 계정 shop / 암호 {}", p[9], "접속 정보 암호 (Korean)"),
        ("API 키는 {} 이거 쓰시면 돼요", keys[5], "API 키 in chat (Korean)"),
        ("현관 도어락 번호 {}# 입니다", pins[4], "도어락 번호 (Korean)"),
        ("логин: ada, пасс: {}", p[10], "пасс slang (Russian)"),
        ("вот ключ доступа к хранилищу: {}", keys[6], "ключ доступа in chat (Russian)"),
        ("sunucunun root parolası {}", p[11], "root parolası (Turkish)"),
        ("API anahtarı: {}", keys[7], "API anahtarı (Turkish)"),
        ("API-nyckeln till staging är {}", keys[8], "API-nyckeln (Swedish)"),
        ("PIN-koden til alarmen er {}", pins[5], "PIN-koden (Norwegian)"),
        ("API-nøglen til test er {}", keys[9], "API-nøgle (Danish)"),
        ("API-avain tuotantoon: {}", keys[10], "API-avain (Finnish)"),
        ("přístupový token k API: {}", keys[11], "přístupový token (Czech)"),
        ("az API kulcs a teszthez: {}", keys[12], "API kulcs (Hungarian)"),
        ("cheia de API pentru staging: {}", keys[13], "cheia de API (Romanian)"),
        ("το κλειδί API είναι {}", keys[14], "κλειδί API (Greek)"),
        ("токен доступу до API: {}", keys[15], "токен доступу (Ukrainian)"),
        ("קוד הכניסה לבניין: {}", pins[6], "קוד כניסה (Hebrew)"),
        ("مفتاح API الخاص بالإنتاج: {}", keys[16], "مفتاح API (Arabic)"),
        ("توکن دسترسی: {}", keys[17], "توکن دسترسی (Persian)"),
        ("सर्वर की API की यह है: {}", keys[18], "API की (Hindi)"),
        ("รหัส PIN ของตู้เซฟคือ {}", pins[7], "รหัส PIN (Thai)"),
        ("mã API của máy chủ là {}", keys[19], "mã API (Vietnamese)"),
        ("kunci API-nya: {}", keys[20], "kunci API (Indonesian)"),
        ("la clau de l'API és {}", keys[21], "clau de l'API (Catalan)"),
        ("ufunguo wa API ni {}", keys[22], "ufunguo wa API (Swahili)"),
        ("API ključ za test: {}", keys[23], "API ključ (Croatian)"),
        ("ang password ng admin panel ay {}", p[12], "password ng admin panel (Tagalog)"),
        ("{} <- oops, wrong window, that was my password. rotating it now", p[13], "oops paste (English)"),
        ("ignore the previous message pls 🙈 (it was {})", p[14], "retracted message (English)"),
        ("root pw for the lab box: {} — ask before you reboot it", p[15], "pw for the lab box (English)"),
        ("Geheimwort für die Tür zum Serverraum: {}", h[3], "Geheimwort (German)"),
        ("la frase de paso del GPG es {}", h[4], "frase de paso (Spanish)"),
        ("la phrase secrète de ma clé SSH : {}", h[5], "phrase secrète SSH (French)"),
    ]
    return [Case(text.format(secret), "password assignment" if secret in p + h + pins else "secret assignment",
                 vendor, secret) for text, secret, vendor in texts]  # fmt: skip


def _urls(g: Gen) -> list[Case]:
    """Passwords in URLs of schemes no other part has, signed and capability URLs, and keys in query strings."""
    u = [_up(g) for _ in range(16)]
    s3_secret = g.mixed(ALNUM, 40)
    b2_key = "K005" + g.mixed(ALNUM, 27)
    twitch = f"live_{g.digits(9)}_{g.mixed(ALNUM, 30)}"
    yt = "-".join(g.chars(_LOWER_ALNUM, 4) for _ in range(5))
    srt = g.mixed(ALNUM, 24)
    obs_sig = g.mixed(B64URL, 27)
    bunny = g.mixed(B64URL, 22)
    mux = _jwt(g, {"alg": "RS256", "typ": "JWT", "kid": g.mixed(ALNUM, 24)},
               {"sub": g.mixed(ALNUM, 32), "aud": "v", "exp": 2051360000}, 256)  # fmt: skip
    cf_stream = _jwt(g, {"alg": "RS256", "kid": g.chars(HEX, 32)},
                     {"sub": g.chars(HEX, 32), "kid": g.chars(HEX, 32), "exp": 2051360000}, 256)  # fmt: skip
    zoom = g.mixed(B64URL, 32) + ".1"
    finnhub = g.chars(_LOWER_ALNUM, 20)
    nyt = g.mixed(ALNUM, 32)
    polygon = g.mixed(ALNUM, 32)
    tomtom = g.mixed(ALNUM, 32)
    newsapi = g.chars(HEX, 32)
    tiingo = g.chars(HEX, 40)
    deepsource = g.chars(HEX, 40)
    gemfury = g.mixed(ALNUM, 20)
    matomo = g.chars(HEX, 32)
    return [
        Case(f"sip:ada:{u[0]}@sip.acme.io;transport=tls", "URL with a password", "sip: URI with a password", u[0]),
        Case(f"ffmpeg -re -i talk.mp4 -c copy -f flv rtmp://stream:{u[1]}@live.acme.io/app/talk", "URL with a password",
             "rtmp:// URL with credentials", u[1]),
        Case(f"svn checkout svn://ada:{u[2]}@svn.acme.io/shop/trunk shop", "URL with a password", "svn:// URL", u[2]),
        Case(f"CASSANDRA_URL=cassandra://app:{u[3]}@cass1.acme.io:9042/shop", "URL with a password",
             "cassandra:// URL", u[3]),
        Case(f'engine = create_engine("cockroachdb://shop:{u[4]}@crdb.acme.io:26257/shop?sslmode=verify-full")',
             "URL with a password", "cockroachdb:// SQLAlchemy URL", u[4]),
        Case(f'engine = create_engine("oracle+oracledb://shop:{u[5]}@db.acme.io:1521/?service_name=PROD")',
             "URL with a password", "oracle+oracledb:// SQLAlchemy URL", u[5]),
        Case(f"CACHE_URL=redis+sentinel://:{u[6]}@s1.acme.io:26379,s2.acme.io:26379/mymaster/0",
             "URL with a password", "redis+sentinel:// URL", u[6]),
        Case(f"lftp ftps://ada:{u[7]}@ftp.acme.io -e 'mirror -R dist /www; bye'", "URL with a password",
             "ftps:// URL", u[7]),
        Case(f"curl -T backup.tgz scp://ada:{u[8]}@10.0.0.5/backups/", "URL with a password", "scp:// URL (curl)",
             u[8]),
        Case(f"curl telnet://admin:{u[9]}@10.0.0.60:23", "URL with a password", "telnet:// URL", u[9]),
        Case(f"duplicity /srv s3://{g.chars(_UPPER_ALNUM, 20)}:{s3_secret}@s3.eu-central-1.wasabisys.com/acme-backup",
             "URL with a password", "duplicity s3:// URL with key and secret", s3_secret),
        Case(f"duplicity /srv b2://005{g.chars(HEX, 21)}:{b2_key}@acme-backup/web1", "URL with a password",
             "duplicity b2:// URL with an application key", b2_key),
        Case(f"davmail.url=https://ada%40acme.io:{u[10]}@owa.acme.io/owa/", "URL with a password",
             "OWA URL with an escaped user", u[10]),
        Case(f"ldapsearch -H 'ldaps://cn=reader,dc=acme,dc=io:{u[11]}@ldap.acme.io'", "URL with a password",
             "ldaps:// URL with a bind DN", u[11]),
        Case(f'{{\n  "settings": {{ "server": "auto", "key": "{twitch}" }},\n  "type": "rtmp_common"\n}}',
             "secret assignment", "Twitch stream key in OBS service.json", twitch),
        Case(f"rtmp://a.rtmp.youtube.com/live2/{yt}", "URL with a token", "YouTube Live stream key URL", yt),
        Case(f"srt://live.acme.io:9000?streamid=publish/cam1&passphrase={srt}&pbkeylen=32", "URL with a password",
             "srt:// URL passphrase", srt),
        Case(f"https://acme.obs.eu-west-101.myhuaweicloud.eu/report.pdf?AccessKeyId={g.chars(_UPPER_ALNUM, 20)}"
             f"&Expires=1736000000&Signature={obs_sig}%3D", "URL with a token", "Huawei OBS signed URL", obs_sig),
        Case(f"https://cdn.acme.io/videos/intro.mp4?token={bunny}&expires=1736003600", "URL with a token",
             "Bunny CDN token-authenticated URL", bunny),
        Case(f"https://stream.mux.com/{g.mixed(ALNUM, 40)}.m3u8?token={mux}", "URL with a token",
             "Mux signed playback URL", mux),
        Case(f"https://customer-{g.chars(_LOWER_ALNUM, 16)}.cloudflarestream.com/{cf_stream}/manifest/video.m3u8",
             "URL with a token", "Cloudflare Stream signed URL", cf_stream),
        Case(f"Join the call: https://acme.zoom.us/j/{g.digits(11)}?pwd={zoom}", "URL with a password",
             "Zoom meeting link with pwd=", zoom),
        Case(f"https://finnhub.io/api/v1/quote?symbol=AAPL&token={finnhub}", "URL with a token", "Finnhub token URL",
             finnhub),
        Case(f"https://api.nytimes.com/svc/topstories/v2/science.json?api-key={nyt}", "URL with a token",
             "NYTimes api-key URL", nyt),
        Case(f"https://api.polygon.io/v2/aggs/ticker/AAPL/prev?adjusted=true&apiKey={polygon}", "URL with a token",
             "Polygon.io apiKey URL", polygon),
        Case(f"https://api.tomtom.com/search/2/geocode/Damrak%201%20Amsterdam.json?key={tomtom}", "URL with a token",
             "TomTom key URL", tomtom),
        Case(f"https://newsapi.org/v2/top-headlines?country=de&apiKey={newsapi}", "URL with a token",
             "NewsAPI apiKey URL", newsapi),
        Case(f"https://api.tiingo.com/tiingo/daily/aapl/prices?startDate=2025-01-02&token={tiingo}",
             "URL with a token", "Tiingo token URL", tiingo),
        Case(f"DEEPSOURCE_DSN=https://{deepsource}@app.deepsource.com\n"
             "./bin/deepsource report --analyzer test-coverage",
             "URL with a token", "DeepSource DSN", deepsource),
        Case(f"git push https://{gemfury}@git.fury.io/acme/shop.git main", "URL with a token", "Gemfury git push URL",
             gemfury),
        Case(f"https://stats.acme.io/index.php?module=API&method=VisitsSummary.get&idSite=1&period=day&date=today"
             f"&format=JSON&token_auth={matomo}", "URL with a token", "Matomo token_auth URL", matomo),
    ]  # fmt: skip


def _webhooks(g: Gen) -> list[Case]:
    """Heartbeat, automation, chat and deploy webhooks and capability URLs no other part has."""
    power = g.mixed(B64URL, 43)
    portainer = g.uuid()
    hc = g.uuid()
    cronitor = g.chars(HEX, 32)
    snitch = g.chars(HEX, 10)
    betterstack = g.mixed(ALNUM, 24)
    ntfy = "acme-" + g.mixed(ALNUM, 20)
    bark = g.mixed(ALNUM, 22)
    zoom = g.mixed(B64URL, 22)
    pumble = g.mixed(B64URL, 32)
    tray = g.uuid()
    workato = g.uuid()
    airtable = f"app{g.mixed(ALNUM, 14)}/wfl{g.mixed(ALNUM, 14)}/wtr{g.mixed(ALNUM, 14)}"
    gas = "AKfycb" + g.mixed(B64URL, 66)
    glptt = "glptt-" + g.chars(HEX, 40)
    return [
        Case(f"https://{g.chars(HEX, 32)}.environment.api.powerplatform.com/powerautomate/automations/direct/"
             f"workflows/{g.chars(HEX, 32)}/triggers/manual/paths/invoke?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun"
             f"&sv=1.0&sig={power}", "webhook URL", "Power Automate HTTP trigger URL (sig=)", power),
        Case(f"curl -X POST https://portainer.acme.io/api/stacks/webhooks/{portainer}", "webhook URL",
             "Portainer stack webhook", portainer),
        Case(f"0 3 * * * /usr/local/bin/backup.sh && curl -fsS -m 10 --retry 5 https://hc-ping.com/{hc}",
             "webhook URL", "Healthchecks.io ping URL", hc),
        Case(f"curl 'https://cronitor.link/p/{cronitor}/nightly-backup?state=complete'", "webhook URL",
             "Cronitor telemetry URL", cronitor),
        Case(f"0 * * * * /srv/sync.sh && curl -s https://nosnch.in/{snitch}", "webhook URL",
             "Dead Man's Snitch check-in URL", snitch),
        Case(f"curl https://uptime.betterstack.com/api/v1/heartbeat/{betterstack}", "webhook URL",
             "Better Stack heartbeat URL", betterstack),
        Case(f'curl -d "backup on web1 finished" ntfy.sh/{ntfy}', "webhook URL", "ntfy.sh secret topic name", ntfy),
        Case(f"curl https://api.day.app/{bark}/backup%20done?group=servers", "webhook URL", "Bark push URL", bark),
        Case(f"curl -X POST 'https://integrations.zoom.us/chat/webhooks/incomingwebhook/{zoom}?format=full' "
             "-d '{\"head\": {\"text\": \"deploy\"}}'", "webhook URL", "Zoom Team Chat incoming webhook", zoom),
        Case(f"https://api.pumble.com/workspaces/{g.chars(HEX, 24)}/incomingWebhooks/postMessage/{pumble}",
             "webhook URL", "Pumble incoming webhook", pumble),
        Case(f"POST https://{tray}.trayapp.io with the order payload", "webhook URL", "Tray.io webhook trigger URL",
             tray),
        Case(f"https://webhooks.workato.com/webhooks/rest/{workato}/order-created", "webhook URL",
             "Workato webhook trigger URL", workato),
        Case(f"https://hooks.airtable.com/workflows/v1/genericWebhook/{airtable}", "webhook URL",
             "Airtable automation webhook", airtable),
        Case(f"fetch('https://script.google.com/macros/s/{gas}/exec', {{ method: 'POST', body: form }})",
             "webhook URL", "Google Apps Script web app /exec URL", gas),
        Case(f"curl -X POST --fail -F token={glptt} -F ref=main https://git.acme.io/api/v4/projects/42/trigger/pipeline",
             "secret assignment", "GitLab pipeline trigger token (glptt-)", glptt),
    ]  # fmt: skip


def _keys(g: Gen) -> list[Case]:
    """Key files and key material in layouts no other part has."""
    asc = " ".join(_lines(base64.b64encode(_ec_pkcs8(g)).decode()).split("\n"))
    cdp = "\\n".join(_lines(base64.b64encode(_sec1(g)).decode()).split("\n"))
    minisign = "untrusted comment: rsign encrypted secret key\nRWRTY0Iy" + g.b64_bytes(150) + "\n"
    tauri = _b64(minisign)
    sa_token = _jwt(g, {"alg": "RS256", "kid": g.mixed(B64URL, 43)},
                    {"aud": ["https://kubernetes.default.svc"], "exp": 2051360000, "iss": "https://kubernetes.default.svc",
                     "kubernetes.io": {"namespace": "shop", "serviceaccount": {"name": "deployer", "uid": g.uuid()}},
                     "sub": "system:serviceaccount:shop:deployer"}, 256)  # fmt: skip
    sodium = g.chars(HEX, 128)
    raw = "Es" + g.chars(_BASE58, 46)
    matrix = " ".join(raw[i : i + 4] for i in range(0, 48, 4))
    paper = _words(g, _BIP39, 13)
    tls_crypt = _lines(g.b64_bytes(390))
    nm_wg = g.b64_bytes(32)
    transit = g.b64_bytes(32)
    validation = g.chars(_HEX_UPPER, 128)
    phoenix = g.mixed(B64.replace("/", ""), 64)
    spring = g.mixed(ALNUM, 32)
    kc_der = bytes.fromhex("308204a40201000282010100") + g.rng.randbytes(1180)
    keycloak = base64.b64encode(kc_der).decode()
    go_bytes = ", ".join(f"0x{b:02x}" for b in g.rng.randbytes(32))
    go_key = "\n\t".join(", ".join(go_bytes.split(", ")[i : i + 8]) + "," for i in range(0, 32, 8))
    py_key = g.chars(HEX, 64)
    c_key = ", ".join(f"0x{b:02x}" for b in g.rng.randbytes(16))
    return [
        Case(f'APP_STORE_CONNECT_KEY_ID={g.chars(_UPPER_ALNUM, 10)}\nAPP_STORE_CONNECT_PRIVATE_KEY="-----BEGIN PRIVATE '
             f'KEY----- {asc} -----END PRIVATE KEY-----"', "PEM private key",
             "PEM with spaces for newlines (App Store Connect key)", asc),
        Case(f'{{\n  "name": "organizations/{g.uuid()}/apiKeys/{g.uuid()}",\n  "privateKey": "-----BEGIN EC PRIVATE '
             f'KEY-----\\n{cdp}\\n-----END EC PRIVATE KEY-----\\n"\n}}', "PEM private key",
             "Coinbase CDP API key JSON (escaped SEC1 PEM)", cdp),
        Case(f"TAURI_SIGNING_PRIVATE_KEY={tauri}", "private key", "Tauri updater signing key (base64 of minisign)",
             tauri),
        Case(f"$ kubectl exec deploy/shop -- cat /var/run/secrets/kubernetes.io/serviceaccount/token\n{sa_token}",
             "secret assignment", "Kubernetes service account token file", sa_token),
        Case(f"SODIUM_SIGN_SECRET_KEY={sodium}", "private key", "libsodium crypto_sign secret key hex", sodium),
        Case(f"Matrix Secure Backup security key (keep it offline):\n{matrix}", "secret assignment",
             "Matrix Secure Backup security key", matrix),
        Case(f"Keybase paper key for the laptop: {paper}", "secret assignment", "Keybase paper key", paper),
        Case(f"-----BEGIN OpenVPN tls-crypt-v2 client key-----\n{tls_crypt}\n"
             "-----END OpenVPN tls-crypt-v2 client key-----",
             "PEM private key", "OpenVPN tls-crypt-v2 client key", tls_crypt),
        Case(f"[connection]\nid=wg-office\ntype=wireguard\ninterface-name=wg0\n\n[wireguard]\nprivate-key={nm_wg}\n"
             f"\n[wireguard-peer.{g.b64_bytes(32)}]\nendpoint=vpn.acme.io:51820\nallowed-ips=10.8.0.0/24;",
             "private key", "NetworkManager WireGuard keyfile private-key", nm_wg),
        Case(f'$ vault read -format=json transit/export/encryption-key/shop/1\n'
             f'{{"data": {{"keys": {{"1": "{transit}"}}, '
             '"name": "shop", "type": "aes256-gcm96"}}', "private key", "Vault transit exported key", transit),
        Case(f'<machineKey validationKey="{validation}" decryptionKey="{g.chars(_HEX_UPPER, 64)}" '
             'validation="HMACSHA256" decryption="AES" />', "secret assignment", "ASP.NET machineKey validationKey",
             validation),
        Case(f'config :shop, ShopWeb.Endpoint,\n  http: [port: 4000],\n  secret_key_base: "{phoenix}"',
             "secret assignment", "Phoenix endpoint secret_key_base", phoenix),
        Case(f"# bootstrap.yml of the config server\nencrypt:\n  key: {spring}", "secret assignment",
             "Spring Cloud Config encrypt.key", spring),
        Case(f'"org.keycloak.keys.KeyProvider": [{{\n  "name": "rsa-generated",\n  "providerId": "rsa-generated",\n'
             f'  "config": {{ "privateKey": ["{keycloak}"], "priority": ["100"] }}\n}}]', "private key",
             "Keycloak realm export privateKey", keycloak),
        Case(f"// noise static key of the relay\nvar staticKey = [32]byte{{\n\t{go_key}\n}}", "private key",
             "Go [32]byte key literal", go_key),
        Case(f'SIGNING_KEY = bytes.fromhex("{py_key}")\nsigner = SigningKey(SIGNING_KEY)', "private key",
             "Python bytes.fromhex signing key", py_key),
        Case(f"/* firmware/include/keys.h */\nstatic const uint8_t ota_aes_key[16] = {{ {c_key} }};", "private key",
             "C uint8_t AES key array in a firmware header", c_key),
    ]  # fmt: skip


def _wallets(g: Gen) -> list[Case]:
    """Wallet keys of more chains and tools, and seed phrases in more wordlists and layouts."""
    geth_hex = g.chars(HEX, 64)
    ethers = g.chars(HEX, 64)
    viem = g.chars(HEX, 64)
    brownie = g.chars(HEX, 64)
    yprv = "yprvAHwhK6RbpuS3d" + g.chars(_BASE58, 94)
    zprv_ms = "Zprv" + g.chars(_BASE58, 107)
    dump_wif = g.pick(["K", "L"]) + g.chars(_BASE58, 51)
    ltc = "T" + g.chars(_BASE58, 51)
    dash = "X" + g.chars(_BASE58, 51)
    hive = "5" + g.pick(["H", "J", "K"]) + g.chars(_BASE58, 49)
    eos = "PVT_K1_" + g.chars(_BASE58, 50)
    inj = g.chars(_HEX_UPPER, 64)
    dfx = _lines(base64.b64encode(_sec1(g, "2b8104000a")).decode())
    nano = g.chars(_HEX_UPPER, 64)
    stacks = g.chars(HEX, 64) + "01"
    erd = "erd1" + g.chars(_BECH32, 58)
    mvx = _lines(_b64(g.chars(HEX, 128)))
    geth_pw = _pw(g)
    chia = _words(g, _BIP39, 24)
    bittensor = _words(g, _BIP39, 12)
    waves = _words(g, _BIP39, 15)
    lnd_words = _words(g, _BIP39, 24).split()
    lnd = "\n".join("  ".join(f"{r * 4 + c + 1:>2}. {lnd_words[r * 4 + c]:<9}" for c in range(4)).rstrip()
                    for r in range(6))  # fmt: skip
    truffle = _words(g, _BIP39, 12)
    ganache = _words(g, _BIP39, 12)
    deposit = _words(g, _BIP39, 24)
    polyseed = _words(g, _BIP39, 16)
    yoroi = _words(g, _BIP39, 15)
    seedqr = "".join(f"{g.rng.randrange(2048):04d}" for _ in range(12))
    stems = " ".join(w[:4] for w in _words(g, _BIP39, 12).split())
    md_words = _words(g, _BIP39, 12).split()
    md = "\n".join(f"- [x] {i + 1}. {w}" for i, w in enumerate(md_words))
    csv_words = _words(g, _BIP39, 12).split()
    csv = "\n".join(f"{i + 1},{w}" for i, w in enumerate(csv_words))
    yaml_words = _words(g, _BIP39, 12).split()
    yaml = "\n".join(f"  - {w}" for w in yaml_words)
    ja = _words(g, _BIP39_JA, 12, "\u3000")
    zh = _words(g, list(_BIP39_ZH), 12)
    ko = _words(g, _BIP39_KO, 12)
    es = _words(g, _BIP39_ES, 12)
    it = _words(g, _BIP39_IT, 12)
    pt = _words(g, _BIP39_PT, 12)
    cs = _words(g, _BIP39_CS, 12)
    de = _words(g, _BIP39, 12)
    ru = _words(g, _BIP39, 12)
    zh_en = _words(g, _BIP39, 12)
    return [
        Case(f"$ cat key.hex\n{geth_hex}\n$ geth account import --password pw.txt key.hex", "wallet private key",
             "geth account import key file", geth_hex),
        Case(f'const wallet = new ethers.Wallet("0x{ethers}", provider);', "wallet private key", "ethers.js new Wallet",
             ethers),
        Case(f"import {{ privateKeyToAccount }} from 'viem/accounts'\nconst account = privateKeyToAccount('0x{viem}')",
             "wallet private key", "viem privateKeyToAccount", viem),
        Case(f">>> acct = accounts.add('0x{brownie}')\n>>> acct.balance()", "wallet private key",
             "Brownie accounts.add",
             brownie),
        Case(f"Electrum wallet (p2wpkh-p2sh) master private key: {yprv}", "wallet private key",
             "BIP49 yprv master key", yprv),
        Case(f'"x1/": {{"type": "bip32", "xprv": "{zprv_ms}", "root_fingerprint": "{g.chars(HEX, 8)}"}}',
             "wallet private key", "Electrum multisig wallet file Zprv", zprv_ms),
        Case(f"# Wallet dump created by Bitcoin v27.0.0\n# * Created on 2025-01-12T03:14:07Z\n{dump_wif} "
             f"2024-06-01T10:00:00Z label=cold # addr=bc1q{g.chars(_BECH32, 38)}", "wallet private key",
             "bitcoin-cli dumpwallet line", dump_wif),
        Case(f"litecoin-cli importprivkey {ltc} \"ltc-cold\" false", "wallet private key", "Litecoin WIF (T prefix)",
             ltc),
        Case(f"dash-cli importprivkey {dash}", "wallet private key", "Dash WIF (X prefix)", dash),
        Case(f"HIVE_ACCOUNT=acme-bot\nHIVE_POSTING_KEY={hive}", "wallet private key", "Hive private posting key (WIF)",
             hive),
        Case(f"cleos wallet import -n ops --private-key {eos}", "wallet private key", "EOS PVT_K1_ private key", eos),
        Case(f"$ injectived keys unsafe-export-eth-key validator --keyring-backend file\n{inj}", "wallet private key",
             "injectived keys unsafe-export-eth-key output", inj),
        Case(f"$ dfx identity export deployer\n-----BEGIN EC PRIVATE KEY-----\n{dfx}\n-----END EC PRIVATE KEY-----",
             "wallet private key", "dfx identity export (secp256k1)", dfx),
        Case(f"NANO_WALLET_SEED={nano}", "wallet private key", "Nano wallet seed (hex)", nano),
        Case(f"STACKS_PRIVATE_KEY={stacks}\nSTACKS_NETWORK=mainnet", "wallet private key",
             "Stacks private key (hex with 01 suffix)", stacks),
        Case(f"-----BEGIN PRIVATE KEY for {erd}-----\n{mvx}\n-----END PRIVATE KEY for {erd}-----",
             "wallet private key", "MultiversX wallet PEM", mvx),
        Case(f"echo '{geth_pw}' > /root/.geth-pass && geth --unlock 0x{g.chars(HEX, 40)} --password /root/.geth-pass",
             "password on a command line", "geth --unlock password file written with echo", geth_pw),
        Case(f"$ chia keys show --show-mnemonic-seed\nFingerprint: {g.digits(10)}\n...\nMnemonic seed (24 secret "
             f"words):\n{chia}", "seed phrase", "chia keys show --show-mnemonic-seed output", chia),
        Case(f'btcli wallet regen_coldkey --wallet.name miner --mnemonic "{bittensor}"', "seed phrase",
             "btcli regen_coldkey --mnemonic", bittensor),
        Case(f"Waves Keeper backup phrase (15 words): {waves}", "seed phrase", "Waves 15-word backup phrase", waves),
        Case(f"!!!YOU MUST WRITE DOWN THIS SEED TO BE ABLE TO RESTORE THE WALLET!!!\n\n"
             f"---------------BEGIN LND CIPHER SEED---------------\n{lnd}\n"
             "---------------END LND CIPHER SEED-----------------", "seed phrase", "LND aezeed cipher seed", lnd),
        Case(f"const mnemonic = '{truffle}';\nmodule.exports = {{ networks: {{ sepolia: {{ provider: () => "
             "new HDWalletProvider(mnemonic, RPC_URL), network_id: 11155111 } } };", "seed phrase",
             "Truffle HDWalletProvider mnemonic", truffle),
        Case(f'ganache --wallet.mnemonic "{ganache}" --chain.chainId 1337', "seed phrase", "ganache --wallet.mnemonic",
             ganache),
        Case(f"This is your mnemonic (seed phrase). Write it down and store it safely. It is the ONLY way to retrieve "
             f"your deposit.\n\n{deposit}", "seed phrase", "staking-deposit-cli new-mnemonic output", deposit),
        Case(f"Monero Polyseed (16 words), restore height 3300000: {polyseed}", "seed phrase",
             "Monero Polyseed (16 words)", polyseed),
        Case(f"Yoroi recovery phrase (15 words): {yoroi}", "seed phrase", "Yoroi 15-word recovery phrase", yoroi),
        Case(f"SeedQR digits from the SeedSigner: {seedqr}", "seed phrase", "SeedQR standard digit string", seedqr),
        Case(f"steel plate (first four letters of each word): {stems}", "seed phrase",
             "four-letter word stems from a steel backup", stems),
        Case(f"## cold wallet\n{md}", "seed phrase", "seed words in a markdown checklist", md),
        Case(f"index,word\n{csv}", "seed phrase", "seed words in a CSV", csv),
        Case(f"recovery:\n{yaml}", "seed phrase", "seed words as a YAML list", yaml),
        Case(f"ニーモニック：{ja}", "seed phrase", "BIP39 Japanese wordlist seed (ideographic spaces)", ja),
        Case(f"助记词（中文词表）：{zh}", "seed phrase", "BIP39 Chinese wordlist seed", zh),
        Case(f"복구 단어(한국어 목록): {ko}", "seed phrase", "BIP39 Korean wordlist seed", ko),
        Case(f"frase semilla (lista española): {es}", "seed phrase", "BIP39 Spanish wordlist seed", es),
        Case(f"frase di recupero (lista italiana): {it}", "seed phrase", "BIP39 Italian wordlist seed", it),
        Case(f"frase de recuperação (lista portuguesa): {pt}", "seed phrase", "BIP39 Portuguese wordlist seed", pt),
        Case(f"obnovovací fráze (česká slova): {cs}", "seed phrase", "BIP39 Czech wordlist seed", cs),
        Case(f"meine Wiederherstellungsphrase, bitte sicher aufbewahren: {de}", "seed phrase",
             "Wiederherstellungsphrase in chat (German)", de),
        Case(f"сид-фраза от холодного кошелька: {ru}", "seed phrase", "сид-фраза in chat (Russian)", ru),
        Case(f"钱包助记词备份一下：{zh_en}", "seed phrase", "助记词 with English words (Chinese)", zh_en),
    ]  # fmt: skip


def _code(g: Gen) -> list[Case]:
    """Secrets in code of more languages, SQL dialects, shells, service managers, notebooks, test tools and text
    expanders."""
    p = [_pw(g) for _ in range(30)]
    s = [_sp(g) for _ in range(6)]
    t = [g.mixed(ALNUM, 40) for _ in range(18)]
    u = _up(g)
    cookie = g.mixed(B64URL, 64)
    cargo = g.mixed(ALNUM, 32)
    deno = g.chars(HEX, 40)
    hs_key = g.mixed(ALNUM, 32)
    grpc_tok = g.mixed(B64URL, 40)
    return [
        Case(f"dataSource {{\n    pooled = true\n    driverClassName = \"org.postgresql.Driver\"\n"
             "    username = \"shop\"\n"
             f"    password = \"{p[0]}\"\n}}", "password assignment", "Grails DataSource.groovy password", p[0]),
        Case(f'Environment.SetEnvironmentVariable("ACME_API_TOKEN", "{t[0]}")', "secret assignment",
             "F# Environment.SetEnvironmentVariable", t[0]),
        Case(f'let api_key = "{t[1]}"\nlet () = Lwt_main.run (fetch ~api_key "https://api.acme.io/v1/orders")',
             "secret assignment", "OCaml let binding", t[1]),
        Case(f'const apiKey = "{t[2]}"\nlet client = newHttpClient()', "secret assignment", "Nim const", t[2]),
        Case(f'const api_key: []const u8 = "{t[3]}";', "secret assignment", "Zig []const u8 literal", t[3]),
        Case(f'ENV["ACME_API_TOKEN"] = "{t[4]}"\nclient = Acme::Client.new', "secret assignment",
             "Crystal ENV assignment", t[4]),
        Case(f'       01 WS-DB-USER      PIC X(8)  VALUE "SHOPBAT".\n       01 WS-DB-PASSWORD  PIC X(16) VALUE '
             f'"{s[0]}".', "password assignment", "COBOL PIC X VALUE password", s[0]),
        Case(f"lo_http_client->authenticate( username = 'RFC_SHOP' password = '{p[1]}' ).", "password assignment",
             "ABAP if_http_client authenticate", p[1]),
        Case(f"HttpRequest req = new HttpRequest();\nreq.setEndpoint('https://api.acme.io/v1/orders');\n"
             f"req.setHeader('X-Api-Key', '{t[5]}');", "secret assignment", "Apex HttpRequest setHeader", t[5]),
        Case(f"DECLARE\n  v_user     VARCHAR2(30) := 'alerts@acme.io';\n  v_password VARCHAR2(30) := '{p[2]}';\n"
             "BEGIN\n  UTL_SMTP.AUTH(c, v_user, v_password, UTL_SMTP.ALL_SCHEMES);", "password assignment",
             "PL/SQL UTL_SMTP password variable", p[2]),
        Case(f"CREATE USER analyst IDENTIFIED WITH plaintext_password BY '{p[3]}' SETTINGS PROFILE 'readonly';",
             "password assignment", "ClickHouse IDENTIFIED WITH plaintext_password", p[3]),
        Case(f"HEALTHCHECK --interval=30s CMD curl -fsS -u monitor:{s[1]} http://localhost:8080/health || exit 1",
             "password on a command line", "Dockerfile HEALTHCHECK curl -u", s[1]),
        Case(f"Invoke-RestMethod -Uri https://api.acme.io/v1/orders -Headers @{{ 'X-Api-Key' = '{t[6]}' }}",
             "secret assignment", "PowerShell Invoke-RestMethod -Headers hashtable", t[6]),
        Case(f'$body = @"\n{{ "username": "ada", "password": "{p[4]}" }}\n"@\nInvoke-RestMethod -Method Post -Uri '
             "https://api.acme.io/login -Body $body", "password assignment", "PowerShell here-string JSON body", p[4]),
        Case(f"setx ACME_API_TOKEN {t[7]}", "secret assignment", "cmd.exe setx", t[7]),
        Case(f"cat > .env <<EOF\nAPP_ENV=production\nACME_API_TOKEN={t[8]}\nEOF", "secret assignment",
             "heredoc writing a .env", t[8]),
        Case(f'# mise.toml\n[env]\nACME_API_TOKEN = "{t[9]}"\n\n[tools]\nnode = "22"', "secret assignment",
             "mise.toml [env]", t[9]),
        Case(f'{{\n  "packages": ["python@3.12"],\n  "env": {{ "ACME_API_TOKEN": "{t[10]}" }}\n}}', "secret assignment",
             "devbox.json env", t[10]),
        Case(f"[program:shop-worker]\ncommand=/srv/shop/bin/worker\nenvironment=DB_USER=\"shop\",DB_PASSWORD=\"{p[5]}\"",
             "password assignment", "supervisord program environment=", p[5]),
        Case(f"module.exports = {{\n  apps: [{{\n    name: 'shop',\n    script: 'dist/server.js',\n"
             f"    env_production: {{ DB_PASSWORD: '{p[6]}' }}\n  }}]\n}};", "password assignment",
             "pm2 ecosystem.config.js env_production", p[6]),
        Case(f"<key>EnvironmentVariables</key>\n<dict>\n    <key>ACME_API_TOKEN</key>\n    <string>{t[11]}</string>\n"
             "</dict>", "secret assignment", "launchd plist EnvironmentVariables", t[11]),
        Case(f"ACME_API_TOKEN={t[12]}\n0 3 * * * /usr/local/bin/export-orders.sh", "secret assignment",
             "crontab environment line", t[12]),
        Case(f'# /etc/conf.d/shop\nSHOP_DB_USER="shop"\nSHOP_DB_PASSWORD="{p[7]}"', "password assignment",
             "OpenRC conf.d variable", p[7]),
        Case(f"%env ACME_API_TOKEN={t[13]}\nimport acme\nclient = acme.Client()", "secret assignment",
             "IPython %env magic", t[13]),
        Case(f"%load_ext sql\n%sql postgresql://analyst:{u}@dw.acme.io/dw", "URL with a password",
             "ipython-sql %sql connection URL", u),
        Case(f'!curl -s -H "Authorization: Bearer {t[14]}" https://api.acme.io/v1/export > export.json',
             "secret assignment", "notebook shell escape with a bearer header", t[14]),
        Case(f'dbutils.widgets.text("api_token", "{t[15]}")\ntoken = dbutils.widgets.get("api_token")',
             "secret assignment", "Databricks widget default", t[15]),
        Case(f'"outputs": [{{"name": "stdout", "output_type": "stream", "text": ["token: {t[16]}\\n"]}}]',
             "secret assignment", "notebook output cell printing a token", t[16]),
        Case(f'"default.password": {{\n  "name": "default.password",\n  "value": "{p[8]}",\n  "type": "password"\n}}',
             "password assignment", "Zeppelin interpreter.json default.password", p[8]),
        Case(f'<bean id="dataSource" class="com.zaxxer.hikari.HikariDataSource">\n  <property name="username" '
             f'value="shop"/>\n  <property name="password" value="{p[9]}"/>\n</bean>', "password assignment",
             "Spring XML bean property password", p[9]),
        Case(f'<SMTP name="Mail" subject="shop error" to="ops@acme.io" smtpHost="smtp.acme.io" smtpPort="587" '
             f'smtpUsername="alerts@acme.io" smtpPassword="{p[10]}"/>', "password assignment",
             "Log4j2 SMTP appender smtpPassword", p[10]),
        Case(f'<Resource name="jdbc/shop" auth="Container" type="javax.sql.DataSource" username="shop" '
             f'password="{p[11]}" url="jdbc:postgresql://db:5432/shop"/>', "password assignment",
             "Tomcat context.xml Resource password", p[11]),
        Case(f"# servers/AdminServer/security/boot.properties\nusername=weblogic\npassword={s[2]}",
             "password assignment",
             "WebLogic boot.properties", s[2]),
        Case(f'<processModel identityType="SpecificUser" userName="ACME\\svc-shop" password="{p[12]}" />',
             "password assignment", "IIS applicationHost.config processModel password", p[12]),
        Case(f"UV_INDEX_ACME_USERNAME=ci\nUV_INDEX_ACME_PASSWORD={s[3]}\nuv sync --frozen", "password assignment",
             "uv UV_INDEX_<NAME>_PASSWORD", s[3]),
        Case(f'# ~/.cargo/config.toml\n[registries.acme]\nindex = "sparse+https://cargo.acme.io/api/v1/crates/"\n'
             f'token = "{cargo}"', "secret assignment", "Cargo alternative registry token", cargo),
        Case(f"realm=Sonatype Nexus Repository Manager\nhost=nexus.acme.io\nuser=ci\npassword={s[4]}",
             "password assignment", "~/.ivy2/.credentials", s[4]),
        Case(f"DENO_AUTH_TOKENS={deno}@raw.githubusercontent.com deno run -A main.ts", "secret assignment",
             "DENO_AUTH_TOKENS", deno),
        Case(f'[install.scopes]\n"@acme" = {{ token = "{t[17]}", url = "https://npm.acme.io/" }}', "secret assignment",
             "bunfig.toml scope token", t[17]),
        Case(f'hs.http.asyncPost("https://api.acme.io/v1/events", body, {{["X-Api-Key"] = "{hs_key}"}}, cb)',
             "secret assignment", "Hammerspoon Lua hs.http header", hs_key),
        Case(f"::;dbpw::{p[13]}\n::;sig::Best regards, Ada", "password assignment", "AutoHotkey hotstring password",
             p[13]),
        Case(f'matches:\n  - trigger: ":vpnpw"\n    replace: "{p[14]}"', "password assignment",
             "espanso match replacing a password", p[14]),
        Case(f'"rest-client.environmentVariables": {{\n  "prod": {{ "baseUrl": "https://api.acme.io", "password": '
             f'"{p[15]}" }}\n}}', "password assignment", "VS Code REST Client environment password", p[15]),
        Case(f'// http-client.private.env.json\n{{\n  "prod": {{ "username": "ada", "password": "{p[16]}" }}\n}}',
             "password assignment", "JetBrains http-client.private.env.json", p[16]),
        Case(f"const res = http.post('https://api.acme.io/login', JSON.stringify({{ username: 'loadtest', "
             f"password: '{p[17]}' }}));", "password assignment", "k6 script login password", p[17]),
        Case(f'{{\n  "cookies": [{{ "name": "session", "value": "{cookie}", "domain": "shop.acme.io", "path": "/", '
             '"httpOnly": true }]\n}', "secret assignment", "Playwright storageState session cookie", cookie),
        Case(f'{{\n  "ADMIN_EMAIL": "qa@acme.io",\n  "ADMIN_PASSWORD": "{p[18]}"\n}}', "password assignment",
             "cypress.env.json ADMIN_PASSWORD", p[18]),
        Case(f"*** Variables ***\n${{USERNAME}}    ada\n${{PASSWORD}}    {s[5]}", "password assignment",
             "Robot Framework *** Variables ***", s[5]),
        Case(f'Scenario: admin logs in\n  When I log in as "admin@acme.io" with password "{p[19]}"\n'
             "  Then I see the dashboard", "password assignment", "Gherkin step with a password", p[19]),
        Case(f"dn: uid=ada,ou=people,dc=acme,dc=io\nobjectClass: inetOrgPerson\nuid: ada\ncn: Ada Lovelace\n"
             f"userPassword: {p[20]}", "password assignment", "LDIF plain userPassword", p[20]),
        Case(f"grpcurl -H 'authorization: Bearer {grpc_tok}' api.acme.io:443 shop.v1.Orders/List",
             "secret assignment", "grpcurl -H authorization", grpc_tok),
        Case(f"xh post api.acme.io/login username=ada password={p[21]}", "password on a command line",
             "xh request item password=", p[21]),
        Case(f"yt-dlp -u ada@acme.io -p '{p[22]}' https://learn.acme.io/course/42", "password on a command line",
             "yt-dlp -p", p[22]),
    ]  # fmt: skip


def _wrapped_and_basic(g: Gen) -> list[Case]:
    """Tokens hard-wrapped over lines with nothing in between, and base64 of user:password in more headers and
    clients."""
    t = [g.mixed(ALNUM, 56) for _ in range(3)]
    basic = [_b64(f"{user}:{_pw(g)}") for user in ("ci", "ada", "svc", "deploy", "ops", "ada", "prom", "ci", "ada",
                                                     "monitor", "svc", "ada")]  # fmt: skip
    return [
        Case(f"Hi Ada, the new token is\n{t[0][:28]}\n{t[0][28:]}\nCheers, Bob", "secret assignment",
             "token hard-wrapped by an email client", f"{t[0][:28]}\n{t[0][28:]}"),
        Case(f"$ echo $ACME_API_TOKEN | fold -w 20\n{t[1][:20]}\n{t[1][20:40]}\n{t[1][40:]}", "secret assignment",
             "token wrapped by fold -w", f"{t[1][:20]}\n{t[1][20:40]}\n{t[1][40:]}"),
        Case(f"TOKEN=$(cat <<'EOF'\n{t[2][:30]}\n{t[2][30:]}\nEOF\n)", "secret assignment",
             "token over two lines of a quoted heredoc", f"{t[2][:30]}\n{t[2][30:]}"),
        Case(f'RequestHeader set Authorization "Basic {basic[0]}"\nProxyPass "/legacy/" "http://10.0.0.8/"',
             "basic auth credentials", "Apache RequestHeader set Authorization Basic", basic[0]),
        Case(f'sub vcl_backend_fetch {{\n    set bereq.http.Authorization = "Basic {basic[1]}";\n}}',
             "basic auth credentials", "Varnish VCL bereq Authorization Basic", basic[1]),
        Case(f"plugins:\n- name: request-transformer\n  config:\n    add:\n      headers:\n"
             f"      - Authorization:Basic {basic[2]}", "basic auth credentials",
             "Kong request-transformer add header Basic", basic[2]),
        Case(f"  http:\n  - headers:\n      request:\n        set:\n          authorization: Basic {basic[3]}\n"
             "    route:\n    - destination:\n        host: legacy", "basic auth credentials",
             "Istio VirtualService headers set Basic", basic[3]),
        Case(f'req = urllib.request.Request(url)\nreq.add_header("Authorization", "Basic {basic[4]}")',
             "basic auth credentials", "Python urllib add_header Basic", basic[4]),
        Case(f"curl_setopt($ch, CURLOPT_HTTPHEADER, ['Authorization: Basic {basic[5]}']);", "basic auth credentials",
             "PHP CURLOPT_HTTPHEADER Basic", basic[5]),
        Case(f"req = Net::HTTP::Get.new(uri)\nreq['Authorization'] = 'Basic {basic[6]}'", "basic auth credentials",
             "Ruby Net::HTTP header Basic", basic[6]),
        Case(f"final res = await http.get(uri, headers: {{'Authorization': 'Basic {basic[7]}'}});",
             "basic auth credentials", "Dart http headers Basic", basic[7]),
        Case(f'request.setValue("Basic {basic[8]}", forHTTPHeaderField: "Authorization")', "basic auth credentials",
             "Swift URLRequest setValue Basic", basic[8]),
        Case(f'val request = Request.Builder().url(url).header("Authorization", "Basic {basic[9]}").build()',
             "basic auth credentials", "OkHttp Request.Builder header Basic", basic[9]),
        Case(f"jsonData:\n  httpHeaderName1: Authorization\nsecureJsonData:\n  httpHeaderValue1: Basic {basic[10]}",
             "basic auth credentials", "Grafana datasource httpHeaderValue1 Basic", basic[10]),
        Case(f'$.ajax({{ url: "/api/report", headers: {{ "Authorization": "Basic {basic[11]}" }} }});',
             "basic auth credentials", "jQuery ajax headers Basic", basic[11]),
    ]  # fmt: skip


def blind8_secrets(g: Gen) -> list[Case]:
    """Secrets of the tenth held-out part."""
    return [
        *_observability_and_flags(g),
        *_payments_and_saas(g),
        *_ai_and_ml(g),
        *_ci_and_registries(g),
        *_cloud_and_iac(g),
        *_databases(g),
        *_homelab_and_iot(g),
        *_game_servers(g),
        *_mail_vpn_and_network(g),
        *_mobile_and_desktop(g),
        *_terminal_and_logs(g),
        *_chat(g),
        *_urls(g),
        *_webhooks(g),
        *_keys(g),
        *_wallets(g),
        *_code(g),
        *_wrapped_and_basic(g),
    ]


def _hashes_and_ids(g: Gen) -> list[str]:
    """Hashes and checksums named as such, commit SHAs, ids, build ids and asset hashes."""
    sha = g.chars(HEX, 40)
    return [
        f"$ sha512sum debian-12.8.0-amd64-netinst.iso\n{g.chars(HEX, 128)}  debian-12.8.0-amd64-netinst.iso",
        f"md5 of the firmware image (as printed on the vendor page): {g.chars(HEX, 32)}",
        f"$ git hash-object README.md\n{g.chars(HEX, 40)}",
        f"$ cksum backup.tar\n{g.digits(10)} 104857600 backup.tar",
        f"$ b2sum --length 256 shop.wasm\n{g.chars(HEX, 64)}  shop.wasm",
        f"$ xxh64sum access.log\n{g.chars(HEX, 16)}  access.log",
        f"golang.org/x/crypto v0.31.0 h1:{g.b64_bytes(32)}\ngolang.org/x/crypto v0.31.0/go.mod h1:{g.b64_bytes(32)}",
        f'[[package]]\nname = "serde"\nversion = "1.0.217"\nsource = "registry+https://github.com/rust-lang/crates.io-'
        f'index"\nchecksum = "{g.chars(HEX, 64)}"',
        f'"nixpkgs": {{\n  "locked": {{\n    "lastModified": 1736000000,\n    "narHash": "sha256-{g.b64_bytes(32)}",\n'
        f'    "rev": "{g.chars(HEX, 40)}"\n  }}\n}}',
        f"$ rpm -K shop-1.4.2-1.x86_64.rpm\nshop-1.4.2-1.x86_64.rpm: digests signatures OK\n"
        f"SHA256 digest: {g.chars(HEX, 64)}",
        f"SHA256:\n {g.chars(HEX, 64)}  1487 main/binary-amd64/Packages.gz",
        f"$ cat shop-1.4.2.jar.sha1\n{g.chars(HEX, 40)}",
        f"      - uses: actions/checkout@{sha} # v4.2.2",
        f"$ git log --format='%H %s' -2\n{g.chars(HEX, 40)} fix: retry the upload\n{g.chars(HEX, 40)} chore: bump deps",
        f"This reverts commit {g.chars(HEX, 40)}.",
        f"https://github.com/acme/shop/compare/{g.chars(HEX, 12)}...{g.chars(HEX, 12)}",
        f"$ git submodule status\n+{g.chars(HEX, 40)} vendor/libfoo (v1.2.0-3-g{g.chars(HEX, 7)})",
        f'git bisect: the first bad commit is {g.chars(HEX, 7)} ("switch the cache to LRU")',
        f"$ git lfs ls-files -l\n{g.chars(HEX, 64)} * assets/intro.mp4\n{g.chars(HEX, 64)} - assets/logo.psd",
        f"$ crane digest ghcr.io/acme/shop:1.4.2\nsha256:{g.chars(HEX, 64)}",
        f'  "layers": [{{ "mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", "size": 29126484, '
        f'"digest": "sha256:{g.chars(HEX, 64)}" }}]',
        f"services:\n  db:\n    image: postgres:17.2-bookworm@sha256:{g.chars(HEX, 64)}",
        f"ipfs add result: added {_cid(g)} report.pdf",
        f'metadata:\n  name: shop-7d9f8b6c5-x2k4p\n  uid: {g.uuid()}\n  resourceVersion: "{g.digits(8)}"',
        f"AWS request id {g.uuid()} — quote it in the support case",
        f'correlation_id={g.uuid()} level=warn msg="retrying payment capture" attempt=2',
        f"Sentry event {g.chars(HEX, 32)} grouped under SHOP-API-4K1",
        f"Product code of the MSI: {{{g.uuid().upper()}}}",
        f"[HKEY_CLASSES_ROOT\\CLSID\\{{{g.uuid().upper()}}}\\InprocServer32]",
        f"battery service 0000180f-0000-1000-8000-00805f9b34fb, custom service {g.uuid()}",
        f'$ blkid /dev/nvme0n1p2\n/dev/nvme0n1p2: UUID="{g.uuid()}" TYPE="ext4" PARTUUID="{g.uuid()}"',
        f"UUID={g.uuid()}  /srv  xfs  defaults,noatime  0  2",
        f"Minecraft player UUID of ada_builds: {g.uuid()}",
        f"Discord user id {g.digits(18)} (right-click → Copy User ID)",
        f"ksuid {g.mixed(ALNUM, 27)} sorts by creation time",
        f"GitHub Actions run {g.digits(11)}, attempt 2, job {g.digits(11)}",
        f"vercel inspect dpl_{g.mixed(ALNUM, 28)} --logs",
        f"Netlify deploy {g.chars(HEX, 24)} published at 10:42",
        f"Cloudflare Ray ID: {g.chars(HEX, 16)}-FRA",
        f"X-Amz-Cf-Id: {g.mixed(B64URL, 54)}==",
        f"heroku releases: v{g.digits(3)} Deploy {g.chars(HEX, 8)} ada@acme.io",
        f"dist/assets/vendor-{g.mixed(B64URL, 8)}.js  412.08 kB │ gzip: 128.40 kB",
        f'<link rel="stylesheet" href="/assets/application-{g.chars(HEX, 64)}.css">',
        f"static/js/main.{g.chars(HEX, 8)}.js is the entry chunk after the CRA build",
        f"Gradle build cache key {g.chars(HEX, 32)} for :app:compileKotlin (FROM-CACHE)",
        f"bazel: action digest {g.chars(HEX, 64)}/142 hit in the remote cache",
        f"Unity asset GUID: {g.chars(HEX, 32)} (Assets/Prefabs/Player.prefab.meta)",
        f'ETag: W/"{g.chars(HEX, 32)}"',
        f"Stripe idempotency key for the retry: {g.uuid()}",
        f"Intercom conversation {g.digits(14)}, Zendesk ticket #{g.digits(6)}",
        f"order ref ORD-{g.chars(_UPPER_ALNUM, 10)} shipped with tracking 1Z{g.chars(_UPPER_ALNUM, 16)}",
        f"Firebase project number {g.digits(12)}, app id 1:{g.digits(12)}:android:{g.chars(HEX, 22)}",
        f"Terraform state lineage {g.uuid()}, serial 214",
        f"Docker Hub: image {g.chars(HEX, 12)} built 3 days ago, 142 MB",
        f'kernel: audit: type=1400 audit({g.digits(10)}.512:88): apparmor="DENIED" operation="open"',
    ]


def _cid(g: Gen) -> str:
    """A CIDv1 shape (base32, dag-pb, sha2-256)."""
    return "bafybei" + g.chars("abcdefghijklmnopqrstuvwxyz234567", 52)


def _public_and_encrypted(g: Gen) -> list[str]:
    """Public keys, addresses, fingerprints, signatures, and encrypted or masked values."""
    laravel = _b64(json.dumps({"iv": g.b64_bytes(16), "value": g.b64_bytes(48), "mac": g.chars(HEX, 64), "tag": ""},
                              separators=(",", ":")))  # fmt: skip
    return [
        f"minisign public key for release verification: RW{g.mixed(B64, 54)}",
        f"untrusted comment: signify public key\nRWS{g.mixed(B64, 53)}",
        f"git.acme.io ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{g.mixed(B64, 43)}",
        f"gpg --recv-keys {g.chars(_HEX_UPPER, 40)}  # Ada's signing key fingerprint",
        f"[Peer]\nPublicKey = {g.b64_bytes(32)}\nAllowedIPs = 10.8.0.3/32\nEndpoint = 203.0.113.9:51820",
        f"send the refund to 0x{g.chars(HEX, 40)} (acme-treasury.eth)",
        f"BTC donations: bc1q{g.chars(_BECH32, 38)}",
        f"Solana deposit address: {g.chars(_BASE58, 44)}",
        f"ltc1q{g.chars(_BECH32, 38)} is the Litecoin payout address",
        f"xpub6C{g.chars(_BASE58, 105)} (watch-only, for the dashboard)",
        f"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmDMEZ{g.mixed(B64, 60)}\n-----END PGP PUBLIC KEY BLOCK-----",
        f"-----BEGIN CERTIFICATE-----\nMIIB{g.mixed(B64, 60)}\n{g.mixed(B64, 64)}\n-----END CERTIFICATE-----",
        f"ACME account key thumbprint: {g.b64url(g.rng.randbytes(32))}",
        f'"keyval": {{"public": "{g.chars(HEX, 64)}"}}, "keytype": "ed25519", "scheme": "ed25519"',
        f"x-amz-content-sha256: {g.chars(HEX, 64)}",
        f"X-Slack-Signature: v0={g.chars(HEX, 64)}",
        f'signature: keyId="acme-2025",algorithm="ed25519",signature="{g.b64_bytes(64)}"',
        f"<credentials.Credential><password>{{AQAAABAAAAAQ{g.mixed(B64, 42)}=}}</password></credentials.Credential>",
        f"DB_PASSWORD=eyJpdiI6{laravel[8:]}",
        f"shop:\n  db_password: ENC[PKCS7,MIIBiQYJKoZIhvcNAQcDoIIBejCCAXYCAQAxggEhMIIB{g.mixed(B64, 60)}]",
        f"spring.datasource.password={{cipher}}{g.chars(HEX, 96)}",
        f"-----BEGIN AGE ENCRYPTED FILE-----\nYWdlLWVuY3J5cHRpb24ub3JnL3YxCi0+IFgyNTUxOSB{g.mixed(B64, 40)}\n"
        "-----END AGE ENCRYPTED FILE-----",
        f"-----BEGIN PGP MESSAGE-----\n\nhQIMA{g.mixed(B64, 59)}\n={g.mixed(B64, 4)}\n-----END PGP MESSAGE-----",
        f'DOTENV_PUBLIC_KEY="03{g.chars(HEX, 64)}"\nSTRIPE_KEY="encrypted:BD{g.mixed(B64, 100)}"',
        f'{{"_public_key": "{g.chars(HEX, 64)}", "db_password": "EJ[1:{g.b64_bytes(32)}:{g.b64_bytes(24)}:'
        f'{g.b64_bytes(24)}]"}}',
        f'{{"id": "db", "password": {{"encrypted_data": "{g.b64_bytes(32)}", "iv": "{g.b64_bytes(12)}", '
        f'"auth_tag": "{g.b64_bytes(16)}", "version": 3, "cipher": "aes-256-gcm"}}}}',
        f"Password=01000000d08c9ddf0115d1118c7a00c04fc297eb01000000{g.chars(HEX, 80)}",
        f"config/credentials/production.yml.enc: {g.b64_bytes(60)}--{g.b64_bytes(12)}--{g.b64_bytes(16)}",
        f'"encryptedPassword": "{g.b64_bytes(48)}", "encryptionVersion": 2  # DBeaver credentials-config.json',
        "TF_VAR_db_password is set in the workspace as sensitive; the plan shows db_password = (sensitive value)",
        f"Access key ID AKIA{g.chars(_UPPER_ALNUM, 4)}************ (secret not shown again)",
        f"sk-proj-…{g.mixed(ALNUM, 4)} was revoked on 12 Jan",
        'password: "••••••••"  # as the settings page shows it',
        f"ghp_************************************{g.mixed(ALNUM, 4)} (last four only, from the audit log)",
        "Run ./deploy.sh\n  env:\n    REGISTRY_PASSWORD: ***\n    AWS_SECRET_ACCESS_KEY: ***",
    ]


def _references_and_placeholders(g: Gen) -> list[str]:
    """References to secret stores and environment variables, templates and placeholders."""
    return [
        'api_key = os.getenv("ACME_API_KEY")  # set it in your shell, never here',
        "const secret = process.env.STRIPE_WEBHOOK_SECRET ?? throwMissing('STRIPE_WEBHOOK_SECRET')",
        'config.secret_key_base = ENV.fetch("SECRET_KEY_BASE")',
        'String dbPass = System.getenv("DB_PASS");',
        'var token = Environment.GetEnvironmentVariable("ACME_TOKEN") ?? throw new InvalidOperationException();',
        'let key = std::env::var("ACME_API_KEY").expect("ACME_API_KEY is not set");',
        'apiKey := os.Getenv("ACME_API_KEY")',
        "db_password: \"{{ lookup('community.hashi_vault.hashi_vault', 'secret=secret/data/shop:password') }}\"",
        "password: ref+vault://secret/data/shop/db#/password",
        "DB_PASSWORD=ref+awssecrets://prod/shop/db#/password",
        "spring.datasource.password=${vault.shop.db.password}",
        "password: ${SHOP_DB_PASSWORD:?set SHOP_DB_PASSWORD in .env}",
        "token: ${env:ACME_TOKEN}",
        'smtp_password = "%(SMTP_PASSWORD)s"',
        "password = {{ .Values.db.password | quote }}",
        "password: <%= ENV['DB_PASSWORD'] %>",
        "$password = getenv('DB_PASSWORD') ?: throw new RuntimeException('DB_PASSWORD missing');",
        "envFrom:\n  - secretRef:\n      name: shop-env\n  - configMapRef:\n      name: shop-config",
        'data "aws_secretsmanager_secret_version" "db" {\n  secret_id = "prod/shop/db"\n}',
        'password = data.vault_kv_secret_v2.shop.data["password"]',
        'apiKey: "{{ secrets.ACME_API_KEY }}"',
        "GITHUB_TOKEN: ${{ github.token }}",
        "CI_JOB_TOKEN is injected by GitLab for each job; do not copy it into variables",
        "KAMAL_REGISTRY_PASSWORD is read from .kamal/secrets, which pulls it from 1Password",
        "registry:\n  username: acme\n  password:\n    - KAMAL_REGISTRY_PASSWORD",
        'SOPS_AGE_KEY_FILE="$HOME/.config/sops/age/keys.txt"',
        "export OPENAI_API_KEY=$(op read op://Dev/openai/credential)",
        'export ANTHROPIC_API_KEY="$(security find-generic-password -s anthropic -w)"',
        "ssh -i ~/.ssh/id_ed25519_deploy deploy@10.0.0.5",
        "IdentityFile ~/.ssh/acme_ed25519\nIdentitiesOnly yes",
        'client_key = "/etc/chef/client.pem"\nvalidation_key = "/etc/chef/validation.pem"',
        "ssl_certificate_key /etc/letsencrypt/live/acme.io/privkey.pem;",
        "wallet-unlock-password-file=/etc/lnd/wallet_password",
        'PassCmd "pass show mail/acme"',
        "source-cred-cmd = pass show mail/acme",
        'password_command = "secret-tool lookup service imap user ada"',
        "api_key: !secret openweather_api_key",
        "password: !env_var DB_PASSWORD",
        "TOKEN=<paste-the-token-from-the-dashboard>",
        "ACME_API_KEY=...  (ask Ada for the value, it is in the team vault)",
        "stripe_secret: sk_test_XXXXXXXXXXXXXXXXXXXXXXXX",
        'password: "CHANGE_ME_BEFORE_DEPLOY"',
        "DB_PASSWORD=  # leave empty for local peer auth",
        'api_token = "TODO"',
        "webhook_url: https://hooks.example.com/services/REPLACE/WITH/YOURS",
        'curl -H "Authorization: Bearer $ACME_TOKEN" https://api.acme.io/v1/me',
        "mysql -u root -p  # it prompts for the password",
        'psql "host=db.acme.io user=shop dbname=shop sslmode=require"  # password from ~/.pgpass',
        "npm login --auth-type=web  # opens the browser, no token on the command line",
        'echo "$REGISTRY_PASSWORD" | helm registry login registry.acme.io -u ci --password-stdin',
        "kubectl create secret generic shop-db --from-env-file=./prod.env --dry-run=client -o yaml | kubeseal",
        "gh secret set NPM_TOKEN < npm-token.txt",
        "vault kv put secret/shop/db password=@db-password.txt",
        f"op://Prod/{g.chars(_LOWER_ALNUM, 26)}/password",
        "formspree form endpoint: https://formspree.io/f/xyzzqwer (public, it is in the page's HTML)",
        f"Mixpanel project token for the browser SDK (public, it only ingests events): {g.chars(HEX, 32)}",
        f'<div class="g-recaptcha" data-sitekey="6L{g.mixed(B64URL, 38)}"></div>  <!-- the site key, public -->',
        f"Algolia search-only key (safe in the frontend): {g.chars(HEX, 32)}",
    ]


def _prose_docs_and_logs() -> list[str]:
    """Docs, policies, colours, log lines and sentences that use the words password, token and key but give
    none, in many languages, and some arguable documented test values."""
    return [
        "To set the admin password, run `shop admin passwd` and type it twice; it is never echoed.",
        "Password policy: at least 14 characters, no reuse of the last 5, rotation only on suspicion of compromise.",
        "API keys are rotated quarterly; the old key keeps working for 24 hours after the new one is issued.",
        "The access token lives for one hour, the refresh token for thirty days.",
        "Never commit .env; .env.example lists the variables with empty values.",
        "Store the recovery codes in the team vault, not in Slack.",
        "The wifi password for guests is printed on the card at reception.",
        "Tokenizer: cl100k_base, context 128k tokens, we budget 4k tokens per request.",
        "primary key (order_id, line_no); foreign key customer_id references customers(id)",
        "the key insight: the cache key must include the locale",
        "keyframes slide-in { from { transform: translateX(-100%); } to { transform: none; } }",
        "Sonata in D minor — the key signature has one flat.",
        "the secret ingredient in the brownies is a spoon of espresso",
        "Press Ctrl+Alt+Del, then choose 'Change a password' to update your domain password.",
        "password reset email sent to a***@acme.io",
        "authentication succeeded for user ada from 10.0.0.7 (publickey)",
        "Invalid API key provided: sk-****abcd. You can find your API key at the dashboard.",
        "JWT expired at 2025-01-12T03:14:07Z; the client refreshes it and retries",
        "Access denied for user 'shop'@'10.0.0.5' (using password: YES)",
        "pam_unix(sshd:auth): authentication failure; logname= uid=0 euid=0 tty=ssh ruser= rhost=203.0.113.7",
        "WARNING! Your password will be stored unencrypted in /root/.docker/config.json.",
        "error: password authentication is not supported for Git operations; use a personal access token",
        "The 'password' field must be at least 12 characters.",
        "hint: set the token with `acme auth login`; it is kept in the OS keychain",
        "colors: {\n  brand: { 50: '#eef2ff', 500: '#6366f1', 900: '#312e81' },\n  accent: '#f59e0b',\n}",
        '<color name="colorPrimary">#FF6200EE</color>\n<color name="colorSecondary">#FF03DAC5</color>',
        "Color(red: 0.18, green: 0.44, blue: 0.96) // #2E70F5 in the design file",
        "box-shadow: 0 1px 2px rgba(15, 23, 42, 0.08), 0 0 0 1px #e5e7eb;",
        "theme.palette: primary #0b5fff, surface #f8fafc, danger #dc2626",
        "echo 'eyJ0aGVtZSI6ImRhcmsiLCJsYW5nIjoiZGUifQ==' | base64 -d  # the saved UI settings",
        "the cookie `prefs=dGhlbWU9bGlnaHQmZm9udD0xNg` is only base64 of theme=light&font=16",
        "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=",
        "Stripe test card: 4242 4242 4242 4242, any future expiry, any CVC",
        "jwt.io's example token, for the parser tests: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkw"
        "IiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
        "Hardhat's well-known dev account #0 (public, never fund it): 0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed"
        "5efcae784d7bf4f2ff80",
        "the default Hardhat mnemonic is 'test test test test test test test test test test test junk'",
        "BIP39 test vector: abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon "
        "about",
        "old Raspberry Pi OS images shipped with the user pi and the password raspberry; new ones ask at first boot",
        "Grafana starts with admin/admin and forces a change at the first login",
        "MYSQL_ALLOW_EMPTY_PASSWORD=yes only in the throwaway CI database",
        'the sample config in the Kafka docs uses password="admin-secret"; ours comes from Vault',
        "PIN policy: 6 digits, no sequences, locks after 5 attempts",
        "the door code is changed every Monday; ask facilities",
        "Das Passwort muss mindestens 12 Zeichen lang sein und darf nicht den Benutzernamen enthalten.",
        "Den API-Schlüssel bekommst du im Admin-Bereich unter Einstellungen → API.",
        "Le mot de passe a expiré, merci d'en choisir un nouveau.",
        "Le jeton d'accès est stocké dans le trousseau, pas dans le fichier de configuration.",
        "La contraseña debe tener al menos 12 caracteres.",
        "La clave de la API se genera en el panel; no la compartas por chat.",
        "A senha foi redefinida; verifique seu e-mail.",
        "La password è stata cambiata correttamente.",
        "Het wachtwoord staat in de gedeelde kluis, niet in de wiki.",
        "Hasło musi zawierać co najmniej jedną cyfrę.",
        "密码已重置，请查收邮件。",
        "API 密钥请在控制台生成，不要发到群里。",
        "パスワードは12文字以上にしてください。",
        "トークンの有効期限は1時間です。",
        "비밀번호를 잊으셨나요? 재설정 링크를 보내드릴게요.",
        "API 키는 콘솔에서 발급받으세요.",
        "Пароль должен содержать не менее 12 символов.",
        "Токен хранится в менеджере секретов, не в репозитории.",
        "Parola en az 12 karakter olmalıdır.",
        "Lösenordet har gått ut, välj ett nytt.",
        "Salasana on vanhentunut.",
        "Heslo vypršelo, zvolte nové.",
        "A jelszó lejárt, adj meg újat.",
        "Parola a expirat, alege una nouă.",
        "Ο κωδικός πρόσβασης έληξε.",
        "Пароль застарів, оберіть новий.",
        "הסיסמה פגה, יש לבחור סיסמה חדשה.",
        "انتهت صلاحية كلمة المرور، يرجى اختيار كلمة جديدة.",
        "رمز عبور منقضی شده است.",
        "पासवर्ड की समय-सीमा समाप्त हो गई है।",
        "รหัสผ่านหมดอายุแล้ว กรุณาตั้งใหม่",
        "Mật khẩu đã hết hạn, vui lòng đặt mật khẩu mới.",
        "Kata sandi sudah kedaluwarsa.",
    ]


def blind8_lookalikes(g: Gen) -> list[Case]:
    """Look-alikes of the tenth held-out part."""
    texts = [*_hashes_and_ids(g), *_public_and_encrypted(g), *_references_and_placeholders(g), *_prose_docs_and_logs()]
    return [Case(text, None, "blind8 look-alike") for text in texts]


_SEED = 20240501 + 22  # secrets_corpus.SEED + 22 and + 23, the next free offsets after blind7's 20 and 21
BLIND8_SECRETS: tuple[Case, ...] = tuple(blind8_secrets(Gen(_SEED)))
BLIND8_LOOKALIKES: tuple[Case, ...] = tuple(blind8_lookalikes(Gen(_SEED + 1)))
