"""Benchmark of palace.memory.secrets against a generated corpus of secrets and look-alikes.

    python bench/bench_secrets.py [--before REF] [--mb 1.0] [--worst-kb 20] [--verbose] [--held-out-misses]
        [--blind4-misses] [--blind5-misses] [--blind6-misses] [--blind7-misses] [--blind8-misses]
        [--blind9-misses] [--blind10-misses]

Prints, for the tuning part and the held-out part of the corpus (bench/secrets_corpus/) separately:
  - refused on save: how many secrets find_secret() refuses (per format, the misses), how many look-alikes;
  - redacted in recall: each secret inside a chatty multi-line message, and two variants of it (a key cut
    over two lines, a key body without its BEGIN/END lines), redacted with nothing of the secret left;
  - the same for detect-secrets (`scan_line` under `default_settings()`) when it is installed.
Then the cost of redact() per MB of ordinary transcript messages (called once per message, as the recall
index does) against the previous detector (palace/memory/secrets.py at BEFORE, default the commit before the
package) in the same run, and against str.lower(); that importing the module compiles no regex; and the
slowest redact() over texts built to make regexes backtrack. The held-out part's misses are not listed unless
asked (--held-out-misses); blind5's to blind10's only with --blind5-misses ... --blind10-misses, once a round's
rules are done: tune on the tuning part only (blind4 was tuned on in the fifth round, blind5 in the sixth, blind6
in the seventh, blind7 in the eighth, blind8 in the ninth, blind9 in the tenth; blind10 was the tenth round's
unseen part, reported once, then tuned on at the end of that round).
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.secrets_corpus import (  # noqa: E402
    BLIND2_LOOKALIKES,
    BLIND2_SECRETS,
    BLIND3_LOOKALIKES,
    BLIND3_SECRETS,
    BLIND4_LOOKALIKES,
    BLIND4_SECRETS,
    BLIND5_LOOKALIKES,
    BLIND5_SECRETS,
    BLIND6_LOOKALIKES,
    BLIND6_SECRETS,
    BLIND7_LOOKALIKES,
    BLIND7_SECRETS,
    BLIND8_LOOKALIKES,
    BLIND8_SECRETS,
    BLIND9_LOOKALIKES,
    BLIND9_SECRETS,
    BLIND10_LOOKALIKES,
    BLIND10_SECRETS,
    BLIND_LOOKALIKES,
    BLIND_SECRETS,
    HELD_OUT_LOOKALIKES,
    HELD_OUT_SECRETS,
    LOOKALIKES,
    SECRETS,
    TUNING_LOOKALIKES,
    TUNING_SECRETS,
    Case,
)
from bench.secrets_corpus.ordinary import transcript  # noqa: E402
from palace.memory import secrets as current  # noqa: E402
from palace.recall.redaction import redact_all  # noqa: E402

Detector = Callable[[str], bool]
Redactor = Callable[[str], str]
BEFORE = "97ac4c1"  # the last commit with the single-module detector (palace/memory/secrets.py)
_CHAT_BEFORE = "ok here's where I am — the deploy worked on staging but not prod.\nfull config below:\n"
_CHAT_AFTER = "\nanything else you need? the logs are in /var/log/app/2025-01-01.log\nthanks!"


def load_version(ref: str) -> ModuleType | None:
    """palace/memory/secrets.py as it was at a git ref, imported under another name (None if not there)."""
    try:
        source = subprocess.run(
            ["git", "show", f"{ref}:palace/memory/secrets.py"], cwd=ROOT, check=True, capture_output=True, text=True
        ).stdout
    except (subprocess.CalledProcessError, OSError):
        return None
    path = Path(tempfile.mkdtemp()) / "secrets_before.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("secrets_before", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pieces(secret: str, size: int = 12) -> list[str]:
    """Every size-character piece of secret (the whole secret when it is shorter)."""
    return [secret[i : i + size] for i in range(max(1, len(secret) - size + 1))]


def leaks(secret: str, text: str) -> bool:
    """Whether any 12-character piece of secret (or of each of its lines of 8+ characters) is still in text."""
    parts = [part for part in secret.split("\n") if len(part) >= 8] or [secret]
    return any(piece in text for part in parts for piece in pieces(part))


def recall_cases(cases: tuple[Case, ...]) -> dict[str, list[tuple[Case, str, str]]]:
    """(case, message, what must not be left) for each variant: the case in a chatty message; each single
    token secret of 24+ characters cut over two lines; each key body without its BEGIN and END lines."""
    variants: dict[str, list[tuple[Case, str, str]]] = {"in a message": [], "split over two lines": [], "no header": []}
    for case in cases:
        assert case.secret
        variants["in a message"].append((case, _CHAT_BEFORE + case.text + _CHAT_AFTER, case.secret))
        secret = case.secret
        if len(secret) >= 24 and not re.search(r"\s", secret) and secret in case.text:
            half = len(secret) // 2
            text = case.text.replace(secret, secret[:half] + "\n" + secret[half:], 1)
            variants["split over two lines"].append(
                (case, _CHAT_BEFORE + text + _CHAT_AFTER, secret[:half] + "\n" + secret[half:])
            )
        if "-----BEGIN" in case.text:
            kept = [line for line in case.text.split("\n") if "-----BEGIN" not in line and "-----END" not in line]
            variants["no header"].append((case, _CHAT_BEFORE + "\n".join(kept) + _CHAT_AFTER, case.secret))
    return variants


def report(label: str, secrets: tuple[Case, ...], lookalikes: tuple[Case, ...], detect: Detector, show: bool) -> float:
    """Refusal rate, per-format misses and refused look-alikes of one detector; the refusal rate."""
    missed = [case for case in secrets if not detect(case.text)]
    flagged = [case for case in lookalikes if detect(case.text)]
    refused = len(secrets) - len(missed)
    formats = len({case.vendor for case in secrets})
    print(
        f"  {label}: refused {refused}/{len(secrets)} secrets of {formats} formats "
        f"({100 * refused / len(secrets):.1f}%),"
        f" {len(flagged)}/{len(lookalikes)} look-alikes refused ({100 * len(flagged) / len(lookalikes):.1f}%)"
    )
    by_format: dict[str, list[Case]] = {}
    for case in missed:
        by_format.setdefault(case.vendor, []).append(case)
    if show:
        for vendor, cases in by_format.items():
            total = sum(1 for case in secrets if case.vendor == vendor)
            print(f"    missed {len(cases)}/{total} {vendor}: {cases[0].text[:90]!r}")
        for case in flagged:
            print(f"    refused look-alike ({case.vendor}): {case.text[:90]!r}")
    else:
        print(f"    ({len(by_format)} formats with a miss; a flag lists them: see --help)")
    return refused / len(secrets)


def per_kind(label: str, secrets: tuple[Case, ...], other: Detector | None) -> None:
    """Refused on save per kind of secret, by palace and (when installed) detect-secrets."""
    print(f"\n[{label}, per kind: secrets, palace refused, detect-secrets refused]")
    kinds: dict[str, list[Case]] = {}
    for case in secrets:
        kinds.setdefault(case.kind or "?", []).append(case)
    palace = refuses(current)
    for kind, cases in sorted(kinds.items(), key=lambda item: -len(item[1])):
        ours = sum(1 for case in cases if palace(case.text))
        theirs = "-" if other is None else str(sum(1 for case in cases if other(case.text)))
        print(f"  {kind:<28} {len(cases):>4} {ours:>4} ({100 * ours / len(cases):5.1f}%) {theirs:>4}")


def recall(label: str, secrets: tuple[Case, ...], redactor: Redactor, show: bool) -> None:
    """How many secrets redaction leaves nothing of, per variant."""
    for variant, cases in recall_cases(secrets).items():
        left = [(case, text) for case, text, secret in cases if leaks(secret, redactor(text))]
        done = len(cases) - len(left)
        print(
            f"  {label}, redacted in recall ({variant}): {done}/{len(cases)} ({100 * done / max(1, len(cases)):.1f}%)"
        )
        if show:
            for case, _ in left:
                print(f"    left {case.vendor}: {case.text[:80]!r}")


def refuses(module: ModuleType) -> Detector:
    """Whether a version of palace's secrets module refuses a text."""
    return lambda text: module.find_secret(text) is not None


@contextmanager
def detect_secrets_detectors() -> Iterator[tuple[Detector, Redactor] | None]:
    """detect-secrets with all its default plugins (refuses, and a redactor that removes what it reports);
    None if not installed."""
    try:
        from detect_secrets.core.scan import scan_line
        from detect_secrets.plugins.high_entropy_strings import HighEntropyStringsPlugin
        from detect_secrets.settings import default_settings, get_plugins
    except ImportError:
        yield None
        return
    with default_settings():
        plugins = {plugin.secret_type: plugin for plugin in get_plugins()}

        def found(text: str) -> list[str]:
            values = []
            for line in text.splitlines():
                for secret in scan_line(line):
                    plugin = plugins[secret.type]
                    value = secret.secret_value or ""
                    # scan_line reports every token in ad-hoc mode; the plugin's own limit is what a scan uses.
                    if isinstance(plugin, HighEntropyStringsPlugin) and (
                        plugin.calculate_shannon_entropy(value) <= plugin.entropy_limit
                    ):
                        continue
                    values.append(value)
            return values

        def scrub(text: str) -> str:
            for value in sorted(found(text), key=len, reverse=True):
                text = text.replace(value, "[redacted]") if value else text
            return text

        yield (lambda text: bool(found(text))), scrub


def per_mb(messages: list[str], run: Callable[[str], object], repeat: int = 3) -> float:
    """Best-of-repeat milliseconds per MB (of UTF-8) to call run once per message."""
    size = sum(len(m.encode("utf-8", "surrogatepass")) for m in messages) / 1e6
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for text in messages:
            run(text)
        best = min(best, time.perf_counter() - start)
    return best * 1000 / size


def _timed(messages: list[str], run: Callable[[str], object]) -> float:
    """Seconds to call run once per message."""
    start = time.perf_counter()
    for text in messages:
        run(text)
    return time.perf_counter() - start


def cost(messages: list[str], before: ModuleType | None, rounds: int = 5) -> None:
    """The cost of redact per MB of ordinary messages, and its ratio to the previous detector's and str.lower's,
    timed in turns (this, previous, this, ...) and the best of each kept: the machine is shared and noisy."""
    size = sum(len(m.encode("utf-8", "surrogatepass")) for m in messages) / 1e6
    runs: dict[str, Callable[[str], object]] = {"lower": str.lower, "redact": current.redact}
    runs["find_secret"] = lambda text: current.find_secret.__wrapped__(text)  # not its cache
    runs["redact_all"] = lambda text: None
    if before is not None:
        runs["previous"] = before.redact
    files = [messages[i : i + 40] for i in range(0, len(messages), 40)]
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for name, run in runs.items():
            if name == "redact_all":
                start = time.perf_counter()
                for batch in files:
                    redact_all(batch)
                best[name] = min(best[name], time.perf_counter() - start)
            else:
                best[name] = min(best[name], _timed(messages, run))
    ms = {name: seconds * 1000 / size for name, seconds in best.items()}
    changed = sum(1 for text in messages if current.redact(text) != text)
    print(
        f"\n[cost] over {len(messages)} ordinary messages ({size:.2f} MB), {changed} changed, best of {rounds} turns:"
    )
    print(
        f"  str.lower {ms['lower']:.1f} ms/MB; redact {ms['redact']:.1f} ms/MB; redact_all in files of 40 "
        f"{ms['redact_all']:.1f} ms/MB; find_secret (uncached) {ms['find_secret']:.1f} ms/MB"
    )
    if before is not None:
        ratio = ms["redact"] / ms["previous"]
        print(f"  previous detector: redact {ms['previous']:.1f} ms/MB; ratio this/previous = {ratio:.2f}x")


def import_check() -> None:
    """Importing palace.memory.secrets compiles no regex (counted in re's cache), and what it costs."""
    code = (
        "import re, sys, time; re.purge(); n = len(re._cache); t = time.perf_counter(); "
        "import palace.memory.secrets; t = time.perf_counter() - t; "
        "print(len(re._cache) - n, round(t * 1000, 1))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    compiled, ms = out.split()
    print(f"[import] palace.memory.secrets: {compiled} regexes compiled at import, {ms} ms")


def adversarial(size: int) -> dict[str, str]:
    """Texts of about size characters built to make a careless regex backtrack (runs of partial matches)."""
    heads = {"token: a-": "token: ", "password=a-..": "password=", "a.://": "", "0:": "", "hex-": ""}
    units = {
        "sk-": "sk-", "sk-a": "sk-a", "token: a-": "a-", "token=": "token=", "password:": "password:",
        "password=a-..": "a-", "a.://": "a.", "curl": "curl ", "sshpass": "sshpass ", "mysql": "mysql ",
        "eyJ.": "eyJaaaaaaaaaaaa.", "key-": "key-", "SG.": "SG.", "0:": "0", "hex-": "a", "密码：": "密码：",
        "words": "abandon ", "b64 lines": "QUJD" * 16 + "\n", "split": "Ab1" * 4 + "\n", "kv": "key=Ab1x ",
        "url": "https://a.b/c?key=Ab1", "log in": "log in as x with ", "docker": "docker login ",
    }  # fmt: skip
    tails = {"password=a-..": "..", "a.://": "://", "0:": ":", "hex-": "-"}
    texts = {}
    for name, unit in units.items():
        head, tail = heads.get(name, ""), tails.get(name, "")
        texts[name] = head + unit * ((size - len(head) - len(tail)) // len(unit)) + tail
    return texts


def worst_case(before: ModuleType | None, size: int) -> None:
    """The slowest redact over the adversarial texts."""
    texts = adversarial(size)
    print(f"\n[worst case] over {len(texts)} adversarial texts of {size // 1000} KB:")
    versions = {"this tree": current, **({"previous": before} if before else {})}
    for label, module in versions.items():
        times = {}
        for name, text in texts.items():
            start = time.perf_counter()
            module.redact(text)
            times[name] = time.perf_counter() - start
        name = max(times, key=lambda key: times[key])
        print(f"  {label}: {1000 * times[name]:.0f} ms ({name!r}); all together {1000 * sum(times.values()):.0f} ms")


def consistency() -> None:
    """redact_all gives what redact gives, message by message, on the whole corpus."""
    texts = [case.text for case in (*SECRETS, *LOOKALIKES)]
    same = redact_all(texts) == [current.redact(text) for text in texts]
    print(f"[consistency] redact_all == redact on {len(texts)} corpus texts: {same}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--before", default=BEFORE, help="the git ref of the previous detector (secrets.py)")
    parser.add_argument("--mb", type=float, default=1.0, help="size of the ordinary transcript text")
    parser.add_argument("--worst-kb", type=int, default=20, help="size of each adversarial text")
    parser.add_argument("--verbose", action="store_true", help="list what each detector missed")
    parser.add_argument("--held-out-misses", action="store_true", help="also list the held-out part's misses")
    parser.add_argument("--blind4-misses", action="store_true", help="list blind4's misses")
    parser.add_argument("--blind5-misses", action="store_true", help="list blind5's misses (only once a round is done)")
    parser.add_argument("--blind6-misses", action="store_true", help="list blind6's misses")
    parser.add_argument("--blind7-misses", action="store_true", help="list blind7's misses")
    parser.add_argument("--blind8-misses", action="store_true", help="list blind8's misses")
    parser.add_argument("--blind9-misses", action="store_true", help="list blind9's misses (only once a round is done)")
    parser.add_argument(
        "--blind10-misses", action="store_true", help="list blind10's misses (only once a round is done)"
    )
    args = parser.parse_args()
    print(
        f"corpus: tuning {len(TUNING_SECRETS)} secrets in {len({c.vendor for c in TUNING_SECRETS})} formats, "
        f"{len(TUNING_LOOKALIKES)} look-alikes; held-out {len(HELD_OUT_SECRETS)} secrets in "
        f"{len({c.vendor for c in HELD_OUT_SECRETS})} formats, {len(HELD_OUT_LOOKALIKES)} look-alikes; blind held-out "
        f"{len(BLIND_SECRETS)} secrets in {len({c.vendor for c in BLIND_SECRETS})} formats, {len(BLIND_LOOKALIKES)} "
        f"look-alikes; blind2 {len(BLIND2_SECRETS)} secrets, {len(BLIND2_LOOKALIKES)} look-alikes; blind3 "
        f"{len(BLIND3_SECRETS)} secrets, {len(BLIND3_LOOKALIKES)} look-alikes; blind4 {len(BLIND4_SECRETS)} secrets, "
        f"{len(BLIND4_LOOKALIKES)} look-alikes; blind5 {len(BLIND5_SECRETS)} secrets, {len(BLIND5_LOOKALIKES)} "
        f"look-alikes; blind6 {len(BLIND6_SECRETS)} secrets in {len({c.vendor for c in BLIND6_SECRETS})} formats, "
        f"{len(BLIND6_LOOKALIKES)} look-alikes; blind7 {len(BLIND7_SECRETS)} secrets in "
        f"{len({c.vendor for c in BLIND7_SECRETS})} formats, {len(BLIND7_LOOKALIKES)} look-alikes; blind8 "
        f"{len(BLIND8_SECRETS)} secrets in {len({c.vendor for c in BLIND8_SECRETS})} formats, "
        f"{len(BLIND8_LOOKALIKES)} look-alikes; blind9 {len(BLIND9_SECRETS)} secrets in "
        f"{len({c.vendor for c in BLIND9_SECRETS})} formats, {len(BLIND9_LOOKALIKES)} look-alikes; blind10 "
        f"{len(BLIND10_SECRETS)} secrets in {len({c.vendor for c in BLIND10_SECRETS})} formats, "
        f"{len(BLIND10_LOOKALIKES)} look-alikes"
    )
    before = load_version(args.before)
    parts = {
        "tuning": (TUNING_SECRETS, TUNING_LOOKALIKES, True),
        "held-out": (HELD_OUT_SECRETS, HELD_OUT_LOOKALIKES, args.held_out_misses),
        "blind held-out": (BLIND_SECRETS, BLIND_LOOKALIKES, args.held_out_misses),
        "blind2 (issue 22, written blind, then tuned on)": (BLIND2_SECRETS, BLIND2_LOOKALIKES, args.held_out_misses),
        "blind3 (issue 22, written after the third round's rules)": (
            BLIND3_SECRETS,
            BLIND3_LOOKALIKES,
            args.held_out_misses,
        ),
        "blind4 (issue 22, reported, then tuned on in the fifth round)": (
            BLIND4_SECRETS,
            BLIND4_LOOKALIKES,
            args.blind4_misses,
        ),
        "blind5 (issue 22, reported in the fifth round, then tuned on in the sixth)": (
            BLIND5_SECRETS,
            BLIND5_LOOKALIKES,
            args.blind5_misses,
        ),
        "blind6 (issue 22, written blind in the sixth round, reported, then tuned on in the seventh)": (
            BLIND6_SECRETS,
            BLIND6_LOOKALIKES,
            args.blind6_misses,
        ),
        "blind7 (issue 22, written blind in the seventh round, reported, then tuned on in the eighth)": (
            BLIND7_SECRETS,
            BLIND7_LOOKALIKES,
            args.blind7_misses,
        ),
        "blind8 (issue 22, written blind in the eighth round, reported, then tuned on in the ninth)": (
            BLIND8_SECRETS,
            BLIND8_LOOKALIKES,
            args.blind8_misses,
        ),
        "blind9 (issue 22, written blind in the ninth round, reported, then tuned on in the tenth)": (
            BLIND9_SECRETS,
            BLIND9_LOOKALIKES,
            args.blind9_misses,
        ),
        "blind10 (issue 22, written blind in the tenth round, reported: 92.5%, 4 look-alikes; then tuned on)": (
            BLIND10_SECRETS,
            BLIND10_LOOKALIKES,
            args.blind10_misses,
        ),
    }
    for part, (secrets, lookalikes, show) in parts.items():
        print(f"\n[{part}]")
        report("palace, save", secrets, lookalikes, refuses(current), show)
        recall("palace", secrets, current.redact, show)
        if before is not None:
            report("previous detector, save", secrets, lookalikes, refuses(before), show and args.verbose)
            recall("previous detector", secrets, before.redact, False)
    with detect_secrets_detectors() as detectors:
        other = None if detectors is None else detectors[0]
        if detectors is None:
            print("\ndetect-secrets: not installed (pip install detect-secrets to compare)")
        else:
            detect, scrub = detectors
            for part, (secrets, lookalikes, _) in parts.items():
                print(f"\n[{part}, detect-secrets, default plugins]")
                report("detect-secrets, save", secrets, lookalikes, detect, args.verbose)
                recall("detect-secrets", secrets, scrub, False)
        per_kind("tuning", TUNING_SECRETS, other)
        per_kind("blind6", BLIND6_SECRETS, other)
        per_kind("blind7", BLIND7_SECRETS, other)
        per_kind("blind8", BLIND8_SECRETS, other)
        per_kind("blind9", BLIND9_SECRETS, other)
        per_kind("blind10", BLIND10_SECRETS, other)
    consistency()
    import_check()
    cost(transcript(int(args.mb * 1e6)), before)
    worst_case(before, args.worst_kb * 1000)


if __name__ == "__main__":
    main()
