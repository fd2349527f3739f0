"""Reports, pictures and state files are written whole or not at all (issue 16: "a failure
mid-write leaves half a file where the previous report was")."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import rulecraft.files
from rulecraft.cli import main
from rulecraft.files import write_atomically


def test_a_write_replaces_the_file_whole_and_keeps_its_permissions(tmp_path: Path) -> None:
    path = tmp_path / "report.md"
    path.write_text("old report\n", "utf-8")
    path.chmod(0o600)
    write_atomically(path, "new report\n")
    assert path.read_text("utf-8") == "new report\n" and path.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"], "no temporary file is left behind"


def test_a_failure_mid_write_keeps_the_previous_file_and_leaves_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "report.md"
    path.write_text("the previous report\n", "utf-8")

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError, match="No space left"):
        write_atomically(path, "half a new report that never lands" * 1000)
    assert path.read_text("utf-8") == "the previous report\n"
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["play", "air", "--max-steps", "5"], "--svg"),
        (["ambiguities", "air", "--no-search", "--no-examples", "--quiet"], "--report"),
        (["ambiguities", "air", "--no-search", "--no-examples", "--quiet"], "--html"),
    ],
)
def test_the_command_line_writes_its_outputs_atomically(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str], option: str
) -> None:
    """Every output option goes through write_atomically: an interrupt while it writes keeps the
    previous file."""
    path = tmp_path / "out"
    path.write_text("the previous output\n", "utf-8")
    real = rulecraft.files.write_atomically
    written: list[str] = []

    def interrupted(target: str | Path, text: str) -> None:
        written.append(str(target))
        real(target, text)  # the real write, then an interrupt before the command ends
        raise KeyboardInterrupt

    monkeypatch.setattr("rulecraft.cli.write_atomically", interrupted)
    code = main([*argv, option, str(path)])
    assert written == [str(path)] and code == 130
    assert path.read_text("utf-8") != "the previous output\n", "the whole new output landed"
