"""The twelfth held-out part (issue 22), written blind in the tenth round (without looking at the detector, its
tests or its benchmark) and only reported, never tuned on: formats and contexts no other part has (LLM, speech,
vector-database and agent-tool providers; observability and incident tools; edge hosting and PaaS; e-signature,
HR, payroll, CRM, support and messaging SaaS; telecom and SMS gateways; logistics and shipping APIs; regional
banks, open-banking and payment gateways of Africa, the Gulf, Asia, Latin America and Europe; government,
weather, energy and scientific data portals; ham radio, satellite, flight and map APIs; game servers and
platforms; home automation, IoT and 3D printers; forges, package hosting, localisation, QA and secret-store
tools; data platforms; passwords and tokens in about seventy config syntaxes (HCL, tfvars, TOML, INI, XML,
properties, .env with export, YAML anchors, nginx, Apache, HAProxy, systemd, Kubernetes, Helm, Ansible, compose,
CI files, code of many languages, SQL, CSV, markdown and spreadsheet tables); passwords on command lines of
database, archive, crypto, container, cloud, directory, Windows, BMC, Wi-Fi and backup tools; URLs with
passwords in many schemes, tokens in query strings, fragments and paths, presigned URLs and webhooks; base64 of
user:password in headers and configs; passwords, PINs, combinations, recovery codes and passphrases in prose
and chat in nearly sixty languages and scripts; key files (PEM variants, OpenSSH, PuTTY, JWK with private
members, PKCS#12, age, minisign, signify, WireGuard, TLS key logs), headerless or cut over lines; wallet keys
(WIF, hex, xprv/tprv) and seed phrases of several lengths and layouts), and look-alikes (commit SHAs, named
hashes, ids, public keys and certificates, placeholders, masked values, labelled examples and test vectors,
ordinary base64, versions, colours, paths, words, ISBNs, chemistry and DNA, and prose about passwords that
gives none, in many languages). Its figure measures how the detector generalises.

Every value is random in its documented shape (from a fixed seed); none is a real credential. The tables are in
held_out_blind10_data.py."""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterator

from .gen import (
    ALNUM,
    B64,
    B64URL,
    BASE58,
    DIGITS,
    HEX,
    LOWER,
    UPPER,
    Case,
    Gen,
    b64_text,
    jwt,
    pem_lines,
    shell_safe_password,
    strong_password,
    url_safe_password,
)
from .held_out_blind10_data import (
    CLI_ROWS,
    CONFIG_SHAPES,
    CONFIG_VALUES,
    LOOKALIKE_ROWS,
    PROSE_ROWS,
    PROVIDER_ROWS,
    URL_ROWS,
)

__all__ = ["blind10_lookalikes", "blind10_secrets"]

_KINDS = {
    "s": "secret assignment",
    "p": "password assignment",
    "c": "password on a command line",
    "up": "URL with a password",
    "ut": "URL with a token",
    "w": "webhook URL",
    "b": "basic auth credentials",
}
PRIVATE_KEY = "private key"
SEED_PHRASE = "seed phrase"
WALLET_KEY = "wallet private key"

_ALPHABETS = {
    "hex": HEX,
    "HEX": HEX.upper(),
    "an": ALNUM,
    "lo": LOWER + DIGITS,
    "UP": UPPER + DIGITS,
    "L": LOWER,
    "b64u": B64URL,
    "b64": B64,
    "d": DIGITS,
    "b58": BASE58,
    "ACGT": "ACGT",
}
_NO_PERCENT = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789-_.@+"
_PASSWORDS = {"«pw»", "«spw»", "«npw»", "«upw»"}
_PLACEHOLDER = re.compile(r"«([A-Za-z0-9]*)(?::(\d+))?»")


def _fill(g: Gen, template: str, secret: str | None = None) -> str:
    """template with each «…» replaced by fresh random text (and «» by secret)."""

    def one(match: re.Match[str]) -> str:
        name, size = match.group(1), match.group(2)
        if not name:
            assert secret is not None, template
            return secret
        if name == "uuid":
            return g.uuid()
        if name == "pw":
            return strong_password(g)
        if name == "spw":
            return shell_safe_password(g)
        if name == "npw":
            return strong_password(g, _NO_PERCENT)
        if name == "upw":
            return url_safe_password(g)
        if name == "d":
            return g.digits(int(size))
        alphabet = _ALPHABETS[name]
        return g.mixed(alphabet, int(size)) if len(alphabet) > 16 else g.chars(alphabet, int(size))

    return _PLACEHOLDER.sub(one, template)


def _row_case(g: Gen, kind: str, fmt: str, text: str, secret_template: str) -> Case:
    secret = _fill(g, secret_template)
    return Case(_fill(g, text, secret), kind, fmt, secret)


def _key_names(snake: str) -> dict[str, str]:
    head, *rest = snake.split("_")
    return {"{key}": snake, "{KEY}": snake.upper(), "{Key}": head + "".join(w.title() for w in rest)}


def _config_cases(g: Gen) -> Iterator[Case]:
    for shape, template in CONFIG_SHAPES:
        for value, key, secret_template, code in CONFIG_VALUES:
            text = template
            for name, spelled in _key_names(key).items():
                text = text.replace(name, spelled)
            yield _row_case(g, _KINDS[code], f"{value} in {shape}", text, secret_template)


def _prose_cases(g: Gen) -> Iterator[Case]:
    for language, what, text, secret_template in PROSE_ROWS:
        kind = "password assignment"
        yield _row_case(g, kind, f"{what} in prose ({language})", text, secret_template)


def _basic_auth_cases(g: Gen) -> Iterator[Case]:
    shapes = [
        (
            "Authorization header in raw HTTP request",
            "GET /api/v1/items HTTP/1.1\nHost: erp.acme.io\nAuthorization: Basic «»",
        ),
        ("Proxy-Authorization header", "CONNECT api.acme.io:443 HTTP/1.1\nProxy-Authorization: Basic «»"),
        ("basic auth in nginx proxy_set_header", 'proxy_set_header Authorization "Basic «»";'),
        ("basic auth in HAProxy http-request", 'http-request set-header Authorization "Basic «»"'),
        (
            "basic auth in Traefik middleware users",
            "http:\n  middlewares:\n    upstream-auth:\n      headers:\n"
            '        customRequestHeaders:\n          Authorization: "Basic «»"',
        ),
        (
            "basic auth in Postman collection",
            '{"auth": {"type": "basic"}, "header": [{"key": "Authorization", "value": "Basic «»"}]}',
        ),
        ("basic auth in Python requests headers", "headers = {'Authorization': 'Basic «»'}"),
        ("basic auth in fetch()", "fetch(url, { headers: { Authorization: 'Basic «»' } })"),
        (
            "basic auth in Prometheus scrape config header",
            "scrape_configs:\n  - job_name: edge\n    authorization:\n      type: Basic\n      credentials: «»",
        ),
        ("basic auth in .npmrc _auth", "registry=https://npm.acme.io/\n_auth=«»\nalways-auth=true"),
        ("basic auth in docker config.json auths", '{"auths": {"registry.acme.io": {"auth": "«»"}}}'),
        (
            "basic auth in Kong plugin config",
            "plugins:\n  - name: request-transformer\n    config:\n      add:\n"
            '        headers:\n          - "Authorization:Basic «»"',
        ),
        ("basic auth in HTTPie session", '{"headers": {"Authorization": "Basic «»"}}'),
        ("basic auth in Java code", 'conn.setRequestProperty("Authorization", "Basic «»");'),
        (
            "basic auth in C# HttpClient",
            'client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Basic", "«»");',
        ),
        (
            "basic auth in SOAP UI log",
            'Sending request: POST /ws/OrderService\nAuthorization: Basic «»\nSOAPAction: "submit"',
        ),
        (
            "basic auth in Envoy route header",
            "request_headers_to_add:\n  - header:\n      key: Authorization\n      value: Basic «»",
        ),
        (
            "basic auth in PowerShell Invoke-RestMethod",
            "Invoke-RestMethod -Uri $u -Headers @{Authorization = 'Basic «»'}",
        ),
        (
            "basic auth in webhook delivery log",
            'delivery 42 -> https://hooks.acme.io/in  headers: {"Authorization": "Basic «»"}',
        ),
        (
            "basic auth in Caddy reverse_proxy header_up",
            'reverse_proxy backend:8080 {\n  header_up Authorization "Basic «»"\n}',
        ),
    ]
    users = ["svc-erp", "integration", "ops", "edge", "ci", "billing"]
    for fmt, template in shapes:
        pair = f"{g.pick(users)}:{strong_password(g)}"
        secret = b64_text(pair)
        yield Case(template.replace("«»", secret), "basic auth credentials", fmt, secret)


def _der_b64(g: Gen, prefix: str, n: int) -> str:
    return prefix + g.b64_bytes(n)


def _key_cases(g: Gen) -> Iterator[Case]:
    """Key files in their own and odd layouts."""

    def pem(label: str, prefix: str, n: int, width: int = 64) -> tuple[str, str]:
        body = _der_b64(g, prefix, n)
        text = f"-----BEGIN {label}-----\n{pem_lines(body, width)}\n-----END {label}-----"
        return text, pem_lines(body, width)

    for label, prefix, n, fmt in [
        ("RSA PRIVATE KEY", "MIIEpAIBAAKCAQEA", 1160, "PKCS#1 RSA private key PEM"),
        ("PRIVATE KEY", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 1180, "PKCS#8 private key PEM"),
        ("EC PRIVATE KEY", "MHcCAQEEI", 110, "SEC1 EC private key PEM"),
        ("ENCRYPTED PRIVATE KEY", "MIIFHDBOBgkqhkiG9w0BBQ0wQTAp", 1250, "encrypted PKCS#8 PEM"),
        ("DSA PRIVATE KEY", "MIIBuwIBAAKBgQ", 430, "DSA private key PEM"),
    ]:
        text, body = pem(label, prefix, n)
        yield Case(text, PRIVATE_KEY, fmt, text)
    text, body = pem("PRIVATE KEY", "MC4CAQAwBQYDK2VwBCIEI", 18)
    yield Case(text, PRIVATE_KEY, "Ed25519 PKCS#8 PEM (short)", text)
    text, body = pem("RSA PRIVATE KEY", "MIIEowIBAAKCAQEA", 1160, 76)
    yield Case(text, PRIVATE_KEY, "RSA PEM wrapped at 76 columns", text)
    # headerless: only the base64 body pasted
    body = _der_b64(g, "MIIEvgIBADANBgkqhkiG9w0BAQEFAASC", 1180)
    yield Case(f"here's the key body (I stripped the header lines):\n{pem_lines(body)}", PRIVATE_KEY,
               "PKCS#8 body without header lines", pem_lines(body))  # fmt: skip
    # PEM on one line with \n escapes, as in JSON
    body = _der_b64(g, "MIIEvAIBADANBgkqhkiG9w0BAQEFAASC", 1180)
    one_line = (
        "-----BEGIN PRIVATE KEY-----\\n" + pem_lines(body).replace("\n", "\\n") + "\\n-----END PRIVATE KEY-----\\n"
    )
    first = body[:64]
    yield Case('{"type": "service_account", "project_id": "acme-prod", "private_key": "' + one_line + '"}',
               PRIVATE_KEY, "PEM with \\n escapes in service-account JSON", first)  # fmt: skip
    # PEM in a YAML block scalar inside a Kubernetes Secret stringData
    text, body = pem("EC PRIVATE KEY", "MHcCAQEEI", 110)
    indented = "\n".join("    " + line for line in text.splitlines())
    yield Case(f"apiVersion: v1\nkind: Secret\nstringData:\n  tls.key: |\n{indented}", PRIVATE_KEY,
               "EC PEM in Kubernetes stringData block", body.split("\n")[0])  # fmt: skip
    # PEM in a Terraform heredoc
    text, body = pem("RSA PRIVATE KEY", "MIIEogIBAAKCAQEA", 1160)
    yield Case(f"private_key = <<-EOT\n{text}\nEOT", PRIVATE_KEY, "RSA PEM in Terraform heredoc", text)
    # PEM in a C string array
    body = _der_b64(g, "MHcCAQEEI", 110)
    lines = pem_lines(body).split("\n")
    c_text = (
        'static const char key_pem[] =\n  "-----BEGIN EC PRIVATE KEY-----\\n"\n'
        + "".join(f'  "{ln}\\n"\n' for ln in lines)
        + '  "-----END EC PRIVATE KEY-----\\n";'
    )
    yield Case(c_text, PRIVATE_KEY, "EC PEM as C string literal lines", lines[0])
    # OpenSSH
    body = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW" + g.b64_bytes(300)
    yield Case(f"-----BEGIN OPENSSH PRIVATE KEY-----\n{pem_lines(body, 70)}\n-----END OPENSSH PRIVATE KEY-----",
               PRIVATE_KEY, "OpenSSH private key", pem_lines(body, 70))  # fmt: skip
    body = "b3BlbnNzaC1rZXktdjEAAAAACmFlczI1Ni1jdHIAAAAGYmNyeXB0AAAAGAAAABA" + g.b64_bytes(420)
    quoted = "\n".join("> " + ln for ln in pem_lines(body, 70).split("\n"))
    yield Case(f"> -----BEGIN OPENSSH PRIVATE KEY-----\n{quoted}\n> -----END OPENSSH PRIVATE KEY-----",
               PRIVATE_KEY, "OpenSSH private key quoted in email reply", body[:70])  # fmt: skip
    # PuTTY ppk v3
    priv = g.b64_bytes(36)
    ppk = (
        "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ed25519-key-20261201\nPublic-Lines: 2\n"
        f"AAAAC3NzaC1lZDI1NTE5AAAAI{g.b64_bytes(32)[:43]}\n\nPrivate-Lines: 1\n{priv}\n"
        f"Private-MAC: {g.chars(HEX, 64)}"
    )
    yield Case(ppk, PRIVATE_KEY, "PuTTY ppk v3 (ed25519)", priv)
    priv = g.b64_bytes(640)
    ppk = (
        "PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nComment: rsa-key\nPublic-Lines: 6\n"
        f"{pem_lines(g.b64_bytes(270), 64)}\nPrivate-Lines: 14\n{pem_lines(priv, 64)}\nPrivate-MAC: {g.chars(HEX, 40)}"
    )
    yield Case(ppk, PRIVATE_KEY, "PuTTY ppk v2 (rsa)", priv[:64])
    # JWK with private members
    d = g.b64url(g.rng.randbytes(32))
    jwk = {"kty": "EC", "crv": "P-256", "x": g.b64url(g.rng.randbytes(32)), "y": g.b64url(g.rng.randbytes(32)), "d": d}
    yield Case(json.dumps(jwk), PRIVATE_KEY, "EC JWK with d", d)
    d = g.b64url(g.rng.randbytes(32))
    okp = {"kty": "OKP", "crv": "Ed25519", "d": d, "x": g.b64url(g.rng.randbytes(32)), "kid": g.chars(HEX, 8)}
    yield Case(json.dumps(okp, indent=2), PRIVATE_KEY, "Ed25519 JWK with d (pretty)", d)
    parts = {k: g.b64url(g.rng.randbytes(n)) for k, n in [("n", 256), ("d", 256), ("p", 128), ("q", 128)]}
    rsa = {"kty": "RSA", "e": "AQAB", **parts, "dp": g.b64url(g.rng.randbytes(128))}
    yield Case(json.dumps({"keys": [rsa]}), PRIVATE_KEY, "RSA JWKS with private members", parts["d"])
    k = g.b64url(g.rng.randbytes(32))
    yield Case(json.dumps({"kty": "oct", "k": k, "alg": "HS256"}), PRIVATE_KEY, "symmetric oct JWK", k)
    # PKCS#12 base64
    p12 = "MIIK" + g.b64_bytes(1800)
    yield Case(f"KEYSTORE_P12_BASE64={p12}", PRIVATE_KEY, "PKCS#12 keystore base64 in env", p12)
    p12 = "MIIJ" + g.b64_bytes(1500)
    yield Case(f"  signing:\n    p12: |\n      {pem_lines(p12, 76).replace(chr(10), chr(10) + '      ')}",
               PRIVATE_KEY, "PKCS#12 base64 wrapped in YAML", p12[:76])  # fmt: skip
    # age, minisign, signify
    age = "AGE-SECRET-KEY-1" + g.chars("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)
    yield Case(f"# created: 2026-12-01T10:00:00Z\n# public key: age1{g.chars(LOWER + DIGITS, 58)}\n{age}",
               PRIVATE_KEY, "age identity file", age)  # fmt: skip
    age2 = "AGE-SECRET-KEY-1" + g.chars("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)
    yield Case(f"SOPS_AGE_KEY={age2}", PRIVATE_KEY, "age key in SOPS_AGE_KEY env", age2)
    mini = "RWRTY0Iy" + g.b64_bytes(120)
    yield Case(f"untrusted comment: minisign encrypted secret key\n{mini}", PRIVATE_KEY, "minisign secret key", mini)
    sig = "RWRCSwAAAA" + g.b64_bytes(100)
    yield Case(f"untrusted comment: signify secret key\n{sig}", PRIVATE_KEY, "signify secret key", sig)
    # WireGuard private keys in configs
    for fmt, template in [
        ("WireGuard wg0.conf PrivateKey", "[Interface]\nAddress = 10.8.0.1/24\nListenPort = 51820\nPrivateKey = «»"),
        ("WireGuard key in wg-quick PostUp", "PostUp = wg set %i private-key <(echo «»)"),
        ("WireGuard key in NetworkManager keyfile", "[wireguard]\nprivate-key=«»\nlisten-port=51820"),
        ("WireGuard key in systemd-networkd netdev", "[WireGuard]\nPrivateKey=«»\nListenPort=51820"),
        ("WireGuard key in docker-compose (wg-easy)", "environment:\n  - WG_HOST=vpn.acme.io\n  - WG_PRIVATE_KEY=«»"),
        ("WireGuard key in OPNsense XML", "<server><name>wg0</name><privkey>«»</privkey></server>"),
        ("WireGuard key in Mikrotik export", '/interface wireguard add listen-port=13231 name=wg1 private-key="«»"'),
        ("WireGuard key in Tailscale-less Nix config", 'networking.wireguard.interfaces.wg0.privateKey = "«»";'),
    ]:
        key = g.b64_bytes(32)
        yield Case(template.replace("«»", key), PRIVATE_KEY, fmt, key)
    # TLS key log (SSLKEYLOGFILE)
    secret = g.chars(HEX, 96)
    yield Case(f"CLIENT_RANDOM {g.chars(HEX, 64)} {secret}", PRIVATE_KEY, "TLS 1.2 key log line", secret)
    secret = g.chars(HEX, 64)
    yield Case(f"CLIENT_HANDSHAKE_TRAFFIC_SECRET {g.chars(HEX, 64)} {secret}\nSERVER_HANDSHAKE_TRAFFIC_SECRET "
               f"{g.chars(HEX, 64)} {g.chars(HEX, 64)}", PRIVATE_KEY, "TLS 1.3 key log lines", secret)  # fmt: skip
    # PGP private block split in chat
    body = "lQVYBG" + g.b64_bytes(900)
    lines = pem_lines(body).split("\n")
    half = len(lines) // 2
    text = (
        "[10:01] part 1/2:\n-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + "\n".join(lines[:half])
        + "\n[10:02] part 2/2:\n" + "\n".join(lines[half:])
        + f"\n={g.b64_bytes(3)}\n-----END PGP PRIVATE KEY BLOCK-----"
    )  # fmt: skip
    yield Case(text, PRIVATE_KEY, "PGP private key split over two chat messages", lines[0])
    # Tor onion service key, Syncthing key, SSH host key in cloud-init
    onion = g.b64_bytes(64)
    yield Case(f"== ed25519v1-secret: type0 ==\n{onion}", PRIVATE_KEY, "Tor hs_ed25519_secret_key (base64 dump)", onion)
    text, body = pem("EC PRIVATE KEY", "MHcCAQEEI", 110)
    yield Case("ssh_keys:\n  ecdsa_private: |\n" + "\n".join("    " + ln for ln in text.splitlines()), PRIVATE_KEY,
               "SSH host key in cloud-init ssh_keys", body.split("\n")[0])  # fmt: skip
    # JWT signing secret and JWT itself in a header
    token = jwt(g, {"alg": "HS256", "typ": "JWT"}, {"sub": g.uuid(), "role": "service", "iat": 1796000000})
    yield Case(f"grpcurl -H 'authorization: Bearer {token}' api.acme.io:443 list", "secret assignment",
               "JWT in grpcurl header", token)  # fmt: skip


def _wallet_cases(g: Gen) -> Iterator[Case]:
    """Wallet private keys: WIF, hex, extended keys."""
    for fmt, template, secret in [
        ("WIF uncompressed key in prose", "the paper wallet key is «» - sweep it into the new wallet", "5«b58:50»"),
        ("WIF compressed key in importprivkey", 'bitcoin-cli importprivkey «» "cold" false', "K«b58:51»"),
        ("WIF compressed key (L) in Electrum sweep", "electrum sweep «» bc1q«lo:38»", "L«b58:51»"),
        ("Electrum p2wpkh: prefixed WIF", "p2wpkh:«»", "K«b58:51»"),
        ("testnet WIF", "TESTNET_WIF=«»", "c«b58:51»"),
        ("Litecoin WIF", "ltc privkey: «»", "T«b58:51»"),
        ("Dogecoin WIF", "dogecoin-cli importprivkey «»", "Q«b58:51»"),
        ("xprv in wallet descriptor", "wpkh(«»/84h/0h/0h/0/*)", "xprv9s21ZrQH143K«b58:95»"),
        (
            "tprv in bitcoind descriptor",
            'importdescriptors \'[{"desc": "tr(«»/86h/1h/0h/0/*)"}]\'',
            "tprv8ZgxMBicQKsPd«b58:94»",
        ),
        ("yprv extended key", "yprv: «»", "yprvABrGsX5C9jant«b58:94»"),
        ("zprv extended key in Sparrow export", '{"keystore": {"xprv": "«»"}}', "zprvAWgYBBk7JR8Gj«b58:94»"),
        ("hex private key (Ethereum) with 0x", "PRIVATE_KEY=0x«»", "«hex:64»"),
        ("hex private key in hardhat config", 'accounts: ["0x«»"]', "«hex:64»"),
        ("hex private key in foundry cast", "cast send 0x«hex:40» --value 1ether --private-key «»", "0x«hex:64»"),
        (
            "Solana keypair byte array",
            "solana-keygen output id.json: «»",
            "[«d:3»,«d:2»,«d:3»,«d:2»,«d:3»,«d:2»,«d:3»,«d:2»,«d:3»,«d:2»,«d:3»,«d:2»,«d:3»,«d:2»,«d:3»,«d:2»]",
        ),
        ("Solana base58 secret key", "PHANTOM_PRIVATE_KEY=«»", "«b58:88»"),
        ("Monero spend key", "secret spend key: «»", "«hex:64»"),
        ("Tron private key", "tronWeb = new TronWeb({fullHost, privateKey: '«»'})", "«hex:64»"),
        (
            "Cosmos armored key export",
            "-----BEGIN TENDERMINT PRIVATE KEY-----\nkdf: bcrypt\nsalt: «HEX:32»\ntype: secp256k1\n\n«»\n"
            "=«b64:4»\n-----END TENDERMINT PRIVATE KEY-----",
            "«b64:88»",
        ),
        ("Nostr nsec", "my nostr login: «»", "nsec1«lo:58»"),
        ("Lightning macaroon hex", "LND_MACAROON=«»", "0201036c6e64«hex:200»"),
        ("Stellar secret seed", "STELLAR_SECRET=«»", "S«UP:55»"),
        ("Ripple family seed", "XRPL_SEED=«»", "s«b58:28»"),
        ("Cardano signing key JSON", '{"type": "PaymentSigningKeyShelley_ed25519", "cborHex": "«»"}', "5820«hex:64»"),
    ]:
        yield _row_case(g, WALLET_KEY, fmt, template, secret)


_WORDS = (
    "acid acoustic acquire across action actor actress actual adapt addict address adjust admit adult advance "
    "advice aerobic affair afford afraid again agent agree ahead aim air airport aisle alarm album alcohol alert "
    "alien alley allow almost alone alpha already also alter always amateur amazing among amount amused analyst "
    "anchor ancient anger angle angry animal ankle announce annual another answer antenna antique anxiety apart "
    "apology appear apple approve april arch arctic area arena argue armed armor army around arrange arrest "
    "arrive arrow artefact artist artwork aspect assault asset assist assume asthma athlete atom attack attend "
    "attitude attract auction audit august aunt author auto autumn average avocado avoid awake aware awesome "
    "awful awkward axis baby bachelor bacon badge bag balance balcony ball bamboo banana banner barely bargain "
    "barrel base basic basket battle beach bean beauty because become beef before begin behave behind believe"
).split()
_WORDS_ES = (
    "ábaco abdomen abeja abierto abogado abono aborto abrazo abrir abuelo abuso acabar academia acceso acción "
    "aceite acelga acento aceptar ácido aclarar acné acoger acoso activo acto actriz actuar acudir acuerdo acusar "
    "adicto admitir adoptar adorno aduana adulto aéreo afectar afición afinar afirmar ágil agitar agonía agosto "
    "agotar agregar agrio agua agudo águila aguja ahogo ahorro aire aislar ajedrez ajeno ajuste alacrán alambre"
).split()
_WORDS_IT = (
    "abaco abbaglio abbinato abete abisso abolire abrasivo abrogato accadere accenno accusato acetone achille "
    "acido acqua acre acrilico acrobata acuto adagio addebito addome adeguato aderire adipe adottare adulare "
    "affabile affetto affisso affranto aforisma afoso africano agave agente agevole aggancio agire agitare "
    "agonismo agricolo agrumeto aguzzo alabarda alato albatro alberato albo albume alce alcolico alettone"
).split()
_WORDS_JA = (
    "あいこくしん あいさつ あいだ あおぞら あかちゃん あきる あけがた あける あこがれる あさい あさひ あしあと "
    "あじわう あずかる あずき あそぶ あたえる あたためる あたりまえ あたる あつい あつかう あっしゅく あつまり "
    "あつめる あてな あてはまる あひる あぶら あぶる あふれる あまい あまど あまやかす あまり あみもの あめりか"
).split()


def _seed_cases(g: Gen) -> Iterator[Case]:
    """Seed phrases of several lengths, wordlists and layouts."""

    def words(n: int, wordlist: list[str] = _WORDS) -> list[str]:
        return [g.pick(wordlist) for _ in range(n)]

    for n in (12, 15, 18, 21, 24):
        w = words(n)
        phrase = " ".join(w)
        yield Case(f"my recovery phrase is: {phrase}", SEED_PHRASE, f"{n}-word seed phrase in a sentence", phrase)
        w = words(n)
        numbered = "\n".join(f"{i + 1}. {word}" for i, word in enumerate(w))
        yield Case(f"Seed backup:\n{numbered}", SEED_PHRASE, f"{n}-word seed, numbered list", numbered)
        w = words(n)
        comma = ", ".join(w)
        yield Case(f'mnemonic = "{comma}"', SEED_PHRASE, f"{n}-word seed, comma separated", comma)
    w = words(24)
    table = "| # | word | # | word |\n|---|---|---|---|\n" + "\n".join(
        f"| {i + 1} | {w[i]} | {i + 13} | {w[i + 12]} |" for i in range(12)
    )
    yield Case(table, SEED_PHRASE, "24-word seed in a two-column markdown table", w[0])
    w = words(12)
    grid = "\n".join(" ".join(f"{w[r * 4 + c]:<10}" for c in range(4)).rstrip() for r in range(3))
    yield Case(f"wrote it in a 3x4 grid:\n{grid}", SEED_PHRASE, "12-word seed in a 3x4 grid", w[0])
    w = words(12)
    csv = "index,word\n" + "\n".join(f"{i + 1},{word}" for i, word in enumerate(w))
    yield Case(csv, SEED_PHRASE, "12-word seed as CSV export", w[0])
    w = words(24)
    yield Case(json.dumps({"mnemonic": w, "passphrase": ""}), SEED_PHRASE, "24-word seed as JSON array", w[0])
    w = words(12, _WORDS_ES)
    phrase = " ".join(w)
    yield Case(f"frase semilla: {phrase}", SEED_PHRASE, "12-word seed (Spanish wordlist)", phrase)
    w = words(12, _WORDS_IT)
    phrase = " ".join(w)
    yield Case(f"frase di recupero: {phrase}", SEED_PHRASE, "12-word seed (Italian wordlist)", phrase)
    w = words(12, _WORDS_JA)
    phrase = "\u3000".join(w)
    yield Case(
        f"リカバリーフレーズ：{phrase}", SEED_PHRASE, "12-word seed (Japanese wordlist, ideographic spaces)", phrase
    )
    w = words(12)
    upper = " ".join(x.upper() for x in w)
    yield Case(f"SEED: {upper}", SEED_PHRASE, "12-word seed in capitals", upper)
    w = words(24)
    phrase = " ".join(w)
    yield Case(f"MNEMONIC='{phrase}'\nBIP39_PASSPHRASE={shell_safe_password(g)}", SEED_PHRASE,
               "24-word seed with passphrase in .env", phrase)  # fmt: skip
    w = words(18)
    stems = " ".join(x[:4] for x in w)
    yield Case(f"engraved stems: {stems}", SEED_PHRASE, "18-word seed as four-letter stems", stems)


def _split_cases(g: Gen) -> Iterator[Case]:
    """Tokens cut over lines in new ways."""
    token = "sk-ant-api03-" + g.mixed(B64URL, 93) + "AA"
    yield Case(f"ANTHROPIC_API_KEY=\\\n{token[:40]}\\\n{token[40:]}", "secret assignment",
               "API key split with shell line continuations", token[:40])  # fmt: skip
    token = "glpat-" + g.mixed(B64URL, 20)
    yield Case(f"token (two halves, paste together): {token[:13]}\n{token[13:]}", "secret assignment",
               "GitLab token split in half across chat lines", token[:13])  # fmt: skip
    pw = strong_password(g)
    yield Case(f'password = "{pw[:6]}" +\n           "{pw[6:]}"', "password assignment",
               "password concatenated in code", pw[:6])  # fmt: skip
    key = g.mixed(ALNUM, 48)
    yield Case(f'API_KEY="{key[:24]}""{key[24:]}"', "secret assignment", "key in adjacent string literals", key[:24])
    key = g.chars(HEX, 64)
    spaced = " ".join(key[i : i + 8] for i in range(0, 64, 8))
    yield Case(f"master key (read out in groups): {spaced}", "secret assignment", "hex key in groups of eight", spaced)
    key = g.chars(DIGITS, 48)
    grouped = "-".join(key[i : i + 6] for i in range(0, 48, 6))
    yield Case(f"BitLocker recovery key: {grouped}", "secret assignment", "BitLocker recovery key", grouped)
    key = g.chars(UPPER + DIGITS, 30)
    grouped = "-".join(key[i : i + 5] for i in range(0, 30, 5))
    yield Case(f"FileVault recovery key: {grouped}", "secret assignment", "FileVault recovery key", grouped)
    codes = [f"{g.digits(4)} {g.chars(DIGITS, 4)}" for _ in range(10)]
    yield Case("Google backup codes\n" + "\n".join(codes), "secret assignment", "2FA backup codes list", codes[0])
    secret = g.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 32)
    spaced = " ".join(secret[i : i + 4] for i in range(0, 32, 4)).lower()
    yield Case(f"Can't scan the QR? Enter this key: {spaced}", "secret assignment", "TOTP setup key in groups", spaced)


def _provider_cases(g: Gen) -> Iterator[Case]:
    rows = [*PROVIDER_ROWS, *PROVIDER_ROWS[:40]]  # the first rows twice: same format, fresh values
    for code, fmt, text, secret_template in rows:
        kind = _KINDS["p" if code == "s" and secret_template in _PASSWORDS else code]
        yield _row_case(g, kind, fmt, text, secret_template)


def blind10_secrets(gen: Gen) -> Iterator[Case]:
    """Secrets of the twelfth held-out part."""
    yield from _provider_cases(gen)
    yield from _config_cases(gen)
    for code, fmt, text, secret_template in (*CLI_ROWS, *URL_ROWS):
        yield _row_case(gen, _KINDS[code], fmt, text, secret_template)
    yield from _prose_cases(gen)
    yield from _basic_auth_cases(gen)
    yield from _key_cases(gen)
    yield from _wallet_cases(gen)
    yield from _seed_cases(gen)
    yield from _split_cases(gen)


def blind10_lookalikes(gen: Gen) -> Iterator[Case]:
    """Look-alikes of the twelfth held-out part: nothing in them is a secret."""
    for _ in range(2):
        for fmt, text in LOOKALIKE_ROWS:
            yield Case(_fill(gen, text), None, fmt)
    # base64 of ordinary text, and basic-auth-looking headers that only name a scheme
    for sentence in [
        "meeting moved to 3pm, bring the slides",
        '{"lang": "en", "theme": "dark"}',
        "The quick brown fox jumps over the lazy dog",
        "order 4411 shipped to Oslo",
    ]:
        yield Case(f"payload (base64 of JSON/text): {base64.b64encode(sentence.encode()).decode()}", None,
                   "base64 of ordinary text in a log")  # fmt: skip
