"""What `simulate` and `compare` print: the terminal's tables and the versioned JSON objects.

The JSON objects are a contract (schemas/simulate.schema.json, schemas/compare.schema.json):
players are numbered from 1 there as in the tables; a new field may appear in the same version,
a changed or removed one raises the version.
"""
from __future__ import annotations

import math
from dataclasses import asdict

from snowrules.play.comparison import Comparison, Difference, p_text
from snowrules.play.metrics import metric_rows
from snowrules.play.simulate import SimulationRun
from snowrules.play.statistics import Distribution, MetricFigures, Rate, Summary

# Each object names its contract and version in one field, as run, list and the log do.
SIMULATE_FORMAT = "snowrules-simulate/1"
COMPARE_FORMAT = "snowrules-compare/1"
PLAYED_MEANS = ("played: moved by a rule out of the player's hand into a zone everybody sees, "
                "or into a face-down zone of theirs")


def _number(value: float | None) -> float | None:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    return round(value, 6)


def _rate(rate: Rate | None) -> dict | None:
    if rate is None:
        return None
    return {"value": _number(rate.value), "low": _number(rate.low), "high": _number(rate.high),
            "count": _number(rate.count), "total": rate.total}


def _distribution(d: Distribution) -> dict:
    return {k: _number(v) for k, v in asdict(d).items()}


def summary_json(summary: Summary) -> dict:
    """The figures of a summary as plain data."""
    return {
        "games": summary.games,
        "per_player": [{"player": f.player + 1, "win_rate": _rate(f.win_rate), "score": _distribution(f.score)}
                       for f in summary.per_player],
        "length": _distribution(summary.length),
        "shared_wins": _rate(summary.shared_wins),
        "components": [{"name": c.name, "games_played": _rate(c.games_played),
                        "plays_per_game": _number(c.plays_per_game),
                        "win_rate_when_played": _rate(c.win_rate_when_played)} for c in summary.components],
        "never_played": summary.never_played,
        "metrics": metrics_json(summary.metrics) if summary.metrics is not None else None,
    }


def metrics_json(m: MetricFigures) -> dict:
    """The game metrics (docs/metrics.md); the event-measured ones are null with --no-components."""
    def shape(d: Distribution | None) -> dict | None:
        return None if d is None else _distribution(d)
    edge = m.first_player_edge
    return {"decisions": shape(m.decisions),
            "decisions_per_player": None if m.decisions_per_player is None else
            [_number(v) for v in m.decisions_per_player],
            "options": shape(m.options),
            "options_counts": None if m.options_counts is None else [list(pair) for pair in m.options_counts],
            "lead_changes": shape(m.lead_changes), "winner_known": shape(m.winner_known),
            "winner_known_games": m.winner_known_games, "margin": shape(m.margin),
            "first_player_edge": None if edge is None else
            {"value": _number(edge[0]), "low": _number(edge[1]), "high": _number(edge[2])}}


def side_json(run: SimulationRun, ruleset_name: str, options: dict) -> dict:
    spec = run.spec
    return {"ruleset": ruleset_name, "variant": spec.variant, "options": options, "players": spec.players,
            "agents": list(spec.agents), "seed": run.master_seed, "requested": run.requested,
            "interrupted": run.interrupted, "where": run.where, "seconds": round(run.seconds, 3),
            "games_per_s": round(run.games_per_s, 1), "components_tracked": spec.track_components}


def simulate_json(run: SimulationRun, summary: Summary, ruleset_name: str, options: dict,
                  player_names: list[str]) -> dict:
    result = {"format": SIMULATE_FORMAT, **side_json(run, ruleset_name, options),
              **summary_json(summary)}
    # The first version's three figures, kept under their names for scripts that read them.
    result["win_rates"] = [round(f.win_rate.value, 4) for f in summary.per_player]
    result["score_means"] = [round(f.score.mean, 3) for f in summary.per_player]
    result["mean_turns"] = round(summary.length.mean, 3)
    result["player_names"] = player_names
    if all(f.returns is not None for f in summary.per_player):
        result["return_means"] = [round(f.returns.mean, 4) for f in summary.per_player]
    return result


def _difference(d: Difference) -> dict:
    return {"section": d.section, "figure": d.figure, "base": _number(d.base), "other": _number(d.other),
            "difference": _number(d.difference), "low": _number(d.low), "high": _number(d.high),
            "p_value": _number(d.p_value), "adjusted_p": _number(d.adjusted_p), "test": d.test,
            "significant": d.significant}


def compare_json(comparison: Comparison, base: dict, other: dict) -> dict:
    return {"format": COMPARE_FORMAT, "games": comparison.games,
            "paired": comparison.paired,
            "base": {**base, **summary_json(comparison.base)}, "other": {**other, **summary_json(comparison.other)},
            "figures": [_difference(d) for d in comparison.figures]}


def _percent(rate: Rate) -> tuple[str, str]:
    return f"{rate.value:.1%}", f"{100 * rate.low:.1f}-{100 * rate.high:.1f}%"


def _g(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".") if not math.isnan(value) else "-"


def _console():
    """The terminal's width on a terminal; wide enough for the tables in a file or a pipe."""
    from rich.console import Console
    console = Console()
    return console if console.is_terminal else Console(width=140)


def print_summary(title: str, run: SimulationRun, summary: Summary, replay_command: str,
                  player_names: list[str]) -> None:
    from rich.table import Table
    console = _console()
    stopped = f" (interrupted: {summary.games} of {run.requested})" if run.interrupted else ""
    table = Table(title=f"{title}: {summary.games} games{stopped} in {run.seconds:.1f} s, "
                        f"{run.games_per_s:.0f} games/s on {run.where}")
    returns = all(f.returns is not None for f in summary.per_player)  # declared returns replace scores
    mean = "mean return" if returns else "mean score"
    for name in ("player", "win rate", "95% interval", mean, "sd", "min", "10%", "median", "90%", "max"):
        table.add_column(name, justify="left" if name == "player" else "right")
    for f in summary.per_player:
        s = f.returns if returns else f.score
        table.add_row(player_names[f.player], *_percent(f.win_rate), _g(s.mean), _g(s.sd), _g(s.minimum), _g(s.q10),
                      _g(s.median), _g(s.q90), _g(s.maximum))
    console.print(table)
    n = summary.length
    console.print(f"game length: mean {_g(n.mean)} turns (sd {_g(n.sd)}), median {_g(n.median)}, "
                  f"10%-90% {_g(n.q10)}-{_g(n.q90)}, range {_g(n.minimum)}-{_g(n.maximum)}")
    shared, interval = _percent(summary.shared_wins)
    console.print(f"shared wins: {shared} of the games ({interval})")
    if summary.metrics is not None:
        for name, value in metric_rows(summary.metrics):
            console.print(f"{name}: {value}", highlight=False)
    if summary.components:
        parts = Table(title=f"components ({PLAYED_MEANS})")
        for name in ("component", "in games", "plays per game", "win rate when played", "95% interval"):
            parts.add_column(name, justify="left" if name == "component" else "right")
        for c in summary.components:
            won = _percent(c.win_rate_when_played) if c.win_rate_when_played else ("-", "-")
            parts.add_row(c.name, f"{c.games_played.value:.1%}", f"{c.plays_per_game:.2f}", *won)
        console.print(parts)
        never = ", ".join(summary.never_played) if summary.never_played else "none"
        console.print(f"held but never played: {never}")
    if run.records:
        console.print(f"replay a game: {replay_command} --seed {run.records[0].seed}   "
                      f"(game 0; every game's seed is in --out)", highlight=False)


def print_comparison(title: str, comparison: Comparison, base_label: str, other_label: str,
                     runs: tuple[SimulationRun, SimulationRun]) -> None:
    from rich.table import Table
    console = _console()
    pairing = "paired: the same seeds game by game" if comparison.paired else \
        "unpaired (different player counts): independent samples"
    table = Table(title=f"{title}: A = {base_label}, B = {other_label}; {comparison.games} games each, {pairing}")
    for name in ("figure", "A", "B", "B - A", "95% interval", "p", "adjusted p", ""):
        table.add_column(name, justify="left" if name in ("figure", "") else "right", no_wrap=True)
    section = None
    for d in comparison.figures:
        if d.section != section:
            section = d.section
            table.add_section()
        interval = "-" if d.low is None or math.isnan(d.low) else f"{d.low:+.3f}..{d.high:+.3f}"
        p, q = p_text(d.p_value), p_text(d.adjusted_p)
        table.add_row(d.figure, f"{d.base:.3f}", f"{d.other:.3f}", f"{d.difference:+.3f}", interval, p, q,
                      "*" if d.significant else "")
    console.print(table)
    for name, run in zip("AB", runs):
        stopped = f" (interrupted: {len(run.records)} of {run.requested})" if run.interrupted else ""
        console.print(f"{name}: {len(run.records)} games{stopped} in {run.seconds:.1f} s, {run.games_per_s:.0f} "
                      f"games/s on {run.where}, master seed {run.master_seed}", highlight=False)
    marked = sum(d.significant for d in comparison.figures)
    console.print(f"* = significant: adjusted p < 0.05 (Benjamini-Hochberg over {len(comparison.figures)} "
                  f"figures); {marked} marked. Rates are fractions (0.25 = 25%).", highlight=False)
