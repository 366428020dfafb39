"""snowrules as a newcomer gets it: a wheel installed in a fresh virtual environment, run from a
folder that is not the clone (issue 10, part 1).

The wheel is built from a copy of the clone's sources with `pip wheel --no-deps
--no-build-isolation` (setuptools comes with the test extra), and installed with `--no-deps`
into a new virtual environment that sees the test environment's dependencies (lark, ruamel.yaml,
...) through a .pth file, but not its editable snowrules: nothing is downloaded, and only the
wheel can provide `snowrules`. CI runs this through README's test command.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The clone as a fresh clone has it: no virtual environments, caches, builds or logs.
LITTER = shutil.ignore_patterns(".*", "venv", "build", "dist", "logs", "__pycache__", "*.pyc", "*.egg-info", "*.jsonl")

pytestmark = pytest.mark.installed


def _run(command: list[str], cwd: Path, env_extra: dict | None = None) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    return subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={**environment, "PYTHONIOENCODING": "utf-8", **(env_extra or {})})


def _ok(command: list[str], cwd: Path) -> str:
    done = _run(command, cwd)
    assert done.returncode == 0, (command, done.stdout[-3000:], done.stderr[-3000:])
    return done.stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """(the wheel, the sdist), built from a clean copy of the clone's sources."""
    import setuptools
    assert tuple(int(n) for n in setuptools.__version__.split(".")[:2]) >= (70, 1), \
        "building a wheel without network needs setuptools >= 70.1: install the test extra"
    source = tmp_path_factory.mktemp("source") / "snowrules"
    shutil.copytree(ROOT, source, ignore=LITTER)
    dist = tmp_path_factory.mktemp("dist")
    _ok([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
         "-q", "-w", dist, source], source)
    _ok([sys.executable, "-c", f"from setuptools import build_meta; build_meta.build_sdist({str(dist)!r})"], source)
    wheels, sdists = list(dist.glob("snowrules-*.whl")), list(dist.glob("snowrules-*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, list(dist.iterdir())
    return wheels[0], sdists[0]


@pytest.fixture(scope="module")
def installed(built, tmp_path_factory) -> Path:
    """The bin folder of a fresh virtual environment with only the wheel installed in it."""
    home = tmp_path_factory.mktemp("venv")
    venv.create(home, with_pip=False)
    python = home / ("Scripts" if os.name == "nt" else "bin") / "python"
    site = Path(_ok([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], home).strip())
    # The test environment's dependencies, without processing its .pth files (its editable snowrules).
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "test_environment_dependencies.pth").write_text("\n".join(sorted(ours)) + "\n")
    _ok([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", "-q", built[0]], home)
    return python.parent


def test_the_wheel_and_the_sdist_carry_every_ruleset_and_schema(built):
    wheel, sdist = built
    expected = sorted(p.relative_to(ROOT).as_posix() for folder in ("rulesets", "schemas")
                      for p in (ROOT / folder).rglob("*") if p.is_file() and "__pycache__" not in p.parts
                      and not p.name.startswith(".") and p.suffix != ".jsonl")
    names = zipfile.ZipFile(wheel).namelist()
    in_wheel = sorted(name.removeprefix("snowrules/data/") for name in names  # the data, not the package's code
                      if name.startswith("snowrules/data/") and not name.endswith(".py"))
    assert in_wheel == expected
    assert "snowrules/data/cache.py" in names
    assert {f"snowrules/web/static/table.{kind}" for kind in ("html", "js", "css")} <= set(names)  # serve's page
    root = sdist.name.removesuffix(".tar.gz")
    in_sdist = {name.removeprefix(root + "/") for name in tarfile.open(sdist).getnames()}
    assert set(expected) <= in_sdist
    assert {"interpreter/language/grammar.lark", "pyproject.toml", "README.md"} <= in_sdist


def test_the_installed_package_runs_a_game_validates_tests_and_replays_outside_the_clone(installed, tmp_path):
    snowrules = installed / "snowrules"
    work = tmp_path / "elsewhere"
    work.mkdir()
    where = _ok([installed / "python", "-c", "import snowrules; print(snowrules.__file__)"], work).strip()
    assert Path(where).is_relative_to(installed.parent), f"snowrules came from {where}, not the wheel"

    version = f"snowrules {_project_version()}"
    assert _ok([snowrules, "--version"], work).strip() == version
    assert _ok([installed / "python", "-m", "snowrules", "--version"], work).strip() == version
    listed = json.loads(_ok([snowrules, "list", "--json"], work))
    assert [r["name"] for r in listed["rulesets"]] == sorted(p.name for p in (ROOT / "rulesets").iterdir()
                                                              if (p / "ruleset.yaml").is_file())

    result = json.loads(_ok([snowrules, "run", "snow_time", "--players", "3", "--seed", "4", "--json",
                             "--log", "game.jsonl"], work))
    assert result["format"] == "snowrules-run/1" and result["players"] == 3
    assert _ok([snowrules, "replay", "game.jsonl"], work).startswith("game.jsonl: identical (")

    assert _ok([snowrules, "validate", "snow_time"], work).strip().endswith(": valid")
    shutil.copytree(ROOT / "rulesets" / "snowy_tricks", work / "my_game")  # a folder ruleset: the schemas
    assert _ok([snowrules, "validate", "my_game"], work).strip() == "my_game: valid"
    tested = _ok([snowrules, "test", "snow_time"], work).splitlines()
    scenarios = len(list((ROOT / "rulesets" / "snow_time" / "scenarios").glob("*.yaml")))
    assert tested[-1] == f"{scenarios} passed, 0 failed"


def test_the_installed_package_writes_the_same_log_bytes_as_the_clone(installed, tmp_path, capsys, monkeypatch):
    from snowrules.cli.main import main

    (tmp_path / "installed").mkdir()
    _ok([installed / "snowrules", "run", "snowy_tricks", "--players", "4", "--seed", "9", "--json", "--log",
         "game.jsonl"], tmp_path / "installed")
    monkeypatch.chdir(ROOT)
    assert main(["run", "snowy_tricks", "--players", "4", "--seed", "9", "--json",
                 "--log", str(tmp_path / "clone.jsonl")]) == 0
    capsys.readouterr()
    assert (tmp_path / "installed" / "game.jsonl").read_bytes() == (tmp_path / "clone.jsonl").read_bytes()


def _project_version() -> str:
    import tomllib
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def _hook() -> dict:
    from ruamel.yaml import YAML
    hooks = YAML(typ="safe", pure=True).load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    found = [hook for hook in hooks if hook["id"] == "snowrules-validate"]
    assert len(found) == 1
    return found[0]


def test_the_pre_commit_hook_validates_the_files_a_commit_touches(installed, tmp_path):
    """What pre-commit does with the hook: select the commit's files with `files`, and run
    `entry` on them, from an environment with snowrules installed from a wheel (not editable)."""
    import re
    hook = _hook()
    assert hook["language"] == "python", "pre-commit pip-installs this repository for a python hook"
    repo = tmp_path / "game-repo"
    shutil.copytree(ROOT / "rulesets" / "snow_time", repo / "rulesets" / "snow_time")
    shutil.copytree(ROOT / "rulesets" / "goofspiel", repo / "goofspiel")
    (repo / "README.md").write_text("# my games\n")
    (repo / "rulesets" / "snow_time" / "game.jsonl").write_text("{}\n")
    everything = sorted(p.relative_to(repo).as_posix() for p in repo.rglob("*") if p.is_file())
    selected = [f for f in everything if re.search(hook["files"], f)]
    assert [f for f in everything if f not in selected] == ["README.md", "rulesets/snow_time/game.jsonl"]
    assert "rulesets/snow_time/schemas/card.schema.json" in selected and "goofspiel/rules.sr" in selected

    environment = {"PATH": f"{installed}{os.pathsep}{os.environ.get('PATH', '')}"}
    command = hook["entry"].split()
    done = _run(command + selected, repo, env_extra=environment)
    assert done.returncode == 0, done.stdout + done.stderr
    # (one line per ruleset or per file: the validate command decides; each says valid)
    lines = done.stdout.splitlines()
    assert lines and all(line.endswith(": valid") for line in lines), lines
    assert any("goofspiel" in line for line in lines) and any("snow_time" in line for line in lines)

    cards = repo / "rulesets" / "snow_time" / "components" / "cards.yaml"
    lines = cards.read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines, 1) if "number: 1}" in line)
    lines[number - 1] = lines[number - 1].replace("number: 1}", "nubmer: 1}")
    cards.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = _run(command + ["rulesets/snow_time/components/cards.yaml"], repo, env_extra=environment)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"rulesets/snow_time/components/cards.yaml:{number}:" in done.stdout + done.stderr
