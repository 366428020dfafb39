"""`snowrules sweep`: its arguments' checks, its table in the terminal and its JSON object; the
checks `tune` shares (cli/tune.py).

The JSON object is a contract (schemas/sweep.schema.json, docs/sweep.md): a new field may appear in
the same version, a changed or removed one raises the version. A figure no game defines (the
winning margin when every game is shared) is null, as are the ends of an interval of one game.
"""
from __future__ import annotations

import json
import math
import sys
from contextlib import contextmanager
from dataclasses import dataclass

from snowrules.cli.usage import UsageError
from snowrules.language.diagnostics import SnowrulesError
from snowrules.load.overrides import Axis, OverrideError, axis
from snowrules.play.batch import GameSpec
from snowrules.play.sweep import Figure, Sweep

SWEEP_FORMAT = "snowrules-sweep/1"
SHOWN = ("first_player_edge", "mean_turns", "winning_margin", "lead_changes", "shared_wins")  # by default


@dataclass
class Checked:
    ruleset: object
    spec: GameSpec     # the base game, before the axes' constants
    axes: list[Axis]


def checked(args, texts: list[str], flag: str) -> Checked:
    """The ruleset, the base game and the axes; every usage error raised before any game."""
    from snowrules.cli.commands import _agents, _check_simulation_arguments, _players, _ruleset
    ruleset = _ruleset(args.ruleset, args.variant, args.option)
    players = _players(ruleset, args.players, args.agents)
    _, agent_names = _agents(args.agents, players, 0)
    _check_simulation_arguments(args, agent_names)
    if not texts:
        raise UsageError(f"give at least one {flag} NAME=A..B[:STEP] (or NAME=V1,V2,...)")
    axes: list[Axis] = []
    given = {text.partition("=")[0].strip() for text in args.option}
    for text in texts:
        try:
            found = axis(ruleset, text, flag)
        except OverrideError as error:
            raise UsageError(str(error)) from None
        if any(a.name == found.name for a in axes):
            raise UsageError(f"{flag} {found.name} is given twice")
        if found.name in given:
            raise UsageError(f"{flag} {found.name}: the option is also set by --option; give it once")
        axes.append(found)
    options = tuple(sorted(ruleset.option_values.items()))
    spec = GameSpec(args.ruleset, ruleset.variant, players, tuple(agent_names), options, not args.no_components,
                    getattr(args, "time_limit", None))
    return Checked(ruleset, spec, axes)


def figure_names(texts: list[str], known: list[str]) -> list[str]:
    """The figures of `--figure` (spaces or `_` between words), checked; the default set without."""
    if not texts:
        return [name for name in SHOWN if name in known] or known[:5]
    names = []
    for text in texts:
        name = "_".join(text.replace("-", " ").split())
        if name not in known:
            raise UsageError(f"--figure {text!r}: no such figure; figures: {', '.join(known)}")
        names.append(name)
    return names


def value_text(value) -> str:
    """A constant's value as a designer types it (true/false in lower case)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def point_text(axes: list[Axis], values: tuple) -> str:
    return ", ".join(f"{a.name}={value_text(v)}" for a, v in zip(axes, values))


def _g(value: float) -> str:
    return f"{0.0 if abs(value) < 1e-12 else value:.3g}"  # no 3.47e-18 for a Wilson interval's 0


def cell(f: Figure) -> str:
    if math.isnan(f.value):
        return "-"
    if math.isnan(f.low):
        return _g(f.value)
    return f"{_g(f.value)} ({_g(f.low)}..{_g(f.high)})"


def counted(n: int, what: str) -> str:
    """`1 game`, `2 games`."""
    return f"{n} {what}{'' if n == 1 else 's'}"


def agents_text(agents) -> str:
    return agents[0] if len(set(agents)) == 1 else ",".join(agents)


def _n(value: float) -> float | None:
    return None if value is None or math.isnan(value) else round(value, 6)


def figure_json(f: Figure) -> dict:
    return {"value": _n(f.value), "low": _n(f.low), "high": _n(f.high), "games": f.games}


def sweep_json(result: Sweep, ruleset) -> dict:
    spec = result.spec
    return {"format": SWEEP_FORMAT, "ruleset": ruleset.name, "variant": spec.variant,
            "options": dict(spec.options), "players": spec.players, "agents": list(spec.agents),
            "games": result.games, "seed": result.seed,
            "axes": [{"name": a.name, "values": list(a.values)} for a in result.axes],
            "figures": result.names,
            "points": [{"constants": {a.name: v for a, v in zip(result.axes, p.values)}, "games": p.games,
                        "figures": {name: figure_json(p.figures[name]) for name in result.names}}
                       for p in result.points],
            "seconds": round(result.seconds, 3), "interrupted": result.interrupted}


@contextmanager
def at_point_told(command: str, where: list[str]):
    """A rules problem met at one point (a value the rules cannot work with) says the point first."""
    try:
        yield
    except SnowrulesError:
        if where:
            print(f"snowrules {command}: at {where[0]}:", file=sys.stderr)
        raise


def command_sweep(args) -> int:
    from snowrules.play.sweep import sweep
    found = checked(args, args.constant, "--constant")
    if len(found.axes) > 2:
        raise UsageError("--constant: a sweep varies one or two constants (a line or a heat map per figure); "
                         "tune searches more")
    from snowrules.play.sweep import figure_defs
    known = [d.name for d in figure_defs(found.spec.players, found.spec.track_components)]
    shown = figure_names(args.figure, known)
    watched = not args.json and sys.stderr.isatty()  # a line on stderr before each point, and its progress
    where: list[str] = []

    def started(values: tuple) -> None:
        where[:] = [point_text(found.axes, values)]
        if watched:
            print(f"  playing {where[0]}", file=sys.stderr)
    with at_point_told("sweep", where):
        result = sweep(found.spec, found.axes, args.games, args.seed, args.workers, args.cluster,
                       progress=watched, started=started)
    if not result.points:
        print("interrupted before any point finished", file=sys.stderr)
        return 130
    if args.report is not None:
        from snowrules.play.sweep_report import sweep_report
        page = sweep_report(args.report, found.ruleset.title, result, sweep_json(result, found.ruleset), shown)
        if not args.json:
            print(f"report written to {page}")
    if args.json:
        print(json.dumps(sweep_json(result, found.ruleset)))
    else:
        print_sweep(found.ruleset.title, result, shown)
    return 130 if result.interrupted else 0


def print_sweep(title: str, result: Sweep, shown: list[str]) -> None:
    from rich.console import Console
    from rich.table import Table
    spec = result.spec
    names = ", ".join(a.name for a in result.axes)
    console = Console(width=max(100, 24 * (len(shown) + len(result.axes))))
    console.print(f"{title}: {names} over {counted(len(result.points), 'point')} x {counted(result.games, 'game')}, "
                  f"{counted(spec.players, 'player')}, agents {agents_text(spec.agents)}; master seed {result.seed} "
                  f"(the same seeds at every point){'; interrupted' if result.interrupted else ''}",
                  highlight=False, soft_wrap=True)
    table = Table(title="figure (95% interval) at each point", title_justify="left")
    for a in result.axes:
        table.add_column(a.name, justify="right")
    for name in shown:
        table.add_column(name.replace("_", " "), justify="right")
    for p in result.points:
        table.add_row(*(value_text(v) for v in p.values), *(cell(p.figures[name]) for name in shown))
    console.print(table)
    others = [n for n in result.names if n not in shown]
    if others:
        console.print(f"more figures with --figure NAME, --json or --report: {', '.join(others)}",
                      highlight=False, soft_wrap=True)
