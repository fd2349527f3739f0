"""A project's defaults for the command line: ``[tool.rulecraft]`` in its ``pyproject.toml``.

Found as pytest finds its own table: the nearest ``pyproject.toml``, walking up from the current
folder, that has a ``[tool.rulecraft]`` table.  Values given on the command line win.  The file is
data (TOML, read with :mod:`tomllib`): nothing in it runs.  An unknown key or a value of the wrong
type is refused in one line ``FILE: tool.rulecraft.KEY: reason`` before any work.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from rulecraft.core import RulecraftError

FILE_NAME = "pyproject.toml"
TABLE = "tool.rulecraft"
MAX_BYTES = 1 << 20  # a pyproject.toml is a few kB; a bigger one is not read into memory
TOP_LEVEL_KEYS = frozenset({"seed", "readings", "database"})  # shared by every verb that takes them


class ConfigError(RulecraftError):
    """A ``[tool.rulecraft]`` table that cannot be used; ``str()`` is ``FILE: KEY: reason``."""

    def __init__(self, path: Path, key: str, reason: str) -> None:
        super().__init__(f"{path}: {key}: {reason}")
        self.path = path
        self.key = key
        self.reason = reason


@attrs.frozen
class Config:
    """The ``[tool.rulecraft]`` table of ``path`` (None: no project file has one)."""

    path: Path | None = None
    table: Mapping[str, Any] = attrs.field(factory=dict)

    @property
    def folder(self) -> Path:
        """Where relative paths in the table start (as in ruff and pytest: the file's folder)."""
        return self.path.parent if self.path is not None else Path.cwd()

    def shared(self) -> dict[str, Any]:
        """The top-level keys: ``seed``, ``readings``, ``database``."""
        return {k: v for k, v in self.table.items() if not isinstance(v, dict)}

    def verb(self, name: str) -> dict[str, Any]:
        """The ``[tool.rulecraft.<verb>]`` table (empty when absent)."""
        value = self.table.get(name, {})
        return dict(value) if isinstance(value, dict) else {}

    def key(self, *parts: str) -> str:
        return ".".join((TABLE, *parts))

    def error(self, reason: str, *parts: str) -> ConfigError:
        assert self.path is not None
        return ConfigError(self.path, self.key(*parts), reason)


def _read(path: Path) -> dict[str, Any]:
    import tomllib  # here: most folders a command runs in have no pyproject.toml to parse (issue 18)

    try:
        with path.open("rb") as source:
            raw = source.read(MAX_BYTES + 1)
    except OSError as exc:
        raise ConfigError(path, "file", f"cannot be read: {exc.strerror or exc}") from None
    if len(raw) > MAX_BYTES:
        raise ConfigError(path, "file", f"larger than {MAX_BYTES} bytes")
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ConfigError(path, "file", f"not UTF-8 (byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(path, "file", f"not TOML: {exc}") from None


def find(start: Path) -> Config:
    """The nearest ``[tool.rulecraft]`` table at or above ``start``."""
    for folder in (start, *start.parents):
        candidate = folder / FILE_NAME
        if not candidate.is_file():
            continue
        tool = _read(candidate).get("tool", {})
        table = tool.get("rulecraft") if isinstance(tool, dict) else None
        if table is None:
            continue
        if not isinstance(table, dict):
            raise ConfigError(candidate, TABLE, "a table ([tool.rulecraft]), not a single value")
        return Config(candidate, table)
    return Config()


def check_keys(config: Config, verbs: Mapping[str, frozenset[str]]) -> None:
    """Refuse a key no verb knows: ``verbs`` maps each verb to the option names it takes."""
    for key, value in config.table.items():
        if isinstance(value, dict):
            if key not in verbs:
                raise config.error(f"unknown table; the verbs are {', '.join(sorted(verbs))}", key)
            for option in value:
                if option not in verbs[key]:
                    known = ", ".join(sorted(verbs[key])) or "none"
                    raise config.error(f"unknown key; rulecraft {key} takes {known}", key, option)
        elif key not in TOP_LEVEL_KEYS:
            hint = f" (a verb table such as [tool.rulecraft.{key}]?)" if key in verbs else ""
            known = ", ".join(sorted(TOP_LEVEL_KEYS))
            raise config.error(f"unknown key; the top level takes {known} and one table per verb{hint}", key)


def database(config: Config) -> Path | str | None:
    """The Hypothesis example database the table names, if any: a folder (relative to the file) or
    a ``redis://HOST:PORT[/DB]`` URL, returned as it is written."""
    value = config.table.get("database")
    if value is None:
        return None
    if not isinstance(value, str) or not value:
        raise config.error(f"a folder path or redis:// URL as a string, got {type(value).__name__}", "database")
    if "://" in value:
        from rulecraft.profiles import DatabaseSettingError, check_database

        try:
            return check_database(value)
        except DatabaseSettingError as exc:
            raise config.error(str(exc).removeprefix("database: "), "database") from None
    return config.folder / value
