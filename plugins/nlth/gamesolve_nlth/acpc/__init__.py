"""The ACPC protocol (version 2.0.0, the Annual Computer Poker Competition's dealer and
clients), over the NLTH plugin's rules engine; docs/interop.md.

* :mod:`~gamesolve_nlth.acpc.protocol` -- ``MATCHSTATE`` lines and action tokens, as text.
* :mod:`~gamesolve_nlth.acpc.gamedef` -- an ``nlth`` game as an ACPC game definition.
* :mod:`~gamesolve_nlth.acpc.actions` -- engine actions and ACPC tokens, one into the other.
* :mod:`~gamesolve_nlth.acpc.dealt_hand` -- a hand as the dealer holds it (every card known).
* :mod:`~gamesolve_nlth.acpc.seen_hand` -- a hand as a client sees it, rebuilt for an agent.
* :mod:`~gamesolve_nlth.acpc.dealer`, :mod:`~gamesolve_nlth.acpc.client` -- the two ends
  over TCP; :mod:`~gamesolve_nlth.acpc.cli` -- ``gamesolve acpc dealer | play``.

Positions are ACPC's: position 0 is the big blind heads-up and the small blind with three or
more players; the last position is the button. The engine plays every hand with seat =
position and the button on the last seat, so its rules (pokerkit's) and ACPC's agree
move for move whenever all stacks are equal (docs/interop.md lists where they part).
"""
