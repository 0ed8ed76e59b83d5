"""The ninth round's rules (issue 22): "key" and "token" in more languages naming a random value, PINs said in
more languages, passphrases and network keys in more languages, pre-shared keys in Chinese and Japanese, a key
decoded from hex into bytes, and a password typed at a shell's prompt that the shell's error then names."""

from __future__ import annotations

import pytest

from palace.memory.secrets import find_secret, redact

TOKEN = "Hq7Zr2Kv9Xm4Lp8Wn3Tb6Yc1Df5Gj0"
HEX = "3f9a1c7e5b2d8046f1e3a9c7b5d20486e1f3a5c7b9d2e4f6a8c0b2d4e6f8a1c3"


def _refused(text: str, secret: str) -> None:
    assert find_secret(text) is not None, text
    assert secret not in redact(text), redact(text)


@pytest.mark.parametrize(
    "text",
    [
        f"de API-sleutel van productie: {TOKEN}",
        f"mój klucz API to {TOKEN}",
        f"yeni API anahtarı şu: {TOKEN}",
        f"API-nyckeln för produktion: {TOKEN}",
        f"API-nøglen til prod: {TOKEN}",
        f"API-nøkkelen til prod er {TOKEN}",
        f"tuotannon API-avain on {TOKEN}",
        f"az új API kulcs: {TOKEN}",
        f"cheia API de producție este {TOKEN}",
        f"το νέο κλειδί API: {TOKEN}",
        f"مفتاح API للإنتاج هو {TOKEN}",
        f"توکن دسترسی جدید: {TOKEN}",
        f"kunci API produksi: {TOKEN}",
        f"la clau de l'API de producció: {TOKEN}",
        f"ufunguo wa API ya uzalishaji: {TOKEN}",
        f"novi API ključ je {TOKEN}",
        f"API-klíč pro produkci: {TOKEN}",
        f"o segredo da aplicação é {TOKEN}",
        f"VPN 預共享金鑰: {TOKEN}",
        f"khóa API mới là {TOKEN}",
        f"API कुंजी: {TOKEN}",
        f"le jeton d'accès pour l'API de paiement : {TOKEN}",  # elided articles count as one word each
    ],
)
def test_key_words_in_more_languages(text: str) -> None:
    _refused(text, TOKEN)


@pytest.mark.parametrize(
    "text",
    [
        f"de publieke sleutel van de server: {TOKEN}",
        "de API-sleutel staat in de kluis van het team",
        "klucz API znajdziesz w panelu administracyjnym",
        "API-nyckeln roteras varje månad",
        "la clau de l'API és a la configuració",
    ],
)
def test_key_words_without_a_secret(text: str) -> None:
    assert find_secret(text) is None, text


@pytest.mark.parametrize(
    ("text", "pin"),
    [
        ("le code PIN de mon téléphone est 482917", "482917"),
        ("il PIN della carta è 7391", "7391"),
        ("de pincode van mijn bankpas is 4827", "4827"),
        ("PIN do karty w portfelu to 583920", "583920"),
        ("PIN-koden til telefonen er 739184", "739184"),
        ("PIN-koden till dörren är 284613", "284613"),
        ("รหัส PIN ของบัตรคือ 592847", "592847"),
        ("der PIN für die Karte ist 8274", "8274"),
        ("el PIN de la tarjeta del garaje nuevo es 6193", "6193"),
    ],
)
def test_pins_in_more_languages(text: str, pin: str) -> None:
    _refused(text, pin)


@pytest.mark.parametrize(
    "text",
    [
        "connect the LED to pin 13 is 5000 ohms",
        "set pin 4 to 1023",
        "pin the version to 2024",
        "pin numpy to 1.26.4",
        "the PIN must be 4 to 8 digits",
        "pin count is 1024",
        "GPIO pin number is 17",
    ],
)
def test_pin_look_alikes(text: str) -> None:
    assert find_secret(text) is None, text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("das Geheimwort für den Tresor: Otter4471!", "Otter4471!"),
        ("la frase de paso del disco es Marmot2290#", "Marmot2290#"),
        ("ma phrase secrète pour le coffre : Heron5518?", "Heron5518?"),
        ("a palavra-passe do portátil é lichen-copper-917", "lichen-copper-917"),
        ("Der WLAN-Schlüssel im Büro lautet Badger#Cedar42", "Badger#Cedar42"),
        ("事前共有キーは Tide93@Raven です", "Tide93@Raven"),
        ("预共享密钥是 tiger77river", "tiger77river"),
    ],
)
def test_passphrases_in_more_languages(text: str, secret: str) -> None:
    _refused(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "das Geheimwort ist geheim",
        "la frase de paso debe tener 12 caracteres",
        "der WLAN-Schlüssel steht auf der Rückseite",
        "共有キーは後で送ります",
    ],
)
def test_passphrase_words_without_a_secret(text: str) -> None:
    assert find_secret(text) is None, text


@pytest.mark.parametrize(
    "text",
    [
        f'HMAC_KEY = bytes.fromhex("{HEX}")',
        f'aesKey, _ := hex.DecodeString("{HEX}")',
        f'enc_key = binascii.unhexlify("{HEX}")',
    ],
)
def test_key_decoded_from_hex(text: str) -> None:
    _refused(text, HEX)


@pytest.mark.parametrize(
    "text",
    [
        f'digest = bytes.fromhex("{HEX}")',
        f'expected_sha = bytes.fromhex("{HEX}")',
        f'cache_key = bytes.fromhex("{HEX}")',
    ],
)
def test_hex_decoded_that_is_no_key(text: str) -> None:
    assert find_secret(text) is None, text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("~ % Wq3zLp9Rv_x\nzsh: command not found: Wq3zLp9Rv_x", "Wq3zLp9Rv_x"),
        ("$ Kt8mNv2Qx.7\nbash: Kt8mNv2Qx.7: command not found", "Kt8mNv2Qx.7"),
        ("me@box ~> Hn5_Rw2Yq7Lz\nfish: Unknown command: Hn5_Rw2Yq7Lz", "Hn5_Rw2Yq7Lz"),
        ("C:\\>Pz4-Tq9Wm2Kx\n'Pz4-Tq9Wm2Kx' is not recognized as an internal or external command,", "Pz4-Tq9Wm2Kx"),
        ("PS C:\\> Jr6+Vb3Nq8s\nJr6+Vb3Nq8s : The term 'Jr6+Vb3Nq8s' is not recognized as the name", "Jr6+Vb3Nq8s"),
    ],
)
def test_password_typed_at_a_prompt(text: str, secret: str) -> None:
    _refused(text, secret)  # every copy of it, the one at the prompt too


@pytest.mark.parametrize(
    "text",
    [
        "zsh: command not found: python3.12",
        "bash: docker-compose: command not found",
        "fish: Unknown command: kubectl",
        "'npm' is not recognized as an internal or external command",
        "zsh: command not found: pip3",
        "bash: ./configure: command not found",
        "zsh: command not found: MyScript_V2",
        "bash: RunTests_v3: command not found",
    ],
)
def test_commands_not_found(text: str) -> None:
    assert find_secret(text) is None, text


_WORDS = "orbit tackle velvet humble canyon drift oyster maple juice rocket fabric lunar".split()


@pytest.mark.parametrize(
    "text",
    [
        "## hardware wallet backup\n" + "\n".join(f"- [x] {i}. {w}" for i, w in enumerate(_WORDS, 1)),
        "restore:\n" + "\n".join(f"  - {w}" for w in _WORDS),
        "* mnemonic\n" + "\n".join(f"* {w}" for w in _WORDS),
    ],
)
def test_seed_phrase_as_list_items(text: str) -> None:
    assert find_secret(text) == "seed phrase", text
    assert not any(word in redact(text) for word in _WORDS[1:-1]), redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "## todo for the wallet app\n- [x] write tests\n- [ ] fix the build\n- [x] update the docs",
        "restore:\n" + "\n".join(f"  - {w}" for w in ["alpha", "beta", "gamma", "delta"] * 3),
    ],
)
def test_lists_that_are_no_seed_phrase(text: str) -> None:
    assert find_secret(text) is None, text


@pytest.mark.parametrize(
    "text",
    [
        f"const account = privateKeyToAccount('0x{HEX}')",
        f'const signer = new ethers.Wallet("0x{HEX}", provider)',
        f"acct = accounts.add('0x{HEX}')",
    ],
)
def test_wallet_made_of_a_hex_key(text: str) -> None:
    assert find_secret(text) == "wallet private key", text
    assert HEX not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        f"tx = provider.getTransaction('0x{HEX}')",
        f"bal = account.balance('0x{HEX}')",
        f"acct = getAccount('0x{HEX[:40]}')",
    ],
)
def test_hashes_and_addresses_are_no_wallet_key(text: str) -> None:
    assert find_secret(text) is None, text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("het wachtwoord van de wifi bij oma is Kat-groen-77", "Kat-groen-77"),
        ("la clave del router de la oficina nueva: Lince#4481", "Lince#4481"),
    ],
)
def test_password_word_then_six_words(text: str, secret: str) -> None:
    _refused(text, secret)


def test_password_word_then_words_and_a_date() -> None:
    assert find_secret("a senha do servidor foi trocada em 12.03.2024 pela equipe") is None


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("der Türcode für das Lager ist 73914", "73914"),
        ("Zugangscode: 582913#", "582913"),
        ("código de la alarma de casa: 7291", "7291"),
        ("kod do drzwi w piwnicy to 4482", "4482"),
        ("קוד הכניסה למשרד: 55821", "55821"),
        ("사무실 도어락 번호 8812* 입니다", "8812"),
        ("de deurcode van de schuur is 3381", "3381"),
    ],
)
def test_entry_codes_in_more_languages(text: str, code: str) -> None:
    _refused(text, code)


@pytest.mark.parametrize(
    "text",
    [
        "der Türcode wird morgen geändert",
        "código de acceso incorrecto",
        "de deurcode is 4 cijfers",
        "toegangscode 2FA ingesteld op 12-03-2024",
        "Zugangscode version 2.1.1",
    ],
)
def test_entry_code_words_without_a_code(text: str) -> None:
    assert find_secret(text) is None, text


@pytest.mark.parametrize(
    "text",
    [f"नए सर्वर की API की है: {TOKEN}", f"mã API mới của dịch vụ: {TOKEN}", f"mã truy cập là {TOKEN}"],
)
def test_api_key_phrases_in_hindi_and_vietnamese(text: str) -> None:
    _refused(text, TOKEN)


@pytest.mark.parametrize("text", ["API की जानकारी यहाँ है", "mã API sẽ được gửi sau", f"mã nguồn: {TOKEN}"])
def test_hindi_and_vietnamese_without_a_key(text: str) -> None:
    assert find_secret(text) is None, text


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("mis códigos de respaldo de Google: 4821-7730 9912-0481 5530-2297 6618-4402", "9912-0481"),
        ("バックアップコード：kq7wmz2p xr4nbt8v hz3pqf6w", "xr4nbt8v"),
        ("Backup codes for GitHub:\n1. 8f2k9-x7q4m\n2. 3n8vp-2wq7z\n3. k4m2x-9t7qb", "3n8vp-2wq7z"),
        ("codes de secours : wtuvnrpa 38kd7qxz 92mzp4k1 7xq2rmf8", "92mzp4k1"),
    ],
)
def test_backup_codes_in_more_languages(text: str, code: str) -> None:
    _refused(text, code)


@pytest.mark.parametrize(
    "text",
    [
        "backup codes: use them when you lose your phone",
        "recovery codes: see the docs, section 4.2",
        "backup codes: 10 codes, 8 characters each",
        "Wiederherstellungscodes: bitte sicher aufbewahren",
    ],
)
def test_backup_code_words_without_codes(text: str) -> None:
    assert find_secret(text) is None, text
