"""The pyspiel.GameType of a ruleset: its dynamics, chance mode and information read from its rules
(a secret decision of several seats is simultaneous, a draw at random is chance, a zone that is
not public hides information), its utility from its manifest, its parameters from its options.
"""
from __future__ import annotations

import pyspiel
from snowrules.compile.chance import CHANCE
from snowrules.language import syntax as s
from snowrules.load.ruleset import Ruleset

UTILITY = {"zero-sum": pyspiel.GameType.Utility.ZERO_SUM, "constant-sum": pyspiel.GameType.Utility.CONSTANT_SUM,
           "general-sum": pyspiel.GameType.Utility.GENERAL_SUM, "identical": pyspiel.GameType.Utility.IDENTICAL}


def game_type_of(ruleset: Ruleset, short_name: str, utility: str = "general-sum") -> pyspiel.GameType:
    nodes = [n for f in ruleset.rules for n in s.walk(f)]
    nodes += [n for d in ruleset.components for body in d.effects.values() for n in s.walk(body)]
    simultaneous = any(isinstance(n, s.Choose) and n.simultaneous for n in nodes)
    chance = any(isinstance(n, CHANCE) for n in nodes)
    hidden = any(isinstance(n, s.ZoneDecl) and n.visibility != "public" for n in nodes)
    parameters = {"players": ruleset.min_players, "variant": ""}
    parameters.update({name: spec["default"] for name, spec in ruleset.options.items()})
    dynamics = pyspiel.GameType.Dynamics
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"{ruleset.title} (snowrules)",
        dynamics=dynamics.SIMULTANEOUS if simultaneous else dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if chance
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if hidden or simultaneous
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=UTILITY[utility],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=ruleset.max_players * ruleset.seats_per_player,
        min_num_players=ruleset.min_players * ruleset.seats_per_player,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=parameters)
