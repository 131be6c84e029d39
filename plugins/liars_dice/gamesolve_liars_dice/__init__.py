"""Liar's Dice for gamesolve, with open-spiel's ``liars_dice`` rules."""

from gamesolve_liars_dice.game import LiarsDiceGame, LiarsDiceRules, LiarsDiceState

__all__ = ["LiarsDiceGame", "LiarsDiceRules", "LiarsDiceState"]
