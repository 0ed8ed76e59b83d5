"""Benchmark of palace.memory.secrets against a generated corpus of secrets and look-alikes.

    python bench/bench_secrets.py [--before REF] [--mb 1.0] [--worst-kb 20] [--verbose]

Prints, for palace's find_secret (and, with --before, for the secrets.py of a git ref such as the commit
before a change): how many corpus secrets are refused, per format, and how many look-alikes are refused.
The same for detect-secrets (`scan_line` under `default_settings()`) when it is installed, with and without
its entropy plugins, and for palace and detect-secrets combined. Then the cost of redact() per MB of ordinary
transcript messages (called once per message, as the recall index does) against str.lower() and a single
trivial regex over the same messages; and the slowest redact() over texts built to make regexes backtrack.
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

from bench.secrets_corpus import FORMATS, LOOKALIKES, SECRETS, Case  # noqa: E402
from bench.secrets_corpus.ordinary import transcript  # noqa: E402
from palace.memory import secrets as current  # noqa: E402

Detector = Callable[[str], bool]


def load_version(ref: str) -> ModuleType:
    """palace/memory/secrets.py as it was at a git ref, imported under another name."""
    source = subprocess.run(
        ["git", "show", f"{ref}:palace/memory/secrets.py"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    path = Path(tempfile.mkdtemp()) / "secrets_before.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("secrets_before", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def report(label: str, detect: Detector, verbose: bool) -> None:
    """Refusal rate, per-format misses and refused look-alikes of one detector."""
    missed = [case for case in SECRETS if not detect(case.text)]
    flagged = [case for case in LOOKALIKES if detect(case.text)]
    refused = len(SECRETS) - len(missed)
    print(
        f"\n{label}: refused {refused}/{len(SECRETS)} secrets ({100 * refused / len(SECRETS):.1f}%), "
        f"{len(flagged)}/{len(LOOKALIKES)} look-alikes refused"
    )
    by_format: dict[str, list[Case]] = {}
    for case in missed:
        by_format.setdefault(case.vendor, []).append(case)
    for vendor, cases in by_format.items():
        total = sum(1 for case in SECRETS if case.vendor == vendor)
        print(f"  missed {len(cases)}/{total} {vendor}" + (f": {cases[0].text[:70]!r}" if verbose else ""))
    for case in flagged:
        print(f"  refused look-alike ({case.vendor}): {case.text[:70]!r}")


def refuses(module: ModuleType) -> Detector:
    """Whether a version of palace's secrets module refuses a text."""
    return lambda text: module.find_secret(text) is not None


def kind_accuracy() -> None:
    """How often palace names the kind the corpus expects (the name a refused save shows)."""
    named = [case for case in SECRETS if current.find_secret(case.text) == case.kind]
    print(f"  named the expected kind for {len(named)}/{len(SECRETS)} secrets")
    for case in SECRETS:
        found = current.find_secret(case.text)
        if found and found != case.kind:
            print(f"    {case.vendor}: {found!r}, expected {case.kind!r}")


@contextmanager
def detect_secrets_detectors() -> Iterator[tuple[Detector, Detector] | None]:
    """detect-secrets with all its default plugins, and without the entropy ones; None if not installed."""
    try:
        from detect_secrets.core.scan import scan_line
        from detect_secrets.plugins.high_entropy_strings import HighEntropyStringsPlugin
        from detect_secrets.settings import default_settings, get_plugins
    except ImportError:
        yield None
        return
    with default_settings():
        plugins = {plugin.secret_type: plugin for plugin in get_plugins()}

        def scan(text: str, entropy: bool) -> bool:
            for line in text.splitlines():
                for found in scan_line(line):
                    plugin = plugins[found.type]
                    if not isinstance(plugin, HighEntropyStringsPlugin):
                        return True
                    # scan_line reports every token in ad-hoc mode; the plugin's own limit is what a scan uses.
                    if entropy and plugin.calculate_shannon_entropy(found.secret_value or "") > plugin.entropy_limit:
                        return True
            return False

        yield (lambda text: scan(text, True)), (lambda text: scan(text, False))


_TRIVIAL = re.compile(r"sk-[A-Za-z0-9]{20}")  # a literal-first regex: sre searches for the literal


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


def cost(messages: list[str], versions: dict[str, ModuleType]) -> None:
    """The cost of redact per MB of ordinary messages, and its ratio to the baselines."""
    lower = per_mb(messages, str.lower)
    trivial = per_mb(messages, _TRIVIAL.search)
    print(
        f"\nredact cost over {len(messages)} ordinary messages: str.lower {lower:.1f} ms/MB, "
        f"one trivial regex {trivial:.1f} ms/MB"
    )
    for label, module in versions.items():
        ms = per_mb(messages, module.redact)
        changed = sum(1 for text in messages if module.redact(text) != text)
        print(
            f"  {label}: redact {ms:.1f} ms/MB = {ms / lower:.1f}x str.lower, {ms / trivial:.1f}x the trivial "
            f"regex; find_secret {per_mb(messages, module.find_secret):.1f} ms/MB; {changed} messages changed"
        )


def adversarial(size: int) -> dict[str, str]:
    """Texts of about size characters built to make a careless regex backtrack (runs of partial matches)."""
    heads = {"token: a-": "token: ", "password=a-..": "password=", "a.://": "", "0:": "", "hex-": ""}
    units = {
        "sk-": "sk-", "sk-a": "sk-a", "token: a-": "a-", "token=": "token=", "password:": "password:",
        "password=a-..": "a-", "a.://": "a.", "curl": "curl ", "sshpass": "sshpass ", "mysql": "mysql ",
        "eyJ.": "eyJaaaaaaaaaaaa.", "key-": "key-", "SG.": "SG.", "0:": "0", "hex-": "a", "密码：": "密码：",
    }  # fmt: skip
    tails = {"password=a-..": "..", "a.://": "://", "0:": ":", "hex-": "-"}
    texts = {}
    for name, unit in units.items():
        head, tail = heads.get(name, ""), tails.get(name, "")
        texts[name] = head + unit * ((size - len(head) - len(tail)) // len(unit)) + tail
    return texts


def worst_case(versions: dict[str, ModuleType], size: int) -> None:
    """The slowest redact over the adversarial texts, per version."""
    texts = adversarial(size)
    print(f"\nworst case over {len(texts)} adversarial texts of {size // 1000} KB:")
    for label, module in versions.items():
        times = {}
        for name, text in texts.items():
            start = time.perf_counter()
            module.redact(text)
            times[name] = time.perf_counter() - start
        name = max(times, key=lambda key: times[key])
        print(f"  {label}: {1000 * times[name]:.0f} ms ({name!r}); all together {1000 * sum(times.values()):.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="also measure palace/memory/secrets.py at this git ref")
    parser.add_argument("--mb", type=float, default=1.0, help="size of the ordinary transcript text")
    parser.add_argument("--worst-kb", type=int, default=20, help="size of each adversarial text")
    parser.add_argument("--verbose", action="store_true", help="show a missed text per format")
    args = parser.parse_args()
    print(f"corpus: {len(SECRETS)} secrets in {len(FORMATS)} formats, {len(LOOKALIKES)} look-alikes")
    versions = {"palace (this tree)": current}
    if args.before:
        versions = {f"palace at {args.before}": load_version(args.before), **versions}
    for label, module in versions.items():
        report(label, refuses(module), args.verbose)
    kind_accuracy()
    with detect_secrets_detectors() as detectors:
        if detectors is None:
            print("\ndetect-secrets: not installed (pip install detect-secrets to compare)")
        else:
            with_entropy, patterns_only = detectors
            report("detect-secrets (default plugins)", with_entropy, args.verbose)
            report("detect-secrets (without the entropy plugins)", patterns_only, args.verbose)
            report(
                "palace or detect-secrets (default plugins)",
                lambda text: current.find_secret(text) is not None or with_entropy(text),
                args.verbose,
            )
    cost(transcript(int(args.mb * 1e6)), versions)
    worst_case(versions, args.worst_kb * 1000)


if __name__ == "__main__":
    main()
