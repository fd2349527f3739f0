"""The wiring every game on a component pack shares, written once.

A game played with components (cards, tiles, a map) subclasses :class:`PackedGame` and gets its
construction from a ruleset, a pack and rule parameters; the refusal of a registered reading the model
does not play; ``configured``; a ``repr`` that is valid Python; and action JSON by kind.  The game
supplies its pack (:meth:`PackedGame.bundled_pack`, :meth:`PackedGame.read_pack`), its action classes
(:attr:`PackedGame.action_types`) and builds its rules context in :meth:`PackedGame.wire`.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import cattrs

from rulecraft.core import A, Game, S
from rulecraft.packs import PackFiles
from rulecraft.ruleset import Ruleset, UnknownReading
from rulecraft.serialization import SerializationError, from_jsonable, to_jsonable

G = TypeVar("G", bound="PackedGame[Any, Any]")


class PackedGame(Game[S, A]):
    """A game on a component pack (see the module)."""

    # The game's action classes, each with a class attribute ``kind`` (its JSON name).
    action_types: ClassVar[tuple[type[Any], ...]]
    # Registered readings the model does not play: (ambiguity, reading) -> why ('' when unsaid).
    not_modelled: ClassVar[Mapping[tuple[str, str], str]] = {}
    # Readings played only with a pack that gives data the rulebook does not print: (ambiguity, reading)
    # -> the pack field.  The game's ``wire`` refuses such a reading, naming the field, when its pack
    # lacks it (only the game knows what holding it means); here it is declared for the tools.
    needs_pack_data: ClassVar[Mapping[tuple[str, str], str]] = {}
    # Readings each played alone but refused together (no rule settles what the pair needs) -> why.
    not_modelled_together: ClassVar[Mapping[tuple[tuple[str, str], ...], str]] = {}
    # The cattrs converter of the game's JSON (None: rulecraft.serialization's).
    json_converter: ClassVar[cattrs.Converter | None] = None
    # The game's pack files (rulecraft.packs.PackFiles): the bundled pack and users' packs.
    pack_files: ClassVar[PackFiles[Any] | None] = None

    pack: Any
    params: dict[str, int]

    def __init__(
        self, ruleset: Ruleset | None = None, pack: Any = None, params: Mapping[str, int] | None = None
    ) -> None:
        self.ruleset = ruleset or Ruleset.printed(self.register)
        for amb_id, key in self.ruleset.readings:
            if (amb_id, key) in self.not_modelled:
                why = self.not_modelled[(amb_id, key)]
                raise UnknownReading(
                    f"{amb_id}={key} is registered but not modelled yet; the model plays"
                    f" {self.register[amb_id].default!r}" + (f" (why: {why})" if why else "")
                )
        chosen = dict(self.ruleset.readings)
        for group, why in self.not_modelled_together.items():
            if all(chosen.get(amb_id) == key for amb_id, key in group):
                together = " with ".join(f"{amb_id}={key}" for amb_id, key in group)
                raise UnknownReading(f"{together} is not modelled: each is played alone, not together ({why})")
        self.params = self.parameters.resolve(params)
        self.pack = pack if pack is not None else self.bundled_pack()
        self.wire()

    # -- what the game supplies ---------------------------------------------------------------------

    @classmethod
    def _pack_files(cls) -> PackFiles[Any]:
        if cls.pack_files is None:
            raise NotImplementedError(f"{cls.__name__} names no pack_files and does not read packs itself")
        return cls.pack_files

    @classmethod
    def bundled_pack(cls) -> Any:
        """The pack shipped with the game (its ``source`` names it)."""
        return cls._pack_files().bundled()

    @classmethod
    def read_pack(cls, path: str | Path) -> Any:
        """A user's pack file, checked (a bad file is one line naming file and field)."""
        return cls._pack_files().load(path)

    @abstractmethod
    def wire(self) -> None:
        """Build what the rules read (the game's context) from ``ruleset``, ``pack`` and ``params``."""

    # -- shared -------------------------------------------------------------------------------------

    @classmethod
    def configured(
        cls: type[G],
        *,
        readings: Mapping[str, str] | None = None,
        components: str | Path | None = None,
        parameters: Mapping[str, int] | None = None,
    ) -> G:
        pack = cls.read_pack(components) if components is not None else None
        return cls(Ruleset.from_overrides(cls.register, readings), pack, parameters)

    @property
    def changed_parameters(self) -> dict[str, int]:
        """The rule parameters a variant changed from the printed values."""
        return self.parameters.changed(self.params)

    def __repr__(self) -> str:
        readings = self.ruleset.non_defaults(self.register)
        changed = self.changed_parameters
        extra = f", parameters={changed!r}" if changed else ""
        # The bundled pack is the default (None); a user's pack is named by its file.
        source = None if self.pack.source == self.bundled_pack().source else self.pack.source
        return f"{type(self).__name__}.configured(readings={readings!r}, components={source!r}{extra})"

    def action_to_json(self, action: A) -> dict[str, Any]:
        data = self.json_converter.unstructure(action) if self.json_converter else to_jsonable(action)
        assert isinstance(data, dict)
        return {"kind": getattr(action, "kind"), **data}  # noqa: B009 - every action type has a kind

    def action_from_json(self, data: Mapping[str, Any]) -> A:
        if not isinstance(data, Mapping):
            raise SerializationError(f"an action is a JSON object with a 'kind'; got {data!r}")
        kind = data.get("kind")
        kinds = _kinds(type(self))
        cls = kinds.get(str(kind))
        if cls is None:
            raise SerializationError(f"action kind {kind!r} is not one of {sorted(kinds)}")
        fields = {k: v for k, v in data.items() if k != "kind"}
        action: A = from_jsonable(fields, cls, what=f"action {kind}", using=self.json_converter)
        return action


@cache
def _kinds(game: type[PackedGame[Any, Any]]) -> dict[str, type[Any]]:
    return {cls.kind: cls for cls in game.action_types}


__all__ = ["PackedGame"]
