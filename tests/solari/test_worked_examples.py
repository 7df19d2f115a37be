"""The three worked examples of the text, each set up with ``layout`` and played as a real move.

000: "Example: You have 1235, that's a row of four = 3 points plus a sequence of three = 2 points,
together 5 points"; "You had 12364 and change it to 12346. ... that's 6 points."; "you have 23451,
451 has the same orientation. ... that's 16 altogether."
"""

from __future__ import annotations

import attrs
import pytest

from .helpers import GAME, Table

EXAMPLES = {
    # 2 arrives in the gap of 1 _ 3 5 (facings keep every orientation shorter than three)
    "1235": ("51:U1E,53:U3E,54:U5E,72:U2W,07:S1S", ["roll 1 1", "72-62", "62-52"], 5),
    # 4 shoots its own 6 (a self shot, simple), the 6 is set on the margin square at the row's end,
    # and the blocker plays the other number: the row of five stays, the sequence grows to 1234
    "12364->12346": ("53:U1N,54:U2E,55:U3N,56:U6E,57:U4S,11:Ub,07:S1S", ["roll 1 2", "57-56", "place 57", "11-13"], 6),
    # 5 comes down into the gap of 2 3 4 _ 1 facing south like 4 and 1
    "23451": ("51:U2N,52:U3E,53:U4S,55:U1S,14:U5W,07:S1S", ["roll 2 2", "14-34", "34-54"], 16),
}


@pytest.mark.parametrize("name", EXAMPLES)
def test_worked_example_scores_as_the_text_says(name, snapshot):
    layout, commands, points = EXAMPLES[name]
    t = Table(layout)(*commands)
    assert t.total("Ann") == points
    sheet = GAME.score(t.state)
    assert snapshot == {
        "events": [GAME.describe_event(e) for e in t.events],
        "units": [attrs.asdict(u) for u in t.state.scored[0].units],
        "score_sheet": sheet.as_dict(),
        "board": GAME.render(t.state).splitlines(),
    }
