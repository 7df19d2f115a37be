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
    assert "move 1: chance to act (type what the table shows)" in first and "help" in first
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
            assert f"took back move {k + 1}: Ann paired 5+5 and 3+4, leaving 6" in term.expect("typed> ")
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
    assert "move 2: Ann to act" in term.expect("g> ")
    term.send("show\n")
    assert "g: after move 1" in term.expect("g> ")
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


# -- issue 43, item 4: the prompt speaks moves --------------------------------------------------


def typed_in(cli, gid: str = "t") -> Terminal:
    cli.run("new", "solo-dice", "--entered", "--player", "Ann", "--id", gid)
    term = Terminal("play", gid, "--db", str(cli.db))
    return term


def test_the_prompt_counts_moves_as_the_record_does(cli):
    term = typed_in(cli)
    first = term.expect("t> ")
    assert "t: at the set-up" in first and "move 1: chance to act" in first
    term.send("roll 6 1 5 5 5\n")
    answer = term.expect("t> ")
    assert "move 1: chance rolled 6 1 5 5 5" in answer and "move 2: Ann to act" in answer
    term.send("6+1 5+5 5\n")
    answer = term.expect("t> ")
    assert "move 2: Ann paired 6+1 and 5+5, leaving 5" in answer and "move 3: chance to act" in answer
    term.send("show\n")
    assert "t: after move 2" in term.expect("t> ")
    term.send("quit\n")
    assert term.exit_code() == 0
    assert "position" not in term.seen
    assert [e["move"] for e in cli.json("log", "t")["events"]] == [1, 2]  # the log's MOVE column says the same


def test_each_command_is_followed_by_what_it_did_and_the_score(cli):
    term = typed_in(cli)
    term.expect("t> ")
    term.send("roll 6 1 5 5 5; 6+1 5+5 5\n")  # two moves on one line: each said, then the score once
    answer = term.expect("t> ")
    assert "move 1: chance rolled 6 1 5 5 5\r\nmove 2: Ann paired 6+1 and 5+5, leaving 5\r\nscore: Ann -400" in answer
    assert cli.json("score", "t")["scores"] == {"Ann": -400}
    term.send("\x04")
    assert term.exit_code() == 0


def test_a_two_player_game_says_each_seat_and_chance_in_the_tables_words(cli):
    cli.run("new", "soli2", "-p", "Ann", "-p", "Bob", "--seed", "3", "--id", "s")
    term = Terminal("play", "s", "--db", str(cli.db))
    assert "move 2: Ann to act" in term.expect("s> ")
    term.send("place d4\n")
    answer = term.expect("s> ")
    assert "move 2: Ann placed a black marble on d4\r\nmove 3: chance drew a" in answer
    assert "score: Ann 1, Bob 0" in answer and "move 4: Bob to act" in answer
    term.send("undo\n")  # the referee's take-back: the placement and the draw the seed made after it
    answer = term.expect("s> ")
    assert "took back move 2: Ann placed a black marble on d4 (typed as place d4)" in answer
    assert "took back move 3: chance drew a" in answer and "move 2: Ann to act" in answer
    term.send("\x04")
    assert term.exit_code() == 0


def test_undo_says_which_move_it_took_back_in_words(cli):
    term = typed_in(cli)
    term.expect("t> ")
    term.send("roll 6 1 5 5 5; 6+1 5+5 5\n")
    term.expect("t> ")
    term.send("undo\n")
    answer = term.expect("t> ")
    assert "took back move 2: Ann paired 6+1 and 5+5, leaving 5 (typed as 6+1 5+5 5)" in answer
    assert "score: Ann 0" in answer and "move 2: Ann to act" in answer
    term.send("\x04")
    assert term.exit_code() == 0
    assert cli.json("show", "t")["move"] == 1


def test_undo_at_the_prompt_keeps_the_comments_unless_told_to_drop_them(cli):
    cli.run("new", "solo-dice", "--entered", "--player", "Ann", "--id", "t")
    cli.run("play", "t", "roll 6 1 5 5 5; 6+1 5+5 5")
    cli.run("comment", "t", "--at", "2", "--by", "Ref", "why not 6+5?")
    term = Terminal("play", "t", "--db", str(cli.db))
    term.expect("t> ")
    term.send("undo\n")
    refusal = term.expect("t> ")
    assert "refused: t: taking back move 2 would drop 1 comment on move 2: add --drop-comments" in refusal
    assert cli.json("show", "t")["move"] == 2
    term.send("undo --drop-comments\n")
    answer = term.expect("t> ")
    assert "took back move 2: Ann paired" in answer and "dropped 1 comment on move 2" in answer
    term.send("\x04")
    assert term.exit_code() == 0
    assert cli.json("comment", "t")["notes"] == []


def test_tab_completes_a_roll_word_then_each_die_from_its_faces(cli):
    term = typed_in(cli)
    term.expect("t> ")
    term.send("r\t")  # the form's word, written out after the r typed
    term.expect("roll ")
    term.send("6 1 5 5 \t")  # the last die: its six faces listed, the line kept as typed
    listed = term.expect("t> roll 6 1 5 5 ")
    assert [line.strip() for line in listed.splitlines() if line.strip()][-6:] == [f"roll 6 1 5 5 {f}" for f in range(1, 7)]
    term.send("5\n")
    assert "move 1: chance rolled 6 1 5 5 5" in term.expect("t> ")
    term.send("\x04")
    assert term.exit_code() == 0


def test_tab_lists_the_choices_that_fit_with_what_each_scores(cli):
    term = typed_in(cli)
    term.expect("t> ")
    term.send("roll 6 1 5 5 5\n")
    term.expect("t> ")
    term.send("6+\t")
    listed = term.expect("t> 6+")
    assert "6+1 5+5 5  sums 7 and 10: score -400" in listed and "6+5 1+5 5  sums 11 and 6: score -400" in listed
    assert "1+5 5+5 6" not in listed.split("6+\r\n", 1)[-1]  # only what fits the typed start
    term.send("1\t\n")  # one choice fits: Tab writes it out
    assert "move 2: Ann paired 6+1 and 5+5, leaving 5" in term.expect("t> ")
    term.send("\x04")
    assert term.exit_code() == 0


def test_a_form_offers_a_component_placed_once_only_once():
    from solrec.cli.prompt import form_completions
    from solrec.core.game import Field, Form

    pad = ("0-0-1", "0-0-2", "1-2-3")
    deal = Form("deal", "deal {pad0} {pad1}", (Field("pad0", pad, once=True), Field("pad1", pad, once=True)), "deal 0-0-1 1-2-3")
    assert form_completions(deal, "") == ["deal "]
    assert form_completions(deal, "de") == ["deal "]
    assert form_completions(deal, "deal 0-0-1 ") == ["deal 0-0-1 0-0-2", "deal 0-0-1 1-2-3"]
    assert form_completions(deal, "deal 0-0") == ["deal 0-0-1 ", "deal 0-0-2 "]
    assert form_completions(deal, "deal 0-0-1 1-2-3") == ["deal 0-0-1 1-2-3"]
    assert form_completions(deal, "turn") == []


def test_tab_completes_a_soli2_draw_from_the_pouchs_colours(cli):
    cli.run("new", "soli2", "-p", "Ann", "-p", "Bob", "--entered", "--id", "s")
    term = Terminal("play", "s", "--db", str(cli.db))
    assert "move 1: chance to act" in term.expect("s> ")
    term.send("d\t")
    term.expect("draw ")
    term.send("\t")
    listed = term.expect("s> draw ")
    assert "draw black" in listed and "draw white" in listed
    term.send("w\t\n")
    assert "move 1: chance drew a white marble from the pouch" in term.expect("s> ")
    term.send("\x04")
    assert term.exit_code() == 0


def test_a_solarius_mission_tile_laid_is_not_offered_again(cli):
    from solrec.cli.prompt import form_completions
    from solrec.events.store import Store
    from solrec.replay.log import load, state_at

    cli.run("new", "solarius-mission", "-p", "Ann", "-p", "Bob", "--entered", "--id", "m")
    log = load(Store(cli.db), "m")
    (tiles,) = [f for f in log.game.choices(state_at(log), entered=True).forms if f.template.startswith("tiles")]
    assert form_completions(tiles, "tiles A0 ") == [f"tiles A0 {t}" for t in "BCDEF"]
    assert form_completions(tiles, "tiles A0 C") == [f"tiles A0 C{turn} " for turn in range(6)]
