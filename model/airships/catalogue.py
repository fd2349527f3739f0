"""The Airships rules: every AIR-R ID of the digest, its rulebook page and a
one-line statement in rulecraft's own words."""

from __future__ import annotations

from rulecraft.catalogue import RuleCatalogue
from rulecraft.parameters import Parameter, ParameterTable

RULES = RuleCatalogue.from_rows(
    "air",
    [
        ("AIR-R-01", "2", "2 to 4 companies play; with fewer than 4 the surplus components leave the game"),
        ("AIR-R-02", "2", "the supply holds the players' chips, the wooden airship and the 9 dice"),
        ("AIR-R-03", "2", "4 airship stacks of dark, medium and light cards, 4 each; the other 6 are removed unseen"),
        ("AIR-R-04", "2", "the deck is 18 era-1 cards on the era tile on 24 era-2 cards"),
        ("AIR-R-05", "2", "each player is dealt one starter; the rest lie face up in their rows"),
        ("AIR-R-06", "2", "cards are revealed into the rows until 6 development cards lie on the board"),
        ("AIR-R-07", "2", "each company has a board and an entrepreneur tile, one-white-die side up"),
        ("AIR-R-08", "2", "every company starts with exactly 2 white dice"),
        ("AIR-R-09", "2", "the start player takes 3 chips, every other player 4"),
        ("AIR-R-10", "3", "play goes clockwise from the start player"),
        ("AIR-R-11", "3-4", "a company board holds at most one development card per department"),
        ("AIR-R-12", "2", "a company may use the dice shown at the bottom of its cards and its entrepreneur tile"),
        ("AIR-R-13", "2-3", "the entrepreneur tile gives 1 white die, after the era change 1 white and 1 red"),
        ("AIR-R-14", "3", "airship cards carry a requirement, a target and VP, and give no dice"),
        ("AIR-R-15", "6", "a Finance card gives 1 to 3 extra dice"),
        ("AIR-R-16", "6", "a Hangar card gives 1 or 2 extra dice"),
        ("AIR-R-17", "6", "a Pilot card gives 1 or 2 extra dice and, once when won, 1 to 3 chips"),
        ("AIR-R-18", "6", "an Engineer card gives one imaginary die of fixed colour and value, never thrown"),
        ("AIR-R-19", "6", "an Engine card adds +1 or +2 to a throw involving its colour (grey: any throw)"),
        ("AIR-R-20", "6", "a Material card exchanges some dice for others, for one throw only"),
        ("AIR-R-21", "5-6", "a gold star on a development card scores only if the card is still held at the end"),
        ("AIR-R-22", "3", "a go is step 1 (reveal a development card) then step 2 (one attempt)"),
        ("AIR-R-23", "3", "the top card of the deck is revealed; with the deck empty step 1 is skipped"),
        (
            "AIR-R-24",
            "2-3",
            "a revealed card takes the leftmost free field of its row; a full row drops its leftmost card",
        ),
        ("AIR-R-25", "3", "the era tile flips every entrepreneur tile to white + red and leaves the game"),
        (
            "AIR-R-26",
            "3,5",
            "the target is a displayed development card, the top card of an airship stack, or an open Hindenburg stage",
        ),
        ("AIR-R-27", "3", "a target needs at least the required dice of each colour"),
        ("AIR-R-28", "3", "the target is declared before the throw and cannot be changed after it"),
        ("AIR-R-29", "4,6", "a Material exchange is applied once, after declaring and before throwing"),
        ("AIR-R-30", "3-4", "at most 3 dice of one colour are thrown, only of the required colours"),
        ("AIR-R-31", "6", "an Engineer's fixed die is not thrown and does not count against the 3"),
        ("AIR-R-32", "4", "exactly one throw, no reroll"),
        ("AIR-R-33", "3-4", "the best dice of each required colour, as many as required, are summed"),
        ("AIR-R-34", "4", "the attempt succeeds when the total with bonuses reaches the target"),
        ("AIR-R-35", "6", "an engine's bonus counts when its colour is thrown (grey: always)"),
        ("AIR-R-36", "1,4", "the holder of the wooden airship gets +1 on every attempt"),
        ("AIR-R-37", "4", "after the throw at most one chip may be spent for +1; it goes back to the supply"),
        ("AIR-R-38", "4-5", "a won development card goes on its department field; the card there leaves the game"),
        ("AIR-R-39", "6", "a Pilot won by a throw brings its chips from the supply, as many as are there"),
        ("AIR-R-40", "4", "a won airship card tops the owner's airship pile and brings the wooden airship"),
        ("AIR-R-41", "4", "a failed attempt earns 1 chip from the supply, if one is there"),
        ("AIR-R-42", "4", "after a go the player may pay 3 chips for another complete go, repeatedly"),
        ("AIR-R-43", "5", "when an airship stack is used up the Hindenburg is revealed and its stages become targets"),
        ("AIR-R-44", "5", "a Hindenburg stage is thrown for like an airship card, and completed only once"),
        ("AIR-R-45", "5", "a completed stage is marked with the player's chip and brings the wooden airship"),
        ("AIR-R-46", "5", "after the first stage only a further stage moves the wooden airship"),
        (
            "AIR-R-47",
            "5",
            "the game ends after a step when every airship field holds at most 1 card, or the fourth stage is done",
        ),
        (
            "AIR-R-48",
            "5",
            "VP: stars of held development cards, of all airship cards, and the stage values (high if all four done)",
        ),
        ("AIR-R-49", "5", "most VP wins; ties go to the most airships built, stages counting as airships"),
        ("AIR-R-50", "2,4-5", "each nation's 6 chips are always in its supply, on its board or on stages"),
        ("AIR-R-51", "1,4", "the 9 dice, 3 of each colour, are shared; all return after each throw"),
    ],
)


# The numbers the rules state, which a variant or an erratum may change (rulecraft errata).
PARAMETERS = ParameterTable(
    "air",
    (
        Parameter("start_chips_first", "AIR-R-09", 3, 0, 6, "chips the start player takes at set-up"),
        Parameter("start_chips_other", "AIR-R-09", 4, 0, 6, "chips every other player takes at set-up"),
        Parameter("dice_per_colour", "AIR-R-30", 3, 1, 6, "dice of one colour thrown at most (the shared dice)"),
        Parameter("failure_chips", "AIR-R-41", 1, 0, 3, "chips a failed attempt earns"),
        Parameter("extra_go_cost", "AIR-R-42", 3, 0, 6, "chips an additional go costs"),
        Parameter("wooden_airship_bonus", "AIR-R-36", 1, 0, 3, "what the wooden airship adds to every attempt"),
    ),
)
