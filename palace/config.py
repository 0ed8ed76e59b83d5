"""Settings: command-line flags > environment > $PALACE_HOME/config.toml > defaults, with provenance."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from palace.errors import ConfigError
from palace.paths import PalacePaths

DEFAULT_MODEL = "gpt-4.1-mini"

# config.toml key (dotted) -> Settings field
_TOML_KEYS: dict[str, str] = {
    "model": "model",
    "base_url": "base_url",
    "api_key": "api_key",
    "wing": "wing",
    "timeout": "timeout",
    "memory.budget_bytes": "memory_budget",
    "memory.entry_limit": "entry_limit",
    "memory.soft_limit": "soft_limit",
    "agent.tool_rounds": "tool_rounds",
    "extraction.enabled": "extraction",
    "extraction.model": "extract_model",
    "extraction.trigger_chars": "extract_trigger",
    "extraction.min_chars": "extract_min",
    "git.autocommit": "git_autocommit",
}

_ENV_KEYS: dict[str, str] = {
    "PALACE_MODEL": "model",
    "OPENAI_BASE_URL": "base_url",
    "OPENAI_API_KEY": "api_key",
    "PALACE_WING": "wing",
}


def default_home() -> Path:
    """The palace folder: $PALACE_HOME or ~/.palace."""
    env = os.environ.get("PALACE_HOME")
    return Path(env).expanduser() if env else Path.home() / ".palace"


class Settings(BaseModel):
    """Every setting in effect; `sources` says where each value came from."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    home: Path = Field(default_factory=default_home)
    model: str = DEFAULT_MODEL
    base_url: str | None = None
    api_key: str | None = None
    wing: str | None = None
    timeout: float = Field(default=60.0, gt=0)
    memory_budget: int = Field(default=8192, ge=256)
    entry_limit: int = Field(default=200, ge=20, le=2000)
    soft_limit: int = Field(default=100, ge=1)
    tool_rounds: int = Field(default=8, ge=1, le=64)
    extraction: bool = True
    extract_model: str | None = None
    extract_trigger: int = Field(default=4000, ge=100)
    extract_min: int = Field(default=200, ge=0)
    git_autocommit: bool = True
    sources: dict[str, str] = Field(default_factory=dict, exclude=True)

    @property
    def paths(self) -> PalacePaths:
        return PalacePaths(self.home)

    @property
    def memories_file(self) -> Path:
        return self.paths.memories

    @property
    def sessions_dir(self) -> Path:
        return self.paths.sessions

    def source(self, field: str) -> str:
        """Where a setting's value came from: flag, environment variable, config.toml or default."""
        return self.sources.get(field, "default")


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
    try:
        with path.open("rb") as handle:
            return _flatten(tomllib.load(handle))
    except FileNotFoundError:
        return {}
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from exc
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from exc


def load_settings(flags: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None) -> Settings:
    """Merge defaults, config.toml, environment and flags (None flags are ignored)."""
    env = os.environ if env is None else env
    flags = {k: v for k, v in (flags or {}).items() if v is not None}
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}

    home = Path(str(flags["home"])).expanduser() if "home" in flags else None
    if home is None and env.get("PALACE_HOME"):
        home = Path(env["PALACE_HOME"]).expanduser()
        sources["home"] = "PALACE_HOME"
    home = home or Path.home() / ".palace"
    values["home"] = home
    if "home" in flags:
        sources["home"] = "flag"

    config_file = PalacePaths(home).config
    for key, value in _read_toml(config_file).items():
        field = _TOML_KEYS.get(key)
        if field is None:
            known = ", ".join(sorted(_TOML_KEYS))
            raise ConfigError(f"{config_file}: unknown setting {key!r} (known: {known})")
        values[field] = value
        sources[field] = "config.toml"
    for var, field in _ENV_KEYS.items():
        if env.get(var):
            values[field] = env[var]
            sources[field] = var
    for field, value in flags.items():
        if field != "home":
            values[field] = value
            sources[field] = "flag"
    try:
        settings = Settings(**values)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'])} ({sources.get(str(err['loc'][0]), 'default')}): {err['msg']}"
            for err in exc.errors()
        )
        raise ConfigError(f"invalid settings: {problems}") from exc
    settings.sources = sources
    return settings
