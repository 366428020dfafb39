"""`snowrules replay LOG --html FILE`: a saved game as one self-contained page, to send to anyone.

The page is serve's own (static/table.html, its script and style sheet), with everything it
needs inside the file: every step of the game (watch.Watch) from every reader's view (each
player's and everybody's), each reader's account once, and the script and style inline. It makes
no request at all: its Content-Security-Policy allows no connection, and only the one script and
style sheet it carries, by their hashes. The steps are JSON inside a `<script type=
"application/json">` element with `<`, `>` and `&` written as JSON escapes, so no text of the
ruleset can end that element or be read as markup; the script puts every value in the page as text.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import tempfile
from importlib import resources
from pathlib import Path

from snowrules.web.watch import Watch


def asset(name: str) -> str:
    return resources.files("snowrules.web").joinpath("static", name).read_text("utf-8")


def saved_steps(watch: Watch) -> dict:
    """Every step from every reader's view, each reader's whole account, the components' details and
    each different grid picture once (a step says how many of its account's lines had been told by
    then, and which picture it shows)."""
    readers = [None, *range(watch.game.program.players)]
    steps, details, pictures = [], {}, {}
    for number, step in enumerate(watch.steps):
        shown = {}
        for reader in readers:
            data = watch.snapshot(number, reader, 0)
            del data["account"], data["account_start"]
            details.update(data.pop("details"))   # once for the page: everybody's view names every card anyway
            if data["picture"] is not None:        # each different picture once (readers of public grids share it)
                data["picture"] = pictures.setdefault(data["picture"], len(pictures))
            data["told"] = step.told[reader]
            shown["all" if reader is None else str(reader)] = data
        steps.append(shown)
    accounts = {"all" if reader is None else str(reader): lines for reader, lines in watch.accounts.lines.items()}
    return {"steps": steps, "accounts": accounts, "details": details, "pictures": list(pictures)}


def script_safe(value: object) -> str:
    """JSON that cannot end its <script> element or open a comment there."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c") \
        .replace(">", "\\u003e").replace("&", "\\u0026")


def digest(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def saved_page(watch: Watch) -> str:
    """The page of a logged game played again (`Watch(game, logged)`, which gives a LogError at
    the line where the game differs from the log)."""
    script, style = asset("table.js"), asset("table.css")
    policy = (f"default-src 'none'; script-src {digest(script)}; style-src {digest(style)}; img-src data:; "
              "base-uri 'none'; form-action 'none'")
    page = asset("table.html")
    head = (f'<meta http-equiv="Content-Security-Policy" content="{policy}">\n'
            f"<style>{style}</style>\n"
            f'<script type="application/json" id="saved">{script_safe(saved_steps(watch))}'
            f"</script>\n<script>{script}</script>\n")
    page = page.replace('<link rel="stylesheet" href="/static/table.css">\n', "")
    page = page.replace('<script src="/static/table.js" defer></script>\n', head)
    return page


def write_saved_page(path: Path, page: str) -> None:
    """Write the page through a temporary file beside it, renamed over the target once complete
    (an OSError leaves the file that was there, and no partial file)."""
    target = Path(path).resolve()
    descriptor, name = tempfile.mkstemp(prefix=target.name + ".", suffix=".partial", dir=target.parent)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="\n") as file:
            file.write(page)
        os.chmod(name, 0o644)
        os.replace(name, target)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise


def command_replay_html(args) -> int:
    """`snowrules replay LOG --html FILE [--ruleset FOLDER]`: the log checked as it is played
    again, then the page written; a wrong FILE is a usage error found before the game is played."""
    from snowrules.cli.usage import UsageError
    from snowrules.language.diagnostics import Position
    from snowrules.play.replay import logged_game
    from snowrules.records.logfile import read_log
    from snowrules.records.logwriter import log_target_problem
    from snowrules.runtime.clock import game_clock
    if getattr(args, "show", False):
        raise UsageError("give --show (the terminal) or --html FILE (a page), not both")
    if (problem := log_target_problem(args.html, "a page")) is not None:
        raise UsageError(f"--html {args.html}: {problem}")
    logged = read_log(args.log, finished=False)   # a game saved mid-way is watched as far as it went
    game, ruleset, notes = logged_game(logged, args.ruleset)
    for note in notes:
        print(f"{args.log}:1:1: note: {note}")
    with game_clock(getattr(args, "time_limit", None), where=Position(str(args.log), 1, 1)):
        watch = Watch(game, logged, ruleset.title)
        page = saved_page(watch)
    try:
        write_saved_page(args.html, page)
    except OSError as error:
        raise UsageError(f"--html {args.html}: cannot write the page: {error.strerror}") from None
    print(f"{args.html}: {ruleset.title}, {len(watch.steps) - 1} decisions, to step through from any seat's view "
          f"({len(page.encode('utf-8')) // 1024} KB, no network needed)")
    return 0
