"""bench/suite_cpu.py (issue 18): per-test CPU seconds recorded by a real pytest run, and two records
compared by file."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import suite_cpu  # noqa: E402 - bench/ is not a package

BUSY_AND_IDLE = """
def test_busy():
    total = 0
    for i in range(3_000_000):
        total += i
    assert total > 0

def test_idle():
    assert True
"""


def test_a_record_holds_each_tests_cpu_seconds(tmp_path: Path) -> None:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_sample.py").write_text(BUSY_AND_IDLE)
    out = tmp_path / "record.json"
    status = suite_cpu.record(
        out, ["-q", "-p", "no:cacheprovider", "-c", str(tmp_path / "pytest.ini"), str(tmp_path / "test_sample.py")]
    )
    assert status == 0
    spent = suite_cpu.load(out)
    assert sorted(k.split("::")[-1] for k in spent) == ["test_busy", "test_idle"]
    busy = next(v for k, v in spent.items() if k.endswith("test_busy"))
    idle = next(v for k, v in spent.items() if k.endswith("test_idle"))
    assert busy > idle >= 0.0  # three million additions cost more than an assert


def test_compare_totals_and_ranks_files_by_their_change() -> None:
    base = {"tests/a.py::t1": 2.0, "tests/a.py::t2": 1.0, "tests/b.py::t": 5.0, "tests/c.py::t": 1.0}
    new = {"tests/a.py::t1": 2.5, "tests/a.py::t2": 1.0, "tests/b.py::t": 3.0, "tests/d.py::t": 4.0}
    report = suite_cpu.compare(base, new, top=10)
    assert (report["base_total"], report["new_total"]) == (9.0, 10.5)
    assert (report["base_tests"], report["new_tests"]) == (4, 4)
    assert [(r["file"], r["change"]) for r in report["grew"]] == [("tests/d.py", 4.0), ("tests/a.py", 0.5)]
    assert [(r["file"], r["change"]) for r in report["shrank"]] == [("tests/b.py", -2.0), ("tests/c.py", -1.0)]
    assert report["only_base"] == ["tests/c.py::t"] and report["only_new"] == ["tests/d.py::t"]
    assert [r["file"] for r in suite_cpu.compare(base, new, top=1)["grew"]] == ["tests/d.py"]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("[1, 2]", "a JSON object"),
        ('{"t": true}', "a JSON object"),
        ('{"t": "1.0"}', "a JSON object"),
        ("{not json", "not a record"),
    ],
)
def test_a_file_that_is_no_record_is_refused_in_one_line(tmp_path: Path, text: str, why: str) -> None:
    path = tmp_path / "r.json"
    path.write_text(text)
    with pytest.raises(SystemExit) as exc:
        suite_cpu.load(path)
    message = str(exc.value)
    assert str(path) in message and why in message and "\n" not in message


def test_the_compare_verb_prints_both_totals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.json").write_text(json.dumps({"tests/x.py::t": 1.0}))
    (tmp_path / "b.json").write_text(json.dumps({"tests/x.py::t": 3.0}))
    suite_cpu.main(["compare", str(tmp_path / "a.json"), str(tmp_path / "b.json")])
    out = capsys.readouterr().out
    assert "base 1.0 s CPU (1 tests), new 3.0 s" in out and "tests/x.py" in out and "(+2.0)" in out
    with pytest.raises(SystemExit):
        suite_cpu.main(["compare", str(tmp_path / "a.json"), str(tmp_path / "b.json"), "--top", "0"])


def test_a_record_into_a_missing_folder_is_refused_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        suite_cpu.main(["record", str(tmp_path / "no-such-folder" / "r.json"), "-q"])
    assert exc.value.code == 2
    assert "no-such-folder" in capsys.readouterr().err
