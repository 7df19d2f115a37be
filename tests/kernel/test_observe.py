"""The observation contract (core/observe.py): one place per game decides what a viewer may see, and a
game that hides something has no permissive default."""

from __future__ import annotations

import pytest

from solrec.core.game import Game
from solrec.core.observe import HIDDEN, Observation, Open, SeenEvent, Viewer
from solrec.core.registry import game_ids, get_game


def test_the_three_viewers():
    assert Viewer.referee().sees_all and not Viewer.table().sees_all and not Viewer.seat("Ann").sees_all
    assert Viewer.seat("Ann").player == "Ann" and Viewer.table().player is None
    assert Viewer.of(None, reveal=True) == Viewer.referee() and Viewer.of(None) == Viewer.table()
    assert Viewer.of("Ann") == Viewer.seat("Ann") and Viewer.seat("Ann").is_player("Ann")
    assert not Viewer.table().is_player("Ann") and not Viewer.seat("Bob").is_player("Ann")
    with pytest.raises(ValueError):
        Viewer.seat("")


@pytest.mark.parametrize("game_id", game_ids())
def test_a_game_that_hides_information_gives_its_own_observation(game_id):
    game = get_game(game_id)
    observation = game.observation
    assert isinstance(observation, Observation)
    assert type(observation).__module__ == f"solrec.core.{type(game).__module__.split('.')[2]}.observation"
    if game.hidden_information:
        assert not isinstance(observation, Open)


def test_a_game_with_hidden_information_and_no_observation_shows_nothing():
    class Secretive(Game):
        id = "secretive"
        hidden_information = True

    # the abstract methods do not matter here: the observation is asked for first
    Secretive.__abstractmethods__ = frozenset()
    with pytest.raises(NotImplementedError, match="hides information"):
        _ = Secretive().observation


def test_an_observation_that_forgets_a_piece_cannot_be_made():
    class Forgetful(Observation):
        def state(self, state, plain, viewer):
            return plain

    with pytest.raises(TypeError):
        Forgetful(get_game("solo-dice"))  # type: ignore[abstract]


def test_a_stored_command_that_does_not_read_alone_is_hidden_in_a_game_that_hides_something():
    mission = get_game("solarius-mission")
    text = "this is not a command"
    assert mission.observation.command_text(text, Viewer.seat("Ann")) == HIDDEN
    assert mission.observation.command_text(text, Viewer.table()) == HIDDEN
    assert mission.observation.command_text(text, Viewer.referee()) == text
    # a game that hides nothing shows it as stored
    assert get_game("solo-dice").observation.command_text(text, Viewer.table()) == text


def test_a_drawn_card_is_hidden_from_everyone_but_the_referee_and_it_reveals():
    from solrec.core.solarius_mission import events as ev

    mission = get_game("solarius-mission")
    drawn = ev.CardDrawn("Bob", 22)
    plain = {"player": "Bob", "card": 22}
    assert mission.observation.event(drawn, plain, Viewer.seat("Ann")) == SeenEvent({"player": "Bob", "card": "hidden"}, True)
    assert mission.observation.event(drawn, plain, Viewer.referee()).data == plain
    assert mission.reveals(drawn) and mission.reveals(drawn, seeded=False)
    assert not mission.reveals(ev.TurnEnded("Bob"))


def test_what_reveals_in_each_game():
    from solrec.core.solar_solitaire.events import Turned
    from solrec.core.soli2.events import Drawn
    from solrec.core.solo_dice.events import Rolled

    assert get_game("solar-solitaire").reveals(Turned("1-2-3"))
    assert get_game("soli2").reveals(Drawn("black"), seeded=False)  # a pouch draw, seeded or entered
    rolled = get_game("solo-dice").observation
    event = Rolled((1, 2, 3, 4, 5))
    assert rolled.reveals(event, seeded=True) and not rolled.reveals(event, seeded=False)
