"""The pages of ``solrec serve``, written as HTML text (pure functions: data in, a string out).

Every text that came from a player or the database (names, commands, comments, options, reasons)
goes through ``esc``; a game's SVG is the game's own (its texts escaped by ``core/svg.py``). No
inline script or style: the page's script and style are ``/static/table.js`` and ``table.css``
(the Content-Security-Policy forbids anything else); data for the script rides in ``data-``
attributes.

What the script and browser tests find on a game's page: ``body[data-base]`` (the viewer's address
of the game), ``.state[data-position][data-version][data-end]`` (the position shown, and the opaque
version a write names; the referee's page also carries ``data-head``), ``.status``, ``.warning``,
``.board`` (the SVG; its ``[data-spot]`` places get ``.spot-candidate`` while a click may pick them,
``.spot-picked`` once picked), ``.since`` (what the others did since this seat last acted, in words), ``#confirm`` (the question
asked before a command marked ``ends`` or ``final`` is sent), ``#choices`` (``data-choices``: the
commands as JSON, each with ``ends``/``final`` where the page asks first; the script adds
``.group h3`` headings and ``button.choice[data-step]``, then ``.picked`` with ``button.back`` and
``button.choice.done``), ``form.pick[data-template]`` (one ``select`` per field), ``form.notation``,
``#refusal``, ``button.undo``, ``button.fork``, ``form.note``, ``.moves li[data-position][data-move]``
with ``a.goto[data-at][data-move]`` (``#move=N``: the address of the move shown), ``button.golive``; on
the referee's: ``form.seats``, ``form.spectators``, ``a.study``, ``form.bots`` (a bot at a seat) and
``form.hints`` (the hint switch); on a seat's, when hints are on and it is to act, ``button.hint`` and
``#hint``; in the move list ``.review`` (a review's mark and loss) and ``.bot``; on the links pages ``a.seat-link``,
``a.spectator-link``; the disputes page's ``tr.dispute`` with ``a.goto-move``; ``#connection`` says when the live stream is lost; ``body[data-loads]`` counts the views the
script fetched and handled (a test waits for it rather than for time).
At an earlier move, every viewer's ``section.desk[data-move]`` (the move in words, its ``ul.notes``, and, but
for a spectator, ``form.ruling``: the comment form, with a mark for the referee).
"""

from __future__ import annotations

import functools
import html
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from solrec.core.game import CHANCE, Choices
from solrec.core.observe import phrases
from solrec.core.words import shown

from .views import View


def esc(value: object) -> str:
    """Text as HTML: escaped, and every character that is not printable (a bidi override such as
    U+202E, a control character) shown as its escape, as the CLI shows it (``guard.shown``)."""
    return html.escape(shown(str(value)), quote=True)


def name(player: object) -> str:
    """A player's name, escaped and isolated: right-to-left letters in it never reorder the text
    around it (a score beside it, the next name)."""
    return f"<bdi>{esc(player)}</bdi>"


def attr_json(data: Any) -> str:
    """Data for the script, as a ``data-`` attribute's (escaped) value."""
    return esc(json.dumps(data, ensure_ascii=False, separators=(",", ":")))


def document(title: str, body: str, *, data: Mapping[str, str] | None = None, script: bool = True) -> str:
    """A page; ``script``: with the table's script (a page that is not a game's, ``solrec front``'s, has none)."""
    attrs = "".join(f' data-{k}="{esc(v)}"' for k, v in (data or {}).items())
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<meta name=\"referrer\" content=\"no-referrer\">\n"
        "<link rel=\"icon\" href=\"data:,\">\n"
        f"<title>{esc(title)}</title>\n"
        "<link rel=\"stylesheet\" href=\"/static/table.css\">\n"
        + ("<script src=\"/static/table.js\" defer></script>\n" if script else "")
        + f"</head>\n<body{attrs}>\n{body}\n</body>\n</html>\n"
    )


def message(title: str, text: str, *, back: str | None = None) -> str:
    """A one-line page: a refusal, a missing token, a fault (never a traceback)."""
    link = f'<p><a href="{esc(back)}">back</a></p>' if back else ""
    return document(title, f'<main class="message"><h1>{esc(title)}</h1>\n<p class="reason">{esc(text)}</p>{link}</main>')


def _hidden_csrf(csrf: str) -> str:
    return f'<input type="hidden" name="csrf" value="{esc(csrf)}">'


# -- the referee's list of games -------------------------------------------------------------------
def games_page(rows: Sequence[Mapping[str, Any]], kinds: Sequence[tuple[str, str]], game: str | None, status: str | None) -> str:
    options = "".join(
        f'<option value="{esc(k)}"{" selected" if k == game else ""}>{esc(t)}</option>' for k, t in kinds
    )
    statuses = "".join(
        f'<option value="{v}"{" selected" if v == status else ""}>{label}</option>'
        for v, label in (("", "running and over"), ("running", "running"), ("over", "over"))
    )
    body = [
        "<header><h1>solrec: games</h1><p>You are the referee: you see everything and make the seat links.</p>"
        '<p><a href="/tables">every running table, live</a></p></header>',
        "<main>",
        '<form method="get" action="/" class="filters"><label>game <select name="game"><option value="">every game</option>'
        f'{options}</select></label> <label>status <select name="status">{statuses}</select></label> <button>show</button></form>',
        '<table class="games"><thead><tr><th>id</th><th>game</th><th>events</th><th>status</th><th>created</th>'
        "<th>players and scores</th></tr></thead><tbody>",
    ]
    for r in rows:
        scores = r.get("scores") or {}
        players = ", ".join(f"{name(p)} {esc(scores[p])}" if p in scores else name(p) for p in r["players"])
        body.append(
            f'<tr><td><a href="/g/{esc(r["id"])}">{esc(r["id"])}</a></td><td>{esc(r["game"])}</td>'
            f'<td class="num">{esc(r["events"])}</td><td>{esc(r["status"])}</td><td>{esc(str(r["created"])[:19])}</td>'
            f"<td>{players}</td></tr>"
        )
    if not rows:
        body.append('<tr><td colspan="6">no game stored yet</td></tr>')
    body.append("</tbody></table>")
    body.append("<h2 id=\"start\">Start a game</h2><ul class=\"kinds\">")
    body += [f'<li><a href="/new?game={esc(k)}">{esc(t)}</a></li>' for k, t in kinds]
    body.append("</ul></main>")
    return document("solrec: games", "\n".join(body))


# -- the new-game form -----------------------------------------------------------------------------
# -- the referee's tables: every running game's position, live ----------------------------------------
def tables_page(fragment: str) -> str:
    """The referee's tables page (``/tables``): every running game's line (``tables_fragment``), kept
    live on one stream (``/tables/live``) by the page script."""
    body = ("<header><h1>solrec: tables</h1><p><a href=\"/\">all games</a> <a href=\"/disputes\">disputes</a></p></header>\n"
            f'<main id="tables">{fragment}</main>\n<p id="connection" class="connection"></p>')
    return document("solrec: tables", body, data={"tables": "/tables/live"})


def tables_fragment(lines: Sequence[tuple[View | None, str, str]]) -> str:
    """One row per running game, each linking to its page: (its referee's view, or None for a game
    that could not be read; its id; its game kind or the reason)."""
    rows = []
    for v, gid, said in lines:
        link = f'<a href="/g/{esc(gid)}">{esc(gid)}</a>'
        if v is None:
            rows.append(f'<tr><td>{link}</td><td colspan="4" class="reason">{esc(said)}</td></tr>')
            continue
        last = next((m for m in reversed(v.moves) if m.actor != CHANCE), None)  # a player's: chance's follow it
        move = f"{name(last.actor)}: {esc(last.said or last.command)}" if last is not None else "no move yet"
        turn = name(v.to_act) if v.to_act is not None else esc(v.status)
        score = ", ".join(f"{name(p)} {t}" for p, t in v.totals) or "none yet"
        rows.append(f'<tr><td>{link}</td><td>{esc(v.title)}</td><td class="turn">{turn}</td>'
                    f'<td class="score">{score}</td><td class="last">{move}</td></tr>')
    if not rows:
        rows.append('<tr><td colspan="5">no game is running</td></tr>')
    return ('<table class="games tables"><thead><tr><th>id</th><th>game</th><th>to act</th><th>score</th>'
            "<th>last move</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>")


def new_game_page(
    game_id: str, title: str, span: tuple[int, int], players: Sequence[str], options: Sequence[Mapping[str, Any]],
    values: Mapping[str, str], components: tuple[str, str] | None, csrf: str, error: str = "",
) -> str:
    """The form to start a game: players (one per line), each option with its help and allowed
    values, seeded or entered chance, the component set (``components``: its name and help) where
    the game has one."""
    low, high = span
    names = values.get("players", "\n".join(players))
    rows = [
        f'<form method="post" action="/new" class="newgame">{_hidden_csrf(csrf)}',
        f'<input type="hidden" name="game" value="{esc(game_id)}">',
        f'<label class="field">players ({low if low == high else f"{low} to {high}"}, one per line, in seating order)'
        f'<textarea name="players" rows="{max(high, 2)}">{esc(names)}</textarea></label>',
        '<fieldset><legend>chance</legend>',
        f'<label><input type="radio" name="chance" value="seeded"{"" if values.get("chance") == "entered" else " checked"}>'
        " seeded: drawn from a seed (random unless given)</label> "
        f'<label>seed <input name="seed" inputmode="numeric" value="{esc(values.get("seed", ""))}"></label>'
        '<span class="help warning">leave it empty: a typed seed lets anyone who knows or guesses it foresee every '
        "draw (empty: 63 random bits)</span><br>",
        f'<label><input type="radio" name="chance" value="entered"{" checked" if values.get("chance") == "entered" else ""}>'
        " entered: the referee enters the dice, cards and tiles the real table shows</label></fieldset>",
    ]
    if components is not None:
        name, help_ = components
        rows.append(
            f'<label class="field">component set <input name="components" value="{esc(values.get("components", name))}">'
            f'<span class="help">{esc(help_)}</span></label>'
        )
    if options:
        rows.append("<fieldset><legend>options</legend>")
    for o in options:
        rows.append(_option_field(o, values.get(f"option.{o['name']}")))
    if options:
        rows.append("</fieldset>")
    rows.append(f'<label class="field">id (leave empty for {esc(game_id)}-N) <input name="id" value="{esc(values.get("id", ""))}"></label>')
    rows.append('<button type="submit">start the game</button></form>')
    error_html = f'<p class="refusal" role="alert">{esc(error)}</p>' if error else ""
    body = (f'<header><h1>New game of {esc(title)}</h1><p><a href="/">all games</a></p></header>'
            f"<main>{error_html}{''.join(rows)}</main>")
    return document(f"solrec: new {title}", body)


def _value_text(value: Any) -> str:
    return "on" if value is True else "off" if value is False else str(value)


def _option_field(o: Mapping[str, Any], given: str | None) -> str:
    """One option: its name, its values, the rulebook's sentence it reads (``rule``: ``003: "..."``, from
    the game's ``text.py``, shown as a quotation naming its text) and what each value does."""
    name, default = o["name"], _value_text(o["default"])
    current = default if given is None else given
    label = f'<span class="name">{esc(name)}</span>'
    source, _, sentence = str(o.get("rule") or "").partition(": ")
    quoted = sentence.removeprefix('"').removesuffix('"')
    rule = (f'<span class="rule">\u201c{esc(quoted)}\u201d <span class="source">(rule text {esc(source)})</span></span>'
            if quoted else "")
    help_ = f'{rule}<span class="help">{esc(o["help"])}</span>'
    choices = o["choices"] if o["choices"] is not None else (["on", "off"] if o["type"] == "bool" else None)
    if choices is not None:
        items = "".join(
            f'<option value="{esc(_value_text(c))}"{" selected" if _value_text(c) == current else ""}>{esc(_value_text(c))}</option>'
            for c in choices
        )
        control = f'<select name="option.{esc(name)}">{items}</select>'
    else:
        mode = ' inputmode="numeric"' if o["type"] == "int" else ""
        control = f'<input name="option.{esc(name)}" value="{esc(current)}"{mode}>'
    return f'<label class="field option">{label} {control} {help_}</label>'


# -- seat links, shown once ------------------------------------------------------------------------
def links_page(game_id: str, links: Mapping[str, str], lan: str | None = None) -> str:
    """The seat links made, each with its QR code, shown once. ``lan``: the links name this machine
    only (the server listens on loopback), and this command serves the local network: said beside
    the QR codes, which a phone would otherwise scan into a dead link."""
    from .qr import qr_svg

    items = "".join(
        f'<li><span class="player">{name(p)}</span>: <a class="seat-link" href="{esc(url)}">{esc(url)}</a>'
        f' <button type="button" class="copy" data-copy="{esc(url)}">copy {esc(p)}&#39;s link</button>'
        f'<div class="qr">{qr_svg(url, "QR code of " + shown(str(p)) + " seat link")}</div></li>'
        for p, url in links.items()
    )
    body = (
        f'<header><h1>Seat links of {esc(game_id)}</h1></header><main>'
        "<p>Give each player their link (in a message to their phone, say). Each is shown only this once: "
        "the server keeps only a hash of it. Whoever opens a link plays that seat; making a new link for a seat "
        "stops the old one. At the table, each player points a phone's camera at their QR code.</p>"
        + _loopback_notice(lan, "These links point at") +
        f'<ul class="links">{items}</ul>'
        f'<p><a href="/g/{esc(game_id)}">back to the game</a></p></main>'
    )
    return document(f"seat links of {game_id}", body)


def _loopback_notice(lan: str | None, what: str) -> str:
    """Said where a link names this machine only: a phone cannot open it; the command that serves
    the local network (``solrec serve --lan``), after which the links are made again."""
    if lan is None:
        return ""
    return (f'<p class="loopback warning" role="note">{what} this machine itself (the server listens on '
            "127.0.0.1 only): a phone that scans a QR code here cannot open it. To play on the phones of this "
            f"network, stop the server (Ctrl-C), start it with <code>{esc(lan)}</code> and make the links again.</p>")


# -- a game ------------------------------------------------------------------------------------------
def game_page(v: View, base: str, csrf: str, seats: Iterable[str] = (), spectating: bool = False,
              hints: bool = True) -> str:
    """A game's page for one viewer: the header, and the view (``fragment``), which the script
    fetches again whenever the live stream says the game moved. ``base``: the viewer's address of the
    game (``/g/ID`` for the referee, ``/g/ID/seat/TOKEN`` for a seat, ``/g/ID/watch/TOKEN`` for a
    spectator). ``spectating``: the referee's page says a spectator link is out; ``hints``: whether the
    seats' "hint" button is on in this game (the referee's switch)."""
    who = ("a spectator (the table's view: you watch, you cannot play or comment)" if v.spectator
           else "the referee (you see everything)" if v.player is None else f"{name(v.player)}'s seat")
    options = "".join(f"<li>{esc(k)} {esc(val)}</li>" for k, val in v.setup)
    top = [
        f'<header><h1>{esc(v.title)} <span class="gid">{esc(v.game_id)}</span></h1>',
        f'<p class="who">{who}</p>',
        # the options fold under one line (a component set's digest is long): opened on a tap
        f'<details class="options setup"><summary>players {", ".join(map(name, v.players))}'
        # the options the header records, counted apart from the set-up's other lines (chance, seed, rules, bots)
        f'{f" · {v.options} option" + ("s" if v.options != 1 else "") if v.options else " · set-up"}</summary>'
        f"<ul>{options}</ul></details>",
    ]
    if v.referee:
        seated = set(seats)
        gid = esc(v.game_id)
        top.append(
            f'<p><a href="/">all games</a> <a href="/disputes">disputes</a> <a class="study" href="/g/{gid}/study">study'
            f'</a></p><form method="post" action="/g/{gid}/seats" class="seats">'
            f"{_hidden_csrf(csrf)}<span>seat links"
            + (f" (made for {esc(', '.join(sorted(seated)))})" if seated else "")
            + '</span> <button type="submit">make seat links</button></form>'
            f'<form method="post" action="/g/{gid}/spectators" class="spectators">{_hidden_csrf(csrf)}'
            f'<span>spectator link{" (one is out)" if spectating else ""}</span> '
            '<button type="submit">make a spectator link</button></form>'
            + (f'<form method="post" action="/g/{gid}/spectators/revoke" class="revoke-spectators">{_hidden_csrf(csrf)}'
               '<button type="submit">revoke the spectator link</button></form>' if spectating else "")
            + _bot_controls(v, csrf, hints)
        )
    top.append("</header>")
    body = "\n".join(top) + f'\n<main id="view">{fragment(v, (base, csrf))}</main>\n<p id="connection" class="connection"></p>'
    return document(f"{v.title} {v.game_id}", body, data={"base": base, "csrf": csrf, "viewer": v.player or ""})


BOT_KINDS = ("random", "greedy", "mcts", "policy")


def _bot_controls(v: View, csrf: str, hints: bool) -> str:
    """The referee's bot seats (a bot at any seat, or a person again) and the hint switch."""
    gid = esc(v.game_id)
    seated = dict(v.bots)
    players = "".join(f'<option value="{esc(p)}">{esc(p)}{" (a bot)" if p in seated else ""}</option>' for p in v.players)
    kinds = "".join(f'<option value="{k}"{" selected" if k == "mcts" else ""}>{k}</option>' for k in BOT_KINDS)
    now = ", ".join(f"{name(p)} is the bot {esc(b)}" for p, b in v.bots) or "every seat is a person's"
    return (
        f'<form method="post" action="/g/{gid}/bots" class="bots">{_hidden_csrf(csrf)}'
        f'<span class="botseats">bot seats: {now}</span><br><label>seat <select name="player">{players}</select></label> '
        f'<label>plays as <select name="kind"><option value="person">a person</option>{kinds}</select></label> '
        '<label>settings <input name="settings" size="14" placeholder="simulations=120" autocomplete="off"></label> '
        '<label>seed <input name="seed" size="8" inputmode="numeric" placeholder="random"></label> '
        '<button type="submit">seat</button></form>'
        f'<form method="post" action="/g/{gid}/hints" class="hints">{_hidden_csrf(csrf)}'
        f'<input type="hidden" name="hints" value="{"off" if hints else "on"}">'
        f'<span>hints for the seats are {"on" if hints else "off"}</span> '
        f'<button type="submit">switch hints {"off" if hints else "on"}</button></form>'
    )


def fragment(v: View, page: tuple[str, str] | None = None) -> str:
    """The board, whose turn it is, what to click, the score sheet, the move list with comments; at
    an earlier move, the referee's desk (``_desk``) first. ``page``: the viewer's address of the game
    and CSRF value, for the whole page only (its desk's form is then sent without the script too); a
    fragment fetched by the script carries neither (the script sends the form, with the value)."""
    head = f' data-head="{esc(v.head)}"' if v.player is None and v.head else ""  # the referee's only
    shown = "the set-up" if v.move == 0 else f"after move {v.move}"
    out = [
        f'<div class="state" data-position="{v.position}" data-version="{esc(v.version)}"{head} data-end="{v.end}"'
        f' data-live="{1 if v.live else 0}" data-move="{v.move}">',
        *(f'<p class="warning" role="alert">{esc(w)}</p>' for w in v.warnings),
        f'<p class="status">{shown}: {esc(v.status)}'
        + (f' <span class="botseat">the bot {esc(dict(v.bots)[v.to_act])} is thinking</span>'
           if v.live and v.to_act in dict(v.bots) else "")
        + ("" if v.live else ' <button type="button" class="golive">back to the live position</button>') + "</p>",
        _since(v),
        f'<p class="summary totals">score: {", ".join(f"{name(p)} {t}" for p, t in v.totals) or "none yet"}</p>',
        _after_the_end(v),
        # the actions come before the board in the page's order: on a phone they are on the first screen
        '<div class="columns"><div class="side">',
        _desk(v, page),
    ]
    if v.choices is not None:
        out.append(_act(v.choices, v.player, v.hints, v.hint, dict(v.asks), dict(v.words)))
    out.append('<p class="refusal" role="alert" id="refusal"></p>')
    out.append(_desk(v, page, at_live=True))
    out.append('</div><div class="board" aria-label="the board">')
    if v.board:  # a big board (Solarius Mission's map) is zoomed on a phone until its labels read at 12 px
        out.append('<p class="zoombar"><button type="button" class="zoom" aria-pressed="false">zoom the board</button>'
                   ' <span class="help">then drag or scroll to pan</span></p>')
    out.append(v.board if v.board else f'<pre tabindex="0">{esc(v.text)}</pre>')
    out.append('</div><div class="more">')
    out.append(_tools(v))
    out.append(_sheet(v))
    out.append("</div></div>")
    out.append(_moves(v))
    out.append("</div>")
    return "\n".join(out)


# Commands that end a game whatever the position: asked to confirm before they are sent (typed too).
ENDING_WORDS = ("resign",)


def _since(v: View, most: int = 6) -> str:
    """What the others did since this seat last acted, in the record's words ("Tom colonized
    the turquoise planet 20 at F2 and ended the turn"), newest last: each actor's moves in a row told as one sentence, in the words the
    game lets this viewer read (``Observation.said``: a hidden card is never named); a seat that has
    just moved reads what came before its turn. The referee, a spectator, and everyone once the game
    is over: the last move."""
    if not v.live or not v.moves:
        return ""
    if v.player is None or v.to_act is None:  # the referee, a spectator, and everyone at the end
        later = list(v.moves[-1:])
        heading = "last move"
    else:
        mine = [k for k, m in enumerate(v.moves) if m.actor == v.player]
        later = list(v.moves[mine[-1] + 1:] if mine else v.moves)
        heading = "since your last move" if mine else "so far"
        if mine and mine[-1] == len(v.moves) - 1:
            # the seat has just moved (in the middle of its turn, say): what came before its run of moves
            start = mine[-1]
            while start > 0 and v.moves[start - 1].actor == v.player:
                start -= 1
            before = [k for k in mine if k < start]
            later = list(v.moves[before[-1] + 1 if before else 0:start])
            heading = "before your turn" if later else heading
    if not later:
        return f'<section class="since" aria-label="{heading}"><strong>{heading}:</strong> nothing new</section>'
    told: list[tuple[str, list[str]]] = []  # (actor, phrases) of the moves in a row by one actor
    for m in later:
        said = m.said or (f"drew {m.command}" if m.actor == CHANCE else f"played {m.command}")
        if told and told[-1][0] == m.actor:
            told[-1][1].append(said)
        else:
            told.append((m.actor, [said]))
    cut = len(told) - most
    items = [f"<li>{'Chance' if actor == CHANCE else name(actor)} {esc(phrases(said))}.</li>" for actor, said in told[-most:]]
    more = f"<li>And {cut} earlier turn{'s' if cut > 1 else ''} (the move list below).</li>" if cut > 0 else ""
    return f'<section class="since" aria-label="{heading}"><strong>{heading}:</strong><ul>{more}{"".join(items)}</ul></section>'


def _after_the_end(v: View) -> str:
    """A finished game offers a rematch (the referee's: same players and options, a new seed) and a
    new game."""
    if not v.live or v.to_act is not None or not v.moves:
        return ""
    if v.referee:
        return ('<div class="again"><button type="button" class="rematch">rematch: same players and options, a new seed</button>'
                ' <a href="/#start">new game</a></div>')
    return '<p class="again">The game is over. The referee can start a rematch or a new game.</p>'


def _act(choices: Choices, player: str | None, hints: Sequence[str] = (), hint: bool = False,
         asks: Mapping[str, str] | None = None, words: Mapping[str, str] | None = None) -> str:
    """The actions, each command in the game's words (``words``: ``Game.command_words``) with its
    notation beside it. A command that ends the game (``ends``) is asked about before it is sent
    (table.js), by a dialog the keyboard reaches; one this seat could not take back (``final``) the
    first time in a game only, unless the player asks to be asked again."""
    heading = f"{name(choices.actor)} to play" if player is None else "your move"
    asks, words = asks or {}, words or {}
    data = [{"command": c.command, "steps": list(c.steps), "group": c.group, "detail": c.detail,
             **({"words": words[c.command]} if c.command in words else {}),
             **({"takes": list(c.takes)} if c.takes else {}),
             **({"said": list(c.said)} if c.said else {}),
             **({"ends": True} if c.command.split(" ")[0] in ENDING_WORDS or asks.get(c.command) == "ends" else {}),
             **({"final": True} if asks.get(c.command) == "final" else {})} for c in choices.commands]
    out = [f'<section class="act"><h2>{heading}</h2>',
           # a sheet fixed at the screen's foot: the page never jumps up to it from a tap on the board
           '<div class="confirm" id="confirm" hidden role="alertdialog" aria-labelledby="confirm-text">'
           '<p id="confirm-text"></p><button type="button" class="yes">yes, play it</button> '
           '<button type="button" class="no">no, go back</button>'
           '<label class="quiet"><input type="checkbox" class="quiet"> keep asking me in this game before moves that '
           'cannot be taken back</label></div>',
           f'<div class="choices" id="choices" data-choices="{attr_json(data)}"></div>']
    out += [f'<p class="help hint">{esc(h)}</p>' for h in hints]
    if hint:  # a seat's: the bot's suggestion from what this seat sees (the referee may switch it off)
        out.append('<p class="hintbar"><button type="button" class="hint">hint</button> '
                   '<span class="hint-text" id="hint" aria-live="polite"></span></p>')
    for k, form in enumerate(choices.forms):
        out.append(f'<form class="pick" data-template="{esc(form.template)}"><h3>{esc(form.group)}</h3>')
        if form.label:
            out.append(f'<p class="help">{esc(form.label)}</p>')
        for field in form.fields:
            items = "".join(f'<option value="{esc(x)}">{esc(x)}</option>' for x in field.values)
            once = ' data-once="1"' if field.once else ""
            out.append(f'<label>{esc(field.name)} <select name="{esc(field.name)}"{once}>{items}</select></label> ')
        out.append(f'<button type="submit">play</button> <span class="help">e.g. {esc(form.example)}</span></form>')
    out.append(
        '<form class="notation"><label>or type a command <input name="command" autocomplete="off" spellcheck="false"></label>'
        ' <button type="submit">play</button></form></section>'
    )
    return "\n".join(out)


def _tools(v: View) -> str:
    if not v.live:
        return ""
    out = ['<div class="tools">']
    if v.may_undo:
        out.append('<button type="button" class="undo">take back the last command</button>')
    if v.spectator:
        return ""
    if v.player is None and v.moves:
        out.append('<button type="button" class="fork">fork a variation here</button>')
    if v.player is not None:  # a seat's comment; the referee's, with its marks, is the desk's (``_desk``)
        out.append('<form class="note"><label>comment on this move <input name="text" maxlength="4000"></label>'
                   ' <button type="submit">add</button></form>')
    out.append("</div>")
    return "\n".join(out)


def _sheet(v: View) -> str:
    totals = ", ".join(f"{name(p)} {t}" for p, t in v.totals)
    rows = "".join(
        f'<tr><td>{name(p)}</td><td class="num">{"+" if pts > 0 else ""}{pts}</td><td>{esc(what)}</td><td class="rule">{esc(rule)}</td></tr>'
        for p, pts, what, rule in v.lines
    ) or '<tr><td colspan="4">no score lines yet</td></tr>'
    return (f'<section class="sheet"><h2>score sheet</h2><p class="totals">{totals}</p>'
            "<table><thead><tr><th>player</th><th>points</th><th>what</th><th>rule</th></tr></thead>"
            f"<tbody>{rows}</tbody></table></section>")


def _moves(v: View) -> str:
    from solrec.replay.marks import BOT_AUTHOR, move_marks

    # a review's mark and estimated loss beside its move, a bot's move marked "bot" (replay/marks.py)
    marks = move_marks((position, by, mark, text) for position, _, by, mark, text in v.notes)
    notes: dict[int, list[str]] = {}
    for position, n, by, mark, text in v.notes:
        if by == BOT_AUTHOR and marks.get(position, None) is not None and marks[position].bot:
            continue  # shown as the move's "bot" badge
        shown = (f'<span class="nmark">{esc(mark)}</span> ' if mark else "") + (f'<span class="by">{esc(by)}:</span> ' if by else "")
        notes.setdefault(position, []).append(f'<li class="note" data-n="{n}">{shown}{esc(text)}</li>')
    out = ['<section class="movelist"><h2>moves</h2><ol class="moves">',
           f'<li data-position="0" data-move="0"><a href="?move=0#move=0" class="goto" data-at="0" data-move="0">the set-up</a>'
           f'{_notes_at(notes, 0)}</li>']
    for m in v.moves:
        current = ' class="current"' if m.position == v.position else ""
        said, events = _move_words(m.number, m.actor, m.command, m.events)
        out.append(
            f'<li data-position="{m.position}" data-move="{m.number}"{current}>'
            f'<a href="?move={m.number}#move={m.number}" class="goto" data-at="{m.position}" data-move="{m.number}">{said}{_marked(marks.get(m.position))}</a>'
            f"{events}{_notes_at(notes, m.position)}</li>"
        )
    out.append("</ol></section>")
    return "\n".join(out)


@functools.lru_cache(maxsize=16384)
def _move_words(number: int, actor: str, command: str, events: tuple[str, ...]) -> tuple[str, str]:
    """A move line's escaped words, made once: a page's move list is drawn again at every position,
    and escaping every earlier line again was most of a seat's fragment in a long game."""
    said = f'<span class="num">{number}</span> <span class="actor">{name(actor)}</span> <span class="cmd">{esc(command)}</span>'
    shown = "".join(f"<li>{esc(e)}</li>" for e in events)
    return said, (f'<ul class="events">{shown}</ul>' if shown else "")


def _marked(m: Any) -> str:
    if m is None:
        return ""
    out = ""
    if m.mark:
        loss = f" (estimated loss {m.loss:.2f})" if m.loss is not None else ""
        out += f' <span class="review" title="solrec review: {esc(m.mark)}{esc(loss)}">{esc(m.review())}</span>'
    if m.bot:
        out += f' <span class="bot" title="played by the bot {esc(m.bot)}">bot</span>'
    return out


def _notes_at(notes: Mapping[int, list[str]], position: int) -> str:
    got = notes.get(position)
    return f'<ul class="notes">{"".join(got)}</ul>' if got else ""


def _desk(v: View, page: tuple[str, str] | None = None, at_live: bool = False) -> str:
    """The referee's desk at a move (``#move=N``, ``?move=N``): move N's command in words with its
    notation in small type, its comments and marks, and the form to comment on it, with a mark for
    the referee (a ruling is the comment ``solrec comment --at N --mark ruled`` stores). At an
    earlier move, every viewer's, first in the side column (on a phone, above the board): a seat
    comments as at the live position (text only), a spectator reads. At the live position
    (``at_live``), the referee's only, after the actions (a seat's comment form is in its tools)."""
    if v.live != at_live or (at_live and not v.referee):
        return ""
    move = next((m for m in v.moves if m.number == v.move), None)
    if move is None:  # the set-up (or a position inside a move, ``?at=``: its move's line is not shown yet)
        said, folded = "the set-up" if v.move == 0 else f"inside move {v.move}", ""
    else:
        actor = "Chance" if move.actor == CHANCE else name(move.actor)
        words = move.said or (f"drew {move.command}" if move.actor == CHANCE else f"played {move.command}")
        said = f"move {move.number}: {actor} {esc(words)}" + _notation(move.command)
        folded = _notation(move.command, folded=True)
    items = [f'<li class="note" data-n="{n}">' + (f'<span class="nmark">{esc(mark)}</span> ' if mark else "")
             + (f'<span class="by">{esc(by)}:</span> ' if by else "") + f"{esc(text)}</li>"
             for position, n, by, mark, text in v.notes if position == v.position]
    comments = f'<ul class="notes">{"".join(items)}</ul>' if items else '<p class="help">no comment on this move yet</p>'
    what = "the set-up" if v.move == 0 else f"move {v.move}"
    out = [f'<section class="desk" aria-label="{what}" data-move="{v.move}"><h2>{said}</h2>{folded}', comments]
    if not v.spectator:
        marks = ""
        if v.referee:
            from solrec.events.notes import MARKS

            marks = (' <label>mark <select name="mark"><option value="">no mark</option>'
                     + "".join(f'<option value="{esc(m)}">{esc(m)}</option>' for m in MARKS) + "</select></label>")
        # the whole page's form posts without the script; a fetched fragment's is sent by the script
        sent = f' method="post" action="{esc(page[0])}/note">{_hidden_csrf(page[1])}' if page else ">"
        out.append(
            f'<form class="ruling"{sent}'
            f'<input type="hidden" name="at" value="{v.position}"><input type="hidden" name="version" value="{esc(v.version)}">'
            f'<input type="hidden" name="end" value="{v.end}"><input type="hidden" name="page" value="1">'
            f'<label>comment on {what} <input name="text" maxlength="4000" required></label>{marks}'
            ' <button type="submit">add</button></form>')
    out.append("</section>")
    return "\n".join(out)


NOTATION_INLINE = 40  # characters of a notation shown beside the words; a longer one (a shuffle's 40 cards) folds


def _notation(command: str, folded: bool = False) -> str:
    """A command's notation in small type beside its words (in the heading); a long one below it,
    folded under "notation" (``folded``)."""
    if (len(command) > NOTATION_INLINE) != folded:
        return ""
    if folded:
        return f'<details class="notation"><summary>notation</summary><code>{esc(command)}</code></details>'
    return f' <small class="notation">(<code>{esc(command)}</code>)</small>'


# -- a spectator link, shown once --------------------------------------------------------------------
def spectator_page(game_id: str, link: str, lan: str | None = None) -> str:
    from .qr import qr_svg

    body = (
        f'<header><h1>Spectator link of {esc(game_id)}</h1></header><main>'
        "<p>Whoever opens this link watches the game live as the table sees it: no hand, no seed, nothing "
        "to play, take back or comment. It is shown only this once; making a new one, or revoking it, stops it.</p>"
        + _loopback_notice(lan, "This link points at") +
        f'<p><a class="spectator-link" href="{esc(link)}">{esc(link)}</a>'
        f' <button type="button" class="copy" data-copy="{esc(link)}">copy the link</button></p>'
        f'<div class="qr">{qr_svg(link, "QR code of the spectator link")}</div>'
        f'<p><a href="/g/{esc(game_id)}">back to the game</a></p></main>'
    )
    return document(f"spectator link of {game_id}", body)


# -- the disputes: marked comments across games ----------------------------------------------------------
def disputes_page(found: Sequence[Mapping[str, Any]]) -> str:
    """Every comment marked disputed, ruled, ? or ?? across the games, newest first, each linked to
    its move (``replay/disputes.py``; ``solrec list --marked`` in the CLI)."""
    rows = []
    for d in found:
        href = f"/g/{d['id']}?move={d['move']}#move={d['move']}"  # the desk at that move, with or without the script
        who = f'<span class="by">{esc(d["by"])}:</span> ' if d["by"] else ""
        rows.append(
            f'<tr class="dispute" data-id="{esc(d["id"])}" data-move="{d["move"]}"><td>{esc(str(d["time"])[:16].replace("T", " "))}</td>'
            f'<td><a href="/g/{esc(d["id"])}">{esc(d["id"])}</a></td>'
            f'<td><a class="goto-move" href="{esc(href)}">move {d["move"]}</a></td>'
            f'<td class="nmark">{esc(d["mark"])}</td><td>{who}{esc(d["text"])}</td></tr>'
        )
    if not rows:
        rows.append('<tr><td colspan="5">no comment is marked disputed, ruled, ? or ??</td></tr>')
    body = (
        '<header><h1>solrec: disputes</h1><p>Every comment marked disputed, ruled, ? or ??, newest first. '
        '<a href="/">all games</a></p></header><main><table class="disputes"><thead><tr><th>when</th><th>game</th>'
        f'<th>move</th><th>mark</th><th>comment</th></tr></thead><tbody>{"".join(rows)}</tbody></table></main>'
    )
    return document("solrec: disputes", body)
