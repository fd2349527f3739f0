"""Regenerate pack.json (the card data airships.js embeds) from the reference pack.

Run once: python examples/airships-js/gen_pack.py  (needs rulecraft installed).
"""

import json
from pathlib import Path

from rulecraft.model.airships.components import bundled_pack


def dice(d):
    return {"W": d.W, "R": d.R, "B": d.B}


pack = bundled_pack()
out = {
    "nations": list(pack.nations),
    "chips_per_nation": pack.chips_per_nation,
    "airships": {
        c.id: {"tier": c.tier, "requirement": dice(c.requirement), "target": c.target, "vp": c.vp}
        for c in pack.airships
    },
    "developments": {
        c.id: {
            "group": c.group,
            "department": c.department.value,
            "requirement": dice(c.requirement),
            "target": c.target,
            "dice": dice(c.dice),
            "fixed": {"colour": c.fixed.colour.value, "value": c.fixed.value} if c.fixed else None,
            "engine": {"colour": c.engine.colour.value if c.engine.colour else None, "bonus": c.engine.bonus}
            if c.engine
            else None,
            "exchange": {
                "give": c.exchange.give,
                "give_colour": c.exchange.give_colour.value,
                "get": c.exchange.get,
                "get_colour": c.exchange.get_colour.value,
            }
            if c.exchange
            else None,
            "pilot_chips": c.pilot_chips,
            "vp": c.vp,
        }
        for c in pack.developments
    },
    "stages": [
        {"requirement": dice(s.requirement), "target": s.target, "vp_low": s.vp_low, "vp_high": s.vp_high}
        for s in pack.stages
    ],
}
Path(__file__).with_name("pack.json").write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
