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

# inches; 72 SVG units each: the page shows a plot at most 30rem wide and as wide as the screen on a
# phone (390 CSS px less the margins: 366 px), so its 12-unit labels are at least 12 px there (and
# about 16 px on a desk); the layout keeps every label inside the figure (constrained)
WIDTH = 4.6
FONT = 13  # points, drawn at 1 px each: 12 px or more once a phone scales the plot to its width
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
        "svg.hashsalt": "solrec-balance", "svg.fonttype": "none", "font.size": FONT,
        # every text's size set here: matplotlib's settings are the process's, and another page may have
        # drawn in this process with smaller ticks (the tune page)
        "axes.labelsize": FONT, "axes.titlesize": FONT, "xtick.labelsize": FONT, "ytick.labelsize": FONT,
        "legend.fontsize": FONT, "figure.titlesize": FONT,
        "font.family": "DejaVu Sans", "axes.spines.top": False, "axes.spines.right": False,
    })
    if "svg.id" in plt.rcParams:
        plt.rcParams["svg.id"] = None
    return plt


def _win_rates(plt: Any, data: Mapping[str, Any]) -> str:
    sets = data["sets"]
    seats = [f"{s['player']} (seat {s['seat']})" for s in sets[0]["seats"]]
    fig, ax = plt.subplots(figsize=(WIDTH, 1.2 + 0.55 * len(seats) * len(sets)), layout="constrained")
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
    fig, ax = plt.subplots(figsize=(WIDTH, 0.9 + 0.5 * sum(len(g) for _, g in groups)), layout="constrained")
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


def _differences(plt: Any, data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The changes with their intervals, one unit an axis: the rates' in percentage points (each seat's
    win rate, a bot's where bots differ, draws, stuck games, ways of ending), the length's in per cent."""
    from .verdict import is_rate, shown_differences

    rates, length = [], []
    for d in shown_differences(data):
        kind = d["what"].partition(":")[0]
        if is_rate(d["what"]):
            name = (f"seat {d['what'].partition(':')[2]}" if kind == "win" else "draws" if kind == "drawn"
                    else "stuck games" if kind == "stuck" else d["label"].replace(" win rate", ""))
            rates.append((name, d["difference"] * 100, d["interval"][0] * 100, d["interval"][1] * 100, d["covers_zero"]))
        elif kind == "length" and "relative" in d:
            length.append(("game length", d["relative"] * 100, d["relative_interval"][0] * 100,
                           d["relative_interval"][1] * 100, d["covers_zero"]))
    out = []
    if rates:
        out.append(("Change in win rates (second set − first)",
                    _intervals(plt, rates, "percentage points, 95% intervals", "changes in the rates with 95% intervals")))
    if length:
        out.append(("Change in game length (second set − first)",
                    _intervals(plt, length, "per cent of the first set's length, 95% interval",
                               "change in game length with its 95% interval")))
    return out


def _intervals(plt: Any, rows: Sequence[tuple[str, float, float, float, bool]], xlabel: str, title: str) -> str:
    fig, ax = plt.subplots(figsize=(WIDTH, 0.9 + 0.45 * len(rows)), layout="constrained")
    for y, (_, value, low, high, covers) in enumerate(rows):
        colour = "#555" if covers else COLOURS[1]
        ax.plot([low, high], [y, y], color=colour, linewidth=2)
        ax.plot([value], [y], marker="o", color=colour)
    ax.axvline(0, color="#222", linewidth=0.8)
    ax.set_yticks(range(len(rows)), [_short(r[0]) for r in rows])
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlabel(xlabel)
    return _svg(fig, title)


def _short(text: str, limit: int = 24) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def page(data: Mapping[str, Any]) -> str:
    """The whole page of a report (the JSON of ``solrec balance``): the verdict first, a sentence per
    question; a strength ladder's (``rungs``): its answer, then each strength's report."""
    plt = _setup()
    title = f"{data['game']} balance: {data['change']}"
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{_esc(title)}</title>", f"<style>{STYLE}</style>", "</head>", "<body>", "<main>",
           f"<h1>{_esc(data['game'])} balance: {_esc(data['change'].replace(' -> ', ' → '))}</h1>"]
    if "rungs" in data:
        ladder = data["ladder"]
        out.append('<section class="verdict"><h2>Verdict</h2>' + "".join(f"<p>{_esc(v[:1].upper() + v[1:])}</p>" for v in data["verdict"])
                   + "</section>")
        out.append(f'<p class="run">A strength ladder: the same comparison ({_esc(data["change"])}) with each bot '
                   f"at every seat in turn: {_esc(', '.join(ladder['bots']))}; seed {_esc(data['seed'])}.</p>")
        for at, rung in enumerate(data["rungs"], start=1):
            out.append(f"<section><h2>Bot {_esc(rung['bots'][0])} at every seat</h2>")
            out += _report(plt, {**data, **rung}, level=3, prefix=f"r{at}-")
            out.append("</section>")
    else:
        out += _report(plt, data)
    out += ["</main>", "</body>", "</html>"]
    return "\n".join(out) + "\n"


def _marked(text: str, prefix: str) -> str:
    """A sentence escaped, its footnote marks (``[1]``) linked to the footnotes."""
    import re

    return re.sub(r"\[(\d+)\]", lambda m: f'<sup><a href="#{prefix}rule-{m.group(1)}" aria-label="rule '
                  f'{m.group(1)}">{m.group(1)}</a></sup>', _esc(text))


def _footnotes(notes: Sequence[Mapping[str, Any]], prefix: str) -> str:
    """The rules the score lines cite, in full, numbered as the verdict and the table mark them."""
    if not notes:
        return ""
    items = "".join(f'<li id="{prefix}rule-{n["mark"]}" value="{n["mark"]}">{_esc(n["rule"])}</li>' for n in notes)
    return f'<p class="notes">The rules the score lines cite:</p><ol class="notes" aria-label="the rules cited">{items}</ol>'


def _report(plt: Any, data: Mapping[str, Any], level: int = 2, prefix: str = "") -> list[str]:
    """One comparison's part of the page: the verdict (a sentence per question, the rules cited as
    footnotes), the sequential test, the run and its sets, the figures and the tables."""
    from .verdict import shown_differences

    sets = data["sets"]
    h = f"h{level}"
    notes = data.get("footnotes", [])
    out = [f'<section class="verdict"><{h}>Verdict</{h}>'
           + "".join(f"<p>{_marked(v, prefix)}</p>" for v in data["verdict"]) + _footnotes(notes, prefix) + "</section>"]
    if "sprt" in data:
        from .sprt import words as sprt_words

        out.append(f'<section class="verdict"><{h}>Sequential test</{h}><p>{_esc(sprt_words(data["sprt"]))}</p></section>')
    out.append(f'<p class="run">{_esc(data["games"])} games per set, paired (game <i>k</i> of each set played with the '
               f"same seeds); players {_esc(', '.join(data['players']))}; bots {_esc(', '.join(data['bots']))}, rotated "
               f"one seat a game; seed {_esc(data['seed'])}.</p>")
    out.append("<dl class=\"sets\">")
    for s in sets:
        opts = ", ".join(f"{k}={words.value(v)}" for k, v in s["options"].items()) or "the defaults"
        out.append(f"<dt>{_esc(s['name'])} set</dt><dd>{_esc(opts)}</dd>")
    out.append("</dl>")
    figures = _differences(plt, data) if "differences" in data else []
    figures += [("Win rate by seat", _win_rates(plt, data)),
                ("Game length in moves", _boxes(plt, [("", [s["length"] for s in sets])], "moves",
                                                 "game length in moves, each set"))]
    seats = [(f"{seat['player']}", [s["seats"][i]["score"] for s in sets]) for i, seat in enumerate(sets[0]["seats"])]
    figures.append(("Scores by seat", _boxes(plt, seats, "final score (points)", "scores of each seat, each set")))
    for caption, svg in figures:
        out.append(f"<figure><figcaption>{_esc(caption)}</figcaption>{svg}</figure>")
    if "differences" in data:
        out.append(_differences_table(shown_differences(data), notes, level, prefix))
    one_bot = len(set(data["bots"])) == 1
    for s in sets:
        out.append(_set_table(s, level, one_bot))
    if data.get("metrics"):
        out.append(_metrics_table(data["metrics"], len(sets), level))
    return out


def _differences_table(diffs: Sequence[Mapping[str, Any]], notes: Sequence[Mapping[str, Any]], level: int = 2,
                       prefix: str = "") -> str:
    """What changed, three columns a phone shows whole: what, first → second, the change and its interval."""
    from .verdict import difference_cells, marks_of, named

    marks = marks_of(notes)
    rows = []
    for d in diffs:
        values, change, between, relative = difference_cells(d)
        mark = "" if d["covers_zero"] else ' class="changed"'
        if relative is not None:
            change, between = f"{change} ({relative[0]})", f"{between} ({relative[1]})"
        rows.append(f'<tr{mark}><th scope="row">{_marked(named(d["what"], d["label"], marks), prefix)}</th>'
                    f"<td>{_esc(values)}</td><td>{_esc(change)}<br><span class=\"iv\">{_esc(between)}</span></td></tr>")
    h = f"h{level}"
    return (f"<section><{h}>Differences (second set − first)</{h}><p>Each change with its 95% interval (a paired "
            "bootstrap), under it; a highlighted row's interval excludes 0. The rules are the verdict's footnotes.</p>"
            '<table><thead><tr><th scope="col">what</th><th scope="col">first → second</th>'
            '<th scope="col">change, 95% interval</th></tr></thead><tbody>' + "".join(rows) + "</tbody></table></section>")


def _set_table(s: Mapping[str, Any], level: int = 2, one_bot: bool = False) -> str:
    """A set's figures: what, the mean (or rate), its spread (sd and quantiles, or the interval)."""
    from .verdict import mean_places, number, points, rate_with_interval, spread

    def quantiles(described: Mapping[str, Any], places: int) -> str:
        q = described["quantiles"]
        return ("" if not q else f"median {number(q['50'], places)}; middle half {number(q['25'], places)} to "
                f"{number(q['75'], places)}; 90% from {number(q['5'], places)} to {number(q['95'], places)}")

    rows = []
    length = s["length"]
    at = mean_places(length, s["games"])
    rows.append(f"<tr><th scope=\"row\">game length (moves)</th><td>{number(length['mean'], at)}</td>"
                f"<td>sd {spread(length['sd'])}; {quantiles(length, at)}</td></tr>")
    for seat in s["seats"]:
        sc = seat["score"]
        at = mean_places(sc, s["games"])
        rate, between = rate_with_interval(seat["win_rate"])
        who = f"{_esc(seat['player'])} (seat {seat['seat']})"
        rows.append(f"<tr><th scope=\"row\">{who} score</th><td>{number(sc['mean'], at)}</td>"
                    f"<td>sd {spread(sc['sd'])}; {quantiles(sc, at)}</td></tr>")
        rows.append(f"<tr><th scope=\"row\">{who} wins</th><td>{rate}</td><td>95% interval {between}</td></tr>")
    for b in () if one_bot else s["bots"]:
        rate, between = rate_with_interval(b["win_rate"])
        rows.append(f"<tr><th scope=\"row\">bot {_esc(b['bot'])} wins</th><td>{rate}</td><td>95% interval {between}</td></tr>")
    for e in s["endings"]:
        rows.append(f"<tr><th scope=\"row\">ended: {_esc(e['ending'])}</th><td>{points(e['share']['mean'], 0)}%</td>"
                    f"<td>{e['games']} games</td></tr>")
    rows.append(f"<tr><th scope=\"row\">stuck games</th><td>{s['stuck']}</td><td></td></tr>")
    h = f"h{level}"
    return (f"<section><{h}>{_esc(s['name'])} set: {s['games']} games</{h}><table><thead><tr>"
            "<th scope=\"col\">what</th><th scope=\"col\">mean</th><th scope=\"col\">spread or interval</th>"
            "</tr></thead><tbody>" + "".join(rows) + "</tbody></table></section>")


def _metrics_table(metrics: Sequence[Mapping[str, Any]], sets: int, level: int = 2) -> str:
    """Ludii's measures (docs/balance.md): each set's value (and interval), the difference and its
    interval, to the digits the intervals make meaningful."""
    from .metrics import alike_in_every_game, measure_cells

    rows = []
    alike = [m["name"] for m in metrics if alike_in_every_game(m)]
    for m in metrics:
        if m["name"] in alike:
            continue
        mark = ' class="changed"' if sets == 2 and not m.get("covers_zero", True) else ""
        values = [measure_cells(s["value"], s["interval"]) for s in m["sets"]]
        if sets == 2:
            change, between = measure_cells(m["difference"], m["interval"], signed=True)
            cells = (f"<td>{_esc(values[0][0])} → {_esc(values[1][0])}</td>"
                     f"<td>{_esc(change)}<br><span class=\"iv\">{_esc(between)}</span></td>")
        else:
            cells = f"<td>{_esc(values[0][0])}</td><td>{_esc(values[0][1])}</td>"
        what = m["what"] + (f" (evaluation: {m['evaluation']})" if "evaluation" in m else "")
        rows.append(f'<tr{mark}><th scope="row"><b>{_esc(m["name"])}</b>: {_esc(what)}</th>{cells}</tr>')
    head = ('<th scope="col">first → second</th><th scope="col">change, 95% interval</th>' if sets == 2
            else '<th scope="col">value</th><th scope="col">95% interval</th>')
    return (f'<section><h{level}>Ludii\'s measures</h{level}><p>Each game\'s number as docs/balance.md defines it, the mean over '
            'the games; 95% intervals from the paired bootstrap (each set\'s in the JSON).</p>'
            '<table><thead><tr><th scope="col">measure</th>' + head + "</tr></thead><tbody>"
            + "".join(rows) + "</tbody></table>"
            + (f"<p>Not listed, the same in every game of both sets: {_esc(', '.join(alike))}.</p>" if alike else "")
            + "</section>")


STYLE = """
body { font-family: system-ui, sans-serif; margin: 0; color: #111; background: #fff; line-height: 1.4; }
main { max-width: 50rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.4rem; margin: 0.2rem 0 0.5rem; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; margin: 1.2rem 0 0.4rem; }
.run { color: #333; }
dl.sets { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 0.8rem; }
dl.sets dt { font-weight: 600; }
dl.sets dd { margin: 0; overflow-wrap: anywhere; }
.verdict { border-left: 4px solid #1f5fa8; padding: 0.2rem 0.8rem; background: #f2f6fb; }
.verdict p { font-size: 1.05rem; margin: 0.5rem 0; }
.verdict sup a { padding: 0 0.15rem; }
p.notes { font-size: 0.9rem; color: #333; margin: 0.6rem 0 0; }
ol.notes { font-size: 0.9rem; color: #333; margin: 0.2rem 0 0.3rem; padding-left: 1.6rem; overflow-wrap: anywhere; }
figure { margin: 1rem 0; }
figcaption { font-weight: 600; margin-bottom: 0.3rem; }
figure svg { display: block; width: 100%; max-width: 30rem; height: auto; }
table { border-collapse: collapse; font-size: 0.9rem; width: 100%; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25rem 0.4rem; text-align: right; vertical-align: top; }
th[scope=row], thead th:first-child { text-align: left; font-weight: normal; overflow-wrap: anywhere; }
td { overflow-wrap: anywhere; }
td .iv { color: #333; font-size: 0.85rem; }
tr.changed th, tr.changed td { background: #fdf0e8; font-weight: 600; }
@media (max-width: 40rem) { main { padding: 0.75rem; } table { font-size: 0.85rem; } th, td { padding: 0.2rem 0.25rem; } }
"""
