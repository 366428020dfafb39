"""What a seat observes of an OpenSpiel state (adapters/openspiel.py): its view now and the decision
it is asked, or, with perfect recall, its whole sequence of observations and moves.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING

import numpy as np
from snowrules.adapters.recall import rule_in_folder

if TYPE_CHECKING:
    from snowrules.adapters.openspiel import SnowrulesGame, SnowrulesState


class SnowrulesObserver:
    """Without perfect recall, what a seat sees now (Game.view) and the decision it is asked;
    with perfect recall, the seat's whole sequence of observations and moves (see Recall)."""

    def __init__(self, game: SnowrulesGame, perfect_recall: bool):
        self.game = game
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict = {}

    def set_from(self, state: SnowrulesState, player: int) -> None:
        pass

    def string_from(self, state: SnowrulesState, player: int) -> str:
        """The seat's view, and the decision it is asked (its rule and its options: a player
        knows what is asked of them, so two states that ask differently never look alike)."""
        if self.perfect_recall:
            return state.recall_now().text(player, self.game.sight, self.game.engine)
        program = self.game.program
        st = state.st
        view = self.game.engine.view(st, program.controller(player))
        text = json.dumps(view, sort_keys=True)
        pending = st.pending
        if pending is not None and not pending.chance and player in pending.seats:
            options = pending.options[pending.seats.index(player)]
            labels = [self.game.engine.option_label(st, o) for o in options]
            text += f"\nasked at {rule_in_folder(pending.rule, self.game.sight.folder)}: " + json.dumps(labels)
        return text
