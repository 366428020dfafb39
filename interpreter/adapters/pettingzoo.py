"""Any snowrules ruleset as a PettingZoo AEC environment: `env(ruleset, players=..., **options)`.

It plays the OpenSpiel adapter's game (adapters/openspiel.py), so that ids, returns and tensors
have one implementation: an agent is an OpenSpiel player (a seat, named as the ruleset names
it), an action is an OpenSpiel action id, its observation the seat's observation tensor (or its
information-state tensor, `observation="information_state"`) with the mask of its legal ids.

Draws at random are made by the environment, from the generator `reset(seed=...)` seeds. A
secret decision of several seats (an OpenSpiel simultaneous node) is asked of its seats one
after the other, each seeing the table as it was before anyone answered; the answers are given
to the rules together once the last seat has answered. Rewards are the returns the game
declares (OpenSpiel's `returns`), all given when the game ends.

Needs the `rl` extra (`pip install 'snowrules[rl]'`: PettingZoo, Gymnasium, OpenSpiel).
"""
from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from snowrules.adapters.openspiel import SIMULTANEOUS_PLAYER, SnowrulesState, load_game

OBSERVATIONS = ("observation", "information_state")


def env(ruleset: str, render_mode: str | None = None, observation: str = "observation", **params: Any) -> SnowrulesEnv:
    """The ruleset (bundled name or folder) as an AEC environment; `params` are the OpenSpiel
    game's (`players`, `variant` and the ruleset's options)."""
    return SnowrulesEnv(ruleset, render_mode=render_mode, observation=observation, **params)


class SnowrulesEnv(AECEnv):
    """A PettingZoo AEC environment over a ruleset's OpenSpiel game (see the module's doc)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "snowrules", "is_parallelizable": False}

    def __init__(self, ruleset: str, render_mode: str | None = None, observation: str = "observation",
                 **params: Any):
        super().__init__()
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {', '.join(OBSERVATIONS)}, not {observation!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {', '.join(self.metadata['render_modes'])}, "
                             f"not {render_mode!r}")
        self.game = load_game(ruleset, **params)
        self.render_mode = render_mode
        self.information_state = observation == "information_state"
        self.metadata = {**self.metadata, "name": self.game.get_type().short_name}
        names = self.game.program.layout.seat_names[:self.game.num_players()]
        self.possible_agents = list(names)
        self._seat = {name: seat for seat, name in enumerate(names)}
        shape = (self.game.information_state_tensor_size() if self.information_state
                 else self.game.observation_tensor_size(),)
        actions = self.game.num_distinct_actions()
        # Counters without both bounds, variables and grid places are not scaled: the box is unbounded.
        space = spaces.Dict({"observation": spaces.Box(-np.inf, np.inf, shape, np.float32),
                             "action_mask": spaces.Box(0, 1, (actions,), np.int8)})
        self.observation_spaces = {name: space for name in names}
        self.action_spaces = {name: spaces.Discrete(actions) for name in names}
        self.state: SnowrulesState | None = None
        self._answers: dict[int, int] = {}  # a simultaneous node's answers so far, by seat
        self._rng, _ = seeding.np_random(None)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ---- the game ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or self.state is None:
            self._rng, _ = seeding.np_random(seed)
        self.state = self.game.new_initial_state()
        self._answers = {}
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._run_on()
        self._accumulate_rewards()  # a game over before anyone decides has its returns already

    def _run_on(self) -> None:
        """Make the draws at random up to the next decision, then select who answers (or, once the
        game is over, give the returns)."""
        state = self.state
        while state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(self._rng.choice(outcomes, p=np.asarray(probabilities) / sum(probabilities))))
        if state.is_terminal():
            for agent, value in zip(self.possible_agents, state.returns()):
                self.rewards[agent] = float(value)
                self.terminations[agent] = True
            self.agent_selection = self.agents[0]
            return
        self.agent_selection = self.possible_agents[self._next_seat()]

    def _next_seat(self) -> int:
        """The seat to answer now: the one to move, or at a simultaneous node the first deciding
        seat that has not answered yet."""
        player = self.state.current_player()
        if player != SIMULTANEOUS_PLAYER:
            return player
        return next(seat for seat in self.state.st.pending.seats if seat not in self._answers)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        legal = self.state.legal_actions(seat)
        if action is None or int(action) not in legal:
            raise ValueError(f"action {action} is not legal for {agent}: legal are {legal}")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if self.state.current_player() == SIMULTANEOUS_PLAYER:
            self._answers[seat] = int(action)
            if len(self._answers) < len(self.state.st.pending.seats):
                self.agent_selection = self.possible_agents[self._next_seat()]
                return
            # a seat with nothing to decide has its one legal action (the adapter's)
            joint = [self._answers.get(p, (self.state.legal_actions(p) or [0])[0])
                     for p in range(self.game.num_players())]
            self._answers = {}
            self.state.apply_actions(joint)
        else:
            self.state.apply_action(int(action))
        self._run_on()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ---- what an agent sees -----------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        state = self.state
        tensor = (state.information_state_tensor(seat) if self.information_state
                  else state.observation_tensor(seat))
        mask = np.zeros(self.game.num_distinct_actions(), np.int8)
        if not state.is_terminal() and agent == self.agent_selection:
            mask[state.legal_actions(seat)] = 1
        return {"observation": np.asarray(tensor, np.float32), "action_mask": mask}

    def render(self) -> str | None:
        """The selected seat's view and what it is asked, as the observation strings tell it."""
        if self.render_mode is None or self.state is None:
            return None
        text = self.state.observation_string(self._seat[self.agent_selection])
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
