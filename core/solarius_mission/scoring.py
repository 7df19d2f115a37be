"""End game scoring (003 11.0): every category is its own score line citing its sentence.

Categories that need space (planets, colour sets, stations, completed missions, figures next to
hubs, the network) are computed from the state like the others; without flight (part 1) the state
holds no planet, station or figure, so they score 0.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from ..game import ScoreLine, ScoreSheet
from . import text
from .components import COLOURS
from .effects import describe
from .state import Mat, State


def colour_sets(state: State, mat: Mat) -> tuple[int, int]:
    """Reading 16: the partition of settled planets into sets of 4 and of 3 colours that scores most."""
    fours, threes = best_sets(_by_colour(state, mat.planets_settled), state.cset.number("mat.planets.set_of_four"),
                              state.cset.number("mat.planets.set_of_three"))
    return len(fours), len(threes)


def _by_colour(state: State, planets: tuple[int, ...]) -> dict[str, list[int]]:
    return {col: sorted(p for p in planets if state.cset.planets[p].colour == col) for col in COLOURS}


def best_sets(by_colour: Mapping[str, Sequence[int]], four_vp: int, three_vp: int
              ) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """11.0 "Each planet may be part of only one set.": the sets of 4 and of 3 colours, the partition
    that scores most (reading 17). For each number of 4-sets, the 3-sets are taken greedily from the
    three colours with most planets left, which yields the most 3-sets of distinct colours."""
    counts = {col: len(ps) for col, ps in by_colour.items()}
    best: tuple[int, int, int] = (0, 0, 0)
    for fours in range(min(counts.values(), default=0) + 1):
        rest = {col: k - fours for col, k in counts.items()}
        threes = 0
        while True:
            top = sorted(rest, key=lambda col: (-rest[col], COLOURS.index(col)))[:3]
            if len(top) < 3 or rest[top[2]] <= 0:
                break
            for col in top:
                rest[col] -= 1
            threes += 1
        points = fours * four_vp + threes * three_vp
        if points > best[0]:
            best = (points, fours, threes)
    # name the planets in each set: fours first, then the greedy 3-sets, each from the colours' lists
    left = {col: list(ps) for col, ps in by_colour.items()}
    sets4 = [tuple(left[col].pop(0) for col in COLOURS) for _ in range(best[1])]
    sets3 = []
    for _ in range(best[2]):
        top = sorted(left, key=lambda col: (-len(left[col]), COLOURS.index(col)))[:3]
        sets3.append(tuple(sorted(left[col].pop(0) for col in top)))
    return sets4, sets3


# -- space (11.0): what the figures on the map score ----------------------------------------------------

KIND_WORDS = {"colony": "colony", "station": "station", "mission": "mission marker"}


@attrs.frozen
class Space:
    """What end game scoring reads off the map: the figures (each with ``player``, ``kind``,
    ``hex``, ``outpost``), the built hubs (letter, hex), the board's adjacency and distance, and
    how a hex is written."""

    figures: tuple[Any, ...]
    hubs: tuple[tuple[str, Any], ...]
    neighbours: Callable[[Any], Iterable[Any]]
    distance: Callable[[Any, Any], int]
    name: Callable[[Any], str]
    ids: tuple[tuple[Any, int], ...] = ()  # hex, the planet of the colony / the station or mission card there

    def hex_of(self, player: str, kind: str, ident: int) -> Any:
        """Where the player's figure of this kind for this planet or card stands (None if unknown)."""
        ids = dict(self.ids)
        for f in self.figures:
            if f.player == player and f.kind == kind and ids.get(f.hex) == ident:
                return f.hex
        return None

    def key(self, f: Any) -> tuple:
        """Reading order of a figure's hex name: B2 before B10."""
        return _reading_order(self.name(f.hex))

    def own(self, player: str) -> list[Any]:
        return sorted((f for f in self.figures if f.player == player), key=self.key)

    def figure(self, f: Any) -> str:
        return f"{KIND_WORDS.get(f.kind, f.kind)} {self.name(f.hex)}" + (" with outpost" if f.outpost else "")


@functools.lru_cache(maxsize=1024)
def _reading_order(name: str) -> tuple:
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name))


def space_of(state: State) -> Space:
    """The map as scoring reads it (a set without a map: nothing in space)."""
    from . import board

    if not state.placement:
        return Space((), (), board.neighbours, board.distance, board.format_hex)
    b = state.board
    return Space(state.figures, state.hub_hexes, board.neighbours, board.distance, lambda h: board.format_hex(h, b),
                 ids=state.figure_ids)


def hub_adjacency(space: Space, player: str, *, per_hub: bool, outpost_doubles: bool) -> tuple[int, list[str]]:
    """11.0 "For each of his own playing figures ... next to a built commercial hub the player receives
    1 victory point": once per figure (reading S2), or per hub it touches (``hub_adjacency=per-hub``);
    doubled on an outpost's hex (9.2 B II.4, reading S3) unless ``outpost_doubles=network``."""
    at = {h: letter for letter, h in space.hubs}
    points, parts = 0, []
    for f in space.own(player):
        hubs = sorted({at[n] for n in space.neighbours(f.hex) if n in at})
        if not hubs:
            continue
        base = len(hubs) if per_hub else 1
        factor = 2 if f.outpost and outpost_doubles else 1
        points += base * factor
        touch = f"hub {hubs[0]}" if len(hubs) == 1 else f"hubs {' and '.join(hubs)}" + ("" if per_hub else ", once")
        parts.append(f"{space.figure(f)} next to {touch}: {base * factor}" + (" (outpost doubles)" if factor == 2 else ""))
    return points, parts


def groups(figures: Sequence[Any], linked: Callable[[Any, Any], bool]) -> list[list[Any]]:
    """The connected groups of figures (each figure linked to the next by ``linked``)."""
    left = list(figures)
    out = []
    while left:
        group = [left.pop(0)]
        k = 0
        while k < len(group):
            near = [f for f in left if linked(group[k], f)]
            for f in near:
                left.remove(f)
            group.extend(near)
            k += 1
        out.append(group)
    return out


def weight(f: Any) -> int:
    """11.0 "They count playing figures in hexagons of outposts double."."""
    return 2 if f.outpost else 1


def largest_network(space: Space, player: str, ship_range: int | None) -> tuple[int, list[Any]]:
    """The largest connected group of the player's figures and its count (outposts double): figures
    connected hex to hex (reading S4), or with ``ship_range`` each within that many hexes of the next
    (``network=ship-range``: "all connected within the range of their own space ships")."""
    if ship_range is None:
        def linked(a: Any, b: Any) -> bool:
            return a.hex == b.hex or b.hex in tuple(space.neighbours(a.hex))
    else:
        def linked(a: Any, b: Any) -> bool:
            return space.distance(a.hex, b.hex) <= ship_range
    best: tuple[int, list[Any]] = (0, [])
    for group in groups(space.own(player), linked):
        count = sum(weight(f) for f in group)
        if count > best[0]:
            best = (count, sorted(group, key=space.key))
    return best


def network_points(sizes: Mapping[str, int], awards: Sequence[int]) -> dict[str, int]:
    """The network majority by rank (6/4/2 with 4 players, 4/2 with 3, 2 with 2): tied players add
    the awards of the ranks they share and divide, rounded down (11.0); the next rank after a tie of
    k players is k further down. A player with no figure in space takes no part (reading 18)."""
    points = {p: 0 for p in sizes}
    rank = 0
    for size in sorted({s for s in sizes.values() if s > 0}, reverse=True):
        tied = [p for p, s in sizes.items() if s == size]
        share = sum(awards[rank:rank + len(tied)]) // len(tied)
        for p in tied:
            points[p] = share
        rank += len(tied)
    return points


_PLAYER_LINES: dict[tuple, tuple] = {}


def player_lines(state: State, player: str) -> list[ScoreLine]:
    """The player's lines of the score sheet, worked out from what the key below names alone: a
    player whose mat and space did not change keeps his lines (the replay page scores every command)."""
    key = (id(state.cset), state.digest, player, state.mat(player), state.placement, state.figures, state.hub_hexes,
           state.figure_ids, state.outpost_doubles, state.hub_adjacency)
    hit = _PLAYER_LINES.get(key)
    if hit is not None and hit[0] is state.cset:
        return list(hit[1])
    lines = _player_lines(state, player)
    if len(_PLAYER_LINES) >= 4096:
        _PLAYER_LINES.clear()
    _PLAYER_LINES[key] = (state.cset, tuple(lines))  # the set kept: its id() is not reused while this lives
    return lines


def _player_lines(state: State, player: str) -> list[ScoreLine]:
    cset = state.cset
    n = cset.number
    mat = state.mat(player)
    lines: list[ScoreLine] = []

    def line(points: int, what: str, rule: str) -> None:
        lines.append(ScoreLine(player, points, what, rule))

    lines.extend(space_lines(state, player, space_of(state)))
    face_vp = n("mat.tech.face_vp")
    faces = [f"{col} {face_vp[t]}" for col, t in zip(COLOURS, mat.tech) if face_vp[t]]
    line(sum(face_vp[t] for t in mat.tech), "tech dice on a VP side" + (f": {', '.join(faces)}" if faces else ": none"), text.TECH_FACES)
    column_vp = n("mat.tech.column_vp")
    far = [f"{col} in {('I', 'II', 'III', 'IV', 'V')[k - 1]}" for col, k in zip(COLOURS, mat.columns) if column_vp[k - 1]]
    line(sum(column_vp[k - 1] for k in mat.columns), "tech dice in column IV or V" + (f": {', '.join(far)}" if far else ": none"), text.COLUMNS)
    cells = n("mat.storage.cells")
    full_parts = []
    full = 0
    for col, k, row in zip(COLOURS, mat.columns, mat.storage):
        if k == 5:
            done = [("I", "II", "III")[i] for i in range(3) if row[i] == cells[i]]
            full += len(done)
            full_parts.append(f"{col} row full in {', '.join(done) if done else 'no column'}")
    line(full, "full storage columns in rows with the tech die in column V"
         + (f": {'; '.join(full_parts)}" if full_parts else ": no tech die in column V"), text.STORAGE)
    for kind, value in (("fuel", mat.fuel), ("SpaceBucks", mat.bucks)):
        points = max([vp for at, vp in n("mat.end.track_thresholds") if value >= at], default=0)
        line(points, f"{kind} {value}", text.TRACK)
    line(mat.beside * n("mat.end.beside_vp"), f"{mat.beside} contamination cube(s) beside the mat", text.BESIDE)
    for cid in mat.developments:
        for e in cset.card(cid).permanent:
            if e.kind == "vp_per":
                count = vp_count(state, mat, e.per)
                line(count // e.every * e.vp, f"development {cid}: {describe(e)} ({count} counted)", text.GLOSSARY)
    return lines


def vp_count(state: State, mat: Mat, per: str) -> int:
    return {
        "drive": len(mat.drives),
        "development": len(mat.developments),
        "tech_die_column_v": sum(1 for k in mat.columns if k == 5),
        "fuel": mat.fuel,
        "bucks": mat.bucks,
        "resource": mat.resources,
        "mission_completed": len(mat.completed),
        "station": len(mat.stations),
    }[per]


def space_lines(state: State, player: str, space: Space) -> list[ScoreLine]:  # noqa: C901 - one part per category
    """The categories of 11.0 that space decides, each naming the planets, hexes and figures it counts."""
    cset = state.cset
    n = cset.number
    mat = state.mat(player)
    doubles = state.outpost_doubles
    lines: list[ScoreLine] = []

    def line(points: int, what: str, *rules: str) -> None:
        lines.append(ScoreLine(player, points, what, "; ".join(rules)))

    own = space.own(player)
    where = {f.hex: f for f in own}

    def on_outpost(h: Any) -> bool:
        f = where.get(h)
        return bool(f is not None and f.outpost)

    def colony(planet: int) -> str:
        h = space.hex_of(player, "colony", planet)
        return f", colony {space.name(h)}" if h is not None else ""

    # settled planets, each with its printed VP; doubled with an outpost only under outpost_doubles=all
    planet_vp, parts, doubled = 0, [], False
    for p in mat.planets_settled:
        planet = cset.planets[p]
        factor = 2 if doubles == "all" and on_outpost(space.hex_of(player, "colony", p)) else 1
        doubled = doubled or factor == 2
        planet_vp += planet.vp * factor
        parts.append(f"{p} {planet.colour} {planet.vp} VP{colony(p)}" + (" with outpost: x2" if factor == 2 else ""))
    line(planet_vp, f"{len(mat.planets_settled)} settled planet(s)" + (f": {'; '.join(parts)}" if parts else ""),
         text.PLANETS, *((text.OUTPOST_DOUBLE,) if doubled else ()))
    penalty = n("mat.planets.unsettled_penalty")
    waiting = len(mat.planets_waiting)
    names = [f"{p} {cset.planets[p].colour}{colony(p)}" for p in mat.planets_waiting]
    line(-penalty[min(waiting, len(penalty) - 1)],
         f"{waiting} planet(s) not settled" + (f": {'; '.join(names)}" if names else ""), text.UNSETTLED)
    four_vp, three_vp = n("mat.planets.set_of_four"), n("mat.planets.set_of_three")
    fours, threes = best_sets(_by_colour(state, mat.planets_settled), four_vp, three_vp)
    named = [f"{{{' '.join(map(str, s))}}}" for s in (*fours, *threes)]
    line(len(fours) * four_vp + len(threes) * three_vp,
         f"colour sets: {len(fours)} of 4 colours, {len(threes)} of 3 colours" + (f": {' '.join(named)}" if named else ""),
         text.SETS, *((text.SETS_ONCE,) if named else ()))
    # stations: the 2nd, 3rd and 4th built score their slot's VP
    slot_vp = n("mat.stations.slot_vp")
    station_vp, parts, doubled = 0, [], False
    for k, sid in enumerate(mat.stations):
        h = space.hex_of(player, "station", sid)
        factor = 2 if doubles == "all" and on_outpost(h) else 1
        doubled = doubled or (factor == 2 and slot_vp[k] > 0)
        station_vp += slot_vp[k] * factor
        at = f" at {space.name(h)}" if h is not None else ""
        parts.append(f"{('1st', '2nd', '3rd', '4th')[k] if k < 4 else f'{k + 1}th'} (card {sid}){at} {slot_vp[k] * factor} VP"
                     + (" with outpost: x2" if factor == 2 else ""))
    line(station_vp, f"{len(mat.stations)} space station(s) built" + (f": {'; '.join(parts)}" if parts else ""),
         text.STATIONS, *((text.OUTPOST_DOUBLE,) if doubled else ()))
    # completed missions, each with its printed VP, and the marker's hex where known
    mission_vp, parts, doubled = 0, [], False
    for cid in mat.completed:
        h = space.hex_of(player, "mission", cid)
        factor = 2 if doubles == "all" and on_outpost(h) else 1
        doubled = doubled or factor == 2
        vp = cset.card(cid).vp
        mission_vp += vp * factor
        parts.append(f"card {cid} {vp} VP" + (f", marker {space.name(h)}" if h is not None else "")
                     + (" with outpost: x2" if factor == 2 else ""))
    line(mission_vp, f"{len(mat.completed)} completed mission(s)" + (f": {'; '.join(parts)}" if parts else ""),
         text.MISSIONS, *((text.OUTPOST_DOUBLE,) if doubled else ()))
    line(len(mat.missions) * n("mat.missions.unfulfilled_vp"), f"{len(mat.missions)} unfulfilled mission(s)"
         + (f" (cards {', '.join(map(str, mat.missions))})" if mat.missions else ""), text.MISSIONS)
    # figures next to built hubs
    points, parts = hub_adjacency(space, player, per_hub=state.hub_adjacency == "per-hub",
                                  outpost_doubles=doubles != "network")
    built = ", ".join(f"{letter} at {space.name(h)}" for letter, h in space.hubs) or "none built"
    if own:
        what = f"figures next to built hubs (hubs {built}): " + ("; ".join(parts) if parts else f"none of {len(own)} figure(s)")
    else:
        what = "figures next to built hubs (0 figure(s) in space)"
    line(points, what, text.HUBS, *((text.OUTPOST_DOUBLE,) if "doubles" in what else ()))
    return lines


def ship_range(state: State, player: str) -> int:
    """The range of the player's ship at the end (the flight's own sum: drives and developments)."""
    from .space import ship_range as flight_range

    return flight_range(state, state.mat(player))


_NETWORK_LINES: dict[tuple, tuple] = {}


def network_lines(state: State, space: Space | None = None) -> list[ScoreLine]:
    """11.0: the largest connected group of each player's figures (outposts double), ranked; 6/4/2
    (4 players), 4/2 (3), 2 (2); ties add the tied awards and divide, rounded down. Worked out from
    what the key below names alone: kept while no figure moves (the replay page scores every command)."""
    if space is not None:
        return _network_lines(state, space)
    key = (id(state.cset), state.digest, state.players, state.placement, state.figures, state.hub_hexes,
           state.figure_ids, state.network, state.mats if state.network == "ship-range" else None)
    hit = _NETWORK_LINES.get(key)
    if hit is not None and hit[0] is state.cset:
        return list(hit[1])
    lines = _network_lines(state, space_of(state))
    if len(_NETWORK_LINES) >= 1024:
        _NETWORK_LINES.clear()
    _NETWORK_LINES[key] = (state.cset, tuple(lines))  # the set kept: its id() is not reused while this lives
    return lines


def _network_lines(state: State, space: Space) -> list[ScoreLine]:
    awards = state.cset.number("mat.end.network_awards")[len(state.players)]
    found = {}
    for p in state.players:
        reach = ship_range(state, p) if state.network == "ship-range" else None
        found[p] = (reach, *largest_network(space, p, reach))
    sizes = {p: found[p][1] for p in state.players}
    points = network_points(sizes, awards)
    lines = []
    for p in state.players:
        reach, count, group = found[p]
        rules = [text.NETWORK, text.NETWORK_CONNECTED]
        if any(f.outpost for f in group):
            rules.append(text.NETWORK_OUTPOSTS)
        if count:
            rank = 1 + sum(1 for q in state.players if sizes[q] > count)
            tied = [q for q in state.players if sizes[q] == count]
            place = f"rank {rank} of {len(state.players)}" + (f", tied with {', '.join(q for q in tied if q != p)}"
                                                               if len(tied) > 1 else "")
            if len(tied) > 1:
                rules.append(text.NETWORK_TIE)
            link = "hex to hex" if reach is None else f"within ship range {reach}"
            what = (f"network majority ({count} connected figure(s), {link}: "
                    f"{', '.join(space.figure(f) for f in group)}; {place}; awards {'/'.join(map(str, awards))})")
            if len(state.players) < 4:
                rules.append(text.NETWORK_PLAYERS)
        else:  # no figure in space: no part in the comparison (reading 18)
            what, rules = "network majority (0 connected figure(s))", [text.NETWORK]
        lines.append(ScoreLine(p, points[p], what, "; ".join(rules)))
    return lines


def score(state: State) -> ScoreSheet:
    lines: list[ScoreLine] = []
    for player in state.players:
        lines.extend(player_lines(state, player))
    lines.extend(network_lines(state))
    return ScoreSheet.from_lines(state.players, lines)


def planet_points(state: State, player: str) -> int:
    return sum(state.cset.planets[p].vp for p in state.mat(player).planets_settled)
