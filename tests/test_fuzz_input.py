"""Mangled input never crashes snowrules: whatever is cut, doubled or swapped in a rules file or a
component file, `validate` answers 0 or 1 with messages at path:line:col, never an internal error."""
from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import examples
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from snowrules.cli.main import main
from snowrules.compile.compiler import programs_shared
from snowrules.load.ruleset import BUNDLED_RULESETS, bundled_names

POSITION = re.compile(r"^\S+:\d+:\d+: error: ", re.MULTILINE)
# 4 mangled copies of each file (40 under --hypothesis-profile=thorough; 8 before): a copy whose
# mangle leaves Snow Planner valid is validated whole (every configuration, scenarios and smoke
# games: 25-30 s of CPU); at 8, its manifest alone was a seventh of the suite's time.
MANGLE = settings(max_examples=examples(4), deadline=None, phases=[Phase.explicit, Phase.generate, Phase.shrink],
                  suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
TOY_RULESETS = Path(__file__).resolve().parent / "rulesets"  # the constructs' own toy games
FOLDERS = {name: BUNDLED_RULESETS / name for name in bundled_names()}
FOLDERS.update({folder.name: folder for folder in sorted(TOY_RULESETS.iterdir()) if folder.is_dir()})
FILES = [(name, file) for name, folder in FOLDERS.items()
         for file in ("rules.sr", "ruleset.yaml", "components/cards.yaml", "components/prizes.yaml")
         if (folder / file).is_file()]
FILES += [(name, f"components/{path.name}") for name, folder in FOLDERS.items() if name not in bundled_names()
          for path in sorted((folder / "components").glob("*.yaml"))]


def mangled(text: str, start: float, length: int, how: str) -> str:
    i = int(start * len(text))
    piece = text[i:i + length]
    if how == "cut":
        return text[:i] + text[i + length:]
    if how == "double":
        return text[:i] + piece + piece + text[i:]
    return text[:i] + piece[::-1] + text[i + length:]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Iterator[Path]:
    """One folder for the module's mangled copies (each example copies its ruleset afresh into
    `workdir/NAME`), inside one `programs_shared` block: most mangles that leave a ruleset valid
    land in a comment and leave it read exactly as bundled, so its configurations are compiled once
    in the module, not again by every example's validate (which never changes a program; a mangle
    that changes what is read is a new key, compiled afresh). The key is the ruleset's whole
    content, paths included: hence the one folder.
    Alone, seed 1: Snow Planner's manifest 59 s -> 42 s; the module 91 s -> 52 s of CPU.
    Each validate plays in this process (`--workers 1`): a pool's forked workers compiled the
    scenarios' configurations again at every example and threw them away with the pool; here
    they stay in the block. What is checked is the same (validate's output does not depend on
    its workers: cli/validation.py `_played`). Snow Planner's manifest, --hypothesis-seed=1:
    37.0 -> 25.6 s of CPU (the test process and its children)."""
    with programs_shared():
        yield tmp_path_factory.mktemp("mangled")


@pytest.mark.parametrize("name,file", FILES, ids=[f"{n}/{f}" for n, f in FILES])
@MANGLE
@given(start=st.floats(0, 1), length=st.integers(1, 12), how=st.sampled_from(["cut", "double", "swap"]))
def test_validate_never_crashes_on_mangled_files(workdir, capsys, name, file, start, length, how):
    source = FOLDERS[name]
    folder = workdir / name
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(source, folder)
    path = folder / file
    path.write_text(mangled(path.read_text(), start, length, how))
    code = main(["validate", "--workers", "1", str(folder)])
    out, err = capsys.readouterr()
    assert code in (0, 1), out + err
    assert "internal error" not in out + err and "Traceback" not in out + err
    if code == 1:
        assert POSITION.search(out), out
