"""What a pending decision is, as the person deciding reads it, with the values its prompt shows.

A prompt with values (`as "check out {c.name}"`, language/prompt_text.py) is compiled on its
decision's step (compile/prompt_values.py) and worked out here, from the state alone, when the
question is shown: the terminal, the browser. The step is the one the state's top frame waits at
(found by the decision's rule); its values read that frame's environment, where the rules keep
the decision's player, the loop variables and `let`s around it. Nothing of the state changes (the
step count the values may charge is given back), so showing a prompt changes no game, and logs
keep only the decision's rule and plain names.
"""
from __future__ import annotations

from typing import Any

from snowrules.compile.prompt_values import PROMPT_VALUES, PromptValues
from snowrules.model.state import State
from snowrules.runtime.engine import Game


def prompt_of(game: Game, st: State, seat: int | None = None) -> str:
    """The pending decision's prompt as `seat` reads it (a secret decision of several players
    shows each its own values): its values worked out now, or the rules' words for it when it
    shows none (Game.prompt)."""
    pending = st.pending
    shown = prompt_values(game, st)
    if shown is None:
        return game.prompt(pending)
    env = st.envs[st.frames[-1].env]
    if shown.player_slot is not None and seat is not None:
        env = env.copy()
        env[shown.player_slot] = seat
    steps = st.steps
    try:
        return "".join(literal + ("" if fn is None else value_text(game, st, fn(st, env), kind, listed))
                       for literal, fn, kind, listed in shown.parts)
    finally:
        st.steps = steps


def prompt_values(game: Game, st: State) -> PromptValues | None:
    """The compiled prompt of the decision the state waits at, or None (no values, or no frame
    waits at a step of that decision's rule). While an agent answers from inside the run the top
    frame has stepped past the decision (Game.suspended_copy); a stopped state waits at it."""
    pending, frames = st.pending, st.frames
    if pending is None or pending.chance or not frames:
        return None
    top = frames[-1]
    steps = game.program.blocks[top.block].steps
    at = top.pc - 1 if st.decide is not None else top.pc
    for index in [at, *(i for i in range(len(steps)) if i != at)]:
        if 0 <= index < len(steps):
            step = steps[index]
            step = getattr(step, "step", step)  # a branch of one step run in its `if`'s block
            if getattr(step, "rule", None) == pending.rule:
                return getattr(step, PROMPT_VALUES, None)
    return None


def value_text(game: Game, st: State, value: Any, kind: str, listed: bool) -> str:
    """A prompt's value as a person reads it: a component by its label with its values now, a
    player by the seat's name, a list item by item, a number or a text as itself."""
    if listed and isinstance(value, list):
        return ", ".join(value_text(game, st, v, kind, False) for v in value) if value else "none"
    if isinstance(value, str):
        return value
    if kind == "component" and isinstance(value, int) and not isinstance(value, bool):
        return game.component_label(st, value)
    return game.label(value, kind)
