"""The balance report as one self-contained page (``solrec balance --html``; pure: returns a string).

The plots are drawn by matplotlib (the ``balance`` extra) into SVG and put inline: no script, no
font, no request leaves the page. The SVG is made repeatable (no date, a fixed hash salt for its ids,
text kept as text), so the same report gives the same bytes.
"""

from __future__ import annotations

import html
import io
from collections.abc import Mapping, Sequence
from typing import Any

from solrec.core import words

WIDTH = 5.0  # inches: read at about its size on a phone's 390 CSS px, and no larger than 46rem on a desk
COLOURS = ("#1f5fa8", "#c4501b")  # the first set, the second: distinct for colour-blind readers too
SET_NAMES = ("first set", "second set")


def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _svg(fig: Any, title: str) -> str:
    """A figure as inline SVG: a repeatable document (no date, fixed ids), titled for screen readers."""
    import matplotlib.pyplot as plt

    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")
    plt.close(fig)
    text = buf.getvalue()
    start = text.index("<svg")
    svg = text[start:]
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{_esc(title)}" ', 1)
    # sized by the page (the viewBox keeps its proportions), never wider than the screen
    import re

    svg = re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"', r"<svg\1", svg, count=1)
    svg = re.sub(r"\s*<metadata>.*?</metadata>", "", svg, count=1, flags=re.S)  # the RDF block: no date, no links
    return svg


def _setup() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({
        "svg.hashsalt": "solrec-balance", "svg.fonttype": "none", "font.size": 11,
        "font.family": "DejaVu Sans", "axes.spines.top": False, "axes.spines.right": False,
    })
    if "svg.id" in plt.rcParams:
        plt.rcParams["svg.id"] = None
    return plt


def _win_rates(plt: Any, data: Mapping[str, Any]) -> str:
    sets = data["sets"]
    seats = [f"{s['player']} (seat {s['seat']})" for s in sets[0]["seats"]]
    fig, ax = plt.subplots(figsize=(WIDTH, 0.6 + 0.55 * len(seats) * len(sets)))
    height = 0.8 / len(sets)
    for at, stats in enumerate(sets):
        rates = [s["win_rate"]["mean"] * 100 for s in stats["seats"]]
        low = [r - s["win_rate"]["interval"][0] * 100 for r, s in zip(rates, stats["seats"])]
        high = [s["win_rate"]["interval"][1] * 100 - r for r, s in zip(rates, stats["seats"])]
        ys = [i + (at - (len(sets) - 1) / 2) * height for i in range(len(seats))]
        ax.barh(ys, rates, height=height * 0.9, color=COLOURS[at], label=f"{SET_NAMES[at]}",
                xerr=[low, high], capsize=3, error_kw={"ecolor": "#222", "elinewidth": 1})
    ax.set_yticks(range(len(seats)), seats)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("games won (%), 95% intervals")
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, frameon=False)
    return _svg(fig, "win rate of each seat, each set, with 95% intervals")


def _boxes(plt: Any, groups: Sequence[tuple[str, Sequence[Mapping[str, Any]]]], xlabel: str, title: str) -> str:
    """Box plots from the report's quantiles: whiskers 5% and 95%, box 25% to 75%, the median, the mean."""
    fig, ax = plt.subplots(figsize=(WIDTH, 0.6 + 0.5 * sum(len(g) for _, g in groups)))
    stats, colours, labels = [], [], []
    for name, described in groups:
        for at, d in enumerate(described):
            q = d["quantiles"]
            if not q:
                continue
            stats.append({"whislo": q["5"], "q1": q["25"], "med": q["50"], "q3": q["75"], "whishi": q["95"],
                          "mean": d["mean"], "fliers": [], "label": f"{name}, {SET_NAMES[at]}" if name else SET_NAMES[at]})
            colours.append(COLOURS[at])
    if stats:
        boxes = ax.bxp(stats, orientation="horizontal", showmeans=True, patch_artist=True, widths=0.6,
                       meanprops={"marker": "D", "markerfacecolor": "white", "markeredgecolor": "#222", "markersize": 5},
                       medianprops={"color": "#222"})
        for patch, colour in zip(boxes["boxes"], colours):
            patch.set_facecolor(colour)
            patch.set_alpha(0.75)
        labels = [s["label"] for s in stats]
        ax.set_yticks(range(1, len(labels) + 1), labels)
        ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    return _svg(fig, title)


def _differences(plt: Any, data: Mapping[str, Any]) -> str | None:
    """The rate differences (percentage points) with their intervals, and the length's relative change."""
    rows = []
    for d in data.get("differences", []):
        kind = d["what"].partition(":")[0]
        if kind in ("win", "bot", "drawn", "stuck", "ending"):
            rows.append((d["label"], d["difference"] * 100, d["interval"][0] * 100, d["interval"][1] * 100, d["covers_zero"]))
        elif kind == "length" and "relative" in d:
            rows.append(("game length (relative, %)", d["relative"] * 100, d["relative_interval"][0] * 100,
                         d["relative_interval"][1] * 100, d["covers_zero"]))
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(WIDTH, 0.7 + 0.45 * len(rows)))
    for y, (label, value, low, high, covers) in enumerate(rows):
        colour = "#555" if covers else COLOURS[1]
        ax.plot([low, high], [y, y], color=colour, linewidth=2)
        ax.plot([value], [y], marker="o", color=colour)
    ax.axvline(0, color="#222", linewidth=0.8)
    ax.set_yticks(range(len(rows)), [_short(r[0]) for r in rows])
    ax.invert_yaxis()
    ax.set_xlabel("second - first (points; length: %), 95% intervals")
    return _svg(fig, "differences between the sets with 95% intervals")


def _short(text: str, limit: int = 34) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def page(data: Mapping[str, Any]) -> str:
    """The whole page of a report (the JSON of ``solrec balance``); a strength ladder's (``rungs``):
    its answer, then each strength's report."""
    plt = _setup()
    title = f"{data['game']} balance: {data['change']}"
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{_esc(title)}</title>", f"<style>{STYLE}</style>", "</head>", "<body>", "<main>",
           f"<h1>{_esc(data['game'])} balance</h1>"]
    if "rungs" in data:
        ladder = data["ladder"]
        out.append(f'<p class="run">A strength ladder: the same comparison ({_esc(data["change"])}) with each bot '
                   f"at every seat in turn: {_esc(', '.join(ladder['bots']))}; seed {_esc(data['seed'])}.</p>")
        out.append('<section class="verdict"><h2>Verdict</h2>' + "".join(f"<p>{_esc(v)}</p>" for v in data["verdict"])
                   + "</section>")
        for rung in data["rungs"]:
            out.append(f"<section><h2>Bot {_esc(rung['bots'][0])} at every seat</h2>")
            out += _report(plt, {**data, **rung}, level=3)
            out.append("</section>")
    else:
        out += _report(plt, data)
    out += ["</main>", "</body>", "</html>"]
    return "\n".join(out) + "\n"


def _report(plt: Any, data: Mapping[str, Any], level: int = 2) -> list[str]:
    """One comparison's part of the page: the run, the sets, the verdict (and the sequential test),
    the figures and the tables."""
    sets = data["sets"]
    figures = [("Win rate by seat", _win_rates(plt, data)),
               ("Game length in moves", _boxes(plt, [("", [s["length"] for s in sets])], "moves",
                                                "game length in moves, each set"))]
    seats = [(f"{seat['player']}", [s["seats"][i]["score"] for s in sets]) for i, seat in enumerate(sets[0]["seats"])]
    figures.append(("Scores by seat", _boxes(plt, seats, "final score", "scores of each seat, each set")))
    diff = _differences(plt, data)
    if diff is not None:
        figures.insert(0, ("Differences", diff))
    out = [f'<p class="run">{_esc(data["games"])} games per set, paired (game <i>k</i> of each set played with the same '
           f"seeds); players {_esc(', '.join(data['players']))}; bots {_esc(', '.join(data['bots']))}, rotated one seat "
           f"a game; seed {_esc(data['seed'])}.</p>"]
    out.append("<dl class=\"sets\">")
    for s in sets:
        opts = ", ".join(f"{k}={words.value(v)}" for k, v in s["options"].items()) or "the defaults"
        out.append(f"<dt>{_esc(s['name'])} set</dt><dd>{_esc(opts)}</dd>")
    out.append("</dl>")
    h = f"h{level}"
    out.append(f'<section class="verdict"><{h}>Verdict</{h}>' + "".join(f"<p>{_esc(v)}</p>" for v in data["verdict"])
               + "</section>")
    if "sprt" in data:
        from .sprt import words as sprt_words

        out.append(f'<section class="verdict"><{h}>Sequential test</{h}><p>{_esc(sprt_words(data["sprt"]))}</p></section>')
    for caption, svg in figures:
        out.append(f'<figure><figcaption>{_esc(caption)}</figcaption>{svg}</figure>')
    if "differences" in data:
        out.append(_differences_table(data["differences"], level))
    for s in sets:
        out.append(_set_table(s, level))
    if data.get("metrics"):
        out.append(_metrics_table(data["metrics"], len(sets), level))
    return out


def _differences_table(diffs: Sequence[Mapping[str, Any]], level: int = 2) -> str:
    rows = []
    for d in diffs:
        rate = d["what"].partition(":")[0] in ("win", "bot", "drawn", "stuck", "ending")

        def num(x: float, signed: bool = False) -> str:
            if rate:
                return f"{x * 100:+.1f}" if signed else _pct(x)
            return f"{x:+g}" if signed else f"{x:g}"

        unit = " points" if rate else ""
        mark = "" if d["covers_zero"] else ' class="changed"'
        interval = f"{num(d['interval'][0], True)} to {num(d['interval'][1], True)}{unit}"
        rows.append(f"<tr{mark}><th scope=\"row\">{_esc(d['label'])}</th><td>{num(d['a'])}</td><td>{num(d['b'])}</td>"
                    f"<td>{num(d['difference'], True)}{unit}</td><td>{_esc(interval)}</td></tr>")
    h = f"h{level}"
    return (f'<section><{h}>Differences (second set - first set)</{h}><p>95% intervals from a paired bootstrap; a '
            'highlighted row\'s interval excludes 0.</p><div class="scroll" tabindex="0" role="region" aria-label="differences"><table><thead><tr><th scope="col">what</th>'
            '<th scope="col">first</th><th scope="col">second</th><th scope="col">difference</th>'
            '<th scope="col">95% interval</th></tr></thead><tbody>' + "".join(rows) + "</tbody></table></div></section>")


def _set_table(s: Mapping[str, Any], level: int = 2) -> str:
    rows = []
    length = s["length"]
    q = length["quantiles"]
    rows.append(f"<tr><th scope=\"row\">game length (moves)</th><td>{length['mean']:g}</td><td>{length['sd']:g}</td>"
                f"<td>{'/'.join(f'{q[k]:g}' for k in ('5', '25', '50', '75', '95')) if q else ''}</td></tr>")
    for seat in s["seats"]:
        sc = seat["score"]
        sq = sc["quantiles"]
        w = seat["win_rate"]
        rows.append(f"<tr><th scope=\"row\">{_esc(seat['player'])} (seat {seat['seat']}) score</th><td>{sc['mean']:g}</td>"
                    f"<td>{sc['sd']:g}</td><td>{'/'.join(f'{sq[k]:g}' for k in ('5', '25', '50', '75', '95')) if sq else ''}"
                    f"</td></tr>")
        rows.append(f"<tr><th scope=\"row\">{_esc(seat['player'])} (seat {seat['seat']}) wins</th><td>{_pct(w['mean'])}</td>"
                    f"<td></td><td>{_pct(w['interval'][0])} to {_pct(w['interval'][1])}</td></tr>")
    for b in s["bots"]:
        rows.append(f"<tr><th scope=\"row\">bot {_esc(b['bot'])} wins</th><td>{_pct(b['win_rate']['mean'])}</td><td></td>"
                    f"<td>{_pct(b['win_rate']['interval'][0])} to {_pct(b['win_rate']['interval'][1])}</td></tr>")
    for e in s["endings"]:
        rows.append(f"<tr><th scope=\"row\">ended: {_esc(e['ending'])}</th><td>{_pct(e['share']['mean'])}</td>"
                    f"<td></td><td>{e['games']} games</td></tr>")
    rows.append(f"<tr><th scope=\"row\">stuck games</th><td>{s['stuck']}</td><td></td><td></td></tr>")
    h = f"h{level}"
    return (f"<section><{h}>{_esc(s['name'])} set: {s['games']} games</{h}><div class=\"scroll\" tabindex=\"0\" role=\"region\" "
            f"aria-label=\"{_esc(s['name'])} set\"><table><thead><tr>"
            "<th scope=\"col\">what</th><th scope=\"col\">mean</th><th scope=\"col\">spread (sd)</th>"
            "<th scope=\"col\">quantiles 5/25/50/75/95 or interval</th></tr></thead><tbody>" + "".join(rows)
            + "</tbody></table></div></section>")


def _metrics_table(metrics: Sequence[Mapping[str, Any]], sets: int, level: int = 2) -> str:
    """Ludii's measures (docs/balance.md): each set's value and interval, the difference and its interval."""

    def num(x: Any) -> str:
        return "n/a" if x is None else f"{x:g}"

    def span(iv: Any) -> str:
        return "" if not iv else f"{iv[0]:g} to {iv[1]:g}"

    head = "".join(f'<th scope="col">{SET_NAMES[i]}</th><th scope="col">95% interval</th>' for i in range(sets))
    if sets == 2:
        head += '<th scope="col">difference</th><th scope="col">95% interval</th>'
    rows = []
    for m in metrics:
        mark = ' class="changed"' if sets == 2 and not m.get("covers_zero", True) else ""
        cells = "".join(f"<td>{num(s['value'])}</td><td>{_esc(span(s['interval']))}</td>" for s in m["sets"])
        if sets == 2:
            cells += f"<td>{num(m['difference'])}</td><td>{_esc(span(m['interval']))}</td>"
        what = m["what"] + (f" (evaluation: {m['evaluation']})" if "evaluation" in m else "")
        rows.append(f'<tr{mark}><th scope="row"><b>{_esc(m["name"])}</b>: {_esc(what)}</th>{cells}</tr>')
    return (f'<section><h{level}>Ludii\'s measures</h{level}><p>Each game\'s number as docs/balance.md defines it, the mean over '
            'the games; 95% intervals from the paired bootstrap.</p><div class="scroll" tabindex="0" role="region" '
            'aria-label="Ludii\'s measures"><table><thead><tr><th scope="col">measure</th>' + head + "</tr></thead><tbody>"
            + "".join(rows) + "</tbody></table></div></section>")


STYLE = """
body { font-family: system-ui, sans-serif; margin: 0; color: #111; background: #fff; line-height: 1.4; }
main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin: 0.2rem 0 0.5rem; }
h2 { font-size: 1.15rem; margin: 1.2rem 0 0.4rem; }
.run { color: #333; }
dl.sets { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 0.8rem; }
dl.sets dt { font-weight: 600; }
dl.sets dd { margin: 0; overflow-wrap: anywhere; }
.verdict { border-left: 4px solid #1f5fa8; padding: 0.2rem 0.8rem; background: #f2f6fb; }
.verdict p { font-size: 1.05rem; overflow-wrap: anywhere; }
figure { margin: 1rem 0; }
figcaption { font-weight: 600; margin-bottom: 0.3rem; }
figure svg { display: block; width: 100%; max-width: 40rem; height: auto; }
@media (max-width: 40rem) { th[scope=row] { min-width: 8rem; } table { font-size: 0.85rem; } }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; font-size: 0.9rem; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25rem 0.5rem; text-align: right; vertical-align: top; }
th[scope=row], thead th:first-child { text-align: left; font-weight: normal; max-width: 28rem; }
tr.changed th, tr.changed td { background: #fdf0e8; font-weight: 600; }
"""
