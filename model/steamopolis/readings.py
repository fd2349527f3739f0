"""The Steamopolis ambiguity register: STM-AMB-01..33 of the digest, then STM-AMB-34..42
found while modelling, each with its readings, the default this model plays, and why.

Keys are short words so that ``--reading STM-AMB-02=v-2`` reads naturally.
Entries with a single reading are settled questions kept for traceability
(``affects_play=False``), like the other games' registers.
"""

from __future__ import annotations

from rulecraft.ruleset import Ambiguity, AmbiguityRegister

_amb = Ambiguity.of  # each entry below: id, page, question, readings, default, why


REGISTER = AmbiguityRegister(
    "stm",
    (
        _amb(
            "STM-AMB-01",
            "6,36-38",
            "Which pressure values do the gauge spaces show?",
            [("forced", "1, 1, 2, 2, 3, 4, 5, 6, 7, 8 after the base-pressure symbol space")],
            "forced",
            "not an open question: setup (1, 1, 2) and the solo VALUES lines force every value; turn 5's '2 with arrow, 2 with arrow, 3 with arrow' forces the fifth space to 3",
            affects_play=False,
        ),
        _amb(
            "STM-AMB-02",
            "13",
            "Which machine-room position does a channelled stone enter?",
            [
                ("v-1", "positions 1..7; a stone of value v enters position v-1 (value-1 stones cannot channel)"),
                ("v-2", "positions 1..6; entry v-2, so stones of value 1 and 2 cannot channel"),
            ],
            "v-1",
            "the p.13 picture bars two positions ('not all the way to the left' = the two value-1 spaces) and each unit of unused pressure then buys one activation; (b) needs 'marked 1 and 2' to mean all four spaces printed 1 or 2",
        ),
        _amb(
            "STM-AMB-03",
            "22-23",
            "Which bonus numerals are printed on the gauge spaces?",
            [
                (
                    "value",
                    "a space's numeral is its pressure value for 2-5: 2 on the 3rd and 4th space, 3 on the 5th, 4 on the 6th, 5 on the 7th",
                ),
                (
                    "separate",
                    "separately printed numerals that the pack must give (gauge.numerals): a bought marker goes on"
                    " a space printed with its numeral there, whatever the space's value; refused with a pack that"
                    " gives none (the bundled one: the rulebook prints none)",
                ),
            ],
            "value",
            "fits STM-EX-23: a left and a right 2-space, one 5-space, and a bump from the left 2 that lands on the 6; "
            "under 'value' a pack's own gauge.numerals are not played (the pack check warns when they differ); the "
            "pink marker's numeral stays a pack parameter (STM-P-08)",
        ),
        _amb(
            "STM-AMB-04",
            "9",
            "What is 'additionally increase the pressure as soon as it would become equal in two boilers'?",
            [
                ("jump", "flavour for jumping over occupied spaces"),
                (
                    "extra",
                    "a free extra increment whenever two stones would show equal values: in 'increase the pressure"
                    " by X' (MAKE STEAM, effects that increase by X; p.9 is that section) the stone just moved, the"
                    " one whose pressure rises, goes on to the next free space while its value equals another stone's"
                    " on the gauge; it costs none of the X; at the end of the gauge the extra increment lapses, as"
                    " excess pressure does (p.9); the other rises (arrow stones, 'increase its pressure by 1' to make"
                    " room, one stone by up to 5) are played as under 'jump'",
                ),
            ],
            "jump",
            "STM-EX-38 (1, 2, 2A) and STM-EX-42 (2A, 2A, 3A) show equal values with no extra move",
        ),
        _amb(
            "STM-AMB-05",
            "30-31",
            "When the base pressure marker moves onto a stone, is bumping that stone optional?",
            [
                ("optional", "the player may decline; the stone then goes to the personal supply"),
                ("compulsory", "the stone must be bumped when it can move"),
            ],
            "optional",
            "literal: 'you may increase its pressure by 1 to make room'",
        ),
        _amb(
            "STM-AMB-06",
            "13,36",
            "How far may a channelled stone move left, and does solo turn 4's 'cannot channel' forbid channelling with no machine at the entry?",
            [
                (
                    "pointless",
                    "a move left needs a free district at or below the new value; channelling through empty positions is allowed but brings nothing",
                ),
                ("forbidden", "as 'pointless', and channelling is forbidden without a machine at the entry position"),
            ],
            "pointless",
            "the rules explicitly allow channelling through empty positions (p.13); placement stays compulsory",
        ),
        _amb(
            "STM-AMB-07",
            "31,36",
            "Do arrow stones move at the start of the turn compulsorily, one increment each?",
            [
                (
                    "each",
                    "compulsory: each arrow stone on the gauge moves itself once, order free, a blocked one does not",
                ),
                ("optional", "each arrow stone may move ('could move', solo turn 3)"),
                ("pooled", "a pooled +N for the player's stones in any split"),
            ],
            "each",
            "'the pressure of each of your pressure stones with an arrow increases by 1'; solo turn 1 'she moves it'",
        ),
        _amb(
            "STM-AMB-08",
            "15-17,37",
            "In which order are pick-up and drop-off done within a flight step, and may the purchase come first?",
            [("rule", "the rule order: take back, pick up / drop off, district or buy, store")],
            "rule",
            "banker and stoker never share a level and each travels once per turn, so the order cannot matter; STM-EX-42 narrates the purchase first with the same outcome",
            affects_play=False,
        ),
        _amb(
            "STM-AMB-09",
            "16",
            "When is a carried passenger's destination fixed?",
            [
                ("pick-up", "when he is picked up"),
                ("each-level", "re-read at each level from the face-up tile and where he stands"),
            ],
            "pick-up",
            "the alternate depends on where the passenger stands, which he leaves when picked up",
        ),
        _amb(
            "STM-AMB-10",
            "31",
            "Which stones may 'Turn 1 pressure stone' / 'Turn 3 pressure stones' turn, and do stones in the supply keep their face?",
            [
                ("any", "any own stones on the gauge or the board; faces are kept everywhere, the supply included"),
                ("reset", "as 'any', but a stone returned to the supply loses its arrow"),
            ],
            "any",
            "'turn 1 arbitrary pressure stone'; only static discharges turn an arrow away (p.28)",
        ),
        _amb(
            "STM-AMB-11",
            "20",
            "Which stone pays a banner's 'pressure stone -1'?",
            [
                (
                    "gauge",
                    "any own stone on the gauge (the one just taken back included); at least 2 stones owned on gauge and board",
                ),
                (
                    "board",
                    "also a stone still on the board, except the last one on a carried passenger's destination"
                    " level (STM-R-36/37: his drop-off must stay possible)",
                ),
            ],
            "gauge",
            "the stone returns to the supply; a stone on the board is still a set target; 'You cannot give up your "
            "last pressure stone' (p.20) counts gauge and board",
        ),
        _amb(
            "STM-AMB-12",
            "7-8",
            "What happens when none of the three actions is possible?",
            [
                ("pass", "the turn passes (arrow stones have moved)"),
                ("stuck", "the game cannot go on (a modelling error to report)"),
            ],
            "pass",
            "reachable: gauge stones stuck at the right end, no free district low enough, none on the board (20 stones, 16 districts); the rules are silent",
        ),
        _amb(
            "STM-AMB-13",
            "22-23",
            "Which bonus markers may be bought, and at what price?",
            [
                ("foremost", "only a row's foremost (highest) marker, at the cost and VP then visible in its row"),
                ("any", "any marker at its own printed cost"),
            ],
            "foremost",
            "'foremost' and 'visible in its row' (p.22-23); solo removes 'the highest number'; so in STM-EX-23 the gear row's #5-#3 were already gone",
        ),
        _amb(
            "STM-AMB-14",
            "21",
            "How do purple banners count for the purple score?",
            [
                ("double", "each purple tile counts 2"),
                ("single", "every banner tile counts 1"),
            ],
            "double",
            "'Note that purple tiles show 2 banners'",
        ),
        _amb(
            "STM-AMB-15",
            "22-23",
            "May a bonus marker be bought when no space with its numeral lies right of the base pressure marker?",
            [
                ("box", "yes; the marker goes to the box"),
                ("no-buy", "no"),
            ],
            "box",
            "like a failed bump (p.22); the discard reason 'buy a base pressure marker with the same numeral' is read as 'bonus marker'",
        ),
        _amb(
            "STM-AMB-16",
            "24,37",
            "In which order are passenger rewards, end-of-turn effects and solo 'remove tiles' done?",
            [
                ("fixed", "passenger rewards and the new tile, then end-of-turn effects, then remove tiles"),
                (
                    "free",
                    "in any order the player chooses: while more than one of the three steps is still to run, the"
                    " player picks the next (EndOfTurnStep); remove tiles before the passenger step reads the tile"
                    " taken at the drop-off (the tile in force, STM-R-37) and boxes no passenger tile, none lying"
                    " face up on the stack; each step runs as under 'fixed'",
                ),
            ],
            "fixed",
            "solo turn 5 shows this order; 'remove tiles' uses the passenger tile face up at that moment",
        ),
        _amb(
            "STM-AMB-17",
            "25",
            "Are the three actions of the final turn optional?",
            [
                ("optional", "each optional, in the fixed order"),
                ("compulsory", "each compulsory when possible"),
            ],
            "optional",
            "'you may carry out all 3 actions'; the tip 'fly to exactly 1 target' is one new target",
        ),
        _amb(
            "STM-AMB-18",
            "25,30",
            "What counts for the tie-break 'most machine and banner tiles'?",
            [
                ("all", "machine-room tiles including starting machine and capacity tiles, plus banners"),
                ("bought", "bought machine tiles and banners only"),
            ],
            "all",
            "capacity tiles 'count as machines for all purposes' (p.30)",
        ),
        _amb(
            "STM-AMB-19",
            "14,19,23,25,29,33-34",
            "When are resources gained outside the named store steps stored?",
            [
                ("at-once", "right after the effect"),
                (
                    "next-step",
                    "at the player's next store step: gained anywhere but in the active player's own channelling "
                    "(SET 1 TARGET, p.14) and flight (p.23), they are held apart and not spent (a purchase pays "
                    "from storage: 'Return the markers from your storage space to the general supply', p.19), "
                    "and the next store step (after the SET 1 TARGET placement, p.14/p.29, or step 4 of a "
                    "flight, p.23) stores or returns them with the rest; a player who makes steam has no store "
                    "step that turn and keeps holding them; still held when the game ends (the rulebook is "
                    "silent), they return to the general supply, as resources score nothing and break no tie (p.25)",
                ),
            ],
            "at-once",
            "p.33 'If you receive resources through the effect, you must store or discard them immediately' "
            "(a parasite's owner, in another player's turn); p.34's 'Red must store the crystal only at the end "
            "of her turn' is the active player's own activation, stored at a named step: 'You must store the "
            "resources only after you have placed your pressure stone' (p.29, SET 1 TARGET; the placement ends "
            "her turn), so it holds nothing back to a later step; end-of-turn gains have no store step after them",
        ),
        _amb(
            "STM-AMB-20",
            "33",
            "What does the parasite limit per machine count?",
            [
                ("per-owner", "own parasites per machine: 2 players at most 2, 3-4 players at most 1"),
                ("total", "all parasites per machine"),
            ],
            "per-owner",
            "STM-EX-34 has Blue and Yellow on one machine; parasites may join other players' parasites",
        ),
        _amb(
            "STM-AMB-21",
            "32-34",
            "In which order do other players' parasites and envy placements act?",
            [
                (
                    "clockwise",
                    "clockwise from the active player's left, each right after the owner used or forwent the effect",
                ),
                ("owner-chooses", "in an order the active player chooses"),
            ],
            "clockwise",
            "the rules are silent; clockwise is the game's order of play",
        ),
        _amb(
            "STM-AMB-22",
            "31",
            "What does 'pressure stone to 8' do when the value-8 space is occupied?",
            [
                ("lapse", "the effect lapses"),
                ("bump", "the occupant is bumped (it cannot move right of the last space, so it goes to the supply)"),
            ],
            "lapse",
            "the occupant cannot be bumped (there is no space to its right)",
        ),
        _amb(
            "STM-AMB-23",
            "31",
            "May 'use another district' reach a district blocked by a solo shadow stone?",
            [
                ("yes", "yes: shadow stones are not the player's; districts used so count as activated"),
                ("no", "no"),
            ],
            "yes",
            "'If the district is occupied by another player, you can use it nevertheless'",
        ),
        _amb(
            "STM-AMB-24",
            "2-5,17-18,35",
            "For how many players is the game?",
            [
                (
                    "1-4",
                    "1 to 4 players: the board's '1-3' side (the solo rules' '2/3-player side'), its '4-5' side for 4",
                ),
                (
                    "1-5",
                    "1 to 5 players, as the component list's 'double-sided for 1-3 or 4-5 players' says; played"
                    " with a pack holding a fifth colour's pieces (supplies.colours 5), refused with one that has"
                    " 4 (the bundled one, p.2-3).  At 5 the narrowest reading uses the 4-player variants, the rules"
                    " giving none for 5: the '4-5' board side with the third districts on levels 1, 2, 3 and 8 and"
                    " the extra rank-0 markets on levels 2-4 (p.4-5), the choice of market there (p.17-18); '3 or"
                    " more players' already covers the parasites (p.32: 1 per machine)",
                ),
            ],
            "1-4",
            "p.2-3 lists the 'Game board (double-sided for 1-3 or 4-5 players)', but every player component "
            "comes in 4 colours ('4x Base pressure markers (1 per player colour)', '20x Pressure stones "
            "(5 per player colour)', '4x Player boards') and the rules give variants for '4 players' only "
            "(set-up p.4-5, buying p.17-18), none for 5; the solo rules 'Set up the game on the 2/3-player side' (p.35)",
        ),
        _amb(
            "STM-AMB-25",
            "18-20",
            "Do a market slot's symbols add to those of slots already emptied?",
            [
                ("per-slot", "each slot's symbols as the pack gives them (the printed examples are whole prices)"),
                (
                    "cumulative",
                    "the symbols of emptied slots to the left stay visible and add up: resources and VP sum, and a "
                    "purchase gives up as many machines (BuyMachine.more), returns as many stones (BuyBanner.more) and "
                    "lets the others place as many envy parasites as symbols are visible; the pack's slot data are "
                    "read as each slot's own symbols, so with the bundled pack (the printed prices STM-EX-12..19 as "
                    "slots) the higher ranks cost more than the printed examples say",
                ),
            ],
            "per-slot",
            "STM-EX-12..19 are the only printed values; per-slot data lets either reading be loaded",
        ),
        _amb(
            "STM-AMB-26",
            "22-23",
            "When is the level-1 statue revealed?",
            [
                ("both-2", "when both #2 markers are gone; this counts as a bought-out market"),
                ("first-2", "when the first #2 is gone"),
            ],
            "both-2",
            "'If you buy the last bonus marker #2 and thereby reveal the statue'",
        ),
        _amb(
            "STM-AMB-27",
            "24",
            "When is the passenger stack 'used up'?",
            [
                (
                    "due",
                    "when no tile can be revealed when one is due (after a transport; solo also after remove tiles)",
                ),
                ("empty", "as soon as the stack holds no face-down tile"),
            ],
            "due",
            "'If the stack is used up (no new tile can be revealed)'; without transports the face-up tile stays",
        ),
        _amb(
            "STM-AMB-28",
            "35",
            "When does the solo player lose on time pressure?",
            [
                ("zero", "at 0 VP or less"),
                ("below-zero", "only below 0 VP"),
            ],
            "zero",
            "'If you thereby have 0 vote points, you lose the game immediately'; the final turn's MAKE STEAM and FLY cost 1 VP together",
        ),
        _amb(
            "STM-AMB-29",
            "30",
            "What do the capacity tile's sides show?",
            [
                ("boiler-storage", "a boiler side (+1 pressure) and a storage side with 1 space"),
                (
                    "both",
                    "both on one side: whichever side the pack puts up, a capacity tile in the machine room is a +1"
                    " boiler with 1 storage space (the pack's two sides merged: the boilers of the side with more,"
                    " the larger storage); the sides stay a free choice at placement, played alike",
                ),
            ],
            "boiler-storage",
            "the picture numbers the activation effect (1) and the storage space (2); the pack carries the sides (STM-P-06)",
        ),
        _amb(
            "STM-AMB-30",
            "36",
            "What is the solo example's start state?",
            [
                (
                    "inferred",
                    "stones 1A, 1, 2 with the arrow on the leftmost; starting machine and capacity tile each a piped +1 boiler; 2 gears stored; 4 VP",
                )
            ],
            "inferred",
            "inferred from the turns; the arrow must start on the first space or turn 1's 4, 5A, 6 cannot be reached",
            affects_play=False,
        ),
        _amb(
            "STM-AMB-31",
            "25,35",
            "In the solo final turn, may the target go on a district holding a shadow stone, and what does 'remove tiles' use with the stack used up?",
            [
                (
                    "yes-printed",
                    "yes (other colours do not block in the final turn); the board-printed destinations, no passenger tile boxed",
                ),
                ("no-printed", "no; the board-printed destinations"),
            ],
            "yes-printed",
            "shadow stones block 'as usual', and usually in the final turn other colours' stones do not block",
        ),
        _amb(
            "STM-AMB-32",
            "9-10,36",
            "Does 'increase the pressure by as much as possible' force the order that uses the most increments?",
            [
                (
                    "free-order",
                    "no voluntary stop while a stone can move; the order is free even if fewer increments are used",
                ),
                ("most", "the order must use the most increments"),
            ],
            "free-order",
            "p.10 'could also have moved her pressure stones in a different order'; solo turn 2 prints 7A, 8 where another order used both +1",
        ),
        _amb(
            "STM-AMB-33",
            "28,31",
            "Do the parts about the stone taken back (static discharge, stone to 8) apply when the district is reached by 'use another district'?",
            [
                ("current", "they apply to the stone taken back in the current step"),
                ("lapse", "they lapse"),
            ],
            "current",
            "the current step has exactly one stone taken back",
        ),
        # -- found while modelling (not in the digest): each names the text that leaves it open --
        _amb(
            "STM-AMB-34",
            "29,31",
            "May character 5 hold more than one sponsor?",
            [
                ("one", "no: 'Sponsor (Maximum: 1)' holds; a second sponsor gain lapses"),
                (
                    "two",
                    "yes: character 5 keeps a second sponsor gained while owning one (a third lapses); each gives its "
                    "discount once per turn and turns when used, both may pay one cost (each only while its resource "
                    "is still to pay); 'turn sponsor' turns 1 of them, the player's choice (p.31 'Only 1 sponsor, if "
                    "you own character 5')",
                ),
            ],
            "one",
            "p.29 prints 'Maximum: 1'; p.31 'Only 1 sponsor, if you own character 5' is read as turning one of them, "
            "which the Technician's Handbook (not in the rulebook) would settle",
        ),
        _amb(
            "STM-AMB-35",
            "32-33",
            "How far do placing or moving any number of parasites and activating any number of them go?",
            [
                (
                    "each-once",
                    "place or move: up to 3 uses, one parasite each; activate: each placed parasite at most once",
                ),
                (
                    "repeat",
                    "a parasite may be moved or activated again within the same effect: each use is one step (one "
                    "parasite placed or moved, one activated) and the effect waits for the next until the player "
                    "skips it, with no bound; multiplayer only (solo 'any number' is STM-AMB-40's)",
                ),
            ],
            "each-once",
            "'any number' with 3 parasites per player; repeating the same parasite is not mentioned",
        ),
        _amb(
            "STM-AMB-36",
            "33",
            "Do two own parasites on one symbol give two uses when it is triggered (2 players)?",
            [
                ("each", "each parasite gives its owner one use"),
                ("once", "one use per symbol, however many own parasites sit on it"),
            ],
            "each",
            "with 2 players 2 own parasites may sit on one machine (p.32); p.33 'For each of your parasites on a "
            "machine of a fellow player ... you must put the parasite back into your supply. Afterwards you may "
            "likewise use the effect' is per parasite",
        ),
        _amb(
            "STM-AMB-37",
            "32",
            "Does 'use all activation effects' use an activation that is itself 'use all activation effects'?",
            [
                ("once", "no: that activation is skipped, every other one is used once"),
                (
                    "again",
                    "yes: it starts over each time the player uses it; the rules give no bound but the player's own:"
                    " every effect may lapse (p.26-27, STM-R-22; 'You may use', p.32), so a repetition is one more"
                    " decision and the game goes on when the player forgoes it",
                ),
            ],
            "once",
            "'use all activation effects of your machines' read literally re-activates the machine holding it, without end; "
            "found by the solver oracle (its exhaustive walk never finished)",
        ),
        _amb(
            "STM-AMB-38",
            "35",
            "Does the parasite used by solo 'activate parasite' stay beside the stack?",
            [
                ("stays", "yes: like the multiplayer symbol, it activates without being taken back"),
                ("returns", "no: it is taken back to the charging spaces"),
            ],
            "stays",
            "the multiplayer symbol activates 'without taking it back' (p.32); the solo text only requires "
            "'if you have placed a parasite' (p.35)",
        ),
        _amb(
            "STM-AMB-39",
            "35",
            "May solo 'activate parasite' use the face-up tile's passive effect as well as its activation?",
            [
                ("either", "the activation or the passive effect, as the player decides"),
                ("activation", "only the activation effect"),
            ],
            "either",
            "'remove tiles' says 'Decide whether you carry out the active or the passive effect' (p.35)",
        ),
        _amb(
            "STM-AMB-40",
            "35",
            "How many uses does the solo 'Activate any number of own parasites' give?",
            [
                ("per-parasite", "one use per parasite beside the stack (as STM-AMB-35 'each-once')"),
                ("one", "one use in total"),
            ],
            "per-parasite",
            "'any number' is read per parasite, as in the multiplayer game",
        ),
        _amb(
            "STM-AMB-41",
            "35,37",
            "Within solo 'remove tiles', are parasites used before the passenger tile is boxed?",
            [
                ("parasites-first", "parasites use the removed tiles, then the passenger tile goes to the box"),
                ("box-first", "the passenger tile goes to the box and the next is revealed, then the parasites"),
            ],
            "parasites-first",
            "the example turn 5 (p.37) uses the parasite before boxing; the rules text lists boxing first (p.35); "
            "it matters only for effects that read the destination levels",
        ),
        _amb(
            "STM-AMB-42",
            "22-23",
            "May a player leave a stone that could move on the space where a bought bonus marker goes?",
            [
                (
                    "optional",
                    "yes: the bump is the player's choice; declined, the new marker goes to the box, as when the "
                    "stone cannot move (the pink marker likewise)",
                ),
                ("compulsory", "no: a stone there that can move must be increased by 1 to make room"),
            ],
            "optional",
            "p.22 'If there is already a pressure stone there, you may increase its pressure by 1 to make room. "
            "If that is not possible, you must put the bonus marker into the box.' and p.23 'she may move it': "
            "'may', as STM-AMB-05 reads the same words for the base pressure marker (p.30-31); the text boxes the "
            "marker only when the bump is 'not possible', so 'declined: to the box' (the digest's STM-R-47) is an "
            "inference: the stone keeps the space, and the marker has no other",
        ),
    ),
)

# Alternative readings the model does not play yet, each with the reason; choosing one is refused
# (never silently played as the default).  A test holds this list to the model's source: every
# other alternative reading is consulted somewhere.
NOT_MODELLED_WHY: dict[tuple[str, str], str] = {}
NOT_MODELLED = frozenset(NOT_MODELLED_WHY)
# Readings played only with a pack that supplies data the rulebook does not print: reading -> the pack
# field it needs.  With such a pack they are played; without, the game refuses them in one line naming
# the field (SteamopolisGame.wire), like KAS-AMB-46 'per-character'.
NEEDS_PACK_DATA: dict[tuple[str, str], str] = {
    ("STM-AMB-03", "separate"): "gauge.numerals",
    ("STM-AMB-24", "1-5"): "supplies.colours",
}
