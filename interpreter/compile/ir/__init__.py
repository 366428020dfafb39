"""The intermediate form of a program (nodes.py), the passes that make it from the checked syntax
(lower.py) and derive facts from it (effects.py), and its listing for `snowrules explain --ir`
(listing.py)."""
