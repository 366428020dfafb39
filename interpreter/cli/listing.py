"""`snowrules list`: the bundled rulesets, with what a command line may choose for each.

The JSON form (`--json`) is a contract for scripts and CI, described by schemas/list.schema.json;
its `format` names that contract and its version.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from snowrules.data import bundled_folder
from snowrules.data import cache as build_cache
from snowrules.load.option_text import options_text

LIST_FORMAT = "snowrules-list/1"


@dataclass(frozen=True)
class VariantEntry:
    name: str
    min_players: int
    max_players: int


@dataclass(frozen=True)
class OptionEntry:
    name: str
    default: Any
    choices: list | None = None
    minimum: int | None = None
    maximum: int | None = None
    about: str | None = None


@dataclass(frozen=True)
class RulesetEntry:
    name: str
    title: str
    version: str
    min_players: int
    max_players: int
    variants: list[VariantEntry] = field(default_factory=list)
    options: list[OptionEntry] = field(default_factory=list)


def bundled_rulesets() -> list[RulesetEntry]:
    """Every bundled ruleset, its player counts, its variants (each with its own counts) and options.

    The entries are kept in the build cache under the contents of every bundled folder: a listing
    reads one small entry instead of every ruleset and variant (and the modules that check them)."""
    root = bundled_folder("rulesets")
    names = sorted(p.parent.name for p in root.glob("*/ruleset.yaml"))
    contents = [build_cache.folder_contents(root / name) for name in names]
    key = None if None in contents else build_cache.key("listing", tuple(zip(names, contents)))
    return build_cache.cached("listing", key, lambda: (_entries(names), True))


def _entries(names: list[str]) -> list[RulesetEntry]:
    from snowrules.load.ruleset import load_ruleset  # only when the listing is built afresh

    entries = []
    for name in names:
        base = load_ruleset(name)
        variants = []
        for variant in base.variants:
            loaded = load_ruleset(name, variant)
            variants.append(VariantEntry(variant, loaded.min_players, loaded.max_players))
        options = [OptionEntry(option, spec["default"], spec.get("choices"), spec.get("minimum"),
                               spec.get("maximum"), spec.get("about"))
                   for option, spec in base.options.items()]
        entries.append(RulesetEntry(name, base.title, base.version, base.min_players, base.max_players,
                                    variants, options))
    return entries


def _players(low: int, high: int) -> str:
    """"1 player", "2 players", "2-5 players": a solo game reads as one."""
    return "1 player" if low == high == 1 else (f"{low} players" if low == high else f"{low}-{high} players")


def _option_line(option: OptionEntry) -> str:
    if option.choices is not None:
        allowed = "|".join(options_text({"": c}).removeprefix("=") for c in option.choices)
    elif option.minimum is not None or option.maximum is not None:
        low = "" if option.minimum is None else option.minimum
        high = "" if option.maximum is None else option.maximum
        allowed = f"{low}..{high}"
    elif isinstance(option.default, bool):
        allowed = "true|false"
    else:
        allowed = type(option.default).__name__
    about = f"  {option.about}" if option.about else ""
    return f"    --option {options_text({option.name: option.default})}  ({allowed}){about}"


def command_list(args) -> int:
    entries = bundled_rulesets()
    if args.json:
        print(json.dumps({"format": LIST_FORMAT, "rulesets": [asdict(entry) for entry in entries]}))
        return 0
    for entry in entries:
        print(f"{entry.name}  {entry.title} {entry.version}, {_players(entry.min_players, entry.max_players)}")
        for variant in entry.variants:
            print(f"    --variant {variant.name}  ({_players(variant.min_players, variant.max_players)})")
        for option in entry.options:
            print(_option_line(option))
    return 0
