"""A sampled mutation score of a few modules: how many planted code changes the tests notice (issue 9 point 23).

Why a script and not `mutmut run`: the package folder is mapped (`interpreter/` is installed as `snowrules`), and
`load_program` caches compiled programs across tests, so a mutant in compile-time code would never run. This
script uses mutmut's own mutation operators (`mutmut.mutation.file_mutation.create_mutations`, mutmut >= 3.3) to
list every mutant of a module, draws a fixed-seed sample of N of them, and for each one:

1. copies the package to a temporary folder named `snowrules` (so imports find the mutated file first through
   PYTHONPATH, before the editable install),
2. writes the module with that one mutation applied,
3. runs pytest on the given test files with `-x` and a plugin that clears `load_program`'s cache before each test.

A mutant is killed when pytest fails (or runs over the time limit); it survived when every test passes.
Survivors are printed with their line and the changed text, to be classified by hand as equivalent (no test can
tell them apart from the original) or as a missing test.

Setup: `pip install -e '.[test,quality]'` (the `quality` extra brings mutmut and pytest-cov). Examples:

    python tools/mutation_score.py interpreter/compile/stdlib.py interpreter/compile/apply.py \
        --tests tests/test_stdlib_registry.py tests/test_rarely_run_paths.py tests/test_language.py
    python tools/mutation_score.py interpreter/records/scenarios.py --sample 40 --seed 23 --jobs 2 \
        --tests tests/test_scenarios.py tests/test_scenario_failures.py

The last measurement of issue 9 point 23 (seed 23, 40 mutants a module, `--jobs 1`) ran against these test files:

    --tests tests/test_rarely_run_paths.py tests/test_stdlib_registry.py tests/test_language.py \
        tests/test_language_constructs.py tests/test_scenarios.py tests/test_scenario_failures.py \
        tests/test_golden.py tests/test_runtime_values.py tests/test_stdlib_values.py tests/test_apply_changes.py \
        tests/test_records_and_rankings.py tests/test_returns.py tests/test_snow_time.py \
        tests/test_change_statements.py

(every test file that imports one of the measured modules, and test_change_statements.py, written for the
survivors of compile/changes.py). The tests must pass unmutated in the copy first, or the script stops without
a score. A mutant that runs for more than `--timeout` seconds counts as killed: under load give it 180 or more.

Line coverage of the whole suite is pytest-cov's: `python -m pytest -q --cov=snowrules --cov-report=term`.
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import textwrap
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_FOLDER = ROOT / "interpreter"
PACKAGE_NAME = "snowrules"

CACHE_PLUGIN = textwrap.dedent('''
    """Clears the compiled-program cache before each test, so compile-time mutants run."""
    import pytest

    @pytest.fixture(autouse=True)
    def _fresh_programs():
        from snowrules.compile.compiler import load_program
        load_program.cache_clear()
        yield
''')


@dataclass(frozen=True)
class Mutant:
    """One mutation of `module` (a path under interpreter/): its line and the source it produces."""

    module: str
    index: int
    line: int
    before: str
    after: str
    source: str


@dataclass(frozen=True)
class Outcome:
    mutant: Mutant
    killed: bool
    reason: str


def list_mutants(module: str) -> list[Mutant]:
    """Every mutant mutmut's operators make of `module`, in source order."""
    from libcst.metadata import MetadataWrapper, PositionProvider
    from mutmut.mutation.file_mutation import create_mutations

    path = ROOT / module
    code = path.read_text()
    with tempfile.TemporaryDirectory(prefix="mutmut-config-") as scratch:
        # mutmut reads its settings from the working folder's setup.cfg; the repository keeps none.
        Path(scratch, "setup.cfg").write_text("[mutmut]\nsource_paths=interpreter\n")
        here = Path.cwd()
        os.chdir(scratch)
        try:
            tree, mutations, _, _ = create_mutations(str(path), code)
        finally:
            os.chdir(here)
    positions = MetadataWrapper(tree, unsafe_skip_copy=True).resolve(PositionProvider)
    found = []
    for index, mutation in enumerate(mutations):
        position = positions.get(mutation.original_node)
        line = position.start.line if position else 0
        source = tree.deep_replace(mutation.original_node, mutation.mutated_node).code
        before = tree.code_for_node(mutation.original_node)
        after = tree.code_for_node(mutation.mutated_node)
        found.append(Mutant(module, index, line, before, after, source))
    return found


def run_mutant(mutant: Mutant, tests: list[str], timeout: float) -> Outcome:
    """Runs the tests against `mutant` in a private copy of the package."""
    with tempfile.TemporaryDirectory(prefix="mutant-") as scratch:
        folder = Path(scratch)
        shutil.copytree(PACKAGE_FOLDER, folder / PACKAGE_NAME, ignore=shutil.ignore_patterns("__pycache__"))
        for data in ("rulesets", "schemas"):  # beside the package, where a clone keeps them
            (folder / data).symlink_to(ROOT / data)
        relative = Path(mutant.module).relative_to("interpreter")
        (folder / PACKAGE_NAME / relative).write_text(mutant.source)
        (folder / "fresh_programs_plugin.py").write_text(CACHE_PLUGIN)
        env = dict(os.environ, PYTHONPATH=str(folder), PYTHONDONTWRITEBYTECODE="1")
        command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                   "-p", "fresh_programs_plugin", *tests]
        try:
            done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return Outcome(mutant, True, "timeout")
        if done.returncode == 0:
            return Outcome(mutant, False, "all tests pass")
        last = [line for line in done.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
        return Outcome(mutant, True, last[0] if last else f"exit {done.returncode}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="+", help="paths under interpreter/, e.g. interpreter/compile/stdlib.py")
    parser.add_argument("--tests", nargs="+", required=True, help="test files pytest runs against each mutant")
    parser.add_argument("--sample", type=int, default=40, help="mutants drawn per module (default 40)")
    parser.add_argument("--seed", type=int, default=23, help="seed of the draw (default 23)")
    parser.add_argument("--jobs", type=int, default=1, help="mutants tested at once (default 1)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds before a mutant counts as killed")
    parser.add_argument("--only", type=int, nargs="*", help="run only these mutant indexes (re-check survivors)")
    args = parser.parse_args(argv)

    for module in args.modules:
        mutants = list_mutants(module)
        unchanged = Mutant(module, -1, 0, "", "", (ROOT / module).read_text())
        baseline = run_mutant(unchanged, args.tests, args.timeout)
        if baseline.killed:
            print(f"{module}: the tests fail without any mutation ({baseline.reason}): no score", file=sys.stderr)
            return 1
        if args.only:
            chosen = [m for m in mutants if m.index in args.only]
        else:
            draw = random.Random(f"{args.seed}:{module}")
            chosen = sorted(draw.sample(mutants, min(args.sample, len(mutants))), key=lambda m: m.index)
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            outcomes = list(pool.map(lambda m: run_mutant(m, args.tests, args.timeout), chosen))
        killed = sum(o.killed for o in outcomes)
        print(f"{module}: {len(mutants)} mutants, {len(chosen)} sampled, {killed} killed", flush=True)
        for outcome in outcomes:
            if not outcome.killed:
                m = outcome.mutant
                print(f"  survived #{m.index} line {m.line}: {m.before!r} -> {m.after!r}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
