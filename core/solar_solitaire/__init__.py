"""Solar Solitaire (rule text 001) with the 40-card Space Dominoes deck, and its solver."""

from .game import SolarSolitaire

__all__ = ["SolarSolitaire"]
