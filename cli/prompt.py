"""`solrec play ID` with no command: the terminal mode, for typing a real game in at the table.

A prompt that shows the position and whose turn it is, lists the legal commands (or their forms,
and at an entered chance step what the table types), completes them with Tab, and reads one
command a line until the game ends or input ends. Each line is played exactly as ``solrec play ID
LINE`` plays it (``session.play_commands``: the same parse, decision, seeded chance and one
transaction), so a game typed here is stored as one typed command by command. A refusal is one line
and the prompt asks again; nothing is written for it.

Built on the standard library (``readline`` for editing, history and Tab): no extra to install, and
it works the same when input is not a terminal (a file piped in).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from solrec.core.errors import AmbiguousCommand, IllegalCommand, InvalidCommand, WrongActor

from .errors import ChanceStays, NothingToUndo

# The prompt's own words; anything else is a command in the game's notation.
META = ("help", "show", "undo", "quit")
# More legal commands than this are counted, not listed (Tab still completes every one).
LISTED = 24
# What is refused and asked again: the person typed something the game or the log does not take.
REFUSALS: tuple[type[Exception], ...] = (InvalidCommand, AmbiguousCommand, IllegalCommand, WrongActor,
                                         NothingToUndo, ChanceStays)


class Table:
    """One game at the prompt: its log, reloaded after every write (another process may play too)."""

    def __init__(self, store: Any, game_id: str, out: Callable[[str], None]):
        from solrec.events.store import ConcurrencyConflict

        self.store, self.game_id, self.out = store, game_id, out
        self.refusals: tuple[type[Exception], ...] = (*REFUSALS, ConcurrencyConflict)
        self.reload()

    def reload(self) -> None:
        from solrec.replay.log import load, state_at

        self.log = load(self.store, self.game_id)
        self.game = self.log.game
        self.state = state_at(self.log)

    @property
    def over(self) -> bool:
        return self.game.to_act(self.state) is None

    def legal(self) -> list[str]:
        """The legal commands of whoever is to act, as typed (empty where they are not enumerable)."""
        if self.over:
            return []
        legal = self.game.legal_commands(self.state)
        return [] if legal is None else [self.game.format_at(c, self.state) for c in legal]

    def completions(self, typed: str) -> list[str]:
        words = [*self.legal(), *META]
        return [w for w in words if w.startswith(typed)]

    def position(self) -> str:
        return f"{self.game_id} at position {len(self.log.rows)}\n{self.game.render(self.state)}"

    def turn(self) -> str:
        """Whose turn, and what may be typed: the commands, or their forms, or the chance expected."""
        from solrec.core.game import CHANCE

        game, state = self.game, self.state
        to_act = game.to_act(state)
        if to_act is None:
            outcome = game.outcome(state)
            totals = ", ".join(f"{p} {t}" for p, t in game.score(state).totals)
            return f"the game is over: {outcome.reason if outcome else ''} ({totals})"
        lines = [f"position {len(self.log.rows)}: {'chance (type what the table shows)' if to_act == CHANCE else to_act} to act"]
        if to_act == CHANCE and self.log.header.chance == "entered":
            lines += [f"  {f}" for f in game.chance_forms(state)]
            return "\n".join(lines)
        commands = self.legal()
        if commands and len(commands) <= LISTED:
            lines.append("legal: " + " | ".join(commands))
        elif commands:
            lines.append(f"{len(commands)} legal commands (Tab completes them), e.g. {commands[0]}")
        else:
            lines += [f"  {f}" for f in game.command_forms(state)]
        return "\n".join(lines)

    def help(self) -> str:
        examples = "; ".join(self.game.notation_examples[:2])
        return (
            f"Type a command in {self.game.title}'s notation (e.g. {examples}); several on one line are separated by ';'.\n"
            "  show   the position again\n"
            "  undo   take back the last command (with the seeded chance it brought)\n"
            "  help   this text\n"
            "  quit   leave (the game stays stored; Ctrl-D too)\n"
            "Tab completes the legal commands."
        )

    def play(self, line: str) -> str:
        """Play one line as ``solrec play ID LINE`` would; returns what to print."""
        from . import session
        from .app import steps_text

        texts = [t.strip() for t in line.split(";") if t.strip()]
        steps, log, state, before = session.play_commands(self.store, self.game_id, texts)
        self.reload()
        return steps_text(log.game, steps, before)

    def undo(self) -> str:
        from .manage import take_back

        done = take_back(self.store, self.game_id, None)
        self.reload()
        return f"took back {done['events']} event{'s' if done['events'] != 1 else ''}"


def run(store: Any, game_id: str, *, reader: Callable[[str], str] = input, out: Callable[[str], None] = print) -> None:
    """Read commands until the game ends, input ends or ``quit``."""
    table = Table(store, game_id, out)
    interactive = reader is input and sys.stdin.isatty()
    if interactive:
        _complete_with(table)
    out(table.position())
    out(table.turn())
    if not table.over:
        out("(help lists what can be typed; Tab completes)")
    while not table.over:
        try:
            line = reader(f"{game_id}> ").strip()
        except EOFError:
            out("")
            return
        if not line:
            continue
        word = line.lower()
        try:
            if word in ("quit", "exit"):
                return
            if word == "help":
                out(table.help())
                continue
            if word == "show":
                out(table.position())
            elif word == "undo":
                out(table.undo())
            else:
                out(table.play(line))
        except table.refusals as err:
            out(f"refused: {err}")
            continue
        out(table.turn())


def _complete_with(table: Table) -> None:
    """Tab completes the whole line (commands hold spaces: '6+1 5+5 5'), from the legal commands."""
    try:
        import readline
    except ImportError:  # a Python without readline: no completion, the prompt still works
        return
    matches: list[str] = []

    def complete(text: str, index: int) -> str | None:
        nonlocal matches
        if index == 0:
            matches = table.completions(text)
        return matches[index] if index < len(matches) else None

    readline.set_completer_delims("")
    readline.set_completer(complete)
    # libedit (macOS) and GNU readline spell the binding differently
    readline.parse_and_bind("bind ^I rl_complete" if "libedit" in (readline.__doc__ or "") else "tab: complete")
