"""`snowrules serve` in a real browser (issue 26): headless Chromium through Playwright plays a whole
Goofspiel game on the page against a random bot, and a ruleset whose cards are named with markup
is shown as text. The browser is the system's chromium where there is one (Debian's
`apt-get install chromium`; Playwright's own download is not reachable everywhere), else
Playwright's. Skipped, saying why, where Playwright or a Chromium is missing, unless
`SNOWRULES_BROWSER_TESTS=required` (set by .ci/run once it has installed chromium): then a
missing browser fails the tests instead of skipping them.
`SNOWRULES_SCREENSHOTS=DIR` keeps a screenshot of each page there, to look at.
"""
from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
REQUIRED = os.environ.get("SNOWRULES_BROWSER_TESTS") == "required"
try:
    from playwright import sync_api
except ImportError:
    sync_api = None

from snowrules.compile.compiler import compile_ruleset, load_program  # noqa: E402
from snowrules.load.ruleset import load_ruleset  # noqa: E402
from snowrules.play.agents import parse_agents  # noqa: E402
from snowrules.runtime.engine import Game  # noqa: E402
from snowrules.web.app import create_app  # noqa: E402
from snowrules.web.command import listen  # noqa: E402
from snowrules.web.table import Table  # noqa: E402

NAMES = {"Jack": "<script>alert(1)</script>", "Queen": "<img src=x onerror=alert(2)>",
         "King": '"><svg onload=alert(3)>'}


def unavailable(reason: str):
    """Skip, or fail where the browser tests are required (CI installed the browser)."""
    if REQUIRED:
        pytest.fail(f"{reason} (SNOWRULES_BROWSER_TESTS=required: these tests must run here)")
    pytest.skip(reason)


def system_chromium() -> str | None:
    return next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)


@pytest.fixture(scope="module")
def browser():
    if sync_api is None:
        unavailable("Playwright is not installed: pip install playwright")
    with sync_api.sync_playwright() as playwright:
        path = system_chromium()
        try:
            launched = playwright.chromium.launch(executable_path=path) if path else playwright.chromium.launch()
        except sync_api.Error as error:
            unavailable(f"no Chromium for Playwright (`apt-get install chromium`): {str(error).splitlines()[0]}")
        yield launched
        launched.close()


class Served:
    """A table served by uvicorn on a free port of 127.0.0.1, in a thread, as `snowrules serve` does."""

    def __init__(self, room):
        import uvicorn
        self.listener = listen("127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/"
        config = uvicorn.Config(create_app(room), log_level="warning", lifespan="off", ws="auto")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.listener]}, daemon=True)

    def __enter__(self) -> Served:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        return self

    def __exit__(self, *_exc) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.listener.close()


def screenshot(page, name: str) -> None:
    folder = os.environ.get("SNOWRULES_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / name), full_page=True)


def test_a_whole_goofspiel_game_is_played_through_the_page(browser):
    room = Table(Game(load_program("goofspiel", None, 2)), 3, parse_agents("human,random"), "goofspiel")
    with Served(room) as served:
        page = browser.new_page()
        dialogs, errors = [], []
        page.on("dialog", lambda dialog: dialogs.append(dialog.message))
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(served.url + "#" + room.tokens[0])
        bids = 0
        while True:
            page.wait_for_selector("button.option:not([disabled]), #result:not([hidden])")
            if page.is_visible("#result"):
                break
            # p1's hand is never named on p0's page: only the cards p1 has played (revealed)
            zones = page.inner_text("#zones")
            assert zones.count("p1 bid") == len(room.snapshot(1)["view"]["zones"]["p1.played"])
            assert len(page.locator("button.option").all()) == 13 - bids
            if bids == 4:
                screenshot(page, "goofspiel-mid.png")
                page.reload()             # the page finds its seat again
                page.wait_for_selector("button.option:not([disabled])")
            page.locator("button.option").last.click()   # the highest bid left
            bids += 1
        screenshot(page, "goofspiel-end.png")
        outcome = room.game.outcome(room.st)
        assert bids == 12                 # the 13th card is played without asking
        assert [e for e in room.events if e["e"] == "choice" and e["seat"] == "p0"][0]["option"] == "p0 bid 13"
        winners = " and ".join(f"p{w}" for w in outcome.winners)
        verb = "win" if len(outcome.winners) > 1 else "wins"
        assert page.inner_text("#result h2") == f"The game is over after 13 rounds: {winners} {verb}"
        assert page.inner_text("#account").rstrip().endswith(f"The game ends: {winners} {verb}")
        assert (dialogs, errors) == ([], [])


def test_markup_in_a_ruleset_is_shown_as_text(browser, tmp_path):
    folder = tmp_path / "kuhn"
    shutil.copytree(Path(__file__).parent / "rulesets" / "kuhn_poker", folder)
    cards = folder / "components" / "cards.yaml"
    text = cards.read_text()
    for plain, hostile in NAMES.items():
        text = text.replace(f"name: {plain}", f"name: '{hostile}'")
    cards.write_text(text)
    manifest = folder / "ruleset.yaml"
    manifest.write_text(manifest.read_text().replace("title: Kuhn poker", "title: '<b>Kuhn</b>'"))
    ruleset = load_ruleset(str(folder))
    room = Table(Game(compile_ruleset(ruleset, 2)), 0, parse_agents("human,first"), ruleset.folder,
                 title=ruleset.title)
    held = room.snapshot(0)["view"]["zones"]["p0.hand"]
    with Served(room) as served:
        page = browser.new_page()
        dialogs = []
        page.on("dialog", lambda dialog: dialogs.append(dialog.message))
        page.goto(served.url + "#" + room.tokens[0])
        page.wait_for_selector("button.option")
        screenshot(page, "markup-as-text.png")
        assert page.inner_text("h1") == "<b>Kuhn</b>" and page.locator("h1 b").count() == 0
        assert page.locator("#zones li.card").all_inner_texts() == held and held[0] in NAMES.values()
        assert page.locator("main script, main img, main svg").count() == 0
        assert dialogs == []


def hidden_from(room, player: int) -> set[str]:
    """The names of the components `player` may not see now (in zones their view gives as a
    count), less any name also in sight (copies of one token)."""
    game, st = room.game, room.st
    names, layout = game.layout.component_names, game.layout
    view = game.view(st, player)["zones"]
    hidden, shown = set(), set()
    for index, zone in enumerate(layout.zones):
        content = view[zone.label(layout.seat_names)]
        (shown if isinstance(content, list) else hidden).update(names[c] for c in st.zones[index])
    return hidden - shown


def test_two_people_and_a_bot_play_a_whole_snow_time_game_through_their_pages(browser):
    """Red and blue each play on their own page (blue reloads once), green is a random bot on the
    server; at each of their decisions the page names none of the cards hidden from that seat."""
    room = Table(Game(load_program("snow_time", None, 3)), 4, parse_agents("human,human,random"), "snow_time",
                 title="Snow Time")
    with Served(room) as served:
        pages = []
        for player in (0, 1):
            page = browser.new_page()
            page.goto(served.url + "#" + room.tokens[player])
            pages.append((player, page))
        page.wait_for_selector("#status:has-text('your turn'), #status:has-text('waiting')")
        answered, reloaded = [0, 0], False
        deadline = time.monotonic() + 180   # (a loaded CI machine)
        while room.st.result is None and time.monotonic() < deadline:
            for player, page in pages:
                buttons = page.locator("button.option:not([disabled])")
                if not buttons.count():
                    continue
                with room.lock:      # the game waits for this seat: the page shows the state the server has
                    hidden = hidden_from(room, player)
                shown = set(page.locator("#zones li.card, button.option").all_inner_texts())
                pointed = "\n".join(page.locator("[title]").evaluate_all("nodes => nodes.map((n) => n.title)"))
                assert hidden and not shown & hidden and not any(name in pointed for name in hidden)
                if player == 1 and answered[1] == 3 and not reloaded:
                    screenshot(page, "snow-time-blue.png")
                    page.reload()    # the page finds its seat again, its decision still waiting
                    page.wait_for_selector("button.option:not([disabled])")
                    reloaded = True
                page.locator("button.option:not([disabled])").first.click()
                answered[player] += 1
            pages[0][1].wait_for_timeout(20)
        outcome = room.game.outcome(room.st)
        assert outcome is not None and reloaded and min(answered) >= 5
        winners = " and ".join(room.game.layout.seat_names[w] for w in outcome.winners)
        for _player, page in pages:
            page.wait_for_selector("#result:not([hidden])")
            verb = "win" if len(outcome.winners) > 1 else "wins"
            assert page.inner_text("#result h2").endswith(f": {winners} {verb}")
        screenshot(pages[0][1], "snow-time-end.png")
        choices = [e["seat"] for e in room.events if e["e"] == "choice"]
        assert (choices.count("red"), choices.count("blue")) == tuple(answered)


def test_the_saved_page_steps_through_a_snow_planner_game_without_a_server(browser, tmp_path):
    from snowrules.cli.main import main
    log, saved = tmp_path / "game.jsonl", tmp_path / "game.html"
    assert main(["run", "snow_planner", "--players", "1", "--agents", "random", "--seed", "2", "--log", str(log),
                 "--json"]) == 0
    assert main(["replay", str(log), "--html", str(saved)]) == 0
    page = browser.new_page()
    asked, errors = [], []
    page.on("request", lambda request: asked.append(request.url))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(saved.as_uri())
    steps = int(page.inner_text("#where").rpartition(" of ")[2])
    assert page.inner_text("#where") == f"decision 0 of {steps}" and page.is_disabled("#back")
    page.click("#next")
    page.click("#next")
    assert page.inner_text("#where") == f"decision 2 of {steps}"
    assert page.inner_text("#decide p").startswith("Chosen to get here: ")
    page.click("#back")
    assert page.inner_text("#where") == f"decision 1 of {steps}"
    page.fill("#jump", str(steps // 2))
    page.press("#jump", "Enter")
    assert page.inner_text("#where") == f"decision {steps // 2} of {steps}"
    turns = page.locator("#turn option")
    third = turns.nth(2).get_attribute("value")       # the first decision of the third turn listed
    page.select_option("#turn", index=2)
    assert page.inner_text("#where") == f"decision {third} of {steps}" and turns.nth(2).inner_text().isdigit()
    page.fill("#jump", str(steps // 2))
    page.press("#jump", "Enter")
    page.select_option("#reader", "0")
    assert page.inner_text("#you").startswith("Seen by ")
    page.select_option("#pace", "250")
    page.click("#play")
    deadline = time.monotonic() + 10
    while page.inner_text("#where") != f"decision {steps // 2 + 2} of {steps}" and time.monotonic() < deadline:
        page.wait_for_timeout(50)                      # (wait_for_function: the page's CSP forbids eval)
    page.click("#play")                                # pause
    assert int(page.inner_text("#where").split()[1]) in (steps // 2 + 2, steps // 2 + 3)
    page.keyboard.press("End")
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#where") == f"decision {steps} of {steps}"
    screenshot(page, "snow-planner-saved.png")
    assert (asked, errors) == ([saved.as_uri()], [])


def test_a_whole_snowfall_game_is_played_by_clicking_spots_on_the_picture(browser):
    """Every tile goes where a marked square of the picture is clicked (then, when it may be
    turned several ways there, one of the ways shown); every other decision by its first button."""
    room = Table(Game(load_program("snowfall_over_mountains", None, 1)), 1, parse_agents("human"),
                 "snowfall_over_mountains", title="Snowfall over Mountains")
    with Served(room) as served:
        page = browser.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(served.url + "#" + room.tokens[0])
        clicked = []
        while True:
            page.wait_for_selector("button.option:not([disabled]), #result:not([hidden])")
            if page.is_visible("#result"):
                break
            spots = page.locator("button.spot:not([disabled])")
            if not spots.count():
                page.locator("button.option").first.click()
                continue
            spot = spots.first
            cell = spot.get_attribute("data-cell")
            ways = spot.get_attribute("title").split("\n")
            assert page.locator("button.option").count() >= len(ways)    # every place's ways, before a click
            spot.click()
            if len(ways) > 1:                        # the ways at that cell alone, then one of them
                page.wait_for_selector(f".hint:has-text('At ({cell})')")
                assert page.locator("button.option").all_inner_texts() == ways
                page.locator("button.option").first.click()
            clicked.append(f"({cell}) ")
            if len(clicked) == 5:
                screenshot(page, "snowfall-mid.png")
        placed = [e["option"] for e in room.events if e["e"] == "choice" and e["option"].startswith("(")]
        assert len(clicked) == len(placed) > 20 and all(p.startswith(c) for p, c in zip(placed, clicked))
        score = room.game.outcome(room.st).scores[0]
        assert score < 46  # [Wanderlust Table] below 46: Lost Traveler, said with the score
        assert page.inner_text("#result h2") == f"The game is over after 27 turns: you score {score}: Lost Traveler"
        assert page.inner_text("#account").rstrip().endswith(f"The game ends: you score {score}: Lost Traveler")
        assert errors == []
        screenshot(page, "snowfall-end.png")
