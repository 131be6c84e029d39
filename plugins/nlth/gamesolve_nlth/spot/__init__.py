"""Spot solving: a heads-up postflop situation solved to a target exploitability with
vector-form CFR over the 1,326 hole-card pairs (``gamesolve spot``, docs/spot.md)."""
