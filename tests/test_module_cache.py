"""A built program's generated module (compile/generated_module.py) is the same text in every
process and every build of its configuration (names numbered per program: generated_names.py), and
its compiled code is kept in the build cache under that text: a hit runs the same game, and a
torn, foreign or stale entry is compiled afresh, never trusted."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from snowrules.compile import generated_module
from snowrules.compile.compiler import compile_ruleset
from snowrules.data import cache
from snowrules.load.ruleset import load_ruleset
from snowrules.play.agents import RandomAgent, play
from snowrules.runtime.engine import Game


@pytest.fixture
def cache_folder(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.ENVIRONMENT, str(folder))
    return folder


def _played(name: str, players: int) -> tuple[list[str], tuple]:
    """A fresh compile of the configuration, one seeded game: its modules' texts and its end."""
    game = Game(compile_ruleset(load_ruleset(name), players))
    st = play(game, [RandomAgent(p) for p in range(players)], 5)
    return [built.module.text for built in game.program.built.values()], (st.zones, st.counters)


def _entries(folder: Path) -> list[Path]:
    return sorted((folder / "module").glob("*/*.pickle"))


def test_a_configuration_builds_the_same_text_whatever_was_built_before():
    first, end = _played("snow_time", 3)
    _played("goofspiel", 2)  # other programs compiled and built in between
    again, end_again = _played("snow_time", 3)
    assert first == again and end == end_again


def test_a_module_is_compiled_once_then_read_from_the_cache(cache_folder, monkeypatch):
    compiled: list[str] = []
    real = compile

    def counting(source, filename, mode, *args, **kwargs):
        if str(filename).startswith("<snowrules module"):
            compiled.append(filename)
        return real(source, filename, mode, *args, **kwargs)
    monkeypatch.setattr(generated_module, "compile", counting, raising=False)
    texts, end = _played("snow_time", 2)
    assert len(compiled) == len(texts) == len(_entries(cache_folder)) == 1
    assert _played("snow_time", 2) == (texts, end)
    assert len(compiled) == 1  # the second build read the code from its entry


@pytest.mark.parametrize("damage", [b"", b"not a module", b"\x00" * 40])
def test_a_broken_entry_is_compiled_afresh(cache_folder, damage):
    texts, end = _played("snow_time", 2)
    entry, = _entries(cache_folder)
    cache.store("module", entry.stem, damage)  # the right key, a value that is no compiled module
    assert _played("snow_time", 2) == (texts, end)


def test_another_process_reads_the_entry_this_one_wrote(cache_folder):
    texts, _ = _played("goofspiel", 2)
    written = {path.name for path in _entries(cache_folder)}
    script = ("from snowrules.compile.compiler import compile_ruleset\n"
              "from snowrules.load.ruleset import load_ruleset\n"
              "from snowrules.play.agents import RandomAgent, play\n"
              "from snowrules.runtime.engine import Game\n"
              "game = Game(compile_ruleset(load_ruleset('goofspiel'), 2))\n"
              "play(game, [RandomAgent(0), RandomAgent(1)], 5)\n"
              "print(''.join(b.module.text for b in game.program.built.values()))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                          env={**__import__("os").environ, cache.ENVIRONMENT: str(cache_folder)})
    assert done.stdout == "".join(texts) + "\n"
    assert {path.name for path in _entries(cache_folder)} == written  # a hit: nothing new written


def test_linecache_keeps_a_text_while_a_module_of_it_lives():
    # two programs of one configuration load modules of one file name: the first one dropped must
    # not take the text from linecache while the second one runs (its tracebacks show its lines)
    import gc
    import linecache
    first = Game(compile_ruleset(load_ruleset("goofspiel"), 2))
    play(first, [RandomAgent(0), RandomAgent(1)], 5)
    second = Game(compile_ruleset(load_ruleset("goofspiel"), 2))
    play(second, [RandomAgent(0), RandomAgent(1)], 5)
    module, = [built.module for built in second.program.built.values()]
    del first
    gc.collect()
    assert linecache.getline(module.filename, 1) == module.text.splitlines()[0] + "\n"
