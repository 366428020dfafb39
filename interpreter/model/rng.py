"""The game's random generator: SplitMix64, whose whole state is one integer.

A state that is plain data must carry its generator; Python's Mersenne Twister carries 625 words
and costs a copy of them at every clone. SplitMix64 carries one 64-bit integer, gives the same
numbers on every machine, and passes BigCrush, which is plenty for dice and shuffles.
"""
from __future__ import annotations

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """The generator state for a user's seed (any integer)."""
    return (seed * GOLDEN) & MASK


def below_lines(state: str, n: str, out: str, z: str) -> list[str]:
    """One step of the generator drawing below a bound, as lines of Python: the one description
    of SplitMix64's step, from which `below` and `next_u64` are made (below) and which generated
    code that draws in a loop (a roll's dice, a shuffle, a draw: compile/chance.py) writes in place.
    `state` names a local holding the generator state (advanced in place), `n` an expression of
    the bound, `out` the local that receives the draw in 0..n-1 (multiply-shift: the bias is
    under n / 2**64), `z` a scratch local. All four are names of snowrules' own making."""
    return [f"{state} = ({state} + {GOLDEN}) & {MASK}",
            f"{z} = (({state} ^ ({state} >> 30)) * 0xBF58476D1CE4E5B9) & {MASK}",
            f"{z} = (({z} ^ ({z} >> 27)) * 0x94D049BB133111EB) & {MASK}",
            f"{out} = (({z} ^ ({z} >> 31)) * {n}) >> 64"]


def shuffle_lines(state: str, items: str, place: str, j: str, z: str, start: str | None = None) -> list[str]:
    """Fisher-Yates from the top as lines of Python: each place from the last (or from `start`)
    down to the second swaps with one drawn below it or at it (`below_lines`, then `swap_line`).
    `items` names a local holding the list (shuffled in place), `state` the generator state as in
    `below_lines`, `place`, `j` and `z` scratch locals. The one description of a shuffle: a
    generated `shuffle` statement (compile/chance.py) writes it in place, and one whose places
    wait as chance nodes takes each outcome with `swap_line` and goes on with these lines."""
    first = f"len({items}) - 1" if start is None else start
    return [f"for {place} in range({first}, 0, -1):",
            *("    " + line for line in below_lines(state, f"({place} + 1)", j, z)),
            "    " + swap_line(items, place, j)]


def swap_line(items: str, place: str, j: str) -> str:
    """A shuffle's step: the item at `j` (at or below `place`) goes to `place`, and that one to `j`."""
    return f"{items}[{place}], {items}[{j}] = {items}[{j}], {items}[{place}]"


def _made_from_the_step():
    """`below` as a function whose body is `below_lines` (the step written out in place: it runs
    for every draw a function makes, where a call per step would cost a third of a draw)."""
    source = "\n".join(["def below(state, n):", *("    " + line for line in below_lines("state", "n", "drawn", "z")),
                        "    return state, drawn"])
    made: dict = {}
    exec(compile(source, "<snowrules rng>", "exec"), made)  # noqa: S102 - the template above only
    return made["below"]


below = _made_from_the_step()
below.__doc__ = "(new state, a uniform integer in 0..n-1): one step of `below_lines`."


def next_u64(state: int) -> tuple[int, int]:
    """One step: (new state, 64 random bits): a draw below 2**64 (the multiply-shift by 2**64 is
    the bits themselves)."""
    return below(state, 1 << 64)


# ---- a random agent's answer ---------------------------------------------------------------
# Random agents draw from their own Python generator (random.Random: a seat's agent is not part
# of the game's state), one number in [0, 1) per decision scaled to the number of options. That
# rule is described once, here, as text (`drawn_index_text`) and as the functions made from that
# text: `drawn_index` (an agent shown a decision) and `index_drawer` (what a game answering
# random agents inline asks, `st.draws[seat]`; compile/playthrough.py writes the call in place).

def drawn_index_text(draw: str, count: str) -> str:
    """The option index a random agent draws among `count` options with `draw` (a `random()`),
    as a Python expression: `draw` and `count` are expressions of snowrules' own making."""
    return f"int({draw}() * {count})"


drawn_index = eval(compile(f"lambda draw, count: {drawn_index_text('draw', 'count')}",  # noqa: S307 - the text above
                           "<snowrules rng>", "eval"))
drawn_index.__doc__ = "The option index a random agent draws among `count` options with `draw` (a `random()`)."

index_drawer = eval(compile(f"lambda draw: lambda st, count: {drawn_index_text('draw', 'count')}",  # noqa: S307
                            "<snowrules rng>", "eval"))
index_drawer.__doc__ = """A seat's drawer for a game that answers random agents inline (`st.draws`): called
with the state and the number of options of each decision its seat is asked, it gives the index
`drawn_index` gives with `draw`. The state and count let a simulation count the decisions and
read the standings at each one (play/agents.py `play(observe=...)`) without a stop."""


def seat_draw_text(seat: str, count: str) -> str:
    """How generated code asks seat `seat`'s drawer (`index_drawer`) for an index among `count`
    options (both expressions of snowrules' own making)."""
    return f"st.draws[{seat}](st, {count})"
