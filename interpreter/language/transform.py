"""Lark's parse tree to the `syntax` values (language/syntax.py), one transformer method per
`-> alias` of the grammar, each node at its place in the file it came from (`Shift`: a card's
effect text sits inside a YAML file). The parser itself, its indentation handling and its errors
are language/parser.py's.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from lark import Token, Transformer, v_args
from snowrules.language import editions
from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostic, Position, RulesSyntaxError
from snowrules.language.names import NAME_HINT, name_problem
from snowrules.language.prompt_text import read_prompt

# The words of a board's shape (the grammar's GRID_SHAPE, one token): `grid W by H [hex]`, `grid of
# NAME [hex]`, `grid hex` (refused).
_GRID_SHAPE = re.compile(r'grid[ \t]+(?:(?P<width>\w+)[ \t]+by[ \t]+(?P<height>\w+)'
                         r'|(?P<ofword>of)[ \t]+(?P<of>\w+|"[^"\n]*")|(?P<word>hex))(?:[ \t]+(?P<hex>hex))?')
_NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")  # the grammar's NAME

class Shift:
    """Maps a line and column inside parsed text to its place in the file it came from.

    A snippet in a YAML block scalar (`effect: |`) has every line indented by the same amount in
    the file, so its column offset applies to every line; a plain or quoted scalar is one line."""

    def __init__(self, path: str, line_offset: int = 0, col_offset: int = 0, every_line: bool = False):
        self.path, self.line_offset, self.col_offset = path, line_offset, col_offset
        self.every_line = every_line

    def __call__(self, line: int, col: int) -> Position:
        shifted = line == 1 or self.every_line
        return Position(self.path, line + self.line_offset, col + (self.col_offset if shifted else 0))


@dataclass(frozen=True)
class DefineLine:
    """One line of a define's indented body while the tree is built: a `let` (its name) or the
    result (name None). Only the transformer sees it: the define gets nested `LetIn`s."""

    position: Position
    name: str | None
    value: s.Node


# ---- events and reactions: their own transformer methods, mixed in below ---------------------
@v_args(meta=True)
class EventsToSyntax(Transformer):
    """The transformer methods of `event`, `on`, `reactions from` and `raise` (kept apart so that
    other constructs' methods merge beside them; `ToSyntax` gives them `_pos`, `_tok`, `_word`)."""

    def event_decl(self, meta, items):
        return s.EventDecl(self._pos(meta), str(items[0]), tuple(items[1] or ()), items[2])

    def counter_source(self, meta, items):
        return ("counter", str(items[0]))

    def moves_source(self, meta, items):
        self._word(items[0], "moves", "`from counter NAME` or `from moves`")
        return ("moves", None)

    def reaction_decl(self, meta, items):
        return s.ReactionDecl(self._pos(meta), str(items[0]), tuple(items[1] or ()), items[2], items[3])

    def reaction_zones_decl(self, meta, items):
        return s.ReactionZonesDecl(self._pos(meta), tuple(str(i) for i in items),
                                   tuple(self._tok(i) for i in items))

    def raise_stmt(self, meta, items):
        return s.Raise(self._pos(meta), str(items[0]), tuple(items[1] or ()))


@v_args(meta=True)
class ToSyntax(EventsToSyntax):
    """Lark tree to `syntax` dataclasses; one method per `-> alias` of the grammar."""

    def __init__(self, shift: Shift, edition: int = editions.CURRENT, notes: list | None = None,
                 read_expression: Callable[[str, Position], s.Node] | None = None):
        super().__init__()
        self.shift = shift
        # A prompt's values (language/prompt_text.py) depend on the edition; an older edition's
        # warnings go to `notes`; `read_expression` parses a value's text (the parser's).
        self.edition, self.notes, self.read_expression = edition, [] if notes is None else notes, read_expression

    def _pos(self, meta) -> Position:
        if getattr(meta, "empty", True):
            return self.shift(0, 0)
        return self.shift(meta.line, meta.column)

    def _tok(self, token: Token) -> Position:
        return self.shift(token.line, token.column)

    # files and blocks
    def ruleset(self, meta, items):
        return s.RulesFile(self._pos(meta), tuple(i for i in items if i is not None))

    def effect(self, meta, items):
        return s.Block(self._pos(meta), tuple(i for i in items if i is not None))

    def expression(self, meta, items):
        return next(i for i in items if i is not None)

    def block(self, meta, items):
        return s.Block(self._pos(meta), tuple(items))

    # declarations
    def game_decl(self, meta, items):
        return s.GameDecl(self._pos(meta), items[0][1:-1])

    def zone_decl(self, meta, items):
        name, index, scope, *options, text = items  # text: `as "TEXT"`, how the zone reads (or None)
        if isinstance(scope, s.PerComponent):
            raise RulesSyntaxError(Diagnostic(scope.pos, "a zone is `per player` or `shared`, not per component",
                                              "only a counter can be `per component`"))
        board = next((o[1] for o in options if isinstance(o, tuple)), None)
        names = {"grid" if isinstance(o, tuple) else o for o in options}
        visibility = next((v for v in ("hidden", "secret") if v in names), "public")
        if "unordered" in names and "grid" in names:
            raise RulesSyntaxError(Diagnostic(self._pos(meta), f"zone {str(name)!r}: a grid zone cannot be `unordered`",
                                              "a grid shows where each piece lies; leave out `unordered`",
                                              code="SR301"))
        return s.ZoneDecl(self._pos(meta), str(name), index, scope, visibility, "grid" in names,
                          "unordered" in names, text, board)

    def zone_index(self, meta, items):
        return items[0]

    def per_player(self, meta, items):
        if str(items[0]) == "component":  # a counter's `per component` (a zone refuses it)
            return s.PerComponent(self._pos(meta), ())
        self._word(items[0], "player", "`per player` or `shared`")
        return True

    def per_component_of_kind(self, meta, items):
        """`per component of kind K1, K2`: the three words are names the grammar reads, checked here."""
        for token, wanted in zip(items, ("component", "of", "kind")):
            self._word(token, wanted, "`per component of kind KIND`")
        return s.PerComponent(self._pos(meta), tuple(str(kind) for kind in items[3:]))

    def _word(self, token: Token, wanted: str, what: str) -> None:
        """A name the grammar reads where it needs one fixed word (`per player`, `each turn`)."""
        if str(token) != wanted:
            raise RulesSyntaxError(Diagnostic(self._tok(token), f"unexpected {str(token)!r}", f"expected {what}"))

    def shared(self, meta, items):
        return False

    def public(self, meta, items):
        return "public"

    def hidden(self, meta, items):
        return "hidden"

    def secret(self, meta, items):
        return "secret"

    def grid(self, meta, items):
        """`grid` alone: an open grid."""
        return "grid"

    def grid_shaped(self, meta, items):
        """A bounded board, ("grid", BoardShape): `grid W by H [hex]`, each side a number or the
        name of a constant or an option (read and checked while compiling, compile/board_shapes.py,
        before anything is made for the board's cells), or `grid of NAME [hex]` (`of "NAME"`),
        the board's cells the squares of the component NAME. One token (the grammar's GRID_SHAPE),
        read here word by word, each word placed at its own column."""
        token = items[0]
        found = _GRID_SHAPE.fullmatch(str(token))
        assert found is not None, "the grammar's GRID_SHAPE and _GRID_SHAPE read the same words"

        def at(group: str) -> Position:
            return self.shift(token.line, token.column + found.start(group))
        if found["word"] is not None:  # `grid hex` alone: an open grid of hexes is not provided
            raise RulesSyntaxError(Diagnostic(at("word"), f"unexpected {found['word']!r} after `grid`",
                                              "a board is `grid W by H` or `grid of COMPONENT`, `hex` after either "
                                              "for hexes (`grid 7 by 7 hex`); `grid` alone is an open grid of squares"))
        hexes = found["hex"] is not None
        if found["of"] is not None:
            text = found["of"][1:-1] if found["of"].startswith('"') else found["of"]
            return "grid", s.BoardShape(at("ofword"), None, None, s.Name(at("of"), text), hexes)
        width, height = (self._side(found[side], at(side)) for side in ("width", "height"))
        return "grid", s.BoardShape(at("width"), width, height, None, hexes)

    def _side(self, word: str, position: Position) -> s.Expr:
        """A board's side: a number, or the name of a constant or an option."""
        if word.isdigit():
            return s.Literal(position, int(word))
        if not _NAME.fullmatch(word):
            raise RulesSyntaxError(Diagnostic(position, f"unexpected {word!r} as a side of the board",
                                              "a side is a number or the name of a constant or an option"))
        return s.Name(position, word)

    def unordered(self, meta, items):
        return "unordered"

    def counter_decl(self, meta, items):
        name, keys, scope, *bounds, text = items  # text: `as "TEXT"`, how the counter reads (or None)
        lower = next((b[1] for b in bounds if b[0] == "from"), None)
        upper = next((b[1] for b in bounds if b[0] == "to"), None)
        start = next((b[1] for b in bounds if b[0] == "initially"), None)
        if isinstance(scope, s.PerComponent):
            return s.CounterDecl(self._pos(meta), str(name), tuple(keys or ()), False, lower, upper, start, scope,
                                 text)
        return s.CounterDecl(self._pos(meta), str(name), tuple(keys or ()), scope, lower, upper, start, None, text)

    def counter_keys(self, meta, items):
        return [str(i) for i in items]

    def lower_bound(self, meta, items):
        return ("from", items[0])

    def upper_bound(self, meta, items):
        return ("to", items[0])

    def start_value(self, meta, items):
        return ("initially", items[0])

    def variable_decl(self, meta, items):
        return s.VariableDecl(self._pos(meta), str(items[0]), items[1])

    def constant_decl(self, meta, items):
        return s.ConstantDecl(self._pos(meta), str(items[0]), items[1])

    def procedure_decl(self, meta, items):
        return s.ProcedureDecl(self._pos(meta), str(items[0]), tuple(items[1] or ()), items[2])

    def function_decl(self, meta, items):
        return s.FunctionDecl(self._pos(meta), str(items[0]), tuple(items[1] or ()), items[2])

    def function_decl_with_lets(self, meta, items):
        """The lets, last first, each wrapped around what follows it: the result's expression,
        which must be the last line and the only line that is not a `let`."""
        name, lines = str(items[0]), items[2:]
        *lets, result = lines
        for line in lets:
            if line.name is None:  # a result with more lines after it
                following = lines[lines.index(line) + 1]
                raise RulesSyntaxError(Diagnostic(
                    following.position, f"the define {name!r} has its result on an earlier line: nothing may follow it",
                    "put the `let` lines first and the value the define gives last", code="SR301"))
        if result.name is not None:
            raise RulesSyntaxError(Diagnostic(
                result.position, f"the define {name!r} ends without a result",
                "after the `let` lines, write the value the define gives on a line of its own", code="SR301"))
        body = result.value
        for line in reversed(lets):
            body = s.LetIn(line.position, line.name, line.value, body)
        return s.FunctionDecl(self._pos(meta), name, tuple(items[1] or ()), body)

    def define_let(self, meta, items):
        return DefineLine(self._pos(meta), str(items[0]), items[1])

    def define_result(self, meta, items):
        return DefineLine(self._pos(meta), None, items[0])

    def params(self, meta, items):
        return [str(i) for i in items]

    def setup_decl(self, meta, items):
        return s.SetupDecl(self._pos(meta), items[0])

    def each_turn(self, meta, items):
        self._word(items[0], "turn", "`each turn:`")
        return s.TurnDecl(self._pos(meta), None, items[1])

    def fixed_rounds(self, meta, items):
        return s.TurnDecl(self._pos(meta), items[0], items[1])

    def final_decl(self, meta, items):
        return s.FinalDecl(self._pos(meta), items[0])

    def trigger_decl(self, meta, items):
        return s.TriggerDecl(self._pos(meta), items[0], items[1])

    # free actions (compile/free_actions.py)
    def free_action_decl(self, meta, items):
        word, name, player, listed, phases, cond, text, body = items
        self._word(word, "action", "`free action \"NAME\" for p ...:`")
        item_var, source, item_at = listed if listed is not None else (None, None, None)
        names, positions = phases if phases is not None else (None, ())
        named_at = (self._tok(player),) + ((item_at,) if item_at is not None else ())
        return s.FreeActionDecl(self._pos(meta), name[1:-1], str(player), item_var, source, names, positions,
                                cond, body, named_at, text)

    def free_action_items(self, meta, items):
        return (str(items[0]), items[1], self._tok(items[0]))

    def free_action_phases(self, meta, items):
        return (tuple(str(t) for t in items), tuple(self._tok(t) for t in items))

    def offer_free_stmt(self, meta, items):
        self._word(items[0], "actions", "`offer free actions to p`")
        return s.OfferFreeActions(self._pos(meta), items[1], items[2])

    # statements
    def let_stmt(self, meta, items):
        return s.Let(self._pos(meta), str(items[0]), items[1])

    def assign_stmt(self, meta, items):
        return s.Assign(self._pos(meta), str(items[0]), items[1])

    def move_items(self, meta, items):
        return s.Move(self._pos(meta), "items", items[0], None, items[1], items[2] is not None)

    def move_all(self, meta, items):
        return s.Move(self._pos(meta), "all", None, items[0], items[1], items[2] is not None)

    def move_top(self, meta, items):
        return s.Move(self._pos(meta), "top", items[0], items[1], items[2], items[3] is not None)

    def move_random(self, meta, items):
        return s.MoveRandom(self._pos(meta), items[0], items[1], items[2], items[3] is not None)

    def random_stmt(self, meta, items):
        return s.RandomPick(self._pos(meta), str(items[0]), items[1], items[2])

    def at_bottom(self, meta, items):
        return True

    def move_placed_stmt(self, meta, items):
        return s.MovePlaced(self._pos(meta), items[0], items[1], items[2])

    def turn_piece_stmt(self, meta, items):
        verb, what, degrees = items
        self._word(verb, "turn", "`turn c by DEGREES`, `name = value` or `procedure(...)`")
        return s.TurnPiece(self._pos(meta), what, degrees)

    def add_stmt(self, meta, items):
        return s.Add(self._pos(meta), items[0], items[1])

    def subtract_stmt(self, meta, items):
        return s.Add(self._pos(meta), items[0], items[1], negate=True)

    def set_stmt(self, meta, items):
        return s.SetCounter(self._pos(meta), items[0], items[1])

    def reset_stmt(self, meta, items):
        return s.Reset(self._pos(meta), str(items[0]))

    def call_stmt(self, meta, items):
        return s.CallStatement(self._pos(meta), str(items[0]), tuple(items[1] or ()))

    def end_stmt(self, meta, items):
        return s.EndGame(self._pos(meta), items[0])

    def roll_stmt(self, meta, items):
        return s.Roll(self._pos(meta), items[0], items[1], str(items[3]), items[2])

    def weights(self, meta, items):
        return items[0]

    def shuffle_stmt(self, meta, items):
        return s.Shuffle(self._pos(meta), items[0])

    def announce_stmt(self, meta, items):
        return s.Announce(self._pos(meta), tuple(items))

    def resolve_stmt(self, meta, items):
        return s.Resolve(self._pos(meta), items[0], items[1])

    def pass_stmt(self, meta, items):
        return s.Pass(self._pos(meta))

    # costs: `pay` (the grammar's pay_* rules)
    def pay_stmt(self, meta, items):
        (mode, amount), (single, sources), shortfall, name, text = items
        if text is not None and single and mode == "exact":  # never asks: nobody would read its text
            self.notes.append(Diagnostic(text.pos, "this payment never asks its payer (one counter, a fixed "
                                         "amount), so its text is never shown", "leave out `as \"...\"`, or "
                                         "let the payer choose: `pay N using C1 at R1, C2 at R2 as \"...\"`",
                                         severity="warning", code="SR730"))
        return s.Pay(self._pos(meta), mode, amount, sources, single, shortfall,
                     None if name is None else str(name), text)

    def pay_exact(self, meta, items):
        return ("exact", items[0])

    def pay_at_least(self, meta, items):
        self._word(items[0], "least", "`pay at least AMOUNT`")
        return ("at least", items[1])

    def pay_up_to(self, meta, items):
        return ("up to", items[0])

    def pay_from(self, meta, items):
        return (True, (s.PaySource(self._pos(meta), items[0], None),))

    def pay_using(self, meta, items):
        return (False, tuple(items))

    def pay_rate(self, meta, items):
        return s.PaySource(self._pos(meta), items[0], items[1])

    def pay_shortfall(self, meta, items):
        penalty, word, counter = items
        self._word(word, "missing", "`else subtract N per missing from COUNTER`")
        return s.Shortfall(self._pos(meta), penalty, counter)

    def if_stmt(self, meta, items):
        cond, body, *rest = items
        branches = [(cond, body)]
        otherwise = None
        for item in rest:
            if isinstance(item, tuple):
                branches.append(item)
            elif item is not None:
                otherwise = item
        return s.If(self._pos(meta), tuple(branches), otherwise)

    def elif_clause(self, meta, items):
        return (items[0], items[1])

    def else_clause(self, meta, items):
        return items[0]

    def for_stmt(self, meta, items):
        return s.ForEach(self._pos(meta), str(items[0]), items[1], items[2])

    def while_stmt(self, meta, items):
        return s.While(self._pos(meta), items[0], items[1])

    def repeat_stmt(self, meta, items):
        return s.Repeat(self._pos(meta), items[0], items[1])

    def together_stmt(self, meta, items):
        return s.Together(self._pos(meta), items[0])

    def phase_stmt(self, meta, items):
        return s.Phase(self._pos(meta), str(items[0]), items[1])

    def choose_simple(self, meta, items):
        return self._choose(meta, items[0], items[1], None, None)

    def choose_block(self, meta, items):
        return self._choose(meta, items[0], items[1], items[2], items[3])

    def choose_else(self, meta, items):
        return (self._pos(meta), items[0])

    def _choose(self, meta, chooser, choice, body, declined):
        simultaneous, chooser_var, who = chooser
        optional, count_mode, count, var, source, prompt, option_text, remembered = choice
        else_at, otherwise = declined if declined is not None else (None, None)
        if otherwise is not None and not (optional and count_mode is None):
            raise RulesSyntaxError(Diagnostic(else_at, "only an `optionally` choice of one item has `else:`",
                                              "write `ask p to optionally choose x from ...:`"))
        template = prompt if prompt is not None and prompt.values else None
        return s.Choose(self._pos(meta), simultaneous, chooser_var, who, optional, count_mode, count,
                        var, source, body, otherwise, None if prompt is None else prompt.text, template,
                        remembered, option_text)

    def single_chooser(self, meta, items):
        return (False, None, items[0])

    def simultaneous_chooser(self, meta, items):
        return (True, str(items[0]), items[1])

    def choice(self, meta, items):
        verb, count, var, source, prompt, option_text, remembered = items
        mode, amount = count if count else (None, None)
        return (verb, mode, amount, str(var), source, prompt, option_text, remembered)

    def choice_remembered(self, meta, items):
        return items[0]

    def choice_each(self, meta, items):
        return self._prompt_text(items[0], "an option's text is empty",
                                 "say how each option reads, as in `each as \"{spot}: counts {d.value}\"`",
                                 code="SR214")

    def choice_prompt(self, meta, items):
        return self._prompt_text(items[0], "a decision's prompt is empty",
                                 "say what the player decides, as in `as \"place a die\"`")

    def _prompt_text(self, token, empty: str, hint: str, code: str = "") -> s.PromptText:
        """A text of a decision (its prompt, its options' text) with its values in braces."""
        text = str(token)[1:-1]
        at = self._tok(token)
        if not text.strip():
            raise RulesSyntaxError(Diagnostic(at, empty, hint, code=code))
        problem = name_problem(text, "prompt")
        if problem is not None:
            raise RulesSyntaxError(Diagnostic(at, problem, NAME_HINT, code="SR210"))
        first = Position(at.path, at.line, at.col + 1)  # the text's first character, after the quote
        return read_prompt(text, first, self.edition, self.read_expression, self.notes)

    def must_choose(self, meta, items):
        return False

    def may_choose(self, meta, items):
        return True

    def up_to(self, meta, items):
        return ("up_to", items[0])

    def exactly(self, meta, items):
        return ("exactly", items[0])

    # expressions
    def ternary(self, meta, items):
        return s.Ternary(self._pos(meta), items[1], items[0], items[2])

    def _binary(op):  # noqa: N805 - a factory used only inside this class body
        def method(self, meta, items):
            return s.Binary(self._pos(meta), op, items[0], items[1])
        return method

    or_op = _binary("or")
    and_op = _binary("and")
    member = _binary("in")
    not_member = _binary("notin")
    add_op = _binary("+")
    sub_op = _binary("-")
    mul_op = _binary("*")
    div_op = _binary("/")
    mod_op = _binary("%")

    def compare(self, meta, items):
        return s.Binary(self._pos(meta), str(items[1]), items[0], items[2])

    def not_op(self, meta, items):
        return s.Unary(self._pos(meta), "not", items[0])

    def neg_op(self, meta, items):
        return s.Unary(self._pos(meta), "neg", items[0])

    def range_up(self, meta, items):
        return s.Range(self._pos(meta), items[0], items[1], False)

    def range_down(self, meta, items):
        return s.Range(self._pos(meta), items[0], items[1], True)

    def attribute(self, meta, items):
        return s.Attribute(self._pos(meta), items[0], str(items[1]))

    def index(self, meta, items):
        return s.Index(self._pos(meta), items[0], items[1])

    def call(self, meta, items):
        return s.Call(self._pos(meta), str(items[0]), tuple(items[1] or ()))

    def args(self, meta, items):
        return list(items)

    def integer(self, meta, items):
        return s.Literal(self._tok(items[0]), int(items[0]))

    def string(self, meta, items):
        return s.Literal(self._tok(items[0]), str(items[0])[1:-1])

    def name(self, meta, items):
        return s.Name(self._tok(items[0]), str(items[0]))

    def none(self, meta, items):
        return s.Literal(self._pos(meta), None)

    def true(self, meta, items):
        return s.Literal(self._pos(meta), True)

    def false(self, meta, items):
        return s.Literal(self._pos(meta), False)

    def list_expr(self, meta, items):
        return s.ListExpr(self._pos(meta), tuple(items[0] or ()))

    def record_expr(self, meta, items):
        return s.RecordExpr(self._pos(meta), tuple(items[0] or ()))

    def record_fields(self, meta, items):
        return list(items)

    def record_field(self, meta, items):
        return s.RecordField(self._tok(items[0]), str(items[0]), items[1])

    def filter_expr(self, meta, items):
        return s.Filter(self._pos(meta), str(items[0]), items[1], items[2])

    def map_expr(self, meta, items):
        return s.Map(self._pos(meta), items[0], str(items[1]), items[2], items[3])
