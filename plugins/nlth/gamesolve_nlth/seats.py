"""How many players a hold'em table seats.

A module of its own, free of numba: the plugin registers the game (and its commands) with
these bounds on every ``gamesolve`` command, and importing :mod:`gamesolve_nlth.engine` for
them built the hand evaluator's tables, compiling its kernels, even for ``gamesolve solve
--game kuhn`` (issue 36).
"""

MAX_PLAYERS = 9
MIN_PLAYERS = 2
