"""End game scoring (003 11.0): every category is its own score line citing its sentence.

Categories that need space (planets, colour sets, stations, completed missions, figures next to
hubs, the network) are computed from the state like the others; without flight (part 1) the state
holds no planet, station or figure, so they score 0.
"""

from __future__ import annotations

from ..game import ScoreLine, ScoreSheet
from . import text
from .components import COLOURS
from .effects import describe
from .state import Mat, State


def colour_sets(state: State, mat: Mat) -> tuple[int, int]:
    """Reading 16: the partition of settled planets into sets of 4 and of 3 colours that scores most."""
    counts = sorted((sum(1 for p in mat.planets_settled if state.cset.planets[p].colour == col) for col in COLOURS), reverse=True)
    four_vp = state.cset.number("mat.planets.set_of_four")
    three_vp = state.cset.number("mat.planets.set_of_three")
    best = (0, 0, 0)
    for fours in range(min(counts) + 1 if counts else 1):
        rest = [n - fours for n in counts]
        threes = 0
        while True:  # greedy on the three largest colours is optimal for sets of 3 distinct colours
            rest.sort(reverse=True)
            if len(rest) < 3 or rest[2] <= 0:
                break
            rest[0] -= 1
            rest[1] -= 1
            rest[2] -= 1
            threes += 1
        points = fours * four_vp + threes * three_vp
        if points > best[0]:
            best = (points, fours, threes)
    return best[1], best[2]


def figures(mat: Mat) -> int:
    """Own playing figures in space: colonies (planets waiting or settled), stations, completed missions."""
    return len(mat.planets_waiting) + len(mat.planets_settled) + len(mat.stations) + len(mat.completed)


def player_lines(state: State, player: str) -> list[ScoreLine]:
    cset = state.cset
    n = cset.number
    mat = state.mat(player)
    lines: list[ScoreLine] = []

    def line(points: int, what: str, rule: str) -> None:
        lines.append(ScoreLine(player, points, what, rule))

    planet_vp = sum(cset.planets[p].vp for p in mat.planets_settled)
    line(planet_vp, f"{len(mat.planets_settled)} settled planet(s)", text.PLANETS)
    penalty = n("mat.planets.unsettled_penalty")
    waiting = len(mat.planets_waiting)
    line(-penalty[min(waiting, len(penalty) - 1)], f"{waiting} planet(s) not settled", text.UNSETTLED)
    fours, threes = colour_sets(state, mat)
    line(fours * n("mat.planets.set_of_four") + threes * n("mat.planets.set_of_three"),
         f"colour sets: {fours} of 4 colours, {threes} of 3 colours", text.SETS)
    line(sum(n("mat.stations.slot_vp")[: len(mat.stations)]), f"{len(mat.stations)} space station(s) built", text.STATIONS)
    mission_vp = sum(cset.card(m).vp for m in mat.completed)
    line(mission_vp, f"{len(mat.completed)} completed mission(s)", text.MISSIONS)
    line(len(mat.missions) * n("mat.missions.unfulfilled_vp"), f"{len(mat.missions)} unfulfilled mission(s)"
         + (f" (cards {', '.join(map(str, mat.missions))})" if mat.missions else ""), text.MISSIONS)
    line(0, f"figures next to built hubs ({figures(mat)} figure(s) in space)", text.HUBS)
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


def network_lines(state: State) -> list[ScoreLine]:
    """Reading 15: 6/4/2 (4 players), 4/2, 2 by rank of the largest group; ties add and divide.
    A player with no figure in space takes no part (nothing to compare)."""
    awards = state.cset.number("mat.end.network_awards")[len(state.players)]
    sizes = {p: figures(state.mat(p)) for p in state.players}
    lines = []
    ranked = sorted({s for s in sizes.values() if s > 0}, reverse=True)
    rank = 0
    points: dict[str, int] = {p: 0 for p in state.players}
    for size in ranked:
        tied = [p for p in state.players if sizes[p] == size]
        share = sum(awards[rank:rank + len(tied)]) // len(tied)
        for p in tied:
            points[p] = share
        rank += len(tied)
    for p in state.players:
        lines.append(ScoreLine(p, points[p], f"network majority ({sizes[p]} connected figure(s))", text.NETWORK))
    return lines


def score(state: State) -> ScoreSheet:
    lines: list[ScoreLine] = []
    for player in state.players:
        lines.extend(player_lines(state, player))
    lines.extend(network_lines(state))
    return ScoreSheet.from_lines(state.players, lines)


def planet_points(state: State, player: str) -> int:
    return sum(state.cset.planets[p].vp for p in state.mat(player).planets_settled)
