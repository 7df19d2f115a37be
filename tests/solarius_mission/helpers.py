"""A table for Solarius Mission tests: entered chance, commands typed as at the table."""

from __future__ import annotations

from typing import Any

import attrs

from solrec.core.play import ENTERED, make_header, play
from solrec.core.play import initial_state as _initial
from solrec.core.registry import get_game
from solrec.core.solarius_mission.state import Mat, State, phase

GAME = get_game("solarius-mission")
# Marion starts; bridge from her tech dice: black3 on -1, yellow2 on 0, brown* and turquoise1 on +1
OPENING = ("start-card 1", "start-card 2", "first Marion", "roll black 3", "roll yellow 2", "roll turquoise 1",
           "roll brown *", "hub B")


# The map (4.0): every tile in its printed alignment, A at the top and the others clockwise.
TILES = "tiles A0 B0 C0 D0 E0 F0"


class Table:
    def __init__(self, players: tuple[str, ...] = ("Marion", "Tom"), opening: tuple[str, ...] | None = OPENING,
                 tiles: str | None = TILES, **options: Any):
        self.header = make_header(GAME, players, options, ENTERED)
        self.state: State = _initial(GAME, self.header)
        self.position = 0
        self.events: list = []
        if tiles and phase(self.state) == "tiles":  # a set with a map is put together first
            self.do(tiles)
        if opening:
            self.do(*opening)

    def do(self, *texts: str) -> list:
        out = []
        for text in texts:
            actor = GAME.to_act(self.state)
            command = GAME.parse(text, self.state)
            steps, self.state, self.position = play(GAME, self.header, self.state, self.position, actor, command)
            for s in steps:
                out.extend(s.events)
        self.events.extend(out)
        return out

    def mat(self, player: str = "Marion") -> Mat:
        return self.state.mat(player)

    @property
    def phase(self) -> str:
        return phase(self.state)

    def set_mat(self, player: str = "Marion", **changes: Any) -> None:
        """Arrange a position directly (worked examples score the text's figure however reached)."""
        self.state = self.state.with_mat(player, attrs.evolve(self.state.mat(player), **changes))

    def score_line(self, player: str, starts: str) -> int:
        (line,) = [ln for ln in GAME.score(self.state).lines if ln.player == player and ln.what.startswith(starts)]
        return line.points
