"""What a conformance run found and its verdict: the findings and the report (rulecraft conform)."""

from __future__ import annotations

import time
from typing import Any

import attrs


@attrs.frozen
class Finding:
    """One way the implementation differs from the rulebook's model."""

    kind: str  # state | legal-actions | verdict | fault | scenario
    title: str
    where: str  # the scenario file, or "differential"
    step: int | None = None
    steps: tuple[dict[str, Any], ...] = ()  # the actions from set-up (or the given state) to the difference
    step_text: tuple[str, ...] = ()
    ours: Any = None
    theirs: Any = None
    fields: tuple[tuple[str, Any, Any], ...] = ()  # (field, reference, implementation)
    rules: tuple[str, ...] = ()
    setup: dict[str, Any] | None = None
    evidence: str = ""
    picture: str = ""  # the text picture of the state where it differs
    svg: str = ""  # the drawn picture (SVG), where the game has one
    # A finding from a state the reference reached: that state (canonical JSON), and the way
    # there from a new game (``origin`` set-up, ``path`` actions), so it replays either way.
    start_state: dict[str, Any] | None = None
    origin: dict[str, Any] | None = None  # the set-up of the new game ``path`` starts from
    path: tuple[dict[str, Any], ...] = ()  # from ``origin`` (or the printed example ``root``) to the difference
    root: str = ""  # where ``path`` starts: "a new game" or a printed example's label
    shrink_replays: int = 0  # replays spent shrinking it
    shrink_exhausted: bool = False  # the replay budget ran out: a shorter game may exist
    unit: str = ""  # the unit of work that found it (a printed example, a lane: rulecraft.shard)
    # A probe the verdicts differ on that is not among ``steps`` (refused on one side only, or for
    # another rule): replaying the finding plays ``steps`` and then probes this action.
    probe: dict[str, Any] | None = None


# The counts of a report, summed when parts of one campaign are put together (lanes, shards).
COUNTS = (
    "scenarios_run",
    "scenarios_passed",
    "examples_run",
    "games_planned",
    "games_capped",
    "games_finished",
    "games_stalled",
    "games_without_ranking",
    "steps_compared",
    "setups_compared",
)


@attrs.define
class ConformReport:
    game: str
    command: str
    models: tuple[str, ...] = ("*",)
    protocol: int = 1
    scenarios_run: int = 0
    scenarios_passed: int = 0
    examples_run: int = 0  # differential games played (each compared from its start)
    games_planned: int = 0
    games_capped: int = 0  # games that reached the step cap before their end (reported)
    games_finished: int = 0  # games played to the rules' end
    games_stalled: int = 0  # games that reached a state from which the rules can never end them
    games_without_ranking: int = 0  # finished games whose tie-break counts the implementation did not report
    steps_compared: int = 0
    setups_compared: int = 0  # distinct set-ups compared through their first steps before the games
    sweep_cut: str = ""  # why the set-up sweep stopped before its size (the safety cap); "" when it did not
    seconds: float = 0.0
    differential_seconds: float = 0.0
    seed: int = 0
    findings: list[Finding] = attrs.Factory(list)
    skipped: list[str] = attrs.Factory(list)
    # Why the run stopped before its plan: "time" (the safety cap), "interrupted", "fault" (the
    # implementation could not be restarted), or None when it ran everything it planned.
    stopped: str | None = None
    stopped_detail: str = ""
    rules_exercised: set[str] = attrs.Factory(set)
    rules_total: frozenset[str] = frozenset()  # the game's rule IDs
    first_finding_at: float | None = None  # seconds from the start until the first finding was known
    first_difference_at: float | None = None  # seconds until a differential game first differed (before shrinking)
    started: float = attrs.field(factory=time.monotonic)
    # The run's units of work (rulecraft.shard): those it planned, and those it ran to their end.
    units_planned: list[str] = attrs.Factory(list)
    units_run: list[str] = attrs.Factory(list)
    lanes: int = 1  # independent differential searches the games were split into
    shards: str = ""  # a merged report: which shards it was merged from
    # Differences kept in the example database (rulecraft.conformance.kept): replayed before the search
    replayed: int = 0  # saved differences replayed (earlier runs' and other workers')
    replayed_found: int = 0  # of which still found (their findings' titles say so)
    kept_notes: list[str] = attrs.Factory(list)  # one line each: the replays, malformed entries skipped

    def absorb(self, other: ConformReport) -> None:
        """Add another part of the same campaign (a lane of it, a shard's report): its counts, rules,
        findings and units; its stop when this report has none.  Times are left to the caller."""
        for name in COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.differential_seconds += other.differential_seconds
        self.rules_exercised |= other.rules_exercised
        self.skipped += other.skipped
        self.findings += other.findings
        self.units_planned += other.units_planned
        self.units_run += other.units_run
        for attr in ("first_finding_at", "first_difference_at"):
            times = [t for t in (getattr(self, attr), getattr(other, attr)) if t is not None]
            setattr(self, attr, min(times) if times else None)
        self.sweep_cut = self.sweep_cut or other.sweep_cut
        if self.stopped is None and other.stopped is not None:
            self.stopped, self.stopped_detail = other.stopped, other.stopped_detail

    def add(self, finding: Finding) -> None:
        if self.first_finding_at is None:
            self.first_finding_at = time.monotonic() - self.started
        self.findings.append(finding)

    @property
    def tested(self) -> bool:
        """Something was compared: a printed example or a differential game."""
        return self.scenarios_run > 0 or self.examples_run > 0

    @property
    def status(self) -> str:
        """``findings``, ``not-tested`` (nothing compared), ``incomplete`` (no finding, but the run
        stopped before its plan) or ``conformant``."""
        if self.findings:
            return "findings"
        if not self.tested:
            return "not-tested"
        if self.stopped is not None:
            return "incomplete"
        return "conformant"

    @property
    def conformant(self) -> bool:
        return self.status == "conformant"

    @property
    def verdict(self) -> str:
        """The verdict in words."""
        status = self.status
        if status == "findings":
            return f"{len(self.findings)} finding(s)"
        if status == "not-tested":
            why = f" ({self.stopped_detail})" if self.stopped_detail else ""
            return f"NOT TESTED: nothing was compared{why}"
        if status == "incomplete":
            return (
                f"no finding, but INCOMPLETE: {self.examples_run} of {self.games_planned} differential games "
                f"compared before the run stopped ({self.stopped}: {self.stopped_detail})"
            )
        return "conformant"

    def coverage(self) -> tuple[int, int]:
        """(rule IDs exercised by compared steps, rule IDs of the game)."""
        return len(self.rules_exercised & self.rules_total), len(self.rules_total)
