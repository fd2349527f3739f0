"""Writing what a run produced: reports, pictures and state files are written whole or not at all."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def write_atomically(path: str | Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, then rename it over ``path``: a failure or
    an interrupt mid-write never leaves half a file where the previous one was (nor loses it).  An
    existing file keeps its permissions."""
    _replace(path, text)


def write_bytes_atomically(path: str | Path, data: bytes) -> None:
    """:func:`write_atomically` for bytes."""
    _replace(path, data)


def _replace(path: str | Path, content: str | bytes) -> None:
    """``content`` written beside ``path`` and renamed over it (text as UTF-8 in text mode, as before)."""
    import tempfile  # here: every command imports this module, few write a file (issue 18: start-up)

    target = Path(path)
    try:
        mode = target.stat().st_mode & 0o777
    except OSError:
        mode = 0o644
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        if isinstance(content, bytes):
            with os.fdopen(handle, "wb") as binary:
                binary.write(content)
                binary.flush()
                os.fsync(binary.fileno())
        else:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(content)
                out.flush()
                os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
