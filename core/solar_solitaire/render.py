"""Solar Solitaire as text: the space stations above their launch pads, the waste top, the stock count.

``reveal`` shows every pile whole (bottom to top) and the stockpile in turning order."""

from __future__ import annotations

from .cards import PADS, ROCKETS, STATIONS
from .state import State


def _pile(pile: tuple[str, ...], reveal: bool) -> str:
    if not pile:
        return "-"
    if reveal:
        return " ".join(pile)
    return pile[-1] + (f" ({len(pile)})" if len(pile) > 1 else "")


def render(state: State, reveal: bool = False) -> str:
    out = [f"Solar Solitaire: {state.player}, deal {state.deals}, stock {len(state.stock)}, rockets "
           f"{len(state.rockets_launched)}/4"]
    if not state.dealt:
        out.append("to deal the four launch pads")
        return "\n".join(out)
    out.append("")
    for p in range(4):
        flag = "  LAUNCHED" if state.launched(p) else ""
        out.append(f"{STATIONS[p]:<9} {_pile(state.stations[p], reveal)}")
        out.append(f"{PADS[p]:<9} {_pile(state.pads[p], reveal)}   [rocket {ROCKETS[p]}]{flag}")
    out.append("")
    out.append(f"waste     {_pile(state.waste, reveal)}" + ("" if reveal or len(state.waste) < 2 else f" of {len(state.waste)}"))
    if state.stock_known and reveal:
        out.append(f"stock     {' '.join(state.stock) or '-'}")
    else:
        out.append(f"stock     {len(state.stock)} card(s) face down")
    if state.stranded:
        out.append(f"emergency rules apply: {' '.join(state.stranded)} in the waste heap")
    out.append("")
    if state.result == "won":
        out.append("won: all four rockets stand on their launch pads")
    elif state.result == "lost":
        how = f"{state.searched} positions searched" if state.searched else "proven without a search"
        out.append(f"lost: no way to free {' '.join(state.stranded)} ({how})")
    elif state.result == "resigned":
        out.append("resigned")
    elif state.asked:
        out.append("turning: chance names the card")
    elif state.choice:
        card = state.waiting_card
        out.append(f"{card} must be played: choose {' or '.join(f'play {PADS[p]}' for p in state.choice)}")
    elif state.stock:
        out.append("to turn" + (" or move" if state.emergency else ""))
    else:
        out.append("stock used up: free moves")
    return "\n".join(out)
