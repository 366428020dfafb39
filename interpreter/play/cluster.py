"""Simulation batches on a Dask distributed cluster (the `cluster` extra).

The scheduler at ADDRESS (`tcp://host:8786`) hands the batches to its workers; each worker
process compiles the game once (see batch.py) and plays every batch it is given. The workers
need snowrules installed (the same version) and the ruleset: a bundled name works everywhere, a
folder path must exist at the same path on every worker.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator

CONNECT_SECONDS = 10


class ClusterError(Exception):
    """The cluster cannot be used: the library is missing or the scheduler does not answer."""


def cluster_results(address: str, play: Callable, chunks: list[list[int]]) -> tuple[Iterator, Callable, str]:
    """(batch results as they finish, a function that cancels the rest and disconnects, a label)."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise ClusterError("--cluster needs Dask distributed: pip install 'snowrules[cluster]'") from None
    try:
        client = Client(address, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError) as error:
        raise ClusterError(f"--cluster {address}: no Dask scheduler answers there ({error})") from None
    futures = client.map(play, chunks, pure=False)

    def results() -> Iterator:
        for future in as_completed(futures):
            yield future.result()

    def stop() -> None:
        client.cancel(futures)
        client.close()
    return results(), stop, f"cluster {address}"
