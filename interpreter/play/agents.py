"""Agents: who answers a decision for a player. Each sees only its own player's view."""
from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from snowrules.model.events import Chosen
from snowrules.model.grid import Grid, Pieces
from snowrules.model.move_tally import MoveTally
from snowrules.model.rng import drawn_index, index_drawer
from snowrules.model.state import State
from snowrules.play.determinize import determinize
from snowrules.play.greedy import GreedyAgent
from snowrules.play.human import HumanAgent
from snowrules.play.layouts import state_grids
from snowrules.play.mcts import MctsAgent
from snowrules.play.parallel_search import WorldSampler
from snowrules.play.prompts import counter_names, option_labels, prompt_of, zone_name
from snowrules.play.spot_preview import spot_preview
from snowrules.play.start_clock import SetupClock
from snowrules.runtime.engine import Game


class Observation:
    """What an agent is given for one seat's decision: the legal options and, on request, the
    view of the player who owns the seat (never more: the state itself is not handed over)."""

    __slots__ = ("seat", "options", "_game", "_state")

    def __init__(self, game: Game, state: State, seat: int, options: list):
        self.seat = seat
        self.options = options
        self._game = game
        self._state = state

    @property
    def player(self) -> int:
        return self._game.program.controller(self.seat)

    @property
    def view(self) -> dict:
        """The deciding player's view."""
        return self._game.view(self._state, self.player)

    @property
    def seat_name(self) -> str:
        return self._game.layout.seat_names[self.seat]

    @property
    def choice(self) -> str:
        """What the decision is, in the rules' words, with the values its prompt shows
        (play/prompts.py)."""
        return prompt_of(self._game, self._state, self.seat)

    def label(self, option) -> str:
        return self._game.option_label(self._state, option)

    def labels(self) -> list[str]:
        """Every option's label, copies of one component told apart ("card #2"), with values where
        its component list has a `label:` ("green die showing 3")."""
        return option_labels(self._game, self._state, self.options, self.seat)

    def zone_labels(self, zone: int) -> list[str]:
        """The components in zone `zone` (an index of the layout's zones) as a person reads them
        now: by their list's `label:` with values, else by name (Game.zone_labels). For a zone the
        player sees."""
        return self._game.zone_labels(self._state, zone)

    def zone_name(self, zone: int) -> str:
        """Zone `zone` (an index of the layout's zones) as a person reads it: its declaration's
        text with values (`zone ... as "TEXT"`), else its label (play/prompts.py)."""
        return zone_name(self._game, self._state, zone)

    def counter_names(self) -> dict[str, str]:
        """Every counter's plain label (as the view's counters name it) -> how a person reads it
        now, without its owner: "coins" for `red.res[coin]` (play/prompts.py counter_name)."""
        return counter_names(self._game, self._state)

    def plain_labels(self) -> list[str]:
        """Every option by its plain name, as a log and the view's counters name it ("die #2")."""
        return self._game.plain_option_labels(self._state, self.options)

    @property
    def game(self) -> Game:
        """The rules (public knowledge): what a search agent runs its sampled worlds with."""
        return self._game

    def grids(self) -> dict[str, tuple[Grid, Pieces]]:
        """The grid zones the deciding player may see, by label: each grid and its pieces (what
        lies where is public in a public grid zone, as the view says)."""
        return state_grids(self._game.program, self._state, self._game.program.seats_of(self.player))

    def spot_preview(self, spot: Any, view: dict) -> list[str]:
        """The lines that show a spot option before it is chosen: the grid zone with the piece
        there, its squares starred (play/spot_preview.py); `view` is this player's."""
        return spot_preview(self._game, self._state, self.seat, view, spot)

    def determinize(self, rng: random.Random) -> State:
        """A complete state consistent with the deciding player's view, waiting at this decision:
        what the view shows is kept, the rest is re-dealt from `rng` (see determinize.py). The
        only way an agent gets a state, so that it never reads what its player cannot see."""
        return determinize(self._game, self._state, self.player, rng)

    def sampler(self) -> WorldSampler:
        """`determinize` as a value that can be sent to another process (a search agent's workers,
        see parallel_search.py): it samples the same worlds for the same generator."""
        return WorldSampler(self._game, self._game.suspended_copy(self._state), self.player)


class Agent(Protocol):
    name: str
    # The settings an agent accepts on the command line (`mcts:iterations=200,seed=3`), each with
    # its type and its least value (None: any), and for some a greatest value after them.
    parameters: dict[str, tuple]

    def choose(self, observation: Observation) -> int:
        """The index of the chosen option among `observation.options`."""


class RandomAgent:
    """Uniformly random among the legal options, from its own seeded generator."""

    name = "random"
    parameters = {"seed": (int, None)}

    def __init__(self, seed: int = 0):
        self._random = random.Random(seed).random
        # the same answers, for a game that asks the seat inline (`st.draws`, rng.index_drawer)
        self.drawer = index_drawer(self._random)

    def choose(self, observation: Observation) -> int:
        return drawn_index(self._random, len(observation.options))

    def choose_index(self, count: int) -> int:
        """The same choice given only the number of options (`play` uses it: no Observation)."""
        return drawn_index(self._random, count)


class FirstAgent:
    """Always the first legal option: deterministic, for tests and golden transcripts."""

    name = "first"
    parameters: dict = {}

    def choose(self, observation: Observation) -> int:
        return 0


AGENTS = {"random": RandomAgent, "first": FirstAgent, "human": HumanAgent, "greedy": GreedyAgent,
          "mcts": MctsAgent}


class AgentSpecError(ValueError):
    """An `--agents` text that names no agent or gives an agent a setting it does not have."""


@dataclass(frozen=True)
class AgentSpec:
    """One agent as the command line names it: `mcts:iterations=200,seed=3` is the agent `mcts`
    with two settings. A `seed` setting fixes the agent's generator; without it the agent gets the
    seed the caller derives from the game's seed."""

    name: str
    settings: tuple[tuple[str, int | float], ...] = ()

    def __str__(self) -> str:
        if not self.settings:
            return self.name
        return self.name + ":" + ",".join(f"{key}={value}" for key, value in self.settings)

    def build(self, seed: int):
        cls = AGENTS[self.name]
        values = dict(self.settings)
        if "seed" in cls.parameters:
            values.setdefault("seed", seed)
        return cls(**values)


def parse_agents(text: str) -> list[AgentSpec]:
    """The agents of an `--agents` text, in order. Agents are separated by commas, and so are an
    agent's settings: a part `key=value` belongs to the agent before it, so that
    `mcts:iterations=200,seed=3,random` is two agents."""
    found: list[tuple[str, list[str]]] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            raise AgentSpecError(f"{text!r} has an empty agent name (two commas in a row?)")
        name, colon, setting = part.partition(":")
        if not colon and "=" in part:
            if not found:
                raise AgentSpecError(f"setting {part!r} comes before any agent: write NAME:{part}")
            found[-1][1].append(part)
            continue
        name = name.strip()
        if name not in AGENTS:
            raise AgentSpecError(f"unknown agent {name!r}; agents: {', '.join(AGENTS)}")
        found.append((name, [setting.strip()] if colon else []))
    specs = []
    for name, settings in found:
        parsed = tuple(_setting(name, s) for s in settings)
        keys = [key for key, _value in parsed]
        twice = next((key for key in keys if keys.count(key) > 1), None)
        if twice is not None:
            raise AgentSpecError(f"{name}: setting {twice!r} is given twice")
        specs.append(AgentSpec(name, parsed))
    return specs


def _setting(agent: str, text: str) -> tuple[str, int | float]:
    parameters = AGENTS[agent].parameters
    known = ", ".join(parameters) if parameters else "none"
    key, equals, raw = (t.strip() for t in text.partition("="))
    if not equals or not key:
        raise AgentSpecError(f"{agent}: setting {text!r} should be KEY=VALUE (settings of {agent}: {known})")
    if key not in parameters:
        raise AgentSpecError(f"{agent} has no setting {key!r}; its settings: {known}")
    kind, least, *most = parameters[key]
    try:
        value = kind(raw)
        if not math.isfinite(value):
            raise ValueError(raw)
    except ValueError:
        raise AgentSpecError(f"{agent}: {key}={raw!r} is not {'a whole number' if kind is int else 'a number'}") \
            from None
    if least is not None and value < least:
        raise AgentSpecError(f"{agent}: {key}={raw} is below its least value {least}")
    if most and value > most[0]:
        raise AgentSpecError(f"{agent}: {key}={raw} is above its greatest value {most[0]}")
    return key, value


def agent_seed(game_seed: int, player: int) -> int:
    """The seed of a player's agent in the game of seed `game_seed`. One rule for run, simulate,
    validate's smoke games and the tools, so that a simulated game replays with `run --seed`."""
    return game_seed * 1000 + player


def make_agent(spec: str | AgentSpec, seed: int):
    """An agent from its name or command-line text (`random`, `mcts:iterations=50`)."""
    if isinstance(spec, str):
        specs = parse_agents(spec)
        if len(specs) != 1:
            raise AgentSpecError(f"{spec!r} names {len(specs)} agents, not one")
        spec = specs[0]
    return spec.build(seed)


def play(game: Game, agents: list, seed: int, sink=None, forced=None, listen=None, hears=None,
         observe: Callable[[State, int, int], None] | None = None, tally: MoveTally | None = None) -> State:
    """Play one game from the start to its end; `agents` holds one agent per player. Events go
    to `listen` as values and to `sink` as JSON (see Game.start); `hears`, when given, says which
    event classes `listen` needs, so that the game may leave the others out. `observe`, when
    given, is called as `observe(state, seat, number of options)` for each seat asked at each
    decision, before it answers (a simulation's figures read the standings there, from the state
    itself, without an event for each answer and each change of a score). Random agents are
    observed through their drawers, so their answers are still drawn in place. `tally` counts the
    game's moves between the zones it marks (model/move_tally.py)."""
    program = game.program
    # the automa's seat has no agent: the rules never ask it (compile/automa.py)
    by_seat = [agents[program.controller(seat)] for seat in range(game.layout.player_seats)]
    with SetupClock(program) as setup:  # the setup, up to the first decision, within its own limit
        if all(type(agent) is RandomAgent for agent in agents):
            # Random agents answer inline: the same draws from each seat's generator, given the number
            # of options only (no Observation). Nobody listening: no answer check, the index is in
            # range; someone listening: each answer is taken as any agent's is, and logged.
            draws = setup.drawing([observed_drawer(observe, seat, agent.drawer)
                                   for seat, agent in enumerate(by_seat)])
            if sink is None and (listen is None or (hears is not None and Chosen not in hears)):
                return game.play_through(seed, answering_at_random(draws), forced, draws, listen=listen,
                                         hears=hears, tally=tally)
            return game.play_through(seed, drawing_and_taking(game, draws), forced, sink=sink, listen=listen,
                                     hears=hears, tally=tally)
        # Any other agent is asked from outside the run, at each decision the game stops at: a
        # search agent copies the state it is shown, which is whole only at a stop (its frames).
        st = game.start(seed, sink, forced, listen=listen, tally=tally)
    while st.result is None:
        pending = st.pending
        if observe is not None:
            for seat, options in zip(pending.seats, pending.options):
                observe(st, seat, len(options))
        game.answer(st, [by_seat[seat].choose(Observation(game, st, seat, options))
                         for seat, options in zip(pending.seats, pending.options)])
    return st


def observed_drawer(observe: Callable[[State, int, int], None] | None, seat: int,
                    drawer: Callable[[State, int], int]) -> Callable[[State, int], int]:
    """A seat's drawer (rng.index_drawer) that tells `observe` of each decision first (see `play`).
    An observer that makes such drawers itself (`observe.drawer(seat, drawer)`, as simulate's
    metrics do) gives its own: the same calls, in one function."""
    if observe is None:
        return drawer
    own = getattr(observe, "drawer", None)
    if own is not None:
        return own(seat, drawer)

    def observed(st: State, count: int) -> int:
        observe(st, seat, count)
        return drawer(st, count)
    return observed


def drawing_and_taking(game: Game, draws: list) -> Callable[[State], Any]:
    """A decide for play()'s random path with a listener: each seat's option index drawn as
    RandomAgent draws it, then taken by the game (checked and told to the listener)."""
    def decide(st: State):
        pending = st.pending
        return game.take(st, [draws[seat](st, len(options))
                              for seat, options in zip(pending.seats, pending.options)])
    return decide


def answering_at_random(draws: list) -> Callable[[State], Any]:
    """A decide for play()'s random path: each seat's answer drawn by its own drawer (`draws[seat]`,
    rng.index_drawer) from the number of options alone, as RandomAgent draws it."""
    def decide(st: State):
        pending = st.pending
        if pending.simultaneous:
            return [options[draws[seat](st, len(options))]
                    for seat, options in zip(pending.seats, pending.options)]
        options = pending.options[0]
        return options[draws[pending.seats[0]](st, len(options))]
    return decide
