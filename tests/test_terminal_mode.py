"""`solrec play ID` with no command: a prompt for typing a real game in (issue 31), driven through a
real pseudo-terminal (the standard library's pty), as a person at a keyboard would."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import sys
import time
from pathlib import Path

import pytest

from .conftest import FIXTURES

SOLREC = Path(sys.executable).parent / "solrec"
WAIT = 120.0  # a generous bound: the machine may be busy


class Terminal:
    """``solrec ARGS`` on a pseudo-terminal: ``send`` types a line, ``expect`` waits for a text."""

    def __init__(self, *args: str):
        pid, fd = pty.fork()
        if pid == 0:  # the child: the command on the terminal
            env = {**os.environ, "TERM": "xterm", "NO_COLOR": "1", "COLUMNS": "120"}
            os.execve(str(SOLREC), [str(SOLREC), *args], env)
        self.pid, self.fd, self.seen = pid, fd, ""

    def expect(self, text: str) -> str:
        """Wait until ``text`` has been shown; returns what was shown up to it, and forgets that."""
        deadline = time.monotonic() + WAIT
        while text not in self.seen:
            left = deadline - time.monotonic()
            assert left > 0, f"waited {WAIT} s for {text!r}; the terminal shows {self.seen[-2000:]!r}"
            ready, _, _ = select.select([self.fd], [], [], min(left, 1.0))
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:  # the child ended
                    chunk = b""
                assert chunk or text in self.seen, f"the command ended before showing {text!r}: {self.seen[-2000:]!r}"
                self.seen += chunk.decode("utf-8", "replace")
        before, _, self.seen = self.seen.partition(text)
        return before

    def send(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def exit_code(self) -> int:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            try:  # read what is left, so the child never blocks on a full terminal
                if select.select([self.fd], [], [], 0.2)[0]:
                    self.seen += os.read(self.fd, 65536).decode("utf-8", "replace")
            except OSError:
                pass
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
        os.kill(self.pid, signal.SIGKILL)
        pytest.fail("the terminal mode did not end")


def worked_example() -> list[str]:
    lines = (FIXTURES / "solo-dice" / "worked-example.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["command"] for line in lines[1:]]


def recorded(cli, game_id: str) -> list[tuple]:
    """What the store holds of a game, but for its id and times: every event's command and data."""
    log = cli.json("log", game_id)
    header = {k: v for k, v in log["header"].items() if k != "id"}
    return [header, *((e["position"], e["step"], e["actor"], e["command"], e["type"], e["data"], e["hash"])
                      for e in log["events"])]


def test_a_solo_dice_game_typed_in_from_dice_is_recorded_as_play_records_it(cli):
    commands = worked_example()
    cli.run("new", "solo-dice", "--entered", "--player", "Ann", "--id", "typed")
    cli.run("new", "solo-dice", "--entered", "--player", "Ann", "--id", "by-play")
    for command in commands:
        cli.run("play", "by-play", command)

    term = Terminal("play", "typed", "--db", str(cli.db))
    first = term.expect("typed> ")
    assert "chance (type what the table shows) to act" in first and "help" in first
    term.send("help\n")
    assert "undo" in term.expect("typed> ")
    term.send("roll 7 1 1 1 1\n")  # a die has no 7: refused in one line, and asked again
    refusal = term.expect("typed> ")
    assert "refused:" in refusal and len([ln for ln in refusal.splitlines() if "refused" in ln]) == 1
    for k, command in enumerate(commands):
        if k == 1:  # Ann's first choice, completed with Tab from a prefix that fits it alone
            term.send(command[:5] + "\t")
            term.expect(command)
            term.send("\n")
        elif k == 3:  # a slip taken back: undo, then the right command
            term.send("5+5 3+4 6\n")
            term.expect("typed> ")
            term.send("undo\n")
            assert "took back" in term.expect("typed> ")
            term.send(command + "\n")
        else:
            term.send(command + "\n")
        if k < len(commands) - 1:
            term.expect("typed> ")
    term.expect("the game is over")
    assert term.exit_code() == 0
    assert recorded(cli, "typed") == recorded(cli, "by-play")
    assert cli.json("show", "typed")["outcome"] is not None


def test_the_prompt_ends_with_its_input_and_keeps_the_game(cli):
    cli.run("new", "solo-dice", "--entered", "--player", "Ann", "--id", "g")
    term = Terminal("play", "g", "--db", str(cli.db))
    term.expect("g> ")
    term.send("roll 6 1 5 5 5\n")
    assert "Ann to act" in term.expect("g> ")
    term.send("show\n")
    assert "g at position 1" in term.expect("g> ")
    term.send("\x04")  # Ctrl-D: input ends
    assert term.exit_code() == 0
    assert cli.json("show", "g")["position"] == 1


def test_quit_leaves_and_a_piped_game_plays_as_typed(cli):
    cli.run("new", "solo-dice", "--entered", "--player", "Ann", "--id", "p")
    result = cli.run("play", "p", input="roll 6 1 5 5 5\nnonsense\n6+1 5+5 5\nquit\nroll 1 1 1 1 1\n")
    assert "refused:" in result.stdout
    assert [e["command"] for e in cli.json("log", "p")["events"]] == ["roll 6 1 5 5 5", "6+1 5+5 5"]


def test_the_terminal_mode_takes_no_json(cli):
    cli.run("new", "solo-dice", "--entered", "--id", "j")
    cli.run("play", "j", "--json", expect=2)
