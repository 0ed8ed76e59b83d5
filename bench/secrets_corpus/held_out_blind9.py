"""The eleventh held-out part (issue 22), written blind in the ninth round (without looking at the detector, its
tests or its benchmark) and only reported, never tuned on: formats and contexts no other part has (regional
clouds, DNS and hosting; code forges, trackers and QA tools; feature-flag, marketing and analytics services; CMS
and commerce; identity providers; CI/CD and package hosting; monitoring and status pages; payments and banking
APIs of many countries; SMS and chat platforms of Asia, Africa and Europe; crypto exchanges and trading bots; IoT,
smart home and energy; game platforms; media, maps and data APIs; passwords in service, orchestration,
provisioning, database, broker, mail, network-device, signing and game-server configs; passwords on more command
lines; URLs of more schemes, signed URLs of more clouds, capability and reset links; webhooks of more chat and
deploy services; base64 of user:password in more clients; prose, tickets, SMS and chat in about fifty languages;
key files, wallet keys and seed phrases in new layouts and wordlists), and look-alikes (hashes, ids, public
keys, placeholders, masked values, documented examples, base64 of ordinary text, versions, colours and docs
that give no secret). Its figure measures how the detector generalises.

    from bench.secrets_corpus.held_out_blind9 import BLIND9_SECRETS, BLIND9_LOOKALIKES

Every value is random in its documented shape (from a fixed seed); none is a real credential. The tables are in
held_out_blind9_data.py."""

from __future__ import annotations

import base64
import json
import re

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
from .held_out_blind9_data import CLI_ROWS, CONFIG_ROWS, PROVIDER_ROWS, URL_ROWS

__all__ = ["BLIND9_LOOKALIKES", "BLIND9_SECRETS", "blind9_lookalikes", "blind9_secrets"]

_KINDS = {
    "s": "secret assignment",
    "p": "password assignment",
    "c": "password on a command line",
    "up": "URL with a password",
    "ut": "URL with a token",
    "w": "webhook URL",
    "b": "basic auth credentials",
}
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
}
_WORDS = ["Marigold", "Tundra", "Kestrel", "Obsidian", "Paprika", "Nimbus", "Cypress", "Lantern", "Mosaic",
          "Pistachio", "Harbor", "Falcon", "Zephyr", "Basalt", "Clover", "Sequoia"]  # fmt: skip
_PLACEHOLDER = re.compile(r"«([A-Za-z0-9]+)(?::([^»]*))?»")
# Words from the middle of the BIP39 English list (no checksum is computed).
_BIP39 = (
    "label labor ladder lady lake lamp language laptop large later latin laugh laundry lava law lawn lawsuit layer "
    "lazy leader leaf learn leave lecture left leg legal legend leisure lemon lend length lens leopard lesson "
    "letter level liar liberty library license life lift light like limb limit link lion liquid list little live "
    "lizard load loan lobster local lock logic lonely long loop lottery loud lounge love loyal lucky luggage lumber "
    "lunar lunch luxury lyrics machine mad magic magnet maid mail main major make mammal man manage mandate mango "
    "mansion manual maple marble march margin marine market marriage mask mass master match material math matrix "
    "matter maximum maze meadow mean measure meat mechanic medal media melody melt member memory mention menu "
    "mercy merge merit merry mesh message metal method middle midnight milk million mimic mind minimum minor "
    "minute miracle mirror misery miss mistake mix mixed mixture mobile model modify mom moment monitor monkey "
    "monster month moon moral more morning mosquito mother motion motor mountain mouse move movie much muffin "
    "mule multiply muscle museum mushroom music must mutual myself mystery myth naive name napkin narrow nasty "
    "nation nature near neck need negative neglect neither nephew nerve nest net network neutral never news next "
    "nice night noble noise nominee noodle normal north nose notable note nothing notice novel now nuclear number "
    "nurse nut oak obey object oblige obscure observe obtain obvious occur ocean october odor off offer office "
    "often oil okay old olive olympic omit once one onion online only open opera opinion oppose option orange "
    "orbit orchard order ordinary organ orient original orphan ostrich other outdoor outer output outside oval "
    "oven over own owner oxygen oyster ozone"
).split()
# Words of the BIP39 French list.
_BIP39_FR = (
    "abaisser abandon abdiquer abeille abolir aborder aboutir aboyer abrasif abreuver abriter abroger abrupt "
    "absence absolu absurde abusif abyssal académie acajou acarien accabler accepter acclamer accolade accroche "
    "accuser acerbe achat acheter aciduler acier acompte acquérir acronyme acteur actif actuel adepte adéquat "
    "adhésif adjectif adjuger admettre admirer adopter adorer adoucir adresse adroit adulte adverbe aérer aéronef "
    "affaire affecter affiche affreux affubler agacer agencer agile agiter agrafer agréable agrume aider aiguille "
    "ailier aimable aisance ajouter ajuster alarmer alchimie alerte algèbre algue aliéner aliment alléger alliage "
    "allouer allumer alourdir alpaga altesse alvéole amateur ambigu ambre aménager amertume amidon amiral amorcer"
).split()
# Words of the SLIP39 (Shamir backup) list.
_SLIP39 = (
    "academic acid acne acquire acrobat activity actress adapt adequate adjust admit adorn adult advance advocate "
    "afraid again agency agree aide aircraft airline airport ajar alarm album alcohol alien alive alpha already "
    "alto aluminum always amazing ambition amount amuse analysis anatomy ancestor ancient angel angry animal "
    "answer antenna anxiety apart aquatic arcade arena argue armed artist artwork aspect auction august aunt "
    "average aviation avoid award away axis axle beam beard beaver become bedroom behavior being believe belong "
    "benefit best beyond bike biology birthday bishop black blanket blessing blimp blind blue body bolt boring"
).split()


# Passwords and keys in prose, tickets, SMS and chat (rows as in held_out_blind9_data).
# fmt: off
PROSE_ROWS: list[tuple[str, str, str, str]] = [
    # passwords and keys in prose, in many languages and media
    ("p", "voicemail transcript password (English)",
     "[Voicemail transcript] Hi it's Tom, the new password for the shared drive is «», call me back if it "
     "doesn't work.",
     "«hu»"),
    ("p", "support ticket reply password (English)",
     "Ticket #«d:5» — Dear customer, we reset your account. Temporary password: «» (please change it at first "
     "login).",
     "«pw»"),
    ("p", "SMS one-time password (English)",
     "ACME: Your login password has been reset to «». Do not share it.",
     "«pw»"),
    ("p", "sticky-note photo OCR (English)", "OCR of IMG_2231.jpg: 'WIFI Office-5G  pw: «»'", "«hu»"),
    ("p", "le mot de passe est in email (French)",
     "Bonjour Marc,\nle mot de passe du compte comptable est «» ; pense à le changer.\nCordialement",
     "«pw»"),
    ("p", "mot de passe provisoire (French, SMS)", "Votre mot de passe provisoire : «». Il expire dans 24 h.", "«pw»"),
    ("p", "das Passwort lautet (German, email)",
     "Hallo Jens,\ndas Passwort für den Kundenzugang lautet «».\nViele Grüße",
     "«pw»"),
    ("p", "Kennwort des Routers (German)", "Kennwort des Routers (Rückseite abfotografiert): «»", "«hu»"),
    ("p", "la contraseña es (Spanish, email)",
     "Hola Lucía, la contraseña del correo corporativo es «», cámbiala pronto.",
     "«pw»"),
    ("p", "clave de acceso (Spanish, Mexico)", "Tu clave de acceso al portal de proveedores es «»", "«pw»"),
    ("p", "密码是 in group chat (Chinese)", "服务器的root密码是«»，别外传。", "«pw»"),
    ("p", "登录密码 in notice (Chinese)", "您的初始登录密码为：«»，请尽快修改。", "«pw»"),
    ("p", "パスワードは in email (Japanese)", "お疲れ様です。共有フォルダのパスワードは「«»」です。", "«pw»"),
    ("p", "初期パスワード (Japanese)", "初期パスワード：«»（初回ログイン時に変更してください）", "«pw»"),
    ("p", "a senha é (Portuguese, Brazil)", "Oi Ana, a senha do Wi-Fi do escritório é «»", "«hu»"),
    ("p", "palavra-passe (Portuguese, Portugal)", "A palavra-passe da conta de faturação é «».", "«pw»"),
    ("p", "la password è (Italian)", "Ciao Marco, la password del gestionale è «», non girarla a nessuno.", "«pw»"),
    ("p", "parola d'ordine (Italian)", "La parola d'ordine per la VPN è «»", "«pw»"),
    ("p", "het wachtwoord is (Dutch)", "Hoi Sanne, het wachtwoord van de gedeelde mailbox is «».", "«pw»"),
    ("p", "hasło to (Polish)", "Cześć Kasia, hasło do panelu to «», zmień je po zalogowaniu.", "«pw»"),
    ("p", "hasło tymczasowe (Polish)", "Twoje hasło tymczasowe: «»", "«pw»"),
    ("p", "пароль такой (Russian)", "Привет, пароль от сервера такой: «», никому не говори.", "«pw»"),
    ("p", "временный пароль (Russian)", "Ваш временный пароль: «». Смените его после входа.", "«pw»"),
    ("p", "şifre (Turkish)", "Selam Ayşe, sunucunun şifresi «», kimseyle paylaşma.", "«pw»"),
    ("p", "geçici şifre (Turkish)", "Geçici şifreniz: «»", "«pw»"),
    ("p", "임시 비밀번호 (Korean)", "임시 비밀번호: «» (로그인 후 변경하세요)", "«pw»"),
    ("p", "mật khẩu là (Vietnamese)", "Chào anh, mật khẩu wifi công ty là «»", "«hu»"),
    ("p", "mật khẩu tạm thời (Vietnamese)", "Mật khẩu tạm thời của bạn: «»", "«pw»"),
    ("p", "كلمة المرور هي (Arabic)", "مرحبا أحمد، كلمة المرور الخاصة بالخادم هي «»", "«pw»"),
    ("p", "كلمة السر المؤقتة (Arabic)", "كلمة السر المؤقتة: «»", "«pw»"),
    ("p", "पासवर्ड है (Hindi)", "राहुल, सर्वर का पासवर्ड «» है, किसी को मत बताना।", "«pw»"),
    ("p", "अस्थायी पासवर्ड (Hindi)", "आपका अस्थायी पासवर्ड: «»", "«pw»"),
    ("p", "lösenordet är (Swedish)", "Hej Erik, lösenordet till routern är «»", "«pw»"),
    ("p", "adgangskoden er (Danish)", "Hej Mette, adgangskoden til NAS'en er «»", "«pw»"),
    ("p", "passordet er (Norwegian)", "Hei Ola, passordet til kontoen er «»", "«pw»"),
    ("p", "jelszó (Hungarian)", "Szia Gábor, a szerver jelszava: «»", "«pw»"),
    ("p", "ο κωδικός είναι (Greek)", "Γεια σου Νίκο, ο κωδικός του server είναι «»", "«pw»"),
    ("p", "пароль (Ukrainian)", "Привіт, пароль від сервера: «»", "«pw»"),
    ("p", "הסיסמה היא (Hebrew)", "היי דני, הסיסמה לשרת היא «»", "«pw»"),
    ("p", "رمز عبور (Persian)", "سلام علی، رمز عبور سرور «» است", "«pw»"),
    ("p", "รหัสผ่านคือ (Thai)", "รหัสผ่านเซิร์ฟเวอร์คือ «»", "«pw»"),
    ("p", "kata sandinya (Indonesian)", "Halo Budi, kata sandinya «»", "«pw»"),
    ("p", "kata laluan (Malay)", "Kata laluan sementara anda ialah «»", "«pw»"),
    ("p", "ang password ay (Tagalog, SMS)", "Ang bagong password mo ay «»", "«pw»"),
    ("p", "পাসওয়ার্ড (Bengali)", "সার্ভারের পাসওয়ার্ড হলো «»", "«pw»"),
    ("p", "கடவுச்சொல் (Tamil)", "சர்வர் கடவுச்சொல் «»", "«pw»"),
    ("p", "پاس ورڈ (Urdu)", "سرور کا پاس ورڈ «» ہے", "«pw»"),
    ("p", "nenosiri (Swahili)", "Nenosiri la seva ni «»", "«pw»"),
    ("p", "pasahitza (Basque)", "Zerbitzariaren pasahitza «» da", "«pw»"),
    ("p", "contrasinal (Galician)", "O contrasinal do servidor é «»", "«pw»"),
    ("p", "lozinka je (Serbian, Latin)", "Ćao Marko, lozinka za server je «»", "«pw»"),
    ("p", "geslo je (Slovenian)", "Živjo, geslo za strežnik je «»", "«pw»"),
    ("p", "slaptažodis (Lithuanian)", "Serverio slaptažodis: «»", "«pw»"),
    ("p", "parole ir (Latvian)", "Servera parole ir «»", "«pw»"),
    ("p", "parool on (Estonian)", "Serveri parool on «»", "«pw»"),
    ("p", "lykilorð (Icelandic)", "Lykilorðið að þjóninum er «»", "«pw»"),
    ("p", "pasvorto (Esperanto)", "La pasvorto de la servilo estas «»", "«pw»"),
    ("s", "API-Schlüssel im Ticket (German)",
     "Ticket-Notiz: neuer API-Schlüssel für den Shop-Export lautet «»",
     "«an:40»"),
    ("s", "clé secrète dans un courriel (French)", "Voici la clé secrète du compte de service : «»", "«an:40»"),
    ("s", "clave secreta en un correo (Spanish)", "Te dejo la clave secreta del webhook: «»", "«an:36»"),
    ("s", "chave de API no e-mail (Portuguese)", "Segue a chave de API de produção: «»", "«an:40»"),
    ("s", "chiave segreta (Italian)", "Ecco la chiave segreta del bucket: «»", "«an:40»"),
    ("s", "geheime sleutel (Dutch)", "De geheime sleutel van de API is «»", "«an:40»"),
    ("s", "klucz API (Polish)", "Klucz API do produkcji: «»", "«an:40»"),
    ("s", "секретный ключ (Russian)", "Секретный ключ от API: «»", "«an:40»"),
    ("s", "gizli anahtar (Turkish)", "API gizli anahtarı: «»", "«an:40»"),
    ("s", "API 키 (Korean, email)", "운영 API 키 전달드립니다: «»", "«an:40»"),
    ("s", "APIキー (Japanese, chat)", "本番のAPIキーはこれです：«»", "«an:40»"),
    ("s", "访问密钥 (Chinese, chat)", "生产环境的访问密钥：«»", "«an:40»"),
    ("s", "khóa bí mật (Vietnamese)", "Khóa bí mật của API: «»", "«an:40»"),
    ("s", "المفتاح السري (Arabic)", "المفتاح السري لواجهة البرمجة: «»", "«an:40»"),
    ("s", "गुप्त कुंजी (Hindi)", "API की गुप्त कुंजी: «»", "«an:40»"),
    ("s", "token in a Jira comment (English)",
     "@ops I rotated it, new deploy token is «» — updating the CI var now",
     "«an:40»"),
    ("s", "key in a commit message (English)",
     "commit 1a2b3c4\n\n    temp: hardcode payment key «» until vault is back",
     "«an:32»"),
    ("s", "token in a meeting minutes doc (English)",
     "Action items:\n- Bob to share staging token («») with QA",
     "«an:36»"),
    ("s", "token in a pastebin snippet (English)", "# paste 7f3k\nexport STAGING_TOKEN=«»\n./run-e2e.sh", "«an:40»"),
    ("p", "password in a git commit diff (English)", "-DB_PASSWORD=\n+DB_PASSWORD=«»", "«sp»"),
    ("p", "password in a Slack thread (English)",
     "thread reply: fwiw the jenkins admin pass is «» until Monday",
     "«pw»"),
    ("p", "password said in an IRC log",
     "[14:02] <ada> ok logged in as root with «»\n[14:02] <bob> ada: rotate that now",
     "«pw»"),
    ("p", "password in a Matrix message export",
     '{"type": "m.room.message", "content": {"msgtype": "m.text", "body": "db pw: «»"}}',
     "«pw»"),
    ("p", "password in an Outlook calendar invite",
     "Subject: Audit access\nBody: Login with auditor / «» from 9:00",
     "«pw»"),
    ("p", "PIN in a letter (German)", "Ihre neue PIN für die Banking-App lautet: «»", "«d:6»"),
    ("p", "code PIN carte (French)", "Le code PIN de ta carte bancaire de secours : «»", "«d:4»"),
    ("p", "PIN del cajero (Spanish)", "El PIN de la tarjeta nueva es «»", "«d:4»"),
]
# fmt: on


def _hu(g: Gen) -> str:
    """A human-ish password: words, digits and a symbol."""
    word, other = g.rng.sample(_WORDS, 2)
    sym = g.pick(list("!#$%*?@+"))
    if g.rng.randrange(2):
        return f"{word}{sym}{other}{g.chars(DIGITS, 2)}"
    return f"{word.lower()}.{other.lower()}.{g.chars(DIGITS, 4)}"


def _gen(g: Gen, name: str, arg: str | None) -> str:
    """The value of one placeholder of a template (see held_out_blind9_data)."""
    if name in _ALPHABETS:
        n = int(arg or 16)
        return g.mixed(_ALPHABETS[name], n) if n >= 8 else g.chars(_ALPHABETS[name], n)
    if name == "uuid":
        return g.uuid()
    if name == "B":
        return g.b64_bytes(int(arg or 32))
    if name == "pw":
        return strong_password(g)
    if name == "sp":
        return shell_safe_password(g)
    if name == "upw":
        return url_safe_password(g)
    if name == "hu":
        return _hu(g)
    if name == "zig":
        return ", ".join(str(g.rng.randrange(256)) for _ in range(16))
    if name == "b" and arg:
        return b64_text(arg)
    raise ValueError(f"unknown placeholder {name!r}")


def _fill(g: Gen, template: str) -> str:
    """template with every placeholder but the secret's own («», «b:», «bd:») replaced by a random value."""

    def one(match: re.Match[str]) -> str:
        name, arg = match.group(1), match.group(2)
        if name in ("b", "bd") and not arg:
            return match.group(0)
        return _gen(g, name, arg)

    return _PLACEHOLDER.sub(one, template)


def _row(g: Gen, code: str, vendor: str, template: str, spec: str) -> Case:
    """One table row made into a case."""
    secret = b64_text(f"{spec[6:]}:{strong_password(g)}") if spec.startswith("basic:") else _fill(g, spec)
    text = _fill(g, template)
    if "«b:»" in text:
        secret = b64_text(secret)
        text = text.replace("«b:»", secret)
    elif "«bd:»" in text:
        auth = b64_text(f"ci:{secret}")
        secret = b64_text(json.dumps({"auths": {"registry.acme.io": {"auth": auth}}}, separators=(",", ":")))
        text = text.replace("«bd:»", secret)
    text = text.replace("«»", secret)
    kind = _KINDS[code]
    if code == "s" and text.startswith(("https://", "http://")) and not any(c.isspace() for c in text):
        kind = "URL with a token"
    return Case(text, kind, vendor, secret)


def _rows(g: Gen) -> list[Case]:
    """The table rows."""
    return [_row(g, *row) for row in (*PROVIDER_ROWS, *CONFIG_ROWS, *CLI_ROWS, *URL_ROWS, *PROSE_ROWS)]


def _words(g: Gen, wordlist: list[str], n: int, sep: str = " ") -> str:
    """n random words of wordlist joined by sep."""
    return sep.join(g.rng.choice(wordlist) for _ in range(n))


def _der_b64(g: Gen, head: str, n: int) -> str:
    """Base64 of a DER-looking blob: a fixed head and n random bytes."""
    return base64.b64encode(bytes.fromhex(head) + g.rng.randbytes(n)).decode()


def _keys(g: Gen) -> list[Case]:
    """Key files and key material in layouts no other part has."""
    hs = "== ed25519v1-secret: type0 ==\x00\x00\x00"
    tor = base64.b64encode(hs.encode() + g.rng.randbytes(64)).decode()
    dkim = pem_lines(_der_b64(g, "308204a40201000282010100", 1180))
    rsa_in_json = "\\n".join(pem_lines(_der_b64(g, "308204bd020100300d06092a864886f70d0101010500048204a7", 1190))
                             .split("\n"))  # fmt: skip
    ec384 = pem_lines(_der_b64(g, "3081a40201010430", 160))
    ed_pkcs8 = _der_b64(g, "302e020100300506032b657004220420", 32)
    x25519 = _der_b64(g, "302e020100300506032b656e04220420", 32)
    kubeconfig_key = b64_text(f"-----BEGIN EC PRIVATE KEY-----\n{pem_lines(_der_b64(g, '30770201010420', 100))}\n"
                              "-----END EC PRIVATE KEY-----\n")  # fmt: skip
    jks = g.b64_bytes(1500)
    p12 = g.b64_bytes(1800)
    hmac_jwk = g.b64url(g.rng.randbytes(32))
    jwe_key = g.b64url(g.rng.randbytes(32))
    cosign = pem_lines(g.b64_bytes(330))
    ssh_inline = pem_lines(g.b64_bytes(300), 70)
    snowflake = pem_lines(_der_b64(g, "308204bd020100300d06092a864886f70d0101010500048204a7", 1190))
    wg_peer = g.b64_bytes(32)
    return [
        Case(f"# /var/lib/tor/hidden_service/hs_ed25519_secret_key (base64 of the file)\n{tor}", "private key",
             "Tor onion service hs_ed25519_secret_key", tor),
        Case(f"$ cat /etc/opendkim/keys/acme.io/mail.private\n-----BEGIN RSA PRIVATE KEY-----\n{dkim}\n"
             "-----END RSA PRIVATE KEY-----", "PEM private key", "OpenDKIM selector .private key file", dkim),
        Case(f'{{"type": "service_account", "project_id": "acme-tiles", "private_key_id": "{g.chars(HEX, 40)}", '
             f'"private_key": "-----BEGIN PRIVATE KEY-----\\n{rsa_in_json}\\n-----END PRIVATE KEY-----\\n", '
             f'"client_email": "tiles@acme-tiles.iam.gserviceaccount.com"}}', "PEM private key",
             "service account JSON private_key (escaped newlines, tiles project)", rsa_in_json),
        Case(f"-----BEGIN EC PRIVATE KEY-----\n{ec384}\n-----END EC PRIVATE KEY-----", "PEM private key",
             "EC P-384 SEC1 PEM", ec384),
        Case(f"JWT_ED25519_PRIVATE_KEY={ed_pkcs8}", "private key", "Ed25519 PKCS#8 DER base64 in env", ed_pkcs8),
        Case(f"hpke:\n  recipient_private_key: {x25519}", "private key", "X25519 PKCS#8 key in HPKE config", x25519),
        Case(f"users:\n- name: ada\n  user:\n    client-certificate-data: {g.b64_bytes(600)}\n"
             f"    client-key-data: {kubeconfig_key}", "private key", "kubeconfig client-key-data (EC)",
             kubeconfig_key),
        Case(f"ANDROID_KEYSTORE_BASE64={jks}", "private key", "Android JKS keystore base64 in CI variable", jks),
        Case(f'<Certificate Password="">{p12}</Certificate>', "private key", "PKCS#12 base64 in XML", p12),
        Case(f'{{"keys": [{{"kty": "oct", "kid": "hmac-2026", "alg": "HS256", "k": "{hmac_jwk}"}}]}}',
             "secret assignment", "JWKS symmetric oct key (k)", hmac_jwk),
        Case(f'{{"kty": "oct", "use": "enc", "alg": "A256GCM", "k": "{jwe_key}"}}', "secret assignment",
             "JWE A256GCM content key JWK", jwe_key),
        Case(f"-----BEGIN ENCRYPTED SIGSTORE PRIVATE KEY-----\n{cosign}\n"
             "-----END ENCRYPTED SIGSTORE PRIVATE KEY-----", "PEM private key", "cosign.key (sigstore)", cosign),
        Case(f"ssh_private_key: |\n  -----BEGIN OPENSSH PRIVATE KEY-----\n  "
             f"{ssh_inline.replace(chr(10), chr(10) + '  ')}\n  -----END OPENSSH PRIVATE KEY-----",
             "PEM private key", "OpenSSH key indented in a YAML block scalar", ssh_inline.replace("\n", "\n  ")),
        Case(f"snowflake:\n  account: acme-eu\n  user: LOADER\n  private_key: |\n    -----BEGIN PRIVATE KEY-----\n    "
             f"{snowflake.replace(chr(10), chr(10) + '    ')}\n    -----END PRIVATE KEY-----",
             "PEM private key", "Snowflake key-pair auth private_key in YAML", snowflake.replace("\n", "\n    ")),
        Case(f"$ wg genkey | tee peer.key\n{wg_peer}", "private key", "wg genkey output on the terminal", wg_peer),
    ]  # fmt: skip


def _wallets(g: Gen) -> list[Case]:
    """Wallet keys of more chains and seed phrases in more layouts and wordlists."""
    xrp = "s" + g.chars("rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz", 28)
    algo = g.b64_bytes(64)
    cardano = "ed25519e_sk1" + g.chars("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 154)
    ton = g.chars(HEX, 128)
    kaspa = g.chars(HEX, 64)
    tron = g.chars(HEX, 64)
    flow = g.chars(HEX, 64)
    hedera = "302e020100300506032b657004220420" + g.chars(HEX, 64)
    monero_spend = g.chars(HEX, 64)
    descriptor = "tr(xprv9s21ZrQH143K" + g.chars(BASE58, 95) + "/86h/0h/0h/0/*)"
    macaroon = "0201036c6e64" + g.chars(HEX, 300)
    keystore_pw = strong_password(g)
    seeds = {n: _words(g, _BIP39, n) for n in (12, 15, 18, 21, 24)}
    seeds2 = [_words(g, _BIP39, 12) for _ in range(8)]
    fr = "\n".join(f"{i + 1}. {w}" for i, w in enumerate(_words(g, _BIP39_FR, 12).split()))
    slip = _words(g, _SLIP39, 20)
    slip33 = _words(g, _SLIP39, 33)
    numbered = _words(g, _BIP39, 24).split()
    grid = "\n".join("   ".join(f"{r * 3 + c + 1:>2} {numbered[r * 3 + c]}" for c in range(3)) for r in range(8))
    json_words = json.dumps(_words(g, _BIP39, 12).split())
    dashed = _words(g, _BIP39, 12, "-")
    upper = _words(g, _BIP39, 12).upper()
    algo25 = _words(g, _BIP39, 25)
    return [
        Case(f"XRPL_WALLET_SEED={xrp}", "wallet private key", "XRP Ledger family seed (s...)", xrp),
        Case(f"algokey export -m ...\nPrivate key (base64): {algo}", "wallet private key",
             "Algorand private key base64", algo),
        Case(f"$ cardano-address key from-recovery-phrase Shelley < phrase.prv\n{cardano}", "wallet private key",
             "Cardano ed25519e_sk extended signing key", cardano),
        Case(f"TON_WALLET_SECRET_KEY={ton}", "wallet private key", "TON wallet secret key hex (64 bytes)", ton),
        Case(f"kaspawallet dump-unencrypted-data\nPrivate key #1: {kaspa}", "wallet private key",
             "Kaspa wallet dump private key", kaspa),
        Case(f"module.exports = {{ networks: {{ nile: {{ privateKey: '{tron}', "
             "fullHost: 'https://nile.trongrid.io' } } };",
             "wallet private key", "tronbox.js networks privateKey", tron),
        Case(f'accounts:\n  emulator-account:\n    address: "f8d6e0586b0a20c7"\n    key: "{flow}"',
             "wallet private key", "Flow CLI flow.json account key", flow),
        Case(f"HEDERA_OPERATOR_ID=0.0.{g.digits(7)}\nHEDERA_OPERATOR_KEY={hedera}", "wallet private key",
             "Hedera operator key (DER hex)", hedera),
        Case(f"monero-wallet-cli> spendkey\nsecret: {monero_spend}\npublic: {g.chars(HEX, 64)}", "wallet private key",
             "Monero secret spend key", monero_spend),
        Case(f'bitcoin-cli importdescriptors \'[{{"desc": "{descriptor}", "timestamp": "now", "active": true}}]\'',
             "wallet private key", "Bitcoin Core taproot descriptor with xprv", descriptor),
        Case(f"LND_MACAROON_HEX={macaroon}", "secret assignment", "LND admin.macaroon hex", macaroon),
        Case(f"clef --keystore ~/.ethereum/keystore --chainid 1\nPassword for keystore: {keystore_pw}",
             "password assignment", "clef keystore password typed", keystore_pw),
        Case(f"Trezor recovery card (12 words): {seeds[12]}", "seed phrase", "Trezor recovery card 12 words",
             seeds[12]),
        Case(f"Ledger Recovery Phrase (24 words):\n{grid}", "seed phrase", "seed words in a three-column grid",
             grid),
        Case(f"phantom export → Secret Recovery Phrase: {seeds[15]}", "seed phrase", "Phantom recovery phrase (15)",
             seeds[15]),
        Case(f"$ solana-keygen new --outfile id.json\n=====================================================\n"
             f"Save this seed phrase and your BIP39 passphrase to recover your new keypair:\n{seeds[18]}\n"
             "=====================================================", "seed phrase", "solana-keygen new output (18)",
             seeds[18]),
        Case(f"$ near generate-key acme.near --seed-phrase\nSeed phrase: {seeds[21]}", "seed phrase",
             "NEAR CLI seed phrase (21 words)", seeds[21]),
        Case(f"**Important** write this mnemonic phrase in a safe place.\nIt is the only way to recover your "
             f"account if you ever forget your password.\n\n{seeds[24]}", "seed phrase",
             "Cosmos SDK keys add output (24)", seeds[24]),
        Case(f'goal account import -m "{algo25}" -w ops', "seed phrase", "goal account import -m (Algorand)", algo25),
        Case(f"Secret phrase:       {seeds2[1]}\n  Network ID:        substrate\n  Secret seed:       0x"
             f"{g.chars(HEX, 64)}", "seed phrase", "subkey generate output (secret phrase)", seeds2[1]),
        Case(f"const wallet = ethers.Wallet.fromPhrase(\"{seeds2[2]}\");", "seed phrase", "ethers v6 fromPhrase",
             seeds2[2]),
        Case(f"aptos init --private-key-file k.txt  # mnemonic for the profile: {seeds2[3]}", "seed phrase",
             "Aptos CLI profile mnemonic in a comment", seeds2[3]),
        Case(f"sui keytool import \"{seeds2[4]}\" ed25519", "seed phrase", "sui keytool import mnemonic", seeds2[4]),
        Case(f"Wasabi Wallet recovery words: {seeds2[5]}", "seed phrase", "Wasabi Wallet recovery words", seeds2[5]),
        Case(f"MNEMONIC_WORDS={json_words}", "seed phrase", "seed words as a JSON array in env", json_words),
        Case(f"backup: {dashed}", "seed phrase", "seed words joined with dashes", dashed),
        Case(f"SEED (caps as written on the card): {upper}", "seed phrase", "seed words in upper case", upper),
        Case(f"sauvegarde du portefeuille, mots français numérotés :\n{fr}", "seed phrase",
             "BIP39 French words numbered one a line", fr),
        Case(f"Shamir share 1 of 3 (SLIP39, 20 words): {slip}", "seed phrase", "SLIP39 Shamir share (20 words)", slip),
        Case(f"Trezor Model T shamir backup, share #2 (33 words):\n{slip33}", "seed phrase",
             "SLIP39 Shamir share (33 words)", slip33),
        Case(f"Rabby seed phrase backup, please keep offline: {seeds2[6]}", "seed phrase", "Rabby seed in chat",
             seeds2[6]),
        Case(f"ключевая фраза от Trust Wallet: {seeds2[7]}", "seed phrase", "ключевая фраза (Russian, Trust Wallet)",
             seeds2[7]),
    ]  # fmt: skip


def _code(g: Gen) -> list[Case]:
    """Secrets in source code and notebooks of more languages."""
    v = [g.mixed(ALNUM, 40) for _ in range(14)]
    pw = [shell_safe_password(g) for _ in range(6)]
    tok = jwt(g, {"alg": "HS512", "typ": "JWT"}, {"sub": "svc-report", "scope": "admin", "exp": 2051360000}, 64)
    return [
        Case(f'let api_key = "{v[0]}"; // TODO move to keychain', "secret assignment", "Swift let apiKey literal",
             v[0]),
        Case(f'val clientSecret = "{v[1]}"', "secret assignment", "Kotlin val clientSecret", v[1]),
        Case(f'const SECRET: &str = "{v[2]}";', "secret assignment", "Rust const &str SECRET", v[2]),
        Case(f'static final String API_SECRET = "{v[3]}";', "secret assignment", "Java static final API_SECRET", v[3]),
        Case(f'$apiSecret = "{v[4]}"\nInvoke-RestMethod -Headers @{{"X-Api-Secret" = $apiSecret}} -Uri $u',
             "secret assignment", "PowerShell $apiSecret variable", v[4]),
        Case(f'my $api_key = "{v[5]}";', "secret assignment", "Perl my $api_key", v[5]),
        Case(f'api_key <- "{v[6]}"\nres <- httr::GET(url, httr::add_headers(`X-API-Key` = api_key))',
             "secret assignment", "R api_key <- assignment", v[6]),
        Case(f'local API_TOKEN = "{v[7]}"', "secret assignment", "Lua local API_TOKEN", v[7]),
        Case(f"api_token = \"{v[8]}\"\nHTTP.get(url, [\"Authorization\" => \"Bearer $api_token\"])",
             "secret assignment", "Julia api_token", v[8]),
        Case(f'(def api-key "{v[9]}")', "secret assignment", "Clojure def api-key", v[9]),
        Case(f'apiKey :: Text\napiKey = "{v[10]}"', "secret assignment", "Haskell apiKey :: Text", v[10]),
        Case(f"NSString *const kAPISecret = @\"{v[11]}\";", "secret assignment", "Objective-C NSString kAPISecret",
             v[11]),
        Case(f"var secret = flag.String(\"secret\", \"{v[12]}\", \"api secret\")", "secret assignment",
             "Go flag.String default secret", v[12]),
        Case(f'{{"cell_type": "code", "source": ["os.environ[\\"WAREHOUSE_KEY\\"] = \\"{v[13]}\\"\\n"]}}',
             "secret assignment", "notebook cell os.environ assignment", v[13]),
        Case(f"DECLARE @pw NVARCHAR(50) = N'{pw[0]}';\nCREATE LOGIN report WITH PASSWORD = @pw;",
             "password assignment", "T-SQL DECLARE @pw", pw[0]),
        Case(f"CREATE USER 'etl'@'%' IDENTIFIED WITH caching_sha2_password BY '{pw[1]}';", "password assignment",
             "MySQL CREATE USER IDENTIFIED WITH plugin BY", pw[1]),
        Case(f"ALTER ROLE replicator WITH REPLICATION LOGIN PASSWORD '{pw[2]}';", "password assignment",
             "PostgreSQL ALTER ROLE replicator PASSWORD", pw[2]),
        Case(f"db.createUser({{ user: 'report', pwd: '{pw[3]}', roles: [{{ role: 'read', db: 'shop' }}] }})",
             "password assignment", "mongosh db.createUser pwd", pw[3]),
        Case(f"CREATE USER etl PASSWORD = '{pw[4]}' DEFAULT_ROLE = LOADER;", "password assignment",
             "Snowflake CREATE USER PASSWORD", pw[4]),
        Case(f"CREATE USER analyst IDENTIFIED BY '{pw[5]}' SETTINGS PROFILE 'readonly';", "password assignment",
             "ClickHouse CREATE USER IDENTIFIED BY", pw[5]),
        Case(f"curl -H 'Authorization: Bearer {tok}' https://report.acme.io/api/v1/export", "secret assignment",
             "HS512 service JWT in curl", tok),
    ]  # fmt: skip


def blind9_secrets(g: Gen) -> list[Case]:
    """Secrets of the eleventh held-out part."""
    return [*_rows(g), *_keys(g), *_wallets(g), *_code(g)]


def _hashes_and_ids(g: Gen) -> list[str]:
    """Hashes, checksums, commit SHAs, ids and build ids, each named as what it is."""
    out = [
        f"Merge pull request #{g.digits(4)} from acme/fix-cart\n\ncommit {g.chars(HEX, 40)}",
        f"git cherry-pick {g.chars(HEX, 12)}",
        f"git bisect bad {g.chars(HEX, 40)}",
        f'Reverts commit {g.chars(HEX, 7)} ("cart: round totals")',
        f'Fixes: {g.chars(HEX, 12)} ("net: fix refcount leak")',
        f"Change-Id: I{g.chars(HEX, 40)}",
        f"$ b2sum release.tar.zst\n{g.chars(HEX, 128)}  release.tar.zst",
        f"$ sha1sum firmware.bin\n{g.chars(HEX, 40)}  firmware.bin",
        f"$ md5 -q installer.pkg\n{g.chars(HEX, 32)}",
        f"xxh64: {g.chars(HEX, 16)}  assets/bundle.js",
        f"crc32 of the frame: 0x{g.chars(HEX.upper(), 8)}",
        f"integrity: sha384-{g.b64_bytes(48)}",
        f'"resolved": "https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz", "integrity": "sha512-'
        f'{g.b64_bytes(64)}"',
        f"{g.chars(HEX, 64)}  go1.23.4.linux-amd64.tar.gz",
        f"golang.org/x/net v0.33.0 h1:{g.b64_bytes(32)}",
        f'[[package]]\nname = "serde"\nversion = "1.0.217"\nchecksum = "{g.chars(HEX, 64)}"',
        f"Docker image digest: ghcr.io/acme/shop@sha256:{g.chars(HEX, 64)}",
        f"Layer {g.chars(HEX, 12)}: Pull complete",
        f"container id {g.chars(HEX, 64)} exited with code 0",
        f'trace_id={g.chars(HEX, 32)} span_id={g.chars(HEX, 16)} level=info msg="request done"',
        f"traceparent: 00-{g.chars(HEX, 32)}-{g.chars(HEX, 16)}-01",
        f"X-Request-Id: {g.uuid()}",
        f"X-Amzn-Trace-Id: Root=1-{g.chars(HEX, 8)}-{g.chars(HEX, 24)}",
        f"order id {g.uuid()} moved to SHIPPED",
        f"https://app.acme.io/projects/{g.uuid()}/settings",
        f"https://www.youtube.com/watch?v={g.mixed(B64URL, 11)}",
        f"https://docs.google.com/spreadsheets/d/1{g.mixed(B64URL, 43)}/view (public read-only report)",
        f"https://github.com/acme/shop/actions/runs/{g.digits(11)}",
        f"https://acme.atlassian.net/browse/SHOP-{g.digits(4)}",
        f"Stripe customer id: cus_{g.mixed(ALNUM, 14)}",
        f"PaymentIntent pi_{g.mixed(ALNUM, 24)} succeeded",
        f"Slack channel C{g.chars(UPPER + DIGITS, 10)} archived",
        f"Twilio message SID SM{g.chars(HEX, 32)} delivered",
        f"AWS request id: {g.uuid()}",
        f"arn:aws:iam::{g.digits(12)}:role/ci-deployer",
        f"i-{g.chars(HEX, 17)} is running",
        f"ami-{g.chars(HEX, 17)}",
        f"sg-{g.chars(HEX, 17)} allows 443 from 0.0.0.0/0",
        f"/subscriptions/{g.uuid()}/resourceGroups/shop-prod",
        f"projects/acme-prod/locations/europe-west1/services/shop revision shop-00{g.digits(3)}-{g.chars(LOWER, 3)}",
        f"ocid1.instance.oc1.eu-frankfurt-1.{g.chars(LOWER + DIGITS, 60)}",
        f"Cloudflare Ray ID: {g.chars(HEX, 16)}",
        f"Build #{g.digits(4)} ({g.chars(HEX, 8)}) passed in 4m12s",
        f"Sentry event {g.chars(HEX, 32)} grouped into SHOP-{g.chars(UPPER + DIGITS, 3)}",
        f"Datadog monitor id {g.digits(8)} recovered",
        f"ULID: 01{g.chars('0123456789ABCDEFGHJKMNPQRSTVWXYZ', 24)}",
        f"nanoid for the short link: {g.mixed(B64URL, 21)}",
        f"KSUID {g.mixed(ALNUM, 27)}",
        f'MongoDB ObjectId("{g.chars(HEX, 24)}")',
        f"Snowflake id {g.digits(19)}",
        f"Discord user id {g.digits(18)}",
        f"Steam id 7656119{g.digits(10)}",
        f"ISBN 978-{g.digits(1)}-{g.digits(4)}-{g.digits(4)}-{g.digits(1)}",
        f"IBAN DE{g.digits(2)} 5001 0517 {g.digits(4)} {g.digits(4)} {g.digits(2)} (the shop's public bank details)",
        f"tracking number 1Z{g.chars(UPPER + DIGITS, 16)}",
        f"invoice INV-{g.digits(6)}, PO {g.chars(UPPER, 2)}-{g.digits(7)}",
        f'ETag: "{g.chars(HEX, 32)}"',
        f'If-None-Match: W/"{g.chars(HEX, 8)}-{g.chars(HEX, 27)}"',
        f"asset main.{g.chars(HEX, 8)}.js  312 KiB",
        f"Cache key: v1-deps-{g.chars(HEX, 64)}",
        f"npm notice shasum: {g.chars(HEX, 40)}",
        f"PGP fingerprint: {' '.join(g.chars(HEX.upper(), 4) for _ in range(10))}",
        f"SSH host key fingerprint SHA256:{g.b64url(g.rng.randbytes(32))}",
        f"TLS cert serial {':'.join(g.chars(HEX.upper(), 2) for _ in range(16))}",
        f"Android signing certificate SHA-256: {':'.join(g.chars(HEX.upper(), 2) for _ in range(32))}",
        f"IPFS CID bafybei{g.chars('abcdefghijklmnopqrstuvwxyz234567', 52)}",
        f"Ethereum tx 0x{g.chars(HEX, 64)} confirmed in block {g.digits(8)}",
        f"Bitcoin txid {g.chars(HEX, 64)}",
        f"Solana signature {g.chars(BASE58, 88)}",
        f"block hash 0000000000000000000{g.chars(HEX, 45)}",
    ]
    return out


_P256_SPKI = "3059301306072a8648ce3d020106082a8648ce3d030107034200"
_README = "# Shop\nA small web shop written in Go."


def _public_and_encoded(g: Gen) -> list[str]:
    """Public keys and addresses, encrypted blobs, and base64 of ordinary text."""
    return [
        f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{g.mixed(B64, 43)} ada@laptop",
        f"ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB{g.mixed(B64, 90)}= ci@runner",
        f"-----BEGIN PUBLIC KEY-----\n{pem_lines(_der_b64(g, _P256_SPKI, 65))}\n-----END PUBLIC KEY-----",
        f"-----BEGIN CERTIFICATE-----\n{pem_lines(g.b64_bytes(700))}\n-----END CERTIFICATE-----",
        f"-----BEGIN CERTIFICATE REQUEST-----\n{pem_lines(g.b64_bytes(500))}\n-----END CERTIFICATE REQUEST-----",
        f"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n{pem_lines(g.b64_bytes(400))}\n-----END PGP PUBLIC KEY BLOCK-----",
        f"-----BEGIN PGP SIGNATURE-----\n\n{pem_lines(g.b64_bytes(300))}\n-----END PGP SIGNATURE-----",
        f"[Peer]\nPublicKey = {g.b64_bytes(32)}\nAllowedIPs = 10.8.0.2/32\nEndpoint = vpn.acme.io:51820",
        f"age recipient: age1{g.chars('qpzry9x8gf2tvdw0s3jn54khce6mua7l', 58)}",
        f"npub1{g.chars('qpzry9x8gf2tvdw0s3jn54khce6mua7l', 58)} (my nostr public key)",
        f"send to bc1q{g.chars('qpzry9x8gf2tvdw0s3jn54khce6mua7l', 38)}",
        f"donations: 0x{g.chars(HEX, 40)}",
        f"xpub6{g.chars(BASE58, 106)} (watch-only)",
        f"Solana wallet address {g.chars(BASE58, 44)}",
        f"XRP address r{g.chars('rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz', 33)}",
        f"Stellar account G{g.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 55)}",
        f"Tezos address tz1{g.chars(BASE58, 33)}",
        f"Cardano address addr1{g.chars('qpzry9x8gf2tvdw0s3jn54khce6mua7l', 98)}",
        f"Polkadot address 1{g.chars(BASE58, 47)}",
        f"DKIM DNS record: v=DKIM1; k=rsa; p={_der_b64(g, '30820122300d06092a864886f70d01010105000382010f00', 270)}",
        f"TLSA 3 1 1 {g.chars(HEX, 64)}",
        f"secret: ENC[AES256_GCM,data:{g.mixed(B64, 40)}=,iv:{g.mixed(B64, 43)}=,tag:{g.mixed(B64, 22)}==,type:str]",
        f"password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  {g.chars(HEX, 80)}\n  {g.chars(HEX, 80)}",
        f"encryptedData:\n  password: AgB{g.mixed(B64, 200)}",
        f"vault:v1:{g.mixed(B64, 60)}",
        f"$2b$12${g.mixed(B64.replace('+', '.'), 53)}",
        f"$argon2id$v=19$m=65536,t=3,p=4${g.mixed(B64, 22)}${g.mixed(B64, 43)}",
        f"$6$rounds=5000${g.mixed(ALNUM, 16)}${g.mixed(ALNUM + './', 86)}",
        f"pbkdf2_sha256$870000${g.mixed(ALNUM, 22)}${g.b64_bytes(32)}",
        f"{{SSHA}}{g.b64_bytes(24)}",
        f"ada:$apr1${g.mixed(ALNUM, 8)}${g.mixed(ALNUM + './', 22)}",
        f"data: {b64_text('Hello from the build server, everything is green.')}",
        f"Content-Transfer-Encoding: base64\n\n{b64_text('Dear team, the quarterly report is attached. Best, Ada')}",
        f"README (base64 for the API): {b64_text(_README)}",
        f"Basic auth examples in RFC 7617 use {b64_text('Aladdin:open sesame')} (Aladdin / open sesame)",
        f"label: {b64_text('app.kubernetes.io/name=shop')}",
        f"configmap data: {b64_text('LOG_LEVEL=info')}",
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42m"
        f"{g.mixed(B64, 20)}AAAAABJRU5ErkJggg==",
        f"font-face src: url(data:font/woff2;base64,d09GMgABAAAAA{g.mixed(B64, 60)})",
        f"JWT header only (no payload, no signature): {g.b64url(json.dumps({'alg': 'RS256', 'typ': 'JWT'}).encode())}",
        f'public JWKS: {{"keys": [{{"kty": "RSA", "kid": "{g.chars(HEX, 16)}", "use": "sig", '
        f'"n": "{g.mixed(B64URL, 342)}", "e": "AQAB"}}]}}',
        f"Ed25519 public key (hex): {g.chars(HEX, 64)} — publish it in the docs",
        f"minisign public key: RW{g.mixed(B64, 54)}",
        f"Tor onion address: {g.chars('abcdefghijklmnopqrstuvwxyz234567', 56)}.onion",
    ]


def _placeholders_and_refs(g: Gen) -> list[str]:
    """Placeholders, masked values, references to secret stores and environment variables."""
    return [
        "NAVER_CLOUD_SECRET_KEY=<your-secret-key>",
        "BYBIT_API_SECRET=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "OKX_PASSPHRASE=changeme  # set your own before running",
        "okta:\n  token: ${OKTA_API_TOKEN}",
        "password: {{ .Values.postgresql.auth.password }}",
        "password: \"{{ vault('secret/data/shop/db', 'password') }}\"",
        "DB_PASSWORD: ${{ secrets.DB_PASSWORD }}",
        'api_key = os.environ["MOOSEND_API_KEY"]',
        "const secret = process.env.WORKOS_API_KEY ?? '';",
        "token: !env_var PAPERTRAIL_TOKEN",
        "password_file: /run/secrets/db_password",
        "valueFrom:\n  secretKeyRef:\n    name: shop-db\n    key: password",
        "PGPASSFILE=/home/ada/.pgpass",
        "MYSQL_PASSWORD_FILE=/run/secrets/mysql_password",
        "aws secretsmanager get-secret-value --secret-id prod/shop/db --query SecretString",
        'op read "op://Shop/Postgres/password"',
        "bw get password acme-prod-db",
        "gcloud secrets versions access latest --secret=shop-db-password",
        "az keyvault secret show --vault-name acme-kv --name db-password --query value",
        "doppler secrets get DB_PASSWORD --plain",
        "sops -d secrets.enc.yaml | yq .db.password",
        "password=******** (hidden)",
        "Authorization: Bearer ****************************************",
        "api_key: sk_live_••••••••••••••••4242",
        "token=[REDACTED]",
        "secret: <redacted>",
        "ELASTIC_PASSWORD=${ELASTIC_PASSWORD:?set it in .env}",
        "CLIENT_SECRET=REPLACE_ME",
        "client_secret: YOUR_CLIENT_SECRET_HERE",
        "apiKey: 'INSERT_API_KEY'",
        "PUSHOVER_TOKEN=your_app_token",
        "THINGSPEAK_KEY=XXXXXXXXXXXXXXXX",
        'BLYNK_AUTH_TOKEN "YourAuthToken"',
        "Set `ZUPLO_API_KEY` to the key from the portal (it starts with `zpka_`).",
        "curl -u USERNAME:PASSWORD https://api.example.com/v1/ping",
        "mysql -u root -p  # you will be prompted",
        "psql postgresql://user:password@localhost:5432/db  # the docs' placeholder DSN",
        "redis://:<password>@localhost:6379/0",
        "mongodb+srv://<username>:<password>@cluster0.example.mongodb.net/",
        "https://<token>@github.com/<owner>/<repo>.git",
        "ssh-keygen -t ed25519 -N '' -f /tmp/throwaway  # empty passphrase on purpose",
        "sshpass -f ~/.ssh/pass.txt ssh deploy@web1",
        "smbclient //fs01/public -U guest%",
        "openssl pkcs12 -export -passout env:P12_PASS -out bundle.p12",
        "jarsigner -storepass:env STORE_PASS app.jar upload",
        "docker login -u ci --password-stdin registry.acme.io < token.txt",
        'echo "$REGISTRY_TOKEN" | helm registry login registry.acme.io -u ci --password-stdin',
        "xfreerdp /v:10.0.3.3 /u:ada /p:$RDP_PASS",
        "PGPASSWORD=$(cat /run/secrets/pg) pg_dump -h db shop",
        "net use Z: \\\\fs01\\share * /user:ACME\\ada",
        "password: ''",
        'password = ""',
        "password: null",
        "secret: ~",
        "token=",
        "hmac_key: !!binary |\n  <base64 of 32 random bytes>",
        'WIFI_PASSWORD=""  # open guest network',
        "seed phrase: (stored in the safe, not here)",
        "mnemonic: word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12",
        "PRIVATE_KEY=0x0000000000000000000000000000000000000000000000000000000000000000",
        "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----",
        "-----BEGIN OPENSSH PRIVATE KEY-----\n<paste your key here>\n-----END OPENSSH PRIVATE KEY-----",
        "Mật khẩu: ******",
        "Passwort: <wird per SMS geschickt>",
        "mot de passe : (voir le coffre-fort KeePass)",
        "密码：请联系管理员获取",
        "パスワード：（別途お送りします）",
        "비밀번호: 별도로 전달드립니다",
        "contraseña: ********",
        "пароль: см. в Vault",
        f"the key ending in …{g.chars(HEX, 4)} was revoked on 2026-01-04",
        f"token prefix ghp_{g.chars(ALNUM, 4)}… (rest redacted in the log)",
    ]


def _prose_docs_and_misc(g: Gen) -> list[str]:
    """Docs, versions, colours, policies and log lines that give no secret."""
    return [
        "version: 3.12.4",
        "image: postgres:16.6-bookworm",
        f"shop v2.{g.digits(2)}.{g.digits(1)}+build.{g.chars(HEX, 7)}",
        "Kernel 6.8.0-51-generic #52-Ubuntu SMP PREEMPT_DYNAMIC",
        "node_modules/.pnpm/react@18.3.1/node_modules/react",
        "python_requires = >=3.11,<3.14",
        "color: #1f6feb; background: #0d1117; border-color: #30363d;",
        "--brand-primary: #ff5a5f; --brand-accent: #00a699;",
        'fill="#E34F26" stroke="#FFFFFF"',
        "rgba(13, 17, 23, 0.85)",
        "hsl(210 40% 96.1%)",
        "MAC address 3c:22:fb:9a:10:7e",
        "IPv6 2001:db8:85a3::8a2e:370:7334",
        "serial number C02ZK1XYMD6T (printed on the laptop)",
        "Windows product ID 00330-80000-00000-AA123 (not the product key)",
        "The password must be at least 14 characters and contain a digit.",
        "Passwords are hashed with Argon2id (m=64 MiB, t=3, p=4).",
        "Rotate API keys every 90 days; the old key stays valid for 24 hours.",
        "Never paste secrets into tickets. Use the vault share link instead.",
        "Set SAKURACLOUD_ACCESS_TOKEN_SECRET in your shell; never commit it.",
        "The token is a 40-character hex string shown once after creation.",
        "The webhook URL contains a secret, treat it like a password.",
        "Tokens look like `glpat-` followed by 20 characters.",
        "The access key id (starting with AKLT) is not secret, the secret key is.",
        "Binance testnet keys are free; create them at testnet.binance.vision.",
        "A seed phrase is 12 or 24 words; whoever has it owns the wallet.",
        "Write your recovery phrase on paper, never in a screenshot.",
        "2FA backup codes are printed once; store them offline.",
        "Forgot password? We'll email you a reset link that expires in 30 minutes.",
        "Your password was changed on 2026-01-05 at 10:14 UTC. If this wasn't you, contact support.",
        "Login failed for user 'shop': password authentication failed",
        'FATAL:  password authentication failed for user "report"',
        "Access denied for user 'root'@'localhost' (using password: YES)",
        "WARN: TOKEN env var is not set, falling back to anonymous access",
        "INFO auth: api key validated for tenant acme (key id kid_2026_01)",
        "sshd[1234]: Accepted publickey for deploy from 10.0.0.4 port 50122 ssh2: ED25519 SHA256:abc",
        "sudo: ada : TTY=pts/0 ; PWD=/home/ada ; USER=root ; COMMAND=/usr/bin/systemctl restart shop",
        "passwd: password updated successfully",
        "Enter passphrase for key '/home/ada/.ssh/id_ed25519':",
        "[sudo] password for ada:",
        "Password for 'https://ada@git.acme.io':",
        "Der Schlüssel wurde widerrufen und ist nicht mehr gültig.",
        "Le jeton a été révoqué hier soir.",
        "La clave API se muestra una sola vez al crearla.",
        "A chave de API foi revogada.",
        "La chiave API è stata revocata.",
        "De API-sleutel is ingetrokken.",
        "Klucz API został unieważniony.",
        "API-ключ отозван и больше не действует.",
        "API anahtarı iptal edildi.",
        "API 키가 폐기되었습니다.",
        "APIキーは失効しました。",
        "API 密钥已被吊销。",
        "Khóa API đã bị thu hồi.",
        "تم إلغاء مفتاح واجهة البرمجة.",
        "API कुंजी रद्द कर दी गई है।",
        "Mật khẩu phải có ít nhất 12 ký tự.",
        "Şifreniz en az bir rakam içermelidir.",
        "비밀번호는 8자 이상이어야 합니다.",
        "كلمة المرور يجب أن تحتوي على رقم.",
        "पासवर्ड में कम से कम एक अंक होना चाहिए।",
        "Hasło zostało zmienione.",
        "Het wachtwoord is gewijzigd.",
        "La password deve contenere almeno un numero.",
        "A senha deve ter pelo menos 8 caracteres.",
        "Пароль успешно изменён.",
        "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor",
        "the quick brown fox jumps over the lazy dog near the river bank today",
        "We sell apples, oranges, lemons and mangoes at the market every Saturday.",
        "Order of the words in the BIP39 list: abandon, ability, able, about, above …",
        "Shopping list: milk, bread, eggs, butter, cheese, apples, rice, tea, coffee, salt, oil, sugar",
        "wifi: AcmeGuest (open network, accept the terms in the browser)",
        "PIN pad layout: 1 2 3 / 4 5 6 / 7 8 9 / * 0 #",
        "Call me at +1 555 0100 extension 4242",
        "Meeting code for the public webinar: 842 6612 9031 (no passcode)",
        "Stripe docs use sk_test_4eC39HqLyjWDarjtT1zdp7dc as the sample key",
        "AWS docs example: AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "Twilio test credentials are listed under Console → Test Credentials (they never send SMS).",
        "example.com, example.org and example.net are reserved for documentation (RFC 2606).",
        "Use 203.0.113.0/24 (TEST-NET-3) in the examples.",
        "Algorithm: HMAC-SHA256 over the raw request body, hex-encoded.",
        "Key size: 256 bits; IV: 96 bits; tag: 128 bits.",
        "The API returns 401 when the key is missing and 403 when it lacks the scope.",
        "ERROR 1045 (28000): Access denied for user 'etl'@'10.0.0.7' (using password: NO)",
        "kubectl get secret shop-db -o jsonpath='{.data}' | jq keys  # lists the key names only",
        "Secret shop-db has 2 keys: username, password (values not shown)",
        "terraform plan: ~ password = (sensitive value)",
        "vault kv metadata get secret/shop/db  # created_time 2026-01-03T10:00:00Z, versions 4",
        f"sessionid for the anonymous A/B bucket: {g.chars(DIGITS, 3)}",
        "CSRF token field name: authenticity_token",
        "OAuth scopes: openid profile email offline_access",
        "grant_type=client_credentials&scope=orders.read",
        "Cookie consent: necessary=true; analytics=false; marketing=false",
        "Content-Security-Policy: default-src 'self'; script-src 'self' 'nonce-{NONCE}'",
        "Test card for Adyen sandbox: 5555 5555 5555 4444, expiry 03/30, CVC 737",
    ]


def blind9_lookalikes(g: Gen) -> list[Case]:
    """Look-alikes of the eleventh held-out part."""
    texts = [*_hashes_and_ids(g), *_public_and_encoded(g), *_placeholders_and_refs(g), *_prose_docs_and_misc(g)]
    return [Case(text, None, "blind9 look-alike") for text in texts]


_SEED = 20240501 + 24  # secrets_corpus.SEED + 24 and + 25, the next free offsets after blind8's 22 and 23
BLIND9_SECRETS: tuple[Case, ...] = tuple(blind9_secrets(Gen(_SEED)))
BLIND9_LOOKALIKES: tuple[Case, ...] = tuple(blind9_lookalikes(Gen(_SEED + 1)))
