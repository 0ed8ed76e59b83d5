"""The eleventh round's rules (issue 22): household secrets said in a sentence in many languages (a Wi-Fi key, a
PIN, a lock's, a safe's or a door's code, a combination, a recovery code), a secret column of a CSV, markdown or
tab-separated table, Wi-Fi passphrases and a password given to tools (`wpa_passphrase`, `netsh wlan`,
`mosquitto_passwd -b`), RTMP stream keys, more query parameter names, Erlang tuples; and the look-alikes they must
leave alone (years, prices, phone numbers, rooms, error codes, model names and identifiers beside such words)."""

from __future__ import annotations

import pytest

from palace.memory.secrets import find_secret, redact

WIFI_KEY = "Hq4vTnR8wLz2"
PIN = "730518"
HEX_32 = "5be0c3a97d214f68e1b09c3d7a62f4e8"
RANDOM_24 = "Pw7nQk2ZrT9vXc4LmB8sYd3H"


def _refused(text: str, secret: str) -> None:
    assert find_secret(text) is not None, text
    assert secret not in redact(text), redact(text)


def _allowed(text: str) -> None:
    assert find_secret(text) is None, (find_secret(text), text)


@pytest.mark.parametrize(
    "text",
    [
        f"the wifi in the guest flat is {WIFI_KEY}, enjoy",
        f"Le code wifi de l'appartement c'est {WIFI_KEY}.",
        f"Das WLAN im Ferienhaus hat den Schlüssel {WIFI_KEY}",
        f"La clave del wifi de la oficina nueva es {WIFI_KEY}",
        f"Koden til wifi i hytta er {WIFI_KEY}.",
        f"Password wifi di kantor itu {WIFI_KEY}.",
        f"Пароль от wifi на даче: {WIFI_KEY}.",
        f"كلمة سر الواي فاي في المكتب هي {WIFI_KEY}",
        f"รหัสไวไฟที่ออฟฟิศคือ {WIFI_KEY}",
        f"公司wifi密碼係 {WIFI_KEY}",
        f"La pasfrazo de la reto estas {WIFI_KEY}.",
    ],
)
def test_a_wifi_key_in_a_sentence(text: str) -> None:
    _refused(text, WIFI_KEY)


@pytest.mark.parametrize(
    "text",
    [
        f"Die Garage öffnest du mit der PIN {PIN}.",
        f"the new card's PIN-code is {PIN}",
        f"O código do portão da garagem é {PIN}.",
        f"La combinazione del lucchetto è {PIN}.",
        f"Portkoden är {PIN}, andra våningen.",
        f"Kortin PIN-koodi on {PIN}.",
        f"PIN kartu yang baru {PIN}, jangan bilang siapa-siapa.",
        f"ПИН-код от карты {PIN}, не забудь",
        f"הקוד של הלוקר הוא {PIN}",
        f"رمز الباب {PIN} يا سارة",
        f"मेरा एटीएम पिन {PIN} है",
    ],
)
def test_a_pin_or_a_code_in_a_sentence(text: str) -> None:
    _refused(text, PIN)


def test_a_combination_and_a_single_recovery_code() -> None:
    _refused("bike lock: combination 31-07-52, spin right first", "31-07-52")
    _refused("my recovery codes, in case the phone dies: 4hq2-x9rk-m7tp (keep them safe)", "4hq2-x9rk-m7tp")


@pytest.mark.parametrize(
    "text",
    [
        "pin the dependency to 2024 in the lock file",
        "the PIN expires in 2027, renew it before then",
        "the PIN pad costs 2499 at the store",
        "the PIN must be 6 digits; call 555 1234 to reset it",
        "pin count is 1024 on this package",
        "PIN 2024 was the year we changed banks",
        "error code 4031 again, see the code in commit a3f9b2c1d",
        "el código de error 5021 sale otra vez",
        "código postal 28013, Madrid",
        "kod pocztowy 00-950 Warszawa",
        "combination of 1000 samples and 24 runs",
        "the door code for room 1204 is on the card",
        "We moved the wifi router to room 1204 last year.",
        "Das WLAN im Zimmer 2301 ist langsam",
        "wifi costs 1500 € per year",
        "The wifi chip is RTL8821CE and the driver is Esp32WifiManager.",
        "the wifi network is called HomeNet2024",
        "the wifi module uses OAuth2Client to log in",
    ],
)
def test_numbers_and_names_beside_such_words_are_no_secret(text: str) -> None:
    _allowed(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (f"svc,ip,db_password\nweb,10.1.2.3,{RANDOM_24}", RANDOM_24),
        (f"svc,ip,api_token\nweb,10.1.2.3,{HEX_32}", HEX_32),
        (f"| svc | ip | db_password |\n|---|---|---|\n| web | 10.1.2.3 | {RANDOM_24} |", RANDOM_24),
        (f"| user | apiToken |\n| :--- | ---: |\n| ada | {HEX_32} |", HEX_32),
        (f"Service\tHost\tdbPassword\nshop\t10.1.2.3\t{RANDOM_24}", RANDOM_24),
    ],
)
def test_a_secret_column_of_a_table(text: str, secret: str) -> None:
    _refused(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "| option | default | password_min_length |\n|---|---|---|\n| strict | on | 12 |",
        "name,host,token_count\napp,10.1.2.3,123456789",
        "| column | type | password |\n|---|---|---|\n| hash | text | bcrypt-hashed |",
        "a\tb\tpin\n1\t2\t3",
    ],
)
def test_tables_without_a_secret(text: str) -> None:
    _allowed(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (f"wpa_passphrase CabinNet {WIFI_KEY} > /etc/wpa.conf", WIFI_KEY),
        (f"netsh wlan set hostednetwork mode=allow ssid=Shop key={WIFI_KEY}", WIFI_KEY),
        (f"mosquitto_passwd -b /etc/mosquitto/pw relay {WIFI_KEY}", WIFI_KEY),
        (f"ffmpeg -re -i talk.mp4 -f flv rtmp://live.example.tv/live2/{RANDOM_24}", RANDOM_24),
        (f"https://ide.example.io/?tkn={HEX_32}", HEX_32),
        (f"https://pay.example.cn/notify?mch=12&sign={HEX_32}", HEX_32),
        ('[{shop, [{api_password, "q7Lm.Xv2RtZk"}]}].', "q7Lm.Xv2RtZk"),
    ],
)
def test_tools_urls_and_tuples(text: str, secret: str) -> None:
    _refused(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "wpa_passphrase CabinNet < /root/psk.txt >> /etc/wpa.conf",
        'wpa_passphrase "$SSID" "$PSK" > wpa.conf',
        "netsh wlan set hostednetwork mode=allow ssid=Shop key=%WIFI_KEY%",
        "mosquitto_passwd -b /etc/mosquitto/pw relay $MQTT_PASS",
        "rtmp://localhost/live/stream_2024_01",
        "ffmpeg -i in.mp4 -f flv rtmp://live.example.tv/app/$STREAM_KEY",
        "https://example.com/login?sign=in&next=/home",
        '{password, "changeme"}',
    ],
)
def test_tools_urls_and_tuples_without_a_secret(text: str) -> None:
    _allowed(text)


def test_backup_codes_under_a_heading_and_a_setup_key_in_groups() -> None:
    _refused("Authenticator backup codes\n3817 6620\n5092 1174\n8843 2905\n", "5092 1174")
    _refused("No camera? Type this key: k4qm 7twz bx3n pd2r hv6s yc5e la7u gj2w", "k4qm 7twz bx3n")


@pytest.mark.parametrize(
    "text",
    [
        "backup codes\n1. Open settings\n2. Tap security\n3. Tap codes",
        "key: this that with from here over",
        "Press any key: then wait some more time",
    ],
)
def test_headings_and_words_in_groups_are_no_codes(text: str) -> None:
    _allowed(text)
