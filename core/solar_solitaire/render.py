"""Solar Solitaire as text: the space stations above their launch pads, the waste top, the stock count.

Drawn from a viewer's observation (``observation.py``): the stockpile in turning order only where the
observation holds it (the referee's), else its size; the referee reads every pile whole (bottom to
top), a player each pile's top as it lies on the table."""

from __future__ import annotations

from ..declared import held
from ..observe import Viewer
from .cards import PADS, ROCKETS, STATIONS
from .state import State


def _pile(pile: tuple[str, ...], reveal: bool) -> str:
    if not pile:
        return "-"
    if reveal:
        return " ".join(pile)
    return pile[-1] + (f" ({len(pile)})" if len(pile) > 1 else "")


TABLE = Viewer.table()


def render(state: State, viewer: Viewer = TABLE) -> str:
    reveal = viewer.sees_all  # every pile whole: what the referee reads
    out = [f"Solar Solitaire: {state.player}, deal {state.deals}, stock {len(state.stock)}, rockets "
           f"{len(state.rockets_launched)}/4"]
    if not state.dealt:
        out.append("to deal the four launch pads")
        return "\n".join(out)
    out.append("")
    for p in range(4):
        flag = "  LAUNCHED" if state.launched(p) else ""
        out.append(f"{STATIONS[p]:<9} {_pile(state.stations[p], reveal)}")
        out.append(f"{PADS[p]:<9} {_pile(state.pads[p], reveal)}   [rocket {ROCKETS[p]}]{flag}")
    out.append("")
    out.append(f"waste     {_pile(state.waste, reveal)}" + ("" if reveal or len(state.waste) < 2 else f" of {len(state.waste)}"))
    if state.stock_known and held(state.stock):
        out.append(f"stock     {' '.join(state.stock) or '-'}")
    else:
        out.append(f"stock     {len(state.stock)} card(s) face down")
    if state.stranded:
        out.append(f"emergency rules apply: {' '.join(state.stranded)} in the waste heap")
    out.append("")
    if state.result == "won":
        out.append("won: all four rockets stand on their launch pads")
    elif state.result == "lost":
        how = f"{state.searched} positions searched" if state.searched else "proven without a search"
        out.append(f"lost: no way to free {' '.join(state.stranded)} ({how})")
    elif state.result == "resigned":
        out.append("resigned")
    elif state.asked:
        out.append("turning: chance names the card")
    elif state.choice:
        card = state.waiting_card
        out.append(f"{card} must be played: choose {' or '.join(f'play {PADS[p]}' for p in state.choice)}")
    elif state.stock:
        out.append("to turn" + (" or move" if state.emergency else ""))
    else:
        out.append("stock used up: free moves")
    return "\n".join(out)


# -- the picture -------------------------------------------------------------------------------

# pip centres within one section of a card, 0-3 pips (001: "dot-count and location")
_SECTION_PIPS = {0: (), 1: ((0.5, 0.5),), 2: ((0.28, 0.3), (0.72, 0.7)), 3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75))}


def _card(x: float, y: float, card: str, w: float = 48, h: float = 96, *, highlight: bool = False,
          rocket: bool = False, face_down: bool = False) -> list[str]:
    """One Space Domino: three sections top to bottom as written (``a-b-c``), each with its pips."""
    from ..svg import HIGHLIGHT, circle, line, rect, text
    from .cards import is_rocket, sections

    stroke = HIGHLIGHT if highlight else ("#b8860b" if rocket or is_rocket(card) else "#333333")
    width = 4 if highlight else (3 if rocket or is_rocket(card) else 1.2)
    if face_down:
        return [rect(x, y, w, h, rx=5, fill="#3b5b92", stroke="#1d2f4f", stroke_width=1.2)]
    out = [rect(x, y, w, h, rx=5, fill="#fffdf6", stroke=stroke, stroke_width=width)]
    sec = h / 3
    for k, pips in enumerate(sections(card)):
        if k:
            out.append(line(x + 4, round(y + k * sec, 1), x + w - 4, round(y + k * sec, 1), stroke="#888888",
                            stroke_width=1))
        for px, py in _SECTION_PIPS[pips]:
            out.append(circle(round(x + 6 + px * (w - 12), 1), round(y + k * sec + 3 + py * (sec - 6), 1), 4.2,
                              fill="#1a1a1a"))
    out.append(text(x + w / 2, y + h + 13, card, 11, anchor="middle"))
    return out


def svg(state: State, viewer: Viewer = TABLE, *, last=None, size: int | None = 400) -> str:
    """The space stations above the four launch pads (each with its rocket's place), the waste heap's
    top and the number of stock cards left, each card a three-section Space Domino with its pips.
    Players see only the top of each pile and the stock's back; the referee's picture lists every
    pile whole (bottom to top) and, where the log knows it and his observation holds it, the stock in
    turning order. ``last`` (the events of
    the last command) outlines the cards it put on top of a pile. Every pile carries an invisible
    card-sized rectangle named ``data-spot="pad2"`` (``stock`` the stockpile), the step ``Game.choices`` names."""
    from ..svg import document, rect, text
    from .cards import PADS, STATIONS, WASTE
    from .events import Dealt, Moved, Played, Turned, Wasted
    from .rules import STOCK

    fresh: set[str] = set()  # places whose top card the last command put there
    for event in last or ():
        if isinstance(event, Played):
            fresh.add(PADS[event.pad])
        elif isinstance(event, Moved):
            fresh.add(event.target)
        elif isinstance(event, Wasted):
            fresh.add(WASTE)
        elif isinstance(event, Turned):
            fresh.add("hand")
        elif isinstance(event, Dealt):
            fresh.update(PADS)

    width, col = 410, 100
    head = f"Solar Solitaire: {state.player}, deal {state.deals}, rockets {len(state.rockets_launched)}/4"
    out = [rect(0, 0, width, 0, fill="#0f1a33")]
    out.append(text(10, 22, head, 14, fill="#ffffff", font_weight="bold"))
    y_station, y_pad = 58, 200
    out.append(text(10, y_station - 10, "space stations", 11, fill="#c9d6f0"))
    out.append(text(10, y_pad - 10, "launch pads", 11, fill="#c9d6f0"))
    for p in range(4):
        x = 10 + p * col
        for place, y in ((STATIONS[p], y_station), (PADS[p], y_pad)):
            pile = state.pile(place)
            out.append(rect(x, y, 48, 96, rx=5, fill="none", stroke="#5a6d96", stroke_width=1,
                            stroke_dasharray="4 3"))
            if pile:
                out.extend(_card(x, y, pile[-1], highlight=place in fresh))
                # the label under a card is white-on-dark: redraw it light
                out[-1] = out[-1].replace("<text ", '<text fill="#ffffff" ', 1)
                if len(pile) > 1:
                    out.append(text(x + 52, y + 10, f"({len(pile)})", 10, fill="#c9d6f0"))
        out.append(text(x, y_pad + 126, f"{PADS[p]}: rocket {ROCKETS[p]}", 10, fill="#ffd479"))
        if state.launched(p):
            out.append(text(x, y_pad + 140, "LAUNCHED", 11, fill="#7CFC8A", font_weight="bold"))
    y = 384
    out.append(text(10, y - 8, "waste heap", 11, fill="#c9d6f0"))
    out.append(rect(10, y, 48, 96, rx=5, fill="none", stroke="#5a6d96", stroke_width=1, stroke_dasharray="4 3"))
    if state.waste:
        out.extend(_card(10, y, state.waste[-1], highlight=WASTE in fresh))
        out[-1] = out[-1].replace("<text ", '<text fill="#ffffff" ', 1)
        out.append(text(62, y + 10, f"({len(state.waste)})", 10, fill="#c9d6f0"))
    if state.hand is not None:
        out.append(text(110, y - 8, "turned card", 11, fill="#c9d6f0"))
        out.extend(_card(110, y, state.hand, highlight="hand" in fresh))
        out[-1] = out[-1].replace("<text ", '<text fill="#ffffff" ', 1)
    out.append(text(210, y - 8, "stock", 11, fill="#c9d6f0"))
    if state.stock:
        out.extend(_card(210, y, "", face_down=True))
    out.append(text(264, y + 20, f"{len(state.stock)} card(s) left", 12, fill="#ffffff"))
    # a click anywhere on a pile names it (``Game.choices``): invisible, over the cards
    spots = [(p, 10 + k * col, y_station) for k, p in enumerate(STATIONS)]
    spots += [(p, 10 + k * col, y_pad) for k, p in enumerate(PADS)] + [(WASTE, 10, y), (STOCK, 210, y)]
    out.extend(rect(x, top, 48, 96, fill="#ffffff", fill_opacity=0, data_spot=place) for place, x, top in spots)
    y += 126
    notes = []
    if state.stranded:
        notes.append(f"emergency rules apply: {' '.join(state.stranded)} in the waste heap")
    notes.append(render(state).splitlines()[-1])  # the state of play, as the text picture says it
    if viewer.sees_all and state.dealt:
        for place in (*STATIONS, *PADS, WASTE):
            pile = state.pile(place)
            if len(pile) > 1:
                notes.append(f"{place} (bottom to top): {' '.join(pile)}")
        if state.stock_known and held(state.stock):
            notes.append(f"stock (turning order): {' '.join(state.stock) or '-'}")
    lines: list[str] = []
    for note in notes:  # wrap long lines at about 60 characters
        words, current = note.split(" "), ""
        for word in words:
            if current and len(current) + len(word) > 60:
                lines.append(current)
                current = "   " + word
            else:
                current = f"{current} {word}" if current else word
        lines.append(current)
    for k, row in enumerate(lines):
        out.append(text(10, y + k * 17, row, 12, fill="#ffffff"))
    height = y + len(lines) * 17
    out[0] = rect(0, 0, width, height, fill="#0f1a33")
    return document(width, height, out, size=size, title=head)
