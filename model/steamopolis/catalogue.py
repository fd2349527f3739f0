"""The Steamopolis rules: every STM-R ID of the digest, its rulebook page and a
one-line statement in rulecraft's own words.

The seed does not mark page breaks, so the pages come from the rulebook's
own cross-references ("see page 15", "Example (page 23)", the component list
on pages 2 and 3, the detailed symbol explanations "from page 26", the solo
example turns "on page 36"); a range means the rule is spread over a spread.
"""

from __future__ import annotations

from rulecraft.catalogue import RuleCatalogue
from rulecraft.core import Rejection
from rulecraft.parameters import Parameter, ParameterTable

RULES = RuleCatalogue.from_rows(
    "stm",
    [
        # -- setup: board and supply -------------------------------------------------------------
        (
            "STM-R-01",
            "4-5",
            "1-3 players (and solo) use the 2/3-player side, 4 players the 4-player side; 16 resp. 20 districts, 8 levels, one market per level (4 players: a second market on levels 2-4)",
        ),
        (
            "STM-R-02",
            "4",
            "a statue tile lies on each market's statue space: level 1 under the two #2 bonus markers, levels 2-8 under the rank-3 tile",
        ),
        (
            "STM-R-03",
            "4",
            "levels 2-8 get one random machine tile of each rank 0-3: rank 0 face up at the far left, ranks 1-3 banner side up to its right; 4 players add a face-up rank 0 on levels 2-4",
        ),
        (
            "STM-R-04",
            "4",
            "the level-1 market holds two rows of bonus markers, each 5, 4, 3, 2 from left to right, both #2 on the statue; the pink marker is for character 7 only",
        ),
        (
            "STM-R-05",
            "4",
            "the banker starts on level 6, the stoker on level 4; the 16 passenger tiles form a face-down stack with its top tile turned face up",
        ),
        (
            "STM-R-06",
            "4",
            "crystals and gears form the general supply; charity gala and sponsor tiles lie on their spaces on levels 6 and 7; capacity tiles beside the board",
        ),
        # -- setup: each player -----------------------------------------------------------------
        (
            "STM-R-07",
            "6",
            "each player draws a random character; the lowest number starts and takes the zeppelin; first game: redraw 5, 11 and 15",
        ),
        (
            "STM-R-08",
            "6",
            "each player takes an airship and, in one colour, 5 pressure stones, 1 score marker, 3 parasites and 1 base pressure marker",
        ),
        ("STM-R-09", "4,6", "the score marker starts under the first space of the vote-point track (0 VP; solo 4 VP)"),
        (
            "STM-R-10",
            "6",
            "the base pressure marker starts on the base-pressure symbol space at the far left of the pressure gauge",
        ),
        (
            "STM-R-11",
            "6",
            "3 pressure stones lie on the first 3 gauge spaces (values 1, 1, 2) arrow side hidden, 2 in the personal supply",
        ),
        (
            "STM-R-12",
            "6",
            "the 3 parasites lie on the airship's parasite charging spaces: the personal parasite supply",
        ),
        (
            "STM-R-13",
            "6-7",
            "each player draws a starting machine, takes a capacity tile, carries out the character effect top to bottom, then builds both into the machine room (position and side free)",
        ),
        # -- the pressure gauge ----------------------------------------------------------------
        (
            "STM-R-14",
            "7,9,36-38",
            "the gauge is the base-pressure symbol space then 10 spaces of pressure value 1, 1, 2, 2, 3, 4, 5, 6, 7, 8; one item per space; a stone's pressure value is its space's",
        ),
        (
            "STM-R-15",
            "9-10",
            "increasing the pressure by X is X increments, each moving one own gauge stone to the nearest free space to its right; as many as possible, in any order",
        ),
        (
            "STM-R-16",
            "9,31",
            "increasing one named stone by 1 moves it as one increment (it lapses if blocked); 'one stone by up to 5' is 0-5 increments of one chosen stone",
        ),
        (
            "STM-R-17",
            "30-31",
            "the base pressure marker effect moves the marker one space right, never beyond the value-4 space; a stone there is bumped +1 or goes to the supply, a bonus marker there leaves the game",
        ),
        (
            "STM-R-18",
            "15",
            "a stone taken back goes to the first free space right of the base pressure marker; none free: discard a bonus marker to make room, else the stone goes to the supply; its face stays",
        ),
        (
            "STM-R-19",
            "28,31",
            "at the start of each own turn every arrow stone on the gauge increases by 1, in an order of the player's choice; only a static-discharge district effect turns the arrow away",
        ),
        (
            "STM-R-20",
            "29",
            "the pressure-stone effect takes a stone from the personal supply (at most 5 owned) and places it as if taken back",
        ),
        (
            "STM-R-21",
            "3",
            "all components are limited: a gain the supply cannot give lapses; an effect that gives up something not owned cannot be used",
        ),
        (
            "STM-R-22",
            "26-27",
            "component effects beat the rulebook; a slash means one side or the other; black costs gate only the parts beneath them; white gains, grey execution effects, each may lapse",
        ),
        # -- turn structure ---------------------------------------------------------------------
        (
            "STM-R-23",
            "7",
            "a turn is: move arrow stones, carry out exactly one action (MAKE STEAM, SET 1 TARGET, FLY TO ALL TARGETS), end of turn; then the player to the left",
        ),
        (
            "STM-R-24",
            "7-8,11,15",
            "MAKE STEAM needs a gauge stone that can move, SET 1 TARGET a stone that can be placed, FLY a stone on the board; with no gauge stone the player must fly",
        ),
        (
            "STM-R-25",
            "8",
            "MAKE STEAM increases the pressure by 2 plus every boiler on machine-room tiles, piped or not",
        ),
        # -- SET 1 TARGET -----------------------------------------------------------------------
        ("STM-R-26", "11-12", "a gauge stone of value v may be placed on a free district of a level at most v"),
        (
            "STM-R-27",
            "11",
            "a district is free when no pressure stone of anyone lies on it (final turn: only own stones block)",
        ),
        (
            "STM-R-28",
            "13",
            "channelling is optional, before placing, not from the leftmost spaces, and only if the reduced value can still be placed",
        ),
        (
            "STM-R-29",
            "12-13",
            "a channelled stone enters the machine room below its space, activating the machine there; then place it or move it one position left, activating again; it must be placed",
        ),
        (
            "STM-R-30",
            "13,26",
            "only a piped boiler activates, and a second boiler piped to it; the player may use none, one or all of the effects; parasites trigger anyway",
        ),
        ("STM-R-31", "11", "SET 1 TARGET ends with storing; no district effect is carried out now"),
        (
            "STM-R-32",
            "14,23",
            "at each store step every owned resource is stored (one per storage space) or returned; stored ones may be swapped",
        ),
        # -- FLY TO ALL TARGETS -----------------------------------------------------------------
        (
            "STM-R-33",
            "15",
            "flying takes back every own stone on the board one at a time, each doing take back, passengers, district or buy, store",
        ),
        ("STM-R-34", "15", "step 1: the stone is taken back as in STM-R-18, its face unchanged"),
        (
            "STM-R-35",
            "16",
            "the face-up passenger tile gives the banker's (5-8) and stoker's (1-4) destination; a passenger standing on it goes to the alternate",
        ),
        (
            "STM-R-36",
            "16-17",
            "step 2a: a passenger on the active level may be picked up if not yet transported this turn and an own stone is still on his destination level",
        ),
        (
            "STM-R-37",
            "16",
            "step 2b: a carried passenger whose destination is the active level must be dropped off; the first drop-off takes the face-up passenger tile",
        ),
        (
            "STM-R-38",
            "18",
            "step 3: exactly one of the district effect, buying on the active level's market, or nothing",
        ),
        ("STM-R-39", "15,23", "step 4: store, then the next stone"),
        # -- buying tiles -------------------------------------------------------------------------
        (
            "STM-R-40",
            "18",
            "only a market's face-up tile is bought, as machine or banner; costs are the market's visible symbols plus the tile's; row 3 always, row 1 (machine) or row 2 (banner)",
        ),
        (
            "STM-R-41",
            "18-19",
            "as a machine: pay row 3, from rank 1 remove a machine-room tile, gain row-1 VP, build it in; from rank 2 envy",
        ),
        (
            "STM-R-42",
            "21",
            "a machine is built into any free machine-room position; none free: remove a tile and use its place",
        ),
        (
            "STM-R-43",
            "20",
            "as a banner: pay row 3 and return a pressure stone to the supply (never the last); from rank 2 envy; hang it beside the airship",
        ),
        (
            "STM-R-44",
            "21",
            "banner VP: purple = banners owned (a purple tile shows 2), orange = machine-room tiles, blue = passenger tiles",
        ),
        (
            "STM-R-45",
            "18",
            "after a purchase the market's next tile turns face up; a revealed statue goes to the tower top, the 3rd gives its buyer 3 VP and triggers the end",
        ),
        # -- bonus markers ----------------------------------------------------------------------
        (
            "STM-R-46",
            "22",
            "on level 1 any number of bonus markers are bought one at a time: pay and gain what its row shows; a #2 is envy",
        ),
        (
            "STM-R-47",
            "22",
            "a bought bonus marker goes on a gauge space with its numeral; a stone there may be bumped +1, else the new marker goes to the box; an old marker there goes to the box",
        ),
        (
            "STM-R-48",
            "23",
            "bonus markers on the gauge occupy their space, are jumped, never move, never pay, and may be discarded to the box at any time",
        ),
        # -- end of turn and passengers -------------------------------------------------------------
        ("STM-R-49", "24", "end of turn: passenger rewards and a new passenger tile, then end-of-turn effects"),
        (
            "STM-R-50",
            "24",
            "each transported passenger gives the tile's reward (banker 1 VP, stoker +3 pressure) plus each transported-passenger machine effect",
        ),
        (
            "STM-R-51",
            "24",
            "the taken passenger tile goes face down beside the airship and the next is revealed; an empty stack triggers the end and the board destinations apply",
        ),
        # -- parasites --------------------------------------------------------------------------
        (
            "STM-R-52",
            "32-33",
            "a parasite goes on another player's machine-room tile, on its activation or passive symbol; at most 2 own per machine with 2 players, 1 with 3-4",
        ),
        (
            "STM-R-53",
            "19-20,32",
            "envy: each other player may place one parasite on the envied player's machines once the effect or building in is finished",
        ),
        (
            "STM-R-54",
            "33-34",
            "when the owner triggers the effect a parasite sits on, the parasite goes home and its owner may use that effect once",
        ),
        ("STM-R-55", "33", "parasites on a removed tile, or shaken off, return to their owners unactivated"),
        ("STM-R-56", "34", "activating a parasite without taking it back uses its effect once; the parasite stays"),
        # -- sponsor, gala, capacity, other effects ---------------------------------------------------
        (
            "STM-R-57",
            "29",
            "a sponsor (at most 1) gives once per turn a discount of 1 of its shown resource, then flips",
        ),
        ("STM-R-58", "29", "a charity gala (at most 1) is discarded when paying for up to 2 of its resource off"),
        (
            "STM-R-59",
            "29-30",
            "a capacity tile goes on any machine-room position (a tile there leaves the game); it counts as a machine: boiler +1 pressure or storage",
        ),
        (
            "STM-R-60",
            "27",
            "a passive effect fires at each trigger, also in the turn its tile was bought; end-of-turn effects wait for the end of the turn",
        ),
        (
            "STM-R-61",
            "30-31",
            "execution effects: VP, look at a machine, base marker, turn sponsor, buy tile, turn 1/3 stones, stone to 8, use another district, one stone up to +5",
        ),
        (
            "STM-R-62",
            "32",
            "'use all activation effects' activates every machine right to left as if channelling a value-8 stone down to level 1; own machine-room parasites sleep",
        ),
        (
            "STM-R-63",
            "27",
            "'pay as many crystals as you own pressure stones' counts stones on the gauge and on the board",
        ),
        # -- game end --------------------------------------------------------------------------
        (
            "STM-R-64",
            "25",
            "the end triggers at the end of a turn with 3 statues on the tower top or the passenger stack used up; the 3rd statue's buyer gains 3 VP",
        ),
        ("STM-R-65", "25", "the round is played to its end"),
        (
            "STM-R-66",
            "25",
            "then each player takes one final turn: arrow stones, then MAKE STEAM, SET 1 TARGET, FLY in order, each optional; others' stones do not block",
        ),
        ("STM-R-67", "25", "most VP wins; ties: most machine and banner tiles, then earlier in turn order"),
        # -- solo -------------------------------------------------------------------------------
        (
            "STM-R-68",
            "35",
            "solo: the 2/3-player side, an unused colour's stones as shadow stones, 4 VP at the start (harder 3 or 2, easier 5)",
        ),
        ("STM-R-69", "35", "solo: choosing MAKE STEAM or FLY costs 1 VP at once; 0 VP loses the game"),
        (
            "STM-R-70",
            "35",
            "solo: FLY first removes all shadow stones, then puts one on every district holding an own stone",
        ),
        (
            "STM-R-71",
            "35",
            "solo: FLY ends by boxing the face-up tile of each passenger's printed destination level (level 1: each row's highest marker) and the face-up passenger tile",
        ),
        (
            "STM-R-72",
            "35",
            "solo: parasites wait beside the passenger stack and are taken back during remove tiles to use a removed tile's effect",
        ),
        (
            "STM-R-73",
            "35-36",
            "solo: the end triggers as usual; after one final turn (MAKE STEAM and FLY together cost 1 VP) the VP give a rank",
        ),
    ],
)


# The numbers the rules state that a variant may change (rulecraft errata): each cites its rule.
# Each rule's page, read once: a random game builds a refusal for most steps (a candidate the rules
# turn down), and the catalogue's lookup cost as much as the refusal itself.
_PAGES: dict[str, str] = {rule.id: rule.page for rule in RULES}


def reject(rule_id: str, reason: str) -> Rejection:
    """``RULES.reject``: a rejection citing ``rule_id`` with its page (an unknown ID raises the catalogue's
    KeyError)."""
    page = _PAGES.get(rule_id)
    if page is None:
        return RULES.reject(rule_id, reason)
    return Rejection(rule_id, reason, page)


PARAMETERS = ParameterTable(
    "stm",
    (
        Parameter("solo_start_vp", "STM-R-68", 4, 1, 10, "vote points the solo player starts with"),
        Parameter("statues_to_end", "STM-R-64", 3, 1, 8, "statues on the tower top that trigger the end of the game"),
        Parameter("last_statue_vp", "STM-R-64", 3, 0, 10, "vote points for erecting the statue that triggers the end"),
    ),
)
