"""Household secrets said in a sentence, in many languages: a Wi-Fi key ("the wifi at the cabin is ...", "Koden
til wifi i sommerhuset er ..."), a PIN or a lock's, a safe's or a door's code ("mit der PIN 394241", "O código do
cadeado é 3392", "Portkoden är 9202", "combination 12-34-56"), a single recovery code after its name, an
authenticator's setup key in groups of four.

A number is a code only beside a word that names one, then a copula or a colon, or at most three words with no
number, time, place or price word among them ("the PIN expires in 2027", "PIN 2024 of room 12" are no codes); never a
year without a copula, a price, a phone number or a decimal. A Wi-Fi key must look random: letters of both
cases and a digit, not an identifier in camel case (`OAuth2Client`, `HomeNet2024`)."""

from __future__ import annotations

from palace.memory.secrets.kinds import PLACEHOLDER as _PLACEHOLDER
from palace.memory.secrets.kinds import SecretKind, folded_kind

# A word between the name and the value: no number, no sentence punctuation (Thai and Khmer glue words).
_WORD = r"[^\s:=：.,;!?#$€£0-9]{1,24}"
_COPULA = (
    r"(?:is|are|was|est|c'est|è|é|es|ist|lautet|er|är|on|to|je|jest|este|είναι|là|adalah|ni|és|ay|itu|hai|"
    r"הוא|היא|هو|هي|คือ|គឺ|係|是|为|為|は|는|은|—|-|=)"
)
# Words that make a number something else than a code: an error or a status code, a port, a room, an order.
_NOT_CODE = (
    r"(?!(?:error|erro|errore|erreur|fehler|błędu|ошибки|status|exit|http|zip|postal|pocztowy|port|room|phone|tel"
    r"|line|page|version|order|item|article|product|country|area|region|региона|товара|number of|length|digits"
    r"|count|size|limit)(?![^\s]))"
)
# Words that, with no copula after them, put a number in time or space ("PIN expires in 2027").
_NOT_THEN = (
    r"(?!(?:in|since|until|till|by|from|before|after|of|at|on|for|to|and|or|with|expires?|expired|valid|changed"
    r"|seit|bis|im|am|ab|von|für|à|en|de|desde|hasta|dal|al|sedan|från|i|på|til|av|с|до|в|на|costs?|price[ds]?|paid|pays?"
    r"|sold|buy|pads?|readers?|terminals?)(?![^\s]))"
)
_DIGITS = r"(?:[0-9]{4,8}#?|[0-9]{2,3}(?:-[0-9]{2,3}){2,4})"
_AFTER = r"(?![0-9a-z]|[.,:/\-][0-9]|[ \t]*(?:%|€|\$|£|¥|eur|usd|kr\b|руб)|[ \t]+[0-9])"
_SAID = (
    rf"(?:[ \t]*(?:[ \t]+{_NOT_CODE}{_WORD}){{0,6}}?[ \t]*(?:[:：]|[ \t]+{_COPULA}|(?<=[^\x00-\x7f]){_COPULA})[ \t]*)"
)
_NEXT = rf"(?:(?:[ \t]+{_NOT_CODE}{_NOT_THEN}{_WORD}){{0,3}}?[ \t]+(?!(?:19|20)[0-9]{{2}}(?![0-9])))"
_NUMBER = rf"(?:{_SAID}|{_NEXT}){_DIGITS}{_AFTER}"
# Words that name a PIN, a code or a combination; `pin` may be followed by its code word ("PIN-koodi", "ПИН-код").
_PIN_TAIL = r"(?:[ \t\-]?(?:code|kode|koodi|kod|код|nummer|number|numero|número|nr)[a-zа-я]{0,3})?"
_NUMBER_WORDS = (
    "pin", "пин", "пін", "पिन", "passcode", "combination", "combinación", "combinazione", "combinaison",
    "kombination", "combinação", "código", "codice", "kod", "kode", "код", "קוד", "رمز", "รหัส",
)  # fmt: skip
# Not a verb's object: "pin the version to 2024", "pin it at 1.2".
_NOT_OBJECT = r"(?![ \t]+(?:the|it|this|that|them|these|those|a|an|all|every|your|my|our)[ \t])"

# A Wi-Fi key: 8-64 characters, lower and upper case and a digit, not camel case (words, acronyms and numbers).
_CAMEL = (
    r"(?:[a-z]{2,}|[0-9]+|[A-Z]{1,6}[a-z]{2,}|[A-Z]{2,}(?![a-z]))"
    r"(?:[A-Z]{1,6}[a-z]{2,}|[A-Z]{2,}(?![a-z])|[0-9]+|[_\-][A-Za-z]{2,})*(?![A-Za-z0-9_\-])"
)
_KEY_CHAR = r"[A-Za-z0-9_\-]"
_KEY = (
    rf"(?={_KEY_CHAR}{{0,63}}[a-z])(?={_KEY_CHAR}{{0,63}}[A-Z])(?={_KEY_CHAR}{{0,63}}[0-9])(?!{_CAMEL})"
    rf"[A-Za-z0-9]{_KEY_CHAR}{{6,62}}[A-Za-z0-9](?![A-Za-z0-9_\-@/]|\.[A-Za-z0-9])"
)
# Up to eight words before the key, or a name glued to a copula (Thai, Khmer, Cantonese); not the network's name.
_NOT_NAME = r"(?!(?i:ssid|name|named|called|heißt|nom|nombre|nome|navn|namn|nimi|имя|назва)(?![^\s]))"
_KEY_WORDS = rf"(?:[^\x00-\x7f\s]{{0,20}}(?:[ \t]+{_NOT_NAME}[^\s:=：.,;!?]{{1,24}}){{0,8}}?[ \t]*[:：]?[ \t]+)"
_WIFI_WORDS = (
    "wifi", "wi-fi", "wlan", "вайфай", "вай-фай", "واي فاي", "وای\u200cفای", "وای فای", "वाईफाई", "वाई-फाई",
    "వైఫై", "ไวไฟ", "វ៉ាយហ្វាយ", "와이파이", "ワイファイ", "pasfrazo",
)  # fmt: skip


def _number_kind(word: str) -> SecretKind:
    """A code named by word, then a number."""
    tail = _PIN_TAIL if word in ("pin", "пин", "пін", "पिन") else ""
    start = (rf"{word}(?<![a-z0-9]{word})" if word.isascii() else word) + tail
    if word in ("kod", "kode"):  # glued after a Scandinavian compound: "portkoden", "dørkode"
        start = rf"{word}(?<![0-9]{word})(?:en|n)?(?![a-z])"
    # (`pin` is in "ping", "mapping", "pin the version": the screen spares them compiling the rest)
    screen = r"pin[ \t\-:=：ckn\u043a][^\n]{0,240}?[0-9]{2}" if word == "pin" else None
    return folded_kind("password assignment", start + _NOT_OBJECT + _NUMBER, word, screen=screen)


def _key_kind(word: str) -> SecretKind:
    """A Wi-Fi key named by word (case kept: the key's mixed case is what tells it from a word)."""
    start = rf"(?i:{word})(?<![A-Za-z0-9].{{{len(word)}}})" if word.isascii() else word
    return SecretKind("password assignment", rf"{start}{_KEY_WORDS}{_PLACEHOLDER}{_KEY}", (word,))


# "Here are my recovery codes in case I get locked out: 6za7-9rsp-lw9w": one code of three groups or more.
_ONE_RECOVERY = (
    r"(?:backup|recovery)[ \t]+codes?[^\n:：]{0,48}?[ \t]*[:：][ \t]*"
    r"(?=[a-z0-9\-]*[0-9])(?=[a-z0-9\-]*[a-z])[a-z0-9]{4,6}(?:-[a-z0-9]{4,6}){2,5}(?![a-z0-9\-])"
)

# An authenticator's setup key read out in groups of four base32 characters ("Enter this key: 6wms hwuw ...").
_GROUPS = r"(?=(?:[a-z ]*[2-7]){2})[a-z2-7]{4}(?: [a-z2-7]{4}){5,9}(?![a-z0-9])"
_SETUP_KEY = rf"key[ \t]*[:：][ \t]*{_GROUPS}"

SPOKEN_KINDS: tuple[SecretKind, ...] = (
    *(_number_kind(word) for word in _NUMBER_WORDS),
    *(_key_kind(word) for word in _WIFI_WORDS),
    folded_kind("password assignment", _ONE_RECOVERY, "codes", "code"),
    folded_kind("password assignment", _SETUP_KEY, "key", screen=r"key[ \t]*[:：][ \t]*[a-z2-7]{4} [a-z2-7]{4} "),
)
