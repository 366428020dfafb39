"""`snowrules serve` (issue 26): the protocol and its security, through Starlette's TestClient.

A Goofspiel table of two people (or one and a random bot): each seat's token reads its own view
and answers for its own seat only; requests without a valid token, too big, too many or not
JSON are refused with a clear JSON message; a reloaded page finds its seat; a log resumes and
is watched step by step. The page itself in a real browser: test_web_browser.py.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from snowrules.compile.compiler import compile_ruleset, load_program  # noqa: E402
from snowrules.language.diagnostics import LogError  # noqa: E402
from snowrules.load.ruleset import load_ruleset  # noqa: E402
from snowrules.play.agents import parse_agents  # noqa: E402
from snowrules.play.replay import replay  # noqa: E402
from snowrules.records.logfile import read_log  # noqa: E402
from snowrules.runtime.engine import Game  # noqa: E402
from snowrules.web.app import Bucket, Limits, create_app  # noqa: E402
from snowrules.web.table import Table  # noqa: E402
from snowrules.web.watch import Watch  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

NO_TOKEN = ("this request has no valid seat token: open the join link that `snowrules serve` printed "
            "(it ends with #TOKEN)")
STATIC = Path(__file__).resolve().parents[1] / "interpreter" / "web" / "static"


def table(seats: str = "human,human", seed: int = 3, log: Path | None = None, logged=None) -> Table:
    return Table(Game(load_program("goofspiel", None, 2)), seed, parse_agents(seats), "goofspiel", log, logged)


def bearer(token: str) -> dict:
    return {"authorization": f"Bearer {token}"}


def client(room, limits: Limits | None = None, clock=lambda: 0.0) -> TestClient:
    """A client of the app; the clock stands still, so a rate limit's burst is exactly what passes."""
    return TestClient(create_app(room, limits or Limits(), clock))


# ---- tokens: every request of a seat needs its own -----------------------------------------
@pytest.mark.parametrize("headers", [
    {},
    {"authorization": "Bearer "},
    {"authorization": "Bearer not-a-token"},
    {"authorization": "Basic {p0}"},            # the right token, the wrong scheme
    {"authorization": "Bearer {p0}x"},          # one character more
    {"authorization": "Bearer {short}"},        # one character less
    {"authorization": "Bearer \u00e9{p0}"},     # not ASCII: never compared
], ids=["none", "empty", "wrong", "basic", "longer", "shorter", "non-ascii"])
@pytest.mark.parametrize("method,path", [("get", "/api/state"), ("post", "/api/answer")])
def test_a_request_without_a_valid_token_is_refused(headers, method, path):
    room = table()
    token = room.tokens[0]
    headers = {k: v.format(p0=token, short=token[:-1]).encode("utf-8") for k, v in headers.items()}
    body = {"json": {"index": 0}} if method == "post" else {}
    response = getattr(client(room), method)(path, headers=headers, **body)
    assert (response.status_code, response.json()) == (401, {"error": NO_TOKEN})
    assert room.st.pending is not None and room.answers == {}  # nothing was answered


def test_tokens_are_unguessable_and_different_for_each_seat():
    room = table()
    first, second = room.tokens[0], room.tokens[1]
    assert first != second and len(first) == len(second) == 43  # 32 random bytes, URL-safe base64
    assert room.player_of(first) == 0 and room.player_of(second) == 1 and room.player_of(first[:-1]) is None


def test_a_token_is_compared_in_constant_time_with_every_seats(monkeypatch):
    """Every seat's token is compared, through hmac.compare_digest, whichever matches or none:
    neither the time taken nor the order of the seats tells how much of a guess was right."""
    from snowrules.web import table as table_module
    room = table("human,human")
    compared = []

    def digest(a: bytes, b: bytes) -> bool:
        compared.append((a, b))
        return a == b
    monkeypatch.setattr(table_module.hmac, "compare_digest", digest)
    first, second = room.tokens[0], room.tokens[1]
    for given, player in [(first, 0), (second, 1), (first[:-1] + "x", None), ("", None)]:
        compared.clear()
        assert room.player_of(given) == player
        assert compared == [(first.encode(), given.encode()), (second.encode(), given.encode())]


def test_each_seat_reads_its_own_view_only():
    room = table()
    http = client(room)
    mine = http.get("/api/state", headers=bearer(room.tokens[0])).json()
    theirs = http.get("/api/state", headers=bearer(room.tokens[1])).json()
    assert mine["view"]["zones"]["p0.hand"] == [f"p0 bid {n}" for n in range(1, 14)]
    assert mine["view"]["zones"]["p1.hand"] == {"count": 13}
    assert "p1 bid" not in json.dumps(mine)        # p1's cards are named nowhere in p0's page
    assert theirs["view"]["zones"]["p0.hand"] == {"count": 13}
    assert "p0 bid" not in json.dumps(theirs)
    assert mine["decisions"] == [{"seat": 0, "seat_name": "p0", "choice": "bid for the point card worth 13",
                                  "options": [f"p0 bid {n}" for n in range(1, 14)], "cells": None}]
    assert (mine["you"], mine["waiting"], mine["result"]) == ("p0", ["p0", "p1"], None)


@pytest.mark.parametrize("body,status,message", [
    ({"index": 0, "seat": 1}, 409, "seat 1 is not one of yours waiting to choose: 0"),
    ({"index": 13}, 409, "option 13 is not one of the 13 options (0 to 12)"),
    ({"index": -1}, 409, "option -1 is not one of the 13 options (0 to 12)"),
    ({"index": "0"}, 409, "option '0' is not one of the 13 options (0 to 12)"),
    ({"index": True}, 409, "option True is not one of the 13 options (0 to 12)"),
    ({"index": 1.0}, 409, "option 1.0 is not one of the 13 options (0 to 12)"),
    ({}, 409, "option None is not one of the 13 options (0 to 12)"),
    ({"index": 0, "seat": "0"}, 409, "seat '0' is not one of yours waiting to choose: 0"),
    ([0], 400, "send one JSON object"),
    ("[" * 1500, 400, "not JSON: send one JSON object"),   # nested too deep for the decoder
    ("{", 400, "not JSON: send one JSON object"),
    ("x" * 2049, 413, "the request body is over 2048 bytes"),
])
def test_a_bad_answer_is_refused_and_changes_nothing(body, status, message):
    room = table()
    content = body if isinstance(body, str) else json.dumps(body)
    response = client(room).post("/api/answer", headers=bearer(room.tokens[0]), content=content)
    assert (response.status_code, response.json()) == (status, {"error": message})
    assert room.answers == {} and [e for e in room.events if e["e"] == "choice"] == []


def test_nobody_answers_twice_or_after_the_game():
    room = table()
    http = client(room)
    assert http.post("/api/answer", headers=bearer(room.tokens[0]), json={"index": 12}).json() == {"ok": True}
    again = http.post("/api/answer", headers=bearer(room.tokens[0]), json={"index": 0})
    assert (again.status_code, again.json()) == (409, {"error": "nothing to choose now: the game waits for p1"})
    # p1's answer completes the turn: both bids are told, in p0's account too
    assert http.post("/api/answer", headers=bearer(room.tokens[1]), json={"index": 0}).json() == {"ok": True}
    account = http.get("/api/state", headers=bearer(room.tokens[0])).json()["account"]
    assert "    p0 wins prize 13 with p0 bid 13" in account
    over = table("human,first")
    for _ in range(12):
        over.answer(0, 0)
    refused = client(over).post("/api/answer", headers=bearer(over.tokens[0]), json={"index": 0})
    assert (refused.status_code, refused.json()) == (409, {"error": "the game is over"})


def test_requests_are_bounded_in_rate():
    room = table()
    http = client(room, Limits(request_burst=3))
    codes = [http.get("/api/state", headers=bearer(room.tokens[0])).status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    refused = http.get("/api/state", headers=bearer(room.tokens[0]))
    assert refused.json() == {"error": "too many requests: at most 20 a second; wait a moment"}
    assert refused.headers["retry-after"] == "1" and "content-security-policy" in refused.headers


def test_the_rate_bucket_refills_with_time():
    """2 a second with a burst of 2: two at once pass, the third waits; half a second gives one
    back; a second more gives two back, never more than the burst."""
    times = iter([0.0, 0.0, 0.0, 0.0, 0.5, 0.5, 1.5, 1.5, 1.5, 1.5])
    bucket = Bucket(2, 2, lambda: next(times))
    assert [bucket.take() for _ in range(9)] == [True, True, False, True, False, True, True, False, False]


def test_every_response_carries_the_security_headers():
    room = table()
    http = client(room)
    for response in (http.get("/"), http.get("/static/table.js"), http.get("/api/state")):
        assert response.headers["content-security-policy"].startswith("default-src 'none'; script-src 'self';")
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"
        assert response.headers["x-frame-options"] == "DENY"


@pytest.mark.parametrize("path", ["/static/../pyproject.toml", "/static/%2e%2e%2fpyproject.toml",
                                  "/static/table.html", "/static/", "/static/..%5c..%5cREADME.md"])
def test_only_the_pages_own_files_are_served(path):
    response = client(table()).get(path)
    assert response.status_code == 404


def test_the_routes_take_no_path_from_the_browser():
    """The ruleset (and every file) is named on the command line: no route reads a path, and the
    only route with a parameter serves a fixed list of files (above)."""
    app = create_app(table())
    assert [route.path for route in app.routes] == ["/", "/static/{name}", "/api/state", "/api/answer", "/ws"]


def test_the_page_never_reads_text_as_markup():
    """Ruleset text reaches the page only as JSON values put into elements as text."""
    script = "\n".join(line for line in (STATIC / "table.js").read_text(encoding="utf-8").splitlines()
                       if not line.lstrip().startswith("//"))  # its comments may name what it avoids
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "Function("):
        assert sink not in script
    assert re.findall(r"<script[^>]*>", (STATIC / "table.html").read_text()) == [
        '<script src="/static/table.js" defer>']


def test_an_internal_error_is_a_clear_message_without_traceback(monkeypatch, capsys):
    room = table()

    def broken(*_args):
        raise KeyError("boom")
    monkeypatch.setattr(room, "snapshot", broken)
    internal = {"error": "internal error in snowrules (a bug, not your answer); the server said what on its terminal"}
    response = client(room).get("/api/state", headers=bearer(room.tokens[0]))
    assert (response.status_code, response.json()) == (500, internal)
    with client(room).websocket_connect("/ws") as page:
        page.send_json({"token": room.tokens[0]})
        assert page.receive_json() == internal
        assert page.receive() == {"type": "websocket.close", "code": 1011, "reason": ""}
    assert capsys.readouterr().err == "snowrules serve: internal error: KeyError: 'boom'\n" * 2


# ---- the websocket: a reloaded page, the other page told, a hostile client -------------------
def test_a_reloaded_page_finds_its_seat_and_every_page_is_told():
    room = table()
    # Entered, the client runs every connection on one event loop, as uvicorn does.
    with client(room) as http, http.websocket_connect("/ws") as first, http.websocket_connect("/ws") as other:
        first.send_json({"token": room.tokens[0]})
        other.send_json({"token": room.tokens[1]})
        assert first.receive_json()["decisions"][0]["seat"] == 0
        assert other.receive_json()["decisions"][0]["seat"] == 1
        first.send_json({"answer": {"index": 12}})
        told = first.receive_json()
        assert (told["decisions"], told["waiting"], told["account_start"]) == ([], ["p1"], 5)
        assert other.receive_json()["waiting"] == ["p1"]    # the other seat's page is told too
    with client(room).websocket_connect("/ws") as reloaded:   # the same link again: the same seat, all of it
        reloaded.send_json({"token": room.tokens[0]})
        again = reloaded.receive_json()
        assert (again["player"], again["decisions"], again["account_start"]) == (0, [], 0)
        assert again["account"][:3] == ["Setup", "  39 components set out", "\nRound 1"]  # rounds num_cards:


def test_a_hostile_websocket_client_gets_errors_and_the_game_is_untouched():
    room = table()
    http = client(room, Limits(message_burst=6))
    with http.websocket_connect("/ws") as hostile:
        hostile.send_json({"token": room.tokens[1]})
        hostile.receive_json()
        for message, error in [
            (b"\x00\x01", "send text messages (JSON), not binary ones"),
            ("not json", "not JSON: send one JSON object"),
            ('["answer"]', "send one JSON object"),
            ('{"answer": 3}', 'send {"answer": {"index": I}}'),
            ('{"answer": {"index": 0, "seat": 0}}', "seat 0 is not one of yours waiting to choose: 1"),
            ('{"answer": {"index": 99}}', "option 99 is not one of the 13 options (0 to 12)"),
            ('{"answer": {"index": 0}}', "too many messages: at most 10 a second; wait a moment"),
        ]:
            hostile.send_bytes(message) if isinstance(message, bytes) else hostile.send_text(message)
            assert hostile.receive_json() == {"error": error}
        hostile.send_text("x" * 2049)
        assert hostile.receive_json() == {"error": "a message is at most 2048 bytes"}
        assert hostile.receive()["type"] == "websocket.close"
    assert room.answers == {} and [e for e in room.events if e["e"] == "choice"] == []
    with http.websocket_connect("/ws") as liar:
        liar.send_json({"token": room.tokens[1][:-1]})
        assert liar.receive_json() == {"error": "this link's token is not one of this table's: open the join "
                                                "link that `snowrules serve` printed"}
        assert liar.receive()["type"] == "websocket.close"


def test_a_seat_has_a_bounded_number_of_pages():
    room = table()
    with client(room, Limits(sockets_per_seat=1)) as http, http.websocket_connect("/ws") as first, \
            http.websocket_connect("/ws") as second:
        first.send_json({"token": room.tokens[0]})
        first.receive_json()
        second.send_json({"token": room.tokens[0]})
        assert second.receive_json() == {"error": "this seat has 1 pages open already: close one"}


# ---- escaping: ruleset text is data --------------------------------------------------------
HOSTILE = "<script>alert(1)</script>"


def hostile_ruleset(folder: Path) -> Path:
    """Kuhn poker (tests/rulesets) with its Jack named HOSTILE and markup in its title."""
    target = folder / "kuhn"
    shutil.copytree(Path(__file__).parent / "rulesets" / "kuhn_poker", target)
    cards = target / "components" / "cards.yaml"
    cards.write_text(cards.read_text().replace("name: Jack", f"name: '{HOSTILE}'"))
    manifest = target / "ruleset.yaml"
    manifest.write_text(manifest.read_text().replace("title: Kuhn poker", "title: '<b>Kuhn</b>'"))
    return target


def test_ruleset_text_reaches_a_page_as_plain_json_values(tmp_path):
    ruleset = load_ruleset(str(hostile_ruleset(tmp_path)))
    game = Game(compile_ruleset(ruleset, 2))
    room = Table(game, 0, parse_agents("human"), ruleset.folder, title=ruleset.title)
    http = client(room)
    page = http.get("/")
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    assert "script>alert" not in page.text and "Kuhn" not in page.text  # the page holds no ruleset text
    names = [n for zone in (room.snapshot(0)["view"]["zones"], room.snapshot(1)["view"]["zones"])
             for content in zone.values() if isinstance(content, list) for n in content]
    assert HOSTILE in names  # one of the two players holds it: as its name, unchanged, for textContent
    assert http.get("/api/state", headers=bearer(room.tokens[0])).json()["title"] == "<b>Kuhn</b>"


# ---- the log: saved after every answer, resumed, watched ----------------------------------
def test_a_game_saved_midway_resumes_and_ends_with_a_log_that_replays(tmp_path):
    log = tmp_path / "game.jsonl"
    first = table("human,random", log=log)
    for index in (12, 0, 5):
        first.answer(0, index)
    logged = read_log(log, finished=False)
    assert logged.result is None and sum(e["e"] == "choice" for _n, e in logged.events) == 6
    resumed = table("human,random", log=log, logged=logged)
    assert resumed.snapshot(0) == {**first.snapshot(0), "places": resumed.snapshot(0)["places"]}
    while resumed.st.result is None:
        resumed.answer(0, 0)
    report = replay(log)
    assert (report.identical, report.events) == (True, len(resumed.events))


def test_a_log_that_differs_from_the_game_is_refused_at_its_line(tmp_path):
    log = tmp_path / "game.jsonl"
    first = table("human,random", log=log)
    first.answer(0, 12)
    lines = log.read_text().splitlines()
    choice = next(i for i, line in enumerate(lines) if '"e":"choice"' in line)
    lines[choice] = lines[choice].replace('"index":12', '"index":40')
    log.write_text("\n".join(lines) + "\n")
    with pytest.raises(LogError) as error:
        table("human,random", logged=read_log(log, finished=False))
    assert str(error.value.diagnostics[0]) == f"{log}:{choice + 1}:1: error: choice index 40 is not legal here: 0..12"


def test_a_saved_game_is_watched_step_by_step(tmp_path):
    log = tmp_path / "game.jsonl"
    played = table("human,first", log=log)
    while played.st.result is None:
        played.answer(0, 0)                          # both play their lowest card: p0 bid n against p1 bid n
    watch = Watch(played.game, read_log(log))
    assert len(watch.steps) == 13                    # the start and 12 decisions (the 13th card is forced)
    start, one, end = watch.snapshot(0, None), watch.snapshot(1, None), watch.snapshot(12, 0)
    for seat in ("p0", "p1"):                        # everybody's view: every hand
        assert start["view"]["zones"][f"{seat}.hand"] == [f"{seat} bid {n}" for n in range(1, 14)]
    assert one["chosen"] == ["p0: p0 bid 1", "p1: p1 bid 1"]
    # each decision is a turn's bid (the 13th turn's is forced): turn t starts at step t - 1
    assert (start["turn"], one["turn"], end["turn"], one["turns"]) == (1, 2, 13, [[t, t - 1] for t in range(1, 14)])
    assert one["view"]["counters"] == {"turn": 2, "p0.score": 0, "p1.score": 0}  # a tie: prize 13 discarded
    assert end["view"]["zones"]["p1.played"] == [f"p1 bid {n}" for n in range(1, 14)]
    assert end["result"] == {"players": ["p0", "p1"], "scores": [0, 0], "winners": ["p0", "p1"], "turns": 13,
                             "turn_word": "round"}
    http = client(watch)
    state = http.get("/api/state?step=1&reader=1", headers=bearer(watch.token)).json()
    assert (state["step"], state["reader"], state["chosen"]) == (1, 1, [])
    for query, message in [("step=13", "step 13 is not one of 0 to 12"),
                           ("reader=2", "reader 2 is not a player (0 to 1) or null for everybody"),
                           ("step=-1", "step must be a whole number, not '-1'")]:
        refused = http.get(f"/api/state?{query}", headers=bearer(watch.token))
        assert (refused.status_code, refused.json()) == (400, {"error": message})
    assert http.post("/api/answer", headers=bearer(watch.token), json={"index": 0}).json() == {
        "error": "a saved game is watched, not played: there is nothing to answer"}


# ---- a rules error during the game ---------------------------------------------------------
def test_a_rules_error_stops_the_game_with_its_place_and_keeps_the_saved_game(tmp_path, capsys):
    """A bid of 13 reaches a rule that adds to the score of nobody: the game goes back to the
    decision before, every page is told where the rules failed, and the log keeps that decision."""
    folder = tmp_path / "broken"
    shutil.copytree(Path(__file__).resolve().parents[1] / "rulesets" / "goofspiel", folder)
    rules = folder / "rules.sr"
    rules.write_text(rules.read_text().replace(
        "        let highest = [each p in players where first(p.bid).value == top]\n",
        "        let highest = [each p in players where first(p.bid).value == top]\n"
        "        if top == 13:\n            add 1 to first([each p in players where p.score < 0]).score\n"))
    ruleset = load_ruleset(str(folder))
    log = tmp_path / "game.jsonl"
    room = Table(Game(compile_ruleset(ruleset, 2)), 3, parse_agents("human,human"), ruleset.folder, log)
    room.answer(0, 0)
    room.answer(1, 3)
    saved, before = log.read_bytes(), room.snapshot(0)
    room.answer(0, 11)                         # p0 bids 13: nothing runs until p1 answers too
    http = client(room)
    response = http.post("/api/answer", headers=bearer(room.tokens[1]), json={"index": 11})
    failure = (f"The rules failed and the game cannot go on: {rules}:60:13: error: a value is none where this "
               "rule needs one (find() or first() found nothing?), while the game ran (hint: Python said: "
               "unsupported operand type(s) for +: 'int' and 'NoneType'). The game before this decision "
               f"is saved in {log}: `snowrules serve --resume {log}` continues it once the rules are fixed")
    assert (response.status_code, response.json()) == (409, {"error": failure})
    assert room.failure == failure and log.read_bytes() == saved
    assert room.snapshot(0) == {**before, "decisions": [], "waiting": [], "failure": failure}
    with http.websocket_connect("/ws") as page:
        page.send_json({"token": room.tokens[0]})
        assert page.receive_json()["failure"] == failure
        page.send_json({"answer": {"index": 0}})
        assert page.receive_json() == {"error": failure}
    assert capsys.readouterr().err.startswith(f"snowrules serve: {rules}:60:13: error: a value is none")


def test_a_watch_follows_a_game_whose_log_is_still_written(tmp_path):
    """`serve --watch` of the log another `serve --log` is writing: a page asking to follow gets
    the newest step as the game goes on, its account from where it was."""
    log = tmp_path / "game.jsonl"
    played = table("human,first", log=log)
    played.answer(0, 0)
    watch = Watch(Game(played.game.program), read_log(log, finished=False))
    with client(watch).websocket_connect("/ws") as page:
        page.send_json({"token": watch.token})
        first = page.receive_json()
        assert (first["step"], first["steps"], first["live"]) == (0, 1, True)
        page.send_json({"follow": True, "reader": None})
        assert (page.receive_json()["step"], len(watch.steps)) == (1, 2)
        told = len(watch.accounts.lines[None][:watch.steps[1].told[None]])
        for _ in range(2):
            played.answer(0, 0)
        page.send_json({"follow": True, "reader": None})
        newest = page.receive_json()
        assert (newest["step"], newest["steps"], newest["chosen"]) == (3, 3, ["p0: p0 bid 3", "p1: p1 bid 3"])
        lines = watch.accounts.lines[None]
        assert (newest["account_start"], newest["account"]) == (told, lines[told:watch.steps[3].told[None]])
        while played.st.result is None:
            played.answer(0, 0)
        page.send_json({"follow": True, "reader": 0})
        last = page.receive_json()
        assert (last["step"], last["live"], last["result"]["turns"]) == (12, False, 13)
