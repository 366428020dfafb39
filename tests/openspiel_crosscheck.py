"""Play OpenSpiel's own game at random and the snowrules ruleset through the adapter, side by side.

At every node: the same player to move, the same legal actions (pyspiel does not check legality in
apply_action, so comparing the legal sets is the test), the same chance outcomes with the same
probabilities; at the end the same returns. Used by test_openspiel.py and by hand:
`python tests/openspiel_crosscheck.py goofspiel num_cards=5 players=3`.
"""
from __future__ import annotations

import itertools
import math
import random
import sys

import pyspiel
from snowrules.adapters.openspiel import load_game


class Mismatch(AssertionError):
    pass


def games(openspiel_name: str, ruleset: str, params: dict) -> tuple:
    """OpenSpiel's game and the ruleset's, with the same parameters."""
    return pyspiel.load_game(openspiel_name, params), load_game(ruleset, **params)


def crosscheck(their_game, our_game, seed: int) -> int:
    """One random game; the number of nodes compared. Raises Mismatch at the first difference."""
    rng = random.Random(seed)
    theirs = their_game.new_initial_state()
    ours = our_game.new_initial_state()
    ruleset, params = our_game.get_type().short_name, our_game.get_parameters()
    nodes = 0

    def check(what, a, b):
        if a != b:
            raise Mismatch(f"{ruleset} {params} seed {seed}, node {nodes}, history {theirs.history()}: "
                           f"{what} differ: OpenSpiel {a}, snowrules {b}")

    while not theirs.is_terminal():
        nodes += 1
        player = theirs.current_player()
        check("player to move", player, ours.current_player())
        if player == pyspiel.PlayerId.CHANCE:
            expected = theirs.chance_outcomes()
            found = ours.chance_outcomes()
            check("chance outcomes", [a for a, _ in expected], [a for a, _ in found])
            for (_, p), (_, q) in zip(expected, found):
                if not math.isclose(p, q):
                    check("probabilities", expected, found)
            outcomes, weights = zip(*expected)
            action = rng.choices(outcomes, weights)[0]
            theirs.apply_action(action)
            ours.apply_action(action)
        elif player == pyspiel.PlayerId.SIMULTANEOUS:
            actions = []
            for p in range(theirs.num_players()):
                legal = theirs.legal_actions(p)
                check(f"legal actions of player {p}", legal, ours.legal_actions(p))
                actions.append(rng.choice(legal))
            theirs.apply_actions(actions)
            ours.apply_actions(actions)
        else:
            legal = theirs.legal_actions()
            check("legal actions", legal, ours.legal_actions())
            action = rng.choice(legal)
            theirs.apply_action(action)
            ours.apply_action(action)
    check("end of game", True, ours.is_terminal())
    expected, found = theirs.returns(), ours.returns()
    if not all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(expected, found)):
        check("returns", expected, found)
    return nodes


if __name__ == "__main__":
    name = sys.argv[1]
    given = {}
    for item in sys.argv[2:]:
        key, value = item.split("=", 1)
        if value in ("true", "false"):
            given[key] = value == "true"
        else:
            given[key] = int(value) if value.lstrip("-").isdigit() else value
    pair = games(name, name, given)
    total = sum(crosscheck(*pair, seed) for seed in range(100))
    print(f"{name} {given}: 100 games, {total} nodes, all equal")


def crosscheck_tree(their_game, our_game, prefix: tuple[int, ...] = ()) -> int:
    """Every node of the whole game tree, compared as `crosscheck` compares one random path: for
    small parameter sets. With a `prefix` of actions (applied to both first), every node of the
    subtree below it: a deep walk of a game whose whole tree is too big. The number of nodes
    compared."""
    nodes = 0

    def check(what, a, b, theirs):
        if a != b:
            raise Mismatch(f"{our_game} at history {theirs.history()}: {what} differ: OpenSpiel {a}, snowrules {b}")

    def visit(theirs, ours):
        nonlocal nodes
        nodes += 1
        check("end of game", theirs.is_terminal(), ours.is_terminal(), theirs)
        if theirs.is_terminal():
            if not all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(theirs.returns(), ours.returns())):
                check("returns", theirs.returns(), ours.returns(), theirs)
            return
        player = theirs.current_player()
        check("player to move", player, ours.current_player(), theirs)
        if player == pyspiel.PlayerId.SIMULTANEOUS:
            legal = [theirs.legal_actions(p) for p in range(theirs.num_players())]
            check("legal actions", legal, [ours.legal_actions(p) for p in range(ours.num_players())], theirs)
            moves = [list(joint) for joint in itertools.product(*legal)]
        elif player == pyspiel.PlayerId.CHANCE:
            check("chance outcomes", theirs.chance_outcomes(), ours.chance_outcomes(), theirs)
            moves = [action for action, _ in theirs.chance_outcomes()]
        else:
            check("legal actions", theirs.legal_actions(), ours.legal_actions(), theirs)
            moves = theirs.legal_actions()
        for move in moves:
            a, b = theirs.clone(), ours.clone()
            if isinstance(move, list):
                a.apply_actions(move)
                b.apply_actions(move)
            else:
                a.apply_action(move)
                b.apply_action(move)
            visit(a, b)

    theirs, ours = their_game.new_initial_state(), our_game.new_initial_state()
    for action in prefix:
        theirs.apply_action(action)
        ours.apply_action(action)
    visit(theirs, ours)
    return nodes
