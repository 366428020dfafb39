"""The HTML reports of `sweep --report DIR` and `tune --report DIR` (the `report` extra).

A sweep of one constant draws a line per figure shown (the terminal's, `--figure`) against it,
with its 95% interval as a band; a sweep of two draws a heat map per figure, its value written in
each cell; the page's table has every figure. A tuning draws each
candidate's objective in the order tried and the re-run candidates with their intervals. DIR
also receives `figures.json`, the exact numbers drawn (the command's --json object). As in
report.py the SVG files carry no date and fixed ids: the same games give the same bytes.
"""
from __future__ import annotations

import html
import json
import math
from pathlib import Path

from snowrules.play.report import PAGE_START, _table, save_plot
from snowrules.play.sweep import Sweep
from snowrules.play.tune import Tuning

COLUMNS = 3


def _pyplot():
    from snowrules.play.out_of_memory import room_for
    room_for("numpy")  # matplotlib loads it: refused before, not an exit inside OpenBLAS
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams["svg.hashsalt"] = "snowrules"
    return plt


def _nan(value) -> float:
    return math.nan if value is None else value


def _label(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _plots(data: dict, names: list[str], folder: Path) -> None:
    plt = _pyplot()
    axes, points = data["axes"], data["points"]
    columns = min(COLUMNS, len(names))
    rows = math.ceil(len(names) / columns)
    figure, grid = plt.subplots(rows, columns, figsize=(4.2 * columns, 3.2 * rows), squeeze=False)
    first = axes[0]
    xs = list(range(len(first["values"])))
    for k in range(rows * columns):
        ax = grid[k // columns][k % columns]
        if k >= len(names):
            ax.set_visible(False)
            continue
        name = names[k]
        ax.set_title(name.replace("_", " "))
        if len(axes) == 1:
            got = [p["figures"][name] for p in points]
            shown = xs[:len(got)]
            ax.plot(shown, [_nan(f["value"]) for f in got], marker="o", color="#1f77b4")
            ax.fill_between(shown, [_nan(f["low"]) for f in got], [_nan(f["high"]) for f in got],
                            color="#1f77b4", alpha=0.2, linewidth=0)
            if name == "first_player_edge":
                ax.axhline(0, color="grey", linestyle=":")
            ax.set_xticks(xs, [_label(v) for v in first["values"]], rotation=45 if len(xs) > 12 else 0)
            ax.set_xlabel(first["name"])
        else:
            second = axes[1]
            values = [[math.nan] * len(second["values"]) for _ in first["values"]]
            for p in points:
                i = first["values"].index(p["constants"][first["name"]])
                j = second["values"].index(p["constants"][second["name"]])
                values[i][j] = _nan(p["figures"][name]["value"])
            image = ax.imshow(values, origin="lower", aspect="auto", cmap="viridis")
            small = len(first["values"]) * len(second["values"]) <= 64
            for i, row in enumerate(values):
                for j, value in enumerate(row):
                    if small and not math.isnan(value):  # dark text on the map's bright end
                        colour = "black" if image.norm(value) > 0.6 else "white"
                        ax.text(j, i, f"{value:.2g}", ha="center", va="center", fontsize="x-small", color=colour)
            ax.set_xticks(range(len(second["values"])), [_label(v) for v in second["values"]])
            ax.set_yticks(range(len(first["values"])), [_label(v) for v in first["values"]])
            ax.set_xlabel(second["name"])
            ax.set_ylabel(first["name"])
            figure.colorbar(image, ax=ax)
    save_plot(figure, folder / "figures.svg")


_PAGE = PAGE_START + """img{{max-width:100%}}</style></head>
<body>
<h1>{title}</h1>
{body}
<figure><img src="{image}" alt="{alt}"><figcaption>{caption}</figcaption></figure>
<p>The numbers drawn are in <a href="figures.json">figures.json</a>.</p>
</body></html>
"""


def _write(folder: Path, title: str, body: str, data: dict, image: str, alt: str, caption: str) -> Path:
    (folder / "figures.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    page = folder / "index.html"
    page.write_text(_PAGE.format(title=html.escape(title), body=body, image=image, alt=alt, caption=caption),
                    encoding="utf-8")
    return page


def _cell(f: dict) -> str:
    if f["value"] is None:
        return "-"
    if f["low"] is None:
        return f"{f['value']:.3g}"
    return f"{f['value']:.3g} ({f['low']:.3g}..{f['high']:.3g})"


def sweep_report(folder: Path, title: str, result: Sweep, data: dict, shown: list[str]) -> Path:
    """Write the report of a sweep (`data`: its --json object): the table of every figure, the
    plots of those `shown` (the terminal's: a dozen plots cost seconds); the page's path."""
    folder.mkdir(parents=True, exist_ok=True)
    _plots(data, shown, folder)
    names = [a["name"] for a in data["axes"]]
    heading = f"{title}: sweep of {', '.join(names)}"
    facts = (f"<p>{len(data['points'])} points &times; {data['games']} games, {data['players']} players, agents "
             f"{html.escape(', '.join(data['agents']))}; master seed {data['seed']}, the same seeds at every point"
             f"{'; interrupted' if result.interrupted else ''}. Each cell: the figure (its 95% interval).</p>")
    rows = [[*(_label(p["constants"][n]) for n in names), *(_cell(p["figures"][f]) for f in data["figures"])]
            for p in data["points"]]
    table = _table([*names, *(f.replace("_", " ") for f in data["figures"])], rows)
    one = len(names) == 1
    caption = ("Each figure against the constant, its 95% interval shaded." if one else
               f"Each figure as a heat map: {html.escape(names[0])} up, {html.escape(names[1])} across.")
    return _write(folder, heading, facts + table, data, "figures.svg", "each figure against the constants", caption)


def tune_report(folder: Path, title: str, result: Tuning) -> Path:
    """Write the report of a tuning; the page's path."""
    folder.mkdir(parents=True, exist_ok=True)
    data = {"objective": result.goal.text, "axes": [a.name for a in result.axes],
            "candidates": [{"values": list(c.values), "objective": None if math.isnan(c.objective) else c.objective}
                           for c in result.candidates],
            "rechecked": [{"values": list(c.values), "objective": c.recheck, "low": c.low, "high": c.high}
                          for c in result.rechecked]}
    plt = _pyplot()
    figure, ax = plt.subplots(figsize=(7, 3.6))
    tried = [_nan(c["objective"]) for c in data["candidates"]]
    ax.plot(range(1, len(tried) + 1), tried, "o", color="#1f77b4", label="search (each candidate, first try)")
    for c in data["rechecked"]:
        k = [d["values"] for d in data["candidates"]].index(c["values"]) + 1
        ax.errorbar([k], [c["objective"]], yerr=[[c["objective"] - c["low"]], [c["high"] - c["objective"]]],
                    fmt="s", color="#d62728", capsize=4)
    ax.plot([], [], "s", color="#d62728", label="fresh seeds, 95% interval")
    ax.set_xlabel("candidate, in the order tried")
    ax.set_ylabel("objective")
    ax.legend(fontsize="small")
    save_plot(figure, folder / "objective.svg")
    heading = f"{title}: tuning {', '.join(data['axes'])}"
    direction = "maximise" if result.maximize else "minimise"
    facts = (f"<p>{direction} <code>{html.escape(result.goal.text)}</code>; {len(result.candidates)} candidates "
             f"({html.escape(result.sampler)}) &times; {result.games} games, master seed {result.seed}; the best "
             f"{len(result.rechecked)} played again on master seed {result.seed + 1}.</p>")
    rows = [[", ".join(_label(v) for v in c["values"]), f"{c['objective']:.4g}", f"{c['low']:.4g} .. {c['high']:.4g}"]
            for c in data["rechecked"]]
    table = _table([", ".join(data["axes"]), "objective (fresh seeds)", "95% interval"], rows)
    return _write(folder, heading, facts + table, data, "objective.svg", "objective of each candidate",
                  "Each candidate's objective on the search's games; the re-run ones on fresh seeds with "
                  "their 95% bootstrap interval.")
