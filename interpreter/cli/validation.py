"""What `snowrules validate` checks, as a CI gate: every file of a ruleset folder, its variants,
its scenarios (run far enough to check every name they use) and a few smoke games.

Paths given one by one (as pre-commit passes changed files) are mapped to the ruleset folder
that holds them; each folder is checked once and each problem reported once.
"""
from __future__ import annotations

import difflib
import functools
import re
import time
from dataclasses import replace
from pathlib import Path

from snowrules.cli.junit import Case, expectation_failures
from snowrules.compile.compiler import check, compile_ruleset, programs_shared
from snowrules.language.argument_order import swapped_arguments
from snowrules.language.diagnostics import Diagnostic, Position, SnowrulesError
from snowrules.language.never_set import never_set_variables
from snowrules.load.fallbacks import position_id_warnings
from snowrules.load.provenance import stale_provenance
from snowrules.load.ruleset import bundled_names, display_path, find_ruleset, read_ruleset
from snowrules.load.yaml_files import load_yaml, plain
from snowrules.play.out_of_memory import placed_memory_errors
from snowrules.play.smoke import DEFAULT_BOUNDS, SmokeBounds, smoke_play
from snowrules.records.scenarios import inside, outside_scenario_files, run_scenario, scenario_files
from snowrules.runtime.clock import TIME_LIMIT_CODE, game_clock

YAML_SUFFIXES = (".yaml", ".yml")


def _enclosing_ruleset(path: Path) -> Path | None:
    path = path.resolve()
    for folder in [path] + list(path.parents):
        if (folder / "ruleset.yaml").is_file():
            return folder
    return None


def ruleset_folders(refs: list[str]) -> tuple[list[Path], list[Diagnostic]]:
    """The ruleset folders that `refs` (names, folders or files inside a folder) name, each once,
    in the order first named; and a diagnostic for each ref that names none."""
    folders: dict[Path, Path] = {}
    problems = []
    for ref in refs:
        folder = find_ruleset(ref)
        if folder is None and Path(ref).exists():
            folder = _enclosing_ruleset(Path(ref))
        if folder is None:
            problems.append(Diagnostic(Position(ref), "not a ruleset, nor a file inside one",
                                       f"bundled rulesets: {', '.join(bundled_names())}", code="SR101"))
            continue
        folders.setdefault(folder.resolve(), folder)
    return list(folders.values()), problems


def validate_folder(folder: Path, play: bool = True, bounds: SmokeBounds = DEFAULT_BOUNDS,
                    scenarios: bool = True, cases: list[Case] | None = None, workers: int = 1) -> list[Diagnostic]:
    """Every problem of a ruleset, its variants, its scenario files (played, with `scenarios`,
    their expectations checked) and (with `play`) its smoke games, each once, in file and line
    order. The check, the smoke games and the scenarios compile each configuration once
    (`programs_shared`); with several `workers`, the smoke games and scenarios are played in
    worker processes (see `_played`). `cases`, when given, gets one JUnit case per scenario
    (junit.py)."""
    with programs_shared():
        return _validate_folder(folder, play, bounds, scenarios, cases if cases is not None else [], workers)


def _validate_folder(folder: Path, play: bool, bounds: SmokeBounds, scenarios: bool,
                     cases: list[Case], workers: int) -> list[Diagnostic]:
    found: dict[tuple, Diagnostic] = {}
    suite = display_path(folder)

    def not_played(why: str) -> None:
        cases.extend(Case(suite, path.name, skipped=why) for path in scenario_files(ruleset))

    def add(diagnostics: list[Diagnostic]) -> None:
        for d in diagnostics:
            found.setdefault((d.position, d.message), d)

    try:
        ruleset, problems = read_ruleset(str(folder))
    except SnowrulesError as error:
        add(list(error.diagnostics))
        return _ordered(found)
    bodies = [*ruleset.rules, *(body for c in ruleset.components for body in c.effects.values())]
    add(problems + ruleset.look_alike_warnings() + ruleset.edition_notes
        + position_id_warnings(ruleset.interface, ruleset.ids_by_position, bodies))

    def checked(read, partial: bool = False) -> list[Diagnostic]:
        """The check of a ruleset as read. A rules file that parsed only once its lines with
        syntax errors were left out is checked for unknown names and calls only (a left-out
        declaration makes the rest report follow-on mistakes), and a name that a left-out line
        holds is not reported. With `partial`, the component entries left out for a problem are
        checked too, for one player count, and only what is found in their own texts is kept:
        every mistake of a card comes out in one round."""
        if not read.rules_parsed and not read.rules_recovered:
            return []
        keep = [] if read.rules_parsed else ["SR401", "SR403"]
        if partial:
            if not read.partial_components:
                return []
            found = check(replace(read, components=read.components + read.partial_components),
                          [read.min_players])
            found = [d for d in found if _inside(d, read.partial_components)]
        else:
            found = check(read)
        return [d for d in found if not _follows_from_rejected(d, read.rejected_fields)
                and not (d.code == "SR401" and _quoted_name(d.message) in read.skipped_words)
                and (not keep or d.code in keep)]

    add(checked(ruleset))
    add(checked(ruleset, partial=True))
    add(swapped_arguments(ruleset.rules))
    add(never_set_variables(ruleset.rules, (body for c in ruleset.components for body in c.effects.values())))
    for variant in ruleset.variants:
        try:
            variant_ruleset, problems = read_ruleset(str(folder), variant)
            add(problems + variant_ruleset.look_alike_warnings() + checked(variant_ruleset))
        except SnowrulesError as error:
            add(list(error.diagnostics))
    add(unlisted_files(folder))
    add(stale_provenance(folder, display_path(folder / "ruleset.yaml")))
    add([Diagnostic(Position(_shown_link(path), 1, 1), "this scenario is a link to a file outside the ruleset "
                    "folder; it is not read", "a ruleset reads only files inside its own folder", code="SR106")
         for path in outside_scenario_files(ruleset)])
    if _errors(found):  # scenarios and smoke games need a ruleset without errors
        add(_scenario_syntax(ruleset))
        not_played("not played: the ruleset has errors")
        return _ordered(found)
    smoke, scenario_results = _played(folder, ruleset, play, bounds, scenarios, workers)
    add(smoke)
    if _errors(found):  # a rule that fails in smoke games fails the scenarios too: once is enough
        not_played("not played: a smoke game failed")
        return _ordered(found)
    if not scenarios:
        add(_scenario_syntax(ruleset))
        not_played("not played: --no-scenarios")
        return _ordered(found)
    for path, problems, seconds in scenario_results:  # each played once: its names and expectations checked
        if problems is None:
            cases.append(Case(suite, path.name, skipped="not played: a smoke game or scenario ran out of time"))
            continue
        add(problems)
        cases.append(Case(suite, path.name, seconds, [d.with_code() for d in problems]))
    return _ordered(found)


MIN_PARALLEL_TASKS = 4  # fewer games and scenarios than this are played at once, without workers


def _played(folder: Path, ruleset, play: bool, bounds: SmokeBounds, scenarios: bool,
            workers: int) -> tuple[list[Diagnostic], list[tuple[Path, list[Diagnostic], float]]]:
    """The problems of the smoke games (each variant's, with `play`), and each scenario's path,
    problems and seconds (with `scenarios`), in that order. They are independent of each other,
    so with several workers they are played in a pool of processes forked once the check has
    compiled the configurations (a forked worker finds them compiled), each task's result kept
    in the order of the tasks: the output is the same as one process gives."""
    tasks = [("smoke", variant) for variant in [None, *ruleset.variants]] if play else []
    if scenarios:
        tasks += [("scenario", str(path)) for path in scenario_files(ruleset)]
    run = functools.partial(_play_task, str(folder), bounds)
    _scenario_reads.clear()
    _out_of_time[:] = [_shared_flag()]  # before the workers are forked: they share it
    if workers > 1 and len(tasks) >= MIN_PARALLEL_TASKS:
        if play:  # every configuration the smoke games play, compiled once here rather than in each worker
            _compile_every_count(folder, [None, *ruleset.variants])
        results = _in_workers(min(workers, len(tasks)), run, tasks)
    else:
        results = [run(task) for task in tasks]
    smoke = [d for (kind, _), (found, _) in zip(tasks, results) if kind == "smoke" for d in found or ()]
    scenario = [(Path(item), found, seconds) for (kind, item), (found, seconds) in zip(tasks, results)
                if kind == "scenario"]
    return smoke, scenario


def _compile_every_count(folder: Path, variants: list[str | None]) -> None:
    """Each variant at each of its player counts, compiled into the shared programs before the
    workers are forked: the smoke games play them all, and scenarios most of them, and a program
    compiled in one worker is not seen by the others."""
    for variant in variants:
        read = read_ruleset(str(folder), variant)[0]
        for players in range(read.min_players, read.max_players + 1):
            try:
                compile_ruleset(read, players)
            except SnowrulesError:  # the smoke game of that count reports it
                pass


_scenario_reads: dict = {}  # the ruleset as read for its scenarios, once per process (run_scenario)


def _play_task(folder: str, bounds: SmokeBounds, task: tuple[str, str | None]) -> tuple[list[Diagnostic] | None, float]:
    """One task of `_played`: its problems (None: not played, as an earlier task ran out of
    time) and the seconds it took."""
    kind, item = task
    started = time.perf_counter()
    flag = _out_of_time[0] if _out_of_time else None
    if flag is not None and flag.value:
        return None, 0.0
    with placed_memory_errors():  # a worker's MemoryError carries its place back
        if kind == "smoke":
            problems = smoke_play(read_ruleset(folder, item)[0], bounds)
        else:
            try:
                result = run_scenario(Path(item), folder, bounds.max_steps, _scenario_reads,
                                      functools.partial(game_clock, bounds.seconds))
                problems = expectation_failures(result.failures)
            except SnowrulesError as error:
                problems = list(error.diagnostics)
    if flag is not None and any(d.code in OUT_OF_TIME_CODES for d in problems):
        flag.value = 1
    return problems, time.perf_counter() - started


# A smoke game or scenario stopped by its time limit (SR709; SR602 where no clock works): the
# tasks not yet started are not played. They would most likely run into the same rule for their
# whole limit each (a `while` that never ends in setup: 5 s for every scenario), and the ruleset
# fails already.
OUT_OF_TIME_CODES = (TIME_LIMIT_CODE, "SR602")
_out_of_time: list = []  # the flag of the folder being played: a number in memory the workers share


def _shared_flag():
    import multiprocessing
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    return multiprocessing.get_context(method).RawValue("b", 0)


def _in_workers(workers: int, run, tasks: list) -> list[list[Diagnostic]]:
    """Each task's result, in the tasks' order, played by worker processes (forked where the system
    can: a worker starts at once, with what the check compiled); a worker that dies is an error
    (WorkerLost), not a wait without end."""
    from snowrules.play.simulate import ignore_interrupts
    from snowrules.play.workers import Workers
    with Workers(workers, initializer=ignore_interrupts) as pool:
        return pool.map(run, tasks)


def _errors(found: dict[tuple, Diagnostic]) -> list[Diagnostic]:
    return [d for d in found.values() if d.severity == "error"]


def _follows_from_rejected(diagnostic: Diagnostic, fields: set[str]) -> bool:
    """A rule's "no component has a field X" when X is a field of a component entry left out for
    a problem already reported: a follow-on, not a second mistake."""
    match = re.match(r"no component has a field '([^']*)'", diagnostic.message)
    return match is not None and match.group(1) in fields


def _inside(diagnostic: Diagnostic, entries: list) -> bool:
    """Whether a diagnostic stands inside one of these component entries."""
    where = diagnostic.position
    return any(where.path == e.position.path and e.position.line <= where.line <= e.last_line for e in entries)


def _quoted_name(message: str) -> str:
    """The name an "unknown name 'x'" message is about."""
    match = re.search(r"'([^']*)'", message)
    return match.group(1) if match else ""


def _scenario_syntax(ruleset) -> list[Diagnostic]:
    """Scenario files' own YAML and schema problems (checked even when the ruleset is broken)."""
    from snowrules.records.scenarios import load_scenario
    found = []
    for path in scenario_files(ruleset):
        try:
            load_scenario(path)
        except SnowrulesError as error:
            found += error.diagnostics
    return found


def unlisted_files(folder: Path) -> list[Diagnostic]:
    """YAML files inside the ruleset folder that neither the manifest nor a variant lists (and
    that are not scenarios, found by their folder): a card file someone forgot to add would
    otherwise pass unchecked. Each is also read, so that its YAML mistakes are reported."""
    document, _ = load_yaml(folder / "ruleset.yaml", display_path(folder / "ruleset.yaml"))
    if document is None or not isinstance(document.tree, dict):
        return []
    manifest = plain(document.tree)
    listed = {"ruleset.yaml"} | {str(f) for f in manifest.get("components", []) or []}
    for variant_file in (manifest.get("variants") or {}).values():
        listed.add(str(variant_file))
        overlay, _ = load_yaml(folder / str(variant_file), display_path(folder / str(variant_file)))
        tree = plain(overlay.tree) if overlay is not None else None
        if isinstance(tree, dict) and isinstance(tree.get("components"), dict):
            listed |= {str(f) for f in tree["components"].values() if f}
    listed = {Path(f).as_posix().removeprefix("./") for f in listed}
    # A listed file that is missing and an unlisted one of a close name are one mistake (a
    # misspelt path), already reported at the manifest's line: the unlisted file is not repeated.
    missing = [f for f in listed if not (folder / f).is_file()]
    found = []
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder).as_posix()
        if (path.suffix not in YAML_SUFFIXES or relative in listed or relative.startswith(("scenarios/", "."))
                or "/." in relative or not path.is_file()):
            continue
        if difflib.get_close_matches(relative, missing, n=1, cutoff=0.8):
            continue
        if not inside(path, folder):  # never read a file outside the folder, not even to report it
            found.append(Diagnostic(Position(_shown_link(path), 1, 1), "this YAML file is a link to a file "
                                    "outside the ruleset folder; it is not read", code="SR106"))
            continue
        shown = display_path(path)
        # a warning (it breaks nothing by itself; `--strict` fails on it); its own YAML
        # mistakes, if any, are errors
        found.append(Diagnostic(Position(shown, 1, 1), "this YAML file is not listed by ruleset.yaml nor by a "
                                "variant, so it is never checked nor used",
                                "add it to `components:` in ruleset.yaml, or delete it", severity="warning",
                                code="SR105"))
        _, problems = load_yaml(path, shown)
        found += problems
    return found


def _shown_link(path: Path) -> str:
    """A link as users see it: its own name, not its target's."""
    return f"{display_path(path.parent)}/{path.name}"


def _ordered(found: dict[tuple, Diagnostic]) -> list[Diagnostic]:
    return sorted(found.values(), key=lambda d: (d.position.path, d.position.line, d.position.col, d.message))


def validate_paths(refs: list[str], play: bool = True, bounds: SmokeBounds = DEFAULT_BOUNDS,
                   scenarios: bool = True, cases: list[Case] | None = None, strict: bool = False,
                   workers: int = 1) -> tuple[list[Path], list[Diagnostic]]:
    """The folders `refs` name, and every problem found in them (each once). `cases`, when
    given, gets a JUnit case for each folder's own check (failed by its errors, and with
    `strict` its warnings too) and one for each of its scenarios."""
    folders, problems = ruleset_folders(refs)
    seen = {(d.position, d.message) for d in problems}
    for folder in folders:
        started, played = time.perf_counter(), []
        found = validate_folder(folder, play, bounds, scenarios, played, workers)
        if cases is not None:
            in_scenarios = {text for case in played for text in case.problems}
            failing = ("error", "warning") if strict else ("error",)
            errors = [d.with_code() for d in found if d.severity in failing and d.with_code() not in in_scenarios]
            cases.append(Case(display_path(folder), "check", time.perf_counter() - started
                              - sum(c.seconds for c in played), errors))
            cases.extend(played)
        for d in found:
            if (d.position, d.message) not in seen:
                seen.add((d.position, d.message))
                problems.append(d)
    return folders, problems
