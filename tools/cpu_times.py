"""A pytest plugin that records the CPU seconds (user + system, of the test process and of the
commands it started and waited for) each test costs, so that the suite's time can be compared on a
machine shared with others, where wall time says more about the neighbours than about the tests.

    python -m pytest -p tools.cpu_times -n 2 ...        # writes one line per test to $CPU_TIMES_DIR
    python tools/cpu_times.py DIR                       # per-file totals and the slowest tests

Setup and teardown (fixtures) are counted with the test that ran them."""
from __future__ import annotations

import json
import os
import resource
import sys
from collections import defaultdict
from pathlib import Path

import pytest


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    folder = os.environ.get("CPU_TIMES_DIR")
    start = _cpu()
    yield
    if folder:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        with open(Path(folder) / f"{worker}.jsonl", "a") as out:
            out.write(json.dumps({"id": item.nodeid, "cpu": round(_cpu() - start, 4)}) + "\n")


def report(folder: Path, top: int = 60) -> None:
    rows = [json.loads(line) for f in sorted(folder.glob("*.jsonl")) for line in f.read_text().splitlines()]
    per_file: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    for r in rows:
        name = r["id"].split("::")[0]
        per_file[name] += r["cpu"]
        count[name] += 1
    print(f"{len(rows)} tests, {sum(r['cpu'] for r in rows):.1f} CPU s in tests")
    for name, cpu in sorted(per_file.items(), key=lambda kv: -kv[1]):
        print(f"{cpu:8.1f}  {count[name]:5d}  {name}")
    print(f"\nslowest {top} tests (CPU s)")
    for r in sorted(rows, key=lambda r: -r["cpu"])[:top]:
        print(f"{r['cpu']:8.2f}  {r['id']}")


if __name__ == "__main__":
    report(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 60)
