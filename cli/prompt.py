"""`solrec play ID` with no command: the terminal mode, for typing a real game in at the table.

A prompt that shows the position and whose move it is ("move 3: Ann to act": move N is the N-th
line of the record, as everywhere), lists the legal commands (with what each does in the game's
words, where the game says it: "sums 7 and 10: score -400"), or their forms, and at an entered
chance step what the table types; Tab completes them, a form one part at a time (``roll ``, then
each die's faces). It reads one command a line until the game ends or input ends. Each line is
played exactly as ``solrec play ID LINE`` plays it (``session.play_commands``: the same parse,
decision, seeded chance and one transaction), so a game typed here is stored as one typed command
by command; the prompt answers with each move it made and what its actor did, in the game's own
past-tense words as the table sees them (``Observation.said``), then the score. ``undo`` says which
move it took back, in the same words. A refusal is one line and the prompt asks again; nothing is
written for it.

Built on the standard library (``readline`` for editing, history and Tab): no extra to install, and
it works the same when input is not a terminal (a file piped in)."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

from solrec.core.errors import AmbiguousCommand, IllegalCommand, InvalidCommand, WrongActor
from solrec.core.game import Choices, Form
from solrec.core.play import ENTERED
from solrec.workflows.errors import ChanceStays, CommentsStay, NothingToUndo

# The prompt's own words; anything else is a command in the game's notation.
META = ("help", "show", "undo", "undo --drop-comments", "quit")
# More legal commands than this are counted, not listed (Tab still completes every one).
LISTED = 24
# What is refused and asked again: the person typed something the game or the log does not take.
REFUSALS: tuple[type[Exception], ...] = (InvalidCommand, AmbiguousCommand, IllegalCommand, WrongActor,
                                         NothingToUndo, ChanceStays, CommentsStay)


class Table:
    """One game at the prompt: its log, reloaded after every write (another process may play too)."""

    def __init__(self, store: Any, game_id: str, out: Callable[[str], None]):
        from solrec.events.store import ConcurrencyConflict

        self.store, self.game_id, self.out = store, game_id, out
        self.refusals: tuple[type[Exception], ...] = (*REFUSALS, ConcurrencyConflict)
        self.reload()

    def reload(self) -> None:
        from solrec.replay.log import load, moves_of, state_at

        self.log = load(self.store, self.game_id)
        self.game = self.log.game
        self.state = state_at(self.log)
        self.moves = moves_of(self.log)  # people count moves: the next one is move self.moves + 1
        self._choices: Choices | None = None

    @property
    def over(self) -> bool:
        return self.game.to_act(self.state) is None

    @property
    def choices(self) -> Choices:
        """What whoever is to act may choose (the referee's view: chance's forms at an entered step)."""
        if self._choices is None:
            self._choices = self.game.choices(self.state, entered=self.log.header.chance == ENTERED)
        return self._choices

    def legal(self) -> list[str]:
        """The legal commands of whoever is to act, as typed (empty where they are not enumerable)."""
        from solrec.core.game import CHANCE

        if self.over or self.game.to_act(self.state) == CHANCE:
            return []  # chance is typed from its forms (every roll listed would be thousands)
        legal = self.game.legal_commands(self.state)
        return [] if legal is None else [self.game.format_at(c, self.state) for c in legal]

    def completions(self, typed: str) -> list[str]:
        """What Tab offers for the line typed so far: the legal commands and choices, each form filled
        in one part at a time (a roll: ``roll `` then each die's faces), the prompt's own words."""
        words = [*self.legal(), *(c.command for c in self.choices.commands)]
        for form in self.choices.forms:
            words += form_completions(form, typed)
        words += META
        return [w for w in dict.fromkeys(words) if w.startswith(typed)]

    def details(self) -> dict[str, str]:
        """Each listed choice's detail, in the game's words (what it scores, costs or does)."""
        return {c.command: c.detail for c in self.choices.commands if c.detail}

    def position(self) -> str:
        from .app import after_move

        return f"{self.game_id}: {after_move(self.moves)}\n{self.game.render(self.state)}"

    def turn(self) -> str:
        """Whose turn, and what may be typed: the commands (with what each does), or their forms, or
        the chance expected."""
        from solrec.core.game import CHANCE

        game, state = self.game, self.state
        to_act = game.to_act(state)
        if to_act is None:
            outcome = game.outcome(state)
            return f"the game is over after move {self.moves}: {outcome.reason if outcome else ''} ({self.score()})"
        move = f"move {self.moves + 1}"
        if to_act == CHANCE:
            lines = [f"{move}: chance to act (type what the table shows)"]
            if self.log.header.chance == ENTERED:
                lines += [f"  {f}" for f in game.chance_forms(state)]
            return "\n".join(lines)
        lines = [f"{move}: {to_act} to act"]
        commands, details = self.legal(), self.details()
        if commands and len(commands) <= LISTED and details:
            width = max(map(len, commands))
            lines += [f"  {c:<{width}}  {details.get(c, '')}".rstrip() for c in commands]
        elif commands and len(commands) <= LISTED:
            lines.append("legal: " + " | ".join(commands))
        elif commands:
            lines.append(f"{len(commands)} legal commands (Tab completes them), e.g. {commands[0]}")
        else:
            lines += [f"  {f}" for f in game.command_forms(state)]
        return "\n".join(lines)

    def score(self) -> str:
        from solrec.core.words import scores

        return scores(dict(self.game.score(self.state).totals))

    def help(self) -> str:
        examples = "; ".join(self.game.notation_examples[:2])
        return (
            f"Type a command in {self.game.title}'s notation (e.g. {examples}); several on one line are separated by ';'.\n"
            "  show   the position again\n"
            "  undo   take back the last move (with the seeded chance it brought); a move with comments\n"
            "         only as 'undo --drop-comments', which drops them too\n"
            "  help   this text\n"
            "  quit   leave (the game stays stored; Ctrl-D too)\n"
            "Tab completes the legal commands, and a form one part at a time (e.g. roll, then each die)."
        )

    def play(self, line: str) -> str:
        """Play one line as ``solrec play ID LINE`` would; returns what to print: each move with what
        its actor did, in the game's words as the table sees them, then the score."""
        from solrec.core.observe import Viewer

        from . import session

        texts = [t.strip() for t in line.split(";") if t.strip()]
        first = self.moves + 1
        steps, log, state, before = session.play_commands(self.store, self.game_id, texts)
        self.reload()
        lines, game, table = [], log.game, Viewer.table()
        for k, step in enumerate(steps):
            lines.append(f"move {first + k}: {step.actor} {game.observation.said(step.actor, step.command, step.events, before, table)}")
            for event in step.events:
                before = game.evolve(before, event)
        if not self.over:
            lines.append(f"score: {self.score()}")
        return "\n".join(lines)

    def undo(self, drop_comments: bool = False) -> str:
        """Take back the last move (and the seeded chance it brought); says which, in words. A move
        that carries comments is refused unless ``drop_comments``, as ``solrec undo`` refuses it."""
        from .manage import comments_text, take_back

        done = take_back(self.store, self.game_id, None, drop_comments=drop_comments)
        self.reload()
        lines = [f"took back move {t['move']}: {t['actor']} {t['said']} (typed as {t['command']})" for t in done["taken_back"]]
        if done["notes_dropped"]:
            lines.append("dropped " + comments_text([c["move"] for c in done["notes_dropped"]]))
        return "\n".join([*lines, f"score: {self.score()}"])


def form_completions(form: Form, typed: str) -> list[str]:
    """The ways ``typed`` goes on in ``form`` up to the end of its next part: the template's words up
    to the next field (``roll ``), or each value of the field being typed with the words after it
    (``roll 6 1 `` then ``roll 6 1 5 ``, ...), a value that fills one field of its kind only once
    (``Field.once``) not offered again. Nothing where ``typed`` does not fit the form."""
    parts = re.split(r"\{(\w+)\}", form.template)  # literal, field, literal, ..., literal
    fields = {f.name: f for f in form.fields}
    out: list[str] = []

    def walk(i: int, done: str, used: frozenset[tuple[str, str]]) -> None:
        rest = typed[len(done):]
        if i % 2 == 0:  # words of the template
            literal = parts[i]
            if rest.startswith(literal):
                if i + 1 < len(parts):
                    walk(i + 1, done + literal, used)
                elif rest == literal:
                    out.append(done + literal)  # the whole command
            elif literal.startswith(rest):
                out.append(done + literal)
            return
        field = fields[parts[i]]
        kind = field.name.rstrip("0123456789")
        after = parts[i + 1] if i + 2 < len(parts) else ""  # the words that follow, up to the next field
        for value in field.values:
            if field.once and (kind, value) in used:
                continue
            if rest.startswith(value):
                walk(i + 1, done + value, used | {(kind, value)})
            elif value.startswith(rest):
                out.append(done + value + after)

    walk(0, "", frozenset())
    return out


def run(store: Any, game_id: str, *, reader: Callable[[str], str] = input, out: Callable[[str], None] = print) -> None:
    """Read commands until the game ends, input ends or ``quit``."""
    table = Table(store, game_id, out)
    interactive = reader is input and sys.stdin.isatty()
    if interactive:
        _complete_with(table, f"{game_id}> ")
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
            elif word in ("undo", "undo --drop-comments"):
                out(table.undo(drop_comments=word != "undo"))
            else:
                out(table.play(line))
        except table.refusals as err:
            out(f"refused: {err}")
            continue
        out(table.turn())


def _complete_with(table: Table, prompt: str) -> None:
    """Tab completes the whole line (commands hold spaces: '6+1 5+5 5'), from the legal commands, the
    choices and the forms (``Table.completions``); one Tab lists what fits, each choice with what it
    does in the game's words ("sums 7 and 10: score -400")."""
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

    def listed(substitution: str, found: Sequence[str], longest: int) -> None:
        details = table.details()
        width = max(map(len, found), default=0)
        lines = [f"  {m:<{width}}  {details[m]}" if m in details else f"  {m}" for m in found]
        # the list, then the prompt and the line as typed again, below it (readline's own list does so)
        sys.stdout.write("\n" + "\n".join(lines) + "\n" + prompt + readline.get_line_buffer())
        sys.stdout.flush()

    readline.set_completer_delims("")
    readline.set_completer(complete)
    if "libedit" in (readline.__doc__ or ""):  # libedit (macOS) spells the binding differently
        readline.parse_and_bind("bind ^I rl_complete")
        return
    readline.set_completion_display_matches_hook(listed)
    readline.parse_and_bind("tab: complete")
    readline.parse_and_bind("set show-all-if-ambiguous on")  # one Tab lists what fits
