"""The provider table: credentials whose shape is their own (a vendor prefix, a fixed layout), the more
specific first so that a refusal names the right one. The generic rules (generic.py) catch what has no
shape of its own; many formats are caught by both, and the table's name wins."""

from __future__ import annotations

from palace.memory.secrets.kinds import FILLER as _F
from palace.memory.secrets.kinds import PLACEHOLDER as _PLACEHOLDER
from palace.memory.secrets.kinds import QUOTE as _Q
from palace.memory.secrets.kinds import SecretKind, folded_kind, gated_kind
from palace.memory.secrets.kinds import at as _at
from palace.memory.secrets.kinds import kind as _kind
from palace.memory.secrets.kinds import token_kind as _token_kind


def _folded_token_kind(name: str, pattern: str, *anchors: str) -> SecretKind:
    return SecretKind(name, pattern, anchors, ignore_case=True, token=True)


# Keys named by their vendor (`AWS secret key is ...`, `TWILIO_AUTH_TOKEN=...`, `DD_API_KEY=...`), whose value
# alone (40 base64 characters, 32 or 40 hex digits) would look like any digest.
_BODY = r"[A-Za-z0-9_\-]"  # base64url, the body of most tokens
_IS = rf"{_Q}[ \t]*(?:[:=：]|is\b|是|为)?[ \t]*{_Q}"
_AWS_SECRET = (
    rf"{_at('aws')}[\w \-]{{0,20}}?secret[\w \-]{{0,12}}?key\b{_IS}(?![a-z0-9/+]{{0,36}}example)[a-z0-9/+]{{40}}"
    r"(?![a-z0-9/+=])"
)
_TWILIO = rf"{_at('twilio')}[\w \-]{{0,24}}?(?:token|secret)\b{_IS}[0-9a-f]{{32}}\b"
_DATADOG_KEY = r"[\w \-]{0,16}?(?:api|app(?:lication)?)[_\- ]?key\b"  # what its screen ends with
_DATADOG = rf"{_DATADOG_KEY}{_IS}[0-9a-f]{{32}}(?:[0-9a-f]{{8}})?\b"

# The whole block, BEGIN through END; without an END line, through the end of the base64 body: its lines (or
# space-separated runs, or `\n`-separated inside a JSON string) and `Proc-Type:`-style headers. A short run
# must have a digit or `+/=` in it, so that prose after a truncated key ("thanks") is not taken for its tail.
_PEM_GAP = r"(?:\s|\\[nr])"
# Other armoured secrets share the layout: a NATS nkey seed (`-----BEGIN USER NKEY SEED-----`), an OpenVPN
# static key (`-----BEGIN OpenVPN Static key V1-----`, hex lines); their END line may have six dashes.
_PEM_NAME = r"(?:PRIVATE KEY(?: BLOCK)?|NKEY SEED|[Ss]tatic key V1)"
# A header with a placeholder for its body (`...`, `<paste your key here>`, `[key]`) is a template, not a key.
_PEM_BODY = rf"(?!{_PEM_GAP}+(?:\.\.\.|…|<|\[|\{{|[xX]{{4}}|\*{{4}}))"
_PEM = (
    rf"-----BEGIN[A-Za-z0-9 ]*{_PEM_NAME}-----{_PEM_BODY}"
    rf"(?:{_PEM_GAP}+(?:(?:Proc-Type|DEK-Info|Comment|Version):[^\n\\]*|[A-Za-z0-9+/=]{{16,}}"
    r"|[A-Za-z0-9+/=]{0,15}[0-9+/=][A-Za-z0-9+/=]{0,15}(?![A-Za-z0-9+/=])))*"
    rf"(?:{_PEM_GAP}*-{{5,6}}END[A-Za-z0-9 ]*{_PEM_NAME}-{{5,6}})?"
)
# The SSH2 (RFC 4716) and PuTTY layouts: from the first line through the last base64 line or the MAC.
_SSH2 = (
    r"---- BEGIN SSH2 (?:ENCRYPTED )?PRIVATE KEY ----(?:\s+(?:[A-Za-z-]+: [^\n]*|[A-Za-z0-9+/=]{4,}\\?))*"
    r"(?:\s*---- END SSH2 (?:ENCRYPTED )?PRIVATE KEY ----)?"
)
_PPK = r"PuTTY-User-Key-File-[0-9]: [^\n]*(?:\n[A-Za-z-]+: [^\n]*|\n[A-Za-z0-9+/=]{4,})*"

# Real keys are random: capitals and digits in them, or (`sk-<32 hex>`, `sk-or-v1-<64 hex>`) a run of 20+
# lower-case letters and digits with a digit in it; unlike a kebab-case name such as `sk-web-app-frontend-v2`.
_OPENAI = (
    rf"{_at('sk-')}(?:(?=[A-Za-z0-9_\-]{{0,255}}[A-Z])(?=[A-Za-z0-9_\-]{{0,255}}[0-9])"
    r"|(?:[a-z0-9]{1,8}-){0,3}(?=[a-z0-9]{20})(?=[a-z0-9]{0,40}[0-9]))[A-Za-z0-9_\-]{20,}+"
)
_HUGGING_FACE = rf"{_at('hf_')}(?=[A-Za-z0-9]{{0,255}}[A-Z])(?=[A-Za-z0-9]{{0,255}}[a-z])[A-Za-z0-9]{{30,}}+"
# Starting with a character class (not `\b`) lets sre skip positions that cannot start a match.
_TELEGRAM = r"[0-9](?<![0-9][0-9])[0-9]{4,11}:(?=[A-Za-z0-9_\-]{0,34}[A-Z])[A-Za-z0-9_\-]{35}(?![A-Za-z0-9_\-])"
_DISCORD = (
    r"[MNO](?<![A-Za-z0-9_][MNO])(?=[A-Za-z]{0,26}[0-9])[A-Za-z0-9]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,}"
)
_MAILGUN = r"[0-9a-f](?<![A-Za-z0-9_][0-9a-f])[0-9a-f]{31}-[0-9a-f]{8}-[0-9a-f]{8}\b"
_ARGUMENT = r"(?:'[^'\n]+'|\"[^\"\n$]+\"|[^\s'\"$]\S*)"  # quoted or bare, not a `$VARIABLE`
_SSHPASS = rf"{_at('sshpass')}\b[^\n]{{0,200}}?\s-p\s*{_ARGUMENT}"
# (also as an item of an exec-form command: `["mysqladmin", "ping", "-p..."]`)
_MYSQL = rf"{_at('mysql')}(?:dump|admin|sh)?\b[^\n]{{0,200}}?[\s\"'](?:-p(?=[^\s\"'])|--password=){_ARGUMENT}"
_MARIADB = rf"{_at('mariadb')}(?:-dump|-admin)?\b[^\n]{{0,200}}?[\s\"'](?:-p(?=[^\s\"'])|--password=){_ARGUMENT}"
# Other programs that take a password as an argument: after the option (`redis-cli -a`, `sqlcmd -P`, `zip -P`,
# `7z -p<pw>`, `docker login -p`, `keytool -storepass`, `-passin pass:`), or as `user%password`, or the last
# argument of `htpasswd -b`.
_ON_LINE = r"[^\n]{0,200}?\s"
_NOT_A_VARIABLE = rf"(?![$-]){_ARGUMENT}"
_PROGRAMS = (
    ("redis-cli", r"-a[ \t]+"),
    ("sqlcmd", r"-P[ \t]+"),
    ("zip", r"-P[ \t]+"),
    ("7z", r"-p"),
    ("unrar", r"-p"),
    ("keytool", r"-(?:store|key|srcstore|deststore)pass[ \t]+"),
    ("smbclient", r"-U[ \t]*[^\s%]+%"),
    ("htpasswd", r"-b[a-zA-Z]*[ \t]+(?:-c[ \t]+)?\S+[ \t]+\S+[ \t]+"),
    ("mosquitto_passwd", r"-b[ \t]+(?:-c[ \t]+)?\S+[ \t]+\S+[ \t]+"),  # (the same arguments as htpasswd's)
    ("login", r"(?:-p|--password)[ \t]+"),  # `az login`, `oc login`, `docker login` (`docker run -p` maps a port)
    ("unzip", r"-P[ \t]+"),
    ("ldap", r"-w[ \t]+"),  # ldapsearch, ldapadd, ldapmodify, ...
    ("cqlsh", r"(?:-p|--password)[ \t=]+"),
    ("mongo", r"(?:-p|--password)[ \t=]+"),  # mongo, mongosh, mongodump, mongorestore
    ("mosquitto_", r"-P[ \t]+"),
    ("lftp", r"-u[ \t]*[^\s,]+,"),
)
# Commands that take a password as a positional argument, or a user and password in one (`user/pw@db`).
_ARG = r"(?:'[^'\n]+'|\"[^\"\n$]+\"|(?![$%/<-])[^\s'\"]+)"
_POSITIONAL = rf"{_at('http-basic')}\.[\w.\-]+[ \t]+\S+[ \t]+{_ARG}"  # `poetry config`, `composer config`
_NET_USE = rf"{_at('net use')}[^\n]{{0,80}}?\\\\[^\s\\]+\\\S*[ \t]+{_ARG.replace('[$%/<-]', '[$%/<*-]')}"
_SQLPLUS = (
    r"sqlplus(?<![a-z0-9_]sqlplus)[^\n]{0,40}?(?<![a-z0-9_$#])"
    r"[a-z0-9_$#]+/(?![/@])[^\s/@\"']{3,64}@"
)
# The same in a JDBC thin URL (`jdbc:oracle:thin:user/password@//host:1521/service`).
_THIN = r"thin:(?<![a-z0-9_]thin:)[a-z0-9_$#]+/(?![/@])[^\s/@\"']{3,64}@"
_SECURE_STRING = r"convertto-securestring[ \t]+(?:-string[ \t]+)?(?:'[^'\n]{3,}'|\"[^\"\n$]{3,}\")"
# Java's way to hand over a password: a literal turned into a char array (`ks.load(in, "...".toCharArray())`).
_CHAR_ARRAY = r"\"(?=[^\"\n]{0,63}[0-9!#$%&*+=?@^~_])(?=[^\"\n]{0,63}[a-z])[^\"\s\\]{6,64}\"\.tochararray\(\)"
# A Wi-Fi passphrase given to a tool: `wpa_passphrase <ssid> <passphrase>`, `netsh wlan ... key=<passphrase>`
# (WPA's are 8 to 63 characters; not a redirection, a variable or a prompt's placeholder).
_PASSPHRASE = r"(?:'[^'\n]{8,63}'|\"[^\"\n$]{8,63}\"|(?![$%<>|&*])[^\s'\"]{8,63}(?![^\s]))"
_WPA_PASSPHRASE = rf"wpa_passphrase[ \t]+(?:'[^'\n]+'|\"[^\"\n]+\"|[^\s'\"<>|]+)[ \t]+{_PASSPHRASE}"
_NETSH_KEY = rf"netsh[ \t]+wlan[ \t][^\n]{{0,160}}?[ \t](?:key|keymaterial)=(?![\"']?[$%<])[\"']?{_PASSPHRASE}"
# A stream key: the path segment after an RTMP server's application (`rtmp://a.rtmp.youtube.com/live2/<key>`).
_RTMP_KEY = (
    r"rtmps?://[^\s/\"']+(?:/[^\s/\"']+)?/(?=(?:[a-z_\-]*[0-9]){3})(?=[a-z0-9_\-]{0,80}[a-z])[a-z0-9_\-]{16,80}"
    r"(?![^\s\"'])"
)
# A Wi-Fi network's QR code: `WIFI:T:WPA;S:<ssid>;P:<password>;;`.
_WIFI_QR = r"wifi:(?:[tsh]:[^;\n]{0,64};)*p:(?![$<{%])(?:\"[^\"\n]{4,63}\"|[^;\n\"]{4,63});"
# A call that takes a user and a password as two literal arguments in a row: `new NetworkCredential("u", "pw")`,
# `DriverManager.getConnection(url, "sa", "pw")`, `smtp.login("me", "pw")`, any `...connect(..., "u", "pw", ...)`.
_CALL_PASSWORD = r"(?=[^\"'\n]{0,63}[0-9!#$%&*+=?@^~])(?=[^\"'\n]{0,63}[a-z])[^\"'\s]{6,64}"
_CREDENTIAL_CALL = (
    r"(?:credentials?|getconnection|login|auth|authentication|connect)\([^()\n]{0,80}?[\"'][^\"'\n]{1,64}[\"'][ \t]*,"
    rf"[ \t]*(?:\"{_CALL_PASSWORD}\"|'{_CALL_PASSWORD}')(?:\.[a-z_]{{1,20}}\(\))?[ \t]*[,)]"  # `"...".toCharArray()`
)
# Login-like callees more common in other code (`start`, `open`, `bind...`, `session`, `authenticate`): the
# password literal must hold a digit, a letter and a symbol other than `@` (an address is no password).
_STRICT_PASSWORD = r"(?=[^\"'\n]{0,63}[0-9])(?=[^\"'\n]{0,63}[!#$%&*+=?^~])" + _CALL_PASSWORD
_LOGIN_ARGUMENTS = (
    r"\([^()\n]{0,80}?[\"'][^\"'\n]{1,64}"
    rf"[\"'][ \t]*,[ \t]*(?:\"{_STRICT_PASSWORD}\"|'{_STRICT_PASSWORD}')[ \t]*[,)]"
)
# Each callee starts its own regex with a literal (an alternation first would be tried at every position).
_LOGIN_CALLEES = (
    ("start", ""), ("open", ""), ("bind", "[a-z_]{0,10}"), ("session", ""), ("authenticate", ""), ("signin", ""),
    ("sign_in", ""),
)  # fmt: skip
# SQL's `IDENTIFIED BY '...'` (Oracle, MySQL; `IDENTIFIED WITH <plugin> BY '...'`).
_IDENTIFIED = (
    rf"identified[ \t]+(?:with[ \t]+[a-z0-9_]{{1,40}}[ \t]+)?by[ \t]+{_PLACEHOLDER}"
    r"(?:'(?![%:])[^'\n]{6,128}'|\"(?![%:])[^\"\n]{6,128}\")"
)
# A user and a password as the positional arguments of a command that adds a user (`rabbitmqctl add_user u p`).
_ADD_USER = (
    r"user(?:(?<=adduser)|(?<=add_user)|(?<=add-user)|(?<=createuser)|(?<=create_user)|(?<=create-user))"
    r"[ \t]+[^\s'\"]{1,64}[ \t]+(?=[^\s]{0,129}[0-9!#$%&*+=?@^~])"
    r"(?:'[^'\s]{6,128}'|\"[^\"\s]{6,128}\"|[^\s'\"$<\-][^\s'\"]{5,127})(?![^\s])"
)
_ADD_USER_SCREEN = _ADD_USER[: _ADD_USER.index("[ \\t]+")]  # (its literal and lookbehinds: `user` is common)
# A user and a password given to a command that sets one (`drush user:password admin '...'`, `set-password`).
_SET_PASSWORD = (
    r"(?:user:password|set[_\-]?password|change[_\-]?password|reset[_\-]?password)(?![a-z0-9_\-])"
    r"[ \t]+[^\s'\"\-][^\s'\"]{0,63}[ \t]+(?=[^\s]{0,129}[0-9!#$%&*+=?@^~])"
    r"(?:'[^'\s]{6,128}'|\"[^\"\s]{6,128}\"|[^\s'\"$<\-][^\s'\"]{5,127})(?![^\s])"
)
# (Its screen starts with a literal, so that sre looks for `password` rather than try the alternation everywhere.)
_SETTERS = ("user:", *(verb + sep for verb in ("set", "change", "reset") for sep in ("", "_", "-")))
_SET_SCREEN = "password(?:" + "|".join(f"(?<={setter}password)" for setter in _SETTERS) + r")(?![a-z0-9_\-])[ \t]"
# `-u USER ... -p PASSWORD` with a space after `-p` (hdbsql, sqlcmd, mongo; `-pPASS` is mysql's, below): a value
# with both cases and a digit, not a port, a path or a variable.
_USER_THEN_P = (
    r"(?<![^\s])-(?:u|U|-user(?:name)?)[ \t=]+[^\s]{1,40}[ \t]+(?:[^\s]+[ \t]+){0,4}?-[pP][ \t]+"
    r"(?:(?=[^\s]{0,63}[a-z])(?=[^\s]{0,63}[A-Z])(?=[^\s]{0,63}[0-9])[^\s'\"$<\-/][^\s'\":/=]{7,63}"
    r"|[a-z]{4}(?:-[a-z]{4}){3})(?![^\s])"  # (or an app-specific password: `-p abcd-efgh-ijkl-mnop`)
)
# A key given to a command by a one-letter option (`-k <40 hex>`, `-t <uuid>`, `-t r4-<hex>`: cloudsmith, codecov,
# anaconda) or after
# `login` (`wandb login <40 hex>`).
_HEX_KEY = (
    r"(?:[a-z][a-z0-9]{0,3}[_\-])?(?:[0-9a-f]{32,64}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"
    r"(?![0-9a-z\-])"
)
# (and a `--...-key` option: `--setup-key <uuid>`, `--key <hex>`, not a signing key's or a key server's)
_KEY_OPTION = rf"(?<![^\s])-[kt][ \t]+{_HEX_KEY}"
_KEY_LONG_OPTION = (  # (a literal first: sre looks for `--` alone)
    rf"--(?<![^\s]--)(?!(?:gpg|pgp|recv|signing|trusted|default|public|pub|ssh|host)-)(?:[a-z]+-){{0,2}}key"
    rf"[ \t=]+{_HEX_KEY}"
)
_LOGIN_KEY = rf"login(?<![a-z0-9_\-.]login)[ \t]+(?:--?[a-z][a-z\-]{{1,20}}[ \t]+){{0,2}}{_HEX_KEY}"
# A client made with a key as its only argument (`messagebird.initClient('...')`, `new Client("...")`).
_CLIENT_KEY = (
    r"(?:[Cc]lient|API|Api|SDK|Sdk)\([ \t]*[\"'](?:(?=[A-Za-z0-9_\-]{0,63}[0-9])(?=[A-Za-z0-9_\-]{0,63}[A-Z])"
    r"(?=[A-Za-z0-9_\-]{0,63}[a-z])[A-Za-z0-9_\-]{20,64}|[0-9a-f]{32,64})[\"'][ \t]*[,)]"
)
# A secret key named by an `_SK` suffix beside its `_AK` (`HUAWEICLOUD_SDK_SK=...`): 30+ base64 characters.
_SK_SUFFIX = r"[a-z0-9]_sk[\"']?[ \t]*[:=][ \t]*[\"']?(?=[a-z0-9/+]{0,80}[0-9])[a-z0-9/+]{30,80}(?![a-z0-9/+])"
# A password sent by an expect script after the prompt it waits for (`expect "*assword:"; send "...\r"`).
_EXPECT_SEND = (
    r"expect[ \t]+(?:-[a-z]+[ \t]+)?[\"'{][^\"'}\n]{0,40}(?:pass|pin|secret|token)[^\"'}\n]{0,40}[\"'}][ \t]*;?[ \t]*"
    r"(?:\r?\n[ \t]*)?send[ \t]+(?:--[ \t]+)?[\"'{](?![$<])[^\"'}\s\\]{4,64}(?:\\[rn])?[\"'}]"
)
# A private key in bech32 whose prefix says so (`suiprivkey1...`, `nsec1...`).
_BECH32_PRIVATE = r"(?<![a-z0-9])[a-z]{0,8}(?:privkey|prv|secret|nsec)1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{38,}"

# A .pgpass line, `host:port:database:user:password`, alone on its line.
_PGPASS = r"(?<![^\n \t])[a-z0-9.\-*]+:5432:[^\s:]+:[^\s:]+:(?!\*?(?:\s|$))[^\s]{4,}(?![^\n])"
# Recovery codes listed after their name.
_CODE = r"(?:[a-z0-9]{4,6}-[a-z0-9]{4,6}|[0-9]{6,10})"
_RECOVERY = (
    rf"(?:recovery|backup)[ \t]codes?(?![a-z])[^\n]{{0,40}}?[:\n][ \t\n]*{_CODE}(?:[ \t,;]*\n?[ \t]*{_CODE}){{3,}}"
)

_OPENSSL_PASS = r"-pass(?<=\s-pass)(?:in|out)?[ \t]+pass:(?![$<]|\s)\S+"
_OPTION = tuple(space + "-" for space in " \t\n\r\x0b\x0c")  # every command line kind's option follows a space
_QUOTED_OPTION = (*_OPTION, '"-', "'-")  # (or a quote, in an exec-form command)
_BASIC = rf"{_at('authorization')}[\"']?\s*[:=]\s*[\"']?basic\s+(?=[a-z0-9+/]{{0,255}}[0-9+/=])[a-z0-9+/]{{6,}}={{0,2}}"
# (not the docs' `-u USERNAME:PASSWORD`: a password that is the word for one is a slot)
# A key as the user of `curl -u` with an empty or a short dummy password (`-u <key>:`, `-u <key>:X`,
# `-u <key>:token`): some APIs take their key so.
_CURL_KEY = (
    rf"{_at('curl')}\b[^\n]{{0,200}}?\s(?:-u|--user)[\s=]+[\"']?(?=[a-z0-9_\-]{{0,63}}[0-9])"
    r"(?=[a-z0-9_\-]{0,63}[a-z])[a-z0-9_\-]{16,64}:[a-z0-9]{0,5}(?![^\s\"'])"
)
_CURL = (
    rf"{_at('curl')}\b[^\n]{{0,200}}?\s(?:-u|--user)[\s=]+[\"']?[^\s:\"'$<]+:(?![$<{{])"
    r"(?!(?:password|passwd|pass|pwd|secret|token|apikey|api_key)(?![^\s\"']))[^\s\"']{3,}"
)
# Any other scheme in an Authorization header (`token`, `Bot`, `ApiKey`, `SSWS`, `Digest ...`): its value.
_AUTHORIZATION = (
    rf"{_at('authorization')}[\"']?[ \t]*[:=][ \t]*[\"']?(?:[a-z][a-z0-9_\-]{{1,20}}[ \t]+)?"
    r"(?![<$%{]|basic\b|bearer\b)"
    r"(?=[a-z0-9_\-.~+/=]{0,200}[0-9])[a-z0-9_\-.~+/=]{12,}"
)

SECRET_KINDS: tuple[SecretKind, ...] = (
    _kind("PEM private key", _PEM, "-----begin"),
    _kind("PEM private key", _SSH2, "---- begin ssh2"),
    _kind("PuTTY private key", _PPK, "putty-user-key-file-"),
    _token_kind("Anthropic API key", rf"{_at('sk-ant-')}[A-Za-z0-9_\-]{{20,}}", "sk-ant-"),
    _token_kind("OpenAI API key", _OPENAI, "sk-"),
    _token_kind("AWS access key", rf"\b(?:AKIA|ASIA|ABIA|ACCA){_F}[0-9A-Z]{{16}}\b", "akia", "asia", "abia", "acca"),
    folded_kind("AWS secret access key", _AWS_SECRET, "aws"),
    _token_kind("AWS Bedrock API key", rf"{_at('ABSK')}[A-Za-z0-9+/]{{100,}}={{0,2}}", "absk"),
    _token_kind("Google HMAC key", rf"{_at('GOOG1')}[A-Z0-9]{{50,60}}\b", "goog1"),
    _token_kind("Google OAuth token", rf"{_at('1//0')}[A-Za-z0-9_\-]{{40,}}", "1//0"),
    _token_kind("GitHub token", rf"{_at('gh')}[pousr]_{_F}[A-Za-z0-9]{{30,}}", "gh"),
    _token_kind("GitHub token", rf"{_at('github_pat_')}{_F}[A-Za-z0-9_]{{22,}}", "github_pat_"),
    _token_kind("GitLab token", rf"{_at('gl')}(?:pat|dt|ptt|rt|cbt|soat|ft|imt|agent|oas|ffct)-{_BODY}{{20,}}", "gl"),
    _token_kind("GitLab token", rf"{_at('GR1348941')}[A-Za-z0-9_\-]{{20,}}", "gr1348941"),
    _token_kind("Bitbucket app password", rf"{_at('ATBB')}[A-Za-z0-9_=.\-]{{28,}}", "atbb"),
    _token_kind("Atlassian API token", rf"{_at('ATATT3')}[A-Za-z0-9_\-=]{{100,}}", "atatt3"),
    _token_kind("Slack token", rf"(?:{_at('xox')}[abposre]|{_at('xapp')})-[A-Za-z0-9\-]{{11,}}", "xox", "xapp-"),
    _token_kind(
        "Slack webhook URL",
        r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9]+/[A-Za-z0-9]+/[A-Za-z0-9/]+",
        "hooks.slack",
    ),
    _token_kind("Google API key", rf"{_at('AIza')}[0-9A-Za-z_\-]{{35,}}", "aiza"),
    _token_kind("Google OAuth client secret", rf"{_at('GOCSPX-')}[A-Za-z0-9_\-]{{20,}}", "gocspx-"),
    _token_kind(
        "Stripe key",
        rf"[sr]k_(?<![A-Za-z0-9_][sr]k_)(?:live|test|prod)_{_F}[A-Za-z0-9]{{16,}}",
        "_live_",
        "_test_",
        "_prod_",
    ),
    _token_kind("Stripe key", rf"{_at('whsec_')}{_F}[A-Za-z0-9+/=]{{24,}}", "whsec_"),
    _token_kind("JSON Web Token", rf"{_at('eyJ')}{_BODY}{{8,}}\.eyJ{_BODY}{{8,}}\.{_BODY}{{8,}}", "eyj"),
    _token_kind("Grafana token", rf"{_at('eyJrIjoi')}[A-Za-z0-9]{{40,}}={{0,2}}", "eyjrijoi"),
    _token_kind("npm token", rf"{_at('npm_')}[A-Za-z0-9]{{36,}}", "npm_"),
    _token_kind("PyPI token", rf"{_at('pypi-')}AgE[A-Za-z0-9_\-]{{50,}}", "pypi-"),
    _token_kind("NuGet API key", rf"{_at('oy2')}[a-z0-9]{{43}}\b", "oy2"),
    _token_kind(
        "JFrog token", rf"(?:{_at('AKCp')}[A-Za-z0-9]{{60,}}|{_at('cmVmdGtu')}[A-Za-z0-9]{{50,}})", "akcp", "cmvmdgtu"
    ),
    _token_kind("Hugging Face token", _HUGGING_FACE, "hf_"),
    _token_kind("SendGrid API key", rf"{_at('SG')}\.[A-Za-z0-9_\-]{{20,24}}\.[A-Za-z0-9_\-]{{40,}}", "sg."),
    _token_kind("Groq API key", rf"{_at('gsk_')}[A-Za-z0-9]{{48,}}", "gsk_"),
    _token_kind("DigitalOcean token", rf"{_at('do')}[opr]_v1_[a-f0-9]{{64}}\b", "_v1_"),
    _token_kind("Shopify token", rf"{_at('shp')}(?:at|ca|pa|ss)_[a-fA-F0-9]{{32}}\b", "shp"),
    _token_kind("Square token", rf"{_at('sq0')}(?:atp|csp)-[A-Za-z0-9_\-]{{22,}}", "sq0"),
    _token_kind("HashiCorp Vault token", rf"{_at('hv')}[sbr]\.[A-Za-z0-9_\-]{{24,}}", "hvs.", "hvb.", "hvr."),
    _token_kind("Terraform Cloud token", r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_\-=]{50,}", ".atlasv1."),
    _token_kind("Doppler token", rf"{_at('dp')}\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9_.\-]{{40,}}", "dp."),
    _token_kind("Password manager token", rf"{_at('ops_')}eyJ[A-Za-z0-9+/=]{{100,}}", "ops_"),
    _token_kind("Langfuse secret key", rf"{_at('sk-lf-')}[0-9a-f]{{8}}-[0-9a-f\-]{{27}}", "sk-lf-"),
    _token_kind("Crates token", rf"{_at('cio')}(?=[A-Za-z]{{0,31}}[0-9])[A-Za-z0-9]{{32}}\b", "cio"),
    _token_kind("Airtable token", rf"{_at('pat')}[A-Za-z0-9]{{14}}\.[0-9a-f]{{64}}\b", "pat"),
    _token_kind("HubSpot token", rf"{_at('pat-')}(?:na|eu|ap)[0-9]-[0-9a-f]{{8}}-[0-9a-f\-]{{27}}", "pat-"),
    _token_kind("Pulumi token", rf"{_at('pul-')}[0-9a-f]{{40}}\b", "pul-"),
    _token_kind("Databricks token", rf"{_at('dapi')}[0-9a-f]{{32}}(?:-[0-9])?\b", "dapi"),
    _token_kind("Heroku API key", rf"{_at('HRKU-')}[A-Za-z0-9_\-]{{40,}}", "hrku-"),
    _token_kind("Cloudflare origin CA key", rf"{_at('v1')}\.0-[0-9a-f]{{24}}-[0-9a-f]{{100,}}", "v1.0-"),
    _token_kind(
        "Yandex key", rf"(?:{_at('AQVN')}{_BODY}{{30,}}|{_at('t1')}\.9eue[A-Za-z0-9_\-.]{{50,}})", "aqvn", "t1.9eue"
    ),
    _token_kind("EasyPost API key", rf"{_at('EZ')}[AT]K[0-9a-f]{{54}}\b", "ezak", "eztk"),
    _token_kind("Azure registry password", r"[A-Za-z0-9+/]{42}\+ACR[A-Za-z0-9]{6}\b", "+acr"),
    _kind("Firebase messaging key", rf"{_at('AAAA')}[A-Za-z0-9_\-]{{7}}:APA91b[A-Za-z0-9_\-]{{100,}}", ":apa91b"),
    _kind("Twitch token", rf"{_at('oauth')}:[a-z0-9]{{30}}\b", "oauth:"),
    _token_kind("Facebook access token", rf"{_at('EAA')}[BCDGIMU][A-Za-z0-9]{{80,}}", "eaa"),
    _kind("Twitter bearer token", r"A{21,22}(?:%3D|[A-Za-z0-9])[A-Za-z0-9%]{60,}", "a" * 21),
    _token_kind("Mapbox secret token", rf"{_at('sk')}\.eyJ[A-Za-z0-9_\-]{{20,}}\.[A-Za-z0-9_\-]{{20,}}", "sk.eyj"),
    _kind("Salesforce token", rf"{_at('00D')}[A-Za-z0-9]{{12,15}}![A-Za-z0-9_.]{{60,}}", "00d"),
    _token_kind(
        "Plaid access token", r"access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f\-]{27}", "access-"
    ),
    _token_kind("age secret key", rf"{_at('AGE-SECRET-KEY-1')}[0-9A-Z]{{58}}\b", "age-secret-key-"),
    _folded_token_kind("Azure storage key", r"(?:account|sharedaccess)key=[a-z0-9+/]{40,}={0,2}", "key="),
    _token_kind("Mailgun API key", rf"{_at('key-')}[0-9a-f]{{32}}\b", "key-"),
    _token_kind("Mailgun API key", _MAILGUN, "-", screen=r"-[0-9a-f]{8}-[0-9a-f]{8}\b"),  # the last two groups
    _token_kind("Mailchimp API key", r"[0-9a-f](?<![A-Za-z0-9_][0-9a-f])[0-9a-f]{31}-us[0-9]{1,2}\b", "-us"),
    SecretKind("Telegram bot token", _TELEGRAM, (":",), screen=r":[A-Za-z0-9_\-]{35}"),  # from the `:` on
    _token_kind("Discord bot token", _DISCORD, ".", screen=r"\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27}"),
    folded_kind("Twilio auth token", _TWILIO, "twilio"),
    folded_kind("Datadog API key", _at("datadog") + _DATADOG, "datadog", screen="datadog" + _DATADOG_KEY),
    # (`dd` is in most texts: only where `key` is too)
    SecretKind("Datadog API key", _at("dd") + _DATADOG, ("dd",), ignore_case=True, gate=("key",),
               screen="dd" + _DATADOG_KEY),
    folded_kind("basic auth credentials", _BASIC, "basic"),
    gated_kind("basic auth credentials", _CURL, _OPTION, "curl", ignore_case=True),
    gated_kind("API token", _CURL_KEY, _OPTION, "curl", ignore_case=True),
    folded_kind("bearer token", rf"{_at('bearer')}\s+(?![<$])[a-z0-9_\-.~+/]{{20,}}=*", "bearer"),
    folded_kind("authorization header", _AUTHORIZATION, "authorization"),
    gated_kind("password on a command line", _SSHPASS, _OPTION, "sshpass"),
    gated_kind("password on a command line", _MYSQL, _QUOTED_OPTION, "mysql"),
    gated_kind("password on a command line", _MARIADB, _QUOTED_OPTION, "mariadb"),
    *(
        gated_kind("password on a command line", _at(name) + _ON_LINE + option + _NOT_A_VARIABLE, _OPTION, name)
        for name, option in _PROGRAMS
    ),
    gated_kind("password on a command line", _OPENSSL_PASS, _OPTION, "pass:"),
    _kind("password on a command line", _POSITIONAL, "http-basic."),
    folded_kind("password on a command line", _NET_USE, "net use"),
    folded_kind("password on a command line", _SQLPLUS, "sqlplus"),
    folded_kind("URL with a password", _THIN, "thin:"),
    folded_kind("password assignment", _SECURE_STRING, "convertto-securestring"),
    folded_kind("password assignment", _CHAR_ARRAY, ".tochararray()"),
    folded_kind("password assignment", _WIFI_QR, "wifi:"),
    folded_kind("password on a command line", _WPA_PASSPHRASE, "wpa_passphrase"),
    folded_kind("password on a command line", _NETSH_KEY, "netsh"),
    folded_kind("API token", _RTMP_KEY, "rtmp"),
    gated_kind("password assignment", _CREDENTIAL_CALL, ("(",), "credential", "getconnection", "login(", "auth(",
               "authentication(", "connect(", ignore_case=True),
    folded_kind("password on a command line", _SET_PASSWORD, "user:password", "password ", screen=_SET_SCREEN),
    gated_kind("password on a command line", _USER_THEN_P, _OPTION, " -p ", "\t-p ", " -P ", "\t-P "),
    folded_kind("API token", _KEY_OPTION, " -k ", " -t ", "\t-k ", "\t-t "),
    folded_kind("API token", _KEY_LONG_OPTION, "key ", "key="),
    folded_kind("API token", _LOGIN_KEY, "login"),
    _kind("API token", _CLIENT_KEY, "client(", "api(", "sdk("),
    folded_kind("secret key", _SK_SUFFIX, "_sk"),
    folded_kind("password on a command line", _EXPECT_SEND, "expect"),
    folded_kind("wallet private key", _BECH32_PRIVATE, "privkey1", "prv1", "secret1", "nsec1"),
    *(
        gated_kind("password assignment", rf"{name}(?<![a-z0-9_]{name}){more}{_LOGIN_ARGUMENTS}", ("(",),
                   name if more else name + "(", ignore_case=True)
        for name, more in _LOGIN_CALLEES
    ),
    folded_kind("password assignment", _IDENTIFIED, "identified"),
    folded_kind("password on a command line", _ADD_USER, "user", screen=_ADD_USER_SCREEN),
    folded_kind("password assignment", _PGPASS, ":5432:"),
    folded_kind("secret assignment", _RECOVERY, "recovery code", "backup code"),
    _kind("Braintree token", r"access_token\$(?:production|sandbox)\$[a-z0-9]{16}\$[a-f0-9]{32}", "access_token$"),
    _token_kind("New Relic license key", r"[0-9a-f](?<![A-Za-z0-9_][0-9a-f])[0-9a-f]{35}NRAL\b", "nral"),
    SecretKind("Asana token", r"[0-9](?<![0-9/][0-9])/[0-9]{16}/[0-9]{16}:[0-9a-f]{32}\b", (":",),
               screen=r"/[0-9]{16}:[0-9a-f]{32}"),
    SecretKind("Ably key", r"[A-Za-z0-9_\-](?<![A-Za-z0-9_\-.][A-Za-z0-9_\-])[A-Za-z0-9_\-]{5}\.[A-Za-z0-9_\-]{6}:"
               r"[A-Za-z0-9_\-+/=]{40,}", (":",), screen=r"\.[A-Za-z0-9_\-]{6}:[A-Za-z0-9_\-+/=]{40}"),
    _token_kind("webhook URL", r"hooks\.zapier\.com/hooks/catch/[0-9]+/[a-z0-9]+", "hooks.zapier"),
    _token_kind("NATS nkey seed", rf"{_at('S')}[UAONCXP][A-Z2-7]{{56}}\b", "su", "sa", "so", "sn", "sc", "sx", "sp"),
)  # fmt: skip
