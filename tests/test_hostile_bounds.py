"""Issue 29: every count checked before the work, every log read as untrusted input, every name
a person can trust. Each row plants one hostile input, runs the console command in a subprocess
under 500 MB of address space and a wall-clock bound, and checks
the exact exit code, the diagnostic's code and its place, within 5 s of CPU. Big inputs are made here, in tmp_path
(the 1 GB log is a sparse file: it costs no disk).

Before the bounds (main at f178010, under 500 MB): the zone family, the 1 GB log and the deep log
were internal errors (exit 70); 5,000 variants gave no answer in 25 s; 10,000 nested parentheses
took 7.5 s and were accepted; 100,000 terms took 10 s and were reported at 1:1; a tile of 5,000
squares took 16 s and printed the whole list; the names and the variant's name were accepted.
"""
from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from snowrules.language.limits import (
    MAX_EXPRESSION_DEPTH,
    MAX_STATEMENT_TOKENS,
    MAX_TREE_DEPTH,
    MAX_VARIANTS,
    MAX_YAML_DEPTH,
    MAX_YAML_TEXT_NODES,
)
from snowrules.play.start_clock import SETUP_SECONDS
from test_hostile import GOOFSPIEL, MEMORY_BYTES, SECONDS, insert_after

WALL_SECONDS = 60.0  # only against a hang: on a shared machine wall-clock time measures the neighbours


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


def snowrules(workdir: Path, *args: str, env: dict | None = None) -> tuple[int, str, float]:
    """The console command in a subprocess under 500 MB of address space: (exit code, output, the
    CPU seconds it used). CPU time is the bound (issue 29: 5 s of CPU), as it does not grow when
    other processes share the machine; a wall-clock timeout stops a hang."""
    command = [sys.executable, "-c", "from snowrules.cli.main import entry; entry()", *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        done = subprocess.run(command, cwd=workdir, capture_output=True, text=True, timeout=WALL_SECONDS,
                              preexec_fn=_limit_memory, env={**os.environ, "PYTHONHASHSEED": "0", **(env or {})})
    except subprocess.TimeoutExpired:
        pytest.fail(f"snowrules {' '.join(args)} ran past {WALL_SECONDS} s")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return done.returncode, done.stdout + done.stderr, cpu

RULES_LINE = "    let x = "  # inserted after `setup:`: its expression starts at column 13


def _line_of(path: Path, text: str) -> tuple[int, str]:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if text in line:
            return number, line
    raise AssertionError(f"{text!r} not in {path}")


def _replace_line(path: Path, old: str, new: str) -> tuple[int, str]:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return _line_of(path, new)


def _rules_expression(game: Path, expression: str) -> int:
    """`let x = EXPRESSION` as the first statement of setup: the number of its line."""
    return insert_after(game / "rules.sr", "setup:", RULES_LINE + expression)


# Each case plants its input in `game` (a copy of Goofspiel inside `root`, the working folder)
# and returns the command's arguments and the place the refusal names.

def zone_family(game: Path, root: Path):
    line = insert_after(game / "rules.sr", "zone discarded shared public", "zone row[1..100000000] shared public")
    return ["validate", "game"], f"game/rules.sr:{line}:10"  # `zone row[` is 9 characters: the range at 10


def zone_family_run(game: Path, root: Path):
    args, where = zone_family(game, root)
    return ["run", "game", "--players", "2"], where


def tile_squares(game: Path, root: Path, count: int = 5000):
    """A component no `grid of` names is a tile: its squares are bounded once the rules are read
    (its schema lets `squares:` through, as a tile game's does)."""
    _replace_line(game / "schemas" / "card.schema.json", '"properties": {', '"properties": {"squares": {},')
    squares = ", ".join(["{}"] * count)
    line, text = _replace_line(game / "components" / "point_cards.yaml", "{name: prize 1, kind: point, value: 1}",
                               "{name: prize 1, kind: point, value: 1, squares: [" + squares + "]}")
    return ["validate", "game", "--no-play"], f"game/components/point_cards.yaml:{line}:{text.index('[{}') + 1}"


def squares_past_a_board(game: Path, root: Path):
    """More squares than any use allows (a board's cells): refused as the YAML file is read, before
    the list is checked square by square (15,000 nodes: under the 20,000 of a file)."""
    return tile_squares(game, root, 15_000)


def many_variants(game: Path, root: Path):
    entries = ", ".join(f"v{i}: v.yaml" for i in range(5000))
    line = insert_after(game / "ruleset.yaml", "rules: [rules.sr]", "variants: {" + entries + "}")
    text = (game / "ruleset.yaml").read_text(encoding="utf-8").splitlines()[line - 1]
    return ["validate", "game"], f"game/ruleset.yaml:{line}:{text.index(f'v{MAX_VARIANTS}:') + 1}"  # the 101st


def yaml_flow_nesting(game: Path, root: Path):
    line = insert_after(game / "components" / "point_cards.yaml", "schema: card.schema.json",
                        "deep: " + "[" * 10000 + "]" * 10000)
    return ["validate", "game"], f"game/components/point_cards.yaml:{line}:{7 + MAX_YAML_DEPTH}"  # `deep: ` is 6


def yaml_block_nesting(game: Path, root: Path):
    line = insert_after(game / "components" / "point_cards.yaml", "schema: card.schema.json",
                        "deep:\n  " + "- " * 10000 + "x")
    # the list at column 3 is depth 1 (the file's map is 0): the one past the limit 64 lists later
    return ["validate", "game"], f"game/components/point_cards.yaml:{line + 1}:{3 + 2 * MAX_YAML_DEPTH}"


def nested_parentheses(game: Path, root: Path):
    line = _rules_expression(game, "(" * 10000 + "1" + ")" * 10000)
    return ["validate", "game"], f"game/rules.sr:{line}:{13 + MAX_EXPRESSION_DEPTH}"  # the 65th `(`


def long_expression(game: Path, root: Path):
    line = _rules_expression(game, " + ".join(["1"] * 100000))
    # tokens `let` `x` `=` then `1` `+` `1` ...: token 4 + 2j is a `1` at 13 + 4j, token 5 + 2j a `+`
    # at 15 + 4j; the first past the limit is token 1001 = 5 + 2 * 498, a `+` at 15 + 4 * 498
    assert MAX_STATEMENT_TOKENS == 1000
    return ["validate", "game"], f"game/rules.sr:{line}:{15 + 4 * 498}"


def deep_expression(game: Path, root: Path):
    line = _rules_expression(game, "- " * 330 + "1")
    # the tree: ruleset, setup, block, let, then the k-th `-` at depth 4 + k, column 13 + 2 (k - 1);
    # the first past the limit: k = MAX_TREE_DEPTH + 1 - 4
    k = MAX_TREE_DEPTH + 1 - 4
    return ["validate", "game"], f"game/rules.sr:{line}:{13 + 2 * (k - 1)}"


def seat_name_bidi(game: Path, root: Path):
    line, text = _replace_line(game / "ruleset.yaml", "p8, p9]", 'p8, "a\\u202edcba"]')
    column = text.index('"a') + 1
    return ["validate", "game"], f"game/ruleset.yaml:{line}:{column}"


def component_name_zero_width(game: Path, root: Path):
    line, text = _replace_line(game / "components" / "point_cards.yaml", "{name: prize 1,",
                               '{name: "prize\\u200d 1",')
    column = text.index('"prize') + 1
    return ["validate", "game"], f"game/components/point_cards.yaml:{line}:{column}"


def zone_name_bidi(game: Path, root: Path):
    line, text = _replace_line(game / "rules.sr", "zone discarded shared public", "zone disc\u202earded shared public")
    return ["validate", "game", "--no-play"], f"game/rules.sr:{line}:10"  # `zone disc` is 9 characters


def manifest_option_name(game: Path, root: Path):
    line = insert_after(game / "ruleset.yaml", "options:", '  "fa\\u200bst": {default: 1, minimum: 0, maximum: 1}')
    return ["validate", "game", "--no-play"], f"game/ruleset.yaml:{line}:3"


def manifest_variant_name(game: Path, root: Path):
    line = insert_after(game / "ruleset.yaml", "rules: [rules.sr]", 'variants:\n  "two\\u202ecolours": v.yaml')
    return ["validate", "game", "--no-play"], f"game/ruleset.yaml:{line + 1}:3"


def seat_names_look_alike(game: Path, root: Path):
    line, text = _replace_line(game / "ruleset.yaml", "p8, p9]", 'p8, "\\u0440\\u0030"]')  # Cyrillic р, then 0
    column = text.index('"') + 1
    return ["validate", "game", "--no-play"], f"game/ruleset.yaml:{line}:{column}"


def variant_name_differs(game: Path, root: Path):
    insert_after(game / "ruleset.yaml", "rules: [rules.sr]", "variants: {short: variants/short.yaml}")
    (game / "variants").mkdir()
    (game / "variants" / "short.yaml").write_text("name: long\ndescription: a shorter game\n", encoding="utf-8")
    return ["validate", "game", "--no-play"], "game/variants/short.yaml:1:7"


def swapped_arguments(game: Path, root: Path):
    """Two players given in each other's place: the kinds agree, the names say the order."""
    insert_after(game / "rules.sr", "zone discarded shared public",
                 "define margin(winner, loser) = winner.score - loser.score")
    line = insert_after(game / "rules.sr", "setup:", "    for each winner in players:\n"
                        "        for each loser in players:\n"
                        "            if margin(loser, winner) > 100:\n"
                        '                announce "far ahead"')
    return ["validate", "game", "--no-play"], f"game/rules.sr:{line + 2}:23"  # `            if margin(` is 22


def variable_never_set(game: Path, root: Path):
    """The planted mistake that deleted `plays = plays + 1`: the variable keeps its first value, and
    the rule that reads it never fires; the kinds agree, so only this warning sees it."""
    line = insert_after(game / "rules.sr", "zone discarded shared public", "variable plays = 0")
    insert_after(game / "rules.sr", "setup:", "    if plays >= 100:\n        end game")
    return ["validate", "game", "--no-play"], f"game/rules.sr:{line}:1"


def command_line_variant(game: Path, root: Path):
    return ["run", "game", "--variant", "two\u202ecolours"], "--variant"


def command_line_option(game: Path, root: Path):
    return ["run", "game", "--option", "num\u200bcards=3"], "--option"


def log_of_one_gigabyte_line(game: Path, root: Path):
    with open(root / "big.jsonl", "wb") as log:
        log.write(b'{"e": "header", "format": "')
        log.truncate(2**30)  # sparse: 1 GB of NULs that take no disk
    return ["replay", "big.jsonl"], "big.jsonl:1:1"


def log_nested_200000_deep(game: Path, root: Path):
    (root / "deep.jsonl").write_text("[" * 200000 + "]" * 200000 + "\n", encoding="utf-8")
    return ["replay", "deep.jsonl"], f"deep.jsonl:1:{1 + 64}"  # the 65th `[`


def partial_log(game: Path, root: Path):
    (root / "game.jsonl.k2x9a0qe.partial").write_text('{"e": "header"}\n', encoding="utf-8")
    return ["replay", "game.jsonl.k2x9a0qe.partial"], "game.jsonl.k2x9a0qe.partial:1:1"


# Games that run too long or grow too big: the time limit (a small one, so that a row is fast) and
# the sizes of the lists a game makes. A timer interrupts wherever the game is, so a loop's refusal
# names the loop or the statement inside it that was running: either place is right.
LIMIT = "0.5"


def _setup_loop(game: Path, body: str) -> int:
    """`while true:` with `body` as the first statement of setup: the number of the `while` line."""
    return insert_after(game / "rules.sr", "setup:", "    while true:\n" + body)


def while_true_validate(game: Path, root: Path):
    """validate's smoke game keeps to its budget of 200,000 steps, reached in well under a second;
    its time limit is left at the default 5 s, so that a loaded machine cannot reach it first."""
    line = _setup_loop(game, "        let y = size([each c in box where c.value > 0])")
    return ["validate", "game"], (f"game/rules.sr:{line}:5", f"game/rules.sr:{line + 1}:9")


def while_true_test(game: Path, root: Path):
    line = _setup_loop(game, "        let y = size([each c in box where c.value > 0])")
    # the first scenario stops after 0.3 s, the other three are not run; `test` prints a failure without its code
    return ["test", "game", "--time-limit", "0.3"], (f"game/rules.sr:{line}:5", f"game/rules.sr:{line + 1}:9")


# A setup past 5 s of CPU, under each command's own limits (none given): refused by the setup's
# clock (play/start_clock.py) or a check's 5 s. These rows take 5 s of CPU and the start-up.
SETUP_LOOP = "        let y = size([each c in box where c.value > 0])"
STARTUP_SECONDS = 2.0  # reading, checking and compiling Goofspiel before its setup, with room


def setup_loop_run(game: Path, root: Path):
    line = _setup_loop(game, SETUP_LOOP)
    return ["run", "game", "--players", "2"], (f"game/rules.sr:{line}:5", f"game/rules.sr:{line + 1}:9")


def setup_loop_simulated(game: Path, root: Path):
    args, where = setup_loop_run(game, root)
    return ["simulate", "game", "--players", "2", "--games", "20"], where


def setup_loop_test(game: Path, root: Path):
    """The first scenario stops after 5 s; the other three are not run (4 x 10 s before)."""
    line = _setup_loop(game, SETUP_LOOP)
    return ["test", "game"], (f"game/rules.sr:{line}:5", f"game/rules.sr:{line + 1}:9")


def setup_loop_replay(game: Path, root: Path):
    """A log written before the setup was given an endless loop: replay plays the setup within
    its own 5 s too (play/agents.play, which replay, --show and --html play through)."""
    status, output, _ = snowrules(root, "run", "game", "--players", "2", "--seed", "1", "--json", "--log", "game.jsonl")
    assert status == 0, output
    args, where = setup_loop_run(game, root)
    return ["replay", "game.jsonl", "--ruleset", "game"], where


def turns_that_never_ask(game: Path, root: Path):
    """Endless turns that ask nobody anything run inside the setup's clock, which ends at the
    first decision: they are not reported as the setup."""
    text = (game / "rules.sr").read_text(encoding="utf-8")
    start, end = text.index("rounds num_cards:\n"), text.index("at game end:")
    # each turn long enough (lists of the box's cards) that 5 s pass before 5,000,000 steps, on the
    # generated code too (a game answered from outside runs there: `run`'s first decision)
    box = "size([each c in box where c.value > 0])"
    body = ("rounds 1000000000:\n    phase tick:\n        for each p in players:\n"
            f"            add {' + '.join([box] * 6)} to p.score\n\n")
    (game / "rules.sr").write_text(text[:start] + body + text[end:], encoding="utf-8")
    line = text[:start].count("\n") + 1
    return ["run", "game", "--players", "2", "--json"], \
        tuple(f"game/rules.sr:{line + k}:{col}" for k, col in ((0, 1), (1, 5), (2, 9), (3, 13)))


def setup_loop_validate(game: Path, root: Path):
    """One worker: the smoke game stops at its budget of steps, and no scenario is played after it
    (each played for its own 5 s before the smoke games kept to their budget in generated code)."""
    line = _setup_loop(game, SETUP_LOOP)
    return ["validate", "game", "--workers", "1"], (f"game/rules.sr:{line}:5", f"game/rules.sr:{line + 1}:9")


def sum_grows(game: Path, root: Path):
    """`x = x + x` adds a bit a round: 20,000 rounds make 6,000 digits, which Python refuses to
    write (SR499 where the number is first shown) unless the number is bounded where it is stored."""
    line = insert_after(game / "rules.sr", "setup:", "    let x = 3\n    repeat 20000 times:\n        x = x + x\n"
                        "    for each p in players:\n        add x to p.score")
    return ["run", "game", "--players", "2"], f"game/rules.sr:{line + 2}:13"  # `        x = ` is 12


def variable_grows(game: Path, root: Path):
    """A game variable (not a local) set to a difference that doubles each round, alternating sign."""
    insert_after(game / "rules.sr", "counter score per player from 0", "variable big = 3")
    line = insert_after(game / "rules.sr", "setup:", "    repeat 20000 times:\n        big = 0 - big - big")
    return ["run", "game", "--players", "2"], f"game/rules.sr:{line + 1}:15"  # `        big = ` is 14


def counter_grows(game: Path, root: Path):
    """A counter added to itself doubles each round with no `+` written: the change of a counter
    is bounded as well, where its new value is clamped."""
    line = insert_after(game / "rules.sr", "setup:", "    for each p in players:\n        add 1 to p.score\n"
                        "        repeat 20000 times:\n            add p.score to p.score")
    return ["run", "game", "--players", "2"], f"game/rules.sr:{line + 3}:13"


def endless_game_told(game: Path, root: Path):
    line = _setup_loop(game, "        ask each p in players secretly to choose card from p.hand:\n"
                             "            move card to p.bid\n"
                             "        for each p in players:\n"
                             "            move all from p.bid to p.hand")
    return ["run", "game", "--players", "2", "--time-limit", LIMIT], \
        tuple(f"game/rules.sr:{line + k}:{col}" for k, col in ((0, 5), (1, 9), (2, 13), (3, 9), (4, 13)))


def _free_action_waits(game: Path) -> tuple[int, int]:
    """A free action nothing stops (its condition never turns false), offered each round of an
    endless loop: the lines of the loop and of the free action."""
    action = insert_after(game / "rules.sr", "zone discarded shared public",
                          'free action "wait" for p:\n'
                          '    move all from p.hand to p.played\n'
                          '    move all from p.played to p.hand')
    return _setup_loop(game, "        for each p in players:\n            offer free actions to p"), action


def endless_free_actions(game: Path, root: Path):
    """Refused at the loop, or at the free action when the time runs out as it is taken (its
    start is counted against the budget at its declaration)."""
    line, action = _free_action_waits(game)
    return ["run", "game", "--players", "2", "--time-limit", LIMIT], \
        (*(f"game/rules.sr:{line + k}:{col}" for k, col in ((0, 5), (1, 9), (2, 13))), f"game/rules.sr:{action}:1")


def endless_free_actions_simulated(game: Path, root: Path):
    args, where = endless_free_actions(game, root)
    return ["simulate", "game", "--players", "2", "--games", "2", "--time-limit", LIMIT], where


def list_doubled(game: Path, root: Path):
    line = insert_after(game / "rules.sr", "setup:",
                        "    let xs = [1]\n    repeat 40 times:\n        xs = flatten([xs, xs])")
    return ["run", "game", "--players", "2"], f"game/rules.sr:{line + 2}:14"  # `        xs = ` is 13


def free_action_of_a_million(game: Path, root: Path):
    line = insert_after(game / "rules.sr", "zone discarded shared public",
                        'free action "pick" for p, n in 1..1000000:\n    pass')
    insert_after(game / "rules.sr", "setup:", "    for each p in players:\n        offer free actions to p")
    return ["run", "game", "--players", "2"], f"game/rules.sr:{line}:1"


def yaml_of_ten_megabytes(game: Path, root: Path):
    path = game / "components" / "point_cards.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "# " + "x" * 10_000_000 + "\n", encoding="utf-8")
    return ["validate", "game", "--no-play"], "game/components/point_cards.yaml:1:1"  # by its size, unread


def yaml_of_many_nodes(game: Path, root: Path):
    line = insert_after(game / "components" / "point_cards.yaml", "schema: card.schema.json",
                        "many: [" + "1," * MAX_YAML_TEXT_NODES + "1]")
    # before it, the file's top map, `schema`, its value, `many` and its list: 5 nodes; so the
    # node past the limit is the list's item number MAX_YAML_TEXT_NODES - 4, at 8 + 2 (k - 1)
    return ["validate", "game", "--no-play"], \
        f"game/components/point_cards.yaml:{line}:{8 + 2 * (MAX_YAML_TEXT_NODES - 5)}"


def log_of_twenty_megabytes(game: Path, root: Path):
    say = '{"e": "say", "text": "' + "x" * 999_000 + '"}\n'  # each line under the line's limit
    with open(root / "long.jsonl", "w", encoding="utf-8") as log:
        log.write('{"e": "header", "format": "snowrules-log/2", "ruleset": "goofspiel", "ruleset_hash": "sha256:0", '
                  '"seed": 0, "players": 2, "agents": ["random", "random"], "seats": ["p0", "p1"], "options": {}, '
                  '"variant": null, "version": "0"}\n' + say * 21)
    return ["replay", "long.jsonl"], "long.jsonl:22:1"  # 1 + 20 lines of 999,033 bytes: 20.0 MB


BIG = "1" + "0" * 5000  # Python refuses to convert more than 4,300 digits: an internal error before SR711


def product_grows(game: Path, root: Path):
    """`x = x * x` doubles its digits each round: before SR711 the game clock stopped it after a
    minute, up to 3 s late (a product of millions of digits cannot be interrupted)."""
    line = insert_after(game / "rules.sr", "setup:", "    let x = 3\n    while true:\n        x = x * x")
    return ["run", "game", "--players", "2"], f"game/rules.sr:{line + 2}:13"  # `        x = ` is 12


def number_in_rules(game: Path, root: Path):
    return ["validate", "game"], f"game/rules.sr:{_rules_expression(game, BIG)}:13"


def number_in_yaml(game: Path, root: Path):
    line, text = _replace_line(game / "components" / "point_cards.yaml", "{name: prize 1, kind: point, value: 1}",
                               "{name: prize 1, kind: point, value: " + BIG + "}")
    return ["validate", "game", "--no-play"], f"game/components/point_cards.yaml:{line}:{text.index(BIG) + 1}"


def number_in_log(game: Path, root: Path):
    head = '{"e": "header", "seed": '
    (root / "seed.jsonl").write_text(head + BIG + "}\n", encoding="utf-8")
    return ["replay", "seed.jsonl"], f"seed.jsonl:1:{len(head) + 1}"


def seed_on_command_line(game: Path, root: Path):
    return ["run", "game", "--seed", "1" + "0" * 19], "--seed"  # 10**19: a log could not hold it


def players_on_command_line(game: Path, root: Path):
    return ["run", "game", "--players", BIG], "--players"  # argparse quoted all 5,001 digits


def memory_past_the_limit(game: Path, root: Path):
    """Nothing bounds a list of a million pairs (each item under the limits), but the command's
    address space is: 100 MB here, for a fast row (500 MB by default)."""
    line = insert_after(game / "rules.sr", "setup:", "    let xs = [[i, i] for each i in 1..1000000]")
    # the let, its list, or its range: where the memory ran out
    return [{"SNOWRULES_MEMORY_MB": "100"}, "run", "game", "--players", "2"], \
        tuple(f"game/rules.sr:{line}:{col}" for col in (5, 14, 36))


def memory_past_the_default_limit(game: Path, root: Path):
    """Lists of a million numbers, a new one each round (a range made of the loop's variable is
    not a constant worked out once): 36 MB each, so the thirteenth passes the 500 MB a command
    allows itself by default, in 1.3 s of CPU."""
    line = insert_after(game / "rules.sr", "setup:", "    let xs = [i..i + 999999 for each i in 1..100]")
    return ["run", "game", "--players", "2"], tuple(f"game/rules.sr:{line}:{col}" for col in (5, 14, 15))


def memory_past_the_limit_in_a_worker(game: Path, root: Path):
    """The same lists in the game a worker process plays: its MemoryError lost its traceback
    crossing back ("snowrules: error: the command ran out of memory", no place); the worker now
    places it (play/out_of_memory.py)."""
    args, where = memory_past_the_default_limit(game, root)
    return ["simulate", "game", "--players", "2", "--games", "1", "--workers", "2"], where


def memory_past_the_limit_in_validate(game: Path, root: Path):
    """validate's smoke games run in worker processes: the same, placed (under 150 MB, as each of
    the smoke games fills the limit: 3.7 s of CPU under 500 MB)."""
    args, where = memory_past_the_default_limit(game, root)
    return [{"SNOWRULES_MEMORY_MB": "150"}, "validate", "game", "--workers", "2"], where


BOUNDED = [
    # (case, exit code, diagnostic code or None for a command-line error, what the message says)
    (zone_family, 1, "SR704", "this family has 100000000 zones, more than 10000"),
    (zone_family_run, 1, "SR704", "this family has 100000000 zones, more than 10000"),
    (tile_squares, 1, "SR740", "a tile has at most 100 squares; prize 1 has 5,000"),
    (squares_past_a_board, 1, "SR708", "this component has 15,000 squares, more than 10,000"),
    (many_variants, 1, "SR704", "more than 100 variants"),
    (yaml_flow_nesting, 1, "SR705", "YAML nested more than 64 levels deep"),
    (yaml_block_nesting, 1, "SR705", "YAML nested more than 64 levels deep"),
    (nested_parentheses, 1, "SR705", "brackets nested more than 64 deep"),
    (long_expression, 1, "SR705", "a statement of more than 1000 words, numbers and signs"),
    (deep_expression, 1, "SR705", "the rules nest more than 200 levels deep here"),
    (seat_name_bidi, 1, "SR210", "the seat name 'a\\u202edcba' holds U+202E RIGHT-TO-LEFT OVERRIDE"),
    (component_name_zero_width, 1, "SR210", "the component name 'prize\\u200d 1' holds U+200D ZERO WIDTH JOINER"),
    (zone_name_bidi, 1, "SR210", "unexpected character U+202E RIGHT-TO-LEFT OVERRIDE, an invisible format"),
    (manifest_option_name, 1, "SR210", "the option name 'fa\\u200bst' holds U+200B ZERO WIDTH SPACE"),
    (manifest_variant_name, 1, "SR210", "the variant name 'two\\u202ecolours' holds U+202E RIGHT-TO-LEFT OVERRIDE"),
    (seat_names_look_alike, 0, "SR211", "the seat name '\\u04400' looks like 'p0'"),
    (variant_name_differs, 1, "SR208", "this variant is named 'long', but the manifest lists it as 'short'"),
    (swapped_arguments, 0, "SR409", "`margin` is given `loser` for its parameter `winner` and `winner` for `loser`"),
    (variable_never_set, 0, "SR410", "the variable `plays` is never set: it keeps the value it is declared with"),
    (command_line_variant, 2, None, "the variant name 'two\\u202ecolours' holds U+202E RIGHT-TO-LEFT OVERRIDE"),
    (command_line_option, 2, None, "the option name 'num\\u200bcards' holds U+200B ZERO WIDTH SPACE"),
    (log_of_one_gigabyte_line, 1, "SR802", "this line is longer than 1000000 bytes"),
    (log_nested_200000_deep, 1, "SR705", "lists and objects nested more than 64 deep"),
    (partial_log, 1, "SR801", "this is the unfinished log of a run"),
    # validate's smoke games run on a budget of 200,000 steps (play/smoke.py): reached before the time limit
    (while_true_validate, 1, "SR706", "the game ran more than 200000 steps (statements, loop rounds and draws) here"),
    (while_true_test, 1, None, "the game ran longer than 0.3 s of CPU time (its time limit) here"),
    (endless_game_told, 1, "SR709", "the game ran longer than 0.5 s of CPU time (its time limit) here"),
    (endless_free_actions, 1, "SR709", "the game ran longer than 0.5 s of CPU time (its time limit) here"),
    (endless_free_actions_simulated, 1, "SR709", "the game ran longer than 0.5 s of CPU time (its time limit) here"),
    (setup_loop_run, 1, "SR709", "the setup ran longer than 5 s of CPU time here"),
    (setup_loop_simulated, 1, "SR709", "the setup ran longer than 5 s of CPU time here"),
    (setup_loop_test, 1, None, "the game ran longer than 5 s of CPU time (its time limit) here"),
    (setup_loop_replay, 1, "SR709", "the setup ran longer than 5 s of CPU time here"),
    (turns_that_never_ask, 1, "SR709", "without asking any player anything (the limit of a game up to its first"),
    (setup_loop_validate, 1, "SR706", "the game ran more than 200000 steps (statements, loop rounds and draws) here"),
    (sum_grows, 1, "SR711", "this sum is larger than 1,000,000,000,000,000,000"),
    (variable_grows, 1, "SR711", "this difference is larger than 1,000,000,000,000,000,000"),
    (counter_grows, 1, "SR711", "the new value of the counter is larger than 1,000,000,000,000,000,000"),
    (list_doubled, 1, "SR704", "the list flatten() makes here has 1048576 items, more than 1000000"),
    (yaml_of_ten_megabytes, 1, "SR701", "file is larger than 2000000 bytes"),
    (yaml_of_many_nodes, 1, "SR704", "this YAML file has more than 20000 values, keys, maps and lists"),
    (log_of_twenty_megabytes, 1, "SR802", "the log is longer than 20000000 bytes here"),
    (product_grows, 1, "SR711", "this product is larger than 1,000,000,000,000,000,000"),
    (number_in_rules, 1, "SR711", "the number 100000000000000000000000... (5,001 characters) is larger than"),
    (number_in_yaml, 1, "SR711", "the number 100000000000000000000000... (5,001 characters) is larger than"),
    (number_in_log, 1, "SR711", "the number 100000000000000000000000... (5,001 characters) is larger than"),
    (seed_on_command_line, 2, None, "'10000000000000000000': give a seed within +-1,000,000,000,000,000,000"),
    (players_on_command_line, 2, None, "invalid int value: '100000000000000000000000... (5,001 characters)'"),
    (memory_past_the_limit, 1, "SR710", "the command ran out of memory: it needed more than the 100 MB"),
    (memory_past_the_default_limit, 1, "SR710", "the command ran out of memory: it needed more than the 500 MB"),
    (memory_past_the_limit_in_a_worker, 1, "SR710", "the command ran out of memory: it needed more than the 500 MB"),
    (memory_past_the_limit_in_validate, 1, "SR710", "the command ran out of memory: it needed more than the 150 MB"),
    (free_action_of_a_million, 1, "SR704",
     "the free action 'pick' offers more than 10000 options at one decision (its items: 1000000)"),
]


# rows that wait for a default limit of 5 s: their CPU bound is that and the start-up
CPU_SECONDS = {case: SETUP_SECONDS + STARTUP_SECONDS
               for case in (setup_loop_run, setup_loop_simulated, setup_loop_test, setup_loop_validate,
                            setup_loop_replay, turns_that_never_ask)}


def _row_id(row) -> str:
    return (row.values if hasattr(row, "values") else row)[0].__name__


@pytest.mark.parametrize(("case", "status", "code", "says"), BOUNDED, ids=[_row_id(row) for row in BOUNDED])
def test_hostile_input_is_refused_at_its_place_in_bounded_time_and_memory(tmp_path, case, status, code, says):
    game = tmp_path / "game"
    shutil.copytree(GOOFSPIEL, game)
    args, where = case(game, tmp_path)
    env = args.pop(0) if isinstance(args[0], dict) else {}
    got, output, seconds = snowrules(tmp_path, *args, env=env)
    assert got == status, f"exit {got}:\n{output}"
    assert seconds < CPU_SECONDS.get(case, SECONDS), f"answered after {seconds:.1f} s of CPU:\n{output}"
    assert "Traceback" not in output and "internal error" not in output and "MemoryError" not in output, output
    places = where if isinstance(where, tuple) else (where,)
    lines = [line for line in output.splitlines()
             if any(line.startswith(place + ":") or place + ": " in line for place in places)]
    assert lines, f"nothing at {where}:\n{output}"
    assert says in lines[0], lines[0]
    if code is not None:
        assert lines[0].endswith(f"[{code}]"), lines[0]
    assert len(lines[0]) < 500, "a message quotes only a short excerpt of the input"


def test_a_partial_log_of_a_killed_run_is_removed_by_the_next_run_and_a_live_one_kept(tmp_path):
    """A run waiting for a person holds its partial file; a run writing the same log meanwhile
    keeps it; once the first run is killed (SIGKILL: nothing of it can clean up), the next run
    removes it."""
    command = [sys.executable, "-c", "from snowrules.cli.main import entry; entry()"]
    waiting = subprocess.Popen([*command, "run", "goofspiel", "--players", "2", "--agents", "human,random",
                                "--log", "game.jsonl"], cwd=tmp_path, stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 3 * SECONDS
        while not list(tmp_path.glob("game.jsonl.*.partial")) and time.monotonic() < deadline:
            time.sleep(0.05)
        live = list(tmp_path.glob("game.jsonl.*.partial"))
        assert len(live) == 1, "the waiting run made no partial file"
        run = [*command, "run", "goofspiel", "--players", "2", "--log", "game.jsonl"]
        subprocess.run(run, cwd=tmp_path, check=True, capture_output=True, timeout=3 * SECONDS)
        assert live[0].exists(), "a partial file of a living run was removed"
        assert (tmp_path / "game.jsonl").is_file()
    finally:
        os.kill(waiting.pid, signal.SIGKILL)
        waiting.wait()
    assert live[0].exists()  # a killed run leaves it ...
    subprocess.run(run, cwd=tmp_path, check=True, capture_output=True, timeout=3 * SECONDS)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]  # ... and the next run removes it
