#!/usr/bin/env python3
"""Three ways generated code can run a game that must be able to stop at any decision, measured
on one synthetic routine (the back-end issue, item 3: one execution model for every caller):

A. **played through**: plain Python loops, each decision answered by a call in place. The
   fastest, but it cannot stop: a state in the middle of it is not data.
B. **resumable by guarded skip-ahead**: the same code, where each statement of a block that may
   wait is guarded by `if pc <= k`, a loop that may wait keeps its index in the environment, and
   a decision that cannot be answered in place records a *resume path* (the pc of each nested
   block) and returns; resuming calls the routine again with that path, which skips ahead to the
   decision. Answered in place, it is A plus the guards; its stopped state is data (a path and
   an environment).
C. **a VM, reduced**: a frame stack of (block, pc, loop index) and step objects with `run()`,
   native statements as functions between them (how snowrules ran a stopped game before its
   stoppable generated code, compile/playthrough_stops.py).

Each plays the same GAMES games of ROUNDS x PLAYERS decisions (a card chosen from a 13-card hand,
a counter added), all answered in place ("inline") and all stopped and resumed ("stopping", as
the adapter and a human table do). CPU seconds (process_time), best of 5; the three give the same
scores (checked).

    python tools/execution_models.py
"""
from __future__ import annotations

import random
import time

ROUNDS, PLAYERS, GAMES = 13, 4, 3000
STOP = object()  # what a routine returns when a decision waits


def decide(st: dict, seat: int, options: list[int]) -> int:
    """The agent: a pick from its own generator (the same picks in every design)."""
    st["rng"] = (st["rng"] * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
    return options[(st["rng"] >> 33) % len(options)]


def new_state(seed: int) -> dict:
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    return {"rng": seed + 1, "hands": [sorted(deck[i * 13:(i + 1) * 13]) for i in range(PLAYERS)],
            "score": [0] * PLAYERS, "turn": 0, "inline": True, "answer": None, "pending": None, "path": None,
            "frames": None}


# ---- A. played through ---------------------------------------------------------------------------
def played_through(st: dict, env: list) -> None:
    for r in range(ROUNDS):
        env[0] = r
        for p in range(PLAYERS):
            env[1] = p
            hand = st["hands"][p]
            card = decide(st, p, hand)
            hand.remove(card)
            st["score"][p] += card % 7
        st["turn"] += 1


# ---- B. resumable by guarded skip-ahead --------------------------------------------------------------
def resumable(st: dict, env: list, path: list[int]):
    """`path`: when resuming, the pc of each nested block down to the waiting decision."""
    pc = path.pop(0) if path else 0
    if pc <= 0:
        if not path:
            env[2] = 0  # the round loop's index, kept in env so that it can resume
        while env[2] < ROUNDS:
            env[0] = env[2]
            inner = path.pop(0) if path else 0
            if inner <= 0:
                if not path:
                    env[3] = 0
                while env[3] < PLAYERS:
                    p = env[1] = env[3]
                    step = path.pop(0) if path else 0
                    if step <= 0:
                        hand = st["hands"][p]
                        if st["inline"]:
                            card = decide(st, p, hand)
                        elif st["answer"] is not None:
                            card, st["answer"] = st["answer"], None
                        else:
                            st["pending"] = (p, list(hand))
                            st["path"] = [0, 0, 0]
                            return STOP
                        env[4] = card
                    if step <= 1:
                        st["hands"][p].remove(env[4])
                        st["score"][p] += env[4] % 7
                    env[3] += 1
            if inner <= 1:
                st["turn"] += 1
            env[2] += 1
    return None


# ---- C. the VM's frames and steps, reduced ------------------------------------------------------------
class Frame:
    __slots__ = ("block", "pc", "index")

    def __init__(self, block: int, pc: int = 0, index: int = 0):
        self.block, self.pc, self.index = block, pc, index


class AskStep:
    def run(self, st: dict, frame: Frame, env: list) -> bool:
        p = env[1]
        if st["answer"] is not None:
            env[4], st["answer"] = st["answer"], None
            return False
        if st["inline"]:
            env[4] = decide(st, p, st["hands"][p])
            return False
        st["pending"] = (p, list(st["hands"][p]))
        frame.pc -= 1
        return True


class PushStep:
    def __init__(self, block: int):
        self.block = block

    def run(self, st: dict, frame: Frame, env: list) -> bool:
        st["frames"].append(Frame(self.block))
        return False


def play_card(st: dict, env: list) -> None:
    p = env[1]
    st["hands"][p].remove(env[4])
    st["score"][p] += env[4] % 7


def next_turn(st: dict, env: list) -> None:
    st["turn"] += 1


# (kind, repeat count, the slot of the loop's index, statements)
BLOCKS = [("sequence", None, None, [PushStep(1)]),
          ("loop", ROUNDS, 0, [PushStep(2), next_turn]),
          ("loop", PLAYERS, 1, [AskStep(), play_card])]


def vm(st: dict, env: list) -> bool:
    frames = st["frames"]
    while frames:
        frame = frames[-1]
        kind, count, slot, statements = BLOCKS[frame.block]
        if kind == "loop":
            env[slot] = frame.index
        while frame.pc < len(statements):
            statement = statements[frame.pc]
            frame.pc += 1
            if statement.__class__ is AskStep or statement.__class__ is PushStep:
                if statement.run(st, frame, env):
                    return True
                if frames[-1] is not frame:
                    break
            else:
                statement(st, env)
        else:
            if kind == "loop" and frame.index + 1 < count:
                frame.index += 1
                frame.pc = 0
            else:
                frames.pop()
    return False


# ---- the games ----------------------------------------------------------------------------------------
def run_a() -> list[tuple]:
    scores = []
    for game in range(GAMES):
        st = new_state(game)
        played_through(st, [None] * 8)
        scores.append(tuple(st["score"]))
    return scores


def run_b(inline: bool = True) -> list[tuple]:
    scores = []
    for game in range(GAMES):
        st = new_state(game)
        st["inline"] = inline
        env = [None] * 8
        while resumable(st, env, list(st["path"] or [])) is STOP:
            p, options = st["pending"]
            st["answer"] = decide(st, p, options)
        scores.append(tuple(st["score"]))
    return scores


def run_c(inline: bool = True) -> list[tuple]:
    scores = []
    for game in range(GAMES):
        st = new_state(game)
        st["inline"] = inline
        st["frames"] = [Frame(0)]
        env = [None] * 8
        while vm(st, env):
            p, options = st["pending"]
            st["answer"] = decide(st, p, options)
        scores.append(tuple(st["score"]))
    return scores


def best(run) -> tuple[float, list[tuple]]:
    times = []
    for _ in range(5):
        start = time.process_time()
        result = run()
        times.append(time.process_time() - start)
    return min(times), result


def main() -> None:
    ta, ra = best(run_a)
    rows = [("B resumable, inline", *best(run_b)), ("B resumable, stopping", *best(lambda: run_b(False))),
            ("C VM frames, inline", *best(run_c)), ("C VM frames, stopping", *best(lambda: run_c(False)))]
    assert all(result == ra for _, _, result in rows)
    n = GAMES * ROUNDS * PLAYERS
    print(f"{n} decisions; CPU seconds, best of 5; 'stopping': every decision stops and is resumed")
    print(f"{'A played through':24} {ta:.3f}  1.00x  ({n / ta / 1e6:.2f} M decisions/s)")
    for name, seconds, _ in rows:
        print(f"{name:24} {seconds:.3f}  {seconds / ta:.2f}x")


if __name__ == "__main__":
    main()
