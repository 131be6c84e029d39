"""open-spiel games as gamesolve games (``--game openspiel:NAME[(params)]``), and policies
exchanged with open-spiel's ``TabularPolicy``. Needs the ``openspiel`` extra
(``pip install 'gamesolve[openspiel]'``, i.e. the ``open-spiel`` package); docs/interop.md.

* :mod:`gamesolve.openspiel.params` -- open-spiel game names and parameters, checked and typed.
* :mod:`gamesolve.openspiel.game` -- any pyspiel game through the State contract.
* :mod:`gamesolve.openspiel.plugin` -- resolves ``openspiel:`` names through the plugin hook.
* :mod:`gamesolve.openspiel.policy` -- stored policies to ``TabularPolicy`` objects and back.
"""

PREFIX = "openspiel:"
"""Game names with this prefix name open-spiel games."""
