"""What a person reads at the result beside the winners: the title each player's result earns
and what decided a tie, from the manifest's `result:` section (load/result_section.py).

Both are worked out from the state the game ends in, so that the account's last line, the result
table at the terminal and the browser's say the same, and the log stays as it was. The rules
decide the winners (with the declared tie-breakers themselves, through `tie_broken`:
compile/stdlib_result.py, or by their own criteria); here the tie-breakers only explain them:
"decided by" is said only when walking them, in order, from the best score leaves exactly the
rules' winners (rules that decide otherwise show the tied values, never a wrong reason).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from snowrules.load.result_section import TITLE, TieBreak, tie_breaks
from snowrules.play.prompts import counter_name
from snowrules.runtime.returns import evaluate_manifest

if TYPE_CHECKING:
    from snowrules.model.program import Program
    from snowrules.model.state import State
    from snowrules.runtime.engine import Game


def declares_result(program: Program) -> bool:
    """Whether the manifest says how the result reads (a title, tie-breakers)."""
    return any(key == TITLE or isinstance(key, TieBreak) for key in program.interface)


def player_titles(game: Game, st: State) -> list[str | None] | None:
    """Each player's title once the game is over (None for a player whose title is `none`);
    None when the game is not over or the manifest declares no title. A player with several
    seats (a variant's two colours) has their first seat's."""
    program = game.program
    if st.result is None or TITLE not in program.interface:
        return None
    titles: list[str | None] = []
    for player in range(program.players):
        title = evaluate_manifest(program, TITLE, st, program.seats_of(player)[0])
        titles.append(None if title is None else str(title))
    return titles


def seat_titles(game: Game, st: State) -> dict[str, str]:
    """The titles by the name of each player's first seat, leaving out players without one."""
    titles = player_titles(game, st) or []
    names = game.layout.seat_names
    return {names[game.program.seats_of(p)[0]]: title for p, title in enumerate(titles) if title is not None}


def tie_line(game: Game, st: State) -> str | None:
    """What decided the result when the best score is shared, in the rulebook's words: "tied on
    VP 0; decided by window tiles: red 3, green 2". None when nobody shares the best score, or
    the players who share it share the victory and no tie-breaker is declared (or the game is not
    over, has one player, or no `score` counter: nothing was tied)."""
    outcome = game.outcome(st)
    program = game.program
    score = game.layout.counter_families.get("score")
    if outcome is None or program.players < 2 or score is None or not score.per_player or score.keys:
        return None  # over, with players to compare, by a score (Game.outcome's: one per player)
    best = max(outcome.scores)
    tied = [p for p, score in enumerate(outcome.scores) if score == best]
    if len(tied) < 2 or tied == outcome.winners and not tie_breaks(program.interface):
        return None  # no tie, or a victory the tied players share, with nothing declared to tell
    names = [" & ".join(game.layout.seat_names[s] for s in program.seats_of(p)) for p in range(program.players)]
    equal = [f"{_score_name(game, st)} {best}"]
    for key in tie_breaks(program.interface):
        values = {p: evaluate_manifest(program, key, st, program.seats_of(p)[0]) for p in tied}
        kept = key.keeps(tied, [values[p] for p in tied])
        if len(kept) == 1:
            if kept != outcome.winners:  # the rules decided otherwise than the declared order
                break
            order = sorted(tied, key=lambda p: values[p], reverse=not key.fewest)
            shown = ", ".join(f"{names[p]} {_number(values[p])}" for p in order)
            return f"tied on {', '.join(equal)}; decided by {key.text}: {shown}"
        equal.append(f"{key.text} {_number(values[kept[0]])}")  # those still tied share it
        tied = kept
    return f"tied on {', '.join(equal)}"


def result_reading(game: Game, st: State) -> dict:
    """The result's `titles` (one per player, None for none; left out when nobody has one) and
    `tie` (what decided a shared best score), as `run --json` gives them and the result tables
    show them."""
    found: dict = {}
    titles = player_titles(game, st)
    if titles is not None and any(title is not None for title in titles):  # else no title column
        found["titles"] = titles
    tie = tie_line(game, st)
    if tie is not None:
        found["tie"] = tie
    return found


def _score_name(game: Game, st: State) -> str:
    """The score as the rules read it ("VP"; "score" without a text)."""
    return counter_name(game, st, game.layout.counter_families["score"].base)


def _number(value: object) -> str:
    """A value as the table shows it: whole numbers plainly, fractions to 4 digits."""
    return str(value) if isinstance(value, int) else f"{float(value):.4g}"
