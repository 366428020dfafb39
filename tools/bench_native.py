#!/usr/bin/env python3
"""The generated module compiled to native code, measured against the pure-Python module in one run
(issue 23, item 6: "an optional native build ... Cython or mypyc: measure both").

What runs is the build tools/bench.py times: the plain module of one configuration, nobody
listening, random agents answering in place (`play`). The module's text (`snowrules explain RULESET
--players N --code`) is compiled as it is by each compiler asked for, its functions put in place
of the pure ones, and seeded games are played on every build in alternating rounds: games per CPU
second (medians: the machine is shared), and every build must end every game as the pure one does
(the counters, the statements run, the ending).

Builds (`--builds`):
- `control`: the pure text imported as a file and wired as the native builds are (what the wiring
  itself costs);
- `cython`: Cython on the text as it is (Python semantics, every value an object);
- `cython-typed`: Cython with the declarations the generator could emit from what it knows
  (`list env`; `st.zones`, `st.where`, `st.counters` read once per function into `cdef list`
  locals; counter values and zone and counter indexes as C integers);
- `cython-state`: the same, and the state an extension type whose slots are C fields (the game's
  states are made of that type during the build's rounds);
- `mypyc`: mypyc on the text as it is, every bound name declared `Any`.

The declarations are written into the text here by pattern, for this measurement only: a real
native build would have the generator emit them from the intermediate form's kinds. Compiling
takes 10-30 s of CPU per module: run by hand, never by the test suite. Needs Cython and mypy (`pip
install cython mypy`, or `--tools DIR`, a folder holding their `cythonize` and `mypyc`) and a C
compiler with Python's headers.

    python tools/bench_native.py snow_time --players 4
    python tools/bench_native.py snowy_tricks --players 4 --builds cython cython-typed --games 100
"""
from __future__ import annotations

import argparse
import ast
import hashlib
import importlib
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import types
from dataclasses import dataclass
from pathlib import Path

from snowrules.compile import fuse
from snowrules.compile.compiler import load_program
from snowrules.language.diagnostics import SnowrulesError
from snowrules.model.state import State
from snowrules.play.agents import RandomAgent, agent_seed, play
from snowrules.runtime import engine
from snowrules.runtime.engine import Game

BUILDS = ("control", "cython", "cython-typed", "cython-state", "mypyc")
# The prefixes of the generated locals that hold whole numbers: a counter's index (_i), its old and
# new values (_o, _n), zone indexes (_a, _b), a die's sides (_k). Components (_c) may be none.
INDEX_PREFIXES = ("_i", "_a", "_b", "_k")
VALUE_PREFIXES = ("_o", "_n")
HOISTED = (("zones", "_Z"), ("where", "_W"), ("counters", "_C"))
# The state's slots that the extension type of `cython-state` gives C types; the others stay objects.
STATE_FIELDS = {"zones": "list", "where": "list", "counters": "list", "vars": "list", "frames": "list",
                "envs": "list", "forced": "list", "deferred": "list", "raised": "list",
                "steps": "long long", "max_steps": "long long", "deferring": "Py_ssize_t",
                "paused": "bint", "explicit": "bint"}


@dataclass
class Native:
    """A compiled build: its module, the CPU seconds and wall seconds its compile took, the size of
    its shared library and of its source."""
    module: types.ModuleType
    cpu: float
    wall: float
    library_bytes: int
    source_lines: int


def defined_functions(text: str) -> list[str]:
    """The names of the module's top-level functions, in order."""
    return [node.name for node in ast.parse(text).body if isinstance(node, ast.FunctionDef)]


def bound_names(text: str, scope: dict) -> list[str]:
    """The names the module reads from its namespace: those a compiler must be told exist. A name
    that a function also assigns (a `:=` inside an expression) is that function's local and is
    left out: declared at the top as well, mypyc reads the module's value where Python reads the
    local."""
    tree = ast.parse(text)
    stored = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
    defined = set(defined_functions(text))
    return [name for name in scope
            if name.isidentifier() and not name.startswith("__") and name not in defined and name not in stored]


def header(names: list[str], typed: bool) -> str:
    """Each bound name declared at the module's top (Cython refuses a name it cannot see bound, mypyc
    gives `x = None` the type None): set to its value after the import."""
    if typed:
        return "from typing import Any\n" + "".join(f"{name}: Any = None\n" for name in names) + "\n"
    return "".join(f"{name} = None\n" for name in names) + "\n"


def declared(text: str, state_type: str | None = None) -> str:
    """The Cython declarations of `cython-typed` written into each function of `text` (see the
    module's docstring); with `state_type`, the state parameter declared of that extension type."""
    pieces = []
    for piece in re.split(r"(?m)^(?=def )", text):
        if not piece.startswith("def "):
            pieces.append(piece)
            continue
        head, body = piece.split("\n", 1)
        head = head.replace("(st, env)", "(st, list env)")
        if state_type is not None:
            head = re.sub(r"^def (\w+)\(st,", rf"def \1({state_type} st,", head)
        declarations = []
        for attribute, local in HOISTED:
            if f"st.{attribute}[" in body and not re.search(rf"st\.{attribute}\s*=[^=]", body):
                body = body.replace(f"st.{attribute}[", f"{local}[")
                declarations.append(f"cdef list {local} = st.{attribute}")
        assigned = set(re.findall(r"(?m)^\s*(_[a-z]\d+)\s*=[^=]", body))
        for name in sorted(assigned):
            if not name.startswith(INDEX_PREFIXES + VALUE_PREFIXES):
                continue
            if re.search(rf"{name} is None|{name} = None|{name} = \[|{name} = \(\[|{name}\.", body):
                continue  # may hold none or a list
            declarations.append(f"cdef {'long long' if name.startswith(VALUE_PREFIXES) else 'Py_ssize_t'} {name}")
        pieces.append(head + "\n" + "".join(f"    {line}\n" for line in declarations) + body)
    return "".join(pieces)


def state_type_source() -> str:
    """An extension type with the slots of model/state.py's State (C fields where STATE_FIELDS says),
    made like a State: each slot starts at the value a new State gives it."""
    fields = "".join(f"    cdef public {STATE_FIELDS.get(slot, 'object')} {slot}\n" for slot in State.__slots__)
    return ("\ncdef class NativeState:\n" + fields +
            "    def __init__(self):\n"
            "        made = _State()\n"
            "        for slot in _SLOTS:\n"
            "            setattr(self, slot, getattr(made, slot))\n"
            "    @property\n"
            "    def over(self):\n"
            "        return self.result is not None\n\n")


def source_of(build: str, text: str, scope: dict) -> str:
    """The text a build compiles: the bound names declared, then the module (with declarations)."""
    names = bound_names(text, scope)
    if build == "mypyc":
        return header(names, typed=True) + text
    if build == "cython-typed":
        return header(names, typed=False) + declared(text)
    if build == "cython-state":
        return header(names + ["_State", "_SLOTS"], typed=False) + state_type_source() + declared(text, "NativeState")
    return header(names, typed=False) + text


def tool(name: str, tools: Path | None) -> str:
    """The path of a compiler's command (`cythonize`, `mypyc`), or a SystemExit saying it is missing."""
    found = shutil.which(name, path=str(tools)) if tools is not None else \
        shutil.which(name, path=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    if found is None:
        raise SystemExit(f"bench_native.py: no `{name}` found (pip install cython mypy, or --tools DIR)")
    return found


def compile_native(build: str, source: str, folder: Path, tools: Path | None) -> Native:
    """`source` compiled by the build's compiler into `folder` (kept there: the same source is
    compiled once) and imported under a name of its own."""
    digest = hashlib.sha256((build + source).encode()).hexdigest()[:16]
    name = f"snowrules_native_{build.replace('-', '_')}_{digest}"
    where = folder / name
    where.mkdir(parents=True, exist_ok=True)
    suffix = ".pyx" if build in ("cython-typed", "cython-state") else ".py"
    path = where / f"{name}{suffix}"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    if build == "control":
        path.write_text(source, encoding="utf-8")
    elif not any(where.glob(f"{name}*.so")):
        path.write_text(source, encoding="utf-8")
        if build == "mypyc":
            # the generated `(x := e) is x` is a self-comparison gcc warns of, and mypyc's warnings are errors
            command = [tool("mypyc", tools), path.name]
            environment = {**os.environ, "CFLAGS": "-Wno-tautological-compare"}
        else:
            command = [tool("cythonize", tools), "-i", "-3", "-q", path.name]
            environment = dict(os.environ)
        done = subprocess.run(["nice", "-n", "19", *command], cwd=where, env=environment,
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"bench_native.py: {build} failed on {path}:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    sys.path.insert(0, str(where))
    try:
        module = importlib.import_module(name)
    finally:
        sys.path.remove(str(where))
    size = sum(f.stat().st_size for f in where.glob(f"{name}*.so"))
    return Native(module, cpu, wall, size, source.count("\n") + 1)


_FORWARD = compile("def forward(*arguments, _to=None): return _to(*arguments)", "<bench_native>", "exec")
FORWARD_CODE = next(c for c in _FORWARD.co_consts if isinstance(c, types.CodeType))


def wire(generated, native: types.ModuleType) -> None:
    """The native module given the pure module's bound values, and each pure function (the objects
    the engine and the other builds hold) made to call its native twin; inside the native module
    the functions call each other directly."""
    text = generated.text
    for name in bound_names(text, generated.scope):
        setattr(native, name, generated.scope[name])
    setattr(native, fuse.SOURCE, generated.scope[fuse.SOURCE])
    if hasattr(native, "NativeState"):
        native._State, native._SLOTS = State, State.__slots__
    for name in defined_functions(text):
        function = generated.scope[name]
        function.__code__, function.__defaults__ = FORWARD_CODE, None
        function.__kwdefaults__ = {"_to": getattr(native, name)}


def outcome(st) -> tuple:
    """What must be the same on every build: the counters, the statements run, how the game ended."""
    return tuple(st.counters), st.steps, repr(st.result)


def round_rate(game: Game, state_type: type, players: int, games: int, first_seed: int) -> tuple[float, list]:
    """Games per CPU second over `games` seeded games (one generator per seat for the round, as
    tools/bench.py plays), and each game's outcome."""
    engine.State = state_type
    try:
        agents = [RandomAgent(agent_seed(first_seed, seat)) for seat in range(players)]
        outcomes = []
        start = time.process_time()
        for seed in range(first_seed, first_seed + games):
            outcomes.append(outcome(play(game, agents, seed)))
        return games / (time.process_time() - start), outcomes
    finally:
        engine.State = State


def fresh_game(ruleset: str, variant: str | None, players: int) -> Game:
    """A game of a program of its own (load_program caches programs, and a program keeps its
    builds), its plain module built."""
    load_program.cache_clear()
    game = Game(load_program(ruleset, variant, players))
    if game.played_through(frozenset()) is False:
        raise SystemExit(f"bench_native.py: {ruleset} at {players} cannot be played through")
    return game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--variant")
    parser.add_argument("--builds", nargs="+", choices=BUILDS, default=list(BUILDS))
    parser.add_argument("--games", type=int, default=200, help="games a round (default 200)")
    parser.add_argument("--rounds", type=int, default=7, help="rounds of each build, alternating (default 7)")
    parser.add_argument("--tools", type=Path, help="a folder holding cythonize and mypyc")
    parser.add_argument("--keep", type=Path, help="compile into this folder and keep it (default: a temporary one)")
    arguments = parser.parse_args(argv)
    try:
        games = {"pure": (fresh_game(arguments.ruleset, arguments.variant, arguments.players), State)}
    except SnowrulesError as error:
        print(error, file=sys.stderr)
        return 2
    folder = arguments.keep or Path(tempfile.mkdtemp(prefix="snowrules-native-"))
    try:
        for build in arguments.builds:
            game = fresh_game(arguments.ruleset, arguments.variant, arguments.players)
            generated = game.played_through(frozenset()).module
            native = compile_native(build, source_of(build, generated.text, generated.scope), folder, arguments.tools)
            wire(generated, native.module)
            games[build] = game, getattr(native.module, "NativeState", State)
            print(f"{build:13s} compiled in {native.cpu:5.1f} s CPU ({native.wall:5.1f} s wall), "
                  f"{native.source_lines} lines, {native.library_bytes / 1024:5.0f} KiB", flush=True)
        rates: dict[str, list[float]] = {name: [] for name in games}
        expected = None
        for _ in range(arguments.rounds):
            for name, (game, state_type) in games.items():
                rate, outcomes = round_rate(game, state_type, arguments.players, arguments.games, 1000)
                expected = expected or outcomes
                if outcomes != expected:
                    print(f"bench_native.py: {name} ended a game otherwise than the pure module", file=sys.stderr)
                    return 1
                rates[name].append(rate)
    finally:
        if arguments.keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    pure = statistics.median(rates["pure"])
    print(f"{arguments.ruleset}, {arguments.players} players: games per CPU second, medians of "
          f"{arguments.rounds} rounds of {arguments.games} (every game ended the same on every build)")
    for name, measured in rates.items():
        median = statistics.median(measured)
        print(f"  {name:13s} {median:8.1f}  x{median / pure:.2f}  (rounds {min(measured):.0f}-{max(measured):.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
