"""SOLI2 scoring: a side's score is its marbles left on the board; equal counts at the end of a duel
are broken by comparing the marbles closest to the center, pair by pair (002, "BREAKING TIES")."""

from __future__ import annotations

import attrs

from ..game import Outcome, ScoreLine, ScoreSheet
from . import board as B
from . import text
from .events import BLACK_OUT, WHITE_OUT
from .rules import marbles
from .state import CLASSIC, GIVE_AWAY, State


@attrs.frozen
class Comparison:
    """One step of the tie-break: black's and white's next closest marbles."""

    black: str
    white: str

    @property
    def black_distance(self) -> int:
        return B.DISTANCE[B.index(self.black)]

    @property
    def white_distance(self) -> int:
        return B.DISTANCE[B.index(self.white)]

    @property
    def closer(self) -> str | None:
        if self.black_distance == self.white_distance:
            return None
        return B.BLACK if self.black_distance < self.white_distance else B.WHITE


def by_distance(flat: str, color: str) -> list[str]:
    """A side's marbles, closest to the center first (equal distances in board order, a7 .. g1)."""
    mark = B.MARK[color]
    squares = [i for i, m in enumerate(flat) if m == mark]
    squares.sort(key=lambda i: (B.DISTANCE[i], i))
    return [B.name(i) for i in squares]


def tie_break(flat: str) -> tuple[list[Comparison], str]:
    """The comparisons made, up to the deciding one, and the winning color (white if none decides)."""
    steps = []
    for black, white in zip(by_distance(flat, B.BLACK), by_distance(flat, B.WHITE)):
        step = Comparison(black, white)
        steps.append(step)
        if step.closer is not None:
            return steps, step.closer
    return steps, B.WHITE  # 002: "the player playing "white" wins the game"


def comparison_text(step: Comparison) -> str:
    b = f"black {step.black} at distance {step.black_distance}"
    w = f"white {step.white} at distance {step.white_distance}"
    if step.closer == B.WHITE:
        return f"{w} beats {b}"
    if step.closer == B.BLACK:
        return f"{b} beats {w}"
    return f"{b} and {w} are equally close: both set aside"


def _plural(n: int) -> str:
    return "" if n == 1 else "s"


def duel_result(state: State) -> tuple[str, list[ScoreLine], str]:
    """(winning color, tie-break lines, reason) of a finished duel."""
    flat = state.flat
    black, white = state.on_board(B.BLACK), state.on_board(B.WHITE)
    give_away = state.objective == GIVE_AWAY
    if black != white:
        more = B.BLACK if black > white else B.WHITE
        winner = B.opposite(more) if give_away else more
        rule = "the least marbles remaining wins (give away)" if give_away else "the most marbles remaining wins"
        counts = f"black {black}, white {white}"
        return winner, [], f"{counts}: {rule}"
    steps, winner = tie_break(flat)
    who = state.player_of(winner)
    lines = []
    for step in steps:
        rule = text.TIE_NEXT if step.closer is None else text.TIE_CLOSEST + "; " + text.DISTANCE
        if step.closer is not None and give_away:
            rule = text.GIVE_AWAY_TIE + "; " + text.DISTANCE
        lines.append(ScoreLine(who, 0, "tie-break: " + comparison_text(step), rule))
    decided = steps[-1] if steps and steps[-1].closer is not None else None
    if decided is None:
        lines.append(
            ScoreLine(who, 0, "tie-break: no marble is closer after all have been compared: white wins", text.TIE_WHITE)
        )
        reason = f"{marbles(black)} each and no marble closer after all were compared: white wins the tie-break"
    else:
        reason = f"{marbles(black)} each; tie-break: {comparison_text(decided)}"
    return winner, lines, reason


def score(state: State) -> ScoreSheet:
    if state.solitaire:
        return ScoreSheet.from_lines(state.players, solitaire_lines(state))
    give_away = state.objective == GIVE_AWAY
    rule = text.GIVE_AWAY_LEAST if give_away else text.MOST_WINS
    lines = []
    for k, color in enumerate(B.COLORS):
        n = state.on_board(color)
        lines.append(ScoreLine(state.players[k], n, f"{color}: {marbles(n)} on the board", rule))
    if state.over:
        lines.extend(duel_result(state)[1])
    return ScoreSheet.from_lines(state.players, lines)


def solitaire_lines(state: State) -> list[ScoreLine]:
    player = state.players[0]
    flat = state.flat
    n = len(flat) - flat.count(B.EMPTY)
    rule = text.CLASSIC_JUMPS if state.mode == CLASSIC else text.SOLI2_JUMPS
    lines = [ScoreLine(player, n, f"{marbles(n)} on the board", rule)]
    if state.over and n == 1:
        lines.append(ScoreLine(player, 0, "one marble left: a win", text.SOLO_WIN))
        if flat[B.CENTER] != B.EMPTY:
            lines.append(ScoreLine(player, 0, "the last marble is on d4, the center: a perfect game", text.PERFECT))
    return lines


def ending(state: State) -> str | None:
    """How the game ended, without who and how many marbles (``Game.ending``)."""
    if not state.over:
        return None
    if state.solitaire:
        n = len(state.flat) - state.flat.count(B.EMPTY)
        if n == 1:
            return "perfect game: one marble left, on d4" if state.flat[B.CENTER] != B.EMPTY else "a win: one marble left"
        return "no jump remains"
    return {BLACK_OUT: "black has no marbles left", WHITE_OUT: "white has no marbles left"}.get(
        state.end or "", "neither player has a legal jump")


def outcome(state: State) -> Outcome | None:
    if not state.over:
        return None
    flat = state.flat
    if state.solitaire:
        player = state.players[0]
        n = len(flat) - flat.count(B.EMPTY)
        if n == 1:
            if flat[B.CENTER] != B.EMPTY:
                return Outcome(player, (player,), "perfect game: one marble left, on d4 (the center)")
            where = B.name(next(i for i, m in enumerate(flat) if m != B.EMPTY))
            return Outcome(player, (player,), f"a win: one marble left (on {where})")
        # "You win if you leave only one marble": more left is a game lost
        return Outcome(None, (player,), f"{marbles(n)} left: no jump remains", result="lost")
    winner, _, reason = duel_result(state)
    ended = ending(state)
    who = state.player_of(winner)
    loser = state.player_of(B.opposite(winner))
    return Outcome(who, (who, loser), f"{ended}; {who} ({winner}) wins: {reason}")
