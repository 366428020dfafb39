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


def next_u64(state: int) -> tuple[int, int]:
    """One step: (new state, 64 random bits)."""
    state = (state + GOLDEN) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """(new state, a uniform integer in 0..n-1). Multiply-shift: the bias is under n / 2**64.
    The step of `next_u64`, written out here: this runs for every die, shuffle place and draw."""
    state = (state + GOLDEN) & MASK
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, ((z ^ (z >> 31)) * n) >> 64


def shuffle(state: int, items: list) -> int:
    """Shuffle `items` in place (Fisher-Yates from the top: place k swaps with `below(k + 1)`),
    with `below`'s steps written out in the loop; the new state."""
    for place in range(len(items) - 1, 0, -1):
        state = (state + GOLDEN) & MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        j = ((z ^ (z >> 31)) * (place + 1)) >> 64
        items[place], items[j] = items[j], items[place]
    return state


def below_lines(state: str, n: str, out: str, z: str) -> list[str]:
    """`below` as generated lines, for code that draws in a loop (a roll's dice): `state` names a
    local holding the generator state (advanced in place), `n` an expression of the bound, `out`
    the local that receives the draw in 0..n-1, `z` a scratch local. All four are names of
    snowrules' own making; the same steps as `below`, so the same numbers (tests/test_rng.py)."""
    return [f"{state} = ({state} + {GOLDEN}) & {MASK}",
            f"{z} = (({state} ^ ({state} >> 30)) * 0xBF58476D1CE4E5B9) & {MASK}",
            f"{z} = (({z} ^ ({z} >> 27)) * 0x94D049BB133111EB) & {MASK}",
            f"{out} = (({z} ^ ({z} >> 31)) * {n}) >> 64"]
