"""Solarius Mission notation: what a person types at the table (docs/rules/solarius-mission.md).

A die is its colour and face: ``black3``, ``yellow*``, ``brown*+1``; on the bridge it is written
with its bonus, ``black3@-1``. With a game at hand the face may be left out (``black@-1``) when only
one die of that colour lies on that space. Columns are Roman numerals I, II, III.

Players: ``take black3@-1 standard`` (or ``research``, ``transform yellow``, ``card 17``),
``bonus fuel 1 bucks 1`` (``bonus fuel -1`` pays), ``buy-ap 1``, ``resources black I I II``,
``fuel``, ``bucks``, ``upgrade black black``, ``shift black yellow``, ``draw``, ``play 17 mission``,
``play 17 development``, ``skip``, ``discard 17``, ``drives 2``, ``pass``, ``end-turn``,
``exchange fuel 1 bucks 1 for black I``, ``exchange black I yellow III for fuel 1 bucks 1``,
``upgrade-drive``, ``settle 12``, ``close`` (turn end), ``start shift black upgrade yellow keep 3 17``.
Chance: ``start-card 2``, ``first Alice``, ``roll black 3`` (``*``, ``*+1``), ``hub C``, ``card 17``,
``tiles A0 C3 B1 F5 D2 E4`` (the outer tiles and their rotations), ``planet 12`` (a planet turned).
"""

from __future__ import annotations

from typing import Any

from ..errors import AmbiguousCommand, InvalidCommand
from ..words import quoted
from . import commands as c
from .components import COLOURS

FACES = ("1", "2", "3", "*", "*+1")
ROMAN = {"I": 1, "II": 2, "III": 3}
SPACES = ("standard", "research", "transform", "card")
HELP = (
    "commands: take DIE@BONUS standard|research|transform COLOUR|card N, bonus fuel F bucks B, buy-ap N, "
    "resources COLOUR I II ..., fuel, bucks, upgrade COLOUR..., shift COLOUR..., draw, play N mission|development, "
    "skip, discard N, drives N, pass, end-turn, exchange ... for ..., upgrade-drive, start shift C upgrade C keep N N, "
    "fly [portal flip|return] HEX HEX [P] HEX ..., colonize [outpost N], decline, build CARD COLOUR COLUMN ... [outpost N], "
    "mission CARD COLOUR COLUMN ... [at HUB] [outpost N], hub-bonus N; "
    "chance: start-card N, first PLAYER, roll COLOUR FACE, hub LETTER, card N, tiles A0 C3 B1 F5 D2 E4, planet N"
)


def _int(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise InvalidCommand(f"{what} is a number, not {quoted(word)}") from None


def _colour(word: str) -> str:
    if word not in COLOURS:
        raise InvalidCommand(f"{quoted(word)} is not a colour ({', '.join(COLOURS)})")
    return word


def _column(word: str) -> int:
    if word.upper() not in ROMAN:
        raise InvalidCommand(f"{quoted(word)} is not a storage column (I, II or III)")
    return ROMAN[word.upper()]


def _cubes(words: list[str]) -> tuple[tuple[str, int], ...]:
    """``black I I yellow II``: a colour word sets the row for the columns after it."""
    out = []
    colour = ""
    for w in words:
        if w in COLOURS:
            colour = w
            continue
        if not colour:
            raise InvalidCommand(f"name the colour before the column {quoted(w)} (e.g. 'black I')")
        out.append((colour, _column(w)))
    return tuple(out)


def _die(word: str, state: Any) -> tuple[str, str, int]:
    """``black3@-1`` -> (colour, face, bonus); ``black@-1`` needs the game to find the face."""
    die, sep, bonus_text = word.partition("@")
    if not sep:
        raise InvalidCommand(f"a die on the bridge is written COLOUR FACE@BONUS, e.g. black3@-1, not {quoted(word)}")
    bonus = _int(bonus_text, "a bonus")
    colour = next((col for col in COLOURS if die.startswith(col)), None)
    if colour is None:
        raise InvalidCommand(f"{quoted(word)} does not start with a colour ({', '.join(COLOURS)})")
    face = die[len(colour):]
    if face:
        if face not in FACES:
            raise InvalidCommand(f"{quoted(face)} is not a face (1, 2, 3, *, *+1)")
        return colour, face, bonus
    if state is None:
        raise InvalidCommand(f"write the face of the die, e.g. {colour}3@{bonus}")
    values = state.cset.number("bridge.wheel.values")
    if bonus not in values:
        raise InvalidCommand(f"the bridge has no space with bonus {bonus}")
    faces = sorted({d.face for d in state.bridge[values.index(bonus)] if d.colour == colour})
    if not faces:
        raise InvalidCommand(f"no {colour} die lies on the space with bonus {bonus}")
    if len(faces) > 1:
        raise AmbiguousCommand(f"{quoted(word)} fits " + " and ".join(f"{colour}{f}@{bonus}" for f in faces))
    return colour, faces[0], bonus


def _track(words: list[str]) -> tuple[int, int]:
    fuel = bucks = 0
    if not words or len(words) % 2:
        raise InvalidCommand("write fuel N and/or bucks N")
    for kind, amount in zip(words[::2], words[1::2]):
        if kind == "fuel":
            fuel = _int(amount, "fuel")
        elif kind == "bucks":
            bucks = _int(amount, "SpaceBucks")
        else:
            raise InvalidCommand(f"{quoted(kind)} is neither fuel nor bucks")
    return fuel, bucks


def parse(text: str, state: Any = None) -> c.Command:  # noqa: C901 - one branch per command word
    words = text.strip().split()
    if not words:
        raise InvalidCommand(f"no command given: {HELP}")
    head, rest = words[0].lower(), words[1:]
    low = [w.lower() if w.upper() not in ROMAN else w.upper() for w in rest]
    simple = {"fuel": c.Fuel, "bucks": c.Bucks, "draw": c.Draw, "skip": c.Skip, "pass": c.Pass,
              "end-turn": c.EndTurn, "upgrade-drive": c.UpgradeDrive, "close": c.Close}
    if head in simple and not rest:
        return simple[head]()
    if head == "take" and len(rest) >= 2:
        colour, face, bonus = _die(low[0], state)
        space = low[1]
        if space == "transform" and len(rest) == 3:
            return c.Take(colour, face, bonus, space, new_colour=_colour(low[2]))
        if space == "card" and len(rest) == 3:
            return c.Take(colour, face, bonus, space, card=_int(low[2], "a card"))
        if space in ("standard", "research") and len(rest) == 2:
            return c.Take(colour, face, bonus, space)
        raise InvalidCommand("take DIE@BONUS standard, research, transform COLOUR or card N")
    if head == "bonus":
        fuel, bucks = _track(low)
        return c.Bonus(fuel, bucks)
    if head == "buy-ap" and len(rest) == 1:
        return c.BuyActionPoints(_int(rest[0], "action points"))
    if head == "resources":
        return c.Resources(_cubes(low))
    if head == "upgrade":
        return c.Upgrade(tuple(_colour(w) for w in low))
    if head == "shift":
        return c.Shift(tuple(_colour(w) for w in low))
    if head == "play" and len(rest) == 2 and low[1] in ("mission", "development"):
        return c.PlayCard(_int(rest[0], "a card"), low[1])
    if head == "settle" and len(rest) == 1:
        return c.Settle(_int(rest[0], "a planet"))
    if head == "discard" and len(rest) == 1:
        return c.Discard(_int(rest[0], "a card"))
    if head == "drives" and len(rest) == 1:
        return c.BuyDrives(_int(rest[0], "drives"))
    if head == "exchange" and "for" in low:
        i = low.index("for")
        left, right = low[:i], low[i + 1:]
        if left and left[0] in ("fuel", "bucks"):
            fuel, bucks = _track(left)
            if len(right) != 2:
                raise InvalidCommand("exchange fuel F bucks B for COLOUR COLUMN")
            return c.ExchangeForResource(fuel, bucks, _colour(right[0]), _column(right[1]))
        fuel, bucks = _track(right)
        return c.ExchangeResources(_cubes(left), fuel, bucks)
    if head == "start" and len(rest) == 7 and low[0] == "shift" and low[2] == "upgrade" and low[4] == "keep":
        return c.ChooseStart(_colour(low[1]), _colour(low[3]), (_int(rest[5], "a card"), _int(rest[6], "a card")))
    if head in SPACE_WORDS:
        return parse_space(head, rest, state)
    # chance
    if head == "start-card" and len(rest) == 1:
        return c.DealStartCard(_int(rest[0], "a start card"))
    if head == "first" and rest:
        return c.FirstPlayer(" ".join(rest))
    if head == "roll" and len(rest) == 2:
        if low[1] not in FACES:
            raise InvalidCommand(f"{quoted(rest[1])} is not a face (1, 2, 3, *, *+1)")
        return c.Roll(_colour(low[0]), low[1])
    if head == "hub" and len(rest) == 1:
        return c.RevealHub(rest[0].upper())
    if head == "card" and len(rest) == 1:
        return c.DrawCard(_int(rest[0], "a card"))
    if head == "tiles":
        return c.PlaceTiles(parse_placement(rest))
    if head == "planet" and len(rest) == 1:
        return c.RevealPlanet(_int(rest[0], "a planet"))
    raise InvalidCommand(f"{quoted(text)} is not Solarius Mission notation: {HELP}")


def _cubes_text(cubes: tuple[tuple[str, int], ...]) -> str:
    out: list[str] = []
    colour = ""
    for col, column in cubes:
        if col != colour:
            out.append(col)
            colour = col
        out.append(("I", "II", "III")[column - 1])
    return " ".join(out)


def _track_text(fuel: int, bucks: int) -> str:
    parts = []
    if fuel or not bucks:
        parts.append(f"fuel {fuel}")
    if bucks:
        parts.append(f"bucks {bucks}")
    return " ".join(parts)


def format(command: c.Command, board: Any = None) -> str:  # noqa: C901
    """A command in the notation. A hex is written by its board label (``B7``) when ``board`` is given
    (what players read: ``legal``, ``log``), else axial ``q,r`` (the stored record: no board at hand)."""
    if isinstance(command, c.Take):
        where = command.space
        if command.space == "transform":
            where += f" {command.new_colour}"
        elif command.space == "card":
            where += f" {command.card}"
        return f"take {command.colour}{command.face}@{command.bonus} {where}"
    if isinstance(command, c.Bonus):
        return f"bonus {_track_text(command.fuel, command.bucks)}"
    if isinstance(command, c.BuyActionPoints):
        return f"buy-ap {command.points}"
    if isinstance(command, c.Resources):
        return ("resources " + _cubes_text(command.cubes)).strip()
    if isinstance(command, c.Upgrade):
        return " ".join(("upgrade", *command.colours))
    if isinstance(command, c.Shift):
        return " ".join(("shift", *command.colours))
    if isinstance(command, c.PlayCard):
        return f"play {command.card} {command.side}"
    if isinstance(command, c.Discard):
        return f"discard {command.card}"
    if isinstance(command, c.Settle):
        return f"settle {command.planet}"
    if isinstance(command, c.BuyDrives):
        return f"drives {command.count}"
    if isinstance(command, c.ExchangeForResource):
        return f"exchange {_track_text(command.fuel, command.bucks)} for {command.colour} {('I', 'II', 'III')[command.column - 1]}"
    if isinstance(command, c.ExchangeResources):
        return f"exchange {_cubes_text(command.cubes)} for {_track_text(command.fuel, command.bucks)}"
    if isinstance(command, c.ChooseStart):
        return f"start shift {command.shift} upgrade {command.upgrade} keep " + " ".join(map(str, command.keep))
    if isinstance(command, c.DealStartCard):
        return f"start-card {command.card}"
    if isinstance(command, c.FirstPlayer):
        return f"first {command.player}"
    if isinstance(command, c.Roll):
        return f"roll {command.colour} {command.face}"
    if isinstance(command, c.RevealHub):
        return f"hub {command.hub}"
    if isinstance(command, c.DrawCard):
        return f"card {command.card}"
    if isinstance(command, c.PlaceTiles):
        return "tiles " + " ".join(f"{letter}{rotation}" for letter, rotation in command.placement)
    if isinstance(command, c.RevealPlanet):
        return f"planet {command.planet}"
    if isinstance(command, c.SPACE):
        return format_space(command, board)
    words = {c.Fuel: "fuel", c.Bucks: "bucks", c.Draw: "draw", c.Skip: "skip", c.Pass: "pass",
             c.EndTurn: "end-turn", c.UpgradeDrive: "upgrade-drive", c.Close: "close"}
    if type(command) in words:
        return words[type(command)]
    raise TypeError(f"not a Solarius Mission command: {command!r}")


def parse_placement(words: list[str]) -> tuple[tuple[str, int], ...]:
    """``A0 C3 B1 F5 D2 E4``: per position around the centre (0 at the top, then clockwise) the tile's
    letter and its rotation 0-5 (clockwise, 60 degrees a step)."""
    from .board import OUTER

    if len(words) != len(OUTER):
        raise InvalidCommand(
            f"tiles names the {len(OUTER)} outer tiles, one per position clockwise from the top, each with "
            f"its rotation 0-5 (e.g. tiles A0 C3 B1 F5 D2 E4), not {len(words)} word(s)"
        )
    out = []
    for word in words:
        letter, rotation = word[:1].upper(), word[1:]
        if letter not in OUTER:
            raise InvalidCommand(f"{quoted(word)}: the outer tiles are {', '.join(OUTER)}")
        if not (rotation.isdigit() and len(rotation) == 1 and int(rotation) < 6):
            raise InvalidCommand(f"{quoted(word)}: a tile's rotation is 0-5 (clockwise, 60 degrees a step)")
        out.append((letter, int(rotation)))
    seen = [letter for letter, _ in out]
    for letter in OUTER:
        if seen.count(letter) > 1:
            raise InvalidCommand(f"tile {letter} is named {seen.count(letter)} times; each outer tile lies once")
    return tuple(out)


# -- space (part 2) ------------------------------------------------------------------------------------

SPACE_WORDS = ("fly", "colonize", "decline", "build", "mission", "hub-bonus")


def _take_option(words: list[str], low: list[str], name: str) -> str:
    """Remove an option ``name VALUE`` from the words; its value or ""."""
    if name in low:
        i = low.index(name)
        if i + 1 >= len(words):
            raise InvalidCommand(f"'{name}' needs a value")
        value = words[i + 1]
        del words[i:i + 2]
        del low[i:i + 2]
        return value
    return ""


def _roman_words(low: list[str]) -> list[str]:
    return [w.upper() if w.upper() in ROMAN else w for w in low]


def parse_space(head: str, rest: list[str], state: Any) -> c.Command:  # noqa: C901 - one branch per word
    from .board import parse_hex

    board = state.board if state is not None and getattr(state, "placement", None) else None
    words, low = list(rest), [w.lower() for w in rest]
    if head == "fly":
        portal = ""
        if low[:1] == ["portal"]:
            if len(low) < 2 or low[1] not in ("flip", "return"):
                raise InvalidCommand("fly portal flip (a 2-drive to 1) or fly portal return (a 1-drive to the pool)")
            portal = low[1]
            words = words[2:]
        path: list = []
        jumps: list[int] = []
        jump = False
        for w in words:
            if w.lower() == "p":
                if not path or jump:
                    raise InvalidCommand("'P' stands between two hexes: a jump from a portal to the next hex")
                jump = True
                continue
            path.append(parse_hex(w, board))
            if jump:
                jumps.append(len(path) - 1)
                jump = False
        if not path or jump:
            raise InvalidCommand("fly [portal flip|return] HEX HEX ... (the ship's hex first; 'P' before a hex jumped to)")
        return c.Fly(tuple(path), tuple(jumps), portal)
    outpost = _take_option(words, low, "outpost")
    post = _int(outpost, "an outpost") if outpost else 0
    if head == "colonize" and not words:
        return c.Colonize(post)
    if head == "decline" and not words and not post:
        return c.Decline()
    if head == "hub-bonus" and len(words) == 1 and not post:
        return c.HubBonus(_int(words[0], "an outpost"))
    if head == "build" and words:
        return c.Build(_int(words[0], "a station card"), _cubes(_roman_words(low[1:])), post)
    if head == "mission" and words:
        hub = _take_option(words, low, "at").upper()
        return c.CompleteMission(_int(words[0], "a mission card"), _cubes(_roman_words(low[1:])), hub, post)
    raise InvalidCommand(f"{quoted(' '.join((head, *rest)))} is not Solarius Mission notation: {HELP}")


def format_space(command: Any, board: Any = None) -> str:
    from .board import format_hex

    post = f" outpost {command.outpost}" if getattr(command, "outpost", 0) else ""
    if isinstance(command, c.Fly):
        words = ["fly"]
        if command.portal:
            words += ["portal", command.portal]
        for i, h in enumerate(command.path):
            if i in command.jumps:
                words.append("P")
            words.append(format_hex(h, board))
        return " ".join(words)
    if isinstance(command, c.Colonize):
        return "colonize" + post
    if isinstance(command, c.Decline):
        return "decline"
    if isinstance(command, c.HubBonus):
        return f"hub-bonus {command.outpost}"
    if isinstance(command, c.Build):
        return f"build {command.card} {_cubes_text(command.cubes)}".strip() + post
    if isinstance(command, c.CompleteMission):
        at = f" at {command.hub}" if command.hub else ""
        return f"mission {command.card} {_cubes_text(command.cubes)}".strip() + at + post
    raise TypeError(f"not a Solarius Mission command: {command!r}")
