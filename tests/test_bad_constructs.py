"""This session's constructs misused as a hostile user would: grid zones, `display`, events and
reactions, costs, free actions, counters on components and the automa. Each row plants one edit
in a toy ruleset of tests/rulesets/ and checks that both `validate` and `run` refuse it with
exit 1, the message at the expected path:line:col (the line found in the edited file by a piece
of its text, the column counted by hand), its code, no traceback, and within a few seconds.
"""
from __future__ import annotations

import re
import shutil
import time
from pathlib import Path
from typing import NamedTuple

import pytest
from snowrules.cli.main import main

TOY = Path(__file__).resolve().parent / "rulesets"
SECONDS = 10.0


class Misuse(NamedTuple):
    name: str
    ruleset: str
    file: str
    old: str | None        # the text replaced (None: `new` is added at the end of the file)
    new: str
    line_text: str         # a piece of the reported line's text, in the edited file
    column: int
    message: str           # a piece of the message
    code: str
    at_file: str | None = None  # where it is reported, when not in the edited file


ROWS = [
    # found by the grammar's generator (tests/test_generated_rules.py): an internal error (StopIteration) before
    Misuse("a per-player zone named like the owner field", "reactions", "rules.sr", "zone shelf shared public",
           "zone shelf shared public\nzone owner per player public", "zone owner per", 1,
           "'owner' is the field snowrules gives every component (its owner)", "SR405"),
    # ---- events and reactions: names clashing with the rules' other names
    Misuse("an event called like a procedure", "reactions", "rules.sr", "    raise ping(1)", "    ping(1)",
           "    ping(1)", 5, "'ping' is an event, not a procedure (hint: raise it with `raise ping(...)`)", "SR499"),
    Misuse("an event named like a procedure", "reactions", "rules.sr", None, "define ping(n):\n    announce n\n",
           "event ping(n)", 1, "'ping' is already defined (hint: first defined at", "SR405"),
    Misuse("an event named like a counter", "reactions", "rules.sr", "counter vp per player from 0",
           "counter vp per player from 0\ncounter ping per player from 0", "event ping(n)", 1,
           "'ping' is already defined", "SR405"),
    Misuse("an event named like a zone", "reactions", "rules.sr", "zone shelf shared public",
           "zone shelf shared public\nzone ping shared public", "event ping(n)", 1,
           "'ping' is already defined", "SR405"),
    Misuse("a keyword as an event's name", "reactions", "rules.sr", "event ping(n)", "event move(n)",
           "event move(n)", 7, "'move' is a keyword and cannot be a name", "SR122"),
    Misuse("`on` as an event's name", "reactions", "rules.sr", "event ping(n)", "event on(n)",
           "event on(n)", 7, "'on' is a keyword and cannot be a name", "SR122"),
    Misuse("`reactions` as a zone's name", "reactions", "rules.sr", "zone shelf shared public",
           "zone shelf shared public\nzone reactions shared public", "zone reactions", 6,
           "'reactions' is a keyword and cannot be a name", "SR122"),
    Misuse("`pay` as a counter's name", "costs", "rules.sr", "counter windows per player from 0",
           "counter pay per player from 0", "counter pay per", 9, "'pay' is a keyword and cannot be a name", "SR122"),
    Misuse("`roll` as a counter's name", "tiles", "rules.sr", "counter score per player from 0 to 999",
           "counter roll per player from 0 to 999", "counter roll per", 9,
           "'roll' is a keyword and cannot be a name", "SR122"),
    Misuse("an event's parameter hiding a built-in name", "reactions", "rules.sr", "event ping(n)",
           "event ping(players)", "event ping(players)", 1, "the parameter 'players' would hide the name", "SR405"),
    Misuse("an unknown zone in `reactions from`", "reactions", "rules.sr", "reactions from talents, shelf",
           "reactions from talents, shelff", "reactions from talents, shelff", 25, "unknown zone 'shelff'", "SR401"),
    Misuse("`reacts:` with no zone where components react", "reactions", "rules.sr",
           "reactions from talents, shelf", "# none", "      - on: gained", 9,
           "a component reacts, but no zone is named where components react", "SR204", "components/things.yaml"),
    Misuse("`reacts:` on an unknown event", "reactions", "components/things.yaml", "      - on: arrived",
           "      - on: arrivedd", "      - on: arrivedd", 13, "unknown event 'arrivedd'", "SR401"),
    Misuse("`reacts:` that is not a list", "reactions", "components/things.yaml",
           "    reacts:\n      - on: arrived\n        where: c.kind == \"guest\" and dest == me.rooms\n"
           "        effect: |\n          announce this, \"welcomes\", c\n          add 2 to me.vp",
           "    reacts: arrived", "    reacts: arrived", 13, "`reacts:` must be a list", "SR203"),
    Misuse("an event from moves with one parameter", "reactions", "rules.sr",
           "event arrived(c, source, dest) from moves", "event arrived(c) from moves", "event arrived(c) from",
           1, "an event from moves has 3 parameters", "SR403"),
    # ---- costs
    Misuse("`pay` from a zone", "costs", "rules.sr", "pay p.die from p.res[\"ticket\"]",
           "pay p.die from action_spaces", "pay p.die from action_spaces", 32, "unknown counter 'action_spaces'",
           "SR401"),
    Misuse("`pay` of a text", "costs", "rules.sr", "pay p.die from p.res[\"ticket\"]",
           "pay \"two\" from p.res[\"ticket\"]", "pay \"two\" from", 21, "the amount to pay must be a number", "SR402"),
    Misuse("`pay` that cannot be paid from a counter on a component", "dice_workers", "rules.sr",
           "                    add 2 to d.value", "                    pay 2 from d.value", "pay 2 from d.value",
           21, "a payment is all or nothing", "SR601"),
    Misuse("a payment with a choice from a counter on a component", "dice_workers", "rules.sr",
           "                    add 2 to d.value", "                    pay up to 2 using d.value at 1 as cut",
           "pay up to 2 using d.value", 21,
           "a payment with a choice needs counters of one player, who chooses: 'value' is a counter on a component",
           "SR499"),
    Misuse("a payment with a choice from two counters on components", "dice_workers", "rules.sr",
           "                    add 2 to d.value", "                    pay 2 using d.value at 1, d.value at 2",
           "pay 2 using d.value", 21, "'value', 'value' are a counter on a component", "SR499"),
    # ---- counters on components and the automa
    Misuse("a counter per component of an unknown kind", "dice_workers", "rules.sr",
           "counter day per component of kind guest", "counter day per component of kind gust",
           "of kind gust", 13, "no component is of kind 'gust'", "SR499"),
    Misuse("a counter per component with keys", "dice_workers", "rules.sr", "counter day per component",
           "counter day[a, b] per component", "counter day[a, b]", 1, "a counter per component has no keys", "SR401"),
    Misuse("`ask automa`", "dice_workers", "rules.sr", "                automa_turn(p)",
           "                ask automa to choose d from p.workers:\n                    add 1 to d.value",
           "ask automa to choose", 17, "a decision cannot be asked of the automa", "SR499"),
    Misuse("`automa` as a counter's name", "dice_workers", "rules.sr", "counter score per player from 0",
           "counter score per player from 0\ncounter automa per player from 0", "counter automa", 1,
           "'automa' is already defined", "SR405"),
    Misuse("the automa named like a seat", "dice_workers", "ruleset.yaml", "automa: {name: Automa,",
           "automa: {name: Ann,", "automa: {name: Ann,", 9, "the automa's name 'Ann' is a player's seat name", "SR204"),
    Misuse("the automa's `when` a number", "dice_workers", "ruleset.yaml",
           "when: player_count == 1 or with_automa}", "when: player_count}", "when: player_count}", 30,
           "the automa's `when` must be true or false", "SR402"),
    # ---- free actions
    Misuse("a free action with no name", "free_actions", "rules.sr", "free action \"ready\" for p, piece",
           "free action \"\" for p, piece", "free action \"\"", 1, "a free action needs a name", "SR499"),
    Misuse("a free action during an unknown phase", "free_actions", "rules.sr", "in p.bench during main:",
           "in p.bench during mian:", "during mian", 52, "no phase is named 'mian'", "SR499"),
    Misuse("a keyword as a free action's item", "free_actions", "rules.sr",
           "free action \"ready\" for p, piece in p.bench during main:\n    move piece to p.ready",
           "free action \"ready\" for p, move in p.bench during main:\n    announce p", "for p, move in", 28,
           "'move' is a keyword and cannot be a name", "SR122"),
    Misuse("free actions offered where none is declared", "costs", "rules.sr", "                add returned to p.days",
           "                add returned to p.days\n                offer free actions to p", "offer free actions",
           17, "no free action is declared", "SR499"),
    Misuse("free actions offered to a number", "free_actions", "rules.sr", "offer free actions to p ",
           "offer free actions to 3 ", "offer free actions to 3", 35, "must be a player, not a number", "SR402"),
    Misuse("a free action's item named like a zone", "free_actions", "rules.sr",
           "free action \"ready\" for p, piece in p.bench during main:\n    move piece to p.ready",
           "free action \"ready\" for p, ready in p.bench during main:\n    move ready to p.ready",
           "for p, ready in", 28, "the free action's item's name 'ready' would hide the name 'ready' (declared at",
           "SR405"),
    Misuse("a free action's player named like a counter", "free_actions", "rules.sr",
           "free action \"buy a point\" for p during main when p.coins >= 2:\n    subtract 2 from p.coins\n"
           "    add 1 to p.score",
           "free action \"buy a point\" for score during main when score.coins >= 2:\n"
           "    subtract 2 from score.coins\n    add 1 to score.score",
           "for score during", 31, "the free action's player's name 'score' would hide the name 'score'", "SR405"),
    Misuse("a free action's item named like a built-in name", "free_actions", "rules.sr",
           "free action \"ready\" for p, piece in p.bench during main:\n    move piece to p.ready",
           "free action \"ready\" for p, players in p.bench during main:\n    move players to p.ready",
           "for p, players in", 28, "'players' would hide the name 'players' (a built-in name)", "SR405"),
    # ---- resolve CARD.FIELD, and recursion
    Misuse("`resolve` of a field that holds no effect", "dice_workers", "rules.sr",
           "    resolve last(revealed) for a", "    resolve last(revealed).kind for a", "resolve last(revealed).kind",
           13, "the field 'kind' holds no effect to resolve (hint: fields with effects: effect;", "SR402"),
    Misuse("`resolve` of an unknown field", "dice_workers", "rules.sr",
           "    resolve last(revealed) for a", "    resolve last(revealed).efect for a", "resolve last(revealed).efect",
           13, "no component has a field 'efect' (hint: did you mean 'effect'?", "SR401"),
    Misuse("a procedure calling itself through another", "dice_workers", "rules.sr",
           "    resolve last(revealed) for a",
           "    resolve last(revealed) for a\n    automa_again(a)\ndefine automa_again(a):\n    automa_turn(a)",
           "    automa_turn(a)", 5,
           "procedure 'automa_turn' calls itself through 'automa_again' (automa_turn -> automa_again -> automa_turn)",
           "SR404"),
    Misuse("a function calling itself through another", "dice_workers", "rules.sr", "define automa_turn(a):",
           "define even(n) = n == 0 or odd(n - 1)\ndefine odd(n) = n != 0 and even(n - 1)\n"
           "define automa_turn(a):\n    add 1 if even(2) else 0 to a.score", "define odd(n)", 28,
           "function 'even' calls itself through 'odd' (even -> odd -> even); recursion is not allowed", "SR404"),
    # ---- grid zones and their display
    Misuse("`move ... at` a zone that is not a grid", "tiles", "rules.sr", "move tile to table at spot",
           "move tile to hand at spot", "move tile to hand at spot", 26, "`at` a spot needs a grid zone", "SR499"),
    Misuse("`placements` of a zone that is not a grid", "tiles", "rules.sr", "from placements(table, tile,",
           "from placements(hand, tile,", "placements(hand", 48, "placements() needs a grid zone", "SR499"),
    Misuse("a grid zone that is not public", "tiles", "rules.sr", "zone table shared public grid",
           "zone table shared secret grid", "zone table shared secret grid", 1, "a grid zone is public", "SR499"),
    Misuse("a display block for a zone that is not a grid", "tiles", "ruleset.yaml", "rules: [rules.sr]",
           "rules: [rules.sr]\ndisplay:\n  hand:\n    letters: {leaf: L}", "  hand:", 3,
           "display: zone 'hand' is not a grid zone", "SR401"),
    Misuse("a display block naming an unknown field", "tiles", "ruleset.yaml", "rules: [rules.sr]",
           "rules: [rules.sr]\ndisplay:\n  table:\n    features: [markz]", "features: [markz]", 16,
           "no component's squares have the field 'markz'", "SR401"),
    Misuse("a square far from its anchor", "tiles", "components/tiles.yaml",
           "      - {dx: 1, dy: 0, marks: [leaf], path: [w, n]}",
           "      - {dx: 100000000, dy: 0, marks: [leaf], path: [w, n]}", "  - name: tile A", 5,
           "a square's dx of 100000000 is farther than 1000 cells from the piece's anchor", "SR708"),
    Misuse("a placement far from the grid's origin", "tiles", "rules.sr", "move tile to table at spot",
           "move tile to table at {cell: {x: 5000, y: 0}, rotation: 0}", "move tile to table at {cell", 13,
           "the cell (5000,0) is farther than 1000 cells from the grid's origin", "SR708"),
    # bounded grid zones whose size or shape is read (compile/board_shapes.py)
    Misuse("a board's side naming no constant or option", "board", "rules.sr", "zone board shared public grid 5 by 4",
           "zone board shared public grid size by 4", "grid size by 4", 31,
           "a board's width is a number or a constant's or option's name; 'size' is neither", "SR720"),
    Misuse("a board's side that is no whole number", "board", "rules.sr", "zone board shared public grid 5 by 4",
           'constant rows = "two"\nzone board shared public grid 5 by rows', "grid 5 by rows", 36,
           "a board's height is a whole number; rows is 'two'", "SR720"),
    Misuse("a board's side from a constant, too large", "board", "rules.sr", "zone board shared public grid 5 by 4",
           "constant rows = 5000\nzone board shared public grid 5 by rows", "grid 5 by rows", 36,
           "a board's height is 1 to 1000 cells, not 5000 (rows)", "SR708"),
    Misuse("`grid of` a component that is not there", "hex_board", "rules.sr", "grid of hexagon hex",
           "grid of hexagons hex", "grid of hexagons", 34, "no component is named 'hexagons'", "SR721"),
    Misuse("a direction a hex board does not have", "hex_board", "rules.sr", "where run(board, c, d, p)",
           'where run(board, c, "n", p)', 'run(board, c, "n", p)', 71,
           "run(): 'n' is not a direction of a hex board", "SR499"),
]

# ---- issue 27 item 4: `let` in defines, fractions added and compared, first_nonempty (each define
# is called from the last turn's end, `announce f(2)`, so that its body is checked)
_LAST_LINE = "    end game winners [each q in players where q.vp == max([r.vp for each r in players])]"


def _define_called(define: str) -> str:
    return f"    announce f(2)\n{_LAST_LINE}\n{define}"


ROWS += [
    Misuse("a define's `let` naming its parameter again", "reactions", "rules.sr", _LAST_LINE,
           _define_called("define f(x) =\n    let x = 2\n    x\n"), "    let x = 2", 5,
           "'x' is already defined in this define", "SR405"),
    Misuse("a define's `let` naming an earlier `let` again", "reactions", "rules.sr", _LAST_LINE,
           _define_called("define f(x) =\n    let twice = x * 2\n    let twice = 3\n    twice\n"),
           "    let twice = 3", 5, "'twice' is already defined in this define", "SR405"),
    Misuse("a define's `let` hiding a built-in name", "reactions", "rules.sr", _LAST_LINE,
           _define_called("define f(x) =\n    let players = 2\n    x\n"), "    let players = 2", 5,
           "the `let` 'players' would hide the name 'players' of the language", "SR405"),
    Misuse("a define whose lines end with a `let`", "reactions", "rules.sr", _LAST_LINE,
           _define_called("define f(x) =\n    let unused = 2\n"), "    let unused = 2", 5,
           "the define 'f' ends without a result", "SR301"),
    Misuse("a `let` after a define's result", "reactions", "rules.sr", _LAST_LINE,
           _define_called("define f(x) =\n    let y = 2\n    y\n    let late = 3\n"), "    let late = 3", 5,
           "the define 'f' has its result on an earlier line: nothing may follow it", "SR301"),
    Misuse("a `let` in a define read before it is given", "reactions", "rules.sr", _LAST_LINE,
           _define_called("define f(x) =\n    let a = b_later + 1\n    let b_later = 2\n    a\n"),
           "    let a = b_later", 13, "unknown name 'b_later'", "SR401"),
    Misuse("a fraction multiplied", "reactions", "rules.sr", _LAST_LINE,
           _define_called("define f(x) = ratio(1, 2) * x\n"), "define f(x) = ratio", 15,
           "the left side of `*` must be a number, not a fraction", "SR402"),
    Misuse("a fraction plus a text", "reactions", "rules.sr", _LAST_LINE,
           _define_called('define f(x) = ratio(1, 2) + "a"\n'), "define f(x) = ratio", 29,
           "the right side of `+` must be a number or a fraction, not a text", "SR402"),
    Misuse("a fraction added to a counter", "reactions", "rules.sr", _LAST_LINE,
           "    add ratio(1, 2) + 1 to anna.vp\n" + _LAST_LINE, "    add ratio(1, 2) + 1", 9,
           "must be a number, not a fraction", "SR402"),
    Misuse("a grid zone declared unordered", "reactions", "rules.sr", "zone shelf shared public",
           "zone shelf shared public grid unordered", "zone shelf shared", 1,
           "zone 'shelf': a grid zone cannot be `unordered`", "SR301"),
    Misuse("`unordered` where a zone's scope belongs", "reactions", "rules.sr", "zone shelf shared public",
           "zone shelf unordered public", "zone shelf unordered", 12, "unexpected 'unordered'", "SR301"),
    Misuse("first_nonempty of one list", "reactions", "rules.sr", _LAST_LINE,
           _define_called("define f(x) = first_nonempty([x])\n"), "define f(x) = first_nonempty", 15,
           "first_nonempty() takes at least 2 argument(s), given 1", "SR403"),
    Misuse("first_nonempty of a number", "reactions", "rules.sr", _LAST_LINE,
           _define_called("define f(x) = first_nonempty([x], 3)\n"), "define f(x) = first_nonempty", 35,
           "each argument of first_nonempty() must be a list or a zone, not a number", "SR402"),
]

# `remembered as EXPR` (issue 27 item 3), in tests/rulesets/passed_cards: seat 0 passes three cards,
# `... as "pass three cards" remembered as sorted(cards):` (line 17, `remembered` at column 96)
_PASS = '"pass three cards" remembered as sorted(cards)'
ROWS += [
    Misuse("`remembered as` after a statement that is no decision", "passed_cards", "rules.sr",
           "    move all from box to deck", "    move all from box to deck remembered as 1",
           "move all from box to deck remembered", 31, "unexpected 'remembered'", "SR301"),
    Misuse("`remembered as` an unknown function", "passed_cards", "rules.sr", _PASS,
           '"pass three cards" remembered as shuffled(cards)', "remembered as shuffled", 111,
           "unknown function 'shuffled'", "SR401"),
    Misuse("`remembered as` a misspelt answer", "passed_cards", "rules.sr", _PASS,
           '"pass three cards" remembered as sorted(card)', "remembered as sorted(card)", 118,
           "unknown name 'card' (hint: did you mean 'cards'?)", "SR401"),
    Misuse("`remembered as` a local of the rules around the decision", "passed_cards", "rules.sr",
           "each turn:\n    ask first(players) to choose exactly 3 cards from first(players).hand as " + _PASS,
           "each turn:\n    let n = 2\n    ask first(players) to choose exactly 3 cards from first(players).hand as "
           '"pass three cards" remembered as [n]', "remembered as [n]", 112,
           "`remembered as` cannot read 'n', a local name of the rules around the decision (hint: it may read the "
           "answer (cards) and anything global", "SR401"),
    Misuse("`remembered as` nothing", "passed_cards", "rules.sr", _PASS, '"pass three cards" remembered as',
           "remembered as:", 110, "unexpected ':'", "SR301"),
    Misuse("the prompt after `remembered as`", "passed_cards", "rules.sr", 'as ' + _PASS,
           'remembered as sorted(cards) as "pass three cards"', "remembered as sorted(cards) as", 103,
           "unexpected 'as'", "SR301"),
    Misuse("`remembered as` a number divided", "passed_cards", "rules.sr", _PASS, _PASS + " / 2",
           "remembered as sorted(cards) / 2", 111, "the left side of `/` must be a number, not a list of components",
           "SR402"),
    Misuse("`remembered` as a name in edition 3", "passed_cards", "rules.sr", "    move all from box to deck",
           "    let remembered = 1\n    move all from box to deck", "let remembered", 9,
           "'remembered' is a keyword and cannot be a name", "SR125"),
]


def planted(tmp_path: Path, row: Misuse) -> tuple[Path, str]:
    folder = tmp_path / row.ruleset
    shutil.copytree(TOY / row.ruleset, folder)
    path = folder / row.file
    text = path.read_text()
    if row.old is None:
        text += row.new
    else:
        assert text.count(row.old) >= 1, f"{row.old!r} is not in {row.file}"
        text = text.replace(row.old, row.new, 1)
    path.write_text(text)
    if row.at_file is not None:
        path = folder / row.at_file
        text = path.read_text()
    lines = [n for n, line in enumerate(text.splitlines(), 1) if row.line_text in line]
    assert lines, f"{row.line_text!r} is not in {path.name}"
    return folder, f"{path}:{lines[0]}:{row.column}: error: "


@pytest.mark.parametrize("row", ROWS, ids=[r.name for r in ROWS])
@pytest.mark.parametrize("command", ["validate", "run"])
def test_a_misused_construct_is_refused_at_its_place(tmp_path, capsys, row, command):
    folder, where = planted(tmp_path, row)
    started = time.monotonic()
    code = main([command, str(folder), "--seed", "1"] if command == "run" else [command, str(folder)])
    seconds = time.monotonic() - started
    out, err = capsys.readouterr()
    text = out + err
    assert code == 1, text
    assert "Traceback" not in text and "internal error" not in text, text
    reported = [line for line in text.splitlines() if line.startswith(where)]
    assert reported, f"nothing at {where}\n{text}"
    assert row.message in reported[0], reported[0]
    if command == "validate":  # `run` prints the message without its code
        assert re.search(rf"\[{row.code}\]$", reported[0]), reported[0]
    assert seconds < SECONDS, f"{seconds:.1f} s"


def test_the_largest_rectangle_of_squares_far_apart_takes_no_time():
    """Squares at opposite corners of the largest grid (SR708: +-1000) once walked the whole
    2001 x 2001 box; now only the kept cells are visited. By hand: no two squares touch, so the
    largest rectangle is one cell, and of equal areas the first by y then x: (-1000,-1000)."""
    from snowrules.model.grid import Cell, Seen, largest_rectangle
    corners = [Cell(-1000, -1000), Cell(1000, 1000), Cell(-1000, 1000), Cell(1000, -1000)]
    started = time.monotonic()
    rectangle = largest_rectangle([Seen(cell, n, 0, 0, {}) for n, cell in enumerate(corners)])
    assert time.monotonic() - started < 0.1
    assert (rectangle.low, rectangle.high, rectangle.area) == (Cell(-1000, -1000), Cell(-1000, -1000), 1)
    # a 2 x 3 block beside a lone square: the block, from its south-west corner
    block = [Cell(x, y) for x in (5, 6) for y in (0, 1, 2)] + [Cell(9, 9)]
    rectangle = largest_rectangle([Seen(cell, n, 0, 0, {}) for n, cell in enumerate(block)])
    assert (rectangle.low, rectangle.high, rectangle.area) == (Cell(5, 0), Cell(6, 2), 6)
