"""rulecraft's build backend: setuptools' own, plus the optional mypyc-compiled build.

``RULECRAFT_COMPILE=1 pip install .`` compiles the hot modules that setup.py lists with mypyc (issue
18); the pure-Python package is the default and stays the one every test runs.  Compiling needs mypy
and, for type-checking the compiled modules, the project's own dependencies and their stubs in the
build environment: this backend asks for them only when compiling.  An editable install is never
compiled: the extension modules would sit beside the sources and hide every later edit of them.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import (  # noqa: F401 - the hooks this backend passes through unchanged
    build_sdist,
    build_wheel,
    get_requires_for_build_sdist,
    prepare_metadata_for_build_wheel,
)

COMPILE = "RULECRAFT_COMPILE"
MYPY = "mypy>=1.16"  # mypyc with @mypyc_attr(native_class=False)
STUBS = ("types-PyYAML", "types-jsonschema")


def compiling() -> bool:
    return os.environ.get(COMPILE, "").strip() not in ("", "0")


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    requires: list[str] = _setuptools.get_requires_for_build_wheel(config_settings)
    if compiling():
        project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text("utf-8"))
        # mypy type-checks the compiled modules against everything they import: the optional Redis
        # client (the 'shared' extra) included.
        shared = project["project"]["optional-dependencies"]["shared"]
        requires += [MYPY, *project["project"]["dependencies"], *shared, *STUBS]
    return requires


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    _refuse_editable()
    requires: list[str] = _setuptools.get_requires_for_build_editable(config_settings)
    return requires


def prepare_metadata_for_build_editable(metadata_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    _refuse_editable()
    name: str = _setuptools.prepare_metadata_for_build_editable(metadata_directory, config_settings)
    return name


def build_editable(
    wheel_directory: str, config_settings: dict[str, Any] | None = None, metadata_directory: str | None = None
) -> str:
    _refuse_editable()
    name: str = _setuptools.build_editable(wheel_directory, config_settings, metadata_directory)
    return name


def _refuse_editable() -> None:
    if compiling():
        raise SystemExit(
            f"{COMPILE}=1 builds a wheel only (pip install ., not pip install -e .): compiled modules beside the"
            " sources would hide every later edit of them"
        )
