"""Evaluation pieces specific to hold'em: the preflop chart, hand-vs-hand equities, ranges
of the agents, AIVAT over 1,326 hole-card pairs and local best response."""
