"""Solo Dice (rule text 004): Sid Sackson's Solitaire Dice as played in Brettspielwelt's SoloWuerfeln."""

from .game import SoloDice

__all__ = ["SoloDice"]
