"""A shipped pack's parse kept between runs (issue 18: start-up; importing PyYAML and parsing a pack were
0.03 s of a 0.3 s `rulecraft query`): the kept parse is the parse, it is found by the file's bytes (and
the PyYAML that parsed them), and anything wrong with it means parsing again, never a wrong pack."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from rulecraft import packs

PACKAGES = {"air": "airships", "kas": "kings_of_air_and_steam", "stm": "steamopolis", "aer": "aeroplanes"}


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(packs.PARSE_CACHE_ENV, str(folder))
    return folder


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The pack files parsed (not read from the cache) during the test."""
    seen: list[bytes] = []
    parse = packs.parse_bundled

    def spy(raw: bytes) -> Any:
        seen.append(raw)
        return parse(raw)

    monkeypatch.setattr(packs, "parse_bundled", spy)
    return seen


def shipped(gid: str) -> tuple[str, bytes]:
    package = f"rulecraft.model.{PACKAGES[gid]}"
    return package, files(package).joinpath(packs.BUNDLED_NAME).read_bytes()


@pytest.mark.parametrize("gid", sorted(PACKAGES))
def test_the_kept_parse_is_the_parse(gid: str, cache: Path, parses: list[bytes]) -> None:
    package, raw = shipped(gid)
    parsed = packs.parse_bundled(raw)
    parses.clear()
    first = packs.read_bundled(package)  # parsed, and kept
    assert parses == [raw] and len(list(cache.glob("pack-*.marshal"))) == 1
    second = packs.read_bundled(package)  # the kept one
    assert parses == [raw]
    assert first == second == parsed
    assert repr(second) == repr(parsed)  # the same types too (True is not 1, a tuple not a list)


def test_a_damaged_or_cut_kept_parse_is_parsed_again(cache: Path, parses: list[bytes]) -> None:
    package, raw = shipped("stm")
    packs.read_bundled(package)
    (kept,) = cache.glob("pack-*.marshal")
    blob = kept.read_bytes()
    for damaged in (blob[:-1], blob[:40], b"", blob[:100] + bytes([blob[100] ^ 1]) + blob[101:]):
        kept.write_bytes(damaged)
        parses.clear()
        assert packs.read_bundled(package) == packs.parse_bundled(raw)
        assert parses[0] == raw  # parsed again, not read from the damaged file
        assert kept.read_bytes() == blob  # and kept whole again


def test_other_bytes_or_another_pyyaml_are_another_key(monkeypatch: pytest.MonkeyPatch) -> None:
    _, raw = shipped("air")
    key = packs._parse_key(raw)
    assert packs._parse_key(raw) == key
    assert packs._parse_key(raw + b"\n# edited\n") != key
    monkeypatch.setattr(packs.importlib.util, "find_spec", lambda name: SimpleNamespace(origin="/elsewhere/yaml.py"))
    assert packs._parse_key(raw) != key


def test_no_cache_folder_or_an_unwritable_one_parses_each_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, parses: list[bytes]
) -> None:
    package, raw = shipped("kas")
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", "utf-8")
    for setting in ("off", str(blocked / "cache")):
        monkeypatch.setenv(packs.PARSE_CACHE_ENV, setting)
        parses.clear()
        assert packs.read_bundled(package) == packs.read_bundled(package) == packs.parse_bundled(raw)
        assert len(parses) == 3
    assert blocked.read_text("utf-8") == "not a folder"


def test_what_marshal_cannot_hold_is_not_kept(cache: Path) -> None:
    packs._keep_parse("k" * 64, {"when": object()})
    assert not cache.exists() or not list(cache.iterdir())


def test_the_cache_folder_is_chosen_as_documented(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(packs.PARSE_CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert packs.cache_folder() == tmp_path / "xdg" / "rulecraft"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert packs.cache_folder() == tmp_path / "home" / ".cache" / "rulecraft"
    monkeypatch.setattr(packs.Path, "home", classmethod(lambda cls: cls("~")))  # no home: nothing kept
    assert packs.cache_folder() is None
    monkeypatch.setenv(packs.PARSE_CACHE_ENV, str(tmp_path / "mine"))
    assert packs.cache_folder() == tmp_path / "mine"
    monkeypatch.setenv(packs.PARSE_CACHE_ENV, "off")
    assert packs.cache_folder() is None
