"""Rule catalogues: every rule ID of a digest with its page and statement."""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from rulecraft.core import Rejection


@attrs.frozen
class Rule:
    id: str
    page: str
    statement: str


@attrs.frozen
class RuleCatalogue:
    """The rules of one game, in digest order."""

    game: str
    rules: tuple[Rule, ...]
    _index: dict[str, Rule] = attrs.field(init=False, eq=False, repr=False, hash=False)

    def __attrs_post_init__(self) -> None:
        index = {rule.id: rule for rule in self.rules}
        if len(index) != len(self.rules):
            raise ValueError(f"{self.game}: duplicate rule IDs in the catalogue")
        object.__setattr__(self, "_index", index)

    @classmethod
    def from_rows(cls, game: str, rows: list[tuple[str, str, str]]) -> RuleCatalogue:
        return cls(game, tuple(Rule(i, p, s) for i, p, s in rows))

    def __iter__(self) -> Iterator[Rule]:
        return iter(self.rules)

    def __len__(self) -> int:
        return len(self.rules)

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self._index

    def __getitem__(self, rule_id: str) -> Rule:
        try:
            return self._index[rule_id]
        except KeyError:
            raise KeyError(f"{rule_id} is not a rule of {self.game}") from None

    def reject(self, rule_id: str, reason: str) -> Rejection:
        """A rejection citing ``rule_id`` with its page (the ID must exist)."""
        return Rejection(rule_id, reason, self[rule_id].page)
