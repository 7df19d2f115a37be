"""SOLI2 rules: what may be drawn, placed and jumped, and the events each command produces."""

from __future__ import annotations

from ..errors import IllegalCommand
from ..game import Choice, Choices, Field, Form
from ..words import quoted
from . import board as B
from .commands import Draw, Jump, Pass, Place
from .events import BLACK_OUT, NO_JUMP, WHITE_OUT, Drawn, Ended, Jumped, Passed, Placed
from .state import (
    CLASSIC,
    DUEL,
    FILLING,
    JUMPING,
    MARBLES,
    PURE_SKILL,
    SOLI2_SOLITAIRE,
    State,
    evolve,
)
from .words import landing


def and_list(items) -> str:
    items = list(items)
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def marbles(n: int, color: str = "") -> str:
    word = f"{color} marble" if color else "marble"
    return f"{n} {word}{'' if n == 1 else 's'}"


# -- jumps --------------------------------------------------------------------------------------
def jumps_of(flat: str, mode: str, color: str | None) -> list[tuple[int, int, int]]:
    """Every legal jump as (start, over, end) pocket indices, in board order.

    duel: ``color``'s own marbles jump over any marble (002: "pick up one of **your** marbles";
    "regardless of which color marble you are jumping over"); classic solitaire: any marble over any
    marble; SOLI2 solitaire: any marble over a marble of the opposite color.
    """
    own = B.MARK[color] if color is not None else None
    out = []
    for start, mark in enumerate(flat):
        if mark == B.EMPTY or (mode == DUEL and mark != own):
            continue
        for over, end in B.JUMPS[start]:
            over_mark = flat[over]
            if over_mark == B.EMPTY or flat[end] != B.EMPTY:
                continue
            if mode == SOLI2_SOLITAIRE and over_mark == mark:
                continue
            out.append((start, over, end))
    return out


def has_jump(flat: str, mode: str, color: str | None) -> bool:
    own = B.MARK[color] if color is not None else None
    for start, mark in enumerate(flat):
        if mark == B.EMPTY or (mode == DUEL and mark != own):
            continue
        for over, end in B.JUMPS[start]:
            over_mark = flat[over]
            if over_mark != B.EMPTY and flat[end] == B.EMPTY and not (mode == SOLI2_SOLITAIRE and over_mark == mark):
                return True
    return False


def mover_color(state: State) -> str | None:
    """The color whose marbles the player to act may jump (None in the solitaires: any)."""
    return state.color_of(state.turn) if state.mode == DUEL else None


def legal_jumps(state: State) -> tuple[Jump, ...]:
    if state.phase != JUMPING:
        return ()
    found = jumps_of(state.flat, state.mode, mover_color(state))
    return tuple(sorted((Jump(B.name(s), B.name(e)) for s, _, e in found), key=lambda j: (j.start, j.end)))


def jump_text(jump: Jump) -> str:
    return f"{jump.start}-{jump.end}"


def must_jump(state: State) -> str:
    available = [jump_text(j) for j in legal_jumps(state)]
    verb = "is" if len(available) == 1 else "are"
    return f"you must jump: {and_list(available)} {verb} available"


def consequences(state: State) -> list:
    """The automatic events once a jumping turn has passed to ``state.turn`` (or the jumping phase has
    begun): the end of the game, or a pass by a player without a legal jump."""
    flat = state.flat
    if state.mode != DUEL:
        if not has_jump(flat, state.mode, None):
            return [Ended(NO_JUMP)]  # docs/rules/soli2.md: a solitaire ends when no jump remains
        return []
    for color, reason in ((B.BLACK, BLACK_OUT), (B.WHITE, WHITE_OUT)):
        if B.MARK[color] not in flat:
            return [Ended(reason)]  # 002: "when either player runs out of marbles"
    color = state.color_of(state.turn)
    if has_jump(flat, DUEL, color):
        return []
    if has_jump(flat, DUEL, B.opposite(color)):
        return [Passed(state.players[state.turn], color)]  # 002: "pass your turn"
    return [Ended(NO_JUMP)]  # 002: "neither player has a legal jump"


def with_consequences(state: State, events: list) -> tuple:
    after = state
    for event in events:
        after = evolve(after, event)
    if after.phase == JUMPING:
        events = events + consequences(after)
    return tuple(events)


# -- decide -------------------------------------------------------------------------------------
def _filled(state: State) -> str:
    return f"all {MARBLES} marbles are on the board"


def decide_draw(state: State, command: Draw) -> tuple:
    if command.color not in B.COLORS:
        raise IllegalCommand(f"a marble is black or white, not {quoted(command.color)}")
    if state.mode == CLASSIC:
        raise IllegalCommand("classic solitaire uses no pouch: all the marbles are on the board from the start")
    if state.mode == DUEL and state.fill == PURE_SKILL:
        raise IllegalCommand(
            "in the pure-skill game the pouch is not used: each player places a marble of their choice from "
            "their own channel"
        )
    if state.phase != FILLING:
        raise IllegalCommand(f"{_filled(state)}: nothing more is drawn")
    if state.hand is not None:
        raise IllegalCommand(f"the {state.hand} marble drawn last must be placed before the next draw")
    black, white = state.pouch
    left = black if command.color == B.BLACK else white
    if left == 0:
        other = B.opposite(command.color)
        raise IllegalCommand(
            f"the pouch holds no {command.color} marble any more (only {marbles(black + white - left, other)})"
        )
    events: list = [Drawn(command.color)]
    if state.mode == SOLI2_SOLITAIRE:
        # 002: "placing them into the pockets in order: left-to-right, top-to-bottom, skipping the center"
        square = B.name(B.FILL_ORDER[state.placements])
        events.append(Placed(state.players[0], command.color, square))
        return with_consequences(state, events)
    return tuple(events)


def decide_place(state: State, command: Place) -> tuple:
    if not B.is_square(command.square):
        raise IllegalCommand(f"{quoted(command.square)} is not a pocket: files a-g, ranks 1-7")
    if command.color is not None and command.color not in B.COLORS:
        raise IllegalCommand(f"a marble is black or white, not {quoted(command.color)}")
    if state.mode == CLASSIC:
        raise IllegalCommand(f"in classic solitaire {_filled(state)} from the start: {must_jump(state)}")
    if state.mode == SOLI2_SOLITAIRE and state.phase == FILLING:
        raise IllegalCommand(
            "in SOLI2 solitaire the marbles drawn from the pouch fill the pockets in order, left-to-right, "
            "top-to-bottom: no pocket is chosen"
        )
    if state.phase == JUMPING:
        raise IllegalCommand(f"{_filled(state)} and the jumping has begun: {must_jump(state)}")
    if state.phase != FILLING:
        raise IllegalCommand("the game is over")
    player = state.players[state.turn]
    if state.fill == PURE_SKILL:
        if command.color is None:
            raise IllegalCommand(
                f"in the pure-skill game you choose the color from your channel: write 'place black "
                f"{command.square}' or 'place white {command.square}'"
            )
        black, white = state.channels[state.turn]
        left = black if command.color == B.BLACK else white
        if left == 0:
            other = B.opposite(command.color)
            raise IllegalCommand(
                f"{player}'s channel holds no {command.color} marble any more "
                f"(only {marbles(black + white - left, other)})"
            )
        color = command.color
    else:
        if state.hand is None:
            raise IllegalCommand("draw a marble from the pouch first")
        if command.color is not None:
            raise IllegalCommand(
                f"you place the marble you drew from the pouch ({state.hand}): write 'place {command.square}'"
            )
        color = state.hand
    if state.at(command.square) is not None:
        raise IllegalCommand(f"{command.square} is not empty")
    return with_consequences(state, [Placed(player, color, command.square)])


def decide_jump(state: State, command: Jump) -> tuple:
    start, end = command.start, command.end
    for square in (start, end):
        if not B.is_square(square):
            raise IllegalCommand(f"{quoted(square)} is not a pocket: files a-g, ranks 1-7")
    if state.phase == FILLING:
        raise IllegalCommand(
            f"the board is still being filled ({state.placements} of {MARBLES} marbles placed): "
            "the jumping begins once all are on the board"
        )
    if state.phase != JUMPING:
        raise IllegalCommand("the game is over")
    mover = state.at(start)
    if mover is None:
        raise IllegalCommand(f"{start} is empty: there is no marble to jump with")
    if state.mode == DUEL:
        own = state.color_of(state.turn)
        if mover != own:
            raise IllegalCommand(
                f"{start} holds a {mover} marble: {state.players[state.turn]} plays {own} and may only pick up "
                f"{own} marbles"
            )
    (sf, sr), (ef, er) = B.coords(B.index(start)), B.coords(B.index(end))
    df, dr = ef - sf, er - sr
    if df and dr:
        raise IllegalCommand(f"{start}-{end} is not straight: you cannot jump diagonally")
    if abs(df) + abs(dr) != 2:
        if abs(df) + abs(dr) > 2:
            raise IllegalCommand(
                f"{start}-{end} passes more than one pocket: you may only jump over a single marble"
            )
        raise IllegalCommand(
            f"{start}-{end} is not a jump: a marble jumps over one adjacent marble into the pocket beyond it"
        )
    over = B.name(B.index(start) + (B.index(end) - B.index(start)) // 2)
    if state.at(end) is not None:
        raise IllegalCommand(f"{end} is not empty")
    jumped = state.at(over)
    if jumped is None:
        raise IllegalCommand(f"{start}-{end} jumps over {over}, which is empty")
    if state.mode == SOLI2_SOLITAIRE and jumped == mover:
        raise IllegalCommand(
            f"{start}-{end} jumps a {jumped} marble, but in SOLI2 solitaire the {mover} marble on {start} "
            f"must jump a {B.opposite(mover)} marble"
        )
    player = state.players[state.turn]
    return with_consequences(state, [Jumped(player, mover, start, over, end, jumped)])


def decide_pass(state: State, command: Pass) -> tuple:
    if state.phase == FILLING:
        raise IllegalCommand("nobody passes while the board is being filled: place a marble")
    if state.phase != JUMPING:
        raise IllegalCommand("the game is over")
    # A player to act always has a jump: without one they pass automatically (or the game ends).
    raise IllegalCommand(must_jump(state))


def legal_placements(state: State) -> tuple[Place, ...]:
    if state.phase != FILLING or state.mode != DUEL:
        return ()
    flat = state.flat
    empty = [B.SQUARES[i] for i in B.BY_NAME if flat[i] == B.EMPTY]
    if state.fill == PURE_SKILL:
        black, white = state.channels[state.turn]
        colors = [c for c, n in ((B.BLACK, black), (B.WHITE, white)) if n > 0]
        return tuple(Place(sq, c) for c in colors for sq in empty)
    if state.hand is None:
        return ()
    return tuple(Place(sq) for sq in empty)


def legal_draws(state: State) -> tuple[Draw, ...]:
    if state.phase != FILLING or state.hand is not None:
        return ()
    black, white = state.pouch
    return tuple(Draw(c) for c, n in ((B.BLACK, black), (B.WHITE, white)) if n > 0)


# -- at the table: what to click (``solrec serve``) ----------------------------------------------
def chance_choices(state: State) -> tuple[Form, ...]:
    """The pouch's draw, at an entered table: a form of the colours still in it (its counts are
    public: what was placed shows what is left)."""
    colours = tuple(d.color for d in legal_draws(state))
    return (Form("draw", "draw {colour}", (Field("colour", colours),), f"draw {colours[0]}",
                 "the marble drawn from the pouch"),)


def choices(state: State, actor: str) -> Choices:
    """A jump is its marble's pocket then the empty pocket it lands in (the marble it removes beside
    it); a placement the pocket (in pure skill, the colour from the channel first)."""
    from .notation import format as write

    if state.phase == FILLING:
        return Choices(actor, tuple(Choice(write(p), (p.color, p.square) if p.color else (p.square,), "place")
                                    for p in legal_placements(state)))
    if state.phase != JUMPING:
        return Choices(actor)
    listed = []
    for start, over, end in jumps_of(state.flat, state.mode, mover_color(state)):
        jump = Jump(B.name(start), B.name(end))
        # issue 43: what a jump does, said beside its pocket: where the marble lands, what it removes
        taken = landing(jump.start, B.name(over), jump.end, state.at(B.name(over)))
        listed.append(Choice(write(jump), (jump.start, jump.end), "jump", taken, takes=(B.name(over),)))
    return Choices(actor, tuple(sorted(listed, key=lambda c: c.steps)))
