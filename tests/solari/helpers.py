"""A small table for Solari tests: set up a layout, play commands as typed, look at the result."""

from __future__ import annotations

from solrec.core.play import initial_state, make_header, play
from solrec.core.solari.game import Solari

GAME = Solari()
PLAYERS = {2: ("Ann", "Bob"), 3: ("Ann", "Bob", "Cid"), 4: ("Ann", "Bob", "Cid", "Dee")}


class Table:
    def __init__(self, layout: str = "", players: int = 2, **options):
        opts = {k: str(v) for k, v in options.items()}
        if layout:
            opts["layout"] = layout
        self.header = make_header(GAME, PLAYERS[players], opts, "entered")
        self.state = initial_state(GAME, self.header)
        self.position = 0
        self.events: list = []

    def __call__(self, *commands: str) -> Table:
        for text in commands:
            actor = GAME.to_act(self.state)
            command = GAME.parse(text, self.state)
            steps, self.state, self.position = play(GAME, self.header, self.state, self.position, actor, command)
            for step in steps:
                self.events.extend(step.events)
        return self

    def at(self, square: int):
        return dict(self.state.board).get(square)

    def label(self, square: int) -> str | None:
        p = self.at(square)
        return p.label if p else None

    @property
    def legal(self) -> list[str]:
        return sorted(GAME.format(c) for c in GAME.legal_commands(self.state))

    def total(self, player: str) -> int:
        return GAME.score(self.state).total(player)

    def kinds(self) -> list[str]:
        return [type(e).__name__ for e in self.events]


def finish_move(table: Table) -> Table:
    """Play the first legal command until the mover's move is over (another actor is to act)."""
    mover = GAME.to_act(table.state)
    while GAME.to_act(table.state) == mover and not table.state.over:
        table(GAME.format(GAME.legal_commands(table.state)[0]))
    return table
