"""The command-line contract: exit codes, the --json result, logs and their replay, validate and test.

Exit codes: 0 success; 1 problems in the input (or a failed scenario, a replay that differs); 2 a
usage error. The CLI runs in-process through `snowrules.cli.main`, which returns the exit code.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from snowrules.cli.main import main

SNOW_TIME = Path(__file__).resolve().parent.parent / "rulesets" / "snow_time"
GAME = ["run", "snow_time", "--players", "4", "--seed", "7"]


def cli(capsys, *args) -> tuple[int, str, str]:
    """Run `snowrules ARGS` in-process: (exit code, stdout, stderr)."""
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def manifest_field(name: str) -> str:
    match = re.search(rf"^{name}:\s*(\S.*?)\s*$", (SNOW_TIME / "ruleset.yaml").read_text(encoding="utf-8"), re.M)
    assert match, f"ruleset.yaml has no top-level {name}"
    return match.group(1)


def last_space() -> int:
    text = (SNOW_TIME / "components" / "score_track.yaml").read_text(encoding="utf-8")
    match = re.search(r"^\s+last_space:\s*(\d+)\s*$", text, re.M)
    assert match, "score_track.yaml defines no last_space constant"
    return int(match.group(1))


def write_log(capsys, path: Path) -> list[str]:
    code, out, err = cli(capsys, *GAME, "--json", "--log", path)
    assert code == 0, err
    return path.read_text(encoding="utf-8").splitlines()


def line_of(lines: list[str], event: str, start: int = 1) -> int:
    """The 1-based number of the first log line, from line `start` on, holding an event of kind `event`."""
    for number, line in enumerate(lines[start - 1:], start):
        if json.loads(line)["e"] == event:
            return number
    pytest.fail(f"the log has no {event!r} event")


def rewrite(path: Path, lines: list[str], number: int, event: dict) -> None:
    """Replace log line `number` by `event`, written the way the log writer writes."""
    lines = list(lines)
    lines[number - 1] = json.dumps(event, separators=(",", ":"), sort_keys=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


# --- usage errors: exit 2 ------------------------------------------------------------------------


@pytest.mark.parametrize("arguments, words", [
    (["frob"], "invalid choice: 'frob'"),
    ([], "required: command"),
    (["run"], "required: ruleset"),
    (["validate"], "required: paths"),
    (["replay"], "required: log"),
    (["run", "snow_time", "--players", "9"], "--players 9: Snow Time is for 2 to 5 players"),
    (["run", "snow_time", "--players", "1"], "--players 1: Snow Time is for 2 to 5 players"),
    (["run", "snow_time", "--players", "x"], "argument --players: invalid int value: 'x'"),
    (["run", "snow_time", "--seed", "lucky"], "argument --seed: invalid int value: 'lucky'"),
    (["run", "snow_time", "--agents", "robot"], "unknown agent 'robot'"),
    (["run", "snow_time", "--players", "3", "--agents", "random,first"], "--agents gives 2 agents for 3 players"),
    (["run", "no_such_ruleset"], "no ruleset 'no_such_ruleset'"),
    (["test", "no_such_ruleset"], "no ruleset 'no_such_ruleset'"),
    (["run", "snow_time", "--variant", "two_colours", "--players", "3"],
     "Snow Time (variant two_colours) is for 2 players\n"),
    (["simulate", "snow_time", "--games", "0"], "--games must be at least 1"),
    (["validate", "snow_time", "--workers", "0"], "argument --workers: '0': give a whole number of processes from 1"),
    (["validate", "snow_time", "--workers", "\u0662"], "argument --workers: '\u0662': give a whole number"),
    (["validate", "snow_time", "--workers", "many"], "argument --workers: 'many': give a whole number"),
])
def test_usage_errors_exit_2(capsys, arguments, words):
    code, out, err = cli(capsys, *arguments)
    assert code == 2, (out, err)
    assert words in err
    assert out == "", "a usage error prints nothing on stdout"
    assert "Traceback" not in err


def test_help_exits_0(capsys):
    code, out, _ = cli(capsys, "--help")
    assert code == 0
    for command in ("run", "validate", "test", "replay", "simulate"):
        assert command in out


# --- run --json ----------------------------------------------------------------------------------


def test_run_json_prints_one_result_object(capsys):
    code, out, err = cli(capsys, *GAME, "--json")
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == 1, f"expected exactly one line on stdout, got {len(lines)}"
    result = json.loads(lines[0])
    assert isinstance(result, dict)
    for key in ("ruleset", "variant", "seed", "players", "scores", "winners", "turns"):
        assert key in result, key
    assert result["ruleset"] == "snow_time"
    assert result["variant"] is None
    assert result["seed"] == 7
    assert result["players"] == 4
    assert len(result["scores"]) == 4
    assert isinstance(result["turns"], int) and result["turns"] >= 1
    goal = last_space()
    assert result["winners"], "somebody wins"
    for winner in result["winners"]:
        assert result["scores"][winner] == goal
    for player, score in enumerate(result["scores"]):
        if player not in result["winners"]:
            assert 0 <= score < goal


def test_run_is_deterministic(capsys):
    outputs = [cli(capsys, *GAME, "--json") for _ in range(2)]
    assert outputs[0] == outputs[1]
    assert outputs[0][0] == 0
    plain = [cli(capsys, *GAME) for _ in range(2)]
    assert plain[0] == plain[1]


def test_other_seeds_give_other_games(capsys):
    results = {cli(capsys, "run", "snow_time", "--players", "4", "--seed", seed, "--json")[1] for seed in range(4)}
    assert len(results) > 1, "the seed changes nothing"


def test_plain_run_tells_the_game(capsys):
    code, out, err = cli(capsys, *GAME)
    assert code == 0, err
    result = json.loads(cli(capsys, *GAME, "--json")[1])
    lines = out.splitlines()
    assert lines[0].startswith("Snow Time - 4 players")
    assert "seed 7" in lines[0]
    assert "Turn 1" in lines
    assert any(re.fullmatch(r"\s+rolled \d(, \d)?", line) for line in lines), "no 'rolled' line"
    names = result["winner_names"]
    announced = [line for line in lines if line.startswith("The game ends:")]
    assert announced == [f"The game ends: {' and '.join(names)} {'win' if len(names) > 1 else 'wins'}"]
    assert f"Turn {result['turns']}" in lines
    assert f"Turn {result['turns'] + 1}" not in lines


# --- logs and replay ------------------------------------------------------------------------------


def test_log_header_and_replay(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    lines = write_log(capsys, log)
    assert not (tmp_path / "game.jsonl.partial").exists()
    events = [json.loads(line) for line in lines]  # every line is JSON
    head = events[0]
    assert head["e"] == "header"
    assert head["ruleset"] == "snow_time"
    assert head["version"] == manifest_field("version")
    assert head["variant"] is None
    assert head["seed"] == 7
    assert head["players"] == 4
    assert events[-1]["e"] == "result"
    result = json.loads(cli(capsys, *GAME, "--json")[1])
    assert events[-1]["scores"] == result["scores"]
    assert events[-1]["winners"] == result["winners"]
    code, out, err = cli(capsys, "replay", log)
    assert code == 0, out + err
    assert out.strip() == f"{log}: identical ({len(lines) - 2} events replayed)"


def test_replay_reports_a_changed_dice_value(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    lines = write_log(capsys, log)
    number = line_of(lines, "roll")
    event = json.loads(lines[number - 1])
    event["dice"][0] = event["dice"][0] % event.get("sides", 6) + 1
    rewrite(log, lines, number, event)
    code, out, err = cli(capsys, "replay", log)
    assert code == 1, out + err
    assert f"{log}:{number}:1: error: the replay differs from the log after {number - 2} identical events" in out
    assert "Traceback" not in out + err


def test_replay_reports_a_changed_choice_at_its_line(capsys, tmp_path):
    """The changed choice is still legal, but the game goes another way from there on: the report
    names the changed line, not a later one where the logged choices stop making sense."""
    log = tmp_path / "game.jsonl"
    lines = write_log(capsys, log)
    number = line_of(lines, "choice")
    event = json.loads(lines[number - 1])
    event["index"] = 1 if event["index"] == 0 else 0
    rewrite(log, lines, number, event)
    code, out, err = cli(capsys, "replay", log)
    assert code == 1, out + err
    assert f"{log}:{number}:1: error: the replay differs from the log" in out


@pytest.mark.parametrize("index", [99, -1, "2"])
def test_replay_reports_an_illegal_choice_at_its_line(capsys, tmp_path, index):
    log = tmp_path / "game.jsonl"
    lines = write_log(capsys, log)
    number = line_of(lines, "choice")
    event = json.loads(lines[number - 1])
    event["index"] = index
    rewrite(log, lines, number, event)
    code, out, err = cli(capsys, "replay", log)
    assert code == 1, out + err
    assert f"{log}:{number}:1: error: choice index {index!r} is not legal here" in out + err


def test_replay_reports_a_line_that_is_not_json(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    lines = write_log(capsys, log)
    number = line_of(lines, "roll")
    lines[number - 1] = lines[number - 1][:-1]  # drop the closing brace
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = log.read_bytes()
    code, out, err = cli(capsys, "replay", log)
    assert code == 1, out + err
    assert f"{log}:{number}:" in err
    assert "not JSON" in err
    assert "Traceback" not in out + err
    assert log.read_bytes() == before


def test_replay_of_a_missing_log(capsys, tmp_path):
    log = tmp_path / "nothing.jsonl"
    code, out, err = cli(capsys, "replay", log)
    assert code == 1
    assert f"{log}:1:1: error: log file not found" in err


def test_replay_reports_a_truncated_log(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    lines = write_log(capsys, log)
    kept = lines[:len(lines) // 2]
    log.write_text("\n".join(kept) + "\n", encoding="utf-8")
    code, out, err = cli(capsys, "replay", log)
    assert code == 1, out + err
    assert f"{log}:{len(kept) + 1}:1: error: the log ends without its result line" in err


# --- validate and test ------------------------------------------------------------------------------


def test_validate_bundled_ruleset(capsys):
    code, out, err = cli(capsys, "validate", "snow_time")
    assert code == 0, out + err
    assert out.strip().endswith(": valid")
    assert "error" not in out + err


def test_test_bundled_ruleset(capsys):
    code, out, err = cli(capsys, "test", "snow_time")
    assert code == 0, out + err
    scenarios = len(list((SNOW_TIME / "scenarios").glob("*.yaml")))
    assert scenarios > 0
    assert out.splitlines()[-1] == f"{scenarios} passed, 0 failed"
    assert len([line for line in out.splitlines() if line.startswith("pass ")]) == scenarios
    assert "FAIL" not in out


# --- the two_colours variant ------------------------------------------------------------------------


def test_two_colours_variant(capsys):
    code, out, err = cli(capsys, "run", "snow_time", "--variant", "two_colours", "--players", "2", "--seed", "3",
                         "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["variant"] == "two_colours"
    assert result["players"] == 2
    assert len(result["scores"]) == 2
    assert len(result["seat_scores"]) == 4, "two players, two colours each"
    seats = list(result["seat_scores"])
    for player, name in enumerate(result["player_names"]):
        assert name == f"{seats[2 * player]} & {seats[2 * player + 1]}"
        assert result["scores"][player] == max(result["seat_scores"][s] for s in name.split(" & "))
    for winner in result["winners"]:
        assert result["scores"][winner] == last_space()


def test_human_agent_shows_the_view_and_reasks_on_bad_input():
    from snowrules.compile.compiler import load_program
    from snowrules.play.agents import HumanAgent, Observation
    from snowrules.runtime.engine import Game

    game = Game(load_program("snow_time", None, 2))
    st = game.start(5)
    answers = iter(["", "zero", "0", "11", "3"])
    shown: list[str] = []
    agent = HumanAgent(read=lambda prompt: next(answers), write=shown.append)
    seat = st.pending.seats[0]
    index = agent.choose(Observation(game, st, seat, st.pending.options[0]))
    assert index == 2
    text = "\n".join(shown)
    assert "red's hand: red 1, red 2" in text        # the player's own hand is shown, as the rules name it
    assert "blue's hand" not in text                  # the other player's hand is not
    assert shown[-4:] == [
        "type a number from 1 to 10 or the start of an option's name (? for help)",
        "no option matches 'zero': type a number from 1 to 10 or the start of an option's name (? for help)",
        "no option 0: the options are 1 to 10", "no option 11: the options are 1 to 10"]
    assert "  3) red 3" in text


def test_simulate_sums_up_many_games_as_json(capsys):
    code, out, err = cli(capsys, "simulate", "snow_time", "--games", "40", "--players", "3", "--json")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["games"] == 40 and summary["players"] == 3
    assert abs(sum(summary["win_rates"]) - 1) < 1e-3          # shared wins count as fractions
    assert len(summary["score_means"]) == 3 and summary["games_per_s"] > 0
    assert 10 < summary["mean_turns"] < 40


def test_simulate_rejects_bad_counts(capsys):
    assert cli(capsys, "simulate", "snow_time", "--games", "0")[0] == 2
    assert cli(capsys, "simulate", "snow_time", "--games", "5", "--workers", "0")[0] == 2


def test_the_account_for_a_human_player_hides_the_other_hands(capsys, monkeypatch):
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))
    code, out, err = cli(capsys, "run", "snowy_tricks", "--players", "3", "--seed", "2",
                         "--agents", "human,random,random")
    assert code == 0, err
    dealt = [line for line in out.splitlines() if "student deck -> " in line and "'s hand" in line]
    assert any(line.strip().startswith("12 component(s): student deck -> orange's hand") for line in dealt)
    assert not any("deck -> orange's hand" in line and "component(s)" not in line for line in dealt)
    assert any("deck -> red's hand" in line and "component(s)" not in line for line in dealt)  # own hand
    assert "chosen: orange" not in out                   # other seats' choices are not told


def test_run_json_with_a_person_keeps_stdout_for_the_result(capsys, monkeypatch):
    """The person is asked on stderr; answering 1 each time is the `first` agent's game."""
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 50))
    code, out, err = cli(capsys, "run", "goofspiel", "--seed", "4", "--agents", "human,random", "--json")
    assert code == 0, err
    result = json.loads(out)  # one JSON object: no view, no prompt on stdout
    assert "--- p0 to choose" in err and "choice 1-13 (? for help): " in err
    code, first, _ = cli(capsys, "run", "goofspiel", "--seed", "4", "--agents", "first,random", "--json")
    expected = json.loads(first)
    assert result["agents"] == ["human", "random"]
    assert (result["scores"], result["winners"], result["turns"]) == (
        expected["scores"], expected["winners"], expected["turns"])


def test_simulate_gives_the_same_summary_with_several_workers(capsys):
    results = []
    for workers in ("1", "2"):
        code, out, err = cli(capsys, "simulate", "snow_time", "--games", "30", "--players", "2",
                             "--seed", "5", "--workers", workers, "--json")
        assert code == 0, err
        summary = json.loads(out)
        results.append((summary["win_rates"], summary["score_means"], summary["mean_turns"]))
    assert results[0] == results[1]


# --- options --------------------------------------------------------------------------------------


def test_options_change_the_game_and_are_logged_and_replayed(capsys, tmp_path):
    """Four cards in descending order: four turns, the point cards 4, 3, 2, 1 in that order."""
    args = ["run", "goofspiel", "--players", "3", "--seed", "5", "--option", "num_cards=4",
            "--option", "points_order=descending"]
    code, out, err = cli(capsys, *args, "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["turns"] == 4
    assert result["options"] == {"num_cards": 4, "points_order": "descending", "returns_type": "win_loss"}
    assert sum(result["scores"]) <= 4 + 3 + 2 + 1
    code, out, _ = cli(capsys, *args)
    assert out.splitlines()[0].startswith("Goofspiel - 3 players, num_cards=4, points_order=descending, seed 5")
    dealt = [line.split(":")[0].strip() for line in out.splitlines()
             if "point cards to come -> point card bid for" in line]
    assert dealt == ["prize 4", "prize 3", "prize 2", "prize 1"]
    log = tmp_path / "g.jsonl"
    assert cli(capsys, *args, "--log", log)[0] == 0
    head = json.loads(log.read_text().splitlines()[0])
    assert head["options"]["num_cards"] == 4
    code, out, _ = cli(capsys, "replay", log)
    assert code == 0 and "identical" in out


def test_simulate_with_options(capsys):
    code, out, err = cli(capsys, "simulate", "oh_hell", "--games", "30", "--players", "4", "--json",
                         "--option", "num_tricks_fixed=3")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["options"]["num_tricks_fixed"] == 3 and summary["mean_turns"] == 1
    # three tricks: scores are 0-3 tricks plus 10 for a bid made
    assert all(0 <= mean <= 13 for mean in summary["score_means"])
