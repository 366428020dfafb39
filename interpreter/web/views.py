"""What a page is sent: one reader's view of a state, as plain JSON-ready data.

A reader is a player (their `Game.view`: the zones they may see, the sizes of the others, their
counters; the grid zones they may see drawn as the SVG of `--picture`; the decision in front of
them, labelled as the terminal labels it) or, for a saved game watched afterwards, everybody
(`None`: what any player sees, put together). Nothing here is HTML: the page builds its elements
from these values as text, and the SVG is shown as an image, which runs no script.
"""
from __future__ import annotations

import base64
from collections.abc import Iterable
from xml.etree import ElementTree

from snowrules.model.grid_zones import is_spot
from snowrules.model.state import State
from snowrules.play.layouts import layouts_picture, state_grids
from snowrules.play.narrate import Narrator, account_listeners, narrator_for
from snowrules.play.prompts import option_labels, prompt_of
from snowrules.play.results import result_reading
from snowrules.runtime.engine import Game

SVG = "http://www.w3.org/2000/svg"


def player_name(game: Game, player: int) -> str:
    """A player as the result table names them: their seats' names joined."""
    names = game.layout.seat_names
    return " & ".join(names[s] for s in game.program.seats_of(player))


def seen(game: Game, st: State, player: int | None) -> dict:
    """The view of `player`, or (None) everything some player sees: each zone's contents when any
    player may see them, else its size. The box (the components not in play) is left out, as the
    terminal leaves it out: its size tells a player nothing. A zone's components read as the
    terminal's holdings read them: by their list's `label:` with the values they have now; the
    counters keep their plain names (`green die #2.value`)."""
    if player is not None:
        return labelled(game, st, without_box(game, game.view(st, player)))
    views = [without_box(game, game.view(st, p)) for p in range(game.program.players)]
    merged = {"player": None, "seats": list(game.layout.seat_names), "zones": {}, "counters": {},
              "variables": views[0]["variables"]}
    for view in views:
        for label, content in view["zones"].items():
            if isinstance(content, list) or label not in merged["zones"]:
                merged["zones"][label] = content
        merged["counters"].update(view["counters"])
    return labelled(game, st, merged)


def labelled(game: Game, st: State, view: dict) -> dict:
    """`view` with each zone it lists read by its components' labels (Game.component_label), in
    the zone's order; a ruleset without labels keeps the names as they are."""
    layout = game.layout
    if not any(label is not None for label in layout.labels):
        return view
    zones = view["zones"]
    for index, zone in enumerate(layout.zones):
        label = zone.label(layout.seat_names)
        if isinstance(zones.get(label), list):
            zones[label] = game.zone_labels(st, index)
    return view


def without_box(game: Game, view: dict) -> dict:
    view["zones"].pop(game.layout.zones[0].label(game.layout.seat_names), None)
    return view


def details(game: Game, st: State, view: dict, decisions: list[dict] = ()) -> dict[str, str]:
    """What the components the reader sees are, by the text the page shows for them (shown when
    a card is pointed at): each field the component list gives, one a line, a field of several
    lines (rules text) by its first line. Only components in the reader's view or options: nothing
    about a card out of sight."""
    layout = game.layout
    shown: dict[str, int] = {}
    for index, zone in enumerate(layout.zones):
        content = view["zones"].get(zone.label(layout.seat_names))
        if isinstance(content, list):  # in the zone's order, or sorted (`unordered`): each read as shown
            for c in st.zones[index]:
                shown.setdefault(game.component_label(st, c), c)
    pending = st.pending
    if decisions and pending is not None and not pending.chance:
        for decision in decisions:
            options = pending.options[pending.seats.index(decision["seat"])]
            for option, text in zip(options, decision["options"]):
                if option.__class__ is int and pending.kind == "component":
                    shown.setdefault(text, option)
    found = {}
    for text in sorted(shown):
        c, lines = shown[text], []
        for field, values in layout.fields.items():
            value = values[c]
            if value is None or field == "name":
                continue
            if field == "owner":
                value = layout.seat_names[value]
            elif isinstance(value, list):
                value = ", ".join(map(str, value))
            text_lines = str(value).strip().splitlines()
            lines.append(f"{field}: {text_lines[0] if text_lines else ''}{' ...' if len(text_lines) > 1 else ''}")
        found[text] = "\n".join(lines)
    return found


def picture(game: Game, st: State, player: int | None, decisions: list[dict] = ()) -> str | None:
    """The grid zones the reader may see as an SVG data URL (None without grid zones), with the
    cells of the reader's spot decisions marked (`spot_cells`)."""
    return picture_and_places(game, st, player, decisions)[0]


def picture_and_places(game: Game, st: State, player: int | None, decisions: list[dict] = ()) -> tuple:
    """The picture's data URL and where its marked spot cells are in it, for the page to put a
    button over each: {"width", "height", "cells": {"x,y": [left, top, width, height]}} in the
    picture's own units (None when no cell is marked)."""
    program = game.program
    if not game.layout.grid_zones:
        return None, None
    seats = None if player is None else program.seats_of(player)
    grids = state_grids(program, st, seats)
    cells = [cell for d in decisions for cell in d.get("cells") or () if cell is not None]
    # a spot names its cell, not its zone: it is marked only where one grid zone is drawn
    spots = {next(iter(grids)): [tuple(map(int, c.split(","))) for c in dict.fromkeys(cells)]} \
        if cells and len(grids) == 1 else {}
    svg = layouts_picture(program, grids, spots)
    url = "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")
    if not spots:
        return url, None
    root = ElementTree.fromstring(svg)
    boxes = {rect.get("data-cell"): [float(rect.get(k)) for k in ("x", "y", "width", "height")]
             for rect in root.iter(f"{{{SVG}}}rect") if rect.get("class") == "spot"}
    return url, {"width": float(root.get("width")), "height": float(root.get("height")), "cells": boxes}


def spot_cells(options: list) -> list[str | None] | None:
    """Each option's cell ("x,y") when the options are spots (None for one that is not), else None."""
    if not any(is_spot(o) for o in options):
        return None
    return [f"{o['cell']['x']},{o['cell']['y']}" if is_spot(o) else None for o in options]


def decisions(game: Game, st: State, player: int | None, answered: Iterable[int] = ()) -> list[dict]:
    """The decisions waiting for `player`'s seats (not yet answered), each with its options'
    labels (Game.option_labels: copies of one card told apart)."""
    pending = st.pending
    if pending is None or pending.chance or player is None:
        return []
    done = set(answered)
    names = game.layout.seat_names
    return [{"seat": seat, "seat_name": names[seat], "choice": prompt_of(game, st, seat),
             "options": option_labels(game, st, options, seat), "cells": spot_cells(options)}
            for seat, options in zip(pending.seats, pending.options)
            if game.program.controller(seat) == player and seat not in done]


def waiting_for(game: Game, st: State, answered: Iterable[int] = ()) -> list[str]:
    """The seats the game still waits for, by name."""
    pending = st.pending
    if pending is None or pending.chance:
        return []
    done = set(answered)
    return [game.layout.seat_names[s] for s in pending.seats if s not in done]


def result(game: Game, st: State) -> dict | None:
    """The outcome once the game is over: each player's name and score, the winners' names,
    what a pass of the main section is called ("round" or "turn", Program.turn_word), and the
    manifest's `result:` reading: `titles` and `tie` where they apply (play/results.py)."""
    outcome = game.outcome(st)
    if outcome is None:
        return None
    players = [player_name(game, p) for p in range(game.program.players)]
    return {"players": players, "scores": outcome.scores, "winners": [players[w] for w in outcome.winners],
            "turns": outcome.turns, "turn_word": game.program.turn_word, **result_reading(game, st)}


class Accounts:
    """The account of the game (play/narrate.py) for each reader at once, as lists of lines that
    only grow: a player's tells only what that player may see (other seats' choices and cards
    moving between hidden zones are not named), everybody's (reader None) tells all. Feed it the
    game's JSON events (`sink`) and its event values (`listen`); call `flush` where the game
    stops, so that what the narrator gathers (the choices just made) is told."""

    def __init__(self, game: Game, readers: Iterable[int | None]):
        self.lines: dict[int | None, list[str]] = {}
        self._narrators: list[Narrator] = []
        self._listeners: list = []
        for reader in readers:
            lines = self.lines[reader] = []
            narrator = narrator_for(game, lines.append,
                                    None if reader is None else set(game.program.seats_of(reader)))
            self._narrators.append(narrator)
            self._listeners.extend(account_listeners(narrator))

    def follow(self, st: State) -> None:
        """The state the game is played in from now on, that the accounts read labels from (a
        table's state is replaced when a rules error takes it back to a copy)."""
        for narrator in self._narrators:
            if narrator.labels is not None:
                narrator.labels.follow(st)

    def sink(self, event: dict) -> None:
        for narrator in self._narrators:
            narrator.feed(event)

    def listen(self, event) -> None:
        for listen in self._listeners:
            listen(event)

    def flush(self) -> None:
        for narrator in self._narrators:
            narrator.flush()
