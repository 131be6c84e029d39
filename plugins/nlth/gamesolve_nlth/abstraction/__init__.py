"""NLTH card abstraction: lossless preflop, potential-aware EMD buckets on the flop and turn,
equity buckets on the river; cached as zarr. See docs/abstraction.md.

>>> from gamesolve_nlth.abstraction import build_card_abstraction, preset
>>> ab = build_card_abstraction(preset("tiny"))          # doctest: +SKIP
>>> ab.bucket(3, parse_cards("AsKd Qh7c2s3d4h"))          # doctest: +SKIP
"""

from __future__ import annotations

from .cache import abstraction_path, cache_root
from .card_abstraction import (
    CardAbstraction,
    build_card_abstraction,
    load_card_abstraction,
    load_river_equity,
    percentile_buckets,
    within_bucket_std,
)
from .per_flop import FlopBuckets, buckets_for_flop
from .presets import CANONICAL_COUNTS, PRESETS, CardAbstractionParams, preset


def quality_report(ab: CardAbstraction) -> dict:
    """Per-round quality figures measured when ``ab`` was built (see ``quality`` command)."""
    return dict(ab.quality)


__all__ = [
    "CANONICAL_COUNTS",
    "PRESETS",
    "CardAbstraction",
    "CardAbstractionParams",
    "FlopBuckets",
    "abstraction_path",
    "build_card_abstraction",
    "buckets_for_flop",
    "cache_root",
    "load_card_abstraction",
    "load_river_equity",
    "percentile_buckets",
    "preset",
    "quality_report",
    "within_bucket_std",
]
