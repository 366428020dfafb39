"""A ruleset nobody here wrote: every hostile input of issue 10 §4 is refused with a clear message,
its code and its place, within 5 seconds and 500 MB.

Each case copies the bundled Goofspiel ruleset, plants one hostile edit and runs the console
command in a subprocess whose address space is limited to 500 MB (`resource.RLIMIT_AS`), with a
bound of 5 s of CPU. A refusal is exit 1, the expected code, the file and line of the edit, no traceback,
and never the content of a file outside the folder.
"""
from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from snowrules.language.limits import MAX_BLOCK_DEPTH, MAX_YAML_NODES

GOOFSPIEL = Path(__file__).resolve().parent.parent / "rulesets" / "goofspiel"
SECRET = "TOP-SECRET-OUTSIDE-CONTENT"
MEMORY_BYTES = 500 * 2**20
SECONDS = 5.0


def alias_bomb(indent: str, levels: int = 9) -> str:
    """YAML whose aliases expand to 10**levels strings from a few hundred bytes of text."""
    lines = [f"{indent}l0: &l0 [x, x, x, x, x, x, x, x, x, x]"]
    for n in range(1, levels + 1):
        lines.append(f"{indent}l{n}: &l{n} [" + ", ".join([f"*l{n - 1}"] * 10) + "]")
    return "\n".join(lines) + "\n"


def oversized_level() -> int:
    """The first level of `alias_bomb` whose expansion passes MAX_YAML_NODES: where it is reported
    (the list `lN` holds ten of the level below and itself: size(l0) = 11, size(lN) = 1 + 10 size(lN-1))."""
    size, level = 11, 0
    while size <= MAX_YAML_NODES:
        size, level = 1 + 10 * size, level + 1
    return level


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


WALL_SECONDS = 60.0  # only against a hang: on a shared machine wall-clock time measures the neighbours


def snowrules(workdir: Path, *args: str) -> tuple[int, str, float]:
    """Run the console command under the memory and time bounds: (exit code, output, the CPU
    seconds it used). The bound is in CPU time, which other processes on the machine do not
    grow; a wall-clock timeout stops a hang."""
    command = [sys.executable, "-c", "from snowrules.cli.main import entry; entry()", *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        done = subprocess.run(command, cwd=workdir, capture_output=True, text=True, timeout=WALL_SECONDS,
                              preexec_fn=_limit_memory, env={**os.environ, "PYTHONHASHSEED": "0"})
    except subprocess.TimeoutExpired:
        pytest.fail(f"snowrules {' '.join(args)} ran past {WALL_SECONDS} s")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return done.returncode, done.stdout + done.stderr, cpu


def insert_after(path: Path, anchor: str, text: str) -> int:
    """Insert `text` after the line holding `anchor`; the 1-based number of its first line."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    number = next(i for i, line in enumerate(lines) if anchor in line) + 1
    lines[number:number] = [text if text.endswith("\n") else text + "\n"]
    path.write_text("".join(lines), encoding="utf-8")
    return number + 1


def replace(path: Path, old: str, new: str) -> int:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    start = text.index(old)
    path.write_text(text[:start] + new + text[start + len(old):], encoding="utf-8")
    return text.count("\n", 0, start) + 1


# Each case: edits the copy `game` (inside `root`) and returns (file, line) where it is reported.
def component_bomb(game: Path, root: Path):
    line = insert_after(game / "components" / "point_cards.yaml", "schema: card.schema.json",
                        "constants:\n  bomb:\n" + alias_bomb("    "))
    return "components/point_cards.yaml", line + 2 + oversized_level()


def tables_bomb(game: Path, root: Path):
    line = insert_after(game / "components" / "point_cards.yaml", "schema: card.schema.json",
                        "tables:\n  bomb:\n" + alias_bomb("    "))
    return "components/point_cards.yaml", line + 2 + oversized_level()


def manifest_bomb(game: Path, root: Path):
    line = insert_after(game / "ruleset.yaml", "version: 1.0.0", "about:\n" + alias_bomb("  "))
    return "ruleset.yaml", line + 1 + oversized_level()


def huge_count(game: Path, root: Path):
    # every entry may say how many copies it stands for (`copies:`, no schema declares it)
    line = replace(game / "components" / "point_cards.yaml", "{name: prize 1, kind: point, value: 1}",
                   "{name: prize 1, kind: point, value: 1, copies: 100000000}")
    return "components/point_cards.yaml", line


def huge_repeat(game: Path, root: Path):
    line = insert_after(game / "rules.sr", "setup:", "    repeat 1000000000000 times:\n        pass")
    return "rules.sr", line


def while_around_repeat(game: Path, root: Path):
    line = insert_after(game / "rules.sr", "setup:",
                        "    while true:\n        repeat 1000 times:\n            pass")
    return "rules.sr", line + 1  # the inner repeat, whose rounds pass the budget


def huge_roll(game: Path, root: Path):
    line = insert_after(game / "rules.sr", "setup:", "    roll 100000000 dice with 6 sides as rolled")
    return "rules.sr", line


def huge_range(game: Path, root: Path):
    line = insert_after(game / "rules.sr", "setup:",
                        "    for each v in 1..num_cards * 100000000:\n        pass")
    return "rules.sr", line


def huge_board(game: Path, root: Path):
    # a bounded grid zone of 10**10 cells: refused at its size, before any cell is made
    line = insert_after(game / "rules.sr", 'game "', "zone board shared public grid 100000 by 100000")
    return "rules.sr", line


def deep_nesting(game: Path, root: Path):
    body = "".join("    " * (depth + 1) + "if true:\n" for depth in range(200)) + "    " * 201 + "pass\n"
    line = insert_after(game / "rules.sr", "setup:", body)
    return "rules.sr", line + MAX_BLOCK_DEPTH  # the first line nested one block too deep


def absolute_path(game: Path, root: Path):
    (root / "secret.yaml").write_text(f"{SECRET}: [\n", encoding="utf-8")
    line = replace(game / "ruleset.yaml", "  - components/point_cards.yaml", f"  - {root / 'secret.yaml'}")
    return "ruleset.yaml", line


def parent_path(game: Path, root: Path):
    (root / "secret.yaml").write_text(f"{SECRET}: [\n", encoding="utf-8")
    line = replace(game / "ruleset.yaml", "  - components/point_cards.yaml", "  - ../../../../../../../../..{}"
                   .format(root / "secret.yaml"))
    return "ruleset.yaml", line


def symlink_outside(game: Path, root: Path):
    (root / "secret.yaml").write_text(f"{SECRET}: [\n", encoding="utf-8")
    target = game / "components" / "point_cards.yaml"
    target.unlink()
    target.symlink_to(root / "secret.yaml")
    line = next(i for i, text in enumerate((game / "ruleset.yaml").read_text().splitlines(), 1)
                if "components/point_cards.yaml" in text)
    return "ruleset.yaml", line


def symlink_rules_outside(game: Path, root: Path):
    (root / "secret.sr").write_text(f"{SECRET} here\n", encoding="utf-8")
    (game / "rules.sr").unlink()
    (game / "rules.sr").symlink_to(root / "secret.sr")
    line = next(i for i, text in enumerate((game / "ruleset.yaml").read_text().splitlines(), 1)
                if text.startswith("rules:"))
    return "ruleset.yaml", line


def symlink_scenario_outside(game: Path, root: Path):
    (root / "secret.yaml").write_text(f"{SECRET}: [\n", encoding="utf-8")
    (game / "scenarios" / "leak.yaml").symlink_to(root / "secret.yaml")
    return "scenarios/leak.yaml", 1


def unlisted_symlink_outside(game: Path, root: Path):
    (root / "secret.yaml").write_text(f'"{SECRET}": 1\n"{SECRET}": 2\n', encoding="utf-8")  # a duplicate key
    (game / "components" / "leak.yaml").symlink_to(root / "secret.yaml")
    return "components/leak.yaml", 1


def many_prompt_values(game: Path, root: Path):
    # a prompt of 10,000 values (each would be parsed on its own): refused at the 17th
    line = replace(game / "rules.sr", 'as "bid for the point card worth {first(prize).value}"',
                   'as "' + "{p}" * 10_000 + '"')
    return "rules.sr", line


HOSTILE = [
    # (case, the code it is refused with)
    (component_bomb, "SR702"),
    (tables_bomb, "SR702"),
    (manifest_bomb, "SR702"),
    (huge_count, "SR703"),
    (huge_repeat, "SR706"),
    (while_around_repeat, "SR706"),
    (huge_roll, "SR704"),
    (huge_range, "SR704"),
    (deep_nesting, "SR705"),
    (many_prompt_values, "SR214"),
    (huge_board, "SR708"),
    (absolute_path, "SR106"),
    (parent_path, "SR106"),
    (symlink_outside, "SR106"),
    (symlink_rules_outside, "SR106"),
    (symlink_scenario_outside, "SR106"),
    (unlisted_symlink_outside, "SR106"),
]


@pytest.mark.parametrize(("case", "code"), HOSTILE, ids=[case.__name__ for case, _ in HOSTILE])
def test_hostile_ruleset_is_refused_quickly_and_in_bounded_memory(tmp_path, case, code):
    game = tmp_path / "game"
    shutil.copytree(GOOFSPIEL, game)
    path, line = case(game, tmp_path)
    status, output, seconds = snowrules(tmp_path, "validate", "game")
    assert status == 1, f"exit {status}:\n{output}"
    assert seconds < SECONDS, f"refused after {seconds:.1f} s:\n{output}"
    assert "Traceback" not in output and "internal error" not in output and "MemoryError" not in output, output
    assert SECRET not in output, "the content of a file outside the folder was printed"
    assert f"[{code}]" in output, output
    assert f"game/{path}:{line}:" in output, f"expected at game/{path}:{line}:\n{output}"


RUNTIME = [(c, code) for c, code in HOSTILE if c in (huge_repeat, while_around_repeat, huge_roll, huge_range)]


@pytest.mark.parametrize(("case", "code"), RUNTIME, ids=[case.__name__ for case, _ in RUNTIME])
def test_hostile_rules_stop_a_game_quickly(tmp_path, case, code):
    game = tmp_path / "game"
    shutil.copytree(GOOFSPIEL, game)
    path, line = case(game, tmp_path)
    status, output, seconds = snowrules(tmp_path, "run", "game", "--players", "2")
    assert status == 1, f"exit {status}:\n{output}"
    assert seconds < SECONDS, f"stopped after {seconds:.1f} s:\n{output}"
    assert "Traceback" not in output and "MemoryError" not in output, output
    assert f"game/{path}:{line}:" in output, output
