"""Pictures of a Solarius Mission position as one viewer sees it, drawn from his observation alone
(``observation.py``: the state with every field he may not see ``Withheld``): the deck, the hubs not
built and the start cards are listed only where the observation holds them (the referee's), a hand
only where it holds it (its owner's and the referee's); elsewhere their sizes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from ..declared import held
from ..observe import Viewer
from .board import OUTER
from .components import COLOURS
from .state import State, contamination_spaces, describe_phase, open_cells, phase


def _bridge(state: State) -> str:
    values = state.cset.number("bridge.wheel.values")
    parts = []
    for value, dice in zip(values, state.bridge):
        parts.append(f"[{value:+d}] " + (" ".join(f"{d.colour}{d.face}" for d in dice) or "-"))
    return "  ".join(parts)


TABLE = Viewer.table()


def render(state: State, viewer: Viewer = TABLE) -> str:
    """The text picture of ``state`` (as ``viewer`` observes it); a player sees his own hand, each
    card's two sides in words."""
    from .rules import card_side_text

    n = state.cset.number
    faces = n("mat.tech.faces")
    face_vp = n("mat.tech.face_vp")
    lines = [
        f"Solarius Mission ({state.cset.name}) - game turn {state.turn or '-'} of {n('dice.hubs.game_turns')}, "
        f"phase: {phase(state)}",
        f"bridge: {_bridge(state)}",
        "bag: " + " ".join(f"{c} {k}" for c, k in zip(COLOURS, state.bag))
        + f" | hubs built: {' '.join(state.hubs_built) or '-'}"
        + f" | deck {len(state.deck)} cards, discard {len(state.discard)}"
        + f" | pool: {state.resource_pool} resources, {state.contamination_pool} contamination, {state.drive_pool} drives",
    ]
    if held(state.deck) and held(state.hubs):
        lines.append(f"deck (unordered): {' '.join(map(str, state.deck))}; hubs hidden: {' '.join(state.hubs)}")
    for i, player in enumerate(state.players):
        mat = state.mats[i]
        marks = []
        if i == state.start_player:
            marks.append("start player")
        if i == state.actor and phase(state) not in ("over",):
            marks.append("to act" if state.setup_done else "")
        head = f"{player}" + (f" ({', '.join(m for m in marks if m)})" if any(marks) else "")
        lines.append("")
        lines.append(
            f"{head}: fuel {mat.fuel}, SpaceBucks {mat.bucks}, contamination {mat.contamination}/"
            f"{contamination_spaces(state, mat)} + {mat.beside} beside, drives own 1"
            + (" + " + " ".join(map(str, mat.drives)) if mat.drives else "")
        )
        for r, colour in enumerate(COLOURS):
            t = mat.tech[r]
            tech = f"{faces[t]}" + (f"+{face_vp[t]}VP" if face_vp[t] else "")
            store = mat.storage[r]
            lines.append(
                f"  {colour:<9} tech die {tech:<6} in column {('I', 'II', 'III', 'IV', 'V')[mat.columns[r] - 1]:<3} "
                f"storage I:{store[0]} II:{store[1]} III:{store[2]}"
            )
        own = held(mat.hand) and viewer.is_player(player)
        hand = (f"{len(mat.hand)} card(s)" if not held(mat.hand) else f"(yours) {' '.join(map(str, mat.hand)) or '-'}"
                if own else " ".join(map(str, mat.hand)))
        lines.append(
            f"  hand: {hand}; missions: {' '.join(map(str, mat.missions)) or '-'}; developments: "
            f"{' '.join(map(str, mat.developments)) or '-'}; dice: {' '.join(f'{d.colour}{d.face}' for d in mat.dice) or '-'}"
        )
        if own:
            lines.extend(f"    card {cid}: {card_side_text(state.cset, cid, 'mission')} | {card_side_text(state.cset, cid, 'development')}"
                         for cid in mat.hand)
    if state.die is not None:
        d = state.die
        lines.append("")
        lines.append(
            f"die in play: {d.colour}{d.face} on the {d.space} space"
            + (f" acting as {d.acts_as}" if d.acts_as != d.colour else "")
            + f", {d.action_points + d.bought} action point(s)" + (f" ({d.bought} bought)" if d.bought else "")
        )
    if state.effects:
        lines.append("waiting effects: " + "; ".join(f"{e.kind} {e.colour} {e.count}".replace("  ", " ") for e in state.effects))
    if state.placement:
        lines.append("")
        lines.extend(space_lines(state))
    return "\n".join(lines)


# -- space as text (part 2) -------------------------------------------------------------------------------

PLANET_LETTER = {"black": "k", "yellow": "y", "turquoise": "t", "brown": "b"}
FIGURE_LETTER = {"colony": "c", "station": "s", "mission": "m"}
CELL = 6  # characters per hex (up to 5 and a space); the next row is shifted by half a hex


def _cell(state: State, bd, built: dict, planets: dict, h) -> str:
    space = bd.space(h)
    figure = state.figure_at(h)
    planet = planets.get(h)
    if figure is not None:
        text = f"{state.index(figure.player) + 1}{FIGURE_LETTER[figure.kind]}" + ("+" if figure.outpost else "")
    elif space.kind == "hub":
        text = f"[{built[h]}]" if h in built else f"({space.tile})"
    elif planet is not None:
        text = "?" if planet < 0 else f"{PLANET_LETTER[state.cset.planets[planet].colour]}{state.cset.planets[planet].vp}"
    else:
        text = {"home": "H", "portal": "O"}.get(space.kind, ".")
    ships = [i + 1 for i, s in enumerate(state.ships) if s == h]
    if ships:
        own = figure is not None and ships == [state.index(figure.player) + 1]
        mark = "^" if own else "^" + "".join(map(str, ships))
        text = text + mark if len(text) + len(mark) < CELL else text[:1] + "^^"
    return text[:CELL - 1].ljust(CELL)


def _by_label(state: State, hexes) -> list:
    bd = state.board
    order = ("centre", *OUTER)
    return sorted(hexes, key=lambda h: (order.index(bd.tile(h)), bd.space(h).number))


def _grid(bd, cell) -> list[str]:
    """The map's rows, each hex ``cell(hex)`` (CELL characters), a row shifted half a hex from the next."""
    col = {h: CELL * h.q + (CELL // 2) * h.r for h in bd.hexes}
    left = min(col.values())
    rows: dict[int, list[str]] = {}
    for h in bd.hexes:
        row = rows.setdefault(h.r, [])
        x = col[h] - left
        if len(row) < x:
            row.extend(" " * (x - len(row)))
        row[x:x + CELL] = list(cell(h))
    return ["  " + "".join(rows[r]).rstrip() for r in sorted(rows)]


def space_lines(state: State) -> list[str]:
    """The map as text: every ship, figure, planet (face down or its colour and VP), portal and hub.
    Face-down planets show only "?" (the state holds no more: chance names a planet when it is turned)."""
    bd = state.board
    built = {hx: letter for letter, hx in state.hub_hexes}
    on_map = dict(state.planets_on_map)
    out = ["space (H = home, O = portal, ? = planet face down, y2 = yellow planet of 2 VP (k black, t turquoise, "
           "b brown), [A] = hub A built, (A) = hub space of tile A, 1c / 1s / 1m = colony / station / mission of "
           "player 1, + outpost, ^1 = ship of player 1 (^ alone: of the figure's player), ^^ = several ships):"]
    out.extend(_grid(bd, lambda h: _cell(state, bd, built, on_map, h)))
    out.append("the same hexes by their labels (tile letter and the number printed on the tile; commands use them):")
    out.extend(_grid(bd, lambda h: bd.label(h).ljust(CELL)))
    tiles = ", ".join(f"{letter} turned {rot}" for letter, rot in state.placement)
    out.append(f"tiles clockwise from the top: {tiles}")
    out.append("ships: " + ", ".join(f"{p} {bd.label(h)}" for p, h in zip(state.players, state.ships)))
    planets = dict(state.planets_on_map)
    down = [bd.label(h) for h in _by_label(state, planets) if planets[h] < 0]
    up = [f"{bd.label(h)} planet {planets[h]} ({state.cset.planets[planets[h]].colour} {state.cset.planets[planets[h]].vp} VP)"
          for h in _by_label(state, planets) if planets[h] >= 0]
    out.append(f"planets face down ({len(down)}): {' '.join(down) or '-'}")
    if up:
        out.append("planets face up: " + ", ".join(up))
    if state.figures:
        out.append("figures: " + ", ".join(
            f"{f.player} {f.kind} {bd.label(f.hex)}" + (" with outpost" if f.outpost else "") for f in state.figures))
    hubs = [f"{letter} at {bd.label(h)}" for letter, h in state.hub_hexes]
    out.append(f"hubs built: {', '.join(hubs) or '-'}; portals: {' '.join(bd.label(h) for h in _by_label(state, bd.portals))}")
    return out


# -- the picture (docs/pictures.md) ----------------------------------------------------------------------

DIE_FILL = {"black": "#1f1f1f", "yellow": "#f2c200", "turquoise": "#22b3b3", "brown": "#8b5a2b"}
DIE_INK = {"black": "#ffffff", "yellow": "#1a1a1a", "turquoise": "#1a1a1a", "brown": "#ffffff"}
ROW_TINT = {"black": "#d9d9d9", "yellow": "#fff3bf", "turquoise": "#d2f2f2", "brown": "#ead9c6"}
CUBE_FILL = "#7b3294"  # contamination cubes
WIDTH = 420
INK = "#1a1a1a"
MUTED = "#555555"


def _wrap(text: str, chars: int = 64) -> list[str]:
    out: list[str] = []
    current = ""
    for word in text.split(" "):
        if current and len(current) + 1 + len(word) > chars:
            out.append(current)
            current = "   " + word
        else:
            current = f"{current} {word}" if current else word
    out.append(current)
    return out


def _changed(state: State, last) -> set[tuple]:  # noqa: C901 - one branch per event type
    """What the last command changed, as keys of the picture's parts."""
    from . import events as ev

    keys: set[tuple] = set()
    for e in last or ():
        p = getattr(e, "player", "")
        if isinstance(e, (ev.TrackChanged, ev.BonusTaken, ev.PlanetSettled)):
            if e.fuel:
                keys.add(("fuel", p))
            if e.bucks:
                keys.add(("bucks", p))
            if isinstance(e, ev.PlanetSettled):
                keys.add(("planets", p))
        elif isinstance(e, (ev.Contaminated, ev.ContaminationRemoved)):
            keys.add(("contamination", p))
        elif isinstance(e, (ev.ResourcesPlaced, ev.ResourcesRemoved)):
            keys.update(("storage", p, colour) for colour, _ in e.cubes)
        elif isinstance(e, (ev.TechUpgraded, ev.TechShifted)):
            keys.update(("tech", p, colour) for colour in e.colours)
        elif isinstance(e, (ev.StartCardDealt, ev.StartChosen)):
            keys.add(("hand", p))
            keys.update(("tech", p, colour) for colour in COLOURS)
            keys.update(("storage", p, colour) for colour in COLOURS)
        elif isinstance(e, (ev.CardDrawn, ev.CardDiscarded, ev.CardsRequested)):
            keys.add(("hand", p))
        elif isinstance(e, ev.CardPlayed):
            keys.add(("hand", p))
            keys.add(("missions" if e.side == "mission" else "developments", p))
        elif isinstance(e, (ev.DrivesBought, ev.DrivesGained, ev.DriveUpgraded)):
            keys.add(("drives", p))
        elif isinstance(e, ev.DieTaken):
            keys.add(("dice", p))
            keys.add(("bridge", e.bonus))
            keys.add(("die",))
        elif isinstance(e, (ev.ActionPointsBought, ev.ActionPointsAdded, ev.EffectWaiting, ev.EffectResolved)):
            keys.add(("die",))
        elif isinstance(e, ev.Refilled):
            keys.update(("bridge", v) for v in state.cset.number("bridge.wheel.values"))
        elif isinstance(e, (ev.BridgeSetUp, ev.SetupDieRolled)):
            keys.update(("bridge", v) for v in state.cset.number("bridge.wheel.values"))
        elif isinstance(e, ev.HubRevealed):
            keys.add(("hub", e.turn))
        elif isinstance(e, ev.StartingPlayerChosen):
            keys.add(("start",))
        elif isinstance(e, ev.GameTurnEnded):
            keys.add(("start",))
            keys.update(("dice", q) for q in state.players)
    return keys


def _die(x: float, y: float, colour: str, face: str, size: float = 22, *, highlight: bool = False) -> list[str]:
    from ..svg import HIGHLIGHT, rect, text

    stroke, width = (HIGHLIGHT, 3.5) if highlight else ("#000000", 1)
    return [
        rect(x, y, size, size, rx=4, fill=DIE_FILL[colour], stroke=stroke, stroke_width=width),
        text(x + size / 2, y + size / 2 + 4, face, 11 if len(face) > 2 else 12, anchor="middle",
             fill=DIE_INK[colour], font_weight="bold"),
    ]


def _outline(x: float, y: float, w: float, h: float) -> str:
    from ..svg import HIGHLIGHT, rect

    return rect(x, y, w, h, rx=3, fill="none", stroke=HIGHLIGHT, stroke_width=3)


def _track(x: float, y: float, label: str, value: int, maximum: int, highlight: bool) -> list[str]:
    from ..svg import circle, rect, text

    out = [text(x, y + 13, label, 12, fill=INK)]
    x0, cell = x + 82, 28
    for v in range(maximum + 1):
        on = v == value
        out.append(rect(x0 + v * cell, y, cell - 2, 18, fill="#fff8e0" if on else "#f4f4f4", stroke="#999999",
                        stroke_width=0.8))
        out.append(text(x0 + v * cell + (cell - 2) / 2, y + 13, v, 10, anchor="middle", fill=MUTED))
        if on:
            out.append(circle(x0 + v * cell + (cell - 2) / 2, y + 9, 8.5, fill="none", stroke=INK, stroke_width=2))
    if highlight:
        out.append(_outline(x0 + value * cell - 2, y - 2, cell + 2, 22))
    return out


_MATS: dict[tuple, tuple] = {}


def _mat(state: State, i: int, y: float, keys: set[tuple], viewer: Viewer) -> tuple[list[str], float]:
    """One player's mat from ``y`` down: the picture and the height it took. A mat is drawn from
    what is named in the key below alone, so a mat that did not change is drawn once (most mats of
    neighbouring positions: the HTML replay draws every position of a game)."""
    player = state.players[i]
    ph = phase(state)
    to_act = state.setup_done and ph not in ("over", "refill", "hub", "card") and i == state.actor
    marked = frozenset(k for k in keys if (len(k) > 1 and k[1] == player) or (k == ("start",) and i == state.start_player))
    key = (id(state.cset), i, player, state.mats[i], i == state.start_player, to_act, y, viewer.is_player(player), marked)
    hit = _MATS.get(key)
    if hit is not None and hit[0] is state.cset:
        return hit[1], hit[2]
    out, bottom = _draw_mat(state, i, y, keys, to_act, viewer)
    if len(_MATS) >= 4096:
        _MATS.clear()
    _MATS[key] = (state.cset, out, bottom)  # the set kept, so that its id() is not reused while this lives
    return out, bottom


def _draw_mat(state: State, i: int, y: float, keys: set[tuple], to_act: bool, viewer: Viewer  # noqa: C901
              ) -> tuple[list[str], float]:
    from ..svg import HIGHLIGHT, rect, text
    from .rules import card_side_text

    n = state.cset.number
    player = state.players[i]
    mat = state.mats[i]
    marks = [m for m, on in (("start player", i == state.start_player), ("to act", to_act)) if on]
    out = [rect(0, y, WIDTH, 24, fill="#2b3a55")]
    out.append(text(8, y + 17, f"{player}" + (f" ({', '.join(marks)})" if marks else ""), 14, fill="#ffffff",
                    font_weight="bold"))
    if ("start",) in keys and i == state.start_player:
        out.append(_outline(2, y + 2, WIDTH - 4, 20))
    y += 32
    top = n("mat.track.maximum")
    out.extend(_track(8, y, "fuel", mat.fuel, top, ("fuel", player) in keys))
    y += 24
    out.extend(_track(8, y, "SpaceBucks", mat.bucks, top, ("bucks", player) in keys))
    y += 30
    # the four rows: tech die in columns I-V, storage columns I-III (the pyramid)
    faces, face_vp = n("mat.tech.faces"), n("mat.tech.face_vp")
    cells = n("mat.storage.cells")
    col_x, col_w = 84, 31
    store_x = [250, 250 + 3 * 16 + 8, 250 + 5 * 16 + 16]
    out.append(text(8, y + 10, "tech dice", 11, fill=MUTED))
    for k, name in enumerate(("I", "II", "III", "IV", "V")):
        out.append(text(col_x + k * col_w + col_w / 2, y + 10, name, 11, anchor="middle", fill=MUTED))
    for k, name in enumerate(("I", "II", "III")):
        width = cells[k] * 16 - 2
        out.append(text(store_x[k] + width / 2, y + 10, name, 11, anchor="middle", fill=MUTED))
    out.append(text(WIDTH - 8, y + 10, "storage", 11, anchor="end", fill=MUTED))
    y += 16
    for r, colour in enumerate(COLOURS):
        out.append(rect(4, y, WIDTH - 8, 30, fill=ROW_TINT[colour], stroke="#bbbbbb", stroke_width=0.6))
        out.append(text(10, y + 19, colour, 12, fill=INK))
        for k in range(5):
            out.append(rect(col_x + k * col_w, y + 2, col_w - 3, 26, fill="none", stroke="#aaaaaa", stroke_width=0.6))
        column = mat.columns[r]
        t = mat.tech[r]
        face = f"{faces[t]}+{face_vp[t]}" if face_vp[t] else f"{faces[t]}"
        out.extend(_die(col_x + (column - 1) * col_w + 1.5, y + 3, colour, face, 24,
                        highlight=("tech", player, colour) in keys))
        open_ = open_cells(state, mat, colour)
        for k in range(3):
            for cell in range(cells[k]):
                x = store_x[k] + cell * 16
                filled = cell < mat.storage[r][k]
                fill = DIE_FILL[colour] if filled else ("#ffffff" if cell < open_[k] else "#9a9a9a")
                out.append(rect(x, y + 8, 14, 14, fill=fill, stroke="#444444", stroke_width=0.8))
        if ("storage", player, colour) in keys:
            out.append(_outline(store_x[0] - 3, y + 5, store_x[2] + 14 - store_x[0] + 6, 20))
        y += 32
    out.append(text(8, y + 12, "grey cells: not open yet (right of the tech die)", 10, fill=MUTED))
    y += 20
    # contamination: the spaces, then the cubes beside the mat
    spaces = contamination_spaces(state, mat)
    out.append(text(8, y + 13, "contamination", 12, fill=INK))
    x = 100
    for s in range(spaces):
        out.append(rect(x + s * 18, y + 1, 16, 16, fill=CUBE_FILL if s < mat.contamination else "#ffffff",
                        stroke="#444444", stroke_width=0.8))
    x += spaces * 18 + 10
    out.append(text(x, y + 13, "beside:", 11, fill=MUTED))
    x += 44
    shown = min(mat.beside, 8)
    for s in range(shown):
        out.append(rect(x + s * 13, y + 4, 11, 11, fill=CUBE_FILL, stroke="#222222", stroke_width=0.6))
    out.append(text(x + shown * 13 + 2, y + 13, f"{mat.beside}", 11, fill=INK))
    if ("contamination", player) in keys:
        out.append(_outline(96, y - 2, WIDTH - 100, 22))
    y += 24
    # drives (the own drive and the common slots) and the space station slots
    out.append(text(8, y + 13, "drives", 12, fill=INK))
    x = 100
    slots = n("mat.drives.common_slots")
    out.append(rect(x, y + 1, 22, 16, fill="#e8e8e8", stroke="#444444", stroke_width=0.8))
    out.append(text(x + 11, y + 13, n("mat.drives.own"), 11, anchor="middle", fill=INK))
    for s in range(slots):
        value = mat.drives[s] if s < len(mat.drives) else None
        out.append(rect(x + 28 + s * 26, y + 1, 22, 16, fill="#c9e4ff" if value else "#ffffff", stroke="#444444",
                        stroke_width=0.8, stroke_dasharray=None if value else "3 2"))
        if value:
            out.append(text(x + 28 + s * 26 + 11, y + 13, value, 11, anchor="middle", fill=INK))
    if ("drives", player) in keys:
        out.append(_outline(x - 3, y - 2, 28 + slots * 26 + 4, 22))
    x = 220
    out.append(text(x, y + 13, "stations", 12, fill=INK))
    station_slots = len(n("mat.stations.slot_vp"))
    for s in range(station_slots):
        sid = mat.stations[s] if s < len(mat.stations) else None
        out.append(rect(x + 56 + s * 34, y + 1, 30, 16, fill="#dff0d8" if sid else "#ffffff", stroke="#444444",
                        stroke_width=0.8, stroke_dasharray=None if sid else "3 2"))
        if sid:
            out.append(text(x + 56 + s * 34 + 15, y + 13, sid, 11, anchor="middle", fill=INK))
    y += 24
    # the action dice on the mat this game turn
    out.append(text(8, y + 15, "dice taken", 12, fill=INK))
    for s, d in enumerate(mat.dice):
        fresh = ("dice", player) in keys and s == len(mat.dice) - 1
        out.extend(_die(100 + s * 26, y, d.colour, d.face, 22, highlight=fresh))
    if not mat.dice:
        out.append(text(100, y + 15, "-", 12, fill=MUTED))
    y += 28
    # cards and planets: the hand where the observation holds it (its owner's, the referee's), else its backs
    notes: list[tuple[str, tuple]] = []
    if held(mat.hand) and not viewer.is_player(player):
        notes.append((f"hand (revealed): {' '.join(map(str, mat.hand)) or '-'}", ("hand", player)))
    elif held(mat.hand):
        notes.append((f"hand (yours): {' '.join(map(str, mat.hand)) or '-'}", ("hand", player)))
        notes.extend((f"  card {cid}: {card_side_text(state.cset, cid, 'mission')}", ("hand", player)) for cid in mat.hand)
    else:
        notes.append((f"hand: {len(mat.hand)} card(s), face down", ("hand", player)))
    for cid in mat.missions:
        notes.append((f"mission {cid}: {card_side_text(state.cset, cid, 'mission').split(': ', 1)[1]}",
                      ("missions", player)))
    if not mat.missions:
        notes.append(("missions: -", ("missions", player)))
    if mat.completed:
        notes.append((f"missions completed: {' '.join(map(str, mat.completed))}", ("missions", player)))
    for cid in mat.developments:
        notes.append((f"development {cid}: {card_side_text(state.cset, cid, 'development').split(': ', 1)[1]}",
                       ("developments", player)))
    if not mat.developments:
        notes.append(("developments: -", ("developments", player)))
    notes.append((f"planets waiting: {' '.join(map(str, mat.planets_waiting)) or '-'}; settled: "
                  f"{' '.join(map(str, mat.planets_settled)) or '-'}", ("planets", player)))
    for note, key in notes:
        lines = _wrap(note)
        if key in keys:
            out.append(rect(4, y + 1, WIDTH - 8, 17 * len(lines) + 2, fill="none", stroke=HIGHLIGHT, stroke_width=2.5))
        for row in lines:
            out.append(text(8, y + 14, row, 12, fill=INK))
            y += 17
    return out, y + 10


def _bridge_and_notes(state: State, keys: set[tuple], y: float) -> tuple[list[str], float]:
    """The bridge (the bonus wheel's five spaces, the dice on them, each an invisible ``data-spot``) and
    the notes under it (the bag, the deck, the die in play, the phase)."""
    from ..svg import rect, text
    from .rules import die_step

    n = state.cset.number
    out: list[str] = []
    # the bridge: five spaces of the bonus wheel, the dice on them
    values = n("bridge.wheel.values")
    out.append(text(8, y + 12, "bridge (bonus wheel)", 12, fill=INK, font_weight="bold"))
    y += 18
    most = max((len(d) for d in state.bridge), default=0)
    rows = max(1, -(-most // 3))
    box_w, box_h = 80, 22 + rows * 25
    for k, (value, dice) in enumerate(zip(values, state.bridge)):
        x = 8 + k * (box_w + 2)
        out.append(rect(x, y, box_w - 2, box_h, rx=4, fill="#eef2fa", stroke="#5a6d96", stroke_width=1))
        out.append(text(x + (box_w - 2) / 2, y + 14, f"{value:+d}" if value else "0", 12, anchor="middle",
                        fill=INK, font_weight="bold"))
        for j, die in enumerate(dice):
            out.extend(_die(x + 3 + (j % 3) * 25, y + 20 + (j // 3) * 25, die.colour, die.face, 22))
        for j, die in enumerate(dice):  # a click on a die takes it (``Game.choices``): invisible, over the dice
            out.append(rect(x + 3 + (j % 3) * 25, y + 20 + (j // 3) * 25, 22, 22, fill="#ffffff", fill_opacity=0,
                            data_spot=die_step(die.colour, die.face, value)))
        if ("bridge", value) in keys:
            out.append(_outline(x - 1, y - 1, box_w, box_h + 2))
    y += box_h + 8
    bag = " ".join(f"{col} {k}" for col, k in zip(COLOURS, state.bag))
    notes = [f"bag: {bag}", f"progress deck {len(state.deck)} card(s), discard pile {len(state.discard)}"]
    if held(state.deck):
        notes.append(f"deck (revealed, unordered): {' '.join(map(str, state.deck)) or '-'}")
    if held(state.start_cards) and state.start_cards:
        notes.append(f"start cards not dealt (revealed): {' '.join(map(str, state.start_cards))}")
    d = state.die
    if d is not None:
        notes.append(
            f"die in play: {d.colour}{d.face} on the {d.space} space"
            + (f" acting as {d.acts_as}" if d.acts_as != d.colour else "")
            + f", {d.action_points + d.bought} action point(s)" + (f" ({d.bought} bought)" if d.bought else "")
        )
    if state.effects:
        notes.append("waiting effects: " + "; ".join(f"{e.count} {e.kind}" + (f" ({e.colour})" if e.colour else "")
                                                   for e in state.effects))
    ph = phase(state)
    notes.append("the game is over" if ph == "over" else f"now: {describe_phase(state)}")
    for note in notes:
        lines = _wrap(note)
        if note.startswith("die in play") and ("die",) in keys:
            out.append(_outline(4, y, WIDTH - 8, 17 * len(lines) + 3))
        for row in lines:
            out.append(text(8, y + 14, row, 12, fill=INK))
            y += 17
    y += 8
    return out, y


def svg(state: State, viewer: Viewer = TABLE, *, last=None, size: int | None = 400) -> str:
    """The bridge (the bonus wheel's five spaces with the dice on them), the game turn with the
    commercial hubs revealed so far, then each player's mat: fuel and SpaceBucks, the four rows with
    their tech dice in columns I-V and the storage pyramid, contamination on the spaces and beside
    the mat, drives, space station slots, the dice taken, the hand (face down unless the observation holds it),
    missions and developments, planets; above them space, the hex map (``space_map``); a seat sees the
    bridge and its own mat above the map, the others' mats below it. ``last``
    (the events of the last command) is outlined in orange. Each die on the bridge carries an invisible
    square named ``data-spot="black3@-1"``, each hex an invisible hexagon named by its label, the steps
    ``Game.choices`` names."""
    from ..svg import document, rect, text

    n = state.cset.number
    keys = _changed(state, last)
    turns = n("dice.hubs.game_turns")
    head = f"Solarius Mission: game turn {state.turn or '-'} of {turns}"
    out = [rect(0, 0, WIDTH, 0, fill="#ffffff")]
    out.append(rect(0, 0, WIDTH, 30, fill="#0f1a33"))
    out.append(text(8, 21, head, 15, fill="#ffffff", font_weight="bold"))
    y: float = 40
    start = state.players[state.start_player] if state.start_player >= 0 else "not chosen yet"
    out.append(text(8, y + 12, f"start player: {start}", 12, fill=INK))
    if ("start",) in keys:
        out.append(_outline(4, y - 2, 200, 20))
    y += 22
    # the game turn spaces and the commercial hubs revealed on them
    out.append(text(8, y + 15, "hubs", 12, fill=INK))
    for t in range(turns):
        x = 60 + t * 44
        current = t + 1 == state.turn
        out.append(rect(x, y, 38, 22, rx=3, fill="#fff8e0" if current else "#f4f4f4", stroke=INK if current else "#999999",
                        stroke_width=2 if current else 0.8))
        letter = state.hubs_built[t] if t < len(state.hubs_built) else "?"
        out.append(text(x + 19, y + 16, f"{t + 1}: {letter}", 11, anchor="middle", fill=INK))
        if ("hub", t + 1) in keys:
            out.append(_outline(x - 2, y - 2, 42, 26))
    out.append(text(60 + turns * 44 + 4, y + 15, f"hidden: {len(state.hubs)}", 11, fill=MUTED))
    y += 30
    if held(state.hubs):
        out.append(text(8, y + 12, f"hidden hubs (revealed): {' '.join(state.hubs) or '-'}", 11, fill=MUTED))
        y += 18
    # a seat's own picture (issue 43): the bridge and its own mat come before the map, so on a phone the
    # dice to take and the mat they go to are within the first two screens; the others' mats after the map
    own = next((i for i, p in enumerate(state.players) if viewer.is_player(p)), None)
    if own is None:
        if state.has_map and state.placement:  # space: the hex map once the tiles lie around the centre
            part, y = space_map(state, last=last, top=y)
            out.extend(part)
            y += 6
        part, y = _bridge_and_notes(state, keys, y)
        out.extend(part)
        order = list(range(len(state.players)))
    else:
        part, y = _bridge_and_notes(state, keys, y)
        out.extend(part)
        part, y = _mat(state, own, y, keys, viewer)
        out.extend(part)
        if state.has_map and state.placement:  # space: the hex map once the tiles lie around the centre
            part, y = space_map(state, last=last, top=y)
            out.extend(part)
            y += 6
        order = [i for i in range(len(state.players)) if i != own]
    for i in order:
        part, y = _mat(state, i, y, keys, viewer)
        out.extend(part)
    height = round(y)
    out[0] = rect(0, 0, WIDTH, height, fill="#ffffff")
    return document(WIDTH, height, out, size=size, title=head)


# -- space: the hex map (003 2.1, 4.0) --------------------------------------------------------------------

# Player colours by seat (the game's own colours are not in the text); none is a planet colour or the highlight.
PLAYER_FILL = ("#d62728", "#1f77b4", "#2ca02c", "#e377c2")
PLANET_FILL = {"black": "#2b2b2b", "yellow": "#f2c200", "turquoise": "#22b3b3", "brown": "#8b5a2b"}
PLANET_INK = {"black": "#ffffff", "yellow": "#1a1a1a", "turquoise": "#1a1a1a", "brown": "#ffffff"}
TILE_FILL = {"centre": "#e9edf7", "A": "#eef6ee", "B": "#f6f0e6", "C": "#eef3f8", "D": "#f7eef3", "E": "#f3f3e6",
             "F": "#eaf4f4"}
SPACE_INK = "#0f1a33"
FACE_DOWN = "#6b6f7a"
SQRT3 = 3 ** 0.5


def _corners(x: float, y: float, size: float) -> list[tuple[float, float]]:
    """A pointy-top hexagon's corners around (x, y)."""
    import math

    return [(x + size * math.cos(math.radians(60 * k - 30)), y + size * math.sin(math.radians(60 * k - 30)))
            for k in range(6)]


def _octagon(x: float, y: float, r: float) -> list[tuple[float, float]]:
    import math

    return [(x + r * math.cos(math.radians(45 * k + 22.5)), y + r * math.sin(math.radians(45 * k + 22.5)))
            for k in range(8)]


def hex_centre(h, size: float) -> tuple[float, float]:
    """Axial (q, r) to the picture, pointy-top."""
    q, r = h
    return size * SQRT3 * (q + r / 2), size * 1.5 * r


def _changed_hexes(last) -> set:
    """Hexes named by the last command's events (a figure placed, a planet revealed, a flight's path)."""
    from .board import Hex

    out = set()
    for e in last or ():
        for value in attrs.asdict(e, recurse=False).values() if attrs.has(type(e)) else ():
            for h in value if isinstance(value, tuple) else (value,):
                if isinstance(h, Hex):
                    out.add(h)
    return out


LEGEND = 18.0  # the row under the map that names the symbols


def _legend(y: float, size: float) -> list[str]:
    """One row naming the symbols, each drawn as on the map."""
    from ..svg import circle, polygon, rect, text

    out = []
    x = 10.0
    r = 5.0
    items = (
        ("colony", lambda x: circle(x, y - 4, r, fill=MUTED)),
        ("station", lambda x: polygon(_octagon(x, y - 4, r * 1.1), fill=MUTED)),
        ("mission", lambda x: rect(x - r, y - 4 - r, 2 * r, 2 * r, fill=MUTED)),
        ("outpost", lambda x: circle(x, y - 4, r, fill="none", stroke=MUTED, stroke_width=2)),
        ("ship", lambda x: polygon([(x, y - 4 - r), (x + r, y - 4 + r), (x - r, y - 4 + r)], fill=MUTED)),
        ("portal", lambda x: circle(x, y - 4, r, fill="#efe3fb", stroke="#7b3294", stroke_width=1.5)),
        ("? face down", lambda x: circle(x, y - 4, r, fill=FACE_DOWN)),
    )
    for word, draw in items:
        out.append(draw(x))
        out.append(text(x + r + 3, y, word, 10, fill=INK))
        x += r * 2 + 7 + 5.6 * len(word)
    return out


def ship_at(centre: tuple[float, float], size: float, k: int) -> tuple[float, float]:
    """Where the k-th ship in a hex is drawn: along the hex's upper edge, clear of its figure."""
    x, y = centre
    return x - size * 0.42 + k * size * 0.28, y - size * 0.5


def map_layout(board, width: float = WIDTH, top: float = 0.0):
    """Where the map draws each hex: ``at(hex) -> (x, y)`` in the picture's units, the hexagon's
    size (centre to corner) and the map's height (its title row included)."""
    hexes = board.hexes  # sorted
    xs = [hex_centre(h, 1.0)[0] for h in hexes]
    ys = [hex_centre(h, 1.0)[1] for h in hexes]
    margin = 8.0
    size = min((width - 2 * margin) / (max(xs) - min(xs) + SQRT3), 40.0)
    ox = margin + (width - 2 * margin - (max(xs) - min(xs) + SQRT3) * size) / 2 - (min(xs) - SQRT3 / 2) * size
    oy = top + 22 + margin - (min(ys) - 1) * size
    height = (max(ys) - min(ys) + 2) * size + 2 * margin + 22 + LEGEND

    def at(h) -> tuple[float, float]:
        x, y = hex_centre(h, size)
        return x + ox, y + oy

    return at, size, height


LABEL_FONT = 0.48  # a hex label's font size, of the hex's size (centre to corner)


@attrs.frozen
class _MapBackground:
    """What a board draws the same at every position (per width, top and player count): the tiles,
    each hex's printed space and label, the legend; the spaces that change are drawn per position."""

    board: object  # kept, so that the cache's id() key is not reused while the entry lives
    place: Callable[[Any], tuple[float, float]]  # map_layout's ``at``
    at: dict  # its value on every hex of the board
    size: float
    height: float
    tiles: tuple[str, ...]
    spaces: tuple[tuple, ...]  # (hex, kind, its elements when fixed else None, its label)
    legend: tuple[str, ...]
    spots: tuple[str, ...]  # over everything, invisible: each hex named by its label (``Game.choices``'s step)


_BACKGROUNDS: dict[tuple, _MapBackground] = {}


def _map_background(b, width: float, top: float, players: int) -> _MapBackground:
    """The board's fixed drawing, made once per board (a game's pictures share one board object)."""
    from ..svg import circle, polygon, text
    from . import board as geo

    key = (id(b), width, top, players)
    hit = _BACKGROUNDS.get(key)
    if hit is not None and hit.board is b:
        return hit
    at, size, height = map_layout(b, width, top)
    in_use = set(b.planet_spaces(players))
    positions = {h: at(h) for h in b.hexes}
    tiles = []
    spaces = []
    for h in b.hexes:
        x, y = positions[h]
        tiles.append(polygon(_corners(x, y, size * 0.98), fill=TILE_FILL.get(b.tile(h), "#f0f0f0"), stroke="#9aa3b5",
                             stroke_width=0.8))
        kind = b.kind(h)
        fixed: tuple[str, ...] | None = ()
        if kind == "home":
            fixed = (circle(x, y, size * 0.62, fill="#4a78c2", stroke=SPACE_INK, stroke_width=1),
                     text(x, y + size * 0.15, "home", size * 0.36, anchor="middle", fill="#ffffff"))
        elif kind == "planet":
            if h not in in_use:
                mark = b.marking(h)
                fixed = (circle(x, y, size * 0.5, fill="none", stroke="#b0b0b0", stroke_width=0.8,
                                stroke_dasharray="2 2"),
                         text(x, y + size * 0.15, mark or "-", size * 0.4, anchor="middle", fill="#b0b0b0"))
            else:
                fixed = None
        elif kind == "portal":
            fixed = (circle(x, y, size * 0.5, fill="#efe3fb", stroke="#7b3294", stroke_width=2),
                     circle(x, y, size * 0.25, fill="none", stroke="#7b3294", stroke_width=1.5))
        elif kind == "hub":
            fixed = None
        # the label in the hex's lower point, below whatever lies on it: LABEL_FONT of the hex's size, so
        # that at the replay page's board width (420 px, the picture's width) it renders at 8.5 px
        label = text(x, y + size * 0.93, geo.format_hex(h, b), size * LABEL_FONT, anchor="middle", fill="#5a6070")
        spaces.append((h, kind, fixed, label))
    if len(_BACKGROUNDS) >= 64:
        _BACKGROUNDS.clear()
    spots = tuple(polygon(_corners(positions[h][0], positions[h][1], size), fill="#ffffff", fill_opacity=0,
                          data_spot=geo.format_hex(h, b)) for h in b.hexes)
    made = _BACKGROUNDS[key] = _MapBackground(b, at, positions, size, height, tuple(tiles), tuple(spaces),
                                              tuple(_legend(top + height - 4, size)), spots)
    return made


def space_map(state: State, *, last=None, width: float = WIDTH, top: float = 0.0
              ) -> tuple[list[str], float]:
    """The hex map from ``top`` down, ``width`` wide: every tile (its letter), planet spaces (face
    down, or the planet's colour and VP; spaces not used with this many players faint with their
    "3"/"4"), portals, hub spaces (built: the hub's letter; not yet: dashed), every figure in its
    player's colour and kind (colony a disc, station an octagon, mission marker a cube, an outpost
    a ring around its figure), the ships. Face-down planets stay face down (which is which is in no state).
    Returns the elements and the height used."""
    changed = _changed_hexes(last)
    # drawn from what is named in the key alone: a map no command changed is drawn once
    key = (id(state.board), id(state.cset), state.players, state.planets_on_map, state.hub_hexes, state.figures,
           state.ships, frozenset(changed), width, top)
    hit = _MAPS.get(key)
    if hit is not None and hit[0] is state.board and hit[1] is state.cset:
        return hit[2], hit[3]
    out, bottom = _draw_space_map(state, changed, width, top)
    if len(_MAPS) >= 1024:
        _MAPS.clear()
    _MAPS[key] = (state.board, state.cset, out, bottom)  # both kept: their id()s are not reused while this lives
    return out, bottom


_MAPS: dict[tuple, tuple] = {}


def _draw_space_map(state: State, changed: set, width: float, top: float) -> tuple[list[str], float]:
    from ..svg import HIGHLIGHT, circle, polygon, rect, text

    b = state.board
    ground = _map_background(b, width, top, len(state.players))
    positions, size, height = ground.at, ground.size, ground.height
    at = ground.place
    players = {p: i for i, p in enumerate(state.players)}
    out = [rect(0, top, width, height, fill="#ffffff"),
           text(8, top + 16, "space", 13, fill=INK, font_weight="bold")]
    # the legend: each player's colour
    lx = width - 8
    for p in reversed(state.players):
        lx -= 7 * len(p) + 18
        out.append(circle(lx + 5, top + 12, 5, fill=PLAYER_FILL[players[p] % len(PLAYER_FILL)], stroke=INK, stroke_width=0.6))
        out.append(text(lx + 13, top + 16, p, 11, fill=INK))
    planets = dict(state.planets_on_map)
    hubs_built = {h: letter for letter, h in state.hub_hexes}
    # the hexes, tile by tile
    out.extend(ground.tiles)
    for h, kind, fixed, label in ground.spaces:
        if fixed is not None:
            out.extend(fixed)
        elif kind == "planet":
            x, y = positions[h]
            pid = planets.get(h)
            if pid is None:
                out.append(circle(x, y, size * 0.5, fill="none", stroke="#7a7a7a", stroke_width=0.8))
            elif pid < 0:
                out.append(circle(x, y, size * 0.5, fill=FACE_DOWN, stroke=SPACE_INK, stroke_width=1))
                out.append(text(x, y + size * 0.15, "?", size * 0.45, anchor="middle", fill="#ffffff", font_weight="bold"))
            else:
                planet = state.cset.planets[pid]
                out.append(circle(x, y, size * 0.5, fill=PLANET_FILL[planet.colour], stroke=SPACE_INK, stroke_width=1))
                out.append(text(x, y + size * 0.15, f"{planet.vp}", size * 0.45, anchor="middle",
                                fill=PLANET_INK[planet.colour], font_weight="bold"))
        else:  # a hub space
            x, y = positions[h]
            if h in hubs_built:
                out.append(polygon(_corners(x, y, size * 0.7), fill=SPACE_INK, stroke=SPACE_INK, stroke_width=1))
                out.append(text(x, y + size * 0.2, hubs_built[h], size * 0.6, anchor="middle", fill="#ffffff",
                                font_weight="bold"))
            else:
                # not built yet: the dashed space, its tile's letter (the hub that will come here)
                out.append(polygon(_corners(x, y, size * 0.7), fill="#ffffff", stroke=SPACE_INK, stroke_width=1,
                                   stroke_dasharray="3 2"))
                out.append(text(x, y + size * 0.2, b.tile(h), size * 0.6, anchor="middle", fill="#9aa3b5",
                                font_weight="bold"))
        out.append(label)
    # figures (over planets and hubs), then ships
    for f in state.figures:
        x, y = at(f.hex)
        fill = PLAYER_FILL[players[f.player] % len(PLAYER_FILL)]
        if f.outpost:
            out.append(circle(x, y, size * 0.74, fill="none", stroke=fill, stroke_width=size * 0.14))
        if f.kind == "colony":
            out.append(circle(x, y, size * 0.38, fill=fill, stroke="#ffffff", stroke_width=1.2))
        elif f.kind == "station":
            out.append(polygon(_octagon(x, y, size * 0.44), fill=fill, stroke="#ffffff", stroke_width=1.2))
        else:
            s = size * 0.6
            out.append(rect(x - s / 2, y - s / 2, s, s, fill=fill, stroke="#ffffff", stroke_width=1.2))
    ships: dict = {}
    for i, h in enumerate(state.ships):
        ships.setdefault(h, []).append(i)
    for h, seats in ships.items():
        for k, i in enumerate(seats):
            sx, sy = ship_at(at(h), size, k)
            s = size * 0.22
            out.append(polygon([(sx, sy - s), (sx + s * 0.8, sy + s * 0.7), (sx - s * 0.8, sy + s * 0.7)],
                               fill=PLAYER_FILL[i % len(PLAYER_FILL)], stroke=INK, stroke_width=0.8))
    out.extend(ground.legend)
    for h in sorted(changed):
        if h in b.hexes:
            x, y = at(h)
            out.append(polygon(_corners(x, y, size * 0.9), fill="none", stroke=HIGHLIGHT, stroke_width=3))
    out.extend(ground.spots)
    return out, top + height


# -- a progress card as printed (``solrec card solarius-mission N``) --------------------------------------

def cost_words(term) -> str:
    """A mission cost term in words: ``black 5`` = cubes of that colour of total value 5; ``yellow 2 II``
    = two cubes of value 2 (7.0 "III , 2 II etc.: The player needs resources of a certain kind and a
    certain value")."""
    if term.cubes:
        roman = {1: "I", 2: "II", 3: "III"}[term.cubes[0]]
        many = len(term.cubes)
        return f"{many} {term.colour} cube{'s' if many > 1 else ''} of value {term.cubes[0]} (column {roman})"
    return f"{term.colour} cubes of total value {term.total}"


def card_description(cset, number: int) -> dict:
    """Progress card ``number`` (the number used by ``play N``, ``discard N`` and the events): both sides
    as printed — the mission (its cost in the card's notation and in words, its VP) and the development
    (its effects in words, its die space) — and the provenance of its data."""
    from ..errors import InvalidSetup
    from . import effects

    if number not in cset.progress_cards:
        raise InvalidSetup(f"there is no progress card {number} in set {cset.name} "
                           f"(cards {min(cset.progress_cards)}-{max(cset.progress_cards)})")
    card = cset.card(number)
    immediate = [effects.describe(e) for e in card.immediate]
    permanent = [effects.describe(e) for e in card.permanent]
    die_space = None if card.die_space is None else {
        "colours": list(card.die_space.colours), "effects": [effects.describe(e) for e in card.die_space.effects]}
    data = {
        "card": number, "set": cset.name, "name": f"progress card {number}",
        "mission": {"cost": [t.text() for t in card.cost], "cost_words": [cost_words(t) for t in card.cost], "vp": card.vp},
        "development": {"immediate": immediate, "permanent": permanent, "die_space": die_space},
        "source": card.source,
    }
    lines = [f"progress card {number} (set {cset.name})",
             f"  mission: costs {' + '.join(t.text() for t in card.cost)} = {'; '.join(cost_words(t) for t in card.cost)}; "
             f"{card.vp} VP when completed (-1 VP if not)",
             "  development: " + "; ".join(
                 [*(f"at once: {x}" for x in immediate), *(f"lasting: {x}" for x in permanent)]
                 + ([f"die space ({' or '.join(die_space['colours'])}): {', '.join(die_space['effects'])}"] if die_space else [])
             ) if (immediate or permanent or die_space) else "  development: no effect",
             f"  source: {card.source}"]
    data["text"] = "\n".join(lines)
    return data
