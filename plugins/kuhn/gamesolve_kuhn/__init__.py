"""Kuhn poker for gamesolve, with open-spiel's ``kuhn_poker`` rules for any number of players."""

from gamesolve_kuhn.game import KuhnGame, KuhnState

__all__ = ["KuhnGame", "KuhnState"]
