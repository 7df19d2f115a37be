"""Solar Solitaire rules: what each command may do and the events it produces.

``decide`` works on a scratch copy: every event is folded as soon as it is made, so the forced play,
the cascade from the waste heap, the emergency rules turning on or off, the win and the proven loss
are further events of the same command.
"""

from __future__ import annotations

from ..errors import IllegalCommand
from ..game import Choice, Choices, Field, Form
from . import proof
from .cards import ALL_CARDS, PADS, PLACES, ROCKETS, WASTE, place_index, rocket_pad
from .commands import Card, Deal, Move, Play, Resign, Shuffle, Turn
from .events import (
    ChoiceWaiting,
    DealRefused,
    Dealt,
    EmergencyOff,
    EmergencyOn,
    Lost,
    Moved,
    Played,
    Resigned,
    Shuffled,
    TurnAsked,
    Turned,
    Wasted,
    Won,
)
from .piles import INDEX, ROCKET_PAD, free_moves, match, piles_of
from .state import State, fold_remembered, start_folding

_ROCKETS = frozenset(ROCKETS)


def _all_launched(state: State) -> bool:
    """All four rockets stand on their pads (``State.launched`` of each, at once)."""
    a, b, c, d = state.pads
    return bool(a and b and c and d) and (a[-1], b[-1], c[-1], d[-1]) == ROCKETS


class _Builder:
    def __init__(self, state: State):
        self.state = state
        self.events: list = []
        start_folding()

    def add(self, event) -> None:
        self.events.append(event)
        self.state = fold_remembered(self.state, event)


def _or(words) -> str:
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def where(state: State, card: str) -> str:
    """Where a card lies, in words."""
    if state.hand == card:
        return "it is the turned card"
    for p, pile in enumerate(state.pads):
        if card in pile:
            return f"it lies on pad{p}" if pile[-1] == card else f"it lies in pad{p}'s pile"
    for s, pile in enumerate(state.stations):
        if card in pile:
            return f"it lies on station{s}"
    if card in state.waste:
        depth = len(state.waste) - 1 - state.waste.index(card)
        return "it is the top of the waste heap" if depth == 0 else f"it lies in the waste heap under {depth} card(s)"
    return "it is in the stockpile"


def forced_targets(state: State, card: str) -> tuple[int, ...]:
    """Launch pads the card must be played on: a rocket only on its own pad, no card on a launched rocket."""
    c = INDEX[card]
    pad = ROCKET_PAD[c]
    if pad >= 0:
        return (pad,) if match(INDEX[state.pads[pad][-1]], c) else ()
    return tuple(p for p, pile in enumerate(state.pads) if pile[-1] != ROCKETS[p] and match(INDEX[pile[-1]], c))


# -- the deal ----------------------------------------------------------------------------------------


def _check_undealt(state: State) -> None:
    if state.dealt:
        raise IllegalCommand("the launch pads are dealt already")


def _deal(b: _Builder, pads: tuple[str, ...]) -> None:
    b.add(Dealt(tuple(pads)))
    for p, card in enumerate(pads):
        pad = rocket_pad(card)
        if pad is not None and pad != p:
            b.add(DealRefused(card, p, False))
            return
    if b.state.own_pad_rocket == "redeal":
        for p, card in enumerate(pads):
            if rocket_pad(card) == p:
                b.add(DealRefused(card, p, True))
                return
    if all(b.state.launched(p) for p in range(4)):
        b.add(Won())


def decide_shuffle(state: State, command: Shuffle) -> tuple:
    _check_undealt(state)
    order = tuple(command.order)
    if sorted(order) != sorted(ALL_CARDS) or len(order) != len(ALL_CARDS):
        missing = sorted(set(ALL_CARDS) - set(order))
        raise IllegalCommand(
            f"a shuffle lists each of the 40 cards once ({len(order)} given"
            + (f", missing {missing[0]}" if missing else "") + ")"
        )
    b = _Builder(state)
    b.add(Shuffled(order))
    _deal(b, order[:4])
    return tuple(b.events)


def decide_deal(state: State, command: Deal) -> tuple:
    _check_undealt(state)
    pads = tuple(command.pads)
    if len(pads) != 4:
        raise IllegalCommand(f"a deal is four launch pad cards, pads 0 to 3 ({len(pads)} given)")
    if len(set(pads)) != 4:
        raise IllegalCommand("the deck holds each card once: a deal names four different cards")
    b = _Builder(state)
    _deal(b, pads)
    return tuple(b.events)


# -- turning and the forced plays ------------------------------------------------------------------


def _waiting_text(state: State) -> str:
    card = state.waiting_card
    return (
        f"first play {card}: it matches {_or(PADS[p] for p in state.choice)} and must go on one of them "
        f"({_or(f'play {PADS[p]}' for p in state.choice)})"
    )


def decide_turn(state: State, command: Turn) -> tuple:
    if not state.dealt:
        raise IllegalCommand("the launch pads are not dealt yet")
    if state.choice:
        raise IllegalCommand(_waiting_text(state))
    if not state.stock:
        raise IllegalCommand("the stockpile is used up: it is gone through only once")
    return (TurnAsked(),)


def decide_card(state: State, command: Card) -> tuple:
    if not state.dealt:
        raise IllegalCommand("deal the four launch pads first ('deal a-b-c a-b-c a-b-c a-b-c')")
    if not state.asked:
        raise IllegalCommand("no card is being turned: the player turns the next one with 'turn'")
    card = command.card
    if card not in state.stock:
        raise IllegalCommand(f"{card} was already seen: {where(state, card)}")
    if state.stock_known and card != state.stock[0]:
        raise IllegalCommand(f"the shuffled stockpile turns {state.stock[0]} next, not {card}")
    b = _Builder(state)
    b.add(Turned(card))
    targets = forced_targets(b.state, card)
    if not targets:
        b.add(Wasted(card))
    elif len(targets) == 1:
        b.add(Played(card, targets[0], "stock"))
        _cascade(b)
    else:
        b.add(ChoiceWaiting(card, targets, "stock"))
    _settle(b)
    return tuple(b.events)


def _cascade(b: _Builder) -> None:
    """001: "if the top waste heap card now matches a top launch pad, you must play it" - again and again."""
    while b.state.waste and not _all_launched(b.state):
        top = b.state.waste[-1]
        targets = forced_targets(b.state, top)
        if not targets:
            return
        if len(targets) > 1:
            b.add(ChoiceWaiting(top, targets, "waste"))
            return
        b.add(Played(top, targets[0], "waste"))


def _settle(b: _Builder) -> None:
    """After every command: the emergency rules on or off, the win, and the proven loss."""
    state = b.state
    stranded = not _ROCKETS.isdisjoint(state.waste)
    if stranded and not state.emergency:
        b.add(EmergencyOn(state.stranded))
    elif not stranded and state.emergency:
        b.add(EmergencyOff())
    state = b.state
    if state.result is None and _all_launched(state):
        b.add(Won())
        return
    if state.result is None and not state.stock and not state.choice and not state.asked and state.hand is None:
        piles = piles_of(state)
        if proof.known_not_lost(piles, state.waste_takes_free_moves):
            return  # the player follows (or rejoins) a rescue found before: no search needed
        found, positions = loss_search(piles, state.waste_takes_free_moves)
        if found is False:
            b.add(Lost(state.stranded, positions))


def loss_search(piles, onto_waste: bool) -> tuple[bool | None, int]:
    """Can free movement still free a stranded rocket? (found, positions searched); None: the search
    ran past its budget, so no loss is proven and the game goes on (docs/rules/solar-solitaire.md)."""
    found, positions, _ = proof.rescue(piles, onto_waste)
    return found, positions


def decide_play(state: State, command: Play) -> tuple:
    pad = command.pad
    if not state.choice:
        raise IllegalCommand("no forced play is waiting for a choice: 'play' picks the pad when a card matches several")
    card = state.waiting_card
    assert card is not None
    if pad not in state.choice:
        if state.launched(pad):
            raise IllegalCommand(f"{PADS[pad]}'s rocket is launched: nothing may be played on it")
        raise IllegalCommand(
            f"{card} does not match {state.pads[pad][-1]} on {PADS[pad]}: it must go on {_or(PADS[p] for p in state.choice)}"
        )
    b = _Builder(state)
    b.add(Played(card, pad, "stock" if state.hand is not None else "waste"))
    _cascade(b)
    _settle(b)
    return tuple(b.events)


# -- the emergency rules ---------------------------------------------------------------------------


def check_move(state: State, source: str, target: str) -> str:
    """The card a free move takes, or IllegalCommand with the rule it breaks."""
    if not state.dealt:
        raise IllegalCommand("the launch pads are not dealt yet")
    if state.choice:
        raise IllegalCommand(_waiting_text(state))
    if not state.emergency:
        raise IllegalCommand("free movement only while a rocket lies in the waste heap")
    if source == target:
        raise IllegalCommand("a card moves from one pile to another pile")
    pile = state.pile(source)
    if not pile:
        raise IllegalCommand(f"{'the waste heap' if source == WASTE else source} is empty")
    kind, n = place_index(source)
    if kind == "pad":
        if state.launched(n):
            raise IllegalCommand(f"{source}'s rocket is launched: it and the cards under it never move")
        if len(pile) == 1:
            raise IllegalCommand(f"{source} holds only its original launch pad card, and that never moves")
    card = pile[-1]
    tkind, t = place_index(target)
    own = rocket_pad(card)
    if own is not None:
        if target != PADS[own]:
            raise IllegalCommand(f"a rocket goes only to its own launch pad: {card} only to {PADS[own]}")
    if tkind == "pad" and state.launched(t):
        raise IllegalCommand(f"{target}'s rocket is launched: nothing may be played on it")
    if tkind == WASTE and not state.waste_takes_free_moves:
        # 001: "During these plays, the top waste heap card is playable if a match appears!" - the
        # waste heap gives cards; see docs/rules/solar-solitaire.md
        raise IllegalCommand("free movement takes cards off the waste heap, never onto it (waste_takes_free_moves=no)")
    if tkind == "station":
        if not state.launched(t):
            raise IllegalCommand(
                f"{target} may be started only above a rocket already on its launch pad: {ROCKETS[t]} is not on {PADS[t]}"
            )
        if not state.stations[t]:
            if kind == "station":
                raise IllegalCommand(
                    f"a space station's first card comes from the top of the waste heap or of a launch pad pile, not from {source}"
                )
            if not match(INDEX[card], INDEX[ROCKETS[t]]):
                raise IllegalCommand(f"a space station's first card must match its rocket: {card} does not match {ROCKETS[t]}")
            return card
    top = state.top(target)
    if top is None:
        raise IllegalCommand("the waste heap is empty: a moved card must match the card it goes on")
    if not match(INDEX[card], INDEX[top]):
        raise IllegalCommand(f"{card} does not match {top} on {target}")
    return card


def decide_move(state: State, command: Move) -> tuple:
    card = check_move(state, command.source, command.target)
    b = _Builder(state)
    b.add(Moved(card, command.source, command.target))
    _settle(b)
    return tuple(b.events)


def decide_resign(state: State, command: Resign) -> tuple:
    if not state.dealt:
        raise IllegalCommand("the launch pads are not dealt yet")
    return (Resigned(),)


def legal_moves(state: State) -> tuple[Move, ...]:
    if not state.emergency or state.choice:
        return ()
    piles = piles_of(state)
    return tuple(Move(PLACES[s], PLACES[d]) for s, d in free_moves(piles, state.waste_takes_free_moves))


def legal_commands(state: State) -> tuple:
    if state.over or not state.dealt or state.asked:
        return ()
    if state.choice:
        return (*(Play(p) for p in state.choice), Resign())
    out: list = []
    if state.stock:
        out.append(Turn())
    out.extend(legal_moves(state))
    out.append(Resign())
    return tuple(out)



# -- at the table: what to click (``solrec serve``) ----------------------------------------------
STOCK = "stock"  # the stockpile as a step: turning its next card


def choices(state: State, actor: str) -> Choices:
    """A free move is its pile then the pile it goes to; a forced play's choice the launch pad;
    turning the stockpile itself; resigning. Piles are named as the notation writes them (``pad2``),
    the ``data-spot`` of the picture's piles."""
    from .notation import format as write

    listed = []
    for command in legal_commands(state):
        if isinstance(command, Move):
            card = state.pile(command.source)[-1]
            listed.append(Choice(write(command), (command.source, command.target), "move", f"{card} onto {command.target}"))
        elif isinstance(command, Play):
            listed.append(Choice(write(command), (PADS[command.pad],), "play", f"{state.waiting_card} onto {PADS[command.pad]}"))
        elif isinstance(command, Turn):
            listed.append(Choice(write(command), (STOCK,), "turn", "the next stockpile card"))
        else:
            listed.append(Choice(write(command), (write(command),), write(command)))
    return Choices(actor, tuple(listed))


def chance_choices(state: State) -> tuple[Form, ...]:
    """At an entered table, chance is a form of card names, never an order: the deal or a known
    shuffle (any of the 40 cards per place), the card turned (any card not seen yet). After a shuffle
    typed in, its order fixes the cards turned and stays hidden: no form, the card is typed."""
    if state.dealt:
        if state.stock_known:  # a shuffle typed in fixes every card to come, and its order stays hidden
            return ()
        unseen = tuple(sorted(state.stock))  # every card not seen yet: what the table has not seen, unordered
        return (Form("card", "card {card}", (Field("card", unseen),), f"card {unseen[0]}",
                     "the stockpile card just turned, one not seen yet"),)
    pads = tuple(Field(f"pad{p}", ALL_CARDS, once=True) for p in range(4))
    deck = tuple(Field(f"c{k}", ALL_CARDS, once=True) for k in range(1, len(ALL_CARDS) + 1))
    return (
        Form("deal", "deal {pad0} {pad1} {pad2} {pad3}", pads, "deal 1-2-3 0-0-1 2-3-2 0-1-1",
             "the four launch pad cards as dealt, pads 0 to 3"),
        Form("shuffle", "shuffle " + " ".join(f"{{{f.name}}}" for f in deck), deck,
             "shuffle " + " ".join(ALL_CARDS), "the whole deck in a known order, top first (40 cards)"),
    )

__all__ = [
    "check_move", "choices", "decide_card", "decide_deal", "decide_move", "decide_play", "decide_resign",
    "decide_shuffle", "decide_turn", "forced_targets", "legal_commands", "legal_moves", "loss_search",
    "where",
]
