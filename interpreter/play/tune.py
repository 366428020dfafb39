"""`snowrules tune`: a search over constants for the values that minimise (or maximise) an
objective written in the figures' names, e.g. `abs(first player edge) + abs(mean turns - 18) / 10`.

The search is Optuna's (the `tune` extra): every point of the space when it has at most as many
points as trials (its brute-force sampler), else its TPE sampler, seeded. Each trial plays
`games` games on the same seeds (common random numbers: candidates differ by their constants,
not by luck). A trial's objective is still noisy, and the best of many noisy values is too good
(the winner's curse); so the best candidates are played again on fresh seeds (master seed + 1),
their objective given with a 95% bootstrap interval over those games, and the winner is the best
of the re-run, not of the search.
"""
from __future__ import annotations

import ast
import math
import random
import re
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from snowrules.data.extras import installed
from snowrules.load.overrides import Axis
from snowrules.play.batch import GameSpec
from snowrules.play.sweep import Figure, FigureDef, at_point, figure_defs, measure, play_point
from snowrules.records.game_table import GameRecord

BOOTSTRAP = 400      # resamples of a re-run's games for the objective's interval
MOST_TRIALS = 10_000
FUNCTIONS = {"abs": abs, "min": min, "max": max, "sqrt": math.sqrt}
_OPERATORS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
              ast.Div: lambda a, b: a / b if b else math.nan, ast.Pow: lambda a, b: a ** b}


class ObjectiveError(Exception):
    """An objective that cannot be read (the command line makes it a usage error)."""


class TuneUnavailable(Exception):
    """Optuna is not installed."""


def check_tune_available() -> None:
    if not installed("optuna"):
        raise TuneUnavailable("tune needs optuna: pip install 'snowrules[tune]'")


@dataclass(frozen=True)
class Objective:
    text: str
    names: tuple[str, ...]                        # the figures it reads
    evaluate: Callable[[dict[str, float]], float]  # figure name -> value; nan where undefined


def objective(text: str, known: Sequence[str]) -> Objective:
    """Read an objective: numbers, the figures' names (words joined by spaces, `_` or `-`),
    + - * / **, parentheses and abs, min, max, sqrt."""
    source = text
    for name in sorted(known, key=len, reverse=True):  # `first player edge` -> first_player_edge
        words = r"[ _-]+".join(map(re.escape, name.split("_")))
        source = re.sub(rf"(?<![\w]){words}(?![\w])", name, source)
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError:
        raise ObjectiveError(f"{text!r} is not an expression (numbers, figures, + - * / **, abs, min, max, "
                             "sqrt)") from None
    used: list[str] = []

    def build(node) -> Callable[[dict], float]:
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            value = float(node.value)
            return lambda f: value
        if isinstance(node, ast.Name):
            if node.id not in known:
                raise ObjectiveError(f"no figure {node.id!r} (in {text!r}); figures: {', '.join(known)}")
            used.append(node.id)
            return lambda f, name=node.id: f[name]
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            op, left, right = _OPERATORS[type(node.op)], build(node.left), build(node.right)
            return lambda f: op(left(f), right(f))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            inner, sign = build(node.operand), -1.0 if isinstance(node.op, ast.USub) else 1.0
            return lambda f: sign * inner(f)
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS
                and not node.keywords and node.args):
            function, args = FUNCTIONS[node.func.id], [build(a) for a in node.args]
            if node.func.id in ("abs", "sqrt") and len(args) != 1:
                raise ObjectiveError(f"{node.func.id} takes one value (in {text!r})")
            return lambda f: _safe(function, [a(f) for a in args])
        shown = ast.get_source_segment(source, node) or type(node).__name__
        raise ObjectiveError(f"{shown!r} cannot be used in an objective (in {text!r}): numbers, figures, "
                             "+ - * / **, abs, min, max, sqrt")

    evaluate = build(tree.body)
    if not used:
        raise ObjectiveError(f"{text!r} reads no figure; figures: {', '.join(known)}")
    return Objective(text, tuple(dict.fromkeys(used)), evaluate)


def _safe(function, values: list[float]) -> float:
    if any(math.isnan(v) for v in values):
        return math.nan
    try:
        return float(function(*values))
    except (ValueError, OverflowError):
        return math.nan


def value_of(goal: Objective, figures: dict[str, Figure]) -> float:
    try:
        return float(goal.evaluate({name: figures[name].value for name in goal.names}))
    except (OverflowError, ZeroDivisionError):
        return math.nan


def bootstrap(goal: Objective, records: Sequence[GameRecord], defs: Sequence[FigureDef],
              resamples: int = BOOTSTRAP) -> tuple[float, float]:
    """The 95% percentile interval of the objective over resamples of the games (fixed seed)."""
    wanted = [d for d in defs if d.name in goal.names]
    columns = {d.name: [d.per_game(r) for r in records] for d in wanted}
    rng, n, found = random.Random(0), len(records), []
    for _ in range(resamples):
        picks = [rng.randrange(n) for _ in range(n)]
        figures = {}
        for d in wanted:
            kept = [v for v in (columns[d.name][i] for i in picks) if v is not None]
            value = math.fsum(kept) / len(kept) + d.shift if kept else math.nan
            figures[d.name] = Figure(value, value, value, len(kept))
        result = value_of(goal, figures)
        if not math.isnan(result):
            found.append(result)
    if not found:
        return math.nan, math.nan
    found.sort()
    return found[int(0.025 * (len(found) - 1))], found[int(math.ceil(0.975 * (len(found) - 1)))]


@dataclass(frozen=True)
class Candidate:
    values: tuple                  # one value per axis
    objective: float               # on the search's games
    figures: dict[str, Figure]     # on the search's games
    recheck: float | None = None   # the objective on fresh seeds
    low: float | None = None       # its 95% bootstrap interval
    high: float | None = None
    recheck_figures: dict[str, Figure] | None = None


@dataclass
class Tuning:
    axes: list[Axis]
    spec: GameSpec
    goal: Objective
    maximize: bool
    games: int
    seed: int
    trials: int                    # trials asked for
    sampler: str
    candidates: list[Candidate]    # every distinct candidate tried, in the order first tried
    rechecked: list[Candidate]     # the best ones played again, best first
    interrupted: bool

    @property
    def winner(self) -> Candidate | None:
        return self.rechecked[0] if self.rechecked else None


def space_size(axes: Sequence[Axis]) -> int:
    return math.prod(len(a.values) for a in axes)


def tune(spec: GameSpec, axes: Sequence[Axis], goal: Objective, games: int, seed: int, trials: int,
         recheck: int, maximize: bool = False, workers: int = 1, cluster: str | None = None,
         progress: bool = False, started: Callable[[str, tuple], None] | None = None) -> Tuning:
    """Search, then play the `recheck` best candidates again on fresh seeds (see the module)."""
    import optuna
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    defs = figure_defs(spec.players, spec.track_components)
    whole = space_size(axes) <= trials
    with warnings.catch_warnings():  # "BruteForceSampler is experimental": stable since Optuna 3.1
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        sampler = optuna.samplers.BruteForceSampler(seed=seed) if whole else optuna.samplers.TPESampler(seed=seed)
    study = optuna.create_study(direction="maximize" if maximize else "minimize", sampler=sampler)
    tried: dict[tuple, Candidate] = {}
    interrupted = False

    def trial_value(trial) -> float:
        nonlocal interrupted
        values = tuple(trial.suggest_int(a.name, a.low, a.high, step=a.step) if a.is_range
                       else trial.suggest_categorical(a.name, list(a.values)) for a in axes)
        if values not in tried:
            if started is not None:
                started("trial", values)
            run = play_point(at_point(spec, axes, values), games, seed, workers, cluster, progress)
            if run.interrupted or not run.records:
                interrupted = True
                trial.study.stop()
                return math.nan
            figures = measure(run.records, defs)
            tried[values] = Candidate(values, value_of(goal, figures), figures)
        return tried[values].objective

    study.optimize(trial_value, n_trials=min(trials, space_size(axes)) if whole else trials,
                   catch=(), gc_after_trial=False)
    sign = -1.0 if maximize else 1.0
    ranked = sorted((c for c in tried.values() if not math.isnan(c.objective)), key=lambda c: sign * c.objective)
    rechecked = []
    for candidate in ranked[:recheck] if not interrupted else []:
        if started is not None:
            started("recheck", candidate.values)
        run = play_point(at_point(spec, axes, candidate.values), games, seed + 1, workers, cluster, progress)
        if run.interrupted or not run.records:
            interrupted = True
            break
        figures = measure(run.records, defs)
        low, high = bootstrap(goal, run.records, defs)
        rechecked.append(Candidate(candidate.values, candidate.objective, candidate.figures,
                                   value_of(goal, figures), low, high, figures))
    rechecked.sort(key=lambda c: math.inf if math.isnan(c.recheck) else sign * c.recheck)
    return Tuning(list(axes), spec, goal, maximize, games, seed, trials,
                  "every point" if whole else "TPE", list(tried.values()), rechecked, interrupted)
