"""The Aeroplanes: Aviation Ascendant rules: every AER-R ID of the digest, its
place in the rulebook and a one-line statement in rulecraft's own words.

The seed (a Russian translation) has no page numbers, so the "page" of a rule
is a line reference into the seed, as the digest gives it: ``"l.85,128"`` =
lines 85 and 128, ``"l.40-44"`` = lines 40 to 44.  The seed's own
cross-references "page 7" (advantage tiles) and "page 8" (end-of-era update)
point into the same text (l.152-161, l.171-181).  Where the digest and the
seed disagree the seed wins; the lines below were checked against the seed.
"""

from __future__ import annotations

from rulecraft.catalogue import RuleCatalogue

RULES = RuleCatalogue.from_rows(
    "aer",
    [
        # -- game structure and income (l.34-44) ---------------------------------------------------
        (
            "AER-R-01",
            "l.34-38,53",
            "3 to 5 players play 3 eras; each era runs Income, Action Round, End-of-Era Scoring and End-of-Era Update, and final scoring follows era 3",
        ),
        (
            "AER-R-02",
            "l.40",
            "each era's Income step first puts eight £1 notes and the black subsidy marker into the subsidy section",
        ),
        (
            "AER-R-03",
            "l.40-44",
            "income: era 1 £12 plus or minus the modifier beside the player's home city (Paris -1, Berlin +2), era 2 £22, era 3 £32, unmodified; unspent money carries over",
        ),
        # -- turn order and the first-player die (l.46-60) -----------------------------------------
        (
            "AER-R-04",
            "l.46",
            "the holder of the first-player die is first player; a round runs clockwise from them, each player taking one action",
        ),
        (
            "AER-R-05",
            "l.47-51",
            "after a round the first player rolls the die and counts that many players to the left; the die passes to where the count stops, possibly back to the roller",
        ),
        (
            "AER-R-06",
            "l.52-53",
            "rounds repeat until a player takes the black subsidy marker; the action round then ends at once and the remaining players of that round do not act",
        ),
        (
            "AER-R-07",
            "l.55-60",
            "on a turn a player must take exactly one of five actions: buy a plane card, place airport tiles, claim a passenger tile, buy an advantage, take a subsidy",
        ),
        # -- action 1: buy one plane card (l.61-74) ------------------------------------------------
        (
            "AER-R-08",
            "l.62",
            "the lowest-numbered display card costs its printed price; a higher card costs its price plus £1 for each display card passed over",
        ),
        (
            "AER-R-09",
            "l.63-64,74",
            "on buying, the buyer moves from their supply onto the card the number of airport tiles it shows, of the stage its background colour shows",
        ),
        (
            "AER-R-10",
            "l.65",
            "after a purchase the next deck card joins the display, which stays in number order",
        ),
        (
            "AER-R-11",
            "l.66",
            "a player may own any number of cards; airport tiles are limited to 27, 9 of each stage, and a card may be bought for its capacity alone",
        ),
        (
            "AER-R-12",
            "l.67-74",
            "a card shows its price, name, number, a long-range icon or none, the count and stage of its airport tiles, its VP and its passenger capacity",
        ),
        # -- action 2: place airport tiles (l.75-132) ----------------------------------------------
        (
            "AER-R-13",
            "l.76,111-112,117",
            "placing is a sequence of attempts, one tile from one of the player's cards each; the player may stop after any, and a failure, abort or engine failure ends the action",
        ),
        (
            "AER-R-14",
            "l.77",
            "a tile normally goes to a destination directly connected to one where the player already has an airport; ordinary connections work both ways",
        ),
        (
            "AER-R-15",
            "l.79",
            "North America, Casablanca, Cairo and the Middle East are connected from every European destination, one way only: never back into Europe",
        ),
        (
            "AER-R-16",
            "l.81-82",
            "a connection printed with the long-range symbol may be used only by a tile taken from one of the player's long-range cards",
        ),
        (
            "AER-R-17",
            "l.77,83,108",
            "a tile from a long-range card may instead hop over exactly one destination to one two connections away; nothing is placed on the hopped destination",
        ),
        (
            "AER-R-18",
            "l.77-83",
            "reach: the new destination is free of the player's tiles and is one usable arc from an own tile, or, with a long-range tile, two usable arcs through another destination",
        ),
        (
            "AER-R-19",
            "l.85",
            "a new-connection risk test is due when the player opens a new airport at the destination, never when upgrading their own tile there",
        ),
        (
            "AER-R-20",
            "l.87,89",
            "a roll is all three risk dice; the total is the sum of the number faces, a skull counting 0 and giving the roller an engine-failure tile",
        ),
        (
            "AER-R-21",
            "l.86-108",
            "the risk table: white none, red 12+, black 14+; a hop rolls per coloured leg in path order, a white second leg at 10+; ‡ routes roll 12+ x2, 14+ x2 or 14+ x3",
        ),
        (
            "AER-R-22",
            "l.109-110",
            "+2 on the roll into a destination holding an opponent's airport; on a hop the first leg's roll gets +2 too if an opponent is also at the hopped destination",
        ),
        (
            "AER-R-23",
            "l.89,119,121",
            "a roll succeeds at total plus modifiers at least the target; a shortfall may be covered in full at once with £1 a point and Daring Pilot tiles",
        ),
        (
            "AER-R-24",
            "l.123",
            "when every roll of the attempt has succeeded or been covered, the tile is placed on the destination under the slot rules",
        ),
        (
            "AER-R-25",
            "l.85-121",
            "each attempt has its own roll list (leg 1 by colour, leg 2 by colour or 10+ if white, ‡ routes their own targets), resolved roll by roll",
        ),
        (
            "AER-R-26",
            "l.111",
            "a failed roll left uncovered sends the tile back onto its card and ends the player's action at once",
        ),
        (
            "AER-R-27",
            "l.112",
            "a multi-roll attempt may be abandoned at any time: money and advantages spent are lost, the tile returns to its card, the action ends",
        ),
        (
            "AER-R-28",
            "l.113-117",
            "a player reaching 4 engine-failure tiles fails the attempt: the tile goes back to their supply, all their engine-failure tiles are discarded, the action ends",
        ),
        (
            "AER-R-29",
            "l.122-129",
            "one tile a slot, at most one own tile per destination; an empty slot must be used if there is one; when full, a tile of strictly lower stage may be replaced and returned to its owner; home tiles never",
        ),
        (
            "AER-R-30",
            "l.85,128",
            "replacing one's own tile with a higher stage is an upgrade: no risk roll, and only where the destination has no empty slot",
        ),
        (
            "AER-R-31",
            "l.131-132",
            "the first two players to place an airport in North America, and separately in South America, each get £3 and 1 VP at once; a replacement earns nothing",
        ),
        # -- action 3: claim passenger tiles (l.133-151) -------------------------------------------
        (
            "AER-R-32",
            "l.134",
            "each waiting-area slot belongs to one of the six start cities, which is the origin of the passengers waiting there",
        ),
        (
            "AER-R-33",
            "l.11,135-140",
            "a passenger tile shows its destination, required capacity (1-3), VP, perhaps a not-in-era-1 mark, and its destination's region as background",
        ),
        (
            "AER-R-34",
            "l.141-145",
            "claiming from the waiting area needs an own airport at the origin city and at the destination and one card with enough unused capacity; no path in between",
        ),
        (
            "AER-R-35",
            "l.145",
            "a passenger bound for its own origin city needs only the player's airport in that city",
        ),
        (
            "AER-R-36",
            "l.146-148",
            "a card carries passengers up to its capacity, to any mix of destinations and beside airport tiles; one passenger tile rides on one card, never split",
        ),
        (
            "AER-R-37",
            "l.150-151",
            "in eras 2 and 3 a tile in the overflow area can be claimed with only an own airport at its destination (and room on a card)",
        ),
        (
            "AER-R-38",
            "l.149",
            "filled capacity earns profit at the era's scoring and unused capacity costs it",
        ),
        # -- action 4: buy advantage tiles (l.152-161) ---------------------------------------------
        (
            "AER-R-39",
            "l.153-154",
            "an advantage costs £1: take one available tile of choice, or roll the three risk dice and take one tile per face of two chosen dice, a skull being wild",
        ),
        (
            "AER-R-40",
            "l.155-160",
            "a type is available while its supply is not empty and its first era has come: Daring Pilot and Engine Maintenance from era 1, Increased Production and Night Flights from era 2, Radio Beacons in era 3",
        ),
        (
            "AER-R-41",
            "l.161",
            "advantages are played during the owner's own action, several per action unless a tile says otherwise, and go back to the supply when used",
        ),
        (
            "AER-R-42",
            "l.156",
            "Daring Pilot: after a risk roll, +3 to its total when the airport being placed lies outside Europe; several may be stacked",
        ),
        (
            "AER-R-43",
            "l.89,121,156",
            "Daring Pilot helps only risk rolls of placements outside Europe, on any roll of the attempt, alone or together with money",
        ),
        (
            "AER-R-44",
            "l.118,157",
            "Engine Maintenance: discard all your engine-failure tiles, a free action at the start of your turn only, never once you have begun placing",
        ),
        (
            "AER-R-45",
            "l.158",
            "Increased Production: one extra tile of the card's stage on a card just bought, one per card, and only if that tile is in your supply",
        ),
        (
            "AER-R-46",
            "l.159",
            "Night Flights: one extra passenger claim within Europe per tile played in a claim action; several may be played",
        ),
        (
            "AER-R-47",
            "l.160",
            "Radio Beacons: re-roll all three risk dice of a placement roll, ignoring the skulls of the roll thrown away; several may be played in turn",
        ),
        # -- action 5: take a subsidy (l.162-163) --------------------------------------------------
        (
            "AER-R-48",
            "l.52,163",
            "take £1 from the subsidy section; when it holds none, take the black marker instead, which ends the era at once",
        ),
        # -- end-of-era scoring (l.164-170) --------------------------------------------------------
        (
            "AER-R-49",
            "l.165",
            "end-of-era scoring has two parts, market majorities first and airline profitability second",
        ),
        (
            "AER-R-50",
            "l.166-167",
            "in each market (Europe, Africa, Asia/Australasia) the most and second-most airports score that era's VPs; a tie for first shares first and nobody is second",
        ),
        (
            "AER-R-51",
            "l.169",
            "profit = the VP of the passengers carried minus the unused capacity of the player's planes; it may be negative",
        ),
        (
            "AER-R-52",
            "l.169-170",
            "the three best profits score the era's Profit row (era 1: 5/3/1); tied players share the better place and the players after them drop back",
        ),
        # -- end-of-era update (l.171-181) ---------------------------------------------------------
        (
            "AER-R-53",
            "l.172",
            "update 1: the two lowest-numbered display cards leave the game and the next two deck cards join the display",
        ),
        (
            "AER-R-54",
            "l.173",
            "update 2: each card whose capacity is fully used goes to its owner's personal discard pile and keeps its VP",
        ),
        (
            "AER-R-55",
            "l.174",
            "update 3: each card with unused capacity is turned face down with excess-passenger markers for what is left; its unplaced airport tiles stay on it for later eras",
        ),
        (
            "AER-R-56",
            "l.175",
            "update 4: passenger tiles worth VP go from the cards beside the owner's discard pile for the final scoring; 0-VP passengers leave the game",
        ),
        (
            "AER-R-57",
            "l.176",
            "update 5: one non-European passenger from each start-city section (the left-most/bottom-most) moves to the overflow area, stopping at 8 there",
        ),
        (
            "AER-R-58",
            "l.177-178",
            "update 6: from Rome to Berlin every empty waiting slot is filled from the bag; not-in-era-1 tiles are now placed like any other",
        ),
        (
            "AER-R-59",
            "l.179",
            "update 7: the players take the new era's money (£22 before era 2, £32 before era 3)",
        ),
        (
            "AER-R-60",
            "l.180",
            "update 8: the era marker moves one space on",
        ),
        (
            "AER-R-61",
            "l.40,163",
            "the update leaves the subsidy section empty; the next Income step refills it with eight £1 notes and the marker",
        ),
        (
            "AER-R-62",
            "l.163,181",
            "update 9: the player who took the subsidy marker rolls the first-player die and passes it as between rounds, and the new era begins",
        ),
        # -- end of game (l.182-186) ---------------------------------------------------------------
        (
            "AER-R-63",
            "l.182-185",
            "after era 3 each player adds the VP of all their plane cards and of all their passenger tiles, banked or still carried",
        ),
        (
            "AER-R-64",
            "l.186",
            "most VP wins; among tied players the one with the most money wins",
        ),
    ],
)

# The set-up steps (digest §2, AER-SET-01..10): not rules of play, so a catalogue of their own, with the
# seed line of each step (step B is missing from the seed, AER-AMB-01: the line between A and C).
SETUP = RuleCatalogue.from_rows(
    "aer",
    [
        (
            "AER-SET-01",
            "l.23",
            "fill every waiting slot from the bag; a drawn ¤ tile is set aside, another drawn, and the set-aside tiles go back once the area is full",
        ),
        ("AER-SET-02", "l.23-24", "step B is missing from the seed (AER-AMB-01): no action"),
        (
            "AER-SET-03",
            "l.24",
            "a random first player gets the first-player die; from their right, counter-clockwise, each player puts a home tile in a free start city",
        ),
        ("AER-SET-04", "l.25", "with 3 players a face-down blocker fills the '4/5' slot of each start city"),
        ("AER-SET-05", "l.26", "money forms the bank; excess-passenger and engine-failure tiles form a supply"),
        ("AER-SET-06", "l.27", "the advantage tiles form five stacks of six, types 2 to 6"),
        ("AER-SET-07", "l.28", "one black marker on space 1 of the era track, the other in the subsidy section"),
        (
            "AER-SET-08",
            "l.29",
            "cards 1-12 face up in number order form the display; cards 13-46 in number order the deck",
        ),
        ("AER-SET-09", "l.30", "the VP tokens start on space 0 of the VP track"),
        ("AER-SET-10", "l.40", "the game starts with era 1's Income step; players hold no money before it"),
    ],
)
