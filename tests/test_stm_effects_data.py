"""Steamopolis effect symbols in their pack-file form (model/steamopolis/packs/*.yaml, the state file's
``turn.pending``): each printed symbol (p.27-29, STM-R-22 and STM-R-52..61) read to its part and
written back, and the colour and cost gating of STM-R-22."""

from __future__ import annotations

from typing import Any

import pytest

from rulecraft.model.steamopolis import effects as fx

# (pack-file form, the part it stands for): written by hand from the pack format and the symbols' meaning.
SYMBOLS: list[tuple[Any, fx.Step]] = [
    ({"resources": {"crystals": 2, "gears": 1}}, fx.GainResources(2, 1)),
    ({"resources": {"either": 3}}, fx.GainResources(either=3)),
    ({"resources": "any"}, fx.GainResources(any_number=True)),
    ({"pay": {"crystals": 2}}, fx.PayResources(2, 0)),
    ({"pay": {"gears": 3}}, fx.PayResources(0, 3)),
    ({"vp": 2}, fx.VotePoints(2)),
    ({"pressure": 3}, fx.IncreasePressure(3)),
    ({"one-stone-up-to": 5}, fx.IncreaseOneStone(5)),
    ({"turn-stones": 2}, fx.TurnStones(2)),
    ({"place-parasites": 1}, fx.PlaceParasites(1)),
    ({"place-parasites": "any"}, fx.PlaceParasites(None)),
    ({"place-and-activate-parasite": 1}, fx.PlaceParasites(1, activate=True)),
    ({"activate-parasites": 2}, fx.ActivateParasites(2)),
    ({"activate-parasites": "any"}, fx.ActivateParasites(None)),
    ({"shake-off": "all"}, fx.ShakeOff(True)),
    ({"shake-off": "one"}, fx.ShakeOff(False)),
    (
        {"either": [[{"resources": {"gears": 1}}], [{"pay": {"crystals": 1}}, {"vp": 2}]]},
        fx.Either((fx.GainResources(0, 1),), (fx.PayResources(1, 0), fx.VotePoints(2))),
    ),
    *[(name, cls()) for name, cls in fx.BARE.items()],
]
# Bookkeeping steps of ``turn.pending`` (state files): never printed, read and written the same way.
CONTROL: list[tuple[Any, fx.Step]] = [
    ({"handover": 2}, fx.Handover(2)),
    ({"envy-parasite": 1}, fx.EnvyParasite(1)),
    (
        {"next-sharer": {"seats": [1, 3], "programs": [[{"vp": 1}], [{"envy-parasite": 0}]]}},
        fx.NextSharer((1, 3), ((fx.VotePoints(1),), (fx.EnvyParasite(0),))),
    ),
]


@pytest.mark.parametrize(("data", "part"), SYMBOLS, ids=lambda x: str(x)[:40])
def test_a_printed_symbol_reads_to_its_part_and_back(data: Any, part: fx.Step) -> None:
    assert fx.part_from_data(data) == part
    assert fx.step_from_data(data) == part
    assert fx.part_to_data(part) == data


@pytest.mark.parametrize(("data", "step"), CONTROL, ids=lambda x: str(x)[:40])
def test_a_bookkeeping_step_reads_and_writes_alike(data: Any, step: fx.Step) -> None:
    assert fx.step_from_data(data) == step
    assert fx.part_to_data(step) == data


def test_a_queued_program_round_trips_in_order() -> None:
    data = [d for d, _ in SYMBOLS[:6]] + [d for d, _ in CONTROL]
    queued = fx.queued_from_data(data)
    assert queued == tuple(p for _, p in SYMBOLS[:6]) + tuple(s for _, s in CONTROL)
    assert fx.program_to_data(queued) == data


def test_a_shared_program_holds_no_handover() -> None:
    with pytest.raises(ValueError, match="shared program"):
        fx.step_from_data({"next-sharer": {"seats": [1], "programs": [[{"handover": 0}]]}})


def test_the_symbol_colours_of_stm_r_22() -> None:
    """STM-R-22 (p.27): white symbols gain, black ones cost, grey ones are executed; a slash is either."""
    assert fx.colour(fx.GainResources(1)) == "white"
    assert fx.colour(fx.GainPressureStone()) == "white"
    assert fx.colour(fx.GainCapacityTile()) == "white"
    assert fx.colour(fx.PayResources(1)) == "black"
    assert fx.colour(fx.Envy()) == "black"
    assert fx.colour(fx.ReturnStone()) == "black"
    assert fx.colour(fx.PayCrystalsPerStone()) == "black"
    assert fx.colour(fx.VotePoints(1)) == "grey"
    assert fx.colour(fx.Either((), ())) == "slash"


def test_a_cost_gates_every_part_beneath_it() -> None:
    """STM-R-22 (p.27): the parts above the first cost are free; each cost must be paid to use the
    parts below it, down to the next cost (which gates what follows it in turn)."""
    gain, pay, vp, pay2, press = (
        fx.GainResources(1),
        fx.PayResources(2),
        fx.VotePoints(2),
        fx.PayResources(0, 1),
        fx.IncreasePressure(3),
    )
    assert fx.gated((gain, pay, vp, pay2, press)) == (((), (gain,)), ((pay,), (vp,)), ((pay2,), (press,)))
    assert fx.gated((pay, fx.Envy(), vp)) == (((pay, fx.Envy()), (vp,)),), "two costs in a row gate together"
    assert fx.gated((gain,)) == (((), (gain,)),)
    assert fx.gated(()) == ()
    either = fx.Either((gain,), (vp,))
    assert fx.walk((pay, either)) == (pay, either, gain, vp), "walk reaches inside a slash"
