"""What every game's component-pack loader shares: the error, reading a pack file, the schema, and
naming the entry a schema error is in.

A pack file is read within :mod:`rulecraft.yamlio`'s limits, then checked
against its JSON Schema; the first error (in document order, among the first
few found) is reported with a readable path such as
``machines[3] (M0-04).boilers[0].effect[1]``, where each game's ``label``
names an entry after its index.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import marshal
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from rulecraft import yamlio
from rulecraft.yamlio import DataFileError

if TYPE_CHECKING:
    import jsonschema

Label = Callable[[Any], str]
P = TypeVar("P")
T = TypeVar("T")
BUNDLED_NAME = "packs/reconstructed.yaml"


class PackError(DataFileError):
    """A component pack that breaks its schema, the rulebook's counts or the game's geometry: the file
    (or source), the entry and field, and what is wrong."""

    def __init__(self, source: str | Path, where: str, message: str) -> None:
        super().__init__(source, where, message)
        self.source = self.path
        self.where = self.field


def read_pack_file(path: str | Path) -> Any:
    """A pack file's parsed YAML, within :mod:`rulecraft.yamlio`'s limits (size, depth, aliases,
    numbers); a file that cannot be read or parsed is a PackError naming it."""
    return yamlio.load_file(path, error=PackError)


def read_bundled(package: str, name: str = BUNDLED_NAME) -> Any:
    """The parsed YAML of a pack shipped inside a game's model package.  The file is the project's
    own (not a user's), so it is read by LibYAML's safe loader where PyYAML has it: about eight times
    faster than the pure-Python one, and every command that configures a game pays it.  What it
    parsed is kept in the user's cache (:func:`cache_folder`) under the digest of the file's bytes
    and of the PyYAML that parsed them: the next command reads that instead of importing PyYAML and
    parsing again (together 0.03 s of a 0.3 s `rulecraft query`)."""
    raw = files(package).joinpath(name).read_bytes()
    key = _parse_key(raw)
    kept = _kept_parse(key)
    if kept is not None:
        return kept[0]
    data = parse_bundled(raw)
    _keep_parse(key, data)
    return data


def parse_bundled(raw: bytes) -> Any:
    """A shipped pack file's bytes parsed (LibYAML's safe loader where PyYAML has it), never kept."""
    import yaml  # here: a pack kept from an earlier run is read without PyYAML

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    text = raw.decode("utf-8")
    if "\r" in text:  # the line ends read_text gave before (universal newlines)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return yaml.load(text, Loader=loader)


PARSE_CACHE_ENV = "RULECRAFT_CACHE"  # a folder for what rulecraft keeps between runs; "off": keep nothing


def cache_folder() -> Path | None:
    """Where parsed packs are kept: ``$RULECRAFT_CACHE``, else ``$XDG_CACHE_HOME/rulecraft``, else
    ``~/.cache/rulecraft`` (None: ``RULECRAFT_CACHE=off``, or no home folder)."""
    chosen = os.environ.get(PARSE_CACHE_ENV)
    if chosen == "off":
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME")
    if base:
        return Path(base) / "rulecraft"
    try:
        home = Path.home()
    except (RuntimeError, KeyError):  # no home folder to be found
        return None
    return home / ".cache" / "rulecraft" if home.is_absolute() else None  # "~" unexpanded: none


def _parse_key(raw: bytes) -> str:
    """The kept parse's name: the digest of the file's bytes, of this Python's marshal format and of the
    PyYAML installed (its file's size and time, found without importing it)."""
    digest = hashlib.sha256(raw)
    spec = importlib.util.find_spec("yaml")
    where = spec.origin if spec is not None and spec.origin else ""
    with contextlib.suppress(OSError):
        found = os.stat(where)
        where += f":{found.st_size}:{found.st_mtime_ns}"
    digest.update(f"\0{sys.version_info[:2]}\0{marshal.version}\0{where}".encode())
    return digest.hexdigest()


def _kept_parse(key: str) -> tuple[Any] | None:
    """The parse kept under ``key`` (in a 1-tuple), or None: not kept, unreadable, or not intact (the
    file holds the digest of what follows it)."""
    folder = cache_folder()
    if folder is None:
        return None
    try:
        blob = (folder / f"pack-{key}.marshal").read_bytes()
    except OSError:
        return None
    check, payload = blob[:32], blob[32:]
    if hashlib.sha256(payload).digest() != check:
        return None
    try:
        return (marshal.loads(payload),)
    except (EOFError, ValueError, TypeError):
        return None


def _keep_parse(key: str, data: Any) -> None:
    """Keep ``data`` under ``key`` for the next run, if it can be: a folder that cannot be written, or
    data marshal cannot hold, keep nothing (the next run parses again)."""
    folder = cache_folder()
    if folder is None:
        return
    try:
        payload = marshal.dumps(data)
    except ValueError:
        return
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
        from rulecraft.files import write_bytes_atomically

        write_bytes_atomically(folder / f"pack-{key}.marshal", hashlib.sha256(payload).digest() + payload)


def unshared(node: Any) -> Any:
    """A deep copy of parsed YAML in which aliases (``*pax``) become separate objects, safe to change one
    by one (``copy.deepcopy`` would keep them shared)."""
    if isinstance(node, dict):
        return {k: unshared(v) for k, v in node.items()}
    if isinstance(node, list):
        return [unshared(v) for v in node]
    return node


class PackFiles(Generic[P]):
    """One game's pack files, read by its own builder ``build(data, source, schema=...)``: a user's
    pack (``--components FILE``), checked against the schema first, and the pack shipped in its model
    package, parsed and built once.  The shipped pack is the project's own file, not input: its
    builder skips the JSON Schema (every game's tests check the shipped pack against it), so
    configuring a game never imports jsonschema; the rulebook's own checks still run."""

    def __init__(self, package: str, build: Callable[..., P], name: str = BUNDLED_NAME) -> None:
        self.package, self.build, self.name = package, build, name
        self.source = f"{package.replace('.', '/')}/{name}"  # how errors and provenance name the bundled file
        self._data: Any = None
        self._pack: P | None = None

    def load(self, path: str | Path) -> P:
        """A user's pack; errors name the file, entry and field."""
        return self.build(read_pack_file(path), str(path))

    def _bundled_data(self) -> Any:
        if self._data is None:
            self._data = read_bundled(self.package, self.name)
        return self._data

    def bundled_data(self) -> Any:
        """A fresh, unshared copy of the bundled pack's parsed YAML (strategies and tests change parts of it)."""
        return unshared(self._bundled_data())

    def bundled(self) -> P:
        """The bundled (reconstructed) pack, built once."""
        if self._pack is None:
            self._pack = self.build(self._bundled_data(), self.source, schema=False)
        return self._pack


def find_entry(entries: Iterable[T], wanted: Callable[[T], bool], pack: str, what: str) -> T:
    """The first of a pack's ``entries`` that is ``wanted``; a KeyError "pack NAME has no WHAT" if none is."""
    for found in entries:
        if wanted(found):
            return found
    raise KeyError(f"pack {pack} has no {what}")


def entry_label(
    *keys: str,
    first: Callable[[Mapping[str, Any]], str | None] | None = None,
    last: Callable[[Mapping[str, Any]], str | None] | None = None,
) -> Label:
    """How a game names a list entry after its index in an error message: ``' (B2)'`` from the first of
    ``keys`` the entry has as a string or a number; ``first`` and ``last`` name an entry from several
    fields, before or after the keys are tried."""

    def label(node: Any) -> str:
        if not isinstance(node, dict):
            return ""
        named = first(node) if first is not None else None
        for key in keys:
            if named is not None:
                break
            value = node.get(key)
            if isinstance(value, str | int) and not isinstance(value, bool):
                named = str(value)
        if named is None and last is not None:
            named = last(node)
        return "" if named is None else f" ({named})"

    return label


class PackChecker:
    """A game's structural pack checks, beyond its schema: the rulebook's counts and facts.  A subclass
    writes ``check`` (raising what ``fail`` builds), every failure naming the entry and field."""

    def __init__(self, data: Mapping[str, Any], source: str) -> None:
        self.data = data
        self.source = source

    def fail(self, where: str, message: str) -> PackError:
        return PackError(self.source, where, message)

    def check(self) -> None:
        raise NotImplementedError


def check_schema(package: str, data: Any, source: str, label: Label) -> None:
    """Raise :class:`PackError` at the first place ``data`` breaks the game's pack schema (in document
    order, the entry named by ``label``)."""
    error = first_schema_error(validator_of(package), data, label)
    if error is not None:
        raise PackError(source, *error)


@cache
def pack_schema_of(package: str) -> dict[str, Any]:
    """``packs/schema.json`` of a game's model package."""
    text = files(package).joinpath("packs/schema.json").read_text("utf-8")
    schema: dict[str, Any] = yamlio.load_json_text(text, f"{package}: packs/schema.json")
    return schema


@cache
def validator_of(package: str) -> jsonschema.protocols.Validator:
    """The pack schema's validator, built once (generated packs in property tests stay cheap)."""
    import jsonschema  # 0.1 s to import: only a user's pack (or a test) is checked against its schema

    return jsonschema.Draft202012Validator(pack_schema_of(package))


def json_path(data: Any, path: Sequence[Any], label: Label) -> str:
    """The path of ``path`` in ``data``, each list entry named by ``label``; '(top level)' when empty."""
    out = ""
    node = data
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
            try:
                node = node[part]
            except (IndexError, KeyError, TypeError):
                node = None
                continue
            out += yamlio.one_line(label(node), yamlio.EXCERPT)  # a label quotes the file's own name for the entry
            continue
        out += f".{yamlio.name(part)}" if out else yamlio.name(part)
        node = node.get(part) if isinstance(node, dict) else None
    return out or "(top level)"


def _path_key(part: Any) -> tuple[int, int, str]:
    """Sort key for a schema error's path: list indices numerically, keys by name."""
    return (0, part, "") if isinstance(part, int) else (1, 0, str(part))


def first_schema_error(
    validator: jsonschema.protocols.Validator,
    data: Any,
    label: Label,
    weak: tuple[str, ...] = ("type", "const", "enum"),
) -> tuple[str, str] | None:
    """(where, message) of the first schema error in document order, or None.

    Inside a oneOf/anyOf the branch that came closest is reported: the deepest error wins, and
    a branch of the right shape beats a mere ``weak`` mismatch (a type, a constant...).
    """
    found = yamlio.schema_errors(validator, data)  # bounded: a hostile pack cannot make it collect millions
    errors = sorted(found, key=lambda e: [_path_key(p) for p in e.absolute_path])
    if not errors:
        return None
    err = errors[0]
    while err.context:
        err = max(err.context, key=lambda e: (len(e.absolute_path), e.validator not in weak))
    return json_path(data, list(err.absolute_path), label), yamlio.schema_message(err)
