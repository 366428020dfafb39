"""JUnit XML for CI systems (`validate --junit-xml FILE`, `test --junit-xml FILE`), and the choice
of scenarios by a pattern (`test -k PATTERN`).

A CI system (GitLab, Jenkins, Azure, GitHub's test reporters) shows a JUnit file as a list of
tests with their failures. The form written is the common subset those readers accept:
`<testsuites>` holding one `<testsuite>` per ruleset, one `<testcase>` per scenario (its file's
name, its title as the class name's tail) and, for `validate`, one for the ruleset's own check;
a failing case holds one `<failure>` whose text is the diagnostics, one a line, as the terminal
shows them. The XML is written by the standard library's ElementTree, which escapes every text.
"""
from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

from snowrules.cli.usage import UsageError
from snowrules.language.diagnostics import Diagnostic, Position, SnowrulesError
from snowrules.load.yaml_files import plain


@dataclass
class Case:
    """One test case: a scenario, or a ruleset's check. `problems` fail it; `skipped` says why it
    was not run."""

    suite: str
    name: str
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    skipped: str = ""


def expectation_failures(failures: list[str]) -> list[Diagnostic]:
    """A scenario's unmet expectations (`path:line:col: Marie.score is 18, expected 19`, as
    `test` prints them) as diagnostics at their place (SR503), for `validate`."""
    found = []
    for failure in failures:
        where, _, message = failure.partition(": ")
        found.append(Diagnostic(Position.parse(where), message, code="SR503"))
    return found


def check_target(path: Path | None) -> None:
    """A JUnit file that cannot be written is a wrong argument: said before any game is played."""
    if path is None:
        return
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise UsageError(f"--junit-xml {path}: is a folder; give a file name, such as {path / 'results.xml'}")
    if not folder.is_dir():
        raise UsageError(f"--junit-xml {path}: no folder {folder} to write it in")
    if not os.access(folder, os.W_OK):
        raise UsageError(f"--junit-xml {path}: the folder {folder} is not writable")


def write(path: Path, cases: list[Case]) -> None:
    """The cases as JUnit XML in `path`, one suite per `Case.suite`, in the order first seen."""
    root = ET.Element("testsuites", name="snowrules")
    suites: dict[str, ET.Element] = {}
    for case in cases:
        suite = suites.get(case.suite)
        if suite is None:
            suite = suites[case.suite] = ET.SubElement(root, "testsuite", name=case.suite)
        element = ET.SubElement(suite, "testcase", classname=case.suite, name=case.name,
                                time=f"{case.seconds:.3f}")
        if case.problems:
            failure = ET.SubElement(element, "failure", message=case.problems[0])
            failure.text = "\n".join(case.problems)
        elif case.skipped:
            ET.SubElement(element, "skipped", message=case.skipped)
    for suite_name, element in suites.items():
        mine = [c for c in cases if c.suite == suite_name]
        element.set("tests", str(len(mine)))
        element.set("failures", str(sum(bool(c.problems) for c in mine)))
        element.set("errors", "0")
        element.set("skipped", str(sum(bool(c.skipped) and not c.problems for c in mine)))
        element.set("time", f"{sum(c.seconds for c in mine):.3f}")
    ET.indent(root)
    path.write_text(ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n", encoding="utf-8")


def chosen(files: list[Path], pattern: str | None) -> list[Path]:
    """The scenario files whose file name or `name:` holds `pattern` (case-insensitive), all of
    them without a pattern; none chosen is a wrong argument, with the names to choose from."""
    if pattern is None:
        return files
    wanted = pattern.casefold()
    picked = [path for path in files if wanted in path.stem.casefold() or wanted in _title(path).casefold()]
    if not picked:
        raise UsageError(f"-k {pattern!r}: no scenario's file name or name holds it; the scenarios: "
                         + ", ".join(path.stem for path in files))
    return picked


def _title(path: Path) -> str:
    from snowrules.records.scenarios import load_scenario
    try:
        tree = plain(load_scenario(path).tree)
    except SnowrulesError:  # run anyway, and report there
        return ""
    return str(tree.get("name", "")) if isinstance(tree, dict) else ""
