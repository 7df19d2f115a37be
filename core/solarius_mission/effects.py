"""The effect vocabulary of the component data and its interpreter.

Kinds (schema.EFFECT_FIELDS): ``resources`` (count, of a colour or any: the player places them),
``fuel``, ``bucks``, ``action_points`` (for dice of a colour or any; permanent, or on a die space
for the die placed there), ``range`` (permanent; space flight, part 2), ``upgrade`` and ``shift``
(free steps the player chooses), ``remove_contamination`` (from the spaces, never from beside the
mat, 003 8.0), ``contamination_spaces`` (permanent), ``drive`` (a neutral drive of value 1 from
the pool), ``vp_per`` (end game: ``vp`` per ``every`` of ``per``).
"""

from __future__ import annotations

from ..game import Event
from . import events as ev
from .components import Effect
from .state import State, clamp_track, evolve

CHOICES = ("resources", "upgrade", "shift")
PERMANENT = ("action_points", "range", "contamination_spaces", "vp_per")


def describe(effect: Effect) -> str:
    k = effect.kind
    if k == "resources":
        return f"{effect.amount} {'resources of any colour' if effect.colour == 'any' else effect.colour + ' resources'}"
    if k in ("fuel", "bucks"):
        return f"{effect.amount} {'fuel' if k == 'fuel' else 'SpaceBucks'}"
    if k == "action_points":
        return f"+{effect.amount} action points for {'any' if effect.colour == 'any' else effect.colour} dice"
    if k == "range":
        return f"+{effect.amount} range"
    if k in ("upgrade", "shift"):
        return f"{effect.amount} free {k}{'s' if effect.amount > 1 else ''} of tech dice"
    if k == "remove_contamination":
        return f"remove {effect.amount} contamination"
    if k == "contamination_spaces":
        return f"+{effect.amount} contamination space{'s' if effect.amount > 1 else ''}"
    if k == "drive":
        return f"{effect.amount} neutral drive{'s' if effect.amount > 1 else ''}"
    if k == "vp_per":
        return f"{effect.vp} VP per {effect.every} {effect.per.replace('_', ' ')} at the end"
    return k


def apply(state: State, player: str, effects: tuple[Effect, ...], why: str) -> list[Event]:
    """The events of immediate effects, in order; choices wait for the player (EffectWaiting)."""
    out: list[Event] = []
    for effect in effects:
        mat = state.mat(player)
        new: list[Event] = []
        k = effect.kind
        if k in CHOICES:
            new.append(ev.EffectWaiting(player, k, effect.colour, effect.amount))
        elif k == "fuel":
            gain = clamp_track(state, mat.fuel + effect.amount) - mat.fuel
            new.append(ev.TrackChanged(player, gain, 0, why))
        elif k == "bucks":
            gain = clamp_track(state, mat.bucks + effect.amount) - mat.bucks
            new.append(ev.TrackChanged(player, 0, gain, why))
        elif k == "remove_contamination":
            count = min(effect.amount, mat.contamination)
            if count:
                new.append(ev.ContaminationRemoved(player, count))
        elif k == "drive":
            room = state.cset.number("mat.drives.common_slots") - len(mat.drives)
            count = min(effect.amount, room, state.drive_pool)
            if count:
                new.append(ev.DrivesGained(player, count))
        elif k == "action_points":
            if state.die is not None and (effect.colour in ("any", "") or effect.colour == state.die.acts_as):
                new.append(ev.ActionPointsAdded(player, effect.amount))
        # permanent kinds act through the state (state.permanent_action_points, scoring), not here
        for e in new:
            state = evolve(state, e)
        out.extend(new)
    return out
