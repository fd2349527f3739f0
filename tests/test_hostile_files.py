"""Hostile input at every entry point: scenario, component pack, variant file, state file, JSON text,
protocol request and command-line value.  Each is answered with one line (``FILE: FIELD: reason`` for
a file), never a traceback, in bounded time and memory, and never runs code the input names.

HOSTILE_KINDS lists every kind of hostile input exercised here; a test checks that each one is used."""

from __future__ import annotations

import copy
import functools
import itertools
import json
import os
import resource
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulecraft import yamlio
from rulecraft.errata import PluginError, Variant, VariantFileError, load_plugin, load_variant
from rulecraft.model.aeroplanes import components as aer
from rulecraft.model.airships import components as air
from rulecraft.model.kings_of_air_and_steam import components as kas
from rulecraft.model.steamopolis import components as stm
from rulecraft.packs import PackError
from rulecraft.scenarios.loader import ScenarioFileError, check_scenario_files, load_scenario
from rulecraft.yamlio import DataFileError

ROOT = Path(__file__).resolve().parents[1]
GOOD_SCENARIO = ROOT / "scenarios/airships/AIR-EX-05-throw-3-2-2.yaml"
KAS_SCENARIO = next((ROOT / "scenarios/kings_of_air_and_steam").glob("KAS-EX-01-*.yaml"))
GOOD_VARIANT = "variant: x\ngame: air\ntitle: t\n"
EXIT_USAGE = 4  # rulecraft/cli.py: usage or input error (a missing or malformed file)

# -- the kinds ---------------------------------------------------------------------------------------------

Maker = Callable[[Path], Path]


def _bytes(content: bytes) -> Maker:
    def make(folder: Path) -> Path:
        path = folder / "AIR-EX-05-hostile.yaml"
        path.write_bytes(content)
        return path

    return make


def _text(content: str) -> Maker:
    return _bytes(content.encode("utf-8"))


def _folder(folder: Path) -> Path:
    path = folder / "AIR-EX-05-folder.yaml"
    path.mkdir()
    return path


def _missing(folder: Path) -> Path:
    return folder / "AIR-EX-05-missing.yaml"


def _dev_zero(folder: Path) -> Path:
    path = folder / "AIR-EX-05-zero.yaml"
    path.symlink_to("/dev/zero")
    return path


def _fifo(folder: Path) -> Path:
    path = folder / "AIR-EX-05-fifo.yaml"
    os.mkfifo(path)  # nothing ever writes to it: opening it for reading the usual way blocks forever
    return path


def _oversize(folder: Path) -> Path:
    path = folder / "AIR-EX-05-big.yaml"
    with path.open("wb") as out:
        out.write(b"# " + b"x" * yamlio.MAX_BYTES + b"\n")
    return path


def _alias_bomb() -> str:
    """The 'billion laughs': nine levels of nine aliases, a few hundred bytes standing for 9**9 strings."""
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    names = "abcdefghi"
    for prev, cur in itertools.pairwise(names):
        lines.append(f"{cur}: &{cur} [" + ",".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def _deep_block(levels: int) -> str:
    return "".join(" " * i + "k:\n" for i in range(levels)) + " " * levels + "k: 1\n"


# name -> (make the file, the field the error names, words it contains)
FILE_KINDS: dict[str, tuple[Maker, str, tuple[str, ...]]] = {
    "empty-file": (_text(""), "(top level)", ()),
    "comments-only": (_text("# nothing here\n\n# at all\n"), "(top level)", ()),
    "null-document": (_text("~\n"), "(top level)", ()),
    "top-level-list": (_text("- variant: x\n- game: air\n"), "(top level)", ()),
    "top-level-scalar": (_text("just some words\n"), "(top level)", ()),
    "nul-bytes": (_bytes(b"variant: x\x00\x00\x00\ngame: air\n"), "(file)", ("binary",)),
    "binary-png": (_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe"), "(file)", ("not UTF-8",)),
    "latin-1-bytes": (
        _bytes("variant: x\ngame: air\ntitle: café\n".encode("latin-1")),
        "(file)",
        ("not UTF-8", "line 3"),
    ),
    "a-folder": (_folder, "(file)", ("folder",)),
    "missing-file": (_missing, "(file)", ("no such file",)),
    "symlink-to-dev-zero": (_dev_zero, "(file)", ("not a regular file",)),
    "fifo": (_fifo, "(file)", ("not a regular file",)),
    "over-10-mib": (_oversize, "(file)", ("at most",)),
    "alias-bomb": (_text(_alias_bomb()), "(file)", ("aliases are expanded", "line 6")),
    "alias-loop": (_text("a: &x [1, *x]\n"), "(file)", ("loop", "line 1, column 11")),
    "undefined-alias": (_text("a: *" + "q" * 5000 + "\n"), "(file)", ("not valid YAML",)),
    "deep-flow-brackets": (_text("a: " + "[" * 100_000 + "]" * 100_000 + "\n"), "(file)", ("nested deeper", "line 1")),
    "deep-block-mappings": (_text(_deep_block(200)), "(file)", ("nested deeper",)),
    "int-5000-digits": (_text("variant: x\nparameters: {extra_go_cost: " + "9" * 5000 + "}\n"), "(file)", ("5000",)),
    "int-beyond-64-bits": (_text("variant: x\ncount: 1000000000000000000000000000000\n"), "(file)", ("64 bits",)),
    "nan": (_text("variant: x\nvalue: .nan\n"), "(file)", ("not a finite number",)),
    "inf": (_text("variant: x\nvalue: -1.0e+999\n"), "(file)", ("not a finite number",)),
    "tab-indented": (_text("variant: x\ngame:\n\tair\n"), "(file)", ("not valid YAML", "line 3")),
    "duplicate-key": (_text("variant: x\ngame: air\nvariant: y\n"), "(file)", ("given twice", "line 3")),
    "syntax-error": (_text("variant: [unclosed\n"), "(file)", ("not valid YAML", "line")),
    "python-tag": (_text("a: !!python/object/apply:os.mkdir [PWNED]\n"), "(file)", ("not valid YAML",)),
    "binary-tag": (_text("a: !!binary aGVsbG8=\n"), "(file)", ("no JSON value",)),
    "boolean-key": (_text("on: 1\n"), "(file)", ("quote it",)),
    "control-character": (_text("title: bell\x07\n"), "(file)", ("not allowed",)),
    "two-documents": (_text("variant: x\n---\nvariant: y\n"), "(file)", ("not valid YAML",)),
}

# name -> the test that exercises it
ENTRY_KINDS: dict[str, str] = {
    "wrong-type-top-level-field": "test_wrong_type_top_level_field_of_a_scenario",
    "null-where-a-mapping-is-expected": "test_null_where_a_mapping_is_expected",
    "huge-string": "test_huge_string_is_quoted_as_an_excerpt",
    "terminal-escape-in-a-value": "test_terminal_escape_in_a_value_is_escaped",
    "huge-key": "test_huge_key_is_shortened_in_the_field",
    "unknown-rule-id": "test_unknown_rule_id_in_a_scenario",
    "unknown-ambiguity": "test_unknown_ambiguity_in_depends_on",
    "unknown-reading": "test_unknown_reading_in_a_scenario",
    "misnamed-file-with-other-errors": "test_misnamed_file_with_other_errors_reports_them_all",
    "scenario-of-another-game": "test_scenario_of_another_game_is_refused_for_this_game",
    "plugin-module-function": "test_plugin_module_function_is_code_and_refused_without_the_opt_in",
    "components-not-a-pack": "test_components_not_a_pack_is_one_line_without_its_content",
    "components-a-device": "test_components_a_device_is_refused_unread",
}
JSON_KINDS = {
    "json-deep": "[" * 100_000 + "]" * 100_000,
    "json-int-5000-digits": '{"seed": ' + "9" * 5000 + "}",
    "json-int-beyond-64-bits": '{"count": 1000000000000000000000000000000}',
    "json-nan": '{"x": NaN}',
    "json-infinity": '{"x": 1e999}',
    "json-duplicate-key": '{"x": 1, "x": 2}',
    "json-invalid": '{"x": [1, 2',
}
FUZZ_KINDS: dict[str, str] = {
    "random-bytes": "test_random_bytes_raise_only_the_loaders_error",
    "mutated-documents": "test_mutated_documents_raise_only_the_loaders_error",
}
# Protocol request lines (what a driver or a hostile client sends the reference server); each is
# answered with ok: false and one line, and the session goes on answering.
PROTOCOL_KINDS: dict[str, str] = {
    "protocol-not-json": "not json",
    "protocol-a-list": "[1, 2]",
    "protocol-no-op": '{"protocol": 1}',
    "protocol-unknown-op": '{"op": "dance"}',
    "protocol-op-not-text": '{"op": 7}',
    "protocol-version-as-text": '{"op": "hello", "protocol": "1"}',
    "protocol-deep-nesting": "[" * 100_000,
    "protocol-int-5000-digits": '{"op": "new_game", "setup": {"players": ' + "9" * 5000 + "}}",
    "protocol-nan": '{"op": "new_game", "setup": {"players": NaN}}',
    "protocol-players-out-of-range": '{"op": "new_game", "setup": {"players": 99}}',
    "protocol-unknown-setup-field": '{"op": "new_game", "setup": {"players": 2, "colour": "red"}}',
    "protocol-pack-not-an-object": '{"op": "new_game", "setup": {"players": 2}, "components": "/etc/passwd"}',
    "protocol-state-not-an-object": '{"op": "set_state", "state": [1, 2, 3]}',
    "protocol-state-of-another-game": "STATE-OF-STM",
    "protocol-state-3000-chips": "STATE-3000-CHIPS",
    "protocol-apply-garbage-action": '{"op": "apply", "action": {"kind": "grant", "chips": 1e999}}',
}
# Command-line values: exit 4, one line on standard error naming the option or file, no traceback.
CLI_KINDS: dict[str, tuple[str, ...]] = {
    "cli-seed-nan": ("play", "air", "--seed", "nan"),
    "cli-players-negative": ("play", "air", "--players", "-2"),
    "cli-players-beyond-the-game": ("play", "air", "--players", "9"),
    "cli-seconds-inf": ("verify", "air", "--seconds", "inf"),
    "cli-unknown-game": ("play", "chess"),
    "cli-unknown-reading": ("play", "air", "--reading", "AIR-AMB-99=x"),
    "cli-reading-without-equals": ("play", "air", "--reading", "AIR-AMB-12"),
    "cli-state-file-missing": ("query", "stm", "legal", "--state", "/nonexistent/state.json"),
    "cli-unwritable-output": ("play", "air", "--svg", "/nonexistent/folder/x.svg"),
    "cli-impl-missing-program": ("conform", "air", "--impl", "/nonexistent/impl", "--no-scenarios", "--quiet"),
}
HOSTILE_KINDS: tuple[str, ...] = (
    *FILE_KINDS,
    *ENTRY_KINDS,
    *JSON_KINDS,
    *FUZZ_KINDS,
    *PROTOCOL_KINDS,
    *CLI_KINDS,
)

# -- the entry points --------------------------------------------------------------------------------------

LOADERS: dict[str, tuple[Callable[[Path], Any], type[DataFileError]]] = {
    "scenario": (load_scenario, ScenarioFileError),
    "variant": (load_variant, VariantFileError),
    "pack-air": (air.load_pack, PackError),
    "pack-kas": (kas.load_pack, PackError),
    "pack-stm": (stm.load_pack, PackError),
    "pack-aer": (aer.load_pack, PackError),
}


def one_line(exc: DataFileError, path: Path, field: str | None, *words: str) -> str:
    """The error is one line naming the file (and the field), short, quoting no raw control character."""
    text = str(exc)
    assert text.startswith(f"{path}: "), text
    assert "\n" not in text and "\r" not in text and "\x1b" not in text, text
    assert "<unicode string>" not in text and "Traceback" not in text, text
    assert len(text) <= len(str(path)) + 600, f"{len(text)} characters"
    if field is not None:
        assert exc.field == field, text
    for word in words:
        assert word in text, text
    return text


def test_at_least_thirty_kinds_and_each_is_exercised() -> None:
    assert len(HOSTILE_KINDS) == len(set(HOSTILE_KINDS)) >= 50
    for kind, test in (ENTRY_KINDS | FUZZ_KINDS).items():
        assert callable(globals().get(test)), f"{kind}: no test {test}"


@pytest.mark.parametrize("entry", sorted(LOADERS))
@pytest.mark.parametrize("kind", sorted(FILE_KINDS))
def test_a_hostile_file_is_one_line_through_every_loader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str, entry: str
) -> None:
    make, field, words = FILE_KINDS[kind]
    path = make(tmp_path)
    loader, error = LOADERS[entry]
    monkeypatch.chdir(tmp_path)  # a python tag would create ./PWNED here
    with pytest.raises(error) as info:
        loader(path)
    one_line(info.value, path, field, *words)
    assert not (tmp_path / "PWNED").exists(), "the file ran code"


def test_the_limits_leave_the_bundled_files_alone() -> None:
    """Every shipped scenario, pack and variant parses as plain PyYAML reads it (the Aeroplanes pack
    shares values through aliases: aliases are counted, not refused)."""
    shipped = [
        *ROOT.glob("scenarios/*/*.yaml"),
        *ROOT.glob("model/*/packs/*.yaml"),
        *ROOT.glob("examples/errata/*.yaml"),
    ]
    assert len(shipped) > 100
    for path in shipped:
        assert yamlio.load_file(path) == yaml.safe_load(path.read_text("utf-8")), path


def test_a_merge_key_loads_and_a_repeated_key_beside_it_does_not() -> None:
    assert yamlio.load("a: &x {b: 1}\nc: {<<: *x, b: 2}\n") == {"a": {"b": 1}, "c": {"b": 2}}
    with pytest.raises(DataFileError, match="given twice"):
        yamlio.load("c: {b: 1, b: 2}\n", "c.yaml")


# -- wrong types, field by field ---------------------------------------------------------------------------

SCENARIO_FIELDS = (
    "id",
    "title",
    "game",
    "source",
    "rules",
    "readings",
    "depends_on",
    "reconstruction",
    "components",
    "given",
    "steps",
    "expect",
)
VARIANT_FIELDS = (
    "variant",
    "game",
    "title",
    "description",
    "source",
    "readings",
    "parameters",
    "components",
    "plugins",
)


def _wrong(value: Any) -> Any:
    """A value of another JSON type than ``value``'s."""
    return "not a collection" if isinstance(value, dict | list) else [1, [2]]


def _good_scenario() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(GOOD_SCENARIO.read_text("utf-8"))
    data["readings"] = {"AIR-AMB-01": "caption"}
    data["components"] = "pack.yaml"
    return data


def _write(folder: Path, name: str, data: Any) -> Path:
    path = folder / name
    # LibYAML's emitter where PyYAML has it: the pure-Python one spends seconds on the 2 MB values
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    path.write_text(yaml.dump(data, Dumper=dumper, allow_unicode=True, width=10**9), "utf-8")
    return path


@pytest.mark.parametrize("field", SCENARIO_FIELDS)
def test_wrong_type_top_level_field_of_a_scenario(tmp_path: Path, field: str) -> None:
    """wrong-type-top-level-field: each top-level field of a scenario, given the wrong type."""
    data = _good_scenario()
    data[field] = _wrong(data[field])
    path = _write(tmp_path, "AIR-EX-05-wrong.yaml", data)
    with pytest.raises(ScenarioFileError) as info:
        load_scenario(path)
    one_line(info.value, path, None, "is not of type")
    assert info.value.field.startswith(field), str(info.value)


@pytest.mark.parametrize("field", VARIANT_FIELDS)
def test_wrong_type_top_level_field_of_a_variant(tmp_path: Path, field: str) -> None:
    data = yaml.safe_load(GOOD_VARIANT) | {"readings": {}, "parameters": {}, "plugins": [], "components": "p.yaml"}
    data.setdefault(field, "text")
    data[field] = _wrong(data[field])
    path = _write(tmp_path, "v.yaml", data)
    with pytest.raises(VariantFileError) as info:
        load_variant(path)
    one_line(info.value, path, field, "is not of type")


PACKS = {"air": air, "kas": kas, "stm": stm, "aer": aer}


def _bundled(game: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(
        (ROOT / "model" / PACKS[game].__name__.split(".")[2] / "packs/reconstructed.yaml").read_text("utf-8")
    )
    return data


@functools.cache
def _bundled_cached(game: str) -> dict[str, Any]:
    return _bundled(game)


@pytest.mark.parametrize("game", sorted(PACKS))
def test_wrong_type_top_level_field_of_a_pack(game: str) -> None:
    """Every top-level field of each game's bundled pack, given the wrong type: the pack loader names it."""
    bundled = _bundled_cached(game)
    for field in bundled:
        data = copy.deepcopy(bundled)
        data[field] = _wrong(data[field])
        with pytest.raises(PackError) as info:
            PACKS[game].pack_from_data(data, "pack.yaml")
        assert info.value.where.startswith(field), str(info.value)
        assert "\n" not in str(info.value) and str(info.value).startswith("pack.yaml: ")


def test_null_where_a_mapping_is_expected(tmp_path: Path) -> None:
    """null-where-a-mapping-is-expected: scenario given/source, variant readings/parameters, a pack's
    mapping-valued fields."""
    for field in ("given", "source", "readings"):
        data = _good_scenario() | {field: None}
        path = _write(tmp_path, "AIR-EX-05-null.yaml", data)
        with pytest.raises(ScenarioFileError) as info:
            load_scenario(path)
        one_line(info.value, path, field, "None is not of type 'object'")
    for field in ("readings", "parameters"):
        path = _write(tmp_path, "v.yaml", yaml.safe_load(GOOD_VARIANT) | {field: None})
        with pytest.raises(VariantFileError) as v_info:
            load_variant(path)
        one_line(v_info.value, path, field, "None is not of type 'object'")
    for field in ("gauge", "supplies"):
        data = _bundled("stm") | {field: None}
        with pytest.raises(PackError) as p_info:
            stm.pack_from_data(data, "pack.yaml")
        assert p_info.value.where == field and "None" in p_info.value.message


HUGE = "x" * 2_000_000 + " /etc/passwd-like secret"


def test_huge_string_is_quoted_as_an_excerpt(tmp_path: Path) -> None:
    """huge-string: a 2 MB value where a short one is expected; the error quotes at most an excerpt."""
    cases: list[tuple[Callable[[Path], Any], type[DataFileError], Path, str]] = [
        (load_scenario, ScenarioFileError, _write(tmp_path, "AIR-EX-05-s.yaml", _good_scenario() | {"id": HUGE}), "id"),
        (
            load_variant,
            VariantFileError,
            _write(tmp_path, "v.yaml", {"variant": HUGE, "game": "air", "title": "t"}),
            "variant",
        ),
        (air.load_pack, PackError, _write(tmp_path, "p.yaml", _bundled("air") | {"nations": HUGE}), "nations"),
    ]
    for loader, error, path, field in cases:
        with pytest.raises(error) as info:
            loader(path)
        text = one_line(info.value, path, None, "…")
        assert info.value.field.startswith(field) and "secret" not in text and "x" * 100 not in text, text


def test_terminal_escape_in_a_value_is_escaped(tmp_path: Path) -> None:
    """terminal-escape-in-a-value: an ANSI escape that would recolour or clear the user's terminal."""
    path = tmp_path / "v.yaml"
    path.write_text('variant: "\\e[2J\\e[31mred"\ngame: air\ntitle: t\n', "utf-8")
    with pytest.raises(VariantFileError) as info:
        load_variant(path)
    assert "\\x1b" in one_line(info.value, path, "variant", "does not match")


def test_huge_key_is_shortened_in_the_field(tmp_path: Path) -> None:
    """huge-key: a 100,000-character key becomes a field name of at most a line's worth."""
    path = _write(tmp_path, "v.yaml", yaml.safe_load(GOOD_VARIANT) | {"readings": {"A" * 100_000: "x"}})
    with pytest.raises(VariantFileError) as info:
        load_variant(path)
    one_line(info.value, path, None, "not a registered ambiguity")
    assert info.value.field.startswith("readings.AAA") and len(info.value.field) <= 80


# -- scenarios against their game --------------------------------------------------------------------------


def _scenario_text(old: str, new: str) -> str:
    text = GOOD_SCENARIO.read_text("utf-8")
    assert old in text
    return text.replace(old, new)


def test_unknown_rule_id_in_a_scenario(tmp_path: Path) -> None:
    """unknown-rule-id: AIR-R-99 is no rule of Airships (AIR-R-12 is)."""
    path = tmp_path / "AIR-EX-05-x.yaml"
    path.write_text(_scenario_text("rules: [AIR-R-12,", "rules: [AIR-R-99,"), "utf-8")
    with pytest.raises(ScenarioFileError) as info:
        load_scenario(path)
    one_line(info.value, path, "rules[0]", "AIR-R-99", "not a rule of air")


def test_unknown_ambiguity_in_depends_on(tmp_path: Path) -> None:
    """unknown-ambiguity: depends_on names AIR-AMB-99, not in the register."""
    path = tmp_path / "AIR-EX-05-x.yaml"
    path.write_text(_scenario_text("depends_on: [AIR-AMB-01]", "depends_on: [AIR-AMB-01, AIR-AMB-99]"), "utf-8")
    with pytest.raises(ScenarioFileError) as info:
        load_scenario(path)
    one_line(info.value, path, "depends_on[1]", "AIR-AMB-99", "not an ambiguity of air")


def test_unknown_reading_in_a_scenario(tmp_path: Path) -> None:
    """unknown-reading: a reading key the ambiguity does not have, and an ambiguity that does not exist."""
    path = tmp_path / "AIR-EX-05-x.yaml"
    path.write_text(_scenario_text("depends_on:", "readings: {AIR-AMB-01: nonsense}\ndepends_on:"), "utf-8")
    with pytest.raises(ScenarioFileError) as info:
        load_scenario(path)
    one_line(info.value, path, "readings.AIR-AMB-01", "'nonsense' is not a reading")
    path.write_text(_scenario_text("depends_on:", "readings: {AIR-AMB-98: a}\ndepends_on:"), "utf-8")
    with pytest.raises(ScenarioFileError) as info:
        load_scenario(path)
    one_line(info.value, path, "readings.AIR-AMB-98", "not an ambiguity of air")


def test_misnamed_file_with_other_errors_reports_them_all(tmp_path: Path) -> None:
    """misnamed-file-with-other-errors: the id/file-name mismatch does not hide the content's errors."""
    path = tmp_path / "AIR-EX-77-elsewhere.yaml"
    path.write_text(_scenario_text("rules: [AIR-R-12,", "rules: [AIR-R-99, AIR-R-98,"), "utf-8")
    with pytest.raises(ScenarioFileError) as info:
        load_scenario(path)
    one_line(info.value, path, "rules[0]", "AIR-R-99", "rules[1]: AIR-R-98", "id: AIR-EX-05 does not match")
    assert [f for f, _ in info.value.problems] == ["rules[0]", "rules[1]", "id"]


def test_scenario_of_another_game_is_refused_for_this_game() -> None:
    """scenario-of-another-game: `rulecraft scenarios air KAS-FILE`; the check the CLI calls."""
    assert load_scenario(KAS_SCENARIO).game == "kas"
    with pytest.raises(ScenarioFileError) as info:
        check_scenario_files([GOOD_SCENARIO, KAS_SCENARIO], "air")
    one_line(info.value, KAS_SCENARIO, "game", "this scenario is for kas, not air")
    assert [s.id for s in check_scenario_files([GOOD_SCENARIO], "air")] == ["AIR-EX-05"]


# -- variants: plugins and components ----------------------------------------------------------------------


def test_plugin_module_function_is_code_and_refused_without_the_opt_in(tmp_path: Path) -> None:
    """plugin-module-function: `plugins: ["os:system"]` would import os and call system(game)."""
    path = tmp_path / "v.yaml"
    path.write_text(GOOD_VARIANT + 'plugins: [air-no-additional-go, "os:system"]\n', "utf-8")
    with pytest.raises(VariantFileError) as info:
        load_variant(path)
    one_line(info.value, path, "plugins[1]", "'os:system'", "--allow-plugin-code")
    assert load_variant(path, allow_plugin_code=True).allow_plugin_code, "the opt-in loads it"
    installed = path.with_name("installed.yaml")
    installed.write_text(GOOD_VARIANT + "plugins: [air-no-additional-go]\n", "utf-8")
    assert load_variant(installed).configure().id == "air", "an installed plugin needs no opt-in"


def test_a_variant_made_in_code_cannot_slip_a_module_function_past_configure() -> None:
    variant = Variant("x", "air", "t", "v.yaml", plugins=("os:getcwd",))
    with pytest.raises(PluginError, match="allow-plugin-code"):
        variant.configure()
    assert callable(load_plugin("os:getcwd", allow_code=True))


@pytest.mark.parametrize("target", ["/etc/passwd", "/etc/hostname", "."])
def test_components_not_a_pack_is_one_line_without_its_content(tmp_path: Path, target: str) -> None:
    """components-not-a-pack: a variant pointing at a system file must not print it."""
    if not Path(target).exists():
        pytest.skip(f"{target} is not on this machine")
    content = Path(target).read_text("utf-8", "replace")[:20] if Path(target).is_file() else "\x00never"
    path = tmp_path / "v.yaml"
    path.write_text(GOOD_VARIANT + f"components: {target}\n", "utf-8")
    with pytest.raises(VariantFileError) as info:
        load_variant(path)
    text = one_line(info.value, path, "components")
    assert content.strip() not in text.split("components: ", 1)[1], text


def test_components_a_device_is_refused_unread(tmp_path: Path) -> None:
    """components-a-device: /dev/zero would be read forever; /dev/stdin would wait for input."""
    path = tmp_path / "v.yaml"
    path.write_text(GOOD_VARIANT + "components: /dev/zero\n", "utf-8")
    with pytest.raises(VariantFileError) as info:
        load_variant(path)
    one_line(info.value, path, "components", "not a regular file")


# -- JSON text (state files use it) ------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(JSON_KINDS))
def test_hostile_json_is_one_line(kind: str) -> None:
    with pytest.raises(DataFileError) as info:
        yamlio.load_json_text(JSON_KINDS[kind], "state.json")
    text = one_line(info.value, Path("state.json"), "(file)")
    assert ("refused" in text) != (kind == "json-invalid"), text


def test_json_within_the_limits_loads() -> None:
    text = json.dumps({"seed": 2**63 - 1, "s": "[[[[[[" * 50, "x": [1.5, None, True]})
    assert yamlio.load_json_text(text, "state.json")["seed"] == 2**63 - 1
    assert yamlio.load_json_text("[" * 64 + "]" * 64, "deep.json") is not None
    with pytest.raises(DataFileError, match="nested deeper than 64"):
        yamlio.load_json_text("[" * 65 + "]" * 65, "deep.json")


# -- fuzzing -----------------------------------------------------------------------------------------------

# RULECRAFT_FUZZ_EXAMPLES=600 for a longer hunt than the default run can afford.
FUZZ = settings(
    max_examples=int(os.environ.get("RULECRAFT_FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@FUZZ
@given(content=st.binary(max_size=400), entry=st.sampled_from(sorted(LOADERS)))
def test_random_bytes_raise_only_the_loaders_error(content: bytes, entry: str) -> None:
    """random-bytes: any bytes at all are a loaded document or the entry point's own error."""
    loader, error = LOADERS[entry]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "AIR-EX-05-fuzz.yaml"
        path.write_bytes(content)
        try:
            loader(path)
        except error as exc:
            one_line(exc, path, None)


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _paths(value, (*prefix, i))
    return out


def _mutated(base: Any, data: st.DataObject) -> Any:
    doc = copy.deepcopy(base)
    path = data.draw(st.sampled_from(_paths(doc)[1:]))
    node = doc
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = data.draw(JSONISH)
    return doc


@FUZZ
@given(data=st.data(), entry=st.sampled_from(["scenario", "variant", "pack-air", "pack-stm"]))
def test_mutated_documents_raise_only_the_loaders_error(data: st.DataObject, entry: str) -> None:
    """mutated-documents: a valid document with one value anywhere replaced by a random JSON-ish tree
    (files for scenarios and variants; the parsed data for packs, whose files parse for a while)."""
    if entry.startswith("pack-"):
        game = entry.removeprefix("pack-")
        try:
            PACKS[game].pack_from_data(_mutated(_bundled_cached(game), data), "fuzz.yaml")
        except PackError as exc:
            one_line(exc, Path("fuzz.yaml"), None)
        return
    base = _good_scenario() if entry == "scenario" else {"variant": "x", "game": "air", "title": "t"}
    loader, error = LOADERS[entry]
    with tempfile.TemporaryDirectory() as folder:
        path = _write(Path(folder), "AIR-EX-05-fuzz.yaml", _mutated(base, data))
        try:
            loader(path)
        except error as exc:
            one_line(exc, path, None)


# -- through the command line ------------------------------------------------------------------------------

MEMORY = 2 * 1024**3


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"COLUMNS": "400", "NO_COLOR": "1"}
    env.pop("RULECRAFT_DEBUG", None)
    # -P: the installed rulecraft, never this source folder's (a wheel install: tox -e compiled)
    return subprocess.run(
        [sys.executable, "-P", "-m", "rulecraft", *args],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=_limit_memory,
        env=env,
        cwd=ROOT,
        check=False,
    )


CLI_ERRATA = ("alias-bomb", "latin-1-bytes", "deep-flow-brackets", "int-5000-digits", "symlink-to-dev-zero", "a-folder")


@pytest.mark.parametrize("kind", CLI_ERRATA)
def test_cli_errata_answers_a_hostile_file_with_one_line(tmp_path: Path, kind: str) -> None:
    make, field, words = FILE_KINDS[kind]
    path = make(tmp_path)
    done = _run("errata", "air", str(path), "--quiet")
    assert "Traceback" not in done.stderr and done.returncode == EXIT_USAGE, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and f"{path}: {field}: " in lines[0], done.stderr
    assert all(word in lines[0] for word in words), lines[0]


@pytest.mark.parametrize(
    ("line", "field", "words"),
    [
        ("components: /etc/passwd", "components", ("not a component pack",)),
        ('plugins: ["os:system"]', "plugins[0]", ("--allow-plugin-code",)),
    ],
)
def test_cli_errata_refuses_a_variant_that_reaches_outside(
    tmp_path: Path, line: str, field: str, words: tuple[str, ...]
) -> None:
    path = tmp_path / "v.yaml"
    path.write_text(f"{GOOD_VARIANT}{line}\n", "utf-8")
    done = _run("errata", "air", str(path), "--quiet")
    assert "Traceback" not in done.stderr and done.returncode == EXIT_USAGE, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and f"{path}: {field}: " in lines[0] and "root:" not in lines[0], done.stderr
    assert all(word in lines[0] for word in words), lines[0]


@pytest.mark.parametrize("kind", ["alias-bomb", "latin-1-bytes", "deep-flow-brackets"])
def test_cli_scenarios_answers_a_hostile_file_without_a_traceback(tmp_path: Path, kind: str) -> None:
    make, field, words = FILE_KINDS[kind]
    path = make(tmp_path)
    done = _run("scenarios", "air", str(path), "--quiet")
    assert "Traceback" not in done.stdout + done.stderr
    assert done.returncode == EXIT_USAGE, done.stderr  # a malformed file named by the user: an input error
    named = [ln for ln in (done.stdout + done.stderr).splitlines() if f"{path}: {field}: " in ln]
    assert len(named) == 1 and all(word in named[0] for word in words), done.stdout + done.stderr


@pytest.mark.parametrize("kind", ["scenario-of-another-game", "latin-1-bytes"])
def test_cli_scenarios_refuses_a_malformed_or_foreign_file_as_an_input_error(tmp_path: Path, kind: str) -> None:
    path = KAS_SCENARIO if kind == "scenario-of-another-game" else FILE_KINDS[kind][0](tmp_path)
    done = _run("scenarios", "air", str(path), "--quiet")
    assert done.returncode == EXIT_USAGE and "Traceback" not in done.stderr, done.stdout + done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and f"{path}: " in done.stderr


# -- state files: every file kind and every JSON kind through load_state ------------------------------------


@pytest.mark.parametrize("kind", sorted(FILE_KINDS) + sorted(JSON_KINDS))
def test_a_hostile_state_file_is_one_line_naming_the_file(tmp_path: Path, kind: str) -> None:
    from rulecraft.registry import make_game
    from rulecraft.statefile import StateFileError, load_state

    if kind in FILE_KINDS:
        path = FILE_KINDS[kind][0](tmp_path)
    else:
        path = tmp_path / "state.json"
        path.write_text(JSON_KINDS[kind], "utf-8")
    with pytest.raises(StateFileError) as info:
        load_state(path, make_game("stm"))
    text = str(info.value)
    assert text.startswith(f"{path}: ") and "\n" not in text and "Traceback" not in text, text
    assert len(text) <= len(str(path)) + 600 and info.value.field, text


# -- protocol requests: answered with one line, and the session goes on --------------------------------------


def _protocol_line(kind: str) -> str:
    import attrs

    from rulecraft.registry import make_game

    line = PROTOCOL_KINDS[kind]
    if line == "STATE-OF-STM":
        stm = make_game("stm")
        return json.dumps({"op": "set_state", "state": stm.state_to_json(stm.new_game(2))})
    if line == "STATE-3000-CHIPS":
        air_game = make_game("air")
        state = air_game.new_game(2)
        board = attrs.evolve(state.boards[0], chips=3000)
        return json.dumps(
            {"op": "set_state", "state": air_game.state_to_json(attrs.evolve(state, boards=(board, *state.boards[1:])))}
        )
    return line


@pytest.mark.parametrize("kind", sorted(PROTOCOL_KINDS))
def test_a_hostile_protocol_request_is_one_line_and_the_server_goes_on(kind: str) -> None:
    from rulecraft.conformance.server import Session

    session = Session("air")
    assert session.handle_line('{"op": "new_game", "setup": {"players": 2}}')[0]["ok"] is True
    before, _ = session.handle_line('{"op": "state"}')
    answer, end = session.handle_line(_protocol_line(kind))
    assert answer["ok"] is False and not end, answer
    error = str(answer["error"])
    assert error and "\n" not in error and "Traceback" not in error and len(error) <= 600, error
    again, _ = session.handle_line('{"op": "state"}')
    assert again["ok"] is True and again == before, "the session still answers, on the game it had"


# -- command-line values -------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(CLI_KINDS))
def test_a_hostile_command_line_value_is_exit_4_and_one_line(kind: str) -> None:
    done = _run(*CLI_KINDS[kind])
    assert done.returncode == EXIT_USAGE, (done.returncode, done.stdout[-400:], done.stderr[-400:])
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
