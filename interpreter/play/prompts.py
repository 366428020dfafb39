"""What a pending decision is, its free actions' options and the zones, as a person reads them,
with the values their texts show (`as "TEXT"`).

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

from snowrules.compile.free_actions import FREE_KEY, ITEM_KEY
from snowrules.compile.option_texts import OPTION_TEXT
from snowrules.compile.prompt_values import COUNTERS, PROMPT_VALUES, Part, PromptValues
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
    return rendered(game, st, shown.parts, env)


def rendered(game: Game, st: State, parts: tuple[Part, ...], env: list) -> str:
    """A text's parts with their values read from `st` and `env` (the steps they may charge are
    given back: showing a text changes nothing of the state)."""
    steps = st.steps
    try:
        return "".join(literal + ("" if fn is None else value_text(game, st, fn(st, env), kind, listed))
                       for literal, fn, kind, listed in parts)
    finally:
        st.steps = steps


def option_labels(game: Game, st: State, options: list, seat: int) -> list[str]:
    """The options of `seat` as a person reads them (Game.option_labels), a free action's that
    says how it reads (`as "TEXT"`) by its text with its values now: "free: TEXT". Free actions'
    options that still read alike get their item's name, "(red die)", and a copy's number too
    where the names are alike, "(red die #2)"."""
    labels = decision_option_texts(game, st, options, seat) or game.option_labels(st, options)
    if not game.program.option_texts:
        return labels
    labels = [option_text(game, st, option, seat) or label for option, label in zip(options, labels)]
    for told in (_named, _numbered):
        repeated = {label for label in labels if labels.count(label) > 1}
        labels = [told(game, label, option) if label in repeated and _component_item(option) else label
                  for option, label in zip(options, labels)]
    return labels


def decision_option_texts(game: Game, st: State, options: list, seat: int) -> list[str] | None:
    """The options as the decision's own text says each reads (`each as "TEXT"`,
    compile/option_texts.py), read with the option in the answer's place; None when the decision
    has no such text. A free action's option and the decline of an `optionally` decision keep
    their labels (Game.option_labels)."""
    text = getattr(decision_step(game, st), OPTION_TEXT, None)
    if text is None:
        return None
    labels = game.option_labels(st, options)
    env = st.envs[st.frames[-1].env].copy()
    env += [None] * (text.slot + 1 - len(env))
    if text.player_slot is not None:
        env[text.player_slot] = seat
    for index, option in enumerate(options):
        if option is None or (isinstance(option, dict) and FREE_KEY in option):
            continue
        env[text.slot] = option
        labels[index] = rendered(game, st, text.parts, env)
    return labels


def _named(game: Game, label: str, option: dict) -> str:
    return f"{label} ({game.layout.component_names[option[ITEM_KEY]]})"


def _numbered(game: Game, label: str, option: dict) -> str:
    return f"{label[:-1]} #{game.layout.component_copy[option[ITEM_KEY]]})"


def option_text(game: Game, st: State, option: Any, seat: int) -> str | None:
    """A free action's option by its text, "free: TEXT" with the values for `seat` and the
    option's item; None for any other option."""
    if not (isinstance(option, dict) and FREE_KEY in option):
        return None
    text = game.program.option_texts.get(option[FREE_KEY])
    if text is None:
        return None
    env = [None] * text.size
    env[text.player_slot] = seat
    if text.item_slot is not None:
        env[text.item_slot] = option.get(ITEM_KEY)
    return "free: " + rendered(game, st, text.parts, env)


def _component_item(option: Any) -> bool:
    item = option.get(ITEM_KEY) if isinstance(option, dict) else None
    return isinstance(item, int) and not isinstance(item, bool)


def prompt_values(game: Game, st: State) -> PromptValues | None:
    """The compiled prompt of the decision the state waits at, or None (no values, or no frame
    waits at a step of that decision's rule: `decision_step`)."""
    return getattr(decision_step(game, st), PROMPT_VALUES, None)


def decision_step(game: Game, st: State) -> Any:
    """The step of the decision the state waits at (what the compiler keeps on it: its prompt's
    values, the piece its spots are for), or None: no decision, or no frame waits at a step of
    that decision's rule. While an agent answers from inside the run the top frame has stepped
    past the decision (Game.suspended_copy); a stopped state waits at it."""
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
                return step
    return None


def value_text(game: Game, st: State, value: Any, kind: str, listed: bool) -> str:
    """A prompt's value as a person reads it: a component by its label with its values now, a
    player by the seat's name, a list item by item, a number or a text as itself."""
    if listed and isinstance(value, list):
        return ", ".join(value_text(game, st, v, kind, False) for v in value) if value else "none"
    if isinstance(value, str):
        return value
    if kind == COUNTERS and isinstance(value, int):
        return counter_reading(game, st, value)
    if kind == "component" and isinstance(value, int) and not isinstance(value, bool):
        return game.component_label(st, value)
    return game.label(value, kind)


def zone_name(game: Game, st: State | None, zone: int) -> str:
    """Zone `zone` (an index of the layout's zones) as a person reads it: its declaration's text
    (`as "TEXT"`) with the zone's index and owner, read from `st`; else, or with no state yet,
    its label ("space[7]", "red.hand"), which logs and views name it by."""
    instance = game.layout.zones[zone]
    text = game.program.zone_texts.get(instance.family)
    if text is None or st is None:
        return instance.label(game.layout.seat_names)
    env = [None] * text.size
    env[text.key_slot], env[text.owner_slot] = instance.index, instance.owner
    return rendered(game, st, text.parts, env)


# ---- counters ----------------------------------------------------------------------------------
# A counter as a person reads it: by its declaration's text (`as "TEXT"`, compile/counter_texts.py),
# else by its key or its name in words. The plain label (`red.res[coin]`, `red.tricks_won`) stays
# what logs, scenarios, views and JSON name a counter by; a person reads these names in the
# account's counter lines, the holdings shown before a decision, `score` at the terminal and a
# payment's prompt. Without a text a keyed counter reads as its key ("coin") and any other as its
# name with spaces ("tricks won"); a counter on components keeps its plain label (its component's
# label shows its value).

def counter_name(game: Game, st: State | None, counter: int) -> str:
    """Counter `counter` (an index of the state's counters) as a person reads it, without its
    owner ("coins", not "red's coins": the owner is said where the counter is shown)."""
    layout = game.layout
    family = _family_of(game, counter)
    if family is None or family.holders is not None:
        return layout.counter_labels[counter]
    offset = counter - family.base
    key = family.keys[offset % family.width] if family.keys else None
    text = game.program.counter_texts.get(family.name)
    if text is None or st is None:
        return (key if key is not None else family.name).replace("_", " ")
    env = [None] * text.size
    env[text.key_slot] = key
    env[text.owner_slot] = offset // family.width if family.per_player else None
    return rendered(game, st, text.parts, env)


def counter_reading(game: Game, st: State, counter: int) -> str:
    """A counter and its value now, as the holdings and a payment's prompt show it: "coins 5"."""
    return f"{counter_name(game, st, counter)} {st.counters[counter]}"


def counter_names(game: Game, st: State | None) -> dict[str, str]:
    """Every counter's plain label -> how a person reads it (`counter_name`), for a reader of
    events, which name counters by their plain labels."""
    return {label: counter_name(game, st, i) for i, label in enumerate(game.layout.counter_labels)}


def _family_of(game: Game, counter: int):
    """The declaration (a CounterFamily) counter `counter` belongs to: the one with the highest
    first index at or below it."""
    found = None
    for family in game.layout.counter_families.values():
        if family.base <= counter and (found is None or family.base > found.base):
            found = family
    return found

