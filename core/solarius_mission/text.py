"""The sentences of rule text 003 that the engine enforces and scores, quoted exactly (the test
checks each appears in the text, whitespace aside)."""

SOURCE = "003"


def cite(sentence: str) -> str:
    return f'{SOURCE}: "{sentence}"'


# -- set-up and the player turn
START_CHOICE = cite(
    "A player shifts one tech die one space to the right to column II and upgrades another tech die to 2 points."
)
START_CARDS = cite("He receives two resources each in the other two colors that he places on the depicted empty storage spaces.")
BONUS = cite(
    "The number on the bonus wheel pointing to the space of the taken action die shows how much fuel or "
    "SpaceBucks the player has to subtract from his track at a red -1 or receives at white numbers."
)
BONUS_SPLIT = cite("If he gets a bonus of 2 or 3 the player may take any combination of fuel and SpaceBucks.")
TRACK_MAX = cite("A player may never have more than 10 fuel or SpaceBucks.")
TRANSFORM = cite(
    "The player may change the die on the transformation space in any other color to conduct an action of his choice."
)
TRANSFORM_ONCE = cite(
    "The die remains in this space till the end of the game turn; therefore this function may only be used once per game turn."
)
RESEARCH_ONCE = TRANSFORM_ONCE
RESEARCH = cite(
    "Before the player conducts his normal die action, he draws a progress card from the deck (please keep in mind "
    "the hand limit of 3!) or he plays a progress card he already has in his hand (see below,"
)
CARD_SPACE = cite(
    "As above, a die remains in such a space till the end of the game turn; therefore a function may only be used once per game turn."
)
STAR = cite(
    "A star brings a player as many action points as the value of his tech die in the same color."
)
BUY_AP = cite("Each additional action point costs 2 SpaceBucks.")
CONTAMINATION = cite(
    "Each player taking an action die that brings him 3 or more action points immediately receives 1 space contamination."
)
CONTAMINATION_BESIDE = cite(
    "Space contamination cubes that are next to a player´s mat can never be removed again."
)
PYRAMID = cite(
    "The player may only place resources in a row in column II when he has more filled storage spaces in column I of the same row."
)
TAKE_RESOURCES = cite("If he does not have enough empty warehouse spaces, surplus action points are forfeited.")
ACTIONS = cite("The color of the action die determines the possible action:")
UPGRADE_COST = cite(
    "To upgrade a tech die, the player has to spend as many action points as the tech die had pips before upgrading."
)
SHIFT_COST = cite("Shifting a die costs different amounts of action points according to the column of the die.")
DRIVES = cite(
    "With a supplementary action the player may purchase up to three drive markers for 3 fuel points each."
)
DRAW_TWO = cite(
    "The player first draws the two topmost cards from the drawing deck and takes them to his hand."
)
HAND_LIMIT = cite("Each player may have a maximum of 3 progress cards in hand.")
SIX_MISSIONS = cite("The player may only have a total of six missions during the whole game.")
EXCHANGE = cite("Fuel or SpaceBucks into resouces at the rate of 2:1")
EXCHANGE_VALUE = cite("Note: The resource value according to the column counts, not the number of cubes.")
OWN_DRIVE = cite("The drive marker in player color has a value of “1” on both sides and may not be upgraded.")
UPGRADE_DRIVE = cite(
    "At any time during his player turn the player may remove 3 fuel from his fuel track to turn one of his "
    "drive markers from the “1” to the “2” side."
)
REFILL = cite("Now he places the action die on the space with the red 1 behind the arrow at the bridge.")
SETTLE_WINDOW = cite("This is only possible with fuel and SpaceBucks.")
STATIONS_TURN_END = cite("This is done simultaneously by all players.")
END = cite("After four game turns Solarius Mission ends with the final scoring.")

# -- end game scoring (11.0)
PLANETS = cite("Each successfully settled planet earns the player the listed points.")
UNSETTLED = cite(
    "For 1, 2, 3 not settled planets a player gets 1, 3, 6 minus points – as listed in the bottom left corner of the player mat."
)
SETS = cite(
    "For each “set” of 4 planets of different colors he receives 4 bonus points; for each set of 3 planets of "
    "different colors he receives 2 bonus points – as listed in the bottom right corner of the player mat."
)
STATIONS = cite(
    "The second, third, and fourth built space station earn the player the victory points listed on the player "
    "mat each – the second space station earns 1 victory point, the third 2, and the fourth one 3 victory points."
)
MISSIONS = cite(
    "Completed missions earn the player the printed victory points; not completed missions bring the player, as "
    "listed in the right top corner, 1 minus point each."
)
HUBS = cite(
    "For each of his own playing figures (colony, space station, mission marker but not his space ship) next to a "
    "built commercial hub the player receives 1 victory point."
)
TECH_FACES = cite(
    "Each of his own tech dice that is on its 2 or 4 victory point side brings the player that number of victory points."
)
COLUMNS = cite(
    "Each of his own tech dice that is in column IV or V of his mat earns the player 1 victory point each (as listed on the mat)."
)
STORAGE = cite("For each column of a row where all warehouse spaces are filled, he receives 1 victory point.")
TRACK = cite(
    "If the fuel and SpaceBucks markers are at least in space 5 of the track, the player gets 1 victory each (as "
    "listed below the track on the player mat)."
)
BESIDE = cite(
    "Each space contamination cube that is next to the player mat (and not on a contamination space) the player "
    "gets 1 minus point (as listed in the top left corner of the mat)."
)
NETWORK = cite(
    "The players with the most figures receives 6 victory points, the player with the second most figures 4, the "
    "player with the third most number 2 points."
)
GLOSSARY = cite("Details on all effects may be found in the glossary!")
# -- end game scoring in space (11.0, 9.2 B II.4)
SETS_ONCE = cite("Each planet may be part of only one set.")
OUTPOST_DOUBLE = cite(
    "Each player figure that is in the same hexagon as an outpost earns double the amount of victory points at the end game scoring."
)
NETWORK_CONNECTED = cite(
    "Finally, all players compare the number of their own playing figures (colonies, space stations, mission markers, "
    "but not space ships) that are all connected within the range of their own space ships."
)
NETWORK_OUTPOSTS = cite("They count playing figures in hexagons of outposts double.")
NETWORK_TIE = cite(
    "If there is a tie the victory points of all tied players are added and then divided by the number of tied "
    "players (points are rounded down, if necessary)."
)
NETWORK_PLAYERS = cite("In a three player game only 4 and 2 victory points are received; in a two player game only 2 victory points.")
TIE = cite(
    "If there is a tie, the player among the leading ones who has earned more points by settling planets is the overall winner."
)
SHARED = cite("If there is still a tie, there are two (or more) winners.")

# -- space (part 2): flight and what follows it (9.2 B II)
PORTAL_DRIVE = cite("This is only possible when the player´s space ship already has at least one “standard” drive")
PORTAL_FLIP = cite(
    "To reduce the range of the space ship the player flips one drive with a value of 2 to its front (value 1) or "
    "he removes one drive of value 1 to the pool of markers."
)
OWN_DRIVE_STAYS = cite("The drive in player color always stays with the space ship!")
RANGE = cite("Each “point of range” allows the space ship to move to an adjacent hexagon in space.")
EXTRA_RANGE = cite("Each additional point of range costs two fuel.")
JUMP = cite("If the player has reduced his range to activate the portals in space, he may “jump” from one portal "
            "hexagon to any other portal hexagon.")
END_OF_FLIGHT = cite("The player may, however, fly over any hexagon with his space ship; he may not end his flight in "
                     "hexagons containing:")
ONE_ACTION = cite("At the end of space flight the player may conduct one of the following supplementary actions.")
SETTLE_PLANET = cite("If the player ends his space flight on a planet, he may try to settle it.")
EXPLORER = cite("The explorer bonus is only given to the player who turned the planet when he discovered it and if he "
                "decides to not immediately start settling it.")
STATION_HEX = cite("If the player ends his space flight on an empty hexagon in space neither containing player "
                   "figures, nor a planet, nor a portal, he may build one of his space stations in that spot.")
STATION_ORDER = cite("The player can choose which color he uses for a certain value.")
STATION_FOUR = cite("Each player has six cards; however, he may only build up to four during a game.")
MISSION_HEX = cite("When completing a mission it does not matter if the commercial hub hexagon is still empty or if "
                   "it already has been transferred from the holder to space (and therefore has been built).")
MISSION_PAY = cite("To complete a mission, the player must pay the resources listed on the mission card from his mat")
HUB_BONUS = cite("Per commercial hub a player may receive one bonus – it is like one of the outpost bonuses (see "
                 "also II.4 and in the glossary on page 3).")
SURROUNDED = cite("If this special case is the first completed mission at the commercial hub the player does not "
                  "get a bonus.")
OUTPOST_TILE = cite("He may build an outpost when he has not built another outpost on the outer space tile (named A "
                    "to F) where his space ship is located.")
OUTPOST_FIRST = cite("In addition, the playing figure that is supposed to get the outpost has to be the first of its "
                     "kind in this outer space tile.")
OUTPOST_ORDER = cite("The second outpost of a kind may only be built after the player has already built one outpost "
                     "of each kind (space station, colony, mission).")
COLONIES = cite("twelve colonies, four space stations, one space ship, six mission markers and six outpost markers.")

ALL = tuple(v for k, v in dict(globals()).items() if k.isupper() and isinstance(v, str) and v.startswith('003: "'))

# -- the options (the new-game form shows each beside its values)
OPTION_START = cite("After a few games the players may play without the game start cards.")
OPTION_STATION_EFFECT = cite(
    "Afterwards the permanent effects of all his space stations built earlier are triggered, in any order, once."
)
OPTION_HUB_ADJACENCY = cite(
    "For each of his own playing figures (colony, space station, mission marker but not his space ship) next to "
    "a built commercial hub the player receives 1 victory point."
)
OPTION_OUTPOST_DOUBLES = cite(
    "Each player figure that is in the same hexagon as an outpost earns double the amount of victory points at "
    "the end game scoring."
)
OPTION_NETWORK = cite(
    "Finally, all players compare the number of their own playing figures (colonies, space stations, mission "
    "markers, but not space ships) that are all connected within the range of their own space ships."
)
