"""Leduc poker for gamesolve, with open-spiel's ``leduc_poker`` rules for any number of players."""

from gamesolve_leduc.game import LeducGame, LeducState

__all__ = ["LeducGame", "LeducState"]
