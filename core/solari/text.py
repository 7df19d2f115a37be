"""The sentences of rule text 000 (Solari, short rules) that the engine enforces, quoted exactly,
and references to the readings documented in docs/rules/solari.md."""

SOURCE = "000"


def cite(sentence: str) -> str:
    return f'{SOURCE}: "{sentence}"'


def reading(anchor: str) -> str:
    return f"docs/rules/solari.md#{anchor}"


ORTHOGONAL = cite("The comets may move only horizontal or vertical on the board.")
DICE = cite("The distance of the moves is determined by two dice.")
ONE_OR_TWO = cite("Either you move one piece twice or two pieces once.")
ORDER = cite("You can decide, which number you move first.")
JUMP = cite("Other pieces on the way are jumped over.")
TURN = cite("When you move one comet twice, he may change direction after the first move.")
BOARD = cite("You may not leave the game board (8x8-square).")
FORFEIT = cite("If you cannot move, the move is forfeited.")
MUST_BOTH = cite("But you must move that way in the first, that the second move is possible.")
JOKER = cite("With 6-6 you can move any possible combination.")
SHOT = cite("When there is another comet on the landing square after the first or second move, he will be shot.")
SIMPLE = cite(
    "After a simple shot you must set the shot comet on a margin square in the same horizontal or vertical line."
)
SIMPLE_CHOOSE = cite("You can choose one of the squares, provided they are free.")
SIMPLE_FULL = cite("When all squares are occupied, you can set the shot comet on any free margin square.")
SIMPLE_TWO = cite("When you move two pieces and shoot one, it's a simple shot.")
TWO_SHOTS = cite("When you shoot two comets, they are two simple shots.")
AIMED = cite(
    "When you only move one piece twice and you only shoot one piece, you can set the shot comet on any free "
    "margin square."
)
TOTAL = cite("It is the same condition as for an aimed shot, but with a double.")
REENTER = cite("The opponent must reenter the shot comet in his next move.")
ENTRY_SQUARE = cite("The entering square is determined by the dice, it can be two or one field (with a double).")
ENTRY_SHOT = cite("If there is an adverse comet in the entering square, it is shot with an aimed shot.")
ENTRY_TOTAL = cite("With a double it's a new total shot.")
ENTRY_OWN = cite("Own pieces are shot with a simple shot.")
SELF = cite("When there is an own piece on a landing square, it's always a simple shot.")
SELF_MOVE = cite("It's allowed, to move the shot piece in the second move.")
FACING = cite("When you move a comet, he gets the orientation of the move direction.")
KEEP = cite("Simple shot (as self shot) comets keep their orientation on the margin square.")
AIM_DIR = cite("Aimed shot comets can be set on the margin square in any direction.")
ENTRY_DIR = cite("When you reenter a comet after a total shot, you can choose any of the four orientations.")
CHASER = cite("They shoot always aimed, the condition for an aimed shot does not count for them.")
CHASER_SELF = cite("But a self shot is still a simple shot.")
CHASER_DIAG = cite("Moreover they are the only pieces which may move diagonally.")
BLOCKER = cite(
    "He cannot be shot by the adverse, e.g. adverse pieces are not allowed to land on a square, occupied by a blocker."
)
BLOCKER_SELF = cite("Self shot of the blocker is allowed.")
DOUBLER_MARGIN = cite("The doubler must remain on the margin squares (the orbit of the large planets).")
DOUBLER_CORNER = cite("He can move round the corner in both directions.")
DOUBLER_SHOT = cite("He may not be shot by the adverse, self shot is allowed.")
AFTER = cite("The scoring is only done after both partial moves.")
WIN = cite("Winner is, who completes one round (36 points) first.")
OTHER_TARGET = cite("But you can agree upon other target numbers or a certain number of moves.")
TEAMS = cite("Then Uranus and Neptune play against Saturn and Jupiter.")
COUNTED_BOTH = cite("The scores are counted for both.")
OWN_COMETS = cite("Rows built by the partner are not scored, everyone must score with his own comets.")
PARTNER_SHOT = cite("All kinds of shot are the same for the partner as for the opponents.")
DOMINOES = cite("Each player has his own set of dominoes.")
DOMINO_ORDER = cite("They are in random order and are played from left to right.")
FREE = cite("In the free domino version, you can choose any non played domino.")
REMOVED = cite("Played dominoes are removed from the set.")

# -- the options (the new-game form shows each beside its values)
OPTION_TEAMS = cite("Either evryone plays for himself or you play two against two.")
OPTION_VERSION = cite(
    "When comets in a row are in ascending or descending order without a gap, it's a sequence."
)
OPTION_CHASERS = cite("The chaser has the task to shoot adverse comets and destroy rows effectively.")
OPTION_BLOCKERS = cite(
    "He cannot be shot by the adverse, e.g. adverse pieces are not allowed to land on a square, occupied by a blocker."
)
OPTION_DOUBLERS = cite(
    "The doubler effects rows, when he stands in the same vertical, horizontal or diagonal row of squares, "
    "provided he controls it alone."
)
OPTION_JOKER = cite("With 6-6 you can move any possible combination.")
OPTION_SOURCE = cite(
    "The 21 dominoes (each possible combination, no blanks) are put either open or hidden on the table beside the board."
)
OPTION_TARGET = cite("Winner is, who completes one round (36 points) first.")
OPTION_MOVES = cite("But you can agree upon other target numbers or a certain number of moves.")
OPTION_REENTRY = cite("The opponent must reenter the shot comet in his next move.")
OPTION_PARTNER_DOUBLER = cite(
    "The adverse doubler neutralizes your doubler, when he stand in the same vertical, horizontal or diagonal."
)
OPTION_DIMINISHED = cite("Diminished rows don't count.")
OPTION_SIDES = cite("Then Uranus and Neptune play against Saturn and Jupiter.")
OPTION_FULL_BOTH = cite("They count double as a row of same length.")
OPTION_PARTIALS = cite("When only a part of a row is a sequence, it counts only double as a row of the same length.")
OPTION_UNCHANGED_ROW = cite("The same is valid for altering or extending sequences without altering the row.")
