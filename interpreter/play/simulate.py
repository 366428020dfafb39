"""Many seeded games: in this process, on local worker processes, or on a Dask cluster.

Every runner hands out the same small batches of game indexes to `batch.play_batch`, so the games
and their results are the same whichever runner plays them, and in whatever order they finish;
the records are sorted by game index at the end. Batches are small (well under a second each) so
that progress moves smoothly and Ctrl-C stops the run within a second: the games finished so far
are kept and summed up, and the run says it was interrupted. Each batch is added to the run's
figures (statistics.Tally) as it arrives, so the summary takes no longer after a million games.
"""
from __future__ import annotations

import functools
import signal
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeRemainingColumn
from rich.text import Text
from snowrules.play.batch import GameSpec, play_batch
from snowrules.play.statistics import Summary, Tally
from snowrules.play.workers import WorkerLost
from snowrules.records.game_table import GameRecord

BATCH_MOST = 40  # games per batch, at most: a fraction of a second for every bundled ruleset


@dataclass
class SimulationRun:
    spec: GameSpec
    master_seed: int
    requested: int
    records: list[GameRecord]    # sorted by game index
    seconds: float
    interrupted: bool
    where: str                   # "1 process", "2 workers", "cluster tcp://..."
    summary: Summary
    stopped_by: str | None = None  # why the run stopped early, when not by Ctrl-C: a worker that died

    @property
    def games_per_s(self) -> float:
        return len(self.records) / self.seconds if self.seconds > 0 else 0.0


def batches(games: int, workers: int) -> list[list[int]]:
    """Game indexes 0..games-1 cut into batches: several per worker, at most BATCH_MOST games each."""
    size = max(1, min(BATCH_MOST, -(-games // (workers * 8))))
    return [list(range(start, min(start + size, games))) for start in range(0, games, size)]


def simulate(spec: GameSpec, games: int, master_seed: int, workers: int = 1, cluster: str | None = None,
             progress: bool = False) -> SimulationRun:
    """Play `games` games of `spec`; Ctrl-C ends the run early with the games finished so far, and
    so does a worker process that dies (killed by the system's out-of-memory killer, say): the run
    is then `interrupted`, and `stopped_by` says what happened."""
    chunks = batches(games, workers if cluster is None else 16)
    play = functools.partial(play_batch, spec, master_seed)
    records: list[GameRecord] = []
    tally = Tally(spec.players)
    interrupted, stopped_by = False, None
    if cluster is not None:
        from snowrules.play.cluster import cluster_results
        results, stop, where = cluster_results(cluster, play, chunks)
    elif workers > 1:
        results, stop, where = _pool_results(workers, play, chunks)
    else:
        results, stop, where = (play(chunk) for chunk in chunks), (lambda: None), "1 process"
    start = time.perf_counter()
    with _ProgressBar(games, progress) as advance:
        try:
            for part in results:
                records += part
                tally.add(part)
                advance(len(part))
        except KeyboardInterrupt:
            interrupted = True
        except WorkerLost as lost:
            interrupted = True
            stopped_by = _lost_worker_text(lost, len(records))
            print(f"snowrules: error: {stopped_by}", file=sys.stderr)
        finally:
            stop()
    seconds = time.perf_counter() - start
    records.sort(key=lambda r: r.index)
    return SimulationRun(spec, master_seed, games, records, seconds, interrupted, where, tally.summary(), stopped_by)


def _lost_worker_text(lost: WorkerLost, finished: int) -> str:
    """What ended the run, said when it happens (on stderr, whichever command simulates): the
    worker, how it died, the games it held, and that the summary holds the games finished."""
    held = sorted(index for batch in lost.held for index in batch)
    games = f" while it held games {_ranges(held)}" if held else ""
    return f"{lost}{games}; the run stops here: its summary holds the {finished} games finished before"


def _ranges(indexes: list[int]) -> str:
    """Game indexes as ranges: 0-39, 80-119 (0-based, as --out numbers them)."""
    spans: list[list[int]] = []
    for index in indexes:
        if spans and index == spans[-1][1] + 1:
            spans[-1][1] = index
        else:
            spans.append([index, index])
    return ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in spans)


def ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the main process, which stops them (no traceback from each worker),
    and die at once of the SIGTERM it stops them with (the command's own SIGTERM handler, which
    a forked worker inherits, would make it a traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _pool_results(workers: int, play: Callable, chunks: list[list[int]]) -> tuple[Iterator, Callable, str]:
    """Batches played by local worker processes, each batch's records as it arrives (a worker that
    dies raises WorkerLost instead of leaving the run waiting); `stop` ends the workers at once."""
    from snowrules.play.workers import Workers
    pool = Workers(workers, initializer=ignore_interrupts)
    return pool.unordered(play, chunks), pool.close, f"{workers} workers"


class _RateColumn(ProgressColumn):
    """Games per second, once rich has measured a speed."""

    def render(self, task) -> Text:
        return Text(f"{task.speed:.0f} games/s" if task.speed else "")


class _ProgressBar:
    """Progress with rate and time left on stderr; nothing when `shown` is false (not a terminal,
    or --json)."""

    def __init__(self, total: int, shown: bool):
        self.total, self.shown = total, shown
        self.bar: Progress | None = None

    def __enter__(self) -> Callable[[int], None]:
        if not self.shown:
            return lambda n: None
        self.bar = Progress(TextColumn("playing"), BarColumn(), MofNCompleteColumn(), _RateColumn(),
                            TextColumn("ETA"), TimeRemainingColumn(), console=Console(stderr=True), transient=True)
        self.bar.start()
        task = self.bar.add_task("playing", total=self.total)
        return lambda n: self.bar.advance(task, n)

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.stop()
