"""Solari (rule text 000): comets on an 8x8 board scoring rows, sequences and orientations."""

from .game import Solari

__all__ = ["Solari"]
