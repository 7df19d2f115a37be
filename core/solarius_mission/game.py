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
from . import choices, legal, loading, notation, render, rules, sampling, scoring, text, words
from . import commands as c
from . import components as comp
from . import events as ev
from .board import HOME
from .state import CHANCE_PHASES, MUTATORS, Mat, State, acting, describe_phase, phase, planets_in_play


@attrs.frozen
class MissionOptions:
    start: str = option(
        "cards",
        "'cards': each player gets a hidden game start card (4.0); 'choose': each is dealt 3 progress cards, keeps 2 "
        "and chooses the start position",
        ("cards", "choose"),
        rule=text.OPTION_START,
    )
    station_effect: str = option(
        "earlier",
        "a new station's own permanent effect first fires at turn end ('earlier') or at once with those built "
        "before ('including-new'); the text leaves it open (reading 7, for space, part 2)",
        ("earlier", "including-new"),
        rule=text.OPTION_STATION_EFFECT,
    )
    hub_adjacency: str = option(
        "once",
        "a figure next to two built hubs scores 1 ('once') or 1 per hub ('per-hub'); the text leaves it open "
        "(scoring reading S2, 11.0)",
        ("once", "per-hub"),
        rule=text.OPTION_HUB_ADJACENCY,
    )
    outpost_doubles: str = option(
        "space",
        "an outpost doubles its figure's hub points and network count ('space'), only the network count "
        "('network'), or also its planet, station and mission points ('all'); the text leaves it open "
        "(scoring reading S3, 9.2 B II.4)",
        ("space", "network", "all"),
        rule=text.OPTION_OUTPOST_DOUBLES,
    )
    network: str = option(
        "adjacent",
        "figures connect hex to hex ('adjacent') or within the owner's ship range of each other ('ship-range'); "
        "the text leaves it open (scoring reading S4, 11.0)",
        ("adjacent", "ship-range"),
        rule=text.OPTION_NETWORK,
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
        return notation.format(command, words.board_at(state))

    hidden_information = True  # what each viewer sees, and the pictures: observation.py

    def make_observation(self) -> Observation:
        from .observation import Observation

        return Observation(self)

    def describe_event(self, event: Event) -> str:
        return words.record(event)

    def describe_event_at(self, event: Event, state: Any) -> str:
        return words.record(event, state)

    def command_words(self, command: Command, state: Any = None) -> str:
        return words.command(command, state)

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
