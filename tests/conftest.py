"""Shared test helpers: every bundled ruleset, variant and player count, and a checked game runner."""
from __future__ import annotations

import functools
import json
import os
import random
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from snowrules.compile.compiler import load_program
from snowrules.load.generated import expand, is_generator
from snowrules.load.ruleset import bundled_names, load_ruleset
from snowrules.load.schema_errors import schema_errors
from snowrules.load.yaml_files import load_schema, load_yaml, plain
from snowrules.model.grid_zones import grid_of
from snowrules.model.move_tally import MoveTally
from snowrules.model.program import Program
from snowrules.model.rng import below
from snowrules.model.state import State
from snowrules.model.values import Decision
from snowrules.play.agents import Observation, RandomAgent
from snowrules.runtime.engine import Game


def pytest_configure(config) -> None:
    """The build cache (interpreter/data/cache.py) of the test run is a folder of its own, shared by
    the xdist workers and the `snowrules` commands the tests start, never the user's cache. Its keys
    hold the interpreter's code and the rulesets' contents, so entries of an earlier run are reused
    only when nothing they depend on changed. A test of the cache itself sets its own folder.
    The commands the tests start import snowrules anew: with bytecode files written once, each
    one does not compile the package's source again (0.8 s a command on this machine)."""
    os.environ.setdefault("SNOWRULES_CACHE", str(Path(tempfile.gettempdir()) / f"snowrules-test-cache-{os.getuid()}"))
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False


# Hypothesis profiles. The suite runs the few examples each property test asks for (`examples`
# below), under Hypothesis' own profiles: `default`, or `ci` (derandomized) where Hypothesis detects
# a CI. `thorough` (`pytest --hypothesis-profile=thorough`, or HYPOTHESIS_PROFILE=thorough) runs ten
# times as many examples and seeded games, fresh seeds each run, for a change to the engine or a
# ruleset that deserves many seeds.
settings.register_profile("thorough", deadline=None, suppress_health_check=[HealthCheck.too_slow])
if os.environ.get("HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])
THOROUGH_FACTOR = 10


def examples(ci: int) -> int:
    """How many examples (or seeded games) a slow property test runs: `ci` in the suite, ten times as
    many under the `thorough` profile. Read when a test module is collected, after the command
    line's --hypothesis-profile was loaded (pytest configures before it collects)."""
    return ci * THOROUGH_FACTOR if settings.get_current_profile_name() == "thorough" else ci


@functools.cache
def configurations() -> tuple[tuple[str, str | None, int], ...]:
    """(ruleset, variant, players) for every bundled ruleset, each variant, every player count.
    Worked out once per test process: seven modules parametrize with it when they are collected,
    and each call read every ruleset and variant again (2.5 s of CPU the first, 0.4 s each after,
    in every xdist worker)."""
    found = []
    for name in bundled_names():
        base = load_ruleset(name)
        for variant in [None, *base.variants]:
            ruleset = load_ruleset(name, variant)
            for players in range(ruleset.min_players, ruleset.max_players + 1):
                found.append((name, variant, players))
    return tuple(found)


def config_id(config) -> str:
    name, variant, players = config
    return f"{name}{'+' + variant if variant else ''}-{players}p"


_PROGRAMS: dict[tuple, Program] = {}


def game_for(config) -> Game:
    """A game of a configuration. Its program is compiled once per test process and kept: the
    compiler's own cache (load_program's, 64 entries) is shared with every other key the suite
    compiles (options, explicit chance: well over 64), and a Snow Planner configuration evicted
    from it costs 2 s of CPU to compile again. The program is load_program's, as before."""
    if config not in _PROGRAMS:
        _PROGRAMS[config] = load_program(*config)
    return Game(_PROGRAMS[config])


def check_invariants(game: Game, st: State) -> None:
    """What holds at every decision of every ruleset."""
    layout = game.layout
    count = len(layout.component_names)
    everywhere = sorted(c for zone in st.zones for c in zone)
    assert everywhere == list(range(count)), "a component is missing or duplicated"
    for index, zone in enumerate(st.zones):
        for c in zone:
            assert st.where[c] == index
    for i, value in enumerate(st.counters):
        low, high = layout.counter_lower[i], layout.counter_upper[i]
        assert low is None or value >= low, f"{layout.counter_labels[i]} = {value} < {low}"
        assert high is None or value <= high, f"{layout.counter_labels[i]} = {value} > {high}"
    assert st.clone() == st
    assert round_trip(st) == st


def round_trip(st: State) -> State:
    """The state written as JSON text and read back: what a saved game resumes from."""
    return State.from_json(json.loads(json.dumps(st.to_json())))


def three_copies(st: State) -> list[State]:
    """The state, its clone and its JSON round trip, the copies checked equal to it. A test answers
    each the same way and compares them: a decision must resume alike from all three."""
    copies = [st, st.clone(), round_trip(st)]
    assert copies[1] == st and copies[2] == st
    return copies


def said_answering(game: Game, st: State, answer: list) -> list[str]:
    """What the rules announce (their `say` lines) from st's decision, answered with `answer`, to the
    next decision or the end."""
    log: list = []
    st.sink = game.listener(log.append)
    game.answer(st, answer)
    return [e["text"] for e in log if e["e"] == "say"]


def play_checked(game: Game, seed: int, check_every: int = 1, sink=None) -> tuple[State, list[list[int]]]:
    """A random game, invariants checked at decisions; returns the end state and the choices made."""
    agents = [RandomAgent(seed * 1000 + i) for i in range(game.program.players)]
    st = game.start(seed, sink)
    choices = []
    n = 0
    while st.result is None:
        if n % check_every == 0:
            check_invariants(game, st)
        n += 1
        pending = st.pending
        answer = [agents[game.program.controller(s)].choose(Observation(game, st, s, o))
                  for s, o in zip(pending.seats, pending.options)]
        choices.append(answer)
        game.answer(st, answer)
    check_invariants(game, st)
    return st, choices


def generator_draw(rng: int, draw: Decision) -> tuple[int, int]:
    """The generator's next state and the outcome index a game without explicit chance draws at
    this chance draw from its generator in state `rng` (model/rng.py `below` over the outcomes).
    Answering an explicit game's chance nodes with it, from the seed's generator state
    (`seed_state`), plays the sampled game's draws: explicit chance changes who draws, never what
    is drawn. No bundled ruleset weighs its draws; a weighted one is refused here rather than
    answered with a copy of the weighted draw."""
    assert draw.weights is None, f"a weighted draw at {draw.rule}: generator_draw takes equally likely ones only"
    return below(rng, len(draw.options[0]))


def replay_choices(game: Game, st: State, choices: list[list[int]]) -> State:
    for answer in choices:
        game.answer(st, answer)
    return st


def ruleset_folder(tmp_path: Path, rules: str, components: str, *, file: str = "things",
                   schema: str | None = None, schema_file: str = "thing.schema.json", name: str = "probe",
                   players: tuple[int, int] = (2, 2)) -> Path:
    """A small test ruleset in `tmp_path`: a manifest, `rules` as rules.sr, one component file
    `components/FILE.yaml`, and `schema` (if given) as the ruleset's own schema `schema_file`.
    Tests that need a made-up game write it through here rather than each its own manifest."""
    (tmp_path / "components").mkdir(exist_ok=True)
    (tmp_path / "ruleset.yaml").write_text(f"name: {name}\ntitle: {name.title()}\nversion: \"1\"\n"
                                           f"players: {{min: {players[0]}, max: {players[1]}}}\n"
                                           f"rules: [rules.sr]\ncomponents: [components/{file}.yaml]\nlanguage: 2\n")
    if schema is not None:
        (tmp_path / "schemas").mkdir(exist_ok=True)
        (tmp_path / "schemas" / schema_file).write_text(schema)
    (tmp_path / "components" / f"{file}.yaml").write_text(components)
    (tmp_path / "rules.sr").write_text(rules)
    return tmp_path


ROOT = Path(__file__).resolve().parent.parent
SNOWRULES_KEYS = ("copies", "reacts")  # entry keys snowrules reads itself, outside a ruleset's schemas


def _written_and_generated(document) -> list[tuple[int, dict]]:
    """A component list's entries, a `generate:` item's made entries in its place (load/generated.py),
    each with the index of its item in the file."""
    found = []
    for index, entry in enumerate(document.tree.get("components", [])):
        if is_generator(entry):
            made, problems = expand(document, ["components", index])
            assert not problems
            found.extend((index, generated.entry) for generated in made)
        else:
            found.append((index, entry))
    return found


def component_entries(ruleset: Path, name: str) -> list[dict]:
    """The entries of one component file of a ruleset folder (a `generate:` item's made entries in
    its place), as plain data."""
    document, problems = load_yaml(ruleset / "components" / name, name)
    assert not problems
    return [plain(entry) for _, entry in _written_and_generated(document)]


def check_component_file(ruleset: Path, path: Path) -> None:
    """A component file meets the list envelope's schema, and each entry (each generated one too)
    the schema the file names (the ruleset's own, else snowrules' shared one of that name),
    snowrules' own keys aside."""
    document, problems = load_yaml(path, path.name)
    assert not problems
    assert schema_errors(document, load_schema(ROOT / "schemas" / "component_list.schema.json")) == []
    name = document.tree["schema"]
    own_schema = ruleset / "schemas" / name
    schema = load_schema(own_schema if own_schema.exists() else ROOT / "schemas" / name)
    for index, entry in _written_and_generated(document):
        data = {key: value for key, value in entry.items() if key not in SNOWRULES_KEYS}
        assert schema_errors(document, schema, data, ["components", index]) == []


__all__ = ["Observation", "check_component_file", "check_invariants", "component_entries", "configurations",
           "config_id", "examples", "game_for", "play_checked", "random", "replay_choices", "round_trip",
           "said_answering", "three_copies"]


def answered_from_outside(game: Game, seed: int, decide, sink=None) -> State:
    """The game `game.start(seed, sink, decide=decide)` plays answered in place, played instead
    stopped at every decision (the stoppable build and its resume entries), each answered with
    what `decide` gives there (a value, or one per seat of a simultaneous decision): the other
    side of the comparisons between the two builds."""
    st = game.start(seed, sink)
    while st.pending is not None:
        pending = st.pending
        chosen = decide(st)
        values = chosen if pending.simultaneous else [chosen]
        game.answer(st, [options.index(value) for options, value in zip(pending.options, values)])
    return st


def pieces_on_board(game: Game, st: State) -> dict[tuple[int, int], str]:
    """What lies on top at each cell of the grid zone `board`, by the cell's (x, y)."""
    board = grid_of(game.layout, st, "board")
    return {(c.x, c.y): board.names[stack[-1].piece] for c, stack in board.grid.stacks.items()}


def choose_cell(game: Game, st: State, cell: tuple[int, int]) -> None:
    """Answer a decision among the cells of a board with the cell at (x, y)."""
    options = st.pending.options[0]
    game.answer(st, [options.index({"x": cell[0], "y": cell[1]})])


def every_move(game: Game) -> MoveTally:
    """A move tally (model/move_tally.py) with every pair of zones in one slot: each component's
    moves, all counted."""
    zones = len(game.layout.zones)
    row: list[int | None] = [0] * zones
    return MoveTally([row] * zones, 1, len(game.layout.component_names))


def refused_by_validate_and_run(capsys, folder: Path, name: str, line_text: str, column: int, message: str) -> None:
    """`snowrules validate` and `snowrules run` of a broken ruleset folder both exit 1 with `message`
    at `name`'s line holding `line_text` (and at `column`, when not 0), never a traceback."""
    from snowrules.cli.main import main
    lines = (folder / name).read_text().splitlines()
    line = next(n for n, written in enumerate(lines, 1) if line_text in written)
    for command in (["validate", str(folder)], ["run", str(folder), "--seed", "1", "--agents", "first,first"]):
        assert main(command) == 1
        out = capsys.readouterr()
        text = out.out + out.err
        assert "Traceback" not in text
        assert message in text, text
        assert f"{name}:{line}:{f'{column}:' if column else ''}" in text, text
