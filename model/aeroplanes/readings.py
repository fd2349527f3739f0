"""The Aeroplanes: Aviation Ascendant ambiguity register: AER-AMB-01..59 of the
digest, each with its readings, the default this model plays, and why; and the
rulebook findings (``FINDINGS``): places where the text contradicts itself or
leaves a hole, each naming the ambiguity that carries its reading.

Keys are short words so that ``--reading AER-AMB-16=symmetric`` reads
naturally.  Entries with a single reading are settled questions (or gaps with
only one playable answer) kept for traceability (``affects_play=False``), as
are entries whose readings cannot change play.  Pages are line references into
the seed, which has no page numbers (``"l.90-102"``), as in the digest.
"""

from __future__ import annotations

import attrs

from rulecraft.ruleset import Ambiguity, AmbiguityRegister

_amb = Ambiguity.of  # each entry below: id, page, question, readings, default, why


REGISTER = AmbiguityRegister(
    "aer",
    (
        # -- set-up, income, turn order ------------------------------------------------------------
        _amb(
            "AER-AMB-01",
            "l.23-24",
            "Set-up runs A, C, D...: what was step B?",
            [
                ("merged", "B was 'leave the overflow area empty', merged into the end of A's note"),
                ("lost", "a step was lost in translation; nothing can be played for it"),
            ],
            "merged",
            "the letter 'B.' is stuck to the end of A's note about the overflow area; either way set-up does nothing more and the overflow area starts empty",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-02",
            "l.8-9,66",
            "130 airport tiles in the box, but 27 a player (9 a stage): how many placeable tiles does a player have?",
            [
                ("nine-each", "9 of each stage (27 placeable tiles) plus the separate home tile, as the rules say"),
                (
                    "box-count",
                    "130 / 5 = 26 placeable tiles a player (the home tile being the 27th): 8 of stage 1, 9 of stages 2 and 3",
                ),
            ],
            "nine-each",
            "the rules text (l.66) is explicit, 9 per stage, and the component count is the likelier misprint; the counts per stage are a pack parameter (tiles_per_stage)",
        ),
        _amb(
            "AER-AMB-03",
            "l.40-43,179",
            "The era 2 and 3 income is paid in the Income step and again in update step 7: once or twice?",
            [
                ("once", "once per era: paid in the Income step; update step 7 describes the same payment"),
                ("twice", "both steps pay: £22 at the end of era 1 and £22 again at the start of era 2 (likewise £32)"),
            ],
            "once",
            "both passages name the same amounts for the same moment ('for the new era'), between era N's update and era N+1's action round; a double payment would make the printed amounts half of what is paid",
        ),
        _amb(
            "AER-AMB-04",
            "l.163,181",
            "Who is first player of a new era: the player who took the subsidy marker, or whoever that player's roll of the first-player die picks?",
            [
                ("roll", "the marker-taker rolls the first-player die and passes it as between rounds (l.181)"),
                ("taker", "the marker-taker becomes first player (l.163: 'you get the first-player die')"),
            ],
            "roll",
            "l.181 is the detailed procedure of the update; l.163 agrees with it if the taker 'gets' the die in order to roll it",
        ),
        _amb(
            "AER-AMB-05",
            "l.13,48-51",
            "Which values does the first-player die show?",
            [("d6", "a six-sided die 1..6, counted round the table (with 3 players, 3 and 6 come back to the roller)")],
            "d6",
            "the faces are not stated; an ordinary d6 fits the 4-player example (a 4 comes back to the roller); the faces are a pack parameter (first_player_die_faces)",
            affects_play=False,
        ),
        # -- buying cards ----------------------------------------------------------------------------
        _amb(
            "AER-AMB-06",
            "l.62",
            "What is the surcharge for passing over cards once the display has gaps in its numbers?",
            [
                ("position", "£1 per display card lower than the chosen one (its position in the display)"),
                ("gap", "£1 per card number between the lowest display card and the chosen one"),
            ],
            "position",
            "the text charges £1 'for each card you skip over', and the cards skipped are display cards, not numbers",
        ),
        _amb(
            "AER-AMB-07",
            "l.63,66",
            "What is loaded on a card bought when the supply holds fewer tiles of its stage than it shows?",
            [("partial", "as many as the supply holds, up to the printed count; the purchase stays legal")],
            "partial",
            "l.66 allows buying a plane for its capacity even with no tiles left to load, so a short load is allowed too",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-08",
            "l.29",
            "Does the era colour of a card's number limit when it can be bought?",
            [("cosmetic", "no: any display card can be bought in any era")],
            "cosmetic",
            "the seed attaches no rule to the colour; it is mentioned only while sorting the cards at set-up",
            affects_play=False,
        ),
        # -- placing airport tiles --------------------------------------------------------------------
        _amb(
            "AER-AMB-09",
            "l.55,76",
            "Must a placement action contain at least one attempt?",
            [
                ("attempt", "yes: the action is legal only if at least one legal attempt exists"),
                ("pass", "no: a placement action may place no tile, a free pass"),
            ],
            "attempt",
            "'you may, but need not, place all your tiles' speaks of all; with a free pass 'you MUST take one action' (l.55) would mean nothing",
        ),
        _amb(
            "AER-AMB-10",
            "l.76-77",
            "Can a tile placed earlier in the action be the origin of a later attempt in the same action?",
            [
                ("chain", "yes: every own airport on the map counts, those placed this action included"),
                ("fixed", "no: only airports on the map when the action began serve as origins"),
            ],
            "chain",
            "l.77 asks only for a destination 'where you already have an airport'; the seed is silent on the action's start",
        ),
        _amb(
            "AER-AMB-11",
            "l.111-112,117",
            "What happens to earlier placements of an action that ends on a failure, abort or collapse?",
            [("stand", "the action stops there; tiles placed earlier in it stay on the map")],
            "stand",
            "all three passages end the turn or action and return only the tile being placed; nothing undoes earlier placements",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-12",
            "l.85,128",
            "Is replacing an opponent's tile an 'upgrade' free of the risk roll?",
            [
                (
                    "own",
                    "only replacing one's own tile is an upgrade; replacing an opponent's is a new airport: reach and risk roll",
                ),
                ("any", "any replacement by a higher stage is an upgrade, with no risk roll"),
            ],
            "own",
            "l.85 speaks of 'upgrading one of yours'; at a destination without an own tile the player opens a new airport there",
        ),
        _amb(
            "AER-AMB-13",
            "l.85,127-128",
            "When may a player upgrade their own tile, and does it need reach?",
            [
                ("full", "only when the destination has no empty slot; no reach and no risk roll needed"),
                ("anytime", "an own tile may be upgraded even beside an empty slot; no reach and no risk roll needed"),
            ],
            "full",
            "l.127 forbids any replacement while a slot is empty; the player is already at the destination, so reach is moot; slots are checked before rolling",
        ),
        _amb(
            "AER-AMB-14",
            "l.128",
            "May a tile replace one of the same stage?",
            [("higher", "no: only a strictly higher stage replaces (1 by 2 or 3, 2 by 3)")],
            "higher",
            "settled by the text: replacement only by 'any airport of a higher stage'",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-15",
            "l.115,128",
            "Where does a replaced tile go when 'returned to its owner'?",
            [
                ("supply", "to the owner's supply; it comes back only with a new card of its stage"),
                ("card", "onto one of the owner's cards, ready to be placed again"),
            ],
            "supply",
            "consistent with the engine-failure loss (l.115), where a tile 'returned to your supply' needs a new card to come back",
        ),
        # -- the new-connection risk ------------------------------------------------------------------
        _amb(
            "AER-AMB-16",
            "l.90-102",
            "The risk table has no rows for red + white, black + white and white + black: which rolls do they need?",
            [
                (
                    "hop",
                    "leg 1 is rolled by its colour (white: none), leg 2 always, a white leg 2 at 10+: red + white 12+, 10+; black + white 14+, 10+; white + black 14+",
                ),
                (
                    "symmetric",
                    "as white + red = one roll, a white leg beside a coloured one is never rolled: red + white 12+; black + white 14+; white + black 14+",
                ),
            ],
            "hop",
            "l.90 rolls 'any additional white connection', the hop's second leg, and l.91 rolls the second white at 10+; this reproduces every printed row",
        ),
        _amb(
            "AER-AMB-17",
            "l.90-91,95-96",
            "Which white leg is the 'additional white connection' of l.90 that must be rolled?",
            [("leg-2", "the hop's second leg, the one beyond normal reach; a white first leg is never rolled")],
            "leg-2",
            "read so, l.90 agrees with l.91 ('only the second white is rolled') and with every printed row; 'every white leg' would contradict white + red = 1 roll",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-18",
            "l.110",
            "On a hop, when does the first leg's roll get the +2?",
            [
                ("both", "only with opponents' airports at both the destination and the hopped destination (literal)"),
                ("per-leg", "each roll gets +2 when the end of its own leg holds an opponent's airport"),
            ],
            "both",
            "the literal text; both printed examples (l.119-120) fit either; the two opponents need not be the same player",
        ),
        _amb(
            "AER-AMB-19",
            "l.91,110",
            "Does the 10+ roll of a white second leg get the +2 when an opponent is at the destination?",
            [
                ("bonus", "yes: it is the roll into the destination, 8+ with an opponent there"),
                ("fixed", "no: the 10+ is fixed"),
            ],
            "bonus",
            "the roll belongs to leg 2, the leg into the destination, and l.110 adds 2 to any roll that connection requires",
        ),
        _amb(
            "AER-AMB-20",
            "l.103-105,110",
            "Which rolls of a ‡ route get the +2 for an opponent at the destination?",
            [
                ("every", "every roll: all of them are rolls of the connection into the destination"),
                (
                    "last",
                    "only the last roll, the one landing at the destination, as on a hop with no opponent at the hopped destination",
                ),
            ],
            "every",
            "a ‡ route is one connection, and the ‡ blocks are 'not skipped cities' (l.108), so no roll belongs to an earlier leg",
        ),
        _amb(
            "AER-AMB-21",
            "l.103-107",
            "Do Dakar - South America and Europe - North America need a long-range card?",
            [
                ("lr", "yes: only Java - Australia, marked †, does not"),
                ("no-lr", "no: only connections printed with the long-range symbol need a long-range card"),
            ],
            "lr",
            "the † note singles out Java - Australia as not needing a long-range plane, which implies the other ‡ routes do",
        ),
        _amb(
            "AER-AMB-22",
            "l.81-83,90-108",
            "May a hop use a special, ‡ or long-range-symbol connection as one of its legs?",
            [
                (
                    "allowed",
                    "yes, if each leg is usable in its direction; the roll list is leg 1's then leg 2's, a ‡ leg keeping its own targets",
                ),
                ("direct", "no: such connections are used only as a direct connection into the destination"),
            ],
            "allowed",
            "the seed is silent; the hop rule asks only for a destination two connections away",
        ),
        _amb(
            "AER-AMB-23",
            "l.25,110",
            "Are the 3-player blocker tiles opponents' airports?",
            [("neutral", "no: they give no +2, are never replaced and count for nobody in the majorities")],
            "neutral",
            "l.25 puts them 'out of play'; they belong to no player",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-24",
            "l.89,119,121",
            "How is a shortfall covered?",
            [
                (
                    "full",
                    "in full, before the next roll, with money and Daring Pilots mixed freely; money never goes negative",
                )
            ],
            "full",
            "example 1 pays 'before continuing'; a roll is either made good or failed",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-25",
            "l.156",
            "What is 'outside Europe' for Daring Pilot on a hop?",
            [
                (
                    "target",
                    "the region of the destination where the tile goes; then any roll of the attempt may use it",
                ),
                (
                    "leg-end",
                    "the region at the end of each roll's leg: leg 1's roll only if the hopped destination is outside Europe",
                ),
            ],
            "target",
            "the tile speaks of placing an airport outside Europe, and the airport is placed only at the destination",
        ),
        _amb(
            "AER-AMB-26",
            "l.114,160",
            "Can Radio Beacons re-roll a roll whose skull would be the 4th engine failure?",
            [
                (
                    "reroll",
                    "yes: roll, optional re-rolls, then engine failures for the kept roll, the 4-tile check, then cover or fail",
                ),
                (
                    "at-once",
                    "no: the engine-failure tile is taken as the skull shows, and a 4th collapses the attempt first",
                ),
            ],
            "reroll",
            "Radio Beacons says to ignore the skulls of the earlier roll; example 1 takes the engine-failure tile before the payment decision",
        ),
        _amb(
            "AER-AMB-27",
            "l.18,114-118",
            "How long do engine-failure tiles stay, and can the supply of 15 run out?",
            [
                (
                    "persist",
                    "they stay across actions and eras until Engine Maintenance or a collapse; the supply is unlimited",
                )
            ],
            "persist",
            "only Engine Maintenance and the collapse remove them; 5 players holding 3 each use exactly 15",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-28",
            "l.112,114-117",
            "What is lost when an engine failure collapses a multi-roll attempt?",
            [("lost", "money and Daring Pilots spent on its earlier rolls are lost; the tile goes to the supply")],
            "lost",
            "as on an abort (l.112); l.115 sends the tile to the supply",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-29",
            "l.111-112",
            "Do aborting and declining to pay differ?",
            [
                (
                    "same",
                    "no: one transition, tile back on its card, earlier spending lost; abort is allowed between rolls after a success too",
                )
            ],
            "same",
            "both end the action with the tile on its card; l.112 allows an abort 'at any time'",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-30",
            "l.132",
            "How are the 'first two players' of an America counted when replacements earn nothing?",
            [
                (
                    "paid",
                    "the first two players paid: a placement into an empty slot pays while fewer than two players have been paid, once per player; replacements do not count",
                ),
                (
                    "placed",
                    "the first two players to place there at all: a replacing player gets nothing but uses up one of the two",
                ),
            ],
            "paid",
            "the bonus is for the first two 'each' to get it; a replacement is said only to earn nothing. Both"
            " readings pay the same players: a replacement needs every slot of the destination full (l.127) and"
            " no step empties a map slot (a replaced tile is swapped in place, l.128; the step invariant"
            " tiles-replaced-only-by-higher-stage), so no empty-slot placement, and no bonus, can follow one",
            affects_play=False,
        ),
        # -- passengers ----------------------------------------------------------------------------
        _amb(
            "AER-AMB-31",
            "l.23,137,178",
            "When does the not-in-era-1 mark matter?",
            [("setup", "only at set-up: such tiles are kept out of the waiting area until the era-1 update")],
            "setup",
            "there is no refill in era 1 and the tiles are placed normally from the first update on; checked as an invariant",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-32",
            "l.148,151",
            "Does an overflow claim need room on a card?",
            [("capacity", "yes: one card with enough unused capacity, as for every claim")],
            "capacity",
            "l.151 replaces only the airport conditions; a claimed tile must ride on one card (l.148)",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-33",
            "l.159",
            "What must be 'within Europe' for a Night Flights claim?",
            [
                ("destination", "the extra passenger's destination"),
                ("trip", "its origin and its destination"),
            ],
            "destination",
            "every waiting section is a European start city, so the origin adds nothing; overflow tiles are all non-European either way",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-34",
            "l.11,139",
            "What is the passenger tiles' 'size 1-3'?",
            [("capacity", "the required capacity, 1 to 3; the VP is separate pack data")],
            "capacity",
            "the tile legend (l.139) names the required capacity",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-35",
            "l.159",
            "How are several claims in one action checked?",
            [
                (
                    "sequence",
                    "one base claim plus one per Night Flights tile, each checked in turn as capacity is used up",
                )
            ],
            "sequence",
            "each extra claim is a claim in its own right",
            affects_play=False,
        ),
        # -- end-of-era scoring ----------------------------------------------------------------------
        _amb(
            "AER-AMB-36",
            "l.169-170",
            "Does profit add up the passengers' VP or count the passengers?",
            [
                ("vp", "the VP of the passenger tiles carried; the example's '14 passengers' is a VP sum of 14"),
                ("count", "the number of passengers carried (their required capacity)"),
            ],
            "vp",
            "the rule (l.169) sums 'the points for the passengers'; the example's wording is the looser one",
        ),
        _amb(
            "AER-AMB-37",
            "l.149,169,174",
            "Which planes' unused capacity counts against profit?",
            [
                ("all", "every card not discarded: face-down cards of earlier eras and cards with no passengers too"),
                ("face-up", "only face-up cards; face-down cards of earlier eras count nothing"),
            ],
            "all",
            "face-down cards keep excess-passenger markers 'to show how much unused capacity is left' (l.174)",
        ),
        _amb(
            "AER-AMB-38",
            "l.169-170",
            "Does the profit tie rule agree with the printed example?",
            [("competition", "standard competition ranking: two tied for 1st, the next pair shares 3rd, Ron is 5th")],
            "competition",
            "it reproduces the example (Morgan and Larry get the 3rd place's 1 VP); dense ranking would give them 3 VP and contradicts it",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-39",
            "l.165-167",
            "Market majorities: can 0 airports rank, and does the home tile count?",
            [
                (
                    "min-1",
                    "at least 1 airport in the market to rank; the home tile counts; only the three named markets score",
                ),
                ("zero", "as min-1, but players with no airport there can rank too"),
                ("no-home", "as min-1, but the home tile does not count"),
            ],
            "min-1",
            "a majority of nothing is no majority; the home tile is an airport tile in Europe; only three markets are named",
        ),
        _amb(
            "AER-AMB-40",
            "l.167",
            "How do three or more players tied in a market score?",
            [("competition", "competition ranking: all tied for 1st get 1st and nobody 2nd; all tied for 2nd get 2nd")],
            "competition",
            "the two-way rule of l.167 extends to any tie size in one way only",
            affects_play=False,
        ),
        # -- end-of-era update -----------------------------------------------------------------------
        _amb(
            "AER-AMB-41",
            "l.173-174",
            "What happens to airport tiles left on a card discarded as full?",
            [
                ("supply", "they go back to the owner's supply"),
                ("keep", "they stay usable on the discarded card"),
                ("lost", "they are lost for good"),
            ],
            "supply",
            "only face-down cards are said to keep their tiles 'for later eras'; the supply is where lost and replaced tiles go",
        ),
        _amb(
            "AER-AMB-42",
            "l.174",
            "Can a face-down card take passengers in later eras?",
            [
                (
                    "reuse",
                    "yes, up to its remaining capacity; it keeps its long-range status and VP and is discarded once full",
                ),
                ("closed", "no: it only keeps its tiles usable and its unused capacity counting against profit"),
            ],
            "reuse",
            "the markers show 'how much unused capacity is left' on the plane, which implies it can still be used",
        ),
        _amb(
            "AER-AMB-43",
            "l.176-177",
            "In which order are the sections emptied into the overflow, and which tile is 'left-most/bottom-most'?",
            [
                (
                    "board",
                    "the refill order Rome ... Berlin, lowest slot index first; a section without a non-European tile gives none",
                )
            ],
            "board",
            "the only order the seed gives; the section and slot orders are pack parameters",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-44",
            "l.177-178",
            "The refill is written twice: one pass or two?",
            [
                ("one-pass", "one pass fills every empty waiting slot, Rome to Berlin"),
                ("two-pass", "fill Rome to Berlin, then fill any slot still empty again"),
            ],
            "one-pass",
            "the first pass leaves a slot empty only when the bag is empty, so a second pass finds nothing to draw",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-45",
            "l.53,182-183",
            "Is the end-of-era update run after era 3?",
            [
                ("skip", "no: final scoring follows era 3's scoring directly"),
                ("run", "yes, as l.53 reads literally, then final scoring"),
            ],
            "skip",
            "the update prepares a next era; running it changes no final total (card and passenger VP count wherever they lie, and there is no era-4 income)",
            affects_play=False,
        ),
        # -- legality, advantages, money ---------------------------------------------------------------
        _amb(
            "AER-AMB-46",
            "l.52,163",
            "What does a player with no other legal action do?",
            [("subsidy", "take a subsidy: it is always legal, the black marker when the section is empty")],
            "subsidy",
            "l.52 speaks of a player 'forced' to take the marker",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-47",
            "l.76,111",
            "Must the game terminate, given failed rolls cost nothing?",
            [("accept", "no guarantee: endless cheap failed attempts are possible; tests bound the steps")],
            "accept",
            "a rules fact, not a reading: nothing in the text forces progress",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-48",
            "l.154-155",
            "Advantage roll: doubles, skulls and when the action is legal?",
            [
                (
                    "two",
                    "two equal faces give two tiles of that type if two are available; a skull names any available type; legal with £1 and one available type",
                )
            ],
            "two",
            "'choose two dice and use their results to take tiles' with no limit on the types",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-49",
            "l.155-161",
            "Is there a limit on advantages held, and does 'available from era X' limit use?",
            [("no-limit", "no hand limit; the era limits taking a tile, not playing one held")],
            "no-limit",
            "the seed names no limit and speaks of availability only for taking",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-50",
            "l.118,157",
            "Engine Maintenance: a free action (l.157) or the turn's special action (l.118)?",
            [
                ("free", "a free action at the start of any of the player's turns, before whatever action follows"),
                ("action", "the turn's action: playing it uses up the turn"),
            ],
            "free",
            "l.157 is the tile's own text; l.118 says only when it may be played",
        ),
        _amb(
            "AER-AMB-51",
            "l.158",
            "Increased Production: when is it decided, and with which tile?",
            [
                (
                    "at-purchase",
                    "decided on buying; one extra tile of the card's stage from the supply, at most one per card",
                )
            ],
            "at-purchase",
            "the tile's text: 'the card you have just bought', 'one per card', 'you must have the tile'",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-52",
            "l.12,26",
            "Can the bank run out of money?",
            [("unlimited", "no: only the subsidy section is capped, at 8 an era")],
            "unlimited",
            "the seed gives no amount of money",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-53",
            "l.186",
            "Who wins when VP and money are both tied?",
            [("shared", "the tied players share the victory")],
            "shared",
            "the seed names no further tie-break",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-54",
            "l.24,46",
            "Who starts era 1?",
            [("chosen", "the randomly chosen first player; no die is rolled before the first round")],
            "chosen",
            "set-up gives that player the die, and the die-holder is first player",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-55",
            "l.65,172",
            "What happens when the deck runs out?",
            [
                (
                    "shrink",
                    "no refill: the display shrinks; update 1 still discards the two lowest cards if there are any",
                )
            ],
            "shrink",
            "there is nothing left to draw",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-56",
            "l.79",
            "Which colour are the special connections, and which other links do the four special destinations have?",
            [
                (
                    "pack",
                    "the component pack's map; the reconstruction: red into Casablanca, Cairo and the Middle East, ‡ 14+ x3 into North America",
                )
            ],
            "pack",
            "map data missing from the seed, not a reading of the text",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-57",
            "l.25",
            "What changes with the number of players?",
            [
                (
                    "as-written",
                    "only the 4/5 start-city slots; the VP tables, the 8 subsidies and the overflow cap of 8 do not scale",
                )
            ],
            "as-written",
            "the 3-player note is the only player-count rule",
            affects_play=False,
        ),
        _amb(
            "AER-AMB-58",
            "l.169-170",
            "Profit ties of three or more: how far back do the next players drop?",
            [
                (
                    "competition",
                    "by the number of extra tied players: three tied for 1st, the next player is 4th and scores nothing",
                ),
                ("one-place", "by one place whatever the tie size: three tied for 1st, the next player is 3rd"),
            ],
            "competition",
            "the same ranking as the majorities (AER-AMB-40); both readings fit the printed two-way example",
        ),
        _amb(
            "AER-AMB-59",
            "l.169-170,175",
            "Which passengers count for profit, and can a profit of 0 or less take a paying place?",
            [
                (
                    "this-era",
                    "only the passenger tiles on the player's cards at this era's scoring; ranking alone decides the places",
                ),
                ("all-time", "banked passengers of earlier eras count too; ranking alone decides the places"),
                ("positive", "as this-era, but a profit of 0 or less takes no paying place"),
            ],
            "this-era",
            "the example speaks of the profit 'this turn', and the update banks every passenger each era; l.169 names no threshold",
        ),
    ),
)


@attrs.frozen
class Finding:
    """A place where the rulebook contradicts itself or leaves a hole, and the
    ambiguity whose readings carry the choice."""

    id: str
    page: str
    text: str
    ambiguity: str


FINDINGS: tuple[Finding, ...] = (
    Finding(
        "AER-F-01",
        "l.8-9,66",
        "The component list gives 130 airport tiles beside 5 separate home tiles, but the rules give each player 27 (9 of each stage): 5 x 27 = 135.",
        "AER-AMB-02",
    ),
    Finding(
        "AER-F-02",
        "l.40-43,179",
        "Income is listed twice: the Income step pays £22 / £32 at the start of eras 2 and 3, and update step 7 pays 'the money for the new era' again.",
        "AER-AMB-03",
    ),
    Finding(
        "AER-F-03",
        "l.163,181",
        "Who gets the first-player die in a new era: the subsidy text gives it to the marker-taker; the update has the marker-taker roll it and pass it on.",
        "AER-AMB-04",
    ),
    Finding(
        "AER-F-04",
        "l.90-102",
        "The risk table has no rows for red + white, black + white and white + black; read with l.90-91 (the hop's second leg is rolled, a white one at 10+) they are 12+, 10+; 14+, 10+; 14+.",
        "AER-AMB-16",
    ),
    Finding(
        "AER-F-05",
        "l.23-24",
        "Set-up is lettered A, C, D, E, F, G, H: step B is missing, its letter stuck to the end of A's note on the overflow area.",
        "AER-AMB-01",
    ),
    Finding(
        "AER-F-06",
        "l.169-170",
        "The profit rule adds up the passengers' VP, but its example says Coleman 'moved 14 passengers'.",
        "AER-AMB-36",
    ),
    Finding(
        "AER-F-07",
        "l.118,157",
        "Engine Maintenance is a 'special action' in the engine-failure section but a 'free action' on the tile.",
        "AER-AMB-50",
    ),
    Finding(
        "AER-F-08",
        "l.177-178",
        "The waiting-area refill is written twice, as two consecutive steps of the update.",
        "AER-AMB-44",
    ),
)

# Readings the register records but the model does not play yet: choosing one is refused when the
# game is configured (rulecraft.ruleset.UnknownReading, "not modelled"), so a witness search or an
# erratum reports it as not modelled rather than comparing a refusal with play.
NOT_MODELLED_WHY: dict[tuple[str, str], str] = {}
NOT_MODELLED = frozenset(NOT_MODELLED_WHY)
