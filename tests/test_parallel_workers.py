"""The README's test command runs on every core (pytest-xdist): what the workers share must be safe.

Under the ``ci`` profile the workers share no Hypothesis database at all; a developer's ``dev`` or
``campaign`` profile keeps one folder, which several worker processes then write at once.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hypothesis import settings
from hypothesis.database import DirectoryBasedExampleDatabase

from rulecraft.profiles import load_default

WRITER = """
import sys
from hypothesis.database import DirectoryBasedExampleDatabase
db = DirectoryBasedExampleDatabase(sys.argv[1])
me = sys.argv[2].encode()
for i in range(300):
    db.save(b"shared-key", me + str(i).encode())
    db.save(me, str(i).encode())
    list(db.fetch(b"shared-key"))
    if i % 3 == 0:
        db.delete(b"shared-key", me + str(i).encode())
"""


def test_the_ci_profile_shares_no_example_database_between_workers() -> None:
    load_default()
    if settings._current_profile == "ci":  # the README's command; RULECRAFT_PROFILE may choose another
        assert settings.get_profile("ci").database is None


def test_two_processes_writing_one_example_folder_at_once_lose_nothing(tmp_path: Path) -> None:
    """Two workers save, fetch and delete under the same key at the same time: no error, and every
    example each kept is there afterwards."""
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path), name], stderr=subprocess.PIPE, text=True)
        for name in ("a", "b")
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err[-2000:]
    db = DirectoryBasedExampleDatabase(tmp_path)
    shared = set(db.fetch(b"shared-key"))
    kept = {name.encode() + str(i).encode() for name in ("a", "b") for i in range(300) if i % 3}
    assert shared == kept
    assert all(len(set(db.fetch(name))) == 300 for name in (b"a", b"b"))
