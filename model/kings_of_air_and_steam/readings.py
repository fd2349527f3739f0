"""The Kings of Air and Steam ambiguity register: KAS-AMB-01..47 of the
digest, each with its readings, the default this model plays, and why.

Keys are "a", "b", ... where the digest lists lettered readings, otherwise
short words, so that ``--reading KAS-AMB-10=b`` reads naturally.  Pages are
the seed's leading page numbers of the rules concerned.  A reading listed in
``NOT_MODELLED`` is registered (so that a rules person sees it) but choosing
it is refused with a clear message rather than silently played as the
default.
"""

from __future__ import annotations

from rulecraft.ruleset import Ambiguity, AmbiguityRegister

_amb = Ambiguity.of  # each entry below: id, page, question, readings, default, why


REGISTER = AmbiguityRegister(
    "kas",
    (
        # -- Movement ------------------------------------------------------------------
        _amb(
            "KAS-AMB-01",
            "11",
            "What is a 'sharp turn' on a hex grid?",
            [
                ("a", "a 120° change between consecutive steps; 60° wide turns are allowed at every step"),
                ("b", "as (a), and two 60° changes in a row also count as sharp (a straight step between bends)"),
                ("c", "any non-straight step is sharp"),
            ],
            "a",
            "the text allows as many wide turns as wished with no spacing; (a) gives KAS-EX-07 the simplest geometry",
        ),
        _amb(
            "KAS-AMB-02",
            "11",
            "Does 'no moving backward' forbid revisiting hexes or ending on the start hex?",
            [
                ("a", "only 180° reversals are forbidden; revisits and loops are fine"),
                ("b", "no hex may be entered twice in one flight"),
                ("c", "the flight may not end on its start hex"),
            ],
            "a",
            "the text forbids only backward steps and sharp turns, never revisits",
        ),
        _amb(
            "KAS-AMB-03",
            "6,11,14",
            "Which hexes form the play area (fillers, gaps), and where may Course Correction go?",
            [
                (
                    "open",
                    "all full and partial hexes of boards and fillers; full hexes are normal, partial pass-through only; Course Correction to any full non-city hex",
                ),
                ("boards-only", "only the lettered boards' hexes are flyable; fillers just close gaps"),
            ],
            "open",
            "the text names only partial hexes as restricted and says nothing about fillers",
        ),
        _amb(
            "KAS-AMB-04",
            "11,18",
            "What happens when no legal flight of the card's full value exists (e.g. DaVinci's straight 7)?",
            [
                ("a", "the airship stays put, then loads/unloads and acts normally"),
                ("b", "the turn is lost as with a diamond overflow"),
                ("c", "the airship flies as far as is legal"),
            ],
            "a",
            "a lost turn is tied only to diamonds in the text; (a) is the least punishing and keeps the action",
        ),
        # -- Diamonds and tracks -------------------------------------------------------------
        _amb(
            "KAS-AMB-05",
            "10",
            "Do the diamonds of a card lost to the diamond check still count later in the round?",
            [
                ("not-counted", "no: the card is back in the deck and no longer revealed"),
                ("counted", "yes: its diamonds stay in play for the rest of the round"),
            ],
            "not-counted",
            "the card returns to the deck; only slid cards and Eli's face-up cards are stated to count",
        ),
        _amb(
            "KAS-AMB-06",
            "10,12",
            "How do KAS-EX-05 (one upgrade lifts the rating 1 → 2) and KAS-EX-11 (level 1 → 2 keeps rating 1) fit one airship track?",
            [
                ("a", "Green was at level 2; the base track's diamonds are 1, 1, 2 at levels 1, 2, 3"),
                ("b", "the two examples use different (team) tracks"),
                ("c", "the counterfactual in KAS-EX-05 is loose"),
            ],
            "a",
            "only (a) keeps both printed examples true on the single, identical base side; the track itself comes from the pack",
            affects_play=False,
        ),
        _amb(
            "KAS-AMB-07",
            "6,12",
            "Which levels are the tracks' starting spaces?",
            [
                ("level-1", "airship level 1 and rail level 1"),
                ("rail-0", "airship level 1 and rail level 0: no shipment before a first rail upgrade"),
            ],
            "level-1",
            "KAS-EX-11 treats diamond 1 / capacity 2 as the start; rail level 1 is the least that allows any shipment",
        ),
        _amb(
            "KAS-AMB-08",
            "17-20",
            "What do the 'standard' team airship charts contain, and what do team upgrades cost?",
            [
                ("base", "standard = base-side values; team upgrade costs = base-side costs"),
                ("team-data", "each team board has its own values and costs (unknown, supplied by a real pack)"),
            ],
            "base",
            "the text gives only qualitative claims; the charts come from the pack either way",
            affects_play=False,
        ),
        # -- Market, demand and production --------------------------------------------------
        _amb(
            "KAS-AMB-09",
            "6,8",
            "Which value-track spaces lie above $6, and when does the $8 cap stop a cube?",
            [
                (
                    "a",
                    "the track is $4, $5, $6, $8: the third tile of a type reaches $8; a fourth is stopped by the cap",
                ),
                ("b", "the track is $4 to $8 in $1 steps: the standard game never passes $7"),
            ],
            "a",
            "under (b) the stated $8 maximum is unreachable and the cap sentence never applies; a play report gives $4, $5, $6, $8",
        ),
        _amb(
            "KAS-AMB-10",
            "14,16",
            "What happens when a printed city fills while the demand pile is empty?",
            [
                (
                    "a",
                    "pending: the city is cleared and waits for a tile, handed out after the next Production in fill order",
                ),
                ("b", "closed: the city is cleared and closed for good"),
                ("c", "printed-again: the city is cleared and keeps its printed demand with 5 new slots"),
                ("d", "stays-full: the city is not cleared until a tile is available"),
            ],
            "a",
            "keeps the designers' flow (every filled printed city gets a new demand) with the smallest change",
        ),
        _amb(
            "KAS-AMB-11",
            "14,19",
            "Who draws the demand tile for a filled printed city, and when?",
            [
                ("deliverer", "the player whose delivery filled the city, after that delivery's income and tolls"),
                ("before-tolls", "the same player, as soon as the city fills, before tolls are paid"),
            ],
            "deliverer",
            "as in KAS-EX-15; Flora's rule overrides it; a blind draw plays the same whenever it is made",
            affects_play=False,
        ),
        _amb(
            "KAS-AMB-12",
            "4,16",
            "Can the goods supply ('about 20' per type) run out?",
            [
                ("unlimited", "the supply never runs out"),
                (
                    "capped",
                    "20 cubes per type; short production fills factories in a fixed board order, Aurelia gets only what is left",
                ),
            ],
            "unlimited",
            "the count is stated only as approximate",
        ),
        _amb(
            "KAS-AMB-13",
            "3-4,14",
            "Do the 5 city slots (p.3) and 'the 3 slots' (p.4) contradict each other?",
            [("distinct", "no: a printed city has 5 slots, a demand tile 3")],
            "distinct",
            "the p.4 sentence is about demand tiles; not a real choice",
            affects_play=False,
        ),
        # -- Shipping and tolls -----------------------------------------------------------------
        _amb(
            "KAS-AMB-14",
            "13",
            "How are a shipment's stops counted?",
            [
                (
                    "example",
                    "the origin is no stop and its line needs none; a destination depot is also its line's stop (KAS-R-37)",
                ),
                ("origin-stop", "the origin depot's line also needs a stop"),
            ],
            "example",
            "KAS-EX-13 fixes it: option (a) has 1 stop, option (f) 3 stops",
        ),
        _amb(
            "KAS-AMB-15",
            "13",
            "May a route reuse a rail line, and may it pass through a closed city?",
            [
                ("simple", "each line at most once; any city, open or closed, may be passed"),
                (
                    "revisit",
                    "lines may be reused; any city may be passed; each further use of a line is one more line of"
                    " the route: it costs its own stop (and its own toll where the shipper has no depot on it)",
                ),
                ("open-only", "each line at most once; closed cities block the route"),
            ],
            "simple",
            "the text lets a shipment pass through 'any city' and never needs a line twice",
        ),
        _amb(
            "KAS-AMB-16",
            "13",
            "What does 'stop at your own depot if possible' require?",
            [
                (
                    "own-if-present",
                    "on every used line (not the origin's) with an own depot, the stop is there and free",
                ),
                ("free-choice", "advice only: any depot on the line may be the stop"),
            ],
            "own-if-present",
            "the text makes the own depot the rule and opponents' depots the fallback",
        ),
        _amb(
            "KAS-AMB-17",
            "13-14,19",
            "Exactly when can tolls be paid (from income, on depot transfers, with a bet)?",
            [
                (
                    "income",
                    "money before - bet + guaranteed income >= tolls; a depot transfer needs money before >= tolls",
                ),
                ("cash-only", "tolls must be covered by money held before the shipment"),
            ],
            "income",
            "tolls are settled after the action, so delivery income may pay them; a gamble bonus is not guaranteed",
        ),
        _amb(
            "KAS-AMB-18",
            "13",
            "How many goods may one shipment carry?",
            [
                ("any-count", "1 or more of one type from one depot, as many as the shipper chooses"),
                ("all-of-type", "all goods of the chosen type in that depot"),
            ],
            "any-count",
            "the text says 'any number' of one type",
        ),
        # -- Actions and turns ------------------------------------------------------------------
        _amb(
            "KAS-AMB-19",
            "12,18",
            "Must a player take an action?",
            [
                (
                    "mandatory",
                    "yes, no pass (Grant is always legal); both Emperor actions too; I.S.A.A.C.'s extra action optional",
                ),
                ("pass-allowed", "a player may pass the action step"),
            ],
            "mandatory",
            "the text says the player must choose and carry out one action",
        ),
        _amb(
            "KAS-AMB-20",
            "12,18",
            "With two actions in a turn, may both be upgrades, even of the same track?",
            [
                ("allowed", "yes, one level per action, same track allowed"),
                ("once", "at most one upgrade per turn"),
            ],
            "allowed",
            "the limit is stated per action",
        ),
        _amb(
            "KAS-AMB-21",
            "11",
            "Exactly which discards does loading allow?",
            [
                (
                    "minimal",
                    "same loading step only, as many as the load exceeds free capacity, never of a type being loaded",
                ),
                ("any-swap", "any hold goods may be discarded when loading goods of another type"),
            ],
            "minimal",
            "the text allows discards only to make room for the same number of other goods (KAS-EX-08)",
        ),
        _amb(
            "KAS-AMB-22",
            "11,20",
            "Which sources may one loading step use?",
            [
                ("both", "a factory and own depots on the hex together; never an opponent's depot (except Godfather)"),
                ("one-source", "one source per loading step"),
            ],
            "both",
            "the text lists factory and/or own depot",
        ),
        _amb(
            "KAS-AMB-23",
            "11-12",
            "Which hexes may take a new depot?",
            [
                ("any-empty", "any rail hex without a depot, airship there or not, partial edge rail hexes included"),
                ("full-hexes", "as any-empty, but not on partial edge hexes"),
            ],
            "any-empty",
            "the text says 'any' rail hex without a depot",
        ),
        # -- Round flow and end of game -----------------------------------------------------------
        _amb(
            "KAS-AMB-24",
            "8,16",
            "Is round 5 played in full before the Sellout?",
            [
                ("full", "round 5 includes Upkeep and Production, then the Sellout"),
                ("skip-upkeep", "round 5's Upkeep is skipped before the Sellout"),
            ],
            "full",
            "the Sellout comes after the fifth round; a good kept for it nets $3",
        ),
        _amb(
            "KAS-AMB-25",
            "16",
            "What exactly must hold for a good to be sold in the Sellout?",
            [
                (
                    "independent",
                    "each good alone: a city currently demanding its type with >= 1 empty slot, normal route, toll from the $4, room not consumed",
                ),
                ("consume-room", "as independent, but each sold good uses up a city slot"),
            ],
            "independent",
            "nothing is placed on the city, so room is not used up; closed cities are ineligible",
        ),
        _amb(
            "KAS-AMB-26",
            "16,19-20",
            "Which character powers apply in the Sellout?",
            [
                ("birch-only", "only Thaddeus Birch's toll freedom"),
                ("none", "no power applies: Birch pays tolls too"),
                ("all", "delivery powers (Sebastian, Corey, Bishop) apply as well"),
            ],
            "birch-only",
            "Birch's power concerns shipping; the Sellout is no delivery to a city",
        ),
        _amb(
            "KAS-AMB-27",
            "5,16",
            "Is money limited or hidden?",
            [
                (
                    "open",
                    "the bank is unlimited, money never negative and open information; tie-break after the Sellout",
                ),
                ("hidden", "as open, but each player's money is hidden"),
            ],
            "open",
            "the text gives 'plenty' of money and says nothing about hiding it; who may see money changes no"
            " legal move, payment or score, and this model (as the Game protocol) has no per-player view to hide"
            " it from, so both readings play the same",
            affects_play=False,
        ),
        _amb(
            "KAS-AMB-28",
            "6,8,15",
            "How is the first start player chosen, and to whom does the token pass?",
            [
                ("random", "random start player; the token passes clockwise to the holder's left neighbour"),
                (
                    "fixed",
                    "the set-up names the start player (seat 0, the seats numbered clockwise from them; no draw);"
                    " the token passes clockwise",
                ),
            ],
            "random",
            "the method is not given; the Upkeep sentence is cut off but p.8 says clockwise",
        ),
        _amb(
            "KAS-AMB-29",
            "6,18",
            "What if no line without another player's depot is left for a starting depot?",
            [
                (
                    "relax",
                    "the starting depot is free and one of the 10; if no line qualifies, any empty rail hex; Harvey's second falls back likewise or is skipped",
                ),
                (
                    "strict",
                    "the restriction stays; a player with no qualifying line places no starting depot, and the"
                    " airship alone goes on an empty rail hex (p.6 step D's hex, without the depot); Harvey's"
                    " second depot needs a line with no depot, else none",
                ),
            ],
            "relax",
            "the text assumes a free line always exists",
        ),
        _amb(
            "KAS-AMB-30",
            "5,17",
            "What are the 'other timing problems' settled by priority?",
            [
                (
                    "priority",
                    "unordered effects of several players go by ascending priority (base: clockwise from the start player)",
                ),
                (
                    "simultaneous",
                    "no order: such effects are simultaneous; order matters only in the Sellout, where every sale is"
                    " judged against the Sellout's start: tolls received from other sellers are paid out after all"
                    " sales, so they pay no toll (or bet) in it; refused with KAS-AMB-25 'consume-room' (who gets a"
                    " city's last slots)",
                ),
            ],
            "priority",
            "p.5 names other timing problems, p.17 lists only two uses",
        ),
        _amb(
            "KAS-AMB-31",
            "8,13-16",
            "How are the garbled passages of the seed read (lost levels, 'or' in option 5, cut sentence, page offsets, p.16 end sentence)?",
            [
                (
                    "restored",
                    "levels 1 and 2 from the stop counts, 4 stops in sequence, clockwise, pages +2, the game ends after round 5",
                )
            ],
            "restored",
            "translation slips with one consistent reading; not a real choice",
            affects_play=False,
        ),
        # -- Advanced game ---------------------------------------------------------------------
        _amb(
            "KAS-AMB-32",
            "18",
            "How does the Emperor star card play?",
            [
                (
                    "any",
                    "diamond check applies; no movement or loading; two full actions, same type allowed, each paid",
                ),
                ("distinct", "as any, but the two actions must differ"),
            ],
            "any",
            "the text says two full actions without restriction",
        ),
        _amb(
            "KAS-AMB-33",
            "19",
            "Does the Sphinx star card ship one good or one shipment?",
            [
                ("a", "exactly one cube, by the normal shipping rules"),
                ("b", "one Ship Goods shipment of any size"),
            ],
            "a",
            "literal text ('one good'); the 2011 prototype reads 'Ship 1 Good'",
        ),
        _amb(
            "KAS-AMB-34",
            "19",
            "How does Eva Blane's new rail line work?",
            [
                (
                    "game-budget",
                    "5 tiles for the game; a contiguous path of >= 1 tile joining two cities on non-rail, non-city, non-factory full hexes (water allowed); needs a depot token",
                ),
                ("strict", "as game-budget, but no water hexes and not between two cities already linked"),
            ],
            "game-budget",
            "only tile placement limits and the free depot are stated",
        ),
        _amb(
            "KAS-AMB-35",
            "19",
            "Are the Rose & Thorn flights exactly 2 hexes each?",
            [
                (
                    "exact",
                    "each flight exactly 2; one diamond check; load/unload after each; the action after the second",
                ),
                ("up-to", "each flight up to 2 hexes"),
            ],
            "exact",
            "movement values must be flown in full",
        ),
        _amb(
            "KAS-AMB-36",
            "14,19",
            "How does Flora's power work with a small demand pile?",
            [
                (
                    "flora",
                    "one tile: she takes it; empty pile: KAS-AMB-10; printed-city fills only; she draws and chooses",
                ),
                (
                    "opponent-draws",
                    "as flora, but the filling opponent draws the two blind tiles for her to choose from",
                ),
            ],
            "flora",
            "the text has her draw; who turns blind tiles plays the same",
            affects_play=False,
        ),
        _amb(
            "KAS-AMB-37",
            "19",
            "Does Bishop Kingston's returned good need city room, and does it pay tolls?",
            [
                ("whole", "room for the whole shipment; tolls on every good; the returned good is paid normally"),
                ("placed", "room only for the goods actually placed (n - 1)"),
            ],
            "whole",
            "legality is checked before any goods move",
        ),
        _amb(
            "KAS-AMB-38",
            "19",
            "What are Sebastian's token faces, and are they spent?",
            [
                ("reuse", "5 tokens, one per goods type; reshuffled and reused each delivery; bet $1-$3 before income"),
                ("spent", "as reuse, but revealed tokens are used up; a bet turns at most the tokens left"),
            ],
            "reuse",
            "'a symbol matching the shipment' suggests goods symbols; nothing says they are spent",
        ),
        _amb(
            "KAS-AMB-39",
            "19",
            "How does Corey McQueen's swindle work in detail?",
            [
                (
                    "same-depot",
                    "one off-type good per delivery, from the same depot, taking a slot, counted for room and tolls",
                ),
                (
                    "any-depot",
                    "as same-depot, but the off-type good may come from another own depot: only that good is taken"
                    " from the other depot's stock; the shipment leaves from its depot along its route (stops, rail"
                    " level, tolls as same-depot)",
                ),
            ],
            "same-depot",
            "a shipment leaves from one depot",
        ),
        _amb(
            "KAS-AMB-40",
            "20",
            "Where do Clint Castle's powers apply?",
            [
                (
                    "flights",
                    "sharp turns at any step, never 180°; loading before/after every card flight, not Course Correction",
                ),
                ("all-moves", "as flights, and loading also before a Course Correction step"),
            ],
            "flights",
            "his power speaks of the flight; Course Correction already allows loading after the step",
        ),
        _amb(
            "KAS-AMB-41",
            "10,20",
            "Which cards may Eli Diamond play, and how often?",
            [
                (
                    "any-deck",
                    "any card in his deck (star or returned included) within the rating, letter ignored, once per action",
                ),
                ("unreturned", "as any-deck, but not a card returned by a diamond overflow this round"),
            ],
            "any-deck",
            "the text says any card from his deck unless it overflows the rating",
        ),
        _amb(
            "KAS-AMB-42",
            "20",
            "What may the Godfather card steal?",
            [
                ("same-hex", "one good per turn from an opponent's depot or airship hold on its hex, into its hold"),
                ("hold-only", "one good only from the hold of an opponent's airship on its hex"),
            ],
            "same-hex",
            "the text names depot or cargo hold",
        ),
        _amb(
            "KAS-AMB-43",
            "20",
            "Which hexes count as 'passed through' for Ezekiel Crane?",
            [
                (
                    "entered",
                    "every hex entered, end hex included; each victim at most once per flight; short victims pay what they have",
                ),
                ("no-end", "as entered, but the end hex does not count"),
                ("repeat", "as entered, but a victim may be robbed on each pass"),
            ],
            "entered",
            "'passes through' is undefined for the end hex and repeats",
        ),
        _amb(
            "KAS-AMB-44",
            "18",
            "Must Aurelia's conversion in the hold respect capacity?",
            [
                (
                    "capacity",
                    "yes: a hold conversion needs room for the extra good; the 2 new goods are of one other type",
                ),
                ("ignore-capacity", "no: the hold may exceed capacity after a conversion"),
            ],
            "capacity",
            "the hold may never exceed capacity",
        ),
        _amb(
            "KAS-AMB-45",
            "18",
            "May I.S.A.A.C.'s extra action repeat the first action?",
            [
                ("any", "yes; taken right after the first action; at most 5 uses a game"),
                ("different", "the extra action must be of another type"),
            ],
            "any",
            "the text says 'a second action of his choice'",
        ),
        _amb(
            "KAS-AMB-46",
            "5,17-18",
            "What are the teams' priority numbers?",
            [
                (
                    "team-order",
                    "Emperor 1, DaVinci 2, Sphinx 3, Rose & Thorn 4, Kings Over Aces 5, Sky Castle 6, Godfather 7, shared by both characters",
                ),
                (
                    "per-character",
                    "each character has its own number; the rulebook prints none, so a pack must give them"
                    " (teams[].character_priority)",
                ),
            ],
            "team-order",
            "the teams are presented in priority order (p.18); a play report calls Harvey Golding's team 1st",
        ),
        _amb(
            "KAS-AMB-47",
            "6",
            "Which board set is used when two rows fit the player count?",
            [
                ("ABCDE", "3-5 players use A, B, C, D, E with 5 fillers"),
                ("ABCFG", "3-5 players use A, B, C, F, G with 5 fillers"),
                ("cutthroat", "3 players use A, B, C with 3 fillers"),
            ],
            "ABCDE",
            "the table offers both without saying who chooses; a configuration choice",
        ),
    ),
)

# The readings the model plays besides the defaults; every other non-default
# reading is registered but refused when chosen (NOT_MODELLED).
MODELLED_ALTERNATIVES: frozenset[tuple[str, str]] = frozenset(
    {
        ("KAS-AMB-01", "b"),
        ("KAS-AMB-01", "c"),
        ("KAS-AMB-02", "b"),
        ("KAS-AMB-02", "c"),
        ("KAS-AMB-03", "boards-only"),
        ("KAS-AMB-04", "b"),
        ("KAS-AMB-04", "c"),
        ("KAS-AMB-05", "counted"),
        ("KAS-AMB-07", "rail-0"),
        ("KAS-AMB-09", "b"),
        ("KAS-AMB-10", "b"),
        ("KAS-AMB-10", "c"),
        ("KAS-AMB-10", "d"),
        ("KAS-AMB-12", "capped"),
        ("KAS-AMB-14", "origin-stop"),
        ("KAS-AMB-15", "open-only"),
        ("KAS-AMB-15", "revisit"),
        ("KAS-AMB-16", "free-choice"),
        ("KAS-AMB-17", "cash-only"),
        ("KAS-AMB-18", "all-of-type"),
        ("KAS-AMB-19", "pass-allowed"),
        ("KAS-AMB-20", "once"),
        ("KAS-AMB-21", "any-swap"),
        ("KAS-AMB-22", "one-source"),
        ("KAS-AMB-23", "full-hexes"),
        ("KAS-AMB-24", "skip-upkeep"),
        ("KAS-AMB-25", "consume-room"),
        ("KAS-AMB-26", "none"),
        ("KAS-AMB-26", "all"),
        ("KAS-AMB-28", "fixed"),
        ("KAS-AMB-29", "strict"),
        ("KAS-AMB-30", "simultaneous"),
        ("KAS-AMB-32", "distinct"),
        ("KAS-AMB-33", "b"),
        ("KAS-AMB-34", "strict"),
        ("KAS-AMB-35", "up-to"),
        ("KAS-AMB-37", "placed"),
        ("KAS-AMB-38", "spent"),
        ("KAS-AMB-39", "any-depot"),
        ("KAS-AMB-40", "all-moves"),
        ("KAS-AMB-41", "unreturned"),
        ("KAS-AMB-42", "hold-only"),
        ("KAS-AMB-43", "no-end"),
        ("KAS-AMB-43", "repeat"),
        ("KAS-AMB-44", "ignore-capacity"),
        ("KAS-AMB-45", "different"),
        ("KAS-AMB-47", "ABCFG"),
        ("KAS-AMB-47", "cutthroat"),
    }
)
# Readings played only with a pack that supplies data the rulebook does not print: reading -> the pack
# field it needs.  With such a pack they are played; without, the game refuses them in one line
# naming the field (KingsOfAirAndSteamGame.wire), so they are neither alternatives nor NOT_MODELLED.
NEEDS_PACK_DATA: dict[tuple[str, str], str] = {
    ("KAS-AMB-46", "per-character"): "teams[].character_priority",
}
NOT_MODELLED: frozenset[tuple[str, str]] = frozenset(
    (amb.id, r.key)
    for amb in REGISTER
    for r in amb.readings
    if r.key != amb.default
    and amb.affects_play
    and (amb.id, r.key) not in MODELLED_ALTERNATIVES
    and (amb.id, r.key) not in NEEDS_PACK_DATA
)

# Why each refused reading is not played (shown when it is chosen, and in `rulecraft ambiguities`).
NOT_MODELLED_WHY: dict[tuple[str, str], str] = {}

# Readings each played alone but refused together, with why: no rule settles what the pair needs
# (KingsOfAirAndSteamGame.wire refuses the pair in one line).
NOT_MODELLED_TOGETHER: dict[tuple[tuple[str, str], ...], str] = {
    (("KAS-AMB-25", "consume-room"), ("KAS-AMB-30", "simultaneous")): "sold goods take a city's slots (KAS-AMB-25,"
    " p.16) and simultaneous sellers (KAS-AMB-30, p.5, 17) could claim a city's last slots at once; no rule says"
    " who gets them",
}
