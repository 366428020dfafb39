"""One row per simulated game, and the files a designer opens them in (CSV, JSON Lines, Parquet).

A `GameRecord` is what a simulation keeps of a game: enough to reproduce it (its seed) and to
compute every figure of a summary (scores, winners, length, which components each player
played). Players are numbered from 0 inside the program and from 1 in the files, as in the
terminal's tables, because the files are read by people and spreadsheets.
"""
from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from snowrules.data.extras import installed
from snowrules.records.logwriter import log_target_problem

TABLE_SUFFIXES = (".csv", ".jsonl", ".parquet")


@dataclass(frozen=True)
class GameMetrics:
    """What play/metrics.py measured of a game while it was played (docs/metrics.md)."""

    decisions: tuple[int, ...]               # decisions answered, per player
    options: tuple[tuple[int, int], ...]     # (number of options, decisions that had that many)
    lead_changes: int
    winner_known: float | None               # share of the game after which the winner led for good


@dataclass(frozen=True)
class GameRecord:
    """A finished game. `plays` holds (component name, player, times played); `held` the names of
    the components that were in some player's hand during the game (the ones that could be played)."""

    index: int                 # its place in the simulation: game 0, 1, ...
    seed: int                  # `snowrules run --seed SEED` plays this very game again
    scores: tuple[int, ...]
    winners: tuple[int, ...]   # players, from 0; several when the victory is shared
    turns: int
    plays: tuple[tuple[str, int, int], ...] = ()
    held: tuple[str, ...] = ()
    returns: tuple[float, ...] | None = None  # the manifest's declared returns, when it has them
    metrics: GameMetrics | None = None        # measured from its events (not with --no-components)

    def win_share(self, player: int) -> float:
        """1 for a sole winner, 1/k for each of k sharing the win, 0 otherwise."""
        return 1 / len(self.winners) if player in self.winners else 0.0


class TableFormatError(ValueError):
    """The --out file's name asks for a format that cannot be written here."""


def check_table_path(path: Path) -> None:
    """Fail before any game is played when the file cannot be written there, its format is unknown
    or its library is missing."""
    if path.suffix not in TABLE_SUFFIXES:
        raise TableFormatError(f"{path}: write .csv, .jsonl or .parquet (the suffix chooses the format)")
    if path.suffix == ".parquet":
        if not installed("pyarrow"):
            raise TableFormatError(f"{path}: Parquet needs pyarrow: pip install 'snowrules[parquet]'")
    if (problem := log_target_problem(path, what="a table of games")) is not None:
        raise TableFormatError(f"{path}: {problem}")


def _row(record: GameRecord, players: int) -> dict:
    row = {"game": record.index, "seed": record.seed, "turns": record.turns,
           "winners": " ".join(str(w + 1) for w in record.winners), "shared_win": len(record.winners) > 1}
    for player in range(players):
        row[f"score_{player + 1}"] = record.scores[player]
    return row


def write_table(path: Path, records: Iterable[GameRecord], players: int) -> None:
    """One row per game: game, seed, turns, winners (space-separated, from 1), shared_win, score_1..
    JSON Lines rows also carry `plays` ({component: {player: times}})."""
    check_table_path(path)
    rows = list(records)
    if path.suffix == ".csv":
        with path.open("w", newline="", encoding="utf-8") as out:
            columns = ["game", "seed", "turns", "winners", "shared_win"] + [f"score_{p + 1}" for p in range(players)]
            writer = csv.DictWriter(out, columns)
            writer.writeheader()
            for record in rows:
                writer.writerow(_row(record, players))
    elif path.suffix == ".jsonl":
        with path.open("w", encoding="utf-8") as out:
            for record in rows:
                row = _row(record, players)
                plays: dict[str, dict[str, int]] = {}
                for name, player, times in record.plays:
                    plays.setdefault(name, {})[str(player + 1)] = times
                row["plays"] = plays
                out.write(json.dumps(row) + "\n")
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq
        table = pa.Table.from_pylist([_row(record, players) for record in rows])
        pq.write_table(table, path)
