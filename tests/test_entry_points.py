"""The games' entry points read without importlib.metadata (issue 18: start-up; it took 0.02 s to import,
a fifth of `rulecraft --help`): what importlib.metadata finds, on this install and on made-up paths, and
importlib.metadata itself wherever the path is not plain folders."""

from __future__ import annotations

import importlib.metadata
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from rulecraft import registry
from rulecraft.core import Chance

GROUP = "rulecraft.test-group"


def metadata_view(group: str) -> list[tuple[str, str, str]]:
    return [(ep.name, ep.value, ep.group) for ep in importlib.metadata.entry_points(group=group)]


def fast_view(group: str) -> list[tuple[str, str, str]]:
    found = registry._read_entry_points(group)
    assert found is not None, "the plain reading gave way to importlib.metadata"
    return [(ep.name, ep.value, ep.group) for ep in found]


@pytest.mark.parametrize("group", ["rulecraft.games", "rulecraft.variants", "pytest11", "console_scripts"])
def test_this_installs_entry_points_are_importlib_metadatas(group: str) -> None:
    assert fast_view(group) == metadata_view(group)
    assert [(ep.name, ep.value, ep.group) for ep in registry.entry_points(group)] == metadata_view(group)


def test_the_games_load_as_importlib_metadata_loads_them() -> None:
    for ours, theirs in zip(
        registry.entry_points("rulecraft.games"), importlib.metadata.entry_points(group="rulecraft.games"), strict=True
    ):
        assert ours.load() is theirs.load()
    for value in (
        "rulecraft.core:Chance",
        "rulecraft.core : Chance.__repr__",
        "rulecraft.core",
        "rulecraft.core:Chance [x]",
    ):
        ours = registry._EntryPoint("x", value, GROUP).load()
        assert ours is importlib.metadata.EntryPoint("x", value, GROUP).load()
    assert registry._EntryPoint("x", "rulecraft.core:Chance", GROUP).load() is Chance


def distribution(folder: Path, name: str, text: str | None) -> None:
    (folder / name).mkdir(parents=True)
    if text is not None:
        (folder / name / "entry_points.txt").write_text(text, "utf-8")


def test_made_up_paths_read_as_importlib_metadata_reads_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Comments, blank lines and spaces, other groups, extras, a distribution shadowed by an earlier one
    of the same normalised name (in the same folder or a later one), an old egg-info file that shadows
    and has none, a distribution without entry points, a folder that is not there."""
    one, two = tmp_path / "one", tmp_path / "two"
    distribution(
        one,
        "alpha-1.0.dist-info",
        f"# a comment\n\n[other]\nz = m:z\n[{GROUP}]\n  a =  pkg.mod:obj  \nb=pkg.mod:attr.sub [extra]\n"
        "\n[more]\nc = m\n",
    )
    distribution(one, "Beta_Pkg-2.0.dist-info", f"[{GROUP}]\nbeta = beta.mod\n")
    distribution(one, "beta.pkg-3.0.dist-info", f"[{GROUP}]\nshadowed = beta.three\n")
    (one / "gamma-1.0.egg-info").write_text("Metadata-Version: 1.0\nName: gamma\n", "utf-8")
    distribution(two, "gamma-2.0.dist-info", f"[{GROUP}]\ng = gamma.mod:G\n")
    distribution(two, "alpha-0.9.dist-info", f"[{GROUP}]\nold = alpha.old\n")
    distribution(two, "delta-1.0.dist-info", None)
    distribution(two, "epsilon.egg-info", f"[{GROUP}]\ne = eps:E\n")
    monkeypatch.setattr(sys, "path", [str(one), str(tmp_path / "missing"), str(two)])
    importlib.invalidate_caches()
    expected = metadata_view(GROUP)
    assert {name for name, _, _ in expected} >= {"a", "b", "e"} and "old" not in {n for n, _, _ in expected}
    assert fast_view(GROUP) == expected


def refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, name: str = "odd-1.0.dist-info") -> Any:
    folder = tmp_path / "site"
    distribution(folder, name, text)
    monkeypatch.setattr(sys, "path", [str(folder)])
    importlib.invalidate_caches()
    return registry._read_entry_points(GROUP)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        (f"[{GROUP}]\nno equals sign here\n", "odd-1.0.dist-info"),  # importlib.metadata fails on it
        (f"[{GROUP}]\na = not a value!\n", "odd-1.0.dist-info"),  # nor a module:attribute
        (f"[{GROUP}]\na = m:a\n", "Odd-1.0.DIST-INFO"),  # importlib.metadata reads its METADATA for the name
    ],
)
def test_what_importlib_metadata_reads_otherwise_is_left_to_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, name: str
) -> None:
    assert refused(tmp_path, monkeypatch, text, name) is None


def test_a_zip_or_an_egg_on_the_path_is_left_to_importlib_metadata(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = tmp_path / "packed.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("zipped-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: zipped\nVersion: 1.0\n")
        zf.writestr("zipped-1.0.dist-info/entry_points.txt", f"[{GROUP}]\nz = zipped:Z\n")
    monkeypatch.setattr(sys, "path", [str(archive)])
    importlib.invalidate_caches()
    assert registry._read_entry_points(GROUP) is None
    assert [(ep.name, ep.value) for ep in registry.entry_points(GROUP)] == [("z", "zipped:Z")]  # importlib's own
    monkeypatch.setattr(sys, "path", [str(tmp_path / "old.egg")])
    assert registry._read_entry_points(GROUP) is None


def test_another_finder_of_distributions_is_left_to_importlib_metadata(monkeypatch: pytest.MonkeyPatch) -> None:
    class Finder:
        def find_spec(self, *args: object) -> None:
            return None

        def find_distributions(self, *args: object) -> list[Any]:
            return []

    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, Finder()])
    assert registry._read_entry_points(GROUP) is None
    assert [ep.name for ep in registry.entry_points("rulecraft.games")] == sorted(registry.game_ids())
