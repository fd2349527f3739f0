"""The Airships ambiguity register: AIR-AMB-01..36 of the digest, each with
its readings, the default this model plays, and why.

Keys are short words so that ``--reading AIR-AMB-09=B`` reads naturally.
A reading listed in ``NOT_MODELLED`` is registered (so that a rules person
sees it) but choosing it is refused with a clear message rather than
silently played as the default.
"""

from __future__ import annotations

from rulecraft.ruleset import Ambiguity, AmbiguityRegister

_amb = Ambiguity.of  # each entry below: id, page, question, readings, default, why


REGISTER = AmbiguityRegister(
    "air",
    (
        _amb(
            "AIR-AMB-01",
            "3",
            "What is the stray sentence 'from then on the player has an extra red die'?",
            [
                ("caption", "the caption of the example card, whose bottom shows a red die"),
                ("every-success", "a general rule: every success adds a red die"),
                ("stray", "a stray copy of the era-change text"),
            ],
            "caption",
            "[EN] prints it as a caption inside the illustrated example; (b) contradicts the rest of the rules",
        ),
        _amb(
            "AIR-AMB-02",
            "2,4",
            "Is the chip supply one pool or kept per nation?",
            [
                ("nation", "per nation: 6 chips each, gains from and spends to the own supply"),
                ("pool", "one fungible pool of 6 chips per participating nation"),
            ],
            "nation",
            "setup speaks of 'each player's 6 chips' taken 'from his stock'; [EN] says 'his bonus chips'",
        ),
        _amb(
            "AIR-AMB-03",
            "2",
            "Which chips are in play with fewer than 4 players?",
            [
                ("participating", "only the participating nations' 6 chips each"),
                ("all", "all 24 chips (matters only with a pooled supply)"),
            ],
            "participating",
            "follows from AIR-AMB-02: surplus components leave the game (p.2)",
            context={"AIR-AMB-02": "pool"},
        ),
        _amb(
            "AIR-AMB-04",
            "3-4",
            "May surplus dice of one colour stand in for another colour?",
            [
                ("exact", "no: only the best q_c dice of each required colour count"),
                ("any", "yes: any thrown die may fill any requirement"),
            ],
            "exact",
            "p.4: only the dice shown on the card add up",
        ),
        _amb(
            "AIR-AMB-05",
            "3",
            "May a player throw colours the target does not list (e.g. to trigger an engine)?",
            [
                ("no", "no: only the listed colours are thrown"),
                ("yes", "yes: unlisted colours may be thrown; they count only for engine triggers"),
            ],
            "no",
            "the card's top left names the dice 'to be used'",
        ),
        _amb(
            "AIR-AMB-06",
            "4,6",
            "Does the cap of 3 per colour apply before or after a Material exchange?",
            [
                ("after", "the exchange works on the uncapped entitlement; the cap applies after it"),
                ("before", "the entitlement is capped first; only capped dice may be exchanged"),
            ],
            "after",
            "the seed justifies AIR-EX-06's exchange by the surplus ('6 white dice are too many anyway')",
        ),
        _amb(
            "AIR-AMB-07",
            "6",
            "How often may a Material exchange be applied to one throw?",
            [
                ("once", "one application per throw, exactly as printed"),
                ("repeat", "repeated applications while input dice last"),
            ],
            "once",
            "the card shows one exchange; nothing says it repeats",
        ),
        _amb(
            "AIR-AMB-08",
            "6",
            "May the Engineer's fixed die be given up in an exchange?",
            [
                ("yes", "yes: it counts as one die of its colour; its value is lost for that throw"),
                ("no", "no: only throwable dice are exchanged"),
            ],
            "yes",
            "p.6: the imaginary dice 'may be counted in the exchange'",
        ),
        _amb(
            "AIR-AMB-09",
            "6",
            "When is an engine's colour 'involved' in a throw?",
            [
                ("A", "the target requires that colour"),
                ("B", "at least one die of that colour is thrown"),
                ("C", "at least one die of that colour, thrown or fixed, counts"),
            ],
            "B",
            "both texts speak of throwing, and engineer dice are never thrown; only (B) reproduces AIR-EX-06 with its old engine",
        ),
        _amb(
            "AIR-AMB-10",
            "6",
            "Is the engine bonus added once per throw or once per die?",
            [("throw", "once per throw"), ("die", "once per thrown die of the marker colour")],
            "throw",
            "the examples say '+1 to the total'",
        ),
        _amb(
            "AIR-AMB-11",
            "4",
            "May a chip be spent when the total stays short?",
            [
                ("legal", "yes: the text allows it (it is merely a poor choice)"),
                ("forbid", "no: a chip may be spent only when it makes the attempt succeed"),
            ],
            "legal",
            "literal text: 'may use ... if still not reached, unsuccessful'",
        ),
        _amb(
            "AIR-AMB-12",
            "4",
            "Are the engine and wooden-airship bonuses optional?",
            [("auto", "they always apply"), ("optional", "the player chooses, after the throw, whether to use each")],
            "auto",
            "they never hurt a success; automatic use removes needless branching",
        ),
        _amb(
            "AIR-AMB-13",
            "5",
            "From when does only a stage completion move the wooden airship?",
            [
                ("stage", "from the first stage completion ('a further stage', p.5)"),
                ("reveal", "from the Hindenburg's reveal"),
            ],
            "stage",
            "p.5: the warning follows the award for a completed stage ('ujabb', a further stage); [EN] says the"
            " same: 'Immediately from this point on, a player only receives the wooden airship if he completes a"
            " construction phase of the Hindenburg!', right after the successful stage throw",
        ),
        _amb(
            "AIR-AMB-14",
            "5",
            "Under reading 'reveal' of AIR-AMB-13: does the airship win that reveals the Hindenburg move the wooden airship?",
            [("yes", "yes: the acquisition resolves before the reveal"), ("no", "no: the reveal comes first")],
            "yes",
            "p.5: 'after acquiring an airship card ... becomes visible'",
            context={"AIR-AMB-13": "reveal"},
        ),
        _amb(
            "AIR-AMB-15",
            "3",
            "After the era tile, does step 1 reveal another card?",
            [
                ("next", "yes: reveal the next card, so step 1 still places a development card"),
                ("stop", "no: step 1 ends with the era tile"),
            ],
            "next",
            "step 1 is defined as revealing a development card; the era tile is a marker",
        ),
        _amb(
            "AIR-AMB-16",
            "3",
            "Do rows close their gaps after a card is taken?",
            [
                ("gaps", "no compaction: new cards fill the leftmost empty field"),
                ("compact", "the remaining cards slide left at once"),
            ],
            "gaps",
            "nothing says cards move except on overflow",
        ),
        _amb(
            "AIR-AMB-17",
            "2",
            "How does an overflow during setup count towards the 6 displayed cards?",
            [
                ("until-six", "placement as usual; drawing continues until 6 cards lie on the board"),
                ("n-draws", "exactly n cards are drawn, whatever overflows"),
            ],
            "until-six",
            "p.2: draw until 6 development cards lie on the board",
        ),
        _amb(
            "AIR-AMB-18",
            "5",
            "Must the Hindenburg stages be built in order?",
            [("free", "any order"), ("sequential", "1, 2, 3, 4 in order")],
            "free",
            "no restriction is stated",
        ),
        _amb(
            "AIR-AMB-19",
            "5",
            "What is 'the fourth stage is completed'?",
            [("all-four", "all four stages are completed"), ("stage-four", "the stage numbered 4 is completed")],
            "all-four",
            "covers both the sequential and the free reading; the only one in which the high values apply",
        ),
        _amb(
            "AIR-AMB-20",
            "5",
            "When does the game end: after the step, or after the go?",
            [
                ("immediate", "at once after the step 2 that meets a condition"),
                ("finish-go", "the current go finishes, paid additional goes included"),
            ],
            "immediate",
            "the seed says 'after a step'",
        ),
        _amb(
            "AIR-AMB-21",
            "5",
            "Condition (a): at most one card on every airship field, or on any?",
            [("every", "every one of the 4 fields holds at most 1 card"), ("any", "some field holds at most 1 card")],
            "every",
            "the literal reading",
        ),
        _amb(
            "AIR-AMB-22",
            "4",
            "What is an additional go, and where do its 3 chips go?",
            [
                (
                    "full",
                    "a full go, both steps; the 3 chips go back into the general supply (the payer's nation's chips there)",
                ),
                ("attempt-only", "only step 2 (an attempt) is repeated"),
            ],
            "full",
            "p.4 [EN]: 'he can take another complete go immediately (both steps) if in exchange he pays 3 of his"
            " bonus chips back into the general supply'",
        ),
        _amb(
            "AIR-AMB-23",
            "3-4",
            "Is step 2 mandatory, and what happens with no legal target?",
            [
                ("mandatory", "an attempt must be made if any target is legal; with none, step 2 is skipped"),
                ("pass", "a player may always pass step 2"),
                ("chip", "as mandatory, but a player with no legal target still gains the failure chip"),
            ],
            "mandatory",
            "the go is defined as the two steps",
        ),
        _amb(
            "AIR-AMB-24",
            "6",
            "Pilot chips with a short supply, and for a dealt starter Pilot?",
            [
                ("partial", "take as many as are there; a dealt starter grants none"),
                ("all-or-none", "take all N or none"),
            ],
            "partial",
            "'if there are still some'; [EN] 'when the card is won with the dice'",
        ),
        _amb(
            "AIR-AMB-25",
            "2",
            "Do airship cards give dice?",
            [
                ("no", "no dice and no abilities"),
                ("yes", "the die symbols at an airship card's bottom count as entitlement"),
            ],
            "no",
            "reviews say airship cards carry their VP at the bottom",
        ),
        _amb(
            "AIR-AMB-26",
            "4",
            "When does a newly won card take effect?",
            [
                ("next-throw", "from the next throw, an additional go included"),
                ("next-turn", "only from the player's next regular go"),
            ],
            "next-throw",
            "nothing delays it; pilot chips come at once",
        ),
        _amb(
            "AIR-AMB-27",
            "5",
            "A tie after the tie-break?",
            [("shared", "the tied players share the win"), ("undefined", "no winner is named")],
            "shared",
            "the rulebook is silent; sharing is the usual convention",
        ),
        _amb(
            "AIR-AMB-28",
            "2",
            "What is the minimum number of players?",
            [("two", "2 to 4 (publisher data)"), ("one", "1 to 4 (the seed says only 'fewer than 4')")],
            "two",
            "publisher and reviews give 2-4",
        ),
        _amb(
            "AIR-AMB-29",
            "5",
            "Where does a stage marker come from when the supply is empty?",
            [("record", "the stage is recorded as owned; the chip is only a marker")],
            "record",
            "per nation a marker can always be supplied; the model stores ownership",
            affects_play=False,
        ),
        _amb(
            "AIR-AMB-30",
            "5",
            "The rules have no turn limit: can play loop?",
            [("allowed", "yes; model runs impose a step cap and report a stalled game")],
            "allowed",
            "nothing forbids it",
            affects_play=False,
        ),
        _amb(
            "AIR-AMB-31",
            "2",
            "What do the starter cards show?",
            [("one-white", "each starter gives exactly 1 white die (other data from the pack)")],
            "one-white",
            'p.2 gives only the total of 2 white dice, and [EN] agrees ("all players have 2 white dice at their'
            ' disposal"); the entrepreneur tile shows one, so the starter gives the other (a review says so too)',
            affects_play=False,
        ),
        _amb(
            "AIR-AMB-32",
            "3",
            "Requirements above 3 of one colour: how is legality counted?",
            [
                ("capped", "min(dice, 3) + fixed dice must cover the requirement"),
                ("uncapped", "all entitled dice count towards the requirement"),
            ],
            "capped",
            "only 3 dice of a colour can be thrown (p.4)",
        ),
        _amb(
            "AIR-AMB-33",
            "5",
            "Does a failed stage attempt earn the failure chip?",
            [("chip", "yes: a stage is thrown for like an airship card"), ("none", "no chip")],
            "chip",
            "p.5: stages are thrown for 'like the airship cards'",
        ),
        _amb(
            "AIR-AMB-34",
            "4,6",
            "Translation slips ('3 white cards', 'kiegeszito kartya', department names)",
            [("as-meant", "read as dice, development cards and the six departments")],
            "as-meant",
            "no rule impact",
            affects_play=False,
        ),
        _amb(
            "AIR-AMB-35",
            "4",
            "Is the number of dice thrown a choice?",
            [
                ("choice", "the player chooses how many, within the requirement and the cap"),
                ("max", "all usable dice of the required colours, up to 3, are thrown"),
            ],
            "choice",
            "AIR-EX-06 throws no white although 2 more were usable",
        ),
        _amb(
            "AIR-AMB-36",
            "6",
            "May an attempt throw no die at all (all required dice fixed)?",
            [("allowed", "yes, with a deterministic total"), ("forbidden", "no: at least one die must be thrown")],
            "allowed",
            "nothing forbids it",
        ),
    ),
)

# Registered readings this model does not play yet; choosing one is refused.
# Every Airships reading is played now; the set stays for readings to come.
NOT_MODELLED: frozenset[tuple[str, str]] = frozenset()
