"""The sentences of rule text 001 that the engine enforces, quoted exactly (OCR spelling kept)."""

SOURCE = "001"


def cite(sentence: str) -> str:
    return f'{SOURCE}: "{sentence}"'


WRONG_PAD = cite(
    "(If you deal any rocket - 0-0-0,1-1-1, 2-2-2, or 3-3-3 - on the wrong launch pad, pick up all the "
    "cards, shuffle, and try again.)"
)
MATCH = cite('Two Space Dominoes "match" when they coincide in two identical sections.')
ROCKET_PLAY = cite(
    "When the card you turn is a rocket, and it matches the top card on its correct launch pad, play it "
    "there. Otherwise, put it on the waste heap (and see EMERGENCY RULES, below)."
)
NO_MATCH = cite(
    "When the card you turn is not a rocket, and there's no match for it atop any launch pad, put it on "
    "the waste heap."
)
MUST_PLAY = cite("But, if matches any top launch pad card, you must play it.")
CHOICE = cite("(In cases where it matches more than one top launch pad card, make the play of your choice.)")
CASCADE = cite("Note: if the top waste heap card now matches a top launch pad, you must play it.")
EMERGENCY = cite("As soon as a rocket is in the waste heap, the two EMERGENCY RULES apply:")
STATION = cite(
    "You may start a pile in the space station above any rocket already on it's launch pad."
)
STATION_FIRST = cite("You must begin this space station pile witha Space Domino that matches its rocket.")
STATION_SOURCE = cite(
    "This first space station card can come from atop the waste heap or atop a launch pad pile."
)
FREE_MOVEMENT = cite(
    "You may now move the top Space Domino of any pile to the top of another pile, as long as the two "
    "cards match."
)
EMERGENCY_END = cite(
    "Remember, as soon as all rockets are freed from the waste heap, the two EMERGENCY RULES no longer apply."
)
ROCKET_FIXED = cite(
    "Once a rocket is on it's launch pad, it may not move, and all cards under it are out of play."
)
NOTHING_ON_ROCKET = cite("No card may be played directly on it!")
PAD_FIXED = cite(
    "The four original launch pad cards also never move - even when the EMERGENCY RULES apply."
)
ONCE = cite("You may go through the stockpile cards only once.")
WIN = cite("You win as soon as all 4 rockets are on their correct launch pads.")
LOSE = cite(
    "You lose when the final stockpile card is turned and there's no way to free any rockets stranded in "
    "the waste heap."
)

# -- the options (the new-game form shows each beside its values)
OPTION_OWN_PAD_ROCKET = cite(
    "(If you deal any rocket - 0-0-0,1-1-1, 2-2-2, or 3-3-3 - on the wrong launch pad, pick up all the cards, "
    "shuffle, and try again.)"
)
OPTION_WASTE_FREE_MOVES = cite(
    "You may now move the top Space Domino of any pile to the top of another pile, as long as the two cards match."
)
