"""The package's layers: imports run one way, from the command line down to the language."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contract_in_pyproject_holds():
    lint = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    if not Path(lint).exists():
        pytest.fail("lint-imports is not installed: the test extra installs import-linter")
    done = subprocess.run([lint, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "1 kept, 0 broken" in done.stdout


def test_every_module_lives_in_a_layer_folder():
    package = ROOT / "interpreter"
    loose = sorted(p.name for p in package.glob("*.py") if p.name not in {"__init__.py", "__main__.py"})
    assert loose == [], f"modules outside a layer folder: {loose}"


MAX_MODULE_LINES = 600  # issue 8: "each module one job, a few hundred lines at most"


def test_no_module_grows_past_a_few_hundred_lines():
    """A module that outgrows its one job is split by job (as the analysis of which statements may
    wait was taken out of compile/statements.py), not left to grow: this keeps a later change from
    doing so quietly."""
    package = ROOT / "interpreter"
    long = {str(p.relative_to(package)): n for p in sorted(package.rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert long == {}, f"modules over {MAX_MODULE_LINES} lines: {long}"


def test_every_package_of_the_source_is_shipped():
    """pyproject.toml lists the packages a wheel holds: a new folder of modules left off the list
    works in a clone and fails in an installed snowrules (compile/ir once did; test_installed
    found it, minutes later)."""
    import tomllib
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    package = ROOT / "interpreter"
    found = {".".join(("snowrules", *p.parent.relative_to(package).parts)) for p in package.rglob("__init__.py")}
    assert found - listed == set()
