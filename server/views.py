"""What one viewer of a game sees at a position, as the server shows it: ``view``.

A viewer is the referee (None: everything, as ``--reveal``), a player (his seat: the ``--as``
view), or a spectator (``table``: the table's view, no hand, no seed, nothing to play). Everything ``view`` holds comes from ``replay.seen`` (the one kernel function every surface
reads a game through, which reads it through the game's ``observation.py``): the board, the commands
as the viewer may read them, no event descriptions for a seat (the referee's only), no seed, and
choices only when that player is to act. The set-up position is filtered like every other (the way
this fails elsewhere: boardgame.io's initial state sent unfiltered, its issue 1159).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import attrs

from solrec.core.errors import CorruptLog, SolrecError
from solrec.core.game import CHANCE, Choices
from solrec.core.observe import TABLE, Viewer
from solrec.core.play import ENTERED
from solrec.events.envelope import group_steps
from solrec.replay.log import Log, move_at, replay_of
from solrec.replay.seen import MAX_OPTION_SHOWN, seen, seen_command, seen_said

_XML_DECL = '<?xml version="1.0" encoding="UTF-8"?>'
__all__ = ["MAX_OPTION_SHOWN", "Move", "View", "inline_svg", "view"]


@attrs.frozen
class Move:
    number: int  # the command's number (1, 2, ...)
    actor: str
    command: str
    position: int  # the position after it (events applied)
    events: tuple[str, ...] = ()  # the referee's view only
    said: str = ""  # what the actor did, in the words the viewer may read (``replay.seen.seen_said``)


@attrs.frozen
class View:
    game_id: str
    title: str
    player: str | None  # None: the referee
    position: int  # the position shown
    head: str  # the log's head hash: the referee's only ("" for a seat: it is a hash of the seed and every hidden draw)
    end: int  # the log's length: ``position == end`` is the live position
    players: tuple[str, ...]
    setup: tuple[tuple[str, str], ...]  # what the header says besides the players, as the viewer may see it
    to_act: str | None
    status: str
    board: str  # an inline SVG, or "" (then ``text``)
    text: str
    totals: tuple[tuple[str, int], ...]
    lines: tuple[tuple[str, int, str, str], ...]
    moves: tuple[Move, ...]
    notes: tuple[tuple[int, int, str, str, str], ...]  # position, n, by, mark, text
    choices: Choices | None  # what the viewer may click now (None: nothing to play)
    may_type: bool  # the notation box
    may_undo: bool
    hints: tuple[str, ...] = ()  # at an entered chance step: what the referee types (``chance_forms``)
    version: str = ""  # the opaque version a write names (set by the app: an HMAC of ``observed``)
    warnings: tuple[str, ...] = ()  # the referee's: a typed seed anyone may guess
    spectator: bool = False  # the table's view through a spectator link: read-only
    move: int = 0  # the move shown (move N: the record's N-th line; 0 the set-up)
    bots: tuple[tuple[str, str], ...] = ()  # the bots seated (player, bot): everyone may know who is a bot (set by the app)
    hint: bool = False  # the seat's "hint" button: hints on in this game, the seat to act (set by the app)
    # the listed commands the page asks about before sending (``asks``): ENDS (the game is over after it)
    # or FINAL (the seat could not take it back: it shows what was hidden, or seeded chance draws next)
    asks: tuple[tuple[str, str], ...] = ()
    # each listed command in the game's words (``Game.command_words``), for its button: (command, words)
    words: tuple[tuple[str, str], ...] = ()
    options: int = 0  # how many options the header records (the set-up's other lines are not options)

    @property
    def live(self) -> bool:
        return self.position == self.end

    @property
    def referee(self) -> bool:
        """The referee's view (neither a seat's nor the table's through a spectator link)."""
        return self.player is None and not self.spectator


# The move lists of the logs read, per game and viewer kind (a player's, the referee's, the table's):
# a page fetches its view after every command, and a long game's list is the costly part (a parse
# and the phrase of what was done, per command). A log that is the kept one with commands appended
# gets only the new commands' lines. As many are kept as the server keeps logs (``keep_moves``),
# times the viewer kinds a table has: with fewer, a club's night of 64 tables made every list again
# from the set-up at every view (about 0.6 ms a view).
_MOVES: OrderedDict[tuple[str, Viewer], tuple[Log, tuple[Move, ...]]] = OrderedDict()
_MOVES_KEPT = 32
_MOVES_LOCK = threading.Lock()  # a server makes views in several threads


def keep_moves(most: int) -> None:
    """Keep the move lists of at least ``most`` (game, viewer kind) pairs."""
    global _MOVES_KEPT
    _MOVES_KEPT = max(_MOVES_KEPT, most)


def _moves(log: Log, viewer: Viewer) -> tuple[Move, ...]:
    key = (log.game_id, viewer)
    with _MOVES_LOCK:
        kept = _MOVES.get(key)
    moves: list[Move] = []
    if kept is not None:
        old, old_moves = kept
        # the lines of the commands both logs share: the same hash at the last one's end is the same
        # rows up to there (the hash chain, verified on load)
        shared = [m for m in old_moves if m.position <= len(log.rows)]
        if old.header == log.header and shared and log.rows[shared[-1].position - 1].hash == old.rows[shared[-1].position - 1].hash:
            moves = shared
    game = log.game
    done = moves[-1].position if moves else 0  # a command's end: the rows after it start a command
    replay = replay_of(log)
    for group in group_steps(log.rows[done:]):
        first, end = group[0].seq, group[-1].seq + 1
        before = replay.state_at(first)
        shown = seen_command(game, group[0].command, before, viewer)
        # the events' words: the referee's only (a seat reads what each event did on the board)
        mine = replay.events(end)[first:end]
        described = tuple(game.describe_event_at(e, before) for e in mine) if viewer.sees_all else ()
        said = seen_said(game, group[0].actor, group[0].command, mine, before, viewer)
        moves.append(Move(len(moves) + 1, group[0].actor, shown, end, described, said))
    out = tuple(moves)
    with _MOVES_LOCK:
        _MOVES[key] = (log, out)
        _MOVES.move_to_end(key)
        while len(_MOVES) > _MOVES_KEPT:
            _MOVES.popitem(last=False)
    return out


def inline_svg(picture: str | None) -> str:
    """A game's standalone SVG document as an element to put in a page."""
    if not picture:
        return ""
    return picture.replace(_XML_DECL, "", 1).strip()


def view(log: Log, viewer: Viewer, at: int | None = None) -> View:
    """What ``viewer`` (the referee, the table through a spectator link, or a seat) sees of the game at
    position ``at`` (None: the end)."""
    player, table = viewer.player, viewer.kind == TABLE
    end = len(log.rows)
    position = end if at is None else at
    if not 0 <= position <= end:
        raise CorruptLog(f"position {position} is outside the log (0 to {end})")  # the app checks first
    look = seen(log, viewer, position)
    game = log.game
    picture = look.svg()
    text = "" if picture else look.text
    outcome = look.outcome
    to_act = look.to_act
    if outcome is not None:
        status = f"game over: {outcome.reason}"
    elif to_act == CHANCE:
        status = "chance to act: the referee enters what the table shows" if log.header.chance == ENTERED else "chance to act"
    else:
        status = f"{to_act} to act" + (" (your turn)" if to_act == player else "")
    choices = None if table else look.choices
    live = position == end
    moves = _moves(log, viewer)
    shown_moves = tuple(m for m in moves if m.position <= position) if not live else moves
    sheet = look.score
    may_undo = live and bool(moves) and not table and (viewer.sees_all or _seat_may_take_back(log, player))
    return View(
        # only the referee's page carries the log's head: one chained from the seed is an oracle for it
        game_id=log.game_id, title=game.title, player=player, position=position, head=log.head if viewer.sees_all else "", end=end,
        players=tuple(log.header.players), setup=look.setup, to_act=to_act, status=status,
        board=inline_svg(picture), text=text, totals=tuple(sheet.totals),
        lines=tuple((ln.player, ln.points, ln.what, ln.rule) for ln in sheet.lines),
        moves=shown_moves,
        notes=tuple((n.position, n.n, n.by, n.mark, n.text) for n in log.notes.notes if n.position <= position),
        choices=choices, may_type=choices is not None, may_undo=may_undo,
        hints=tuple(game.chance_forms(look.state_for_rules())) if choices is not None and to_act == CHANCE else (),
        warnings=_warnings(log) if viewer.sees_all else (),
        spectator=table, move=move_at(log.rows, position),
        asks=asks(game, look.state_for_rules(), choices, log.header.chance != ENTERED, viewer.is_seat),
        words=command_words(game, look.state_for_rules(), choices), options=len(log.header.options_dict()),
    )


ENDS, FINAL = "ends", "final"


def command_words(game, state, choices: Choices | None) -> tuple[tuple[str, str], ...]:
    """Each listed command said in the game's words for its button (``Game.command_words``, from the
    game's ``words.py``), at the position it would be played in: only the viewer's own commands (a seat
    has choices only when it acts), so the words name nothing it may not see."""
    if choices is None:
        return ()
    out = []
    for c in choices.commands:
        try:
            said = game.command_words(game.parse(c.command, state), state)
        except SolrecError:
            continue
        if said and said != c.command:
            out.append((c.command, said))
    return tuple(out)


def asks(game, state, choices: Choices | None, seeded: bool, seat: bool) -> tuple[tuple[str, str], ...]:
    """The listed commands that end the game (ENDS: the game is over after the command's own events),
    and for a seat those it could not take back (FINAL: its events show what was hidden, or it hands
    the turn to seeded chance, whose draw shows what the seed hid: ``manage.seat_refusal``). Only the
    command's own events are decided, never the chance after it: what the page asks depends on nothing
    the seat may not see."""
    if choices is None:
        return ()
    out = []
    for c in choices.commands:
        try:
            events = game.decide(state, game.parse(c.command, state))
        except SolrecError:
            continue
        after = state
        for e in events:
            after = game.evolve(after, e)
        if game.outcome(after) is not None:
            out.append((c.command, ENDS))
        elif seat and (any(game.reveals(e, seeded) for e in events) or (seeded and game.to_act(after) == CHANCE)):
            out.append((c.command, FINAL))
    return tuple(out)


def _seat_may_take_back(log: Log, player: str | None) -> bool:
    """A seat's "take back" button shows only where ``manage.take_back`` would take it back."""
    from solrec.workflows.undo import seat_refusal

    return player is not None and seat_refusal(log, player) is None


# A seed a person typed may be guessed; the header records no "typed" flag, so the rule is its size:
# a seed below 2**48 is warned of. The default seed is 63 random bits (``session.new_game``), which
# falls below 2**48 with probability 2**-15.
TYPED_SEED_BELOW = 2**48


def _warnings(log: Log) -> tuple[str, ...]:
    seed = log.header.seed
    if log.header.chance != ENTERED and seed is not None and 0 <= seed < TYPED_SEED_BELOW:
        return (f"the seed {seed} looks typed rather than random: anyone who knows or guesses it can foresee every "
                "draw of this game (start games with an empty seed: 63 random bits)",)
    return ()


def observed(v: View) -> bytes:
    """A digest of what the viewer of ``v`` has observed of the game up to its position: the very
    values its page shows (the set-up as it may see it, the board, the status, the score sheet, the
    move list in its notation), never anything it may not see. A seat's write names an HMAC of it
    (``View.version``): two games a seat cannot tell apart give it the same version."""
    import hashlib
    import json

    shown = [v.game_id, v.player, v.position, v.end, list(v.players), [list(s) for s in v.setup], v.to_act, v.status,
             v.board, v.text, [list(t) for t in v.totals], [list(ln) for ln in v.lines],
             [[m.number, m.actor, m.command, m.position, list(m.events), m.said] for m in v.moves]]
    return hashlib.sha256(json.dumps(shown, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")).digest()
