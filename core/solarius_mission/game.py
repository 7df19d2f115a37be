"""Solarius Mission bound to the kernel's game contract."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from ..chance import SeededDraw
from ..errors import IllegalCommand
from ..game import CHANCE, Choices, Command, Event, Form, Game, Outcome, ScoreSheet
from ..observe import Observation
from ..options import option
from . import choices, legal, loading, notation, render, rules, sampling, scoring, text
from . import commands as c
from . import components as comp
from . import events as ev
from .board import HOME, Board, format_hex
from .state import CHANCE_PHASES, MUTATORS, Mat, State, acting, describe_phase, phase, planets_in_play


@attrs.frozen
class MissionOptions:
    start: str = option(
        "cards",
        "'cards': hidden game start cards (4.0); 'choose': deal 3 progress cards, keep 2, choose the start position",
        ("cards", "choose"),
    )
    station_effect: str = option(
        "earlier",
        "reading 7, for space (part 2): a new station's own permanent effect first fires at turn end ('earlier') "
        "or at once ('including-new')",
        ("earlier", "including-new"),
    )
    hub_adjacency: str = option(
        "once",
        "scoring reading S2 (11.0 hubs): a figure next to two built hubs scores 1 ('once') or 1 per hub ('per-hub')",
        ("once", "per-hub"),
    )
    outpost_doubles: str = option(
        "space",
        "scoring reading S3 (9.2 B II.4): an outpost doubles its figure's hub points and network count ('space'), only the "
        "network count ('network'), or also its planet, station and mission points ('all')",
        ("space", "network", "all"),
    )
    network: str = option(
        "adjacent",
        "scoring reading S4 (11.0 'connected within the range of their own space ships'): figures connect hex to hex "
        "('adjacent') or within the owner's ship range of each other ('ship-range')",
        ("adjacent", "ship-range"),
    )
    components: str = option(comp.BUILTIN, "the component set's name (solrec components solarius-mission)")
    components_digest: str = option(comp.BUILTIN_DIGEST, "the digest of the component set's content")
    components_data: str = option("", "the content of a set that is not built in (recorded by --components)")


class SolariusMission(Game):
    id = "solarius-mission"
    title = "Solarius Mission"
    rules_version = "1"
    rule_text = "003_6517f20bed1abdb1.txt"
    Options = MissionOptions
    min_players = 2
    max_players = 4
    command_types = c.ALL
    event_types = ev.ALL
    mutators = MUTATORS
    notation_examples = ("take black3@-1 standard", "bonus fuel 1 bucks 1")

    def check_options(self, options: MissionOptions, players: tuple[str, ...]) -> None:
        loading.resolve(options.components, options.components_digest, options.components_data)

    def setup(self, options: MissionOptions, players: tuple[str, ...]) -> State:
        cset = loading.resolve(options.components, options.components_digest, options.components_data)
        n = cset.number
        per = n("dice.action_dice.per_colour") - n("dice.bag.removed_per_colour")[len(players)]
        mats = tuple(Mat(n("mat.track.fuel_start"), n("mat.track.bucks_start")) for _ in players)
        choose = options.start == "choose"
        return State(
            players=players,
            digest=cset.digest,
            start_mode=options.start,
            mats=mats,
            bag=(per,) * 4,
            deck=tuple(sorted(cset.progress_cards)),
            start_cards=() if choose else tuple(sorted(cset.start_cards)),
            hubs=tuple(n("dice.hubs.letters")),
            resource_pool=n("mat.storage.resource_pool"),
            contamination_pool=n("mat.contamination.cube_pool"),
            drive_pool=n("mat.drives.pool"),
            drawing=3 if choose else 0,
            # 4.0 "The space ship is placed on/next to the home planet in the center of space."
            ships=(HOME,) * len(players) if cset.has_map else (),
            station_effect=options.station_effect,
            hub_adjacency=options.hub_adjacency,
            outpost_doubles=options.outpost_doubles,
            network=options.network,
        )

    def to_act(self, state: State) -> str | None:
        ph = phase(state)
        if ph == "over":
            return None
        if ph in CHANCE_PHASES:
            return CHANCE
        if ph == "choose-start":
            return state.players[state.dealt]
        return acting(state)

    def decide(self, state: State, command: Command) -> tuple[Event, ...]:
        return rules.decide(state, command)

    def legal_commands(self, state: State) -> tuple[Command, ...] | None:
        return legal.legal_commands(state)

    def command_forms(self, state: State) -> tuple[str, ...]:
        return legal.command_forms(state)

    def legal_details(self, state: State) -> tuple[dict[str, Any], tuple[str, ...]]:
        return legal.legal_details(state)

    def chance_forms(self, state: State) -> tuple[str, ...]:
        return legal.chance_forms(state)

    def sample_command(self, state: State, rng: Any) -> Command:
        return sampling.sample(state, rng)

    def player_choices(self, state: State, actor: str) -> Choices:
        return choices.choices(state, actor)

    def chance_choices(self, state: State) -> tuple[Form, ...]:
        return choices.chance_choices(state)

    def chance_command(self, state: State, draw: SeededDraw) -> Command:
        ph = phase(state)
        if ph == "start-card":
            return c.DealStartCard(draw.choice(state.start_cards))
        if ph in ("deal", "card"):
            return c.DrawCard(draw.choice(state.deck))
        if ph == "first-player":
            return c.FirstPlayer(draw.choice(state.players))
        if ph == "hub":
            return c.RevealHub(draw.choice(state.hubs))
        if ph in ("bridge", "refill"):
            dice = [col for col, k in zip(comp.COLOURS, state.bag) for _ in range(k)]
            colour = draw.choice(dice)
            face = draw.choice(state.cset.number("dice.action_dice.faces"))
            return c.Roll(colour, face)
        if ph == "tiles":
            letters = sorted(t.name for t in state.cset.tiles if t.name != "centre")
            placement = []
            while letters:
                letter = draw.choice(letters)
                letters.remove(letter)
                placement.append((letter, draw.below(6)))
            return c.PlaceTiles(tuple(placement))
        if ph == "reveal":
            # Which planets were sorted out is never seen (4.0), so the next one turned is of a colour in
            # proportion to how many of it are still face down, and any unseen planet of that colour.
            options = rules.revealable(state)
            seen = rules.revealed_planets(state)
            weights = [(col, planets_in_play(state, col) - sum(1 for p in seen if state.cset.planets[p].colour == col))
                       for col in options]
            pick = draw.below(sum(w for _, w in weights))
            for colour, weight in weights:
                if pick < weight:
                    return c.RevealPlanet(draw.choice(options[colour]))
                pick -= weight
        raise IllegalCommand(f"chance does not act now ({describe_phase(state)})")

    def score(self, state: State) -> ScoreSheet:
        return scoring.score(state)

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        sheet = self.score(state)
        totals = dict(sheet.totals)
        planets = {p: scoring.planet_points(state, p) for p in state.players}
        ranking = tuple(sorted(state.players, key=lambda p: (-totals[p], -planets[p], state.index(p))))
        best = (totals[ranking[0]], planets[ranking[0]])
        winners = tuple(p for p in ranking if (totals[p], planets[p]) == best)
        scores = ", ".join(f"{p} {totals[p]}" for p in ranking)
        if len(winners) > 1:
            reason = f"shared victory of {' and '.join(winners)} ({scores}; {text.SHARED})"
        elif sum(1 for p in state.players if totals[p] == best[0]) > 1:
            reason = f"{winners[0]} wins the tie by planet points ({scores}; {text.TIE})"
        else:
            reason = f"{winners[0]} wins after four game turns ({scores}; {text.END})"
        return Outcome(winners[0], ranking, reason, winners)

    def ending(self, state: State) -> str | None:
        # the three endings outcome() tells apart: one winner, a tie broken by planet points, a shared victory
        outcome = self.outcome(state)
        if outcome is None:
            return None
        if len(outcome.winners) > 1:
            return "a shared victory"
        if "wins the tie by planet points" in outcome.reason:
            return "a tie broken by planet points"
        return "the final scoring after four game turns"

    def parse(self, text_: str, state: Any = None) -> Command:
        return notation.parse(text_, state)

    def format(self, command: Command) -> str:
        return notation.format(command)

    def format_at(self, command: Command, state: Any) -> str:
        # the hexes by their board labels (B7): what a player reads off the table
        return notation.format(command, board_at(state))

    hidden_information = True  # what each viewer sees: observation.py

    def make_observation(self) -> Observation:
        from .observation import Observation

        return Observation(self)

    def render(self, state: State, reveal: bool = False) -> str:
        return render.render(state, reveal)

    def svg(self, state: State, *, reveal: bool = False, last: Any = None, size: int | None = 400) -> str:
        return render.svg(state, reveal=reveal, last=last, size=size)

    def describe_event(self, event: Event) -> str:
        return describe(event)

    def describe_event_at(self, event: Event, state: Any) -> str:
        if isinstance(event, ev.BonusTaken) and isinstance(state, State):
            return describe(event) + bonus_lost(state, event)
        return describe(event, board_at(state))

    def card(self, number: int, name: str | None, texts: Mapping[str, str] | None) -> dict[str, Any]:
        return render.card_description(self._component_set(name, texts), number)

    # -- component data (the CLI's --components and `solrec components`) ---------------------------
    def components_options(self, name: str, texts: Mapping[str, str]) -> dict[str, str]:
        return loading.options_for(loading.from_texts(name, texts))

    def _component_set(self, name: str | None, texts: Mapping[str, str] | None) -> comp.ComponentSet:
        if texts is None and name not in (None, *comp.BUILTINS):
            raise comp.InvalidComponents(
                f"the built-in sets are {', '.join(comp.BUILTINS)} (default {comp.BUILTIN}); give a FILE for another set")
        return loading.builtin(name or comp.BUILTIN) if texts is None else loading.from_texts(name or "set", texts)

    def components_listing(self, name: str | None, texts: Mapping[str, str] | None) -> dict[str, Any]:
        cset = self._component_set(name, texts)
        return {
            "game": self.id,
            "set": cset.name,
            "digest": cset.digest,
            "counts": cset.counts(),
            "data": [{"path": d.path, "value": d.value, "source": d.source} for d in cset.data],
        }


def board_at(state: Any) -> Board | None:
    """The board of a position once its tiles lie (labels need it), else None (axial q,r)."""
    return state.board if isinstance(state, State) and state.placement else None


def describe(event: Event, board: Board | None = None) -> str:  # noqa: C901 - one line per event type
    """One line for an event; hexes by their labels when ``board`` (the position's) is given, else q,r."""
    e: Any = event
    if isinstance(event, ev.StartCardDealt):
        # the start card and the two progress cards it names are hidden at the table; the rest shows on the mat
        return f"{e.player} receives a start card: {e.text.split(', cards')[0]}, 2 progress cards"
    if isinstance(event, ev.StartChosen):
        return f"{e.player} shifts {e.shift}, upgrades {e.upgrade}, takes resources {' '.join(e.resources)}, discards a card"
    if isinstance(event, ev.StartingPlayerChosen):
        return f"{e.player} is the starting player"
    if isinstance(event, ev.SetupDieRolled):
        return f"bridge die rolled: {e.colour}{e.face}"
    if isinstance(event, ev.BridgeSetUp):
        return "bridge: " + "  ".join(f"[{v:+d}] {' '.join(s) or '-'}" for v, s in zip((-1, 0, 1, 2, 3), e.spaces))
    if isinstance(event, ev.HubRevealed):
        return f"game turn {e.turn}: commercial hub {e.hub} is built"
    if isinstance(event, ev.DieTaken):
        where = {"transform": f"the transformation space as {e.acts_as}", "card": f"the die space of card {e.card}"}.get(
            e.space, f"the {e.space} space")
        return f"{e.player} takes {e.colour}{e.face} (bonus {e.bonus:+d}) onto {where}: {e.action_points} action point(s)"
    if isinstance(event, ev.Contaminated):
        beside = f", {e.beside} beside the mat" if e.beside else ""
        return f"{e.player}: contamination for {e.why} ({e.on_spaces} on spaces{beside})"
    if isinstance(event, ev.ContaminationRemoved):
        return f"{e.player} removes {e.count} contamination"
    if isinstance(event, ev.TrackChanged):
        return f"{e.player}: fuel {e.fuel:+d}, SpaceBucks {e.bucks:+d} ({e.why})"
    if isinstance(event, ev.BonusTaken):
        return f"{e.player}: bridge bonus fuel {e.fuel:+d}, SpaceBucks {e.bucks:+d}"
    if isinstance(event, ev.ActionPointsBought):
        return f"{e.player} buys {e.points} action point(s)"
    if isinstance(event, ev.ActionPointsAdded):
        return f"{e.player}: +{e.points} action point(s) from the die space"
    if isinstance(event, ev.ResourcesPlaced):
        return f"{e.player} places " + (", ".join(f"{col} {('I', 'II', 'III')[k - 1]}" for col, k in e.cubes) or "nothing")
    if isinstance(event, ev.ResourcesRemoved):
        return f"{e.player} returns " + ", ".join(f"{col} {('I', 'II', 'III')[k - 1]}" for col, k in e.cubes)
    if isinstance(event, ev.TechUpgraded):
        return f"{e.player} upgrades {' '.join(e.colours)}"
    if isinstance(event, ev.TechShifted):
        return f"{e.player} shifts {' '.join(e.colours)}"
    if isinstance(event, ev.DieActionDone):
        return f"{e.player}: die action {e.action}, {e.used} used, {e.forfeited} forfeited"
    if isinstance(event, ev.ResearchDone):
        return f"{e.player}: research space, {e.what}"
    if isinstance(event, ev.CardsRequested):
        return f"{e.player} draws {e.count} card(s)" + (f", then discards {e.discard}" if e.discard else "")
    if isinstance(event, ev.CardDrawn):
        return f"{e.player} draws a card"
    if isinstance(event, ev.DeckReshuffled):
        return f"the {e.cards} discarded cards are shuffled into a new deck"
    if isinstance(event, ev.CardDiscarded):
        return f"{e.player} discards card {e.card}"
    if isinstance(event, ev.CardPlayed):
        return f"{e.player} plays card {e.card} as {e.text}"
    if isinstance(event, ev.EffectWaiting):
        return f"{e.player} chooses: {e.count} {e.kind}" + (f" ({e.colour})" if e.colour else "")
    if isinstance(event, ev.EffectResolved):
        return f"{e.player}: effect resolved"
    if isinstance(event, ev.DrivesBought):
        return f"{e.player} buys {e.count} drive(s)"
    if isinstance(event, ev.DrivesGained):
        return f"{e.player} gains {e.count} neutral drive(s)"
    if isinstance(event, ev.DriveUpgraded):
        return f"{e.player} upgrades drive {e.slot + 1} to 2"
    if isinstance(event, ev.SupplementaryDone):
        return f"{e.player}: supplementary action {e.what}"
    if isinstance(event, ev.TurnEnded):
        return f"{e.player} ends the turn"
    if isinstance(event, ev.Refilled):
        return f"the wheel turns; refill die {e.colour}{e.face} onto -1"
    if isinstance(event, ev.TurnEndStarted):
        return "turn end: station effects and settlements, in turn order " + ", ".join(e.order)
    if isinstance(event, ev.PlayerClosed):
        return f"{e.player} closes the game turn"
    if isinstance(event, ev.PlanetSettled):
        paid = f" for {e.fuel} fuel" if e.fuel else (f" for {e.bucks} SpaceBucks" if e.bucks else "")
        return f"{e.player} completes the settlement of planet {e.planet}{paid}"
    if isinstance(event, ev.SPACE):
        return describe_space(event, board)
    if isinstance(event, ev.GameTurnEnded):
        return f"game turn {e.turn} ends" + (f"; {e.next_start} starts the next" if e.next_start else "; end game scoring")
    if isinstance(event, ev.TilesPlaced):
        return "space: outer tiles clockwise from the top " + " ".join(f"{t}{r}" for t, r in e.placement)
    if isinstance(event, ev.PlanetsDealt):
        return f"{len(e.hexes)} planets are dealt face down"
    if isinstance(event, ev.PlanetTurned):
        return f"{e.player} turns the planet at {format_hex(e.hex, board)}"
    if isinstance(event, ev.PlanetRevealed):
        return f"the planet at {format_hex(e.hex, board)} is planet {e.planet}: {e.text}"
    return type(event).__name__


def bonus_lost(state: State, e: ev.BonusTaken) -> str:
    """What of a bonus the full track did not take (5.0 "A player may never have more than 10 fuel or
    SpaceBucks"): ``e`` records what was received; ``state`` (before it) holds the die's bonus."""
    bonus = state.die.bonus if state.die is not None else 0
    lost = bonus - (e.fuel + e.bucks)
    if bonus <= 0 or lost <= 0:
        return ""
    mat = state.mat(e.player)
    top = state.cset.number("mat.track.maximum")
    full = [name for name, now in (("fuel", mat.fuel + e.fuel), ("SpaceBucks", mat.bucks + e.bucks)) if now >= top]
    return f"; {lost} lost: the {' and '.join(full) or 'track'} track is full at {top} ({text.TRACK_MAX})"


def describe_space(event: Event, board: Board | None = None) -> str:
    e: Any = event

    def at(h: Any) -> str:
        return format_hex(h, board)

    if isinstance(event, ev.PortalsActivated):
        how = "returns a drive of value 1 to the pool" if e.returned else f"flips drive {e.slot + 1} from 2 to 1"
        return f"{e.player} {how}: the portals are active this turn, the range is 1 less"
    if isinstance(event, ev.ShipFlown):
        words = [at(h) if i not in e.jumps else f"P {at(h)}" for i, h in enumerate(e.path)]
        # what was paid: the drives' range, and range bought at once with fuel (9.2 B II "Each additional
        # point of range costs two fuel"); the fuel itself is the TrackChanged event before this one
        paid = f": {e.cost - e.bought} from the drives, {e.bought} bought with fuel" if e.bought else ""
        return f"{e.player} flies {' '.join(words)} (range {e.cost}{paid})"
    if isinstance(event, ev.PlanetColonized):
        return f"{e.player} colonizes planet {e.planet} at {at(e.hex)}: a colony; the planet waits beside the mat"
    if isinstance(event, ev.PlanetDeclined):
        return f"{e.player} declines planet {e.planet} at {at(e.hex)}: explorer bonus of {e.vp} resource(s)"
    if isinstance(event, ev.StationBuilt):
        return f"{e.player} builds a space station (card {e.card}) at {at(e.hex)}"
    if isinstance(event, ev.MissionCompleted):
        bonus = {"now": "; hub bonus now", "later": "; hub bonus when the hub is built", "": ""}[e.bonus]
        return f"{e.player} completes mission {e.card} at {at(e.hex)} next to hub {e.hub}{bonus}"
    if isinstance(event, ev.OutpostBuilt):
        return f"{e.player} builds outpost {e.outpost} at {at(e.hex)}"
    if isinstance(event, ev.HubBonusTaken):
        return f"{e.player} takes the bonus of outpost {e.outpost} for hub {e.hub}"
    if isinstance(event, ev.SpaceActionDone):
        return f"{e.player}: after the flight, {e.what}"
    return type(event).__name__
