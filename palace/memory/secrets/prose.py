"""Passwords said in words or assigned by name: `password=...`, `--password ...`, "the password for the NAS is
...", "das Passwort lautet ...", "密码是...", "パスワードは...", "log in as admin with ...", "my pin is ...".

Every kind here is folded (it runs over the lower-cased text) and starts with its keyword as a literal, so
that sre searches for the keyword instead of trying every position."""

from __future__ import annotations

from typing import NamedTuple

from palace.memory.secrets.kinds import PLACEHOLDER as _PLACEHOLDER
from palace.memory.secrets.kinds import QUOTE as _Q
from palace.memory.secrets.kinds import SecretKind, folded_kind
from palace.memory.secrets.spoken import SPOKEN_KINDS


class _Keyword(NamedTuple):
    pattern: str
    anchors: tuple[str, ...]
    screen: str | None = None  # the pattern without its zero-width assertion about what comes before


def _keyword(first: str, rest: str = "", glued: str = "", not_after: str = "") -> _Keyword:
    """A keyword starting with the literal first: at the start of a word (`db_password`, `MY_API_KEY`), or
    glued to a word when glued follows (`PGPASSWORD=`), but not starting one (`password_min_length`)."""
    left = rf"(?<![a-z0-9]{first})" + (rf"|(?={glued})" if glued else "")
    end = r"[0-9]?(?![a-z0-9_])"
    before = rf"(?<!{not_after}{first})" if not_after else ""
    return _Keyword(rf"{first}{before}(?:{left}){rest}{end}", (first,), f"{first}{rest}{end}")


# A value: printable ASCII but space, `,` and `;`. After `=` it may be anything but a placeholder, a boolean or
# a small number; after `:` or a copula ("is", "lautet", "est", "是", "は"), it must look like a password: a
# digit or a symbol in it (a lone `-` or `.` does not count: "auto-generated"), or quoted, or (after `:`) the
# last word, unless a word that says something about the password ("Password: required", "(using password: YES)",
# closing punctuation after the word aside).
_V = r"[!-+\--:<-~]"
_SYMBOL = r"[\d!#$%&*+/<=>?@^_|~]"
# A symbol counts where a character follows it: "vergessen?" ends a question, it is no password.
# Or 12+ letters and digits ending in a symbol ("... é LdVhHzzXZkEr#"): no word that long ends a sentence so.
_SECRETISH = (
    rf"(?={_V}{{3}})(?:{_V}*(?:\d|{_SYMBOL}(?={_V})){_V}*|(?:[a-z0-9]+-){{2,}}[a-z0-9]+"
    r"|[a-z0-9]{12,}[!#$%&*+<=>?@^|~](?![!-~])"
    r"|(?:[a-z]{3,9}\.){3,7}[a-z]{3,9}(?![!-~])"  # a passphrase of words and dots (no file or host has 4 such)
    r"|[a-z]{4}(?:[ -][a-z]{4}){3}(?![!-~]))"  # an app password (Google's in spaced groups, Apple's with dashes)
)
# With no separator but a space (`smtp password Ab12#x`), a letter and a digit or a symbol other than `_`, `.`,
# `-` and `/` (`password max_tokens` is not one, nor a path: `-field=password secret/db`).
_STRONG_VALUE = rf"(?={_V}{{6}})(?={_V}*[a-z])(?={_V}*(?:\d|[!#$%&*+<=>?@^|~](?={_V}))){_V}+"
_QUOTED = r"[\"'`][^\"'`\s]{3,}[\"'`]"
_STOP = (
    r"(?!(?:required|optional|none|null|empty|hidden|unknown|unset|missing|invalid|incorrect|wrong|ok|yes|no|true"
    r"|false|n/a|tbd|see|same|reset|changed|expired|protected|encrypted|set|needed|below|above|here|there)"
    r"(?![!-~]*[a-z0-9]))"
)
_LAST = rf"{_STOP}{_V}{{3,}}(?=[ \t.!?。！？]*(?:\r?\n|$))"  # the last word of its line
# Or after `:`, the rest of the line as five to eight words, none of the words a sentence needs (a diceware
# passphrase: "...is: banjo sequin dingo zesty rhubarb", not "Password: must be at least 12 characters").
_FUNCTION_WORDS = (
    "the|and|for|with|must|be|is|are|to|of|in|on|at|not|least|should|will|your|from|this|that|into|when|than|then"
    "|have|has|can|use|set|it|you|we|our|by|or|as|an|a|no|yes|see|same|only|any|all|was|were|there|here|if"
)
_PHRASE = (
    rf"(?!(?:[a-z]+[ \t]+){{0,7}}(?:{_FUNCTION_WORDS})(?![a-z]))(?:[a-z]{{3,9}}[ \t]+){{4,7}}[a-z]{{3,9}}"
    r"(?=[ \t.]*(?:\r?\n|$))"
)
_NOT_TRIVIAL = r"(?!(?:true|false|yes|no|on|off|none|null|nil|[0-9]{1,5})(?![!-~]*[a-z0-9]))"
# (also `.Item(".../sendpassword") = "..."`: a quoted name closed by a bracket, then a quoted value only; a
# variable after it, `d["password"] = pw`, is code)
_EQ = (
    rf"(?:{_Q}[ \t]*(?::=|=>|=)[ \t]*{_Q}|[\"'][)\]][ \t]*=[ \t]*[\"'])"
    rf"{_PLACEHOLDER}{_NOT_TRIVIAL}{_V}{{3,}}"
)
# (`${DB_PASSWORD:?must be set}`, `${X:-...}`: a shell expansion's operator glued to the colon.)
_COLON = rf"{_Q}[ \t]*[:：](?![?+=\-])[ \t]*{_Q}{_PLACEHOLDER}(?:{_QUOTED}|{_SECRETISH}|{_LAST}|{_PHRASE})"
# "for the NAS", "für den Router", "du compte", "del servidor", "do banco", "от сервера": what it opens.
_FOR = (
    r"(?:[ \t]+(?:for|of|to|on|at|from|with|für|fur|vom|von|zum|zur|de|du|del|des|da|do|della|dello|dla|для|от)"
    r"[ \t]+[^\n:=：.,;!?]{1,40}?)?"
)
_NOW = r"now|still|just|actually|currently|also|probably|always|maintenant|jetzt|nun|ahora|agora|ora|теперь"
# "changed to", "rotated, it is", "geändert auf", "cambiada a", "alterada para", "changé en", "изменён на".
_CHANGED = (
    r"(?:(?:got|been|was|has been|wurde|ist|fue|ha sido|foi|a été|è stata|è stato|был|была)[ \t]+)?"
    r"(?:changed|rotated|reset|updated|set|geändert|cambiad[oa]|alterad[oa]|changé|modifié|cambiat[oa]|изменён|изменен)"
    r"(?:[ \t]+(?:to|auf|zu|a|para|en|à|in|на)|,[ \t]+(?:it's|it is|now))"
)
_COPULA = (
    rf"(?:(?:{_NOW})[ \t]+)?"  # "ahora es", "jetzt ist"
    rf"(?:{_CHANGED}|is|was|are|to|it's|it is|that's|lautet|ist|auf|est|c'est|en|à|es|será|a|é|e|è|sarà|это|теперь"
    r"|—|-|->|=>)"
    rf"(?:[ \t]+(?:{_NOW}))?"  # "the password is now ...", "est maintenant ..."
)
_PROSE = rf"{_FOR}\??[ \t]+{_COPULA}[ \t]+{_Q}{_PLACEHOLDER}(?:{_QUOTED}|{_SECRETISH})"
# "Le mot de passe Wi-Fi : ...", "password (prod): ...": a word or two may name what it opens before `:`.
_QUALIFIER = r"(?:(?:[ \t]+[^\s:=：]{1,20}){1,2}|[ \t]*\([^()\n:=]{1,40}\))"
# (A colon glued to both words is a reference, `-pass env:BACKUP_PASS`, not a label.)
_QUALIFIED_COLON = (
    rf"(?:{_FOR}{_COLON}|{_QUALIFIER}[ \t]*[:：](?:[ \t]+|(?=[\"'`])|(?<=[ \t][:：])|(?<=：))"
    rf"{_Q}{_PLACEHOLDER}(?:{_QUOTED}|{_SECRETISH}))"
)
_SPACE = rf"[ \t]+{_PLACEHOLDER}{_STRONG_VALUE}"
# `<password>...</password>` (Maven, NuGet, any XML), and a quoted name then a quoted value as two arguments or
# as a name and a value attribute: `define('DB_PASSWORD', '...')`, `<add key="ClearTextPassword" value="..."/>`.
_XML = rf"[ \t]*>{_PLACEHOLDER}{_NOT_TRIVIAL}[^<>\s]{{3,}}</"
_ANY_QUOTED = r"(?:'[^'\n]{3,200}'|\"[^\"\n]{3,200}\")"
_ARGUMENTS = rf"[\"'][ \t]*(?:,|[ \t]value[ \t]*=)[ \t]*(?![\"'][$<%{{])(?![\"'](?:true|false)[\"']){_ANY_QUOTED}"
# A call's last argument: `ssh.Password("...")`, `keyring.set_password("smtp", "ada", "...")`.
_CALL = rf"[ \t]*\((?:[ \t]*{_ANY_QUOTED}[ \t]*,)*[ \t]*[\"'](?=[^\"'\s]*(?:\d|{_SYMBOL}))[^\"'\s]{{4,64}}[\"'][ \t]*\)"
# An Erlang or Elixir tuple of a name and a quoted value: `{db_password, "..."}` (sys.config, a keyword tuple).
_TUPLE = (
    rf"[ \t]*,[ \t]*(?:\"(?=[^\"\n]*(?:\d|{_SYMBOL}))[^\"\n]{{6,200}}\"|'(?=[^'\n]*(?:\d|{_SYMBOL}))[^'\n]{{6,200}}')"
    r"[ \t]*\}"
)
_PASSWORD = rf"(?:{_EQ}|{_QUALIFIED_COLON}|{_PROSE}|{_SPACE}|{_XML}|{_ARGUMENTS}|{_CALL}|{_TUPLE})"

_PASSWORD_KEYWORDS = (
    _Keyword(
        r"(?<![a-z0-9])(?:wi-?fi|access|door) code(?![a-z0-9_])",
        ("wifi code", "wi-fi code", "access code", "door code"),
    ),
    # glued to the word before (`rootPassword`, `storePassword`, `PGPASSWORD`): the word's own name is enough
    _keyword(  # not sudoers' `NOPASSWD:` tag; `pass_phrase` (OCI's config) too
        "pass",
        r"(?:word|wd|wort|[_\-]?phrase|code)?",
        glued=r"(?:word|wd|phrase)[0-9]?(?![a-z0-9])|wort",
        not_after="no",
    ),
    _keyword("pwd", glued=r"[ \t]*="),
    _keyword("psk"),  # a pre-shared key (Wi-Fi, IPsec)
    _keyword("pw"),
    _keyword("kennwort", glued="kennwort"),
    _keyword("mot de passe"),
    _keyword("mdp"),
    _keyword("contraseña"),
    _keyword("senha"),
    _Keyword("пароль", ("пароль",)),
)
# Keys whose value may be short or plain (`api_key=abc123`): named as a password is.
_KEY_KEYWORDS = (
    _keyword("api", r"[_\-]?key"),
    _keyword("secret", r"[_\- ]?key"),
    _keyword("access", r"[_\-]?token"),
    _keyword("auth", r"[_\-]?(?:token|key)"),
    _keyword("client", r"[_\-]?secret"),
    # (looked for only where `secret` is: `app` is in most texts)
    _keyword("app", r"[_\-]?secret")._replace(anchors=("secret",)),
)
_KEY = (
    rf"(?:{_EQ}|{_Q}[ \t]*(?:[:：]|is\b|是|为)[ \t]*{_PLACEHOLDER}(?:{_QUOTED}|{_SECRETISH}|{_LAST})|{_XML}"
    rf"|{_ARGUMENTS})"
)
# In Chinese, Japanese and Korean the value follows the keyword with a particle or a colon between.
_CJK_SEP = r"[ \t]*(?:(?:是|为|為|は|が|는|은)[ \t]*[:：=]?|[:：=])[ \t]*"  # also a particle then a colon
_CJK = rf"{_CJK_SEP}(?:{_Q}|[「『“‘])[ \t]*{_PLACEHOLDER}(?:{_QUOTED}|{_SECRETISH})"  # (quoted 「so」 too)
# Or a few words between: in Chinese, a verb ending in a copula or a particle ("口令改成了 ...", "密码已经设置为
# ..."); elsewhere up to six words, each standing between spaces ("hasło do serwera to ...", "کلمه عبور سرور
# ... است"). Then a value with a letter and a digit or a symbol, not a name (`1Password`, `v2`).
_GLUED = r"[^\x00-\x7f\s。！？，、；：]{0,6}?"
_GLUED_LONG = r"[^\x00-\x7f\s。！？，、；：]{0,16}?"  # (Thai writes words without spaces: "รหัสผ่านเซิร์ฟเวอร์คือ ...")
_LOOSE_VALUE = rf"{_Q}{_PLACEHOLDER}(?![0-9]*[a-z]+[0-9]*(?![!-~]))(?![!-~]*password)(?<![a-z0-9_\-.]){_STRONG_VALUE}"
_CJK_LOOSE = rf"(?:{_GLUED}[为是成了到為をに를을로])?[ \t]*{_LOOSE_VALUE}"  # (`パスワードを ... に変えました`)
_WORDS_THEN_VALUE = (
    rf"{_GLUED_LONG}(?:[ \t]+[^\s:=：。！？，、；,.!?]{{1,12}}){{0,6}}?[ \t]*(?:[:：=][ \t]*)?[ \t]*{_LOOSE_VALUE}"
)
_CJK_KEYWORDS = (
    ("密码", "密碼", "口令"),
    ("パスワード", "暗証番号"),
    ("비밀번호", "암호", "비번"),
    ("共有キー", "预共享密钥", "預共享金鑰", "預共享密鑰", "사전 공유 키"),  # a VPN's pre-shared key is a password
)
# The word for password in other languages (those not in _PASSWORD_KEYWORDS), each followed as above.
_WORLD_KEYWORDS = (
    "clave", "chiave", "wachtwoord", "hasło", "şifresi", "şifre", "lösenord", "passord", "jelszó", "лозинка", "κωδικός",
    "סיסמה", "סיסמא", "كلمة المرور", "كلمة السر", "رمز عبور",
    "کلمه عبور", "पासवर्ड", "รหัสผ่าน", "mật khẩu", "heslo", "salasana", "parola", "parolă", "kata sandi", "contrasenya",
    "adgangskode", "geslo", "lozinka", "slaptažodis", "parool", "jelszava", "lykilorð", "wagwoord", "sifra", "šifra",
    "nenosiri", "pasahitza", "pasvorto", "passwuert", "modpas", "mat khau", "პაროლ", "құпиясөз", "кұпия сөз",
    "contrasinal", "парола", "fjalëkalim", "cyfrinair", "pasfhocal", "kata laluan", "kalmar sirri", "iphasiwedi",
    "şifrə", "сырсөз", "parol", "ពាក្យសម្ងាត់", "ລະຫັດຜ່ານ", "စကားဝှက်", "මුරපදය", "संकेतशब्द", "પાસવર્ડ", "ಪಾಸ್\u200cವರ್ಡ್",
    "ಪಾಸ್ವರ್ಡ್", "പാസ്\u200cവേഡ്", "പാസ്വേഡ്", "የይለፍ ቃል",
    "கடவுச்சொல்", "పాస్\u200cవర్డ్", "పాస్వర్డ్", "পাসওয়ার্ড", "ਪਾਸਵਰਡ", "پاس ورڈ", "գաղտնաբառ", "нууц үг",
    # passphrases and network keys, named as passwords are
    "geheimwort", "codewort", "frase de paso", "frase de contraseña", "phrase secrète", "phrase de passe",
    "frase segreta", "frase secreta", "palavra-passe", "palavra passe", "wlan-schlüssel", "netzwerkschlüssel",
    "wlan-key", "wifi-schlüssel",
)  # fmt: skip
# An ending after the word: "lösenordet", "passordet", "hesla", "salasanani", "wachtwoorden".
_ENDING = r"[a-zà-ÿăâîșțıśłżźćńą]{0,4}?"

# "log in as admin with Tr0ub4dor&3", "ssh in as root using ...", "login: deploy / ...", "creds are admin:...".
_AS = r"(?:[ \t]+[a-z]+){0,3}?[ \t]+as[ \t]+"  # "logged in as": the screen of the login kinds ends here
_AS_USER = _AS + r"[^\s]{1,40}[ \t]+(?:with|using|and|pw|pass(?:word)?)[ \t]+"
_LOGIN_VALUE = rf"(?:(?:the|password|pass|pw)[ \t]+)*{_PLACEHOLDER}{_STRONG_VALUE}"
_AS_USER_VALUE = _AS_USER + _LOGIN_VALUE
_LOGINS = (
    ("log", r"(?:ged|ging)?[ \t-]?(?:in|on)"),
    ("sign", r"(?:ed)?[ \t-]?in"),
    ("ssh", r"(?:[ \t]+in)?"),
    ("connect", r"(?:ed)?"),
)
# After the word (the end of the screen): what the credentials open, then `:`, `→`, "is" ("creds for db → u / p").
_USER_IS = r"(?![a-z0-9_])(?:[ \t]+for[ \t]+[^\n:=→]{1,30}?)?[ \t]*(?:[:=→]|->|are|is)"
_USER_IS_SCREEN = r"(?:[ \t]+for[ \t]|[ \t]*(?:[:=→]|->|are|is))"  # (what _USER_IS implies, cheaper to compile)
_USER_PASSWORD = (
    rf"{_USER_IS}[ \t]*[^\s/:,]{{1,40}}(?:[ \t]*[/:,][ \t]*|[ \t]+(?:and|with|pw|pass(?:word)?)[ \t]+)"
    rf"{_PLACEHOLDER}{_STRONG_VALUE}"
)
# "using Tr0ub4dor&3 for the staging admin", "use ... as the wifi password": a value with a letter and a strong
# symbol (not an address), then what it opens.
_USING = (
    rf"us(?<![a-z0-9]us)(?:e|ed|ing)[ \t]+{_Q}{_PLACEHOLDER}(?![^\s]*@[a-z0-9\-]+\.[a-z])"
    r"(?=[^\s\"'`]{0,63}[a-z])(?=[^\s\"'`]{0,63}[!#$%&*?@^~])[^\s\"'`]{8,64}"
    rf"{_Q}[ \t]+(?:as|for)[ \t]+(?:(?:the|my|our|your|this|that)[ \t]+)?(?:[a-z\-]+[ \t]+){{0,2}}?"
    r"(?:admin|administrator|root|login|account|user|wifi|wi-fi|password|passphrase|pin|vpn|router|nas)(?![a-z])"
)
# (`use` is in most texts: the value's symbol and what it opens first)
_USING_SCREEN = (
    r"us(?:e|ed|ing)[ \t]+(?=[^\s]{0,65}[!#$%&*?@^~])[^\s]{8,66}[ \t]+(?:as|for)[ \t]+(?:[a-z\-]+[ \t]+){0,4}?"
    r"(?:admin|administrator|root|login|account|user|wifi|wi-fi|password|passphrase|pin|vpn|router|nas)(?![a-z])"
)
# "the PIN is", "PIN code: ", and in other languages a few words of what it opens before a copula ("code PIN de
# la carte SIM est", "PIN-koden til alarmen er", "pincode van de kluis is", "PIN do alarmu w biurze to",
# "รหัส PIN ของตู้เซฟคือ"); no word of those is a number (`pin 13 is ...` names a board's pin).
# Nor a measure (`pin count is 1024`); and English pins a thing (`pin the version to 2024`): not a PIN's copula.
_PIN_WORD = (
    r"[ \t]+(?![0-9]+[ \t])"
    r"(?!(?:the|it|this|that|them|a|an|all|every|count|length|size|limit|max|min|attempts|retries|timeout)[ \t])"
    r"[^\s:=：.,;!?]{1,20}?"
)
_PIN_COPULA = (
    r"(?:[ \t]*[:=：]|[ \t]+(?:is|est|è|é|es|ist|er|är|on|to|je|jest|este|είναι|là|adalah|ni|és|olan)"
    r"|คือ|是|为|は|는|은)"
)
_PIN_IS = (
    r"(?:[ \t\-]?(?:code|kode|kod|codice|código|number|nummer|numer|numero|número|nr)[a-zа-я]{0,3})?"
    rf"(?:{_PIN_WORD}){{0,8}}?{_PIN_COPULA}"
)
_PIN = rf"pin(?<![a-z0-9]pin){_PIN_IS}[ \t]*[0-9]{{4,8}}(?![0-9a-z])"
# What follows `pin` in every match (a space, `-`, `:`, a code word's first letter, a glued copula), then 4 digits:
# a screen that costs little to compile, so that "ping", "mapping" and "pin the version" compile nothing more.
_PIN_SCREEN = r"pin[ \t\-:=：cknค是为は는은][^\n]{0,200}?[0-9]{4}"
# "the PUK for the office SIM is 32866930", "alarm disarm code: 161774", "garage keypad is 727167#".
_CODE_IS = rf"{_FOR}[ \t]*(?:[:=：]|is|was|—|-)[ \t]*"
_CODE = r"[0-9]{4,10}[#*]?(?![0-9a-z.,/:\-][0-9a-z])"
_CODED = ("alarm", "disarm", "arming", "door", "gate", "garage", "safe", "lock", "entry", "building", "locker")
_NUMERIC_CODES = (
    ("puk", rf"puk(?<![a-z0-9]puk)[0-9]?{_CODE_IS}{_CODE}"),
    ("keypad", rf"keypad(?<![a-z0-9]keypad)(?:[ \t]+code)?{_CODE_IS}{_CODE}"),
    (" code", rf" code(?:{'|'.join(f'(?<={word} code)' for word in _CODED)}){_CODE_IS}{_CODE}"),
)
# A door's, a gate's or an alarm's code named in other languages ("Türcode: 4821", "código de la alarma: 4821",
# "kod do drzwi to 4821", "קוד הכניסה: 4821", "도어락 번호 4821#"): the code may follow the name with a space
# only, or a few words and a copula.
_ENTRY_CODES = (
    "türcode", "zugangscode", "alarmcode", "torcode", "digicode", "code d'accès", "code de la porte",
    "code de l'alarme", "code du portail", "código de acceso", "código de la puerta", "código de la alarma",
    "código do portão", "código do alarme", "código de acesso", "codice di accesso", "codice del cancello",
    "codice dell'allarme", "toegangscode", "deurcode", "kod do drzwi", "kod alarmu", "kod do domofonu",
    "portkod", "larmkod", "dørkode", "alarmkode", "קוד הכניסה", "קוד כניסה", "קוד הדלת", "קוד האזעקה",
    "도어락 번호", "현관 번호", "출입 번호",
)  # fmt: skip
_ENTRY_IS = rf"(?:(?:{_PIN_WORD}){{0,4}}?{_PIN_COPULA}|(?=[ \t]))[ \t]*"
# "FileVault recovery key (ada's MacBook): R7NF-...", BitLocker's eight groups of six digits, 2FA recovery codes.
_RECOVERY = (
    r"recovery(?<![a-z0-9]recovery)[ \t]+(?:key|code)s?(?:[ \t]*\([^()\n]{1,40}\))?(?:[ \t]+for[ \t]+[^\n:=]{1,30}?)?"
    r"[ \t]*(?:[:=：]|is|are)[ \t]*[\"'`]?[a-z0-9]{4,8}(?:-[a-z0-9]{4,8}){3,7}(?![a-z0-9])"
)
# A list of 2FA backup codes named so in a language ("códigos de respaldo: 4821-7730 9912-0481 ...", "バックアップ
# コード：kq7wmz2p xr4nbt8v ...", or the name as a heading on a line of its own): three codes or more, each with a
# digit (but perhaps the first).
_BACKUP_CODES = (
    "backup codes", "recovery codes", "códigos de respaldo", "códigos de recuperación", "códigos de backup",
    "códigos de recuperação", "codes de secours", "codes de récupération", "backup-codes", "wiederherstellungscodes",
    "codici di backup", "codici di recupero", "back-upcodes", "herstelcodes", "kody zapasowe", "kody odzyskiwania",
    "резервные коды", "коды восстановления", "yedek kodlar", "リカバリーコード", "バックアップコード", "恢复码",
    "备用码", "備用碼", "복구 코드", "백업 코드",
)  # fmt: skip
_CODE_SEP = r"(?:[ \t]*[,;]?[ \t]+|[ \t]*\r?\n[ \t]*(?:[-*•][ \t]*)?(?:[0-9]{1,2}[.)][ \t]*)?)"
_ONE_CODE = r"(?=[a-z\-]*[0-9])[a-z0-9]{4,12}(?:-[a-z0-9]{3,12})?(?![a-z0-9\-])"
_CODES = (
    r"[^\n:：]{0,40}?[ \t]*(?:[:：]|(?=\r?\n))[ \t]*(?:\r?\n[ \t]*(?:[-*•][ \t]*)?(?:[0-9]{1,2}[.)][ \t]*)?)?"
    rf"(?:[a-z]{{6,12}}{_CODE_SEP})?"
    rf"(?:{_ONE_CODE}{_CODE_SEP}){{2,}}{_ONE_CODE}"
)

PROSE_KINDS: tuple[SecretKind, ...] = (
    *(
        folded_kind("password assignment", k.pattern + _PASSWORD, *k.anchors, screen=k.screen)
        for k in _PASSWORD_KEYWORDS
    ),
    *(
        folded_kind("password assignment", f"(?:{'|'.join(words)})(?:{_CJK}|{_CJK_LOOSE})", *words)
        for words in _CJK_KEYWORDS
    ),
    *(
        folded_kind(
            "password assignment", rf"{word}(?<![a-z0-9]{word}){_ENDING}{_WORDS_THEN_VALUE}" if word.isascii()
            else word + _ENDING + _WORDS_THEN_VALUE, word,
        )
        for word in _WORLD_KEYWORDS
    ),
    *(folded_kind("password assignment", k.pattern + _KEY, *k.anchors, screen=k.screen) for k in _KEY_KEYWORDS),
    *(
        folded_kind(
            "password assignment", rf"{first}(?<![a-z0-9]{first}){rest}(?![a-z0-9]){_AS_USER_VALUE}", first,
            screen=rf"{first}{rest}(?![a-z0-9]){_AS}",
        )
        for first, rest in _LOGINS
    ),
    *(
        folded_kind(
            "password assignment", rf"{word}(?<![a-z0-9]{word}){_USER_PASSWORD}", word, screen=word + _USER_IS_SCREEN
        )
        for word in ("login", "logon", "creds", "credentials")
    ),
    folded_kind("password assignment", _PIN, "pin", screen=_PIN_SCREEN),
    *(folded_kind("password assignment", pattern, anchor) for anchor, pattern in _NUMERIC_CODES),
    *(
        folded_kind(
            "password assignment", rf"{word}(?<![a-z0-9]{word}){_ENTRY_IS}{_CODE}" if word.isascii()
            else word + _ENTRY_IS + _CODE, word,
        )
        for word in _ENTRY_CODES
    ),
    folded_kind("password assignment", _RECOVERY, "recovery"),
    *(
        folded_kind(
            "password assignment", rf"{word}(?<![a-z0-9]{word}){_CODES}" if word.isascii() else word + _CODES, word,
        )
        for word in _BACKUP_CODES
    ),
    folded_kind("password assignment", _USING, "use", screen=_USING_SCREEN),
    *SPOKEN_KINDS,
)  # fmt: skip
