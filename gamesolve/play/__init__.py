"""Play: people against agents, in the terminal (``gamesolve play``) and in the browser
(``gamesolve serve``); docs/play.md.

* :mod:`gamesolve.play.view` -- what a player sees and types, per game (hook ``gamesolve_play_view``)
* :mod:`gamesolve.play.session` -- the table engine: seats, rotation, turns, results
* :mod:`gamesolve.play.table` -- a table set up from agent specs; :mod:`~gamesolve.play.history`,
  :mod:`~gamesolve.play.coach` -- its hand histories and its coach
* :mod:`gamesolve.play.terminal`, :mod:`gamesolve.play.server` -- the two front ends

The server module needs the ``play`` extra (starlette, uvicorn, websockets); nothing else does.
"""
