"""The HTML report of `tournament --report DIR` (the `report` extra, as simulate's report).

DIR receives `index.html`, two SVG plots (each agent's rating with its 95% interval; the win
matrix as a heat map) and `figures.json`, the exact numbers the plots draw. As in report.py the
SVG files carry no date and fixed ids: the same games give the same bytes.
"""
from __future__ import annotations

import html
import json
from pathlib import Path

from snowrules.play.report import PAGE_START, REPORT_FORMAT, _table, save_plot
from snowrules.play.tournament import Tournament


def figure_data(t: Tournament) -> dict:
    return {"format": REPORT_FORMAT, "agents": t.agents,
            "ratings": [{"agent": r.agent, "mu": r.mu, "low": r.low, "high": r.high} for r in t.ratings],
            "win_matrix": t.matrix}


def _plots(data: dict, folder: Path) -> None:
    from snowrules.play.out_of_memory import room_for
    room_for("numpy")  # matplotlib loads it: refused before, not an exit inside OpenBLAS
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams["svg.hashsalt"] = "snowrules"
    ratings = list(reversed(data["ratings"]))  # the best at the top
    figure, ax = plt.subplots(figsize=(6, 0.5 * len(ratings) + 1.2))
    ys = range(len(ratings))
    mus = [r["mu"] for r in ratings]
    errors = [[r["mu"] - r["low"] for r in ratings], [r["high"] - r["mu"] for r in ratings]]
    ax.errorbar(mus, ys, xerr=errors, fmt="o", capsize=4, color="#1f77b4")
    ax.set_yticks(list(ys), [r["agent"] for r in ratings])
    ax.set_xlabel("rating (Plackett-Luce mu, 95% interval)")
    save_plot(figure, folder / "ratings.svg")

    agents, matrix = data["agents"], data["win_matrix"]
    size = 1.0 + 0.9 * len(agents)
    figure, ax = plt.subplots(figsize=(size + 1.5, size))
    values = [[float("nan") if v is None else v for v in row] for row in matrix]
    image = ax.imshow(values, vmin=0, vmax=1, cmap="RdBu")
    for a, row in enumerate(matrix):
        for b, value in enumerate(row):
            ax.text(b, a, "-" if value is None else f"{value:.2f}", ha="center", va="center")
    ax.set_xticks(range(len(agents)), agents, rotation=30, ha="right")
    ax.set_yticks(range(len(agents)), agents)
    ax.set_xlabel("against")
    figure.colorbar(image, ax=ax, label="score of the row against the column")
    save_plot(figure, folder / "win_matrix.svg")


_PAGE = PAGE_START + """img{{max-width:100%}}</style></head>
<body>
<h1>{title}</h1>
{body}
<h2>Plots</h2>
<figure><img src="ratings.svg" alt="ratings"><figcaption>Each agent's rating with its 95% interval
(mu &plusmn; 1.96 sigma).</figcaption></figure>
<figure><img src="win_matrix.svg" alt="win matrix"><figcaption>The row's score against the column: 1 for a
win, 1/2 for a tie, 0 for a loss, over every game and pair of seats.</figcaption></figure>
<p>The numbers drawn are in <a href="figures.json">figures.json</a>.</p>
</body></html>
"""


def tournament_report(folder: Path, title: str, t: Tournament) -> Path:
    """Write the report of a tournament; the page's path."""
    played = sum(len(s.records) for s in t.seatings)
    heading = f"{title}: tournament of {len(t.agents)} agents, {t.players} players"
    stopped = "; interrupted" if t.interrupted else ""
    facts = (f"<p>{len(t.seatings)} seatings &times; {t.games} games = {played} games{stopped}; master seed "
             f"{t.seed}; every seating plays the same game seeds.</p>")
    ratings = _table(["agent", "rating", "95% interval", "win rate", "95% interval", "seats"],
                     [[r.agent, f"{r.mu:.2f}", f"{r.low:.2f} .. {r.high:.2f}", f"{r.win_rate.value:.1%}",
                       f"{r.win_rate.low:.1%} - {r.win_rate.high:.1%}", str(r.seats)] for r in t.ratings])
    matrix = _table(["agent", *t.agents], [[a, *("-" if v is None else f"{v:.3f}" for v in row)]
                                           for a, row in zip(t.agents, t.matrix)])
    seat = _table(["agent", "first seat", "other seats", "difference", "95% interval"],
                  [[f.agent, "-" if f.first is None else f"{f.first.value:.1%}",
                    "-" if f.others is None else f"{f.others.value:.1%}",
                    "-" if f.difference is None else f"{f.difference:+.3f}",
                    "-" if f.low is None else f"{f.low:+.3f} .. {f.high:+.3f}"] for f in t.first_seat])
    body = (facts + "<h2>Ratings</h2>" + ratings + "<h2>Win matrix</h2>" + matrix
            + "<h2>First-seat effect</h2>" + seat)
    data = figure_data(t)
    folder.mkdir(parents=True, exist_ok=True)
    _plots(data, folder)
    (folder / "figures.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    page = folder / "index.html"
    page.write_text(_PAGE.format(title=html.escape(heading), body=body), encoding="utf-8")
    return page
