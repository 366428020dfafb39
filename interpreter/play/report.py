"""The HTML report of `simulate --report DIR` and `compare --report DIR` (the `report` extra).

DIR receives `index.html`, three SVG plots (score distributions per player, win rate per player
with its 95% interval, game length) and `figures.json`, the exact numbers each plot draws, so a
designer can redo a plot elsewhere and tests can check what was drawn. Histograms are counted here
(not by matplotlib) on bins shared by both sides of a comparison, so their bars line up when
overlaid. The SVG files carry no date and fixed ids: the same games give the same bytes.
"""
from __future__ import annotations

import html
import json
import math
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from snowrules.data.extras import installed
from snowrules.play.comparison import Comparison, p_text
from snowrules.play.simulate import SimulationRun
from snowrules.play.statistics import Summary
from snowrules.records.game_table import GameRecord

REPORT_FORMAT = "snowrules-report/1"  # name/version in one field, as every JSON object snowrules writes
MOST_BINS = 40
COLOURS = ("#1f77b4", "#d62728")


class ReportUnavailable(Exception):
    """matplotlib is not installed."""


def check_report_available() -> None:
    if not installed("matplotlib"):
        raise ReportUnavailable("the report needs matplotlib: pip install 'snowrules[report]'")


def report_folder_problem(folder: Path) -> str | None:
    """Why the report cannot be written into `folder`, or None when it can: the folder, or the
    nearest of its parents that exists (missing ones are made), must be a folder. Asked before any
    game is played, so that a wrong path costs no simulation."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if existing.exists() and not existing.is_dir():
        return f"{existing} is a file, not a folder" if existing != folder else "is a file, not a folder"
    return None


def bin_edges(values: Sequence[float]) -> list[float]:
    """One bin per whole number when the range is small, else MOST_BINS equal bins."""
    low, high = min(values), max(values)
    if high - low + 1 <= MOST_BINS:
        return [low - 0.5 + i for i in range(int(high - low) + 2)]
    width = (high - low) / MOST_BINS
    return [low + i * width for i in range(MOST_BINS + 1)]


def histogram(values: Sequence[float], edges: Sequence[float]) -> list[int]:
    counts = [0] * (len(edges) - 1)
    for value in values:
        i = min(len(counts) - 1, max(0, int((value - edges[0]) / (edges[1] - edges[0]))))
        counts[i] += 1
    return counts


def figure_data(sides: Sequence[tuple[str, Sequence[GameRecord], Summary]]) -> dict:
    """The numbers behind the three plots, for one side or two."""
    players = min(summary.players for _, _, summary in sides)
    scores = [r.scores[p] for _, records, _ in sides for r in records for p in range(players)]
    score_edges = bin_edges(scores)
    length_edges = bin_edges([r.turns for _, records, _ in sides for r in records])
    return {
        "format": REPORT_FORMAT, "sides": [label for label, _, _ in sides],
        "players": players,
        "scores": {"edges": score_edges,
                   "counts": {label: [histogram([r.scores[p] for r in records], score_edges) for p in range(players)]
                              for label, records, _ in sides}},
        "win_rates": {label: [{"player": f.player + 1, "value": f.win_rate.value, "low": f.win_rate.low,
                               "high": f.win_rate.high} for f in summary.per_player[:players]]
                      for label, _, summary in sides},
        "length": {"edges": length_edges,
                   "counts": {label: histogram([r.turns for r in records], length_edges)
                              for label, records, _ in sides}},
    }


def save_plot(figure, path: Path) -> None:
    """Lay out, write without a date (the same games give the same bytes) and close a figure."""
    import matplotlib.pyplot as plt
    figure.tight_layout()
    figure.savefig(path, metadata={"Date": None})
    plt.close(figure)


def _plots(data: dict, folder: Path) -> None:
    from snowrules.play.out_of_memory import room_for
    room_for("numpy")  # matplotlib loads it: refused before, not an exit inside OpenBLAS
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams["svg.hashsalt"] = "snowrules"
    sides, players = data["sides"], data["players"]
    columns = min(players, 4)
    rows = math.ceil(players / columns)
    figure, axes = plt.subplots(rows, columns, figsize=(3.2 * columns, 2.6 * rows), squeeze=False, sharey=True)
    for p in range(rows * columns):
        ax = axes[p // columns][p % columns]
        if p >= players:
            ax.set_visible(False)
            continue
        for colour, label in zip(COLOURS, sides):
            ax.stairs(data["scores"]["counts"][label][p], data["scores"]["edges"], color=colour, label=label)
        ax.set_title(f"player {p + 1}")
        ax.set_xlabel("final score")
    axes[0][0].set_ylabel("games")
    axes[0][0].legend(fontsize="small")
    figure.suptitle("score distribution per player")
    save_plot(figure, folder / "scores.svg")

    figure, ax = plt.subplots(figsize=(max(4.0, 1.1 * players * len(sides)), 3.2))
    width = 0.8 / len(sides)
    for k, (colour, label) in enumerate(zip(COLOURS, sides)):
        rates = data["win_rates"][label]
        xs = [r["player"] + (k - (len(sides) - 1) / 2) * width for r in rates]
        values = [r["value"] for r in rates]
        errors = [[r["value"] - r["low"] for r in rates], [r["high"] - r["value"] for r in rates]]
        ax.bar(xs, values, width, yerr=errors, capsize=4, color=colour, alpha=0.8, label=label)
    ax.axhline(1 / players, color="grey", linestyle=":", label=f"1/{players}")
    ax.set_xticks(range(1, players + 1))
    ax.set_xlabel("player")
    ax.set_ylabel("win rate (95% interval)")
    ax.legend(fontsize="small")
    save_plot(figure, folder / "win_rates.svg")

    figure, ax = plt.subplots(figsize=(6, 3.2))
    for colour, label in zip(COLOURS, sides):
        ax.stairs(data["length"]["counts"][label], data["length"]["edges"], color=colour, label=label)
    ax.set_xlabel("turns")
    ax.set_ylabel("games")
    ax.set_title("game length")
    ax.legend(fontsize="small")
    save_plot(figure, folder / "length.svg")


# the head every report page shares (simulate's, compare's, tournament's, sweep's and tune's): a
# format string of {title}, its style left open for the page's own rules
PAGE_START = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif;max-width:70em;margin:2em auto}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:.2em .5em;text-align:right}}td:first-child{{text-align:left}}
"""
_PAGE = PAGE_START + """.significant{{background:#fde2a0}}img{{max-width:100%}}</style></head>
<body>
<h1>{title}</h1>
{body}
<h2>Plots</h2>
<figure><img src="scores.svg" alt="score distribution per player"><figcaption>Score distribution per player
(games per final score).</figcaption></figure>
<figure><img src="win_rates.svg" alt="win rate per player"><figcaption>Win rate per player with its 95%
Wilson interval; the dotted line is an even share.</figcaption></figure>
<figure><img src="length.svg" alt="game length"><figcaption>Game length in turns.</figcaption></figure>
<p>The numbers drawn are in <a href="figures.json">figures.json</a>.</p>
<script>
window.addEventListener("load", function () {{
  var shown = Array.prototype.filter.call(document.images, function (i) {{ return i.naturalWidth > 0; }});
  document.body.setAttribute("data-images-shown", String(shown.length));
}});
</script>
</body></html>
"""


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], marked: Sequence[bool] = ()) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = []
    for i, row in enumerate(rows):
        css = ' class="significant"' if i < len(marked) and marked[i] else ""
        body.append(f"<tr{css}>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


def _summary_rows(summary: Summary) -> list[list[str]]:
    return [[str(f.player + 1), f"{f.win_rate.value:.1%}", f"{f.win_rate.low:.1%} - {f.win_rate.high:.1%}",
             f"{f.score.mean:.2f}", f"{f.score.sd:.2f}", f"{f.score.median:g}"] for f in summary.per_player]


def _write(folder: Path, title: str, body: str, data: dict) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    _plots(data, folder)
    (folder / "figures.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    page = folder / "index.html"
    page.write_text(_PAGE.format(title=html.escape(title), body=body), encoding="utf-8")
    return page


def simulation_report(folder: Path, title: str, run: SimulationRun, summary: Summary) -> Path:
    """Write the report of one simulation; the page's path."""
    spec = run.spec
    heading = f"{title}: {summary.games} games, {spec.players} players"
    facts = (f"<p>Variant: {html.escape(spec.variant or 'none')}; agents: {html.escape(', '.join(spec.agents))}; "
             f"master seed {run.master_seed}; {run.games_per_s:.0f} games/s on {html.escape(run.where)}"
             f"{'; interrupted' if run.interrupted else ''}. Mean game length {summary.length.mean:.2f} turns; "
             f"shared wins {summary.shared_wins.value:.1%}.</p>")
    table = _table(["player", "win rate", "95% interval", "mean score", "sd", "median"], _summary_rows(summary))
    data = figure_data([(spec.variant or "base game", run.records, summary)])
    if summary.metrics is not None:  # the game metrics (docs/metrics.md), as the terminal shows them
        from snowrules.play.metrics import metric_rows
        rows = metric_rows(summary.metrics)
        table += "<h2>Game metrics</h2>" + _table(["metric", "value"], rows)
        data["metrics"] = asdict(summary.metrics)
    return _write(folder, heading, facts + table, data)


def comparison_report(folder: Path, title: str, runs: Sequence[SimulationRun], comparison: Comparison,
                      labels: tuple[str, str]) -> Path:
    """Write the report of a comparison, both sides overlaid in every plot; the page's path."""
    heading = f"{title}: {labels[0]} against {labels[1]}"
    pairing = "paired (the same seeds game by game)" if comparison.paired else "unpaired"
    facts = (f"<p>A = {html.escape(labels[0])}, B = {html.escape(labels[1])}; {comparison.games} games each, "
             f"{pairing}; master seed {runs[0].master_seed}. Highlighted rows are significant: adjusted "
             f"p &lt; 0.05 (Benjamini-Hochberg over {len(comparison.figures)} figures).</p>")
    rows = [[d.figure, f"{d.base:.3f}", f"{d.other:.3f}", f"{d.difference:+.3f}",
             "-" if d.low is None or math.isnan(d.low) else f"{d.low:+.3f} .. {d.high:+.3f}",
             p_text(d.p_value), d.test] for d in comparison.figures]
    table = _table(["figure", "A", "B", "B - A", "95% interval", "p", "test"], rows,
                   [d.significant for d in comparison.figures])
    common = {r.index for r in runs[0].records} & {r.index for r in runs[1].records}
    data = figure_data([(label, [r for r in run.records if r.index in common], summary)
                        for label, run, summary in zip(labels, runs, (comparison.base, comparison.other))])
    return _write(folder, heading, facts + table, data)
