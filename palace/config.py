"""Settings: command-line flags > environment > $PALACE_HOME/config.toml > defaults, with provenance.

Settings are a plain record (palace/record.py) checked against a small table of rules (not a pydantic model):
every palace command reads them, and building a pydantic model at import costs more than the rest of
`palace memory save`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from palace.errors import ConfigError
from palace.paths import PalacePaths
from palace.record import field, fields, record

DEFAULT_MODEL = "gpt-4.1-mini"

# config.toml key (dotted) -> Settings field
_TOML_KEYS: dict[str, str] = {
    "model": "model",
    "base_url": "base_url",
    "api_key": "api_key",
    "wing": "wing",
    "wings": "wings",
    "timeout": "timeout",
    "memory.enabled": "memory_enabled",
    "memory.budget_bytes": "memory_budget",
    "memory.entry_limit": "entry_limit",
    "memory.soft_limit": "soft_limit",
    "memory.stale_days": "stale_days",
    "agent.tool_rounds": "tool_rounds",
    "context.window_tokens": "window_tokens",
    "context.compact_at": "compact_at",
    "extraction.enabled": "extraction",
    "extraction.model": "extract_model",
    "extraction.trigger_chars": "extract_trigger",
    "extraction.min_chars": "extract_min",
    "extraction.auto_save": "auto_save",
    "extraction.timeout": "extract_timeout",
    "git.autocommit": "git_autocommit",
    "project.enabled": "project_enabled",
    "project.saves": "project_saves",
    "hooks.max_transcript_bytes": "hook_max_transcript_bytes",
    "import.max_bytes": "import_max_bytes",
    "pricing": "pricing",
}

_ENV_KEYS: dict[str, str] = {
    "PALACE_MODEL": "model",
    "OPENAI_BASE_URL": "base_url",
    "OPENAI_API_KEY": "api_key",
    "PALACE_WING": "wing",
    "PALACE_MEMORY": "memory_enabled",
}


def default_home() -> Path:
    """The palace folder: $PALACE_HOME or ~/.palace."""
    env = os.environ.get("PALACE_HOME")
    return Path(env).expanduser() if env else Path.home() / ".palace"


@record
class Settings:
    """Every setting in effect; `sources` says where each value came from."""

    home: Path = field(default_factory=default_home)
    model: str = DEFAULT_MODEL
    base_url: str | None = None
    api_key: str | None = None
    wing: str | None = None
    wings: list[str] = field(default_factory=list)  # several active wings (a person and a project)
    timeout: float = 60.0
    memory_enabled: bool = True  # off: no memory block, no memory tools, no extraction
    memory_budget: int = 8192
    entry_limit: int = 200
    soft_limit: int = 100
    stale_days: int = 365  # `palace memory tidy` proposes removing entries unused this long
    tool_rounds: int = 8
    window_tokens: int = 32_768  # the model's context window; see the README for each endpoint
    compact_at: float = 0.75  # fold the older turns into a summary past this share of the window
    extraction: bool = True
    extract_model: str | None = None
    extract_trigger: int = 4000
    extract_min: int = 200
    auto_save: str = "high"  # what extraction saves without review: high (confidence) | all | none
    extract_timeout: float = 180.0  # seconds per extraction request: one call reads a whole conversation
    git_autocommit: bool = True
    project_enabled: bool = True  # read <repository>/.palace/memories.md when there is one
    project_saves: str = "personal"  # where saves in the project's wing go: personal (your palace) | project
    hook_max_transcript_bytes: int = 64 * 1024 * 1024  # a Claude Code transcript larger than this is not imported
    import_max_bytes: int = 4 * 1024 * 1024  # a file for `palace import` larger than this is not read
    # [pricing."MODEL"] input = 0.40, output = 1.60: US dollars per million tokens, over palace's own table
    pricing: dict[str, dict[str, float]] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict, repr=False)
    notices: list[str] = field(default_factory=list, repr=False)  # what was ignored (an unknown key), to warn of

    @property
    def paths(self) -> PalacePaths:
        return PalacePaths(self.home)

    @property
    def memories_file(self) -> Path:
        return self.paths.memories

    @property
    def sessions_dir(self) -> Path:
        return self.paths.sessions

    @property
    def extracting(self) -> bool:
        """Extraction runs: it is on, and so is memory (the master switch turns both off)."""
        return self.extraction and self.memory_enabled

    def source(self, name: str) -> str:
        """Where a setting's value came from: flag, environment variable, config.toml or default."""
        return self.sources.get(name, "default")


# ---------------------------------------------------------------------- the rules each value must follow
Check = Callable[[Any], Any]  # returns the value as it is kept, or raises ValueError with the reason


def _text(optional: bool) -> Check:
    def check(value: Any) -> Any:
        if value is None and optional:
            return None
        if not isinstance(value, str):
            raise ValueError("must be text")
        return value

    return check


def _number(kind: type, *, low: float | None = None, high: float | None = None, above: float | None = None) -> Check:
    def check(value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise ValueError(f"must be a {'whole ' if kind is int else ''}number")
        try:
            number = kind(value)
        except ValueError:
            raise ValueError(f"must be a {'whole ' if kind is int else ''}number, not {value!r}") from None
        if kind is int and isinstance(value, float) and not value.is_integer():
            raise ValueError(f"must be a whole number, not {value!r}")
        if above is not None and not number > above:
            raise ValueError(f"must be greater than {above:g}")
        if low is not None and number < low:
            raise ValueError(f"must be at least {low:g}")
        if high is not None and number > high:
            raise ValueError(f"must be at most {high:g}")
        return number

    return check


def _flag(value: Any) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in {"1", "true", "yes", "on", "0", "false", "no", "off"}:
        return value.strip().lower() in {"1", "true", "yes", "on"}
    raise ValueError("must be true or false")


def _names(value: Any) -> Any:
    if isinstance(value, str):  # PALACE_WING=alice,ifai
        value = [part.strip() for part in value.split(",") if part.strip()]
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ValueError("must be a list of names")
    return list(value)


def _choice(*allowed: str) -> Check:
    def check(value: Any) -> Any:
        if not isinstance(value, str) or value.strip().lower() not in allowed:
            raise ValueError(f"must be one of {', '.join(allowed)}")
        return value.strip().lower()

    return check


def _pricing(value: Any) -> Any:
    """`{model: {"input": dollars, "output": dollars}}`, both per million tokens."""
    if not isinstance(value, Mapping):
        raise ValueError('must be a table of models, e.g. [pricing."gpt-4.1-mini"] input = 0.40 output = 1.60')
    prices: dict[str, dict[str, float]] = {}
    for model, price in value.items():
        if not isinstance(price, Mapping) or set(price) != {"input", "output"}:
            raise ValueError(f'[pricing."{model}"] needs exactly input = and output = (dollars per million tokens)')
        for kind in ("input", "output"):
            number = price[kind]
            if isinstance(number, bool) or not isinstance(number, int | float) or number < 0:
                raise ValueError(f'[pricing."{model}"] {kind} must be a number of dollars, 0 or more')
        prices[str(model)] = {"input": float(price["input"]), "output": float(price["output"])}
    return prices


def _path(value: Any) -> Any:
    if not isinstance(value, str | Path):
        raise ValueError("must be a folder path")
    return Path(value).expanduser()


_CHECKS: dict[str, Check] = {
    "home": _path,
    "model": _text(optional=False),
    "base_url": _text(optional=True),
    "api_key": _text(optional=True),
    "wing": _text(optional=True),
    "wings": _names,
    "timeout": _number(float, above=0),
    "memory_enabled": _flag,
    "memory_budget": _number(int, low=256),
    "entry_limit": _number(int, low=20, high=2000),
    "soft_limit": _number(int, low=1),
    "stale_days": _number(int, low=1),
    "tool_rounds": _number(int, low=1, high=64),
    "window_tokens": _number(int, low=1024),
    "compact_at": _number(float, low=0.2, high=0.95),
    "extraction": _flag,
    "extract_model": _text(optional=True),
    "extract_trigger": _number(int, low=100),
    "extract_min": _number(int, low=0),
    "auto_save": _choice("high", "all", "none"),
    "extract_timeout": _number(float, above=0),
    "git_autocommit": _flag,
    "project_enabled": _flag,
    "project_saves": _choice("personal", "project"),
    "hook_max_transcript_bytes": _number(int, low=1024),
    "import_max_bytes": _number(int, low=1024),
    "pricing": _pricing,
}
assert set(_CHECKS) == {f.name for f in fields(Settings)} - {"sources", "notices"}
_FIELD_KEYS = {name: key for key, name in _TOML_KEYS.items()}  # Settings field -> config.toml key


def toml_key(name: str) -> str:
    """A setting as the user writes it in config.toml (`memory.budget_bytes`), from its field name."""
    return _FIELD_KEYS.get(name, name)


def _suggestion(key: str) -> str | None:
    """The known key an unknown one most likely means: a field name, the same last part elsewhere, a typo."""
    if key in _FIELD_KEYS:  # `memory_budget`, as the code calls it
        return _FIELD_KEYS[key]
    import difflib  # only for a key that is not known

    last = key.rpartition(".")[2]
    same = [known for known in _TOML_KEYS if known.rpartition(".")[2] == last]
    if len(same) == 1:  # `budget_bytes` outside [memory], `[agent] window_tokens`
        return same[0]
    close = difflib.get_close_matches(key, list(_TOML_KEYS), n=1, cutoff=0.6)
    if close:
        return close[0]
    ends = {known.rpartition(".")[2]: known for known in _TOML_KEYS}
    close = difflib.get_close_matches(last, list(ends), n=1, cutoff=0.75)
    return ends[close[0]] if close else None


def _unknown(key: str, config_file: Path) -> str:
    """The warning for a key palace does not know (it is ignored: a newer palace's key must not stop an older)."""
    close = _suggestion(key)
    hint = f" (did you mean '{close}'?)" if close else " (`palace doctor` lists the settings; see the README)"
    return f"{config_file}: unknown setting '{key}'{hint}; it is ignored"


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in table.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, Mapping):
            flat.update(_flatten(value, dotted + "."))
        else:
            flat[dotted] = value
    return flat


def _read_toml(path: Path) -> dict[str, Any]:
    """The file's settings as dotted keys; the `pricing` table, keyed by model names with dots, stays whole."""
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from exc
    import tomllib  # only when there is a config file to read

    try:
        with handle:
            table = tomllib.load(handle)
            pricing = table.pop("pricing", None)
            return _flatten(table) | ({"pricing": pricing} if pricing is not None else {})
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from exc
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from exc


def _home(flags: Mapping[str, Any], env: Mapping[str, str], sources: dict[str, str]) -> Path:
    if "home" in flags:
        sources["home"] = "flag"
        return Path(str(flags["home"])).expanduser()
    if env.get("PALACE_HOME"):
        sources["home"] = "PALACE_HOME"
        return Path(env["PALACE_HOME"]).expanduser()
    return Path.home() / ".palace"


def load_settings(flags: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None) -> Settings:
    """Merge defaults, config.toml, environment and flags (None flags are ignored)."""
    env = os.environ if env is None else env
    flags = {k: v for k, v in (flags or {}).items() if v is not None}
    sources: dict[str, str] = {}
    values: dict[str, Any] = {"home": _home(flags, env, sources)}
    config_file = PalacePaths(values["home"]).config
    notices = _from_toml(config_file, values, sources)
    _from_env(env, values, sources)
    for name, value in flags.items():
        if name == "home":
            continue
        if name not in _CHECKS:
            raise ConfigError(f"unknown setting {name!r}")
        values[name] = value
        sources[name] = "flag"
    _check_values(values, sources, config_file)
    settings = Settings(**values)
    settings.sources = sources
    settings.notices = notices
    return settings


def _from_toml(config_file: Path, values: dict[str, Any], sources: dict[str, str]) -> list[str]:
    """config.toml's settings into values; the notices about keys palace does not know."""
    notices: list[str] = []
    for key, value in _read_toml(config_file).items():
        name = _TOML_KEYS.get(key)
        if name is None:
            notices.append(_unknown(key, config_file))
            continue
        values[name] = value
        sources[name] = "config.toml"
    return notices


def _from_env(env: Mapping[str, str], values: dict[str, Any], sources: dict[str, str]) -> None:
    for var, name in _ENV_KEYS.items():
        if not env.get(var):
            continue
        if var == "PALACE_WING":  # like --wing: the wings it names replace config.toml's
            parts = [part.strip() for part in env[var].split(",") if part.strip()]
            values.update(wing=parts[0] if parts else None, wings=parts[1:])
            sources.update(wing=var, wings=var)
            continue
        values[name] = env[var]
        sources[name] = var


def _check_values(values: dict[str, Any], sources: dict[str, str], config_file: Path) -> None:
    """Each value checked and converted in place; ConfigError naming every bad one."""
    problems = []
    for name, value in list(values.items()):
        try:
            values[name] = _CHECKS[name](value)
        except ValueError as exc:  # a bad value of a known key stops palace: guessing could lose or leak memory
            problems.append(f"{toml_key(name)} ({sources.get(name, 'default')}): {exc}")
    if problems:
        where = f" (config.toml is {config_file})" if any("(config.toml)" in p for p in problems) else ""
        raise ConfigError("invalid settings: " + "; ".join(problems) + where)
