"""The games solrec knows. A game registers by being listed here; nothing else names games."""

from __future__ import annotations

from .errors import InvalidSetup
from .game import Game


def _load() -> dict[str, Game]:
    from .solar_solitaire.game import SolarSolitaire
    from .solari.game import Solari
    from .solarius_mission.game import SolariusMission
    from .soli2.game import Soli2
    from .solo_dice.game import SoloDice

    games: list[Game] = [SoloDice(), Soli2(), SolarSolitaire(), Solari(), SolariusMission()]
    return {g.id: g for g in games}


_GAMES: dict[str, Game] | None = None


def games() -> dict[str, Game]:
    global _GAMES
    if _GAMES is None:
        _GAMES = _load()
    return _GAMES


def get_game(game_id: str) -> Game:
    try:
        return games()[game_id]
    except KeyError:
        known = ", ".join(sorted(games()))
        raise InvalidSetup(f"unknown game {game_id!r} (known: {known})") from None
