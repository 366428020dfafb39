#!/usr/bin/env python3
"""Python bytecodes a game executes, in all and by function: bench.py's own loops, counted.

Games per second on a shared machine move by 10-40% between runs (see bench.py), more than most
changes to the engine. The bytecodes a seeded game executes do not move at all, so a change can be
judged by them: fewer bytecodes is, nearly always, less time. They leave out what runs in C (list
and dict methods, pyspiel's C++ between our calls), so they rank the Python work, not all of it.

    python tools/bytecodes.py --ruleset goofspiel --players 2               # through the OpenSpiel adapter
    python tools/bytecodes.py --ruleset snow_time --players 4 --played      # played through, random agents
    python tools/bytecodes.py --ruleset oh_hell --players 4 --lines 30      # and the 30 busiest lines

Counting traces every bytecode (sys.settrace), so it runs about 100 times slower than the game:
a few dozen games are enough, since the count is the same at every run.
"""
from __future__ import annotations

import argparse
import gc
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402  (the loops measured are bench.py's own)
from snowrules.compile.compiler import load_program  # noqa: E402
from snowrules.language.diagnostics import SnowrulesError  # noqa: E402
from snowrules.runtime.engine import Game  # noqa: E402


class BytecodeCount:
    """Bytecodes executed while counting, by function (file:first line name) and by line."""

    def __init__(self):
        self.by_function: Counter[str] = Counter()
        self.by_line: Counter[tuple[str, int]] = Counter()

    def _trace(self, frame, event, arg):
        frame.f_trace_opcodes = True
        code = frame.f_code
        function = f"{Path(code.co_filename).name}:{code.co_firstlineno} {code.co_name}"
        by_function, by_line = self.by_function, self.by_line

        def count(frame, event, arg):
            if event == "opcode":
                by_function[function] += 1
                by_line[function, frame.f_lineno] += 1
            return count
        return count

    def run(self, play) -> None:
        """Count the bytecodes of `play()`, with the cyclic garbage collector off: a collection
        runs when allocations since the last one pass a threshold, which depends on what the
        process did before (a build cache read or written by another process at the same
        time), and the weak references it clears call back into Python code (weakref.py's
        `remove`), which would then be counted in one run and not in the next."""
        gc.collect()
        gc.disable()
        sys.settrace(self._trace)
        try:
            play()
        finally:
            sys.settrace(None)
            gc.enable()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", required=True, help="a bundled ruleset")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=30, help="seeded games counted (default 30)")
    parser.add_argument("--played", action="store_true",
                        help="count games played through with random agents (bench's snowrules column) "
                             "instead of OpenSpiel's loop through the adapter")
    parser.add_argument("--top", type=int, default=30, help="functions listed (default 30)")
    parser.add_argument("--lines", type=int, default=0, help="also list this many of the busiest lines")
    args = parser.parse_args(argv)
    if args.games < 1 or args.top < 0 or args.lines < 0:
        parser.error("--games must be at least 1, --top and --lines at least 0")
    try:
        if args.played:
            game = Game(load_program(args.ruleset, None, args.players))
            def play(seed):
                return bench.snowrules_round(game, args.players, args.games, seed)
        else:
            if args.ruleset not in bench.OPENSPIEL_GAMES:
                parser.error(f"{args.ruleset} has no OpenSpiel game: use --played")
            pair = bench.openspiel_reference(args.ruleset, args.players)
            if pair is None:
                return 1
            def play(seed):
                return bench.openspiel_round(pair[1], args.games, seed)
    except SnowrulesError as error:  # a ruleset named wrongly, or one that does not load
        print(error, file=sys.stderr)
        return 2
    play(99)  # warm: generated code compiled, caches filled, as in a timed round
    count = BytecodeCount()
    count.run(lambda: play(1))
    total = sum(count.by_function.values())
    how = "played through" if args.played else "through the OpenSpiel adapter"
    print(f"{args.ruleset}, {args.players} players, {how}: {total / args.games:,.0f} bytecodes a game")
    for function, n in count.by_function.most_common(args.top):
        print(f"{n / args.games:10,.0f} {100 * n / total:5.1f}%  {function}")
    if args.lines:
        print("busiest lines:")
        for (function, line), n in count.by_line.most_common(args.lines):
            print(f"{n / args.games:10,.0f}  {function} line {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
