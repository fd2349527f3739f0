"""Writing what a run produced: reports, pictures and state files are written whole or not at all."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def write_atomically(path: str | Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, then rename it over ``path``: a failure or
    an interrupt mid-write never leaves half a file where the previous one was (nor loses it).  An
    existing file keeps its permissions."""
    import tempfile  # here: every command imports this module, few write a file (issue 18: start-up)

    target = Path(path)
    try:
        mode = target.stat().st_mode & 0o777
    except OSError:
        mode = 0o644
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
