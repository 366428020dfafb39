"""`snowrules simulate` and `snowrules compare` from the command line: the versioned JSON, the
per-game files read back and replayed, the same results on any number of workers or a Dask
cluster, Ctrl-C, the HTML report and its plots' data, and the usage errors."""
from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import jsonschema
import pytest
from snowrules.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"
SNOWRULES = Path(sys.executable).parent / "snowrules"


def cli(capsys, *args) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def schema(name: str) -> dict:
    return json.loads((SCHEMAS / f"{name}.schema.json").read_text())


def simulated(capsys, *args) -> dict:
    code, out, err = cli(capsys, "simulate", *args, "--json")
    assert code == 0, err
    result = json.loads(out)
    jsonschema.validate(result, schema("simulate"))
    return result


def without_timing(result: dict) -> dict:
    return {k: v for k, v in result.items() if k not in ("seconds", "games_per_s", "where")}


# --- the summary --------------------------------------------------------------------------------


def test_simulate_json_follows_its_schema_and_adds_up(capsys):
    result = simulated(capsys, "snow_time", "--games", "60", "--players", "3", "--seed", "4")
    assert (result["format"], result["games"], result["requested"]) == ("snowrules-simulate/1", 60, 60)
    assert not result["interrupted"] and result["agents"] == ["random"] * 3
    rates = [p["win_rate"] for p in result["per_player"]]
    # Snow Time always has a winner (the first to reach the last space), so the shares add up to 1
    assert sum(r["value"] for r in rates) == pytest.approx(1)
    assert all(r["low"] <= r["value"] <= r["high"] for r in rates)
    for player in result["per_player"]:
        score = player["score"]
        assert 0 <= score["minimum"] <= score["q10"] <= score["median"] <= score["q90"] <= score["maximum"] <= 30
    # [End of the Game] the game ends when a pawn reaches the last space (30): some player has 30
    assert max(p["score"]["maximum"] for p in result["per_player"]) == 30
    names = [c["name"] for c in result["components"]]
    assert names == ["1", "2", "3", "4", "5", "6", "7", "Healer", "Snowstorm", "Watcher"]
    assert result["never_played"] == []


def test_game_seeds_come_from_the_master_seed_whatever_the_workers(capsys):
    one = simulated(capsys, "goofspiel", "--games", "50", "--players", "3", "--seed", "8")
    two = simulated(capsys, "goofspiel", "--games", "50", "--players", "3", "--seed", "8", "--workers", "2")
    assert two["where"] == "2 workers"
    assert without_timing(one) == without_timing(two)
    other = simulated(capsys, "goofspiel", "--games", "50", "--players", "3", "--seed", "9")
    assert without_timing(other)["per_player"] != without_timing(one)["per_player"]


def test_the_terminal_summary_without_progress_when_not_a_terminal(capsys):
    code, out, err = cli(capsys, "simulate", "oh_hell", "--games", "20", "--players", "3")
    assert code == 0, err
    assert "win rate" in out and "game length: mean" in out and "shared wins:" in out
    assert "replay a game: snowrules run oh_hell --players 3 --seed " in out
    assert "ETA" not in out + err and "games/s" not in err


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_progress_shows_the_rate_and_the_time_left_on_a_terminal():
    import pty
    terminal, side = pty.openpty()
    process = subprocess.Popen([str(SNOWRULES), "simulate", "snow_time", "--games", "1500", "--players", "2"],
                               stdout=subprocess.PIPE, stderr=side, env={**os.environ, "TERM": "xterm"})
    os.close(side)
    shown = b""
    while True:
        try:
            chunk = os.read(terminal, 65536)
        except OSError:  # the other side closed
            break
        if not chunk:
            break
        shown += chunk
    out, _ = process.communicate(timeout=120)
    os.close(terminal)
    text = shown.decode("utf-8", "replace")
    assert process.returncode == 0
    assert "/1500" in text and "games/s" in text and "ETA" in text
    assert b"ETA" not in out   # the summary on stdout is not mixed with the bar
    terminal, side = pty.openpty()   # with --json, no bar even on a terminal
    process = subprocess.run([str(SNOWRULES), "simulate", "goofspiel", "--games", "300", "--json"],
                             stdout=subprocess.PIPE, stderr=side, env={**os.environ, "TERM": "xterm"}, timeout=120)
    os.close(side)
    os.set_blocking(terminal, False)
    try:
        shown = os.read(terminal, 65536)
    except (BlockingIOError, OSError):
        shown = b""
    os.close(terminal)
    assert process.returncode == 0 and b"ETA" not in shown and json.loads(process.stdout)["games"] == 300


def test_no_components_skips_their_figures_not_the_games(capsys):
    full = simulated(capsys, "oh_hell", "--games", "20", "--players", "3", "--seed", "1")
    bare = simulated(capsys, "oh_hell", "--games", "20", "--players", "3", "--seed", "1", "--no-components")
    assert bare["components"] == [] and bare["never_played"] == [] and not bare["components_tracked"]
    assert full["components_tracked"] and full["components"]
    assert bare["per_player"] == full["per_player"] and bare["length"] == full["length"]


def test_compare_picks_the_fewest_players_both_sides_allow(capsys):
    code, out, err = cli(capsys, "compare", "snow_time", "--variant", "two_colours", "--games", "6", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["base"]["players"] == result["other"]["players"] == 2 and result["paired"]


# --- per-game files -----------------------------------------------------------------------------


def test_out_csv_rows_replay_with_snowrules_run(capsys, tmp_path):
    path = tmp_path / "games.csv"
    code, _, err = cli(capsys, "simulate", "snow_time", "--games", "12", "--players", "4", "--seed", "3",
                       "--out", path)
    assert code == 0, err
    rows = list(csv.DictReader(path.open()))
    assert [int(r["game"]) for r in rows] == list(range(12))
    assert list(rows[0]) == ["game", "seed", "turns", "winners", "shared_win", "score_1", "score_2", "score_3",
                             "score_4"]
    for row in rows[:3]:  # a row's seed plays that very game again
        code, out, err = cli(capsys, "run", "snow_time", "--players", "4", "--seed", row["seed"], "--json")
        game = json.loads(out)
        assert game["turns"] == int(row["turns"])
        assert game["scores"] == [int(row[f"score_{p}"]) for p in range(1, 5)]
        assert [w + 1 for w in game["winners"]] == [int(w) for w in row["winners"].split()]


def test_out_jsonl_and_parquet_hold_the_same_games(capsys, tmp_path):
    jsonl, parquet = tmp_path / "g.jsonl", tmp_path / "g.parquet"
    for path in (jsonl, parquet):
        assert cli(capsys, "simulate", "goofspiel", "--games", "9", "--players", "2", "--option", "num_cards=5",
                   "--out", path)[0] == 0
    rows = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert len(rows) == 9
    # [Goofspiel] each player bids each of the five cards once
    assert all(row["plays"] == {f"bid {v}": {"1": 1, "2": 1} for v in range(1, 6)} for row in rows)
    import pyarrow.parquet as pq
    table = pq.read_table(parquet).to_pylist()
    assert [{k: v for k, v in row.items() if k != "plays"} for row in rows] == table


# --- compare ------------------------------------------------------------------------------------


def test_comparing_a_game_with_itself_finds_no_difference(capsys):
    """The same option value on both sides: the same seeds give the same games, every difference is 0."""
    code, out, err = cli(capsys, "compare", "goofspiel", "--games", "40", "--players", "3", "--option",
                         "num_cards=6", "--other-option", "returns_type=win_loss", "--json")
    assert code == 0, err
    result = json.loads(out)
    jsonschema.validate(result, schema("compare"))
    assert result["paired"] and result["games"] == 40
    assert all(f["difference"] == 0 and not f["significant"] for f in result["figures"])
    assert {f["test"] for f in result["figures"]} >= {"paired t", "Levene", "Mood median"}


def test_the_shorter_track_ends_every_paired_game_sooner(capsys, tmp_path):
    """short_track: 20 spaces instead of 30. With the same seeds, both games of a pair are the same
    until a pawn reaches space 20, where the short game ends: it is never longer."""
    base, short = tmp_path / "base.csv", tmp_path / "short.csv"
    assert cli(capsys, "simulate", "snow_time", "--games", "30", "--players", "3", "--out", base)[0] == 0
    assert cli(capsys, "simulate", "snow_time", "--games", "30", "--players", "3", "--variant", "short_track",
               "--out", short)[0] == 0
    pairs = list(zip(csv.DictReader(base.open()), csv.DictReader(short.open())))
    assert all(a["seed"] == b["seed"] for a, b in pairs)
    assert all(int(b["turns"]) <= int(a["turns"]) for a, b in pairs)
    for rows, last in (([a for a, _ in pairs], 30), ([b for _, b in pairs], 20)):
        for row in rows:  # the winners are on the last space
            assert all(int(row[f"score_{w}"]) == last for w in row["winners"].split())
    code, out, err = cli(capsys, "compare", "snow_time", "--variant", "short_track", "--games", "30",
                         "--players", "3", "--json")
    assert code == 0, err
    result = json.loads(out)
    turns = next(f for f in result["figures"] if f["figure"] == "mean turns")
    mean_base = sum(int(a["turns"]) for a, _ in pairs) / 30
    mean_short = sum(int(b["turns"]) for _, b in pairs) / 30
    assert (turns["base"], turns["other"]) == (pytest.approx(mean_base), pytest.approx(mean_short))
    assert turns["high"] < 0 and turns["significant"]
    assert result["base"]["variant"] is None and result["other"]["variant"] == "short_track"


def test_compare_prints_the_figures_side_by_side(capsys):
    code, out, err = cli(capsys, "compare", "snow_time", "--variant", "short_track", "--games", "20",
                         "--players", "2")
    assert code == 0, err
    assert "A = base game, B = variant short_track" in out and "paired" in out
    assert "mean turns" in out and "player 2 win rate" in out and "Benjamini-Hochberg" in out


# --- the report ---------------------------------------------------------------------------------


def test_simulate_report_draws_the_games(capsys, tmp_path):
    out_file, folder = tmp_path / "g.csv", tmp_path / "report"
    code, out, err = cli(capsys, "simulate", "snow_time", "--games", "25", "--players", "2", "--out", out_file,
                         "--report", folder, "--json")
    assert code == 0, err
    summary = json.loads(out)
    rows = list(csv.DictReader(out_file.open()))
    data = json.loads((folder / "figures.json").read_text())
    assert data["format"] == "snowrules-report/1"
    assert data["sides"] == ["base game"] and data["players"] == 2
    edges = data["length"]["edges"]
    turns = [int(r["turns"]) for r in rows]
    assert edges[0] == min(turns) - 0.5 and edges[-1] == max(turns) + 0.5  # one bin per number of turns
    counts = data["length"]["counts"]["base game"]
    assert counts == [turns.count(t) for t in range(min(turns), max(turns) + 1)]
    for p in (1, 2):
        scores = [int(r[f"score_{p}"]) for r in rows]
        low = int(data["scores"]["edges"][0] + 0.5)
        histogram = data["scores"]["counts"]["base game"][p - 1]
        assert histogram == [scores.count(low + i) for i in range(len(histogram))]
    assert [r["value"] for r in data["win_rates"]["base game"]] == \
        pytest.approx([p["win_rate"]["value"] for p in summary["per_player"]])
    page = (folder / "index.html").read_text()
    for image in ("scores.svg", "win_rates.svg", "length.svg"):
        assert f'src="{image}"' in page
        ElementTree.parse(folder / image)  # well-formed SVG
    assert "Snow Time: 25 games, 2 players" in page and "<td>1</td>" in page


def test_compare_report_overlays_both_sides(capsys, tmp_path):
    folder = tmp_path / "cmp"
    code, out, err = cli(capsys, "compare", "snow_time", "--variant", "short_track", "--games", "15",
                         "--players", "2", "--report", folder)
    assert code == 0, err
    data = json.loads((folder / "figures.json").read_text())
    assert data["sides"] == ["base game", "variant short_track"]
    assert [sum(data["length"]["counts"][side]) for side in data["sides"]] == [15, 15]
    assert len(data["scores"]["counts"]["variant short_track"]) == 2
    svg = (folder / "length.svg").read_text()
    assert "base game" in svg and "variant short_track" in svg     # the legend names both sides
    assert "mean turns" in (folder / "index.html").read_text()


def _browser() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


@pytest.mark.skipif(_browser() is None, reason="no headless Chromium or Chrome on this machine "
                    "(apt-get install chromium); CI's fresh machine has only Python and pip")
def test_the_report_renders_in_a_headless_browser(capsys, tmp_path):
    folder = tmp_path / "report"
    assert cli(capsys, "simulate", "goofspiel", "--games", "10", "--players", "3", "--report", folder)[0] == 0
    shown = subprocess.run([_browser(), "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000",
                            "--dump-dom", (folder / "index.html").as_uri()], capture_output=True, text=True,
                           timeout=120)
    assert 'data-images-shown="3"' in shown.stdout, shown.stderr[-2000:]   # the three plots loaded
    assert "Goofspiel: 10 games, 3 players" in shown.stdout


# --- scale: a Dask cluster, Ctrl-C ----------------------------------------------------------------


def test_a_dask_cluster_gives_the_results_of_a_local_run(capsys):
    distributed = pytest.importorskip("distributed")
    local = simulated(capsys, "snowy_tricks", "--games", "24", "--players", "3", "--seed", "2")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
        remote = simulated(capsys, "snowy_tricks", "--games", "24", "--players", "3", "--seed", "2",
                           "--cluster", cluster.scheduler_address)
    assert remote["where"] == f"cluster {cluster.scheduler_address}"
    assert without_timing(local) == without_timing(remote)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_stops_within_a_second_with_the_summary_so_far(workers, tmp_path):
    # A shell's background job (`pytest ... &`) starts with SIGINT ignored, and a child inherits that: Python
    # then installs no KeyboardInterrupt handler and the games run on, as `nohup` asks. The child gets the
    # terminal's default back, as a user's shell would give it.
    process = subprocess.Popen([str(SNOWRULES), "simulate", "snow_time", "--games", "1000000", "--players", "2",
                                "--workers", workers, "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env={**os.environ, "PYTHONWARNINGS": "ignore"},
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(4)
    start = time.monotonic()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    waited = time.monotonic() - start
    assert process.returncode == 130, err
    assert waited < 1.0, f"stopped {waited:.2f} s after Ctrl-C"
    result = json.loads(out)
    assert result["interrupted"] and 0 < result["games"] < 1000000
    assert "Traceback" not in err


def test_a_killed_worker_stops_the_run_with_the_summary_so_far():
    # As the system's out-of-memory killer does: SIGKILL to one worker. multiprocessing.Pool started a
    # new worker and waited for the lost batch for ever (issue 29).
    process = subprocess.Popen([str(SNOWRULES), "simulate", "snow_time", "--games", "1000000", "--players", "2",
                                "--workers", "2", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env={**os.environ, "PYTHONWARNINGS": "ignore"})
    time.sleep(4)
    workers = subprocess.run(["ps", "--ppid", str(process.pid), "-o", "pid="], capture_output=True, text=True,
                             check=True).stdout.split()
    assert len(workers) == 2
    start = time.monotonic()
    os.kill(int(workers[0]), signal.SIGKILL)
    out, err = process.communicate(timeout=30)
    waited = time.monotonic() - start
    assert process.returncode == 130, (err, out[:300], workers)
    assert waited < 1.0, f"stopped {waited:.2f} s after the worker died"
    result = json.loads(out)
    assert result["interrupted"] and 0 < result["games"] < 1000000
    assert err.startswith(f"snowrules: error: worker process {workers[0]} was killed by SIGKILL (signal 9: "
                          "the system's out-of-memory killer sends it when memory runs short, and `kill -9` does) "
                          "while it held games "), err
    assert err.rstrip().endswith(f"; the run stops here: its summary holds the {result['games']} games finished "
                                 "before"), err
    assert "Traceback" not in err


# --- usage errors -------------------------------------------------------------------------------


@pytest.mark.parametrize("args, code, message", [
    (["simulate", "snow_time", "--games", "5", "--out", "games.txt"], 2, "write .csv, .jsonl or .parquet"),
    (["simulate", "snow_time", "--games", "5", "--out", "no_such_folder/games.csv"], 2,
     "--out: no_such_folder/games.csv: its folder "),
    (["simulate", "snow_time", "--games", "5", "--out", "a_folder.csv"], 2,
     "is a folder; a table of games is written only to a regular file or a new one"),
    (["simulate", "snow_time", "--games", "5", "--report", "a_file.txt"], 2,
     "--report a_file.txt: is a file, not a folder"),
    (["compare", "snow_time", "--games", "5", "--variant", "short_track", "--report", "a_file.txt/report"], 2,
     "--report a_file.txt/report: a_file.txt is a file, not a folder"),
    (["simulate", "snow_time", "--games", "5", "--workers", "2", "--cluster", "tcp://x:1"], 2,
     "give --workers or --cluster, not both"),
    (["compare", "snow_time", "--games", "5"], 2, "nothing to compare"),
    (["compare", "snow_time", "--games", "5", "--variant", "a", "--variant", "b", "--variant", "c"], 2,
     "give one (base against it) or two"),
    (["compare", "snow_time", "--games", "5", "--variant", "nope"], 2, "unknown variant 'nope'"),
    (["compare", "snow_time", "--games", "0", "--variant", "short_track"], 2, "--games must be at least 1"),
    (["compare", "goofspiel", "--games", "5", "--other-option", "num_cards=99"], 2, "--option: "),
    (["compare", "snow_time", "--games", "5", "--variant", "two_colours", "--players", "4"], 2,
     "--players 4: Snow Time (variant two_colours) is for 2 players"),
    (["compare", "snow_time", "--games", "5", "--variant", "short_track", "--agents", "robot"], 2,
     "unknown agent 'robot'"),
    (["simulate", "snow_time", "--games", "5", "--agents", "human,random"], 2,
     "--agents human,random: simulate plays its games without people"),
    (["compare", "snow_time", "--games", "5", "--variant", "short_track", "--agents", "human"], 2,
     "--agents human: compare plays its games without people"),
])
def test_usage_errors(capsys, args, code, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the paths above are made here: a file, a folder named like a table
    (tmp_path / "a_file.txt").write_text("not a folder\n")
    (tmp_path / "a_folder.csv").mkdir()
    got, out, err = cli(capsys, *args)
    assert got == code, err
    assert message in err and "Traceback" not in err
    assert out == ""


def test_compare_has_help(capsys):
    code, out, _ = cli(capsys, "compare", "--help")
    assert code == 0
    assert "--variant" in out and "--other-option" in out and "--report" in out and "--cluster" in out


def test_a_cluster_that_does_not_answer_is_reported(capsys, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr("snowrules.play.cluster.CONNECT_SECONDS", 1)
    code, out, err = cli(capsys, "simulate", "goofspiel", "--games", "5", "--cluster", "tcp://127.0.0.1:9")
    assert code == 2
    assert "--cluster tcp://127.0.0.1:9: no Dask scheduler answers there" in err and "Traceback" not in err
