"""Planted mistakes: each kind of mistake a designer makes, planted in a copy of a bundled ruleset,
with the line and the codes `validate` must report it with.

Every mutation is found in the ruleset's own text (a declared name and a line that uses it, a
card's number, a call of a procedure...), so the suite follows the rulesets as they change. The
expected line is where the mistake was planted; the expected codes are what issue 10 asks
(`docs/diagnostics.md`). A deleted line has no line of its own: it only has to be reported.

`python tests/mutations.py [--all | --per-kind N | --sample N [--seed S]]` prints the report: cases,
exact-line rate, internal errors and the mistakes no check reports.
The test (test_mutations.py) runs a sample of each kind.
"""
from __future__ import annotations

import re
import shutil
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"
NAME = re.compile(r"^\s*(?:zone|counter)\s+(\w+)")
DEFINE = re.compile(r"^define\s+(\w+)\(([^)]*)\)")
FLOW_ENTRY = re.compile(r"^(\s*- )\{(.*)\}\s*$")
PHASE = re.compile(r"^\s*phase\s+\w+\s*:")


@dataclass(frozen=True)
class Mutation:
    """One planted mistake: line `line` of `file` (1-based) becomes `new` (None deletes it)."""

    kind: str
    ruleset: str
    file: str
    line: int
    new: str | None
    codes: tuple[str, ...]
    exact: bool = True  # False: a deleted line, reported anywhere
    shift: int = 0  # the report's line is `line + shift` (a line inserted after `line`)

    @property
    def report_line(self) -> int:
        return self.line + self.shift

    @property
    def label(self) -> str:
        return f"{self.kind}:{self.ruleset}/{self.file}:{self.line}"

    def plant(self, folder: Path) -> None:
        path = folder / self.file
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        if self.new is None:
            del lines[self.line - 1]
        else:
            lines[self.line - 1] = self.new + "\n"
        path.write_text("".join(lines), encoding="utf-8")


def misspell(name: str) -> str:
    """A typo: the last two letters swapped, or a doubled last letter when they are equal."""
    if len(name) >= 3 and name[-1] != name[-2]:
        return name[:-2] + name[-1] + name[-2]
    return name + name[-1]


def _code_part(line: str) -> str:
    """The line without its comment and its quoted texts (names there are not names)."""
    line = line.split("#", 1)[0]
    return re.sub(r'"[^"]*"', lambda m: " " * len(m.group()), line)


def _replace_word(line: str, word: str, new: str) -> str | None:
    code = _code_part(line)
    match = re.search(rf"(?<![\w.]){re.escape(word)}\b", code) or re.search(rf"\.{re.escape(word)}\b", code)
    if match is None:
        return None
    start = match.start() + (1 if code[match.start()] == "." else 0)
    return line[:start] + new + line[start + len(word):]


def _lines(folder: Path, file: str) -> list[str]:
    return (folder / file).read_text(encoding="utf-8").splitlines()


def _declared(folder: Path, rules: list[str]) -> set[str]:
    names = set()
    for file in rules:
        for line in _lines(folder, file):
            match = NAME.match(line)
            if match:
                names.add(match.group(1))
    return names


def _manifest(folder: Path) -> dict:
    from ruamel.yaml import YAML
    return YAML(typ="safe", pure=True).load((folder / "ruleset.yaml").read_text(encoding="utf-8"))


def mutations(ruleset: str) -> Iterator[Mutation]:
    """Every mutation of every kind for a bundled ruleset."""
    folder = RULESETS / ruleset
    manifest = _manifest(folder)
    rules, components = list(manifest["rules"]), list(manifest.get("components", []))
    names = _declared(folder, rules)

    def name_uses(file: str, kind: str, inside=lambda number, line: True) -> Iterator[Mutation]:
        for number, line in enumerate(_lines(folder, file), 1):
            if NAME.match(line) or PHASE.match(line) or not _code_part(line).strip() or not inside(number, line):
                continue  # a phase's name is a label, not a use: `phase bdi:` is the same rules
            for name in sorted(names):
                new = _replace_word(line, name, misspell(name))
                if new is not None and misspell(name) not in names:
                    yield Mutation(kind, ruleset, file, number, new, ("SR401",))
                    break

    for file in rules:
        yield from name_uses(file, "misspelt-name-in-rules")
    for file in components:
        text = _lines(folder, file)
        in_effect = set()
        for number, line in enumerate(text, 1):
            if re.match(r"^\s+(effect|condition): *\|", line):
                indent = len(line) - len(line.lstrip())
                for after in range(number, len(text)):
                    body = text[after]
                    if body.strip() and len(body) - len(body.lstrip()) <= indent:
                        break
                    in_effect.add(after + 1)
        yield from name_uses(file, "misspelt-name-in-effect",
                             lambda number, line, lines=frozenset(in_effect): number in lines)
        yield from _component_mutations(ruleset, file, text)
    yield from _rules_shape(ruleset, folder, rules)
    yield from _scenario_mutations(ruleset, folder, names)
    lines = _lines(folder, "ruleset.yaml")
    section = ""
    for number, line in enumerate(lines, 1):
        section = line.split(":", 1)[0] if line[:1].isalpha() else section  # the top-level key it is under
        match = re.match(r"^(\s+\w+: )(variants/\S+\.yaml)\s*$", line)
        if match and section == "variants":  # not a provenance entry's `where: variants/...`
            yield Mutation("missing-variant-file", ruleset, "ruleset.yaml", number,
                           match.group(1) + match.group(2).replace(".yaml", "_x.yaml"), ("SR101",))
        match = re.match(r"^(\s+where: )([\w/]+)(\.sr|\.yaml)\b(.*)$", line)
        if match and section == "provenance":  # a file renamed since the entry was written
            yield Mutation("stale-provenance", ruleset, "ruleset.yaml", number,
                           match.group(1) + match.group(2) + "_x" + match.group(3) + match.group(4), ("SR101",))
        match = re.match(r"^(\s+- )(components/\S+\.yaml)\s*$", line)
        if match:
            yield Mutation("missing-component-file", ruleset, "ruleset.yaml", number,
                           match.group(1) + match.group(2).replace(".yaml", "_x.yaml"), ("SR101",))


def _component_mutations(ruleset: str, file: str, text: list[str]) -> Iterator[Mutation]:
    for number, line in enumerate(text, 1):
        match = FLOW_ENTRY.match(line)
        if match:
            lead, body = match.groups()
            fields = [f.strip() for f in body.split(", ")]
            keys = [f.split(":", 1)[0] for f in fields]
            if "name" in keys and len(fields) >= 2:
                rest = [f for f in fields if not f.startswith("name:")]
                yield Mutation("missing-field", ruleset, file, number, lead + "{" + ", ".join(rest) + "}",
                               ("SR202",))
                other = next(k for k in keys if k != "name")
                if misspell(other) != other:
                    renamed = [misspell(other) + f[len(other):] if f.startswith(other + ":") else f for f in fields]
                    yield Mutation("unknown-field", ruleset, file, number, lead + "{" + ", ".join(renamed) + "}",
                                   ("SR201",))
                yield Mutation("duplicate-entry", ruleset, file, number, line + "\n" + line, ("SR205",), shift=1)
            numbers = [f for f in fields if re.fullmatch(r"\w+: -?\d+", f) and not f.startswith("copies:")]
            if numbers:
                wrong = [f.split(":")[0] + ": seven" if f == numbers[0] else f for f in fields]
                yield Mutation("wrong-yaml-type", ruleset, file, number, lead + "{" + ", ".join(wrong) + "}",
                               ("SR203",))
        block = re.match(r"^(\s+)(\w+): (\S.*)$", line)
        if block and not line.lstrip().startswith("-") and number > 1 and block.group(2) not in ("effect",):
            previous = text[number - 2]
            if re.match(r"^\s+(- )?\w+: \S", previous) and len(block.group(1)) >= 4:
                yield Mutation("yaml-indentation", ruleset, file, number, " " + line, ("SR103", "SR104"))


def _rules_shape(ruleset: str, folder: Path, rules: list[str]) -> Iterator[Mutation]:
    for file in rules:
        text = _lines(folder, file)
        defines = {}
        for line in text:
            match = DEFINE.match(line)
            if match and match.group(2).strip():
                defines[match.group(1)] = [p.strip() for p in match.group(2).split(",")]
        depth = 0  # brackets open before the line: inside them, indentation means nothing
        for number, line in enumerate(text, 1):
            code = _code_part(line)
            inside, depth = depth > 0, depth + sum(code.count(c) for c in "([{") - sum(code.count(c) for c in ")]}")
            if not code.strip():
                continue
            indent = len(line) - len(line.lstrip())
            following = next((t for t in text[number:] if _code_part(t).strip()), "")
            follow_indent = len(following) - len(following.lstrip())
            previous = next((t for t in reversed(text[:number - 1]) if _code_part(t).strip()), "")
            if (indent > 0 and not code.rstrip().endswith(":") and follow_indent <= indent
                    and len(previous) - len(previous.lstrip()) == indent and not previous.rstrip().endswith(":")):
                if not inside:  # a continuation line indented further is the same rules: not a mistake
                    yield Mutation("rules-indentation", ruleset, file, number, "  " + line, ("SR301", "SR302"))
                yield Mutation("deleted-line", ruleset, file, number, None, (), exact=False)
            if line.startswith(("setup:", "each turn:", "at game end:")) or re.match(r"^rounds ", line):
                yield Mutation("deleted-line", ruleset, file, number, None, (), exact=False)
            if DEFINE.match(line):
                continue
            for name, params in defines.items():
                call = re.search(rf"(?<![\w.]){name}\(([^()]*)\)", code)
                if call is None:
                    continue
                start, end = call.span(1)
                args = [a.strip() for a in line[start:end].split(",")]
                if len(args) != len(params) or any(re.search(r"[\[\]\"']", a) or not a for a in args):
                    continue
                if len(args) >= 2 and args[0] != args[1]:
                    swapped = ", ".join([args[1], args[0], *args[2:]])
                    yield Mutation("swapped-arguments", ruleset, file, number, line[:start] + swapped + line[end:],
                                   ("SR402",))
                yield Mutation("missing-argument", ruleset, file, number,
                               line[:start] + ", ".join(args[:-1]) + line[end:], ("SR403",))
                break


def _scenario_mutations(ruleset: str, folder: Path, names: set[str]) -> Iterator[Mutation]:
    for path in sorted((folder / "scenarios").glob("*.yaml")):
        file = path.relative_to(folder).as_posix()
        text = _lines(folder, file)
        if not any(line.startswith("variant:") for line in text):  # a second variant key is a YAML error
            for number, line in enumerate(text, 1):
                if line.startswith("name:"):
                    yield Mutation("unknown-scenario-variant", ruleset, file, number, line + "\nvariant: nope",
                                   ("SR501",), shift=1)
                    break
        for number, line in enumerate(text, 1):
            code = line.split("#", 1)[0]
            match = re.search(r"\b\w+\.(\w+)(?=[:\[])", code)
            if match and match.group(1) in names and not line.lstrip().startswith("- "):
                new = line[:match.start(1)] + misspell(match.group(1)) + line[match.end(1):]
                yield Mutation("scenario-reference", ruleset, file, number, new, ("SR501",))


# ---- running them -----------------------------------------------------------------------------


@dataclass
class Outcome:
    mutation: Mutation
    reported: bool
    exact: bool
    code_ok: bool
    internal: str = ""
    found: str = ""


def run(mutation: Mutation, workdir: Path) -> Outcome:
    """Plant `mutation` in a fresh copy under `workdir` and validate it (in-process)."""
    from snowrules.cli.validation import validate_folder
    folder = workdir / mutation.ruleset
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(RULESETS / mutation.ruleset, folder)
    mutation.plant(folder)
    try:
        found = validate_folder(folder)
    except Exception as error:  # noqa: BLE001 - an internal error is what the suite counts
        return Outcome(mutation, False, False, False, internal=f"{type(error).__name__}: {error}")
    want = str((folder / mutation.file).resolve())
    at_line = [d for d in found
               if str(Path(d.position.path).resolve()) == want and d.position.line == mutation.report_line]
    exact = bool(at_line) if mutation.exact else bool(found)
    code_ok = (not mutation.codes) or any(d.code in mutation.codes for d in at_line)
    shown = "; ".join(f"{Path(d.position.path).name}:{d.position.line}:{d.position.col} {d.code} {d.message}"
                      for d in found[:3])
    return Outcome(mutation, bool(found), exact, code_ok, found=shown)


def every_mutation() -> list[Mutation]:
    return [m for name in sorted(p.parent.name for p in RULESETS.glob("*/ruleset.yaml")) for m in mutations(name)]


def sample(per_kind: int) -> list[Mutation]:
    """The first `per_kind` mutations of each kind in each ruleset, spread over its files."""
    chosen: dict[tuple, list[Mutation]] = {}
    for m in every_mutation():
        group = chosen.setdefault((m.ruleset, m.kind), [])
        if len(group) < per_kind and all(abs(g.line - m.line) > 3 or g.file != m.file for g in group):
            group.append(m)
    return [m for group in chosen.values() for m in group]


def main(argv: list[str]) -> int:
    import tempfile
    per_kind = int(argv[argv.index("--per-kind") + 1]) if "--per-kind" in argv else 3
    cases = every_mutation() if "--all" in argv else sample(per_kind)
    if "--sample" in argv:  # a seeded draw of N cases of the whole set: its figures when --all is too long
        import random
        draw = int(argv[argv.index("--sample") + 1])
        seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 29
        everything = every_mutation()
        cases = random.Random(seed).sample(everything, min(draw, len(everything)))
    started = time.monotonic()
    outcomes = []
    from snowrules.compile.compiler import programs_shared
    # a configuration the mistake leaves as it was is built once
    with tempfile.TemporaryDirectory() as workdir, programs_shared():
        for m in cases:
            outcomes.append(run(m, Path(workdir)))
    exact = [o for o in outcomes if o.mutation.exact]
    print(f"cases: {len(outcomes)} in {time.monotonic() - started:.0f} s")
    print(f"exact line: {sum(o.exact for o in exact)}/{len(exact)} "
          f"({100 * sum(o.exact for o in exact) / max(len(exact), 1):.1f}%)")
    print(f"expected code at that line: {sum(o.exact and o.code_ok for o in exact)}/{len(exact)}")
    print(f"internal errors: {sum(bool(o.internal) for o in outcomes)}")
    print(f"not reported at all: {sum(not o.reported for o in outcomes)}")
    kinds = sorted({o.mutation.kind for o in outcomes})
    for kind in kinds:
        mine = [o for o in outcomes if o.mutation.kind == kind]
        print(f"  {kind}: {sum(o.exact and o.code_ok for o in mine)}/{len(mine)} exact with code, "
              f"{sum(not o.reported for o in mine)} unreported")
    for o in outcomes:
        if o.internal or not o.exact or not o.code_ok:
            print(f"MISS {o.mutation.label}: {o.internal or o.found or 'nothing reported'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
