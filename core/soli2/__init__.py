"""SOLI2 (rule text 002): fill a 7x7 board from the pouch, then jump; duel, give-away, pure skill and
the two solitaires."""

from .game import Soli2

__all__ = ["Soli2"]
