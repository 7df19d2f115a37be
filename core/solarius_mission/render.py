"""A text picture of a Solarius Mission position; ``reveal`` also shows the hands and the deck."""

from __future__ import annotations

from .components import COLOURS
from .state import State, contamination_spaces, phase


def _bridge(state: State) -> str:
    values = state.cset.number("bridge.wheel.values")
    parts = []
    for value, dice in zip(values, state.bridge):
        parts.append(f"[{value:+d}] " + (" ".join(f"{d.colour}{d.face}" for d in dice) or "-"))
    return "  ".join(parts)


def render(state: State, reveal: bool = False) -> str:
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
    if reveal:
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
        hand = " ".join(map(str, mat.hand)) if reveal else f"{len(mat.hand)} card(s)"
        lines.append(
            f"  hand: {hand}; missions: {' '.join(map(str, mat.missions)) or '-'}; developments: "
            f"{' '.join(map(str, mat.developments)) or '-'}; dice: {' '.join(f'{d.colour}{d.face}' for d in mat.dice) or '-'}"
        )
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
    return "\n".join(lines)
