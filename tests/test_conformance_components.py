"""A component pack given to ``rulecraft conform --components`` reaches the
implementation: it travels as JSON in every differential ``new_game``.

The reference server is started with the bundled pack, so only a pack that
really crossed the protocol can make its start states match a reference
configured with the user's pack.
"""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

import pytest
import yaml

from rulecraft.cli import main
from rulecraft.conformance.conform import conform
from rulecraft.conformance.report import markdown
from rulecraft.registry import make_game

PY = sys.executable
BUNDLED = Path(__file__).resolve().parent.parent / "model" / "airships" / "packs" / "reconstructed.yaml"
SERVER = f"{PY} -m rulecraft.conformance.server air"


@pytest.fixture
def renamed_pack(tmp_path: Path) -> Path:
    """The bundled pack with other nation names: every start state shows them."""
    data = yaml.safe_load(BUNDLED.read_text("utf-8"))
    data["name"] = "renamed-nations"
    data["nations"] = ["Ruritania", "Freedonia", "Latveria", "Genovia"]
    path = tmp_path / "renamed.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")
    return path


def test_the_pack_travels_with_new_game_and_both_sides_agree(renamed_pack: Path) -> None:
    game = make_game("air", components=str(renamed_pack))
    data = yaml.safe_load(renamed_pack.read_text("utf-8"))
    report = conform(game, SERVER, max_examples=3, max_steps=30, scenarios=False, components=data)
    assert report.conformant, markdown(report)
    assert report.examples_run >= 3


def test_without_the_pack_the_same_run_finds_the_difference(renamed_pack: Path) -> None:
    """The control: the reference plays the user's pack, the server its own."""
    game = make_game("air", components=str(renamed_pack))
    report = conform(game, SERVER, max_examples=1, max_steps=5, scenarios=False)
    assert not report.conformant
    finding = report.findings[0]
    # The nations tell: a start state with other names on the boards, or (a set-up that names the
    # pack's nations) the server refusing them.
    renamed = any(name in finding.title for name in ("Ruritania", "Freedonia", "Latveria", "Genovia"))
    assert (finding.kind == "state" and "boards" in finding.title) or (
        finding.kind == "verdict" and "AIR-R-07" in finding.title and renamed
    ), markdown(report)


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_an_implementation_without_pack_support_is_a_finding_not_a_crash(
    renamed_pack: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    js = Path(__file__).resolve().parent.parent / "examples" / "airships-js" / "airships.js"
    command = shlex.join([str(shutil.which("node")), str(js)])
    code = main(
        [
            "conform",
            "air",
            "--impl",
            command,
            "--components",
            str(renamed_pack),
            "--no-scenarios",
            "--max-examples",
            "2",
            "--quiet",
        ]
    )
    out = capsys.readouterr().out
    assert code == 1
    assert "new_game was refused" in out and "bundled pack only" in out


def test_a_broken_pack_file_is_an_error_naming_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("nations: [unclosed\n", "utf-8")
    code = main(["conform", "air", "--impl", SERVER, "--components", str(bad), "--quiet"])
    err = capsys.readouterr().err
    assert code not in (0, 1)
    assert "bad.yaml" in err
