"""The standard library of the rules language: named functions every ruleset may call.

Each function is one registry entry (see library.py): its parameters' kinds, result kind, doc and
example are declared with it, and its `build` receives the checked, compiled arguments. A new
function is a new entry here; nothing else needs to know its name.
"""
from __future__ import annotations

import weakref
from typing import Any

from snowrules.compile import (
    found_by_loop,
    stdlib_board,  # noqa: F401 - registers the bounded grid zones' functions
    stdlib_grid,  # noqa: F401 - registers the grid zones' functions
    stdlib_result,  # noqa: F401 - registers tie_broken()
)
from snowrules.compile.budget import joined as joined_lists
from snowrules.compile.budget import joined_zones
from snowrules.compile.closures import const, fail
from snowrules.compile.fuse import code, exists, fused, member, read_only, read_only_list, with_parameters
from snowrules.compile.library import (
    FIELD,
    LIST_OR_ZONE,
    SEQUENCE,
    VALUE,
    Call,
    Overload,
    element_of_first,
    function,
    register,
    same_as_first,
)
from snowrules.compile.scope import suggest
from snowrules.language import syntax as s
from snowrules.load.labels import shown
from snowrules.model import kinds as t
from snowrules.model.costs import can_pay


# ---- lists and zones -------------------------------------------------------------------------
def _listed(call: Call):
    """The argument as a list: a zone's list of components, or the list itself."""
    fn, kind = call.args[0], call.kinds[0]
    return call.compiler.as_list(fn, kind), kind


@function("size", "the number of items in a list or zone", "size(pile[level]) >= 2", (LIST_OR_ZONE,), t.INT)
def _size(call: Call):
    if call.kinds[0] == t.ZONE:
        return fused("len(st.zones[{p0}])", [call.args[0]])
    _check_iterable(call)
    return fused("len({p0})", [_listed(call)[0]])


@function("empty", "whether a list or zone holds nothing", "not empty(p.hand)", (LIST_OR_ZONE,), t.BOOL)
def _empty(call: Call):
    if call.kinds[0] == t.ZONE:
        return fused("not st.zones[{p0}]", [call.args[0]])
    _check_iterable(call)
    zones = _FLATTENED_ZONES.get(call.args[0])
    if zones is not None:  # empty(flatten(zones)): every zone empty, without joining them first
        known = _known_zones(zones)
        if known is not None:  # a few known zones: each tested in place, no generator
            return fused("not (" + " or ".join(f"st.zones[{{i{n}}}]" for n in range(len(known))) + ")",
                         ints=known)
        # map, not a generator over the zones: Python refuses `:=` anywhere in a comprehension's
        # iterable, and the zones' expression may name a value (a zone index checked in place)
        return fused("not any(map(st.zones.__getitem__, {p0}))", [zones])
    found = member(call.args[0])
    if found is not None:  # a filter comparing one field with a value: a membership test
        return fused("not {p0}", [found])
    found = exists(call.args[0])
    if found is not None:  # a filter with lists in its condition: stop at the first item that passes
        return fused("not {p0}", [found])
    return fused("not {p0}", [_listed(call)[0]])


# flatten(zones)'s result -> the list of zones it joins, for empty() (weak: it goes with the program)
_FLATTENED_ZONES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _check_iterable(call: Call) -> None:
    if not t.iterable(call.kinds[0]):
        call.error(f"the argument of {call.node.name}() must be a list or a zone, not {t.describe(call.kinds[0])}",
                   argument=0)


@function("first", "the first item of a list (a zone's bottom), or none", "first(here).owner", (SEQUENCE,),
          element_of_first)
def _first_of(call: Call):
    # An empty list (or none) gives the item of a one-item list of none, without a call.
    found = fused("({p0} or {v0})[0]", [call.args[0]], [_NOTHING])
    found_by_loop.note(found, "first", call.args[0])  # given to a name: a loop (found_by_loop.py)
    return found


@function("first_nonempty", "the first of its lists or zones that holds something (a zone as its list), or an "
          "empty list when none does", "first_nonempty(p.hand, deck)", (LIST_OR_ZONE, LIST_OR_ZONE),
          lambda kinds: _joined_kind(kinds), variadic=True)
def _first_nonempty(call: Call):
    """`a or b or c or []`: each list read only until one holds something. A zone gives a copy of
    its list, so that what was found stays what it was when a later move changes the zone."""
    parts = []
    for index, (fn, kind) in enumerate(zip(call.args, call.kinds)):
        if kind == t.ZONE:
            parts.append(fused("st.zones[{p0}]", [fn]))
        elif t.iterable(kind):
            parts.append(fn)
        else:
            call.error(f"each argument of first_nonempty() must be a list or a zone, not {t.describe(kind)}",
                       argument=index)
            parts.append(fused("{v0}", values=[()]))
    found = "(" + " or ".join(f"{{p{i}}}" for i in range(len(parts))) + " or {v0})"
    if any(kind == t.ZONE for kind in call.kinds):
        return fused("[*" + found + "]", parts, [()])
    return fused(found, parts, [_NO_ITEMS])


def _joined_kind(kinds: list[t.Kind]) -> t.Kind:
    """A list of what the arguments' items have in common (a zone's items are components)."""
    element = t.NONE
    for kind in kinds:
        element = t.unify(element, t.element(kind))
    return t.list_of(t.ANY if element == t.NONE else element)


@function("last", "the last item of a list (a zone's top), or none", "last(trick).number", (SEQUENCE,),
          element_of_first)
def _last_of(call: Call):
    return fused("({p0} or {v0})[-1]", [call.args[0]], [_NOTHING])


def _extreme_of_list(pick):
    def build(call: Call):
        # an empty list (or none) gives none, as `default` says
        found = fused("{v0}({p0} or {v1}, default=None)", [call.args[0]], [pick, ()])
        found_by_loop.note(found, pick.__name__, call.args[0])  # given to a name: a loop
        return found
    return build


def _extreme_of_numbers(pick):
    def build(call: Call):
        # the numbers as the built-in's own arguments: no tuple is built for the call
        parts = ", ".join(f"{{p{i}}}" for i in range(len(call.args)))
        return fused("{v0}(" + parts + ")", call.args, [pick])
    return build


register("min", "the smallest of a list, or of its arguments", "min(2, size(supply))",
         Overload((SEQUENCE,), element_of_first, _extreme_of_list(min)),
         Overload((t.INT, t.INT), t.INT, _extreme_of_numbers(min), variadic=True))
register("max", "the largest of a list, or of its arguments", "max([c.number for each c in trick])",
         Overload((SEQUENCE,), element_of_first, _extreme_of_list(max)),
         Overload((t.INT, t.INT), t.INT, _extreme_of_numbers(max), variadic=True))


@function("sum", "the total of a list of numbers", "sum([c.number for each c in p.won])", (SEQUENCE,), t.INT)
def _sum(call: Call):
    return fused("{v0}({p0})", [call.args[0]], [sum])


@function("flatten", "one list from a list of lists or zones", "flatten([pile[l] for each l in 1..7])", (VALUE,),
          t.ANY)
def _flatten(call: Call):
    fn, kind = call.args[0], call.kinds[0]
    inner = t.element(kind)
    if inner == t.ZONE:
        zones = _known_zones(fn)
        if zones is not None:  # a folded list of a few zones: their items unpacked, no loop
            joined = fused("[" + ", ".join(f"*st.zones[{{i{n}}}]" for n in range(len(zones))) + "]", ints=zones)
        else:  # any number of zones, each any number of times: bounded (compile/budget.py)
            joined = fused("{v0}({p0}, st, {v1})", [read_only(fn)], [joined_zones, call.position])
        _FLATTENED_ZONES[joined] = fn
        return joined, t.list_of(t.COMPONENT)
    if not t.is_list(kind) or not (t.is_list(inner) or inner == t.ANY):
        call.error("flatten() takes a list of lists or of zones")
    # the one function whose list can outgrow its argument: bounded before it is made
    return fused("{v0}({p0}, {v1})", [read_only(fn)], [joined_lists, call.position]), t.list_of(t.element(inner))


UNPACKED_ZONES = 16  # at most this many zones of a folded list are joined by unpacking each


def _known_zones(fn) -> list[int] | None:
    """The zones of a folded constant list of zones (`[pile[l] for each l in 1..7]`), when there
    are a few: flatten() joins them as `[*z1, *z2, ...]`, one instruction each, where the
    comprehension is a call and a loop. None for any other list."""
    plain, length = read_only_list(fn)
    if length is None or length > UNPACKED_ZONES:
        return None
    (zones,) = code(plain)[1].values()
    return list(zones) if all(type(zone) is int for zone in zones) else None


@function("sorted", "a list in increasing order", "sorted([c.number for each c in p.hand])", (SEQUENCE,),
          same_as_first)
def _sorted(call: Call):
    return fused("{v0}({p0})", [call.args[0]], [sorted])


@function("unique", "a list without repeats, in first-seen order", "unique([c.colour for each c in p.won])",
          (SEQUENCE,), same_as_first)
def _unique(call: Call):
    return fused("{v0}({p0})", [call.args[0]], [_unique_items])


@function("count", "how many items of a list equal a value", "count(won_numbers(me), n) == 3", (SEQUENCE, VALUE),
          t.INT)
def _count(call: Call):
    return fused("{p0}.count({p1})", call.args)


@function("longest_run", "the length of the longest run of consecutive whole numbers in a list",
          "longest_run([c.number for each c in me.pile]) >= 5", (SEQUENCE,), t.INT)
def _longest_run_of(call: Call):
    if t.element(call.kinds[0]) not in (t.INT, t.ANY):
        call.error("longest_run() takes a list of numbers")
    return fused("{v0}({p0})", [call.args[0]], [_longest_run])


# ---- numbers ---------------------------------------------------------------------------------
@function("abs", "a number without its sign", "abs(a - b)", (t.INT,), t.INT)
def _abs(call: Call):
    return fused("{v0}({p0})", [call.args[0]], [abs])


@function("ratio", "a / b as a fraction (`/` rounds down): a return or an average, never a count",
          "ratio(1, size(leaders()))", (t.INT, t.INT), t.FRACTION)
def _ratio(call: Call):
    return fused("{p0} / {p1}", call.args)


# ---- rankings --------------------------------------------------------------------------------
@function("rank", "each value's place: 1 + how many values are strictly higher (ties share a place)",
          "rank([p.score for each p in players])", (t.list_of(t.INT),), t.list_of(t.INT))
def _rank_of(call: Call):
    return fused("{v0}({p0})", [call.args[0]], [ranks])


@function("share", "points per entry when places pay `points` (first place first) and tied entries split "
          "the points of the places they fill, rounded down, skipping as many places",
          "share([4, 2], [p.res[\"gem\"] for each p in players])", (t.list_of(t.INT), t.list_of(t.INT)),
          t.list_of(t.INT))
def _share_of(call: Call):
    return fused("{v0}({p0}, {p1})", call.args, [shared_points])


# ---- costs -----------------------------------------------------------------------------------
@function("can_pay", "whether units held, each worth its rate, can pay an amount exactly (as `pay` does)",
          'can_pay(s.cost, [p.res["coin"], p.res["gem"]], [1, 2])', (t.INT, t.list_of(t.INT), t.list_of(t.INT)),
          t.BOOL)
def _can_pay_of(call: Call):
    amount, holdings, rates = call.args
    position = call.position
    items = call.node.args
    if isinstance(items[1], s.ListExpr) and isinstance(items[2], s.ListExpr) \
            and len(items[1].items) != len(items[2].items):
        call.error(f"can_pay() has {len(items[1].items)} holdings and {len(items[2].items)} rates",
                   "give one rate per holding, in the same order", argument=2)

    def checked(held: list[int], worth: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        if len(held) != len(worth):
            fail(position, f"can_pay(): {len(held)} holdings and {len(worth)} rates")
        if any(rate < 1 for rate in worth):
            fail(position, f"can_pay(): a rate is a whole number of 1 or more, not {min(worth)}")
        return tuple(held), tuple(worth)

    def payable(units: tuple[tuple[int, ...], tuple[int, ...]], due: int) -> bool:
        return can_pay(due, *units)
    # the holdings and rates read and checked first, then the amount, as the rules read them
    return fused("{v1}({v0}({p1}, {p2}), {p0})", [amount, holdings, rates], [checked, payable])


@function("item", "the item of a list at a position, 0 for the first (as seat_number counts seats)",
          "item(share([4, 2], scores), seat_number(p))", (SEQUENCE, t.INT), element_of_first)
def _item_of(call: Call):
    items, index = call.args
    position = call.position

    def item_at(values: list, at: int):
        if not 0 <= at < len(values):
            fail(position, f"item(): position {at} is outside a list of {len(values)}")
        return values[at]
    return fused("{v0}({p0}, {p1})", [items, index], [item_at])


def ranks(values: list[int]) -> list[int]:
    """1 + how many values are strictly higher: two tied for first are both 1, the next is 3."""
    return [1 + sum(1 for other in values if other > value) for value in values]


def shared_points(points: list[int], scores: list[int]) -> list[int]:
    """What each entry of `scores` earns when the places pay `points` (missing places pay 0).

    Entries tied at a score fill as many places as they are, split those places' points rounded
    down, and the places they fill are used up: two tied for first share first and second place,
    and the next entry is third."""
    places = ranks(scores)
    earned = []
    for place in places:
        tied = places.count(place)
        earned.append(sum(points[place - 1:place - 1 + tied]) // tied)
    return earned


# ---- players ---------------------------------------------------------------------------------
@function("left_of", "the next player in seat order (to the left)", "left_of(dealer)", (t.PLAYER,), t.PLAYER)
def _left_of(call: Call):
    return fused("({p0} + 1) % {i0}", [call.args[0]], ints=[call.compiler.layout.seats])


@function("right_of", "the previous player in seat order (to the right)", "right_of(dealer)", (t.PLAYER,),
          t.PLAYER)
def _right_of(call: Call):
    return fused("({p0} - 1) % {i0}", [call.args[0]], ints=[call.compiler.layout.seats])


@function("players_from", "every player in seat order, starting with the given one", "players_from(leader)",
          (t.PLAYER,), t.list_of(t.PLAYER))
def _players_from(call: Call):
    fn, n = call.args[0], call.compiler.layout.seats
    # One list per starting seat, made once (lists are never changed in place).
    orders = [[(first + i) % n for i in range(n)] for first in range(n)]
    return fused("{v0}[{p0} % {i0}]", [fn], [orders], [n])


@function("seat_name", "a player's colour or seat name, as text", "seat_name(p)", (t.PLAYER,), t.STR)
def _seat_name(call: Call):
    return fused("{v0}[{p0}]", [call.args[0]], [call.compiler.layout.seat_names])


@function("seat_number", "a player's seat as a number: 0 for the first seat, then in seat order",
          "seat_number(it)", (t.PLAYER,), t.INT)
def _seat_number(call: Call):
    return call.args[0]


# ---- components ------------------------------------------------------------------------------
@function("name_of", "a component's name, as text", "name_of(c)", (t.COMPONENT,), t.STR)
def _name_of(call: Call):
    return fused("{v0}[{p0}]", [call.args[0]], [call.compiler.layout.component_names])


# ---- texts -----------------------------------------------------------------------------------
@function("join", "the texts of a list as one text, the separator between each two (an option's text "
          "that leaves a part out: `\"\" if empty(xs) else join(...)`)",
          'join([t.gives for each t in reached], ", ")', (t.list_of(t.STR), t.STR), t.STR)
def _join(call: Call):
    return fused("{v0}({p0}, {p1})", [call.args[0], call.args[1]], [_joined_texts])


def _joined_texts(items: list, separator: str) -> str:
    """A list's items as one text, each as a label shows a value (a text as it is, a number in
    digits, yes/no, none)."""
    return separator.join(map(shown, items))


@function("zone_of", "the zone a component is in", "zone_of(c) == p.hand", (t.COMPONENT,), t.ZONE)
def _zone_of(call: Call):
    return fused("st.where[{p0}]", [call.args[0]])


@function("evaluate", "the value of an expression written in a component's field, for a player (`me`)",
          'evaluate(prize, "condition", p)', (t.COMPONENT, FIELD, t.PLAYER), t.ANY)
def _evaluate(call: Call):
    """The card's expression with `this` = the card and `me` = the player (a prize's condition, a
    goal's measure)."""
    card, name, player = call.args
    sym, layout = call.compiler.sym, call.compiler.layout
    if name is None:
        return const(None)
    if name not in sym.expression_fields:
        call.error(f"no component has an expression in a field {name!r}",
                   suggest(name, sorted(sym.expression_fields))
                   or "a field is an expression when its schema says \"x-language\": \"expression\"", argument=1)
    table, defs, names, position = sym.expressions, layout.component_defs, layout.component_names, call.position
    if sym.expressions_ready:
        return _evaluate_dispatch(call, name)

    def evaluate(st, env):
        c = card(st, env)
        entry = table.get((defs[c], name))
        if entry is None:
            fail(position, f"{names[c]} has no expression {name!r}")
        fn, slots, me, this = entry
        local = [None] * slots.size
        local[me], local[this] = player(st, env), c
        return fn(st, local)
    return evaluate


def _evaluate_dispatch(call: Call, name: str):
    """evaluate() once every field expression is compiled: one generated expression that picks the
    card's own function by its definition, `table[defs[c]](st, player, c)`. Each function is the
    field's expression with `me` and `this` as parameters (no environment to build), or, when
    the expression needs an environment of its own, a closure that builds it."""
    card, _, player = call.args
    sym, layout, position = call.compiler.sym, call.compiler.layout, call.position
    names = layout.component_names
    functions = sym.field_functions.get(name)
    if functions is None:  # made once per field, shared by every call
        functions = sym.field_functions[name] = {
            definition: _field_function(entry) for (definition, field), entry in sym.expressions.items()
            if field == name}

    def missing(st, me, c):
        fail(position, f"{names[c]} has no expression {name!r}")
    return fused("{v0}.get({v1}[({v3} := {p0})], {v2})(st, {p1}, {v3})", [card, player],
                 [functions, layout.component_defs, missing, None])


def _field_function(entry: tuple):
    """A field expression as a function (st, me, this)."""
    fn, slots, me, this = entry
    direct = with_parameters(fn, [me, this])
    if direct is not None:
        return direct

    def with_environment(st, player, c):
        local = [None] * slots.size
        local[me], local[this] = player, c
        return fn(st, local)
    return with_environment


@function("find", "the first row (or component) of a list whose field has a value, or none",
          'find(bonus_spaces, "space", p.score)', (SEQUENCE, FIELD, VALUE), t.ANY)
def _find(call: Call):
    """A table is indexed once, while compiling."""
    source, name, value = call.args
    if name is None:
        return const(None)
    sym, layout, table = call.compiler.sym, call.compiler.layout, call.node.args[0]
    if isinstance(table, s.Name) and table.name in sym.tables and call.scope.lookup(table.name) is None:
        rows = sym.tables[table.name][0]
        if not any(name in row for row in rows):
            call.error(f"no row of {table.name!r} has a field {name!r}",
                       suggest(name, sorted({k for row in rows for k in row})), argument=1)
        index: dict = {}
        for row in rows:
            index.setdefault(row.get(name), row)
        return fused("{v0}.get({p0})", [value], [index]), t.RECORD
    element = t.element(call.kinds[0])
    if element == t.COMPONENT:
        if name not in layout.fields:
            call.error(f"no component has a field {name!r}", suggest(name, list(layout.fields)), argument=1)
            return const(None), t.ANY
        values = layout.fields[name]

        def find_component(wanted: Any, components: list) -> int | None:
            return next((c for c in components if values[c] == wanted), None)
        return fused("{v0}({p0}, {p1})", [value, source], [find_component]), t.COMPONENT

    def find_row(wanted: Any, rows: list) -> dict | None:
        return next((r for r in rows if r.get(name) == wanted), None)
    return fused("{v0}({p0}, {p1})", [value, source], [find_row]), element


# ---- helpers the generated code calls ------------------------------------------------------
def _unique_items(items: list) -> list:
    """Without repeats, in first-seen order; records (dicts, which cannot be hashed) and lists
    are compared by equality instead."""
    try:
        return list(dict.fromkeys(items))
    except TypeError:
        kept: list = []
        for item in items:
            if item not in kept:
                kept.append(item)
        return kept


def _longest_run(numbers: list) -> int:
    # the best run is kept as the loop goes, without a call of max() per number (prize conditions
    # ask this of every colour of a pile at the end of each round)
    values = sorted(set(numbers))
    if not values:
        return 0
    best = run = 1
    previous = values[0]
    for value in values:
        if value == previous + 1:
            run += 1
            if run > best:
                best = run
        else:
            run = 1
        previous = value
    return best


_NOTHING = (None,)  # what first() and last() read from an empty list
_NO_ITEMS: list = []  # first_nonempty() of lists that are all empty (never changed in place)
