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
        assert page.inner_text("#result h2") == f"The game is over after 13 turns: {winners} {verb}"
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
