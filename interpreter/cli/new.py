"""`snowrules new NAME`: a ruleset folder to start from, which validates, plays and has one
scenario and a README, so a designer's first edit starts from something that works.

The game is "High card", small enough to read at once: a shared deck of six cards, two to each
player, one played a turn in secret, the higher card scores its value. It shows each file a
ruleset has (the manifest in the current edition, rules with rulebook citations, a component
list with its own schema, a scenario that checks a rule) and the README says the commands that
check and play it. Files are written only into a folder that does not exist yet.
"""
from __future__ import annotations

import re
from pathlib import Path

from snowrules.cli.usage import UsageError
from snowrules.language import editions

NAME = re.compile(r"[a-z][a-z0-9_]{0,40}")


def _files(name: str) -> dict[str, str]:
    title = name.replace("_", " ").title()
    return {
        "ruleset.yaml": f"""# {title}: the manifest (docs/language.md, "The manifest").
name: {name}
title: {title}
version: 0.1.0
rulebook: README.md
players: {{min: 2, max: 2}}
seat_names: [north, south]
rules: [rules.sr]
components: [components/cards.yaml]
language: {editions.CURRENT}      # the edition of the rules language (docs/changes.md)
""",
        "rules.sr": f"""# {title}: the rules. Each rule cites its section of the rulebook (README.md).
game "{title}"

zone deck shared hidden
zone hand per player hidden
zone played per player secret
zone scored per player public
counter score per player from 0
# [Setup] cards dealt to each player, and so turns played (`--constant hand_size=3` tries three)
constant hand_size = 2

define best() = max([p.score for each p in players])

setup:
    # [Setup] shuffle the six cards and deal two to each player.
    move all from box to deck
    shuffle deck
    for each p in players:
        move hand_size from deck to p.hand

rounds hand_size:
    phase play:
        # [Play] each player plays a card from their hand at the same time, face down.
        ask each p in players secretly to choose card from p.hand:
            move card to p.played
    phase score:
        # [Score] the higher card scores its value; equal cards score nothing.
        let top = max([first(p.played).value for each p in players])
        let highest = [each p in players where first(p.played).value == top]
        if size(highest) == 1:
            add top to first(highest).score
        for each p in players:
            move all from p.played to p.scored

at game end:
    # [End] after the last turn, the most points wins; equal points share the win.
    end game winners [each p in players where p.score == best()]
""",
        "components/cards.yaml": """# yaml-language-server: $schema=../schemas/card_list.schema.json
# [Components] six cards valued 1 to 6. A deck that is a product of fields (suits by ranks) may be
# one `generate:` entry instead (docs/language.md, "Generated entries").
schema: card.schema.json
components:
  - {name: one, value: 1}
  - {name: two, value: 2}
  - {name: three, value: 3}
  - {name: four, value: 4}
  - {name: five, value: 5}
  - {name: six, value: 6}
""",
        "schemas/card.schema.json": """{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "card.schema.json",
  "title": "A card",
  "type": "object",
  "required": ["name", "value"],
  "additionalProperties": false,
  "properties": {
    "name": {"description": "the card's name, unique in the ruleset", "type": "string", "minLength": 1},
    "value": {"description": "what the card scores when it is the higher one", "type": "integer", "minimum": 1}
  }
}
""",
        "schemas/card_list.schema.json": """{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "card_list.schema.json",
  "title": "A component file of cards (for editors)",
  "type": "object",
  "required": ["schema", "components"],
  "properties": {
    "schema": {"const": "card.schema.json"},
    "components": {"type": "array", "items": {"$ref": "card.schema.json"}}
  }
}
""",
        "scenarios/higher_card_scores.yaml": """\
# [Score] the higher card scores its value: north plays the six against south's two.
name: The higher card scores its value
rulebook: README.md, Score
players: 2
situation:
  zones: {north.hand: [six, one], south.hand: [two, three]}
choices:
  - {north: six, south: two}
until: end of turn 1
expect:
  counters: {north.score: 6, south.score: 0}
  zones: {north.scored: [six], south.scored: [two], north.hand: [one]}
""",
        "README.md": f"""# {title}

A ruleset for [snowrules](https://github.com/snowrules/snowrules), made by `snowrules new {name}`.

## Rulebook

- **Components**: six cards valued 1 to 6.
- **Setup**: shuffle the cards and deal two to each of the two players (`hand_size`).
- **Play**: each turn, both players choose a card from their hand and play it face down at once.
- **Score**: the higher card scores its value for its player; equal cards score nothing.
- **End**: when the hands are empty (two turns), the player with the most points wins; equal points share the win.

## Commands

```sh
snowrules validate {name}          # every check, the scenarios' expectations and a few random games
snowrules run {name} --agents human,random   # play it at the terminal against a random player
snowrules test {name}              # the scenarios in scenarios/, one line each
snowrules validate --watch {name}  # check again on every save
```

Each rule in `rules.sr` cites its section above (`# [Score] ...`); a scenario in `scenarios/`
checks one rule from a position it sets up (docs/language.md, "Scenarios").
""",
    }


def command_new(args) -> int:
    """Write the folder; exit 2 when the name is not a ruleset name or the folder exists."""
    target = Path(args.name)
    name = target.name
    if not NAME.fullmatch(name):
        raise UsageError(f"{args.name!r}: a ruleset's name is lowercase letters, digits and _ "
                         "(starting with a letter), such as high_card")
    if target.exists():
        raise UsageError(f"{target}: already exists; give a new folder's name")
    if not target.parent.is_dir():
        raise UsageError(f"{target.parent}: no such folder to make {name} in")
    files = _files(name)
    for relative, text in files.items():
        path = target / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    print(f"{target}: a new ruleset ({len(files)} files); `snowrules validate {target}` checks it, "
          f"`snowrules run {target}` plays it")
    return 0
