"""The sentences of rule text 004 that the engine enforces and scores, quoted exactly."""

SOURCE = "004"


def cite(sentence: str) -> str:
    return f'{SOURCE}: "{sentence}"'


PAIRS = cite("Each turn you roll five dice and form sums with two pairs of the dice.")
THREE_NUMBERS = cite("On the right, you may only open three numbers.")
MUST_LEAVE = cite(
    "I.e., if you already have three numbers open on the right, you must always leave one of these "
    "three numbers as the leftover die."
)
FREE_THROW = cite(
    "If you don't roll any of your three numbers, you may leave any die unused, and such a free throw "
    "will be marked under F on the right."
)
END = cite("The game ends when one of the numbers on the right is used eight times.")
OPEN_COST = cite("The first time you open each number, it costs 200 points.")
FIFTH_BACK = cite("The fifth time you score each number, you get the 200 points back.")
SIXTH_TO_TENTH = cite(
    "The sixth through tenth time you score each number, you score its basic value from the table below."
)
BEYOND_TEN = cite("You can select a number more than ten times, but it will not score any additional points.")
