"""The Kings of Air and Steam rules: every KAS-R ID of the digest, its rulebook
page (the seed's leading page numbers) and a one-line statement in
rulecraft's own words."""

from __future__ import annotations

from rulecraft.catalogue import RuleCatalogue
from rulecraft.parameters import Parameter, ParameterTable

RULES = RuleCatalogue.from_rows(
    "kas",
    [
        # -- Setup, base game (p.6) --------------------------------------------------
        (
            "KAS-R-01",
            "6",
            "boards by player count: 2 (or 3 cutthroat) use A, B, C + 3 fillers; 3-5 use A-E or A, B, C, F, G + 5 fillers; 6-7 use all seven + 6 fillers",
        ),
        (
            "KAS-R-02",
            "6",
            "base kit: a base-side board, a deck minus its star card (12 cards), one colour's airship, 10 depots and 2 upgrade markers on the tracks' starting spaces",
        ),
        ("KAS-R-03", "6", "the bank holds the money and every player starts with $12"),
        (
            "KAS-R-04",
            "6",
            "the play area is assembled, each factory gets 1 good of its type, the other goods form the general supply",
        ),
        (
            "KAS-R-05",
            "6",
            "every goods value starts at $4; 3 market tiles per type (15) are shuffled into the draw pile; the demand pile starts empty",
        ),
        (
            "KAS-R-06",
            "6",
            "Uncertainty variant: all 20 tiles are shuffled and 5 removed unseen, the other 15 form the draw pile",
        ),
        (
            "KAS-R-07",
            "6",
            "in reverse turn order each player puts a free starting depot and the airship on an empty rail hex of a line with no other player's depot",
        ),
        # -- Setup, advanced game (p.17-20) ------------------------------------------
        (
            "KAS-R-08",
            "17",
            "advanced: each player takes a team, its board team side up and its full 13-card deck including the star card",
        ),
        (
            "KAS-R-09",
            "17",
            "advanced: each player picks one of the team card's two characters; the card is never turned over",
        ),
        (
            "KAS-R-10",
            "17",
            "advanced: priority numbers replace the start-player token (returned to the box); seating by ascending number is suggested",
        ),
        (
            "KAS-R-11",
            "17",
            "advanced: starting depots are placed from the highest priority number down to the lowest (Harvey Golding excepted)",
        ),
        (
            "KAS-R-12",
            "18-20",
            "character set-up: Reginald Kain starts with $20, Harvey Golding places first and later a free second depot, token characters take 5 tokens",
        ),
        # -- Game and round structure ------------------------------------------------
        ("KAS-R-13", "3,8", "the game has 5 rounds, then one Sellout phase and the final scoring"),
        (
            "KAS-R-14",
            "8",
            "a round runs New Market, Plan Movement, Move & Action (4 cycles), Upkeep, Production, in this order",
        ),
        ("KAS-R-15", "8", "New Market: 3 tiles from the draw pile are laid face up on the 3 future-market slots"),
        (
            "KAS-R-16",
            "8",
            "each tile laid pushes its type's value one space right on the track; values never fall and stop at the rightmost space ($8)",
        ),
        ("KAS-R-17", "8,16", "if the draw pile cannot fill all 3 slots, 5 rounds are over and the Sellout follows"),
        (
            "KAS-R-18",
            "5,9",
            "a movement card has a turn-order letter A-G, a movement value and a diamond cost of 0 to 2",
        ),
        (
            "KAS-R-19",
            "8-9",
            "players secretly and simultaneously plan any 4 of their cards face down in slots 1-4, one per cycle",
        ),
        ("KAS-R-20", "9", "once planning ends, planned cards cannot be swapped or revealed out of order"),
        # -- Move & Action ------------------------------------------------------------
        (
            "KAS-R-21",
            "10",
            "each of the 4 cycles reveals every player's card of that slot at once, then every player takes one turn",
        ),
        (
            "KAS-R-22",
            "10",
            "base turn order: letters A to G; ties go to the player nearest the start-player token clockwise, the holder first",
        ),
        ("KAS-R-23", "17", "advanced turn order: letters A to G; ties go to the lower priority number"),
        (
            "KAS-R-24",
            "10",
            "a turn is diamond check, movement (flight then load/unload), exactly one action, card slide",
        ),
        (
            "KAS-R-25",
            "5,10",
            "if diamonds on this round's executed cards plus the revealed card exceed the current rating, the card returns to the deck and the turn is lost",
        ),
        (
            "KAS-R-26",
            "11",
            "a flight covers exactly the card's movement value with wide (60°) turns only: no sharp turn, no reversal; start facing is free",
        ),
        (
            "KAS-R-27",
            "11",
            "a flight stays in the play area and may pass but not end on a city hex or a partial edge hex",
        ),
        ("KAS-R-28", "11", "loading and unloading happen only after the flight, never before or during it"),
        (
            "KAS-R-29",
            "11",
            "loading takes goods from a factory or an own depot on the airship's hex, never beyond the goods capacity",
        ),
        (
            "KAS-R-30",
            "11",
            "hold goods may be discarded only to make room for the same number of goods of another type",
        ),
        ("KAS-R-31", "11", "unloading puts hold goods onto an own depot on the airship's hex; depots store any number"),
        (
            "KAS-R-32",
            "12",
            "the action is exactly one of Build Depot, Upgrade Airship, Upgrade Rail, Ship Goods, Course Correction or Grant",
        ),
        (
            "KAS-R-33",
            "12",
            "Build Depot: on any empty rail hex, $4 on a line without a depot, $7 otherwise; needs a depot token left (10 in all)",
        ),
        (
            "KAS-R-34",
            "12",
            "Upgrade Airship: pay the next space's price and move up exactly one level (at most level 6); rating and capacity change at once",
        ),
        (
            "KAS-R-35",
            "12",
            "Upgrade Rail: pay the next space's price and move up exactly one level (at most level 6); the rail level caps a shipment's stops",
        ),
        (
            "KAS-R-36",
            "13",
            "Ship Goods moves 1 or more goods of one type from one own depot to another own depot or to a city demanding that type with room for all",
        ),
        (
            "KAS-R-37",
            "13",
            "a shipment follows connected rail, every line used needs a depot, it stops once per line and at the destination, stops at most the rail level",
        ),
        (
            "KAS-R-38",
            "4,13-14",
            "a line's stop is at an own depot if there is one, else at a chosen opponent's depot for $1 per good; tolls are paid after income and must be payable",
        ),
        (
            "KAS-R-39",
            "14",
            "each good delivered fills an empty city slot and earns its type's current market value; a depot transfer earns nothing",
        ),
        (
            "KAS-R-40",
            "14",
            "a printed city with all 5 slots full returns its cubes and receives a random demand tile: a new demand with 3 slots",
        ),
        (
            "KAS-R-41",
            "4,14",
            "a demand tile with all 3 slots full returns its cubes and is turned face down: the city is closed for the game",
        ),
        (
            "KAS-R-42",
            "14",
            "Course Correction: move the airship 1 hex any direction, not onto a city or partial hex, then load/unload",
        ),
        ("KAS-R-43", "14", "Grant: take $3 from the bank"),
        (
            "KAS-R-44",
            "15",
            "after the action the card is slid under the board with its diamonds showing; after the fourth cycle the phase ends",
        ),
        # -- Upkeep (p.15) --------------------------------------------------------------
        (
            "KAS-R-45",
            "15",
            "Upkeep: for each good in the hold and in own depots, pay $1 or return that good to the supply",
        ),
        ("KAS-R-46", "15", "Upkeep: all movement cards played this round (slid and Eli's) go back to their decks"),
        ("KAS-R-47", "15", "Upkeep, base game: the start-player token passes clockwise to the holder's left neighbour"),
        # -- Production (p.16) ----------------------------------------------------------
        (
            "KAS-R-48",
            "16",
            "Production: each factory gains 1 good of its type plus 1 per market tile of that type on the slots",
        ),
        (
            "KAS-R-49",
            "16",
            "Production: the 3 market tiles leave the slots face down into the demand pile, which is shuffled",
        ),
        # -- End of game ----------------------------------------------------------------
        (
            "KAS-R-50",
            "8,16",
            "the game ends after round 5's Production, when the draw pile can no longer fill the 3 slots",
        ),
        (
            "KAS-R-51",
            "16",
            "Sellout: each depot good that could be shipped to a city demanding it may be returned for $4 minus the tolls; others are worthless",
        ),
        (
            "KAS-R-52",
            "16",
            "scoring: $1 = 1 VP, 10 VP per own depot on the board, 15 VP for airship level 6, 5/15/30 VP for rail level 4/5/6",
        ),
        ("KAS-R-53", "16", "most VP wins; a tie goes to the most money, otherwise the victory is shared"),
        # -- Standing rules ---------------------------------------------------------------
        (
            "KAS-R-54",
            "4,12",
            "a depot opens its line for shipping, never moves, stores any number of goods; at most 1 per rail hex and 10 per player",
        ),
        ("KAS-R-55", "6,12-16", "every payment needs enough money; money never goes below $0; the bank never runs out"),
        (
            "KAS-R-56",
            "6,8,10,12,14",
            "model invariants: values within $4-$8 and rising, levels 1-6 and rising, slots not overfilled, depots per player at most 10",
        ),
        # -- Advanced game --------------------------------------------------------------
        (
            "KAS-R-57",
            "17-18",
            "there are 7 teams, each with a team board side, a 13-card deck with one star card and a two-character card sharing one priority number",
        ),
        (
            "KAS-R-58",
            "17",
            "advanced: priority numbers replace the start-player token only for starting-depot order and turn-order ties",
        ),
        ("KAS-R-59", "17", "advanced: the chosen character cannot change during the game"),
        ("KAS-R-60", "18", "Emperor airship: standard diamond rating and standard capacity"),
        (
            "KAS-R-61",
            "18",
            "Emperor star card: skip the whole movement step (no flight, no loading) and take two full actions",
        ),
        (
            "KAS-R-62",
            "18",
            "Harvey Golding places his starting depot first, then a free second depot on a line without a depot after everyone; the airship starts on the first",
        ),
        ("KAS-R-63", "18", "Reginald Kain starts with $20 instead of $12"),
        ("KAS-R-64", "18", "DaVinci airship: standard diamond rating and standard capacity"),
        ("KAS-R-65", "18", "DaVinci star card: a flight of 7 hexes in one straight line, no turns"),
        (
            "KAS-R-66",
            "18",
            "Aurelia Bayley: as an action, spend one of 5 converter tokens to turn 1 good in a depot or the hold into 2 goods of one other type",
        ),
        (
            "KAS-R-67",
            "18",
            "I.S.A.A.C.: once per turn, right after the action, spend one of 5 tokens to take a second action",
        ),
        ("KAS-R-68", "19", "Sphinx airship: diamond rating rises more slowly than standard; standard capacity"),
        (
            "KAS-R-69",
            "19",
            "Sphinx star card: a 2-hex flight, then before the action one good may be shipped by the normal rules, not counting as the action",
        ),
        ("KAS-R-70", "19", "Victor Blane builds depots for $1 less: $3 on a line without a depot, $6 otherwise"),
        (
            "KAS-R-71",
            "19",
            "Eva Blane: as an action, lay track tiles ($1 each, off rail, city and factory hexes) as a new line between two cities, plus a free depot on it",
        ),
        ("KAS-R-72", "19", "Rose & Thorn airship: the worst diamond rating and the best capacity in the game"),
        (
            "KAS-R-73",
            "19",
            "Rose & Thorn star card: two separate movement steps of 2 hexes, each with its own load/unload, the one action after both",
        ),
        (
            "KAS-R-74",
            "19",
            "Flora Kingston chooses the demand tile when she fills a city, and picks one of two blind draws when an opponent does",
        ),
        (
            "KAS-R-75",
            "19",
            "Bishop Kingston may return one good of a city delivery to the supply instead of a slot and is still paid for it",
        ),
        ("KAS-R-76", "19", "Kings Over Aces airship: standard diamond rating and standard capacity"),
        ("KAS-R-77", "19", "Kings Over Aces star card: the flight is 0, 1, 2 or 3 hexes, chosen when flying"),
        (
            "KAS-R-78",
            "19",
            "Sebastian King: on a city delivery he may bet up to $3, turning one token per $; a matching goods symbol pays $2 more per good",
        ),
        (
            "KAS-R-79",
            "19",
            "Corey McQueen: on a city delivery he may spend one of 5 tokens to include one good of another type, paid as the demanded type",
        ),
        ("KAS-R-80", "20", "Sky Castle airship: the worst capacity and the best diamond rating in the game"),
        ("KAS-R-81", "20", "Sky Castle star card: a 6-hex flight with the normal turn rules"),
        (
            "KAS-R-82",
            "20",
            "Clint Castle may take sharp turns (never reversals) and may load/unload before and/or after his flight",
        ),
        (
            "KAS-R-83",
            "20",
            "Eli Diamond: as an action, play a deck card within his diamond rating as a second flight; it stays face up and its diamonds count this round",
        ),
        ("KAS-R-84", "20", "Godfather airship: standard diamond rating and increased capacity"),
        (
            "KAS-R-85",
            "20",
            "Godfather star card: a 0-2 hex flight, then steal 1 good from an opponent's depot or hold on the same hex, discarding first if full",
        ),
        ("KAS-R-86", "20", "Thaddeus Birch never pays tolls when shipping"),
        (
            "KAS-R-87",
            "20",
            "Ezekiel Crane may steal $3 from each player whose airship is on a hex his flight passes through",
        ),
    ],
)


# The numbers the rules state, which a variant or an erratum may change (rulecraft errata).
PARAMETERS = ParameterTable(
    "kas",
    (
        Parameter("starting_money", "KAS-R-03", 12, 0, 60, "dollars every player starts with (Reginald Kain: $20)"),
        Parameter("grant", "KAS-R-43", 3, 0, 20, "dollars the Grant action takes from the bank"),
        Parameter("depot_cost_first", "KAS-R-33", 4, 0, 30, "a depot on a line with no depot yet"),
        Parameter("depot_cost_more", "KAS-R-33", 7, 0, 30, "a depot on a line that already has one"),
    ),
)
