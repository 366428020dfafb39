"""`snowrules tune`: its checks, its tables in the terminal, its JSON object, and the variant file it
writes for `compare` (the search itself: play/tune.py).

The winner is written as a variant of the ruleset folder (`--write-variant NAME`): a component
list's constants under the variant's `constants:`, a rules file's `constant x = ...` in a rules file
of the variant (its definitions replace the base's), and the variant named in the manifest's
`variants:`. An option cannot be set by a variant: the compare command printed sets it with
`--other-option`. The JSON object is a contract (schemas/tune.schema.json).
"""
from __future__ import annotations

import json
import math
import os
import re
import sys
from pathlib import Path

from snowrules.cli.sweep import agents_text, at_point_told, checked, counted, figure_json, point_text, value_text
from snowrules.cli.usage import UsageError
from snowrules.load.overrides import Axis
from snowrules.play.tune import Candidate, Tuning

TUNE_FORMAT = "snowrules-tune/1"


def _variant_target(args, ruleset) -> Path | None:
    """The variant file --write-variant will write, checked before any game; None without it."""
    name = args.write_variant
    if name is None:
        return None
    from snowrules.load.ruleset import BUNDLED_RULESETS
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name):
        raise UsageError(f"--write-variant {name!r}: a variant's name is letters, digits and _, from a letter "
                         "(it names the file variants/NAME.yaml)")
    folder = ruleset.folder
    if Path(folder).resolve().is_relative_to(Path(BUNDLED_RULESETS).resolve()):
        raise UsageError(f"--write-variant: {ruleset.name} is a bundled ruleset; copy its folder and tune the "
                         "copy (snowrules tune FOLDER ...)")
    if args.variant is not None:
        raise UsageError("--write-variant: a variant is an overlay on the base game; tune without --variant")
    target = f"variants/{name}.yaml"
    listed = ruleset.variants.get(name)
    if listed is not None and listed != target:
        raise UsageError(f"--write-variant {name}: the manifest already names a variant {name} ({listed}); "
                         "choose another name")
    manifest = Path(folder) / "ruleset.yaml"
    variants = Path(folder) / "variants"
    if not os.access(manifest, os.W_OK) or not os.access(variants if variants.is_dir() else Path(folder), os.W_OK):
        raise UsageError(f"--write-variant: cannot write into {folder} (its manifest or variants folder is read-only)")
    return Path(folder) / target


def command_tune(args) -> int:
    from snowrules.play.sweep import figure_defs
    from snowrules.play.tune import MOST_TRIALS, ObjectiveError, TuneUnavailable, check_tune_available, objective, tune
    found = checked(args, args.vary, "--vary")
    if not 1 <= args.trials <= MOST_TRIALS:
        raise UsageError(f"--trials must be between 1 and {MOST_TRIALS}")
    if args.recheck < 1:
        raise UsageError("--recheck must be at least 1 (the best candidates are played again on fresh seeds)")
    known = [d.name for d in figure_defs(found.spec.players, found.spec.track_components)]
    try:
        goal = objective(args.objective, known)
    except ObjectiveError as error:
        raise UsageError(f"--objective: {error}") from None
    target = _variant_target(args, found.ruleset)
    try:
        check_tune_available()
    except TuneUnavailable as error:
        raise UsageError(str(error)) from None
    watched = not args.json and sys.stderr.isatty()
    where: list[str] = []

    def started(what: str, values: tuple) -> None:
        where[:] = [point_text(found.axes, values)]
        if watched:
            print(f"  {what} {where[0]}", file=sys.stderr)
    with at_point_told("tune", where):
        result = tune(found.spec, found.axes, goal, args.games, args.seed, args.trials, args.recheck,
                      args.maximize, args.workers, args.cluster, progress=watched, started=started)
    if not result.candidates:
        print("interrupted before any candidate finished", file=sys.stderr)
        return 130
    if not result.interrupted and all(math.isnan(c.objective) for c in result.candidates):
        print(f"tune: the objective {args.objective!r} has no value at any point tried (a division by zero, "
              "or a figure these games do not have?): nothing to choose", file=sys.stderr)
        return 1
    written = compare = None
    if result.winner is not None:
        compare = _compare_command(args, found.ruleset, result, target)
        if target is not None:
            try:
                written = write_variant(target, found.ruleset, result)
            except OSError as error:
                raise UsageError(f"--write-variant: cannot write {target}: {error.strerror or error}") from None
    if args.report is not None:
        from snowrules.play.sweep_report import tune_report
        page = tune_report(args.report, found.ruleset.title, result)
        if not args.json:
            print(f"report written to {page}")
    if args.json:
        print(json.dumps(tune_json(result, found.ruleset, written, compare)))
    else:
        print_tuning(found.ruleset.title, result, written, compare)
    return 130 if result.interrupted else 0


def _compare_command(args, ruleset, result: Tuning, target: Path | None) -> str | None:
    """The `snowrules compare` of the winner against the base game, on new seeds; None when the
    winner sets constants and no variant file was written."""
    winner = result.winner
    parts = ["snowrules compare", str(ruleset.folder) if target is not None else args.ruleset]
    constants = [(a.name, v) for a, v in zip(result.axes, winner.values) if a.name not in ruleset.options]
    if constants and target is None:
        return None  # constants need a variant file (--write-variant) to be compared
    if constants:
        parts.append(f"--variant {args.write_variant}")
    parts += [f"--option {text}" for text in args.option]
    parts += [f"--other-option {a.name}={value_text(v)}" for a, v in zip(result.axes, winner.values)
              if a.name in ruleset.options]
    parts += [f"--players {result.spec.players}", f"--games {result.games}", f"--seed {result.seed + 2}"]
    if set(result.spec.agents) != {"random"}:
        parts.append(f"--agents {agents_text(result.spec.agents)}")
    return " ".join(parts)


def variant_text(ruleset, result: Tuning, name: str) -> tuple[str, str | None]:
    """(the variant's YAML, its rules file or None) holding the winner's constants."""
    winner = result.winner
    values = [(a, v) for a, v in zip(result.axes, winner.values) if a.name not in ruleset.options]
    listed = [(a, v) for a, v in values if a.name in ruleset.constants]
    ruled = [(a, v) for a, v in values if a.name not in ruleset.constants]
    direction = "maximise" if result.maximize else "minimise"
    lines = [f"# Written by `snowrules tune` to {direction} {result.goal.text}: the best of "
             f"{len(result.candidates)} candidates",
             f"# ({result.games} games each), played again on fresh seeds: objective {winner.recheck:.4g}"
             f" (95% interval {winner.low:.4g} .. {winner.high:.4g}).",
             f"name: {name}", f"description: {json.dumps(point_text(result.axes, winner.values))}"]
    if listed:
        lines.append("constants:")
        lines += [f"  {a.name}: {json.dumps(v)}" for a, v in listed]
    rules = None
    if ruled:
        lines.append(f"rules: [variants/{name}.sr]")
        rules = "".join(f"# [Tuned] by snowrules tune\nconstant {a.name} = {_rules_value(v)}\n" for a, v in ruled)
    return "\n".join(lines) + "\n", rules


def _rules_value(value) -> str:
    return value_text(value) if not isinstance(value, str) else json.dumps(value)


def write_variant(target: Path, ruleset, result: Tuning) -> Path:
    """Write the variant file (and its rules file) and name it in the manifest's `variants:`."""
    name = target.stem
    text, rules = variant_text(ruleset, result, name)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    if rules is not None:
        target.with_suffix(".sr").write_text(rules, encoding="utf-8")
    if ruleset.variants.get(name) is None:
        manifest = Path(ruleset.folder) / "ruleset.yaml"
        manifest.write_text(listed_variant(manifest.read_text(encoding="utf-8"), name), encoding="utf-8")
    return target


def listed_variant(text: str, name: str) -> str:
    """The manifest's text with `name: variants/NAME.yaml` added to its `variants:`, every other
    line kept as it was (comments, order, flow style)."""
    entry = f"{name}: variants/{name}.yaml"
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        found = re.match(r"^variants:[ \t]*(\{.*\})?[ \t]*(#.*)?$", line.rstrip("\n"))
        if found is None:
            continue
        if found.group(1) is not None:  # flow style: {a: x, b: y}
            inner = found.group(1)[1:-1].strip()
            lines[i] = line.replace(found.group(1), "{" + (f"{inner}, " if inner else "") + entry + "}", 1)
            return "".join(lines)
        block = i + 1
        indent = "  "
        while block < len(lines) and (lines[block].startswith((" ", "\t")) or not lines[block].strip()):
            if lines[block].strip() and not lines[block].lstrip().startswith("#"):
                indent = lines[block][:len(lines[block]) - len(lines[block].lstrip())]
            block += 1
        while block > i + 1 and not lines[block - 1].strip():
            block -= 1
        lines.insert(block, f"{indent}{entry}\n")
        return "".join(lines)
    ending = "" if not text or text.endswith("\n") else "\n"
    return f"{text}{ending}variants:\n  {entry}\n"


def _n(value: float | None) -> float | None:
    return None if value is None or math.isnan(value) else round(value, 6)


def _constants(axes: list[Axis], values: tuple) -> dict:
    return {a.name: v for a, v in zip(axes, values)}


def tune_json(result: Tuning, ruleset, written: Path | None, compare: str | None) -> dict:
    spec = result.spec

    def candidate(c: Candidate) -> dict:
        return {"constants": _constants(result.axes, c.values), "objective": _n(c.objective),
                "figures": {n: figure_json(c.figures[n]) for n in result.goal.names}}

    def rechecked(c: Candidate) -> dict:
        return {"constants": _constants(result.axes, c.values), "search_objective": _n(c.objective),
                "objective": _n(c.recheck), "low": _n(c.low), "high": _n(c.high),
                "figures": {n: figure_json(f) for n, f in c.recheck_figures.items()}}

    return {"format": TUNE_FORMAT, "ruleset": ruleset.name, "variant": spec.variant, "options": dict(spec.options),
            "players": spec.players, "agents": list(spec.agents), "games": result.games, "seed": result.seed,
            "recheck_seed": result.seed + 1, "objective": result.goal.text, "figures_read": list(result.goal.names),
            "direction": "maximize" if result.maximize else "minimize", "trials": result.trials,
            "sampler": result.sampler,
            "axes": [{"name": a.name, "values": list(a.values)} for a in result.axes],
            "candidates": [candidate(c) for c in result.candidates],
            "rechecked": [rechecked(c) for c in result.rechecked],
            "winner": None if result.winner is None else _constants(result.axes, result.winner.values),
            "variant_file": None if written is None else str(written), "compare": compare,
            "interrupted": result.interrupted}


def overlap(result: Tuning) -> bool:
    """Whether the winner's re-run interval overlaps the runner-up's: the games cannot tell them apart."""
    if len(result.rechecked) < 2:
        return False
    a, b = result.rechecked[0], result.rechecked[1]
    if any(v is None or math.isnan(v) for v in (a.low, a.high, b.low, b.high)):
        return False
    return a.low <= b.high and b.low <= a.high


def print_tuning(title: str, result: Tuning, written: Path | None, compare: str | None) -> None:
    from rich.console import Console
    from rich.table import Table
    console = Console(width=120)
    spec = result.spec
    direction = "maximise" if result.maximize else "minimise"
    sampler = "every point" if result.sampler == "every point" else f"{result.sampler}, {result.trials} trials"
    console.print(f"{title}: {direction} {result.goal.text} over {', '.join(a.name for a in result.axes)}; "
                  f"{len(result.candidates)} candidates tried ({sampler}) x "
                  f"{counted(result.games, 'game')}, {counted(spec.players, 'player')}, agents "
                  f"{agents_text(spec.agents)}; master seed {result.seed}"
                  f"{'; interrupted' if result.interrupted else ''}", highlight=False, soft_wrap=True)
    table = Table(title=f"the best candidates played again on fresh seeds (master seed {result.seed + 1})",
                  title_justify="left")
    for a in result.axes:
        table.add_column(a.name, justify="right")
    table.add_column("search", justify="right")
    table.add_column("fresh seeds (95% interval)", justify="right")
    for name in result.goal.names:
        table.add_column(name.replace("_", " "), justify="right")
    from snowrules.cli.sweep import cell
    for c in result.rechecked:
        table.add_row(*(value_text(v) for v in c.values), f"{c.objective:.4g}",
                      f"{c.recheck:.4g} ({c.low:.4g}..{c.high:.4g})",
                      *(cell(c.recheck_figures[n]) for n in result.goal.names))
    console.print(table)
    if result.winner is None:
        return
    console.print(f"winner: {point_text(result.axes, result.winner.values)}", highlight=False)
    if overlap(result):
        console.print(f"note: its interval overlaps the runner-up's: {counted(result.games, 'game')} cannot tell them "
                      "apart; give more --games to be sure", highlight=False, soft_wrap=True)
    if written is not None:
        console.print(f"variant written to {written}", highlight=False, soft_wrap=True)
    if compare is not None:
        console.print(f"compare it with the base game: {compare}", highlight=False, soft_wrap=True)
    else:
        console.print("to compare it with the base game, write it as a variant: --write-variant NAME "
                      "(on a ruleset folder; copy a bundled one first)", highlight=False, soft_wrap=True)
