"""The five games as OpenSpiel Python games (docs/ai.md): ``solrec_solo_dice``, ``solrec_soli2``,
``solrec_solari``, ``solrec_solar_solitaire``, ``solrec_solarius_mission``, registered on import.

Game parameters: ``players`` (the number of players; 0, the default, is the game's own default for
its options) and each of the game's setup options by its name, with the game's default. Player ``i``
of OpenSpiel is the ``i``-th seat of the game's players (the game's default names, or ``Player 1`` ...
``Player N``). Chance is OpenSpiel's chance player with explicit outcomes (``table.py``); actions are
the game's fixed numbering (``core/actions.py``, each game's in its ``bots.py``); the observation and information-state strings are what the
seat sees (``Table.observation_string``, ``Table.information_state_string``); the observation
and information-state tensors are the seat's observation tensor (``tensors.py``); returns as
``Table.returns``. Where the game hides something, a state offers ``resample_from_infostate`` (the
game's resampler, ``seat.resample``), so OpenSpiel's ``ISMCTSBot`` plays it. A game pickles as its
name and parameters, a state as OpenSpiel pickles its own (the game and the actions played).

Modelled on OpenSpiel's own Python games (``open_spiel/python/games/kuhn_poker.py``).
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np
import pyspiel

from solrec.core.game import CHANCE
from solrec.core.observe import Viewer
from solrec.core.registry import game_ids, get_game

from .table import Position, Table
from .tensors import observation_shape, observation_tensor

SHORT_NAMES = {gid: "solrec_" + gid.replace("-", "_") for gid in game_ids()}


def players_for(game_id: str, options: dict[str, Any], count: int) -> tuple[str, ...] | None:
    """The seats of a game of ``count`` players (0: the game's default for its options)."""
    if count == 0:
        return None
    game = get_game(game_id)
    from solrec.core.options import parse_options

    default = game.default_players_for(parse_options(game.Options, dict(options)))
    if len(default) == count:
        return tuple(default)
    return tuple(f"Player {i + 1}" for i in range(count))


def _option_defaults(game_id: str) -> dict[str, Any]:
    game = get_game(game_id)
    return {f.name: f.default for f in attrs.fields(game.Options)}


def _game_type(game_id: str) -> pyspiel.GameType:
    game = get_game(game_id)
    params: dict[str, Any] = {"players": 0, **_option_defaults(game_id)}
    return pyspiel.GameType(
        short_name=SHORT_NAMES[game_id],
        long_name=f"solrec {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if game.hidden_information
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class SolrecGame(pyspiel.Game):
    """One solrec game with its options as an OpenSpiel game."""

    game_id: str = ""

    def __init__(self, params: dict[str, Any] | None = None):
        params = dict(params or {})
        defaults = _option_defaults(self.game_id)
        options = {k: params.get(k, v) for k, v in defaults.items()}
        count = int(params.get("players", 0))
        self.table = Table(self.game_id, options, players_for(self.game_id, options, count))
        n = len(self.table.players)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.table.codec.size,
            max_chance_outcomes=self.table.hooks.max_chance_outcomes,  # the bounds: core/<game>/bots.py
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=self.table.hooks.max_game_length,
        )
        super().__init__(_TYPES[self.game_id], info, params)
        self._params = params

    def __reduce__(self) -> tuple[Any, ...]:
        # loaded again by its registered name and parameters (a class made at registration is no
        # module attribute pickle could look up by itself)
        return (_load_game, (SHORT_NAMES[self.game_id], self._params))

    def new_initial_state(self) -> SolrecState:
        return SolrecState(self, self.table.initial())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        return Observer(self.table, recall)


class SolrecState(pyspiel.State):
    """A position at the adapters' table (``table.Position``, immutable: a clone shares it)."""

    def __init__(self, game: SolrecGame, position: Position):
        super().__init__(game)
        self._table = game.table
        self.position = position

    # -- whose turn ------------------------------------------------------------------------------
    def current_player(self) -> int:
        outlook = self._table.to_act(self.position)
        if outlook.actor is None:
            return pyspiel.PlayerId.TERMINAL
        if outlook.actor == CHANCE:
            return pyspiel.PlayerId.CHANCE
        return self._table.players.index(outlook.actor)

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._table.legal(self.position))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        n = self._table.to_act(self.position).outcomes
        return [(i, 1.0 / n) for i in range(n)]

    def _apply_action(self, action: int) -> None:
        if self._table.to_act(self.position).actor == CHANCE:
            self.position = self._table.draw(self.position, int(action))
        else:
            self.position = self._table.play(self.position, self._table.legal(self.position)[int(action)])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance {action}"
        return self._table.codec.text(int(action))

    def is_terminal(self) -> bool:
        return self._table.over(self.position)

    def returns(self) -> list[float]:
        return self._table.returns(self.position)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> SolrecState:
        """A state the player cannot tell from this one, its hidden part drawn by the game's resampler
        from what the player sees (docs/ai.md, "Resampling"; OpenSpiel's ``ISMCTSBot`` asks for it);
        the draw's generator is seeded by ``probability_sampler`` where one is given (a callable
        returning a float in [0, 1), as OpenSpiel passes), else fresh."""
        import random

        from .seat import resample

        seed = int(probability_sampler() * 2**32) if callable(probability_sampler) else None
        world = resample(self._table, self.position, self._table.players[player_id], random.Random(seed))
        return SolrecState(self.get_game(), world)

    def __str__(self) -> str:
        return self._table.game.render(self.position.state, Viewer.referee()) + (
            f"\n(chance drawn: {list(self.position.draws)})" if self.position.draws else "")


class Observer:
    """What one seat sees, as OpenSpiel's PyObserver: the seat's observation tensor (``tensors.py``,
    written in place, as OpenSpiel reads it) and the observation as JSON, or with ``perfect_recall``
    the information state string. The information-state tensor is the observation tensor: the seat's
    observation already holds what it has seen that matters to it (the cards in sight, the sizes of
    what is hidden), not the order it saw things in."""

    def __init__(self, table: Table, perfect_recall: bool):
        self.table = table
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(observation_shape(table), np.float32)
        self.dict: dict[str, Any] = {"observation": self.tensor}

    def set_from(self, state: SolrecState, player: int) -> None:
        self.tensor[...] = observation_tensor(self.table, state.position, self.table.players[player])

    def string_from(self, state: SolrecState, player: int) -> str:
        seat = self.table.players[player]
        if self.perfect_recall:
            return self.table.information_state_string(state.position, seat)
        return self.table.observation_string(state.position, seat)


_TYPES: dict[str, pyspiel.GameType] = {}
GAMES: dict[str, type[SolrecGame]] = {}


def register() -> None:
    """Register the five games with OpenSpiel (done once, on import)."""
    for gid, short in SHORT_NAMES.items():
        if gid in GAMES:
            continue
        _TYPES[gid] = _game_type(gid)
        name = f"Solrec_{gid.replace('-', '_')}"
        cls = type(name, (SolrecGame,), {"game_id": gid, "__module__": __name__})
        globals()[name] = cls  # a module attribute, as pickle looks a class up
        GAMES[gid] = cls
        pyspiel.register_game(_TYPES[gid], cls)


def game_for(table: Table) -> SolrecGame:
    """The OpenSpiel game of ``table`` (its game, options and players), made once per table."""
    made = table.__dict__.get("_spiel")
    if made is None:
        register()
        made = GAMES[table.game.id]({**table.options, "players": len(table.players)})
        made.table = table
        table.__dict__["_spiel"] = made
    return made


def load(game_id: str, options: dict[str, Any] | None = None, players: int = 0) -> SolrecGame:
    """The registered OpenSpiel game of ``game_id`` with these options (``pyspiel.load_game``)."""
    params: dict[str, Any] = dict(options or {})
    if players:
        params["players"] = players
    return pyspiel.load_game(SHORT_NAMES[game_id], params)


def _load_game(short_name: str, params: dict[str, Any]) -> pyspiel.Game:
    return pyspiel.load_game(short_name, params)


register()
