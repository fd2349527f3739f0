"""Mutation-score ratchet: a module's recorded score may rise, never drop unnoticed.

    python bench/mutation/ratchet.py [--changed-since REF] [--results FILE ...] [--accept] [--record]

Compares fresh results (``bench/mutation/results/*.json``, written by ``run.py``) with the scores
recorded in ``bench/mutation/scores.json``, for every module in the results (only those changed
since REF with ``--changed-since``).  One line per module; exit 1 if a score dropped, if a result is
stale (the module changed after its run) or if a module changed since REF has a recorded score but
no result.  A drop is accepted with ``--accept`` or when a commit message (HEAD, or every commit in
REF..HEAD) contains ``[mutation-accept]``.  ``--record`` writes the checked modules' scores (and their
sources' SHA-256) into scores.json (the other modules keep theirs); it refuses a drop that is not
accepted.  ``--stale`` (CI, seconds, no results needed) fails when a recorded score no longer matches
its module's source.  ``--module M`` narrows the check to those modules.
Exit 2: a malformed file or a bad argument, as one line ``FILE: FIELD: reason``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import re
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path, PurePosixPath
from typing import Any

import attrs

from rulecraft.core import RulecraftError
from rulecraft.files import write_atomically

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
SCORES = HERE / "scores.json"
RESULTS = HERE / "results"
ACCEPT_TOKEN = "[mutation-accept]"
MAX_FILE_BYTES = 20 * 1024 * 1024  # a results file of every module of a game is well under 1 MB
GIT_TIMEOUT_S = 60
MODULE_PATH = re.compile(r"^(?:model|invariants|solvers|rulecraft)/[A-Za-z0-9_/]+\.py$")


class MutationDataError(RulecraftError):
    """A results or scores file, or an argument, that cannot be used: ``FILE: FIELD: reason``."""

    def __init__(self, file: str, field: str, reason: str) -> None:
        super().__init__(f"{file}: {field}: {reason}")
        self.file = file
        self.field = field
        self.reason = reason


@attrs.frozen
class ModuleScore:
    """One module's mutation score: killed (timeouts included) out of every mutant made."""

    module: str
    score: float
    killed: int
    total: int
    source_sha256: str = ""
    origin: str = ""  # the file it was read from, for messages


@attrs.frozen
class Verdict:
    """The ratchet's word on one module; ``kind`` is ok, new, drop, stale or missing."""

    module: str
    kind: str
    line: str

    @property
    def failed(self) -> bool:
        return self.kind in {"drop", "stale", "missing"}


def percent(killed: int, total: int) -> float:
    """Score in percent, two decimals; a module with no mutant scores 100 (nothing can survive)."""
    return 100.0 if total == 0 else round(100.0 * killed / total, 2)


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_json(path: Path) -> Any:
    """A JSON file, bounded in size; any failure is one MutationDataError line."""
    name = str(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise MutationDataError(name, "file", f"cannot be read ({exc.strerror or exc})") from None
    if size > MAX_FILE_BYTES:
        raise MutationDataError(name, "file", f"{size} bytes, over the {MAX_FILE_BYTES} allowed")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise MutationDataError(name, "file", f"not JSON ({exc})") from None


def _module_key(file: str, key: object) -> str:
    # Keys are hashed and later read from disk: only plain repository paths of Python modules.
    if not isinstance(key, str) or not MODULE_PATH.match(key) or ".." in PurePosixPath(key).parts:
        raise MutationDataError(file, f"modules.{key}", "not a module path such as model/aeroplanes/rules.py")
    return key


def _count(file: str, field: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise MutationDataError(file, field, f"{value!r} is not a count (an integer >= 0)")
    return value


def _score(file: str, field: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise MutationDataError(file, field, f"{value!r} is not a number")
    if not 0 <= value <= 100:
        raise MutationDataError(file, field, f"{value} is not a percentage (0 to 100)")
    return float(value)


def _entry(file: str, module: str, raw: object, *, need_hash: bool) -> ModuleScore:
    where = f"modules.{module}"
    if not isinstance(raw, Mapping):
        raise MutationDataError(file, where, "not an object")
    killed = _count(file, f"{where}.killed", raw.get("killed"))
    total = _count(file, f"{where}.total", raw.get("total"))
    if killed > total:
        raise MutationDataError(file, f"{where}.killed", f"{killed} killed out of {total} mutants")
    score = _score(file, f"{where}.score", raw.get("score"))
    unrun = raw.get("not_checked", 0)
    if need_hash and unrun:  # a stopped run (or a --from-tree read of one): its score is not the module's
        raise MutationDataError(file, f"{where}.not_checked", f"{unrun} mutants were never run: an unfinished run")
    digest = raw.get("source_sha256", "")
    if need_hash and not (isinstance(digest, str) and re.fullmatch(r"[0-9a-f]{64}", digest)):
        raise MutationDataError(file, f"{where}.source_sha256", "not a SHA-256 hex digest")
    return ModuleScore(module, score, killed, total, digest if isinstance(digest, str) else "", file)


def parse_modules(path: Path, *, need_hash: bool) -> dict[str, ModuleScore]:
    """The ``modules`` object of a results file (``need_hash``) or of scores.json."""
    data = read_json(path)
    file = str(path)
    modules = data.get("modules") if isinstance(data, dict) else None
    if not isinstance(modules, dict):
        raise MutationDataError(file, "modules", "missing, or not an object of module path -> score")
    return {
        key: _entry(file, key, raw, need_hash=need_hash)
        for key, raw in ((_module_key(file, k), v) for k, v in modules.items())
    }


def load_results(paths: Iterable[Path]) -> dict[str, ModuleScore]:
    """Every module of the results files; a module in two files is an error (which one is fresh?)."""
    merged: dict[str, ModuleScore] = {}
    for path in paths:
        for module, entry in parse_modules(path, need_hash=True).items():
            if module in merged:
                raise MutationDataError(str(path), f"modules.{module}", f"also in {merged[module].origin}")
            merged[module] = entry
    return merged


def load_scores(path: Path) -> dict[str, ModuleScore]:
    """The recorded scores; no file yet means nothing recorded."""
    return parse_modules(path, need_hash=False) if path.exists() else {}


def _git(root: Path, *args: str) -> str:
    try:
        done = subprocess.run(
            ["git", *args], cwd=root, capture_output=True, text=True, timeout=GIT_TIMEOUT_S, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise MutationDataError("git", " ".join(args), f"did not run ({exc})") from None
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        raise MutationDataError("git", " ".join(args), lines[-1] if lines else f"exit status {done.returncode}")
    return done.stdout


def changed_files(root: Path, ref: str) -> set[str]:
    """Files changed since ``ref``: committed, staged or not, and new untracked ones."""
    if ref.startswith("-"):
        raise MutationDataError("--changed-since", ref, "a git ref, not an option")
    changed = _git(root, "diff", "--name-only", ref, "--").splitlines()
    untracked = _git(root, "ls-files", "--others", "--exclude-standard").splitlines()
    return {name for name in (*changed, *untracked) if name}


def commit_messages(root: Path, ref: str | None) -> str:
    """HEAD's message, or every message in REF..HEAD."""
    span = ["log", "--format=%B", f"{ref}..HEAD"] if ref else ["log", "-1", "--format=%B"]
    return _git(root, *span)


def accepted(message: str) -> bool:
    return ACCEPT_TOKEN in message


def _fmt(entry: ModuleScore) -> str:
    return f"{entry.score:.2f}% ({entry.killed}/{entry.total} killed)"


def judge(
    results: Mapping[str, ModuleScore],
    scores: Mapping[str, ModuleScore],
    touched: set[str] | None,
    current_hash: Callable[[str], str | None],
) -> list[Verdict]:
    """One verdict per module checked: those in the results (within ``touched`` when given), and
    touched modules with a recorded score but no result."""
    verdicts: list[Verdict] = []
    for module in sorted(m for m in results if touched is None or m in touched):
        verdicts.append(_judge_one(results[module], scores.get(module), current_hash(module)))
    for module in sorted((touched or set()) & scores.keys() - results.keys()):
        line = f"{module}: MISSING: changed, with a recorded score, but in no results file (run bench/mutation/run.py)"
        verdicts.append(Verdict(module, "missing", line))
    return verdicts


def _judge_one(new: ModuleScore, old: ModuleScore | None, digest: str | None) -> Verdict:
    module = new.module
    if digest != new.source_sha256:
        why = "deleted" if digest is None else "changed"
        line = f"{module}: STALE: the module was {why} after the run in {new.origin}; run bench/mutation/run.py again"
        return Verdict(module, "stale", line)
    if old is None:
        return Verdict(module, "new", f"{module}: NEW: {_fmt(new)}, no recorded score (--record keeps it)")
    if new.score < old.score:
        line = f"{module}: DROP: mutation score {_fmt(new)}, recorded {_fmt(old)}"
        return Verdict(module, "drop", line)
    return Verdict(module, "ok", f"{module}: ok: {_fmt(new)}, recorded {_fmt(old)}")


def recorded(scores: Mapping[str, ModuleScore], fresh: Iterable[ModuleScore]) -> dict[str, Any]:
    """scores.json's content with the fresh scores written over the recorded ones."""
    merged = dict(scores)
    merged.update({entry.module: entry for entry in fresh})
    return {
        "tool": "mutmut",
        "modules": {m: _recorded_entry(e) for m, e in sorted(merged.items())},
    }


def _recorded_entry(entry: ModuleScore) -> dict[str, Any]:
    """A module's recorded score, with the SHA-256 of the source it was measured on (``--stale``)."""
    out: dict[str, Any] = {"score": entry.score, "killed": entry.killed, "total": entry.total}
    if entry.source_sha256:
        out["source_sha256"] = entry.source_sha256
    return out


def stale_records(scores: Mapping[str, ModuleScore], current_hash: Callable[[str], str | None]) -> list[Verdict]:
    """Recorded scores that no longer describe their module: it changed (or was deleted) after the
    score was measured, or the score was recorded without the source's hash.  CI runs this (seconds):
    a change to a mutated module cannot land without its score measured again, and ``--record``
    refuses a lower one unless it is accepted."""
    out: list[Verdict] = []
    for module, entry in sorted(scores.items()):
        digest = current_hash(module)
        if not entry.source_sha256:
            why = "recorded without the source's SHA-256"
        elif digest is None:
            why = "the module no longer exists"
        elif digest != entry.source_sha256:
            why = "the module changed after its score was recorded"
        else:
            continue
        game = _game_of(module)
        how = (
            f"tox -e mutation -- {game} {module} --check, then ratchet.py --record" if game else "run.py, then --record"
        )
        out.append(Verdict(module, "stale", f"{module}: STALE SCORE: {why}; run {how}"))
    return out


def _game_of(module: str) -> str | None:
    """The game id whose package holds ``module`` (games.toml), for the message."""
    import tomllib

    try:
        games = tomllib.loads((HERE / "games.toml").read_text("utf-8"))
    except (OSError, ValueError):
        return None

    def mutated(spec: Any) -> list[str]:
        return [*spec.get("modules", []), *spec.get("solvers", {}).get("modules", [])]

    return next((g for g, spec in games.items() if module in mutated(spec)), None)


def write_json(path: Path, data: Any) -> None:
    """Written beside and renamed over, so an interrupted write leaves the old file whole."""
    write_atomically(path, json.dumps(data, indent=2, sort_keys=True) + "\n")


def _hasher(root: Path) -> Callable[[str], str | None]:
    def current(module: str) -> str | None:
        path = root / module
        return sha256_of(path) if path.is_file() else None

    return current


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--changed-since", metavar="REF", help="check only the modules changed since this git ref")
    parser.add_argument("--results", type=Path, action="append", help="results file (default: results/*.json)")
    parser.add_argument("--scores", type=Path, default=SCORES, help="recorded scores (default: %(default)s)")
    parser.add_argument("--root", type=Path, default=ROOT, help="repository root (default: %(default)s)")
    parser.add_argument("--accept", action="store_true", help="accept a drop (as [mutation-accept] in a commit does)")
    parser.add_argument("--message", help="commit message to read instead of git's (for tests)")
    parser.add_argument("--record", action="store_true", help="write the checked modules' scores into --scores")
    parser.add_argument("--module", action="append", help="check only these modules (repeatable; run.py --check)")
    parser.add_argument(
        "--stale",
        action="store_true",
        help="CI: fail when a recorded score no longer matches its module's source (needs no results)",
    )
    return parser


def run(args: argparse.Namespace) -> int:
    root: Path = args.root
    if args.stale:
        if not args.scores.exists():  # nothing recorded is nothing checked, not "all up to date"
            raise MutationDataError(str(args.scores), "file", "no such scores file: nothing to check")
        stale = stale_records(load_scores(args.scores), _hasher(root))
        for verdict in stale:
            print(verdict.line)
        print(
            f"{len(stale)} recorded score(s) out of date"
            if stale
            else "every recorded score is for its module as it is"
        )
        return 1 if stale else 0
    paths = args.results if args.results else sorted(RESULTS.glob("*.json"))
    results = load_results(paths)
    scores = load_scores(args.scores)
    touched = changed_files(root, args.changed_since) if args.changed_since else None
    if args.module:
        touched = set(args.module) if touched is None else touched & set(args.module)
    verdicts = judge(results, scores, touched, _hasher(root))
    for verdict in verdicts:
        print(verdict.line)
    if not verdicts:
        print("no module to check" + (f" changed since {args.changed_since}" if touched is not None else ""))
    procedural = [v for v in verdicts if v.kind in {"stale", "missing"}]
    if args.record:
        if procedural:
            print(f"not recorded: {len(procedural)} module(s) without a fresh result")
            return 1
        drops = [v for v in verdicts if v.kind == "drop"]
        message = args.message if args.message is not None else commit_messages(root, args.changed_since)
        if drops and not (args.accept or accepted(message)):
            print(f"not recorded: {len(drops)} score(s) dropped; add tests, or --accept / {ACCEPT_TOKEN}")
            return 1
        write_json(args.scores, recorded(scores, (results[v.module] for v in verdicts)))
        print(f"recorded {len(verdicts)} module(s) in {args.scores}")
        return 0
    return _exit_code(args, root, verdicts, procedural)


def _exit_code(args: argparse.Namespace, root: Path, verdicts: list[Verdict], procedural: list[Verdict]) -> int:
    drops = [v for v in verdicts if v.kind == "drop"]
    if procedural:
        return 1
    if not drops:
        return 0
    message = args.message if args.message is not None else commit_messages(root, args.changed_since)
    if args.accept or accepted(message):
        print(f"accepted: {len(drops)} drop(s) ({'--accept' if args.accept else ACCEPT_TOKEN})")
        return 0
    print(f"{len(drops)} mutation score(s) dropped: add tests, or {ACCEPT_TOKEN} in the commit message")
    return 1


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return run(args)
    except MutationDataError as exc:
        print(exc, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
