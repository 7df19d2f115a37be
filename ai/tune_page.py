"""The trials of ``solrec tune`` as one self-contained page (``--html``; pure: returns a string).

The plots are matplotlib's (the ``balance`` extra), drawn as the balance page draws them
(``balance_page``: inline SVG, no date, fixed ids, text as text): the measure of each trial with its
95% interval against the trial's number, and against each varied option's value; the target as a
line. Text at 13 points on a figure drawn at about the width a phone shows it: axis labels of 12 CSS
px and more. One unit per axis.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .balance_page import COLOURS, STYLE, WIDTH, _esc, _setup, _svg

FONT = 13  # points; the figure is shown at about its drawn size, so 13 pt reads as >= 12 CSS px


def _plot(plt: Any, data: Mapping[str, Any], x_of: Any, xlabel: str, title: str) -> str:
    goal = data["goal"]
    rows = [h for h in data["history"] if h["value"] is not None]
    fig, ax = plt.subplots(figsize=(WIDTH, 3.2))
    best = data["best"]["trial"]
    for h in rows:
        x = x_of(h)
        iv = h["interval"] or [h["value"], h["value"]]
        colour = COLOURS[1] if h["trial"] == best else COLOURS[0]
        ax.plot([x, x], iv, color=colour, linewidth=1.5)
        ax.plot([x], [h["value"]], marker="D" if h["trial"] == best else "o", color=colour, markersize=6)
    if "target" in goal:
        ax.axhline(goal["target"], color="#222", linewidth=1, linestyle="--", label=f"target {goal['target']:g}")
        ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(_unit(goal["metric"]))
    return _svg(fig, title)


def _unit(metric: str) -> str:
    if metric in ("length", "duration-moves"):
        return "length (moves a game)"
    if metric == "duration-turns":
        return "turns a game"
    if metric in ("first-seat",) or metric.startswith("advantage:") or metric in (
            "completion", "timeouts", "drawishness", "balance", "decision-moves", "decisiveness", "repetition"):
        return f"{metric} (share of games, 0 to 1)" if metric in ("first-seat", "completion", "timeouts", "drawishness") \
            or metric.startswith("advantage:") else f"{metric} (0 to 1)"
    return metric


def page(data: Mapping[str, Any]) -> str:
    plt = _setup()
    plt.rcParams.update({"font.size": FONT, "axes.labelsize": FONT, "xtick.labelsize": FONT - 1,
                         "ytick.labelsize": FONT - 1, "legend.fontsize": FONT - 1})
    goal = data["goal"]
    aim = f"{goal['metric']} = {goal['target']:g}" if "target" in goal else f"{goal['metric']}, as small as possible"
    title = f"{data['game']} tune: {aim}"
    figures = [("The measure of each trial, in the order tried (95% intervals; the best: a diamond)",
                _plot(plt, data, lambda h: h["trial"], "trial (in the order tried)", f"{goal['metric']} of each trial"))]
    for v in data["vary"]:
        key = v["key"]
        figures.append((f"The measure against {key}",
                        _plot(plt, data, lambda h, key=key: h["options"][key], f"{key} (the option's value)",
                              f"{goal['metric']} against {key}")))
    best = data["best"]
    chosen = ", ".join(f"{k}={v}" for k, v in best["options"].items())
    iv = best["interval"]
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{_esc(title)}</title>", f"<style>{STYLE}</style>", "</head>", "<body>", "<main>",
           f"<h1>{_esc(title)}</h1>",
           f'<p class="run">{_esc(data["trials"])} trials ({_esc(data["sampler"])}) of {_esc(data["games_per_trial"])} games '
           f"each, game <i>k</i> of every trial played with the same seeds; players {_esc(', '.join(data['players']))}; "
           f"bots {_esc(', '.join(data['bots']))}; seed {_esc(data['seed'])}.</p>",
           '<section class="verdict"><h2>Best</h2>'
           f"<p>{_esc(chosen)} (trial {best['trial']}): {_esc(goal['metric'])} {_esc(_num(best['value']))}"
           + (f" (95% interval {iv[0]:g} to {iv[1]:g})" if iv else "") + "</p></section>"]
    for caption, svg in figures:
        out.append(f"<figure><figcaption>{_esc(caption)}</figcaption>{svg}</figure>")
    rows = []
    for h in data["history"]:
        hv = h["interval"]
        mark = ' class="changed"' if h["trial"] == best["trial"] else ""
        rows.append(f"<tr{mark}><th scope=\"row\">{h['trial']}</th><td>{_esc(', '.join(f'{k}={v}' for k, v in h['options'].items()))}"
                    f"</td><td>{_esc(_num(h['value']))}</td><td>{_esc(f'{hv[0]:g} to {hv[1]:g}' if hv else '')}</td></tr>")
    out.append('<section><h2>Trials</h2><div class="scroll" tabindex="0" role="region" aria-label="trials"><table><thead><tr>'
               '<th scope="col">trial</th><th scope="col">options</th><th scope="col">'
               f"{_esc(goal['metric'])}</th><th scope=\"col\">95% interval</th></tr></thead><tbody>"
               + "".join(rows) + "</tbody></table></div></section>")
    out += ["</main>", "</body>", "</html>"]
    return "\n".join(out) + "\n"


def _num(x: Any) -> str:
    return "n/a" if x is None else f"{x:g}"
