"""The rules a legal Kings of Air and Steam action rests on beyond its own check (``Game.grounds``).

A team's airship chart and star card are pack data read by shared code for every team, so no code
line can cite the one team's rule; this names it from the acting player's team: the chart (KAS-R-60,
64, 68, 72, 76, 80, 84: diamond rating and capacity) for what the airship does, the star card
(KAS-R-61, 65, 69, 73, 77, 81, 85) for the flight that plays it.
"""

from __future__ import annotations

from functools import cache

from rulecraft.catalogue import RuleCatalogue
from rulecraft.model.kings_of_air_and_steam.actions import Fly, KasAction, Load, Swap, Unload, UpgradeAirship
from rulecraft.model.kings_of_air_and_steam.context import Context
from rulecraft.model.kings_of_air_and_steam.rules import current_card
from rulecraft.model.kings_of_air_and_steam.state import KasState

_USES_THE_CHART = (Fly, Load, Swap, Unload, UpgradeAirship)


@cache
def _team_rules(catalogue: RuleCatalogue) -> dict[tuple[str, str], str]:
    """(team, "airship" | "star card") -> rule ID, read from the catalogue's own statements."""
    out: dict[tuple[str, str], str] = {}
    for rule in catalogue:
        for part in ("airship", "star card"):
            head = f" {part}:"
            if head in rule.statement:
                out[(rule.statement.split(head)[0], part)] = rule.id
    return out


def team_grounds(ctx: Context, catalogue: RuleCatalogue, state: KasState, action: KasAction) -> tuple[str, ...]:
    if not isinstance(action, _USES_THE_CHART) or not 0 <= state.seat < len(state.players):
        return ()
    team = state.players[state.seat].team
    if team is None:
        return ()
    rules = _team_rules(catalogue)
    out = [rules[(team, "airship")]] if (team, "airship") in rules else []
    if isinstance(action, Fly):
        try:
            card = current_card(ctx, state)
        except (IndexError, KeyError):  # no card in play at this step
            return tuple(out)
        if card.special is not None and (team, "star card") in rules:
            out.append(rules[(team, "star card")])
    return tuple(out)
