"""What a seat observes of an OpenSpiel state (adapters/openspiel.py): its view now and the decision
it is asked, or, with perfect recall, its whole sequence of observations and moves; as text, and
as a tensor of fixed size (adapters/tensors.py), made only when a tensor is asked for.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING

import numpy as np
from snowrules.adapters.picks import held_picks, picking_text
from snowrules.adapters.recall import rule_in_folder

if TYPE_CHECKING:
    from snowrules.adapters.openspiel import SnowrulesGame, SnowrulesState


NOT_MADE = np.zeros(0, np.float32)


class SnowrulesObserver:
    """Without perfect recall, what a seat sees now (Game.view) and the decision it is asked;
    with perfect recall, the seat's whole sequence of observations and moves (see Recall).

    Its tensor (OpenSpiel's `tensor`, and `dict`: the same numbers by piece, see
    tensors.TensorLayout) is made at the first ask: an observer used only for strings never
    builds it."""

    def __init__(self, game: SnowrulesGame, perfect_recall: bool):
        self.game = game
        self.perfect_recall = perfect_recall
        self._tensor: np.ndarray | None = None
        self._dict: dict[str, np.ndarray] = {}

    def _make_tensor(self) -> None:
        layout = self.game.tensor_layout
        pieces = layout.information_state_pieces() if self.perfect_recall else layout.observation_pieces()
        self._tensor = np.zeros(sum(p.size for p in pieces), np.float32)
        at = 0
        for piece in pieces:
            self._dict[piece.name] = self._tensor[at:at + piece.size].reshape(piece.shape)
            at += piece.size

    @property
    def tensor(self) -> np.ndarray:
        """The tensor, once made: pyspiel reads this when it makes the observer, for strings too,
        and is given an empty one then; it reads `dict` (which makes it) for a tensor."""
        return NOT_MADE if self._tensor is None else self._tensor

    @property
    def dict(self) -> dict[str, np.ndarray]:
        if self._tensor is None:
            self._make_tensor()
        return self._dict

    def set_from(self, state: SnowrulesState, player: int) -> None:
        """The tensor of the seat's view of `state` (with perfect recall, and what it has seen
        and chosen so far)."""
        if self._tensor is None:
            self._make_tensor()
        self._tensor.fill(0)
        layout = self.game.tensor_layout
        layout.observe(state.st, player, self._dict)
        if self.perfect_recall:
            layout.remember(state.recall_now(), player, self._dict)
            held = held_picks(state._picking, self.game.program, state.st.pending, player)
            if held:  # picks held apart while the decision is open (adapters/picks.py) count as chosen
                layout.count_chosen(held, state.st.pending.kind, self._dict["chose"])

    def string_from(self, state: SnowrulesState, player: int) -> str:
        """The seat's view, and the decision it is asked (its rule and its options: a player
        knows what is asked of them, so two states that ask differently never look alike)."""
        program = self.game.program
        if self.perfect_recall:  # with the picks held apart while a decision asked item by item is open
            return state.recall_now().text(player, self.game.sight, self.game.engine) \
                + picking_text(state._picking, program, state.st.pending, player, self.game.engine)
        st = state.st
        view = self.game.engine.view(st, program.controller(player))
        sight = self.game.sight
        for z in sight.unordered:  # an `unordered` zone's names, sorted where the seat sees them
            label = sight.zone_labels[z]
            if isinstance(view["zones"][label], list):
                view["zones"][label] = sight.shown(z, view["zones"][label])
        text = json.dumps(view, sort_keys=True)
        pending = st.pending
        if pending is not None and not pending.chance and player in pending.seats:
            # a decision asked item by item: the seat's items left (adapters/picks.py)
            picking = None if state._picking is None else state._picking.of(pending, player)
            options = pending.options[pending.seats.index(player)] if picking is None else picking.left()
            labels = [self.game.engine.option_label(st, o) for o in sight.options_shown(st, options, pending.kind)]
            text += f"\nasked at {rule_in_folder(pending.rule, self.game.sight.folder)}: " + json.dumps(labels)
            if picking is not None and picking.picked:  # what it picked so far, as a set
                picked = sorted(self.game.engine.label(o, pending.kind) for o in picking.picked_items())
                text += "\npicked " + json.dumps(picked)
        return text
