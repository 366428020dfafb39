"""`snowrules serve` on the command line (issue 26): what it prints, where it listens, and every
wrong argument refused before it listens (exit 2, or 1 for a log that cannot be read)."""
from __future__ import annotations

import re
import socket

import pytest

pytest.importorskip("starlette")

from snowrules.cli.main import main  # noqa: E402
from snowrules.web import command  # noqa: E402

TOKEN = r"[A-Za-z0-9_-]{43}"


@pytest.fixture
def served(monkeypatch):
    """Run `serve` without serving: the room and the listening socket it would serve."""
    seen = {}

    def run(room, listener):
        seen["room"], seen["address"] = room, listener.getsockname()[:2]
        listener.close()
    monkeypatch.setattr(command, "run", run)
    return seen


def test_serve_listens_on_this_computer_only_and_prints_one_link_per_person(served, capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    assert main(["serve", "goofspiel", "--seats", "human,random,human", "--seed", "5", "--port", "0",
                 "--log", str(log)]) == 0
    host, port = served["address"]
    assert host == "127.0.0.1"
    lines = capsys.readouterr().out.splitlines()
    base = f"http://127.0.0.1:{port}/"
    assert lines[0] == f"Goofspiel: 3 players, seed 5, served on {base}"
    assert re.fullmatch(rf"  p0: {re.escape(base)}#{TOKEN}", lines[1])
    assert lines[2] == "  p1: random (a bot)"
    assert re.fullmatch(rf"  p2: {re.escape(base)}#{TOKEN}", lines[3])
    assert lines[4] == ("Each link is its seat's key: give each person their own. Ctrl-C stops the server; "
                        f"the game is saved in {log} after every answer.")
    tokens = served["room"].tokens
    assert (lines[1].endswith(tokens[0]), lines[3].endswith(tokens[2]), sorted(tokens)) == (True, True, [0, 2])
    assert log.read_text().count('"e":"choice"') == 0  # saved already: nobody has chosen yet


def test_serve_watch_prints_its_link(served, capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    assert main(["run", "goofspiel", "--seed", "2", "--log", str(log)]) == 0
    capsys.readouterr()
    assert main(["serve", "--watch", str(log), "--port", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    port = served["address"][1]
    assert lines[0] == f"Goofspiel: a saved game of 12 decisions, served on http://127.0.0.1:{port}/"
    assert re.fullmatch(rf"  watch it: http://127\.0\.0\.1:{port}/#{TOKEN}", lines[1])


@pytest.mark.parametrize("arguments,code,message", [
    ([], 2, "snowrules serve: error: give a RULESET to play, or --resume LOG, or --watch LOG"),
    (["nosuch"], 2, "snowrules serve: error: no ruleset 'nosuch': give a bundled ruleset (crazy_eights, goofspiel, "
     "oh_hell, othello, snow_planner, snow_time, snowfall_over_mountains, snowy_tricks) or a folder holding a "
     "ruleset.yaml"),
    (["goofspiel", "--seats", "random"], 2, "snowrules serve: error: --seats random: no seat is human, so nobody "
     "could play; a game of bots is `snowrules run`, a saved one is watched with --watch LOG"),
    (["goofspiel", "--seats", "human,robot"], 2, "snowrules serve: error: --seats: unknown agent 'robot'; "
     "agents: random, first, human, greedy, mcts"),
    (["goofspiel", "--seats", "human,random,random", "--players", "2"], 2,
     "snowrules serve: error: --seats gives 3 seats for 2 players"),
    (["goofspiel", "--players", "11"], 2, "snowrules serve: error: --players 11: Goofspiel is for 2 to 10 players"),
    (["goofspiel", "--port", "65536"], 2, "snowrules: error: argument --port: '65536' is not a port (0 to 65535)"),
    (["goofspiel", "--log", "{tmp}"], 2, "snowrules serve: error: --log {tmp}: is a folder; a log is written "
     "only to a regular file or a new one"),
    (["--watch", "a.jsonl", "--resume", "b.jsonl"], 2, "snowrules serve: error: give --watch LOG or --resume LOG, "
     "not both"),
    (["--watch", "a.jsonl", "--seed", "3"], 2, "snowrules serve: error: --watch shows the game as the log saved "
     "it: drop --seed"),
    (["--resume", "{tmp}/a.jsonl", "--players", "3"], 2, "snowrules serve: error: --resume continues the game as "
     "the log saved it: its players, variant, options and seed come from the log (--seats may change who plays)"),
    (["--watch", "{tmp}/missing.jsonl"], 1, "{tmp}/missing.jsonl:1:1: error: log file not found [SR801]"),
])
def test_serve_refuses_wrong_arguments_before_it_listens(served, capsys, tmp_path, arguments, code, message):
    arguments = [a.replace("{tmp}", str(tmp_path)) for a in arguments]
    assert main(["serve", *arguments]) == code
    assert capsys.readouterr().err.splitlines()[-1] == message.replace("{tmp}", str(tmp_path))
    assert served == {}


def test_serve_says_plainly_when_its_port_is_taken(served, capsys):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        assert main(["serve", "goofspiel", "--port", str(port)]) == 2
    assert capsys.readouterr().err == (f"snowrules serve: error: cannot listen on --host 127.0.0.1 --port {port}: "
                                       "Address already in use\n")
    assert served == {}


def test_serve_resume_continues_the_logged_game_with_its_seats(served, capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    assert main(["serve", "goofspiel", "--seats", "human,random", "--seed", "4", "--port", "0",
                 "--log", str(log)]) == 0
    served.pop("room").answer(0, 12)              # one bid, saved in the log
    assert main(["serve", "--resume", str(log), "--port", "0"]) == 0
    resumed = served["room"]
    assert ([p.agent for p in resumed.places], resumed.header["seed"], resumed.log) == (["human", "random"], 4, log)
    assert [e["option"] for e in resumed.events if e["e"] == "choice"][0] == "p0 bid 13"
    assert resumed.snapshot(0)["view"]["counters"]["turn"] == 2
    assert capsys.readouterr().out.splitlines()[-4].startswith("Goofspiel: 2 players, seed 4, served on")
