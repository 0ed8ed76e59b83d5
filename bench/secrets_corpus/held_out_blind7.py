"""The ninth held-out part (issue 22), written blind in the seventh round (without looking at the detector or
its tests) and only reported, never tuned on: formats and contexts no other part has (AI, agent-tooling, data,
messaging, payment, domain, CDN and homelab platforms' keys; keys in config files of more kinds: Nix, Caddy,
Envoy, Nomad, Telegraf, Zabbix, Icinga, RabbitMQ, Gitea, GitLab Omnibus, ESPHome, Zigbee2MQTT, game servers,
Xcode, plists, registry exports, Kustomize, containerd, k3s, systemd credentials, netplan, cloud-init,
Kickstart, preseed, Vagrant, libvirt, proxies, PPP, SIP, CloudFormation, Bicep, ARM, CDK, task runners, dev
containers, HTTP-client files; command lines of cluster, secret-manager, macOS, Windows, network-device,
registry, signing, mail, Kerberos and tunnel tools; URLs of schemes no other part has; deploy hooks and
alerting webhooks; key files in odd layouts (Sigstore, KeePass, Borg, Synapse, libp2p, WireGuard in RouterOS
and UCI, PEM in heredocs, dotenv, Helm and cloud-init); wallet keys and seed phrases of more chains, wordlists
and layouts; passwords, PINs, recovery keys and multi-word passphrases in prose of about forty languages not
used before; secrets in code of more languages, SQL, exports and dumps; secrets cut over two lines in new
ways; base64 of user:password in new headers), and look-alikes (encrypted values, references and templates
in settings named after secrets, masked values, public keys and addresses, password hashes, lockfile and
build hashes, publishable keys, ids, constants, code full of symbols, log lines and sentences about
passwords that give none, in many languages). Its figure measures how the detector generalises.

    from bench.secrets_corpus.held_out_blind7 import BLIND7_SECRETS, BLIND7_LOOKALIKES

Every value is random in its documented shape (from a fixed seed); none is a real credential."""

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

__all__ = ["BLIND7_LOOKALIKES", "BLIND7_SECRETS", "blind7_lookalikes", "blind7_secrets"]

_BASE58 = BASE58
_BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
_BASE32_LOWER = "abcdefghijklmnopqrstuvwxyz234567"
_UPPER_ALNUM = UPPER + DIGITS
_LOWER_ALNUM = LOWER + DIGITS
_HEX_UPPER = HEX.upper()
_PW = XML_SAFE_PASSWORD
_SAFE = SHELL_SAFE
# Words of the BIP39 English list (no checksum is computed), from its middle, so no other part's list is reused.
_BIP39 = (
    "damage damp dance danger daring dash daughter dawn debate debris decade december decide decline deer "
    "defense define defy degree delay demise denial dentist deposit depth deputy derive design desk despair "
    "detail develop diagram dial diamond diary dice diesel differ digital dignity dinner dinosaur direct dirt "
    "disagree discover dismiss disorder divert divide dizzy doctor document dolphin donate donkey donor door "
    "dose double dove draft drama drastic draw drill drip drive drop drum dune during dust dutch duty eager "
    "eagle earn easily east economy edit effort eight either electric embark embody embrace emerge emotion "
    "employ empower enable enact endless engine enhance enlist enough enrich enroll ensure entire entry equal "
    "erase erosion error erupt essay essence eternal ethics evolve excess excite exhibit exile exist exit expire "
    "expose fabric faculty fade faith fame fashion father fault feature february federal fence festival fetch "
    "fever fiber field figure film final finish first flag flat flee flight flock floor flower fluid flush foam "
    "fog foil fold follow forest fork forum fossil foster found fox fragile frame fresh fringe frog front frown "
    "fruit fuel funny furnace fury gadget gain gallery gap garage garment gasp gate gauge gaze gentle ghost giant "
    "gift giggle ginger giraffe glare glass glide globe gloom glory glove glow glue goddess gold goose gorilla "
    "gospel gossip govern gown grab grace grain grape grass great green grid grit grow grunt guess guide habit "
    "half hammer harbor harsh hedgehog height hello helmet hero hidden hint hire history hobby hockey hollow "
    "honey hood horn horror host hover hub humble humor hundred hungry hurdle hurry ignore illegal imitate "
    "immense immune impose inch indoor inflict inhale initial inject inner innocent input inquiry insane inspire "
    "intact invest invite iron issue jaguar jazz jealous jeans jelly jewel joke journey judge jungle kangaroo "
    "keen ketchup kick kingdom kiss kite kitten kiwi knee knock label labor ladder lake laptop later latin laugh "
    "lava lawn layer lazy leisure lemon lens leopard lesson letter liar limb limit lion little lobster lonely "
    "loop lottery lounge loyal lucky luggage lumber mango maple marble margin marine mask master matrix maze "
    "meadow mechanic melody melt mention menu mercy merge merry mesh metal midnight mimic minor mirror misery "
    "monkey monster moral mosquito motor muffin mushroom mutual myth naive napkin narrow nasty nephew nerve "
    "neutral noble noodle north notable novel nurse oak obey oblige obscure odor olive onion opera orchard "
    "orphan ostrich oval oxygen oyster ozone"
).split()
# Words of the SLIP-39 list (the share's checksum is not computed).
_SLIP39 = (
    "academic acrobat adequate adorn advocate agency aide aircraft alto aluminum ambition amuse analysis angel "
    "aquatic arcade armed artwork aviation axle beard beaver bedroom blimp bolt boundary bracelet briefing "
    "browser bucket bulge bumpy calcium campus capacity carve category ceramic chubby cinema civil clay cleanup "
    "clogs coastal coding costume counter cowboy crunch cubic curly custody daisy deadline debut decent desktop "
    "dictate diploma dough downtown dramatic dryer duckling easel eclipse editor elevator emerald emission "
    "envelope epidemic eraser exceed facility fangs fawn findings firefly flea fluff freshman friar froth fumes "
    "furl fused garbage glen grasp grumpy gums hairy hanger havoc hobo hormone husky iris jerky judicial kernel "
    "laden ladle ladybug lair lilac lips lunar lungs maiden mailman mama mason mild mortgage mule mustang "
    "necklace nylon oasis obesity omit ounce paces pajamas papa parcel patent pecan phantom pistol plains "
    "playoff prune pupal puny racism raisin raspy romp salon satoshi scramble skunk slush smirk smug spew "
    "stilt tadpole ting tofu tricycle unwrap usher vexed vitamins wavy webcam yelp"
).split()
# Words of the Monero English list (the checksum word is the first word again, as Monero's is by position).
_MONERO = (
    "abbey abducts ablaze abnormal abrasive acumen addicted adept adhesive afar afield afloat afoot aggravate "
    "aglow agnostic agony aided ailments aimless akin alchemy alkaline aloof amended amidst ammo amnesty amply "
    "anecdote angled annoyed antics anvil aphid aplomb apricot aptitude arbitrary ardent arises asylum atlas "
    "auburn austere avatar avidly awakened awning awoken axes aztec azure bagpipe bailed balding banjo baptism "
    "basin bawled bays befit begun bemused benches bested betting bevel bias bids bifocals bikini bimonthly "
    "binocular biplane biweekly blender blip bluntly bobsled bogeys boldly bovine boyfriend bubble buckets "
    "buffet buzzer bygones byline cadets cajun calamity casket cavernous cease cedar chlorine chrome cider "
    "cigar cistern citadel cobra cocoa coexist cogs cohesive coils corrode cucumber cuddled cuffs cuisine "
    "cunning cupcake cycling cynical"
).split()
# Words of the BIP39 French list.
_BIP39_FR = (
    "abaisser abeille abolir aborder aboutir aboyer abriter abroger absolu abusif abyssal acajou acarien "
    "accabler accolade accroche acerbe acheter aciduler acompte acquérir acronyme adepte adhésif adjuger "
    "admirer adorer adoucir adroit adverbe aérer aéronef affecter affiche affubler agacer agencer agrafer "
    "agrume aiguille ailier aisance ajuster alarmer alchimie algèbre algue aliéner alléger alliage allouer "
    "allumer alourdir alpaga altesse alvéole ambigu ambre aménager amertume amidon amiral amorcer amovible "
    "amphibie ampleur anaphore anarchie anatomie anéantir angoisse anguleux annexer anodin anomalie aplanir "
    "apologie aqueduc arbuste ardoise arlequin armature armoire arpenter arroser arsenic asphalte asticot "
    "astuce atelier atrium aubaine auberge augurer aurore autruche avaler avarice averse aviateur avoine"
).split()
# A diceware-style list for multi-word passphrases (not a BIP39 list).
_DICE = (
    "acorn anvil banjo bramble cactus cider comet crumpet dingo dynamo ember falafel fjord gazebo gizmo goblet "
    "hazel hobnail igloo jigsaw jumbo kayak kettle lemur lilypad mango marzipan nylon nutmeg oboe otter parsnip "
    "pluto quilt quiver radar rhubarb salsa scooter sequin tadpole thimble tulip turnip umbra vapor velcro waffle "
    "walrus yodel zeppelin zesty cobweb doodle flannel gumdrop hamlet jetty kiosk locket mitten noodle pebble"
).split()
_WORDS = ["Kestrel", "Marigold", "Tundra", "Quokka", "Basalt", "Lantern", "Nectar", "Obsidian", "Paprika",
          "Riverbend", "Sequoia", "Tamarind", "Velvet", "Wombat", "Zephyr", "Cardamom"]  # fmt: skip


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
        return f"{word.lower()}.{other.lower()}.{g.chars(DIGITS, 3)}"
    if shape == 2:
        return f"{other}{sym}{word}{g.chars(DIGITS, 2)}"
    return f"{g.chars(DIGITS, 2)}{word}{other}{sym}"


def _phrase(g: Gen, n: int, sep: str = " ") -> str:
    """n distinct random words of the diceware-style list joined by sep."""
    return sep.join(g.rng.sample(_DICE, n))


def _words(g: Gen, wordlist: list[str], n: int) -> str:
    """n random words of wordlist, space separated."""
    return " ".join(g.rng.choice(wordlist) for _ in range(n))


def _wif(g: Gen, first: str) -> str:
    """A compressed WIF-shaped key: first letter then 51 base58 characters (no checksum is computed)."""
    return first + g.chars(_BASE58, 51)


def _ai_and_data(g: Gen) -> list[Case]:
    """AI, agent-tooling and data platforms' keys."""
    anyscale = "esecret_" + g.chars(_LOWER_ALNUM, 26)
    runway = "key_" + g.chars(HEX, 128)
    firecrawl = "fc-" + g.chars(HEX, 32)
    browserbase = "bb_live_" + g.mixed(B64URL, 27)
    e2b = "e2b_" + g.chars(HEX, 40)
    llx = "llx-" + g.mixed(ALNUM, 48)
    runpod = "rpa_" + g.mixed(_UPPER_ALNUM, 44)
    helicone = "sk-helicone-" + "-".join(g.chars(_LOWER_ALNUM, 7) for _ in range(4))
    exa = g.uuid()
    qdrant = g.mixed(B64URL, 54)
    weaviate = g.mixed(ALNUM, 40)
    deepinfra = g.mixed(ALNUM, 32)
    mem0 = "m0-" + g.mixed(ALNUM, 40)
    lambda_key = f"secret_acme-ci_{g.chars(HEX, 32)}.{g.mixed(ALNUM, 32)}"
    ccdb = f"CCDB1_{g.mixed(ALNUM, 22)}_{g.mixed(ALNUM, 40)}"
    tinybird_claims = _json_b64url(g, {"u": g.uuid(), "id": g.uuid(), "host": "gcp-europe-west3"})
    tinybird = f"p.{tinybird_claims}.{g.b64url(g.rng.randbytes(32))}"
    fauna = "fnA" + g.mixed(B64URL, 37)
    gel_claims: dict[str, object] = {"iss": "aws.edgedb.cloud", "sub": g.uuid(), "iat": 1736000000}
    gel = "nbwt_" + _jwt(g, {"alg": "ES256", "typ": "JWT"}, gel_claims, 64)
    hasura = g.mixed(ALNUM, 64)
    hasura_key = g.mixed(ALNUM, 48)
    postgrest = g.mixed(ALNUM, 40)
    appwrite = "standard_" + g.chars(HEX, 256)
    typesense = g.mixed(ALNUM, 32)
    essu = "essu_" + g.b64_bytes(60)
    return [
        Case(f"OPENAI_BASE_URL=https://api.endpoints.anyscale.com/v1\nOPENAI_API_KEY={anyscale}", "secret assignment",
             "Anyscale Endpoints key", anyscale),
        Case(f'from runwayml import RunwayML\nclient = RunwayML(api_key="{runway}")', "secret assignment",
             "Runway API key in Python", runway),
        Case(f'app = FirecrawlApp(api_key="{firecrawl}")\npage = app.scrape_url("https://acme.io/pricing")',
             "secret assignment", "Firecrawl API key", firecrawl),
        Case(f"BROWSERBASE_PROJECT_ID={g.uuid()}\nBROWSERBASE_API_KEY={browserbase}", "secret assignment",
             "Browserbase API key", browserbase),
        Case(f"E2B_API_KEY={e2b} python agent.py --sandbox code-interpreter-v1", "secret assignment",
             "E2B API key", e2b),
        Case(f'parser = LlamaParse(api_key="{llx}", result_type="markdown")', "secret assignment",
             "LlamaCloud key", llx),
        Case(f"runpodctl config --apiKey {runpod}", "password on a command line", "runpodctl config --apiKey",
             runpod),
        Case(f'client = OpenAI(base_url="https://oai.helicone.ai/v1",\n'
             f'                default_headers={{"Helicone-Auth": "Bearer {helicone}"}})', "secret assignment",
             "Helicone-Auth header", helicone),
        Case(f'exa = Exa(api_key="{exa}")\nresults = exa.search("vector databases", num_results=5)',
             "secret assignment", "Exa API key (UUID)", exa),
        Case(f'client = QdrantClient(url="https://{g.uuid()}.eu-central-1-0.aws.cloud.qdrant.io:6333", '
             f'api_key="{qdrant}")', "secret assignment", "Qdrant Cloud API key", qdrant),
        Case(f'client = weaviate.connect_to_weaviate_cloud(cluster_url=WCD_URL, auth_credentials=Auth.api_key("'
             f'{weaviate}"))', "secret assignment", "Weaviate Auth.api_key", weaviate),
        Case(f"DEEPINFRA_TOKEN={deepinfra}", "secret assignment", "DeepInfra token", deepinfra),
        Case(f'from mem0 import MemoryClient\nclient = MemoryClient(api_key="{mem0}")', "secret assignment",
             "Mem0 API key", mem0),
        Case(f"$ cat ~/.lambda_cloud/lambda_keys\napi_key = {lambda_key}", "secret assignment",
             "Lambda Cloud lambda_keys file", lambda_key),
        Case(f'provider "cockroach" {{}}\n# export COCKROACH_API_KEY={ccdb}', "secret assignment",
             "CockroachDB Cloud API key in a comment", ccdb),
        Case(f"tb auth --host https://api.europe-west3.gcp.tinybird.co --token {tinybird}",
             "password on a command line", "Tinybird tb auth --token", tinybird),
        Case(f"FAUNA_SECRET={fauna} node seed.js", "secret assignment", "Fauna secret", fauna),
        Case(f"GEL_INSTANCE=acme/shop\nGEL_SECRET_KEY={gel}", "secret assignment", "Gel (EdgeDB) cloud secret key",
             gel),
        Case(f"  graphql-engine:\n    image: hasura/graphql-engine:v2.44.0\n    environment:\n"
             f"      HASURA_GRAPHQL_ADMIN_SECRET: {hasura}", "secret assignment", "Hasura admin secret", hasura),
        Case(f"HASURA_GRAPHQL_JWT_SECRET='{{\"type\":\"HS256\",\"key\":\"{hasura_key}\"}}'", "secret assignment",
             "Hasura JWT secret JSON", hasura_key),
        Case(f'db-uri = "postgres://authenticator@db:5432/app"\ndb-schemas = "api"\njwt-secret = "{postgrest}"',
             "secret assignment", "PostgREST jwt-secret", postgrest),
        Case(f"const client = new Client().setEndpoint('https://cloud.appwrite.io/v1').setProject('shop')"
             f".setKey('{appwrite}');", "secret assignment", "Appwrite server API key", appwrite),
        Case(f"typesense-server --data-dir=/var/lib/typesense --api-key={typesense} --enable-cors",
             "password on a command line", "typesense-server --api-key", typesense),
        Case(f"export EC_API_KEY={essu}\necctl deployment list", "secret assignment", "Elastic Cloud essu_ key", essu),
    ]  # fmt: skip


def _saas(g: Gen) -> list[Case]:
    """Messaging, email, realtime, payment, CRM, productivity, CMS, auth, social, gaming and domain services."""
    telnyx = "KEY" + g.chars(_HEX_UPPER, 32) + "_" + g.mixed(ALNUM, 22)
    infobip = f"{g.chars(HEX, 32)}-{g.uuid()}"
    atsk = "atsk_" + g.chars(HEX, 64)
    mandrill = "md-" + g.mixed(B64URL, 22)
    smtp2go = "api-" + g.chars(_HEX_UPPER, 32)
    zepto = "Zoho-enczapikey " + g.b64_bytes(72)
    loops = g.chars(HEX, 32)
    pubnub = "sec-c-" + g.b64_bytes(36)
    stream = g.chars(_LOWER_ALNUM, 64)
    onesignal = "os_v2_app_" + g.chars(_BASE32_LOWER, 113)
    polar = "polar_oat_" + g.mixed(B64URL, 43)
    omise = "skey_test_" + g.chars(_LOWER_ALNUM, 19)
    iyzico = "sandbox-" + g.mixed(ALNUM, 32)
    yookassa = "live_" + g.mixed(B64URL, 43)
    btcpay = g.chars(HEX, 40)
    recurly = g.chars(HEX, 32)
    lemon = _jwt(g, {"typ": "JWT", "alg": "RS256"}, {"aud": "1", "jti": g.chars(HEX, 80), "iat": 1736000000,
                                                     "sub": g.digits(6), "scopes": []}, 256)  # fmt: skip
    todoist = g.chars(HEX, 40)
    smartsheet = g.mixed(ALNUM, 37)
    shortcut = g.uuid()
    calcom = "cal_live_" + g.chars(HEX, 32)
    webflow = g.chars(HEX, 64)
    dato = g.chars(HEX, 30)
    ghost = f"{g.chars(HEX, 24)}:{g.chars(HEX, 64)}"
    strapi = ",".join(g.b64_bytes(16) for _ in range(4))
    stytch = "secret-live-" + g.mixed(B64URL, 36)
    ory = "ory_pat_" + g.mixed(ALNUM, 32)
    duo = g.mixed(ALNUM, 40)
    alpaca = g.mixed(ALNUM, 40)
    reddit = g.mixed(B64URL, 30)
    pinterest = "pina_" + g.chars(UPPER + "234567", 96)
    mastodon = g.mixed(B64URL, 43)
    riot = "RGAPI-" + g.uuid()
    porkbun = "sk1_" + g.chars(HEX, 64)
    godaddy = f"{g.mixed(ALNUM, 34)}:{g.mixed(ALNUM, 22)}"
    gandi = g.chars(HEX, 40)
    desec = g.mixed(B64URL, 28)
    bunny = f"{g.uuid()}{g.chars(HEX, 4)}-{g.chars(HEX, 4)}-{g.chars(HEX, 4)}-{g.chars(HEX, 4)}-{g.chars(HEX, 12)}"
    coralogix = "cxtp_" + g.mixed(ALNUM, 30)
    logzio = g.chars(LOWER + UPPER, 32)
    signoz = g.uuid()
    kong = g.mixed(ALNUM, 32)
    return [
        Case(f'import telnyx\ntelnyx.api_key = "{telnyx}"', "secret assignment", "Telnyx v2 API key", telnyx),
        Case(f"curl -X POST https://{g.chars(LOWER, 6)}.api.infobip.com/sms/2/text/advanced "
             f"-H 'Authorization: App {infobip}' -d @sms.json", "secret assignment", "Infobip App header", infobip),
        Case(f"AT_USERNAME=sandbox\nAT_API_KEY={atsk}", "secret assignment", "Africa's Talking API key", atsk),
        Case(f'client = MailchimpTransactional.Client("{mandrill}")', "secret assignment", "Mandrill API key",
             mandrill),
        Case(f'curl https://api.smtp2go.com/v3/email/send -d \'{{"api_key": "{smtp2go}", "to": ["ada@acme.io"], '
             '"sender": "noreply@acme.io", "subject": "hi"}\'', "secret assignment", "SMTP2GO key in a JSON body",
             smtp2go),
        Case(f'curl https://api.zeptomail.eu/v1.1/email -H "Authorization: {zepto}" -d @mail.json',
             "secret assignment", "ZeptoMail Zoho-enczapikey header", zepto),
        Case(f'const loops = new LoopsClient("{loops}");', "secret assignment", "Loops API key", loops),
        Case(f'pnconfig.publish_key = "pub-c-{g.uuid()}"\npnconfig.subscribe_key = "sub-c-{g.uuid()}"\n'
             f'pnconfig.secret_key = "{pubnub}"', "secret assignment", "PubNub secret key", pubnub),
        Case(f'chat = StreamChat(api_key="{g.chars(_LOWER_ALNUM, 12)}", api_secret="{stream}")', "secret assignment",
             "Stream Chat api_secret", stream),
        Case(f"curl https://api.onesignal.com/notifications -H 'Authorization: Key {onesignal}' -d @push.json",
             "secret assignment", "OneSignal os_v2_app key", onesignal),
        Case(f"POLAR_ACCESS_TOKEN={polar}", "secret assignment", "Polar organization access token", polar),
        Case(f'Omise.public_api_key = "pkey_test_{g.chars(_LOWER_ALNUM, 19)}"\nOmise.secret_api_key = "{omise}"',
             "secret assignment", "Omise secret key (Ruby)", omise),
        Case(f'options.setApiKey("sandbox-{g.mixed(ALNUM, 32)}");\noptions.setSecretKey("{iyzico}");',
             "secret assignment", "iyzico secret key (Java)", iyzico),
        Case(f"Configuration.configure('{g.digits(6)}', '{yookassa}')", "secret assignment", "YooKassa secret key",
             yookassa),
        Case(f"BTCPAY_URL=https://pay.acme.io\nBTCPAY_API_KEY={btcpay}", "secret assignment",
             "BTCPay Server Greenfield key", btcpay),
        Case(f'client = recurly.Client("{recurly}")', "secret assignment", "Recurly API key", recurly),
        Case(f"LEMONSQUEEZY_API_KEY={lemon}", "secret assignment", "Lemon Squeezy API key (JWT)", lemon),
        Case(f'api = TodoistAPI("{todoist}")\ntasks = api.get_tasks()', "secret assignment", "Todoist API token",
             todoist),
        Case(f'smart = smartsheet.Smartsheet("{smartsheet}")', "secret assignment", "Smartsheet access token",
             smartsheet),
        Case(f"curl -H 'Shortcut-Token: {shortcut}' https://api.app.shortcut.com/api/v3/member",
             "secret assignment", "Shortcut-Token header", shortcut),
        Case(f"CALCOM_API_KEY={calcom}", "secret assignment", "Cal.com API key", calcom),
        Case(f"webflow:\n  site_id: {g.chars(HEX, 24)}\n  api_token: {webflow}", "secret assignment",
             "Webflow API token", webflow),
        Case(f"const client = buildClient({{ apiToken: '{dato}' }});", "secret assignment", "DatoCMS API token",
             dato),
        Case(f"const api = new GhostAdminAPI({{ url: 'https://blog.acme.io', key: '{ghost}', version: 'v5.0' }});",
             "secret assignment", "Ghost Admin API key (id:secret)", ghost),
        Case(f"APP_KEYS={strapi}\nAPI_TOKEN_SALT={g.b64_bytes(16)}", "secret assignment", "Strapi APP_KEYS list",
             strapi),
        Case(f'client = stytch.Client(project_id="project-live-{g.uuid()}", secret="{stytch}")',
             "secret assignment", "Stytch project secret", stytch),
        Case(f"ORY_PROJECT_SLUG=eager-ramanujan-{g.chars(_LOWER_ALNUM, 6)}\nORY_API_KEY={ory}", "secret assignment",
             "Ory project API key", ory),
        Case(f"; /etc/duo/pam_duo.conf\n[duo]\nikey = DI{g.chars(_UPPER_ALNUM, 18)}\nskey = {duo}\n"
             f"host = api-{g.chars(HEX, 8)}.duosecurity.com\npushinfo = yes", "secret assignment",
             "Duo pam_duo.conf skey", duo),
        Case(f"curl -H 'APCA-API-KEY-ID: PK{g.chars(_UPPER_ALNUM, 18)}' -H 'APCA-API-SECRET-KEY: {alpaca}' "
             "https://paper-api.alpaca.markets/v2/account", "secret assignment", "Alpaca API secret header", alpaca),
        Case(f"[bot1]\nclient_id={g.mixed(B64URL, 22)}\nclient_secret={reddit}\nusername=acme_bot\n"
             f"user_agent=acme-bot/0.3", "secret assignment", "praw.ini client_secret", reddit),
        Case(f"PINTEREST_ACCESS_TOKEN={pinterest}", "secret assignment", "Pinterest pina_ token", pinterest),
        Case(f'mastodon = Mastodon(access_token="{mastodon}", api_base_url="https://fosstodon.org")',
             "secret assignment", "Mastodon.py access token", mastodon),
        Case(f"curl -H 'X-Riot-Token: {riot}' https://europe.api.riotgames.com/riot/account/v1/accounts/me",
             "secret assignment", "Riot Games API key", riot),
        Case(f"curl -X POST https://api.porkbun.com/api/json/v3/dns/retrieve/acme.io -d '{{\"secretapikey\": "
             f"\"{porkbun}\", \"apikey\": \"pk1_{g.chars(HEX, 64)}\"}}'", "secret assignment",
             "Porkbun secret API key", porkbun),
        Case(f"curl -H 'Authorization: sso-key {godaddy}' https://api.godaddy.com/v1/domains/acme.io/records",
             "secret assignment", "GoDaddy sso-key header", godaddy),
        Case(f"GANDIV5_PERSONAL_ACCESS_TOKEN={gandi} lego --dns gandiv5 -d '*.acme.io' run", "secret assignment",
             "Gandi PAT for lego", gandi),
        Case(f"# /etc/letsencrypt/desec.ini\ndns_desec_token = {desec}\ndns_desec_endpoint = https://desec.io/api/v1/",
             "secret assignment", "certbot deSEC credentials ini", desec),
        Case(f"curl -X PUT -H 'AccessKey: {bunny}' --data-binary @logo.png "
             "https://storage.bunnycdn.com/acme-assets/logo.png", "secret assignment", "Bunny Storage AccessKey",
             bunny),
        Case(f'exporters:\n  coralogix:\n    domain: "eu2.coralogix.com"\n    private_key: "{coralogix}"\n'
             '    application_name: "shop"', "secret assignment", "Coralogix key in OTel config", coralogix),
        Case(f'<appender name="LogzioLogbackAppender" class="io.logz.logback.LogzioLogbackAppender">\n'
             f"    <token>{logzio}</token>\n    <logzioUrl>https://listener-eu.logz.io:8071</logzioUrl>\n</appender>",
             "secret assignment", "Logz.io logback token", logzio),
        Case(f'exporters:\n  otlp:\n    endpoint: "ingest.eu.signoz.cloud:443"\n    headers:\n'
             f'      signoz-ingestion-key: "{signoz}"', "secret assignment", "SigNoz ingestion key", signoz),
        Case(f"_format_version: \"3.0\"\nconsumers:\n- username: ci\n  keyauth_credentials:\n  - key: {kong}",
             "secret assignment", "Kong declarative key-auth credential", kong),
    ]  # fmt: skip


def _devops(g: Gen) -> list[Case]:
    """CI, build, secret-manager, cluster, cloud and homelab tools' tokens and keys."""
    chromatic = "chpt_" + g.chars(HEX, 14)
    honeybadger = "hbp_" + g.mixed(ALNUM, 36)
    checkly = "cu_" + g.chars(HEX, 32)
    socket = "sktsec_" + g.mixed(B64URL, 40) + "_api"
    semgrep = g.chars(HEX, 64)
    buildbuddy = g.mixed(ALNUM, 20)
    nx = g.mixed(ALNUM, 64) + "|read-write"
    turbo = g.mixed(ALNUM, 24)
    infisical = f"st.{g.uuid()}.{g.chars(HEX, 32)}.{g.chars(HEX, 32)}"
    bws = f"0.{g.uuid()}.{g.mixed(ALNUM, 30)}:{g.b64_bytes(16)}"
    keeper = "US:" + g.mixed(B64URL, 43)
    akeyless = g.b64_bytes(32)
    hcp = g.mixed(ALNUM + "-_", 64)
    portainer = "ptr_" + g.mixed(B64.replace("/", ""), 43)
    rancher = f"token-{g.chars(_LOWER_ALNUM, 5)}:{g.chars(_LOWER_ALNUM, 54)}"
    proxmox = g.uuid()
    truenas = f"{g.digits(1)}-{g.mixed(ALNUM, 64)}"
    hass = _jwt(g, {"alg": "HS256", "typ": "JWT"}, {"iss": g.chars(HEX, 32), "iat": 1736000000, "exp": 2051360000})
    jellyfin = g.chars(HEX, 32)
    sonarr = g.chars(HEX, 32)
    nextcloud = "-".join(g.mixed(ALNUM, 5) for _ in range(5))
    syncthing = g.mixed(ALNUM, 32)
    aria2 = g.mixed(ALNUM, 24)
    netbird = g.uuid().upper()
    jenkins = "11" + g.chars(HEX, 32)
    coolify = f"{g.digits(2)}|{g.mixed(ALNUM, 40)}"
    koyeb = g.mixed(ALNUM, 64)
    civo = g.mixed(ALNUM, 50)
    ionos = _jwt(g, {"kid": g.uuid(), "typ": "JWT", "alg": "RS256"},
                 {"iss": "ionoscloud", "iat": 1736000000, "identity": {"contractNumber": int(g.digits(8)),
                                                                       "role": "owner"}}, 256)  # fmt: skip
    kubeadm = f"{g.chars(_LOWER_ALNUM, 6)}.{g.chars(_LOWER_ALNUM, 16)}"
    k3s = f"K10{g.chars(HEX, 64)}::server:{g.chars(HEX, 32)}"
    argocd = _sp(g)
    flux = _sp(g)
    vault_pw = _sp(g)
    unseal = g.b64_bytes(33)
    gossip = g.b64_bytes(32)
    aescbc = g.b64_bytes(32)
    mongo_keyfile = _lines(g.b64_bytes(756), 76)
    cookie = g.chars(UPPER, 20)
    tunnel = g.b64_bytes(32)
    return [
        Case(f"npx chromatic --project-token={chromatic} --exit-zero-on-changes", "password on a command line",
             "Chromatic --project-token", chromatic),
        Case(f"Honeybadger.configure do |config|\n  config.api_key = '{honeybadger}'\n  config.env = 'production'\nend",
             "secret assignment", "Honeybadger api_key (Ruby block)", honeybadger),
        Case(f"CHECKLY_ACCOUNT_ID={g.uuid()}\nCHECKLY_API_KEY={checkly}\nnpx checkly deploy --force",
             "secret assignment", "Checkly API key", checkly),
        Case(f"SOCKET_SECURITY_API_KEY={socket} socket scan create .", "secret assignment", "Socket.dev API key",
             socket),
        Case(f"      - run: semgrep ci\n        env:\n          SEMGREP_APP_TOKEN: {semgrep}", "secret assignment",
             "Semgrep token inline in a workflow", semgrep),
        Case(f"build --bes_results_url=https://app.buildbuddy.io/invocation/\n"
             f"build --remote_header=x-buildbuddy-api-key={buildbuddy}", "secret assignment",
             ".bazelrc BuildBuddy remote_header", buildbuddy),
        Case(f'{{\n  "extends": "nx/presets/npm.json",\n  "nxCloudAccessToken": "{nx}"\n}}', "secret assignment",
             "nx.json nxCloudAccessToken", nx),
        Case(f"turbo run build --team=acme --token={turbo} --remote-only", "password on a command line",
             "turbo --token", turbo),
        Case(f"INFISICAL_TOKEN={infisical} infisical run --env=prod -- npm start", "secret assignment",
             "Infisical service token", infisical),
        Case(f"bws secret list --access-token {bws}", "password on a command line",
             "Bitwarden Secrets Manager access token", bws),
        Case(f"ksm profile init --token {keeper}", "password on a command line",
             "Keeper Secrets Manager one-time token", keeper),
        Case(f"akeyless auth --access-id p-{g.chars(_LOWER_ALNUM, 12)} --access-key {akeyless}",
             "password on a command line", "akeyless auth --access-key", akeyless),
        Case(f"HCP_CLIENT_ID={g.mixed(ALNUM, 32)}\nHCP_CLIENT_SECRET={hcp}", "secret assignment",
             "HCP service principal secret", hcp),
        Case(f'provider "portainer" {{\n  endpoint = "https://portainer.acme.io"\n  api_key  = "{portainer}"\n}}',
             "secret assignment", "Portainer API key in HCL", portainer),
        Case(f"rancher login https://rancher.acme.io/v3 --token {rancher} --context c-m-{g.chars(_LOWER_ALNUM, 8)}",
             "password on a command line", "rancher login --token", rancher),
        Case(f"curl -H 'Authorization: PVEAPIToken=terraform@pve!ci={proxmox}' "
             "https://pve.acme.lan:8006/api2/json/nodes", "secret assignment", "Proxmox PVEAPIToken header", proxmox),
        Case(f"driver:\n  config:\n    httpConnection:\n      protocol: https\n      host: nas.acme.lan\n"
             f"      apiKey: {truenas}", "secret assignment", "TrueNAS API key (democratic-csi values)", truenas),
        Case(f"hass-cli --server https://ha.acme.lan:8123 --token {hass} state list", "password on a command line",
             "hass-cli --token", hass),
        Case(f"curl -H 'X-Emby-Token: {jellyfin}' http://jellyfin.lan:8096/Users", "secret assignment",
             "Jellyfin X-Emby-Token", jellyfin),
        Case(f"<Config>\n  <Port>8989</Port>\n  <ApiKey>{sonarr}</ApiKey>\n  <AuthenticationMethod>Forms"
             "</AuthenticationMethod>\n</Config>", "secret assignment", "Sonarr config.xml ApiKey", sonarr),
        Case(f"nextcloudcmd --user ada --password {nextcloud} ~/Nextcloud https://cloud.acme.io",
             "password on a command line", "nextcloudcmd app password", nextcloud),
        Case(f'<gui enabled="true" tls="true">\n    <address>127.0.0.1:8384</address>\n    <apikey>{syncthing}'
             "</apikey>\n</gui>", "secret assignment", "Syncthing config.xml apikey", syncthing),
        Case(f"enable-rpc=true\nrpc-listen-all=false\nrpc-secret={aria2}", "secret assignment", "aria2.conf rpc-secret",
             aria2),
        Case(f"netbird up --management-url https://netbird.acme.io --setup-key {netbird}",
             "password on a command line", "netbird up --setup-key", netbird),
        Case(f"java -jar jenkins-cli.jar -s https://ci.acme.io/ -auth ada:{jenkins} build shop -f",
             "password on a command line", "jenkins-cli -auth user:token", jenkins),
        Case(f'COOLIFY_URL=https://coolify.acme.io\nCOOLIFY_TOKEN="{coolify}"', "secret assignment",
             "Coolify API token (Sanctum id|token)", coolify),
        Case(f"koyeb service redeploy shop/api --token {koyeb}", "password on a command line", "koyeb --token", koyeb),
        Case(f"civo apikey save acme {civo} && civo apikey current acme", "password on a command line",
             "civo apikey save", civo),
        Case(f"IONOS_TOKEN={ionos}", "secret assignment", "IONOS Cloud token", ionos),
        Case(f"kubeadm join 10.0.0.10:6443 --token {kubeadm} \\\n    --discovery-token-ca-cert-hash sha256:"
             f"{g.chars(HEX, 64)}", "password on a command line", "kubeadm join --token", kubeadm),
        Case(f"curl -sfL https://get.k3s.io | K3S_URL=https://10.0.0.10:6443 K3S_TOKEN={k3s} sh -",
             "secret assignment", "k3s K10 join token", k3s),
        Case(f"argocd login argocd.acme.io --username admin --password {argocd} --grpc-web",
             "password on a command line", "argocd login --password", argocd),
        Case(f"flux create secret git shop-repo --url=https://git.acme.io/acme/shop --username=flux "
             f"--password={flux}", "password on a command line", "flux create secret git --password", flux),
        Case(f"vault login -method=userpass username=ada password={vault_pw}", "password on a command line",
             "vault login userpass password=", vault_pw),
        Case(f"Unseal Key 1: {unseal}\nUnseal Key 2: {g.b64_bytes(33)}\n\nVault initialized with 5 key shares and "
             "a key threshold of 3.", "secret assignment", "Vault operator init unseal keys", unseal),
        Case(f'datacenter = "eu1"\ndata_dir = "/opt/consul"\nencrypt = "{gossip}"', "secret assignment",
             "Consul gossip encrypt key", gossip),
        Case(f"apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: "
             f"[secrets]\n    providers:\n      - aescbc:\n          keys:\n            - name: key1\n"
             f"              secret: {aescbc}\n      - identity: {{}}", "secret assignment",
             "Kubernetes EncryptionConfiguration key", aescbc),
        Case(f"$ cat /etc/mongod/keyfile\n{mongo_keyfile}", "secret assignment", "MongoDB replica set keyFile",
             mongo_keyfile),
        Case(f"erl -sname shop -setcookie {cookie} -remsh shop@web1", "password on a command line",
             "erl -setcookie", cookie),
        Case(f'{{"AccountTag": "{g.chars(HEX, 32)}", "TunnelSecret": "{tunnel}", "TunnelID": "{g.uuid()}"}}',
             "secret assignment", "cloudflared tunnel credentials JSON", tunnel),
    ]  # fmt: skip


def _configs(g: Gen) -> list[Case]:
    """Passwords and keys inside config files of kinds no other part has."""
    p = [_pw(g) for _ in range(40)]
    s = [_sp(g) for _ in range(16)]
    h = [_hu(g) for _ in range(8)]
    caddy = g.mixed(ALNUM, 40)
    envoy = g.mixed(B64URL, 48)
    telegraf = g.mixed(B64URL, 86) + "=="
    gitea = _jwt(g, {"alg": "HS256", "typ": "JWT"}, {"nbf": 1736000000})
    authelia = g.mixed(ALNUM, 64)
    esphome = g.b64_bytes(32)
    zigbee = "[" + ", ".join(str(g.rng.randrange(256)) for _ in range(16)) + "]"
    xcconfig = g.mixed(ALNUM, 40)
    plist = g.mixed(B64URL, 32)
    jasypt = _pw(g)
    s3a = g.mixed(B64.replace("/", ""), 40)
    psk = g.mixed(ALNUM, 32)
    monit, yum, forti, arista = (_sp(g) for _ in range(4))
    return [
        Case(f'  users.users.ada = {{\n    isNormalUser = true;\n    extraGroups = [ "wheel" ];\n'
             f'    password = "{p[0]}";\n  }};', "password assignment", "NixOS users.users password", p[0]),
        Case(f"api.acme.io {{\n  reverse_proxy backend:8080 {{\n    header_up X-Api-Key {caddy}\n  }}\n}}",
             "secret assignment", "Caddyfile header_up key", caddy),
        Case(f"resources:\n- \"@type\": type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.Secret\n"
             f"  name: upstream-token\n  generic_secret:\n    secret:\n      inline_string: {envoy}",
             "secret assignment", "Envoy SDS generic_secret inline_string", envoy),
        Case(f'task "api" {{\n  driver = "docker"\n  env {{\n    DB_USER     = "shop"\n    DB_PASSWORD = "{p[1]}"\n'
             "  }\n}", "password assignment", "Nomad job env block", p[1]),
        Case(f'[[outputs.influxdb_v2]]\n  urls = ["https://influx.acme.io:8086"]\n  token = "{telegraf}"\n'
             '  organization = "acme"\n  bucket = "metrics"', "secret assignment", "Telegraf influxdb_v2 token",
             telegraf),
        Case(f"# /etc/zabbix/zabbix_server.conf\nDBHost=localhost\nDBName=zabbix\nDBUser=zabbix\nDBPassword={s[0]}",
             "password assignment", "Zabbix server DBPassword", s[0]),
        Case(f'object ApiUser "root" {{\n  password = "{p[2]}"\n  permissions = [ "*" ]\n}}', "password assignment",
             "Icinga 2 ApiUser password", p[2]),
        Case(f"# /usr/local/nagios/etc/resource.cfg\n$USER1$=/usr/local/nagios/libexec\n$USER3$={s[1]}",
             "password assignment", "Nagios resource.cfg $USER3$", s[1]),
        Case(f'action(type="omelasticsearch" server="es.acme.io" serverport="9200" uid="rsyslog" pwd="{p[3]}" '
             'usehttps="on")', "password assignment", "rsyslog omelasticsearch pwd", p[3]),
        Case(f"sentinel monitor mymaster 10.0.0.5 6379 2\nsentinel auth-pass mymaster {s[2]}\n"
             "sentinel down-after-milliseconds mymaster 5000", "password assignment", "Redis Sentinel auth-pass",
             s[2]),
        Case(f"listeners.tcp.default = 5672\ndefault_user = shop\ndefault_pass = {s[3]}\n"
             "management.tcp.port = 15672", "password assignment", "rabbitmq.conf default_pass", s[3]),
        Case(f"[security]\nINSTALL_LOCK = true\nINTERNAL_TOKEN = {gitea}\nPASSWORD_HASH_ALGO = pbkdf2",
             "secret assignment", "Gitea app.ini INTERNAL_TOKEN", gitea),
        Case(f"gitlab_rails['smtp_enable'] = true\ngitlab_rails['smtp_address'] = \"smtp.acme.io\"\n"
             f"gitlab_rails['smtp_user_name'] = \"gitlab@acme.io\"\ngitlab_rails['smtp_password'] = \"{p[4]}\"",
             "password assignment", "GitLab Omnibus gitlab.rb smtp_password", p[4]),
        Case(f"env:\n  DISCOURSE_HOSTNAME: forum.acme.io\n  DISCOURSE_SMTP_ADDRESS: smtp.acme.io\n"
             f"  DISCOURSE_SMTP_USER_NAME: forum@acme.io\n  DISCOURSE_SMTP_PASSWORD: \"{p[5]}\"", "password assignment",
             "Discourse app.yml SMTP password", p[5]),
        Case(f"storage:\n  encryption_key: '{authelia}'\n  local:\n    path: /config/db.sqlite3", "secret assignment",
             "Authelia storage encryption_key", authelia),
        Case(f'api:\n  encryption:\n    key: "{esphome}"\nota:\n  - platform: esphome\n    password: !secret ota',
             "secret assignment", "ESPHome api encryption key", esphome),
        Case(f'# secrets.yaml\nwifi_ssid: "Acme-IoT"\nwifi_password: "{h[0]}"\nmqtt_password: !env_var MQTT_PW',
             "password assignment", "Home Assistant secrets.yaml", h[0]),
        Case(f"Backlog SSID1 Acme-IoT; Password1 {s[4]}; MqttHost 10.0.0.7; MqttUser tasmota",
             "password on a command line", "Tasmota console Backlog Password1", s[4]),
        Case(f"advanced:\n  pan_id: 6754\n  network_key: {zigbee}\n  channel: 15", "secret assignment",
             "Zigbee2MQTT network_key array", zigbee),
        Case(f"enable-rcon=true\nrcon.port=25575\nrcon.password={s[5]}\nmotd=Acme SMP", "password assignment",
             "Minecraft server.properties rcon.password", s[5]),
        Case(f'hostname "Acme CS2"\nrcon_password "{p[6]}"\nsv_password ""', "password assignment",
             "Source engine server.cfg rcon_password", p[6]),
        Case(f"; murmur.ini\nport=64738\nserverpassword={s[6]}\nusers=50", "password assignment",
             "Mumble murmur.ini serverpassword", s[6]),
        Case(f"// Config/Release.xcconfig\nAPI_BASE_URL = https:/$()/api.acme.io\nAPI_SECRET = {xcconfig}",
             "secret assignment", "Xcode .xcconfig API_SECRET", xcconfig),
        Case(f"<key>CFBundleIdentifier</key>\n<string>io.acme.shop</string>\n<key>BackendAPISecret</key>\n"
             f"<string>{plist}</string>", "secret assignment", "Info.plist secret string", plist),
        Case(f"Windows Registry Editor Version 5.00\n\n[HKEY_CURRENT_USER\\Software\\SimonTatham\\PuTTY\\Sessions\\"
             f"prod]\n\"HostName\"=\"10.0.0.5\"\n\"ProxyUsername\"=\"ada\"\n\"ProxyPassword\"=\"{p[7]}\"",
             "password assignment", "PuTTY session .reg ProxyPassword", p[7]),
        Case(f"secretGenerator:\n- name: shop-db\n  literals:\n  - username=shop\n  - password={s[7]}",
             "password assignment", "Kustomize secretGenerator literals", s[7]),
        Case(f'[plugins."io.containerd.grpc.v1.cri".registry.configs."registry.acme.io".auth]\n  username = "ci"\n'
             f'  password = "{p[8]}"', "password assignment", "containerd config.toml registry auth", p[8]),
        Case(f"# /etc/rancher/k3s/registries.yaml\nconfigs:\n  registry.acme.io:\n    auth:\n      username: ci\n"
             f"      password: \"{p[9]}\"", "password assignment", "k3s registries.yaml auth", p[9]),
        Case(f"[Service]\nExecStart=/usr/bin/shop\nSetCredential=db-password:{s[8]}\nDynamicUser=yes",
             "password assignment", "systemd SetCredential=", s[8]),
        Case(f"network:\n  version: 2\n  wifis:\n    wlan0:\n      dhcp4: true\n      access-points:\n"
             f"        \"Acme-Office\":\n          password: \"{h[1]}\"", "password assignment",
             "netplan wifi access-point password", h[1]),
        Case(f"auto wlan0\niface wlan0 inet dhcp\n    wpa-ssid Acme-Office\n    wpa-psk {s[9]}", "password assignment",
             "/etc/network/interfaces wpa-psk", s[9]),
        Case(f"#cloud-config\nchpasswd:\n  expire: false\n  users:\n    - name: ubuntu\n      password: {s[10]}\n"
             "      type: text\nssh_pwauth: true", "password assignment", "cloud-init chpasswd plaintext", s[10]),
        Case(f"lang en_US.UTF-8\nkeyboard us\nrootpw --plaintext {s[11]}\ntimezone Europe/Paris --utc",
             "password assignment", "Kickstart rootpw --plaintext", s[11]),
        Case(f"d-i passwd/root-password password {s[12]}\nd-i passwd/root-password-again password {s[12]}",
             "password assignment", "Debian preseed root-password", s[12]),
        Case(f'Vagrant.configure("2") do |config|\n  config.vm.box = "generic/debian12"\n'
             f'  config.ssh.username = "vagrant"\n  config.ssh.password = "{p[10]}"\nend', "password assignment",
             "Vagrantfile config.ssh.password", p[10]),
        Case(f"<graphics type='vnc' port='-1' autoport='yes' listen='0.0.0.0' passwd='{p[11][:8]}'/>",
             "password assignment", "libvirt domain graphics passwd", p[11][:8]),
        Case(f"# /etc/proxychains.conf\n[ProxyList]\nhttp 10.0.0.1 3128 ada {s[13]}", "password assignment",
             "proxychains.conf ProxyList credentials", s[13]),
        Case(f"cache_peer proxy.acme.io parent 3128 0 no-query default login=ada:{s[14]}", "password assignment",
             "squid cache_peer login=", s[14]),
        Case(f"# /etc/stunnel/psk.txt\nbackup-client:{psk}", "secret assignment", "stunnel PSK secrets file", psk),
        Case(f"# /etc/ppp/chap-secrets\n# client  server  secret  IP addresses\nada  *  {s[15]}  *",
             "password assignment", "ppp chap-secrets", s[15]),
        Case(f"<sip:ada@sip.acme.io>;auth_pass={p[12]};outbound=\"sip:sip.acme.io;transport=tls\"",
             "password assignment", "baresip accounts auth_pass", p[12]),
        Case(f"set httpd port 2812 and\n    use address 0.0.0.0\n    allow admin:{monit}", "password assignment",
             "monit httpd allow user:password", monit),
        Case(f'bind_to_address "0.0.0.0"\npassword "{p[13]}@read,add,control,admin"', "password assignment",
             "mpd.conf password@permissions", p[13]),
        Case(f"# ~/.config/deluge/auth\nlocalclient:{g.chars(HEX, 40)}:10\nada:{p[14]}:10", "password assignment",
             "Deluge auth file", p[14]),
        Case(f"protocol=dyndns2\nuse=web\nserver=dynupdate.acme-dns.net\nlogin=ada\npassword='{p[15]}'\nhome.acme.io",
             "password assignment", "ddclient.conf password", p[15]),
        Case(f"[main]\nproxy=http://proxy.acme.io:3128\nproxy_username=ada\nproxy_password={yum}",
             "password assignment", "yum.conf proxy_password", yum),
        Case(f"# /etc/apt/auth.conf.d/acme.conf\nmachine apt.acme.io/debian\nlogin ci\npassword {p[16]}",
             "password assignment", "APT auth.conf.d machine entry", p[16]),
        Case(f'authorization {{\n  users = [\n    {{ user: shop, password: "{p[17]}" }}\n  ]\n}}',
             "password assignment", "nats-server.conf users password", p[17]),
        Case(f"  - job_name: node\n    basic_auth:\n      username: prom\n      password: '{p[18]}'\n"
             "    static_configs:\n      - targets: ['10.0.0.5:9100']", "password assignment",
             "Prometheus scrape basic_auth", p[18]),
        Case(f"extensions:\n  basicauth/client:\n    client_auth:\n      username: otel\n      password: \"{p[19]}\"",
             "password assignment", "OTel collector basicauth extension", p[19]),
        Case(f"jasypt.encryptor.algorithm=PBEWITHHMACSHA512ANDAES_256\njasypt.encryptor.password={jasypt}",
             "password assignment", "Spring jasypt.encryptor.password", jasypt),
        Case(f"[auth]\nacme.prefix = https://hg.acme.io\nacme.username = ada\nacme.password = {p[20]}",
             "password assignment", "Mercurial hgrc [auth] password", p[20]),
        Case(f"clouds:\n  acme:\n    auth:\n      auth_url: https://keystone.acme.io:5000/v3\n      username: ada\n"
             f"      password: '{p[21]}'\n      project_name: shop\n    region_name: RegionOne", "password assignment",
             "OpenStack clouds.yaml password", p[21]),
        Case(f"<property>\n  <name>fs.s3a.access.key</name>\n  <value>{g.chars(_UPPER_ALNUM, 20)}</value>\n"
             f"</property>\n<property>\n  <name>fs.s3a.secret.key</name>\n  <value>{s3a}</value>\n</property>",
             "secret assignment", "Hadoop core-site.xml fs.s3a.secret.key", s3a),
        Case(f"# pillar/mysql.sls\nmysql:\n  server:\n    root_password: '{p[22]}'", "password assignment",
             "Salt pillar root_password", p[22]),
        Case(f"profile::db::user: shop\nprofile::db::password: '{p[23]}'", "password assignment",
             "Puppet Hiera password key", p[23]),
        Case(f"config system admin\n    edit \"ada\"\n        set accprofile \"super_admin\"\n"
             f"        set password {forti}\n    next\nend", "password assignment", "FortiOS config system admin",
             forti),
        Case(f"username ada privilege 15 role network-admin secret 0 {arista}", "password assignment",
             "Arista EOS username secret 0", arista),
        Case(f"config wifi-iface 'default_radio0'\n\toption device 'radio0'\n\toption ssid 'Acme'\n"
             f"\toption encryption 'psk2'\n\toption key '{h[2]}'", "password assignment", "OpenWrt UCI wireless key",
             h[2]),
    ]  # fmt: skip


def _commands(g: Gen) -> list[Case]:
    """Passwords and keys on command lines of tools no other part has."""
    p = [_pw(g) for _ in range(30)]
    s = [_sp(g) for _ in range(22)]
    h = [_hu(g) for _ in range(4)]
    anaconda = g.mixed(ALNUM + "-", 30)
    hexpm = g.chars(HEX, 32)
    pubdev = g.mixed(B64URL, 40)
    swiftreg = g.mixed(ALNUM, 40)
    kcat = g.mixed(B64.replace("/", ""), 64)
    s_psk = g.chars(HEX, 64)
    bore = g.mixed(ALNUM, 32)
    apple = "-".join(g.chars(LOWER, 4) for _ in range(4))
    unity_serial = "SC-" + "-".join(g.chars(_UPPER_ALNUM, 4) for _ in range(5))
    zk = _sp(g)
    return [
        Case(f"echo '{p[0]}' | bw unlock --raw", "password on a command line", "bw unlock master password on stdin",
             p[0]),
        Case(f"echo '{p[1]}' | keepassxc-cli show -s ~/vault.kdbx 'Servers/db1'", "password on a command line",
             "keepassxc-cli password on stdin", p[1]),
        Case(f"printf '%s' '{h[0]}' | sudo cryptsetup open /dev/sdb1 backup --key-file=-", "password on a command line",
             "cryptsetup passphrase on stdin", h[0]),
        Case(f"qpdf --encrypt {s[0]} {s[1]} 256 -- payroll.pdf payroll-locked.pdf", "password on a command line",
             "qpdf --encrypt user owner", s[0]),
        Case(f"caddy hash-password --plaintext '{p[2]}'", "password on a command line",
             "caddy hash-password --plaintext", p[2]),
        Case(f"mkpasswd -m sha-512 '{p[3]}'", "password on a command line", "mkpasswd plaintext argument", p[3]),
        Case(f"openssl passwd -6 -salt {g.chars(_LOWER_ALNUM, 8)} '{p[4]}'", "password on a command line",
             "openssl passwd -6", p[4]),
        Case(f'Invoke-Sqlcmd -ServerInstance sql01 -Database Shop -Username sa -Password "{p[5]}" -Query "SELECT 1"',
             "password on a command line", "Invoke-Sqlcmd -Password", p[5]),
        Case(f"Connect-VIServer -Server vcenter.acme.lan -User administrator@vsphere.local -Password '{p[6]}'",
             "password on a command line", "PowerCLI Connect-VIServer -Password", p[6]),
        Case(f"netdom join WS042 /domain:acme.lan /userd:ACME\\ada /passwordd:{s[2]} /reboot",
             "password on a command line", "netdom join /passwordd:", s[2]),
        Case(f"security add-generic-password -a ada -s acme-vpn -w '{p[7]}' -U", "password on a command line",
             "macOS security add-generic-password -w", p[7]),
        Case(f"sudo sysadminctl -addUser kiosk -fullName 'Kiosk' -password '{p[8]}' -admin",
             "password on a command line", "macOS sysadminctl -password", p[8]),
        Case(f"sudo dscl . -passwd /Users/kiosk '{p[9]}'", "password on a command line", "macOS dscl -passwd", p[9]),
        Case(f"networksetup -setairportnetwork en0 Acme-Office '{h[1]}'", "password on a command line",
             "macOS networksetup -setairportnetwork", h[1]),
        Case(f"wpa_passphrase Acme-Office '{h[2]}' | sudo tee /etc/wpa_supplicant/wpa_supplicant-wlan0.conf",
             "password on a command line", "wpa_passphrase argument", h[2]),
        Case(f"kcat -b pkc-{g.chars(_LOWER_ALNUM, 5)}.eu-west-1.aws.confluent.cloud:9092 -X security.protocol=SASL_SSL "
             f"-X sasl.mechanisms=PLAIN -X sasl.username={g.chars(_UPPER_ALNUM, 16)} -X sasl.password={kcat} -L",
             "password on a command line", "kcat -X sasl.password", kcat),
        Case(f"racadm -r 10.0.0.50 -u root -p {s[3]} serveraction powercycle", "password on a command line",
             "Dell racadm -p", s[3]),
        Case(f'/user add name=ada group=full password="{p[10]}"', "password on a command line",
             "MikroTik RouterOS /user add password=", p[10]),
        Case(f"set system login user ada authentication plaintext-password '{p[11]}'", "password on a command line",
             "EdgeOS set plaintext-password", p[11]),
        Case(f"podman login registry.acme.io -u ci -p '{p[12]}'", "password on a command line", "podman login -p",
             p[12]),
        Case(f"skopeo copy --src-creds ci:{s[4]} docker://registry.acme.io/shop:1.4 oci-archive:shop.tar",
             "password on a command line", "skopeo --src-creds user:pass", s[4]),
        Case(f"crane auth login ghcr.acme.io -u ci -p {s[5]}", "password on a command line", "crane auth login -p",
             s[5]),
        Case(f"anaconda -t {anaconda} upload --user acme dist/conda/noarch/shop-1.4.2-py_0.conda",
             "password on a command line", "anaconda -t token", anaconda),
        Case(f"mix hex.organization auth acme --key {hexpm}", "password on a command line",
             "mix hex.organization auth --key", hexpm),
        Case(f"echo {pubdev} | dart pub token add https://pub.acme.io", "password on a command line",
             "dart pub token add on stdin", pubdev),
        Case(f"swift package-registry login https://swift.acme.io --token {swiftreg}", "password on a command line",
             "swift package-registry login --token", swiftreg),
        Case(f"conan remote login acme ada -p {s[6]}", "password on a command line", "conan remote login -p", s[6]),
        Case(f"dotnet nuget add source https://nuget.acme.io/v3/index.json -n acme -u ci -p {s[7]} "
             "--store-password-in-clear-text", "password on a command line", "dotnet nuget add source -p", s[7]),
        Case(f"mvn -B deploy -P release -Dgpg.passphrase='{p[13]}'", "password on a command line",
             "mvn -Dgpg.passphrase", p[13]),
        Case(f"apksigner sign --ks release.jks --ks-key-alias shop --ks-pass pass:{s[8]} app-release.apk",
             "password on a command line", "apksigner --ks-pass pass:", s[8]),
        Case(f'signtool sign /f codesign.pfx /p "{p[14]}" /fd SHA256 /tr http://timestamp.digicert.com Setup.exe',
             "password on a command line", "signtool /p", p[14]),
        Case(f"certutil -f -p {s[9]} -importpfx wildcard-acme.pfx", "password on a command line",
             "certutil -p -importpfx", s[9]),
        Case(f"printf 'protocol=https\\nhost=git.acme.io\\nusername=ada\\npassword={s[10]}\\n' "
             "| git credential approve",
             "password on a command line", "git credential approve on stdin", s[10]),
        Case(f"swaks --to ada@acme.io --server smtp.acme.io:587 --tls --auth-user noreply@acme.io "
             f"--auth-password '{p[15]}'", "password on a command line", "swaks --auth-password", p[15]),
        Case(f"echo body | mailx -S smtp=smtp://smtp.acme.io:587 -S smtp-auth=login -S smtp-auth-user=ada "
             f"-S smtp-auth-password='{p[16]}' -s test ops@acme.io", "password on a command line",
             "mailx -S smtp-auth-password", p[16]),
        Case(f"echo '{p[17]}' | kinit ada@ACME.LAN", "password on a command line", "kinit password on stdin", p[17]),
        Case(f"samba-tool user create ada '{p[18]}' --given-name=Ada --surname=Lovelace",
             "password on a command line", "samba-tool user create", p[18]),
        Case(f"(echo '{p[19]}'; echo '{p[19]}') | sudo smbpasswd -s -a ada", "password on a command line",
             "smbpasswd -s from a subshell", p[19]),
        Case(f"ncat --proxy proxy.acme.io:3128 --proxy-type http --proxy-auth ada:{s[11]} db.internal 5432",
             "password on a command line", "ncat --proxy-auth", s[11]),
        Case(f"openssl s_server -accept 8443 -nocert -psk {s_psk} -psk_identity backup", "password on a command line",
             "openssl s_server -psk hex", s_psk),
        Case(f"bore local 8080 --to bore.acme.io --secret {bore}", "password on a command line", "bore --secret", bore),
        Case(f"chisel client --auth tunnel:{s[12]} https://chisel.acme.io R:2222:localhost:22",
             "password on a command line", "chisel client --auth", s[12]),
        Case(f"transmission-remote nas.lan:9091 -n ada:{s[13]} -l", "password on a command line",
             "transmission-remote -n user:pass", s[13]),
        Case(f"xcrun altool --upload-app -f Shop.ipa -t ios -u ada@acme.io -p {apple}", "password on a command line",
             "xcrun altool app-specific password", apple),
        Case(f"Unity -batchmode -quit -serial {unity_serial} -username ci@acme.io -password '{p[20]}'",
             "password on a command line", "Unity -password", p[20]),
        Case(f"[zk: localhost:2181(CONNECTED) 0] addauth digest shop:{zk}", "password on a command line",
             "zkCli addauth digest", zk),
        Case(f"ab -n 1000 -c 20 -A ada:{s[14]} https://staging.acme.io/api/health", "password on a command line",
             "ApacheBench -A", s[14]),
        Case(f"/msg NickServ IDENTIFY acme_bot {s[15]}", "password on a command line", "IRC NickServ IDENTIFY",
             s[15]),
        Case(f"prosodyctl register ada chat.acme.io '{p[21]}'", "password on a command line", "prosodyctl register",
             p[21]),
        Case(f"docker run -d --name ch -e CLICKHOUSE_USER=shop -e CLICKHOUSE_PASSWORD={s[16]} "
             "clickhouse/clickhouse-server:24.8", "password on a command line", "docker run -e PASSWORD", s[16]),
        Case(f"docker build --build-arg NPM_TOKEN={g.mixed(ALNUM, 36)} --build-arg ADMIN_PASS={s[17]} -t shop .",
             "password on a command line", "docker build --build-arg", s[17]),
        Case(f"openstack --os-auth-url https://keystone.acme.io:5000/v3 --os-username ada --os-password '{p[22]}' "
             "--os-project-name shop server list", "password on a command line", "openstack --os-password", p[22]),
        Case(f"mkstore -wrl /u01/wallet -createCredential PRODDB shop '{p[23]}'", "password on a command line",
             "Oracle mkstore -createCredential", p[23]),
        Case(f"echo '{h[3]}' > ~/.vault_pass && chmod 600 ~/.vault_pass\n"
             "ansible-vault edit group_vars/prod/vault.yml --vault-password-file ~/.vault_pass",
             "password on a command line", "ansible vault password file written with echo", h[3]),
        Case(f"KOPIA_PASSWORD='{p[24]}' kopia repository connect s3 --bucket=acme-backup --access-key=$AK "
             "--secret-access-key=$SK", "password on a command line", "KOPIA_PASSWORD prefix", p[24]),
        Case(f"export GOVC_URL=https://vcenter.acme.lan\nexport GOVC_USERNAME=ada@vsphere.local\n"
             f"export GOVC_PASSWORD='{p[25]}'\ngovc ls /dc1/vm", "password assignment", "govc GOVC_PASSWORD", p[25]),
        Case(f"vncpasswd -f <<< '{p[26][:8]}' > ~/.vnc/passwd", "password on a command line",
             "vncpasswd -f here-string", p[26][:8]),
        Case(f"sudo -u postgres psql -c \"ALTER ROLE shop WITH LOGIN PASSWORD '{p[27]}'\"",
             "password on a command line", "psql -c ALTER ROLE PASSWORD", p[27]),
        Case(f"rcon-cli --host mc.acme.io --port 25575 --password {s[18]} 'whitelist add ada'",
             "password on a command line", "rcon-cli --password", s[18]),
        Case(f"export UPCLOUD_USERNAME=acme-api\nexport UPCLOUD_PASSWORD='{p[28]}'\nupctl server list",
             "password assignment", "UpCloud UPCLOUD_PASSWORD", p[28]),
    ]  # fmt: skip


def _urls(g: Gen) -> list[Case]:
    """Passwords and tokens in URLs of schemes and services no other part has."""
    u = [_up(g) for _ in range(19)]
    serp = g.chars(HEX, 64)
    here = g.mixed(B64URL, 43)
    alpha = g.chars(_UPPER_ALNUM, 16)
    pipedrive = g.chars(HEX, 40)
    namecheap = g.chars(HEX, 32)
    duck = g.uuid()
    plex = g.mixed(ALNUM + "_-", 20)
    motherduck = _jwt(g, {"alg": "HS256", "typ": "JWT"}, {"session": "ada.acme.io", "email": "ada@acme.io",
                                                           "userId": g.uuid(), "iat": 1736000000}, 32)  # fmt: skip
    accelerate = _jwt(g, {"alg": "HS256", "typ": "JWT"}, {"api_key": g.uuid(), "tenant_id": g.chars(HEX, 64),
                                                           "internal_secret": g.uuid()}, 32)  # fmt: skip
    uptrace = g.mixed(B64URL, 22)
    jenkins = g.mixed(ALNUM, 24)
    gotify = "A" + g.mixed(ALNUM + "._-", 14)
    nwc = g.chars(HEX, 64)
    steam = g.chars(_HEX_UPPER, 32)
    return [
        Case(f"VALKEY_URL=valkey://default:{u[0]}@cache.acme.io:6379/0", "URL with a password", "valkey:// URL", u[0]),
        Case(f'dsn := "sqlserver://shop:{u[1]}@mssql.acme.io:1433?database=shop&encrypt=true"', "URL with a password",
             "sqlserver:// URL (go-mssqldb)", u[1]),
        Case(f'engine = create_engine("trino://ada:{u[2]}@trino.acme.io:443/hive/default")', "URL with a password",
             "trino:// URL", u[2]),
        Case(f"hive://etl:{u[3]}@hive.acme.io:10000/default?auth=LDAP", "URL with a password", "hive:// URL (PyHive)",
             u[3]),
        Case(f"r.connect(url='rethinkdb://admin:{u[4]}@rdb.acme.io:28015/shop')", "URL with a password",
             "rethinkdb:// URL", u[4]),
        Case(f"BROKER_URL=stomp://shop:{u[5]}@mq.acme.io:61613", "URL with a password", "stomp:// URL", u[5]),
        Case(f"ansible_host: ssh://deploy:{u[6]}@10.0.0.5:2222", "URL with a password", "ssh:// URL with a password",
             u[6]),
        Case(f"fetch imaps://ada%40acme.io:{u[7]}@imap.acme.io:993/INBOX", "URL with a password", "imaps:// URL", u[7]),
        Case(f"pop3s://ada:{u[8]}@pop.acme.io:995", "URL with a password", "pop3s:// URL", u[8]),
        Case(f"const ws = new WebSocket('wss://feed:{u[9]}@stream.acme.io/v1/ticks');", "URL with a password",
             "wss:// URL with credentials", u[9]),
        Case(f"irc://acme_bot:{u[10]}@irc.libera.chat:6697/#acme-ops", "URL with a password", "irc:// URL", u[10]),
        Case(f"mysqlsh --uri mysqlx://shop:{u[11]}@db.acme.io:33060/shop", "URL with a password", "mysqlx:// URL",
             u[11]),
        Case(f"GEL_DSN=edgedb://edgedb:{u[12]}@gel.acme.io:5656/main", "URL with a password", "edgedb:// DSN", u[12]),
        Case(f"NEO4J_URI=neo4j+s://neo4j:{u[13]}@{g.chars(HEX, 8)}.databases.neo4j.io", "URL with a password",
             "neo4j+s:// URL", u[13]),
        Case(f"open 'afp://ada:{u[14]}@nas.local/Backups'", "URL with a password", "afp:// URL (macOS open)", u[14]),
        Case(f'Acquire::http::Proxy "http://ada:{u[15]}@proxy.acme.io:3128/";', "URL with a password",
             "apt.conf Acquire::http::Proxy", u[15]),
        Case(f"curl 'https://ada:{u[16]}@dynupdate.no-ip.com/nic/update?hostname=home.acme.io&myip=203.0.113.7'",
             "URL with a password", "No-IP update URL", u[16]),
        Case(f"GOPROXY=https://ci:{u[17]}@athens.acme.io,direct\nGONOSUMDB=git.acme.io", "URL with a password",
             "GOPROXY with credentials", u[17]),
        Case(f'apprise -vv -b "backup done" "mailtos://ada:{u[18]}@smtp.acme.io?to=ops@acme.io"',
             "URL with a password", "Apprise mailtos:// URL", u[18]),
        Case(f"https://serpapi.com/search.json?engine=google&q=coffee&location=Austin&api_key={serp}",
             "URL with a token", "SerpApi api_key URL", serp),
        Case(f"https://geocode.search.hereapi.com/v1/geocode?q=5+Rue+Daunou+Paris&apiKey={here}", "URL with a token",
             "HERE apiKey URL", here),
        Case(f"https://www.alphavantage.co/query?function=TIME_SERIES_DAILY&symbol=IBM&apikey={alpha}",
             "URL with a token", "Alpha Vantage apikey URL", alpha),
        Case(f"https://acme.pipedrive.com/api/v1/deals?status=open&api_token={pipedrive}", "URL with a token",
             "Pipedrive api_token URL", pipedrive),
        Case(f"https://api.namecheap.com/xml.response?ApiUser=acme&ApiKey={namecheap}&UserName=acme"
             "&Command=namecheap.domains.getList&ClientIp=203.0.113.7", "URL with a token", "Namecheap ApiKey URL",
             namecheap),
        Case(f"*/5 * * * * curl -s 'https://www.duckdns.org/update?domains=acme-home&token={duck}&ip='",
             "URL with a token", "DuckDNS update URL in crontab", duck),
        Case(f"http://192.168.1.20:32400/library/sections/1/all?X-Plex-Token={plex}", "URL with a token",
             "Plex X-Plex-Token URL", plex),
        Case(f"con = duckdb.connect('md:shop?motherduck_token={motherduck}')", "URL with a token",
             "MotherDuck md: token", motherduck),
        Case(f'DATABASE_URL="prisma://accelerate.prisma-data.net/?api_key={accelerate}"', "URL with a token",
             "Prisma Accelerate api_key URL", accelerate),
        Case(f"UPTRACE_DSN=https://{uptrace}@api.uptrace.dev?grpc=4317", "URL with a token", "Uptrace DSN", uptrace),
        Case(f"curl -X POST 'https://ci.acme.io/job/shop-deploy/buildWithParameters?token={jenkins}&ENV=prod'",
             "URL with a token", "Jenkins remote build token URL", jenkins),
        Case(f'curl "https://push.acme.io/message?token={gotify}" -F "title=backup" -F "message=done"',
             "URL with a token", "Gotify message token URL", gotify),
        Case(f"NWC_URL=nostr+walletconnect://{g.chars(HEX, 64)}?relay=wss%3A%2F%2Frelay.getalby.com%2Fv1"
             f"&secret={nwc}", "URL with a token", "Nostr Wallet Connect URI secret", nwc),
        Case(f"https://api.steampowered.com/ISteamUser/GetPlayerSummaries/v2/?key={steam}&steamids=7656119"
             f"{g.digits(10)}", "URL with a token", "Steam Web API key URL", steam),
    ]  # fmt: skip


def _webhooks(g: Gen) -> list[Case]:
    """Deploy hooks, automation and alerting webhooks no other part has."""
    pipedream = "eo" + g.chars(_LOWER_ALNUM, 30)
    make = g.chars(_LOWER_ALNUM, 32)
    n8n = g.uuid()
    vercel = g.mixed(ALNUM, 10)
    netlify = g.chars(HEX, 24)
    pages = g.uuid()
    webex = g.b64url(f"ciscospark://urn:TEAM:eu-central-1_k/WEBHOOK/{g.uuid()}".encode())
    flock = g.uuid()
    victorops = g.uuid()
    squadcast = g.chars(HEX, 40)
    oncall = g.mixed(ALNUM, 25)
    guilded = g.mixed(B64URL, 86)
    hass = "-".join(g.mixed(ALNUM, 8) for _ in range(3))
    kuma = g.mixed(ALNUM, 10)
    routing = g.chars(HEX, 32)
    return [
        Case(f"curl -d '{{\"order\": 42}}' https://{pipedream}.m.pipedream.net", "webhook URL",
             "Pipedream HTTP source URL", pipedream),
        Case(f"MAKE_WEBHOOK=https://hook.eu1.make.com/{make}", "webhook URL", "Make.com custom webhook", make),
        Case(f"POST https://n8n.acme.io/webhook/{n8n} with the form payload", "webhook URL", "n8n production webhook",
             n8n),
        Case(f"curl -X POST https://api.vercel.com/v1/integrations/deploy/prj_{g.mixed(ALNUM, 28)}/{vercel}",
             "webhook URL", "Vercel deploy hook", vercel),
        Case(f"curl -X POST -d {{}} https://api.netlify.com/build_hooks/{netlify}", "webhook URL",
             "Netlify build hook", netlify),
        Case(f"curl -X POST https://api.cloudflare.com/client/v4/pages/webhooks/deploy_hooks/{pages}", "webhook URL",
             "Cloudflare Pages deploy hook", pages),
        Case(f"WEBEX_INCOMING=https://webexapis.com/v1/webhooks/incoming/{webex}", "webhook URL",
             "Webex incoming webhook", webex),
        Case(f"https://api.flock.com/hooks/sendMessage/{flock}", "webhook URL", "Flock incoming webhook", flock),
        Case(f"https://alert.victorops.com/integrations/generic/20131114/alert/{victorops}/ops-routing",
             "webhook URL", "Splunk On-Call REST endpoint", victorops),
        Case(f"https://api.squadcast.com/v2/incidents/api/{squadcast}", "webhook URL", "Squadcast incident webhook",
             squadcast),
        Case(f"  webhook_configs:\n    - url: https://oncall-prod-eu-west-0.grafana.net/oncall/integrations/v1/"
             f"alertmanager/{oncall}/", "webhook URL", "Grafana OnCall Alertmanager integration", oncall),
        Case(f"https://media.guilded.gg/webhooks/{g.uuid()}/{guilded}", "webhook URL", "Guilded webhook", guilded),
        Case(f"curl -X POST https://ha.acme.io/api/webhook/{hass} -d 'state=arrived'", "webhook URL",
             "Home Assistant webhook id", hass),
        Case(f"*/1 * * * * curl -fsS 'https://status.acme.io/api/push/{kuma}?status=up&msg=OK&ping='",
             "webhook URL", "Uptime Kuma push URL", kuma),
        Case(f"receivers:\n  - name: pager\n    pagerduty_configs:\n      - routing_key: {routing}\n"
             "        severity: critical", "secret assignment", "Alertmanager pagerduty routing_key", routing),
    ]  # fmt: skip


def _ec_pkcs8(g: Gen) -> bytes:
    """DER of a random PKCS#8 P-256 private key (with its public point)."""
    head = bytes.fromhex("308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420")
    return head + g.rng.randbytes(32) + bytes.fromhex("a14403420004") + g.rng.randbytes(64)


def _keys(g: Gen) -> list[Case]:
    """Key files and key material in layouts no other part has."""
    sigstore_json = json.dumps({"kdf": {"name": "scrypt", "params": {"N": 65536, "r": 8, "p": 1},
                                        "salt": g.b64_bytes(32)},
                                "cipher": {"name": "nacl/secretbox", "nonce": g.b64_bytes(24)},
                                "ciphertext": g.b64_bytes(97)}, separators=(",", ":"))  # fmt: skip
    sigstore = _lines(_b64(sigstore_json))
    kp_hex = g.chars(_HEX_UPPER, 64)
    kp_lines = "\n".join(" ".join(kp_hex[i + j : i + j + 8] for j in range(0, 32, 8)) for i in (0, 32))
    kp_text = "\n".join("            " + line for line in kp_lines.split("\n"))
    borg_blob = bytes.fromhex("85a9616c676f726974686da6736861323536a464617461da01b0") + g.rng.randbytes(432)
    borg = _lines(base64.b64encode(borg_blob).decode(), 76)
    synapse = g.b64_bytes(32).rstrip("=")
    libp2p = base64.b64encode(b"\x08\x01\x12\x40" + g.rng.randbytes(64)).decode()
    headscale = "privkey:" + g.chars(HEX, 64)
    vapid = g.b64url(g.rng.randbytes(32))
    rsa_der = bytes.fromhex("3082025c02010002818100") + g.rng.randbytes(600)
    rsa = _lines(base64.b64encode(rsa_der).decode())
    ec8 = _lines(base64.b64encode(_ec_pkcs8(g)).decode())
    ec8_env = "\\n".join(ec8.split("\n"))
    tls_body = _lines(base64.b64encode(_ec_pkcs8(g)).decode())
    tls_pem = f"-----BEGIN PRIVATE KEY-----\n{tls_body}\n-----END PRIVATE KEY-----\n"
    tls_key = _b64(tls_pem)
    sec1_der = (
        bytes.fromhex("30770201010420")
        + g.rng.randbytes(32)
        + bytes.fromhex("a00a06082a8648ce3d030107a14403420004")
        + g.rng.randbytes(64)
    )
    sec1 = _lines(base64.b64encode(sec1_der).decode())
    rsa8_head = bytes.fromhex("308204bd020100300d06092a864886f70d0101010500048204a7")
    pkcs8_rsa = base64.b64encode(rsa8_head + g.rng.randbytes(1191)).decode()
    openssh = _lines(base64.b64encode(b"openssh-key-v1\x00" + g.rng.randbytes(370)).decode(), 70)
    pgp_body = _lines(base64.b64encode(b"\x95\x03\xc6" + g.rng.randbytes(900)).decode())
    pgp_crc = g.mixed(B64, 4)
    pgp = f"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{pgp_body}\n={pgp_crc}\n-----END PGP PRIVATE KEY BLOCK-----\n"
    pgp_b64 = _b64(pgp)
    routeros = g.b64_bytes(32)
    uci = g.b64_bytes(32)
    psk = g.b64_bytes(32)
    return [
        Case(f"-----BEGIN ENCRYPTED SIGSTORE PRIVATE KEY-----\n{sigstore}\n"
             "-----END ENCRYPTED SIGSTORE PRIVATE KEY-----",
             "PEM private key", "cosign.key (encrypted Sigstore key)", sigstore),
        Case(f'<?xml version="1.0" encoding="utf-8"?>\n<KeyFile>\n    <Meta>\n        <Version>2.0</Version>\n'
             f'    </Meta>\n    <Key>\n        <Data Hash="{g.chars(_HEX_UPPER, 8)}">\n{kp_text}\n        </Data>\n'
             "    </Key>\n</KeyFile>", "private key", "KeePass 2.0 key file", kp_lines),
        Case(f"$ cat ~/.config/borg/keys/srv_backup\nBORG_KEY {g.chars(HEX, 64)}\n{borg}", "private key",
             "Borg repository key file", borg),
        Case(f"$ cat /data/acme.io.signing.key\ned25519 a_{g.mixed(ALNUM, 4)} {synapse}", "private key",
             "Synapse signing.key", synapse),
        Case(f'  "Identity": {{\n    "PeerID": "12D3KooW{g.chars(_BASE58, 44)}",\n    "PrivKey": "{libp2p}"\n  }},',
             "private key", "IPFS config Identity.PrivKey", libp2p),
        Case(f"$ sudo cat /var/lib/headscale/noise_private.key\n{headscale}", "private key",
             "Headscale noise private key", headscale),
        Case(f"VAPID_PRIVATE_KEY={vapid}\nVAPID_PUBLIC_KEY=B{g.mixed(B64URL, 86)}", "private key",
             "Mastodon VAPID_PRIVATE_KEY", vapid),
        Case('variable "github_app_key" {\n  type    = string\n  default = <<-EOT\n'
             "    -----BEGIN RSA PRIVATE KEY-----\n"
             + "\n".join("    " + line for line in rsa.split("\n")) + "\n    -----END RSA PRIVATE KEY-----\n  EOT\n}",
             "PEM private key", "PEM in a Terraform heredoc default", rsa),
        Case(f'FIREBASE_CLIENT_EMAIL=push@acme-shop.iam.gserviceaccount.com\nFIREBASE_PRIVATE_KEY="-----BEGIN PRIVATE '
             f'KEY-----\\n{ec8_env}\\n-----END PRIVATE KEY-----\\n"', "PEM private key",
             "PEM in a dotenv value with \\n escapes", ec8),
        Case(f"apiVersion: v1\nkind: Secret\ntype: kubernetes.io/tls\nmetadata:\n  name: shop-tls\ndata:\n"
             f"  tls.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t{g.mixed(B64, 40)}\n  tls.key: {tls_key}",
             "private key", "Kubernetes TLS secret tls.key", tls_key),
        Case("ingress:\n  tls:\n    enabled: true\n    key: |\n      -----BEGIN EC PRIVATE KEY-----\n"
             + "\n".join("      " + line for line in sec1.split("\n")) + "\n      -----END EC PRIVATE KEY-----",
             "PEM private key", "SEC1 EC key in Helm values block scalar", sec1),
        Case(f'PrivateKey key = KeyFactory.getInstance("RSA").generatePrivate(\n    new PKCS8EncodedKeySpec('
             f'Base64.getDecoder().decode("{pkcs8_rsa}")));', "private key",
             "PKCS#8 base64 in Java PKCS8EncodedKeySpec", pkcs8_rsa),
        Case("#cloud-config\nssh_keys:\n  ed25519_private: |\n    -----BEGIN OPENSSH PRIVATE KEY-----\n"
             + "\n".join("    " + line for line in openssh.split("\n"))
             + f"\n    -----END OPENSSH PRIVATE KEY-----\n  ed25519_public: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI"
             f"{g.mixed(B64, 43)} root@web1", "PEM private key", "cloud-init ssh_keys host key", openssh),
        Case(f"GPG_PRIVATE_KEY={pgp_b64}\nGPG_PASSPHRASE_FILE=/run/secrets/gpg", "private key",
             "base64 of an armored PGP private key", pgp_b64),
        Case(f'/interface wireguard add listen-port=13231 mtu=1420 name=wg0 private-key="{routeros}"',
             "private key", "RouterOS WireGuard private-key", routeros),
        Case(f"config interface 'wg0'\n\toption proto 'wireguard'\n\toption private_key '{uci}'\n"
             "\tlist addresses '10.8.0.1/24'", "private key", "OpenWrt UCI WireGuard private_key", uci),
        Case(f"[WireGuardPeer]\nPublicKey={g.b64_bytes(32)}\nPresharedKey={psk}\nAllowedIPs=10.8.0.2/32",
             "secret assignment", "systemd-networkd .netdev PresharedKey", psk),
    ]  # fmt: skip


def _wallets(g: Gen) -> list[Case]:
    """Wallet keys of more chains and tools, and seed phrases of more wordlists and layouts."""
    hardhat = g.chars(HEX, 64)
    cast = g.chars(HEX, 64)
    btc_wif = _wif(g, g.pick(["K", "L"]))
    doge = _wif(g, "Q")
    zcash = "secret-extended-key-main1" + g.chars(_BECH32, 260)
    lotus = json.dumps({"Type": "secp256k1", "PrivateKey": g.b64_bytes(32)}, separators=(",", ":")).encode().hex()
    stark = "0x0" + g.chars(HEX, 63)
    mina = "EK" + g.chars(_BASE58, 50)
    flow = g.chars(HEX, 64)
    tron = g.chars(HEX, 64)
    web3 = g.chars(HEX, 64)
    xprv = "xprv9s21ZrQH143K" + g.chars(_BASE58, 95)
    hsm = g.chars(HEX, 64)
    cosmos = base64.b64encode(g.rng.randbytes(72)).decode()
    slip39 = _words(g, _SLIP39, 20)
    monero24 = _words(g, _MONERO, 24)
    monero = monero24 + " " + monero24.split()[g.rng.randrange(24)]
    electrum = _words(g, _BIP39, 12)
    polkadot = _words(g, _BIP39, 12)
    gaia = _words(g, _BIP39, 24)
    hh_seed = _words(g, _BIP39, 12)
    grid_words = _words(g, _BIP39, 24).split()
    grid = "\n".join("   ".join(f"{r + 8 * c + 1:>2}. {grid_words[r + 8 * c]:<9}" for c in range(3)).rstrip()
                     for r in range(8))  # fmt: skip
    ko = _words(g, _BIP39, 12)
    tr = _words(g, _BIP39, 12)
    fr = _words(g, _BIP39_FR, 12)
    with25 = _words(g, _BIP39, 24)
    ton_words = _words(g, _BIP39, 24).split()
    ton = "[" + ", ".join(f'"{w}"' for w in ton_words) + "]"
    return [
        Case(f"networks: {{\n  sepolia: {{\n    url: process.env.SEPOLIA_RPC,\n"
             f"    accounts: [\"0x{hardhat}\"],\n  }},\n}},",
             "wallet private key", "Hardhat config accounts array", hardhat),
        Case(f"cast send 0x{g.chars(HEX, 40)} 'transfer(address,uint256)' 0x{g.chars(HEX, 40)} 1000000 "
             f"--private-key 0x{cast} --rpc-url $RPC", "wallet private key", "Foundry cast --private-key", cast),
        Case(f'bitcoin-cli -rpcwallet=cold importprivkey {btc_wif} "cold-1" false', "wallet private key",
             "bitcoin-cli importprivkey", btc_wif),
        Case(f"doge paper wallet, private key (WIF): {doge}", "wallet private key", "Dogecoin WIF", doge),
        Case(f'zcash-cli z_importkey "{zcash}" whenkeyisnew', "wallet private key", "Zcash Sapling spending key",
             zcash),
        Case(f"echo {lotus} | lotus wallet import", "wallet private key", "Filecoin lotus wallet export hex", lotus),
        Case(f"starkli account deploy ./account.json --private-key {stark} --network mainnet",
             "wallet private key", "starkli --private-key", stark),
        Case(f"MINA_PRIVATE_KEY={mina}", "wallet private key", "Mina EK private key", mina),
        Case(f'"accounts": {{\n  "mainnet-acme": {{\n    "address": "{g.chars(HEX, 16)}",\n'
             f'    "key": "{flow}"\n  }}\n}}',
             "wallet private key", "Flow CLI flow.json key", flow),
        Case(f"const tronWeb = new TronWeb({{ fullHost: 'https://api.trongrid.io', privateKey: '{tron}' }});",
             "wallet private key", "TronWeb privateKey", tron),
        Case(f'acct = Account.from_key("0x{web3}")\nprint(acct.address)', "wallet private key",
             "web3.py Account.from_key", web3),
        Case(f"bitcoin-cli importdescriptors '[{{\"desc\": \"wpkh({xprv}/84h/0h/0h/0/*)#{g.chars(_BECH32, 8)}\", "
             "\"timestamp\": \"now\", \"active\": true}]'", "wallet private key", "xprv inside an output descriptor",
             xprv),
        Case(f"$ xxd -p ~/.lightning/bitcoin/hsm_secret\n{hsm[:60]}\n{hsm[60:]}", "wallet private key",
             "Core Lightning hsm_secret hex dump", f"{hsm[:60]}\n{hsm[60:]}"),
        Case(f"-----BEGIN TENDERMINT PRIVATE KEY-----\nkdf: bcrypt\nsalt: {g.chars(_HEX_UPPER, 32)}\n"
             "type: secp256k1\n\n"
             f"{cosmos}\n={g.mixed(B64, 4)}\n-----END TENDERMINT PRIVATE KEY-----", "wallet private key",
             "Cosmos keyring armored export", cosmos),
        Case(f"Shamir backup, share 1 of 3 (SLIP-39, threshold 2):\n{slip39}", "seed phrase",
             "SLIP-39 share (20 words)", slip39),
        Case(f"$ monero-wallet-cli --restore-deterministic-wallet\nSpecify Electrum seed: {monero}", "seed phrase",
             "Monero 25-word seed", monero),
        Case(f"electrum restore -w ~/.electrum/wallets/cold '{electrum}'", "seed phrase",
             "electrum restore on a command line", electrum),
        Case(f'subkey inspect "{polkadot}//stash"', "seed phrase", "Polkadot mnemonic with derivation path",
             polkadot),
        Case(f'echo "{gaia}" | gaiad keys add ada --recover --keyring-backend file', "seed phrase",
             "gaiad keys add --recover pipe", gaia),
        Case(f'  accounts: {{\n    mnemonic: "{hh_seed}",\n    path: "m/44\'/60\'/0\'/0",\n    count: 10,\n  }},',
             "seed phrase", "Hardhat accounts mnemonic", hh_seed),
        Case(grid, "seed phrase", "24 words in a 3-column grid", grid),
        Case(f"지갑 복구 문구 여기 적어둘게요: {ko}", "seed phrase", "seed phrase in prose (Korean)", ko),
        Case(f"cüzdanın kurtarma kelimeleri şunlar: {tr}", "seed phrase", "seed phrase in prose (Turkish)", tr),
        Case(f"phrase de récupération (liste française) : {fr}", "seed phrase", "BIP39 French wordlist seed", fr),
        Case(f"seed: {with25}\npassphrase (25th word): {_hu(g)}", "seed phrase", "seed with a 25th-word passphrase",
             with25),
        Case(f"TONKEEPER_WORDS = {ton}", "seed phrase", "seed phrase as a Python list", ton),
    ]  # fmt: skip


def _prose(g: Gen) -> list[Case]:
    """Passwords, PINs, recovery keys and passphrases in prose of languages and phrasings no other part has."""
    p = [_pw(g) for _ in range(36)]
    h = [_hu(g) for _ in range(10)]
    langs = [
        ("heslo na wifi v kancelárii je {}", "Slovak"),
        ("geslo za strežnik je {}", "Slovenian"),
        ("лозинка за рутер је {}", "Serbian"),
        ("serverio slaptažodis: {}", "Lithuanian"),
        ("datubāzes parole ir {}", "Latvian"),
        ("lykilorðið að þráðlausa netinu er {}", "Icelandic"),
        ("y cyfrinair ar gyfer y gweinydd yw {}", "Welsh"),
        ("is é {} an pasfhocal don bhunachar sonraí", "Irish"),
        ("zerbitzariaren pasahitza {} da", "Basque"),
        ("o contrasinal da wifi é {}", "Galician"),
        ("fjalëkalimi i serverit është {}", "Albanian"),
        ("лозинката за базата е {}", "Macedonian"),
        ("пароль ад сервера: {}", "Belarusian"),
        ("სერვერის პაროლია {}", "Georgian"),
        ("սերվերի գաղտնաբառն է՝ {}", "Armenian"),
        ("wifi şifrəsi belədir: {}", "Azerbaijani"),
        ("сервердің құпиясөзі: {}", "Kazakh"),
        ("serverning paroli: {}", "Uzbek"),
        ("серверийн нууц үг: {}", "Mongolian"),
        ("সার্ভারের পাসওয়ার্ড হলো {}", "Bengali"),
        ("சர்வர் கடவுச்சொல்: {}", "Tamil"),
        ("సర్వర్ పాస్‌వర్డ్: {}", "Telugu"),
        ("सर्व्हरचा पासवर्ड {} आहे", "Marathi"),
        ("سرور کا پاس ورڈ {} ہے", "Urdu"),
        ("ਸਰਵਰ ਦਾ ਪਾਸਵਰਡ {} ਹੈ", "Punjabi"),
        ("सर्भरको पासवर्ड {} हो", "Nepali"),
        ("සර්වරයේ මුරපදය {}", "Sinhala"),
        ("ဝိုင်ဖိုင် စကားဝှက်က {} ပါ", "Burmese"),
        ("ពាក្យសម្ងាត់ wifi គឺ {}", "Khmer"),
        ("ລະຫັດຜ່ານ wifi ແມ່ນ {}", "Lao"),
        ("kata laluan pelayan ialah {}", "Malay"),
        ("የሰርቨሩ የይለፍ ቃል {} ነው", "Amharic"),
        ("kalmar sirri ta wifi ita ce {}", "Hausa"),
        ("iphasiwedi ye-wifi ithi {}", "Zulu"),
        ("die wagwoord vir die bediener is {}", "Afrikaans"),
        ("il-password tas-server hija {}", "Maltese"),
        ("la pasvorto de la servilo estas {}", "Esperanto"),
        ("d'Passwuert vum Server ass {}", "Luxembourgish"),
        ("modpas wifi a se {}", "Haitian Creole"),
    ]
    pool = p + h
    cases = [Case(text.format(pool[i]), "password assignment", f"password in prose ({lang})", pool[i])
             for i, (text, lang) in enumerate(langs)]  # fmt: skip
    puk, alarm, door, kp, bios = g.digits(8), g.digits(6), g.digits(6), g.digits(6), _pw(g)
    bitlocker = "-".join(g.chars(DIGITS, 6) for _ in range(8))
    filevault = "-".join(g.chars(_UPPER_ALNUM, 4) for _ in range(6))
    onepw = "A3-" + "-".join([g.chars(_UPPER_ALNUM, 6), g.chars(_UPPER_ALNUM, 6)]
                             + [g.chars(_UPPER_ALNUM, 5) for _ in range(4)])  # fmt: skip
    gmail = " ".join(g.chars(LOWER, 4) for _ in range(4))
    bsky = "-".join(g.chars(_LOWER_ALNUM, 4) for _ in range(4))
    luks, gpg_pp, bw_master, kdbx = _phrase(g, 5), _phrase(g, 6, "-"), _phrase(g, 4, "."), _phrase(g, 5)
    wifi_qr, hinglish, viet, polish, korean, turkish, otp = _hu(g), _pw(g), _hu(g), _pw(g), _hu(g), _hu(g), _pw(g)
    cases += [
        Case(f"bhai, server ka password {hinglish} hai, kisi ko mat batana", "password assignment",
             "password in prose (Hindi in Latin script)", hinglish),
        Case(f"mat khau wifi la {viet} nhe", "password assignment", "password in prose (Vietnamese without diacritics)",
             viet),
        Case(f"hasło do VPN-a wrzucam tu na chwilę: {polish}", "password assignment", "VPN password in chat (Polish)",
             polish),
        Case(f"회사 와이파이 비번 {korean} 이에요", "password assignment", "wifi 비번 in chat (Korean)", korean),
        Case(f"modemin arayüz şifresini {turkish} yaptım", "password assignment", "router password set (Turkish)",
             turkish),
        Case(f"the PUK for the office SIM is {puk} if it locks again", "password assignment", "SIM PUK in prose",
             puk),
        Case(f"alarm disarm code: {alarm}, then press OFF", "password assignment", "alarm code in prose", alarm),
        Case(f"garage keypad is {door}# — it changed last week", "password assignment", "door keypad code in prose",
             door),
        Case(f"Signal registration lock PIN: {kp}", "password assignment", "Signal PIN in prose", kp),
        Case(f"UEFI supervisor password on the lab laptops is {bios}", "password assignment",
             "BIOS/UEFI password in prose", bios),
        Case(f"BitLocker recovery key for LT-0042:\n{bitlocker}", "password assignment", "BitLocker recovery key",
             bitlocker),
        Case(f"FileVault recovery key (ada's MacBook): {filevault}", "password assignment", "FileVault recovery key",
             filevault),
        Case(f"1Password Secret Key from the Emergency Kit: {onepw}", "secret assignment", "1Password Secret Key",
             onepw),
        Case(f"the Gmail app password for the scanner is {gmail}", "password assignment",
             "Google app password (spaced groups)", gmail),
        Case(f"Bluesky app password for the bot: {bsky}", "password assignment", "Bluesky app password", bsky),
        Case(f"WIFI:T:WPA;S:Acme-Guest;P:{wifi_qr};H:false;;", "password assignment", "Wi-Fi QR code payload",
             wifi_qr),
        Case(f"the LUKS passphrase for the backup disk is: {luks}", "password assignment",
             "multi-word passphrase (LUKS, spaces)", luks),
        Case(f"GPG key passphrase (diceware, six words): {gpg_pp}", "password assignment",
             "multi-word passphrase (dashes)", gpg_pp),
        Case(f"Bitwarden master password is {bw_master} — do not put it in the wiki", "password assignment",
             "multi-word passphrase (dots)", bw_master),
        Case(f"vault.kdbx opens with “{kdbx}”", "password assignment", "multi-word passphrase in curly quotes", kdbx),
        Case(f"Your one-time password is {otp}. It expires in 24 hours and can be used once.", "password assignment",
             "one-time password email", otp),
    ]  # fmt: skip
    return cases


def _code(g: Gen) -> list[Case]:
    """Passwords and keys in code of more languages, SQL, infrastructure code, exports and dumps."""
    p = [_pw(g) for _ in range(44)]
    h = [_hu(g) for _ in range(4)]
    julia = g.mixed(ALNUM, 40)
    fish = g.mixed(ALNUM, 36)
    nu = g.mixed(B64URL, 40)
    csh = g.mixed(ALNUM, 32)
    just = g.mixed(ALNUM, 40)
    task = g.mixed(ALNUM, 32)
    devc = g.mixed(ALNUM, 40)
    notebook = g.mixed(ALNUM, 48)
    log = g.mixed(ALNUM, 32)
    dsecret = g.mixed(B64.replace("/", ""), 40)
    sf_secret = g.mixed(B64.replace("/", ""), 40)
    rs_secret = g.mixed(B64.replace("/", ""), 40)
    spark = g.b64_bytes(64)
    arg = g.mixed(ALNUM, 36)
    return [
        Case(f'const char* ssid = "Acme-IoT";\nconst char* password = "{h[0]}";\n\nvoid setup() {{\n'
             "  WiFi.begin(ssid, password);\n}", "password assignment", "Arduino WiFi credentials", h[0]),
        Case(f"wlan = network.WLAN(network.STA_IF)\nwlan.active(True)\nwlan.connect('Acme-IoT', '{h[1]}')",
             "password assignment", "MicroPython wlan.connect", h[1]),
        Case(f'NSURLCredential *cred = [NSURLCredential credentialWithUser:@"ada" password:@"{p[0]}" '
             "persistence:NSURLCredentialPersistenceForSession];", "password assignment",
             "Objective-C NSURLCredential", p[0]),
        Case(f'.Item("http://schemas.microsoft.com/cdo/configuration/sendusername") = "reports@acme.io"\n'
             f'.Item("http://schemas.microsoft.com/cdo/configuration/sendpassword") = "{p[1]}"',
             "password assignment", "VBA CDO sendpassword", p[1]),
        Case(f"FDConnection1.Params.UserName := 'shop';\nFDConnection1.Params.Password := '{p[2]}';",
             "password assignment", "Delphi FireDAC Params.Password", p[2]),
        Case(f'do shell script "launchctl kickstart -k system/io.acme.agent" user name "ada" password "{p[3]}" '
             "with administrator privileges", "password assignment", "AppleScript do shell script password", p[3]),
        Case(f'(setq erc-nick "acme_bot"\n      erc-password "{p[4]}")', "password assignment",
             "Emacs Lisp erc-password", p[4]),
        Case(f"conn = database('shop', 'analyst', '{p[5]}', 'Vendor', 'PostgreSQL', 'Server', 'db.acme.io');",
             "password assignment", "MATLAB database()", p[5]),
        Case(f'libname dw postgres server="db.acme.io" database=shop user=analyst password="{p[6]}";',
             "password assignment", "SAS libname password=", p[6]),
        Case(f'ENV["HF_ENDPOINT"] = "https://hub.acme.io"\nENV["ACME_API_TOKEN"] = "{julia}"', "secret assignment",
             "Julia ENV assignment", julia),
        Case(f'conn <- connect defaultConnectInfo {{ connectHost = "db", connectUser = "shop", '
             f'connectPassword = "{p[7]}", connectDatabase = "shop" }}', "password assignment",
             "Haskell ConnectInfo connectPassword", p[7]),
        Case(f'[{{shop, [{{db, [{{host, "db.acme.io"}}, {{user, "shop"}}, {{password, "{p[8]}"}}]}}]}}].',
             "password assignment", "Erlang sys.config password tuple", p[8]),
        Case(f'credentials += Credentials("Sonatype Nexus Repository Manager", "nexus.acme.io", "ci", "{p[9]}")',
             "password assignment", "sbt Credentials(...)", p[9]),
        Case(f':repositories [["private" {{:url "https://maven.acme.io/releases"\n'
             f'                             :username "ci" :password "{p[10]}"}}]]',
             "password assignment", "Leiningen :repositories :password", p[10]),
        Case(f'repositories {{\n    maven {{\n        url = uri("https://maven.acme.io/releases")\n'
             "        credentials {\n"
             f'            username = "ci"\n            password = "{p[11]}"\n        }}\n    }}\n}}',
             "password assignment", "Gradle Kotlin DSL repository credentials", p[11]),
        Case(f"set -gx ACME_API_TOKEN {fish}", "secret assignment", "fish set -gx", fish),
        Case(f'$env.ACME_API_TOKEN = "{nu}"', "secret assignment", "Nushell $env assignment", nu),
        Case(f"setenv ACME_API_TOKEN {csh}", "secret assignment", "csh setenv", csh),
        Case(f'export ACME_API_TOKEN := "{just}"\n\ndeploy:\n    ./scripts/deploy.sh', "secret assignment",
             "justfile export :=", just),
        Case(f"version: '3'\nenv:\n  ACME_API_TOKEN: {task}\ntasks:\n  deploy:\n    cmds: [./deploy.sh]",
             "secret assignment", "Taskfile.yml env", task),
        Case(f'{{\n  "name": "shop",\n  "image": "mcr.microsoft.com/devcontainers/python:3.12",\n  "remoteEnv": '
             f'{{ "ACME_API_TOKEN": "{devc}" }}\n}}', "secret assignment", "devcontainer.json remoteEnv", devc),
        Case(f'"sqltools.connections": [\n  {{ "name": "prod", "driver": "PostgreSQL", "server": "db.acme.io", '
             f'"username": "ada", "password": "{p[12]}" }}\n]', "password assignment", "VS Code sqltools connection",
             p[12]),
        Case(f'{{"name": "prod", "values": [\n'
             '  {"key": "baseUrl", "value": "https://api.acme.io", "type": "default"},'
             f'\n  {{"key": "password", "value": "{p[13]}", "type": "secret"}}\n]}}', "password assignment",
             "Postman environment secret value", p[13]),
        Case(f"@baseUrl = https://api.acme.io\n@password = {p[14]}\n\n### login\nPOST {{{{baseUrl}}}}/login\n"
             "Content-Type: application/json\n\n{\"user\": \"ada\", \"password\": \"{{password}}\"}",
             "password assignment", ".http file variable", p[14]),
        Case(f"POST https://api.acme.io/orders\n[BasicAuth]\nada: {p[15]}\nHTTP 201", "password assignment",
             "Hurl [BasicAuth] section", p[15]),
        Case(f"auth:basic {{\n  username: ada\n  password: {p[16]}\n}}", "password assignment", "Bruno .bru auth:basic",
             p[16]),
        Case(f"FROM node:22-alpine\nARG NPM_TOKEN={arg}\n"
             "RUN echo \"//npm.acme.io/:_authToken=${NPM_TOKEN}\" > .npmrc",
             "secret assignment", "Dockerfile ARG default", arg),
        Case(f"@secure()\nparam adminPassword string = '{p[17]}'", "password assignment", "Bicep @secure param default",
             p[17]),
        Case(f'"parameters": {{\n  "adminUsername": {{ "value": "azureuser" }},\n  "adminPassword": {{ "value": '
             f'"{p[18]}" }}\n}}', "password assignment", "ARM template parameters file", p[18]),
        Case(f"  ShopDB:\n    Type: AWS::RDS::DBInstance\n    Properties:\n      MasterUsername: shop\n"
             f"      MasterUserPassword: '{p[19]}'", "password assignment", "CloudFormation MasterUserPassword", p[19]),
        Case(f"credentials: rds.Credentials.fromPassword('shop', SecretValue.unsafePlainText('{p[20]}')),",
             "password assignment", "CDK SecretValue.unsafePlainText", p[20]),
        Case(f'mutation {{\n  login(email: "ada@acme.io", password: "{p[21]}") {{\n    token\n  }}\n}}',
             "password assignment", "GraphQL login mutation", p[21]),
        Case('{"cell_type": "code", "source": ["import os\\n", '
             f'"os.environ[\\"ACME_API_TOKEN\\"] = \\"{notebook}\\"\\n"]}}',
             "secret assignment", "Jupyter notebook cell source", notebook),
        Case(f"name,url,username,password,note\nAcme VPN,https://vpn.acme.io,ada,{p[22]},\n", "password assignment",
             "browser password export CSV", p[22]),
        Case(f'"login": {{\n  "uris": [{{"uri": "https://shop.acme.io/admin"}}],\n  "username": "ada",\n'
             f'  "password": "{p[23]}",\n  "totp": null\n}}', "password assignment", "Bitwarden JSON export login",
             p[23]),
        Case(f"<String>\n    <Key>Password</Key>\n    <Value ProtectInMemory=\"True\">{p[24]}</Value>\n</String>",
             "password assignment", "KeePass XML export Password", p[24]),
        Case(f'$ docker inspect shop-db --format "{{{{json .Config.Env}}}}"\n["POSTGRES_USER=shop",'
             f'"POSTGRES_PASSWORD={p[25]}","PGDATA=/var/lib/postgresql/data"]', "password assignment",
             "docker inspect Config.Env", p[25]),
        Case(f"    Environment:\n      DB_HOST:      db.acme.io\n      DB_PASSWORD:  {p[26]}\n"
             "    Mounts:\n      /var/run/secrets/kubernetes.io/serviceaccount", "password assignment",
             "kubectl describe pod Environment", p[26]),
        Case(f"DEBUG urllib3 request headers: {{'User-Agent': 'shop/1.4', 'X-Api-Key': '{log}'}}",
             "secret assignment", "Python dict repr in a log line", log),
        Case("CREATE CREDENTIAL [https://acme.blob.core.windows.net/backups]\n"
             f"    WITH IDENTITY = 'SHARED ACCESS SIGNATURE', SECRET = '{p[27]}';", "password assignment",
             "SQL Server CREATE CREDENTIAL SECRET", p[27]),
        Case(f"CREATE SECRET s3_prod (TYPE s3, KEY_ID '{g.chars(_UPPER_ALNUM, 20)}', SECRET '{dsecret}', "
             "REGION 'eu-west-1');", "secret assignment", "DuckDB CREATE SECRET", dsecret),
        Case(f"COPY INTO raw.orders FROM 's3://acme-exports/orders/'\n  CREDENTIALS = (AWS_KEY_ID = '"
             f"{g.chars(_UPPER_ALNUM, 20)}' AWS_SECRET_KEY = '{sf_secret}');", "secret assignment",
             "Snowflake COPY INTO CREDENTIALS", sf_secret),
        Case(f"COPY orders FROM 's3://acme-exports/orders/'\nCREDENTIALS 'aws_access_key_id="
             f"{g.chars(_UPPER_ALNUM, 20)};aws_secret_access_key={rs_secret}' CSV;", "secret assignment",
             "Redshift COPY CREDENTIALS string", rs_secret),
        Case(f"PRAGMA key = '{p[28]}';\nSELECT count(*) FROM sqlite_master;", "password assignment",
             "SQLCipher PRAGMA key", p[28]),
        Case(f'spark.conf.set("fs.azure.account.key.acmelake.dfs.core.windows.net", "{spark}")', "secret assignment",
             "Spark conf fs.azure.account.key", spark),
        Case(f'curl_easy_setopt(curl, CURLOPT_USERNAME, "ada");\ncurl_easy_setopt(curl, CURLOPT_PASSWORD, "{p[29]}");',
             "password assignment", "libcurl CURLOPT_PASSWORD", p[29]),
        Case(f'auth := smtp.PlainAuth("", "noreply@acme.io", "{p[30]}", "smtp.acme.io")', "password assignment",
             "Go smtp.PlainAuth", p[30]),
        Case(f'let res = client.get(url).basic_auth("ada", Some("{p[31]}")).send().await?;', "password assignment",
             "Rust reqwest basic_auth", p[31]),
        Case(f"const db = knex({{ client: 'pg', connection: {{ host: 'db', user: 'shop', password: '{p[32]}', "
             "database: 'shop' } });", "password assignment", "knex connection object", p[32]),
        Case(f"UsmUserData('monitor', authKey='{p[33]}', privKey='{p[34]}', authProtocol=usmHMACSHAAuthProtocol)",
             "password assignment", "pysnmp UsmUserData keys", p[33]),
        Case(f'ks.load(new FileInputStream("release.p12"), "{p[35]}".toCharArray());', "password assignment",
             "Java KeyStore.load password", p[35]),
        Case(f'let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: '
             f'"ada",\n  kSecValueData as String: "{p[36]}".data(using: .utf8)!]', "password assignment",
             "Swift Keychain kSecValueData", p[36]),
        Case("<soapenv:Header>\n  <wsse:Security>\n    <wsse:UsernameToken>\n"
             "      <wsse:Username>ada</wsse:Username>\n"
             f'      <wsse:Password Type="...#PasswordText">{p[37]}</wsse:Password>\n    </wsse:UsernameToken>\n'
             "  </wsse:Security>\n</soapenv:Header>", "password assignment", "SOAP WS-Security PasswordText", p[37]),
        Case(f"127.0.0.1:6379> AUTH default {p[38]}\nOK", "password assignment", "redis-cli AUTH command", p[38]),
    ]  # fmt: skip


def _split_and_basic(g: Gen) -> list[Case]:
    """Secrets cut over two lines in new ways, and base64 of user:password in new headers and languages."""
    t = [g.mixed(ALNUM, 48) for _ in range(6)]
    basic = [_b64(f"{user}:{_pw(g)}") for user in ("ci", "ada", "deploy", "svc", "ada", "prom", "ci", "ada", "ops")]
    return [
        Case(f'ACME_API_TOKEN: >-\n  {t[0][:24]}\n  {t[0][24:]}', "secret assignment", "YAML folded scalar token",
             f"{t[0][:24]}\n{t[0][24:]}"),
        Case(f'$env:ACME_API_TOKEN = "{t[1][:24]}" + `\n    "{t[1][24:]}"', "secret assignment",
             "PowerShell backtick continuation", f"{t[1][:24]}\n{t[1][24:]}"),
        Case(f'static const char *api_key =\n    "{t[2][:24]}"\n    "{t[2][24:]}";', "secret assignment",
             "C adjacent string literals", f"{t[2][:24]}\n{t[2][24:]}"),
        Case(f'const API_KEY: &str = concat!(\n    "{t[3][:24]}",\n    "{t[3][24:]}",\n);', "secret assignment",
             "Rust concat! macro", f"{t[3][:24]}\n{t[3][24:]}"),
        Case(f"ACME_API_TOKEN := {t[4][:24]}\\\n{t[4][24:]}", "secret assignment", "Makefile backslash-newline",
             f"{t[4][:24]}\n{t[4][24:]}"),
        Case(f'api_token = """\\\n{t[5][:24]}\\\n{t[5][24:]}"""', "secret assignment",
             "TOML multi-line string with line-ending backslashes", f"{t[5][:24]}\n{t[5][24:]}"),
        Case(f'backend shop\n    http-request set-header Authorization "Basic {basic[0]}"\n    server s1 10.0.0.5:8080',
             "basic auth credentials", "HAProxy http-request set-header Basic", basic[0]),
        Case(f'request_headers_to_add:\n- header:\n    key: authorization\n    value: "Basic {basic[1]}"',
             "basic auth credentials", "Envoy request_headers_to_add Basic", basic[1]),
        Case(f'reverse_proxy legacy:8080 {{\n  header_up Authorization "Basic {basic[2]}"\n}}',
             "basic auth credentials", "Caddy header_up Authorization Basic", basic[2]),
        Case(f"http:\n  middlewares:\n    legacy-auth:\n      headers:\n        customRequestHeaders:\n"
             f'          Authorization: "Basic {basic[3]}"', "basic auth credentials",
             "Traefik customRequestHeaders Basic", basic[3]),
        Case(f'conn.setRequestProperty("Authorization", "Basic {basic[4]}");', "basic auth credentials",
             "Java setRequestProperty Basic", basic[4]),
        Case(f'client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Basic", "{basic[5]}");',
             "basic auth credentials", ".NET AuthenticationHeaderValue Basic", basic[5]),
        Case(f'req.Header.Set("Authorization", "Basic {basic[6]}")', "basic auth credentials", "Go Header.Set Basic",
             basic[6]),
        Case(f"wget --header='Authorization: Basic {basic[7]}' https://files.acme.io/builds/latest.tgz",
             "basic auth credentials", "wget --header Basic", basic[7]),
        Case(f'[host."https://registry.acme.io"]\n  capabilities = ["pull", "resolve"]\n  [host."https://registry.acme.io"'
             f'.header]\n    Authorization = ["Basic {basic[8]}"]', "basic auth credentials",
             "containerd hosts.toml header", basic[8]),
    ]  # fmt: skip


def blind7_secrets(g: Gen) -> list[Case]:
    """Secrets of the ninth held-out part."""
    return [
        *_ai_and_data(g),
        *_saas(g),
        *_devops(g),
        *_configs(g),
        *_commands(g),
        *_urls(g),
        *_webhooks(g),
        *_keys(g),
        *_wallets(g),
        *_prose(g),
        *_code(g),
        *_split_and_basic(g),
    ]


def _public_and_hashes(g: Gen) -> list[str]:
    """Public keys, addresses, password hashes, encrypted values and digests."""
    dkim = base64.b64encode(bytes.fromhex("30820122300d06092a864886f70d01010105000382010f003082010a0282010100")
                            + g.rng.randbytes(256) + bytes.fromhex("0203010001")).decode()  # fmt: skip
    ec_params = "BggqhkjOPQMBBw=="
    csr = _lines(base64.b64encode(bytes.fromhex("3082010c3081b3020100") + g.rng.randbytes(240)).decode())
    return [
        f"example.com:\n  users:\n    ada: $2a$14${g.mixed(ALNUM + './', 53)}",
        f'      basicAuth:\n        users:\n          - "ada:$apr1${g.mixed(ALNUM, 8)}${g.mixed(ALNUM + "./", 22)}"',
        f"ADMIN_TOKEN='$argon2id$v=19$m=65540,t=3,p=4${g.b64_bytes(32).rstrip('=')}${g.b64_bytes(32).rstrip('=')}'",
        f"config:\n  shop:dbPassword:\n    secure: v1:{g.b64_bytes(12)}:{g.b64_bytes(40)}",
        f"db_password: ENC[AES256_GCM,data:{g.b64_bytes(18)},iv:{g.b64_bytes(32)},tag:{g.b64_bytes(16)},type:str]",
        f"spec:\n  encryptedData:\n    password: Ag{g.mixed(B64, 300)}",
        "vault_db_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  "
        + "\n  ".join(g.chars(HEX, 80) for _ in range(4)),
        "SetCredentialEncrypted=db-password: \\\n"
        f"        k6iUCUh0RJCQyvL8k8q1UyAAAAABAAAADAAAABAAAAC{g.mixed(B64, 60)}",
        f"ada:$6$rounds=656000${g.mixed(ALNUM, 16)}${g.mixed(ALNUM + './', 86)}:19750:0:99999:7:::",
        f"pbkdf2_sha256$870000${g.mixed(ALNUM, 22)}${g.b64_bytes(32)}",
        f"$scrypt$ln=16,r=8,p=1${g.b64_bytes(16).rstrip('=')}${g.b64_bytes(32).rstrip('=')}",
        f"CREATE USER 'shop'@'%' IDENTIFIED WITH mysql_native_password AS '*{g.chars(_HEX_UPPER, 40)}';",
        f"rolpassword: SCRAM-SHA-256$4096:{g.b64_bytes(16)}${g.b64_bytes(32)}:{g.b64_bytes(32)}",
        f"userPassword: {{SSHA}}{g.b64_bytes(24)}",
        f"password_pbkdf2 ada grub.pbkdf2.sha512.10000.{g.chars(_HEX_UPPER, 128)}.{g.chars(_HEX_UPPER, 128)}",
        f"ada:$7$101${g.b64_bytes(12)}${g.b64_bytes(64)}",
        f"<passwordHash>#jbcrypt:$2a$10${g.mixed(ALNUM + './', 53)}</passwordHash>",
        f'Authorization: Digest username="ada", realm="api", nonce="{g.chars(HEX, 32)}", uri="/v1/orders", '
        f'response="{g.chars(HEX, 32)}", qop=auth, nc=00000001, cnonce="{g.chars(HEX, 16)}"',
        f"X-Hub-Signature-256: sha256={g.chars(HEX, 64)}",
        f"Stripe-Signature: t=1736000000,v1={g.chars(HEX, 64)}",
        f'default._domainkey.acme.io. 3600 IN TXT "v=DKIM1; k=rsa; p={dkim}"',
        f"-----BEGIN EC PARAMETERS-----\n{ec_params}\n-----END EC PARAMETERS-----",
        f"-----BEGIN CERTIFICATE REQUEST-----\n{csr}\n-----END CERTIFICATE REQUEST-----",
        f'$ tailscale status --json | jq .Self.PublicKey\n"nodekey:{g.chars(HEX, 64)}"',
        f"nats: user public nkey U{g.chars(UPPER + '234567', 55)}",
        f"npub1{g.chars(_BECH32, 58)} is my nostr pubkey",
        f"zpub6r{g.chars(_BASE58, 105)} (watch-only, for the accountant)",
        f"addr1q{g.chars(_BECH32, 97)}",
        f"cosmos1{g.chars(_BECH32, 38)} and osmo1{g.chars(_BECH32, 38)}",
        f"monero donations: 4{g.chars(_BASE58, 94)}",
        f"TRON deposit address T{g.chars(_BASE58, 33)}",
        f"lnbc25u1p{g.chars(_BECH32, 200)}",
        f"sui client transfer --to 0x{g.chars(HEX, 64)} --object-id 0x{g.chars(HEX, 64)}",
        f"PeerID 12D3KooW{g.chars(_BASE58, 44)} is announced on the DHT",
        f"onion service: {g.chars(_BASE32_LOWER, 56)}.onion",
        f'"verify_keys": {{"ed25519:a_{g.mixed(ALNUM, 4)}": {{"key": "{g.b64_bytes(32).rstrip("=")}"}}}}',
        f"acme.io. IN SSHFP 4 2 {g.chars(HEX, 64)}",
        f'Public-Key-Pins: pin-sha256="{g.b64_bytes(32)}"; max-age=5184000',
        '{"kty": "RSA", "use": "sig", "kid": "2025-01", "alg": "RS256", "e": "AQAB", "n": "'
        + g.b64url(g.rng.randbytes(256))
        + '"}',
        "Transfer topic 0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
        "burn address 0x000000000000000000000000000000000000dEaD",
        "uuid.NAMESPACE_DNS = 6ba7b810-9dad-11d1-80b4-00c04fd430c8",
        "H = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]",
        "SBOX = [0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5, 0x30, 0x01, 0x67, 0x2b, 0xfe, 0xd7, 0xab, 0x76]",
        f'provider "registry.terraform.io/hashicorp/aws" {{\n  version = "5.82.2"\n  hashes = [\n'
        f'    "h1:{g.b64_bytes(32)}",\n    "zh:{g.chars(HEX, 64)}",\n  ]\n}}',
        f'  sha256 cellar: :any, arm64_sonoma: "{g.chars(HEX, 64)}"',
        f'<sha256 value="{g.chars(HEX, 64)}" origin="Generated by Gradle"/>',
        f"/nix/store/{g.chars('0123456789abcdfghijklmnpqrsvwxyz', 32)}-openssl-3.3.2/lib/libssl.so.3",
        f"{g.chars(HEX, 64)}  shop-1.4.2.tar.gz  (b3sum)",
        f"shop-api  cache hit, replaying logs {g.chars(HEX, 16)}",
        f"Publishing build scan... https://scans.gradle.com/s/{g.chars(_LOWER_ALNUM, 13)}",
        f"$ cat .next/BUILD_ID\n{g.mixed(B64URL, 21)}",
        f'"reference": "{g.chars(HEX, 40)}", "shasum": ""',
        f"dependencies:\n- name: postgresql\n  version: 16.3.1\ndigest: sha256:{g.chars(HEX, 64)}",
    ]


def _references_and_ids(g: Gen) -> list[str]:
    """References, templates, masked values, publishable keys and ids in settings named after secrets."""
    mapbox = "pk." + _json_b64url(g, {"u": "acme", "a": g.chars(_LOWER_ALNUM, 25)}) + "." + g.mixed(B64URL, 22)
    anon = _jwt(g, {"alg": "HS256", "typ": "JWT"}, {"iss": "supabase", "ref": g.chars(LOWER, 20), "role": "anon",
                                                      "iat": 1736000000, "exp": 2051576000})  # fmt: skip
    clerk = "pk_live_" + _b64("clerk.acme.io$").rstrip("=")
    return [
        "DB_PASSWORD=op://Prod/shop-db/password",
        "password: '{{ required \"set auth.password\" .Values.auth.password }}'",
        'variable "db_password" {\n  type      = string\n  sensitive = true\n}',
        'resource "random_password" "db" {\n  length  = 24\n  special = true\n}',
        "@secure()\nparam adminPassword string",
        "MasterUserPassword: '{{resolve:ssm-secure:/prod/shop/db-password:3}}'",
        "DbPassword: '@Microsoft.KeyVault(SecretUri=https://acme-kv.vault.azure.net/secrets/db-password/)'",
        "gcloud run deploy shop --set-secrets=DB_PASSWORD=shop-db-password:latest",
        "aws ssm get-parameter --name /prod/shop/db-password --with-decryption --query Parameter.Value",
        "doppler run --project shop --config prd -- npm start",
        f"bws secret get {g.uuid()}",
        'template {\n  data = "{{ with nomadVar \\"nomad/jobs/shop\\" }}DB_PASSWORD={{ .db_password }}{{ end }}"\n}',
        "remoteRef:\n  key: prod/shop/db\n  property: password",
        "secretGenerator:\n- name: shop-db\n  envs:\n  - secrets.env",
        "docker build --secret id=npmrc,src=$HOME/.npmrc -t shop .",
        "LoadCredential=db-password:/etc/credstore/shop-db-password",
        "net use Z: \\\\nas\\backup /user:ACME\\ada %NAS_PASSWORD%",
        "password: $(DB_PASSWORD)",
        '<add key="SmtpPassword" value="#{SmtpPassword}" />',
        '"password": "__DB_PASSWORD__"',
        "apiToken: @@ACME_API_TOKEN@@",
        "machine api.heroku.com login ada@acme.io password $HEROKU_API_KEY",
        "{REF:P@I:46C9B1FFBD4ABC4BBB260C6190BAD20C}",
        "security find-generic-password -a ada -s acme-vpn -w",
        "secret-tool lookup service acme-vpn user ada",
        'PGPASSWORD="$(pass show acme/shop-db)" pg_dump -h db -U shop shop > shop.sql',
        "kubectl create secret generic shop-db --from-file=password=./db-password.txt",
        'password = ""\ntoken = null',
        f"sk_live_••••••••••••••••{g.chars(ALNUM, 4)} (rotated)",
        f"API key: {g.chars(HEX, 4)}…{g.chars(HEX, 4)} (shown once, the rest is hidden)",
        "db_password = <sensitive>",
        "  + password = (sensitive value)",
        "Outputs:\n    dbPassword: [secret]",
        'ok: [web1] => {"censored": "the output has been hidden due to the fact that \'no_log: true\' was specified"}',
        "+ curl -u ci:**** https://ci.acme.io/job/shop/build",
        'Parameters: {"user"=>{"email"=>"ada@acme.io", "password"=>"[FILTERED]"}}',
        f"MAPBOX_PUBLIC_TOKEN={mapbox}  # public, URL-restricted",
        f"NEXT_PUBLIC_SUPABASE_ANON_KEY={anon}  # the anon key, safe in the browser",
        f"NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY={clerk}",
        f"posthog.init('phc_{g.mixed(ALNUM, 43)}', {{ api_host: 'https://eu.i.posthog.com' }})",
        f'<div class="cf-turnstile" data-sitekey="0x4AAAAAAA{g.mixed(ALNUM, 14)}"></div>',
        f"GITHUB_APP_CLIENT_ID=Iv23li{g.mixed(ALNUM, 14)}",
        f"AZURE_CLIENT_ID={g.uuid()}\nAZURE_TENANT_ID={g.uuid()}\nAZURE_FEDERATED_TOKEN_FILE=/var/run/secrets/azure/token",
        f'zone_id    = "{g.chars(HEX, 32)}"\naccount_id = "{g.chars(HEX, 32)}"',
        f'{{"projectId": "prj_{g.mixed(ALNUM, 28)}", "orgId": "team_{g.mixed(ALNUM, 24)}"}}',
        f"postgresql://shop@ep-quiet-river-{g.chars(_LOWER_ALNUM, 8)}.eu-central-1.aws.neon.tech/shop?sslmode=require",
        f"SUPABASE_URL=https://{g.chars(LOWER, 20)}.supabase.co",
        f"/subscriptions/{g.uuid()}/resourceGroups/shop-prod/providers/Microsoft.Web/sites/shop-api",
        f"op item get {g.chars(_LOWER_ALNUM, 26)} --fields label=username",
        f"user_{g.chars(_LOWER_ALNUM, 26)} signed up (TypeID)",
        f"cm{g.chars(_LOWER_ALNUM, 22)} is the cuid2 of the draft",
        f"_ga=GA1.1.{g.digits(10)}.1736000000; _ga_{g.chars(_UPPER_ALNUM, 10)}=GS1.1.1736000000.3.1.1736000420.0.0.0",
        f"Content-Security-Policy: script-src 'self' 'nonce-{g.b64_bytes(16)}'",
        f"https://auth.acme.io/authorize?response_type=code&client_id=web&code_challenge={g.b64url(g.rng.randbytes(32))}"
        f"&code_challenge_method=S256&state={g.mixed(B64URL, 22)}",
        f"IBAN for the invoice: DE{g.digits(2)} {' '.join(g.chars(DIGITS, 4) for _ in range(4))} {g.chars(DIGITS, 2)}",
        f"Slack channel C0{g.chars(_UPPER_ALNUM, 9)}, team T0{g.chars(_UPPER_ALNUM, 9)}",
        f"IMAGE ID {g.chars(HEX, 12)}   CREATED 2 hours ago   SIZE 142MB",
    ]


def _code_logs_and_sentences() -> list[str]:
    """Code with symbols, log lines and sentences about passwords that give none, in many languages."""
    return [
        "jq '.[] | select(.password == null) | .user' users.json",
        'awk -F: \'($2 == "") {print $1 " has no password"}\' /etc/shadow',
        "ALTER USER ada PASSWORD EXPIRE;",
        "CREATE USER ada IDENTIFIED WITH auth_socket;",
        "password_encryption = scram-sha-256",
        'clean="${input//[^a-zA-Z0-9_-]/}"; echo "${clean:0:32}"',
        "compose = (.) . (.)  -- point-free, of course",
        "+/⍳10 ⍝ sums one to ten",
        "Permission denied (publickey,password).",
        "ssh: handshake failed: ssh: unable to authenticate, attempted methods [none password], no supported methods",
        'FATAL:  password authentication failed for user "shop"',
        "fatal: Authentication failed for 'https://git.acme.io/acme/shop.git/'",
        'HTTP/1.1 401 Unauthorized\nWWW-Authenticate: Bearer realm="api", error="invalid_token"',
        "login failed for user 'ada' (password: <redacted>)",
        "WIFI:T:nopass;S:Acme-Lobby;;",
        "the PIN is printed on the back of the router",
        "the door code changed again, ask reception for the new one",
        "the wifi password is the serial number on the sticker under the box",
        "use your usual AD password for the VPN, not the one from the welcome email",
        "heslo ti pošlem cez Signal",
        "geslo je v upravitelju gesel",
        "лозинку ћу ти послати поруком",
        "slaptažodį rasi slaptažodžių tvarkyklėje",
        "parole jānomaina ik pēc 90 dienām",
        "lykilorðið verður að vera að minnsta kosti 12 stafir",
        "mae'r cyfrinair wedi dod i ben",
        "pasahitza ahaztu duzu?",
        "fjalëkalimi duhet të ketë të paktën 12 karaktere",
        "პაროლი უნდა შეიცავდეს მინიმუმ 12 სიმბოლოს",
        "գաղտնաբառը պետք է լինի առնվազն 12 նիշ",
        "құпиясөзді ұмыттыңыз ба?",
        "পাসওয়ার্ড ভুলে গেছেন?",
        "கடவுச்சொல்லை மறந்துவிட்டீர்களா?",
        "پاس ورڈ بھول گئے؟",
        "kata laluan mesti mengandungi sekurang-kurangnya 12 aksara",
        "die wagwoord is verkeerd, probeer weer",
        "la pasvorto estas tro mallonga",
        "bhai password mat bhejna chat pe, vault mein daal de",
        "mat khau da het han, vui long doi mat khau moi",
        "비밀번호는 금고에 있어요, 채팅으로 보내지 마세요",
        "şifreyi Bitwarden'a koydum, oradan al",
        "hasło jest w sejfie zespołu, nie w repo",
        "የይለፍ ቃልዎን ረሱ?",
    ]


def blind7_lookalikes(g: Gen) -> list[Case]:
    """Look-alikes of the ninth held-out part."""
    texts = [*_public_and_hashes(g), *_references_and_ids(g), *_code_logs_and_sentences()]
    return [Case(text, None, "blind7 look-alike") for text in texts]


_SEED = 20240501 + 20  # secrets_corpus.SEED + 20 and + 21, the next free offsets after blind6's 18 and 19
BLIND7_SECRETS: tuple[Case, ...] = tuple(blind7_secrets(Gen(_SEED)))
BLIND7_LOOKALIKES: tuple[Case, ...] = tuple(blind7_lookalikes(Gen(_SEED + 1)))
