"""Reading rulecraft's data files (YAML and JSON) when they may come from anyone.

Scenario files, component packs, variant files and state files are data, and
a hostile one must cost a one-line error, not a traceback, gigabytes or
minutes. Everything here therefore has a limit:

- a file is read only if it is a regular file of at most :data:`MAX_BYTES`
  (a symlink to ``/dev/zero`` or a FIFO is refused before it is read), and
  must be UTF-8 text;
- YAML is parsed by a safe loader that refuses a key given twice (PyYAML
  keeps the last one silently), nesting deeper than :data:`MAX_DEPTH`, more
  than :data:`MAX_NODES` nodes *counting every alias as the whole subtree it
  stands for* (a "billion laughs" file is a few hundred bytes of anchors),
  integers beyond 64 bits, ``.nan``/``.inf``, and tags that make non-JSON
  values (``!!binary``, ``!!set``...). Aliases themselves stay allowed: the
  bundled Aeroplanes pack shares its provenance notes through them;
- JSON gets the same depth, integer and constant limits
  (:func:`load_json_text`);
- schema validation stops after :data:`MAX_SCHEMA_ERRORS` errors, and an
  error quotes at most :data:`EXCERPT` characters of the offending value
  (:func:`excerpt`, :func:`schema_message`), so that pointing a file at
  ``/etc/passwd`` does not print it.

Every failure is a :class:`DataFileError` (or the caller's subclass of it):
``FILE: FIELD: reason`` on one line.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
import reprlib
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulecraft.core import RulecraftError

if TYPE_CHECKING:
    import jsonschema  # imported by the checks that need it (0.1 s): commands that read no file skip it

MAX_BYTES = 10 * 1024 * 1024  # the largest bundled file is ~40 kB; a real publisher's pack fits many times over
MAX_DEPTH = 64  # bundled files nest at most 11 levels
MAX_NODES = 200_000  # bundled files have at most ~4,500 (aliases expanded)
INT_LIMIT = 2**63 - 1  # a machine word: no count, cost or seed in rulecraft comes near it
EXCERPT = 60  # characters of a value quoted in an error
MAX_MESSAGE = 400  # characters of one error line's reason
MAX_SCHEMA_ERRORS = 50  # a hostile file cannot make validation collect millions


class DataFileError(RulecraftError):
    """A data file that cannot be used: ``str()`` is the one line ``FILE: FIELD: reason``."""

    def __init__(self, path: str | Path, field: str, message: str) -> None:
        self.path = str(path)
        self.field = one_line(field, 160)
        self.message = one_line(message)
        super().__init__(f"{self.path}: {self.field}: {self.message}")


# -- quoting values in errors ------------------------------------------------------------------------------


class _Excerpt(reprlib.Repr):
    def repr_str(self, x: str, level: int) -> str:
        # The head only: reprlib's default also shows a long string's tail, where a secret may sit.
        return repr(x) if len(x) <= self.maxstring else repr(x[: self.maxstring]) + "…"


_REPR = _Excerpt()
_REPR.maxstring = EXCERPT
_REPR.maxother = EXCERPT
_REPR.maxlist = _REPR.maxtuple = _REPR.maxset = _REPR.maxdict = 4
_REPR.maxlevel = 3


def excerpt(value: Any, limit: int = EXCERPT) -> str:
    """A short repr of ``value`` for an error: at most ``limit`` characters, '…' where cut.

    reprlib never builds the whole repr, so a 10 MB string or a huge tree costs nothing."""
    try:
        text = _REPR.repr(value)
    except ValueError:  # an int too long to print (the 4,300-digit limit)
        text = f"<an integer of {value.bit_length()} bits>" if isinstance(value, int) else "<unprintable>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def name(key: Any, limit: int = EXCERPT) -> str:
    """A key from a file as part of a field name (``readings.<key>``): unquoted, escaped, shortened."""
    text = key if isinstance(key, str) else excerpt(key, limit)
    text = text.encode("unicode_escape").decode("ascii") if not text.isprintable() else text
    return text if len(text) <= limit else text[: limit - 1] + "…"


def one_line(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` on one line and at most ``limit`` characters (an error is one line, whatever it quotes)."""
    flat = " ".join(text.split()) if ("\n" in text or "\r" in text) else text
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def field_of(path: Iterable[Any]) -> str:
    """``given.boards[0].chips`` from a schema error's path; '(top level)' when empty."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{name(part)}" if out else name(part))
    return out or "(top level)"


# -- reading a file ----------------------------------------------------------------------------------------


def read_text_file(path: str | Path, *, limit: int = MAX_BYTES, error: type[DataFileError] = DataFileError) -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes; anything else is ``error(path, '(file)', why)``."""
    p = Path(path)
    data = _read_bytes(p, limit, error)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise error(p, "(file)", f"not UTF-8 text (byte 0x{data[exc.start]:02X} on line {line})") from None
    if "\x00" in text:
        raise error(p, "(file)", "a binary file (it has NUL bytes), not text")
    return text.removeprefix("\ufeff")


def _read_bytes(p: Path, limit: int, error: type[DataFileError]) -> bytes:
    # O_NONBLOCK: a FIFO put in a file's place must not hang the open; fstat then refuses it.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(p, flags)
    except FileNotFoundError:
        raise error(p, "(file)", "cannot read: no such file") from None
    except OSError as exc:
        why = "a folder, not a file" if p.is_dir() else (exc.strerror or str(exc))
        raise error(p, "(file)", f"cannot read: {why}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise error(p, "(file)", "cannot read: a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise error(p, "(file)", "cannot read: not a regular file (a device, pipe or socket), refused unread")
        if info.st_size > limit:
            raise error(p, "(file)", f"{info.st_size} bytes; a data file may have at most {limit}")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(limit + 1)  # st_size can lie (/proc files say 0)
    except OSError as exc:
        raise error(p, "(file)", f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise error(p, "(file)", f"more than {limit} bytes; a data file may have at most {limit}")
    return data


def load_file(path: str | Path, *, error: type[DataFileError] = DataFileError, bundled: bool = False) -> Any:
    """A YAML (or JSON, which is YAML) data file, parsed within every limit above; ``bundled``: a file
    shipped with rulecraft (see :func:`load`)."""
    return load(read_text_file(path, error=error), str(path), error=error, bundled=bundled)


# -- YAML (the parser lives in rulecraft.yamlparse: PyYAML is imported only when a file is parsed) ----------


def load(
    text: str, source: str = "<text>", *, error: type[DataFileError] = DataFileError, bundled: bool = False
) -> Any:
    """Parse YAML text within the limits above (:func:`rulecraft.yamlparse.load`); a bad text is
    ``error(source, '(file)', reason with its line)``."""
    from rulecraft.yamlparse import load as parse

    return parse(text, source, error=error, bundled=bundled)


# -- JSON ----------------------------------------------------------------------------------------------------

_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def json_depth_exceeds(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether the brackets of JSON ``text`` (outside strings) nest deeper than ``limit``."""
    skeleton = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    if len(skeleton) <= 2 * limit:
        return False
    running = itertools.accumulate(1 if c in "[{" else -1 for c in skeleton)
    return any(level > limit for level in running)


def load_json_text(
    text: str,
    source: str,
    *,
    error: type[DataFileError] = DataFileError,
    max_depth: int = MAX_DEPTH,
) -> Any:
    """Parse JSON from outside: nesting at most ``max_depth``, integers within 64 bits, no NaN or
    Infinity, no key given twice; anything else is ``error(source, '(file)', reason)``."""
    if json_depth_exceeds(text, max_depth):
        raise error(source, "(file)", f"refused: nested deeper than {max_depth} levels")

    def whole(digits: str) -> int:
        if len(digits.lstrip("-")) > 19:  # before int(): the 4,300-digit ValueError, or seconds of work
            raise _JsonRefusal(f"the number {excerpt(digits)} is beyond 64 bits")
        value = int(digits)
        if abs(value) > INT_LIMIT:
            raise _JsonRefusal(f"the number {value} is beyond 64 bits")
        return value

    def real(digits: str) -> float:
        value = float(digits)
        if not math.isfinite(value):
            raise _JsonRefusal(f"{excerpt(digits)} is not a finite number")
        return value

    def constant(word: str) -> Any:
        raise _JsonRefusal(f"{word} is not JSON")

    try:
        return json.loads(
            text, parse_int=whole, parse_float=real, parse_constant=constant, object_pairs_hook=_unique_pairs
        )
    except _JsonRefusal as exc:
        raise error(source, "(file)", f"refused: {exc}") from None
    except json.JSONDecodeError as exc:
        raise error(source, "(file)", f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:  # belt and braces: the bracket scan should have caught it
        raise error(source, "(file)", "refused: nested too deeply") from None


def load_json_file(path: str | Path, *, error: type[DataFileError] = DataFileError, max_depth: int = MAX_DEPTH) -> Any:
    """A JSON data file, read and parsed within every limit above."""
    return load_json_text(read_text_file(path, error=error), str(path), error=error, max_depth=max_depth)


class _JsonRefusal(ValueError):
    pass


def _unique_pairs(pairs: Sequence[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _JsonRefusal(f"the key {excerpt(key)} is given twice")
        out[key] = value
    return out


# -- schema validation ---------------------------------------------------------------------------------------


def schema_errors(
    validator: jsonschema.protocols.Validator, data: Any, limit: int = MAX_SCHEMA_ERRORS
) -> list[jsonschema.ValidationError]:
    """At most ``limit`` schema errors: enough to pick the best one, never all of a hostile file's."""
    return list(itertools.islice(validator.iter_errors(data), limit))


def schema_message(err: jsonschema.ValidationError) -> str:
    """jsonschema's message with the offending value cut to an excerpt (its message quotes it whole)."""
    message = err.message
    try:
        whole = repr(err.instance)
    except ValueError:
        whole = ""
    if whole and len(whole) > EXCERPT:
        short = excerpt(err.instance)
        if whole in message:
            message = message.replace(whole, short)
        elif len(message) > 200:
            message = f"{short} fails '{err.validator}'"
    return one_line(message, 200)
