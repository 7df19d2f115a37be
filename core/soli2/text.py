"""The sentences of rule text 002 that the engine enforces and scores, quoted exactly (OCR typos and
the text's ``**bold**`` marks included, so every citation can be found in the file as it is)."""

SOURCE = "002"
READINGS = "docs/rules/soli2.md"


def cite(sentence: str) -> str:
    return f'{SOURCE}: "{sentence}"'


def reading(section: str) -> str:
    """A reference to a documented reading where the text is silent."""
    return f"{READINGS} ({section})"


OBJECT = cite("Remove your opponent's marbles from the board by jumping over them with your own marbles.")
BLACK_FIRST = cite("Black plays first.")
MARBLES = cite("Use 24 black and 24 white marbles to play.")
FILL_TURNS = cite('Starting with the player who chose "black", players take turns placing marbles onto the board.')
DRAW_AND_PLACE = cite("At your turn, draw a marble from the pouch and place it into any empty pocket on the board.")
OPPONENTS_COLOR = cite("Of course, sometimes you will draw and play your opponent's color.")
ONE_EMPTY = cite("When all 48 stones have been played, there will be one empty pocket somewhere on the board.")
JUMP_TURNS = cite(
    'Starting with the player who chose "black", players take turns jumping and removing marbles from the board.'
)
JUMP = cite(
    "At your turn, pick up one of **your** marbles and jump over an adjacent marble into the empty pocket "
    "on the other side of it."
)
SINGLE_NO_DIAGONAL = cite("You may only jump over a single marble and you cannot jump diagonally.")
REMOVED = cite("The marble you jump over is removed from play and placed into the channel.")
MUST_JUMP = cite(
    "You must jump if you can, even if the only choice is jumping over and removing your own a marble."
)
ANY_COLOR = cite(
    "You are always free to choose any legal jump, regardless of which color marble you are jumping over."
)
PASS = cite("If you have no legal jump available, pass your turn.")
END = cite("The game ends neither player has a legal jump **or** when either player runs out of marbles.")
MOST_WINS = cite("The player with the most marbles remaining wins.")
TIE_CLOSEST = cite(
    "If both players have the same number of marbles remaining at the end of the game, the player with the "
    "marble closest to the center wins."
)
DISTANCE = cite("**Distances are measured horizontally plus vertically**, not diagonally.")
TIE_NEXT = cite(
    "If the two marbles are equally close, remove them and compare the next closest marbles, and so on."
)
TIE_WHITE = cite(
    'If neither player is closer after all marbles have been compared, the player playing "white" wins the '
    'game, since the player playing "black" had the advantage of playing first and jumping first.'
)
TIE_PICTURE = cite("The white marble is 1 space from the center. The black marble is 2 spaces from the center.")
GIVE_AWAY_OBJECT = cite(
    'When playing "give away", the object of the game is to remove your own marbles from the board.'
)
GIVE_AWAY_LEAST = cite(
    "The rules are unchanged except that the player with the **least** marbles remaining wins the game."
)
GIVE_AWAY_TIE = cite("The same tie-breaking rules apply: the player closest to the center wins.")
PURE_NO_POUCH = cite("To play a game of pure skill, the pouch is not used.")
PURE_CHANNELS = cite(
    "Start the game by placing half of the black marbles into each of two channels surrounding the board, "
    "then place half of the white marbles into each channel."
)
PURE_CHOICE = cite(
    'Starting with the player who chose "black", players take turns drawing a marble of their choice from '
    "their own channel and placing it into any empty pocket on the board."
)
PURE_HALF = cite("Each player will place half of the white marbles and half of the black marbles.")
CLASSIC_SETUP = cite("Place all of the marbles onto the board leaving the center pocket empty.")
CLASSIC_JUMPS = cite("Ignoring colors, make a series of legal jumps trying to remove as many pieces as possible.")
SOLO_WIN = cite("You win if you leave only one marble.")
PERFECT = cite("A perfect game is one marble in the center.")
SOLI2_POUCH = cite("Place all of the marbles into the pouch and shake it up.")
SOLI2_ORDER = cite(
    "Draw marbles from the pouch one at a time placing them into the pockets in order: left-to-right, "
    "top-to-bottom, skipping the center pocket."
)
SOLI2_JUMPS = cite("Make a series of legal jumps trying to remove as many pieces as possible.")
SOLI2_OPPOSITE = cite(
    "**You may pick up any marble but you must jump over a marble of the opposite color.**"
)

ALL = tuple(v for k, v in sorted(globals().items()) if k.isupper() and isinstance(v, str) and v.startswith(SOURCE + ":"))

# -- the options (the new-game form shows each beside its values)
OPTION_MODE = cite("Decide which variant of the game you would like to play.")
OPTION_FILL = cite("To play a game of pure skill, the pouch is not used.")
OPTION_OBJECTIVE = cite(
    'When playing "give away", the object of the game is to remove your own marbles from the board.'
)
