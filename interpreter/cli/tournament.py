"""`snowrules tournament`: its arguments' checks, its table in the terminal and its JSON object.

The JSON object is a contract (docs/tournament.md shows its shape): agents and seats are named as
on the command line, seats numbered from 1 as in the tables; a new field may appear in the same
version, a changed or removed one raises the version.
"""
from __future__ import annotations

import json
import sys

from snowrules.cli.usage import UsageError
from snowrules.play.agents import AgentSpecError, parse_agents
from snowrules.play.statistics import Rate
from snowrules.play.tournament import Tournament

TOURNAMENT_FORMAT = "snowrules-tournament/1"


def _agent_names(text: str) -> list[str]:
    """The agents of --agents, each named as `str(AgentSpec)`; usage errors found before any game."""
    try:
        specs = parse_agents(text)
    except AgentSpecError as error:
        raise UsageError(f"--agents: {error}") from None
    names = [str(spec) for spec in specs]
    if "human" in names:
        raise UsageError(f"--agents {text}: tournament plays its games without people; "
                         "give random, first, greedy or mcts (a person plays with `snowrules run`)")
    twice = next((name for name in names if names.count(name) > 1), None)
    if twice is not None:
        raise UsageError(f"--agents: {twice} is listed twice (each agent is one entrant)")
    if len(names) < 2:
        raise UsageError("--agents: a tournament needs at least two agents, e.g. --agents random,greedy")
    return names


def _checked(args):
    """(ruleset, players, agent names), every usage error raised before any game is played."""
    from snowrules.cli.commands import _players, _ruleset, check_report_argument
    from snowrules.play.tournament import RatingsUnavailable, check_ratings_available
    agents = _agent_names(args.agents)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    ruleset = _ruleset(args.ruleset, args.variant, args.option)
    requested = args.players
    if requested is None:  # one seat per agent, as far as the ruleset allows
        requested = min(max(len(agents), ruleset.min_players), ruleset.max_players)
    players = _players(ruleset, requested)
    if players < 2:
        raise UsageError(f"--players {players}: a tournament needs at least two players at the table")
    try:
        check_ratings_available()
    except RatingsUnavailable as error:
        raise UsageError(str(error)) from None
    check_report_argument(args.report)
    return ruleset, players, agents


def command_tournament(args) -> int:
    from snowrules.play.tournament import tournament
    ruleset, players, agents = _checked(args)
    options = tuple(sorted(ruleset.option_values.items()))
    result = tournament(args.ruleset, ruleset.variant, options, players, agents, args.games, args.seed,
                        args.workers, progress=not args.json and sys.stderr.isatty(),
                        time_limit=getattr(args, "time_limit", None))
    if not any(s.records for s in result.seatings):
        print("interrupted before any game finished", file=sys.stderr)
        return 130
    replay = _replay_command(args, ruleset, players)
    if args.report is not None:
        from snowrules.play.tournament_report import tournament_report
        page = tournament_report(args.report, ruleset.title, result)
        if not args.json:
            print(f"report written to {page}")
    if args.json:
        print(json.dumps(tournament_json(result, ruleset.name, ruleset.variant, ruleset.option_values, replay)))
    else:
        print_tournament(ruleset.title, result, replay)
    return 130 if result.interrupted else 0


def _replay_command(args, ruleset, players: int) -> str:
    """`snowrules run` for one tournament game, without --agents and --seed (the seating's and the game's)."""
    parts = ["snowrules run", args.ruleset, f"--players {players}"]
    if ruleset.variant:
        parts.append(f"--variant {ruleset.variant}")
    parts += [f"--option {name}={value}" for name, value in sorted(ruleset.option_values.items())
              if value != ruleset.options[name]["default"]]
    return " ".join(parts)


def _n(value: float | None, digits: int = 6) -> float | None:
    return None if value is None else round(value, digits)


def _rate(rate: Rate | None) -> dict | None:
    if rate is None:
        return None
    return {"value": _n(rate.value), "low": _n(rate.low), "high": _n(rate.high), "count": _n(rate.count),
            "total": rate.total}


def tournament_json(t: Tournament, ruleset: str, variant: str | None, options: dict, replay: str) -> dict:
    """The tournament as one JSON object (its shape: docs/tournament.md)."""
    return {
        "format": TOURNAMENT_FORMAT, "ruleset": ruleset, "variant": variant, "options": options,
        "players": t.players, "agents": t.agents, "games_per_seating": t.games, "seed": t.seed,
        "games": sum(len(s.records) for s in t.seatings), "interrupted": t.interrupted,
        "seconds": round(t.seconds, 3), "where": t.where,
        "seatings": [{"agents": list(s.agents), "games": len(s.records), "wins": [_n(w) for w in s.wins],
                      "replay": f"{replay} --agents {','.join(s.agents)} --seed {s.records[0].seed}"
                      if s.records else None} for s in t.seatings],
        "seeds": [r.seed for r in t.seatings[0].records],
        "ratings": [{"agent": r.agent, "mu": _n(r.mu, 4), "sigma": _n(r.sigma, 4), "low": _n(r.low, 4),
                     "high": _n(r.high, 4), "seats": r.seats, "win_rate": _rate(r.win_rate)} for r in t.ratings],
        "win_matrix": {"agents": t.agents, "score": [[_n(v) for v in row] for row in t.matrix],
                       "pairs": t.encounters},
        "first_seat": [{"agent": f.agent, "first": _rate(f.first), "others": _rate(f.others),
                        "difference": _n(f.difference), "low": _n(f.low), "high": _n(f.high)}
                       for f in t.first_seat],
    }


def print_tournament(title: str, t: Tournament, replay: str) -> None:
    from rich.table import Table
    from snowrules.cli.simulation_output import _console
    console = _console()
    played = sum(len(s.records) for s in t.seatings)
    stopped = " (interrupted)" if t.interrupted else ""
    console.print(f"{title}: {len(t.seatings)} seatings x {t.games} games = {played} games{stopped} "
                  f"with {t.players} players, in {t.seconds:.1f} s on {t.where}", highlight=False)
    table = Table(title="ratings (Plackett-Luce, openskill)")
    for name in ("rank", "agent", "rating", "95% interval", "win rate", "95% interval", "seats"):
        table.add_column(name, justify="left" if name == "agent" else "right")
    for rank, r in enumerate(t.ratings, 1):
        table.add_row(str(rank), r.agent, f"{r.mu:.2f}", f"{r.low:.2f}..{r.high:.2f}", f"{r.win_rate.value:.1%}",
                      f"{100 * r.win_rate.low:.1f}-{100 * r.win_rate.high:.1f}%", str(r.seats))
    console.print(table)
    matrix = Table(title="win matrix")
    matrix.add_column("agent")
    for agent in t.agents:
        matrix.add_column(agent, justify="right")
    for agent, row in zip(t.agents, t.matrix):
        matrix.add_row(agent, *("-" if v is None else f"{v:.3f}" for v in row))
    console.print(matrix)
    console.print("the row's score against the column: 1 a win, 1/2 a tie (both or neither won), 0 a loss",
                  highlight=False)
    seat = Table(title="first-seat effect")
    for name in ("agent", "win rate, first seat", "other seats", "difference", "95% interval"):
        seat.add_column(name, justify="left" if name == "agent" else "right")
    for f in t.first_seat:
        if f.difference is None:
            seat.add_row(f.agent, *("-" if r is None else f"{r.value:.1%}" for r in (f.first, f.others)), "-", "-")
            continue
        seat.add_row(f.agent, f"{f.first.value:.1%}", f"{f.others.value:.1%}", f"{f.difference:+.3f}",
                     f"{f.low:+.3f}..{f.high:+.3f}")
    console.print(seat)
    first = t.seatings[0]
    if first.records:
        console.print(f"replay a game: {replay} --agents {','.join(first.agents)} --seed {first.records[0].seed}   "
                      f"(game 0 of the first seating)", highlight=False)
    console.print(f"seatings: {'; '.join(','.join(s.agents) for s in t.seatings)}", highlight=False)
